# The compiled probe of the Star Battle ladder (see _techniques.pxd for what it answers and why it is
# only a filter). Every rule here mirrors a finder of techniques.py, in the same order, so that the
# position a probe reaches is the one the Python probe reaches; the parity test holds them together.
# The basic rules are the compiled search's (a Prober is a Search that loads a position).
# After it: compiled twins of the finders most grades spend their time in (crowding, counting groups,
# pressured areas and pairs, footprint enumerations and the crowders they find), whose answers are
# used as they are (see _techniques.pxd), and screens for the 2x2-block arguments and the set
# differentials (whether any argument holds).

from libc.stdlib cimport calloc, malloc, free
from libc.stdint cimport uint64_t
from libc.string cimport memset, memcpy

from engine.games.starbattle._search cimport Search


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline void _set_bit(uint64_t *words, int cell) noexcept nogil:
    words[cell >> 6] |= (<uint64_t> 1) << (cell & 63)


cdef inline void _clear_bit(uint64_t *words, int cell) noexcept nogil:
    words[cell >> 6] &= ~((<uint64_t> 1) << (cell & 63))


cdef class Prober(Search):
    """Probes for one board. `regions` is a flat list of n*n region numbers 0..n-1 (checked by Search,
    whose __cinit__ runs first with the same arguments)."""

    def __cinit__(self, int n, int k, bint diagonals, regions):
        cdef int cell, a, u
        self.nbytes = (self.ncells + 7) // 8
        self.attacks = <unsigned char *> malloc(self.ncells * self.ncells)
        self.base_cand = <unsigned char *> malloc(self.ncells)
        self.base_star = <unsigned char *> malloc(self.ncells)
        self.count = <int *> malloc(max(self.ncells, self.nunits) * sizeof(int))
        self.buf = <int *> malloc(6 * self.ncells * sizeof(int))
        self.touched = <unsigned char *> malloc(self.ncells + n)
        self.one = <unsigned char *> malloc(self.nunits)
        self.reach = <unsigned char *> malloc(self.ncells)
        self.hit_units = <unsigned char *> malloc(self.nunits)
        self.cover_anchors = <int *> malloc(self.ncells * sizeof(int))
        if (not self.attacks or not self.base_cand or not self.base_star or not self.count or not self.buf
                or not self.touched or not self.one or not self.reach or not self.hit_units
                or not self.cover_anchors):
            raise MemoryError()
        memset(self.attacks, 0, self.ncells * self.ncells)
        for cell in range(self.ncells):
            for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                self.attacks[cell * self.ncells + self.attack_cells[a]] = 1
        # the same attacks, and the units, as bitsets of 64-bit words (for the enumerations)
        self.nwords = (self.ncells + 63) // 64
        self.attack_bits = <uint64_t *> calloc(self.ncells * self.nwords, sizeof(uint64_t))
        self.unit_bits = <uint64_t *> calloc(self.nunits * self.nwords, sizeof(uint64_t))
        self.cover_words = <uint64_t *> calloc(self.nwords, sizeof(uint64_t))
        if not self.attack_bits or not self.unit_bits or not self.cover_words:
            raise MemoryError()
        for cell in range(self.ncells):
            for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                _set_bit(self.attack_bits + cell * self.nwords, self.attack_cells[a])
        for u in range(self.nunits):
            for a in range(self.unit_start[u], self.unit_start[u + 1]):
                _set_bit(self.unit_bits + u * self.nwords, self.unit_cells[a])

    def __dealloc__(self):
        free(self.attacks); free(self.base_cand); free(self.base_star); free(self.count); free(self.buf)
        free(self.touched); free(self.one); free(self.attack_bits); free(self.unit_bits)
        free(self.reach); free(self.hit_units); free(self.cover_anchors); free(self.cover_words)

    cdef bint _load(self) noexcept nogil:
        """The loaded position, with the cells its stars attack crossed off; False if impossible."""
        cdef int cell, j, u, a
        memcpy(self.cand, self.base_cand, self.ncells)
        memcpy(self.star, self.base_star, self.ncells)
        memset(self.ucands, 0, self.nunits * sizeof(int))
        memset(self.ustars, 0, self.nunits * sizeof(int))
        memset(self.queued, 0, self.nunits)
        self.qhead = 0
        self.qtail = 0
        self.nstars = 0
        self.trail_len = 0          # a probe never backtracks: the trail only has to hold its changes
        for cell in range(self.ncells):
            for j in range(3):
                u = self.cell_units[cell * 3 + j]
                self.ucands[u] += self.cand[cell]
                self.ustars[u] += self.star[cell]
            self.nstars += self.star[cell]
        for u in range(self.nunits):
            if self.ustars[u] > self.k or self.ucands[u] < self.k - self.ustars[u]:
                return False
            self._enqueue(u)
        for cell in range(self.ncells):
            if self.star[cell]:
                for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                    if self.star[self.attack_cells[a]] or not self._eliminate(self.attack_cells[a]):
                        return False
        return True

    cdef bint _fits(self, int *cells, int size, int want) noexcept nogil:
        """Whether `want` non-attacking stars fit among `cells` (techniques.can_place)."""
        cdef int i, j, m, x
        cdef int *sub = cells + size
        if want <= 0:
            return True
        if size < want:
            return False
        if want == 1:
            return True
        if size > 4 * want - 4:
            return True
        for i in range(size):
            if size - i < want:
                return False
            x = cells[i]
            m = 0
            for j in range(i + 1, size):
                if not self.attacks[x * self.ncells + cells[j]]:
                    sub[m] = cells[j]
                    m += 1
            if self._fits(sub, m, want - 1):
                return True
        return False

    cdef bint _closure(self) noexcept nogil:
        """The basic rules to a fixed point, then every unit must still fit its stars."""
        cdef int u, i, cell, need, size
        if not self._propagate():
            return False
        for u in range(self.nunits):
            need = self.k - self.ustars[u]
            if need < 0 or self.ucands[u] < need:
                return False
            if need > 1:
                size = 0
                for i in range(self.unit_start[u], self.unit_start[u + 1]):
                    cell = self.unit_cells[i]
                    if self.cand[cell]:
                        self.buf[size] = cell
                        size += 1
                if not self._fits(self.buf, size, need):
                    return False
        return True

    # -- tier 2, each returning 1 (a step was taken), 0 (nothing found) or -1 (contradiction)

    cdef int _confinement(self) noexcept nogil:
        cdef int p, ykind, xkind, i, u, x, idx, cell, need_y, need_x, xu, m
        cdef bint found
        cdef int n = self.n
        cdef int pairs[8]
        pairs[0] = 2; pairs[1] = 0; pairs[2] = 2; pairs[3] = 1
        pairs[4] = 0; pairs[5] = 2; pairs[6] = 1; pairs[7] = 2
        for p in range(4):
            ykind = pairs[2 * p]
            xkind = pairs[2 * p + 1]
            for i in range(n):
                u = ykind * n + i
                need_y = self.k - self.ustars[u]
                if need_y <= 0 or self.ucands[u] == 0:
                    continue
                memset(self.touched, 0, n)
                for idx in range(self.unit_start[u], self.unit_start[u + 1]):
                    cell = self.unit_cells[idx]
                    if self.cand[cell]:
                        self.touched[self.cell_units[cell * 3 + xkind] - xkind * n] = 1
                need_x = 0
                for x in range(n):
                    if self.touched[x]:
                        need_x += self.k - self.ustars[xkind * n + x]
                if need_x != need_y:
                    continue
                # collect first, then cross off (the Python step is one set of eliminations)
                m = 0
                for x in range(n):
                    if self.touched[x]:
                        xu = xkind * n + x
                        for idx in range(self.unit_start[xu], self.unit_start[xu + 1]):
                            cell = self.unit_cells[idx]
                            if self.cand[cell] and self.cell_units[cell * 3 + ykind] != u:
                                self.buf[m] = cell
                                m += 1
                if m:
                    found = True
                    for idx in range(m):
                        if not self._eliminate(self.buf[idx]):
                            found = False
                    return 1 if found else -1
        return 0

    cdef int _shared_neighbour(self) noexcept nogil:
        cdef int j, u, idx, cell, a, m
        cdef bint ok
        cdef int n = self.n
        for j in range(self.nunits):
            u = j + 2 * n if j < n else j - n          # regions first, then rows, then columns
            if self.k - self.ustars[u] != 1 or self.ucands[u] < 2:
                continue
            memset(self.count, 0, self.ncells * sizeof(int))
            for idx in range(self.unit_start[u], self.unit_start[u + 1]):
                cell = self.unit_cells[idx]
                if self.cand[cell]:
                    for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                        self.count[self.attack_cells[a]] += 1
            m = 0
            for cell in range(self.ncells):
                if self.cand[cell] and self.count[cell] == self.ucands[u]:
                    self.buf[m] = cell
                    m += 1
            if m:
                ok = True
                for idx in range(m):
                    if not self._eliminate(self.buf[idx]):
                        ok = False
                return 1 if ok else -1
        return 0

    cdef int _crowding(self) noexcept nogil:
        cdef int u, i, m
        cdef bint ok = True
        m = self._crowders(&u)
        for i in range(m):
            if not self._eliminate(self.buf[5 * self.ncells + i]):
                ok = False
        return 0 if m == 0 else 1 if ok else -1

    cdef int _crowders(self, int *unit) noexcept nogil:
        """find_crowding on the loaded position: the first unit, in the ladder's order (regions,
        rows, columns), whose room some candidates' stars would take; its number goes to `unit`, the
        cells to buf[5 * ncells ...], and their count is returned (0: none)."""
        cdef int j, u, kind, need, idx, cell, f, size, ones, want, r, m, c, i
        cdef bint in_u
        cdef int n = self.n, nc = self.ncells
        cdef int *fcells = self.buf                  # the unit's free cells
        cdef int *rest = self.buf + nc               # scratch for the cells a star would leave
        cdef int *marked = self.buf + 5 * nc         # cells found to crowd the unit
        cdef int cr, cc, cg, fr, fc, fg
        for u in range(self.nunits):
            self.one[u] = 1 if self.k - self.ustars[u] == 1 else 0
        for j in range(self.nunits):
            u = j + 2 * n if j < n else j - n
            kind = u // n
            need = self.k - self.ustars[u]
            if need <= 0 or self.ucands[u] == 0:
                continue
            size = 0
            for idx in range(self.unit_start[u], self.unit_start[u + 1]):
                cell = self.unit_cells[idx]
                if self.cand[cell]:
                    fcells[size] = cell
                    size += 1
            if need >= 2:
                ones = 0
                for i in range(size):
                    f = fcells[i]
                    if (self.one[self.cell_units[f * 3]] or self.one[self.cell_units[f * 3 + 1]]
                            or self.one[self.cell_units[f * 3 + 2]]):
                        ones += 1
                if size - 9 - ones > 4 * (need - 2):
                    continue
            # only a star on a free cell, on a cell attacking one, or in a one-star unit of one can
            # take some of the unit's room; every other candidate leaves it whole
            memset(self.reach, 0, nc)
            memset(self.hit_units, 0, self.nunits)
            for i in range(size):
                f = fcells[i]
                self.reach[f] = 1
                for idx in range(self.attack_start[f], self.attack_start[f + 1]):
                    self.reach[self.attack_cells[idx]] = 1
                for idx in range(3):
                    if self.one[self.cell_units[f * 3 + idx]]:
                        self.hit_units[self.cell_units[f * 3 + idx]] = 1
            m = 0
            for c in range(nc):
                if not self.cand[c]:
                    continue
                if not (self.reach[c] or self.hit_units[self.cell_units[c * 3]]
                        or self.hit_units[self.cell_units[c * 3 + 1]] or self.hit_units[self.cell_units[c * 3 + 2]]):
                    continue
                in_u = self.cell_units[c * 3 + kind] == u
                if need == 1 and in_u:
                    continue
                want = need - 1 if in_u else need
                if want <= 0:
                    continue
                cr = self.cell_units[c * 3]
                cc = self.cell_units[c * 3 + 1]
                cg = self.cell_units[c * 3 + 2]
                r = 0
                for i in range(size):
                    f = fcells[i]
                    fr = self.cell_units[f * 3]
                    fc = self.cell_units[f * 3 + 1]
                    fg = self.cell_units[f * 3 + 2]
                    if (f == c or self.attacks[c * nc + f] or (fr == cr and self.one[cr])
                            or (fc == cc and self.one[cc]) or (fg == cg and self.one[cg])):
                        continue
                    rest[r] = f
                    r += 1
                if need == 1:
                    if r == 0:
                        marked[m] = c
                        m += 1
                elif r == size:
                    continue                         # takes none of the unit's room
                elif r < want or (r <= 4 * want - 4 and not self._fits(rest, r, want)):
                    marked[m] = c
                    m += 1
            if m:
                unit[0] = u
                return m
        return 0

    cdef bint _probe(self, int cell, int level, int budget) noexcept nogil:
        """True when a star on `cell` leads to a contradiction (see the .pxd for the rules used)."""
        cdef int used = 0, found
        if not self._load() or not self._place(cell):
            return True
        while True:
            if not self._closure():
                return True
            if self.nstars == self.n * self.k:
                return False
            if level < 2 or used >= budget:
                return False
            found = self._confinement()
            if found == 0:
                found = self._shared_neighbour()
            if found == 0:
                found = self._crowding()
            if found == 0:
                return False
            if found < 0:
                return True
            used += 1

    def crowding(self, bytes cand, bytes stars):
        """techniques.find_crowding on the position as given (nothing deduced first): (the unit, the
        cells a star on which would leave it no room, as a bitset), or None."""
        cdef int i, j, u = -1, m
        self._unpack(cand, self.cand)
        self._unpack(stars, self.star)
        memset(self.ucands, 0, self.nunits * sizeof(int))
        memset(self.ustars, 0, self.nunits * sizeof(int))
        for i in range(self.ncells):
            for j in range(3):
                self.ucands[self.cell_units[i * 3 + j]] += self.cand[i]
                self.ustars[self.cell_units[i * 3 + j]] += self.star[i]
        with nogil:
            m = self._crowders(&u)
        if m == 0:
            return None
        memset(self.touched, 0, self.ncells)
        for i in range(m):
            self.touched[self.buf[5 * self.ncells + i]] = 1
        cdef unsigned char *scratch = <unsigned char *> malloc(self.nbytes)
        if not scratch:
            raise MemoryError()
        try:
            return u, self._pack(self.touched, scratch)
        finally:
            free(scratch)

    def first_contradiction(self, bytes cand, bytes stars, cells, int level, int budget) -> int:
        """The index in `cells` of the first cell whose probe ends in a contradiction, or -1.

        `cand` and `stars` are the position's bitsets as little-endian bytes (int.to_bytes)."""
        cdef int i, cell, total, found = -1
        self._unpack(cand, self.base_cand)
        self._unpack(stars, self.base_star)
        total = len(cells)
        cdef int *order = <int *> malloc(max(total, 1) * sizeof(int))
        if not order:
            raise MemoryError()
        try:
            for i in range(total):
                cell = cells[i]
                if cell < 0 or cell >= self.ncells:
                    raise ValueError(f"cell {cell} is off the board")
                order[i] = cell
            with nogil:
                for i in range(total):
                    if self._probe(order[i], level, budget):
                        found = i
                        break
            return found
        finally:
            free(order)

    # -- the compiled finders: each step for step as its twin in techniques.py or blocks.py (sets of
    # cells are Python ints there, byte flags or 64-bit words here; parity tests compare the two)

    cdef void _unpack(self, bytes bits, unsigned char *out) except *:
        cdef const unsigned char *b = bits
        cdef int i
        if len(bits) != self.nbytes:
            raise ValueError(f"bitsets must be {self.nbytes} bytes")
        for i in range(self.ncells):
            out[i] = (b[i >> 3] >> (i & 7)) & 1

    cdef object _pack(self, const unsigned char *flags, unsigned char *scratch):
        cdef int i
        memset(scratch, 0, self.nbytes)
        for i in range(self.ncells):
            if flags[i]:
                scratch[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(scratch[:self.nbytes], "little")

    def ways(self, area, int m, needs, cand, bint first_only=False, int limit=0, long long budget=0,
             bint telling=False, int slack=5):
        """techniques._ways: every way to put `m` stars on the cells of `area`, as a list of (the
        stars, the candidates they rule out elsewhere); None past `limit` ways or `budget` partial
        placements (0: no limit); [] as soon as `telling` ways agree on nothing. A unit is checked
        for room at each complete way when it has at most `slack` spare candidates."""
        return self._run_ways(area, m, needs, cand, first_only, limit, budget, telling, True, slack)

    def agreement(self, area, int m, needs, cand, int limit=0, long long budget=0, int slack=5):
        """techniques._agreement: what the ways of `ways(..., telling=True)` agree on, without listing
        them: (how many, the cells every way stars, the cells of the area none uses, the cells outside
        it every way rules out), or None when there is no way, they agree on nothing, or past a limit."""
        return self._run_ways(area, m, needs, cand, False, limit, budget, True, False, slack)

    cdef object _run_ways(self, area, int m, needs, cand, bint first_only, int limit, long long budget,
                          bint telling, bint collect, int slack):
        cdef int nc = self.ncells, nu = self.nunits
        cdef int i, v
        cdef WaysRun w
        cdef list out = []
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        if m < 0:
            return [] if collect else None
        cdef int nw = self.nwords
        cdef unsigned char *flags = <unsigned char *> calloc(2 * nc + self.nbytes, 1)
        cdef int *ints = <int *> calloc(3 * nc + 3 * nu, sizeof(int))
        cdef uint64_t *words = <uint64_t *> calloc(7 * nw, sizeof(uint64_t))
        if not flags or not ints or not words:
            free(flags); free(ints); free(words)
            raise MemoryError()
        try:
            self._ways_point(&w, flags, ints, words)
            inside = flags + nc
            self._unpack(cand.to_bytes(self.nbytes, "little"), w.cand)
            self._unpack(area.to_bytes(self.nbytes, "little"), inside)
            for v in range(nu):
                w.needs[v] = needs[v]
            self._ways_start(&w, inside, slack)
            w.budget = budget
            w.limit = limit
            w.first_only = first_only
            w.telling = telling
            w.collect = collect
            self._extend(&w, 0, m, out)
            if collect:
                return None if w.too_many else [] if w.hopeless else out
            if w.too_many or w.hopeless or not w.found:
                return None
            for i in range(nw):
                w.wused[i] = w.warea[i] & ~w.wused[i]           # now: the area's cells no way uses
            return (w.found, self._pack_words(w.wevery, w.scratch), self._pack_words(w.wused, w.scratch),
                    self._pack_words(w.wruled, w.scratch))
        finally:
            free(flags)
            free(ints)
            free(words)

    cdef void _ways_point(self, WaysRun *w, unsigned char *flags, int *ints, uint64_t *words) noexcept nogil:
        """Lay a search's arrays over scratch: `flags` 2 * ncells + nbytes bytes (the candidates, an area,
        packing), `ints` 3 * ncells + 3 * nunits, `words` 7 * nwords."""
        cdef int nc = self.ncells, nu = self.nunits, nw = self.nwords
        w.cand = flags
        w.scratch = flags + 2 * nc
        w.wcand, w.wchosen, w.wremoved = words, words + nw, words + 2 * nw
        w.wevery, w.wused, w.wruled, w.warea = words + 3 * nw, words + 4 * nw, words + 5 * nw, words + 6 * nw
        w.cells, w.block, w.placed = ints, ints + nc, ints + 2 * nc
        w.got, w.needs, w.tight = ints + 3 * nc, ints + 3 * nc + nu, ints + 3 * nc + 2 * nu

    cdef void _ways_start(self, WaysRun *w, const unsigned char *inside, int slack) noexcept nogil:
        """Ready a search over the cells `inside` (w.cand and w.needs filled): its cells, the units short
        of room (at most `slack` spare candidates), the sets as words; every count reset, no limits."""
        cdef int nc = self.ncells, nu = self.nunits, nw = self.nwords
        cdef int i, j, v, room
        memset(w.wcand, 0, 7 * nw * sizeof(uint64_t))
        memset(w.block, 0, nc * sizeof(int))
        memset(w.got, 0, nu * sizeof(int))
        w.size = 0
        for i in range(nc):
            if inside[i]:
                w.cells[w.size] = i
                w.size += 1
        # only units with little room to spare can be emptied by a few stars
        w.ntight = 0
        for v in range(nu):
            if w.needs[v] > 0:
                room = 0
                for j in range(self.unit_start[v], self.unit_start[v + 1]):
                    room += w.cand[self.unit_cells[j]]
                if room - w.needs[v] <= slack:
                    w.tight[w.ntight] = v
                    w.ntight += 1
        w.area_n = w.size
        w.every_n = w.size
        w.used_n = 0
        w.ruled_n = 0
        for i in range(nc):
            if w.cand[i]:
                _set_bit(w.wcand, i)
            if inside[i]:
                _set_bit(w.warea, i)
                _set_bit(w.wevery, i)
            elif w.cand[i]:
                _set_bit(w.wruled, i)
                w.ruled_n += 1
        w.nplaced = 0
        w.tried = 0
        w.budget = 0
        w.limit = 0
        w.found = 0
        w.first_only = False
        w.telling = False
        w.too_many = False
        w.hopeless = False
        w.collect = False

    def first_way_crowders(self, area, group, needs, cand, near, stars, ruled, tight, long long budget,
                           int slack=5):
        """The loop of techniques.find_crowded_group (`group`: its units, `area`: their candidates,
        (`stars`, `ruled`): a way the group holds its stars, `tight`: the units short of room) and of
        find_pressured_footprint (`group` one unit, `stars` = -1: no way known): the cells of `near`
        on which a star, with the cells it rules out (itself, what it attacks, the rest of its units
        that need one star), leaves the group no way to hold its stars (a search past `budget` partial
        placements proves nothing); as a bitset."""
        cdef int nc = self.ncells, nu = self.nunits, nw = self.nwords
        cdef int i, j, v, c, cell, m, want, room
        cdef bint known_way = stars >= 0, stands
        cdef WaysRun w
        cdef unsigned char *in_area
        cdef unsigned char *base_cand
        cdef unsigned char *near_f
        cdef unsigned char *gone
        cdef unsigned char *way_stars
        cdef unsigned char *way_ruled
        cdef int *base_needs
        cdef int *units
        cdef int *tight_units
        cdef uint64_t *crowders
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        cdef int ngroup = len(group), ntight = len(tight)
        cdef unsigned char *flags = <unsigned char *> calloc(2 * nc + self.nbytes + 6 * nc, 1)
        cdef int *ints = <int *> calloc(3 * nc + 3 * nu + 2 * nu + ngroup + ntight + 1, sizeof(int))
        cdef uint64_t *words = <uint64_t *> calloc(7 * nw + 3 * nw, sizeof(uint64_t))
        if not flags or not ints or not words:
            free(flags); free(ints); free(words)
            raise MemoryError()
        try:
            self._ways_point(&w, flags, ints, words)
            in_area, base_cand, near_f, gone, way_stars, way_ruled = (
                flags + 2 * nc + self.nbytes, flags + 3 * nc + self.nbytes, flags + 4 * nc + self.nbytes,
                flags + 5 * nc + self.nbytes, flags + 6 * nc + self.nbytes, flags + 7 * nc + self.nbytes)
            base_needs = ints + 3 * nc + 3 * nu
            units = base_needs + 2 * nu
            tight_units = units + ngroup
            crowders = words + 7 * nw
            self._unpack(area.to_bytes(self.nbytes, "little"), in_area)
            self._unpack(cand.to_bytes(self.nbytes, "little"), base_cand)
            self._unpack(near.to_bytes(self.nbytes, "little"), near_f)
            if known_way:
                self._unpack(stars.to_bytes(self.nbytes, "little"), way_stars)
                self._unpack(ruled.to_bytes(self.nbytes, "little"), way_ruled)
            for v in range(nu):
                base_needs[v] = needs[v]
            for j in range(ngroup):
                units[j] = group[j]
                if not 0 <= units[j] < nu:
                    raise ValueError("units off the board")
            for j in range(ntight):
                tight_units[j] = tight[j]
                if not 0 <= tight_units[j] < nu:
                    raise ValueError("units off the board")
            for cell in range(nc):
                if not near_f[cell]:
                    continue
                self._taken(cell, base_needs, gone)
                if known_way:
                    # techniques._stands: the known way still stands with a star here
                    if way_stars[cell]:
                        continue
                    stands = not in_area[cell] and not way_ruled[cell]
                    if stands:
                        for i in range(nc):
                            if way_stars[i] and gone[i]:
                                stands = False
                                break
                    if stands:
                        for j in range(ntight):
                            v = tight_units[j]
                            want = base_needs[v]
                            room = 0
                            for i in range(self.unit_start[v], self.unit_start[v + 1]):
                                c = self.unit_cells[i]
                                if way_stars[c] or c == cell:
                                    want -= 1
                                elif base_cand[c] and not gone[c] and not way_ruled[c]:
                                    room += 1
                            if want > 0 and room < want:
                                stands = False
                                break
                    if stands:
                        continue
                # the ways left to the group with a star here
                for v in range(nu):
                    w.needs[v] = base_needs[v]
                for j in range(3):
                    w.needs[self.cell_units[cell * 3 + j]] -= 1
                m = 0
                for j in range(ngroup):
                    m += w.needs[units[j]]
                if m < 0:
                    _set_bit(crowders, cell)
                    continue
                for i in range(nc):
                    w.cand[i] = base_cand[i] and not gone[i]
                    gone[i] = in_area[i] and w.cand[i]          # now: the group's cells left
                self._ways_start(&w, gone, slack)
                w.first_only = True
                w.budget = budget
                self._extend(&w, 0, m, None)
                if not w.found and not w.too_many:
                    _set_bit(crowders, cell)
            return self._pack_words(crowders, w.scratch)
        finally:
            free(flags)
            free(ints)
            free(words)

    cdef object _pack_words(self, const uint64_t *words, unsigned char *scratch):
        cdef int i
        for i in range(self.nbytes):
            scratch[i] = (words[i >> 3] >> ((i & 7) * 8)) & 0xFF
        return int.from_bytes(scratch[:self.nbytes], "little")

    cdef int _extend(self, WaysRun *w, int start, int left, list out) except -1:
        cdef int i, j, a, cell, v, want, room, open_n, row, column, region
        cdef bint touched
        cdef uint64_t bits
        cdef int nc = self.ncells, nw = self.nwords
        w.tried += 1
        if w.budget and w.tried > w.budget:
            w.too_many = True
            return 0
        if left == 0:
            # ruled out: what the stars attack and the rest of the units they complete
            for i in range(nw):
                w.wremoved[i] = 0
            for j in range(w.nplaced):
                cell = w.placed[j]
                for i in range(nw):
                    w.wremoved[i] |= self.attack_bits[cell * nw + i]
                for a in range(3):
                    v = self.cell_units[cell * 3 + a]
                    if w.got[v] == w.needs[v]:
                        for i in range(nw):
                            w.wremoved[i] |= self.unit_bits[v * nw + i]
            for i in range(nw):
                w.wremoved[i] &= w.wcand[i] & ~w.wchosen[i]
            for j in range(w.ntight):
                v = w.tight[j]
                touched = False
                room = 0
                for i in range(nw):
                    bits = self.unit_bits[v * nw + i]
                    if bits & w.wremoved[i]:
                        touched = True
                    room += __builtin_popcountll(w.wcand[i] & bits & ~w.wremoved[i] & ~w.wchosen[i])
                want = w.needs[v] - w.got[v]
                if touched and want > 0 and room < want:
                    return 0
            if w.collect:
                out.append((self._pack_words(w.wchosen, w.scratch), self._pack_words(w.wremoved, w.scratch)))
            w.found += 1
            w.too_many = w.limit > 0 and w.found > w.limit
            if w.telling:
                w.every_n = 0
                w.used_n = 0
                w.ruled_n = 0
                for i in range(nw):
                    w.wevery[i] &= w.wchosen[i]
                    w.wused[i] |= w.wchosen[i]
                    w.wruled[i] &= w.wremoved[i]
                    w.every_n += __builtin_popcountll(w.wevery[i])
                    w.used_n += __builtin_popcountll(w.wused[i])
                    w.ruled_n += __builtin_popcountll(w.wruled[i])
                w.hopeless = w.every_n == 0 and w.used_n == w.area_n and w.ruled_n == 0
            return 0
        if (w.first_only and w.found) or w.too_many or w.hopeless:
            return 0
        open_n = 0
        for i in range(start, w.size):
            if w.block[w.cells[i]] == 0:
                open_n += 1
        if open_n < left:
            return 0
        for i in range(start, w.size - left + 1):
            cell = w.cells[i]
            if w.block[cell]:
                continue
            row = self.cell_units[cell * 3]
            column = self.cell_units[cell * 3 + 1]
            region = self.cell_units[cell * 3 + 2]
            if w.got[row] >= w.needs[row] or w.got[column] >= w.needs[column] or w.got[region] >= w.needs[region]:
                continue
            w.got[row] += 1
            w.got[column] += 1
            w.got[region] += 1
            w.placed[w.nplaced] = cell
            w.nplaced += 1
            _set_bit(w.wchosen, cell)
            for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                w.block[self.attack_cells[a]] += 1
            self._extend(w, i + 1, left - 1, out)
            for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                w.block[self.attack_cells[a]] -= 1
            _clear_bit(w.wchosen, cell)
            w.nplaced -= 1
            w.got[row] -= 1
            w.got[column] -= 1
            w.got[region] -= 1
            if w.too_many or w.hopeless:
                return 0
        return 0

    def pair_crowders(self, fu, fv, int u, int v, needs, cand, near, units):
        """techniques._pair_crowders: the cells of `near` on which a star (with the cells it rules
        out: itself, what it attacks, the rest of its units that need one star) leaves units `u` and
        `v` (their candidates `fu`, `fv`) no way to hold their stars together, every unit of `units`
        keeping room for what it needs; as a bitset. pressured_pair runs the same look on each pair;
        this one, given any cells to ask about, is what the parity test compares with Python."""
        cdef int nc = self.ncells, nu = self.nunits
        cdef int i, w
        cdef PairRun p
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        if not (0 <= u < nu and 0 <= v < nu):
            raise ValueError("units off the board")
        cdef int nunits = len(units)
        cdef unsigned char *flags = <unsigned char *> calloc(11 * nc + self.nbytes, 1)
        cdef int *ints = <int *> calloc(nc + 3 * nu + 2 * nunits + 1, sizeof(int))
        if not flags or not ints:
            free(flags); free(ints)
            raise MemoryError()
        try:
            self._pair_point(&p, flags, ints, nunits)
            in_u, in_v, base_cand, near_f, gone = flags, flags + nc, flags + 2 * nc, flags + 3 * nc, flags + 4 * nc
            crowders = flags + 10 * nc
            base_needs = ints + nc + 2 * nu
            given = ints + nc + 3 * nu              # `units` as given
            self._unpack(fu.to_bytes(self.nbytes, "little"), in_u)
            self._unpack(fv.to_bytes(self.nbytes, "little"), in_v)
            self._unpack(cand.to_bytes(self.nbytes, "little"), base_cand)
            self._unpack(near.to_bytes(self.nbytes, "little"), near_f)
            for w in range(nu):
                base_needs[w] = needs[w]
            for i in range(nunits):
                w = units[i]
                if w < 0 or w >= nu:
                    raise ValueError(f"unit {w} is off the board")
                given[i] = w
            with nogil:
                self._pair_loop(&p, in_u, in_v, base_cand, near_f, base_needs, given, nunits, u, v, gone, crowders)
            return self._pack(crowders, flags + 11 * nc)
        finally:
            free(flags)
            free(ints)

    cdef void _pair_point(self, PairRun *p, unsigned char *flags, int *ints, int ngiven) noexcept nogil:
        """Lay a pair search's arrays over scratch, after what its caller keeps there: `flags` holds
        the two units' cells, the candidates, the cells asked about and the cells a star takes (5 *
        ncells), then the run's own (5 * ncells); `ints` holds the run's counts (ncells + 2 * nunits),
        the needs, `ngiven` units to keep room in, and the run's share of them."""
        cdef int nc = self.ncells, nu = self.nunits
        p.in_a, p.in_b, p.excluded = flags + 5 * nc, flags + 6 * nc, flags + 7 * nc
        p.chosen, p.cand = flags + 8 * nc, flags + 9 * nc
        p.blocked, p.got, p.needs = ints, ints + nc, ints + nc + nu
        p.units = ints + nc + 3 * nu + ngiven

    cdef void _pair_loop(self, PairRun *p, const unsigned char *in_u, const unsigned char *in_v,
                         const unsigned char *base_cand, const unsigned char *near_f, const int *base_needs,
                         const int *given, int ngiven, int u, int v, unsigned char *gone,
                         unsigned char *crowders) noexcept nogil:
        """pair_crowders' look at each cell of `near_f` (a crowder byte per cell into `crowders`)."""
        cdef int nc = self.ncells, nu = self.nunits
        cdef int i, j, w, cell
        for cell in range(nc):
            crowders[cell] = 0
            if not near_f[cell]:
                continue
            self._taken(cell, base_needs, gone)
            p.count_a = 0
            p.count_b = 0
            for i in range(nc):
                p.in_a[i] = in_u[i] and not gone[i]
                p.in_b[i] = in_v[i] and not gone[i]
                p.cand[i] = base_cand[i] and not gone[i]
                p.count_a += p.in_a[i]
                p.count_b += p.in_b[i]
                p.blocked[i] = 0
                p.excluded[i] = 0
                p.chosen[i] = 0
            for w in range(nu):
                p.needs[w] = base_needs[w]
                p.got[w] = 0
            for j in range(3):
                p.needs[self.cell_units[cell * 3 + j]] -= 1
            p.nunits = 0
            for i in range(ngiven):
                if p.needs[given[i]] > 0:
                    p.units[p.nunits] = given[i]
                    p.nunits += 1
            crowders[cell] = not self._pair(p, p.needs[u], p.needs[v])

    def pressured_pair(self, needs, cand, pairs, tight):
        """techniques.find_pressured_pair's search: the first pair (u, v) of `pairs`, both needing
        stars and one of them cramped, with cells on which a star leaves them no way to hold their
        stars together (the units of `tight` other than u and v keeping room), as (u, v, the cells as
        a bitset); None when no pair has any."""
        cdef int nc = self.ncells, nu = self.nunits
        cdef int i, j, w, cell, u, v, count_u, count_v, ngiven
        cdef bint any_near, any_crowder
        cdef PairRun p
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        cdef int npairs = len(pairs), ntight = len(tight)
        cdef int *pair_units = <int *> malloc((2 * npairs + 1) * sizeof(int))
        cdef unsigned char *flags = <unsigned char *> calloc(12 * nc + nc * nc + self.nbytes, 1)
        cdef int *ints = <int *> calloc(nc + 3 * nu + 3 * ntight + 1, sizeof(int))
        if not flags or not ints or not pair_units:
            free(flags); free(ints); free(pair_units)
            raise MemoryError()
        try:
            self._pair_point(&p, flags, ints, ntight)
            in_u, in_v, base_cand, near_f, gone = flags, flags + nc, flags + 2 * nc, flags + 3 * nc, flags + 4 * nc
            crowders, near_u = flags + 10 * nc, flags + 11 * nc
            removed = flags + 12 * nc                   # per candidate: the cells its star takes
            base_needs = ints + nc + 2 * nu
            given = ints + nc + 3 * nu                  # the tight units other than u and v
            tight_units = given + 2 * ntight            # every tight unit
            self._unpack(cand.to_bytes(self.nbytes, "little"), base_cand)
            for w in range(nu):
                base_needs[w] = needs[w]
            for j in range(npairs):
                u, v = pairs[j]
                if not (0 <= u < nu and 0 <= v < nu):
                    raise ValueError("units off the board")
                pair_units[2 * j] = u
                pair_units[2 * j + 1] = v
            for j in range(ntight):
                tight_units[j] = tight[j]
                if not 0 <= tight_units[j] < nu:
                    raise ValueError("units off the board")
            for cell in range(nc):
                if base_cand[cell]:
                    self._taken(cell, base_needs, removed + cell * nc)
            for j in range(npairs):
                u = pair_units[2 * j]
                v = pair_units[2 * j + 1]
                if base_needs[u] <= 0 or base_needs[v] <= 0:
                    continue
                memset(in_u, 0, nc)
                memset(in_v, 0, nc)
                count_u = count_v = 0
                for i in range(self.unit_start[u], self.unit_start[u + 1]):
                    cell = self.unit_cells[i]
                    in_u[cell] = base_cand[cell]
                    count_u += in_u[cell]
                for i in range(self.unit_start[v], self.unit_start[v + 1]):
                    cell = self.unit_cells[i]
                    in_v[cell] = base_cand[cell]
                    count_v += in_v[cell]
                if count_u > 2 * base_needs[u] + 2 and count_v > 2 * base_needs[v] + 2:
                    continue                    # neither is cramped
                # near: the candidates whose star takes room from both (removal sets are symmetric)
                memset(near_u, 0, nc)
                memset(near_f, 0, nc)
                for cell in range(nc):
                    if in_u[cell]:
                        for i in range(nc):
                            near_u[i] |= removed[cell * nc + i]
                any_near = False
                for cell in range(nc):
                    if in_v[cell]:
                        for i in range(nc):
                            if near_u[i] and removed[cell * nc + i] and base_cand[i]:
                                near_f[i] = 1
                                any_near = True
                if not any_near:
                    continue
                ngiven = 0
                for j in range(ntight):
                    if tight_units[j] != u and tight_units[j] != v:
                        given[ngiven] = tight_units[j]
                        ngiven += 1
                with nogil:
                    self._pair_loop(&p, in_u, in_v, base_cand, near_f, base_needs, given, ngiven, u, v, gone,
                                    crowders)
                any_crowder = False
                for cell in range(nc):
                    any_crowder = any_crowder or crowders[cell]
                if any_crowder:
                    return u, v, self._pack(crowders, flags + 12 * nc + nc * nc)
            return None
        finally:
            free(flags)
            free(ints)
            free(pair_units)

    def counting_group(self, cand, needs, int ykind, int xkind, int size):
        """techniques._counting's search for one kind of group (unit kinds: 0 rows, 1 columns, 2
        regions): the first `size` units of `ykind` still needing stars (depth first, in order) whose
        candidates lie in units of `xkind` that need exactly as many stars as the group, where those
        units have candidates outside it; as (the group's units, the x units as a bitset of indices
        0..n-1, the cells to clear as a bitset, the group's need), or None."""
        cdef int nc = self.ncells, nu = self.nunits, n = self.n
        cdef int i, j, c, u, count, top
        cdef bint found
        cdef CountRun w
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        if not (0 <= ykind <= 2 and 0 <= xkind <= 2) or size < 1 or n > 64:
            raise ValueError("bad group search")
        cdef unsigned char *flags = <unsigned char *> calloc(2 * nc + n + self.nbytes, 1)
        cdef int *ints = <int *> calloc(nu + 3 * n + size + 2, sizeof(int))
        cdef unsigned long long *spans = <unsigned long long *> calloc(n, sizeof(unsigned long long))
        if not flags or not ints or not spans:
            free(flags); free(ints); free(spans)
            raise MemoryError()
        try:
            w.cand, w.elim, w.picked = flags, flags + nc, flags + 2 * nc
            w.needs, w.units, w.unit_need = ints, ints + nu, ints + nu + n
            w.room, w.chosen = ints + nu + 2 * n, ints + nu + 3 * n
            w.spans = spans
            w.ykind, w.xkind, w.size = ykind, xkind, size
            self._unpack(cand.to_bytes(self.nbytes, "little"), w.cand)
            for u in range(nu):
                w.needs[u] = needs[u]
            # the units of ykind still needing stars and with candidates, in order, and what they span
            w.count = 0
            for i in range(n):
                u = ykind * n + i
                if w.needs[u] <= 0:
                    continue
                count = 0
                spans[w.count] = 0
                for j in range(self.unit_start[u], self.unit_start[u + 1]):
                    c = self.unit_cells[j]
                    if w.cand[c]:
                        count += 1
                        spans[w.count] |= 1ULL << (self.cell_units[c * 3 + xkind] - xkind * n)
                if count:
                    w.units[w.count] = u
                    w.unit_need[w.count] = w.needs[u]
                    w.count += 1
            if w.count < size:
                return None
            # room[i]: the most that i more units can add to the group's need (for pruning)
            for i in range(w.count):
                w.room[i] = w.unit_need[i]
            for i in range(1, w.count):                 # sort descending (a few units)
                top = w.room[i]
                j = i - 1
                while j >= 0 and w.room[j] < top:
                    w.room[j + 1] = w.room[j]
                    j -= 1
                w.room[j + 1] = top
            count = 0
            for i in range(size + 1):
                top = w.room[i] if i < w.count else 0
                w.room[i] = count
                count += top
            with nogil:
                found = self._group(&w, 0, 0, 0, 0, 0)
            if not found:
                return None
            return (tuple(w.chosen[i] for i in range(size)), w.found_span,
                    self._pack(w.elim, flags + 2 * nc + n), w.found_need)
        finally:
            free(flags)
            free(ints)
            free(spans)

    cdef bint _group(self, CountRun *w, int start, int depth, unsigned long long span, int need_x,
                     int need_y) noexcept nogil:
        """techniques._group_dfs, step for step."""
        cdef int left = w.size - depth
        cdef int j, u, nd, nx, i, c, n = self.n
        cdef unsigned long long sp, new, s
        cdef bint any_elim
        for j in range(start, w.count - left + 1):
            u = w.units[j]
            nd = w.unit_need[j]
            sp = w.spans[j]
            new = sp & ~span
            nx = need_x
            i = 0
            while new:
                if new & 1ULL:
                    nx += w.needs[w.xkind * n + i]
                new >>= 1
                i += 1
            w.chosen[depth] = u
            w.picked[u - w.ykind * n] = 1
            if left == 1:
                # the last unit of the group: the needs must match exactly
                if nx == need_y + nd:
                    s = span | sp
                    any_elim = False
                    for c in range(self.ncells):
                        w.elim[c] = (w.cand[c] and (s >> (self.cell_units[c * 3 + w.xkind] - w.xkind * n)) & 1ULL
                                     and not w.picked[self.cell_units[c * 3 + w.ykind] - w.ykind * n])
                        any_elim = any_elim or w.elim[c]
                    if any_elim:
                        w.found_span = s
                        w.found_need = need_y + nd
                        return True
                w.picked[u - w.ykind * n] = 0
                continue
            if nx <= need_y + nd + w.room[left - 1]:
                if self._group(w, j + 1, depth + 1, span | sp, nx, need_y + nd):
                    return True
            w.picked[u - w.ykind * n] = 0
        return False

    def pressured_crowders(self, cells, int m, needs, cand):
        """blocks.find_pressured's look at one area: the candidates (of `cand`) on which a star, with
        the cells it rules out (itself, what it attacks, the rest of its units that need one star),
        leaves the area's cells `cells`, which must hold `m` more stars, too few of them or a cover by
        fewer than the stars still wanted of 2x2 blocks; as a bitset."""
        cdef int nc = self.ncells, nu = self.nunits
        cdef int i, j, a, w, cell, f, want, size, rest_n
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        cdef unsigned char *flags = <unsigned char *> calloc(6 * nc + self.nbytes, 1)
        cdef int *base_needs = <int *> calloc(nu, sizeof(int))
        if not flags or not base_needs:
            free(flags); free(base_needs)
            raise MemoryError()
        try:
            inside, base_cand, gone, rest, near, crowders = (flags, flags + nc, flags + 2 * nc, flags + 3 * nc,
                                                           flags + 4 * nc, flags + 5 * nc)
            self._unpack(cells.to_bytes(self.nbytes, "little"), inside)
            self._unpack(cand.to_bytes(self.nbytes, "little"), base_cand)
            for w in range(nu):
                base_needs[w] = needs[w]
            with nogil:
                # near: the candidates whose star takes some of the area's cells (the relation is
                # symmetric: a star on f takes c exactly when a star on c takes f)
                for f in range(nc):
                    if inside[f]:
                        self._taken(f, base_needs, gone)
                        for i in range(nc):
                            if gone[i] and base_cand[i]:
                                near[i] = 1
                for cell in range(nc):
                    if not near[cell]:
                        continue
                    want = m - 1 if inside[cell] else m
                    if want <= 0:
                        continue
                    self._taken(cell, base_needs, gone)
                    rest_n = 0
                    for i in range(nc):
                        rest[i] = inside[i] and not gone[i]
                        rest_n += rest[i]
                    crowders[cell] = rest_n < want or self._covered(rest, rest_n, want - 1)
            return self._pack(crowders, flags + 6 * nc)
        finally:
            free(flags)
            free(base_needs)

    def differential(self, cand, needs, sizes, int parts):
        """blocks.find_differential's search without its sentences: whether some window of `sizes`
        adjacent lines, against the regions inside it and up to `parts` of those only partly inside,
        gives a step. Only the answer is used: the Python finder runs (and words the first argument)
        when it is True, and is skipped when it is False."""
        cdef int nc = self.ncells, nu = self.nunits, n = self.n, nw = self.nwords
        cdef int k, u, r, i, count, j, need_w, need_g, diff, m, npartial, ninside, side
        cdef int more_n, fewer_n
        cdef bint any_cand, touching, outside
        cdef int *need
        cdef int *inside
        cdef int *partial
        cdef int *pick
        cdef uint64_t *wcand
        cdef uint64_t *window
        cdef uint64_t *group
        cdef uint64_t *w_only
        cdef uint64_t *g_only
        cdef uint64_t *more
        cdef uint64_t *region
        cdef bytes data
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        cdef int *ints = <int *> calloc(nu + 3 * n + 4, sizeof(int))
        cdef uint64_t *words = <uint64_t *> calloc((n + 6) * nw, sizeof(uint64_t))
        cdef int *windows = <int *> malloc((4 * n * len(sizes) + 1) * sizeof(int))
        if not ints or not words or not windows:
            free(ints); free(words); free(windows)
            raise MemoryError()
        try:
            need, inside, partial, pick = ints, ints + nu, ints + nu + n, ints + nu + 2 * n
            wcand, window, group, w_only, g_only, more = (words, words + nw, words + 2 * nw, words + 3 * nw,
                                                          words + 4 * nw, words + 5 * nw)
            region = words + 6 * nw          # each region's candidates
            for u in range(nu):
                need[u] = needs[u]
            data = cand.to_bytes(8 * nw, "little")
            memcpy(wcand, <const char *> data, 8 * nw)
            self._region_words(wcand, region)
            for k in range(self._windows(sizes, windows)):
                any_cand = self._window_words(windows[2 * k], windows[2 * k + 1], need, wcand, window, &need_w)
                if need_w <= 0 or not any_cand:
                    continue
                ninside = npartial = 0
                for r in range(n):
                    touching = outside = False
                    for i in range(nw):
                        touching = touching or (region[r * nw + i] & window[i]) != 0
                        outside = outside or (region[r * nw + i] & ~window[i]) != 0
                    if touching:
                        if outside:
                            partial[npartial] = r
                            npartial += 1
                        else:
                            inside[ninside] = r
                            ninside += 1
                for count in range(1, min(parts, npartial - 1) + 1):
                    # every `count` of the partial regions (pick: their indexes, ascending)
                    for j in range(count):
                        pick[j] = j
                    while True:
                        memset(group, 0, nw * sizeof(uint64_t))
                        need_g = 0
                        for j in range(ninside + count):
                            r = inside[j] if j < ninside else partial[pick[j - ninside]]
                            for i in range(nw):
                                group[i] |= region[r * nw + i]
                            need_g += need[2 * n + r]
                        diff = need_w - need_g
                        for i in range(nw):
                            w_only[i] = wcand[i] & window[i] & ~group[i]
                            g_only[i] = group[i] & ~window[i]
                        for side in range(2):
                            m = diff if side == 0 else -diff
                            more_n = fewer_n = 0
                            for i in range(nw):
                                more[i] = w_only[i] if side == 0 else g_only[i]
                                more_n += __builtin_popcountll(more[i])
                                fewer_n += __builtin_popcountll(g_only[i] if side == 0 else w_only[i])
                            if m < 0 or fewer_n == 0 or more_n > 4 * m:
                                continue
                            if m == 0:
                                if more_n == 0:
                                    return True
                                continue
                            if self._cover_into(more, more_n, m, self.cover_anchors) >= 0:
                                return True
                        # the next combination in lexicographic order
                        j = count - 1
                        while j >= 0 and pick[j] == npartial - count + j:
                            j -= 1
                        if j < 0:
                            break
                        pick[j] += 1
                        for i in range(j + 1, count):
                            pick[i] = pick[i - 1] + 1
            return False
        finally:
            free(ints)
            free(words)
            free(windows)

    def blocks_give(self, cand, needs, str what, sizes=()):
        """Whether a block argument of blocks.py finds a step, without its sentences (the Python
        finder then finds and words the first one): `what` is "bound" (find_2x2_bound: a unit needing
        2 or more stars), "squeeze" (two adjacent lines), or "remainder" / "excess" (find_window over
        windows of `sizes` adjacent lines, as area_deductions reads them)."""
        cdef int nc = self.ncells, nu = self.nunits, n = self.n, nw = self.nwords
        cdef int k, u, r, i, base, start, need, inner, m, count, ninside, ntouching, cell
        cdef bint excess, any_cand, gives, is_touching, is_inside
        cdef BlockRun b
        cdef bytes data
        if what not in ("bound", "squeeze", "remainder", "excess"):
            raise ValueError(f"unknown block argument {what!r}")
        if len(needs) != nu:
            raise ValueError(f"needs must list {nu} units")
        cdef int *ints = <int *> calloc(nu + nc + 2 * n, sizeof(int))
        cdef uint64_t *words = <uint64_t *> calloc((2 * nc + 8 + 1 + n + 3) * nw, sizeof(uint64_t))
        cdef int *windows = <int *> malloc((4 * n * len(sizes) + 1) * sizeof(int))
        if not ints or not words or not windows:
            free(ints); free(words); free(windows)
            raise MemoryError()
        cdef int *need_of = ints
        cdef int *inside = ints + nu + nc
        cdef int *touching = ints + nu + nc + n
        b.anchors = ints + nu                   # a cover has at most one block per cell
        b.parts = words
        b.blocks = words + nc * nw
        b.work = words + 2 * nc * nw
        cdef uint64_t *wcand = b.work + 8 * nw
        cdef uint64_t *region = wcand + nw
        cdef uint64_t *window = region + n * nw
        cdef uint64_t *cells = window + nw
        cdef uint64_t *common = cells + nw
        try:
            for u in range(nu):
                need_of[u] = needs[u]
            data = cand.to_bytes(8 * nw, "little")
            memcpy(wcand, <const char *> data, 8 * nw)
            if what == "bound":
                for u in range(nu):
                    if need_of[u] >= 2:
                        for i in range(nw):
                            cells[i] = wcand[i] & self.unit_bits[u * nw + i]
                        if self._block_gives(cells, need_of[u], need_of, wcand, &b):
                            return True
                return False
            if what == "squeeze":
                for base in (0, n):
                    for start in range(n - 1):
                        u = base + start
                        if need_of[u] <= 0 or need_of[u + 1] <= 0:
                            continue
                        for i in range(nw):
                            cells[i] = wcand[i] & (self.unit_bits[u * nw + i] | self.unit_bits[(u + 1) * nw + i])
                        if self._block_gives(cells, need_of[u] + need_of[u + 1], need_of, wcand, &b):
                            return True
                return False
            excess = what == "excess"
            self._region_words(wcand, region)
            for k in range(self._windows(sizes, windows)):
                any_cand = self._window_words(windows[2 * k], windows[2 * k + 1], need_of, wcand, window, &need)
                if need < 0 or not any_cand:
                    continue
                ninside = ntouching = 0
                for r in range(n):
                    is_touching = False
                    is_inside = True
                    for i in range(nw):
                        is_touching = is_touching or (region[r * nw + i] & window[i]) != 0
                        is_inside = is_inside and (region[r * nw + i] & ~window[i]) == 0
                    if is_touching:
                        touching[ntouching] = r
                        ntouching += 1
                        if is_inside:
                            inside[ninside] = r
                            ninside += 1
                # the area (_window_areas) and its need m
                if not excess:
                    if not ninside:
                        continue
                    inner = 0
                    for i in range(nw):
                        cells[i] = wcand[i] & window[i]
                    for r in range(ninside):
                        for i in range(nw):
                            cells[i] &= ~region[inside[r] * nw + i]
                        inner += need_of[2 * n + inside[r]]
                    m = need - inner
                else:
                    memset(cells, 0, nw * sizeof(uint64_t))
                    inner = 0
                    for r in range(ntouching):
                        for i in range(nw):
                            cells[i] |= region[touching[r] * nw + i]
                        inner += need_of[2 * n + touching[r]]
                    for i in range(nw):
                        cells[i] &= ~window[i]
                    m = inner - need
                count = 0
                for i in range(nw):
                    count += __builtin_popcountll(cells[i])
                if not count or m < 0:
                    continue
                # what it shows (area_deductions)
                if m == 0:
                    return True
                if m == 1:
                    gives = False
                    for i in range(nw):
                        common[i] = wcand[i] & ~cells[i]
                    for cell in range(nc):
                        if (cells[cell >> 6] >> (cell & 63)) & 1:
                            for i in range(nw):
                                common[i] &= self.attack_bits[cell * nw + i]
                    for i in range(nw):
                        gives = gives or common[i] != 0
                    if gives:
                        return True
                if self._block_gives(cells, m, need_of, wcand, &b):
                    return True
            return False
        finally:
            free(ints)
            free(words)
            free(windows)

    cdef int _windows(self, sizes, int *windows) except -1:
        """The windows of `sizes` adjacent lines a finder looks at, in its order (rows, then columns,
        for each size; sizes from 4 up stop past n / 2, as blocks.py's finders do): (first unit,
        lines) pairs into `windows` (room for 4 * n * len(sizes) ints); how many."""
        cdef int n = self.n, count = 0, size, base, start
        for size in sizes:
            if size >= 4 and size > n // 2:
                break
            for base in (0, n):
                for start in range(n - size + 1):
                    windows[2 * count] = base + start
                    windows[2 * count + 1] = size
                    count += 1
        return count

    cdef void _region_words(self, const uint64_t *wcand, uint64_t *region) noexcept nogil:
        """Each region's candidates as words (region r at region + r * nwords)."""
        cdef int r, i, n = self.n, nw = self.nwords
        for r in range(n):
            for i in range(nw):
                region[r * nw + i] = wcand[i] & self.unit_bits[(2 * n + r) * nw + i]

    cdef bint _window_words(self, int first, int size, const int *needs, const uint64_t *wcand,
                            uint64_t *window, int *need) noexcept nogil:
        """The window of `size` adjacent lines from unit `first` as words, and (into `need`) the stars
        its lines still need; whether it holds a candidate."""
        cdef int u, i, nw = self.nwords
        cdef bint any_cand = False
        memset(window, 0, nw * sizeof(uint64_t))
        need[0] = 0
        for u in range(first, first + size):
            for i in range(nw):
                window[i] |= self.unit_bits[u * nw + i]
            need[0] += needs[u]
        for i in range(nw):
            any_cand = any_cand or (wcand[i] & window[i]) != 0
        return any_cand

    cdef int _cover_into(self, uint64_t *mask, int size, int m, int *anchors) noexcept nogil:
        """blocks._cover_search on a set of cells as words: how many 2x2 blocks (at most m; their top-left
        cells go to `anchors` in the order found) cover `mask`, or -1. `mask` is left as it was."""
        cdef int x = 0, r, c, ar, cc, a, i, taken, found, cell
        cdef int took[4]
        cdef int corner[4]
        if size == 0:
            return 0
        if m == 0 or size > 4 * m:
            return -1
        while not mask[x >> 6]:
            x += 64
        x += __builtin_ctzll(mask[x >> 6])
        r = x // self.n
        c = x % self.n
        ar = r if r < self.n - 1 else r - 1
        for cc in range(c - 1, c + 1):
            if cc < 0 or cc > self.n - 2:
                continue
            a = ar * self.n + cc
            corner[0] = a
            corner[1] = a + 1
            corner[2] = a + self.n
            corner[3] = a + self.n + 1
            taken = 0
            for i in range(4):
                cell = corner[i]
                if (mask[cell >> 6] >> (cell & 63)) & 1:
                    _clear_bit(mask, cell)
                    took[taken] = cell
                    taken += 1
            found = self._cover_into(mask, size - taken, m - 1, anchors + 1)
            for i in range(taken):
                _set_bit(mask, took[i])
            if found >= 0:
                anchors[0] = a
                return found + 1
        return -1

    cdef bint _block_gives(self, const uint64_t *free_cells, int need, const int *needs, const uint64_t *cand,
                           BlockRun *b) noexcept nogil:
        """Whether blocks._block_deductions finds something: the candidates `free_cells`, which must hold
        `need` more stars, covered by `need` 2x2 blocks, place or rule out some cell."""
        cdef int nw = self.nwords, n = self.n
        cdef int i, j, nb, size = 0, cell, count, u
        cdef bint whole, empty, found
        cdef uint64_t *seen = b.work
        cdef uint64_t *overlap = b.work + nw
        cdef uint64_t *place = b.work + 2 * nw
        cdef uint64_t *elim = b.work + 3 * nw
        cdef uint64_t *common = b.work + 4 * nw
        cdef uint64_t *union_parts = b.work + 5 * nw
        cdef uint64_t *mask = b.work + 6 * nw
        cdef uint64_t *inside = b.work + 7 * nw
        cdef uint64_t *block
        cdef uint64_t *part
        for i in range(nw):
            mask[i] = free_cells[i]
            size += __builtin_popcountll(mask[i])
        nb = self._cover_into(mask, size, need, b.anchors)
        if nb < 0 or nb < need:
            return False
        memset(b.work, 0, 8 * nw * sizeof(uint64_t))
        for j in range(nb):
            block = b.blocks + j * nw
            memset(block, 0, nw * sizeof(uint64_t))
            _set_bit(block, b.anchors[j])
            _set_bit(block, b.anchors[j] + 1)
            _set_bit(block, b.anchors[j] + n)
            _set_bit(block, b.anchors[j] + n + 1)
            for i in range(nw):
                overlap[i] |= seen[i] & block[i] & free_cells[i]
                seen[i] |= block[i] & free_cells[i]
        for j in range(nb):
            block, part = b.blocks + j * nw, b.parts + j * nw
            empty = True
            for i in range(nw):
                part[i] = block[i] & free_cells[i] & ~overlap[i]
                empty = empty and part[i] == 0
            if empty:
                return False
        for i in range(nw):
            elim[i] = overlap[i] & cand[i]
        for j in range(nb):
            block, part = b.blocks + j * nw, b.parts + j * nw
            count = 0
            for i in range(nw):
                elim[i] |= block[i] & cand[i] & ~part[i]
                count += __builtin_popcountll(part[i])
                common[i] = cand[i]
                union_parts[i] |= part[i]
            if count == 1:
                for i in range(nw):
                    place[i] |= part[i]
            for cell in range(self.ncells):
                if (part[cell >> 6] >> (cell & 63)) & 1:
                    for i in range(nw):
                        common[i] &= self.attack_bits[cell * nw + i]
            for i in range(nw):
                elim[i] |= common[i]
        # units holding whole parts get a star from each: when that is all they need, the rest is empty
        for u in range(self.nunits):
            if needs[u] <= 0:
                continue
            found = False
            for i in range(nw):
                found = found or (self.unit_bits[u * nw + i] & union_parts[i]) != 0
            if not found:
                continue
            count = 0
            memset(inside, 0, nw * sizeof(uint64_t))
            for j in range(nb):
                part = b.parts + j * nw
                whole = True
                for i in range(nw):
                    whole = whole and (part[i] & ~self.unit_bits[u * nw + i]) == 0
                if whole:
                    count += 1
                    for i in range(nw):
                        inside[i] |= part[i]
            if count and count == needs[u]:
                for i in range(nw):
                    elim[i] |= cand[i] & self.unit_bits[u * nw + i] & ~inside[i]
        found = False
        for i in range(nw):
            found = found or (place[i] | (elim[i] & ~place[i])) != 0
        return found

    cdef void _taken(self, int cell, const int *needs, unsigned char *gone) noexcept nogil:
        """The cells a star on `cell` takes: itself, the cells it attacks, the rest of its units that
        need one star (state.removal_sets)."""
        cdef int i, j, w
        memset(gone, 0, self.ncells)
        gone[cell] = 1
        for i in range(self.attack_start[cell], self.attack_start[cell + 1]):
            gone[self.attack_cells[i]] = 1
        for j in range(3):
            w = self.cell_units[cell * 3 + j]
            if needs[w] == 1:
                for i in range(self.unit_start[w], self.unit_start[w + 1]):
                    gone[self.unit_cells[i]] = 1

    cdef bint _covered(self, unsigned char *cells, int size, int m) noexcept nogil:
        """Whether at most m 2x2 blocks cover `cells` (byte flags; blocks._cover): _cover_into on
        their words."""
        cdef int i
        memset(self.cover_words, 0, self.nwords * sizeof(uint64_t))
        for i in range(self.ncells):
            if cells[i]:
                _set_bit(self.cover_words, i)
        return self._cover_into(self.cover_words, size, m, self.cover_anchors) >= 0

    cdef void _rule_out(self, PairRun *p, int cell, int delta) noexcept nogil:
        """Count in (delta 1) or out (delta -1) what a star on `cell` rules out: itself, the cells it
        attacks and the rest of every unit it completes (`got` already counts the star)."""
        cdef int j, i, v, other
        cdef int last = self.attack_start[cell + 1] - self.attack_start[cell]
        # index -1 is the cell itself, then its attack list, then the completed units' cells
        for i in range(-1, last):
            other = cell if i < 0 else self.attack_cells[self.attack_start[cell] + i]
            self._count_out(p, other, delta)
        for j in range(3):
            v = self.cell_units[cell * 3 + j]
            if p.got[v] >= p.needs[v]:
                for i in range(self.unit_start[v], self.unit_start[v + 1]):
                    self._count_out(p, self.unit_cells[i], delta)

    cdef inline void _count_out(self, PairRun *p, int cell, int delta) noexcept nogil:
        if delta > 0:
            if p.blocked[cell] == 0 and not p.excluded[cell]:
                p.count_a -= p.in_a[cell]
                p.count_b -= p.in_b[cell]
            p.blocked[cell] += 1
        else:
            p.blocked[cell] -= 1
            if p.blocked[cell] == 0 and not p.excluded[cell]:
                p.count_a += p.in_a[cell]
                p.count_b += p.in_b[cell]

    cdef bint _pair(self, PairRun *p, int wa, int wb) noexcept nogil:
        cdef int i, j, v, want, room, x, cell
        cdef bint result
        if wa < 0 or wb < 0:
            return False
        if wa == 0 and wb == 0:
            for j in range(p.nunits):
                v = p.units[j]
                want = p.needs[v] - p.got[v]
                if want > 0:
                    room = 0
                    for i in range(self.unit_start[v], self.unit_start[v + 1]):
                        cell = self.unit_cells[i]
                        if p.cand[cell] and p.blocked[cell] == 0 and not p.chosen[cell]:
                            room += 1
                    if room < want:
                        return False
            return True
        if p.count_a < wa or p.count_b < wb:
            return False
        # branch on the lowest open cell of a (of b once a has what it needs)
        x = -1
        for i in range(self.ncells):
            if p.blocked[i] == 0 and not p.excluded[i] and (p.in_a[i] if wa else p.in_b[i]):
                x = i
                break
        # a star on x ...
        p.chosen[x] = 1
        for j in range(3):
            p.got[self.cell_units[x * 3 + j]] += 1
        result = self._pair_with(p, x, wa - p.in_a[x], wb - p.in_b[x])
        for j in range(3):
            p.got[self.cell_units[x * 3 + j]] -= 1
        p.chosen[x] = 0
        if result:
            return True
        # ... or none
        p.excluded[x] = 1
        p.count_a -= p.in_a[x]
        p.count_b -= p.in_b[x]
        result = self._pair(p, wa, wb)
        p.excluded[x] = 0
        p.count_a += p.in_a[x]
        p.count_b += p.in_b[x]
        return result

    cdef bint _pair_with(self, PairRun *p, int x, int wa, int wb) noexcept nogil:
        cdef bint result
        self._rule_out(p, x, 1)
        result = self._pair(p, wa, wb)
        self._rule_out(p, x, -1)
        return result
