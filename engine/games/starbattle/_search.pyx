# Compiled Star Battle search (see _search.pxd for the state it keeps).
#
# One depth-first search serves two jobs: counting solutions up to a limit (with the alternatives it
# found, which the repair step needs), and drawing a random answer (the same search with random
# branching and the region rule switched off by passing regions = rows). Branching is binary: pick
# the unit with the least slack (candidates minus stars still needed), take one of its candidates,
# and try "star here" then "no star here". Bounds and wraparound checks are set in setup.py.

from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
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


# ---- the same search on bitsets ------------------------------------------------------------------
#
# BitsetSearch visits the very tree Search visits, node for node (the same solutions in the same
# order, the same node counts, the same draws of its splitmix), with the candidates and stars as
# bitsets of 64-bit words beside each unit's counts: a star's attacks leave the candidates in a few
# word operations, the units to look at again are a 64-bit set, and a branch is undone by copying
# the state back from a frame per depth instead of walking a trail.
#
# Why the tree is the same: Search applies its two rules (a unit holding k stars loses its other
# candidates; a unit with as many candidates as stars still needed takes them all) to the units whose
# counts changed, until none applies, and fails as soon as a changed unit has more than k stars or
# fewer candidates than stars still needed. Every rule only removes candidates or adds stars, and both
# failures, once true, stay true; so whatever the order the rules are applied in, a propagation that
# does not fail ends in the same state, and one fails exactly when the other does. BitsetSearch
# applies the same rules to the same units (those with a cell that changed) in its own order; units
# never touched are left alone in both, as at the root, where nothing is propagated. The branch choice
# reads the same counts. tests/engine/test_engine_search.py compares the two on many maps.

cdef enum:
    MAX_WORDS = 8               # 512 cells
    MAX_UNITS = 64              # 3n units, as bits of one word: boards up to 21 x 21 (rules allow 20)


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef class BitsetSearch:
    """A solver for one board with Search's interface and tree (above), for boards of at most 21 x 21.
    `regions` is a flat list of n*n region numbers 0..n-1."""
    cdef int n, k, ncells, nunits, nwords
    cdef bint diagonals
    cdef uint64_t *unit_bits      # nunits * nwords: each unit's cells
    cdef uint64_t *attack_bits    # ncells * nwords: the cells a star on each cell rules out
    cdef uint64_t *units_of       # per cell: its three units, as bits of a 64-bit set
    cdef int *unit_ids            # per cell: its three units (row, column, region)
    cdef int unit_size[MAX_UNITS]
    cdef uint64_t all_cells[MAX_WORDS]
    # the state: candidates and stars, and per unit its candidates and stars
    cdef uint64_t cand[MAX_WORDS]
    cdef uint64_t star[MAX_WORDS]
    cdef int ucands[MAX_UNITS]
    cdef int ustars[MAX_UNITS]
    cdef int nstars
    cdef uint64_t *saved_bits     # per depth: cand and star (2 * nwords)
    cdef int *saved_counts        # per depth: ucands and ustars (2 * nunits)
    cdef int limit, nsolutions
    cdef int *solutions
    cdef long long nodes
    cdef long long max_nodes
    cdef double deadline
    cdef bint timed_out
    cdef bint randomize
    cdef uint64_t rng

    def __cinit__(self, int n, int k, bint diagonals, regions):
        cdef int r, c, dr, dc, i, cell, rr, cc, w
        if n < 1 or n * n > 64 * MAX_WORDS or 3 * n > MAX_UNITS:
            raise ValueError("BitsetSearch: boards of at most 21 x 21")
        self.n = n
        self.k = k
        self.diagonals = diagonals
        self.ncells = n * n
        self.nunits = 3 * n
        self.nwords = (self.ncells + 63) // 64
        self.unit_bits = <uint64_t *> calloc(self.nunits * self.nwords, sizeof(uint64_t))
        self.attack_bits = <uint64_t *> calloc(self.ncells * self.nwords, sizeof(uint64_t))
        self.units_of = <uint64_t *> calloc(self.ncells, sizeof(uint64_t))
        self.unit_ids = <int *> calloc(self.ncells * 3, sizeof(int))
        # every level of the search takes a candidate away: at most ncells + 1 levels
        self.saved_bits = <uint64_t *> malloc((self.ncells + 2) * 2 * self.nwords * sizeof(uint64_t))
        self.saved_counts = <int *> malloc((self.ncells + 2) * 2 * self.nunits * sizeof(int))
        self.solutions = NULL
        if (not self.unit_bits or not self.attack_bits or not self.units_of or not self.unit_ids
                or not self.saved_bits or not self.saved_counts):
            raise MemoryError()
        for w in range(MAX_WORDS):
            self.all_cells[w] = 0
        for cell in range(self.ncells):
            _set_bit(self.all_cells, cell)
        # attacks as in Search: the 8 neighbours, plus both full diagonals for the classic rule
        for r in range(n):
            for c in range(n):
                cell = r * n + c
                for dr in range(-1, 2):
                    for dc in range(-1, 2):
                        rr = r + dr
                        cc = c + dc
                        if (dr or dc) and 0 <= rr < n and 0 <= cc < n:
                            _set_bit(self.attack_bits + cell * self.nwords, rr * n + cc)
                if diagonals:
                    for i in range(2, n):
                        for dr, dc in ((i, i), (i, -i), (-i, i), (-i, -i)):
                            rr = r + dr
                            cc = c + dc
                            if 0 <= rr < n and 0 <= cc < n:
                                _set_bit(self.attack_bits + cell * self.nwords, rr * n + cc)
        self.set_regions(regions)

    def __dealloc__(self):
        free(self.unit_bits); free(self.attack_bits); free(self.units_of); free(self.unit_ids)
        free(self.saved_bits); free(self.saved_counts); free(self.solutions)

    def set_regions(self, regions) -> None:
        """Replace the region map (the repair loop edits regions between counts); a bad map raises
        ValueError and leaves the one before."""
        cdef int i, label, used = 0, n = self.n, w, u
        cdef int seen[MAX_UNITS]
        # read as a list (what the repair loop and tuning pass, every round): items without lookups
        cdef list cells = regions if type(regions) is list else list(regions)
        if len(cells) != self.ncells:
            raise ValueError("regions must list n*n cells")
        cdef int *labels = <int *> malloc(self.ncells * sizeof(int))
        if not labels:
            raise MemoryError()
        try:
            for i in range(n):
                seen[i] = 0
            for i in range(self.ncells):
                label = cells[i]
                if label < 0 or label >= n:
                    raise ValueError("region numbers must be 0..n-1")
                labels[i] = label
                if not seen[label]:
                    seen[label] = 1
                    used += 1
            if used != n:
                raise ValueError("every region number 0..n-1 must be used")
            for i in range(self.nunits * self.nwords):
                self.unit_bits[i] = 0
            for i in range(self.nunits):
                self.unit_size[i] = 0
            for i in range(self.ncells):
                self.unit_ids[3 * i] = i // n
                self.unit_ids[3 * i + 1] = n + i % n
                self.unit_ids[3 * i + 2] = 2 * n + labels[i]
                self.units_of[i] = 0
                for w in range(3):
                    u = self.unit_ids[3 * i + w]
                    self.units_of[i] |= (<uint64_t> 1) << u
                    self.unit_size[u] += 1
                    _set_bit(self.unit_bits + u * self.nwords, i)
        finally:
            free(labels)

    def move_cells(self, cells, int target) -> None:
        """The map as set_regions would leave it after the `cells` (distinct) moved to region `target`
        (the repair loop's move, every round): only their units change. A move that would empty a
        region, or a region number outside 0..n-1, raises ValueError and leaves the map as it was."""
        cdef int n = self.n, cell, old, i, u_old, u_new
        cdef int moving[MAX_UNITS]
        if not 0 <= target < n:
            raise ValueError("region numbers must be 0..n-1")
        for i in range(n):
            moving[i] = 0
        for value in cells:
            cell = value
            if not 0 <= cell < self.ncells:
                raise ValueError(f"cell {cell} is off the board")
            old = self.unit_ids[3 * cell + 2] - 2 * n
            if old != target:
                moving[old] += 1
        for i in range(n):
            if moving[i] and moving[i] >= self.unit_size[2 * n + i]:
                raise ValueError("every region number 0..n-1 must be used")
        for value in cells:
            cell = value
            u_old = self.unit_ids[3 * cell + 2]
            u_new = 2 * n + target
            if u_old == u_new:
                continue
            self.unit_bits[u_old * self.nwords + (cell >> 6)] &= ~((<uint64_t> 1) << (cell & 63))
            _set_bit(self.unit_bits + u_new * self.nwords, cell)
            self.unit_size[u_old] -= 1
            self.unit_size[u_new] += 1
            self.unit_ids[3 * cell + 2] = u_new
            self.units_of[cell] = ((<uint64_t> 1) << self.unit_ids[3 * cell]) | \
                ((<uint64_t> 1) << self.unit_ids[3 * cell + 1]) | ((<uint64_t> 1) << u_new)

    cdef void _reset(self) noexcept nogil:
        cdef int w, u
        for w in range(MAX_WORDS):
            self.cand[w] = self.all_cells[w]
            self.star[w] = 0
        for u in range(self.nunits):
            self.ucands[u] = self.unit_size[u]
            self.ustars[u] = 0
        self.nstars = 0

    cdef bint _units_ok(self, int cell) noexcept nogil:
        """Search's checks on a cell's three units after it changed: no more than k stars, and as many
        candidates as stars still needed."""
        cdef int j, u
        for j in range(3):
            u = self.unit_ids[3 * cell + j]
            if self.ustars[u] > self.k or self.ucands[u] < self.k - self.ustars[u]:
                return False
        return True

    cdef bint _start(self, stars, eliminated) except -1:
        """Reset and apply a partial position; False if it contradicts itself at once (checked where
        Search checks, so that a bad cell after a contradiction raises here no more than there)."""
        cdef int cell, w, bit
        cdef uint64_t removed, dirty = 0
        cdef uint64_t before[MAX_WORDS]
        self._reset()
        self.nodes = 0
        self.timed_out = False
        self.nsolutions = 0
        for cell in eliminated:
            if not 0 <= cell < self.ncells:
                raise ValueError(f"cell {cell} is off the board")
            if _has(self.star, cell):
                return False
            if _has(self.cand, cell):
                _take_out(self, cell, &dirty)
                if not self._units_ok(cell):
                    return False
        for cell in stars:
            if not 0 <= cell < self.ncells:
                raise ValueError(f"cell {cell} is off the board")
            if _has(self.star, cell):
                continue
            if not _has(self.cand, cell):
                return False
            for w in range(self.nwords):
                before[w] = self.cand[w]
            _place_bits(self, cell, &dirty)
            if not self._units_ok(cell):
                return False
            for w in range(self.nwords):                # each cell it ruled out, checked
                removed = before[w] & self.attack_bits[cell * self.nwords + w]
                while removed:
                    bit = w * 64 + __builtin_ctzll(removed)
                    removed &= removed - 1
                    if not self._units_ok(bit):
                        return False
        return _propagate_bits(self, dirty)

    cdef list _collect(self):
        cdef int s, i, per = self.n * self.k
        cdef list out = []
        cdef tuple solution
        cdef object value             # a new reference, which the tuple takes over (the INCREF)
        for s in range(self.nsolutions):
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
        """Search.solve: up to `limit` solutions extending the partial position, each a sorted tuple
        of star cells, and whether the search ended (not cut by `deadline` or `max_nodes`); a non-zero
        `seed` randomises the branching."""
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self._alloc_solutions(limit)
        self.randomize = seed != 0
        self.rng = seed
        self.max_nodes = max_nodes
        self.deadline = deadline
        if self._start(stars, eliminated):
            with nogil:
                _search_bits(self, 0)
        return self._collect(), not self.timed_out

    def random_solution(self, unsigned long long seed, double deadline=0.0, long long max_nodes=0):
        """Search.random_solution: one solution by randomised branching, or None."""
        self._alloc_solutions(1)
        self.max_nodes = max_nodes
        self.randomize = True
        self.rng = seed
        self.deadline = deadline
        if self._start((), ()):
            with nogil:
                _search_bits(self, 0)
        found = self._collect()
        if self.timed_out or not found:
            return None
        return found[0]

    @property
    def node_count(self) -> int:
        """Search nodes visited by the last call."""
        return self.nodes


