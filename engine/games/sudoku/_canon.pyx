# Compiled canonical form of a Sudoku puzzle (see board.py for what it guarantees).
#
# The group: transposition (2), band order (6), row order within each band (6^3), stack order (6),
# column order within each stack (6^3), and relabelling of the digits (9!). Two puzzles are
# equivalent when an element of the group maps one onto the other.
#
# The puzzle's solution grid S fixes the transform: among all geometric transforms g, keep those that
# make g(S), relabelled so that its first row reads 123456789, lexicographically least (the grid's
# minlex form; usually one transform, more when the grid has automorphisms). The canonical puzzle is
# the least, over the kept transforms, of the transformed and relabelled givens. Both minima are exact:
#
#   - for a fixed transposition, top row r0 and column permutation p (2 * 9 * 1296 cases), the
#     relabelling is forced (row 0 becomes 123456789) and the best order of the other rows follows
#     greedily, because the rows of a complete grid are pairwise different: the rest of r0's band in
#     increasing order, then the band holding the least of the 6 remaining rows, its rows in order,
#     then the last band in order;
#   - row 1 is compared with the best so far before the other rows are built, which prunes most cases
#     (entry by entry, before the relabelling is built: most cases are cut at the first entry).
#
# Cost: about 23,000 cases, most cut after row 1; well under a few milliseconds.

from libc.string cimport memcpy

cdef int _PERM3[6][3]
cdef int _COLPERM[1296][9]
cdef int _COLINV[1296][9]      # the inverse of each column order: _COLINV[p][_COLPERM[p][j]] == j


cdef void _build() noexcept:
    cdef int i = 0, a, b, c, k, s0, s1, s2, w0, w1, w2, n = 0
    for a in range(3):
        for b in range(3):
            for c in range(3):
                if a != b and b != c and a != c:
                    _PERM3[i][0] = a
                    _PERM3[i][1] = b
                    _PERM3[i][2] = c
                    i += 1
    for s0 in range(6):
        for w0 in range(6):
            for w1 in range(6):
                for w2 in range(6):
                    for k in range(3):
                        _COLPERM[n][k] = 3 * _PERM3[s0][0] + _PERM3[w0][k]
                        _COLPERM[n][3 + k] = 3 * _PERM3[s0][1] + _PERM3[w1][k]
                        _COLPERM[n][6 + k] = 3 * _PERM3[s0][2] + _PERM3[w2][k]
                    for k in range(9):
                        _COLINV[n][_COLPERM[n][k]] = k
                    n += 1

_build()


cdef inline bint _above(const int *row, const int *cp, const int *inv, const int *col_of,
                        const int *target) noexcept nogil:
    """Whether the grid row `row`, its columns put in the order cp and relabelled (digit d becomes
    inv[col_of[d]], the place the top row's d takes), reads lexicographically above `target`; each
    entry is computed only when the ones before it tie."""
    cdef int j, v
    for j in range(9):
        v = inv[col_of[row[cp[j]]]]
        if v != target[j]:
            return v > target[j]
    return 0


cdef inline int _cmp9(const int *a, const int *b) noexcept nogil:
    cdef int j
    for j in range(9):
        if a[j] != b[j]:
            return -1 if a[j] < b[j] else 1
    return 0


DEF MAXTIES = 1024        # a grid has at most 648 automorphisms

