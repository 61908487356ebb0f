# The compiled probe of the Star Battle ladder (see _techniques.pxd for what it answers and why it is
# only a filter). Every rule here mirrors a finder of techniques.py, in the same order, so that the
# position a probe reaches is the one the Python probe reaches; the parity test holds them together.
# The basic rules are the compiled search's (a Prober is a Search that loads a position).

from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy

from engine.games.starbattle._search cimport Search


cdef class Prober(Search):
    """Probes for one board. `regions` is a flat list of n*n region numbers 0..n-1 (checked by Search,
    whose __cinit__ runs first with the same arguments)."""

    def __cinit__(self, int n, int k, bint diagonals, regions):
        cdef int cell, a
        self.nbytes = (self.ncells + 7) // 8
        self.attacks = <unsigned char *> malloc(self.ncells * self.ncells)
        self.base_cand = <unsigned char *> malloc(self.ncells)
        self.base_star = <unsigned char *> malloc(self.ncells)
        self.count = <int *> malloc(max(self.ncells, self.nunits) * sizeof(int))
        self.buf = <int *> malloc(6 * self.ncells * sizeof(int))
        self.touched = <unsigned char *> malloc(self.ncells + n)
        self.one = <unsigned char *> malloc(self.nunits)
        if (not self.attacks or not self.base_cand or not self.base_star or not self.count or not self.buf
                or not self.touched or not self.one):
            raise MemoryError()
        memset(self.attacks, 0, self.ncells * self.ncells)
        for cell in range(self.ncells):
            for a in range(self.attack_start[cell], self.attack_start[cell + 1]):
                self.attacks[cell * self.ncells + self.attack_cells[a]] = 1

    def __dealloc__(self):
        free(self.attacks); free(self.base_cand); free(self.base_star); free(self.count); free(self.buf)
        free(self.touched); free(self.one)

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
        cdef int j, u, kind, need, idx, cell, f, size, ones, want, r, m, c, i
        cdef bint all_removed, in_u, ok
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
            m = 0
            for c in range(nc):
                if not self.cand[c]:
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
                elif r < want or (r <= 4 * want - 4 and not self._fits(rest, r, want)):
                    marked[m] = c
                    m += 1
            if m:
                ok = True
                for i in range(m):
                    if not self._eliminate(marked[i]):
                        ok = False
                return 1 if ok else -1
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

    def first_contradiction(self, bytes cand, bytes stars, cells, int level, int budget) -> int:
        """The index in `cells` of the first cell whose probe ends in a contradiction, or -1.

        `cand` and `stars` are the position's bitsets as little-endian bytes (int.to_bytes)."""
        cdef int i, cell, total, found = -1
        cdef const unsigned char *cb = cand
        cdef const unsigned char *sb = stars
        if len(cand) != self.nbytes or len(stars) != self.nbytes:
            raise ValueError(f"positions must be {self.nbytes} bytes")
        for i in range(self.ncells):
            self.base_cand[i] = (cb[i >> 3] >> (i & 7)) & 1
            self.base_star[i] = (sb[i >> 3] >> (i & 7)) & 1
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
