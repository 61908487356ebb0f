# Compiled picture drawing of the pictured style (styles/pictured.py picks the symmetry, finds the
# answer in the picture and mends the symmetry after repair; the picture itself is drawn here).
#
# The draws are the ones `random.Random`'s methods make, taken from the generator passed in, in the same
# order as pictured.picture_reference (the pure-Python drawing): choice draws `getrandbits(k)` for k
# the bit length of the range until one falls inside it (CPython's _randbelow), choices scales one
# `random()` by the summed weights and bisects the running sums, gauss is the generator's own. So with
# the frame off (frame=0) a seed gives the same picture as the Python drawing, cell for cell; the frame
# (the background taking the board's edge, pieces kept off it) exists only here.

cimport cython
from libc.math cimport pow
from libc.stdlib cimport calloc, free, malloc

from engine.core._grid cimport edge_neighbours
from engine.core._regions cimport stays_one_piece
from engine.core._rng cimport below, choose, round_even

DEF UNASSIGNED = -1


cdef double _quantile(object values, object rng) except? -1.0:
    """pictured._draw_quantile: a draw from the distribution whose even quantiles are `values`."""
    cdef long size = len(values), low, high
    cdef double at = rng.random() * (size - 1)
    low = <long> at
    high = min(low + 1, size - 1)
    return <double> values[low] + (<double> values[high] - <double> values[low]) * (at - low)


cdef struct Pic:
    int n
    int cells
    int *regions
    int *sigma
    int *partner
    int *nb          # 4 per cell
    int *nbc         # how many of them


cdef inline bint _adjacent(Pic *p, int a, int b) noexcept:
    cdef int k
    for k in range(p.nbc[a]):
        if p.nb[4 * a + k] == b:
            return True
    return False


cdef inline bint _touches(Pic *p, int cell, int label) noexcept:
    cdef int k
    for k in range(p.nbc[cell]):
        if p.regions[p.nb[4 * cell + k]] == label:
            return True
    return False


cdef inline bint _centred(Pic *p, int cell) noexcept:
    cdef int twin = p.sigma[cell]
    return twin == cell or _adjacent(p, cell, twin)


cdef inline void _claim(Pic *p, int cell, int label) noexcept:
    cdef int twin = p.sigma[cell], other = p.partner[label]
    p.regions[cell] = label
    if other >= 0 and twin != cell and p.regions[twin] == UNASSIGNED:
        p.regions[twin] = other


cdef inline bint _fits(Pic *p, int cell, int unit) noexcept:
    """Whether `unit` may take this free cell (and its image) keeping the picture symmetric."""
    cdef int twin = p.sigma[cell], other = p.partner[unit]
    if other >= 0 and other != unit:
        return (twin != cell and p.regions[twin] == UNASSIGNED and not _adjacent(p, cell, twin)
                and _touches(p, twin, other))
    if other == unit and twin != cell:
        return p.regions[twin] == UNASSIGNED and (_adjacent(p, cell, twin) or _touches(p, twin, unit))
    return True


cdef inline bint _on_edge(int n, int cell) noexcept:
    cdef int r = cell // n, c = cell % n
    return r == 0 or c == 0 or r == n - 1 or c == n - 1


cdef int _free_seeds(Pic *p, bint spaced, int *out, double frame, object rng) except -1:
    """The free cells (spaced: with every neighbour free too), in order; with a frame, cells on the
    board's edge are left out when others remain (pieces start inside the frame)."""
    cdef int cell, count = 0, k
    cdef bint ok
    for cell in range(p.cells):
        if p.regions[cell] != UNASSIGNED:
            continue
        if frame > 0.0 and _on_edge(p.n, cell):
            continue
        ok = True
        if spaced:
            for k in range(p.nbc[cell]):
                if p.regions[p.nb[4 * cell + k]] != UNASSIGNED:
                    ok = False
                    break
        if ok:
            out[count] = cell
            count += 1
    if count == 0 and frame > 0.0:       # nothing inside the frame: the edge too
        return _free_seeds(p, spaced, out, 0.0, rng)
    return count


