# The compiled probe of the Star Battle ladder: the contract of `_techniques.pyx`.
#
# A hypothetical step asks, for one candidate after another, "does a star here lead to a
# contradiction?". The Python ladder answers that by carrying a copy of the position on with its
# techniques (techniques.py, `probe`); this module answers the same question in C, so that the many
# probes that fail cost little. It is a filter only: a cell it reports is probed again in Python,
# whose answer (and sentence) is the one recorded, so grades never depend on this module. A parity
# test checks that it never misses a contradiction the Python probe finds.
#
# Cells are r * n + c; units are rows 0..n-1, columns n..2n-1, regions 2n..3n-1 (as in _search.pxd).
# A probe runs, after placing the assumed star:
#   the basic rules to a fixed point (stars clear what they attack, full units clear the rest,
#   a unit with as many candidates as stars still needed takes them all), then checks every unit
#   can still fit its stars; at level 2, while `budget` allows, the first tier-2 deduction in the
#   Python ladder's own order (confinement, shared neighbour, crowding), then the basic rules again.

cdef class Prober:
    cdef int n, k, ncells, nunits, nbytes
    cdef bint diagonals
    # geometry
    cdef int *cell_units          # ncells * 3
    cdef int *unit_start          # nunits + 1
    cdef int *unit_cells          # 3 * ncells
    cdef int *attack_start        # ncells + 1
    cdef int *attack_cells
    cdef unsigned char *attacks   # ncells * ncells: 1 where two cells attack each other
    # the loaded position
    cdef unsigned char *base_cand
    cdef unsigned char *base_star
    # the probe's state
    cdef unsigned char *cand
    cdef unsigned char *star
    cdef int *ucands
    cdef int *ustars
    cdef int nstars
    cdef int *queue
    cdef unsigned char *queued
    cdef int qhead, qtail
    # scratch
    cdef int *count
    cdef int *buf
    cdef unsigned char *touched
    cdef unsigned char *one

    cdef void _enqueue(self, int u) noexcept nogil
    cdef bint _eliminate(self, int cell) noexcept nogil
    cdef bint _place(self, int cell) noexcept nogil
    cdef bint _propagate(self) noexcept nogil
    cdef bint _reset(self) noexcept nogil
    cdef bint _closure(self) noexcept nogil
    cdef bint _fits(self, int *cells, int size, int want) noexcept nogil
    cdef int _confinement(self) noexcept nogil
    cdef int _shared_neighbour(self) noexcept nogil
    cdef int _crowding(self) noexcept nogil
    cdef bint _probe(self, int cell, int level, int budget) noexcept nogil
