# Compiled piece placement of the composed style (styles/composed.py draws the rest of the map).
#
# Placing the pieces is most of a composed drawing's time, and nearly all of it is random draws. The
# draws here are the ones `random.Random`'s methods make, taken from the same generator in the same
# order: randrange, randint and choice draw `getrandbits(k)` for k the bit length of the range until
# one falls inside it (CPython's _randbelow); uniform and choices scale one `random()`. So a seed
# gives the same pieces as the Python code did, and the same boards.

cimport cython
from libc.math cimport pow
from libc.stdlib cimport calloc, free, malloc

from engine.core._grid cimport edge_neighbours
from engine.core._rng cimport below, choose, round_even
from engine.core._regions cimport stays_one_piece
from engine.games.starbattle._shape cimport look_around_cell
from engine.games.starbattle.count import only_solution

DEF UNASSIGNED = -1


@cython.cdivision(False)
cdef inline long _floordiv(long a, long b) noexcept:
    """Python's a // b for b > 0, toward minus infinity (the build compiles // as C's, which truncates)."""
    return a // b


cdef int _shape(int n, int star, int size, object rng, double thin, unsigned char *cells) except -1:
    """A random geometric shape of about `size` cells holding `star` marked in `cells` (cleared
    first; n * n flags): a rectangle (a bar when one wide), or, more often, two or three overlapping
    rectangles (L, T, plus, steps, thick corners). Returns its cell count, 0 when it leaves the grid."""
    cdef int sr = star // n, sc = star % n, parts, first, part, area, h, w, t, top, left, r, c
    cdef int count = 0, anchor_r = sr, anchor_c = sc, pick, cell = 0
    cdef long least, most
    cdef double x, low, high
    for cell in range(n * n):
        cells[cell] = 0
    # rng.choices((1, 2, 3), (0.1, 0.45, 0.45))[0]: cumulative weights 0.1, 0.55, 1.0, bisected
    low = 0.1
    high = low + 0.45
    x = rng.random() * ((high + 0.45) + 0.0)
    parts = 1 + (x >= low) + (x >= high)
    if parts == 1:
        first = size
    else:
        x = rng.random()
        first = max(2, round_even(size * (0.35 + (0.65 - 0.35) * x)))   # rng.uniform(0.35, 0.65)
    for part in range(parts):
        if part == 0:
            area = first
        else:
            area = max(2, _floordiv(size - count, parts - part) + below(rng, 3))   # + rng.randint(0, 2)
        if parts > 1 and rng.random() < thin:
            h, w = 1, max(2, min(n, area))          # a bar: bars joined end to end make L, U and steps
        else:
            least = 2 if area >= 4 else 1
            most = max(2, min(n, round_even(1.4 * pow(<double> area, 0.5))))
            h = least + below(rng, most - least + 1)       # rng.randint(least, most)
            w = max(1, min(n, round_even(<double> area / h)))
        if rng.random() < 0.5:
            t = h
            h = w
            w = t
        top = anchor_r - below(rng, h)
        left = anchor_c - below(rng, w)
        if top < 0 or left < 0 or top + h > n or left + w > n:
            return 0
        for r in range(top, top + h):
            for c in range(left, left + w):
                if not cells[r * n + c]:
                    cells[r * n + c] = 1
                    count += 1
        pick = below(rng, count)                   # rng.choice(sorted(cells))
        for cell in range(n * n):
            if cells[cell]:
                if pick == 0:
                    break
                pick -= 1
        anchor_r = cell // n
        anchor_c = cell % n
    return count


