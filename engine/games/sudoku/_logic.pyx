# Compiled Sudoku techniques (see _logic.pxd for the position and step they work on).
#
# Every finder returns the first deduction it meets in a fixed scan order, so a solve path is
# reproducible. Every finder is sound on any position (it only rules out marks that no solution
# extending the position uses, and only places digits every such solution has), with one declared
# exception: the unique rectangle assumes the position has at most one solution. The tests check each
# finder against brute force. Bounds and wraparound checks are set in setup.py.
#
# A finder is `f_...(s, o, ...)`: it reads the position s and fills the step o. Which finder a
# technique id calls is not written here: setup.py generates `_table.pxi` (the ids, NTECH and the
# dispatch sd_find) from the one technique table, table.py, so that the ids are the table's positions
# and cannot drift from the names, tiers and sentences declared beside them.

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint16_t, uint64_t
from engine.games.sudoku._count cimport (sd_peers, sd_cell_units, sd_unit_cells, sd_count_masks,
                                         sd_other_solution)
from engine.games.sudoku.table import Finding

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

DEF ALL = 0x1FF
DEF MAXPATTERN = 256
DEF MAXALS = 1024

cdef struct b81:
    uint64_t lo
    uint64_t hi

cdef const int *PEERS = sd_peers()
cdef const int *CELL_UNITS = sd_cell_units()
cdef const int *UNIT_CELLS = sd_unit_cells()
cdef b81 PEERB[81]
cdef b81 UNITB[27]
cdef int ROW[81]
cdef int COL[81]
cdef int BOX[81]
cdef int UORDER[27]            # boxes first, then rows, then columns: the order people scan in


cdef inline void b_set(b81 *b, int c) noexcept nogil:
    if c < 64:
        b.lo |= (<uint64_t> 1) << c
    else:
        b.hi |= (<uint64_t> 1) << (c - 64)

cdef inline void b_clear(b81 *b, int c) noexcept nogil:
    if c < 64:
        b.lo &= ~((<uint64_t> 1) << c)
    else:
        b.hi &= ~((<uint64_t> 1) << (c - 64))

cdef inline bint b_has(b81 b, int c) noexcept nogil:
    if c < 64:
        return (b.lo >> c) & 1
    return (b.hi >> (c - 64)) & 1

cdef inline b81 b_and(b81 a, b81 b) noexcept nogil:
    cdef b81 r
    r.lo = a.lo & b.lo
    r.hi = a.hi & b.hi
    return r

cdef inline b81 b_andnot(b81 a, b81 b) noexcept nogil:
    cdef b81 r
    r.lo = a.lo & ~b.lo
    r.hi = a.hi & ~b.hi
    return r

cdef inline b81 b_or(b81 a, b81 b) noexcept nogil:
    cdef b81 r
    r.lo = a.lo | b.lo
    r.hi = a.hi | b.hi
    return r

cdef inline bint b_any(b81 a) noexcept nogil:
    return a.lo != 0 or a.hi != 0

cdef inline int b_next(b81 *b) noexcept nogil:
    """Remove and return the lowest cell, -1 when empty."""
    cdef int c
    if b.lo:
        c = __builtin_ctzll(b.lo)
        b.lo &= b.lo - 1
        return c
    if b.hi:
        c = 64 + __builtin_ctzll(b.hi)
        b.hi &= b.hi - 1
        return c
    return -1

cdef inline b81 b_zero() noexcept nogil:
    cdef b81 r
    r.lo = 0
    r.hi = 0
    return r


