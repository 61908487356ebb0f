# Compiled Killer Sudoku solution counter (see _count.pxd for the layout and the position).
#
# A depth-first search over candidate masks. Propagation, to a fixed point: naked singles (a placed
# digit leaves the cell's row, column, box and cage), hidden singles in the 27 units, and the cage
# sums: a cage keeps only the digit sets (combinations of distinct digits with its sum) that its cells
# can still hold, every cell of it only the digits of those sets, and a digit that every set needs
# with one place left in the cage goes there. Branching takes the open cell with fewest candidates.

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint16_t

from engine.core._clock cimport now
from engine.games.sudoku._count cimport sd_peers, sd_unit_cells

DEF ALL = 0x1FF
DEF MAXCOMBOS = 12

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil

# Every set of distinct digits by (size, sum): _COMBOS[(k * 46 + s) * MAXCOMBOS + i], _NCOMBOS[k * 46 + s].
cdef uint16_t _COMBOS[10 * 46 * MAXCOMBOS]
cdef int _NCOMBOS[10 * 46]
# Sudoku's geometry, built once by its counter: each unit's 9 cells, each cell's 20 peers.
cdef const int *_UNIT_CELLS = sd_unit_cells()
cdef const int *_SUDOKU_PEERS = sd_peers()


cdef void _build() noexcept:
    cdef unsigned int m
    cdef int k, s, d
    memset(_NCOMBOS, 0, sizeof(_NCOMBOS))
    for m in range(1, 512):
        k = __builtin_popcount(m)
        s = 0
        for d in range(9):
            if m >> d & 1:
                s += d + 1
        _COMBOS[(k * 46 + s) * MAXCOMBOS + _NCOMBOS[k * 46 + s]] = m
        _NCOMBOS[k * 46 + s] += 1

_build()


def combos(int size, int total):
    """The sets of `size` distinct digits 1..9 summing to `total`, as masks (bit d = digit d + 1)."""
    if not 1 <= size <= 9 or not 0 <= total <= 45:
        return []
    return [_COMBOS[(size * 46 + total) * MAXCOMBOS + i] for i in range(_NCOMBOS[size * 46 + total])]


cdef bint kl_layout_from(kl_layout *L, const int *cage_of, const int *sums, int ncages) noexcept nogil:
    cdef int cell, cage, i, n, other, j
    cdef bint seen
    if ncages < 1 or ncages > 81:
        return 0
    L.ncages = ncages
    for cage in range(ncages):
        L.cage_size[cage] = 0
        L.cage_sum[cage] = sums[cage]
    for cell in range(81):
        cage = cage_of[cell]
        if cage < 0 or cage >= ncages or L.cage_size[cage] >= 9:
            return 0
        L.cage_of[cell] = cage
        L.cage_cells[cage * 9 + L.cage_size[cage]] = cell
        L.cage_size[cage] += 1
    for cage in range(ncages):
        if L.cage_size[cage] == 0 or not 0 <= L.cage_sum[cage] <= 45:
            return 0
    for cell in range(81):
        n = 20
        for i in range(20):
            L.peers[cell * 28 + i] = _SUDOKU_PEERS[cell * 20 + i]
        cage = L.cage_of[cell]
        for i in range(L.cage_size[cage]):
            other = L.cage_cells[cage * 9 + i]
            if other == cell:
                continue
            seen = 0
            for j in range(20):
                if _SUDOKU_PEERS[cell * 20 + j] == other:
                    seen = 1
                    break
            if not seen:
                L.peers[cell * 28 + n] = other
                n += 1
        L.npeers[cell] = n
    return 1


cdef inline bint _drain(const kl_layout *L, kl_pos *p, int *stack, int *top) noexcept nogil:
    """Remove each queued single's digit from its peers (queueing new singles); 0 on a contradiction."""
    cdef int cell, i, peer
    cdef unsigned int m
    cdef const int *peers
    while top[0]:
        top[0] -= 1
        cell = stack[top[0]]
        m = p.cand[cell]
        p.done[cell] = 1
        p.nsolved += 1
        peers = &L.peers[cell * 28]
        for i in range(L.npeers[cell]):
            peer = peers[i]
            if p.cand[peer] & m:
                if p.done[peer]:
                    return 0
                p.cand[peer] &= ~m
                if p.cand[peer] == 0:
                    return 0
                if (p.cand[peer] & (p.cand[peer] - 1)) == 0:
                    stack[top[0]] = peer
                    top[0] += 1
                    p.done[peer] = 2
    return 1


cdef inline int _restrict(kl_pos *p, int cell, unsigned int keep, int *stack, int *top) noexcept nogil:
    """Keep only `keep` of an open cell's candidates: -1 contradiction, 1 changed, 0 not."""
    cdef unsigned int m = p.cand[cell]
    if p.done[cell] or (m & keep) == m:
        return 0
    m &= keep
    if m == 0:
        return -1
    p.cand[cell] = m
    if (m & (m - 1)) == 0:
        p.done[cell] = 2
        stack[top[0]] = cell
        top[0] += 1
    return 1


cdef int _cage(const kl_layout *L, kl_pos *p, int cage, int *stack, int *top) noexcept nogil:
    """Cage sums on one cage: -1 contradiction, 1 changed something, 0 nothing."""
    cdef int k = L.cage_size[cage], s = L.cage_sum[cage], i, j, n, cell, changed = 0, r
    cdef const int *cells = &L.cage_cells[cage * 9]
    cdef unsigned int union = 0, fixed = 0, combo, allowed = 0, needed = ALL, m, hit, d
    cdef bint ok
    for i in range(k):
        m = p.cand[cells[i]]
        union |= m
        if (m & (m - 1)) == 0:
            fixed |= m
    n = _NCOMBOS[k * 46 + s]
    for i in range(n):
        combo = _COMBOS[(k * 46 + s) * MAXCOMBOS + i]
        if (combo & union) != combo or (combo & fixed) != fixed:
            continue
        ok = 1
        for j in range(k):
            if (p.cand[cells[j]] & combo) == 0:
                ok = 0
                break
        if ok:
            allowed |= combo
            needed &= combo
    if allowed == 0:
        return -1
    for i in range(k):
        r = _restrict(p, cells[i], allowed, stack, top)
        if r < 0:
            return -1
        changed |= r
    # a digit every set needs, with one place left in the cage, goes there
    needed &= ~fixed
    while needed:
        d = needed & (~needed + 1)
        needed &= needed - 1
        hit = 0
        cell = -1
        for i in range(k):
            if p.cand[cells[i]] & d:
                hit += 1
                cell = cells[i]
        if hit == 0:
            return -1
        if hit == 1 and not p.done[cell] and p.cand[cell] != d:
            p.cand[cell] = d
            p.done[cell] = 2
            stack[top[0]] = cell
            top[0] += 1
            changed = 1
    return changed


cdef bint kl_propagate(const kl_layout *L, kl_pos *p) noexcept nogil:
    cdef int stack[81]
    cdef int top = 0, cell, u, i, cage, r
    cdef unsigned int m, once, twice, only, hit
    cdef bint changed
    for cell in range(81):
        if not p.done[cell]:
            m = p.cand[cell]
            if m == 0:
                return 0
            if (m & (m - 1)) == 0:
                stack[top] = cell
                top += 1
                p.done[cell] = 2
    while True:
        if not _drain(L, p, stack, &top):
            return 0
        if p.nsolved == 81:
            # every cell placed and no peer repeats a digit: the sums remain to check
            for cage in range(L.ncages):
                r = 0
                for i in range(L.cage_size[cage]):
                    r += __builtin_ctz(p.cand[L.cage_cells[cage * 9 + i]]) + 1
                if r != L.cage_sum[cage]:
                    return 0
            return 1
        for u in range(27):
            once = 0
            twice = 0
            for i in range(9):
                m = p.cand[_UNIT_CELLS[u * 9 + i]]
                twice |= once & m
                once |= m
            if once != ALL:
                return 0
            only = once & ~twice
            if only:
                for i in range(9):
                    cell = _UNIT_CELLS[u * 9 + i]
                    if p.done[cell]:
                        continue
                    hit = p.cand[cell] & only
                    if hit:
                        if hit & (hit - 1):
                            return 0
                        p.cand[cell] = hit
                        p.done[cell] = 2
                        stack[top] = cell
                        top += 1
        if top:
            continue
        changed = 0
        for cage in range(L.ncages):
            r = _cage(L, p, cage, stack, &top)
            if r < 0:
                return 0
            if r:
                changed = 1
        if not changed and not top:
            return 1


cdef struct _search:
    int limit
    int n
    unsigned char *out
    const unsigned char *avoid    # a solution not to count (digits 1..9), or NULL
    long long nodes
    double deadline
    bint timed_out


cdef bint _search_from(const kl_layout *L, _search *s, kl_pos *p) noexcept nogil:
    """Depth-first from a propagated position; 1 when it stopped early (limit or deadline)."""
    cdef int cell, best = -1, bestn = 10, n
    cdef unsigned int m, bit, first
    cdef kl_pos child
    s.nodes += 1
    if s.deadline != 0.0 and (s.nodes & 255) == 0 and now() > s.deadline:
        s.timed_out = 1
        return 1
    if p.nsolved == 81:
        if s.avoid != NULL:
            for cell in range(81):
                if __builtin_ctz(p.cand[cell]) + 1 != s.avoid[cell]:
                    break
            else:
                return 0
        if s.out != NULL:
            for cell in range(81):
                s.out[s.n * 81 + cell] = <unsigned char> (__builtin_ctz(p.cand[cell]) + 1)
        s.n += 1
        return s.n >= s.limit
    for cell in range(81):
        if not p.done[cell]:
            n = __builtin_popcount(p.cand[cell])
            if n < bestn:
                bestn = n
                best = cell
                if n == 2:
                    break
    m = p.cand[best]
    first = 0
    if s.avoid != NULL:
        # The avoided solution's digit first: the search runs down to that solution and backs up
        # from its last choices, and the solutions that differ from it in a few cells (an ambiguity
        # is local) are the first it meets.
        first = m & (1u << (s.avoid[best] - 1))
        m &= ~first
    while m or first:
        if first:
            bit = first
            first = 0
        else:
            bit = m & (~m + 1)
            m &= m - 1
        memcpy(&child, p, sizeof(kl_pos))
        child.cand[best] = bit
        if kl_propagate(L, &child):
            if _search_from(L, s, &child):
                return 1
    return 0


cdef int kl_count(const kl_layout *L, const uint16_t *masks, int limit, double deadline,
                  unsigned char *out, long long *nodes, const unsigned char *avoid) noexcept nogil:
    cdef kl_pos p
    cdef _search s
    cdef int cell
    s.limit = limit
    s.n = 0
    s.out = out
    s.avoid = avoid
    s.nodes = 0
    s.deadline = deadline
    s.timed_out = 0
    if limit <= 0:
        return 0
    p.nsolved = 0
    for cell in range(81):
        p.cand[cell] = masks[cell] & ALL
        p.done[cell] = 0
    if kl_propagate(L, &p):
        _search_from(L, &s, &p)
    if nodes != NULL:
        nodes[0] = s.nodes
    return -1 if s.timed_out else s.n


cdef bint _read_layout(kl_layout *L, cage_of, sums) except 0:
    cdef int cages[81]
    cdef int totals[81]
    cdef int i
    if len(cage_of) != 81:
        raise ValueError("a layout has 81 cells")
    if not 1 <= len(sums) <= 81:
        raise ValueError("a layout has 1 to 81 cages")
    for i in range(81):
        cages[i] = cage_of[i]
    for i in range(len(sums)):
        totals[i] = sums[i]
    if not kl_layout_from(L, cages, totals, len(sums)):
        raise ValueError("malformed cages: every cage has 1 to 9 cells and a sum from 0 to 45")
    return 1


