# The compiled cage arithmetic of Killer Sudoku (the counter is Sudoku's, with the cages as its option:
# engine/games/sudoku/_count.pyx).
#
# - cage support: which digits each cell of a cage can take in some completion of the cage;
# - Cages: a board's cages screened over one position at a time, for the cage techniques;
# - the signed sum groups of the rule of 45, and the rounds of basic deductions of the score.

from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint16_t

from engine.games.sudoku._count cimport (SD_MAXCOMBOS, SD_MAXPEERS, sd_cages, sd_cell_units, sd_combos,
                                         sd_fitting_combos, sd_peers, sd_read_cages, sd_unit_cells)

DEF ALL = 0x1FF

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil

# The grid's geometry, built once by the counter: each unit's 9 cells, each cell's 3 units, its 20 peers.
cdef const int *_UNIT_CELLS = sd_unit_cells()
cdef const int *_CELL_UNITS = sd_cell_units()
cdef const int *_PEERS = sd_peers()


def combos(int size, int total):
    """The sets of `size` distinct digits 1..9 summing to `total`, as masks (bit d = digit d + 1)."""
    cdef int n
    cdef const uint16_t *sets = sd_combos(size, total, &n)
    return [sets[i] for i in range(n)]


# ------------------------------------------------------------------------------------------------
# exact cage support: which digits each cell of a cage can take in some completion of the cage

cdef inline bint _augment(int i, const unsigned int *avail, int *owner, unsigned int *tried) noexcept nogil:
    """Kuhn's augmenting path from cell i: give it a digit of `avail[i]` not yet tried on this path,
    moving the digit's owner on when it has one; 1 when some path frees a digit for it."""
    cdef unsigned int rest = avail[i] & ~tried[0], bit
    cdef int d
    while rest:
        bit = rest & (~rest + 1)
        rest &= rest - 1
        tried[0] |= bit
        d = __builtin_ctz(bit)
        if owner[d] < 0 or _augment(owner[d], avail, owner, tried):
            owner[d] = i
            return 1
    return 0


cdef int kl_cage_support(int total, const uint16_t *masks, int k, unsigned int need,
                         uint16_t *support, uint16_t *live) noexcept nogil:
    """For k distinct cells adding up to `total` (holding every digit of `need`): each cell's digits that
    some assignment within the cells' candidates uses (`support`), and the digit sets those
    assignments use (`live`). Returns how many sets are live (0: the cage cannot be completed).

    Per digit set (k digits for k cells), Regin's all-different filtering: an assignment is a perfect
    matching of the cells to the set's digits. One is found by augmenting paths (none: the set is not
    live); then cell i can take digit d (not its own, m) in some other matching exactly when the cell
    holding d can move on, and so on, until a cell takes m: a path from d to m in the graph where
    digit x leads to each other digit its holder can take. The plain reading (reference.cage_support_plain)
    tries the cells one by one over the subsets of the set."""
    cdef unsigned int avail[9]
    cdef unsigned int reach[9]       # per digit: the digits a path from it reaches (one step or more)
    cdef unsigned int back[9]        # per digit: the digits whose paths reach it
    cdef int owner[9]
    cdef int mine[9]                 # each cell's digit in the matching found
    cdef unsigned int combo, tried, taken, rest, bit, x, z, found
    cdef int i, j, d, n, nlive = 0
    cdef uint16_t sets[SD_MAXCOMBOS]
    for i in range(k):
        support[i] = 0
    n = sd_fitting_combos(total, masks, k, need, sets)
    for j in range(n):
        combo = sets[j]
        for d in range(9):
            owner[d] = -1
        for i in range(k):
            avail[i] = masks[i] & combo
        taken = 0
        for i in range(k):
            bit = avail[i] & ~taken
            if bit:                   # a digit no cell holds yet: take it
                bit &= ~bit + 1
                owner[__builtin_ctz(bit)] = i
                taken |= bit
                continue
            tried = 0
            if not _augment(i, avail, owner, &tried):
                break
            taken |= tried            # the path ends on the one digit it tried that no cell held
        else:
            # every cell has a digit of the set: the set is live
            for d in range(9):
                reach[d] = 0
                back[d] = 0
                if owner[d] >= 0:
                    mine[owner[d]] = d
                    reach[d] = avail[owner[d]] & ~(1u << d)
            # the transitive closure over the set's digits (Warshall, on bit sets)
            rest = combo
            while rest:
                z = __builtin_ctz(rest)
                rest &= rest - 1
                bit = 1u << z
                x = combo
                while x:
                    d = __builtin_ctz(x)
                    x &= x - 1
                    if reach[d] & bit:
                        reach[d] |= reach[z]
            rest = combo
            while rest:
                d = __builtin_ctz(rest)
                rest &= rest - 1
                x = reach[d]
                while x:
                    z = __builtin_ctz(x)
                    x &= x - 1
                    back[z] |= 1u << d
            for i in range(k):
                found = (1u << mine[i]) | (avail[i] & back[mine[i]])
                support[i] |= <uint16_t> found
            live[nlive] = <uint16_t> combo
            nlive += 1
    return nlive


