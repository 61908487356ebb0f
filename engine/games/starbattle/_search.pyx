# Compiled Star Battle search (see _search.pxd for the state it keeps).
#
# One depth-first search serves two jobs: counting solutions up to a limit (with the alternatives it
# found, which the repair step needs), and drawing a random answer (the same search with random
# branching and the region rule switched off by passing regions = rows). Branching is binary: pick
# the unit with the least slack (candidates minus stars still needed), take one of its candidates,
# and try "star here" then "no star here". Bounds and wraparound checks are set in setup.py.

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint64_t

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from engine.core._clock cimport now, splitmix

def monotonic() -> float:
    """The clock the deadlines are measured on (same as time.monotonic())."""
    return now()



cdef class Search:
    """A solver for one board. `regions` is a flat list of n*n region numbers 0..n-1."""

    def __cinit__(self, int n, int k, bint diagonals, regions):
        cdef int r, c, dr, dc, i, cell, count, rr, cc
        self.n = n
        self.k = k
        self.diagonals = diagonals
        self.ncells = n * n
        self.nunits = 3 * n
        self.cell_units = <int *> malloc(self.ncells * 3 * sizeof(int))
        self.unit_start = <int *> malloc((self.nunits + 1) * sizeof(int))
        self.unit_cells = <int *> malloc(self.ncells * 3 * sizeof(int))
        self.attack_start = <int *> malloc((self.ncells + 1) * sizeof(int))
        self.attack_cells = <int *> malloc(self.ncells * (8 + 4 * n) * sizeof(int))
        self.cand = <unsigned char *> malloc(self.ncells)
        self.star = <unsigned char *> malloc(self.ncells)
        self.ucands = <int *> malloc(self.nunits * sizeof(int))
        self.ustars = <int *> malloc(self.nunits * sizeof(int))
        self.trail = <int *> malloc((self.ncells + 1) * sizeof(int))
        self.queue = <int *> malloc((self.nunits + 1) * sizeof(int))
        self.queued = <unsigned char *> malloc(self.nunits)
        self.solutions = NULL
        if (not self.cell_units or not self.unit_start or not self.unit_cells or not self.attack_start
                or not self.attack_cells or not self.cand or not self.star or not self.ucands
                or not self.ustars or not self.trail or not self.queue or not self.queued):
            raise MemoryError()
        # Attack lists: the 8 neighbours, plus both full diagonals for the classic rule.
        count = 0
        for r in range(n):
            for c in range(n):
                cell = r * n + c
                self.attack_start[cell] = count
                for dr in range(-1, 2):
                    for dc in range(-1, 2):
                        rr = r + dr
                        cc = c + dc
                        if (dr or dc) and 0 <= rr < n and 0 <= cc < n:
                            self.attack_cells[count] = rr * n + cc
                            count += 1
                if diagonals:
                    for i in range(2, n):
                        for dr, dc in ((i, i), (i, -i), (-i, i), (-i, -i)):
                            rr = r + dr
                            cc = c + dc
                            if 0 <= rr < n and 0 <= cc < n:
                                self.attack_cells[count] = rr * n + cc
                                count += 1
        self.attack_start[self.ncells] = count
        self.set_regions(regions)

    def __dealloc__(self):
        free(self.cell_units); free(self.unit_start); free(self.unit_cells)
        free(self.attack_start); free(self.attack_cells); free(self.cand); free(self.star)
        free(self.ucands); free(self.ustars); free(self.trail); free(self.queue); free(self.queued)
        free(self.solutions)

    def set_regions(self, regions) -> None:
        """Replace the region map (the repair loop edits regions between counts)."""
        cdef int i, label, used = 0
        if len(regions) != self.ncells:
            raise ValueError("regions must list n*n cells")
        cdef int *buf = <int *> malloc((self.ncells + self.n) * sizeof(int))
        if not buf:
            raise MemoryError()
        cdef int *seen = buf + self.ncells        # per region number: whether a cell has it
        try:
            memset(seen, 0, self.n * sizeof(int))
            for i in range(self.ncells):
                label = regions[i]
                if label < 0 or label >= self.n:
                    raise ValueError("region numbers must be 0..n-1")
                buf[i] = label
                if not seen[label]:
                    seen[label] = 1
                    used += 1
            if used != self.n:
                raise ValueError("every region number 0..n-1 must be used")
            self._set_regions(buf)
        finally:
            free(buf)

    cdef void _set_regions(self, const int *regions) noexcept nogil:
        cdef int n = self.n, cell, u, pos
        cdef int *fill = self.ucands  # scratch: next free slot per unit
        memset(self.ustars, 0, self.nunits * sizeof(int))
        for cell in range(self.ncells):
            self.cell_units[cell * 3] = cell // n
            self.cell_units[cell * 3 + 1] = n + cell % n
            self.cell_units[cell * 3 + 2] = 2 * n + regions[cell]
            self.ustars[2 * n + regions[cell]] += 1
        pos = 0
        for u in range(self.nunits):
            self.unit_start[u] = pos
            fill[u] = pos
            pos += n if u < 2 * n else self.ustars[u]
        self.unit_start[self.nunits] = pos
        for cell in range(self.ncells):
            for pos in range(3):
                u = self.cell_units[cell * 3 + pos]
                self.unit_cells[fill[u]] = cell
                fill[u] += 1
        self._reset()

    cdef void _reset(self) noexcept nogil:
        cdef int u
        memset(self.cand, 1, self.ncells)
        memset(self.star, 0, self.ncells)
        memset(self.ustars, 0, self.nunits * sizeof(int))
        memset(self.queued, 0, self.nunits)
        for u in range(self.nunits):
            self.ucands[u] = self.unit_start[u + 1] - self.unit_start[u]
        self.nstars = 0
        self.trail_len = 0
        self.qhead = 0
        self.qtail = 0

    # The basic rules are module functions below, called directly in the search's own loop (a cdef
    # method is called through the class's table of methods, which the C compiler cannot inline);
    # these methods are the same rules for the Prober of _techniques.pyx, a subclass.
    cdef void _enqueue(self, int u) noexcept nogil:
        _enqueue(self, u)

    cdef bint _eliminate(self, int cell) noexcept nogil:
        return _eliminate(self, cell)

    cdef bint _place(self, int cell) noexcept nogil:
        return _place(self, cell)

    cdef bint _propagate(self) noexcept nogil:
        return _propagate(self)

    cdef void _undo(self, int mark) noexcept nogil:
        _undo(self, mark)

    cdef int _choose_unit(self) noexcept nogil:
        return _choose_unit(self)

    cdef int _choose_cell(self, int unit) noexcept nogil:
        return _choose_cell(self, unit)

    cdef bint _search(self) noexcept nogil:
        """Returns True when the search must stop (limit reached or deadline passed)."""
        return _search(self)

    cdef bint _start(self, stars, eliminated) except -1:
        """Reset and apply a partial position; False if it contradicts itself at once."""
        cdef int cell
        self._reset()
        self.nodes = 0
        self.timed_out = False
        self.nsolutions = 0
        for cell in eliminated:
            if not 0 <= cell < self.ncells:
                raise ValueError(f"cell {cell} is off the board")
            if self.star[cell] or not self._eliminate(cell):
                return False
        for cell in stars:
            if not 0 <= cell < self.ncells:
                raise ValueError(f"cell {cell} is off the board")
            if not self.star[cell] and not self._place(cell):
                return False
        return self._propagate()

    cdef list _collect(self):
        cdef int s, i, per = self.n * self.k
        cdef list out = []
        cdef tuple solution
        cdef object value             # a new reference, which the tuple takes over (the INCREF)
        for s in range(self.nsolutions):
            # built item by item: a generator expression here cost more than a small count
            solution = PyTuple_New(per)
            for i in range(per):
                value = self.solutions[s * per + i]
                Py_INCREF(value)
                PyTuple_SET_ITEM(solution, i, value)
            out.append(solution)
        return out

    cdef void _alloc_solutions(self, int limit) except *:
        free(self.solutions)
        self.solutions = <int *> malloc(max(limit, 1) * self.n * self.k * sizeof(int))
        if not self.solutions:
            raise MemoryError()
        self.limit = limit

    def solve(self, int limit, stars=(), eliminated=(), double deadline=0.0, unsigned long long seed=0,
              long long max_nodes=0):
        """Search for up to `limit` solutions extending the given partial position.

        Returns (solutions, complete): each solution is a sorted tuple of star cells; `complete` is
        False when `deadline` (on the monotonic clock, 0 = none) passed before the search ended,
        in which case the solutions found so far are a lower bound. A non-zero `seed` randomises the
        branching order, so that the solutions found first are spread over the space, not clustered.
        A non-zero `max_nodes` also ends the search incomplete after that many nodes (a budget that,
        unlike a deadline, gives the same answer on every machine).
        """
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self._alloc_solutions(limit)
        self.randomize = seed != 0
        self.rng = seed
        self.max_nodes = max_nodes
        self.deadline = deadline
        if self._start(stars, eliminated):
            with nogil:
                self._search()
        return self._collect(), not self.timed_out

    def random_solution(self, unsigned long long seed, double deadline=0.0, long long max_nodes=0):
        """One solution found by randomised branching (the same seed gives the same solution), or None
        (none exists, or the deadline or node budget ran out first)."""
        self._alloc_solutions(1)
        self.max_nodes = max_nodes
        self.randomize = True
        self.rng = seed
        self.deadline = deadline
        if self._start((), ()):
            with nogil:
                self._search()
        found = self._collect()
        if self.timed_out or not found:
            return None
        return found[0]

    @property
    def node_count(self) -> int:
        """Search nodes visited by the last call."""
        return self.nodes


