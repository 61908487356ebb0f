# The compiled Star Battle finders: the contract of `_techniques.pyx`.
#
# The ladder's techniques (techniques.py, blocks.py) that have a compiled finder run it and only word
# what it finds: each finder looks at a position as given (nothing deduced first) and returns a
# Finding (finding.py: the cells placed and ruled out, the units reasoned about, and a detail or two
# of the technique's), or None. Cells and units are numbered as in _search.pxd.
#
# The basic rules are the ladder's tier 1 (star-neighbours, unit-full, last-free-cells): their finders
# are here too, and a round of them (`_basic_round`: one step at a time, each applied as
# StarState.apply applies it, until the position breaks, is solved or stalls) is what a trial carries
# a position on with.
#
# A trial asks, for one candidate after another, "does a star here lead to a contradiction?". The
# compiled probe answers it quickly (`first_contradiction`), after placing the assumed star, with the
# search's propagation to a fixed point (stars clear what they attack, full units clear the rest, a
# unit with as many candidates as stars still needed takes them all) and a check that every unit can
# still fit its stars; at level 2, while `budget` allows, the first deduction of the ladder's tier 2
# (the plan techniques.py passes, built from its table: the same compiled finders the ladder runs),
# then the basic rules again. The answer is the same as the step-by-step course's (`trial`, which
# says how it ended: the unit that broke, the tier-2 steps taken), since a propagation that does not
# fail ends where the ladder's basic steps end, and one that fails fails in both.

from libc.stdint cimport uint64_t

from engine.games.starbattle._search cimport MAX_WORDS, Search


# The enumerations behind footprints, crowded groups and pressured pairs. Each has a plain Python
# oracle in tests/engine/test_engine_techniques_oracle.py that answers step for step as it does.

cdef struct WaysRun:
    int size                  # cells of the area, ascending, in `cells`
    int *cells
    int *block                # per cell: how many chosen stars attack it
    int *got                  # per unit: stars chosen in it
    int *needs
    int *tight                # units with little room to spare (checked at each complete way)
    int ntight
    int *placed
    int nplaced
    unsigned char *cand
    unsigned char *scratch    # bytes for packing a bitset
    # sets of cells as bitsets of 64-bit words
    uint64_t *wcand
    uint64_t *wchosen         # the stars of the way being built
    uint64_t *wremoved        # scratch: what one complete way rules out
    uint64_t *wevery          # telling: cells every way found stars
    uint64_t *wused           # telling: cells some way stars
    uint64_t *wruled          # telling: cells outside the area every way rules out
    uint64_t *warea
    int every_n, used_n, ruled_n, area_n
    long long tried, budget
    int limit, found
    bint first_only, telling, too_many, hopeless
    bint collect              # list the ways (else only count them: `agreement`)

cdef struct CountRun:          # a counting search (undercount, overcount, fish) on the loaded position
    unsigned char *cand
    unsigned char *elim       # the cells the group found clears
    unsigned char *picked     # per index 0..n-1 of the group's kind: in the group so far
    int *needs
    int *units                # the units of the group's kind still needing stars, in order
    int *unit_need
    unsigned long long *spans # ... and the units of the other kind their candidates touch
    int *room
    int *chosen
    int count, size, ykind, xkind, found_need
    unsigned long long found_span

cdef struct PairRun:
    unsigned char *in_a
    unsigned char *in_b
    unsigned char *excluded   # dropped by the "no star here" branch
    unsigned char *chosen
    unsigned char *cand
    int *blocked              # per cell: how many chosen stars rule it out
    int *got                  # per unit: stars chosen in it
    int *needs
    int *units                # the units that must keep room
    int nunits
    int count_a, count_b      # cells of a and of b still open


cdef struct BlockRun:          # scratch for the block arguments (_block_gives)
    int *anchors              # the cover's blocks, by their top-left cells
    uint64_t *blocks          # per block: its four cells
    uint64_t *parts           # per block: its cells of the area no other block shares
    uint64_t *work            # 8 sets: seen, overlap, place, elim, common, union of the parts, mask, inside


