# The square grid's edge neighbours for compiled modules, inlined where it is cimported (the walks of
# repair, the styles' drawing and tuning, and _regions.pyx call it for every cell they visit).

cdef inline int edge_neighbours(int n, int cell, int *out) noexcept nogil:
    """The cells sharing an edge with `cell`: up, down, left, right (engine.core.grid's order);
    writes them to `out` (room for 4) and returns how many."""
    cdef int r = cell // n, c = cell % n, count = 0
    if r > 0:
        out[count] = cell - n
        count += 1
    if r + 1 < n:
        out[count] = cell + n
        count += 1
    if c > 0:
        out[count] = cell - 1
        count += 1
    if c + 1 < n:
        out[count] = cell + 1
        count += 1
    return count