cdef void _build() noexcept:
    cdef int c, i, u
    for c in range(81):
        ROW[c] = c // 9
        COL[c] = c % 9
        BOX[c] = (c // 27) * 3 + (c % 9) // 3
        PEERB[c] = b_zero()
        for i in range(20):
            b_set(&PEERB[c], PEERS[c * 20 + i])
    for u in range(27):
        UNITB[u] = b_zero()
        for i in range(9):
            b_set(&UNITB[u], UNIT_CELLS[u * 9 + i])
    for i in range(9):
        UORDER[i] = 18 + i
        UORDER[9 + i] = i
        UORDER[18 + i] = 9 + i

_build()


cdef inline int pc(unsigned int m) noexcept nogil:
    return __builtin_popcount(m)

cdef inline int low(unsigned int m) noexcept nogil:
    return __builtin_ctz(m)

cdef inline bint sees(int a, int b) noexcept nogil:
    return a != b and (ROW[a] == ROW[b] or COL[a] == COL[b] or BOX[a] == BOX[b])

cdef inline void reset(sd_step *o) noexcept nogil:
    """Empty the step. Its technique id is the dispatcher's to set (sd_find), so finders need not know
    their own id."""
    o.nplace = 0
    o.nelim = 0
    o.nunits = 0
    o.ncells = 0
    o.digits = 0
    o.kind = 0

cdef inline void add_elim(sd_step *o, int cell, int d) noexcept nogil:
    o.elim[o.nelim] = cell * 9 + d
    o.nelim += 1

cdef inline void add_place(sd_step *o, int cell, int d) noexcept nogil:
    o.place[o.nplace] = cell * 9 + d
    o.nplace += 1

cdef inline void add_unit(sd_step *o, int u) noexcept nogil:
    if o.nunits < 16:
        o.units[o.nunits] = u
        o.nunits += 1

cdef inline void add_cell(sd_step *o, int c) noexcept nogil:
    if o.ncells < MAXPATTERN:
        o.cells[o.ncells] = c
        o.ncells += 1

cdef inline void add_cells(sd_step *o, b81 cells) noexcept nogil:
    """Add `cells` to the pattern, lowest first."""
    cdef int c = b_next(&cells)
    while c >= 0:
        add_cell(o, c)
        c = b_next(&cells)

cdef inline void add_unit_cells(sd_step *o, int u, unsigned int at) noexcept nogil:
    """Add the cells of unit u at positions `at` (bit i: its i-th cell) to the pattern. A unit lists
    its cells in increasing order, so this is lowest first too."""
    while at:
        add_cell(o, UNIT_CELLS[u * 9 + low(at)])
        at &= at - 1

cdef inline void elim_digits(sd_step *o, int cell, unsigned int digits) noexcept nogil:
    """Rule out each digit of the mask from `cell`, lowest first."""
    while digits:
        add_elim(o, cell, low(digits))
        digits &= digits - 1

cdef inline int elim_cells(const sd_state *s, sd_step *o, b81 cells, int d) noexcept nogil:
    """Rule out digit d from those of `cells` that still have it; how many were added."""
    cdef int c, n = 0
    while True:
        c = b_next(&cells)
        if c < 0:
            return n
        if (s.cand[c] >> d) & 1:
            add_elim(o, c, d)
            n += 1

cdef void digit_cells(const sd_state *s, b81 *dc) noexcept nogil:
    cdef int c
    cdef unsigned int m
    memset(dc, 0, 9 * sizeof(b81))
    for c in range(81):
        m = s.cand[c]
        while m:
            b_set(&dc[low(m)], c)
            m &= m - 1


# Reading units. A placed cell has no marks (cand 0), so "where a digit is marked" means empty cells.

cdef struct unit_marks:
    unsigned int placed         # digits placed in the unit
    unsigned int once           # digits marked in at least one empty cell
    unsigned int twice          # digits marked in at least two
    int empty                   # how many cells are empty
    int last                    # the last empty cell (the only one when empty == 1)

cdef inline unit_marks read_unit(const sd_state *s, int u) noexcept nogil:
    cdef unit_marks r
    cdef int i, c
    cdef unsigned int m
    r.placed = 0
    r.once = 0
    r.twice = 0
    r.empty = 0
    r.last = -1
    for i in range(9):
        c = UNIT_CELLS[u * 9 + i]
        if s.val[c]:
            r.placed |= 1u << (s.val[c] - 1)
        else:
            m = s.cand[c]
            r.twice |= r.once & m
            r.once |= m
            r.empty += 1
            r.last = c
    return r

cdef inline unsigned int places(const sd_state *s, int u, int d) noexcept nogil:
    """Where digit d is marked in unit u: bit i for its i-th cell."""
    cdef unsigned int m = 0
    cdef int i
    for i in range(9):
        m |= ((s.cand[UNIT_CELLS[u * 9 + i]] >> d) & 1u) << i
    return m

cdef inline int line_unit(int ori, int line) noexcept nogil:
    """Row `line` (ori 0) or column `line` (ori 1) as a unit."""
    return ori * 9 + line

cdef inline int line_cell(int ori, int line, int pos) noexcept nogil:
    """Cell at position `pos` of row `line` (ori 0) or column `line` (ori 1)."""
    return line * 9 + pos if ori == 0 else pos * 9 + line


# Conjugate pairs: a digit with exactly two places in a unit (one of them holds it: a strong link).

cdef inline bint conjugate(const sd_state *s, int u, int d, int *pair) noexcept nogil:
    """Whether digit d has exactly two places in unit u; if so, they go to pair[0], pair[1]."""
    cdef unsigned int at = places(s, u, d)
    if pc(at) != 2:
        return 0
    pair[0] = UNIT_CELLS[u * 9 + low(at)]
    pair[1] = UNIT_CELLS[u * 9 + low(at & (at - 1))]
    return 1

cdef struct conj_t:             # every unit's conjugate pairs, for finders that look them up at random
    bint ok[27][9]              # digit d has exactly two places in unit u
    int cell[27][9][2]          # which, in the unit's order

cdef void conjugates(const sd_state *s, conj_t *cj) noexcept nogil:
    cdef int u, d
    for u in range(27):
        for d in range(9):
            cj.ok[u][d] = conjugate(s, u, d, cj.cell[u][d])

cdef inline int partner(const conj_t *cj, int u, int d, int c) noexcept nogil:
    """The other place of d in unit u when d has exactly two there (c being one of them), else -1."""
    if not cj.ok[u][d]:
        return -1
    return cj.cell[u][d][0] if cj.cell[u][d][1] == c else cj.cell[u][d][1]


# k masks out of m whose union has exactly k bits: naked subsets (cells and their marks), hidden
# subsets (digits and their places) and fish (lines and the digit's places) are all this search.

cdef struct subsets:
    int k
    int m
    int idx[4]                  # the combination tried: k increasing indices below m
    int item[9]                 # what each mask belongs to (a position, a digit, a line)
    unsigned int mask[9]

cdef inline void ss_start(subsets *ss, int k) noexcept nogil:
    ss.k = k
    ss.m = 0

cdef inline void ss_add(subsets *ss, int item, unsigned int mask) noexcept nogil:
    ss.item[ss.m] = item
    ss.mask[ss.m] = mask
    ss.m += 1

cdef inline bint next_comb(int *idx, int k, int n) noexcept nogil:
    """Advance idx (k increasing indices below n) to the next combination; 0 when done."""
    cdef int i = k - 1, j
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return 0
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return 1

cdef inline unsigned int ss_next(subsets *ss, bint first) noexcept nogil:
    """The union of the next k masks, in combination order (from the first combination when `first`),
    whose union has exactly k bits; 0 when there is none left."""
    cdef int i
    cdef unsigned int union_
    if first:
        if ss.m < ss.k:
            return 0
        for i in range(ss.k):
            ss.idx[i] = i
    elif not next_comb(ss.idx, ss.k, ss.m):
        return 0
    while True:
        union_ = 0
        for i in range(ss.k):
            union_ |= ss.mask[ss.idx[i]]
        if pc(union_) == ss.k:
            return union_
        if not next_comb(ss.idx, ss.k, ss.m):
            return 0

cdef inline unsigned int ss_items(const subsets *ss) noexcept nogil:
    """The items of the combination found, as a bit set."""
    cdef int i
    cdef unsigned int items = 0
    for i in range(ss.k):
        items |= 1u << ss.item[ss.idx[i]]
    return items


# ------------------------------------------------------------------------------------------------
# singles

cdef bint f_full_house(const sd_state *s, sd_step *o) noexcept nogil:
    cdef int k, u
    cdef unit_marks um
    cdef unsigned int miss
    for k in range(27):
        u = UORDER[k]
        um = read_unit(s, u)
        if um.empty == 1:
            miss = ALL & ~um.placed
            if pc(miss) == 1 and (s.cand[um.last] & miss):
                reset(o)
                add_place(o, um.last, low(miss))
                add_unit(o, u)
                add_cell(o, um.last)
                o.digits = miss
                return 1
    return 0


cdef bint f_naked_single(const sd_state *s, sd_step *o) noexcept nogil:
    cdef int c
    cdef unsigned int m
    for c in range(81):
        m = s.cand[c]
        if s.val[c] == 0 and m and (m & (m - 1)) == 0:
            reset(o)
            add_place(o, c, low(m))
            add_cell(o, c)
            o.digits = m
            return 1
    return 0


cdef bint f_hidden_single(const sd_state *s, sd_step *o) noexcept nogil:
    cdef int k, u, c, d
    cdef unit_marks um
    cdef unsigned int only
    for k in range(27):
        u = UORDER[k]
        um = read_unit(s, u)
        only = um.once & ~um.twice & ~um.placed
        if only:
            d = low(only)
            c = UNIT_CELLS[u * 9 + low(places(s, u, d))]
            reset(o)
            add_place(o, c, d)
            add_unit(o, u)
            add_cell(o, c)
            o.digits = 1u << d
            return 1
    return 0


# ------------------------------------------------------------------------------------------------
# locked candidates and subsets

cdef bint locked_step(const sd_state *s, sd_step *o, int d, int inside, unsigned int at, int target,
                      int kind) noexcept nogil:
    """Digit d is marked in unit `inside` only at positions `at`, all of them in unit `target` too:
    one of them holds it, so it leaves the rest of `target`."""
    reset(o)
    if not elim_cells(s, o, b_andnot(UNITB[target], UNITB[inside]), d):
        return 0
    o.kind = kind
    add_unit(o, inside)
    add_unit(o, target)
    o.digits = 1u << d
    add_unit_cells(o, inside, at)
    return 1


cdef bint f_locked(const sd_state *s, sd_step *o) noexcept nogil:
    cdef int b, u, d, c
    cdef unsigned int at, m, rows, cols, boxes
    # pointing: a digit confined to one line inside a box leaves the rest of that line
    for b in range(18, 27):
        for d in range(9):
            at = places(s, b, d)
            if pc(at) < 2:
                continue
            rows = 0
            cols = 0
            m = at
            while m:
                c = UNIT_CELLS[b * 9 + low(m)]
                m &= m - 1
                rows |= 1u << ROW[c]
                cols |= 1u << COL[c]
            if pc(rows) == 1 and locked_step(s, o, d, b, at, low(rows), 0):
                return 1
            if pc(cols) == 1 and locked_step(s, o, d, b, at, 9 + low(cols), 0):
                return 1
    # claiming: a digit confined to one box inside a line leaves the rest of that box
    for u in range(18):
        for d in range(9):
            at = places(s, u, d)
            if pc(at) < 2:
                continue
            boxes = 0
            m = at
            while m:
                boxes |= 1u << BOX[UNIT_CELLS[u * 9 + low(m)]]
                m &= m - 1
            if pc(boxes) == 1 and locked_step(s, o, d, u, at, 18 + low(boxes), 1):
                return 1
    return 0


cdef bint f_naked_subset(const sd_state *s, sd_step *o, int k) noexcept nogil:
    cdef int q, u, i, c
    cdef unsigned int union_, chosen
    cdef unit_marks um
    cdef subsets ss
    for q in range(27):
        u = UORDER[q]
        um = read_unit(s, u)
        if um.empty <= k:
            continue
        ss_start(&ss, k)
        for i in range(9):
            c = UNIT_CELLS[u * 9 + i]
            if s.val[c] == 0 and 2 <= pc(s.cand[c]) <= k:
                ss_add(&ss, i, s.cand[c])
        union_ = ss_next(&ss, 1)
        while union_:
            chosen = ss_items(&ss)
            reset(o)
            for i in range(9):
                c = UNIT_CELLS[u * 9 + i]
                if s.val[c] == 0 and not (chosen >> i) & 1:
                    elim_digits(o, c, s.cand[c] & union_)
            if o.nelim:
                add_unit(o, u)
                add_unit_cells(o, u, chosen)
                o.digits = union_
                return 1
            union_ = ss_next(&ss, 0)
    return 0


cdef bint f_hidden_subset(const sd_state *s, sd_step *o, int k) noexcept nogil:
    cdef int q, u, c, d
    cdef unsigned int union_, dmask, at
    cdef unit_marks um
    cdef subsets ss
    for q in range(27):
        u = UORDER[q]
        um = read_unit(s, u)
        if um.empty <= k:
            continue
        ss_start(&ss, k)
        for d in range(9):
            if not (um.placed >> d) & 1:
                at = places(s, u, d)
                if 2 <= pc(at) <= k:
                    ss_add(&ss, d, at)
        union_ = ss_next(&ss, 1)
        while union_:
            dmask = ss_items(&ss)
            reset(o)
            at = union_
            while at:
                c = UNIT_CELLS[u * 9 + low(at)]
                at &= at - 1
                elim_digits(o, c, s.cand[c] & ~dmask)
            if o.nelim:
                add_unit(o, u)
                add_unit_cells(o, u, union_)
                o.digits = dmask
                return 1
            union_ = ss_next(&ss, 0)
    return 0


# ------------------------------------------------------------------------------------------------
# fish and single-digit patterns

cdef bint f_fish(const sd_state *s, sd_step *o, int k) noexcept nogil:
    cdef int d, ori, j, line, c
    cdef unsigned int pos[9]
    cdef unsigned int union_, base
    cdef subsets ss
    for d in range(9):
        for ori in range(2):
            ss_start(&ss, k)
            for line in range(9):
                pos[line] = places(s, line_unit(ori, line), d)
                if 2 <= pc(pos[line]) <= k:
                    ss_add(&ss, line, pos[line])
            union_ = ss_next(&ss, 1)
            while union_:
                base = ss_items(&ss)
                reset(o)
                for j in range(9):
                    if (union_ >> j) & 1:
                        for line in range(9):
                            if not (base >> line) & 1:
                                c = line_cell(ori, line, j)
                                if (s.cand[c] >> d) & 1:
                                    add_elim(o, c, d)
                if o.nelim:
                    o.kind = ori
                    o.digits = 1u << d
                    for line in range(9):
                        if (base >> line) & 1:
                            add_unit(o, line_unit(ori, line))
                    for j in range(9):
                        if (union_ >> j) & 1:
                            add_unit(o, line_unit(1 - ori, j))
                    for line in range(9):
                        if (base >> line) & 1:
                            add_unit_cells(o, line_unit(ori, line), pos[line])
                    return 1
                union_ = ss_next(&ss, 0)
    return 0


cdef inline void add_four(sd_step *o, int a, int b, int c, int d) noexcept nogil:
    """A four-cell pattern (two strong links and what joins them), in the order the sentence reads it."""
    add_cell(o, a)
    add_cell(o, b)
    add_cell(o, c)
    add_cell(o, d)


cdef bint f_skyscraper(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef int d, ori, line, a, b, m, ea, eb, la, lb
    cdef unsigned int pos[9]
    cdef int lines[9]
    cdef unsigned int common
    digit_cells(s, dc)
    for d in range(9):
        for ori in range(2):
            m = 0
            for line in range(9):
                pos[line] = places(s, line_unit(ori, line), d)
                if pc(pos[line]) == 2:
                    lines[m] = line
                    m += 1
            for a in range(m):
                for b in range(a + 1, m):
                    la = lines[a]
                    lb = lines[b]
                    common = pos[la] & pos[lb]
                    if pc(common) != 1:
                        continue
                    ea = line_cell(ori, la, low(pos[la] & ~common))
                    eb = line_cell(ori, lb, low(pos[lb] & ~common))
                    reset(o)
                    if elim_cells(s, o, b_and(b_and(dc[d], PEERB[ea]), PEERB[eb]), d):
                        o.kind = ori
                        o.digits = 1u << d
                        add_unit(o, line_unit(ori, la))
                        add_unit(o, line_unit(ori, lb))
                        add_four(o, ea, line_cell(ori, la, low(common)), line_cell(ori, lb, low(common)), eb)
                        return 1
    return 0


cdef bint f_kite(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef b81 targets
    cdef int d, line, nr, nc, i, k, ia, ib, A, A2, B, B2
    cdef int rp[9][2]
    cdef int cp[9][2]
    cdef int rline[9]
    cdef int cline[9]
    digit_cells(s, dc)
    for d in range(9):
        nr = 0
        nc = 0
        for line in range(9):
            if conjugate(s, line, d, rp[nr]):
                rline[nr] = line
                nr += 1
            if conjugate(s, 9 + line, d, cp[nc]):
                cline[nc] = 9 + line
                nc += 1
        for i in range(nr):
            for k in range(nc):
                for ia in range(2):
                    for ib in range(2):
                        A = rp[i][ia]
                        A2 = rp[i][1 - ia]
                        B = cp[k][ib]
                        B2 = cp[k][1 - ib]
                        if A == B or A == B2 or A2 == B or A2 == B2 or BOX[A] != BOX[B]:
                            continue
                        targets = b_and(b_and(dc[d], PEERB[A2]), PEERB[B2])
                        b_clear(&targets, A)
                        b_clear(&targets, B)
                        reset(o)
                        if elim_cells(s, o, targets, d):
                            o.digits = 1u << d
                            add_unit(o, rline[i])
                            add_unit(o, cline[k])
                            add_unit(o, 18 + BOX[A])
                            add_four(o, A2, A, B, B2)
                            return 1
    return 0


# ------------------------------------------------------------------------------------------------
# wings, colouring, unique rectangle

cdef bint wing_step(const sd_state *s, sd_step *o, b81 targets, int z, unsigned int digits, int pivot,
                    int q1, int q2) noexcept nogil:
    """A wing: one of the pivot and its pincers q1, q2 holds z, so z leaves `targets`."""
    reset(o)
    if not elim_cells(s, o, targets, z):
        return 0
    o.digits = digits
    add_cell(o, pivot)
    add_cell(o, q1)
    add_cell(o, q2)
    return 1


cdef bint f_xywing(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef int P, i, j, Q1, Q2, z
    cdef unsigned int shared, zm, want
    digit_cells(s, dc)
    for P in range(81):
        if s.val[P] or pc(s.cand[P]) != 2:
            continue
        for i in range(20):
            Q1 = PEERS[P * 20 + i]
            if s.val[Q1] or pc(s.cand[Q1]) != 2:
                continue
            shared = s.cand[Q1] & s.cand[P]
            if pc(shared) != 1:
                continue
            zm = s.cand[Q1] & ~shared
            want = (s.cand[P] & ~shared) | zm
            z = low(zm)
            for j in range(20):
                Q2 = PEERS[P * 20 + j]
                if Q2 == Q1 or s.val[Q2] or s.cand[Q2] != want:
                    continue
                if wing_step(s, o, b_and(b_and(dc[z], PEERB[Q1]), PEERB[Q2]), z, s.cand[P] | zm, P, Q1, Q2):
                    return 1
    return 0


cdef bint f_xyzwing(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef int P, i, j, Q1, Q2, z
    cdef unsigned int mp, m1, m2
    digit_cells(s, dc)
    for P in range(81):
        mp = s.cand[P]
        if s.val[P] or pc(mp) != 3:
            continue
        for i in range(20):
            Q1 = PEERS[P * 20 + i]
            m1 = s.cand[Q1]
            if s.val[Q1] or pc(m1) != 2 or (m1 & ~mp):
                continue
            for j in range(i + 1, 20):
                Q2 = PEERS[P * 20 + j]
                m2 = s.cand[Q2]
                if s.val[Q2] or pc(m2) != 2 or (m2 & ~mp) or m2 == m1:
                    continue
                z = low(m1 & m2)
                if wing_step(s, o, b_and(b_and(b_and(dc[z], PEERB[P]), PEERB[Q1]), PEERB[Q2]), z, mp,
                             P, Q1, Q2):
                    return 1
    return 0


cdef bint f_wwing(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef b81 targets
    cdef conj_t cj
    cdef int A, B, t, x, y, u, S1, S2
    digit_cells(s, dc)
    conjugates(s, &cj)
    for A in range(81):
        if s.val[A] or pc(s.cand[A]) != 2:
            continue
        for B in range(A + 1, 81):
            if s.val[B] or s.cand[B] != s.cand[A] or sees(A, B):
                continue
            for t in range(2):
                x = low(s.cand[A]) if t == 0 else low(s.cand[A] & (s.cand[A] - 1))
                y = low(s.cand[A] & ~(1u << x))
                targets = b_and(b_and(dc[y], PEERB[A]), PEERB[B])
                if not b_any(targets):
                    continue
                for u in range(27):
                    if not cj.ok[u][x]:
                        continue
                    S1 = cj.cell[u][x][0]
                    S2 = cj.cell[u][x][1]
                    if S1 == A or S1 == B or S2 == A or S2 == B:
                        continue
                    if not ((sees(S1, A) and sees(S2, B)) or (sees(S1, B) and sees(S2, A))):
                        continue
                    reset(o)
                    if elim_cells(s, o, targets, y):
                        o.digits = s.cand[A]
                        o.kind = x
                        add_unit(o, u)
                        add_four(o, A, B, S1, S2)
                        return 1
    return 0


cdef bint colour_step(sd_step *o, int d, int kind, const int *chain, const int *colr,
                     int n) noexcept nogil:
    """Finish a colouring step: the chain's cells in the order coloured, each as cell * 2 + colour."""
    cdef int i
    o.kind = kind
    o.digits = 1u << d
    for i in range(n):
        add_cell(o, chain[i] * 2 + colr[chain[i]])
    return 1


cdef bint f_colouring(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef b81 col[2]
    cdef b81 rest
    cdef int d, u, i, c, a, b, start, head, tail, x, y, k, colour, bad, wrap
    cdef int pair[2]
    cdef int adj[81][6]
    cdef int deg[81]
    cdef int colr[81]
    cdef int queue[81]
    digit_cells(s, dc)
    for d in range(9):
        for c in range(81):
            deg[c] = 0
            colr[c] = -1
        for u in range(27):
            if not conjugate(s, u, d, pair):
                continue
            a = pair[0]
            b = pair[1]
            # the same pair can be conjugate in two units (a line inside a box): one edge
            k = 0
            for i in range(deg[a]):
                if adj[a][i] == b:
                    k = 1
            if not k:
                adj[a][deg[a]] = b
                deg[a] += 1
                adj[b][deg[b]] = a
                deg[b] += 1
        for start in range(81):
            if deg[start] == 0 or colr[start] >= 0:
                continue
            col[0] = b_zero()
            col[1] = b_zero()
            head = 0
            tail = 1
            queue[0] = start
            colr[start] = 0
            bad = 0
            while head < tail:
                x = queue[head]
                head += 1
                b_set(&col[colr[x]], x)
                for i in range(deg[x]):
                    y = adj[x][i]
                    if colr[y] < 0:
                        colr[y] = 1 - colr[x]
                        queue[tail] = y
                        tail += 1
                    elif colr[y] == colr[x]:
                        bad = 1
            if bad or tail < 3:
                continue
            # colour wrap: two cells of one colour see each other, so that colour is false
            for colour in range(2):
                wrap = 0
                for i in range(tail):
                    x = queue[i]
                    if colr[x] == colour and b_any(b_and(PEERB[x], col[colour])):
                        wrap = 1
                        break
                if wrap:
                    reset(o)
                    elim_cells(s, o, col[colour], d)
                    return colour_step(o, d, 1, queue, colr, tail)
            # colour trap: a cell outside the chain that sees both colours
            rest = b_andnot(dc[d], b_or(col[0], col[1]))
            reset(o)
            c = b_next(&rest)
            while c >= 0:
                if b_any(b_and(PEERB[c], col[0])) and b_any(b_and(PEERB[c], col[1])):
                    add_elim(o, c, d)
                c = b_next(&rest)
            if o.nelim:
                return colour_step(o, d, 0, queue, colr, tail)
    return 0


cdef bint f_ur1(const sd_state *s, sd_step *o) noexcept nogil:
    cdef int r1, r2, c1, c2, k, i, roof
    cdef int cells[4]
    cdef unsigned int pair
    cdef bint ok
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if (r1 // 3 == r2 // 3) == (c1 // 3 == c2 // 3):
                        continue            # the four cells must lie in exactly two boxes
                    cells[0] = r1 * 9 + c1
                    cells[1] = r1 * 9 + c2
                    cells[2] = r2 * 9 + c1
                    cells[3] = r2 * 9 + c2
                    if s.val[cells[0]] or s.val[cells[1]] or s.val[cells[2]] or s.val[cells[3]]:
                        continue
                    for k in range(4):
                        roof = cells[k]
                        pair = s.cand[cells[(k + 1) % 4]]
                        if pc(pair) != 2:
                            continue
                        ok = 1
                        for i in range(4):
                            if i != k and s.cand[cells[i]] != pair:
                                ok = 0
                        if not ok or (s.cand[roof] & pair) != pair or s.cand[roof] == pair:
                            continue
                        reset(o)
                        elim_digits(o, roof, pair)
                        o.digits = pair
                        add_cell(o, roof)
                        for i in range(4):
                            if i != k:
                                add_cell(o, cells[i])
                        return 1
    return 0


# ------------------------------------------------------------------------------------------------
# chains: one breadth-first search over candidates serves X-chains (one digit, conjugate pairs),
# XY-chains (bivalue cells) and AICs (both kinds of strong link, all weak links).
#
# A chain starts at candidate s assumed false, takes a strong link (s false => next true), then a
# weak link (true => next false), and so on, ending on a strong link at candidate p: so s or p is
# true, and any candidate that sees both (same cell, or same digit in cells that see each other) is
# false. Reaching s itself as true (a loop: s false => s true) places s.

DEF MODE_X = 0
DEF MODE_XY = 1
DEF MODE_AIC = 2

cdef inline bint node_ok(const sd_state *s, int mode, int c, int d, int xd) noexcept nogil:
    if s.val[c] or not (s.cand[c] >> d) & 1:
        return 0
    if mode == MODE_X:
        return d == xd
    if mode == MODE_XY:
        return pc(s.cand[c]) == 2
    return 1


cdef int chain_conclude(const sd_state *s, sd_step *o, int start, int end, b81 *dc) noexcept nogil:
    cdef int cs = start // 9, ds = start % 9, cp = end // 9, dp = end % 9
    if cs == cp:
        elim_digits(o, cs, s.cand[cs] & ~((1u << ds) | (1u << dp)))
    elif ds == dp:
        elim_cells(s, o, b_and(b_and(dc[ds], PEERB[cs]), PEERB[cp]), ds)
    elif sees(cs, cp):
        if (s.cand[cs] >> dp) & 1:
            add_elim(o, cs, dp)
        if (s.cand[cp] >> ds) & 1:
            add_elim(o, cp, ds)
    return o.nelim


DEF NSTATE = 1458           # search states: candidate * 2 + 1 when assumed true, + 0 when false

cdef struct chain_bfs:
    int stamp[NSTATE]       # the search (gen) that last reached the state
    int parent[NSTATE]
    int depth[NSTATE]
    int queue[NSTATE]
    int path[NSTATE]
    int gen
    int tail

cdef inline void reach(chain_bfs *q, int nst, int st) noexcept nogil:
    """Queue state nst, reached from st by one link, unless this search has been there."""
    if q.stamp[nst] != q.gen:
        q.stamp[nst] = q.gen
        q.parent[nst] = st
        q.depth[nst] = q.depth[st] + 1
        q.queue[q.tail] = nst
        q.tail += 1

cdef void chain_cells(sd_step *o, chain_bfs *q, int st) noexcept nogil:
    """The chain that reached state st as the pattern, start first (candidates), and its digits."""
    cdef int n = 0, i
    while st >= 0:
        q.path[n] = st >> 1
        n += 1
        st = q.parent[st]
    for i in range(n - 1, -1, -1):
        add_cell(o, q.path[i])
        o.digits |= 1u << (q.path[i] % 9)


cdef bint f_chain(const sd_state *s, sd_step *o, int mode) noexcept nogil:
    cdef b81 dc[9]
    cdef conj_t cj
    cdef int i, c, d, xd, start, head, st, node, cn, dn, k, other, e
    cdef unsigned int m
    cdef bint found = 0
    cdef chain_bfs *q = <chain_bfs *> malloc(sizeof(chain_bfs))
    if q == NULL:
        return 0
    q.gen = 0
    for i in range(NSTATE):
        q.stamp[i] = -1
    digit_cells(s, dc)
    if mode != MODE_XY:
        conjugates(s, &cj)
    for xd in range(9 if mode == MODE_X else 1):
        for start in range(729):
            c = start // 9
            d = start % 9
            if not node_ok(s, mode, c, d, xd):
                continue
            q.gen += 1
            head = 0
            q.tail = 1
            q.queue[0] = start * 2
            q.stamp[start * 2] = q.gen
            q.parent[start * 2] = -1
            q.depth[start * 2] = 0
            while head < q.tail and not found:
                st = q.queue[head]
                head += 1
                node = st >> 1
                cn = node // 9
                dn = node % 9
                if st & 1 == 0:
                    # strong links: node false => other true
                    if mode != MODE_X and pc(s.cand[cn]) == 2:
                        e = low(s.cand[cn] & ~(1u << dn))
                        if node_ok(s, mode, cn, e, xd):
                            reach(q, (cn * 9 + e) * 2 + 1, st)
                    if mode != MODE_XY:
                        for k in range(3):
                            other = partner(&cj, CELL_UNITS[cn * 3 + k], dn, cn)
                            if other >= 0 and node_ok(s, mode, other, dn, xd):
                                reach(q, (other * 9 + dn) * 2 + 1, st)
                else:
                    if q.depth[st] >= 3:
                        reset(o)
                        if node == start:
                            add_place(o, cn, dn)
                            o.kind = 1
                            found = 1
                        elif chain_conclude(s, o, start, node, dc):
                            found = 1
                        if found:
                            chain_cells(o, q, st)
                            break
                    # weak links: node true => other false
                    if mode == MODE_AIC:
                        m = s.cand[cn] & ~(1u << dn)
                        while m:
                            reach(q, (cn * 9 + low(m)) * 2, st)
                            m &= m - 1
                    for k in range(20):
                        other = PEERS[cn * 20 + k]
                        if node_ok(s, mode, other, dn, xd):
                            reach(q, (other * 9 + dn) * 2, st)
            if found:
                break
        if found:
            break
    free(q)
    return found


# ------------------------------------------------------------------------------------------------
# ALS-XZ: two almost locked sets (n cells of one unit holding n + 1 digits) that share a restricted
# common digit x (every x of one sees every x of the other, so at most one of them holds x, and the
# other is then locked) and another common digit z: one of the two sets holds z, so a cell seeing
# every z of both cannot.

cdef struct als_t:
    b81 cells
    unsigned int cand
    int unit
    b81 dcells[9]
    b81 seeall[9]       # cells seeing every cell of the set that has the digit


cdef int als_collect(const sd_state *s, als_t *out, int cap) noexcept nogil:
    cdef int n = 0, u, i, m, sub, j, c, d, size
    cdef int cells[9]
    cdef unsigned int union_, boxes
    cdef als_t *a
    for u in range(27):
        m = 0
        for i in range(9):
            c = UNIT_CELLS[u * 9 + i]
            if s.val[c] == 0:
                cells[m] = c
                m += 1
        for sub in range(1, 1 << m):
            size = pc(sub)
            if size >= m:
                continue
            union_ = 0
            boxes = 0
            for j in range(m):
                if (sub >> j) & 1:
                    union_ |= s.cand[cells[j]]
                    boxes |= 1u << BOX[cells[j]]
            if pc(union_) != size + 1:
                continue
            if u < 18 and pc(boxes) == 1:
                continue                # the box lists this set already
            if n >= cap:
                return n
            a = &out[n]
            a.cells = b_zero()
            a.cand = union_
            a.unit = u
            for d in range(9):
                a.dcells[d] = b_zero()
                a.seeall[d].lo = ~(<uint64_t> 0)
                a.seeall[d].hi = (<uint64_t> 1 << 17) - 1
            for j in range(m):
                if (sub >> j) & 1:
                    c = cells[j]
                    b_set(&a.cells, c)
                    for d in range(9):
                        if (s.cand[c] >> d) & 1:
                            b_set(&a.dcells[d], c)
                            a.seeall[d] = b_and(a.seeall[d], PEERB[c])
            n += 1
    return n


cdef bint f_alsxz(const sd_state *s, sd_step *o) noexcept nogil:
    cdef b81 dc[9]
    cdef als_t *sets = <als_t *> malloc(MAXALS * sizeof(als_t))
    cdef int n, i, j, x, z
    cdef unsigned int common, zs
    cdef b81 targets
    cdef als_t *A
    cdef als_t *B
    if sets == NULL:
        return 0
    digit_cells(s, dc)
    n = als_collect(s, sets, MAXALS)
    for i in range(n):
        A = &sets[i]
        for j in range(i + 1, n):
            B = &sets[j]
            if b_any(b_and(A.cells, B.cells)):
                continue
            common = A.cand & B.cand
            if pc(common) < 2:
                continue
            for x in range(9):
                if not (common >> x) & 1:
                    continue
                # restricted common: every x of A sees every x of B
                if b_any(b_andnot(A.dcells[x], B.seeall[x])):
                    continue
                zs = common & ~(1u << x)
                while zs:
                    z = low(zs)
                    zs &= zs - 1
                    targets = b_andnot(b_and(b_and(A.seeall[z], B.seeall[z]), dc[z]),
                                       b_or(A.cells, B.cells))
                    reset(o)
                    if elim_cells(s, o, targets, z):
                        o.digits = (1u << x) | (1u << z)
                        o.kind = x * 9 + z
                        add_unit(o, A.unit)
                        add_unit(o, B.unit)
                        add_cells(o, A.cells)
                        add_cell(o, -1)               # separates the two sets
                        add_cells(o, B.cells)
                        free(sets)
                        return 1
    free(sets)
    return 0


# ------------------------------------------------------------------------------------------------
# forcing chains: every option of a cell (its candidates) or of a unit (the places of a digit) is
# followed with naked and hidden singles; an option that contradicts is false, and what every
# surviving option agrees on is true.

cdef bint fc_place(sd_state *t, int c, int d) noexcept nogil:
    cdef int i, p
    cdef unsigned int bit = 1u << d
    if t.val[c]:
        return t.val[c] == d + 1
    if not t.cand[c] & bit:
        return 0
    t.val[c] = d + 1
    t.cand[c] = 0
    t.nempty -= 1
    for i in range(20):
        p = PEERS[c * 20 + i]
        if t.val[p] == d + 1:
            return 0
        if t.cand[p] & bit:
            t.cand[p] &= ~bit
            if t.cand[p] == 0:
                return 0
    return 1


cdef bint fc_propagate(sd_state *t) noexcept nogil:
    cdef int c, u, d
    cdef unsigned int m, only
    cdef unit_marks um
    cdef bint progress
    while True:
        progress = 0
        for c in range(81):
            if t.val[c] == 0:
                m = t.cand[c]
                if m == 0:
                    return 0
                if (m & (m - 1)) == 0:
                    if not fc_place(t, c, low(m)):
                        return 0
                    progress = 1
        for u in range(27):
            um = read_unit(t, u)
            if (um.once | um.placed) != ALL:
                return 0
            only = um.once & ~um.twice & ~um.placed
            while only:
                d = low(only)
                only &= only - 1
                m = places(t, u, d)         # an earlier placement here may have taken its cell
                if m:
                    if not fc_place(t, UNIT_CELLS[u * 9 + low(m)], d):
                        return 0
                    progress = 1
        if not progress:
            return 1


cdef bint fc_try(const sd_state *s, sd_step *o, int nopt, const int *opts, sd_state *br) noexcept nogil:
    """Follow each option (candidate cell * 9 + d); fill o with a conclusion if any."""
    cdef bint ok[9]
    cdef int i, c, d, nok = 0, v, k
    cdef bint all_same, gone
    for i in range(nopt):
        memcpy(&br[i], s, sizeof(sd_state))
        ok[i] = fc_place(&br[i], opts[i] // 9, opts[i] % 9) and fc_propagate(&br[i])
        nok += ok[i]
    if nok == 0:
        return 0                # no option survives: the position has no solution
    if nok < nopt:
        for i in range(nopt):
            if not ok[i]:
                add_elim(o, opts[i] // 9, opts[i] % 9)
        o.kind = 0              # contradiction
        return 1
    for c in range(81):
        if s.val[c]:
            continue
        v = br[0].val[c]
        if v == 0:
            continue
        all_same = 1
        for i in range(1, nopt):
            if br[i].val[c] != v:
                all_same = 0
                break
        if all_same:
            add_place(o, c, v - 1)
            o.kind = 1          # verity: every option places it
            return 1
    for c in range(81):
        if s.val[c]:
            continue
        for d in range(9):
            if not (s.cand[c] >> d) & 1:
                continue
            gone = 1
            for i in range(nopt):
                if br[i].val[c] == d + 1 or (br[i].val[c] == 0 and (br[i].cand[c] >> d) & 1):
                    gone = 0
                    break
            if gone:
                add_elim(o, c, d)
    if o.nelim:
        o.kind = 1
        return 1
    return 0


cdef bint f_forcing(const sd_state *s, sd_step *o) noexcept nogil:
    cdef sd_state *br = <sd_state *> malloc(9 * sizeof(sd_state))
    cdef int opts[9]
    cdef int size, phase, c, u, d, i, n
    cdef unsigned int m
    if br == NULL:
        return 0
    for size in range(2, 4):
        for phase in range(2):
            if phase == 0:
                for c in range(81):
                    if s.val[c] or pc(s.cand[c]) != size:
                        continue
                    n = 0
                    m = s.cand[c]
                    while m:
                        opts[n] = c * 9 + low(m)
                        n += 1
                        m &= m - 1
                    reset(o)
                    if fc_try(s, o, n, opts, br):
                        add_cell(o, c)
                        o.digits = s.cand[c]
                        free(br)
                        return 1
            else:
                for i in range(27):
                    u = UORDER[i]
                    for d in range(9):
                        m = places(s, u, d)
                        if pc(m) != size:
                            continue
                        n = 0
                        while m:
                            opts[n] = UNIT_CELLS[u * 9 + low(m)] * 9 + d
                            n += 1
                            m &= m - 1
                        reset(o)
                        if fc_try(s, o, n, opts, br):
                            o.kind += 2                  # 2, 3: the options are a unit's places
                            add_unit(o, u)
                            o.digits = 1u << d
                            free(br)
                            return 1
    free(br)
    return 0


# ------------------------------------------------------------------------------------------------
# trial and error: for the cell with fewest candidates (then the next...), the digits with which the
# position has no solution at all, found by the counter. Sound on any position; never stalls on a
# position with exactly one solution.

cdef bint f_trial(const sd_state *s, sd_step *o) noexcept nogil:
    cdef uint16_t masks[81]
    cdef int c, size, d, n
    cdef unsigned int m
    for c in range(81):
        masks[c] = (1u << (s.val[c] - 1)) if s.val[c] else s.cand[c]
    for size in range(2, 10):
        for c in range(81):
            if s.val[c] or pc(s.cand[c]) != size:
                continue
            reset(o)
            m = s.cand[c]
            while m:
                d = low(m)
                m &= m - 1
                masks[c] = 1u << d
                if sd_count_masks(masks, 1, 0.0) == 0:
                    add_elim(o, c, d)
            masks[c] = s.cand[c]
            if o.nelim:
                add_cell(o, c)
                o.digits = s.cand[c]
                return 1
    return 0


# ------------------------------------------------------------------------------------------------

# The technique ids (T_..., NTECH), BUILT_FROM and sd_find, generated from table.py by setup.py.
include "_table.pxi"

IDS = {name: tid for tid, (name, _) in enumerate(BUILT_FROM)}


cdef void sd_apply(sd_state *s, const sd_step *o) noexcept nogil:
    cdef int i, c, d, p
    cdef unsigned int bit
    for i in range(o.nplace):
        c = o.place[i] // 9
        d = o.place[i] % 9
        bit = 1u << d
        if s.val[c]:
            if s.val[c] != d + 1:
                s.broken = 1
            continue
        if not s.cand[c] & bit:
            s.broken = 1
        s.val[c] = d + 1
        s.cand[c] = 0
        s.nempty -= 1
        for p in range(20):
            if s.val[PEERS[c * 20 + p]] == d + 1:
                s.broken = 1
            s.cand[PEERS[c * 20 + p]] &= ~bit
    for i in range(o.nelim):
        c = o.elim[i] // 9
        s.cand[c] &= ~(1u << (o.elim[i] % 9))


cdef bint sd_contradiction(const sd_state *s) noexcept nogil:
    cdef int c, u, i
    cdef unsigned int placed, union_, bit
    if s.broken:
        return 1
    for c in range(81):
        if s.val[c] == 0 and s.cand[c] == 0:
            return 1
    for u in range(27):
        placed = 0
        union_ = 0
        for i in range(9):
            c = UNIT_CELLS[u * 9 + i]
            if s.val[c]:
                bit = 1u << (s.val[c] - 1)
                if placed & bit:
                    return 1
                placed |= bit
            else:
                union_ |= s.cand[c]
        if (placed | union_) != ALL:
            return 1
    return 0


cdef int sd_run(sd_state *s, const int *order, int norder, int *used, int max_steps, int *nused,
                sd_step *scratch) noexcept nogil:
    cdef int i, n = 0
    cdef bint found
    nused[0] = 0
    while True:
        if sd_contradiction(s):
            return 2
        if s.nempty == 0:
            return 1
        if n >= max_steps:
            return 0
        found = 0
        for i in range(norder):
            if sd_find(order[i], s, scratch):
                found = 1
                break
        if not found:
            return 0
        sd_apply(s, scratch)
        used[n] = order[i]
        n += 1
        nused[0] = n


# ------------------------------------------------------------------------------------------------

cdef void state_from_values(sd_state *s, const unsigned char *vals) noexcept nogil:
    """The start of a solve: `vals` (1..9, 0 for empty) placed, every other cell marked with every
    digit its peers do not hold."""
    cdef int c, i
    s.nempty = 81
    s.broken = 0
    for c in range(81):
        s.cand[c] = ALL
        s.val[c] = 0
    for c in range(81):
        if vals[c]:
            s.val[c] = vals[c]
            s.cand[c] = 0
            s.nempty -= 1
    for c in range(81):
        if vals[c]:
            for i in range(20):
                if s.val[PEERS[c * 20 + i]] == vals[c]:
                    s.broken = 1
                s.cand[PEERS[c * 20 + i]] &= ~(1u << (vals[c] - 1))


cdef int read_order(order, int *ids) except -1:
    """Copy the technique ids `order` (at most 64, each checked) into `ids`; how many."""
    cdef int n = len(order), i
    if n > 64:
        raise ValueError("too many techniques")
    for i in range(n):
        ids[i] = order[i]
        if not 0 <= ids[i] < NTECH:
            raise ValueError(f"unknown technique id {ids[i]}")
    return n


cdef tuple int_tuple(const int *a, int n):
    return tuple([a[i] for i in range(n)])


cdef class Position:
    """A position on paper: placed digits and pencil marks (see _logic.pxd)."""

    cdef sd_state s
    cdef sd_step *step

    def __cinit__(self):
        self.step = <sd_step *> malloc(sizeof(sd_step))
        if self.step == NULL:
            raise MemoryError()
        memset(&self.s, 0, sizeof(sd_state))

    def __dealloc__(self):
        free(self.step)

    @staticmethod
    def from_givens(str line):
        """The start of a solve: the givens placed, every other cell marked with every digit its
        peers do not hold. `line` is 81 characters, '.' or '0' for empty."""
        cdef Position p = Position()
        cdef unsigned char vals[81]
        cdef int c, d
        if len(line) != 81:
            raise ValueError("a givens line has 81 characters")
        for c in range(81):
            ch = line[c]
            vals[c] = 0
            if ch == '.' or ch == '0':
                continue
            d = ord(ch) - 49
            if not 0 <= d <= 8:
                raise ValueError("givens are digits 1-9, '.' or '0'")
            vals[c] = d + 1
        state_from_values(&p.s, vals)
        return p

    @staticmethod
    def from_marks(values, marks):
        """A position as given: `values` 81 digits (0 or '.' for empty), `marks` 81 candidate masks
        (ignored for placed cells). Nothing is deduced."""
        cdef Position p = Position()
        cdef int c, v
        if len(values) != 81 or len(marks) != 81:
            raise ValueError("a position has 81 cells")
        p.s.nempty = 0
        p.s.broken = 0
        for c in range(81):
            item = values[c]
            v = 0 if item in ('.', '0', 0) else int(item)
            if not 0 <= v <= 9:
                raise ValueError("values are digits 0-9")
            p.s.val[c] = v
            p.s.cand[c] = 0 if v else (marks[c] & ALL)
            if v == 0:
                p.s.nempty += 1
        return p

    def copy(self):
        cdef Position p = Position()
        memcpy(&p.s, &self.s, sizeof(sd_state))
        return p

    def values(self) -> str:
        return "".join("." if self.s.val[c] == 0 else chr(48 + self.s.val[c]) for c in range(81))

    def marks(self) -> list:
        """Candidate masks of the empty cells (0 for placed cells)."""
        return [self.s.cand[c] for c in range(81)]

    def masks(self) -> list:
        """Every cell as a mask: a placed digit as its single bit (what the counter reads)."""
        return [(1 << (self.s.val[c] - 1)) if self.s.val[c] else self.s.cand[c] for c in range(81)]

    @property
    def empty(self) -> int:
        return self.s.nempty

    def is_solved(self) -> bool:
        return self.s.nempty == 0 and not sd_contradiction(&self.s)

    def is_contradiction(self) -> bool:
        return bool(sd_contradiction(&self.s))

    def find(self, int tech):
        """One step of technique `tech` (an id), or None: a Finding (see table.py) with candidates
        as cell * 9 + d. The position is not changed."""
        cdef bint found
        cdef sd_step *o = self.step
        if not 0 <= tech < NTECH:
            raise ValueError(f"unknown technique id {tech}")
        with nogil:
            found = sd_find(tech, &self.s, o)
        if not found:
            return None
        return Finding(o.tech, int_tuple(o.place, o.nplace), int_tuple(o.elim, o.nelim),
                       int_tuple(o.units, o.nunits), int_tuple(o.cells, o.ncells), o.digits, o.kind)

    def apply(self, place, eliminate):
        cdef sd_step *o = self.step
        cdef int i
        if len(place) > 81 or len(eliminate) > 729:
            raise ValueError("too many candidates in one step")
        reset(o)
        o.tech = -1
        for i, x in enumerate(place):
            if not 0 <= x < 729:
                raise ValueError("a candidate is cell * 9 + digit, 0..728")
            o.place[i] = x
        o.nplace = len(place)
        for i, x in enumerate(eliminate):
            if not 0 <= x < 729:
                raise ValueError("a candidate is cell * 9 + digit, 0..728")
            o.elim[i] = x
        o.nelim = len(eliminate)
        sd_apply(&self.s, o)

    def run(self, order, int max_steps=1000):
        """Solve in place with the technique ids `order` (tried in that order, restarting from the
        first after every step). Returns (status, ids used): status 1 solved, 2 contradiction,
        0 stalled."""
        cdef int norder, i, status, nused = 0
        cdef int ids[64]
        cdef int *used
        norder = read_order(order, ids)
        if max_steps < 0:
            max_steps = 0
        used = <int *> malloc((max_steps + 1) * sizeof(int))
        if used == NULL:
            raise MemoryError()
        try:
            with nogil:
                status = sd_run(&self.s, ids, norder, used, max_steps, &nused, self.step)
            return status, [used[i] for i in range(nused)]
        finally:
            free(used)


# ------------------------------------------------------------------------------------------------
# digging (the generator's inner loop, compiled: dozens of solves per board)

cdef void two_digit_sets(const unsigned char *vals, b81 *sets) noexcept nogil:
    """The unavoidable sets of two digits of the complete grid `vals`: for digits a and b, the cells
    holding a or b split into the classes of "the a and the b of one unit go together"; swapping a and
    b over one class gives another valid grid, so a board keeps a clue in each class or has a second
    solution. `sets[c * 9 + d]`: the class of cell c for its digit and digit d + 1 (d not c's digit)."""
    cdef int a, b, u, i, c, k, n, x, y, root
    cdef int members[18]
    cdef int parent[81]
    cdef int roots[18]
    cdef b81 classes[81]
    for a in range(1, 10):
        for b in range(a + 1, 10):
            n = 0
            for c in range(81):
                if vals[c] == a or vals[c] == b:
                    members[n] = c
                    parent[c] = c
                    n += 1
            for u in range(27):
                x = -1
                y = -1
                for i in range(9):
                    c = UNIT_CELLS[u * 9 + i]
                    if vals[c] == a:
                        x = c
                    elif vals[c] == b:
                        y = c
                while parent[x] != x:
                    x = parent[x]
                while parent[y] != y:
                    y = parent[y]
                if x != y:
                    parent[x] = y
            for i in range(n):
                root = members[i]
                while parent[root] != root:
                    root = parent[root]
                roots[i] = root
                classes[root] = b_zero()
            for i in range(n):
                b_set(&classes[roots[i]], members[i])
            for i in range(n):
                c = members[i]
                sets[c * 9 + (b - 1 if vals[c] == a else a - 1)] = classes[roots[i]]


cdef inline bint given_single(const unsigned char *vals, const uint16_t *unit_digits, int c,
                              uint16_t bit) noexcept nogil:
    """Whether the empty cell c must hold the digit `bit` by a single on the givens alone: its peers'
    givens hold every other digit, or in one of its units every other cell is given or sees a given
    `bit`. (`unit_digits`: the digits given in each unit.)"""
    cdef const int *units = &CELL_UNITS[c * 3]
    cdef int k, i, e
    cdef const int *eu
    if (unit_digits[units[0]] | unit_digits[units[1]] | unit_digits[units[2]]) == (ALL & ~bit):
        return 1
    for k in range(3):
        for i in range(9):
            e = UNIT_CELLS[units[k] * 9 + i]
            if e == c or vals[e]:
                continue
            eu = &CELL_UNITS[e * 3]
            if not ((unit_digits[eu[0]] | unit_digits[eu[1]] | unit_digits[eu[2]]) & bit):
                break
        else:
            return 1
    return 0


def dig(str grid, groups, order, int floor=0, int target=0):
    """Remove the clues of `grid` group by group (each group a tuple of cells, tried in the given
    order); a group goes only when the board stays unique (the counter, stopping at 2) and, when
    `order` (technique ids) is not empty, the ladder with those techniques still solves it. With
    `target` > 0, stop once at most `target` clues are left, and never go below `floor`.

    Uniqueness is asked as "is there a solution other than `grid`?" (sd_other_solution): the same
    answer as counting to 2, since the board before the removal has `grid` as its only solution.

    The ladder is not run when the counter settled the board by singles alone (one search node): the
    counter's propagation is the ladder's first tier (naked and hidden singles; a full house is both),
    and singles reach the same fixed point in any order, so the ladder, which tries singles first,
    would solve it with singles alone. Nor is it run when singles refill every removed cell (when the
    order starts with the singles): the board then has the singles' fixed point of the board before
    the removal, which the ladder solved, and the ladder, placing singles until none is left, reaches
    that same position and goes on from it as before. Both still count as ladder runs in the returned
    count (the removals the ladder judged), so the count does not depend on these shortcuts.
    The ladder's path is taken once, on the final board: from the last run when that run's board is
    the final one, else by one more run.

    Returns (givens line, ids used by the ladder on the final board, ladder runs, counts)."""
    cdef unsigned char vals[81]
    cdef unsigned char saved[81]
    cdef uint16_t masks[81]
    cdef uint16_t known[81]
    cdef int ids[64]
    cdef int cells[81]
    cdef int starts[82]
    cdef int norder = len(order), ngroups = len(groups), i, j, c, clues = 81, status, nused = 0
    cdef int nlast = -1, runs = 0, counts = 0, g, size, n, seen = 0
    cdef bint ran, singles_first, settled = 1
    cdef uint16_t unit_digits[27]
    cdef unsigned char vals0[81]
    cdef b81 givenb, bs
    cdef b81 sets[729]
    cdef int *used = <int *> malloc(1001 * sizeof(int))
    cdef int *last = <int *> malloc(1001 * sizeof(int))
    cdef sd_step *scratch = <sd_step *> malloc(sizeof(sd_step))
    cdef sd_state st
    cdef bint ok
    if used == NULL or last == NULL or scratch == NULL:
        free(used); free(last); free(scratch)
        raise MemoryError()
    try:
        if len(grid) != 81 or norder > 64 or ngroups > 81:
            raise ValueError("dig needs an 81-cell grid, at most 64 techniques and 81 groups")
        for i in range(81):
            vals[i] = ord(grid[i]) - 48
            if not 1 <= vals[i] <= 9:
                raise ValueError("the grid must be complete")
            masks[i] = 1u << (vals[i] - 1)
            known[i] = masks[i]
        for i in range(27):
            unit_digits[i] = ALL
        memcpy(vals0, vals, 81)
        givenb.lo = ~(<uint64_t> 0)
        givenb.hi = (<uint64_t> 1 << 17) - 1
        two_digit_sets(vals, sets)
        read_order(order, ids)
        for i in range(norder):
            if ids[i] == T_NAKED_SINGLE:
                seen |= 1
            elif ids[i] == T_HIDDEN_SINGLE:
                seen |= 2
            elif ids[i] != T_FULL_HOUSE:
                break
        singles_first = seen == 3
        j = 0
        for g in range(ngroups):
            starts[g] = j
            for c in groups[g]:
                if not 0 <= c < 81 or j >= 81:
                    raise ValueError("groups must hold distinct cells 0..80")
                cells[j] = c
                j += 1
        starts[ngroups] = j
        with nogil:
            for g in range(ngroups):
                if target > 0 and clues <= target:
                    break
                size = starts[g + 1] - starts[g]
                if clues - size < floor:
                    continue
                for i in range(starts[g], starts[g + 1]):
                    c = cells[i]
                    saved[c] = vals[c]
                    vals[c] = 0
                    masks[c] = ALL
                    for j in range(3):
                        unit_digits[CELL_UNITS[c * 3 + j]] &= ~known[c]
                    b_clear(&givenb, c)
                counts += 1
                for i in range(starts[g], starts[g + 1]):
                    if not given_single(vals, unit_digits, cells[i], known[cells[i]]):
                        n = 0
                        break
                else:
                    n = -1 if settled else 2
                if n == 0:
                    for i in range(starts[g], starts[g + 1]):
                        c = cells[i]
                        for j in range(9):
                            if j != vals0[c] - 1:
                                bs = b_and(sets[c * 9 + j], givenb)
                                if bs.lo == 0 and bs.hi == 0:
                                    n = 1
                                    break
                        if n == 1:
                            break
                    else:
                        n = sd_other_solution(masks, known, &cells[starts[g]], size)
                ok = n != 1
                ran = 0
                if ok and norder > 0 and n >= 0:
                    runs += 1
                    if n == 0 or not singles_first:
                        state_from_values(&st, vals)
                        status = sd_run(&st, ids, norder, used, 1000, &nused, scratch)
                        ok = status == 1
                        ran = 1
                if ok:
                    clues -= size
                    settled = n == -1
                    if ran:
                        memcpy(last, used, nused * sizeof(int))
                        nlast = nused
                    else:
                        nlast = -1
                else:
                    for i in range(starts[g], starts[g + 1]):
                        c = cells[i]
                        vals[c] = saved[c]
                        masks[c] = 1u << (vals[c] - 1)
                        for j in range(3):
                            unit_digits[CELL_UNITS[c * 3 + j]] |= known[c]
                        b_set(&givenb, c)
            if norder > 0 and nlast < 0:
                state_from_values(&st, vals)
                status = sd_run(&st, ids, norder, used, 1000, &nused, scratch)
                memcpy(last, used, nused * sizeof(int))
                nlast = nused if status == 1 else 0
        line = "".join("." if vals[i] == 0 else chr(48 + vals[i]) for i in range(81))
        return line, [last[i] for i in range(max(nlast, 0))], runs, counts
    finally:
        free(used); free(last); free(scratch)