def cage_support(int total, masks, unsigned int need=0):
    """For distinct cells adding up to `total` (with every digit of `need` among them): (each cell's
    supported digits, the digit sets some assignment uses); all empty when it cannot be completed."""
    cdef uint16_t buf[9]
    cdef uint16_t support[9]
    cdef uint16_t live[SD_MAXCOMBOS]
    cdef int k = len(masks), i, n
    if not 1 <= k <= 9:
        raise ValueError("a cage has 1 to 9 cells")
    for i in range(k):
        buf[i] = <uint16_t> (masks[i] & ALL)
    n = kl_cage_support(total, buf, k, need, support, live)
    if n == 0:
        return (0,) * k, ()
    return tuple([support[i] for i in range(k)]), tuple([live[i] for i in range(n)])


cdef class Cages:
    """A board's cages over one position at a time (`load`, then kept in step with the position by
    `apply`, as Position.apply changes it), to screen every cage at once: the compiled half of the
    cage techniques, which say where the first step is; techniques.py words it."""

    cdef sd_cages L
    cdef uint16_t cand[81]            # every cell as a mask, a placed digit as its single bit
    cdef unsigned char placed[81]     # the cell has no pencil marks (a placed digit, or none left)
    cdef uint16_t marks[81]           # the position's pencil marks (0 for a placed cell)
    cdef unsigned char val[81]        # each cell's placed digit 1-9, 0 when open
    cdef uint16_t seen[81 * 9]      # each cage's cells when `scan` last looked at it
    cdef signed char verdict[81]    # and what it found: 0 nothing, 1 a digit to drop, 2 dead, -1 not yet
    # rule_of_45's memory: each group's cells (mask | digit << 9) when it last taught nothing, and
    # whether it has such a memory; for the layout `quiet_of` (another layout starts afresh)
    cdef uint16_t *quiet
    cdef unsigned char *quiet_set
    cdef object quiet_of

    def __cinit__(self):
        self.quiet = NULL
        self.quiet_set = NULL

    def __dealloc__(self):
        free(self.quiet)
        free(self.quiet_set)

    def __init__(self, cage_of, sums):
        cdef int cell
        sd_read_cages(&self.L, cage_of, sums)
        memset(self.verdict, -1, sizeof(self.verdict))
        for cell in range(81):
            self.marks[cell] = ALL
            self.val[cell] = 0
            self._cell(cell)

    cdef inline void _cell(self, int c) noexcept nogil:
        """The cell's mask and placed flag from its marks and digit (as Position.masks and marks read)."""
        self.cand[c] = (1 << (self.val[c] - 1)) if self.val[c] else self.marks[c]
        self.placed[c] = self.marks[c] == 0

    def load(self, marks, str values):
        """The position: `marks` its pencil marks (Position.marks: 0 for placed cells), `values` each
        cell's digit or '.' (Position.values)."""
        cdef int i
        cdef Py_UCS4 ch
        if len(marks) != 81 or len(values) != 81:
            raise ValueError("a position has 81 cells")
        for i in range(81):
            ch = values[i]
            if ch != u"." and not 49 <= <int> ch <= 57:
                raise ValueError("values are digits 1-9 or '.'")
        for i in range(81):
            self.marks[i] = <uint16_t> (marks[i] & ALL)
            ch = values[i]
            self.val[i] = 0 if ch == u"." else <unsigned char> (<int> ch - 48)
            self._cell(i)

    def apply(self, place, eliminate):
        """What Position.apply does to the position (after it has checked the candidates): each placed
        candidate's digit goes into its cell (unless the cell has a digit already), the cell loses its
        marks and its 20 peers the digit; each eliminated one leaves the cell's marks."""
        cdef int x, c, d, i, p
        cdef unsigned int bit
        for x in place:
            if not 0 <= x < 729:
                raise ValueError("a candidate is cell * 9 + digit, 0..728")
        for x in eliminate:
            if not 0 <= x < 729:
                raise ValueError("a candidate is cell * 9 + digit, 0..728")
        for x in place:
            c = x // 9
            d = x % 9
            if self.val[c]:
                continue
            bit = 1u << d
            self.val[c] = d + 1
            self.marks[c] = 0
            self._cell(c)
            for i in range(20):
                p = _PEERS[c * 20 + i]
                self.marks[p] &= ~bit
                self._cell(p)
        for x in eliminate:
            c = x // 9
            self.marks[c] &= ~(1u << (x % 9))
            self._cell(c)

    def mates_gone(self, placed):
        """For placed candidates, the marks of their digits in their cells' cage mates (what placing them
        takes from the cages, as KillerState does after a step), cage by cage in the cage's order."""
        cdef int x, c, d, i, cage, mate
        out = []
        for x in placed:
            if not 0 <= x < 729:
                raise ValueError("a candidate is cell * 9 + digit, 0..728")
            c = x // 9
            d = x % 9
            cage = self.L.cage_of[c]
            for i in range(self.L.cage_size[cage]):
                mate = self.L.cage_cells[cage * 9 + i]
                if mate != c and self.marks[mate] >> d & 1:
                    out.append(mate * 9 + d)
        return out

    def masks(self):
        """Every cell as a mask, a placed digit as its single bit (as Position.masks)."""
        return [self.cand[c] for c in range(81)]

    def values(self):
        """Each cell's digit or '.' (as Position.values)."""
        return "".join(["." if self.val[c] == 0 else chr(48 + self.val[c]) for c in range(81)])

    def combination(self, int cage):
        """The cage in the position: (its cells' masks, their supported digits, the live digit sets, as
        cage_support gives them; its open cells, the sum they make)."""
        cdef uint16_t cells[9]
        cdef uint16_t support[9]
        cdef uint16_t live[SD_MAXCOMBOS]
        cdef int i, k, n, cell, nopen = 0, rest
        if not 0 <= cage < self.L.ncages:
            raise IndexError("no such cage")
        k = self.L.cage_size[cage]
        rest = self.L.cage_sum[cage]
        for i in range(k):
            cell = self.L.cage_cells[cage * 9 + i]
            if self.val[cell]:
                rest -= self.val[cell]
            else:
                nopen += 1
        n = self._support(cage, 0, 0, -1, cells, support, live)
        if n == 0:
            return tuple([cells[i] for i in range(k)]), (0,) * k, (), nopen, rest
        return (tuple([cells[i] for i in range(k)]), tuple([support[i] for i in range(k)]),
                tuple([live[i] for i in range(n)]), nopen, rest)

    cdef inline int _support(self, int cage, unsigned int need, unsigned int drop_outside_unit, int unit,
                             uint16_t *cells, uint16_t *support, uint16_t *live) noexcept nogil:
        cdef int i, k = self.L.cage_size[cage], cell
        for i in range(k):
            cell = self.L.cage_cells[cage * 9 + i]
            cells[i] = self.cand[cell]
            if unit >= 0 and not self._in_unit(cell, unit):
                cells[i] &= ~drop_outside_unit
        return kl_cage_support(self.L.cage_sum[cage], cells, k, need, support, live)

    cdef inline bint _in_unit(self, int cell, int unit) noexcept nogil:
        return _CELL_UNITS[cell * 3] == unit or _CELL_UNITS[cell * 3 + 1] == unit or _CELL_UNITS[cell * 3 + 2] == unit

    def rule_of_45(self, Layout layout, int first, int end, int limit):
        """The first sum group of the regions first..end-1 of `layout` that teaches something in the
        loaded position (what techniques._rule_of_45 asks group_news of each group, in order): (its
        region, its place among the region's groups, (the open cells' places in the group, the total
        they make, their masks, their new masks)), or None. A group that taught nothing is not asked
        again until one of its cells changes (mask or placed digit)."""
        cdef int g, i, k, left, n
        cdef int at[9]
        cdef uint16_t old[9]
        cdef uint16_t new[9]
        cdef uint16_t *memo
        cdef const int *cells
        cdef bint same
        if not 0 <= first <= end <= layout.nregions:
            raise IndexError("no such regions")
        if self.quiet_of is not layout:
            free(self.quiet)
            free(self.quiet_set)
            n = layout.first[layout.nregions]
            self.quiet = <uint16_t *> malloc(max(layout.start[n - 1] + layout.size[n - 1] if n else 0, 1)
                                             * sizeof(uint16_t))
            self.quiet_set = <unsigned char *> calloc(max(n, 1), 1)
            if self.quiet == NULL or self.quiet_set == NULL:
                free(self.quiet)
                free(self.quiet_set)
                self.quiet = NULL
                self.quiet_set = NULL
                self.quiet_of = None
                raise MemoryError()
            self.quiet_of = layout
        for g in range(layout.first[first], layout.first[end]):
            n = layout.size[g]
            cells = &layout.cells[layout.start[g]]
            memo = &self.quiet[layout.start[g]]
            if self.quiet_set[g]:
                same = 1
                for i in range(n):
                    if memo[i] != (self.cand[cells[i]] | self.val[cells[i]] << 9):
                        same = 0
                        break
                if same:
                    continue
            k = _news(layout.total[g], n, cells, &layout.signs[layout.start[g]], self.cand, self.val,
                      layout.cage_of, limit, at, &left, old, new)
            if k:
                i = first
                while layout.first[i + 1] <= g:
                    i += 1
                return i, g - layout.first[i], (tuple([at[x] for x in range(k)]), left,
                                                 tuple([old[x] for x in range(k)]), tuple([new[x] for x in range(k)]))
            for i in range(n):
                memo[i] = self.cand[cells[i]] | self.val[cells[i]] << 9
            self.quiet_set[g] = 1
        return None

    def scan(self):
        """(the first cage whose cells hold a digit no completion uses, or that cannot be completed, or
        -1; whether some cage cannot be completed)."""
        cdef uint16_t cells[9]
        cdef uint16_t support[9]
        cdef uint16_t live[SD_MAXCOMBOS]
        cdef int i, k, cage, first = -1
        cdef bint same
        for cage in range(self.L.ncages):
            k = self.L.cage_size[cage]
            same = self.verdict[cage] >= 0
            for i in range(k):
                cells[i] = self.cand[self.L.cage_cells[cage * 9 + i]]
                if cells[i] != self.seen[cage * 9 + i]:
                    same = 0
            if not same:          # a cage unchanged since the last scan keeps its verdict
                if self._support(cage, 0, 0, -1, cells, support, live) == 0:
                    self.verdict[cage] = 2
                else:
                    self.verdict[cage] = 0
                    for i in range(k):
                        if support[i] != cells[i]:
                            self.verdict[cage] = 1
                            break
                for i in range(k):
                    self.seen[cage * 9 + i] = cells[i]
            if self.verdict[cage] == 2:
                return (cage if first < 0 else first), True
            if first < 0 and self.verdict[cage] == 1:
                first = cage
        return first, False

    def pointing(self):
        """The first (cage, digit 0-8, unit) where every combination of the cage holds the digit, its
        places in the cage lie in the unit, and the unit has it elsewhere; None."""
        cdef uint16_t cells[9]
        cdef uint16_t support[9]
        cdef uint16_t live[SD_MAXCOMBOS]
        cdef int i, j, n, cage, k, d, first, u, cell
        cdef unsigned int needed
        cdef bint inside
        for cage in range(self.L.ncages):
            k = self.L.cage_size[cage]
            if k == 1:
                continue
            n = self._support(cage, 0, 0, -1, cells, support, live)
            if n == 0:
                continue
            needed = ALL
            for i in range(n):
                needed &= live[i]
            for d in range(9):
                if not needed >> d & 1:
                    continue
                first = -1
                for i in range(k):
                    if cells[i] >> d & 1:
                        first = self.L.cage_cells[cage * 9 + i]
                        break
                for j in range(3):
                    u = _CELL_UNITS[first * 3 + j]
                    inside = 1
                    for i in range(k):
                        if cells[i] >> d & 1 and not self._in_unit(self.L.cage_cells[cage * 9 + i], u):
                            inside = 0
                            break
                    if not inside:
                        continue
                    for i in range(9):
                        cell = _UNIT_CELLS[u * 9 + i]
                        if self.L.cage_of[cell] != cage and self.cand[cell] >> d & 1:
                            return cage, d, u
        return None

    def claiming(self):
        """The first (unit, digit 0-8, cage) where the open places of the digit in the unit all lie in the
        cage and that tells the cage something (it holds the digit elsewhere, or a combination
        without it is left); None."""
        cdef uint16_t cells[9]
        cdef uint16_t support[9]
        cdef uint16_t live[SD_MAXCOMBOS]
        cdef int u, d, i, cage, k, cell, n
        cdef unsigned int bit
        cdef bint learn
        for u in range(27):
            for d in range(9):
                bit = 1 << d
                cage = -1
                for i in range(9):
                    cell = _UNIT_CELLS[u * 9 + i]
                    if self.cand[cell] & bit:
                        if self.placed[cell]:
                            cage = -2
                            break
                        if cage == -1:
                            cage = self.L.cage_of[cell]
                        elif cage != self.L.cage_of[cell]:
                            cage = -2
                            break
                if cage < 0:
                    continue
                k = self.L.cage_size[cage]
                n = self._support(cage, bit, bit, u, cells, support, live)
                if n == 0:
                    continue
                learn = 0
                for i in range(k):
                    if support[i] != self.cand[self.L.cage_cells[cage * 9 + i]]:
                        learn = 1
                if learn:
                    return u, d, cage
        return None


