# C entry points of _regions.pyx for other compiled modules (a style's tuning walks a map held in a
# C array, and asks these thousands of times a board).

cdef bint stays_one_piece(int n, const int *regions, int cell, int label, int *stack,
                          unsigned char *seen) noexcept nogil
