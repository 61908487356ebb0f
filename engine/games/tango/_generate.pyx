# The compiled Tango layout drawer: the generator's drawing and minimising loop (generator.py tells
# what it does and why; layout.py holds the model it draws from).
#
# Elements. A layout is made of given cells and clued edges. Cells are r * n + c. Edges are numbered
# across first, (r, c)-(r, c + 1) as r * (n - 1) + c, then down, (r, c)-(r + 1, c) as
# n * (n - 1) + r * n + c. Inside an orbit list both are *elements*: a cell is its number, an edge is
# n * n + its number.
#
# A piece is a shape of the model (cells, or edges, relative to its corner) turned by one of the 8
# symmetries of the square and moved anywhere on the grid; its *orbit* under the layout's symmetry
# group is the union of its images. A placement is kept when its images are equal or apart (sharing no
# element and no neighbour) and as many as the recipe asks for; the placements of a (shape, group,
# images) are listed once per drawer, the first time they are asked for, without repeats.

from libc.stdlib cimport malloc, free, calloc, realloc
from libc.string cimport memset, memcpy
from libc.math cimport pow
from libc.stdint cimport uint64_t

from engine.core._clock cimport now, splitmix
from engine.games.tango._count cimport (tg_layout, tg_layout_init, tg_set_cell, tg_set_clue, tg_count_capped,
                                         tg_random_solution, TG_MAXN)

cdef enum:
    MAXCELLS = 144                 # 12 * 12
    MAXEDGES = 264                 # 2 * 12 * 11
    MAXEL = MAXCELLS + MAXEDGES
    MAXSHAPE = 64                  # elements of one shape
    MAXORBITS = 512                # orbits of one drawing
    DMAX = 4                       # distances from a given are counted up to this
    NIMAGES = 4                    # orbit sizes 1, 2, 4, 8
    MISSES = 30                    # pieces in a row that find no room before the drawing relaxes, then fails

# what a drawing comes to
cdef enum:
    DRAWN = 0
    FAILED = 1                 # the board stayed ambiguous after every piece it may add (`draw-failed`)
    LATE = 2                   # the deadline passed
    UNLIKE = 3                 # drawn, but set aside to keep the published boards' spread (`unlike-published`)
    SLOW = 4                   # a count took more than MAX_NODES search nodes (`slow-count`)
    MAX_NODES = 200000         # a count's budget: 6x6 counts take tens of nodes, the 12x12 ones of a
                               # drawing mostly thousands, now and then millions (seconds)

OUTCOMES = {DRAWN: "drawn", FAILED: "draw-failed", LATE: "late", UNLIKE: "unlike-published", SLOW: "slow-count"}

cdef struct _Drawing:
    unsigned char solution[MAXCELLS]
    unsigned char given[MAXCELLS]
    unsigned char near_given[MAXCELLS]       # beside a given cell
    unsigned char clue_cells[MAXCELLS]       # a cell of a clued edge
    int dist[MAXCELLS]                       # to the nearest given, at most DMAX
    unsigned char clued[MAXEDGES]
    unsigned char near_clue[MAXEDGES]        # clued, or touching a clued edge
    int ngiven
    bint touch_ok                            # this drawing lets clues touch givens
    bint relaxed                             # pieces may stand beside pieces of their kind
    int group
    int norbits
    int kind[MAXORBITS]
    int orbit_group[MAXORBITS]               # the group the orbit was drawn under
    int start[MAXORBITS + 1]
    unsigned short el[MAXEL]
    double *weights
    int weights_cap
    int counts


cdef struct plist:
    int count                      # orbits
    int *start                     # count + 1 offsets into el
    unsigned short *el             # the orbits' elements, each orbit sorted