def solve(cage_of, sums, masks, int limit, double deadline=0.0, str other_than=None):
    """Solutions of the position `masks` (81 candidate masks) under the cages (`cage_of`: a cage
    number per cell; `sums`: each cage's sum), up to `limit`; with `other_than` (81 digits), solutions
    other than that one, its digits tried first.

    Returns (solutions as 81-digit strings, complete, nodes): complete is False (and no solution is
    returned) when the deadline (a time on the monotonic clock, 0 for none) cut the search short."""
    cdef kl_layout L
    cdef uint16_t buf[81]
    cdef int i, n
    cdef long long nodes = 0
    cdef unsigned char *out
    cdef unsigned char avoid[81]
    cdef const unsigned char *avoiding = NULL
    _read_layout(&L, cage_of, sums)
    if len(masks) != 81:
        raise ValueError("a position has 81 cells")
    if other_than is not None:
        if len(other_than) != 81 or not all("1" <= ch <= "9" for ch in other_than):
            raise ValueError("other_than is 81 digits 1..9")
        for i in range(81):
            avoid[i] = ord(other_than[i]) - 48
        avoiding = avoid
    if limit < 1:
        raise ValueError("limit must be at least 1")
    for i in range(81):
        buf[i] = <uint16_t> (masks[i] & ALL)
    out = <unsigned char *> malloc(limit * 81)
    if out == NULL:
        raise MemoryError()
    try:
        with nogil:
            n = kl_count(&L, buf, limit, deadline, out, &nodes, avoiding)
        sols = [bytes(out[i * 81 + j] + 48 for j in range(81)).decode() for i in range(max(n, 0))]
        return sols, n >= 0, nodes
    finally:
        free(out)


# ------------------------------------------------------------------------------------------------
# exact cage support: which digits each cell of a cage can take in some completion of the cage

cdef int kl_cage_support(int total, const uint16_t *masks, int k, unsigned int need,
                         uint16_t *support, uint16_t *live) noexcept nogil:
    """For k distinct cells adding up to `total` (holding every digit of `need`): each cell's digits that
    some assignment within the cells' candidates uses (`support`), and the digit sets those
    assignments use (`live`). Returns how many sets are live (0: the cage cannot be completed).

    Per digit set, a forward pass marks the digits the first i cells can hold together, a backward
    pass keeps the ones the remaining cells can complete."""
    cdef unsigned char fwd[10][512]
    cdef unsigned char good[10][512]
    cdef unsigned int combo, union = 0, sub, avail, bit, m
    cdef int i, j, n, nlive = 0
    cdef bint ok
    cdef uint16_t found[9]
    for i in range(k):
        support[i] = 0
        union |= masks[i]
    if k < 1 or k > 9 or total < 0 or total > 45:
        return 0
    n = _NCOMBOS[k * 46 + total]
    for j in range(n):
        combo = _COMBOS[(k * 46 + total) * MAXCOMBOS + j]
        if (combo & union) != combo or (combo & need) != need:
            continue
        ok = 1
        for i in range(k):
            if (masks[i] & combo) == 0:
                ok = 0
                break
        if not ok:
            continue
        # forward: fwd[i][used] when the first i cells can hold exactly the digits `used`
        for i in range(k + 1):
            sub = combo
            while True:
                fwd[i][sub] = 0
                good[i][sub] = 0
                if sub == 0:
                    break
                sub = (sub - 1) & combo
        fwd[0][0] = 1
        for i in range(k):
            sub = combo
            while True:
                if fwd[i][sub]:
                    avail = masks[i] & combo & ~sub
                    while avail:
                        bit = avail & (~avail + 1)
                        avail &= avail - 1
                        fwd[i + 1][sub | bit] = 1
                if sub == 0:
                    break
                sub = (sub - 1) & combo
        if not fwd[k][combo]:
            continue
        good[k][combo] = 1
        for i in range(k):
            found[i] = 0
        for i in range(k - 1, -1, -1):
            sub = combo
            while True:
                if fwd[i][sub]:
                    avail = masks[i] & combo & ~sub
                    while avail:
                        bit = avail & (~avail + 1)
                        avail &= avail - 1
                        if good[i + 1][sub | bit]:
                            found[i] |= bit
                            good[i][sub] = 1
                if sub == 0:
                    break
                sub = (sub - 1) & combo
        live[nlive] = <uint16_t> combo
        nlive += 1
        for i in range(k):
            support[i] |= found[i]
    return nlive


