# The compiled Star Battle search (see _search.pxd for the state it keeps and the basic rules).
#
# One depth-first search serves two jobs: counting solutions up to a limit (with the alternatives it
# found, which the repair step needs), and drawing a random answer (the same search with random
# branching and the region rule switched off by passing regions = rows). Branching is binary: pick
# the unit with the least slack (candidates minus stars still needed), take one of its candidates,
# and try "star here" then "no star here". A star's attacks leave the candidates in a few word
# operations, the units to look at again are a 64-bit set, and a branch is undone by copying the
# state back from a frame per depth. Bounds and wraparound checks are set in setup.py.
#
# Whatever the order the rules are applied in, a propagation that does not fail ends in the same
# state, and one fails exactly when any other would: every rule only removes candidates or adds
# stars, and both failures, once true, stay true. Units never touched are left alone, as at the root,
# where nothing is propagated. engine/games/starbattle/reference.py holds the same search in plain
# Python (ReferenceSearch), which tests/engine/test_engine_search.py holds this one to node for node.

from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint64_t

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from engine.core._clock cimport now, splitmix

def monotonic() -> float:
    """The clock the deadlines are measured on (same as time.monotonic())."""
    return now()


cdef class Search:
    """A solver for one board: boards of at most 21 x 21. `regions` is a flat list of n*n region
    numbers 0..n-1."""

    def __cinit__(self, int n, int k, bint diagonals, regions):
        cdef int r, c, dr, dc, i, cell, rr, cc, w
        if n < 1 or n * n > 64 * MAX_WORDS or 3 * n > MAX_UNITS:
            raise ValueError("Search: boards of at most 21 x 21")
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
        self.saved_counts = <int *> calloc((self.ncells + 2) * 2 * MAX_UNITS, sizeof(int))
        self.solutions = NULL
        if (not self.unit_bits or not self.attack_bits or not self.units_of or not self.unit_ids
                or not self.saved_bits or not self.saved_counts):
            raise MemoryError()
        for w in range(MAX_WORDS):
            self.all_cells[w] = 0
        for cell in range(self.ncells):
            _set_bit(self.all_cells, cell)
        # attacks: the 8 neighbours, plus both full diagonals for the classic rule
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
        self._map(regions)

    def __dealloc__(self):
        free(self.unit_bits); free(self.attack_bits); free(self.units_of); free(self.unit_ids)
        free(self.saved_bits); free(self.saved_counts); free(self.solutions)

    def set_regions(self, regions) -> None:
        """Replace the region map (the repair loop edits regions between counts); a bad map raises
        ValueError and leaves the one before."""
        self._map(regions)

    cdef void _map(self, regions) except *:
        """set_regions (and __cinit__, without calling a method a subclass may override)."""
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

    cdef void _count_units(self) noexcept nogil:
        """The stars, and each unit's candidates and stars, counted from the state's words."""
        cdef int u, w, nw = self.nwords
        cdef const uint64_t *unit
        self.nstars = 0
        for w in range(nw):
            self.nstars += __builtin_popcountll(self.star[w])
        for u in range(self.nunits):
            unit = self.unit_bits + u * nw
            self.ucands[u] = 0
            self.ustars[u] = 0
            for w in range(nw):
                self.ucands[u] += __builtin_popcountll(self.cand[w] & unit[w])
                self.ustars[u] += __builtin_popcountll(self.star[w] & unit[w])

    cdef bint _units_ok(self, int cell) noexcept nogil:
        """The checks on a cell's three units after it changed: no more than k stars, and as many
        candidates as stars still needed."""
        cdef int j, u
        for j in range(3):
            u = self.unit_ids[3 * cell + j]
            if self.ustars[u] > self.k or self.ucands[u] < self.k - self.ustars[u]:
                return False
        return True

    cdef bint _start(self, stars, eliminated) except -1:
        """Reset and apply a partial position; False if it contradicts itself at once (checked after
        each given, so that a cell off the board given after a contradiction raises nothing)."""
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
                _search_bits(self, 0)
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
                _search_bits(self, 0)
        found = self._collect()
        if self.timed_out or not found:
            return None
        return found[0]

    @property
    def node_count(self) -> int:
        """Search nodes visited by the last call."""
        return self.nodes

    def attacks(self) -> tuple:
        """Each cell's attacks as a bitset (bit r * n + c): the cells a star there rules out."""
        cdef int cell
        cdef list out = []
        for cell in range(self.ncells):
            out.append(int.from_bytes((<const char *> (self.attack_bits + cell * self.nwords))[:8 * self.nwords],
                                      "little"))
        return tuple(out)


cdef bint _propagate_bits(Search s, uint64_t dirty) noexcept nogil:
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


cdef inline int _choose_unit_bits(Search s) noexcept nogil:
    """The branching unit: least slack first, fewer candidates on ties, the first such unit (the key
    (slack, candidates) compared as one number, slack * 2^16 + candidates)."""
    cdef int u, need, key, best = -1, least = 1 << 30, k = s.k, nunits = s.nunits
    for u in range(nunits):
        need = k - s.ustars[u]
        if need != 0:
            key = (s.ucands[u] - need) * 65536 + s.ucands[u]
            if key < least:
                least = key
                best = u
    return best


cdef inline int _choose_cell_bits(Search s, int unit) noexcept nogil:
    """The branching cell: the pick-th candidate of the unit in cell order (pick drawn when randomising)."""
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


cdef inline void _save(Search s, int depth) noexcept nogil:
    # the words in a plain loop (a few, nwords of them); the counts as two fixed-size copies of the
    # whole arrays (MAX_UNITS each, which the C compiler inlines), faster than a loop over nunits
    cdef int i, nwords = s.nwords, nunits = s.nunits
    cdef uint64_t *bits = s.saved_bits + depth * 2 * nwords
    cdef int *counts = s.saved_counts + depth * 2 * MAX_UNITS
    for i in range(nwords):
        bits[i] = s.cand[i]
        bits[nwords + i] = s.star[i]
    memcpy(counts, s.ucands, MAX_UNITS * sizeof(int))
    memcpy(counts + MAX_UNITS, s.ustars, MAX_UNITS * sizeof(int))


cdef inline void _restore(Search s, int depth, int nstars) noexcept nogil:
    cdef int i, nwords = s.nwords, nunits = s.nunits
    cdef const uint64_t *bits = s.saved_bits + depth * 2 * nwords
    cdef const int *counts = s.saved_counts + depth * 2 * MAX_UNITS
    for i in range(nwords):
        s.cand[i] = bits[i]
        s.star[i] = bits[nwords + i]
    memcpy(s.ucands, counts, MAX_UNITS * sizeof(int))
    memcpy(s.ustars, counts + MAX_UNITS, MAX_UNITS * sizeof(int))
    s.nstars = nstars


cdef bint _search_bits(Search s, int depth) noexcept nogil:
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
    # The caller restores its own frame on return, so only the root puts its state back (the
    # second branch's state is never read below the root).
    if depth == 0:
        _restore(s, depth, nstars)
    return stop