# ---- the basic rules and the search, as functions the C compiler can inline ----------------------
#
# The arrays are read into local pointers first: a store through a byte pointer (cand, star, queued)
# may alias anything, so a field read after one would otherwise be loaded from `self` again.

cdef inline void _enqueue(Search self, int u) noexcept nogil:
    if not self.queued[u]:
        self.queued[u] = 1
        self.queue[self.qtail] = u
        self.qtail += 1
        if self.qtail > self.nunits:       # a ring of nunits + 1 slots (no division: hot)
            self.qtail = 0

cdef inline bint _eliminate(Search self, int cell) noexcept nogil:
    cdef int j, u, need, left
    cdef bint ok = True
    cdef unsigned char *cand = self.cand
    cdef int *ucands = self.ucands
    cdef int *ustars = self.ustars
    cdef const int *units = self.cell_units + cell * 3
    if not cand[cell]:
        return True
    cand[cell] = 0
    self.trail[self.trail_len] = cell * 2
    self.trail_len += 1
    for j in range(3):
        u = units[j]
        left = ucands[u] - 1
        ucands[u] = left
        need = self.k - ustars[u]
        if left < need:
            ok = False
        elif left == need and need > 0:
            _enqueue(self, u)
    return ok

cdef inline bint _place(Search self, int cell) noexcept nogil:
    cdef int j, u, a, k = self.k, cands, stars, end
    cdef unsigned char *cand = self.cand
    cdef int *ucands = self.ucands
    cdef int *ustars = self.ustars
    cdef const int *units = self.cell_units + cell * 3
    cdef const int *attacks = self.attack_cells
    if not cand[cell]:
        return False
    cand[cell] = 0
    self.star[cell] = 1
    self.nstars += 1
    self.trail[self.trail_len] = cell * 2 + 1
    self.trail_len += 1
    cdef bint ok = True
    # update all three units before judging, so that _undo can reverse exactly what was done
    for j in range(3):
        u = units[j]
        cands = ucands[u] - 1
        stars = ustars[u] + 1
        ucands[u] = cands
        ustars[u] = stars
        if stars > k or cands < k - stars:
            ok = False
        elif cands > 0 and cands <= k - stars or (stars == k and cands > 0):
            _enqueue(self, u)
    if not ok:
        return False
    end = self.attack_start[cell + 1]
    for a in range(self.attack_start[cell], end):
        if cand[attacks[a]] and not _eliminate(self, attacks[a]):
            return False
    return True

