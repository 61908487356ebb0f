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


cdef inline long choose(object rng, const double *cum, long n) except -1:
    """The index rng.choices draws for running weight sums cum[0 .. n - 1] (n > 0): one random() scaled
    by the total, then bisect_right over cum[0 .. n - 2]."""
    cdef double x = rng.random() * (cum[n - 1] + 0.0)
    cdef long lo = 0, hi = n - 1, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if x < cum[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo
