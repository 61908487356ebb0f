# The compiled Tango rungs: the finders of techniques.TABLE from pair to line-links, the ones the ladder
# asks (techniques.TangoPosition wraps a Position for engine.ladder's loop). A finder returns what a
# sentence needs beside the placements (`Position.find`: the line, the pair, the ways ...), so that
# techniques.SAY words the step from it without looking again. Chain and trial, above these rungs,
# are Python; chain_finds tells cheaply whether chain would find anything. reference.py holds Python
# twins of these finders, for the tests that hold the two equal.
#
# The state is techniques.TangoState's: each cell's value (-1 empty, 0 sun, 1 moon) and, per line
# (rows 0..n-1, then columns n..2n-1), its suns and moons as bit masks along it, and its `=` and `×`
# clues (bit i: a clue between its cells i and i + 1). A placement is cell * 2 + value.

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from engine.games.tango._count cimport tg_valid_lines, TG_MAXN, TG_MAXLINES

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil

cdef enum:
    MAXLINES2 = 2 * TG_MAXN
    MAXCELLS = TG_MAXN * TG_MAXN
    MAXCLUES = 2 * TG_MAXN * (TG_MAXN - 1)
    NONE = -1

# The rungs, as techniques.TABLE numbers them, with their costs (the table's: test_engine_tango checks
# that they agree) and the constants of the costlier ones (techniques reads them from CONSTANTS).
cdef enum:
    PAIR = 0
    SANDWICH = 1
    CLUE = 2
    BALANCE = 3
    EQUAL_PAIR = 4
    PAIR_COUNT = 5
    LINE_COMPLETIONS = 6
    LINE_PAIR = 7
    LINE_LINKS = 8
    LAST = LINE_LINKS                # the last rung compiled here
    WAYS_COST = 3
    LINE_PAIR_COST = 2
    LINE_PAIR_LIMIT = 400
    WAYS_SHOWN = 3                   # line-completions returns the ways when there are at most this many
    MAXDETAIL = 4 + TG_MAXN          # line-links: its ways, a link per cell of its line, where they came from

cdef int COST[9]
COST[:] = [1, 1, 1, 2, 4, 5, 8, 20, 22]

COMPILED = LAST
RUNG_COSTS = tuple(COST[i] for i in range(LAST + 1))
CONSTANTS = {"WAYS_COST": WAYS_COST, "LINE_PAIR_COST": LINE_PAIR_COST, "LINE_PAIR_LIMIT": LINE_PAIR_LIMIT,
             "WAYS_SHOWN": WAYS_SHOWN}


cdef class Position:
    """A Tango position the compiled rungs work on (see the module notes)."""
    cdef int n, half, nclues
    cdef unsigned int full
    cdef int values[MAXCELLS]
    cdef unsigned int suns[MAXLINES2]
    cdef unsigned int moons[MAXLINES2]
    cdef unsigned int same[MAXLINES2]
    cdef unsigned int diff[MAXLINES2]
    cdef unsigned int link_same[MAXLINES2]      # clues between line and line + 1, along them: =
    cdef unsigned int link_diff[MAXLINES2]      # ... and ×
    cdef int clue_a[MAXCLUES]
    cdef int clue_b[MAXCLUES]
    cdef bint clue_same[MAXCLUES]
    cdef int clue_line[MAXCLUES]
    cdef unsigned short lines[TG_MAXLINES]
    cdef int nlines
    cdef unsigned short ways_a[TG_MAXLINES]
    cdef unsigned short ways_b[TG_MAXLINES]
    # the last step found
    cdef int found_cost, found_where, nplaced     # where: the line (the clue's number for CLUE)
    cdef int placed[MAXCELLS]
    cdef int detail[MAXDETAIL]                    # what its sentence needs beyond them (see `find`)
    cdef int ndetail
    # line-links' links as it finds them: the two cells and where from (-1 a clue, a line, or
    # 2n + line for that line and the next taken together)
    cdef int edge_a[MAXCELLS]
    cdef int edge_b[MAXCELLS]
    cdef int edge_from[MAXCELLS]
    cdef int nedges

    def __init__(self, int n, const unsigned char[:] values, clues):
        """`values`: a byte a cell (0 sun, 1 moon, 2 empty); `clues`: (a, b, same) in the board's order
        (sorted, as TangoBoard keeps them)."""
        cdef int cell, a, b, line, at, k = 0
        if n < 4 or n > TG_MAXN or n % 2:
            raise ValueError(f"a tango grid is even, 4 to 12 wide, not {n}")
        if values.shape[0] != n * n:
            raise ValueError(f"a position has {n * n} cells")
        self.n = n
        self.half = n // 2
        self.full = (1u << n) - 1
        self.nlines = tg_valid_lines(n, self.lines)
        for line in range(2 * n):
            self.suns[line] = self.moons[line] = self.same[line] = self.diff[line] = 0
            self.link_same[line] = self.link_diff[line] = 0
        for cell in range(n * n):
            self.values[cell] = -1
        for a, b, same in clues:
            if k >= MAXCLUES or not (0 <= a < b < n * n) or not (b == a + 1 and a % n < n - 1 or b == a + n):
                raise ValueError(f"cells {a} and {b} are not neighbours")
            self.clue_a[k], self.clue_b[k], self.clue_same[k] = a, b, same
            if b == a + 1:
                line, at = a // n, a % n
                self.link_same[n + at] |= (<unsigned int> bool(same)) << line
                self.link_diff[n + at] |= (<unsigned int> (not same)) << line
            else:
                line, at = n + a % n, a // n
                self.link_same[at] |= (<unsigned int> bool(same)) << (a % n)
                self.link_diff[at] |= (<unsigned int> (not same)) << (a % n)
            self.clue_line[k] = line
            if same:
                self.same[line] |= 1u << at
            else:
                self.diff[line] |= 1u << at
            k += 1
        self.nclues = k
        for cell in range(n * n):
            if values[cell] <= 1:
                self._place(cell, values[cell])

    cdef inline void _place(self, int cell, int value) noexcept nogil:
        cdef int r = cell // self.n, c = cell % self.n
        self.values[cell] = value
        if value:
            self.moons[r] |= 1u << c
            self.moons[self.n + c] |= 1u << r
        else:
            self.suns[r] |= 1u << c
            self.suns[self.n + c] |= 1u << r

    cdef inline int _cell(self, int line, int i) noexcept nogil:
        if line < self.n:
            return line * self.n + i
        return i * self.n + (line - self.n)

    cdef int _ways(self, int line, unsigned short *out) noexcept nogil:
        """techniques.completions of a line: its valid lines that keep its known cells and clues."""
        cdef unsigned int known = self.suns[line] | self.moons[line], moons = self.moons[line]
        cdef unsigned int same = self.same[line], diff = self.diff[line], m, step
        cdef int i, k = 0
        for i in range(self.nlines):
            m = self.lines[i]
            step = m ^ (m >> 1)
            if (m & known) == moons and not (step & same) and (step & diff) == diff:
                if out != NULL:
                    out[k] = <unsigned short> m
                k += 1
        return k

    cdef bint _contradiction(self) noexcept nogil:
        cdef int line
        for line in range(2 * self.n):
            if self._ways(line, NULL) == 0:
                return 1
        return 0

    cdef bint _solved(self) noexcept nogil:
        cdef int cell
        for cell in range(self.n * self.n):
            if self.values[cell] < 0:
                return 0
        return 1

    cdef inline void _put(self, int line, int i, int value) noexcept nogil:
        self.placed[self.nplaced] = self._cell(line, i) * 2 + value
        self.nplaced += 1

    cdef inline void _put_mask(self, int line, unsigned int mask, int value) noexcept nogil:
        while mask:
            self._put(line, __builtin_ctz(mask), value)
            mask &= mask - 1

    cdef inline void _say(self, int a, int b=-2, int c=-2, int d=-2) noexcept nogil:
        """The step's detail: the numbers given (-2: none)."""
        self.detail[0] = a
        self.ndetail = 1
        if b != -2:
            self.detail[1] = b
            self.ndetail = 2
        if c != -2:
            self.detail[2] = c
            self.ndetail = 3
        if d != -2:
            self.detail[3] = d
            self.ndetail = 4

    # --------------------------------------------------------------------------------------------
    # the rungs: each finds its step (placements into `placed`, the rest of what its sentence needs
    # into `detail`), the first in reading order of lines, or the line with the fewest ways

    cdef bint _pair(self) noexcept nogil:
        cdef int line, value, i, n = self.n
        cdef unsigned int empty, mask, pairs, ends
        for line in range(2 * n):
            empty = self.full & ~(self.suns[line] | self.moons[line])
            for value in range(2):
                mask = self.moons[line] if value else self.suns[line]
                pairs = mask & (mask >> 1)
                while pairs:
                    i = __builtin_ctz(pairs)
                    pairs &= pairs - 1
                    ends = 0
                    if i - 1 >= 0 and (empty >> (i - 1)) & 1:
                        self._put(line, i - 1, 1 - value)
                        ends += 1
                    if i + 2 < n and (empty >> (i + 2)) & 1:
                        self._put(line, i + 2, 1 - value)
                        ends += 1
                    if ends:
                        self.found_where = line
                        self._say(i, value)
                        return 1
        return 0

    cdef bint _sandwich(self) noexcept nogil:
        cdef int line, value
        cdef unsigned int empty, mask, middles
        for line in range(2 * self.n):
            empty = self.full & ~(self.suns[line] | self.moons[line])
            for value in range(2):
                mask = self.moons[line] if value else self.suns[line]
                middles = ((mask & (mask >> 2)) << 1) & empty
                if middles:
                    self._put(line, __builtin_ctz(middles), 1 - value)
                    self.found_where = line
                    return 1
        return 0

    cdef bint _clue(self) noexcept nogil:
        cdef int k, a, b, value, empty
        for k in range(self.nclues):
            a = self.values[self.clue_a[k]]
            b = self.values[self.clue_b[k]]
            if (a < 0) == (b < 0):
                continue
            if b < 0:
                empty, value = self.clue_b[k], a
            else:
                empty, value = self.clue_a[k], b
            self.placed[0] = empty * 2 + (value if self.clue_same[k] else 1 - value)
            self.nplaced = 1
            self.found_where = k
            return 1
        return 0

    cdef bint _balance(self) noexcept nogil:
        cdef int line, value
        cdef unsigned int empty, mask
        for line in range(2 * self.n):
            empty = self.full & ~(self.suns[line] | self.moons[line])
            if not empty:
                continue
            for value in range(2):
                mask = self.moons[line] if value else self.suns[line]
                if __builtin_popcount(mask) == self.half:
                    self._put_mask(line, empty, 1 - value)
                    self.found_where = line
                    return 1
        return 0

    cdef bint _equal_pair(self) noexcept nogil:
        cdef int line, i, j, k, value, n = self.n
        cdef unsigned int suns, moons, empty, pairs
        for line in range(2 * n):
            suns, moons = self.suns[line], self.moons[line]
            empty = self.full & ~(suns | moons)
            pairs = self.same[line] & empty & (empty >> 1)
            while pairs:
                i = __builtin_ctz(pairs)
                pairs &= pairs - 1
                for k in range(2):
                    j = i - 1 if k == 0 else i + 2
                    if 0 <= j < n and ((suns | moons) >> j) & 1:
                        value = (moons >> j) & 1
                        self._put(line, i, 1 - value)
                        self._put(line, i + 1, 1 - value)
                        self.found_where = line
                        self._say(j)
                        return 1
        return 0

    cdef bint _pair_count(self) noexcept nogil:
        cdef int line, i, value, need, nopposite, first_equal
        cdef unsigned int suns, moons, empty, cand, in_pairs, taken, starts, equal, rest, mask
        for line in range(2 * self.n):
            suns, moons = self.suns[line], self.moons[line]
            empty = self.full & ~(suns | moons)
            if not empty:
                continue
            # the × pairs between empty cells, left to right, sharing no cell
            cand = self.diff[line] & empty & (empty >> 1)
            in_pairs = taken = starts = 0
            nopposite = 0
            while cand:
                i = __builtin_ctz(cand)
                cand &= cand - 1
                if not ((taken >> i) & 3):
                    nopposite += 1
                    taken |= 3u << i
                    starts |= 1u << i
            in_pairs = taken
            equal = self.same[line] & empty & (empty >> 1)
            first_equal = -1
            while equal:
                i = __builtin_ctz(equal)
                equal &= equal - 1
                if not ((in_pairs >> i) & 3):
                    first_equal = i
                    break
            for value in range(2):
                mask = moons if value else suns
                need = self.half - __builtin_popcount(mask) - nopposite
                rest = empty & ~in_pairs
                if nopposite and need == 0 and rest:
                    self._put_mask(line, rest, 1 - value)
                    self.found_where = line
                    self._say(0, <int> starts)          # the x pairs' first cells
                    return 1
                if first_equal >= 0 and need < 2:
                    self._put(line, first_equal, 1 - value)
                    self._put(line, first_equal + 1, 1 - value)
                    self.found_where = line
                    self._say(1, need, self.half - __builtin_popcount(mask), nopposite)
                    return 1
        return 0

    cdef bint _line_completions(self) noexcept nogil:
        cdef int line, i, k, best = -1, best_ways = 0
        cdef unsigned int empty, all_moons, any_moon, forced_suns, forced_moons
        cdef unsigned int best_suns = 0, best_moons = 0
        cdef unsigned short shown[WAYS_SHOWN]
        for line in range(2 * self.n):
            empty = self.full & ~(self.suns[line] | self.moons[line])
            if not empty:
                continue
            k = self._ways(line, self.ways_a)
            if k == 0:
                continue
            all_moons = self.full
            any_moon = 0
            for i in range(k):
                all_moons &= self.ways_a[i]
                any_moon |= self.ways_a[i]
            forced_moons = all_moons & empty
            forced_suns = ~any_moon & empty
            if (forced_moons or forced_suns) and (best < 0 or k < best_ways):
                best, best_ways, best_suns, best_moons = line, k, forced_suns, forced_moons
                for i in range(k if k < WAYS_SHOWN else WAYS_SHOWN):
                    shown[i] = self.ways_a[i]
                if k == 1:
                    break
        if best < 0:
            return 0
        self._put_mask(best, best_suns, 0)
        self._put_mask(best, best_moons, 1)
        self.found_cost = COST[LINE_COMPLETIONS] + WAYS_COST * (best_ways - 1)
        self.found_where = best
        self.detail[0] = best_ways                  # the number of ways, then each when few enough
        self.ndetail = 1
        if best_ways <= WAYS_SHOWN:
            for i in range(best_ways):
                self.detail[1 + i] = shown[i]
            self.ndetail = 1 + best_ways
        return 1

    cdef unsigned int _pair_empty(self, int line) noexcept nogil:
        """The empty cells of lines `line` and `line + 1` as one mask of 2n positions (the second line's
        shifted by n), as _joint_ways writes their joint ways."""
        cdef int other = line + 1
        return (self.full & ~(self.suns[line] | self.moons[line])) | (
            (self.full & ~(self.suns[other] | self.moons[other])) << self.n)

    cdef int _joint_ways(self, int line, unsigned int *joint) noexcept nogil:
        """Lines `line` and `line + 1` taken together: into `joint` (LINE_PAIR_LIMIT long) their joint
        ways that keep the clues between them, each one mask of 2n positions (as _pair_empty), and how
        many; -1 when the lines have no clue between them, no empty cell, or ways that multiply past
        LINE_PAIR_LIMIT."""
        cdef int n = self.n, ka, kb, i, j, kept = 0
        cdef unsigned int same, differ, a, b
        if line % n == n - 1:
            return -1                       # the last row or column has no next one
        same, differ = self.link_same[line], self.link_diff[line]
        if not (same | differ) or not self._pair_empty(line):
            return -1
        ka = self._ways(line, self.ways_a)
        kb = self._ways(line + 1, self.ways_b)
        if ka * kb > LINE_PAIR_LIMIT:
            return -1
        for i in range(ka):
            a = self.ways_a[i]
            for j in range(kb):
                b = self.ways_b[j]
                if ((a ^ b) & same) or ((a ^ b) & differ) != differ:
                    continue
                joint[kept] = a | (b << n)
                kept += 1
        return kept

    cdef bint _line_pair(self) noexcept nogil:
        cdef int line, i, k, best = -1, best_joint = 0, n = self.n
        cdef unsigned int empty, all_moons, any_moon, moons, suns
        cdef unsigned int f[4]
        cdef unsigned int best_f[4]
        cdef unsigned int joint[LINE_PAIR_LIMIT]
        for line in range(2 * n):
            k = self._joint_ways(line, joint)
            if k <= 0:
                continue
            empty = self._pair_empty(line)
            all_moons = (1u << (2 * n)) - 1
            any_moon = 0
            for i in range(k):
                all_moons &= joint[i]
                any_moon |= joint[i]
            moons, suns = all_moons & empty, ~any_moon & empty
            f[0], f[1] = moons & self.full, suns & self.full        # moons, suns of the first line
            f[2], f[3] = moons >> n, suns >> n                      # ... of the second
            if (moons | suns) and (best < 0 or k < best_joint):
                best, best_joint = line, k
                best_f[0], best_f[1], best_f[2], best_f[3] = f[0], f[1], f[2], f[3]
        if best < 0:
            return 0
        self._put_mask(best, best_f[1], 0)
        self._put_mask(best, best_f[0], 1)
        self._put_mask(best + 1, best_f[3], 0)
        self._put_mask(best + 1, best_f[2], 1)
        self.found_cost = COST[LINE_PAIR] + LINE_PAIR_COST * (best_joint - 1)
        self.found_where = best
        self._say(best_joint, <int> self.link_same[best], <int> self.link_diff[best])
        return 1

    cdef int _linked_ways(self, int line, int *parent, int *parity, int *link) noexcept nogil:
        """The line's ways (into ways_b) that keep the relations between its empty cells (`parent`,
        `parity`: the union-find over the cells); `link` gets, per position, the first earlier empty
        cell of the line related to it as j * 2 + parity (-1: none, or a known cell)."""
        cdef int i, j, k, kept = 0, ri, rj, pi, pj
        cdef unsigned int empty = self.full & ~(self.suns[line] | self.moons[line]), m
        cdef int roots[TG_MAXN]
        cdef int parities[TG_MAXN]
        for i in range(self.n):
            link[i] = -1
            if (empty >> i) & 1:
                roots[i] = self._root(parent, parity, self._cell(line, i), &parities[i])
                for j in range(i):
                    if (empty >> j) & 1 and roots[j] == roots[i]:
                        link[i] = j * 2 + (parities[i] ^ parities[j])
                        break
        k = self._ways(line, self.ways_a)
        for j in range(k):
            m = self.ways_a[j]
            for i in range(self.n):
                if link[i] >= 0 and (((m >> i) ^ (m >> (link[i] >> 1))) & 1) != (link[i] & 1):
                    break
            else:
                self.ways_b[kept] = <unsigned short> m
                kept += 1
        return kept

    cdef bint _link(self, int *parent, int *parity, int a, int b, int p, int source, bint *broken) noexcept nogil:
        """_relate, keeping the link (line-links words where its links came from)."""
        if not self._relate(parent, parity, a, b, p, broken):
            return 0
        self.edge_a[self.nedges], self.edge_b[self.nedges], self.edge_from[self.nedges] = a, b, source
        self.nedges += 1
        return 1

    cdef void _sources(self, int a, int b, unsigned int *lines, unsigned int *pairs, int *clues) noexcept nogil:
        """Where the links joining cells a and b came from (they join them by one path): the lines
        whose ways gave one, and the first lines of the pairs that did, as masks, and clues counted."""
        cdef int came[MAXCELLS]
        cdef int todo[MAXCELLS]
        cdef int cell, e, other, head = 0, tail = 1, src
        for cell in range(self.n * self.n):
            came[cell] = -2
        came[a] = -1
        todo[0] = a
        while head < tail and came[b] == -2:
            cell = todo[head]
            head += 1
            for e in range(self.nedges):
                if self.edge_a[e] == cell:
                    other = self.edge_b[e]
                elif self.edge_b[e] == cell:
                    other = self.edge_a[e]
                else:
                    continue
                if came[other] == -2:
                    came[other] = e
                    todo[tail] = other
                    tail += 1
        cell = b
        while cell != a and came[cell] >= 0:
            e = came[cell]
            src = self.edge_from[e]
            if 0 <= src < 2 * self.n:
                lines[0] |= 1u << src
            elif src >= 2 * self.n:
                pairs[0] |= 1u << (src - 2 * self.n)
            else:
                clues[0] += 1
            cell = self.edge_a[e] if self.edge_b[e] == cell else self.edge_b[e]

    cdef int _pair_links(self, int line, int *parent, int *parity, bint *broken) noexcept nogil:
        """Lines `line` and `line + 1`, joined by clues, taken together (when their ways multiply to at
        most LINE_PAIR_LIMIT): their joint ways that keep the clues between them and the relations
        between their empty cells, and every two of those cells alike (or differing) in all of them
        related. 1 when a relation is new, 0 when none is, -1 when no joint way is left."""
        cdef int n = self.n, other = line + 1, ways, i, p, q, kept = 0, changed = 0
        cdef unsigned int m, alike, ever, empty, full2 = (1u << (2 * n)) - 1
        cdef unsigned int joint[LINE_PAIR_LIMIT]
        cdef int cells[2 * TG_MAXN]
        cdef int roots[2 * TG_MAXN]
        cdef int parities[2 * TG_MAXN]
        cdef int link[2 * TG_MAXN]
        ways = self._joint_ways(line, joint)
        if ways < 0:
            return 0
        empty = self._pair_empty(line)
        for p in range(2 * n):
            cells[p] = self._cell(line, p) if p < n else self._cell(other, p - n)
            link[p] = -1
            if (empty >> p) & 1:
                roots[p] = self._root(parent, parity, cells[p], &parities[p])
                for q in range(p):
                    if (empty >> q) & 1 and roots[q] == roots[p]:
                        link[p] = q * 2 + (parities[p] ^ parities[q])
                        break
        for i in range(ways):               # keep the joint ways that keep the relations, in place
            m = joint[i]
            for p in range(2 * n):
                if link[p] >= 0 and (((m >> p) ^ (m >> (link[p] >> 1))) & 1) != (link[p] & 1):
                    break
            else:
                joint[kept] = m
                kept += 1
        if kept == 0:
            return -1
        for p in range(2 * n):
            if not (empty >> p) & 1:
                continue
            alike = full2
            ever = 0
            for i in range(kept):
                m = joint[i] if (joint[i] >> p) & 1 else ~joint[i] & full2
                alike &= m
                ever |= m
            for q in range(p + 1, 2 * n):
                if (empty >> q) & 1 and ((alike >> q) & 1 or not (ever >> q) & 1):
                    changed |= self._link(parent, parity, cells[p], cells[q], 0 if (alike >> q) & 1 else 1,
                                          2 * n + line, broken)
        return changed

    cdef bint _line_links(self) noexcept nogil:
        cdef int parent[MAXCELLS]
        cdef int parity[MAXCELLS]
        cdef int link[TG_MAXN]
        cdef int best_link[TG_MAXN]
        cdef int n = self.n, cell, k, line, i, j, ways, best = -1, best_ways = 0
        cdef unsigned int empty, m, alike, ever, all_moons, any_moon, best_suns = 0, best_moons = 0
        cdef unsigned int from_lines = 0, from_pairs = 0
        cdef int from_clues = 0
        cdef bint broken = 0, changed = 1
        self.nedges = 0
        for cell in range(n * n):
            parent[cell] = cell
            parity[cell] = 0
        for k in range(self.nclues):
            if self.values[self.clue_a[k]] < 0 and self.values[self.clue_b[k]] < 0:
                self._link(parent, parity, self.clue_a[k], self.clue_b[k], 0 if self.clue_same[k] else 1, -1,
                           &broken)
        # what each line's ways (and two lines joined by clues, together) keep alike or apart between
        # their empty cells, to a fixed point
        while changed and not broken:
            changed = 0
            for line in range(2 * n):
                empty = self.full & ~(self.suns[line] | self.moons[line])
                if not empty:
                    continue
                ways = self._linked_ways(line, parent, parity, link)
                if ways == 0:
                    return 0
                for i in range(n):
                    if not (empty >> i) & 1:
                        continue
                    alike = self.full
                    ever = 0
                    for k in range(ways):
                        m = self.ways_b[k]
                        m = m if (m >> i) & 1 else ~m & self.full      # bit j: cell j alike cell i
                        alike &= m
                        ever |= m
                    for j in range(i + 1, n):
                        if (empty >> j) & 1 and ((alike >> j) & 1 or not (ever >> j) & 1):
                            changed |= self._link(parent, parity, self._cell(line, i), self._cell(line, j),
                                                  0 if (alike >> j) & 1 else 1, line, &broken)
            for line in range(2 * n - 1):
                k = self._pair_links(line, parent, parity, &broken)
                if k < 0:
                    return 0
                changed |= k
        if broken:
            return 0
        for line in range(2 * n):
            empty = self.full & ~(self.suns[line] | self.moons[line])
            if not empty:
                continue
            ways = self._linked_ways(line, parent, parity, link)
            all_moons = self.full
            any_moon = 0
            for k in range(ways):
                all_moons &= self.ways_b[k]
                any_moon |= self.ways_b[k]
            if (all_moons & empty or ~any_moon & empty) and (best < 0 or ways < best_ways):
                best, best_ways = line, ways
                best_moons, best_suns = all_moons & empty, ~any_moon & empty
                for i in range(n):
                    best_link[i] = link[i]
        if best < 0:
            return 0
        self._put_mask(best, best_suns, 0)
        self._put_mask(best, best_moons, 1)
        self.found_cost = COST[LINE_LINKS] + WAYS_COST * (best_ways - 1)
        self.found_where = best
        self.detail[0] = best_ways                  # the ways, each position's link, where the links came from
        for i in range(n):
            self.detail[1 + i] = best_link[i]
            if best_link[i] >= 0:
                self._sources(self._cell(best, best_link[i] >> 1), self._cell(best, i), &from_lines, &from_pairs, &from_clues)
        self.detail[1 + n] = <int> (from_lines & ~(1u << best))
        self.detail[2 + n] = <int> from_pairs
        self.detail[3 + n] = from_clues
        self.ndetail = 4 + n
        return 1

    cdef bint _find(self, int rung) noexcept nogil:
        """Whether rung `rung` finds a step (its placements in `placed`, its cost and detail set)."""
        self.nplaced = 0
        self.ndetail = 0
        self.found_cost = COST[rung]
        if rung == PAIR:
            return self._pair()
        elif rung == SANDWICH:
            return self._sandwich()
        elif rung == CLUE:
            return self._clue()
        elif rung == BALANCE:
            return self._balance()
        elif rung == EQUAL_PAIR:
            return self._equal_pair()
        elif rung == PAIR_COUNT:
            return self._pair_count()
        elif rung == LINE_COMPLETIONS:
            return self._line_completions()
        elif rung == LINE_PAIR:
            return self._line_pair()
        return self._line_links()

    # --------------------------------------------------------------------------------------------
    # whether chain finds anything (techniques._relations and chain, without the facts)

    cdef int _root(self, int *parent, int *parity, int x, int *p) noexcept nogil:
        cdef int root = x, acc = 0
        while parent[root] != root:
            acc ^= parity[root]
            root = parent[root]
        p[0] = acc
        return root

    cdef int _relation(self, int *parent, int *parity, int a, int b) noexcept nogil:
        """0 alike, 1 differ, -1 unknown."""
        cdef int pa, pb, ra = self._root(parent, parity, a, &pa), rb = self._root(parent, parity, b, &pb)
        return pa ^ pb if ra == rb else -1

    cdef bint _relate(self, int *parent, int *parity, int a, int b, int p, bint *broken) noexcept nogil:
        cdef int pa, pb, ra = self._root(parent, parity, a, &pa), rb = self._root(parent, parity, b, &pb)
        if ra == rb:
            if pa ^ pb != p:
                broken[0] = 1
            return 0
        parent[ra] = rb
        parity[ra] = pa ^ pb ^ p
        return 1

    cdef bint _chain_finds(self) noexcept nogil:
        """Whether techniques.chain finds a step here: the relations the clues, the known cells and the
        pair and sandwich rules give (the same rules in the same order as techniques._relations), and
        an empty cell related to a sun."""
        cdef int parent[MAXCELLS + 1]
        cdef int parity[MAXCELLS + 1]
        cdef int n = self.n, sun = self.n * self.n, cell, k, line, i, j, a, b, m
        cdef bint broken = 0, changed = 1
        for cell in range(sun + 1):
            parent[cell] = cell
            parity[cell] = 0
        for cell in range(sun):
            if self.values[cell] >= 0:
                self._relate(parent, parity, cell, sun, self.values[cell], &broken)
        for k in range(self.nclues):
            self._relate(parent, parity, self.clue_a[k], self.clue_b[k], 0 if self.clue_same[k] else 1, &broken)
        while changed and not broken:
            changed = 0
            for line in range(2 * n):
                for i in range(n - 1):
                    a = self._cell(line, i)
                    b = self._cell(line, i + 1)
                    if self._relation(parent, parity, a, b) == 0:
                        for m in range(2):
                            j = i - 1 if m == 0 else i + 2
                            if 0 <= j < n and self._relation(parent, parity, self._cell(line, j), a) < 0:
                                changed |= self._relate(parent, parity, self._cell(line, j), a, 1, &broken)
                for i in range(n - 2):
                    a = self._cell(line, i)
                    b = self._cell(line, i + 2)
                    if (self._relation(parent, parity, a, b) == 0
                            and self._relation(parent, parity, self._cell(line, i + 1), a) < 0):
                        changed |= self._relate(parent, parity, self._cell(line, i + 1), a, 1, &broken)
        if broken:
            return 0
        for cell in range(sun):
            if self.values[cell] < 0 and self._relation(parent, parity, cell, sun) >= 0:
                return 1
        return 0

    # --------------------------------------------------------------------------------------------
    # the Python front

    def chain_finds(self):
        """Whether techniques.chain would find a step in this position (it then is asked for it)."""
        cdef bint out
        with nogil:
            out = self._chain_finds()
        return out

    def find(self, int rung):
        """The step rung `rung` (0 pair ... COMPILED line-links, techniques.TABLE's numbers) finds here,
        or None: (cost, placements sorted, where, detail). `where` is the line it reasons about (the
        first of the two for line-pair; the clue's number for clue); `detail` is what its sentence
        needs that the placements do not say: pair (the pair's first position along the line, its
        symbol); equal-pair (the position of the known cell beside the pair); pair-count (0, the ×
        pairs' first positions as a mask) or (1, how many more of the symbol fit beyond the × pairs,
        how many the line needs, the number of × pairs); line-completions (the number of ways, then
        each way as a moon mask when there are at most WAYS_SHOWN); line-pair (the joint ways, the
        = and × clues between the lines as masks); line-links (the ways that keep the relations, then
        for each position along the line the first earlier empty cell related to it, as j * 2 + 1 when
        they differ, j * 2 when alike, -1 for none, then where those links came from: the other lines
        whose ways gave one and the first lines of the pairs taken together that did, as masks, and how
        many clues those paths of links pass); () for the others. Never changes the position."""
        cdef bint hit
        cdef int i
        if not 0 <= rung <= LAST:
            raise ValueError(f"no compiled rung {rung}")
        with nogil:
            hit = self._find(rung)
        if not hit:
            return None
        return (self.found_cost, tuple(sorted([self.placed[i] for i in range(self.nplaced)])), self.found_where,
                tuple([self.detail[i] for i in range(self.ndetail)]))

    def contradiction(self):
        """Whether some line can no longer be completed."""
        cdef bint out
        with nogil:
            out = self._contradiction()
        return out

    def solved(self):
        """Whether every cell holds a symbol."""
        return self._solved()

    def copy(self):
        """A Position of its own in the same state."""
        cdef Position other = Position.__new__(Position)
        other.n, other.half, other.nclues, other.full, other.nlines = self.n, self.half, self.nclues, self.full, self.nlines
        memcpy(other.values, self.values, sizeof(self.values))
        memcpy(other.suns, self.suns, sizeof(self.suns))
        memcpy(other.moons, self.moons, sizeof(self.moons))
        memcpy(other.same, self.same, sizeof(self.same))
        memcpy(other.diff, self.diff, sizeof(self.diff))
        memcpy(other.link_same, self.link_same, sizeof(self.link_same))
        memcpy(other.link_diff, self.link_diff, sizeof(self.link_diff))
        memcpy(other.clue_a, self.clue_a, sizeof(self.clue_a))
        memcpy(other.clue_b, self.clue_b, sizeof(self.clue_b))
        memcpy(other.clue_same, self.clue_same, sizeof(self.clue_same))
        memcpy(other.clue_line, self.clue_line, sizeof(self.clue_line))
        memcpy(other.lines, self.lines, sizeof(self.lines))
        return other

    def place(self, placements):
        """Make placements (cell * 2 + value): a step's."""
        for x in placements:
            if not 0 <= x < 2 * self.n * self.n:
                raise ValueError(f"no placement {x}")
            self._place(x >> 1, x & 1)

    def grid(self):
        """The position as S, M and '.'."""
        return "".join("." if self.values[i] < 0 else "SM"[self.values[i]] for i in range(self.n * self.n))