# The finders `Prober.find` runs (codes, finding.py): the tier-2 finders a probe may run between its
# basic steps, and the basic rules as the ladder's tier-1 steps.
cdef enum:
    FIND_COUNTING = 0
    FIND_SHARED_NEIGHBOUR = 1
    FIND_CROWDING = 2
    FIND_STAR_NEIGHBOURS = 3
    FIND_UNIT_FULL = 4
    FIND_LAST_FREE_CELLS = 5
    MAX_PLAN = 8              # finders in a plan
    MAX_PAIRS = 4             # (kind inside, kind around) pairs of one counting finder
    MAX_SIZES = 16            # group sizes of one counting finder


# How a round of basic steps (Prober._basic_round) ends.
cdef enum:
    ROUND_BROKEN = 0
    ROUND_SOLVED = 1
    ROUND_STALLED = 2


cdef struct PlanStep:          # one finder of a probe's plan, with its options
    int code
    int npairs
    int pairs[2 * MAX_PAIRS]
    int nsizes
    int sizes[MAX_SIZES]


# The geometry, the state and the basic rules (_place_bits, _take_out, _propagate_bits) are the
# search's own: a probe loads a position instead of starting empty, and never backtracks.
cdef class Prober(Search):
    cdef int nbytes
    # the geometry as lists, for the enumerations: each unit's cells, each cell's attacks (ascending)
    cdef int *unit_start          # nunits + 1
    cdef int *unit_cells          # 3 * ncells
    cdef int *attack_start        # ncells + 1
    cdef int *attack_cells
    # the loaded position a probe starts from, and the candidates a byte a cell (for the finders)
    cdef uint64_t base_cand[MAX_WORDS]
    cdef uint64_t base_star[MAX_WORDS]
    cdef unsigned char *flags
    # scratch
    cdef int *count
    cdef int *buf
    cdef unsigned char *one
    cdef unsigned char *reach     # crowding: the cells whose star could take some of a unit's room
    cdef unsigned char *hit_units # ... and the units of its free cells that need one star
    cdef uint64_t *cover_words    # scratch of _covered: its cells as words
    cdef int *cover_anchors       # ... and the blocks _cover_into finds
    # what the last finder found: cells placed and ruled out, the units it reasons about, a detail
    cdef uint64_t found_place[MAX_WORDS]
    cdef uint64_t found_elim[MAX_WORDS]
    cdef int *found_units
    cdef int found_nunits, found_need, found_count
    cdef CountRun group           # the counting search's arrays, kept from one call to the next
    # a step-by-step run's position broke (StarState.broken); the position the state was loaded from
    # (_set_position: the same two ints again load nothing), None once a probe changed the state
    cdef bint broken
    cdef object loaded_cand
    cdef object loaded_stars

    cdef void _lists(self) noexcept nogil
    cdef void _list_sets(self, const uint64_t *sets, int count, int *start, int *cells) noexcept nogil
    cdef bint _load(self, uint64_t *dirty) noexcept nogil
    cdef void _flag_candidates(self) noexcept nogil
    cdef bint _fits(self, const uint64_t *mask, int want) noexcept nogil
    cdef int _broken_unit(self) noexcept nogil
    cdef void _words(self, cells, uint64_t *out) except *
    cdef void _check_needs(self, needs) except *
    cdef void _copy_needs(self, needs, int *out) except *
    cdef unsigned char *_flags_and_needs(self, int size, needs, int **need_of) except NULL
    cdef void _set_position(self, cand, stars) except *
    cdef int _regions_first(self, int j) noexcept nogil
    cdef bint _star_neighbours(self) noexcept nogil
    cdef bint _unit_full(self) noexcept nogil
    cdef bint _last_free_cells(self) noexcept nogil
    cdef void _consequences(self, const uint64_t *placed, uint64_t *out) noexcept nogil
    cdef void _apply(self, const uint64_t *place, const uint64_t *elim) noexcept nogil
    cdef bint _solved(self) noexcept nogil
    cdef int _basic_round(self, const PlanStep *basic, int nbasic) noexcept nogil
    cdef bint _trial(self, int cell, int level, int budget, const PlanStep *basic, int nbasic,
                     const PlanStep *plan, int nplan, int *used) noexcept nogil
    cdef object _finding(self)
    cdef bint _find(self, const PlanStep *step) noexcept nogil
    cdef bint _counting(self, const PlanStep *step) noexcept nogil
    cdef bint _group_search(self, int ykind, int xkind, int size) noexcept nogil
    cdef bint _shared_neighbour(self) noexcept nogil
    cdef bint _crowding(self) noexcept nogil
    cdef int _crowders(self, int *unit) noexcept nogil
    cdef void _found_cells(self, int unit, const int *cells, int m) noexcept nogil
    cdef bint _plan_step(self, const PlanStep *plan, int nplan) noexcept nogil
    cdef bint _probe(self, int cell, int level, int budget, const PlanStep *plan, int nplan) noexcept nogil
    cdef int _read_plan(self, plan, PlanStep *out) except -1
    cdef void _read_step(self, int code, pairs, sizes, PlanStep *out) except *
    # the enumerations (below)
    cdef void _unpack(self, bytes bits, unsigned char *out) except *
    cdef object _pack(self, const unsigned char *flags, unsigned char *scratch)
    cdef object _pack_words(self, const uint64_t *words, unsigned char *scratch)
    cdef int _extend(self, WaysRun *w, int start, int left, list out) except -1
    cdef void _ways_point(self, WaysRun *w, unsigned char *flags, int *ints, uint64_t *words) noexcept nogil
    cdef void _ways_start(self, WaysRun *w, const unsigned char *inside, int slack) noexcept nogil
    cdef object _run_ways(self, area, int m, needs, cand, bint first_only, int limit, long long budget,
                          bint telling, bint collect, int slack)
    cdef bint _pair(self, PairRun *p, int wa, int wb) noexcept nogil
    cdef void _pair_point(self, PairRun *p, unsigned char *flags, int *ints, int ngiven) noexcept nogil
    cdef void _pair_loop(self, PairRun *p, const unsigned char *in_u, const unsigned char *in_v,
                         const unsigned char *base_cand, const unsigned char *near_f, const int *base_needs,
                         const int *given, int ngiven, int u, int v, unsigned char *gone,
                         unsigned char *crowders) noexcept nogil
    cdef void _near(self, const unsigned char *cells, const int *needs, const unsigned char *cand,
                    unsigned char *gone, unsigned char *near) noexcept nogil
    cdef void _taken(self, int cell, const int *needs, unsigned char *gone) noexcept nogil
    cdef bint _group(self, CountRun *w, int start, int depth, unsigned long long span, int need_x,
                     int need_y) noexcept nogil
    cdef bint _covered(self, unsigned char *cells, int size, int m) noexcept nogil
    cdef int _windows(self, sizes, int *windows) except -1
    cdef void _region_words(self, const uint64_t *wcand, uint64_t *region) noexcept nogil
    cdef bint _window_words(self, int first, int size, const int *needs, const uint64_t *wcand,
                            uint64_t *window, int *need) noexcept nogil
    cdef void _window_regions(self, const uint64_t *window, const uint64_t *region,
                              unsigned char *where) noexcept nogil
    cdef int _window_area(self, int first, int size, bint excess, const int *needs, const uint64_t *wcand,
                          const uint64_t *region, uint64_t *window, uint64_t *cells, int *regs, int *nregs,
                          int *need) noexcept nogil
    cdef tuple _window_units(self, int first, int size, const int *regs, int nregs)
    cdef int _cover_into(self, uint64_t *mask, int size, int m, int *anchors) noexcept nogil
    cdef object _words_int(self, const uint64_t *words)
    cdef void _lay_blocks(self, BlockRun *b, int *anchors, uint64_t *words) noexcept nogil
    cdef bint _block_gives(self, const uint64_t *free_cells, int need, const int *needs, const uint64_t *cand,
                           BlockRun *b) noexcept nogil
    cdef void _rule_out(self, PairRun *p, int cell, int delta) noexcept nogil
    cdef void _count_out(self, PairRun *p, int cell, int delta) noexcept nogil
    cdef bint _pair_with(self, PairRun *p, int x, int wa, int wb) noexcept nogil

