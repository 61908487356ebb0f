# The compiled Sudoku solution counter: the contract of `_count.pyx`.
#
# Cells are numbered r * 9 + c, rows and columns from 0; digits are 0..8 inside (1..9 outside), and a
# cell's candidates are a 9-bit mask (bit d = digit d + 1). Units are rows 0..8, columns 9..17 and
# boxes 18..26. A position is 81 candidate masks.
#
# The search copies the position on every branch (81 masks + flags, a few hundred bytes): no trail.
# Propagation is naked singles (a cell down to one candidate: its digit leaves the 20 peers) and hidden
# singles (a digit with one place left in a unit), to a fixed point; branching takes the unsolved cell
# with fewest candidates and tries its digits in order (in a random order when `randomize` is set,
# which is how complete grids are drawn).

from libc.stdint cimport uint16_t, uint64_t

cdef struct sd_pos:
    uint16_t cand[81]
    unsigned char done[81]        # 1 once the cell's single digit has been removed from its peers
    int nsolved

cdef struct sd_search:
    int limit
    int nsolutions
    unsigned char *solutions      # limit * 81 digits 1..9, or NULL to only count
    long long nodes
    double deadline               # on the monotonic clock; 0 = none
    bint timed_out
    bint randomize
    uint64_t rng

# The geometry, built once at import and shared with the technique module: each cell's 20 peers,
# each cell's 3 units, each unit's 9 cells (flat arrays: 81 * 20, 81 * 3, 27 * 9).
cdef const int *sd_peers() noexcept nogil
cdef const int *sd_cell_units() noexcept nogil
cdef const int *sd_unit_cells() noexcept nogil

# Start a position from 81 masks and propagate. Returns 0 when it contradicts (a cell with no
# candidate, a digit with no place in a unit, two equal singles in a unit).
cdef bint sd_start(sd_pos *p, const uint16_t *masks) noexcept nogil
cdef bint sd_propagate(sd_pos *p) noexcept nogil
# Depth-first search from a propagated position; returns 1 when it stopped early (limit or deadline).
cdef bint sd_search_from(sd_search *s, sd_pos *p) noexcept nogil
# Count solutions of a position given as masks, up to `limit`, without storing them: the count, or
# -1 when the deadline passed first.
cdef int sd_count_masks(const uint16_t *masks, int limit, double deadline) noexcept nogil
# Whether a position has a solution other than a known one (81 digit masks) that fills the open cells
# `cells` as it does: -1 when singles alone settle it (one solution, one search node), 2 when singles
# do not settle it but fill every open cell (it then has the singles' fixed point of the position with
# those cells given), 0 when the known solution is the only one otherwise, 1 when there is another.
cdef int sd_other_solution(const uint16_t *masks, const uint16_t *known, const int *cells, int ncells
                           ) noexcept nogil