cdef bint _propagate(Search self) noexcept nogil:
    cdef int u, i, cell, need, end
    cdef unsigned char *cand = self.cand
    cdef const int *unit_cells = self.unit_cells
    cdef const int *unit_start = self.unit_start
    while self.qhead != self.qtail:
        u = self.queue[self.qhead]
        self.qhead += 1
        if self.qhead > self.nunits:
            self.qhead = 0
        self.queued[u] = 0
        need = self.k - self.ustars[u]
        if self.ucands[u] < need:
            return False
        end = unit_start[u + 1]
        if need == 0:
            for i in range(unit_start[u], end):
                cell = unit_cells[i]
                if cand[cell] and not _eliminate(self, cell):
                    return False
        elif self.ucands[u] == need:
            for i in range(unit_start[u], end):
                cell = unit_cells[i]
                if cand[cell] and not _place(self, cell):
                    return False
    return True

cdef inline void _undo(Search self, int mark) noexcept nogil:
    cdef int entry, cell, j, u, top = self.trail_len
    cdef unsigned char *cand = self.cand
    cdef int *ucands = self.ucands
    cdef int *ustars = self.ustars
    cdef const int *trail = self.trail
    cdef const int *units
    while top > mark:
        top -= 1
        entry = trail[top]
        cell = entry >> 1
        cand[cell] = 1
        units = self.cell_units + cell * 3
        if entry & 1:
            self.star[cell] = 0
            self.nstars -= 1
            for j in range(3):
                u = units[j]
                ucands[u] += 1
                ustars[u] -= 1
        else:
            for j in range(3):
                ucands[units[j]] += 1
    self.trail_len = top
    # a failed propagation leaves units queued; they belong to the abandoned branch
    while self.qhead != self.qtail:
        self.queued[self.queue[self.qhead]] = 0
        self.qhead += 1
        if self.qhead > self.nunits:
            self.qhead = 0