# A signed sum group's support (cages.group_support's search, compiled): each cell's digits in some
# assignment that respects the cells' candidates, the pairs known distinct and the total.
cdef struct _group:
    int k
    int sign[9]
    uint16_t mask[9]
    uint16_t apart[9]          # bit j: cell j is known distinct from this one (j < i only are read)
    int high[10]
    int low[10]
    uint16_t chosen[9]
    uint16_t support[9]


cdef bint _group_find(_group *g, int i, int left) noexcept nogil:
    """Whether the cells from i on can take digits (within their masks, distinct from the cells before
    them they are known distinct from) that make `left`; the first such assignment is left in
    `chosen`. The last cell has one digit that can make what is left, so it is looked at instead of
    tried digit by digit."""
    cdef int j, d
    cdef unsigned int taken = 0, rest, bit
    if left < g.low[i] or left > g.high[i]:
        return 0
    for j in range(i):
        if g.apart[i] >> j & 1:
            taken |= g.chosen[j]
    rest = g.mask[i] & ~taken
    if i == g.k - 1:
        d = left if g.sign[i] > 0 else -left
        if 1 <= d <= 9 and rest >> (d - 1) & 1:
            g.chosen[i] = <uint16_t> (1u << (d - 1))
            return 1
        return 0
    while rest:
        bit = rest & (~rest + 1)
        rest ^= bit
        g.chosen[i] = <uint16_t> bit
        if _group_find(g, i + 1, left - g.sign[i] * (__builtin_ctz(bit) + 1)):
            return 1
    g.chosen[i] = 0
    return 0


