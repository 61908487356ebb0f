# The compiled Tango solution counter: the contract of `_count.pyx`.
#
# Cells are r * n + c (rows and columns from 0); a value is 0 for a sun, 1 for a moon. A row is a
# bitmask of its moons (bit c = column c). A layout (tg_layout) is the board: its size, its givens as
# per-row masks, and its clues as per-row masks of the edges they sit on.

from libc.stdint cimport uint64_t

cdef enum:
    TG_MAXN = 12
    TG_MAXLINES = 924          # C(12, 6): every balanced line of length 12, an upper bound

cdef struct tg_layout:
    int n
    unsigned int full          # n ones
    unsigned int known[TG_MAXN]      # bit c: (r, c) is given
    unsigned int moons[TG_MAXN]      # bit c: (r, c) is a given moon
    unsigned int hsame[TG_MAXN]      # bit c: an = joins (r, c) and (r, c + 1)
    unsigned int hdiff[TG_MAXN]      # bit c: an x joins (r, c) and (r, c + 1)
    unsigned int vsame[TG_MAXN]      # bit c: an = joins (r - 1, c) and (r, c)   (row r >= 1)
    unsigned int vdiff[TG_MAXN]      # bit c: an x joins (r - 1, c) and (r, c)

# The valid lines of length n (balanced, never three alike), as moon masks in increasing order;
# returns how many (`lines` may be NULL to ask only that).
cdef int tg_valid_lines(int n, unsigned short *lines) noexcept nogil
# An empty layout of size n (0 when n is not even 4..12).
cdef bint tg_layout_init(tg_layout *L, int n) noexcept nogil
# Give a cell a value (0 sun, 1 moon, anything else: empty).
cdef void tg_set_cell(tg_layout *L, int cell, int value) noexcept nogil
# Put a clue on the edge between neighbouring cells a < b (0 when they are not neighbours).
cdef bint tg_set_clue(tg_layout *L, int a, int b, bint same) noexcept nogil
# Count solutions up to `limit`, storing up to `limit` of them as n rows of moon masks each in `out`
# when it is not NULL; -1 when the deadline (monotonic seconds, 0 = none) passed first.
cdef int tg_count(const tg_layout *L, int limit, double deadline, unsigned int *out,
                  long long *nodes) noexcept nogil
# The same with a budget of search nodes (0: none): -2 when it ran out first.
cdef int tg_count_capped(const tg_layout *L, int limit, double deadline, unsigned int *out,
                         long long *nodes, long long max_nodes) noexcept nogil
# A random solution of the layout (rows of moon masks into `rows`), the search's choices drawn from
# the splitmix64 state `rng`; 0 when there is none.
cdef bint tg_random_solution(const tg_layout *L, uint64_t *rng, unsigned int *rows) noexcept nogil
