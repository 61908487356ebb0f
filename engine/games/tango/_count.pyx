# Compiled Tango solution counter (see _count.pxd for the layout).
#
# A depth-first search over rows. Each row takes one of the valid lines of length n (balanced, never
# three alike: at most a few hundred, computed once per size), those that agree with the row's givens
# and its = and x clues filtered once per count. A line fits a row when it agrees with the placed rows
# beside it on the vertical clues, makes no three alike in a column with placed rows, and gives no
# column more than n/2 moons or suns; the search branches on the open row with the fewest lines that
# fit; a node where some column can no longer be completed (its valid lines, filtered by its givens and
# clues, none agreeing with the rows placed) is cut. n rows placed are a solution.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t

from engine.core._clock cimport now, splitmix

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil

# Valid lines per size (index n // 2 - 2 for n = 4, 6, ..., 12), built on first use.
cdef unsigned short _LINES[5][TG_MAXLINES]
cdef int _NLINES[5]
cdef bint _BUILT[5]


cdef bint _valid(int n, unsigned int m) noexcept nogil:
    cdef unsigned int full = (1u << n) - 1, s = ~m & full
    if __builtin_popcount(m) * 2 != n:
        return 0
    # three moons (or suns) side by side: a bit set together with the next two
    return (m & (m >> 1) & (m >> 2)) == 0 and (s & (s >> 1) & (s >> 2)) == 0


cdef int tg_valid_lines(int n, unsigned short *lines) noexcept nogil:
    cdef int k, count = 0
    cdef unsigned int m
    if n < 4 or n > TG_MAXN or n % 2:
        return 0
    k = n // 2 - 2
    if not _BUILT[k]:
        for m in range(1u << n):
            if _valid(n, m):
                _LINES[k][_NLINES[k]] = <unsigned short> m
                _NLINES[k] += 1
        _BUILT[k] = 1
    count = _NLINES[k]
    if lines != NULL:
        for m in range(<unsigned int> count):
            lines[m] = _LINES[k][m]
    return count


cdef bint tg_layout_init(tg_layout *L, int n) noexcept nogil:
    if n < 4 or n > TG_MAXN or n % 2:
        return 0
    memset(L, 0, sizeof(tg_layout))
    L.n = n
    L.full = (1u << n) - 1
    return 1


cdef void tg_set_cell(tg_layout *L, int cell, int value) noexcept nogil:
    cdef int r = cell // L.n, c = cell % L.n
    cdef unsigned int bit = 1u << c
    L.known[r] &= ~bit
    L.moons[r] &= ~bit
    if value == 0 or value == 1:
        L.known[r] |= bit
        if value:
            L.moons[r] |= bit


cdef bint tg_set_clue(tg_layout *L, int a, int b, bint same) noexcept nogil:
    cdef int n = L.n, r, c
    if a > b:
        a, b = b, a
    r = a // n
    c = a % n
    if b == a + 1 and c < n - 1:
        if same:
            L.hsame[r] |= 1u << c
        else:
            L.hdiff[r] |= 1u << c
        return 1
    if b == a + n and r < n - 1:
        if same:
            L.vsame[r + 1] |= 1u << c
        else:
            L.vdiff[r + 1] |= 1u << c
        return 1
    return 0


cdef struct _search:
    const tg_layout *L
    unsigned short *cand          # per row r: its candidate lines at cand[r * TG_MAXLINES]
    int ncand[TG_MAXN]
    int moons[TG_MAXN]            # per column: moons placed so far
    unsigned int rows[TG_MAXN]
    bint placed[TG_MAXN]
    int nplaced
    unsigned int placed_mask      # bit r: row r placed
    unsigned short *colcand       # per column c: its candidate lines (bit r: row r) at colcand[c * TG_MAXLINES]
    int ncolcand[TG_MAXN]
    unsigned int colmoons[TG_MAXN]   # per column: bit r set when placed row r has a moon there
    int limit
    int found
    unsigned int *out
    long long nodes
    double deadline
    bint late
    long long max_nodes           # 0: no budget
    bint over                     # the node budget ran out


