# Compiled move search of repair (engine/games/starbattle/repair.py says what a move is and why).
#
# One call ranks the impostors of a round and finds the move to make. It draws from the generator's
# `random.Random` exactly as the Python code it replaced did, in the same order: one `random()` per
# impostor to break ties in the ranking (in the order the impostors were first met in the
# alternatives), then one per neighbouring region of each legal move found (to break ties between the
# smallest), so a seed gives the same board.

from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memset

from engine.core._grid cimport edge_neighbours


cdef class _Board:
    """The map of one round in C arrays, with scratch space for the walks."""
    cdef int n, ncells
    cdef int *regions
    cdef int *sizes
    cdef unsigned char *answer
    cdef int *parent
    cdef int *queue
    cdef int *stack
    cdef unsigned char *mark

    def __cinit__(self, int n, regions, answer):
        cdef int cell
        self.n = n
        self.ncells = n * n
        if len(regions) != self.ncells:
            raise ValueError("regions must list n * n cells")
        self.regions = <int *> malloc(self.ncells * sizeof(int))
        self.sizes = <int *> calloc(n, sizeof(int))
        self.answer = <unsigned char *> calloc(self.ncells, 1)
        self.parent = <int *> malloc(self.ncells * sizeof(int))
        self.queue = <int *> malloc(self.ncells * sizeof(int))
        self.stack = <int *> malloc(self.ncells * sizeof(int))
        self.mark = <unsigned char *> malloc(self.ncells)
        if (not self.regions or not self.sizes or not self.answer or not self.parent or not self.queue
                or not self.stack or not self.mark):
            raise MemoryError()
        for cell in range(self.ncells):
            self.regions[cell] = regions[cell]
            if not 0 <= self.regions[cell] < n:
                raise ValueError("region numbers must be 0..n-1")
            self.sizes[self.regions[cell]] += 1
        for cell in answer:
            self.answer[cell] = 1

    def __dealloc__(self):
        free(self.regions); free(self.sizes); free(self.answer); free(self.parent); free(self.queue)
        free(self.stack); free(self.mark)

    cdef bint keeps_stars(self, int own, int here) noexcept:
        """Whether region `own` less the path from `here` back to the impostor (`parent` links) still
        holds all its answer stars in one piece; marks that piece 2 (the path 1, the rest 0)."""
        cdef int i, x, top, star = -1
        cdef int nbs[4]
        memset(self.mark, 0, self.ncells)
        x = here
        while x != -1:
            self.mark[x] = 1
            x = self.parent[x]
        for i in range(self.ncells):
            if self.regions[i] == own and self.answer[i]:
                star = i
                break
        self.mark[star] = 2
        self.stack[0] = star
        top = 1
        while top:
            top -= 1
            x = self.stack[top]
            for i in range(edge_neighbours(self.n, x, nbs)):
                if self.regions[nbs[i]] == own and self.mark[nbs[i]] == 0:
                    self.mark[nbs[i]] = 2
                    self.stack[top] = nbs[i]
                    top += 1
        for i in range(self.ncells):
            if self.regions[i] == own and self.answer[i] and self.mark[i] != 2:
                return False
        return True

    cdef object move_out(self, int cell, rng):
        """(cells to hand over, sorted; the region to receive them) for impostor `cell`, or None when
        it has no legal move: the nearest cell of its region beside another region, found breadth-first
        through non-answer cells, with the path to it and whatever the path cuts off from the region's
        answer stars; the smallest region beside that cell receives them (ties: a `random()` each)."""
        cdef int n = self.n, own = self.regions[cell], head = 0, tail = 0, here, i, j, x, label, best
        cdef int nb_count, ntargets
        cdef int nbs[4]
        cdef int targets[4]
        cdef double best_tie, tie
        for i in range(self.ncells):
            self.parent[i] = -2                     # not reached
        self.parent[cell] = -1
        self.queue[tail] = cell
        tail += 1
        while head < tail:
            here = self.queue[head]
            head += 1
            nb_count = edge_neighbours(n, here, nbs)
            for i in range(nb_count):
                x = nbs[i]
                if self.parent[x] == -2 and self.regions[x] == own and not self.answer[x]:
                    self.parent[x] = here
                    self.queue[tail] = x
                    tail += 1
            ntargets = 0                            # the other regions beside `here`, smallest first
            for i in range(nb_count):
                label = self.regions[nbs[i]]
                if label == own:
                    continue
                for j in range(ntargets):
                    if targets[j] == label:
                        break
                else:
                    j = ntargets
                    while j > 0 and targets[j - 1] > label:
                        targets[j] = targets[j - 1]
                        j -= 1
                    targets[j] = label
                    ntargets += 1
            if not ntargets or not self.keeps_stars(own, here):
                continue
            best, best_tie = targets[0], 0.0
            for j in range(ntargets):
                tie = rng.random()
                if j == 0 or self.sizes[targets[j]] < self.sizes[best] or (
                        self.sizes[targets[j]] == self.sizes[best] and tie < best_tie):
                    best, best_tie = targets[j], tie
            return [i for i in range(self.ncells) if self.regions[i] == own and self.mark[i] != 2], best
        return None