cdef inline void _set_bit(uint64_t *words, int cell) noexcept nogil:
    words[cell >> 6] |= (<uint64_t> 1) << (cell & 63)


cdef inline bint _has(const uint64_t *words, int cell) noexcept nogil:
    return (words[cell >> 6] >> (cell & 63)) & 1


cdef inline void _take_out(BitsetSearch s, int cell, uint64_t *dirty) noexcept nogil:
    """A candidate ruled out: its units lose a candidate and need another look."""
    cdef const int *ids = s.unit_ids + 3 * cell
    s.cand[cell >> 6] &= ~((<uint64_t> 1) << (cell & 63))
    s.ucands[ids[0]] -= 1
    s.ucands[ids[1]] -= 1
    s.ucands[ids[2]] -= 1
    dirty[0] |= s.units_of[cell]


cdef inline void _take_out_all(BitsetSearch s, uint64_t removed, int w, uint64_t *dirty) noexcept nogil:
    """The candidates in `removed` (word w, all still candidates) ruled out."""
    cdef int cell
    cdef const int *ids
    s.cand[w] &= ~removed
    while removed:
        cell = w * 64 + __builtin_ctzll(removed)
        removed &= removed - 1
        ids = s.unit_ids + 3 * cell
        s.ucands[ids[0]] -= 1
        s.ucands[ids[1]] -= 1
        s.ucands[ids[2]] -= 1
        dirty[0] |= s.units_of[cell]