cdef bint _filter_rows(const tg_layout *L, unsigned short *cand, int *ncand) noexcept nogil:
    """Each row's valid lines that agree with its givens and its row clues; 0 when a row has none."""
    cdef unsigned short lines[TG_MAXLINES]
    cdef int nlines = tg_valid_lines(L.n, lines), r, i, k
    cdef unsigned int m, step
    for r in range(L.n):
        k = 0
        for i in range(nlines):
            m = lines[i]
            step = (m ^ (m >> 1))          # bit c: columns c and c + 1 differ
            if (m & L.known[r]) != L.moons[r] or (step & L.hsame[r]) or (step & L.hdiff[r]) != L.hdiff[r]:
                continue
            cand[r * TG_MAXLINES + k] = <unsigned short> m
            k += 1
        if k == 0:
            return 0
        ncand[r] = k
    return 1


cdef bint _filter_columns(const tg_layout *L, unsigned short *cand, int *ncand) noexcept nogil:
    """Each column's valid lines (bit r: row r) that agree with its givens and its column clues; 0 when
    a column has none."""
    cdef unsigned short lines[TG_MAXLINES]
    cdef int nlines = tg_valid_lines(L.n, lines), r, c, i, k
    cdef unsigned int m, step, known, moons, same, diff
    for c in range(L.n):
        known = moons = same = diff = 0
        for r in range(L.n):
            known |= ((L.known[r] >> c) & 1) << r
            moons |= ((L.moons[r] >> c) & 1) << r
            if r > 0:
                same |= ((L.vsame[r] >> c) & 1) << (r - 1)
                diff |= ((L.vdiff[r] >> c) & 1) << (r - 1)
        k = 0
        for i in range(nlines):
            m = lines[i]
            step = (m ^ (m >> 1))
            if (m & known) != moons or (step & same) or (step & diff) != diff:
                continue
            cand[c * TG_MAXLINES + k] = <unsigned short> m
            k += 1
        if k == 0:
            return 0
        ncand[c] = k
    return 1


cdef inline bint _columns_open(const _search *s) noexcept nogil:
    """Whether every column can still be completed with the rows placed."""
    cdef int c, i
    cdef unsigned int placed = s.placed_mask, want
    cdef const unsigned short *cand
    cdef bint ok
    for c in range(s.L.n):
        want = s.colmoons[c]
        cand = &s.colcand[c * TG_MAXLINES]
        ok = 0
        for i in range(s.ncolcand[c]):
            if (cand[i] & placed) == want:
                ok = 1
                break
        if not ok:
            return 0
    return 1


cdef inline bint _fits(const _search *s, int r, unsigned int m, unsigned int moon_full,
                       unsigned int sun_full) noexcept nogil:
    """Whether line `m` may go in row r beside the rows placed: the columns' counts (`moon_full`,
    `sun_full`: the columns holding n/2 of one already), the vertical clues to a placed row above or
    below, and no three alike in a column with two placed rows."""
    cdef const tg_layout *L = s.L
    cdef int n = L.n
    cdef unsigned int flip
    if (m & moon_full) or (~m & sun_full & L.full):
        return 0
    if r > 0 and s.placed[r - 1]:
        flip = m ^ s.rows[r - 1]
        if (flip & L.vsame[r]) or (flip & L.vdiff[r]) != L.vdiff[r]:
            return 0
        if r > 1 and s.placed[r - 2] and (~(s.rows[r - 2] ^ s.rows[r - 1]) & ~flip & L.full):
            return 0                       # alike with the two above
        if r < n - 1 and s.placed[r + 1] and (~(s.rows[r + 1] ^ s.rows[r - 1]) & ~flip & L.full):
            return 0                       # alike with the one above and the one below
    if r < n - 1 and s.placed[r + 1]:
        flip = m ^ s.rows[r + 1]
        if (flip & L.vsame[r + 1]) or (flip & L.vdiff[r + 1]) != L.vdiff[r + 1]:
            return 0
        if r < n - 2 and s.placed[r + 2] and (~(s.rows[r + 2] ^ s.rows[r + 1]) & ~flip & L.full):
            return 0                       # alike with the two below
    return 1


cdef inline void _full_columns(const _search *s, unsigned int *moon_full, unsigned int *sun_full) noexcept nogil:
    cdef int c, half = s.L.n // 2
    moon_full[0] = 0
    sun_full[0] = 0
    for c in range(s.L.n):
        if s.moons[c] == half:
            moon_full[0] |= 1u << c
        if s.nplaced - s.moons[c] == half:
            sun_full[0] |= 1u << c


