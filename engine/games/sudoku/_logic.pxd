# The compiled Sudoku technique ladder: the contract of `_logic.pyx`.
#
# A position (sd_state) is what a person has on paper: the placed digits (`val`, 1..9, 0 = empty)
# and the pencil marks of the empty cells (`cand`, 9-bit masks, bit d = digit d + 1; 0 for a placed
# cell). Placing a digit also removes it from the marks of the cell's 20 peers: that bookkeeping is
# part of the placement, not a step of its own. `broken` records a placement on a cell that did not
# have the digit as a mark (only possible in a position with no solution).
#
# A finder looks at a position and fills one step (sd_step) without changing the position; the
# caller applies it. Candidates in a step are numbered cell * 9 + d. A technique id is the technique's
# position in the one table (table.py), which also gives its tier, cost and sentence; setup.py
# compiles the dispatch from it (_table.pxi).

from libc.stdint cimport uint16_t, uint64_t

cdef struct sd_state:
    uint16_t cand[81]
    unsigned char val[81]
    int nempty
    bint broken

DEF MAXPATTERN = 256

cdef struct sd_step:
    int tech                      # the technique id (set by sd_find, not by the finder)
    int nplace
    int place[81]                 # candidates placed
    int nelim
    int elim[729]                 # candidates ruled out
    int nunits
    int units[16]                 # units the deduction reasons about (0-8 rows, 9-17 columns, 18-26 boxes)
    int ncells
    int cells[MAXPATTERN]         # the pattern: cells, or candidates for chains (see table.py)
    int digits                    # digit mask of the pattern
    int kind                      # a technique-specific detail (see table.py)

cdef bint sd_find(int tech, const sd_state *s, sd_step *o) noexcept nogil
cdef void sd_apply(sd_state *s, const sd_step *o) noexcept nogil
cdef bint sd_contradiction(const sd_state *s) noexcept nogil
# Run the ladder with the techniques `order` (ids, tried in that order, restarting from the first
# after every step) until solved (returns 1), contradiction (2) or stall (0). The ids used are
# written to `used` (room for `max_steps`; the run stops there, returning 0).
cdef int sd_run(sd_state *s, const int *order, int norder, int *used, int max_steps, int *nused,
                sd_step *scratch) noexcept nogil
