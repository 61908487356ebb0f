# Compiled solution counter of Sudoku and Killer Sudoku (see _count.pxd for the position it keeps and
# the cages it takes).
#
# One depth-first search serves three jobs: counting solutions up to a limit (stopping at 2 proves a
# board unique), with a Killer board's cages or without (a Sudoku board); looking for a solution other
# than a known one (the Killer generator's question); and drawing a random complete grid (the same
# search from an empty grid, limit 1, with the digits of each branch tried in a random order). Bounds
# and wraparound checks are set in setup.py.

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint16_t, uint64_t

from engine.core._clock cimport now, splitmix

DEF ALL = 0x1FF

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil

cdef int _PEERS[81 * 20]
cdef int _CELL_UNITS[81 * 3]
cdef int _UNIT_CELLS[27 * 9]
# Every set of distinct digits by (size, sum): _COMBOS[(k * 46 + s) * SD_MAXCOMBOS + i], _NCOMBOS[k * 46 + s].
cdef uint16_t _COMBOS[10 * 46 * SD_MAXCOMBOS]
cdef int _NCOMBOS[10 * 46]


cdef void _build() noexcept:
    cdef int r, c, cell, u, i, n, other, box, k, s, d
    cdef unsigned int m
    for r in range(9):
        for c in range(9):
            cell = r * 9 + c
            box = (r // 3) * 3 + c // 3
            _CELL_UNITS[cell * 3] = r
            _CELL_UNITS[cell * 3 + 1] = 9 + c
            _CELL_UNITS[cell * 3 + 2] = 18 + box
            _UNIT_CELLS[r * 9 + c] = cell
            _UNIT_CELLS[(9 + c) * 9 + r] = cell
            _UNIT_CELLS[(18 + box) * 9 + (r % 3) * 3 + c % 3] = cell
    for cell in range(81):
        n = 0
        for other in range(81):
            if other != cell and (other // 9 == cell // 9 or other % 9 == cell % 9 or
                                  ((other // 27) == (cell // 27) and (other % 9) // 3 == (cell % 9) // 3)):
                _PEERS[cell * 20 + n] = other
                n += 1
    memset(_NCOMBOS, 0, sizeof(_NCOMBOS))
    for m in range(1, 512):
        k = __builtin_popcount(m)
        s = 0
        for d in range(9):
            if m >> d & 1:
                s += d + 1
        _COMBOS[(k * 46 + s) * SD_MAXCOMBOS + _NCOMBOS[k * 46 + s]] = m
        _NCOMBOS[k * 46 + s] += 1

_build()


cdef const int *sd_peers() noexcept nogil:
    return _PEERS

cdef const int *sd_cell_units() noexcept nogil:
    return _CELL_UNITS

cdef const int *sd_unit_cells() noexcept nogil:
    return _UNIT_CELLS

cdef const uint16_t *sd_combos(int size, int total, int *count) noexcept nogil:
    if not 1 <= size <= 9 or not 0 <= total <= 45:
        count[0] = 0
        return _COMBOS
    count[0] = _NCOMBOS[size * 46 + total]
    return &_COMBOS[(size * 46 + total) * SD_MAXCOMBOS]


def monotonic() -> float:
    """The clock the deadlines are measured on (same as time.monotonic())."""
    return now()


# ------------------------------------------------------------------------------------------------
# the cages

cdef bint sd_cages_from(sd_cages *L, const int *cage_of, const int *sums, int ncages) noexcept nogil:
    cdef int cell, cage, i, n, other, j
    cdef bint seen
    if ncages < 1 or ncages > SD_MAXCAGES:
        return 0
    L.ncages = ncages
    memset(L.quiet, 0xFF, sizeof(L.quiet))
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
            L.peers[cell * SD_MAXPEERS + i] = _PEERS[cell * 20 + i]
        cage = L.cage_of[cell]
        for i in range(L.cage_size[cage]):
            other = L.cage_cells[cage * 9 + i]
            if other == cell:
                continue
            seen = 0
            for j in range(20):
                if _PEERS[cell * 20 + j] == other:
                    seen = 1
                    break
            if not seen:
                L.peers[cell * SD_MAXPEERS + n] = other
                n += 1
        L.npeers[cell] = n
    return 1


cdef bint sd_read_cages(sd_cages *L, cage_of, sums) except 0:
    cdef int cages[81]
    cdef int totals[SD_MAXCAGES]
    cdef int i
    if len(cage_of) != 81:
        raise ValueError("a layout has 81 cells")
    if not 1 <= len(sums) <= SD_MAXCAGES:
        raise ValueError("a layout has 1 to 81 cages")
    for i in range(81):
        cages[i] = cage_of[i]
    for i in range(len(sums)):
        totals[i] = sums[i]
    if not sd_cages_from(L, cages, totals, len(sums)):
        raise ValueError("malformed cages: every cage has 1 to 9 cells and a sum from 0 to 45")
    return 1


cdef inline int _restrict(sd_pos *p, int cell, unsigned int keep, int *stack, int *top) noexcept nogil:
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


cdef int sd_fitting_combos(int total, const uint16_t *masks, int k, unsigned int need, uint16_t *fits
                           ) noexcept nogil:
    return _fitting(total, masks, k, need, fits)


cdef inline int _fitting(int total, const uint16_t *masks, int k, unsigned int need, uint16_t *fits
                         ) noexcept nogil:
    """The digit sets of k distinct cells adding up to `total` that hold every digit of `need`, lie
    within the cells' candidates and leave each cell some digit (`fits`); how many."""
    cdef int i, j, n, nfit = 0
    cdef unsigned int union = 0, combo
    cdef const uint16_t *combos
    if k < 1 or k > 9:
        return 0
    combos = sd_combos(k, total, &n)
    for i in range(k):
        union |= masks[i]
    for i in range(n):
        combo = combos[i]
        if (combo & union) != combo or (combo & need) != need:
            continue
        for j in range(k):
            if (masks[j] & combo) == 0:
                break
        else:
            fits[nfit] = <uint16_t> combo
            nfit += 1
    return nfit


cdef int _cage(const sd_cages *L, sd_pos *p, int cage, int *stack, int *top) noexcept nogil:
    """Cage sums on one cage: -1 contradiction, 1 changed something, 0 nothing. What it does depends
    on its cells' masks alone (a cell with one candidate is a placed or queued single), so masks on
    which it last changed nothing (L.quiet, the search's memory) are passed over."""
    cdef int k = L.cage_size[cage], i, n, cell, changed = 0, r
    cdef const int *cells = &L.cage_cells[cage * 9]
    cdef uint16_t *quiet = &(<sd_cages *> L).quiet[cage * 9]
    cdef uint16_t masks[9]
    cdef uint16_t fits[SD_MAXCOMBOS]
    cdef unsigned int fixed = 0, allowed = 0, needed = ALL, m, hit, d
    cdef bint same = 1
    for i in range(k):
        m = masks[i] = p.cand[cells[i]]
        if m != quiet[i]:
            same = 0
        if (m & (m - 1)) == 0:
            fixed |= m
    if same:
        return 0
    n = _fitting(L.cage_sum[cage], masks, k, fixed, fits)
    for i in range(n):
        allowed |= fits[i]
        needed &= fits[i]
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
    if not changed:
        for i in range(k):
            quiet[i] = masks[i]
    return changed


cdef bint _sums_hold(const sd_cages *L, const sd_pos *p) noexcept nogil:
    """Whether every cage of a position with every cell placed makes its sum."""
    cdef int cage, i, total
    for cage in range(L.ncages):
        total = 0
        for i in range(L.cage_size[cage]):
            total += __builtin_ctz(p.cand[L.cage_cells[cage * 9 + i]]) + 1
        if total != L.cage_sum[cage]:
            return 0
    return 1


# ------------------------------------------------------------------------------------------------
# propagation

cdef bint sd_propagate(sd_pos *p, const sd_cages *L) noexcept nogil:
    """Naked and hidden singles (and the cage sums) to a fixed point; 0 on a contradiction."""
    cdef int stack[81]
    cdef int top = 0, cell
    cdef unsigned int m
    for cell in range(81):
        if not p.done[cell]:
            m = p.cand[cell]
            if m == 0:
                return 0
            if (m & (m - 1)) == 0:
                stack[top] = cell
                top += 1
                p.done[cell] = 2          # queued
    return _settle(p, stack, top, L)


cdef inline bint _place(sd_pos *p, int cell, unsigned int bit) noexcept nogil:
    """Give the open cell `cell` of a propagated Sudoku position the digit `bit`, and propagate (the
    same fixed point as sd_propagate: in a propagated position no other open cell has a single mark)."""
    cdef int stack[81]
    p.cand[cell] = bit
    p.done[cell] = 2
    stack[0] = cell
    return _settle(p, stack, 1, NULL)


cdef inline bint _clear_peers(sd_pos *p, unsigned int m, const int *peers, int npeers, int *stack, int *top
                              ) noexcept nogil:
    """Remove the digit `m` of a placed cell from its peers, queueing new singles; 0 on a contradiction."""
    cdef int i, peer
    for i in range(npeers):
        peer = peers[i]
        if p.cand[peer] & m:
            if p.done[peer]:
                return 0                      # two equal singles see each other
            p.cand[peer] &= ~m
            if p.cand[peer] == 0:
                return 0
            if (p.cand[peer] & (p.cand[peer] - 1)) == 0:
                stack[top[0]] = peer
                top[0] += 1
                p.done[peer] = 2
    return 1


cdef bint _settle(sd_pos *p, int *stack, int top, const sd_cages *L) noexcept nogil:
    """sd_propagate from its queue of singles (`top` cells in `stack`, marked done = 2)."""
    cdef int cell, i, u, cage, r
    cdef unsigned int m, once, twice, only, hit
    cdef bint changed
    while True:
        while top:
            top -= 1
            cell = stack[top]
            m = p.cand[cell]
            p.done[cell] = 1
            p.nsolved += 1
            if L == NULL:
                if not _clear_peers(p, m, &_PEERS[cell * 20], 20, stack, &top):
                    return 0
            elif not _clear_peers(p, m, &L.peers[cell * SD_MAXPEERS], L.npeers[cell], stack, &top):
                return 0
        if p.nsolved == 81:
            # every cell placed and no peer repeats a digit: the sums remain to check
            return L == NULL or _sums_hold(L, p)
        # hidden singles: a digit with one place in a unit
        for u in range(27):
            once = 0
            twice = 0
            for i in range(9):
                m = p.cand[_UNIT_CELLS[u * 9 + i]]
                twice |= once & m
                once |= m
            if once != ALL:
                return 0                              # some digit has no place left
            only = once & ~twice
            if only:
                for i in range(9):
                    cell = _UNIT_CELLS[u * 9 + i]
                    if p.done[cell]:
                        continue
                    hit = p.cand[cell] & only
                    if hit:
                        if hit & (hit - 1):
                            return 0                  # two digits that both need this one cell
                        p.cand[cell] = hit
                        p.done[cell] = 2
                        stack[top] = cell
                        top += 1
            if top:
                break
        if top:
            continue
        if L == NULL:
            return 1
        changed = 0
        for cage in range(L.ncages):
            r = _cage(L, p, cage, stack, &top)
            if r < 0:
                return 0
            if r:
                changed = 1
        if not changed:
            return 1


cdef bint sd_start(sd_pos *p, const uint16_t *masks, const sd_cages *L) noexcept nogil:
    cdef int cell
    p.nsolved = 0
    for cell in range(81):
        p.cand[cell] = masks[cell] & ALL
        p.done[cell] = 0
    return sd_propagate(p, L)


# ------------------------------------------------------------------------------------------------
# the search

cdef inline int _fewest(const sd_pos *p) noexcept nogil:
    """The open cell with the fewest candidates (the first such; two is the fewest an open cell of a
    propagated position has)."""
    cdef int cell, best = -1, bestn = 10, n
    for cell in range(81):
        if not p.done[cell]:
            n = __builtin_popcount(p.cand[cell])
            if n < bestn:
                bestn = n
                best = cell
                if n == 2:
                    break
    return best


cdef bint sd_search_from(sd_search *s, sd_pos *p) noexcept nogil:
    cdef int cell, best, k, n, i, j, t
    cdef int digits[9]
    cdef unsigned int m, first
    cdef sd_pos child
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
        if s.solutions != NULL:
            for cell in range(81):
                s.solutions[s.nsolutions * 81 + cell] = <unsigned char> (__builtin_ctz(p.cand[cell]) + 1)
        s.nsolutions += 1
        return s.nsolutions >= s.limit
    best = _fewest(p)
    m = p.cand[best]
    n = 0
    if s.avoid != NULL:
        # The avoided solution's digit first: the search runs down to that solution and backs up from
        # its last choices, and the solutions that differ from it in a few cells (an ambiguity is
        # local) are the first it meets.
        first = m & (1u << (s.avoid[best] - 1))
        if first:
            digits[0] = __builtin_ctz(first)
            n = 1
            m &= ~first
    while m:
        digits[n] = __builtin_ctz(m)
        m &= m - 1
        n += 1
    if s.randomize:
        for i in range(n - 1, 0, -1):
            j = <int> (splitmix(&s.rng) % <uint64_t> (i + 1))
            t = digits[i]
            digits[i] = digits[j]
            digits[j] = t
    for k in range(n):
        memcpy(&child, p, sizeof(sd_pos))
        child.cand[best] = 1 << digits[k]
        if sd_propagate(&child, s.cages):
            if sd_search_from(s, &child):
                return 1
    return 0


cdef inline void _new_search(sd_search *s, int limit, double deadline) noexcept nogil:
    s.limit = limit
    s.nsolutions = 0
    s.solutions = NULL
    s.nodes = 0
    s.deadline = deadline
    s.timed_out = 0
    s.randomize = 0
    s.rng = 0
    s.avoid = NULL
    s.cages = NULL


cdef int sd_count_masks(const uint16_t *masks, int limit, double deadline) noexcept nogil:
    cdef sd_pos p
    cdef sd_search s
    _new_search(&s, limit, deadline)
    if limit <= 0 or not sd_start(&p, masks, NULL):
        return 0
    sd_search_from(&s, &p)
    return -1 if s.timed_out else s.nsolutions


cdef bint _find_other(sd_pos *p, const uint16_t *known) noexcept nogil:
    """Whether the propagated position p has a solution; the digit of the known solution is tried
    first at every branch (a second solution usually differs from it in a few cells only)."""
    cdef int best
    cdef unsigned int m, first, bit
    cdef sd_pos child
    if p.nsolved == 81:
        return 1
    best = _fewest(p)
    m = p.cand[best]
    first = m & known[best]
    if first:
        memcpy(&child, p, sizeof(sd_pos))
        if _place(&child, best, first) and _find_other(&child, known):
            return 1
        m &= ~first
    while m:
        bit = m & (~m + 1)
        m &= m - 1
        memcpy(&child, p, sizeof(sd_pos))
        if _place(&child, best, bit) and _find_other(&child, known):
            return 1
    return 0


cdef int sd_other_solution(const uint16_t *masks, const uint16_t *known, const int *cells, int ncells
                           ) noexcept nogil:
    """Whether the position `masks` has a solution other than the known one (`known`: 81 digit masks),
    where the cells `cells` are left open. Returns -1 when singles alone settle the position (the
    counter's search would stop at its root: exactly one solution), 2 when they do not but they fill
    every open cell (the position then has the singles' fixed point, so the solutions, of the same
    position with those cells given), 0 when the known solution is the only one otherwise, 1 when there
    is another.

    The same answer as counting to 2, found faster: the other solutions are split by the first of the
    open cells k where they leave the known solution (cells before k as known, cell k not), and each
    part is searched for one solution from the propagated root."""
    cdef sd_pos root, child
    cdef int k, j, c
    if not sd_start(&root, masks, NULL):
        return 0                                      # not expected: the known solution fits masks
    if root.nsolved == 81:
        return -1
    for k in range(ncells):
        if not root.done[cells[k]]:
            break
    else:
        return 2
    for k in range(ncells):
        memcpy(&child, &root, sizeof(sd_pos))
        for j in range(k):
            c = cells[j]
            child.cand[c] &= known[c]
        c = cells[k]
        child.cand[c] &= ~known[c]
        for j in range(k + 1):
            if child.cand[cells[j]] == 0:
                break
        else:
            if sd_propagate(&child, NULL) and _find_other(&child, known):
                return 1
    return 0


# ------------------------------------------------------------------------------------------------
# the Python fronts

cdef void _read_masks(uint16_t *buf, masks) except *:
    cdef int i
    if len(masks) != 81:
        raise ValueError("a position has 81 cells")
    for i in range(81):
        buf[i] = <uint16_t> (masks[i] & ALL)


def solve(masks, int limit, double deadline=0.0, bint randomize=False, uint64_t seed=0, *, cage_of=None,
          sums=None, str other_than=None):
    """Solutions of the position `masks` (81 candidate masks, bit d = digit d + 1), up to `limit`.

    Returns (solutions as 81-digit strings, complete, nodes): complete is False when the deadline (a
    time on `monotonic()`, 0 for none) cut the search short (the solutions are then those found so
    far). With `randomize`, the digits of every branch are tried in an order drawn from `seed` (the
    first solution is then a random grid). With `cage_of` (a cage number per cell) and `sums` (each
    cage's sum), the cages of a Killer board hold too. With `other_than` (81 digits), only solutions
    other than that one, its digits tried first."""
    cdef uint16_t buf[81]
    cdef sd_cages L
    cdef unsigned char avoid[81]
    cdef sd_pos p
    cdef sd_search s
    cdef int i
    _read_masks(buf, masks)
    if limit < 1:
        raise ValueError("limit must be at least 1")
    _new_search(&s, limit, deadline)
    s.randomize = randomize
    s.rng = seed
    if cage_of is not None or sums is not None:
        if cage_of is None or sums is None:
            raise ValueError("cages need both cage_of and sums")
        sd_read_cages(&L, cage_of, sums)
        s.cages = &L
    if other_than is not None:
        if len(other_than) != 81 or not all("1" <= ch <= "9" for ch in other_than):
            raise ValueError("other_than is 81 digits 1..9")
        for i in range(81):
            avoid[i] = ord(other_than[i]) - 48
        s.avoid = avoid
    s.solutions = <unsigned char *> malloc(limit * 81)
    if s.solutions == NULL:
        raise MemoryError()
    try:
        with nogil:
            if sd_start(&p, buf, s.cages):
                sd_search_from(&s, &p)
        out = [bytes(s.solutions[i * 81 + j] + 48 for j in range(81)).decode() for i in range(s.nsolutions)]
        return out, not s.timed_out, s.nodes
    finally:
        free(s.solutions)


def count_masks(masks, int limit, double deadline=0.0) -> int:
    """How many solutions the Sudoku position has, up to `limit` (-1 when the deadline passed first)."""
    cdef uint16_t buf[81]
    cdef int n
    _read_masks(buf, masks)
    with nogil:
        n = sd_count_masks(buf, limit, deadline)
    return n