cdef inline void _place_bits(BitsetSearch s, int cell, uint64_t *dirty) noexcept nogil:
    """A star on `cell` (a candidate): it leaves the candidates for the stars, and the cells it
    attacks leave the candidates."""
    cdef int w, nwords = s.nwords
    cdef const uint64_t *attacks = s.attack_bits + cell * nwords
    cdef const int *ids = s.unit_ids + 3 * cell
    cdef uint64_t removed
    s.cand[cell >> 6] &= ~((<uint64_t> 1) << (cell & 63))
    _set_bit(s.star, cell)
    s.nstars += 1
    s.ucands[ids[0]] -= 1
    s.ucands[ids[1]] -= 1
    s.ucands[ids[2]] -= 1
    s.ustars[ids[0]] += 1
    s.ustars[ids[1]] += 1
    s.ustars[ids[2]] += 1
    dirty[0] |= s.units_of[cell]
    for w in range(nwords):
        removed = s.cand[w] & attacks[w]
        if removed:
            _take_out_all(s, removed, w, dirty)


cdef bint _propagate_bits(BitsetSearch s, uint64_t dirty) noexcept nogil:
    """The two rules on the units in `dirty` and on every unit they change, until none applies;
    False on a contradiction."""
    cdef int u, w, need, k = s.k, nwords = s.nwords, bit
    cdef const uint64_t *unit
    cdef uint64_t removed, take
    while dirty:
        u = __builtin_ctzll(dirty)
        dirty &= dirty - 1
        need = k - s.ustars[u]
        if need < 0 or s.ucands[u] < need:
            return False
        if need == 0:
            if s.ucands[u]:
                unit = s.unit_bits + u * nwords
                for w in range(nwords):
                    removed = s.cand[w] & unit[w]
                    if removed:
                        _take_out_all(s, removed, w, &dirty)
        elif s.ucands[u] == need:
            unit = s.unit_bits + u * nwords
            for w in range(nwords):
                take = s.cand[w] & unit[w]
                while take:
                    bit = __builtin_ctzll(take)
                    take &= take - 1
                    if (s.cand[w] >> bit) & 1:      # a star placed before may have ruled it out
                        _place_bits(s, w * 64 + bit, &dirty)
    return True


