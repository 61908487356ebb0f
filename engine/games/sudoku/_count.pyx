# Compiled Sudoku solution counter (see _count.pxd for the position it keeps).
#
# One depth-first search serves two jobs: counting solutions up to a limit (stopping at 2 proves a
# board unique), and drawing a random complete grid (the same search from an empty grid, limit 1,
# with the digits of each branch tried in a random order). Bounds and wraparound checks are set in
# setup.py.

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint16_t, uint64_t

from engine.core._clock cimport now, splitmix

DEF ALL = 0x1FF

cdef int _PEERS[81 * 20]
cdef int _CELL_UNITS[81 * 3]
cdef int _UNIT_CELLS[27 * 9]


cdef void _build() noexcept:
    cdef int r, c, cell, u, i, n, other, box
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

_build()


cdef const int *sd_peers() noexcept nogil:
    return _PEERS

cdef const int *sd_cell_units() noexcept nogil:
    return _CELL_UNITS

cdef const int *sd_unit_cells() noexcept nogil:
    return _UNIT_CELLS


def monotonic() -> float:
    """The clock the deadlines are measured on (same as time.monotonic())."""
    return now()


cdef inline int _popcount(unsigned int m) noexcept nogil:
    return __builtin_popcount(m)

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil


cdef bint sd_propagate(sd_pos *p) noexcept nogil:
    """Naked and hidden singles to a fixed point; 0 on a contradiction."""
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
    return _drain(p, stack, top)


cdef inline bint _place(sd_pos *p, int cell, unsigned int bit) noexcept nogil:
    """Give the open cell `cell` of a propagated position the digit `bit`, and propagate (the same
    fixed point as sd_propagate: in a propagated position no other open cell has a single mark)."""
    cdef int stack[81]
    p.cand[cell] = bit
    p.done[cell] = 2
    stack[0] = cell
    return _drain(p, stack, 1)


cdef bint _drain(sd_pos *p, int *stack, int top) noexcept nogil:
    """sd_propagate from its queue of singles (`top` cells in `stack`, marked done = 2)."""
    cdef int cell, i, j, u, peer
    cdef unsigned int m, once, twice, only, hit
    cdef const int *peers
    while True:
        while top:
            top -= 1
            cell = stack[top]
            m = p.cand[cell]
            p.done[cell] = 1
            p.nsolved += 1
            peers = &_PEERS[cell * 20]
            for i in range(20):
                peer = peers[i]
                if p.cand[peer] & m:
                    if p.done[peer]:
                        return 0                      # two equal singles see each other
                    p.cand[peer] &= ~m
                    if p.cand[peer] == 0:
                        return 0
                    if (p.cand[peer] & (p.cand[peer] - 1)) == 0:
                        stack[top] = peer
                        top += 1
                        p.done[peer] = 2
        if p.nsolved == 81:
            return 1
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
        if not top:
            return 1


cdef bint sd_start(sd_pos *p, const uint16_t *masks) noexcept nogil:
    cdef int cell
    p.nsolved = 0
    for cell in range(81):
        p.cand[cell] = masks[cell] & ALL
        p.done[cell] = 0
    return sd_propagate(p)


cdef inline int _fewest(const sd_pos *p) noexcept nogil:
    """The open cell with the fewest candidates (the first such; two is the fewest an open cell of a
    propagated position has)."""
    cdef int cell, best = -1, bestn = 10, n
    for cell in range(81):
        if not p.done[cell]:
            n = _popcount(p.cand[cell])
            if n < bestn:
                bestn = n
                best = cell
                if n == 2:
                    break
    return best


cdef bint sd_search_from(sd_search *s, sd_pos *p) noexcept nogil:
    cdef int cell, best, k, n, i, j, t
    cdef int digits[9]
    cdef unsigned int m
    cdef sd_pos child
    s.nodes += 1
    if s.deadline != 0.0 and (s.nodes & 1023) == 0 and now() > s.deadline:
        s.timed_out = 1
        return 1
    if p.nsolved == 81:
        if s.solutions != NULL:
            for cell in range(81):
                s.solutions[s.nsolutions * 81 + cell] = <unsigned char> (__builtin_ctz(p.cand[cell]) + 1)
        s.nsolutions += 1
        return s.nsolutions >= s.limit
    best = _fewest(p)
    m = p.cand[best]
    n = 0
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
        if sd_propagate(&child):
            if sd_search_from(s, &child):
                return 1
    return 0


cdef int sd_count_masks(const uint16_t *masks, int limit, double deadline) noexcept nogil:
    cdef sd_pos p
    cdef sd_search s
    s.limit = limit
    s.nsolutions = 0
    s.solutions = NULL
    s.nodes = 0
    s.deadline = deadline
    s.timed_out = 0
    s.randomize = 0
    s.rng = 0
    if limit <= 0 or not sd_start(&p, masks):
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
    if not sd_start(&root, masks):
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
            if sd_propagate(&child) and _find_other(&child, known):
                return 1
    return 0


def solve(masks, int limit, double deadline=0.0, bint randomize=False, uint64_t seed=0):
    """Solutions of the position `masks` (81 candidate masks, bit d = digit d + 1), up to `limit`.

    Returns (solutions as 81-digit strings, complete, nodes): complete is False when the deadline (a
    time on `monotonic()`, 0 for none) cut the search short. With `randomize`, the digits of every
    branch are tried in an order drawn from `seed` (the first solution is then a random grid)."""
    cdef uint16_t buf[81]
    cdef sd_pos p
    cdef sd_search s
    cdef int i
    if len(masks) != 81:
        raise ValueError("a position has 81 cells")
    if limit < 1:
        raise ValueError("limit must be at least 1")
    for i in range(81):
        buf[i] = <uint16_t> (masks[i] & ALL)
    s.limit = limit
    s.nsolutions = 0
    s.nodes = 0
    s.deadline = deadline
    s.timed_out = 0
    s.randomize = randomize
    s.rng = seed
    s.solutions = <unsigned char *> malloc(limit * 81)
    if s.solutions == NULL:
        raise MemoryError()
    try:
        with nogil:
            if sd_start(&p, buf):
                sd_search_from(&s, &p)
        out = [bytes(s.solutions[i * 81 + j] + 48 for j in range(81)).decode() for i in range(s.nsolutions)]
        return out, not s.timed_out, s.nodes
    finally:
        free(s.solutions)


def count_masks(masks, int limit, double deadline=0.0) -> int:
    """How many solutions the position has, up to `limit` (-1 when the deadline passed first)."""
    cdef uint16_t buf[81]
    cdef int i, n
    if len(masks) != 81:
        raise ValueError("a position has 81 cells")
    for i in range(81):
        buf[i] = <uint16_t> (masks[i] & ALL)
    with nogil:
        n = sd_count_masks(buf, limit, deadline)
    return n
