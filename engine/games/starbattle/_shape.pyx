# Compiled measures of a region map (engine/games/starbattle/shape.py gives them their names and
# meaning).
#
# `measure` walks a map once for everything shape_features and look report; `look_around_cell` is the
# part of the look one boundary move can change (composed's tuning asks it thousands of times a board;
# a C entry point in _shape.pxd). Every ratio is computed as the Python code computed it (the same
# integer divisions, the same sums of per-region ratios in the same order of regions: first cell
# first), so the floats are the same bits and the maps a style keeps are the same. Labels are any
# integers from 0; cells are r * n + c.
#
# Also a board's canonical labels (its fingerprint, engine/games/starbattle/fingerprint.py). The walks
# of a region's connectivity the styles' tunings repeat are shared: engine/core/_regions.pyx.

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdlib cimport malloc, calloc, free


cdef inline int _corners_at(const int *lab, int n, int i, int j, int *per_label) noexcept nogil:
    """The outline corners at lattice point (i, j) (0..n each way), added to per_label[label] when
    per_label is not NULL; returns their total. A point is a corner of a region holding 1 or 3 of the
    4 cells around it, two corners of one holding 2 diagonal ones (-1: off the grid)."""
    cdef int q[4]
    cdef int x, y, label, count, total = 0, add
    q[0] = lab[(i - 1) * n + j - 1] if i > 0 and j > 0 else -1     # top left, then clockwise
    q[1] = lab[(i - 1) * n + j] if i > 0 and j < n else -1
    q[2] = lab[i * n + j] if i < n and j < n else -1
    q[3] = lab[i * n + j - 1] if i < n and j > 0 else -1
    if q[0] == q[1] and q[1] == q[2] and q[2] == q[3]:
        return 0                                  # inside one region: no corner (the common case)
    for x in range(4):
        label = q[x]
        if label == -1:
            continue
        for y in range(x):
            if q[y] == label:
                break
        else:
            count = (q[0] == label) + (q[1] == label) + (q[2] == label) + (q[3] == label)
            add = 0
            if count == 1 or count == 3:
                add = 1
            elif count == 2 and (q[0] == label) == (q[2] == label):
                add = 2
            total += add
            if per_label != NULL:
                per_label[label] += add
    return total


cdef inline int _mirrored_bits(const int *row, int n) noexcept nogil:
    """How many of a row's vertical boundary bits (a border between c and c + 1?) equal the bit at
    their left-right mirror image."""
    cdef int c, same = 0
    for c in range(n - 1):
        same += (row[c] != row[c + 1]) == (row[n - 2 - c] != row[n - 1 - c])
    return same


cdef int *_dense(int n, regions, int *count) except NULL:
    """The map with its labels renumbered 0.. in order of first appearance (malloc'd; the caller frees)."""
    cdef int cells = n * n, i, label, top = -1, m = 0
    if len(regions) != cells:
        raise ValueError("regions must list n * n cells")
    cdef int *lab = <int *> malloc(cells * sizeof(int))
    if not lab:
        raise MemoryError()
    for i in range(cells):
        label = regions[i]
        if label < 0:
            free(lab)
            raise ValueError("region labels must be 0 or more")
        lab[i] = label
        if label > top:
            top = label
    cdef int *index = <int *> malloc((top + 1) * sizeof(int))
    if not index:
        free(lab)
        raise MemoryError()
    for i in range(top + 1):
        index[i] = -1
    for i in range(cells):
        if index[lab[i]] == -1:
            index[lab[i]] = m
            m += 1
        lab[i] = index[lab[i]]
    free(index)
    count[0] = m
    return lab


def measure(int n, regions):
    """Everything shape_features and look report of a map, in one walk:
    (sizes smallest first, tiny, straight, boundary edges, interior cells, mean perimeter per cell,
    mean fill, largest region's cells, mirrored bits, outline corners, rectangles, regions with at
    most 8 corners, regions)."""
    cdef int m, i, j, r, c, cell, label, size, h, w, same
    cdef int boundary = 0, interior = 0, mirrored = 0, corners = 0, straight = 0, tiny = 0
    cdef int rectangles = 0, geometric = 0, largest = 0
    cdef double perimeters = 0.0, fills = 0.0
    cdef int *s
    cdef int *lab = _dense(n, regions, &m)
    # per region: size, top, bottom, left, right, outline edges; then the corners of each region
    cdef int *stats = <int *> calloc(7 * m, sizeof(int))
    if not stats:
        free(lab)
        raise MemoryError()
    cdef int *region_corners = stats + 6 * m
    try:
        for label in range(m):
            stats[6 * label + 1] = n
            stats[6 * label + 3] = n
        for cell in range(n * n):
            r = cell // n
            c = cell % n
            label = lab[cell]
            s = stats + 6 * label
            s[0] += 1
            s[1] = min(s[1], r)
            s[2] = max(s[2], r)
            s[3] = min(s[3], c)
            s[4] = max(s[4], c)
            same = 0
            if r > 0:
                same += lab[cell - n] == label
            if r + 1 < n:
                same += lab[cell + n] == label
            if c > 0:
                same += lab[cell - 1] == label
            if c + 1 < n:
                same += lab[cell + 1] == label
            s[5] += 4 - same
            boundary += (c + 1 < n and lab[cell + 1] != label) + (r + 1 < n and lab[cell + n] != label)
            interior += 0 < r < n - 1 and 0 < c < n - 1 and same == 4
        for r in range(n):
            mirrored += _mirrored_bits(lab + r * n, n)
        for i in range(n + 1):
            for j in range(n + 1):
                corners += _corners_at(lab, n, i, j, region_corners)
        sizes = []
        for label in range(m):         # regions in order of their first cell, as the sums were taken
            s = stats + 6 * label
            size = s[0]
            h = s[2] - s[1] + 1
            w = s[4] - s[3] + 1
            straight += size >= 2 and (h == 1 or w == 1)
            fills += <double> size / (h * w)
            perimeters += <double> s[5] / size
            rectangles += size == h * w
            tiny += size <= 3
            geometric += region_corners[label] <= 8
            largest = max(largest, size)
            sizes.append(size)
        sizes.sort()
        return (tuple(sizes), tiny, straight, boundary, interior, perimeters / m, fills / m, largest,
                mirrored, corners, rectangles, geometric, m)
    finally:
        free(lab)
        free(stats)