cdef void _group_support(_group *g, int total) noexcept nogil:
    """Each cell's digits that some assignment of the group making `total` uses, into `support` (the
    bounds filled for the cells' masks, `support` empty): for each digit of each cell not yet known
    to be used, one search with the cell held to it, and every assignment found counts for all its
    cells. The same digits as listing every assignment (reference.group_support), found faster."""
    cdef int i, j
    cdef unsigned int todo, bit, keep
    cdef int high[10]
    cdef int low[10]
    memcpy(high, g.high, sizeof(high))
    memcpy(low, g.low, sizeof(low))
    for i in range(g.k):
        keep = g.mask[i]
        todo = keep & ~g.support[i]
        while todo:
            bit = todo & (~todo + 1)
            g.mask[i] = <uint16_t> bit
            _group_bounds(g)
            for j in range(g.k):
                g.chosen[j] = 0
            if _group_find(g, 0, total):
                for j in range(g.k):
                    g.support[j] |= g.chosen[j]
            todo &= ~bit & ~g.support[i]
        g.mask[i] = <uint16_t> keep
    memcpy(g.high, high, sizeof(high))
    memcpy(g.low, low, sizeof(low))


cdef bint _group_bounds(_group *g) noexcept nogil:
    """Fill the group's high/low (the most and least the cells from i on can add); 0 when a cell has
    no candidate."""
    cdef int i, top, bottom
    cdef unsigned int m
    g.high[g.k] = 0
    g.low[g.k] = 0
    for i in range(g.k - 1, -1, -1):
        m = g.mask[i]
        if m == 0:
            return 0
        top = 32 - __builtin_clz(m)
        bottom = __builtin_ctz(m) + 1
        g.high[i] = g.high[i + 1] + (top if g.sign[i] > 0 else -bottom)
        g.low[i] = g.low[i + 1] + (bottom if g.sign[i] > 0 else -top)
    return 1