cdef inline double _uniform(uint64_t *rng) noexcept nogil:
    return (splitmix(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int _below(uint64_t *rng, int k) noexcept nogil:
    return <int> (splitmix(rng) % <uint64_t> k)


cdef inline void _sort(unsigned short *xs, int k) noexcept nogil:
    """Insertion sort: the arrays are a piece's elements, a few dozen at most."""
    cdef int i, j
    cdef unsigned short x
    for i in range(1, k):
        x = xs[i]
        j = i - 1
        while j >= 0 and xs[j] > x:
            xs[j + 1] = xs[j]
            j -= 1
        xs[j + 1] = x


cdef bint _same(const unsigned short *a, const unsigned short *b, int k) noexcept nogil:
    cdef int i
    for i in range(k):
        if a[i] != b[i]:
            return 0
    return 1


cdef class Drawer:
    """The compiled drawer for one grid size and one layout model (layout.LayoutModel)."""
    cdef int n, ncells, nedges, nel
    cdef int cmap[8][MAXCELLS]
    cdef int emap[8][MAXEDGES]
    cdef int edge_a[MAXEDGES]
    cdef int edge_b[MAXEDGES]
    cdef int nb[MAXCELLS][4]
    cdef int nnb[MAXCELLS]
    cdef int cell_edges[MAXCELLS][4]
    cdef int ncell_edges[MAXCELLS]
    cdef int eadj[MAXEDGES][10]
    cdef int neadj[MAXEDGES]
    # the model
    cdef int nshapes
    cdef int *shape_kind               # 0 cells, 1 edges
    cdef int *shape_start              # nshapes + 1 offsets into shape_rc
    cdef int *shape_rc                 # 4 numbers an element: r1, c1, r2, c2 (r2 = r1, c2 = c1 for a cell)
    cdef int ngroups
    cdef int group_size[16]
    cdef int group_maps[16][8]
    cdef int nrecipes
    cdef int *recipe_group
    cdef int *recipe_start
    cdef int *recipe_shape
    cdef int *recipe_images
    cdef int *recipe_pgroup            # each piece's own group (a subgroup of the recipe's)
    cdef double *recipe_cumulative     # the recipes' weights (their group's), summed in order
    cdef int group_mask[16]            # bit k: symmetry k is in the group
    cdef int mask_group[256]           # the group of a mask, -1 when none
    cdef int *pool[2]                  # the pieces of every recipe, by kind, for the pieces added after
    cdef int npool[2]
    cdef double dist_weight[DMAX + 1]
    cdef double same_odds, touch, extra_given
    cdef int max_extra
    cdef bint look
    cdef int ngb, ncb, ndb, gmin, gmax, cmin, cmax
    cdef double *g_edges
    cdef double *c_edges
    cdef double *d_edges
    cdef double *accept
    cdef plist **cache                 # [shape][group][images], NULL until asked for

    def __cinit__(self):
        self.shape_kind = self.shape_start = self.shape_rc = NULL
        self.recipe_group = self.recipe_start = self.recipe_shape = self.recipe_images = NULL
        self.recipe_pgroup = NULL
        self.recipe_cumulative = NULL
        self.pool[0] = self.pool[1] = NULL
        self.g_edges = self.c_edges = self.d_edges = self.accept = NULL
        self.cache = NULL

    def __init__(self, int n, maps, shapes, groups, recipes, dist_weight, double same_odds, double touch,
                 double extra_given, look=None, group_weight=None):
        """`maps`: the 8 symmetries of the n x n square (engine.core.grid.symmetries); `shapes`: (kind,
        elements), kind 0 for cells ((r, c), ...) or 1 for edges ((r, c, r2, c2), ...); `groups`: tuples
        of symmetry indexes; `recipes`: (group, ((shape, group, images), ...)), a piece's group a subgroup
        of its recipe's (the recipe's group is the one pieces added after it are drawn under);
        `group_weight`: how readily a recipe of each group is taken (None: all alike); `look`: None, or (given-count
        bin edges, clue-count bin edges, distance bin edges, acceptance per bin (flat, given-major),
        (fewest givens, most givens, fewest clues, most clues))."""
        cdef int r, c, i, k, e, s, x, a, b, g, kind, mask
        if n < 4 or n > TG_MAXN or n % 2:
            raise ValueError(f"a tango grid is even, 4 to 12 wide, not {n}")
        self.n = n
        self.ncells = n * n
        self.nedges = 2 * n * (n - 1)
        self.nel = self.ncells + self.nedges
        for k in range(8):
            for x in range(self.ncells):
                self.cmap[k][x] = maps[k][x]
        for r in range(n):
            for c in range(n - 1):
                e = r * (n - 1) + c
                self.edge_a[e], self.edge_b[e] = r * n + c, r * n + c + 1
        for r in range(n - 1):
            for c in range(n):
                e = n * (n - 1) + r * n + c
                self.edge_a[e], self.edge_b[e] = r * n + c, (r + 1) * n + c
        for x in range(self.ncells):
            self.nnb[x] = 0
            self.ncell_edges[x] = 0
            r, c = x // n, x % n
            for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= a < n and 0 <= b < n:
                    self.nb[x][self.nnb[x]] = a * n + b
                    self.nnb[x] += 1
        for e in range(self.nedges):
            a, b = self.edge_a[e], self.edge_b[e]
            self.cell_edges[a][self.ncell_edges[a]] = e
            self.ncell_edges[a] += 1
            self.cell_edges[b][self.ncell_edges[b]] = e
            self.ncell_edges[b] += 1
            for k in range(8):
                self.emap[k][e] = self._edge(self.cmap[k][a], self.cmap[k][b])
        for e in range(self.nedges):
            self.neadj[e] = 0
            for i in range(self.nedges):
                if i != e and self._edges_touch(e, i):
                    self.eadj[e][self.neadj[e]] = i
                    self.neadj[e] += 1
        # shapes
        self.nshapes = len(shapes)
        total = sum(len(elements) for _, elements in shapes)
        self.shape_kind = <int *> malloc(max(1, self.nshapes) * sizeof(int))
        self.shape_start = <int *> malloc((self.nshapes + 1) * sizeof(int))
        self.shape_rc = <int *> malloc(max(1, 4 * total) * sizeof(int))
        if self.shape_kind == NULL or self.shape_start == NULL or self.shape_rc == NULL:
            raise MemoryError()
        i = 0
        for s, (kind, elements) in enumerate(shapes):
            if len(elements) > MAXSHAPE:
                raise ValueError(f"shape {s} has more than {MAXSHAPE} elements")
            self.shape_kind[s] = kind
            self.shape_start[s] = i
            for element in elements:
                if kind == 0:
                    self.shape_rc[4 * i], self.shape_rc[4 * i + 1] = element
                    self.shape_rc[4 * i + 2], self.shape_rc[4 * i + 3] = element
                else:
                    (self.shape_rc[4 * i], self.shape_rc[4 * i + 1], self.shape_rc[4 * i + 2],
                     self.shape_rc[4 * i + 3]) = element
                i += 1
        self.shape_start[self.nshapes] = i
        # groups
        self.ngroups = len(groups)
        if self.ngroups > 16:
            raise ValueError("at most 16 symmetry groups")
        for k in range(256):
            self.mask_group[k] = -1
        for g, members in enumerate(groups):
            self.group_size[g] = len(members)
            self.group_mask[g] = 0
            for k, member in enumerate(members):
                self.group_maps[g][k] = member
                self.group_mask[g] |= 1 << member
            self.mask_group[self.group_mask[g]] = g
        # recipes, and the pool of their pieces
        self.nrecipes = len(recipes)
        total = sum(len(pieces) for _, pieces in recipes)
        self.recipe_group = <int *> malloc(max(1, self.nrecipes) * sizeof(int))
        self.recipe_start = <int *> malloc((self.nrecipes + 1) * sizeof(int))
        self.recipe_shape = <int *> malloc(max(1, total) * sizeof(int))
        self.recipe_images = <int *> malloc(max(1, total) * sizeof(int))
        self.recipe_pgroup = <int *> malloc(max(1, total) * sizeof(int))
        self.recipe_cumulative = <double *> malloc(max(1, self.nrecipes) * sizeof(double))
        self.pool[0] = <int *> malloc(max(1, total) * sizeof(int))
        self.pool[1] = <int *> malloc(max(1, total) * sizeof(int))
        if (self.recipe_group == NULL or self.recipe_start == NULL or self.recipe_shape == NULL
                or self.recipe_images == NULL or self.pool[0] == NULL or self.pool[1] == NULL
                or self.recipe_pgroup == NULL or self.recipe_cumulative == NULL):
            raise MemoryError()
        self.npool[0] = self.npool[1] = 0
        i = 0
        for k, (g, pieces) in enumerate(recipes):
            if not 0 <= g < self.ngroups:
                raise ValueError(f"recipe {k} names group {g}")
            self.recipe_group[k] = g
            self.recipe_start[k] = i
            # the recipe's weight: its layout's group's (the symmetries every piece is drawn under)
            mask = 0xFF
            for _, piece_group, _ in pieces:
                mask &= self.group_mask[piece_group] if 0 <= piece_group < self.ngroups else 0
            weight = 1.0 if group_weight is None or self.mask_group[mask] < 0 else group_weight[self.mask_group[mask]]
            self.recipe_cumulative[k] = weight + (self.recipe_cumulative[k - 1] if k else 0.0)
            for s, piece_group, images in pieces:
                if (not 0 <= s < self.nshapes or images not in (1, 2, 4, 8) or not 0 <= piece_group < self.ngroups
                        or self.group_mask[piece_group] & ~self.group_mask[g]):
                    raise ValueError(f"recipe {k} has a bad piece ({s}, {piece_group}, {images})")
                self.recipe_shape[i] = s
                self.recipe_pgroup[i] = piece_group
                self.recipe_images[i] = images
                kind = self.shape_kind[s]
                self.pool[kind][self.npool[kind]] = s
                self.npool[kind] += 1
                i += 1
        self.recipe_start[self.nrecipes] = i
        if self.nrecipes == 0 or self.npool[0] == 0:
            raise ValueError("a layout model needs recipes and given pieces")
        if len(dist_weight) != DMAX + 1:
            raise ValueError(f"dist_weight has {DMAX + 1} entries")
        for k in range(DMAX + 1):
            self.dist_weight[k] = dist_weight[k]
        self.same_odds, self.touch, self.extra_given = same_odds, touch, extra_given
        self.max_extra = 60 * n
        # the look acceptance
        self.look = look is not None
        if self.look:
            gb, cb, db, table, (self.gmin, self.gmax, self.cmin, self.cmax) = look
            self.ngb, self.ncb, self.ndb = len(gb), len(cb), len(db)
            if len(table) != (self.ngb + 1) * (self.ncb + 1) * (self.ndb + 1):
                raise ValueError("the look table does not match its bins")
            self.g_edges = <double *> malloc((self.ngb + 1) * sizeof(double))
            self.c_edges = <double *> malloc((self.ncb + 1) * sizeof(double))
            self.d_edges = <double *> malloc((self.ndb + 1) * sizeof(double))
            self.accept = <double *> malloc(len(table) * sizeof(double))
            if self.g_edges == NULL or self.c_edges == NULL or self.d_edges == NULL or self.accept == NULL:
                raise MemoryError()
            for k in range(self.ngb):
                self.g_edges[k] = gb[k]
            for k in range(self.ncb):
                self.c_edges[k] = cb[k]
            for k in range(self.ndb):
                self.d_edges[k] = db[k]
            for k in range(len(table)):
                self.accept[k] = table[k]
        self.cache = <plist **> calloc(max(1, self.nshapes * self.ngroups * NIMAGES), sizeof(plist *))
        if self.cache == NULL:
            raise MemoryError()

    def __dealloc__(self):
        cdef int i
        if self.cache != NULL:
            for i in range(self.nshapes * self.ngroups * NIMAGES):
                if self.cache[i] != NULL:
                    free(self.cache[i].start)
                    free(self.cache[i].el)
                    free(self.cache[i])
            free(self.cache)
        free(self.shape_kind)
        free(self.shape_start)
        free(self.shape_rc)
        free(self.recipe_group)
        free(self.recipe_start)
        free(self.recipe_shape)
        free(self.recipe_images)
        free(self.recipe_pgroup)
        free(self.recipe_cumulative)
        free(self.pool[0])
        free(self.pool[1])
        free(self.g_edges)
        free(self.c_edges)
        free(self.d_edges)
        free(self.accept)

    # --------------------------------------------------------------------------------------------
    # geometry

    cdef int _edge(self, int a, int b) noexcept nogil:
        """The edge between neighbouring cells a and b, or -1."""
        cdef int n = self.n, t
        if a > b:
            t = a
            a = b
            b = t
        if b == a + 1 and a % n < n - 1:
            return (a // n) * (n - 1) + a % n
        if b == a + n:
            return n * (n - 1) + a
        return -1

    cdef bint _edges_touch(self, int e, int f) noexcept nogil:
        """Whether two edges share a cell or stand side by side (parallel, one row or column apart)."""
        cdef int a = self.edge_a[e], b = self.edge_b[e], c = self.edge_a[f], d = self.edge_b[f], n = self.n
        if a == c or a == d or b == c or b == d:
            return 1
        if b - a == 1 and d - c == 1 and (c - a == n or a - c == n):
            return 1
        if b - a == n and d - c == n and (c - a == 1 or a - c == 1) and a // n == c // n:
            return 1
        return 0

    cdef int _image(self, int k, int element) noexcept nogil:
        if element < self.ncells:
            return self.cmap[k][element]
        return self.ncells + self.emap[k][element - self.ncells]

    cdef bint _apart(self, int element, const int *stamp, int own) noexcept nogil:
        """Whether an element of image `own` shares nothing with, and stands beside nothing of, the
        other images stamped (stamp[element] = image + 1, 0 for none)."""
        cdef int i, x
        if stamp[element] != 0 and stamp[element] != own:
            return 0
        if element < self.ncells:
            for i in range(self.nnb[element]):
                x = stamp[self.nb[element][i]]
                if x != 0 and x != own:
                    return 0
        else:
            element -= self.ncells
            for i in range(self.neadj[element]):
                x = stamp[self.ncells + self.eadj[element][i]]
                if x != 0 and x != own:
                    return 0
        return 1

    cdef plist *_placements(self, int shape, int group, int slot) noexcept nogil:
        """The orbits of a shape's placements under a group with (1 << slot) distinct images (computed
        on first use); NULL when out of memory."""
        cdef int key = (shape * self.ngroups + group) * NIMAGES + slot
        cdef plist *out
        if self.cache[key] == NULL:
            out = <plist *> calloc(1, sizeof(plist))
            if out == NULL:
                return NULL
            if not self._enumerate(shape, group, (1 << slot), out):
                free(out.start)
                free(out.el)
                free(out)
                return NULL
            self.cache[key] = out
        return self.cache[key]

    cdef bint _enumerate(self, int shape, int group, int images, plist *out) noexcept nogil:
        cdef int n = self.n, first = self.shape_start[shape], k = self.shape_start[shape + 1] - first
        cdef int kind = self.shape_kind[shape], gsize = self.group_size[group]
        cdef int o, i, j, m, dr, dc, h, w, r1, c1, r2, c2, t, nimg, size, cap, at, a, b
        cdef int rc[MAXSHAPE * 4]
        cdef unsigned short piece[MAXSHAPE]
        cdef unsigned short img[8][MAXSHAPE]
        cdef int distinct[8]
        cdef int stamp[MAXEL]
        cdef unsigned short orbit[8 * MAXSHAPE]
        cdef bint ok
        cdef int found = 0, used = 0
        cdef int found_cap = 64, el_cap = 64 * 8 * k
        cdef int *starts = <int *> malloc((found_cap + 1) * sizeof(int))
        cdef unsigned short *els = <unsigned short *> malloc(el_cap * sizeof(unsigned short))
        memset(stamp, 0, sizeof(stamp))
        if starts == NULL or els == NULL:
            free(starts)
            free(els)
            return 0
        for o in range(8):                  # bit 4: transpose, bit 2: flip rows, bit 1: flip columns
            h = w = 0
            for i in range(k):
                for j in range(2):
                    r1 = self.shape_rc[4 * (first + i) + 2 * j]
                    c1 = self.shape_rc[4 * (first + i) + 2 * j + 1]
                    if o & 4:
                        t = r1
                        r1 = c1
                        c1 = t
                    rc[4 * i + 2 * j] = r1
                    rc[4 * i + 2 * j + 1] = c1
                    if r1 + 1 > h:
                        h = r1 + 1
                    if c1 + 1 > w:
                        w = c1 + 1
            for i in range(k):
                for j in range(2):
                    if o & 2:
                        rc[4 * i + 2 * j] = h - 1 - rc[4 * i + 2 * j]
                    if o & 1:
                        rc[4 * i + 2 * j + 1] = w - 1 - rc[4 * i + 2 * j + 1]
            if h > n or w > n:
                continue
            for dr in range(n - h + 1):
                for dc in range(n - w + 1):
                    for i in range(k):
                        a = (rc[4 * i] + dr) * n + rc[4 * i + 1] + dc
                        if kind == 0:
                            piece[i] = a
                        else:
                            b = (rc[4 * i + 2] + dr) * n + rc[4 * i + 3] + dc
                            piece[i] = self.ncells + self._edge(a, b)
                    # the distinct images
                    nimg = 0
                    ok = 1
                    for m in range(gsize):
                        for i in range(k):
                            img[nimg][i] = self._image(self.group_maps[group][m], piece[i])
                        _sort(img[nimg], k)
                        for j in range(nimg):
                            if _same(img[j], img[nimg], k):
                                break
                        else:
                            nimg += 1
                    if nimg != images:
                        continue
                    for j in range(nimg):
                        for i in range(k):
                            stamp[img[j][i]] = j + 1
                    for j in range(nimg):
                        for i in range(k):
                            if not self._apart(img[j][i], stamp, j + 1):
                                ok = 0
                                break
                        if not ok:
                            break
                    for j in range(nimg):
                        for i in range(k):
                            stamp[img[j][i]] = 0
                    if not ok:
                        continue
                    size = 0
                    for j in range(nimg):
                        for i in range(k):
                            orbit[size] = img[j][i]
                            size += 1
                    _sort(orbit, size)
                    # a repeat of an orbit listed already?
                    for j in range(found):
                        if starts[j + 1] - starts[j] == size and _same(&els[starts[j]], orbit, size):
                            break
                    else:
                        if found + 1 > found_cap:
                            found_cap *= 2
                            starts = <int *> realloc(starts, (found_cap + 1) * sizeof(int))
                            if starts == NULL:
                                free(els)
                                return 0
                        if used + size > el_cap:
                            el_cap = 2 * (used + size)
                            els = <unsigned short *> realloc(els, el_cap * sizeof(unsigned short))
                            if els == NULL:
                                free(starts)
                                return 0
                        starts[found] = used
                        memcpy(&els[used], orbit, size * sizeof(unsigned short))
                        used += size
                        found += 1
                        starts[found] = used
        starts[found] = used
        out.count = found
        out.start = starts
        out.el = els
        return 1

    def placements(self, int shape, int group, int images):
        """The orbits of a shape's placements (for the tests): a list of sorted element tuples."""
        cdef int slot = {1: 0, 2: 1, 4: 2, 8: 3}[images], i, j
        cdef plist *p
        if not (0 <= shape < self.nshapes and 0 <= group < self.ngroups):
            raise ValueError("no such shape or group")
        p = self._placements(shape, group, slot)
        if p == NULL:
            raise MemoryError()
        return [tuple(p.el[j] for j in range(p.start[i], p.start[i + 1])) for i in range(p.count)]

    # --------------------------------------------------------------------------------------------
    # a drawing

    cdef int _count(self, _Drawing *d, const unsigned char *active, double deadline) noexcept nogil:
        """Solutions (up to 2) of the active orbits over the planted solution; -1 when late, -2 when
        the count took more than MAX_NODES search nodes (the drawing is then given up, so that a
        board is never kept unproved or not minimal)."""
        cdef tg_layout L
        cdef int o, i, x, e
        cdef long long nodes = 0
        tg_layout_init(&L, self.n)
        for o in range(d.norbits):
            if not active[o]:
                continue
            for i in range(d.start[o], d.start[o + 1]):
                x = d.el[i]
                if x < self.ncells:
                    tg_set_cell(&L, x, d.solution[x])
                else:
                    e = x - self.ncells
                    tg_set_clue(&L, self.edge_a[e], self.edge_b[e],
                                d.solution[self.edge_a[e]] == d.solution[self.edge_b[e]])
        d.counts += 1
        return tg_count_capped(&L, 2, deadline, NULL, &nodes, MAX_NODES)

    cdef bint _add(self, _Drawing *d, int shape, int group, int slot, uint64_t *rng) noexcept nogil:
        """Place a piece: one of its orbits that fits the layout drawn so far, drawn by weight; 0 when
        none fits."""
        cdef plist *p = self._placements(shape, group, slot)
        cdef int i, j, x, e, a, b, alike, nearest, kind = self.shape_kind[shape], chosen = -1, size
        cdef double weight, total = 0.0, pick
        cdef bint ok
        if p == NULL or p.count == 0:
            return 0
        if d.weights_cap < p.count:
            free(d.weights)
            d.weights_cap = 2 * p.count
            d.weights = <double *> malloc(d.weights_cap * sizeof(double))
            if d.weights == NULL:
                d.weights_cap = 0
                return 0
        for i in range(p.count):
            ok = 1
            weight = 1.0
            if kind == 0:
                for j in range(p.start[i], p.start[i + 1]):
                    x = p.el[j]
                    if d.given[x] or (d.near_given[x] and not d.relaxed) or (d.clue_cells[x] and not d.touch_ok):
                        ok = 0
                        break
            else:
                alike = 0
                nearest = DMAX
                for j in range(p.start[i], p.start[i + 1]):
                    e = p.el[j] - self.ncells
                    a, b = self.edge_a[e], self.edge_b[e]
                    if d.clued[e] or (d.near_clue[e] and not d.relaxed) or ((d.given[a] or d.given[b]) and not d.touch_ok):
                        ok = 0
                        break
                    alike += d.solution[a] == d.solution[b]
                    if d.dist[a] < nearest:
                        nearest = d.dist[a]
                    if d.dist[b] < nearest:
                        nearest = d.dist[b]
                if ok:
                    size = p.start[i + 1] - p.start[i]
                    weight = self.dist_weight[nearest] * pow(self.same_odds, alike - 0.5 * size)
            d.weights[i] = weight if ok else 0.0
            total += d.weights[i]
        if total <= 0.0:
            return 0
        pick = _uniform(rng) * total
        for i in range(p.count):
            if d.weights[i] > 0.0:
                chosen = i
                pick -= d.weights[i]
                if pick < 0.0:
                    break
        # record the orbit and mark its elements
        size = p.start[chosen + 1] - p.start[chosen]
        if d.norbits >= MAXORBITS or d.start[d.norbits] + size > MAXEL:
            return 0
        memcpy(&d.el[d.start[d.norbits]], &p.el[p.start[chosen]], size * sizeof(unsigned short))
        d.kind[d.norbits] = kind
        d.orbit_group[d.norbits] = group
        d.norbits += 1
        d.start[d.norbits] = d.start[d.norbits - 1] + size
        for j in range(p.start[chosen], p.start[chosen + 1]):
            x = p.el[j]
            if kind == 0:
                self._mark_given(d, x)
            else:
                self._mark_clue(d, x - self.ncells)
        return 1

    cdef void _mark_given(self, _Drawing *d, int x) noexcept nogil:
        cdef int i, y, r = x // self.n, c = x % self.n, dist
        d.given[x] = 1
        d.ngiven += 1
        for i in range(self.nnb[x]):
            d.near_given[self.nb[x][i]] = 1
        for y in range(self.ncells):
            dist = abs(y // self.n - r) + abs(y % self.n - c)
            if dist < d.dist[y]:
                d.dist[y] = dist

    cdef void _mark_clue(self, _Drawing *d, int e) noexcept nogil:
        cdef int i
        d.clued[e] = 1
        d.near_clue[e] = 1
        for i in range(self.neadj[e]):
            d.near_clue[self.eadj[e][i]] = 1
        d.clue_cells[self.edge_a[e]] = 1
        d.clue_cells[self.edge_b[e]] = 1

    cdef int _draw(self, _Drawing *d, uint64_t *rng, double deadline) noexcept nogil:
        cdef unsigned int rows[TG_MAXN]
        cdef tg_layout empty
        cdef int recipe, group, i, j, t, k, s, slot, found, kind, tries, mask
        cdef double pick
        cdef bint added
        cdef int misses = 0
        cdef int order[MAXORBITS]
        cdef int slots[NIMAGES]
        cdef unsigned char active[MAXORBITS]
        # plant a solution
        tg_layout_init(&empty, self.n)
        if not tg_random_solution(&empty, rng, rows):
            return FAILED
        for i in range(self.ncells):
            d.solution[i] = (rows[i // self.n] >> (i % self.n)) & 1
            d.given[i] = d.near_given[i] = d.clue_cells[i] = 0
            d.dist[i] = DMAX
        for i in range(self.nedges):
            d.clued[i] = d.near_clue[i] = 0
        d.norbits = 0
        d.start[0] = 0
        d.ngiven = 0
        d.touch_ok = _uniform(rng) < self.touch
        d.relaxed = 0
        pick = _uniform(rng) * self.recipe_cumulative[self.nrecipes - 1]
        recipe = 0
        while recipe < self.nrecipes - 1 and self.recipe_cumulative[recipe] <= pick:
            recipe += 1

        group = self.recipe_group[recipe]
        d.group = group
        # the recipe's pieces: the givens first, each kind in a random order
        k = self.recipe_start[recipe + 1] - self.recipe_start[recipe]
        for i in range(k):
            order[i] = self.recipe_start[recipe] + i
        for i in range(k - 1, 0, -1):
            j = _below(rng, i + 1)
            t = order[i]
            order[i] = order[j]
            order[j] = t
        for kind in range(2):
            for i in range(k):
                s = self.recipe_shape[order[i]]
                if self.shape_kind[s] != kind:
                    continue
                slot = 0
                while (1 << slot) != self.recipe_images[order[i]]:
                    slot += 1
                self._add(d, s, self.recipe_pgroup[order[i]], slot, rng)
        # pieces from the pool until the board is unique (counted again after each piece placed)
        tries = 0
        added = 1
        while True:
            if d.ngiven > 0 and added:
                for i in range(d.norbits):
                    active[i] = 1
                found = self._count(d, active, deadline)
                if found == -2:
                    return SLOW
                if found < 0:
                    return LATE
                if found == 1:
                    break
            added = 0
            tries += 1
            misses += 1
            if tries > self.max_extra or (misses > MISSES and d.relaxed):
                return FAILED
            if misses > MISSES:
                d.relaxed = 1          # nothing fits apart from the pieces drawn: let pieces touch
                misses = 0
            kind = 0 if d.ngiven == 0 or _uniform(rng) < self.extra_given else 1
            if self.npool[kind] == 0:
                continue
            s = self.pool[kind][_below(rng, self.npool[kind])]
            # the orbit sizes the group allows, in a random order
            t = 0
            for slot in range(NIMAGES):
                if (1 << slot) <= self.group_size[group]:
                    slots[t] = slot
                    t += 1
            for i in range(t - 1, 0, -1):
                j = _below(rng, i + 1)
                slot = slots[i]
                slots[i] = slots[j]
                slots[j] = slot
            for i in range(t):
                if self._add(d, s, group, slots[i], rng):
                    added = 1
                    misses = 0
                    break
        # minimal within the symmetry: every orbit whose removal keeps the board unique goes
        for i in range(d.norbits):
            order[i] = i
        for i in range(d.norbits - 1, 0, -1):
            j = _below(rng, i + 1)
            t = order[i]
            order[i] = order[j]
            order[j] = t
        for i in range(d.norbits):
            active[order[i]] = 0
            found = self._count(d, active, deadline)
            if found == -2:
                return SLOW
            if found < 0:
                return LATE
            if found != 1:
                active[order[i]] = 1
        # keep the active orbits only
        j = 0
        t = 0
        for i in range(d.norbits):
            if active[i]:
                k = d.start[i + 1] - d.start[i]
                memcpy(&d.el[t], &d.el[d.start[i]], k * sizeof(unsigned short))
                d.kind[j] = d.kind[i]
                d.orbit_group[j] = d.orbit_group[i]
                d.start[j] = t
                t += k
                j += 1
        d.norbits = j
        d.start[j] = t
        # the layout's group: the symmetries every orbit kept was drawn under
        mask = 0xFF
        for i in range(d.norbits):
            mask &= self.group_mask[d.orbit_group[i]]
        d.group = self.mask_group[mask] if self.mask_group[mask] >= 0 else 0
        return DRAWN

    cdef bint _looks_published(self, _Drawing *d, uint64_t *rng) noexcept nogil:
        """Whether a drawn layout is kept: its bin's acceptance (given count, clue count, how far the
        clues sit from the givens) against a uniform draw."""
        cdef int i, j, x, e, a, y, nearest, given = 0, clues = 0, gb, cb, db
        cdef double far = 0.0, mean
        if not self.look:
            return 1
        for i in range(d.start[d.norbits]):
            if d.el[i] < self.ncells:
                given += 1
        for i in range(d.start[d.norbits]):
            x = d.el[i]
            if x >= self.ncells:
                clues += 1
                e = x - self.ncells
                a = self.edge_a[e]
                nearest = self.n
                for j in range(d.start[d.norbits]):
                    y = d.el[j]
                    if y < self.ncells and abs(y // self.n - a // self.n) + abs(y % self.n - a % self.n) < nearest:
                        nearest = abs(y // self.n - a // self.n) + abs(y % self.n - a % self.n)
                far += nearest
        if given < self.gmin or given > self.gmax or clues < self.cmin or clues > self.cmax:
            return 0
        mean = far / clues if clues else 0.0
        gb = 0
        while gb < self.ngb and given >= self.g_edges[gb]:
            gb += 1
        cb = 0
        while cb < self.ncb and clues >= self.c_edges[cb]:
            cb += 1
        db = 0
        while db < self.ndb and mean >= self.d_edges[db]:
            db += 1
        return _uniform(rng) < self.accept[(gb * (self.ncb + 1) + cb) * (self.ndb + 1) + db]

    cdef _python(self, _Drawing *d):
        """The solution and the orbits of a drawing, as draw and layout return them."""
        cdef int o, i, x, e
        solution = "".join("M" if d.solution[i] else "S" for i in range(self.ncells))
        orbits = []
        for o in range(d.norbits):
            cells, edges = [], []
            for i in range(d.start[o], d.start[o + 1]):
                x = d.el[i]
                if x < self.ncells:
                    cells.append(x)
                else:
                    e = x - self.ncells
                    edges.append((self.edge_a[e], self.edge_b[e]))
            orbits.append((frozenset(cells), frozenset(edges)))
        return solution, tuple(orbits)

    def draw(self, uint64_t state, double deadline=0.0, bint look=True):
        """One drawing from the splitmix64 state: (outcome, state after, counter calls, solution,
        orbits, group). Outcome DRAWN (orbits: each (cells, edges as (a, b)), minimal within the
        group), FAILED, SLOW, LATE, or UNLIKE (drawn, but set aside by the look acceptance: outside
        the published counts of givens and clues, or by its bin's acceptance; only when `look`)."""
        cdef _Drawing d
        cdef int outcome
        memset(&d, 0, sizeof(_Drawing))
        with nogil:
            outcome = self._draw(&d, &state, deadline)
            if outcome == DRAWN and look and not self._looks_published(&d, &state):
                outcome = UNLIKE
        free(d.weights)
        if outcome == FAILED or outcome == LATE or outcome == SLOW:
            return outcome, state, d.counts, None, None, d.group
        solution, orbits = self._python(&d)
        return outcome, state, d.counts, solution, orbits, d.group

    def layout(self, uint64_t state, double deadline=0.0):
        """Drawings from the splitmix64 state until one is kept (drawn, and by the look acceptance
        when the drawer has one) or the deadline passes: (DRAWN or LATE, state after, drawings,
        how many FAILED, how many UNLIKE, how many SLOW, counter calls, solution, orbits, group); the
        solution and the orbits are None when LATE."""
        cdef _Drawing d
        cdef int outcome, drawings = 0, failed = 0, unlike = 0, slow = 0, counts = 0
        memset(&d, 0, sizeof(_Drawing))
        with nogil:
            while True:
                if deadline > 0 and now() > deadline:
                    outcome = LATE
                    break
                drawings += 1
                d.counts = 0
                outcome = self._draw(&d, &state, deadline)
                counts += d.counts
                if outcome == DRAWN and not self._looks_published(&d, &state):
                    outcome = UNLIKE
                if outcome == FAILED:
                    failed += 1
                elif outcome == UNLIKE:
                    unlike += 1
                elif outcome == SLOW:
                    slow += 1
                else:
                    break
        free(d.weights)
        if outcome == LATE:
            return outcome, state, drawings, failed, unlike, slow, counts, None, None, d.group
        solution, orbits = self._python(&d)
        return outcome, state, drawings, failed, unlike, slow, counts, solution, orbits, d.group
