# C entry points of _shape.pyx for other compiled modules (the styles' tuning walks a map held in a
# C array, and asks these thousands of times a board).

cdef int look_around_cell(int n, const int *regions, int cell) noexcept nogil
