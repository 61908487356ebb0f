# Compiled segment listing of the interlocking style (styles/interlocking.py grows regions by them).
# No random draws here: the same segments, in the same order, as the Python code it replaced.

from libc.stdlib cimport malloc, free

DEF UNASSIGNED = -1


def segments(int n, list regions, list members, set arms) -> list:
    """Every straight run of free cells lying along one side of a region (its cells `members`): for
    each direction (up, down, left, right), the free neighbours of the region's cells that way, in
    order along the side, split into runs of touching cells. `arms` is cleared, then given each free
    cell continuing a straight arm of the region (two cells or more long) that way."""
    cdef int count = len(members), d, i, j, cell, r, c, rr, cc, br, bc, size, step, key, label
    cdef int drs[4]
    cdef int dcs[4]
    drs[:] = [-1, 1, 0, 0]
    dcs[:] = [0, 0, -1, 1]
    cdef int *front = <int *> malloc(max(count, 1) * 2 * sizeof(int))   # cells, then their sort keys
    if not front:
        raise MemoryError()
    cdef int *keys = front + max(count, 1)
    out = []
    arms.clear()
    try:
        for d in range(4):
            size = 0
            for i in range(count):
                cell = members[i]
                r = cell // n
                c = cell % n
                rr = r + drs[d]
                cc = c + dcs[d]
                if 0 <= rr < n and 0 <= cc < n and regions[rr * n + cc] == UNASSIGNED:
                    # the front of a vertical move runs along a row: sorted by cell, else by column
                    key = rr * n + cc if drs[d] else cc * n + rr
                    j = size                   # insertion sort on the (distinct) keys
                    while j > 0 and keys[j - 1] > key:
                        keys[j] = keys[j - 1]
                        front[j] = front[j - 1]
                        j -= 1
                    keys[j] = key
                    front[j] = rr * n + cc
                    size += 1
                    br = r - drs[d]
                    bc = c - dcs[d]
                    label = regions[cell]
                    if 0 <= br < n and 0 <= bc < n and regions[br * n + bc] == label:
                        arms.add(rr * n + cc)
            if not size:
                continue
            step = 1 if drs[d] else n
            run = [front[0]]
            for i in range(1, size):
                if front[i] - front[i - 1] == step and (step == n or front[i] // n == front[i - 1] // n):
                    run.append(front[i])
                else:
                    out.append(run)
                    run = [front[i]]
            out.append(run)
        return out
    finally:
        free(front)