cdef int _next_row(const _search *s, unsigned int moon_full, unsigned int sun_full) noexcept nogil:
    """The open row with the fewest lines that fit (the search branches on it); -1 when one has none."""
    cdef int r, i, k, best = -2, fewest = TG_MAXLINES + 1
    cdef const unsigned short *cand
    for r in range(s.L.n):
        if s.placed[r]:
            continue
        cand = &s.cand[r * TG_MAXLINES]
        k = 0
        for i in range(s.ncand[r]):
            if _fits(s, r, cand[i], moon_full, sun_full):
                k += 1
                if k >= fewest:
                    break
        if k == 0:
            return -1
        if k < fewest:
            fewest = k
            best = r
    return best


cdef inline void _place(_search *s, int r, unsigned int m, int sign) noexcept nogil:
    cdef int c
    for c in range(s.L.n):
        s.moons[c] += sign * <int> ((m >> c) & 1)
        if (m >> c) & 1:
            s.colmoons[c] ^= 1u << r
    s.placed[r] = sign > 0
    s.placed_mask ^= 1u << r
    s.nplaced += sign
    s.rows[r] = m


cdef bint _dfs(_search *s) noexcept nogil:
    """Fill the open rows in every way, the most constrained first; 1 when the search must stop
    (limit reached or deadline passed)."""
    cdef int i, c, r, n = s.L.n
    cdef unsigned int m, moon_full, sun_full
    cdef const unsigned short *cand
    if s.nplaced == n:
        if s.out != NULL:
            for c in range(n):
                s.out[s.found * n + c] = s.rows[c]
        s.found += 1
        return s.found >= s.limit
    s.nodes += 1
    if s.max_nodes > 0 and s.nodes > s.max_nodes:
        s.over = 1
        return 1
    if s.deadline > 0 and (s.nodes & 1023) == 0 and now() > s.deadline:
        s.late = 1
        return 1
    if not _columns_open(s):
        return 0
    _full_columns(s, &moon_full, &sun_full)
    r = _next_row(s, moon_full, sun_full)
    if r < 0:
        return 0
    cand = &s.cand[r * TG_MAXLINES]
    for i in range(s.ncand[r]):
        m = cand[i]
        if not _fits(s, r, m, moon_full, sun_full):
            continue
        _place(s, r, m, 1)
        if _dfs(s):
            return 1
        _place(s, r, m, -1)
    return 0


cdef int tg_count(const tg_layout *L, int limit, double deadline, unsigned int *out,
                  long long *nodes) noexcept nogil:
    return tg_count_capped(L, limit, deadline, out, nodes, 0)


cdef int tg_count_capped(const tg_layout *L, int limit, double deadline, unsigned int *out,
                         long long *nodes, long long max_nodes) noexcept nogil:
    cdef _search s
    if limit < 1:
        return 0
    memset(&s, 0, sizeof(_search))
    s.L = L
    s.limit = limit
    s.out = out
    s.deadline = deadline
    s.max_nodes = max_nodes
    s.cand = <unsigned short *> malloc(2 * TG_MAXN * TG_MAXLINES * sizeof(unsigned short))
    if s.cand == NULL:
        return -1
    s.colcand = &s.cand[TG_MAXN * TG_MAXLINES]
    if _filter_rows(L, s.cand, s.ncand) and _filter_columns(L, s.colcand, s.ncolcand):
        _dfs(&s)
    free(s.cand)
    if nodes != NULL:
        nodes[0] += s.nodes
    if s.over:
        return -2
    return -1 if s.late else s.found


cdef bint _random_dfs(_search *s, uint64_t *rng) noexcept nogil:
    """One completion of the open rows, the lines of each branch tried in a random order."""
    cdef int i, j, r, k
    cdef unsigned int m, moon_full, sun_full
    cdef unsigned short order[TG_MAXLINES]
    cdef const unsigned short *cand
    if s.nplaced == s.L.n:
        return 1
    if not _columns_open(s):
        return 0
    _full_columns(s, &moon_full, &sun_full)
    r = _next_row(s, moon_full, sun_full)
    if r < 0:
        return 0
    cand = &s.cand[r * TG_MAXLINES]
    k = s.ncand[r]
    for i in range(k):
        order[i] = cand[i]
    for i in range(k - 1, 0, -1):          # Fisher-Yates: the lines in a random order
        j = <int> (splitmix(rng) % <uint64_t> (i + 1))
        order[i], order[j] = order[j], order[i]
    for i in range(k):
        m = order[i]
        if not _fits(s, r, m, moon_full, sun_full):
            continue
        _place(s, r, m, 1)
        if _random_dfs(s, rng):
            return 1
        _place(s, r, m, -1)
    return 0


