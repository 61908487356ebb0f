# The compiled probe of the Star Battle ladder: the contract of `_techniques.pyx`.
#
# A hypothetical step asks, for one candidate after another, "does a star here lead to a
# contradiction?". The Python ladder answers that by carrying a copy of the position on with its
# techniques (techniques.py, `probe`); this module answers the same question in C, so that the many
# probes that fail cost little. It is a filter only: a cell it reports is probed again in Python,
# whose answer (and sentence) is the one recorded, so grades never depend on this module. A parity
# test checks that it never misses a contradiction the Python probe finds.
#
# Cells and units are numbered as in _search.pxd.
# A probe runs, after placing the assumed star:
#   the basic rules to a fixed point (stars clear what they attack, full units clear the rest,
#   a unit with as many candidates as stars still needed takes them all), then checks every unit
#   can still fit its stars; at level 2, while `budget` allows, the first tier-2 deduction in the
#   Python ladder's own order (confinement, shared neighbour, crowding), then the basic rules again.

from engine.games.starbattle._search cimport Search


# The geometry, the state and the basic rules (_enqueue, _eliminate, _place, _propagate) are the
# search's own: a probe loads a position instead of starting empty, and never backtracks.
cdef class Prober(Search):
    cdef int nbytes
    cdef unsigned char *attacks   # ncells * ncells: 1 where two cells attack each other
    # the loaded position
    cdef unsigned char *base_cand
    cdef unsigned char *base_star
    # scratch
    cdef int *count
    cdef int *buf
    cdef unsigned char *touched
    cdef unsigned char *one

    cdef bint _load(self) noexcept nogil
    cdef bint _closure(self) noexcept nogil
    cdef bint _fits(self, int *cells, int size, int want) noexcept nogil
    cdef int _confinement(self) noexcept nogil
    cdef int _shared_neighbour(self) noexcept nogil
    cdef int _crowding(self) noexcept nogil
    cdef bint _probe(self, int cell, int level, int budget) noexcept nogil