def cage_support(int total, masks, unsigned int need=0):
    """For distinct cells adding up to `total` (with every digit of `need` among them): (each cell's
    supported digits, the digit sets some assignment uses); all empty when it cannot be completed."""
    cdef uint16_t buf[9]
    cdef uint16_t support[9]
    cdef uint16_t live[MAXCOMBOS]
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
    """A board's cages over one position at a time (`load`), to screen every cage at once: the compiled
    half of the cage techniques, which say where the first step is; techniques.py words it."""

    cdef kl_layout L
    cdef uint16_t cand[81]            # every cell as a mask, a placed digit as its single bit
    cdef unsigned char placed[81]
    cdef int unit_of[81 * 3]
    cdef uint16_t seen[81 * 9]      # each cage's cells when `scan` last looked at it
    cdef signed char verdict[81]    # and what it found: 0 nothing, 1 a digit to drop, 2 dead, -1 not yet

    def __init__(self, cage_of, sums):
        cdef int cell
        _read_layout(&self.L, cage_of, sums)
        memset(self.verdict, -1, sizeof(self.verdict))
        for cell in range(81):
            self.unit_of[cell * 3] = cell // 9
            self.unit_of[cell * 3 + 1] = 9 + cell % 9
            self.unit_of[cell * 3 + 2] = 18 + (cell // 27) * 3 + (cell % 9) // 3
            self.cand[cell] = ALL
            self.placed[cell] = 0

    def load(self, masks, marks):
        """The position: `masks` every cell (a placed digit as its bit), `marks` 0 for placed cells."""
        cdef int i
        if len(masks) != 81 or len(marks) != 81:
            raise ValueError("a position has 81 cells")
        for i in range(81):
            self.cand[i] = <uint16_t> (masks[i] & ALL)
            self.placed[i] = marks[i] == 0

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
        return self.unit_of[cell * 3] == unit or self.unit_of[cell * 3 + 1] == unit or self.unit_of[cell * 3 + 2] == unit

    def scan(self):
        """(the first cage whose cells hold a digit no completion uses, or that cannot be completed, or
        -1; whether some cage cannot be completed)."""
        cdef uint16_t cells[9]
        cdef uint16_t support[9]
        cdef uint16_t live[MAXCOMBOS]
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
        cdef uint16_t live[MAXCOMBOS]
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
                    u = self.unit_of[first * 3 + j]
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
        cdef uint16_t live[MAXCOMBOS]
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


cdef void _group_search(_group *g, int i, int left) noexcept nogil:
    cdef int j
    cdef unsigned int taken = 0, rest, bit
    if i == g.k:
        if left == 0:
            for j in range(g.k):
                g.support[j] |= g.chosen[j]
        return
    if left < g.low[i] or left > g.high[i]:
        return
    for j in range(i):
        if g.apart[i] >> j & 1:
            taken |= g.chosen[j]
    rest = g.mask[i] & ~taken
    while rest:
        bit = rest & (~rest + 1)
        rest ^= bit
        g.chosen[i] = <uint16_t> bit
        _group_search(g, i + 1, left - g.sign[i] * (__builtin_ctz(bit) + 1))
    g.chosen[i] = 0


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
    _group_search(&g, 0, total)
    return tuple([g.support[i] for i in range(g.k)])


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
    cdef uint16_t live[MAXCOMBOS]
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
    cdef kl_layout L
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
    _read_layout(&L, cage_of, sums)
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
                            nxt[L.peers[c * 28 + i]] &= ~m
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
                    _group_search(&gs[i], 0, gtotal[i])
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