def place(int n, list regions, int star, int label, int size, stars, object rng, double thin) -> list:
    """Cells of a free geometric shape of about `size` cells through `star` holding no other star of
    `stars` (written into `regions` as `label`), or [] when none fits in 16 tries; `thin`: the share
    of a piece's parts drawn as one-cell-wide bars."""
    cdef int attempt, cell, count
    cdef bint fits
    cdef unsigned char *cells = <unsigned char *> calloc(n * n, 1)
    if not cells:
        raise MemoryError()
    try:
        for attempt in range(16):
            count = _shape(n, star, max(3, size - attempt // 4), rng, thin, cells)
            if not count:
                continue
            fits = True
            for cell in range(n * n):
                if cells[cell] and cell != star and (regions[cell] != UNASSIGNED or cell in stars):
                    fits = False
                    break
            if fits:
                placed = [cell for cell in range(n * n) if cells[cell]]
                for cell in placed:
                    regions[cell] = label
                return placed
        return []
    finally:
        free(cells)


def pieces(int n, list regions, answer, object rng, double thin) -> None:
    """styles/composed.py's _pieces on C flags: a geometric piece around each star not yet in a region
    (`place`), one star kept for the background, a piece's mirror image taken by the star inside it
    when it can. The draws are _pieces' own, in its order: choice of the background (a _randbelow),
    uniform(0.15, 0.35) for its share, random() for the mirroring, shuffle of the order, then per
    piece uniform(0.5, 1.6) for its size and place's draws; the sums as Python computes them."""
    cdef int ncells = n * n, nstars = len(answer), label, cell, nfree = 0, nb_count, i, open_cells = 0
    cdef int background, norder = 0, size, other, inside, count, image_cell
    cdef bint ok, clash
    cdef double share, mean, x
    cdef int nbs[4]
    cdef int *star_at = <int *> malloc(nstars * sizeof(int))
    cdef int *free_labels = <int *> malloc(nstars * sizeof(int))
    cdef int *order = <int *> malloc(nstars * sizeof(int))
    cdef int *image = <int *> malloc(ncells * sizeof(int))
    cdef unsigned char *is_star = <unsigned char *> calloc(ncells, 1)
    cdef unsigned char *placed = <unsigned char *> calloc(nstars, 1)
    cdef unsigned char *in_piece = <unsigned char *> calloc(ncells, 1)
    if not star_at or not free_labels or not order or not image or not is_star or not placed or not in_piece:
        free(star_at); free(free_labels); free(order); free(image); free(is_star); free(placed); free(in_piece)
        raise MemoryError()
    try:
        for label in range(nstars):
            star_at[label] = answer[label]
            is_star[star_at[label]] = 1
        stars = set(answer)
        for label in range(nstars):
            cell = star_at[label]
            ok = True
            nb_count = edge_neighbours(n, cell, nbs)
            for i in range(nb_count):
                if not is_star[nbs[i]] and <int> regions[nbs[i]] != UNASSIGNED:
                    ok = False
                    break
            if ok:
                free_labels[nfree] = label
                nfree += 1
            else:
                placed[label] = 1
        if not nfree:
            return
        background = free_labels[below(rng, nfree)]               # rng.choice(free)
        for cell in range(ncells):
            open_cells += <int> regions[cell] == UNASSIGNED
        open_cells += nfree
        x = rng.random()
        share = 0.15 + (0.35 - 0.15) * x                            # rng.uniform(0.15, 0.35)
        mean = (<double> open_cells) * (1 - share) / (<double> max(1, nfree - 1))
        if mean < 2.0:
            mean = 2.0
        mirror = rng.random() < 0.7
        for i in range(nfree):
            if free_labels[i] != background:
                order[norder] = free_labels[i]
                norder += 1
        _shuffle(rng, order, norder)
        for i in range(norder):
            label = order[i]
            if placed[label]:
                continue
            placed[label] = 1
            x = rng.random()
            size = max(3, round_even((0.5 + (1.6 - 0.5) * x) * mean))       # rng.uniform(0.5, 1.6)
            cells = place(n, regions, star_at[label], label, size, stars, rng, thin)
            if not mirror or not cells:
                continue
            count = 0
            inside = -1
            clash = False
            for cell in range(ncells):
                in_piece[cell] = 0
            for value in cells:
                in_piece[<int> value] = 1
            for value in cells:
                cell = value
                image_cell = _floordiv(cell, n) * n + n - 1 - cell % n
                image[count] = image_cell
                count += 1
                if is_star[image_cell]:
                    inside = image_cell if inside == -1 else -2
                if in_piece[image_cell]:
                    clash = True
            if inside < 0 or clash:
                continue
            other = regions[inside]
            if other < 0 or placed[other] or other == background:      # (a star is always in a region)
                continue
            for i in range(count):
                if image[i] != inside and <int> regions[image[i]] != UNASSIGNED:
                    clash = True
                    break
            if clash:
                continue
            placed[other] = 1
            for i in range(count):
                regions[image[i]] = other
    finally:
        free(star_at); free(free_labels); free(order); free(image); free(is_star); free(placed); free(in_piece)


def cut_paths(int n, list regions, answer, paths, object rng) -> None:
    """styles/composed.py's _cut_paths on C arrays: each path split into runs (where neighbours in it
    do not share an edge, and at cells already in a region other than stars) on the map as it was
    given, then each run cut between its stars at a triangular draw of each gap (two randint(a + 1, b)
    each, in order), each piece going to its star's region."""
    cdef int ncells = n * n, nstars = len(answer), total = 0, nruns = 0, length = 0, cell, i, j, a, b
    cdef int start, stop, nat, low, high, target, label
    for path in paths:
        total += len(path)
    cdef int *run_cells = <int *> malloc((total + 1) * sizeof(int))
    cdef int *run_start = <int *> malloc((total + 2) * sizeof(int))
    cdef int *star_label = <int *> malloc(ncells * sizeof(int))
    cdef int *at = <int *> malloc((total + 1) * sizeof(int))
    cdef int *cuts = <int *> malloc((total + 2) * sizeof(int))
    if not run_cells or not run_start or not star_label or not at or not cuts:
        free(run_cells); free(run_start); free(star_label); free(at); free(cuts)
        raise MemoryError()
    try:
        for cell in range(ncells):
            star_label[cell] = -1
        for label in range(nstars - 1, -1, -1):         # answer.index(cell): the first label
            star_label[<int> answer[label]] = label
        # the runs, as _cut_paths lists them: run_start[r]..run_start[r + 1] in run_cells
        run_start[0] = 0
        for path in paths:
            for value in path:
                cell = value
                if length and not _touching(n, cell, run_cells[run_start[nruns] + length - 1]):
                    nruns += 1
                    run_start[nruns] = run_start[nruns - 1] + length
                    length = 0
                if <int> regions[cell] == UNASSIGNED or star_label[cell] >= 0:
                    if length and <int> regions[cell] != UNASSIGNED and star_label[cell] < 0:
                        nruns += 1
                        run_start[nruns] = run_start[nruns - 1] + length
                        length = 0
                    run_cells[run_start[nruns] + length] = cell
                    length += 1
                elif length:
                    nruns += 1
                    run_start[nruns] = run_start[nruns - 1] + length
                    length = 0
            if length:
                nruns += 1
                run_start[nruns] = run_start[nruns - 1] + length
                length = 0
        for j in range(nruns):
            start = run_start[j]
            stop = run_start[j + 1]
            nat = 0
            for i in range(stop - start):
                cell = run_cells[start + i]
                if star_label[cell] >= 0 and <int> regions[cell] == star_label[cell]:
                    at[nat] = i
                    nat += 1
            if not nat:
                continue
            cuts[0] = 0
            for i in range(nat - 1):
                a = at[i]
                b = at[i + 1]
                # (rng.randint(a + 1, b) + rng.randint(a + 1, b) + 1) // 2
                low = a + 1 + below(rng, b - a)
                high = a + 1 + below(rng, b - a)
                cuts[i + 1] = (low + high + 1) // 2
            cuts[nat] = stop - start
            for i in range(nat):
                target = regions[run_cells[start + at[i]]]
                for a in range(cuts[i], cuts[i + 1]):
                    regions[run_cells[start + a]] = target
    finally:
        free(run_cells); free(run_start); free(star_label); free(at); free(cuts)


cdef inline bint _touching(int n, int cell, int other) noexcept:
    """Whether `cell` shares an edge with `other`."""
    cdef int nbs[4]
    cdef int i
    for i in range(edge_neighbours(n, other, nbs)):
        if nbs[i] == cell:
            return True
    return False


# ---- finishing and tuning (styles/composed.py: _absorb, _carve, tune and _regrow) -----------------
#
# The same walks as the Python they replaced, on C arrays, with the same draws in the same order:
# shuffle is CPython's (a _randbelow(i + 1) for i from the last index down to 1), choices with
# weights bisects `random() * total` in the running sums of the weights, computed as Python adds them.

cdef int _shuffle(object rng, int *items, int count) except -1:
    """rng.shuffle of a list holding these items."""
    cdef int i, j, t
    for i in range(count - 1, 0, -1):
        j = below(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t
    return 0


@cython.final
cdef class _Map:
    """A map as a C array beside the Python list it mirrors, with scratch for the walks."""
    cdef int n, cells
    cdef int *labels
    cdef int *sizes             # per label 0..n-1, unassigned cells not counted
    cdef int *scratch           # 3 * cells ints
    cdef unsigned char *star    # the answer's cells
    cdef unsigned char *seen    # cells flags for the walks
    cdef list regions

    def __cinit__(self, int n, list regions, answer):
        cdef int cell, label
        self.n = n
        self.cells = n * n
        if len(regions) != self.cells:
            raise ValueError("regions must list n * n cells")
        self.regions = regions
        self.labels = <int *> malloc(self.cells * sizeof(int))
        self.sizes = <int *> calloc(n, sizeof(int))
        self.scratch = <int *> malloc(3 * self.cells * sizeof(int))
        self.star = <unsigned char *> calloc(self.cells, 1)
        self.seen = <unsigned char *> calloc(self.cells, 1)
        if not self.labels or not self.sizes or not self.scratch or not self.star or not self.seen:
            raise MemoryError()
        for cell in range(self.cells):
            label = regions[cell]
            if not (label == UNASSIGNED or 0 <= label < n):
                raise ValueError("region labels must be 0..n-1 or unassigned")
            self.labels[cell] = label
            if label != UNASSIGNED:
                self.sizes[label] += 1
        for cell in answer:
            self.star[cell] = 1

    def __dealloc__(self):
        free(self.labels); free(self.sizes); free(self.scratch); free(self.star); free(self.seen)

    cdef inline void set(self, int cell, int label):
        self.labels[cell] = label
        self.regions[cell] = label

    cdef bint one_piece_without(self, int cell, int label) noexcept:
        return stays_one_piece(self.n, self.labels, cell, label, self.scratch, self.seen)

    cdef bint connected(self, int label) noexcept:
        """Whether region `label` (with at least one cell) is one piece."""
        cdef int cell, first = -1, total = 0, reached = 1, top = 1, x, i, m
        cdef int nbs[4]
        cdef int *stack = self.scratch
        for cell in range(self.cells):
            self.seen[cell] = 0
            if self.labels[cell] == label:
                total += 1
                if first == -1:
                    first = cell
        self.seen[first] = 1
        stack[0] = first
        while top:
            top -= 1
            x = stack[top]
            m = edge_neighbours(self.n, x, nbs)
            for i in range(m):
                if not self.seen[nbs[i]] and self.labels[nbs[i]] == label:
                    self.seen[nbs[i]] = 1
                    stack[top] = nbs[i]
                    top += 1
                    reached += 1
        return reached == total


def absorb(int n, list regions, object rng, double power) -> None:
    """composed._absorb: the free cells go pocket by pocket to a neighbouring region, a tiny one
    (3 cells or fewer, the least label) first, else one drawn with odds of its size to `power`."""
    cdef _Map m = _Map(n, regions, ())
    cdef int *left = m.scratch
    cdef int *still = m.scratch + m.cells
    cdef int *swap
    cdef int nleft = 0, nstill, index, cell, i, count, best
    cdef int nbs[4]
    cdef int labels[4]
    cdef double cum[4]
    cdef double total
    for cell in range(m.cells):
        if m.labels[cell] == UNASSIGNED:
            left[nleft] = cell
            nleft += 1
    _shuffle(rng, left, nleft)
    while nleft:
        nstill = 0
        for index in range(nleft):
            cell = left[index]
            count = 0
            for i in range(edge_neighbours(n, cell, nbs)):
                if m.labels[nbs[i]] != UNASSIGNED:
                    labels[count] = m.labels[nbs[i]]
                    count += 1
            if not count:
                still[nstill] = cell
                nstill += 1
                continue
            best = -1
            for i in range(count):
                if m.sizes[labels[i]] <= 3 and (best == -1 or labels[i] < best):
                    best = labels[i]
            if best == -1:
                # rng.choices(labels, [size ** power ...])[0]
                total = 0.0
                for i in range(count):
                    total = pow(<double> m.sizes[labels[i]], power) if i == 0 else total + pow(
                        <double> m.sizes[labels[i]], power)
                    cum[i] = total
                best = labels[choose(rng, cum, count)]
            m.set(cell, best)
            m.sizes[best] += 1
        if nstill == nleft:
            return
        swap = left
        left = still
        still = swap
        nleft = nstill


def carve(int n, list regions, answer, object rng) -> None:
    """composed._carve on a map with every cell assigned: corridors cut into the largest region."""
    cdef _Map m = _Map(n, regions, answer)
    cdef int *inner = m.scratch + m.cells
    cdef int *run = m.scratch + 2 * m.cells
    cdef int label, largest = 0, cell, ninner, nrun, r, c, dr, dc, i, taker, step, direction
    cdef bint starred
    cdef double target
    for label in range(n):
        if m.sizes[label] >= m.sizes[largest]:       # max by (count, label)
            largest = label
    target = (0.0 + (0.2 - 0.0) * rng.random()) * m.sizes[largest]   # rng.uniform(0.0, 0.2) * count
    for step in range(3 * n):
        ninner = 0
        for cell in range(m.cells):
            r = cell // n
            c = cell % n
            if (m.labels[cell] == largest and not m.star[cell] and 0 < r < n - 1 and 0 < c < n - 1
                    and m.labels[cell - n] == largest and m.labels[cell + n] == largest
                    and m.labels[cell - 1] == largest and m.labels[cell + 1] == largest):
                inner[ninner] = cell
                ninner += 1
        if ninner <= target:
            return
        cell = inner[below(rng, ninner)]
        r = cell // n
        c = cell % n
        direction = below(rng, 4)               # ((0, 1), (0, -1), (1, 0), (-1, 0))
        dr = 0 if direction < 2 else (1 if direction == 2 else -1)
        dc = 0 if direction >= 2 else (1 if direction == 0 else -1)
        nrun = 0
        starred = False
        while 0 <= r < n and 0 <= c < n and m.labels[r * n + c] == largest:
            run[nrun] = r * n + c
            starred = starred or m.star[r * n + c]
            nrun += 1
            r += dr
            c += dc
        if not (0 <= r < n and 0 <= c < n) or starred:
            continue
        taker = m.labels[r * n + c]
        for i in range(nrun):
            m.set(run[i], taker)
        if not m.connected(largest):
            for i in range(nrun):
                m.set(run[i], largest)


def tune_moves(int n, list regions, answer, object rng, int steps, object search, double regrow,
               double deadline=0.0) -> None:
    """composed.tune after its set-up: _regrow, then `steps` boundary nudges, on `regions` in place
    (`search` holds the map; a move is kept only while `answer` stays the only solution). Raises
    DeadlineExceeded when `deadline` (on `monotonic()`; 0 for none) passes before a check."""
    cdef _Map m = _Map(n, regions, answer)
    cdef int *order = m.scratch + m.cells        # labels by size, stable
    cdef int *offers = m.scratch + 2 * m.cells
    cdef int *members_rows
    cdef int label, i, j, t, cell, attempt, nmembers, nrows, ncols, noffers, donor, nb, own, target
    cdef int ntargets, before, grown, step
    cdef int nbs[4]
    cdef int targets[4]
    cdef unsigned char rows[64]
    cdef unsigned char cols[64]
    cdef bint moved
    if n > 64:
        raise ValueError("tune_moves: maps of at most 64 x 64")
    expected = tuple(answer)

    # _regrow: sorted(range(n), key=size), stable
    for label in range(n):
        order[label] = label
    for i in range(1, n):
        t = order[i]
        j = i
        while j > 0 and m.sizes[order[j - 1]] > m.sizes[t]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = t
    for i in range(n):
        label = order[i]
        if rng.random() >= regrow:
            continue
        for attempt in range(4):
            nmembers = nrows = ncols = 0
            for t in range(n):
                rows[t] = 0
                cols[t] = 0
            for cell in range(m.cells):
                m.seen[cell] = 0
            for cell in range(m.cells):
                if m.labels[cell] == label:
                    nmembers += 1
                    if not rows[cell // n]:
                        rows[cell // n] = 1
                        nrows += 1
                    if not cols[cell % n]:
                        cols[cell % n] = 1
                        ncols += 1
            if nmembers > 3 and nrows > 1 and ncols > 1:
                break
            # the free cells beside the region in a neighbour of 6+ cells, sorted, then shuffled
            for cell in range(m.cells):
                if m.labels[cell] == label:
                    for j in range(edge_neighbours(n, cell, nbs)):
                        nb = nbs[j]
                        if m.labels[nb] != label and not m.star[nb] and m.sizes[m.labels[nb]] >= 6:
                            m.seen[nb] = 1
            noffers = 0
            for cell in range(m.cells):
                if m.seen[cell]:
                    offers[noffers] = cell
                    noffers += 1
            _shuffle(rng, offers, noffers)
            moved = False
            for j in range(noffers):
                cell = offers[j]
                donor = m.labels[cell]
                m.set(cell, label)
                if m.one_piece_without(cell, donor) and only_solution(search, regions, expected, 0, deadline):
                    m.sizes[donor] -= 1
                    m.sizes[label] += 1
                    moved = True
                    break
                m.set(cell, donor)
            if not moved:
                break
    # the nudges
    for step in range(steps):
        cell = below(rng, m.cells)
        own = m.labels[cell]
        ntargets = 0
        for j in range(edge_neighbours(n, cell, nbs)):
            label = m.labels[nbs[j]]
            if label == own:
                continue
            for t in range(ntargets):
                if targets[t] == label:
                    break
            else:
                t = ntargets                     # sorted insert
                while t > 0 and targets[t - 1] > label:
                    targets[t] = targets[t - 1]
                    t -= 1
                targets[t] = label
                ntargets += 1
        if m.star[cell] or not ntargets or m.sizes[own] <= 2:
            continue
        target = targets[below(rng, ntargets)]
        before = look_around_cell(n, m.labels, cell)
        # growing a tiny region out of a large one counts as much as tidying
        grown = 4 * ((m.sizes[target] <= 3 and m.sizes[own] >= 5) - (m.sizes[own] <= 4))
        m.set(cell, target)
        if look_around_cell(n, m.labels, cell) + grown <= before or not m.one_piece_without(cell, own):
            m.set(cell, own)
            continue
        if not only_solution(search, regions, expected, 0, deadline):
            m.set(cell, own)
            continue
        m.sizes[own] -= 1
        m.sizes[target] += 1