def group_support_c(int total, masks, signs, distinct):
    """For a signed sum group of 1-9 cells, each cell's supported digits (all 0 when none);
    reference.group_support is its plain twin."""
    cdef _group g
    cdef int i, j
    g.k = len(masks)
    if not 1 <= g.k <= 9 or len(signs) != g.k:
        raise ValueError("a group has 1 to 9 cells, one sign each")
    for i in range(g.k):
        g.mask[i] = <uint16_t> (masks[i] & ALL)
        g.sign[i] = 1 if signs[i] > 0 else -1
        g.apart[i] = 0
        g.chosen[i] = 0
        g.support[i] = 0
    for i, j in distinct:
        g.apart[i] |= 1 << j
        g.apart[j] |= 1 << i
    if not _group_bounds(&g):
        return (0,) * g.k
    _group_support(&g, total)
    return tuple([g.support[i] for i in range(g.k)])


def losses(cells, old, new):
    """The candidates (cell * 9 + digit - 1) each cell's mask loses from `old` to `new`, cell by cell."""
    cdef Py_ssize_t n = len(cells), i
    cdef int cell, d
    cdef unsigned int gone
    if len(old) != n or len(new) != n:
        raise ValueError("losses needs one old and one new mask per cell")
    out = []
    for i in range(n):
        cell = cells[i]
        gone = <unsigned int> old[i] & ~(<unsigned int> new[i])
        for d in range(9):
            if gone >> d & 1:
                out.append(cell * 9 + d)
    return tuple(out)


cdef inline bint _apart(int a, int b, const unsigned char *cage) noexcept nogil:
    return (a // 9 == b // 9 or a % 9 == b % 9 or (a // 27 == b // 27 and a % 9 // 3 == b % 9 // 3)
            or cage[a] == cage[b])


def apart_bits(cells, bytes cage_of):
    """For distinct cells, bit j of the i-th number: cells i and j are known distinct (they share a
    row, column, box or cage; `cage_of` holds each of the 81 cells' cage number)."""
    cdef Py_ssize_t n = len(cells), i, j
    cdef const unsigned char *cage = cage_of
    cdef int at[81]
    cdef unsigned long long bits
    if n > 81 or len(cage_of) != 81:
        raise ValueError("apart_bits needs at most 81 cells and 81 cage numbers")
    for i in range(n):
        at[i] = cells[i]
        if not 0 <= at[i] < 81:
            raise ValueError("cells are 0..80")
    out = []
    for i in range(n):
        if n <= 64:
            bits = 0
            for j in range(n):
                if j != i and _apart(at[i], at[j], cage):
                    bits |= 1ULL << j
            out.append(bits)
        else:
            out.append(sum(1 << j for j in range(n) if j != i and _apart(at[i], at[j], cage)))
    return tuple(out)


def region_sides(bytes cells, bytes ends, totals, bytes where):
    """How cages meet a region: (the sum of the cages wholly inside, ((cage number, its cells inside,
    its cells outside), ...) for every cage crossing the region's edge, in the cages' order). The
    cages are `cells` (every cage's cells one after another, each cage in its own order) cut at
    `ends` (where each cage ends in `cells`), with sums `totals`; `where` holds 1 for each of the 81
    cells in the region."""
    cdef const unsigned char *flat = cells
    cdef const unsigned char *stop = ends
    cdef const unsigned char *inside = where
    cdef int ncages = len(ends), number, start = 0, i, n_in
    cdef long inside_total = 0
    if len(where) != 81 or (ncages and stop[ncages - 1] != len(cells)):
        raise ValueError("region_sides needs 81 region flags and cages that end where their cells do")
    crossing = []
    for number in range(ncages):
        n_in = 0
        for i in range(start, stop[number]):
            n_in += inside[flat[i]] != 0
        if n_in == stop[number] - start:
            inside_total += totals[number]
        elif n_in:
            crossing.append((number, tuple([flat[i] for i in range(start, stop[number]) if inside[flat[i]]]),
                             tuple([flat[i] for i in range(start, stop[number]) if not inside[flat[i]]])))
        start = stop[number]
    return inside_total, tuple(crossing)