cdef int _canon(const int *grid, const unsigned char *given, unsigned char *out) noexcept nogil:
    """`grid`: 81 digits 0..8 (a complete valid grid); `given`: 81 flags. Writes the canonical
    puzzle (0 for empty, 1..9) to `out`; returns the number of transforms that tie (>= 1)."""
    cdef int g[81]
    cdef int t, r0, p, j, r, i, k, band, b0, bx, cmp, better, best_r0
    cdef int sigma[9]
    cdef int col_of[9]           # the column of each digit in the top row r0
    cdef int rel[9][9]           # relabelled rows, indexed by source row
    cdef int form[9][9]
    cdef int best[9][9]
    cdef int order[9]
    cdef int ties_t[MAXTIES]
    cdef int ties_p[MAXTIES]
    cdef int ties_rows[MAXTIES][9]
    cdef int nties = 0, have = 0, x, y, tmp, lo
    cdef int rest[6]
    cdef int cand_puz[81]
    cdef int best_puz[81]
    cdef const int *cp
    for t in range(2):
        for i in range(81):
            g[i] = grid[i] if t == 0 else grid[(i % 9) * 9 + i // 9]
        for r0 in range(9):
            b0 = r0 // 3
            for j in range(9):
                col_of[g[r0 * 9 + j]] = j
            for p in range(1296):
                cp = _COLPERM[p]
                # rows of r0's band
                x = b0 * 3 + (1 if r0 % 3 == 0 else 0)
                y = b0 * 3 + (2 if r0 % 3 != 2 else 1)
                # the cut below (the lesser of the two reads above row 1 of the best so far), found
                # before the relabelling is built: most cases stop at the first entry
                if have and _above(&g[x * 9], cp, _COLINV[p], col_of, best[1]) and \
                        _above(&g[y * 9], cp, _COLINV[p], col_of, best[1]):
                    continue
                for j in range(9):
                    sigma[g[r0 * 9 + cp[j]]] = j
                for j in range(9):
                    rel[x][j] = sigma[g[x * 9 + cp[j]]]
                    rel[y][j] = sigma[g[y * 9 + cp[j]]]
                if _cmp9(rel[y], rel[x]) < 0:
                    tmp = x
                    x = y
                    y = tmp
                better = 0
                if have:
                    cmp = _cmp9(rel[x], best[1])
                    if cmp > 0:
                        continue
                    better = cmp < 0
                order[0] = r0
                order[1] = x
                order[2] = y
                # the other two bands
                k = 0
                for band in range(3):
                    if band != b0:
                        for i in range(3):
                            r = band * 3 + i
                            for j in range(9):
                                rel[r][j] = sigma[g[r * 9 + cp[j]]]
                            rest[k] = r
                            k += 1
                # sort each band's three rows, then put the band with the least first row first
                for band in range(2):
                    for i in range(3):
                        for k in range(2 - i):
                            if _cmp9(rel[rest[band * 3 + k + 1]], rel[rest[band * 3 + k]]) < 0:
                                tmp = rest[band * 3 + k]
                                rest[band * 3 + k] = rest[band * 3 + k + 1]
                                rest[band * 3 + k + 1] = tmp
                lo = 0 if _cmp9(rel[rest[0]], rel[rest[3]]) < 0 else 3
                for i in range(3):
                    order[3 + i] = rest[lo + i]
                    order[6 + i] = rest[3 - lo + i]
                if have and not better:
                    cmp = 0
                    for i in range(2, 9):
                        cmp = _cmp9(rel[order[i]], best[i])
                        if cmp != 0:
                            break
                    if cmp > 0:
                        continue
                    better = cmp < 0
                if not have or better:
                    have = 1
                    nties = 0
                    for i in range(9):
                        memcpy(best[i], rel[order[i]], 9 * sizeof(int))
                if nties < MAXTIES:
                    ties_t[nties] = t
                    ties_p[nties] = p
                    memcpy(ties_rows[nties], order, 9 * sizeof(int))
                    nties += 1
    # the least transformed puzzle over the tied transforms
    for k in range(nties):
        t = ties_t[k]
        cp = _COLPERM[ties_p[k]]
        for i in range(81):
            g[i] = grid[i] if t == 0 else grid[(i % 9) * 9 + i // 9]
        r0 = ties_rows[k][0]
        for j in range(9):
            sigma[g[r0 * 9 + cp[j]]] = j
        for i in range(9):
            r = ties_rows[k][i]
            for j in range(9):
                x = r * 9 + cp[j]
                if t:
                    y = (x % 9) * 9 + x // 9
                else:
                    y = x
                cand_puz[i * 9 + j] = sigma[g[x]] + 1 if given[y] else 0
        better = k == 0
        if not better:
            for i in range(81):
                if cand_puz[i] != best_puz[i]:
                    better = cand_puz[i] < best_puz[i]
                    break
        if better:
            memcpy(best_puz, cand_puz, 81 * sizeof(int))
    for i in range(81):
        out[i] = <unsigned char> best_puz[i]
    return nties


def canonical(str solution, str givens):
    """The canonical form of a puzzle (`givens`, 81 chars with '.' for empty) whose complete solution
    grid is `solution` (81 digits): 81 characters, '.' for empty, digits relabelled. Also returns the
    number of grid transforms that tied (1 unless the grid has automorphisms)."""
    cdef int grid[81]
    cdef unsigned char given[81]
    cdef unsigned char out[81]
    cdef int i, n
    if len(solution) != 81 or len(givens) != 81:
        raise ValueError("a grid has 81 cells")
    for i in range(81):
        grid[i] = ord(solution[i]) - 49
        if not 0 <= grid[i] <= 8:
            raise ValueError("the solution must be 81 digits 1-9")
        given[i] = givens[i] != '.'
    with nogil:
        n = _canon(grid, given, out)
    return "".join("." if out[i] == 0 else chr(48 + out[i]) for i in range(81)), n