def picture(int n, str kind, tuple sigma, object largest, object spread_quantiles, double spread,
            object rng, double pair_share, double compact_power, double background_power, double blocks_share,
            double block_power, double gap_weight, int min_piece, double carve_interior, int carve_tries,
            double frame=0.0):
    """pictured.picture_reference compiled (same arguments, then its constants): n regions symmetric
    under `kind` (`sigma`: each cell's image) but where growth could not keep it, or None when a piece
    found no seed. Label 0 is the background. `frame` > 0: the background is drawn along the board's
    edge first (growth weighs an edge cell `frame` times more, pieces seed inside) before its thin
    growth between the pieces."""
    cdef Pic p
    cdef int cells = n * n, cell, k, label, count, u, i, twin, inside, best, total_units, left_count
    cdef int *scratch = NULL
    cdef int *opts = NULL
    cdef int *counts = NULL
    cdef int *targets = NULL
    cdef int *units = NULL
    cdef int *growing = NULL
    cdef double *weights = NULL
    cdef double *cum = NULL
    cdef double background_share, rest, spread_now, total, w, key, best_key, power, apart
    cdef bint blocks, paired, progress
    cdef int partner_len, n_units, n_growing, n_opts
    cdef list out
    p.n = n
    p.cells = cells
    p.regions = <int *> malloc(cells * sizeof(int))
    p.sigma = <int *> malloc(cells * sizeof(int))
    p.partner = <int *> malloc((n + 2) * sizeof(int))
    p.nb = <int *> malloc(4 * cells * sizeof(int))
    p.nbc = <int *> malloc(cells * sizeof(int))
    scratch = <int *> malloc(cells * sizeof(int))
    opts = <int *> malloc(cells * sizeof(int))
    counts = <int *> calloc(n + 2, sizeof(int))
    targets = <int *> calloc(n + 2, sizeof(int))
    units = <int *> malloc((n + 2) * sizeof(int))
    growing = <int *> malloc((n + 2) * sizeof(int))
    weights = <double *> malloc((cells + n + 2) * sizeof(double))
    cum = <double *> malloc((cells + 2) * sizeof(double))
    try:
        for cell in range(cells):
            p.regions[cell] = UNASSIGNED
            p.sigma[cell] = sigma[cell]
            p.nbc[cell] = edge_neighbours(n, cell, &p.nb[4 * cell])
        partner_len = 0
        # the background first: its own image when the symmetry allows (a centred seed), else free
        background_share = _quantile(largest, rng)
        count = 0
        if kind != "none":
            for cell in range(cells):
                if _centred(&p, cell):
                    scratch[count] = cell
                    count += 1
        if frame > 0.0 and count:            # framed: a centred seed on the board's edge, when there is one
            k = 0
            for i in range(count):
                if _on_edge(n, scratch[i]):
                    scratch[k] = scratch[i]
                    k += 1
            if k:
                count = k
        if kind == "half" and count == 0:
            p.partner[0] = 0
            partner_len = 1
            for i in range(2):
                for k in range(2):
                    p.regions[(n // 2 - 1 + i) * n + n // 2 - 1 + k] = 0
        else:
            p.partner[0] = 0 if count else -1
            partner_len = 1
            if count == 0:
                count = _free_seeds(&p, False, scratch, 0.0, rng)
                if frame > 0.0:                  # framed, no symmetry: a seed on the edge
                    k = 0
                    for i in range(count):
                        if _on_edge(n, scratch[i]):
                            scratch[k] = scratch[i]
                            k += 1
                    count = k
            _claim(&p, scratch[below(rng, count)], 0)
        # the pieces: n - 1 labels, as mirrored pairs or their own images
        n_units = 0
        while partner_len < n:
            label = partner_len
            count = _free_seeds(&p, True, scratch, frame, rng)
            if count == 0:
                count = _free_seeds(&p, False, scratch, frame, rng)
            if count == 0:
                return None
            paired = kind != "none" and n - label >= 2 and rng.random() < pair_share
            if paired:
                n_opts = 0
                for i in range(count):
                    cell = scratch[i]
                    twin = p.sigma[cell]
                    if twin != cell and p.regions[twin] == UNASSIGNED and not _adjacent(&p, cell, twin):
                        opts[n_opts] = cell
                        n_opts += 1
                if n_opts:
                    p.partner[label] = label + 1
                    p.partner[label + 1] = label
                    partner_len += 2
                    _claim(&p, opts[below(rng, n_opts)], label)
                    units[n_units] = label
                    n_units += 1
                    continue
            n_opts = 0
            if kind != "none":
                for i in range(count):
                    cell = scratch[i]
                    if _centred(&p, cell) and p.regions[p.sigma[cell]] == UNASSIGNED:
                        opts[n_opts] = cell
                        n_opts += 1
            p.partner[label] = label if n_opts else -1
            partner_len += 1
            if n_opts:
                _claim(&p, opts[below(rng, n_opts)], label)
            else:
                _claim(&p, scratch[below(rng, count)], label)
            units[n_units] = label
            n_units += 1
        # blocks on a background (compact pieces kept apart), or pieces grown freely against each other
        blocks = rng.random() < blocks_share
        if blocks:
            power, apart = block_power, 0.0
        else:
            power, apart = compact_power, gap_weight
        rest = cells * (1 - background_share)
        spread_now = max(0.0, _quantile(spread_quantiles, rng) * (1 + spread - 0.325))
        unit_weights = [max(0.2, rng.gauss(1.0, spread_now)) * (2 if p.partner[units[i]] not in (units[i], -1) else 1)
                        for i in range(n_units)]
        total = sum(unit_weights)
        for i in range(n_units):
            u = units[i]
            k = 2 if p.partner[u] != u and p.partner[u] != -1 else 1
            targets[u] = max(min_piece, round_even(rest * <double> unit_weights[i] / total / k))
        targets[0] = max(1, round_even(cells * background_share / 1))
        for cell in range(cells):
            if p.regions[cell] >= 0:
                counts[p.regions[cell]] += 1
        # grow every region, the one furthest from its target first (ties at random), a cell at a time
        growing[0] = 0
        for i in range(n_units):
            growing[i + 1] = units[i]
        n_growing = n_units + 1
        while n_growing:
            best = 0
            for i in range(n_growing):
                u = growing[i]
                key = <double> (targets[u] - counts[u]) / targets[u] + rng.random() * 0.3
                if i == 0 or key > best_key:
                    best, best_key = i, key
            u = growing[best]
            if counts[u] >= targets[u]:
                for i in range(best, n_growing - 1):
                    growing[i] = growing[i + 1]
                n_growing -= 1
                continue
            # the free cells next to the region, in order, with their weights
            n_opts = 0
            total = 0.0
            for cell in range(cells):
                if p.regions[cell] != UNASSIGNED or not _touches(&p, cell, u) or not _fits(&p, cell, u):
                    continue
                inside = 0
                for k in range(p.nbc[cell]):
                    if p.regions[p.nb[4 * cell + k]] == u:
                        inside += 1
                w = 1.0
                if u:
                    for k in range(p.nbc[cell]):
                        label = p.regions[p.nb[4 * cell + k]]
                        if label != UNASSIGNED and label != 0 and label != u:
                            w = apart
                            break
                    w = pow(<double> inside, power) * w
                else:
                    w = pow(<double> inside, background_power)
                    if frame > 0.0 and _on_edge(n, cell):
                        w *= frame
                opts[n_opts] = cell
                weights[n_opts] = w
                total += w
                n_opts += 1
            if n_opts == 0 or total == 0.0:
                for i in range(best, n_growing - 1):
                    growing[i] = growing[i + 1]
                n_growing -= 1
                continue
            # rng.choices(options, weights)[0]
            cum[0] = weights[0]
            for i in range(1, n_opts):
                cum[i] = cum[i - 1] + weights[i]
            cell = opts[choose(rng, cum, n_opts)]
            twin = p.sigma[cell]
            label = p.regions[twin]
            _claim(&p, cell, u)
            counts[u] += 1
            if twin != cell and label == UNASSIGNED and p.regions[twin] != UNASSIGNED:
                counts[p.regions[twin]] += 1
        # what is left goes to a neighbour that keeps the symmetry (the background first), else to any
        left_count = 0
        for cell in range(cells):
            if p.regions[cell] == UNASSIGNED:
                scratch[left_count] = cell
                left_count += 1
        while left_count:
            progress = False
            for i in range(left_count):
                cell = scratch[i]
                if p.regions[cell] != UNASSIGNED:
                    continue
                n_opts = _touching(&p, cell, opts)
                count = 0
                for k in range(n_opts):
                    if _fits(&p, cell, opts[k]):
                        opts[count] = opts[k]
                        count += 1
                if count:
                    if opts[0] == 0:
                        _claim(&p, cell, 0)
                    else:
                        _claim(&p, cell, opts[below(rng, count)])
                    progress = True
            left_count = _still_free(&p, scratch, left_count)
            if not progress:
                for i in range(left_count):
                    cell = scratch[i]
                    n_opts = _touching(&p, cell, opts)
                    if n_opts:
                        p.regions[cell] = opts[below(rng, n_opts)]
                left_count = _still_free(&p, scratch, left_count)
        _carve(&p, rng, carve_interior, carve_tries, scratch, opts)
        out = [p.regions[cell] for cell in range(cells)]
        return out
    finally:
        free(p.regions)
        free(p.sigma)
        free(p.partner)
        free(p.nb)
        free(p.nbc)
        free(scratch)
        free(opts)
        free(counts)
        free(targets)
        free(units)
        free(growing)
        free(weights)
        free(cum)


cdef int _touching(Pic *p, int cell, int *out) noexcept:
    """The distinct labels next to `cell`, ascending (sorted({...}) of the Python drawing)."""
    cdef int k, j, label, count = 0, t
    for k in range(p.nbc[cell]):
        label = p.regions[p.nb[4 * cell + k]]
        if label == UNASSIGNED:
            continue
        for j in range(count):
            if out[j] == label:
                break
        else:
            out[count] = label
            count += 1
    for k in range(1, count):              # insertion sort (at most 4)
        t = out[k]
        j = k - 1
        while j >= 0 and out[j] > t:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = t
    return count


cdef int _still_free(Pic *p, int *cells, int count) noexcept:
    cdef int i, kept = 0
    for i in range(count):
        if p.regions[cells[i]] == UNASSIGNED:
            cells[kept] = cells[i]
            kept += 1
    return kept


cdef bint _connected(Pic *p, int label, int *stack, unsigned char *seen) noexcept:
    """Whether region `label` is one piece and not empty."""
    cdef int cell, start = -1, size = 0, reached = 0, top = 0, k, nb
    for cell in range(p.cells):
        seen[cell] = 0
        if p.regions[cell] == label:
            size += 1
            if start < 0:
                start = cell
    if start < 0:
        return False
    stack[0] = start
    seen[start] = 1
    top = 1
    while top:
        top -= 1
        cell = stack[top]
        reached += 1
        for k in range(p.nbc[cell]):
            nb = p.nb[4 * cell + k]
            if not seen[nb] and p.regions[nb] == label:
                seen[nb] = 1
                stack[top] = nb
                top += 1
    return reached == size


cdef int _carve(Pic *p, object rng, double carve_interior, int carve_tries, int *interior, int *run) except -1:
    """pictured._carve: corridors cut into blobs (a straight run from an interior cell to the region's
    edge handed to the region beyond, with its image), while the board has more interior cells than
    carve_interior per row; a cut that would split or empty a region is undone."""
    cdef int n = p.n, cells = p.cells, tries, count = 0, cell, k, start, label, dr, dc, r, c, length, to
    cdef int moved_count, i, j, want, was
    cdef bint changed = True, ok, mirrored
    cdef int *move_cell = <int *> malloc(2 * cells * sizeof(int))
    cdef int *move_to = <int *> malloc(2 * cells * sizeof(int))
    cdef int *before = <int *> malloc(2 * cells * sizeof(int))
    cdef int *stack = <int *> malloc(cells * sizeof(int))
    cdef unsigned char *seen = <unsigned char *> malloc(cells)
    cdef unsigned char *in_moves = <unsigned char *> calloc(cells, 1)
    cdef int touched[8]
    cdef int n_touched
    cdef int steps[8]
    steps[:] = [0, 1, 0, -1, 1, 0, -1, 0]
    try:
        for tries in range(carve_tries):
            if changed:
                count = 0
                for cell in range(cells):
                    if p.nbc[cell] != 4:
                        continue
                    ok = True
                    for k in range(4):
                        if p.regions[p.nb[4 * cell + k]] != p.regions[cell]:
                            ok = False
                            break
                    if ok:
                        interior[count] = cell
                        count += 1
                changed = False
            if count <= carve_interior * n:
                return 0
            start = interior[below(rng, count)]
            label = p.regions[start]
            k = below(rng, 4)
            dr, dc = steps[2 * k], steps[2 * k + 1]
            r, c = start // n, start % n
            length = 0
            while 0 <= r < n and 0 <= c < n and p.regions[r * n + c] == label:
                run[length] = r * n + c
                length += 1
                r += dr
                c += dc
            if not (0 <= r < n and 0 <= c < n):
                continue
            to = p.regions[r * n + c]
            moved_count = 0
            for i in range(length):
                move_cell[moved_count] = run[i]
                move_to[moved_count] = to
                in_moves[run[i]] = 1
                moved_count += 1
            if p.partner[label] >= 0 and p.partner[to] >= 0:
                for i in range(length):
                    cell = p.sigma[run[i]]
                    if not in_moves[cell]:
                        in_moves[cell] = 1
                        move_cell[moved_count] = cell
                        move_to[moved_count] = p.partner[to]
                        moved_count += 1
            ok = True
            for i in range(moved_count):
                want = label if move_to[i] == to else p.partner[label]
                if p.regions[move_cell[i]] != want:
                    ok = False
                    break
            if ok:
                n_touched = 0
                for i in range(moved_count):
                    before[i] = p.regions[move_cell[i]]
                    _add(touched, &n_touched, before[i])
                    _add(touched, &n_touched, move_to[i])
                for i in range(moved_count):
                    p.regions[move_cell[i]] = move_to[i]
                for j in range(n_touched):
                    if not _connected(p, touched[j], stack, seen):
                        ok = False
                        break
                if ok:
                    changed = True
                else:
                    for i in range(moved_count):
                        p.regions[move_cell[i]] = before[i]
            for i in range(moved_count):
                in_moves[move_cell[i]] = 0
        return 0
    finally:
        free(move_cell)
        free(move_to)
        free(before)
        free(stack)
        free(seen)
        free(in_moves)


cdef inline void _add(int *items, int *count, int value) noexcept:
    cdef int i
    for i in range(count[0]):
        if items[i] == value:
            return
    if count[0] < 8:
        items[count[0]] = value
        count[0] += 1


def symmetry_of(int n, object regions, tuple kinds, tuple images):
    """pictured.symmetry_of compiled: the kind (of `kinds`, each cell's image under it in `images`) whose
    image maps most cells' labels one to one, with each label's image label; ("none", {}) when no kind
    maps 90% of the cells. Labels must be 0 to n - 1."""
    cdef int cells = n * n, cell, label, other, i, j, best_i = -1, hits, top
    cdef double share, best_share = 0.9
    cdef int *grid = <int *> malloc(cells * sizeof(int))
    cdef int *votes = <int *> malloc(n * n * sizeof(int))
    cdef int *first = <int *> malloc(n * n * sizeof(int))
    cdef int *pairs = <int *> malloc(n * sizeof(int))
    cdef int *best_pairs = <int *> malloc(n * sizeof(int))
    cdef unsigned char *present = <unsigned char *> calloc(n, 1)
    cdef tuple sigma
    try:
        for cell in range(cells):
            grid[cell] = regions[cell]
            present[grid[cell]] = 1
        for i in range(len(kinds)):
            sigma = images[i]
            for j in range(n * n):
                votes[j] = 0
                first[j] = cells
            for cell in range(cells):
                label, other = grid[cell], grid[<int> sigma[cell]]
                votes[label * n + other] += 1
                if first[label * n + other] == cells:
                    first[label * n + other] = cell
            hits = 0
            for label in range(n):
                if not present[label]:
                    continue
                top = -1
                for other in range(n):      # the most votes; ties to the label seen first (dict order)
                    if votes[label * n + other] and (top < 0 or votes[label * n + other] > votes[label * n + top]
                                                    or (votes[label * n + other] == votes[label * n + top]
                                                        and first[label * n + other] < first[label * n + top])):
                        top = other
                pairs[label] = top
                hits += votes[label * n + top]
            share = <double> hits / cells
            if share > best_share:
                best_share, best_i = share, i
                for label in range(n):
                    best_pairs[label] = pairs[label]
        if best_i < 0:
            return "none", {}
        out = {}
        for cell in range(cells):               # the labels in the order the Python dict meets them
            label = grid[cell]
            if label not in out:
                out[label] = best_pairs[label]
        return kinds[best_i], out
    finally:
        free(grid)
        free(votes)
        free(first)
        free(pairs)
        free(best_pairs)
        free(present)


TEXTURE_NAMES = ("blank", "straight", "turn", "tee", "cross", "border", "runs_per_row", "run_mean", "run_1",
                 "run_2", "run_long", "run_max", "turns_per_edge", "stairs", "floating", "mirror_lr",
                 "mirror_ud", "half_turn", "transpose", "anti_transpose", "symmetry_max", "density")


cdef int _find(int *parent, int x) noexcept:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def texture(int n, object regions):
    """The boundary texture of a map, as bench/boundary_texture.py measures it (TEXTURE_NAMES, in order):
    junction shares, edge endings, straight runs, turns, stairs, floating outlines, the five
    symmetries' shares of boundary edges and the density. pictured's texture likeness judges these."""
    cdef int cells = n * n, r, c, i, j, up, down, left, right, degree, edges = 0, length, count, a, b
    cdef int blank = 0, straight = 0, turn = 0, tee = 0, cross = 0, border = 0, stairs = 0, floating = 0
    cdef int runs = 0, run_1 = 0, run_2 = 0, run_long = 0, run_max = 0, run_sum = 0, k, points = (n + 1) * (n + 1)
    cdef int *grid = <int *> malloc(cells * sizeof(int))
    cdef unsigned char *v = <unsigned char *> calloc(cells, 1)      # v[r * n + c], c < n - 1
    cdef unsigned char *h = <unsigned char *> calloc(cells, 1)      # h[r * n + c], r < n - 1
    cdef unsigned char *turning = <unsigned char *> calloc(cells, 1)   # [(i - 1) * n + j - 1]
    cdef int *parent = <int *> malloc(points * sizeof(int))
    cdef unsigned char *used = <unsigned char *> calloc(points, 1)
    cdef unsigned char *touch = <unsigned char *> calloc(points, 1)
    cdef unsigned char *counted = <unsigned char *> calloc(points, 1)
    cdef long shared[5]
    cdef double share, best = 0.0, inner = (n - 1) * (n - 1)
    try:
        for i in range(cells):
            grid[i] = regions[i]
        for r in range(n):
            for c in range(n):
                if c < n - 1 and grid[r * n + c] != grid[r * n + c + 1]:
                    v[r * n + c] = 1
                    edges += 1
                if r < n - 1 and grid[r * n + c] != grid[(r + 1) * n + c]:
                    h[r * n + c] = 1
                    edges += 1
        for i in range(1, n):
            for j in range(1, n):
                up, down = v[(i - 1) * n + j - 1], v[i * n + j - 1]
                left, right = h[(i - 1) * n + j - 1], h[(i - 1) * n + j]
                degree = up + down + left + right
                if degree == 0:
                    blank += 1
                elif degree == 2:
                    if (up and down) or (left and right):
                        straight += 1
                    else:
                        turn += 1
                        turning[(i - 1) * n + j - 1] = 1
                elif degree == 3:
                    tee += 1
                elif degree == 4:
                    cross += 1
        for i in range(n - 1):
            for j in range(n - 1):
                if turning[i * n + j]:
                    for a, b in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                        if 0 <= i + a < n - 1 and 0 <= j + b < n - 1 and turning[(i + a) * n + j + b]:
                            stairs += 1
                            break
        for r in range(n - 1):
            border += v[r] + v[(n - 1) * n + r] + h[r * n] + h[r * n + n - 1]
        # straight runs: down each column line of v, along each row line of h
        for k in range(2):
            for i in range(n - 1):
                length = 0
                for j in range(n + 1):
                    if j < n and ((k == 0 and v[j * n + i]) or (k == 1 and h[i * n + j])):
                        length += 1
                    elif length:
                        runs += 1
                        run_sum += length
                        run_1 += length == 1
                        run_2 += length == 2
                        run_long += 2 * length >= n
                        run_max = max(run_max, length)
                        length = 0
        # floating outlines: boundary pieces (edges joined at lattice points) that never reach the edge
        for i in range(points):
            parent[i] = i
        for r in range(n):
            for c in range(n):
                if c < n - 1 and v[r * n + c]:
                    a, b = r * (n + 1) + c + 1, (r + 1) * (n + 1) + c + 1
                    parent[_find(parent, a)] = _find(parent, b)
                    used[a] = used[b] = 1
                if r < n - 1 and h[r * n + c]:
                    a, b = (r + 1) * (n + 1) + c, (r + 1) * (n + 1) + c + 1
                    parent[_find(parent, a)] = _find(parent, b)
                    used[a] = used[b] = 1
        for i in range(points):
            if used[i] and (i // (n + 1) in (0, n) or i % (n + 1) in (0, n)):
                touch[_find(parent, i)] = 1
        for i in range(points):
            if used[i]:
                a = _find(parent, i)
                if not counted[a]:
                    counted[a] = 1
                    floating += not touch[a]
        # symmetry: boundary edges whose image is one too
        for k in range(5):
            shared[k] = 0
        for r in range(n):
            for c in range(n - 1):
                if v[r * n + c]:
                    shared[0] += v[r * n + n - 2 - c]
                    shared[1] += v[(n - 1 - r) * n + c]
                    shared[2] += v[(n - 1 - r) * n + n - 2 - c]
                    shared[3] += h[c * n + r]
                    shared[4] += h[(n - 2 - c) * n + n - 1 - r]
        for r in range(n - 1):
            for c in range(n):
                if h[r * n + c]:
                    shared[0] += h[r * n + n - 1 - c]
                    shared[1] += h[(n - 2 - r) * n + c]
                    shared[2] += h[(n - 2 - r) * n + n - 1 - c]
                    shared[3] += v[c * n + r]
                    shared[4] += v[(n - 1 - c) * n + n - 2 - r]
        out = [blank / inner, straight / inner, turn / inner, tee / inner, cross / inner,
               border / (4.0 * (n - 1)), runs / <double> n,
               (run_sum / <double> runs / n) if runs else 0.0,
               (run_1 / <double> runs) if runs else 0.0, (run_2 / <double> runs) if runs else 0.0,
               (run_long / <double> runs) if runs else 0.0, run_max / <double> n,
               turn / <double> max(1, edges), stairs / <double> max(1, turn), floating / <double> n]
        for k in range(5):
            share = shared[k] / <double> max(1, edges)
            best = max(best, share)
            out.append(share)
        out.append(best)
        out.append(edges / (2.0 * n * (n - 1)))
        return out
    finally:
        free(grid)
        free(v)
        free(h)
        free(turning)
        free(parent)
        free(used)
        free(touch)
        free(counted)


def relabel(int n, list regions, tuple answer, object rng, int steps, object search, double deadline,
            object drawn, tuple sigma, dict pairs, int keep_cells, object only_solution):
    """The mends of pictured.tune: give each cell but the answer's its wanted label (the drawing's,
    `drawn`; else, with `drawn` None, the symmetry's: `pairs` of the label of its image under `sigma`),
    where it borders that label's region, the region it leaves keeps more than `keep_cells` cells and
    stays one piece, and the answer stays the only one (`only_solution` on `search`); at most `steps`
    tries, two passes. Takes the same draws of `rng` as the Python loop it replaces (one shuffle of the
    same list a pass). Changes `regions` in place and returns it."""
    cdef int cells = n * n, cell, want, now, i, m, tries = 0
    cdef int nbs[4]
    cdef bint borders
    cdef int *lab = <int *> malloc(cells * 2 * sizeof(int) + cells)
    cdef int *size = <int *> calloc(cells + 1, sizeof(int))
    cdef unsigned char *star = <unsigned char *> calloc(cells, 1)
    if not lab or not size or not star:
        free(lab)
        free(size)
        free(star)
        raise MemoryError()
    cdef int *scratch = lab + cells
    cdef unsigned char *seen = <unsigned char *> (lab + 2 * cells)
    cdef list order
    try:
        for i in range(cells):
            lab[i] = regions[i]
            if not 0 <= lab[i] < cells:
                raise ValueError("relabel: labels are 0 .. n * n - 1")
            size[lab[i]] += 1
        for cell in answer:
            star[cell] = 1
        for _ in range(2):
            order = [i for i in range(cells) if not star[i] and lab[i] != _wanted(lab, i, drawn, sigma, pairs)]
            if not order:
                break
            rng.shuffle(order)
            for cell in order:
                want = _wanted(lab, cell, drawn, sigma, pairs)
                now = lab[cell]
                if want == now or size[now] <= keep_cells:
                    continue
                borders = False
                m = edge_neighbours(n, cell, nbs)
                for i in range(m):
                    if lab[nbs[i]] == want:
                        borders = True
                        break
                if not borders or not stays_one_piece(n, lab, cell, now, scratch, seen):
                    continue
                if tries >= steps:
                    return regions
                tries += 1
                regions[cell] = want
                if only_solution(search, regions, answer, deadline=deadline):
                    lab[cell] = want
                    size[now] -= 1
                    size[want] += 1
                else:
                    regions[cell] = now
        return regions
    finally:
        free(lab)
        free(size)
        free(star)


cdef inline int _wanted(const int *lab, int cell, object drawn, tuple sigma, dict pairs) except? -2:
    # the label the cell should have: the drawing's, or the image's label mapped by the symmetry's pairs
    if drawn is not None:
        return drawn[cell]
    cdef int image = lab[<int> sigma[cell]]
    return pairs.get(image, lab[cell])