cdef inline int _choose_unit_bits(BitsetSearch s) noexcept nogil:
    """Search's choice: least slack first, fewer candidates on ties, the first such unit. Two passes
    without branches (every unit's key, then the first least), which the C compiler vectorises."""
    cdef int u, need, least = 1 << 30, k = s.k, nunits = s.nunits
    cdef int keys[MAX_UNITS]
    for u in range(nunits):
        need = k - s.ustars[u]
        keys[u] = (s.ucands[u] - need) * 65536 + s.ucands[u] if need != 0 else 1 << 30
    for u in range(nunits):
        least = keys[u] if keys[u] < least else least
    if least == 1 << 30:
        return -1
    for u in range(nunits):
        if keys[u] == least:
            return u
    return -1


cdef inline int _choose_cell_bits(BitsetSearch s, int unit) noexcept nogil:
    """Search's choice: the pick-th candidate of the unit in cell order (pick drawn when randomising)."""
    cdef int w, pick = 0, here
    cdef const uint64_t *bits = s.unit_bits + unit * s.nwords
    cdef uint64_t word
    if s.randomize:
        pick = <int> (splitmix(&s.rng) % <uint64_t> s.ucands[unit])
    for w in range(s.nwords):
        word = s.cand[w] & bits[w]
        here = __builtin_popcountll(word)
        if pick < here:
            while pick:
                word &= word - 1
                pick -= 1
            return w * 64 + __builtin_ctzll(word)
        pick -= here
    return -1


cdef inline void _save(BitsetSearch s, int depth) noexcept nogil:
    # plain loops, not memcpy: a few dozen words, where a call into libc costs more than the copy
    cdef int i, nwords = s.nwords, nunits = s.nunits
    cdef uint64_t *bits = s.saved_bits + depth * 2 * nwords
    cdef int *counts = s.saved_counts + depth * 2 * nunits
    for i in range(nwords):
        bits[i] = s.cand[i]
        bits[nwords + i] = s.star[i]
    for i in range(nunits):
        counts[i] = s.ucands[i]
        counts[nunits + i] = s.ustars[i]


cdef inline void _restore(BitsetSearch s, int depth, int nstars) noexcept nogil:
    cdef int i, nwords = s.nwords, nunits = s.nunits
    cdef const uint64_t *bits = s.saved_bits + depth * 2 * nwords
    cdef const int *counts = s.saved_counts + depth * 2 * nunits
    for i in range(nwords):
        s.cand[i] = bits[i]
        s.star[i] = bits[nwords + i]
    for i in range(nunits):
        s.ucands[i] = counts[i]
        s.ustars[i] = counts[nunits + i]
    s.nstars = nstars


cdef bint _search_bits(BitsetSearch s, int depth) noexcept nogil:
    """Returns True when the search must stop (limit reached or deadline passed)."""
    cdef int unit, cell, j, w, nstars
    cdef bint stop = False
    cdef uint64_t dirty, word
    s.nodes += 1
    if s.max_nodes and s.nodes > s.max_nodes:
        s.timed_out = True
        return True
    if s.deadline > 0 and (s.nodes & 1023) == 0 and now() > s.deadline:
        s.timed_out = True
        return True
    if s.nstars == s.n * s.k:
        j = s.nsolutions * s.n * s.k
        for w in range(s.nwords):
            word = s.star[w]
            while word:
                s.solutions[j] = w * 64 + __builtin_ctzll(word)
                word &= word - 1
                j += 1
        s.nsolutions += 1
        return s.nsolutions >= s.limit
    unit = _choose_unit_bits(s)
    cell = _choose_cell_bits(s, unit)
    _save(s, depth)
    nstars = s.nstars
    dirty = 0
    _place_bits(s, cell, &dirty)
    if _propagate_bits(s, dirty):
        stop = _search_bits(s, depth + 1)
    _restore(s, depth, nstars)
    if stop:
        return True
    dirty = 0
    _take_out(s, cell, &dirty)
    if _propagate_bits(s, dirty):
        stop = _search_bits(s, depth + 1)
    _restore(s, depth, nstars)
    return stop
