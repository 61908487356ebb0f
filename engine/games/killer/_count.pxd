# The compiled Killer Sudoku solution counter: the contract of `_count.pyx`.
#
# Cells are r * 9 + c (rows and columns from 0), digits 0..8 inside (1..9 outside), a cell's
# candidates a 9-bit mask (bit d = digit d + 1). A layout (kl_layout) is the cages: each cell's cage,
# each cage's cells and sum, and each cell's peers (its 20 Sudoku peers plus its cage mates).

from libc.stdint cimport uint16_t

DEF MAXCAGES = 81

cdef struct kl_layout:
    int ncages
    int cage_of[81]
    int cage_size[MAXCAGES]
    int cage_sum[MAXCAGES]
    int cage_cells[MAXCAGES * 9]
    int npeers[81]
    int peers[81 * 28]

cdef struct kl_pos:
    uint16_t cand[81]
    unsigned char done[81]        # 1 once the cell's single digit has been removed from its peers
    int nsolved

# Read the cages (a cage number per cell, 0..ncages-1, and each cage's sum); 0 when malformed.
cdef bint kl_layout_from(kl_layout *L, const int *cage_of, const int *sums, int ncages) noexcept nogil
# Propagate singles, hidden singles and cage sums to a fixed point; 0 on a contradiction.
cdef bint kl_propagate(const kl_layout *L, kl_pos *p) noexcept nogil
# Count solutions from 81 masks up to `limit` (storing up to `limit` of them as 81 digits 1..9 each in
# `out` when it is not NULL), leaving out the solution `avoid` (81 digits 1..9; NULL: none), whose
# digits are tried first; -1 when the deadline (monotonic seconds, 0 = none) passed first.
cdef int kl_count(const kl_layout *L, const uint16_t *masks, int limit, double deadline,
                  unsigned char *out, long long *nodes, const unsigned char *avoid) noexcept nogil
