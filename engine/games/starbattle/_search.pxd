# The compiled Star Battle search: the contract of `_search.pyx`.
#
# A board of n x n cells, k stars per row, column and region, no two stars touching (and, when
# `diagonals` is set, no two on a chess diagonal). Cells are numbered r * n + c. Units are numbered
# rows 0..n-1, columns n..2n-1, regions 2n..3n-1; every cell lies in exactly three units.
#
# The state is a set of candidate cells and a set of stars; every change is written to a trail so
# that a branch is undone by popping back to a mark. Propagation is "a full unit clears its other
# candidates" and "a unit with exactly as many candidates as stars still needed takes them all".

from libc.stdint cimport uint64_t

cdef class Search:
    cdef int n, k, ncells, nunits
    cdef bint diagonals
    # geometry: unit membership, unit cell lists, attack lists (flattened, with offsets)
    cdef int *cell_units          # ncells * 3
    cdef int *unit_start          # nunits + 1
    cdef int *unit_cells          # 3 * ncells
    cdef int *attack_start        # ncells + 1
    cdef int *attack_cells
    # mutable state
    cdef unsigned char *cand
    cdef unsigned char *star
    cdef int *ucands
    cdef int *ustars
    cdef int nstars
    cdef int *trail               # entries cell * 2 + (1 if star else 0)
    cdef int trail_len
    cdef int *queue               # units waiting to be propagated
    cdef unsigned char *queued
    cdef int qhead, qtail
    # search bookkeeping
    cdef int limit, nsolutions
    cdef int *solutions           # limit * n * k cells
    cdef long long nodes
    cdef long long max_nodes
    cdef double deadline
    cdef bint timed_out
    cdef bint randomize
    cdef uint64_t rng

    cdef void _set_regions(self, const int *regions) noexcept nogil
    cdef void _reset(self) noexcept nogil
    cdef void _enqueue(self, int u) noexcept nogil
    cdef bint _start(self, stars, eliminated) except -1
    cdef list _collect(self)
    cdef void _alloc_solutions(self, int limit) except *
    cdef bint _eliminate(self, int cell) noexcept nogil
    cdef bint _place(self, int cell) noexcept nogil
    cdef bint _propagate(self) noexcept nogil
    cdef void _undo(self, int mark) noexcept nogil
    cdef int _choose_unit(self) noexcept nogil
    cdef int _choose_cell(self, int unit) noexcept nogil
    cdef bint _search(self) noexcept nogil
