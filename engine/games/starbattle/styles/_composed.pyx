# Compiled piece placement of the composed style (styles/composed.py draws the rest of the map).
#
# Placing the pieces is most of a composed drawing's time, and nearly all of it is random draws. The
# draws here are the ones `random.Random`'s methods make, taken from the same generator in the same
# order: randrange, randint and choice draw `getrandbits(k)` for k the bit length of the range until
# one falls inside it (CPython's _randbelow); uniform and choices scale one `random()`. So a seed
# gives the same pieces as the Python code did, and the same boards.

cimport cython
from libc.math cimport pow, rint
from libc.stdlib cimport calloc, free

DEF UNASSIGNED = -1


cdef inline long _below(object rng, long n) except -1:
    """rng.randrange(n) for n > 0: getrandbits(bit length of n) until one is below n."""
    cdef int k = 0
    cdef long m = n, r
    while m:
        k += 1
        m >>= 1
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


cdef inline long _round(double x) noexcept:
    """Python's round(x): to the nearest integer, halves to even (rint in the default rounding mode)."""
    return <long> rint(x)


@cython.cdivision(False)
cdef inline long _floordiv(long a, long b) noexcept:
    """Python's a // b for b > 0, toward minus infinity (the build compiles // as C's, which truncates)."""
    return a // b


cdef int _shape(int n, int star, int size, object rng, double thin, unsigned char *cells) except -1:
    """A random geometric shape of about `size` cells holding `star` marked in `cells` (cleared
    first; n * n flags): a rectangle (a bar when one wide), or, more often, two or three overlapping
    rectangles (L, T, plus, steps, thick corners). Returns its cell count, 0 when it leaves the grid."""
    cdef int sr = star // n, sc = star % n, parts, first, part, area, h, w, t, top, left, r, c
    cdef int count = 0, anchor_r = sr, anchor_c = sc, pick, cell = 0
    cdef long least, most
    cdef double x, low, high
    for cell in range(n * n):
        cells[cell] = 0
    # rng.choices((1, 2, 3), (0.1, 0.45, 0.45))[0]: cumulative weights 0.1, 0.55, 1.0, bisected
    low = 0.1
    high = low + 0.45
    x = rng.random() * ((high + 0.45) + 0.0)
    parts = 1 + (x >= low) + (x >= high)
    if parts == 1:
        first = size
    else:
        x = rng.random()
        first = max(2, _round(size * (0.35 + (0.65 - 0.35) * x)))   # rng.uniform(0.35, 0.65)
    for part in range(parts):
        if part == 0:
            area = first
        else:
            area = max(2, _floordiv(size - count, parts - part) + _below(rng, 3))   # + rng.randint(0, 2)
        if parts > 1 and rng.random() < thin:
            h, w = 1, max(2, min(n, area))          # a bar: bars joined end to end make L, U and steps
        else:
            least = 2 if area >= 4 else 1
            most = max(2, min(n, _round(1.4 * pow(<double> area, 0.5))))
            h = least + _below(rng, most - least + 1)       # rng.randint(least, most)
            w = max(1, min(n, _round(<double> area / h)))
        if rng.random() < 0.5:
            t = h
            h = w
            w = t
        top = anchor_r - _below(rng, h)
        left = anchor_c - _below(rng, w)
        if top < 0 or left < 0 or top + h > n or left + w > n:
            return 0
        for r in range(top, top + h):
            for c in range(left, left + w):
                if not cells[r * n + c]:
                    cells[r * n + c] = 1
                    count += 1
        pick = _below(rng, count)                   # rng.choice(sorted(cells))
        for cell in range(n * n):
            if cells[cell]:
                if pick == 0:
                    break
                pick -= 1
        anchor_r = cell // n
        anchor_c = cell % n
    return count


def place(int n, list regions, int star, int label, int size, stars, object rng, double thin) -> list:
    """Cells of a free geometric shape of about `size` cells through `star` holding no other star of
    `stars` (written into `regions` as `label`), or [] when none fits in 16 tries; `thin`: the share
    of a piece's parts drawn as one-cell-wide bars."""
    cdef int attempt, cell, count
    cdef bint fits
    cdef unsigned char *cells = <unsigned char *> calloc(n * n, 1)
    if not cells:
        raise MemoryError()
    try:
        for attempt in range(16):
            count = _shape(n, star, max(3, size - attempt // 4), rng, thin, cells)
            if not count:
                continue
            fits = True
            for cell in range(n * n):
                if cells[cell] and cell != star and (regions[cell] != UNASSIGNED or cell in stars):
                    fits = False
                    break
            if fits:
                placed = [cell for cell in range(n * n) if cells[cell]]
                for cell in placed:
                    regions[cell] = label
                return placed
        return []
    finally:
        free(cells)
