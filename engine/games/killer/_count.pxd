# The compiled cage arithmetic of Killer Sudoku: the contract of `_count.pyx`. (Killer counts solutions
# with Sudoku's counter, the cages its option: engine/games/sudoku/_count.pxd.)
#
# Cells are r * 9 + c (rows and columns from 0), digits 0..8 inside (1..9 outside), a cell's
# candidates a 9-bit mask (bit d = digit d + 1).

from libc.stdint cimport uint16_t

# For k distinct cells adding up to `total` (holding every digit of `need`): each cell's digits that some
# assignment within the cells' candidates uses (`support`), and the digit sets those assignments use
# (`live`, room for SD_MAXCOMBOS). Returns how many sets are live (0: the cage cannot be completed).
cdef int kl_cage_support(int total, const uint16_t *masks, int k, unsigned int need,
                         uint16_t *support, uint16_t *live) noexcept nogil