cdef int _news(int total, int n, const int *cells, const signed char *signs, const uint16_t *cand,
               const unsigned char *val, const unsigned char *cage_of, int limit,
               int *at, int *left, uint16_t *old, uint16_t *new) noexcept nogil:
    """group_news on a sum group of `n` cells (`cells`, `signs`, `total`) over a position (`cand` every
    cell's mask, `val` its placed digit or 0): the number k of open cells when the group teaches
    something (their places in the group in `at`, the total they make in `left`, their masks in `old`
    and their new masks in `new`), else 0."""
    cdef int i, x, y, k = 0, nlive
    cdef bint like_a_cage = 1, changed = 0, any_new = 0
    cdef uint16_t live[SD_MAXCOMBOS]
    cdef _group g
    for i in range(n):
        if val[cells[i]] == 0:
            if k == 9:
                return 0
            at[k] = i
            k += 1
        else:
            total -= signs[i] * val[cells[i]]
    if k == 0:
        return 0
    for x in range(k):
        if signs[at[x]] < 0:
            like_a_cage = 0
            break
    if like_a_cage:
        for x in range(k):
            for y in range(x + 1, k):
                if not _apart(cells[at[x]], cells[at[y]], cage_of):
                    like_a_cage = 0
                    break
            if not like_a_cage:
                break
    if not like_a_cage and k > limit:
        return 0
    for x in range(k):
        old[x] = cand[cells[at[x]]] & ALL
    if like_a_cage:
        nlive = kl_cage_support(total, old, k, 0, new, live)
        if nlive == 0:
            return 0
    else:
        g.k = k
        for x in range(k):
            g.mask[x] = old[x]
            g.sign[x] = 1 if signs[at[x]] > 0 else -1
            g.apart[x] = 0
            g.chosen[x] = 0
            g.support[x] = 0
        for x in range(k):
            for y in range(x + 1, k):
                if _apart(cells[at[x]], cells[at[y]], cage_of):
                    g.apart[x] |= 1 << y
                    g.apart[y] |= 1 << x
        if _group_bounds(&g):
            _group_support(&g, total)
        for x in range(k):
            new[x] = g.support[x]
            any_new |= new[x] != 0
        if not any_new:
            return 0
    for x in range(k):
        changed |= new[x] != old[x]
    if not changed:
        return 0
    left[0] = total
    return k


cdef class Layout:
    """The rule of 45's sum groups of a board's cages on every region, compiled: per region (in the
    order given) its groups in CageLayout.groups's order (innies, outies, then innies and outies when
    the signs mix), each group's cells in that order with their signs and total. The screen of the
    rule-of-45 techniques (Cages.rule_of_45) and the rounds' groups (round_groups) read it; the Python
    CageLayout words the step found."""

    cdef int nregions, ngroups
    cdef int *first           # each region's first group (nregions + 1 of them)
    cdef int *how             # per group: 0 innies, 1 outies, 2 innies and outies
    cdef int *size
    cdef int *start           # where the group's cells begin in `cells`
    cdef int *total
    cdef int *cells
    cdef signed char *signs
    cdef unsigned char cage_of[81]
    cdef object _rounds

    def __cinit__(self):
        self.first = self.how = self.size = self.start = self.total = self.cells = NULL
        self.signs = NULL

    def __dealloc__(self):
        free(self.first)
        free(self.how)
        free(self.size)
        free(self.start)
        free(self.total)
        free(self.cells)
        free(self.signs)

    def __init__(self, bytes cage_of, bytes cells, bytes ends, totals, regions):
        """`cage_of` each of the 81 cells' cage number; the cages' cells one after another (`cells`), cut
        at `ends`, with their sums `totals` (as region_sides reads them); `regions` a sequence of (81
        flags, 1 for the region's cells; how many units the region is)."""
        cdef const unsigned char *flat = cells
        cdef const unsigned char *stop = ends
        cdef const unsigned char *inside
        cdef const unsigned char *owner = cage_of
        cdef int ncages = len(ends), nregions = len(regions), r, number, begin, i, units, n_in, g
        cdef int ncells = 0, n, c
        cdef long inside_total, crossing_total, rest, mixed_total
        cdef bint plus, minus
        cdef int n_inside[81]
        cdef bint crossing[81]
        cdef long sums[81]
        if len(cage_of) != 81 or ncages > 81 or (ncages and stop[ncages - 1] != len(cells)) or len(cells) > 81:
            raise ValueError("a layout needs 81 cage numbers and cages that end where their cells do")
        for number in range(ncages):
            sums[number] = totals[number]
        memcpy(self.cage_of, owner, 81)
        self.nregions = nregions
        self.first = <int *> malloc((nregions + 1) * sizeof(int))
        self.how = <int *> malloc(max(3 * nregions, 1) * sizeof(int))
        self.size = <int *> malloc(max(3 * nregions, 1) * sizeof(int))
        self.start = <int *> malloc(max(3 * nregions, 1) * sizeof(int))
        self.total = <int *> malloc(max(3 * nregions, 1) * sizeof(int))
        self.cells = <int *> malloc(max(2 * 81 * nregions, 1) * sizeof(int))
        self.signs = <signed char *> malloc(max(2 * 81 * nregions, 1))
        if (self.first == NULL or self.how == NULL or self.size == NULL or self.start == NULL or self.total == NULL
                or self.cells == NULL or self.signs == NULL):
            raise MemoryError()
        g = 0
        for r in range(nregions):
            where, units = regions[r]
            if len(where) != 81:
                raise ValueError("a region is 81 flags")
            inside = where
            self.first[r] = g
            inside_total = 0
            crossing_total = 0
            begin = 0
            for number in range(ncages):
                n_in = 0
                for i in range(begin, stop[number]):
                    n_in += inside[flat[i]] != 0
                n_inside[number] = n_in
                crossing[number] = 0 < n_in < stop[number] - begin
                if n_in == stop[number] - begin:
                    inside_total += sums[number]
                elif n_in:
                    crossing_total += sums[number]
                begin = stop[number]
            rest = 45 * units - inside_total
            for n in range(3):            # innies, outies, innies and outies
                self.how[g] = n
                self.start[g] = ncells
                mixed_total = rest
                plus = minus = 0
                begin = 0
                for number in range(ncages):
                    if crossing[number]:
                        for i in range(begin, stop[number]):
                            c = flat[i]
                            if n == 0 and inside[c] or n == 1 and not inside[c]:
                                self.cells[ncells] = c
                                self.signs[ncells] = 1
                                ncells += 1
                            elif n == 2:
                                if stop[number] - begin - n_inside[number] < n_inside[number]:
                                    if not inside[c]:
                                        self.cells[ncells] = c
                                        self.signs[ncells] = -1
                                        ncells += 1
                                        minus = 1
                                elif inside[c]:
                                    self.cells[ncells] = c
                                    self.signs[ncells] = 1
                                    ncells += 1
                                    plus = 1
                        if n == 2 and stop[number] - begin - n_inside[number] < n_inside[number]:
                            mixed_total -= sums[number]
                    begin = stop[number]
                self.size[g] = ncells - self.start[g]
                if self.size[g] == 0 or n == 2 and not (plus and minus):
                    ncells = self.start[g]      # no crossing cage (no group at all), or no mix of signs
                    continue
                self.total[g] = rest if n == 0 else crossing_total - rest if n == 1 else mixed_total
                g += 1
        self.first[nregions] = g
        self.ngroups = g

    def groups(self, int region):
        """The region's groups as (how, cells, signs, total), how 0 innies, 1 outies, 2 both."""
        if not 0 <= region < self.nregions:
            raise IndexError("no such region")
        return tuple([self.group(region, g - self.first[region])
                      for g in range(self.first[region], self.first[region + 1])])

    def group(self, int region, int place):
        """The region's `place`-th group as (how, cells, signs, total)."""
        cdef int g, i
        if not 0 <= region < self.nregions or not 0 <= place < self.first[region + 1] - self.first[region]:
            raise IndexError("no such group")
        g = self.first[region] + place
        return (self.how[g], tuple([self.cells[self.start[g] + i] for i in range(self.size[g])]),
                tuple([self.signs[self.start[g] + i] for i in range(self.size[g])]), self.total[g])

    def round_groups(self, int most):
        """The innies and outies of 1 to `most` cells of every region, in order, as grade.round_groups
        gives them to run_rounds_c: (cells, total, the pairs of them known distinct)."""
        cdef int g, i, j, k
        cdef const int *at
        if self._rounds is None or self._rounds[0] != most:
            out = []
            for g in range(self.ngroups):
                k = self.size[g]
                if self.how[g] == 2 or not 1 <= k <= most:
                    continue
                at = &self.cells[self.start[g]]
                out.append((tuple([at[i] for i in range(k)]), self.total[g],
                            tuple([(i, j) for i in range(k) for j in range(i + 1, k)
                                   if _apart(at[i], at[j], self.cage_of)])))
            self._rounds = (most, out)
        return self._rounds[1]


def group_news(Layout layout, int region, int place, masks, values, int limit):
    """The rule of 45 on one sum group (the `place`-th group of region `region` of `layout`) in a
    position (`masks` and `values`, all 81 cells), as Cages.rule_of_45 asks it of each group: None when
    the group teaches nothing, else (the open cells' places in the group, the total they make, their
    masks, their new masks). Open cells that are all positive and pairwise distinct (they share a row,
    column, box or cage) are searched as a cage; any other group only up to `limit` open cells; more
    than 9 open cells teach nothing yet."""
    cdef int g, k, left, x
    cdef int at[9]
    cdef uint16_t old[9]
    cdef uint16_t new[9]
    cdef uint16_t cand[81]
    cdef unsigned char val[81]
    if not 0 <= region < layout.nregions or not 0 <= place < layout.first[region + 1] - layout.first[region]:
        raise IndexError("no such group")
    if len(masks) != 81 or len(values) != 81:
        raise ValueError("a position has 81 cells")
    for x in range(81):
        cand[x] = <uint16_t> (masks[x] & ALL)
        val[x] = 0 if values[x] == "." else int(values[x])
    g = layout.first[region] + place
    k = _news(layout.total[g], layout.size[g], &layout.cells[layout.start[g]], &layout.signs[layout.start[g]],
              cand, val, layout.cage_of, limit, at, &left, old, new)
    if k == 0:
        return None
    return (tuple([at[x] for x in range(k)]), left, tuple([old[x] for x in range(k)]),
            tuple([new[x] for x in range(k)]))


# ------------------------------------------------------------------------------------------------
# rounds of basic deductions (grade.run_rounds)

DEF MAXGROUPS = 512


cdef inline bint _any_dirty(const int *cells, int k, const unsigned char *dirty) noexcept nogil:
    cdef int i
    for i in range(k):
        if dirty[cells[i]]:
            return 1
    return 0


cdef inline void _keep_combinations(int total, const int *cells, int k, const uint16_t *cur,
                                    uint16_t *nxt) noexcept nogil:
    """Distinct cells adding up to `total` (a cage, or a group whose cells are all distinct) keep in
    `nxt` only the digits of the combinations `cur` still allows; nothing when none is left."""
    cdef uint16_t buf[9]
    cdef uint16_t support[9]
    cdef uint16_t live[SD_MAXCOMBOS]
    cdef int i
    for i in range(k):
        buf[i] = cur[cells[i]]
    if kl_cage_support(total, buf, k, 0, support, live):
        for i in range(k):
            nxt[cells[i]] &= support[i]


def run_rounds_c(cage_of, sums, masks, groups):
    """Rounds of basic deductions, every one available made at once in each round, from the position
    `masks` (81 candidate masks) under the cages (`cage_of`, `sums`): naked singles (a placed digit
    leaves its peers and cage mates), hidden singles, each cage's combinations, and the sum groups
    `groups` ((cells, total, distinct pairs), positive signs). Returns (the rounds made before they
    finish or stop, the masks then); reference.reference_rounds is its plain twin."""
    cdef sd_cages L
    cdef uint16_t cur[81]
    cdef uint16_t nxt[81]
    cdef int gcells[MAXGROUPS * 9]
    cdef int gtotal[MAXGROUPS]
    cdef bint cagelike[MAXGROUPS]      # every pair distinct: a cage's combinations answer, much faster
    # the cells changed by the last round (all at first): a cage or group none of whose cells changed
    # would give what it gave last round, which the position already holds, so it is not asked again
    cdef unsigned char dirty[81]
    cdef _group *gs
    cdef int ngroups = len(groups), n = 0, c, i, j, u, k, cage, a, b
    cdef unsigned int m, once, twice, alone
    cdef bint stuck, empty
    sd_read_cages(&L, cage_of, sums)
    if len(masks) != 81:
        raise ValueError("a position has 81 cells")
    if ngroups > MAXGROUPS:
        raise ValueError(f"at most {MAXGROUPS} sum groups")
    gs = <_group *> malloc(max(ngroups, 1) * sizeof(_group))
    if gs == NULL:
        raise MemoryError()
    try:
        for i, (cells, total, distinct) in enumerate(groups):
            gs[i].k = len(cells)
            if not 1 <= gs[i].k <= 9:
                raise ValueError("a group has 1 to 9 cells")
            gtotal[i] = total
            for j in range(gs[i].k):
                gcells[i * 9 + j] = cells[j]
                gs[i].sign[j] = 1
                gs[i].apart[j] = 0
            for a, b in distinct:
                gs[i].apart[a] |= 1 << b
                gs[i].apart[b] |= 1 << a
            cagelike[i] = len(set(distinct)) == gs[i].k * (gs[i].k - 1) // 2
        for c in range(81):
            cur[c] = <uint16_t> (masks[c] & ALL)
            dirty[c] = 1
        with nogil:
            while True:
                memcpy(nxt, cur, sizeof(cur))
                for c in range(81):
                    m = cur[c]
                    if __builtin_popcount(m) == 1:
                        for i in range(L.npeers[c]):
                            nxt[L.peers[c * SD_MAXPEERS + i]] &= ~m
                for u in range(27):
                    once = 0
                    twice = 0
                    for i in range(9):
                        m = cur[_UNIT_CELLS[u * 9 + i]]
                        twice |= once & m
                        once |= m
                    alone = once & ~twice
                    if alone:
                        for i in range(9):
                            c = _UNIT_CELLS[u * 9 + i]
                            if cur[c] & alone:
                                nxt[c] &= cur[c] & alone
                for cage in range(L.ncages):
                    k = L.cage_size[cage]
                    if _any_dirty(&L.cage_cells[cage * 9], k, dirty):
                        _keep_combinations(L.cage_sum[cage], &L.cage_cells[cage * 9], k, cur, nxt)
                for i in range(ngroups):
                    if not _any_dirty(&gcells[i * 9], gs[i].k, dirty):
                        continue
                    if cagelike[i]:
                        _keep_combinations(gtotal[i], &gcells[i * 9], gs[i].k, cur, nxt)
                        continue
                    for j in range(gs[i].k):
                        gs[i].mask[j] = cur[gcells[i * 9 + j]]
                        gs[i].chosen[j] = 0
                        gs[i].support[j] = 0
                    if not _group_bounds(&gs[i]):
                        continue
                    _group_support(&gs[i], gtotal[i])
                    empty = 1
                    for j in range(gs[i].k):
                        if gs[i].support[j]:
                            empty = 0
                    if not empty:
                        for j in range(gs[i].k):
                            nxt[gcells[i * 9 + j]] &= gs[i].support[j]
                stuck = 1
                empty = 0
                for c in range(81):
                    if __builtin_popcount(cur[c]) == 1:
                        nxt[c] = cur[c]
                    dirty[c] = nxt[c] != cur[c]
                    if dirty[c]:
                        stuck = 0
                    if nxt[c] == 0:
                        empty = 1
                if stuck or empty:
                    break
                memcpy(cur, nxt, sizeof(cur))
                n += 1
        return n, [cur[c] for c in range(81)]
    finally:
        free(gs)