cdef inline int _choose_unit(Search self) noexcept nogil:
    # Least slack first, fewer candidates on ties: the classic most-constrained heuristic. The pair
    # (slack, candidates) is compared as one number, slack * 2^16 + candidates (fewer than 2^16 cells
    # a unit), the first unit of the least kept as before.
    cdef int u, need, key, best = -1, best_key = 1 << 30, k = self.k
    cdef const int *ucands = self.ucands
    cdef const int *ustars = self.ustars
    for u in range(self.nunits):
        need = k - ustars[u]
        if need == 0:
            continue
        key = (ucands[u] - need) * 65536 + ucands[u]
        if key < best_key:
            best = u
            best_key = key
    return best

cdef inline int _choose_cell(Search self, int unit) noexcept nogil:
    cdef int i, cell, pick
    cdef const unsigned char *cand = self.cand
    if self.randomize:
        pick = <int> (splitmix(&self.rng) % <uint64_t> self.ucands[unit])
    else:
        pick = 0
    for i in range(self.unit_start[unit], self.unit_start[unit + 1]):
        cell = self.unit_cells[i]
        if cand[cell]:
            if pick == 0:
                return cell
            pick -= 1
    return -1

cdef bint _search(Search self) noexcept nogil:
    """Returns True when the search must stop (limit reached or deadline passed)."""
    cdef int unit, cell, mark, i, j
    cdef bint stop = False
    self.nodes += 1
    if self.max_nodes and self.nodes > self.max_nodes:
        self.timed_out = True
        return True
    if self.deadline > 0 and (self.nodes & 1023) == 0 and now() > self.deadline:
        self.timed_out = True
        return True
    if self.nstars == self.n * self.k:
        j = self.nsolutions * self.n * self.k
        for i in range(self.ncells):
            if self.star[i]:
                self.solutions[j] = i
                j += 1
        self.nsolutions += 1
        return self.nsolutions >= self.limit
    unit = _choose_unit(self)
    cell = _choose_cell(self, unit)
    mark = self.trail_len
    if _place(self, cell) and _propagate(self):
        stop = _search(self)
    _undo(self, mark)
    if stop:
        return True
    if _eliminate(self, cell) and _propagate(self):
        stop = _search(self)
    _undo(self, mark)
    return stop