def region_corners(int n, regions) -> dict:
    """The corners of each region's outline (holes included), by label: 4 for a rectangle, 6 for an
    L, 8 for a T, 12 for a plus."""
    cdef int m, i, j, cell
    cdef int *lab = _dense(n, regions, &m)
    cdef int *corners = <int *> calloc(m, sizeof(int))
    if not corners:
        free(lab)
        raise MemoryError()
    try:
        for i in range(n + 1):
            for j in range(n + 1):
                _corners_at(lab, n, i, j, corners)
        labels = []                    # the original labels, in order of first appearance
        for cell in range(n * n):
            if lab[cell] == len(labels):
                labels.append(regions[cell])
        return {labels[i]: corners[i] for i in range(m)}
    finally:
        free(lab)
        free(corners)


cdef int look_around_cell(int n, const int *regions, int cell) noexcept nogil:
    """The look around `cell` of a map held in a C array (n at most 64; labels 0..): minus the outline
    corners at its four lattice points, plus the mirrored boundary bits of its row."""
    cdef int r = cell // n, c = cell % n, i, j, total = 0
    cdef int window[9]               # the 3 x 3 cells around the cell's four lattice points
    for i in range(3):
        for j in range(3):
            if 0 <= r - 1 + i < n and 0 <= c - 1 + j < n:
                window[i * 3 + j] = regions[(r - 1 + i) * n + c - 1 + j]
            else:
                window[i * 3 + j] = -1            # off the grid
    for i in range(2):
        for j in range(2):
            total += _corners_at(window, 3, i + 1, j + 1, NULL)
    return _mirrored_bits(regions + r * n, n) - total


def canonical_labels(int n, labels) -> tuple:
    """engine.games.starbattle.fingerprint.canonical_labels for labels that are whole numbers 0..65535: the least,
    over the 8 symmetries of the square, of the grid relabelled by first appearance in row-major
    order. (Each symmetry's inverse is one of the 8 too, so reading the grid through every symmetry
    gives the same 8 forms as reading it through every inverse.)"""
    cdef int cells = n * n, i, r, c, rr, cc, t, symmetry, label, top = -1, next_label, source
    cdef bint better
    cdef object value             # a new reference, which the tuple takes over (the INCREF)
    cdef tuple out
    if len(labels) != cells:
        raise ValueError("labels must list n * n cells")
    cdef int *lab = <int *> malloc(4 * cells * sizeof(int))
    if not lab:
        raise MemoryError()
    cdef int *form = lab + cells
    cdef int *best = lab + 2 * cells
    cdef int *renumber = lab + 3 * cells       # per dense label: its number in this form, or -1
    cdef int *index = NULL
    try:
        for i in range(cells):
            label = labels[i]
            if not 0 <= label <= 65535:
                raise ValueError("labels must be whole numbers 0..65535")
            lab[i] = label
            if label > top:
                top = label
        # dense labels first (the forms do not depend on what the labels are called)
        index = <int *> malloc((top + 1) * sizeof(int))
        if not index:
            raise MemoryError()
        for i in range(top + 1):
            index[i] = -1
        next_label = 0
        for i in range(cells):
            if index[lab[i]] == -1:
                index[lab[i]] = next_label
                next_label += 1
            lab[i] = index[lab[i]]
        for symmetry in range(8):
            for i in range(next_label):
                renumber[i] = -1
            t = 0
            better = symmetry == 0
            for r in range(n):
                for c in range(n):
                    if symmetry & 4:            # transposed
                        rr = c
                        cc = r
                    else:
                        rr = r
                        cc = c
                    if symmetry & 2:
                        rr = n - 1 - rr
                    if symmetry & 1:
                        cc = n - 1 - cc
                    source = lab[rr * n + cc]
                    if renumber[source] == -1:
                        renumber[source] = t
                        t += 1
                    form[r * n + c] = renumber[source]
            if not better:
                for i in range(cells):
                    if form[i] != best[i]:
                        better = form[i] < best[i]
                        break
            if better:
                for i in range(cells):
                    best[i] = form[i]
        out = PyTuple_New(cells)
        for i in range(cells):
            value = best[i]
            Py_INCREF(value)
            PyTuple_SET_ITEM(out, i, value)
        return out
    finally:
        free(lab)
        free(index)