cdef bint tg_random_solution(const tg_layout *L, uint64_t *rng, unsigned int *rows) noexcept nogil:
    cdef _search s
    cdef bint ok = 0
    cdef int r
    memset(&s, 0, sizeof(_search))
    s.L = L
    s.cand = <unsigned short *> malloc(2 * TG_MAXN * TG_MAXLINES * sizeof(unsigned short))
    if s.cand == NULL:
        return 0
    s.colcand = &s.cand[TG_MAXN * TG_MAXLINES]
    if _filter_rows(L, s.cand, s.ncand) and _filter_columns(L, s.colcand, s.ncolcand) and _random_dfs(&s, rng):
        ok = 1
        for r in range(L.n):
            rows[r] = s.rows[r]
    free(s.cand)
    return ok


# ------------------------------------------------------------------------------------------------
# the Python front

cdef _read_layout(tg_layout *L, int n, const unsigned char[:] values, clues):
    cdef int cell
    if not tg_layout_init(L, n):
        raise ValueError(f"a tango grid is even, 4 to 12 wide, not {n}")
    if values.shape[0] != n * n:
        raise ValueError(f"a position has {n * n} cells")
    for cell in range(n * n):
        tg_set_cell(L, cell, values[cell])
    for a, b, same in clues:
        if not (0 <= a < n * n and 0 <= b < n * n) or not tg_set_clue(L, a, b, same):
            raise ValueError(f"cells {a} and {b} are not neighbours")


MAX_LIMIT = 1 << 20          # the solutions a count keeps at most (4 bytes a row each)


cdef str _grid(int n, const unsigned int *rows):
    return "".join("M" if rows[r] >> c & 1 else "S" for r in range(n) for c in range(n))


def count(int n, const unsigned char[:] values, clues, int limit, double deadline=0.0, long long max_nodes=0):
    """Solutions of a position up to `limit`: `values` has a byte per cell (0 sun, 1 moon, 2 empty),
    `clues` are (a, b, same) with a, b neighbouring cells r * n + c.

    Returns (solutions as strings of S and M, complete, nodes): complete is False (and no solution is
    returned) when the deadline (a time on the monotonic clock, 0 for none) or the budget of search
    nodes (`max_nodes`, 0 for none) cut the search short."""
    cdef tg_layout L
    cdef long long nodes = 0
    cdef int found
    cdef unsigned int *out
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be 1 to {MAX_LIMIT}")
    _read_layout(&L, n, values, clues)
    out = <unsigned int *> malloc(limit * n * sizeof(unsigned int))
    if out == NULL:
        raise MemoryError()
    try:
        with nogil:
            found = tg_count_capped(&L, limit, deadline, out, &nodes, max_nodes)
        return [_grid(n, &out[i * n]) for i in range(max(found, 0))], found >= 0, nodes
    finally:
        free(out)


def random_solution(int n, unsigned long long seed):
    """A random solution of the empty n x n board (S and M, row by row), the same for the same seed."""
    cdef tg_layout L
    cdef unsigned int rows[TG_MAXN]
    cdef uint64_t rng = seed
    if not tg_layout_init(&L, n):
        raise ValueError(f"a tango grid is even, 4 to 12 wide, not {n}")
    if not tg_random_solution(&L, &rng, rows):
        raise RuntimeError("no solution drawn")           # every even size 4..12 has one
    return _grid(n, rows)


def valid_lines(int n):
    """The valid lines of length n (balanced, never three alike) as moon masks (bit i: cell i)."""
    cdef unsigned short lines[TG_MAXLINES]
    cdef int k = tg_valid_lines(n, lines)
    return [lines[i] for i in range(k)]


def monotonic():
    """The clock deadlines are measured on (the compiled loops' own)."""
    return now()
