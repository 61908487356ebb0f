# Compiled walks of region connectivity (engine/core/regions.py), for every game that draws regions:
# whether a region stays one piece without one cell (`one_piece_without`; the C entry point
# `stays_one_piece` in _regions.pxd, for compiled modules walking a map held in a C array), and whether
# one label's cells form one piece (`label_in_one_piece`). Region tunings ask these thousands of times
# a board. Labels are any integers from 0; cells are r * n + c.

from libc.stdlib cimport malloc, free

from engine.core._grid cimport edge_neighbours


cdef bint stays_one_piece(int n, const int *regions, int cell, int label, int *stack,
                          unsigned char *seen) noexcept nogil:
    """Whether region `label` stays one piece without `cell` (given away yet or not): a walk from one
    of the cell's neighbours in the region reaches the others (engine/core/regions.py,
    one_piece_without). `stack` and `seen` are scratch of n * n each."""
    cdef int around[4]
    cdef int count = 0, i, x, nb, top, m
    cdef int nbs[4]
    # the neighbours in engine.core.grid's order: up, down, left, right
    m = edge_neighbours(n, cell, nbs)
    for i in range(m):
        if regions[nbs[i]] == label:
            around[count] = nbs[i]
            count += 1
    if count <= 1:
        return True
    for i in range(n * n):
        seen[i] = 0
    seen[around[0]] = 1
    stack[0] = around[0]
    top = 1
    while top:
        top -= 1
        x = stack[top]
        m = edge_neighbours(n, x, nbs)
        for i in range(m):
            nb = nbs[i]
            if not seen[nb] and regions[nb] == label and nb != cell:
                seen[nb] = 1
                stack[top] = nb
                top += 1
    for i in range(count):
        if not seen[around[i]]:
            return False
    return True


def one_piece_without(int n, regions, int cell, int label) -> bool:
    """engine.core.regions.one_piece_without, compiled (any sequence of n * n labels)."""
    cdef int i, cells = n * n
    if len(regions) != cells or not 0 <= cell < cells:
        raise ValueError("one_piece_without: a cell of a map of n * n labels")
    cdef int *lab = <int *> malloc(cells * 2 * sizeof(int) + cells)
    if not lab:
        raise MemoryError()
    try:
        for i in range(cells):
            lab[i] = regions[i]
        return stays_one_piece(n, lab, cell, label, lab + cells, <unsigned char *> (lab + 2 * cells))
    finally:
        free(lab)


def label_in_one_piece(int n, regions, int label) -> bool:
    """Whether the cells of `label` form one piece through shared edges (no cells: True, as
    engine.core.regions.is_connected says of an empty set)."""
    cdef int cells = n * n, cell, first = -1, total = 0, reached, top, x, i, nb
    cdef int nbs[4]
    if len(regions) != cells:
        raise ValueError("regions must list n * n cells")
    cdef int *lab = <int *> malloc(2 * cells * sizeof(int) + cells)
    if not lab:
        raise MemoryError()
    cdef int *stack = lab + cells
    cdef unsigned char *seen = <unsigned char *> (lab + 2 * cells)
    try:
        for cell in range(cells):
            lab[cell] = regions[cell]
            seen[cell] = 0
            if lab[cell] == label:
                total += 1
                if first == -1:
                    first = cell
        if not total:
            return True
        seen[first] = 1
        stack[0] = first
        top = 1
        reached = 1
        while top:
            top -= 1
            x = stack[top]
            for i in range(edge_neighbours(n, x, nbs)):
                nb = nbs[i]
                if not seen[nb] and lab[nb] == label:
                    seen[nb] = 1
                    stack[top] = nb
                    top += 1
                    reached += 1
        return reached == total
    finally:
        free(lab)
