# Shared by the compiled drawings that take their draws from a Python `random.Random` passed in, in the
# order its own methods would make them, so that a seed gives what the pure-Python drawing gave.
# Inline, so nothing extra is compiled.

from libc.math cimport rint


cdef inline long below(object rng, long n) except -1:
    """rng.randrange(n) for n > 0 (CPython's _randbelow): getrandbits(bit length of n) until one is
    below n."""
    cdef int k = 0
    cdef long m = n, r
    while m:
        k += 1
        m >>= 1
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


cdef inline long round_even(double x) noexcept:
    """Python's round(x): to the nearest integer, halves to even (rint in the default rounding mode)."""
    return <long> rint(x)
