# The compiled Star Battle search: the contract of `_search.pyx`, and the basic rules every compiled
# module of the family applies (the probe of _techniques.pyx is a Search that loads a position).
#
# A board of n x n cells, k stars per row, column and region, no two stars touching (and, when
# `diagonals` is set, no two on a chess diagonal). Cells are numbered r * n + c. Units are numbered
# rows 0..n-1, columns n..2n-1, regions 2n..3n-1; every cell lies in exactly three units.
#
# The state is a set of candidate cells and a set of stars, as bitsets of 64-bit words, beside each
# unit's counts of candidates and stars. The basic rules: a star rules out the cells it attacks; a unit
# holding its k stars loses its other candidates ("full"); a unit with exactly as many candidates as
# stars still needed takes them all ("forced"). A propagation applies the last two to the units whose
# counts changed (a 64-bit set of units), until none applies, and fails as soon as one of those has more
# than k stars or fewer candidates than stars still needed.

from libc.stdint cimport uint64_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef enum:
    MAX_WORDS = 8               # 512 cells
    MAX_UNITS = 64              # 3n units, as bits of one word: boards up to 21 x 21 (rules allow 20)


cdef class Search:
    cdef int n, k, ncells, nunits, nwords
    cdef bint diagonals
    # geometry
    cdef uint64_t *unit_bits      # nunits * nwords: each unit's cells
    cdef uint64_t *attack_bits    # ncells * nwords: the cells a star on each cell rules out
    cdef uint64_t *units_of       # per cell: its three units, as bits of a 64-bit set
    cdef int *unit_ids            # per cell: its three units (row, column, region)
    cdef int unit_size[MAX_UNITS]
    cdef uint64_t all_cells[MAX_WORDS]
    # the state: candidates and stars, and per unit its candidates and stars
    cdef uint64_t cand[MAX_WORDS]
    cdef uint64_t star[MAX_WORDS]
    cdef int ucands[MAX_UNITS]
    cdef int ustars[MAX_UNITS]
    cdef int nstars
    # search bookkeeping
    cdef uint64_t *saved_bits     # per depth: cand and star (2 * nwords)
    cdef int *saved_counts        # per depth: ucands and ustars, whole (2 * MAX_UNITS)
    cdef int limit, nsolutions
    cdef int *solutions           # limit * n * k cells
    cdef long long nodes
    cdef long long max_nodes
    cdef double deadline
    cdef bint timed_out
    cdef bint randomize
    cdef uint64_t rng

    cdef void _map(self, regions) except *
    cdef void _reset(self) noexcept nogil
    cdef void _count_units(self) noexcept nogil
    cdef bint _units_ok(self, int cell) noexcept nogil
    cdef bint _start(self, stars, eliminated) except -1
    cdef list _collect(self)
    cdef void _alloc_solutions(self, int limit) except *


cdef inline void _set_bit(uint64_t *words, int cell) noexcept nogil:
    words[cell >> 6] |= (<uint64_t> 1) << (cell & 63)


cdef inline void _clear_bit(uint64_t *words, int cell) noexcept nogil:
    words[cell >> 6] &= ~((<uint64_t> 1) << (cell & 63))


cdef inline bint _has(const uint64_t *words, int cell) noexcept nogil:
    return (words[cell >> 6] >> (cell & 63)) & 1


cdef inline void _take_out(Search s, int cell, uint64_t *dirty) noexcept nogil:
    """A candidate ruled out: its units lose a candidate and need another look."""
    cdef const int *ids = s.unit_ids + 3 * cell
    s.cand[cell >> 6] &= ~((<uint64_t> 1) << (cell & 63))
    s.ucands[ids[0]] -= 1
    s.ucands[ids[1]] -= 1
    s.ucands[ids[2]] -= 1
    dirty[0] |= s.units_of[cell]


cdef inline void _take_out_all(Search s, uint64_t removed, int w, uint64_t *dirty) noexcept nogil:
    """The candidates in `removed` (word w, all still candidates) ruled out."""
    cdef int cell
    cdef const int *ids
    s.cand[w] &= ~removed
    while removed:
        cell = w * 64 + __builtin_ctzll(removed)
        removed &= removed - 1
        ids = s.unit_ids + 3 * cell
        s.ucands[ids[0]] -= 1
        s.ucands[ids[1]] -= 1
        s.ucands[ids[2]] -= 1
        dirty[0] |= s.units_of[cell]


cdef inline void _place_bits(Search s, int cell, uint64_t *dirty) noexcept nogil:
    """A star on `cell` (a candidate): it leaves the candidates for the stars, and the cells it
    attacks leave the candidates."""
    cdef int w, nwords = s.nwords
    cdef const uint64_t *attacks = s.attack_bits + cell * nwords
    cdef const int *ids = s.unit_ids + 3 * cell
    cdef uint64_t removed
    s.cand[cell >> 6] &= ~((<uint64_t> 1) << (cell & 63))
    _set_bit(s.star, cell)
    s.nstars += 1
    s.ucands[ids[0]] -= 1
    s.ucands[ids[1]] -= 1
    s.ucands[ids[2]] -= 1
    s.ustars[ids[0]] += 1
    s.ustars[ids[1]] += 1
    s.ustars[ids[2]] += 1
    dirty[0] |= s.units_of[cell]
    for w in range(nwords):
        removed = s.cand[w] & attacks[w]
        if removed:
            _take_out_all(s, removed, w, dirty)


cdef bint _propagate_bits(Search s, uint64_t dirty) noexcept nogil