# How repair_rounds' rounds ended (its first value).
UNIQUE, INCOMPLETE, STUCK, AMBIGUOUS = 0, 1, 2, 3


def repair_rounds(int n, search, list regions, answer, rng, int max_rounds, int alternatives,
                  double deadline, long long count_budget, int keep, int stall=0, bint roomy=False):
    """repair.repair's rounds (a count, then the best move while the answer is not alone), compiled:
    returns (how they ended: UNIQUE, INCOMPLETE (a count cut short), STUCK or AMBIGUOUS; the rounds
    taken). The draws are the Python loop's, in its order: one getrandbits(64) per count, then
    _best_move's. `regions` is edited in place and `search` kept in step with it; one map of the board
    (with its scratch space) serves every round, moved as `regions` is. A non-zero `stall` ends the
    rounds AMBIGUOUS when that many rounds have passed since a count last found fewer solutions than
    every count before it (repair going round in circles); 0 waits for `max_rounds`. `roomy`: see
    _best_move."""
    cdef _Board board = _Board(n, regions, answer)
    cdef int k = len(answer) // n, rounds, cell, target, fewest = 1 << 30, since = 0
    for rounds in range(max_rounds + 1):
        found, complete = search.solve(alternatives + 1, (), (), deadline, rng.getrandbits(64) | 1,
                                       count_budget)
        if not complete:
            return INCOMPLETE, rounds
        others = [sol for sol in found if sol != answer]
        if not others:
            return UNIQUE, rounds
        if rounds == max_rounds:
            break
        if len(found) < fewest:
            fewest, since = len(found), 0
        else:
            since += 1
            if stall and since >= stall:
                return AMBIGUOUS, rounds
        move = _best_move(board, k, keep, roomy, others, rng)
        if move is None:
            return STUCK, rounds
        path, target = move
        for value in path:
            cell = value
            board.sizes[board.regions[cell]] -= 1
            board.sizes[target] += 1
            board.regions[cell] = target
            regions[cell] = target
        search.move_cells(path, target)             # the units of the moved cells alone
    return AMBIGUOUS, max_rounds


cdef object _best_move(_Board board, int k, int keep, bint roomy, others, rng):
    """The move of one repair round on the mapped `board`, as (cells to hand over, region to receive
    them), or None when no impostor has a legal move. `others`: the alternatives found (each a sorted
    tuple of star cells); the impostors shared by the most of them are tried first (ties: a `random()`
    each), and the first legal move that leaves its region more than `keep` cells is taken, else the
    first that leaves more than 2k - 1, else one that leaves a gift. `roomy`: a move leaving more than
    `keep` cells is looked for among all the impostors before a tighter one is taken, and of the
    equally shared impostors' moves of the same rank the one leaving the most cells wins."""
    cdef int n = board.n
    cdef int ncells = n * n, cell, rank, left, best_rank = 3, best_shared = 0, best_left = -1, met = 0, i, j, x
    cdef int *shared = <int *> calloc(3 * ncells, sizeof(int))   # per cell: alternatives holding it
    cdef double *tie = <double *> malloc(ncells * sizeof(double))
    if not shared or not tie:
        free(shared)
        free(tie)
        raise MemoryError()
    cdef int *first_met = shared + ncells         # the impostors, in the order first met
    cdef int *ranked = shared + 2 * ncells        # their indices in first_met, best first
    best = None
    try:
        for solution in others:
            for value in solution:
                cell = value
                if not board.answer[cell]:
                    if not shared[cell]:
                        first_met[met] = cell
                        met += 1
                    shared[cell] += 1
        # sorted by (-shared, a random() each drawn in the order first met, the order first met)
        for i in range(met):
            tie[i] = rng.random()
            j = i
            while j > 0 and _ranks_before(shared, first_met, tie, i, ranked[j - 1]):
                ranked[j] = ranked[j - 1]
                j -= 1
            ranked[j] = i
        for i in range(met):
            cell = first_met[ranked[i]]
            if shared[cell] < best_shared and (best_rank == 0 or best_rank == 1 and not roomy):
                break
            move = board.move_out(cell, rng)
            if move is None:
                continue
            left = board.sizes[board.regions[cell]] - len(move[0])
            rank = 0 if left > keep else 1 if left > 2 * k - 1 else 2
            if rank < best_rank or roomy and rank == best_rank and shared[cell] == best_shared and left > best_left:
                best, best_rank, best_shared, best_left = move, rank, shared[cell], left
                if rank == 0 and not roomy:
                    break
        return best
    finally:
        free(shared)
        free(tie)


cdef inline bint _ranks_before(const int *shared, const int *first_met, const double *tie, int a,
                               int b) noexcept:
    """Whether impostor a (an index in first_met) ranks before b: shared by more alternatives, else
    the smaller random tie, else met first."""
    cdef int count_a = shared[first_met[a]], count_b = shared[first_met[b]]
    if count_a != count_b:
        return count_a > count_b
    if tie[a] != tie[b]:
        return tie[a] < tie[b]
    return a < b
