# The compiled solution counter of Sudoku and Killer Sudoku: the contract of `_count.pyx`.
#
# Cells are numbered r * 9 + c, rows and columns from 0; digits are 0..8 inside (1..9 outside), and a
# cell's candidates are a 9-bit mask (bit d = digit d + 1). Units are rows 0..8, columns 9..17 and
# boxes 18..26. A position is 81 candidate masks.
#
# The cages are an option of the counter: a Killer board counts with its cages (sd_cages: each cell's
# cage, each cage's cells and sum, each cell's peers with its cage mates), a Sudoku board with none
# (NULL). The search copies the position on every branch (81 masks + flags, a few hundred bytes): no
# trail. Propagation, to a fixed point: naked singles (a cell down to one candidate: its digit leaves
# its peers, and its cage mates), hidden singles (a digit with one place left in a unit), and with
# cages the cage sums (a cage keeps only the digit sets, combinations of distinct digits with its sum,
# that its cells can still hold; every cell of it only the digits of those sets; a digit that every
# set needs with one place left in the cage goes there). Branching takes the unsolved cell with fewest
# candidates and tries its digits in order (in a random order when `randomize` is set, which is how
# complete grids are drawn; a solution to avoid has its digit tried first).

from libc.stdint cimport uint16_t, uint64_t

cdef enum:
    SD_MAXCAGES = 81
    SD_MAXCOMBOS = 12             # the most digit sets of one size with one sum (12: 4 or 5 digits making 20-25)
    SD_MAXPEERS = 28              # a cell's 20 peers and at most 8 cage mates outside them

cdef struct sd_cages:
    int ncages
    int cage_of[81]
    int cage_size[SD_MAXCAGES]
    int cage_sum[SD_MAXCAGES]
    int cage_cells[SD_MAXCAGES * 9]
    int npeers[81]
    int peers[81 * SD_MAXPEERS]   # each cell's 20 Sudoku peers, then its cage mates outside them
    # The cage sums' memory, written during a search: each cage's cells' masks when the cage sums last
    # changed nothing on them (0xFFFF: none yet). The cage sums on one cage read only its cells' masks,
    # so on the same masks they change nothing again, and the cage is passed over.
    uint16_t quiet[SD_MAXCAGES * 9]

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
    const unsigned char *avoid    # a solution not to count (81 digits 1..9), its digits tried first; or NULL
    const sd_cages *cages         # the cages, or NULL (a Sudoku board)

# The geometry, built once at import and shared with the technique modules: each cell's 20 peers,
# each cell's 3 units, each unit's 9 cells (flat arrays: 81 * 20, 81 * 3, 27 * 9).
cdef const int *sd_peers() noexcept nogil
cdef const int *sd_cell_units() noexcept nogil
cdef const int *sd_unit_cells() noexcept nogil
# The sets of `size` distinct digits adding up to `total`, as masks: `count[0]` of them.
cdef const uint16_t *sd_combos(int size, int total, int *count) noexcept nogil
# Those of k cells' sets that hold every digit of `need`, lie within the cells' candidates (`masks`) and
# leave each cell some digit, into `fits` (room for SD_MAXCOMBOS); how many.
cdef int sd_fitting_combos(int total, const uint16_t *masks, int k, unsigned int need, uint16_t *fits
                           ) noexcept nogil

# Read the cages (a cage number per cell, 0..ncages-1, and each cage's sum); 0 when malformed. The
# Python form raises ValueError in one line instead.
cdef bint sd_cages_from(sd_cages *L, const int *cage_of, const int *sums, int ncages) noexcept nogil
cdef bint sd_read_cages(sd_cages *L, cage_of, sums) except 0

# Start a position from 81 masks and propagate (under the cages `L`, or NULL). Returns 0 when it
# contradicts (a cell with no candidate, a digit with no place in a unit, two equal singles in a unit,
# a cage that cannot make its sum).
cdef bint sd_start(sd_pos *p, const uint16_t *masks, const sd_cages *L) noexcept nogil
cdef bint sd_propagate(sd_pos *p, const sd_cages *L) noexcept nogil
# Depth-first search from a propagated position; returns 1 when it stopped early (limit or deadline).
cdef bint sd_search_from(sd_search *s, sd_pos *p) noexcept nogil
# Count solutions of a Sudoku position given as masks, up to `limit`, without storing them: the count,
# or -1 when the deadline passed first.
cdef int sd_count_masks(const uint16_t *masks, int limit, double deadline) noexcept nogil
# Whether a Sudoku position has a solution other than a known one (81 digit masks) that fills the open
# cells `cells` as it does: -1 when singles alone settle it (one solution, one search node), 2 when
# singles do not settle it but fill every open cell (it then has the singles' fixed point of the
# position with those cells given), 0 when the known solution is the only one otherwise, 1 when there
# is another.
cdef int sd_other_solution(const uint16_t *masks, const uint16_t *known, const int *cells, int ncells
                           ) noexcept nogil
