# cython: language_level=3
"""Compiled Cross Kings search core (private; use crowns_solver.cross_kings.solve).

One :class:`Engine` per solve.  It holds the deal, the rules options, a transposition
table of fixed size (allocated once, never grown) and a small fixed leaf-score cache.
Its entry point :meth:`Engine.search` runs a fail-soft negamax alpha-beta search with
the GIL released:

- open mode (RULES.md "Open value"): every card is known; plain minimax over the deal;
- game mode (RULES.md "Game value"): taking a face-down cell is a chance node over the
  unseen cards (expectiminimax), pruned with Ballard's Star1 and Star2 (probing).

Values are integers from the point of view of the player to move, scaled so that every
expectation stays exact: a node with f face-down cells left has values in units of
1/f! (the chance node over f equally likely cards is then the plain sum of its
children).  Objective "margin" uses the final margin, objective "win" the sign of the
final margin times WIN_SCALE (so the horizon heuristic can say "probably winning").

Every result carries a *proven* flag: true when no heuristic horizon value took part in
it, so fail-high results are proven lower bounds, fail-low results proven upper bounds
and results inside the window exact values.  The transposition table keeps proven and
heuristic (depth-limited) bounds apart.

The Python driver (crowns_solver.cross_kings.solver) validates positions, builds the
state tuples this module reads, and runs MTD(f), iterative deepening and the root.
"""

cdef extern from *:
    """
    /* Hardware popcount on x86-64 (every x86-64 CPU since 2008 has it; the module
       refuses to load on one that does not, see CPU_OK).  Without this, GCC calls a
       slow library routine for every __builtin_popcount in the scorer and the search. */
    #if defined(__GNUC__) && defined(__x86_64__)
    #pragma GCC target("popcnt")
    static int crowns_cpu_ok(void) { __builtin_cpu_init(); return __builtin_cpu_supports("popcnt"); }
    #else
    static int crowns_cpu_ok(void) { return 1; }
    #endif
    """
    int crowns_cpu_ok() nogil

cdef extern from *:
    """
    /* The transposition table: anonymous memory, zero until touched, 2 MB aligned and
       marked for transparent huge pages where the system has them, so a large table
       costs nothing up front and few page faults as the search fills it. */
    #include <stddef.h>
    #include <stdint.h>
    #include <sys/mman.h>
    #define CROWNS_ALIGN ((size_t)2 << 20)
    static void* crowns_table_map(size_t n, void** base, size_t* mapped, int shared) {
        size_t total = n + CROWNS_ALIGN;
        void* p = mmap(NULL, total, PROT_READ | PROT_WRITE,
                       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) { *base = NULL; *mapped = 0; return NULL; }
        uintptr_t a = ((uintptr_t)p + CROWNS_ALIGN - 1) & ~(uintptr_t)(CROWNS_ALIGN - 1);
    #ifdef MADV_HUGEPAGE
        madvise((void*)a, n, MADV_HUGEPAGE);
    #endif
        *base = p; *mapped = total;
        return (void*)a;
    }
    static void* crowns_table_alloc(size_t n, void** base, size_t* mapped) {
        return crowns_table_map(n, base, mapped, 0);
    }
    static void crowns_table_free(void* base, size_t mapped) {
        if (base) munmap(base, mapped);
    }
    /* Table words are read and written whole (8 bytes, relaxed atomics: plain moves on
       x86-64), so a table shared by several processes never shows a half-written word;
       a slot's two words can still come from two different writers, which the check
       word catches (see TTS). */
    static inline uint64_t crowns_load(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void crowns_put(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline int crowns_gen_next(int* p) {
        int g = __atomic_load_n(p, __ATOMIC_RELAXED);
        int n = (g % 3) + 1;
        __atomic_store_n(p, n, __ATOMIC_RELAXED);
        return n;
    }
    static inline int crowns_gen_load(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    /* The check word of a table slot is its key word XOR this mix of its data word.
       The key word's low 16 bits are not key bits (they hold the move, depth, ...), so
       with a plain XOR two data words differing only there (bounds differing by a few
       points) would mix undetected; multiplying by an odd constant carries every
       difference into the key bits. */
    static inline uint64_t crowns_mix(uint64_t d) { return d * 0x9E3779B97F4A7C15ULL; }
    """
    void* crowns_table_alloc(size_t n, void** base, size_t* mapped) nogil
    void* crowns_table_map(size_t n, void** base, size_t* mapped, int shared) nogil
    void crowns_table_free(void* base, size_t mapped) nogil

include "_ck_scoring.pxi"

from libc.stdint cimport int64_t, int32_t, uint64_t, uint32_t, uint16_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memset

cdef extern from *:
    # (defined in the C block at the top of this module)
    uint64_t crowns_load(const uint64_t* p) nogil
    void crowns_put(uint64_t* p, uint64_t v) nogil
    int crowns_gen_next(int* p) nogil
    int crowns_gen_load(const int* p) nogil
    uint64_t crowns_mix(uint64_t d) nogil

from cpython.exc cimport PyErr_Clear
from cpython.object cimport PyObject_GenericSetAttr

from crowns_solver.errors import EngineBusyError

#: EngineBusyError's message: a second thread called an engine already in use.
BUSY_MESSAGE = ("this Cross Kings search engine is in use by another thread: an engine serves"
                " one thread at a time; use one engine per thread (each solve() and each"
                " player's move makes its own), or worker processes (workers=) to search in"
                " parallel")

include "_engine_guard.pxi"

cdef extern from "Python.h":
    # declared here without Cython's "except -1", so the KeyboardInterrupt it raises can
    # be turned into a clean stop instead of propagating out of a noexcept function
    int _check_signals "PyErr_CheckSignals" ()

cdef extern from *:
    const char* CROWNS_SOURCE_HASH

cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec* tp)
    int CLOCK_MONOTONIC

cdef extern from *:
    void __builtin_prefetch(const void*) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

SOURCE_HASH = CROWNS_SOURCE_HASH.decode()

if not crowns_cpu_ok():
    raise ImportError("crowns_solver._ck_search was built for CPUs with the POPCNT instruction, which this one lacks")

ck_init_tables()

# ----------------------------------------------------------------------------- constants

DEF INF = 1 << 60
DEF WIN_SCALE = 64          # a win is worth WIN_SCALE in objective "win"
DEF TT_WAYS = 4             # entries per bucket (one 64-byte cache line)
DEF SC_MAX_BITS = 20        # leaf-score cache: at most 2^20 entries of 8 bytes (8 MB)
# at least 2^12 entries (32 KB): half the 64 KB minimum budget, so the table gets at least
# the other half (a 64 KB floor left a 64 KB budget no room for the table's one bucket:
# 64 bytes over it, and just above 64 KB a table of a few buckets)
DEF SC_MIN_BITS = 12
DEF CHECK_EVERY = 1024      # nodes between clock checks
DEF MAX_PLY = 64
DEF TT_START_BUCKETS = 1 << 16   # the main table's first size in use (4 MB); at least 2^16, see _grow
DEF LTT_BYTES = 1 << 20     # the small table for the last plies (fits a core's L2 cache)
# the most a table may be given (256 TB): the sizing loops below double a bucket count,
# and near 2**63 bytes the product wrapped around and they never ended (a hang)
DEF MAX_TT_BYTES = 1 << 48

cdef enum:
    MODE_OPEN = 0
    MODE_GAME = 1
    OBJ_MARGIN = 0
    OBJ_WIN = 1
    REACH_ANY = 0
    REACH_NEAREST = 1
    STOP_NONE = 0
    STOP_TIME = 1
    STOP_INTERRUPT = 2
    STOP_NODES = 3
    STOP_CANCEL = 4

INF_VALUE = INF
#: ``Engine.stop`` after a stop by the cancel object of :meth:`Engine.set_cancel` (1 time,
#: 2 Ctrl-C, 3 node limit)
STOP_CANCELLED = STOP_CANCEL
#: the widest search window Engine.search / search_move take: -MAX_WINDOW <= alpha < beta
#: <= MAX_WINDOW (values lie within INF_VALUE; beyond 2**62 the negamax's -alpha, -beta
#: and beta - alpha overflow int64)
MAX_WINDOW = 2 * INF
WIN = WIN_SCALE

cdef uint64_t ONE = 1
# a leaf-score cache entry holding bounds only (no exact score): the lower bound
# (+128) in bits 40..51, the upper (+128) in bits 52..62; exact entries: the score (+128)
# from bit 40, bit 63 clear
cdef uint64_t SC_INTERVAL = (<uint64_t>1) << 63
cdef int64_t NO_VALUE = -(<int64_t>1 << 62)   # "no value" (a chance node left undecided): never a real value
cdef uint64_t LINE[36]        # other cells of the row and column
cdef uint64_t RAY[36][4]      # up, down, left, right
cdef uint64_t ROWM[6]
cdef uint64_t COLM[6]
cdef uint64_t LINES[64][2]    # cells of a set of rows [0] / columns [1] (bit i: row/column i)
cdef uint64_t CENTRAL = (ONE << 14) | (ONE << 15) | (ONE << 20) | (ONE << 21)
cdef uint64_t ZCARD[2][36]    # card held by first / second
cdef uint64_t ZCELL[36]       # cell taken
cdef uint64_t ZMARK[37]       # marker cell (36: not placed yet)
cdef uint32_t NEIGH[32]       # natural cards sharing a rank or within 2 ranks in a suit
cdef int64_t FACT[37]
cdef int MOBK[13]              # 48 // (1 + replies): the mobility ordering's weight (no division in the loop)


cdef uint64_t _splitmix(uint64_t* x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _init_search_tables() noexcept nogil:
    cdef int c, r, k, i, s, rank, d
    cdef uint64_t seed = 20240301
    for r in range(13):
        MOBK[r] = 48 // (1 + r)
    for r in range(6):
        ROWM[r] = 0
        COLM[r] = 0
    for c in range(36):
        ROWM[c // 6] |= ONE << c
        COLM[c % 6] |= ONE << c
    for r in range(64):
        LINES[r][0] = 0
        LINES[r][1] = 0
        for i in range(6):
            if (r >> i) & 1:
                LINES[r][0] |= ROWM[i]
                LINES[r][1] |= COLM[i]
    for c in range(36):
        r = c // 6
        k = c % 6
        LINE[c] = (ROWM[r] | COLM[k]) & ~(ONE << c)
        for d in range(4):
            RAY[c][d] = 0
        for i in range(r):
            RAY[c][0] |= ONE << (6 * i + k)
        for i in range(r + 1, 6):
            RAY[c][1] |= ONE << (6 * i + k)
        for i in range(k):
            RAY[c][2] |= ONE << (6 * r + i)
        for i in range(k + 1, 6):
            RAY[c][3] |= ONE << (6 * r + i)
    for s in range(2):
        for c in range(36):
            ZCARD[s][c] = _splitmix(&seed)
    for c in range(36):
        ZCELL[c] = _splitmix(&seed)
    for c in range(37):
        ZMARK[c] = _splitmix(&seed)
    for c in range(32):
        s = c // 8
        rank = c % 8
        NEIGH[c] = 0
        for i in range(4):
            if i != s:
                NEIGH[c] |= <uint32_t>1 << (8 * i + rank)
        for i in range(8):
            if i != rank and -2 <= i - rank <= 2:
                NEIGH[c] |= <uint32_t>1 << (8 * s + i)
    FACT[0] = 1
    for i in range(1, 21):
        FACT[i] = FACT[i - 1] * i
    for i in range(21, 37):
        FACT[i] = FACT[20]   # never used: at most 12 face-down cells


_init_search_tables()


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


def monotonic():
    """The clock the engine's deadlines use (seconds, monotonic)."""
    return _now()


cdef inline void _ck_interval(uint32_t nat, int kings, int* lb, int* ub) noexcept nogil:
    """Bounds (points) of the score of `nat` plus 2 to 4 Kings without the branch and
    bound of ck_score: the value of the root relaxation's placement (lower) and the
    relaxation's bound (upper), computed as ck_score computes them; they meet for most
    hands, and ck_score's branch and bound runs only where they do not."""
    cdef _CkCtx ctx
    cdef int s
    cdef uint32_t q
    ctx.nat = nat
    for s in range(4):
        ctx.ms[s] = (nat >> (8 * s)) & 0xFF
    ctx.runsuf[4] = 0
    s = 3
    while s >= 0:
        ctx.runsuf[s] = ctx.runsuf[s + 1] + CK_RUN[ctx.ms[s]]
        s -= 1
    cdef uint64_t C = ck_rank_counts(nat)
    ub[0] = ctx.runsuf[0] + ck_set_points(C, 0) + _ck_root12(&ctx, kings, C, &q) // 12
    lb[0] = ck_eval(nat, q)


def score_interval(uint32_t nat, int kings):
    """(lower, upper) bounds (points) of the score of natural-card mask `nat` (bits 0..31)
    plus `kings` Kings (2 to 4) from the scorer's relaxation alone (for tests).

    Raises ValueError when `kings` is not 2 to 4."""
    cdef int lb, ub
    if not 2 <= kings <= 4:
        raise ValueError("score_interval needs 2 to 4 Kings")
    _ck_interval(nat, kings, &lb, &ub)
    return lb, ub


# ----------------------------------------------------------------------------- state

cdef struct St:
    uint64_t occ       # cells still holding a card
    uint64_t fd        # game mode: face-down cells whose card is unknown
    uint64_t pool      # game mode: unseen cards (bit per card index 0..35)
    uint64_t key       # Zobrist key
    uint32_t nat[2]    # natural cards held by first / second
    int kings[2]
    int sc[2]          # current score of each hand, -1 until needed (scored lazily)
    int marker         # -1 before the start cell is chosen
    int side           # 0 first, 1 second (player to move)
    int f              # popcount(fd)


cdef struct TTE:
    # an entry as read (a copy, see _probe)
    uint64_t key       # low 16 bits hold: move (6) | depth (6) | proven (1) | gen (2) | valid (1)
    int32_t lo
    int32_t hi


cdef struct TTS:
    # an entry as stored: the lockless transposition table of Hyatt and Mann (2002).
    # `data` holds lo (low 32 bits) and hi; `check` holds the entry's key word XOR
    # crowns_mix(`data`).  A reader takes both words and accepts the entry only when
    # check XOR crowns_mix(data) has the valid bit and the key asked for, so a slot
    # whose two words come from two writers (a table shared by worker processes,
    # written without locks) reads as another key, a miss, instead of a wrong bound
    # (but for a chance of one in 2^48 over the stored key bits, less the index bits:
    # the same odds as two positions' keys colliding).  A table only one engine uses
    # (the small table, a main table not shared) stores the key word itself as `check`
    # (the mix is 0 there): one process never reads a half-written slot, and its probe
    # stays as cheap as before.
    uint64_t check
    uint64_t data


cdef inline int64_t _unpack_lo(int32_t v) noexcept nogil:
    return -INF if v == -2147483647 - 1 else v


cdef inline int64_t _unpack_hi(int32_t v) noexcept nogil:
    return INF if v == 2147483647 else v


cdef inline int32_t _pack_lo(int64_t v) noexcept nogil:
    # a lower bound may only be weakened (made smaller)
    if v <= -2147483647:
        return -2147483647 - 1
    if v >= 2147483646:
        return 2147483646
    return <int32_t>v


cdef inline int32_t _pack_hi(int64_t v) noexcept nogil:
    # an upper bound may only be weakened (made larger)
    if v >= 2147483646:
        return 2147483647
    if v <= -2147483646:
        return -2147483646
    return <int32_t>v


cdef inline int _popc(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef void _layout(long long tt_bytes, uint64_t* lbuckets_out, int* sc_bits_out,
                  uint64_t* nbuckets_out) noexcept nogil:
    """How an engine spends `tt_bytes` (at least 64 KB): the small table of the last
    plies (`lbuckets_out` buckets), the leaf-score cache (2^`sc_bits_out` entries) and
    the main table (`nbuckets_out` buckets)."""
    # the budget holds the table (the largest power of two of buckets that fits beside
    # a leaf-score cache of an eighth of the budget, at least 32 KB) and then the
    # largest score cache (at most 8 MB) that fits in what is left; the three together
    # never exceed the budget
    cdef long long budget = tt_bytes
    # the small table for the last plies: LTT_BYTES, or an eighth of what the budget
    # holds beyond its 64 KB minimum (one bucket, outside the budget, when nothing)
    cdef uint64_t lbuckets = 1, nbuckets = 1
    cdef int sc_bits = SC_MIN_BITS
    while lbuckets * 2 * TT_WAYS * sizeof(TTS) <= <uint64_t>min(LTT_BYTES, (budget - 65536) // 8):
        lbuckets *= 2
    if lbuckets > 1:
        budget -= lbuckets * TT_WAYS * sizeof(TTS)
    while sc_bits < SC_MAX_BITS and (8 << (sc_bits + 1)) * 8 <= budget:
        sc_bits += 1
    while <long long>(nbuckets * 2 * TT_WAYS * sizeof(TTS)) <= budget - (8 << sc_bits):
        nbuckets *= 2
    while sc_bits < SC_MAX_BITS and \
            (8 << (sc_bits + 1)) + nbuckets * TT_WAYS * sizeof(TTS) <= <uint64_t>budget:
        sc_bits += 1
    lbuckets_out[0] = lbuckets
    sc_bits_out[0] = sc_bits
    nbuckets_out[0] = nbuckets


def table_layout(long long tt_bytes):
    """How an :class:`Engine` given `tt_bytes` (65,536 to 2**48) spends them.

    Returns a dict of bytes: ``table`` (the main transposition table), ``small_table``
    (the table of the last plies, 0 when it is a single bucket outside the budget) and
    ``score_cache`` (the leaf-score cache), together at most `tt_bytes` (the one bucket
    of a small table reported as 0 aside).  With a :class:`SharedTable` the engine keeps
    only the last two of its own.
    """
    cdef uint64_t lbuckets, nbuckets
    cdef int sc_bits
    if tt_bytes < 65536:
        raise ValueError("the transposition table needs at least 64 KB")
    if tt_bytes > MAX_TT_BYTES:
        raise ValueError(f"the transposition table may have at most {MAX_TT_BYTES} bytes, got {tt_bytes}")
    _layout(tt_bytes, &lbuckets, &sc_bits, &nbuckets)
    return {"table": nbuckets * TT_WAYS * sizeof(TTS),
            "small_table": lbuckets * TT_WAYS * sizeof(TTS) if lbuckets > 1 else 0,
            "score_cache": 8 << sc_bits}


cdef class SharedTable:
    """A main transposition table in memory shared with child processes (private).

    Anonymous ``MAP_SHARED`` memory: a process forked after it is made (the ``fork``
    start method of :mod:`multiprocessing`) sees the same memory, so engines built with
    ``Engine(..., shared=table)`` in several workers read and write one table.  Entries
    are written without locks and checked on reading (lockless hashing, Hyatt and Mann
    2002: see ``TTS``), so concurrent writers can lose an entry, never corrupt one.  The
    table cannot be pickled (a process started by ``spawn`` or ``forkserver`` would not
    share it): those start methods get tables of their own.  Its generation (the
    replacement scheme's age, :meth:`Engine.new_generation`) is shared too.  The
    memory is zero until touched and freed with the object in the process that made it.

    Parameters
    ----------
    table_bytes : int
        Bytes for the table: the largest power of two of 64-byte buckets that fits, at
        least 64 KB.

    Raises
    ------
    ValueError
        If `table_bytes` is below 65,536 or above 2**48.
    MemoryError
        If the memory cannot be mapped.
    """

    cdef TTS* tt
    cdef void* base
    cdef size_t mapped
    cdef int* gen
    cdef readonly uint64_t nbuckets

    def __cinit__(self, long long table_bytes):
        if table_bytes < 65536:
            raise ValueError("the shared transposition table needs at least 64 KB")
        if table_bytes > MAX_TT_BYTES:
            raise ValueError(f"the shared transposition table may have at most {MAX_TT_BYTES} bytes,"
                             f" got {table_bytes}")
        self.nbuckets = 1
        while <long long>(self.nbuckets * 2 * TT_WAYS * sizeof(TTS)) <= table_bytes:
            self.nbuckets *= 2
        cdef size_t n = self.nbuckets * TT_WAYS * sizeof(TTS)
        # the table, then a cache line for the generation
        self.tt = <TTS*>crowns_table_map(n + 64, &self.base, &self.mapped, 1)
        if self.tt == NULL:
            raise MemoryError(f"cannot allocate a shared transposition table of {n} bytes")
        self.gen = <int*>(<char*>self.tt + n)
        self.gen[0] = 1

    def __dealloc__(self):
        if self.base != NULL:
            crowns_table_free(self.base, self.mapped)

    def __reduce__(self):
        raise TypeError("a SharedTable is shared with forked processes only; it cannot be pickled")

    def _slot(self, uint64_t i):
        """The two words (check, data) of slot `i`, as stored (for tests)."""
        if i >= self.nbuckets * TT_WAYS:
            raise IndexError(f"slot {i} is outside the table")
        return crowns_load(&self.tt[i].check), crowns_load(&self.tt[i].data)

    def _set_slot(self, uint64_t i, uint64_t check, uint64_t data):
        """Write the two words of slot `i` (for tests: a slot mixed from two writers)."""
        if i >= self.nbuckets * TT_WAYS:
            raise IndexError(f"slot {i} is outside the table")
        crowns_put(&self.tt[i].data, data)
        crowns_put(&self.tt[i].check, check)

    @property
    def table_bytes(self):
        """Bytes of the table."""
        return self.nbuckets * TT_WAYS * sizeof(TTS)

    @property
    def table_entries(self):
        """Capacity of the table (entries)."""
        return self.nbuckets * TT_WAYS

    def entries_used(self):
        """Entries holding something now (a scan of the whole table: for tests and reports)."""
        cdef uint64_t i, used = 0, d
        with nogil:
            for i in range(self.nbuckets * TT_WAYS):
                d = crowns_load(&self.tt[i].data)
                if (crowns_load(&self.tt[i].check) ^ crowns_mix(d)) & 0x8000:
                    used += 1
        return used


cdef int _window(object alpha, object beta, int64_t* a, int64_t* b) except -1:
    """The search window of Engine.search / search_move as C integers: whole numbers
    with -MAX_WINDOW <= alpha < beta <= MAX_WINDOW, else ValueError (TypeError or
    OverflowError for what is no number or beyond int64).  Outside it the negamax's
    negations overflowed (alpha = -2**63 gave a move a wrong value marked proven), an
    empty or inverted window gave a value that bounds nothing, and 0.5 was cut to 0."""
    a[0] = alpha
    b[0] = beta
    if a[0] != alpha or b[0] != beta or not -2 * INF <= a[0] < b[0] <= 2 * INF:
        raise ValueError(f"the search window must be whole numbers -2**61 <= alpha < beta <= 2**61,"
                         f" got alpha={alpha!r}, beta={beta!r}")
    return 0


cdef class Engine(_OneThread):
    """Search engine for one deal (private).

    Parameters
    ----------
    cards : bytes, length 36
        Card index (0..35) of each cell, 255 where unknown (face down, game mode).
    mode : int
        0 open, 1 game.
    objective : int
        0 margin, 1 win.
    reach : int
        0 any, 1 nearest.
    tt_bytes : int
        Bytes for the transposition table (rounded down to a power of two of 64-byte
        buckets; at least 64 KB).
    shared : SharedTable, optional
        Use this table as the main transposition table (shared with the engines of
        other worker processes); `tt_bytes` then sizes only this engine's small table
        and leaf-score cache (as :func:`table_layout` says).

    Notes
    -----
    One engine serves one thread at a time: its tables, counters and limits are
    changed by every search, which runs with the GIL released.  A method that reads or
    changes them (the searches, :meth:`set_limits`, the state queries, which fill the
    leaf-score cache) raises :class:`~crowns_solver.errors.EngineBusyError` when it
    starts while another thread is inside the engine, before touching anything; the
    other thread's call goes on undisturbed.  The flag is taken with one atomic
    compare-and-swap (the check and the set are one step, with or without a GIL) and
    dropped in ``finally``, so an exception or Ctrl-C never leaves the engine busy.  A call from the thread already
    inside (a signal handler run during a search's Ctrl-C check) is let through.  The
    properties, :meth:`stats`, :meth:`table_used` and the public counters are plain
    reads (a snapshot of a running search, for progress).  Writing a public field (the
    tunables, the counters) takes the engine as a call does, so a write from another
    thread while one is inside raises EngineBusyError naming the field (session 23;
    before, a tunable changed under a running search); only ``stop`` may be written
    from any thread at any time: it is how another thread stops a search (nonzero: the
    search returns at its next node).  A search can also be stopped from another thread
    by an object of the caller's (a ``threading.Event``), see :meth:`set_cancel`.
    """

    cdef int cards[36]
    cdef int mode, objective, reach
    cdef TTS* tt
    cdef void* tt_base
    cdef size_t tt_mapped
    cdef uint64_t nbuckets, bmask
    cdef SharedTable shared_table    # the main table's owner when shared (else None)
    cdef int* shared_gen             # the shared table's generation (else NULL)
    cdef uint64_t mixk               # main table slots: check = key word ^ data * mixk (0: a private table, see TTS)
    cdef TTS* ltt                    # small table for the last plies (cache-resident)
    cdef uint64_t lbmask
    cdef uint64_t* scache
    cdef void* sc_base
    cdef size_t sc_mapped
    cdef int sc_bits
    cdef int gen
    cdef long long used
    # limits and statistics
    cdef public long long nodes
    cdef long long next_check, node_limit
    cdef double deadline, next_signal
    cdef public int stop
    cdef object cancel               # polled with Ctrl-C: stop when cancel.is_set() (None: none)
    cdef object cancel_error         # what cancel.is_set() raised, for search() to raise (else None)
    cdef public long long tt_probes, tt_hits, tt_stores, bound_cuts, star_cuts, probe_cuts
    cdef long long score_calls, score_hits
    cdef long long score_miss_k[5]
    # tunables
    cdef public int bound_cards      # compute score bounds when the reachable part holds <= this many cards
    cdef public int star2            # Star2 probing at chance nodes
    cdef public int history_on
    cdef public int end_cut
    cdef public int king_key, pgain, pdeny   # ordering proxy: a King; cards near the mover's / the opponent's
    cdef public int fd_key           # ordering key of a face-down move (natural cards: 0..~20, King 14)
    cdef public int heur_w           # heur_kind 1: weight (eighths of a point) of potential
    cdef public int heur_kind        # horizon evaluation: 2 the fitted evaluation (ev_*), 1 margin + potential
    cdef public int eval_order_cards, eval_order_w   # order face-up moves by the fitted evaluation of the child (eval_order_w per point) at >= this many cards
    # heur_kind 2: each weight is (x0 + x1 * cards left / 36) / 64 point, for the margin,
    # the one-card gains, Kings, same-rank pairs, adjacent and one-apart suit neighbours,
    # and the mover's tempo (a constant): see _evaluation
    cdef public int ev_score0, ev_score1, ev_gain0, ev_gain1, ev_kings0, ev_kings1
    cdef public int ev_pairs0, ev_pairs1, ev_adj0, ev_adj1, ev_gap0, ev_gap1, ev_tempo0, ev_tempo1
    cdef public int tt_by_occ        # decide table use from the cards left, not those within reach
    cdef public long long end_cuts
    cdef public int prefetch
    cdef public int prefetch_score   # prefetch the leaf-score cache entry of the hand a move changes
    cdef public int cache_min_kings  # hands with fewer Kings are scored directly, not through the cache
    cdef public int lean_cards       # open mode, exact: plies with at most this many cards left use _lean
    cdef public int lean_thr         # _lean: settle a finished game against the window by score bounds first
    cdef public long long thr_relax, thr_cuts
    cdef public int prefetch_small   # prefetch also from the small table of the last plies
    cdef public int tt_min_cards     # no table probe/store when fewer cards are left (open)
    cdef public int tt_min_cards_game  # the same while face-down cards remain (game mode)
    cdef public int ltt_min_cards    # below those: the small table from this many cards left
    cdef public int ltt_game_only    # the small table in game mode only
    cdef public int cb_occ           # chance-node bounds from every card left, not the reachable part
    cdef public int exact_order_cards  # order by exact score gains when this many cards are within reach
    cdef public int gain_w, deny_w
    cdef public int mob_w            # ordering: weight of the opponent's mobility after the move (0: off)
    cdef public int etc              # enhanced transposition cut-off at main-table nodes (0: off)
    cdef public int etc_min_cards    # ... with at least this many cards left
    cdef public long long etc_cuts
    cdef public int ordering         # 0: moves in cell order (the plain baseline)
    cdef public int star1            # 0: chance nodes average every card, no cut-offs
    cdef public int split            # null-window split at chance nodes: at most this many searches per card (0: off)
    cdef public int split_width      # ... when the chance node's window is at most this wide
    cdef public int split_max_f      # ... and at most this many cards are unseen
    cdef public int split_skip       # no search for a card already within its share
    cdef public int split_est        # the split's estimates: 0 the horizon heuristic (heur_kind), 1 the margin, 2 the fitted evaluation
    cdef public int split_order      # the split's card order: 0 by index, 1 likeliest to miss its share first, 2 the reverse
    cdef public int pvs              # principal variation search: 0 off, 1 while face-down cells remain, 2 always
    cdef public int pvs_max_f        # ... where at most this many cards are unseen
    cdef public long long split_fallbacks
    cdef public long long split_probes, split_cuts
    cdef int history[2][36]
    cdef int root_best

    def __cinit__(self, bytes cards, int mode, int objective, int reach, long long tt_bytes,
                  SharedTable shared=None):
        cdef int i
        if len(cards) != 36:
            raise ValueError("cards must have 36 bytes")
        if mode not in (0, 1) or objective not in (0, 1) or reach not in (0, 1):
            raise ValueError("bad mode, objective or reach")
        for i in range(36):
            self.cards[i] = -1 if cards[i] == 255 else cards[i]
            if self.cards[i] > 35:
                raise ValueError(f"bad card index {cards[i]} at cell {i}")
        self.mode = mode
        self.objective = objective
        self.reach = reach
        if tt_bytes < 65536:
            raise ValueError("the transposition table needs at least 64 KB")
        if tt_bytes > MAX_TT_BYTES:
            raise ValueError(f"the transposition table may have at most {MAX_TT_BYTES} bytes, got {tt_bytes}")
        cdef uint64_t lbuckets
        cdef int sc_bits
        _layout(tt_bytes, &lbuckets, &sc_bits, &self.nbuckets)
        self.sc_bits = sc_bits
        if shared is not None:
            # the main table is the shared one (one for every worker process, see
            # SharedTable); `tt_bytes` sizes this engine's own small table and leaf-score
            # cache as it would for a table of its own.  A shared table is used whole
            # from the start: growing it (moving entries) while other processes read
            # it would lose them.
            self.shared_table = shared
            self.tt = shared.tt
            self.nbuckets = shared.nbuckets
            self.bmask = shared.nbuckets - 1
            self.shared_gen = shared.gen
            self.mixk = 0x9E3779B97F4A7C15ULL   # as crowns_mix
        else:
            # the table starts small and doubles as it fills (see _grow), so a short solve
            # touches (and the kernel zeroes) only the memory it uses
            self.bmask = (self.nbuckets if self.nbuckets < TT_START_BUCKETS else TT_START_BUCKETS) - 1
            self.tt = <TTS*>crowns_table_alloc(self.nbuckets * TT_WAYS * sizeof(TTS), &self.tt_base,
                                               &self.tt_mapped)
            if self.tt == NULL:
                raise MemoryError(f"cannot allocate a transposition table of {tt_bytes} bytes")
        self.lbmask = lbuckets - 1
        self.ltt = <TTS*>calloc(lbuckets * TT_WAYS, sizeof(TTS))
        # the leaf-score cache on huge pages too (random lookups: a 4 KB page each would
        # miss the TLB as well as the cache)
        self.scache = <uint64_t*>crowns_table_alloc((<size_t>8) << self.sc_bits, &self.sc_base,
                                                    &self.sc_mapped)
        if self.scache == NULL or self.ltt == NULL:
            # __dealloc__ frees whatever was allocated (it runs when __cinit__ fails too)
            raise MemoryError("cannot allocate the leaf-score cache")
        self.gen = 1 if self.shared_gen == NULL else crowns_gen_load(self.shared_gen)
        self.bound_cards = 0
        self.tt_min_cards = 11
        self.tt_min_cards_game = 6
        self.ltt_min_cards = 2
        self.ltt_game_only = 1
        self.cb_occ = 1
        self.exact_order_cards = 99
        self.gain_w = 2
        # measured per reach: 2 under "any" (24-28 cards), 10 under "nearest" (34 cards)
        self.mob_w = 2 if reach == REACH_ANY else 10
        # open mode only: in game mode the table is used from 6 cards left, where probing
        # every child costs more than the cut-offs save (18 cards: 3.5% fewer nodes, 6%
        # more time; 16 cards: 5% fewer nodes, 3% less time)
        self.etc = 1 if mode == MODE_OPEN else 0
        self.etc_min_cards = 0
        self.etc_cuts = 0
        self.ordering = 1
        self.end_cut = 1
        self.heur_w = 8
        self.heur_kind = 2
        # game mode: moves ordered by the fitted evaluation of the position they lead to,
        # from 12 cards left (18 cards: -32% nodes, -29% time; 16: -21% / -16%); in open
        # mode it cost nodes (24 cards: +5% to +80% by weight), so off there
        self.eval_order_cards = 12 if mode == MODE_GAME else 99
        self.eval_order_w = 16
        # least squares on 2,000 self-play games of the search player (20,000 nodes a
        # move), every position labelled with the game's final margin:
        # analysis/cross_kings_evaluation.py, docs/cross_kings_solver.md "Sixth round"
        self.ev_score0, self.ev_score1 = 61, -36
        self.ev_gain0, self.ev_gain1 = 21, -15
        self.ev_kings0, self.ev_kings1 = 2, 121
        self.ev_pairs0, self.ev_pairs1 = -3, 2
        self.ev_adj0, self.ev_adj1 = 2, 20
        self.ev_gap0, self.ev_gap1 = -7, 63
        self.ev_tempo0, self.ev_tempo1 = 93, -71
        self.fd_key = 20
        self.king_key = 14
        self.pgain = 3
        self.pdeny = 2
        self.tt_by_occ = 1
        self.prefetch = 1
        self.prefetch_small = 1
        self.lean_cards = 10
        self.lean_thr = 1
        # measured per mode: in open mode one-King hands are cheaper to score than to look
        # up and the prefetch pays (8-10%); in game mode the chance-node bounds score the
        # same large hands again and again (cache hits), and neither paid: off there
        self.prefetch_score = 1 if mode == MODE_OPEN else 0
        self.cache_min_kings = 2 if mode == MODE_OPEN else 1
        self.star1 = 1
        self.deny_w = 1
        self.star2 = 1
        self.split = 100
        self.split_width = 1
        self.split_max_f = 12
        self.split_skip = 1
        # the fitted evaluation: 24-31% fewer nodes than the margin after the card at
        # 14-18 cards (docs "Sixth round"); the earlier horizon heuristic was worse
        self.split_est = 2
        self.split_order = 2
        self.pvs = 1
        self.pvs_max_f = 12
        self.history_on = 1
        self.deadline = 0
        self.node_limit = 0
        self.next_check = CHECK_EVERY
        self.next_signal = 0

    def __dealloc__(self):
        if self.tt != NULL and self.tt_base != NULL:   # (a shared table is its owner's to free)
            crowns_table_free(self.tt_base, self.tt_mapped)
        if self.scache != NULL:
            crowns_table_free(self.sc_base, self.sc_mapped)
        if self.ltt != NULL:
            free(self.ltt)

    # ------------------------------------------------------------------ python API

    @property
    def table_bytes(self):
        """Bytes allocated for the transposition table."""
        return self.nbuckets * TT_WAYS * sizeof(TTS)

    @property
    def table_bytes_in_use(self):
        """Bytes of the transposition table in use so far (it starts at 4 MB, or the
        whole table when smaller, and doubles as it fills, up to `table_bytes`)."""
        return (self.bmask + 1) * TT_WAYS * sizeof(TTS)

    @property
    def score_cache_bytes(self):
        """Bytes of the leaf-score cache (part of the memory budget)."""
        return 8 << self.sc_bits

    @property
    def table_entries(self):
        """Capacity of the transposition table (entries)."""
        return self.nbuckets * TT_WAYS

    def table_used(self):
        """Entries of the transposition table in use."""
        return self.used

    def stats(self):
        """Counters since the engine was made."""
        return {
            "nodes": self.nodes, "tt_probes": self.tt_probes, "tt_hits": self.tt_hits,
            "tt_stores": self.tt_stores, "bound_cuts": self.bound_cuts,
            "star_cuts": self.star_cuts, "probe_cuts": self.probe_cuts, "end_cuts": self.end_cuts,
            "etc_cuts": self.etc_cuts,
            "split_probes": self.split_probes, "split_fallbacks": self.split_fallbacks, "split_cuts": self.split_cuts,
            "thr_relax": self.thr_relax, "thr_cuts": self.thr_cuts,
            "score_calls": self.score_calls, "score_cache_hits": self.score_hits,
            "score_misses_by_kings": [self.score_miss_k[i] for i in range(5)],
        }

    def set_limits(self, double deadline=0.0, long long node_limit=0):
        """Stop searching at monotonic time `deadline` (0: none) or after `node_limit` nodes
        in all (0: none).  Clears ``stop``, unless the cancel object (:meth:`set_cancel`)
        is set: a cancelled engine stays stopped (``stop`` 4) until it is cleared."""
        self._enter()
        try:
            self.deadline = deadline
            self.node_limit = node_limit
            self.stop = STOP_NONE
            self.next_check = self.nodes + 1
            if self.cancel is not None:
                self._poll_cancel()
                self._raise_cancel_error()
        finally:
            self._leave()

    def set_cancel(self, cancel=None):
        """Stop searching once ``cancel.is_set()`` is true: `cancel` is any object with an
        ``is_set()`` method, typically a :class:`threading.Event` that another thread
        sets (None: no such object, the default).

        The search polls it where it checks for Ctrl-C, every 50 ms of searching (with
        the GIL, between nodes: nothing is added to the search's loop), and
        :meth:`set_limits` polls it too.  A set object stops the search as a limit does
        (``stop`` becomes 4, :data:`STOP_CANCELLED`; the search returns, its value
        meaningless) and keeps every later search stopped until it is cleared or
        replaced here.  An exception raised by ``is_set()`` stops the search too and is
        raised by the search call (a KeyboardInterrupt there stops it as Ctrl-C does).

        Raises
        ------
        TypeError
            If `cancel` is not None and has no callable ``is_set``.
        EngineBusyError
            If another thread is inside the engine.
        """
        if cancel is not None and not callable(getattr(cancel, "is_set", None)):
            raise TypeError(f"cancel must be None or have an is_set() method (a threading.Event),"
                            f" got {type(cancel).__name__}")
        self._enter()
        try:
            self.cancel = cancel
            self.cancel_error = None
        finally:
            self._leave()

    cdef void _poll_cancel(self) noexcept:
        """With the GIL: stop (STOP_CANCEL) if the cancel object is set.  An exception from
        its ``is_set()`` stops the search too and is kept for the search call to raise;
        a KeyboardInterrupt there (Ctrl-C's handler ran inside it) stops it as Ctrl-C."""
        try:
            if self.cancel.is_set():
                self.stop = STOP_CANCEL
        except KeyboardInterrupt:
            self.stop = STOP_INTERRUPT
        except BaseException as exc:
            self.cancel_error = exc
            self.stop = STOP_CANCEL

    cdef int _raise_cancel_error(self) except -1:
        """Raise (once) what the cancel object's ``is_set()`` raised during a search."""
        err = self.cancel_error
        if err is not None:
            self.cancel_error = None
            raise err
        return 0

    def __setattr__(self, name, value):
        # A public field is written as a call runs: refused while another thread is inside
        # (a tunable changed under a running search, read without the GIL, gave a search of
        # no one setting); ``stop`` is written from any thread (how a search is stopped).
        # Only writes from Python come here: the search's own fields are C struct members.
        if name == "stop":
            PyObject_GenericSetAttr(self, name, value)
            return
        try:
            self._enter()
        except EngineBusyError:
            raise EngineBusyError(f"cannot set Engine.{name} now: {BUSY_MESSAGE}") from None
        try:
            PyObject_GenericSetAttr(self, name, value)
        finally:
            self._leave()

    def new_generation(self):
        """Mark entries stored from now on as newer (replacement prefers old entries).
        With a shared table the generation is the table's: every engine sharing it
        takes the new one at its next search."""
        self._enter()
        if self.shared_gen != NULL:
            self.gen = crowns_gen_next(self.shared_gen)
        else:
            self.gen = (self.gen % 3) + 1
        self._leave()

    @property
    def table_shared(self):
        """Whether the main table is a :class:`SharedTable` (one for several engines)."""
        return self.shared_gen != NULL

    cdef int _load(self, tuple state, St* s) except -1:
        cdef int i
        occ, fd, pool, nat0, nat1, k0, k1, marker, side = state
        s.occ = occ
        s.fd = fd if self.mode == MODE_GAME else 0
        s.pool = pool if self.mode == MODE_GAME else 0
        s.nat[0] = nat0
        s.nat[1] = nat1
        s.kings[0] = k0
        s.kings[1] = k1
        s.marker = marker
        s.side = side
        s.f = _popc(s.fd)
        if s.marker < -1 or s.marker > 35 or s.side not in (0, 1):
            raise ValueError("bad marker or side")
        if s.kings[0] < 0 or s.kings[1] < 0 or s.kings[0] + s.kings[1] > 4:
            raise ValueError("bad King counts")
        if (s.occ >> 36) or (s.fd & ~s.occ) or s.f > 12 or (s.pool >> 36) or _popc(s.pool) != s.f:
            raise ValueError("bad cell masks")
        cdef uint64_t seen = s.pool
        cdef int nk = s.kings[0] + s.kings[1], card
        if s.nat[0] & s.nat[1] or (<uint64_t>(s.nat[0] | s.nat[1])) & s.pool:
            raise ValueError("a card is in two places")
        seen |= s.nat[0] | s.nat[1]
        for i in range(32, 36):
            if (s.pool >> i) & 1:
                nk += 1
        for i in range(36):
            if (s.occ >> i) & 1 and not (s.fd >> i) & 1:
                card = self.cards[i]
                if card < 0:
                    raise ValueError(f"cell {i} holds a card the engine does not know")
                if card >= 32:
                    nk += 1
                elif (seen >> card) & 1:
                    raise ValueError(f"card {card} is in two places")
                seen |= ONE << card
        if nk > 4:
            raise ValueError("more than four Kings")
        s.sc[0] = self._score(s.nat[0], s.kings[0])
        s.sc[1] = self._score(s.nat[1], s.kings[1])
        s.key = ZMARK[36 if s.marker < 0 else s.marker]
        for i in range(32):
            if (s.nat[0] >> i) & 1:
                s.key ^= ZCARD[0][i]
            if (s.nat[1] >> i) & 1:
                s.key ^= ZCARD[1][i]
        # Kings are interchangeable: key them by count
        for i in range(s.kings[0]):
            s.key ^= ZCARD[0][32 + i]
        for i in range(s.kings[1]):
            s.key ^= ZCARD[1][32 + i]
        for i in range(36):
            if not (s.occ >> i) & 1:
                s.key ^= ZCELL[i]
        return 0

    cdef tuple _dump(self, St* s):
        return (s.occ, s.fd, s.pool, s.nat[0], s.nat[1], s.kings[0], s.kings[1], s.marker, s.side)

    def scale(self, tuple state):
        """Units per point of value at `state`: f! (times WIN for objective win)."""
        cdef St s
        self._enter()
        try:
            self._load(state, &s)
            return FACT[s.f] * (WIN_SCALE if self.objective == OBJ_WIN else 1)
        finally:
            self._leave()

    def moves(self, tuple state):
        """Legal moves (cells, ascending) at `state`."""
        cdef St s
        cdef uint64_t m
        self._enter()
        try:
            self._load(state, &s)
            m = self._gen(&s)
            out = []
            while m:
                out.append(__builtin_ctzll(m))
                m &= m - 1
            return out
        finally:
            self._leave()

    def child(self, tuple state, int cell, int card=-1):
        """State after the player to move takes `cell` (revealing `card` if it is face down)."""
        cdef St s, c
        self._enter()
        try:
            self._load(state, &s)
            if not 0 <= cell < 36 or not (self._gen(&s) >> cell) & 1:
                raise ValueError(f"cell {cell} is not a legal move")
            if s.marker >= 0 and (s.fd >> cell) & 1:
                if card < 0 or card > 35 or not (s.pool >> card) & 1:
                    raise ValueError(f"cell {cell} is face down: give a card from the pool")
            else:
                card = self.cards[cell]
            self._make(&s, &c, cell, card)
            return self._dump(&c)
        finally:
            self._leave()

    def is_chance(self, tuple state, int cell):
        """Whether taking `cell` reveals an unknown card (game mode)."""
        cdef St s
        self._enter()
        try:
            self._load(state, &s)
            if not 0 <= cell < 36:
                raise ValueError(f"no such cell: {cell}")
            return bool(s.marker >= 0 and (s.fd >> cell) & 1)
        finally:
            self._leave()

    def pool_cards(self, tuple state):
        """The unseen cards (card indices) at `state`."""
        cdef St s
        self._enter()
        try:
            self._load(state, &s)
            return [i for i in range(36) if (s.pool >> i) & 1]
        finally:
            self._leave()

    def terminal_value(self, tuple state):
        """Scaled value of `state` if the game is over there, else None."""
        cdef St s
        self._enter()
        try:
            self._load(state, &s)
            if self._gen(&s):
                return None
            return self._terminal(&s)
        finally:
            self._leave()

    def bounds(self, tuple state):
        """Proven (lower, upper) bounds of the scaled value at `state` from score bounds."""
        cdef St s
        cdef int64_t lo, hi
        self._enter()
        try:
            self._load(state, &s)
            if not self._gen(&s):
                lo = self._terminal(&s)
                return lo, lo
            self._bounds(&s, &lo, &hi, 1, -INF, INF)
            return lo, hi
        finally:
            self._leave()

    def tt_move(self, tuple state):
        """Best move the table holds for `state`, or -1."""
        cdef St s
        cdef TTE hit
        cdef TTE* e
        cdef int m
        self._enter()
        try:
            self._load(state, &s)
            e = self._probe(s.key, self._uses_table(&s) or 1, &hit)
            if e == NULL:
                return -1
            m = e.key & 63
            return -1 if m == 63 else m
        finally:
            self._leave()

    def tt_bounds(self, tuple state):
        """(lo, hi, proven, depth) stored for `state`, or None."""
        cdef St s
        cdef TTE hit
        cdef TTE* e
        self._enter()
        try:
            self._load(state, &s)
            e = self._probe(s.key, self._uses_table(&s) or 1, &hit)
            if e == NULL:
                return None
            return (_unpack_lo(e.lo), _unpack_hi(e.hi), bool((e.key >> 12) & 1), (e.key >> 6) & 63)
        finally:
            self._leave()

    def heuristic(self, tuple state):
        """The horizon evaluation of `state` (scaled, the mover's view)."""
        cdef St s
        self._enter()
        try:
            self._load(state, &s)
            return self._heuristic(&s)
        finally:
            self._leave()

    def search(self, tuple state, int depth, alpha, beta):
        """Fail-soft alpha-beta on `state` to `depth` plies (>= 64: to the end).

        Returns (value, proven, best move at the root or -1).  After a stop (time,
        node limit, Ctrl-C, the cancel object of :meth:`set_cancel`) the value is
        meaningless and ``stop`` is set.  The window
        must be whole numbers with -MAX_WINDOW <= alpha < beta <= MAX_WINDOW
        (ValueError otherwise); a negative depth is depth 0.
        """
        cdef St s
        cdef int proven = 0
        cdef int64_t a, b, v
        _window(alpha, beta, &a, &b)
        if depth < 0:
            depth = 0   # the same horizon (see search_move)
        self._enter()
        try:
            self._load(state, &s)
            if self.stop:
                self._raise_cancel_error()
                return 0, False, -1
            self.root_best = -1
            if self.shared_gen != NULL:
                self.gen = crowns_gen_load(self.shared_gen)
            with nogil:
                v = self._search(&s, depth, a, b, &proven, 0)
            if self.stop:
                self._raise_cancel_error()
                return 0, False, -1
            return v, bool(proven), self.root_best
        finally:
            self._leave()

    def search_move(self, tuple state, int cell, int depth, alpha, beta):
        """Like :meth:`search`, for the value of one move at `state` (mover's view, the
        scale of `state`): a chance node over the unseen cards if `cell` is face down.
        The window and depth are checked as there."""
        cdef St s, c
        cdef int proven = 0
        cdef int64_t a, b, v
        _window(alpha, beta, &a, &b)
        if depth < 0:
            depth = 0   # a horizon already reached: depth - 1 below must not wrap around
        self._enter()
        try:
            self._load(state, &s)
            if not 0 <= cell < 36 or not (self._gen(&s) >> cell) & 1:
                raise ValueError(f"cell {cell} is not a legal move")
            if self.stop:
                self._raise_cancel_error()
                return 0, False
            if self.shared_gen != NULL:
                self.gen = crowns_gen_load(self.shared_gen)
            with nogil:
                if s.marker >= 0 and (s.fd >> cell) & 1:
                    v = self._chance(&s, cell, depth - 1, a, b, &proven, 1)
                else:
                    self._make(&s, &c, cell, self.cards[cell])
                    v = -self._search(&c, depth - 1, -b, -a, &proven, 1)
            if self.stop:
                self._raise_cancel_error()
                return 0, False
            return v, bool(proven)
        finally:
            self._leave()

    # ------------------------------------------------------------------ scoring

    cdef inline int _score(self, uint32_t nat, int kings) noexcept nogil:
        if kings > 4:   # cannot happen for a valid state (checked in _load); never index past the tables
            kings = 4
        if kings < self.cache_min_kings:   # computed directly: faster than a cache miss
            return ck_score(nat, kings)
        cdef uint64_t key = (<uint64_t>nat) | ((<uint64_t>kings) << 32)
        cdef uint64_t h = (key * 0x9E3779B97F4A7C15ULL) >> (64 - self.sc_bits)
        cdef uint64_t e = self.scache[h]
        self.score_calls += 1
        if (e & (0xFFFFFFFFFFULL | SC_INTERVAL)) == key:   # an interval entry is a miss
            self.score_hits += 1
            return <int>(e >> 40) - 128
        self.score_miss_k[kings] += 1
        cdef int v = ck_score(nat, kings)
        self.scache[h] = key | ((<uint64_t>(v + 128)) << 40)
        return v

    # ------------------------------------------------------------------ moves

    cdef inline uint64_t _gen(self, St* s) noexcept nogil:
        cdef uint64_t m, out, x
        if s.marker < 0:
            return CENTRAL & s.occ
        if self.reach == REACH_ANY:
            return s.occ & LINE[s.marker]
        out = 0
        x = s.occ & RAY[s.marker][0]   # up: nearest is the highest index
        if x:
            out |= ONE << (63 - __builtin_clzll(x))
        x = s.occ & RAY[s.marker][1]   # down: lowest index
        if x:
            out |= x & (~x + 1)
        x = s.occ & RAY[s.marker][2]   # left: highest
        if x:
            out |= ONE << (63 - __builtin_clzll(x))
        x = s.occ & RAY[s.marker][3]   # right: lowest
        if x:
            out |= x & (~x + 1)
        return out

    cdef inline void _make(self, St* s, St* c, int cell, int card) noexcept nogil:
        c[0] = s[0]
        if s.marker < 0:   # the second player chooses the start cell: no card taken
            c.marker = cell
            c.side = 0
            c.key ^= ZMARK[36] ^ ZMARK[cell]
            return
        cdef int p = s.side
        c.occ &= ~(ONE << cell)
        if (s.fd >> cell) & 1:
            c.fd &= ~(ONE << cell)
            c.pool &= ~(ONE << card)
            c.f -= 1
        if card >= 32:
            c.key ^= ZCARD[p][32 + c.kings[p]]
            c.kings[p] += 1
        else:
            c.nat[p] |= (<uint32_t>1) << card
            c.key ^= ZCARD[p][card]
        c.sc[p] = -1
        if self.prefetch_score and c.kings[p] >= 2:
            # start loading the leaf-score cache entry of the changed hand now: the child
            # usually needs its score, and that load is a cache miss (a third of the time)
            __builtin_prefetch(&self.scache[(((<uint64_t>c.nat[p]) | ((<uint64_t>c.kings[p]) << 32))
                                            * 0x9E3779B97F4A7C15ULL) >> (64 - self.sc_bits)])
        c.key ^= ZCELL[cell] ^ ZMARK[s.marker] ^ ZMARK[cell]
        c.marker = cell
        c.side = 1 - p

    cdef inline void _need(self, St* s) noexcept nogil:
        if s.sc[0] < 0:
            s.sc[0] = self._score(s.nat[0], s.kings[0])
        if s.sc[1] < 0:
            s.sc[1] = self._score(s.nat[1], s.kings[1])

    cdef inline void _score_bounds(self, St* s, int p, int* lo, int* hi) noexcept nogil:
        """Proven bounds [lo, hi] (points) of player p's score at `s` without the scorer's
        branch and bound: exact when known, cheap (fewer than 2 Kings) or in the
        leaf-score cache; else the bounds of the scorer's relaxation (its upper bound and
        the value of its placement, see _ck_scoring.pxi), kept in the cache (as an
        interval entry where they differ)."""
        cdef int k = s.kings[p], lb, ub
        cdef uint64_t key, h, e
        if s.sc[p] >= 0:
            lo[0] = hi[0] = s.sc[p]
            return
        if k < 2 or k > 4:
            s.sc[p] = self._score(s.nat[p], k)
            lo[0] = hi[0] = s.sc[p]
            return
        key = (<uint64_t>s.nat[p]) | ((<uint64_t>k) << 32)
        h = (key * 0x9E3779B97F4A7C15ULL) >> (64 - self.sc_bits)
        e = self.scache[h]
        if (e & 0xFFFFFFFFFFULL) == key:
            if e & SC_INTERVAL:
                lo[0] = <int>((e >> 40) & 0xFFF) - 128
                hi[0] = <int>((e >> 52) & 0x7FF) - 128
            else:
                self.score_calls += 1
                self.score_hits += 1
                s.sc[p] = <int>(e >> 40) - 128
                lo[0] = hi[0] = s.sc[p]
            return
        _ck_interval(s.nat[p], k, &lb, &ub)
        self.thr_relax += 1
        if lb == ub:
            s.sc[p] = lb
            self.scache[h] = key | ((<uint64_t>(lb + 128)) << 40)
        elif 0 <= lb + 128 < 4096 and 0 <= ub + 128 < 2048:
            self.scache[h] = key | ((<uint64_t>(lb + 128)) << 40) | ((<uint64_t>(ub + 128)) << 52) | SC_INTERVAL
        lo[0] = lb
        hi[0] = ub

    cdef inline int64_t _terminal_thr(self, St* s, int64_t alpha, int64_t beta) noexcept nogil:
        """The value of finished game `s` for the player who made the last move (the
        negation of _terminal's), or a fail-soft bound of it that is already outside the
        window (alpha, beta): a lower bound >= beta or an upper bound <= alpha.  Hands
        with 2 to 4 Kings are first bounded by the scorer's relaxation (_score_bounds); the
        exact scorer runs only where those bounds leave the value inside the window."""
        cdef int p = 1 - s.side, q = s.side
        cdef int lp, hp, lq, hq
        cdef int64_t v
        self._score_bounds(s, p, &lp, &hp)
        self._score_bounds(s, q, &lq, &hq)
        if lp != hp or lq != hq:
            v = self._to_value(lp - hq, s.f)
            if v >= beta:
                self.thr_cuts += 1
                return v
            v = self._to_value(hp - lq, s.f)
            if v <= alpha:
                self.thr_cuts += 1
                return v
        return -self._terminal(s)

    cdef inline int64_t _terminal(self, St* s) noexcept nogil:
        self._need(s)
        cdef int64_t d = s.sc[s.side] - s.sc[1 - s.side]
        if self.objective == OBJ_WIN:
            d = WIN_SCALE * ((d > 0) - (d < 0))
        return d * FACT[s.f]

    cdef inline int64_t _to_value(self, int64_t margin, int f) noexcept nogil:
        if self.objective == OBJ_WIN:
            margin = WIN_SCALE * ((margin > 0) - (margin < 0))
        return margin * FACT[f]

    cdef uint64_t _component(self, St* s) noexcept nogil:
        """Cells that may still be taken: the row/column-connected part holding the marker."""
        cdef uint64_t rows, cols, cells, nr, nc, x
        if s.marker < 0:
            return s.occ
        rows = ONE << (s.marker // 6)
        cols = ONE << (s.marker % 6)
        while True:
            cells = s.occ & (LINES[rows][0] | LINES[cols][1])
            # columns holding a cell: fold the six rows onto the first
            x = cells | (cells >> 6) | (cells >> 12) | (cells >> 18) | (cells >> 24) | (cells >> 30)
            nc = cols | (x & 63)
            # rows holding a cell
            nr = rows
            if cells & 0x3F:
                nr |= 1
            if cells & 0xFC0:
                nr |= 2
            if cells & 0x3F000:
                nr |= 4
            if cells & 0xFC0000:
                nr |= 8
            if cells & 0x3F000000:
                nr |= 16
            if cells & 0xFC0000000ULL:
                nr |= 32
            if nr == rows and nc == cols:
                return cells
            rows = nr
            cols = nc

    cdef inline void _gather(self, uint64_t cells, uint64_t pool, uint32_t* rnat, int* rk) noexcept nogil:
        """Add the cards of face-up `cells` and of the unseen cards `pool` to the natural
        cards `rnat` and the King count `rk` (the cards a hand might still take)."""
        cdef int i
        while cells:
            i = self.cards[__builtin_ctzll(cells)]
            cells &= cells - 1
            if i >= 32:
                rk[0] += 1
            else:
                rnat[0] |= (<uint32_t>1) << i
        while pool:
            i = __builtin_ctzll(pool)
            pool &= pool - 1
            if i >= 32:
                rk[0] += 1
            else:
                rnat[0] |= (<uint32_t>1) << i

    cdef void _bounds(self, St* s, int64_t* lo, int64_t* hi, int force, int64_t alpha,
                      int64_t beta) noexcept nogil:
        """Proven bounds of the scaled value from hand scores.

        A hand's score never falls when cards are added, so each hand ends between its
        current score and the score of itself plus every card that may still be taken
        (the marker's row/column-connected part of the grid).  Unless `force`, only the
        bound that can cut the window (alpha, beta) is computed, and only when few cards
        are within reach (`bound_cards`): each costs a score of a large hand.
        """
        cdef uint64_t comp
        cdef uint32_t rnat = 0
        cdef int rk = 0, a = s.side, b = 1 - s.side, upa, upb, want_hi, want_lo
        cdef int64_t d
        lo[0] = -INF
        hi[0] = INF
        if not force and self.bound_cards <= 0:
            return
        comp = self._component(s)
        if not force and _popc(comp) > self.bound_cards:
            return
        self._need(s)
        d = self._to_value(s.sc[a] - s.sc[b], s.f)
        # the mover's upper bound can only cut (<= alpha) if the margin now is <= alpha;
        # the opponent's (a lower bound for the mover) only if the margin now is >= beta
        want_hi = force or d <= alpha
        want_lo = force or d >= beta
        if not want_hi and not want_lo:
            return
        # a face-down cell within reach may hold any unseen card
        self._gather(comp & ~s.fd, s.pool if comp & s.fd else 0, &rnat, &rk)
        if want_hi:
            upa = self._score(s.nat[a] | rnat, s.kings[a] + rk)
            hi[0] = self._to_value(upa - s.sc[b], s.f)
        if want_lo:
            upb = self._score(s.nat[b] | rnat, s.kings[b] + rk)
            lo[0] = self._to_value(s.sc[a] - upb, s.f)

    cdef inline int64_t _heuristic(self, St* s) noexcept nogil:
        """Horizon estimate (not proven), mover's view, in the node's value units, by
        the evaluation `heur_kind` (the user's `evaluation`)."""
        return self._heuristic_of(s, self.heur_kind)

    cdef int64_t _heuristic_of(self, St* s, int kind) noexcept nogil:
        """Estimate of `s` (mover's view, value units) by evaluation `kind`: 2 the fitted
        evaluation (_evaluation); 1 the current margin plus `heur_w`/8 points per unit of
        potential (_potential)."""
        self._need(s)
        cdef int64_t d = s.sc[s.side] - s.sc[1 - s.side]
        cdef int64_t v
        if kind == 2:
            d = self._evaluation(s)    # 1/64 point
            if self.objective == OBJ_WIN:
                v = (d + 4) >> 3       # a soft sign: 8 points ahead reads as nearly won
                if v > WIN_SCALE - 1:
                    v = WIN_SCALE - 1
                if v < -(WIN_SCALE - 1):
                    v = -(WIN_SCALE - 1)
                return v * FACT[s.f]
            # to the nearest value unit (1/f! point; whole points with f <= 1)
            return (d * FACT[s.f] + 32) >> 6
        if self.heur_w:
            d = (8 * d + self.heur_w * (self._potential(s.nat[s.side], s.kings[s.side])
                                        - self._potential(s.nat[1 - s.side], s.kings[1 - s.side]))) // 8
        if self.objective == OBJ_WIN:
            # a soft sign: 6 points ahead reads as nearly won
            v = 8 * d
            if v > WIN_SCALE - 1:
                v = WIN_SCALE - 1
            if v < -(WIN_SCALE - 1):
                v = -(WIN_SCALE - 1)
            return v * FACT[s.f]
        return d * FACT[s.f]

    cdef int64_t _evaluation(self, St* s) noexcept nogil:
        """The fitted horizon evaluation (1/64 point, mover's view, scores known): a
        linear function of the two hands' feature differences (_features) and the current
        margin, each weight changing linearly with the cards left (a King in hand is
        worth about two points early and nothing extra late, when its worth is in the
        score), plus the mover's tempo."""
        cdef int fp[5]
        cdef int fo[5]
        cdef int64_t left = _popc(s.occ)
        self._features(s, s.side, fp)
        self._features(s, 1 - s.side, fo)
        return ((self.ev_score0 * 36 + self.ev_score1 * left) * (s.sc[s.side] - s.sc[1 - s.side])
                + (self.ev_gain0 * 36 + self.ev_gain1 * left) * (fp[0] - fo[0])
                + (self.ev_kings0 * 36 + self.ev_kings1 * left) * (fp[1] - fo[1])
                + (self.ev_pairs0 * 36 + self.ev_pairs1 * left) * (fp[2] - fo[2])
                + (self.ev_adj0 * 36 + self.ev_adj1 * left) * (fp[3] - fo[3])
                + (self.ev_gap0 * 36 + self.ev_gap1 * left) * (fp[4] - fo[4])
                + (self.ev_tempo0 * 36 + self.ev_tempo1 * left)) // 36

    cdef inline void _features(self, St* s, int p, int* out) noexcept nogil:
        """Player p's features for _evaluation: out[0] the one-card gains (what the
        hand's natural cards would score more with each natural card held by neither
        player added alone, summed over those cards: grid or unseen; Kings ignored),
        out[1] its Kings, out[2] same-rank pairs (cards beyond the first of each rank),
        out[3] adjacent and out[4] one-apart suit neighbours."""
        cdef uint32_t nat = s.nat[p]
        cdef uint32_t other = ~(s.nat[0] | s.nat[1])
        cdef uint64_t C = ck_rank_counts(nat)
        cdef uint64_t O = ck_rank_counts(other)
        cdef int r, c, gain = 0, pairs = 0, adj = 0, gap = 0
        cdef unsigned int m, q
        for r in range(8):
            c = (C >> (8 * r)) & 0xFF
            if c >= 2:
                pairs += c - 1
                # one more card of this rank: a set of 2 -> 3 scores 3, of 3 -> 4 two more
                gain += (3 if c == 2 else 2 if c == 3 else 0) * <int>((O >> (8 * r)) & 0xFF)
        for r in range(4):
            m = (nat >> (8 * r)) & 0xFF
            q = (other >> (8 * r)) & 0xFF
            adj += __builtin_popcount(m & (m >> 1))
            gap += __builtin_popcount(m & (m >> 2) & ~(m >> 1))
            if q:   # run gains of the suit's free ranks (a byte each), summed over q's ranks
                gain += <int>(((CK_RGN[m] & (CK_SPREAD[q] * 0xFF)) * _CK_LO) >> 56)
        out[0] = gain
        out[1] = s.kings[p]
        out[2] = pairs
        out[3] = adj
        out[4] = gap

    cdef inline int _potential(self, uint32_t nat, int kings) noexcept nogil:
        """Cheap count of what a hand may still turn into groups: same-rank pairs, suit
        neighbours (adjacent or one apart), and Kings (worth two)."""
        cdef uint64_t C = ck_rank_counts(nat)
        cdef int r, c, pot = 2 * kings
        cdef unsigned int m
        for r in range(8):
            c = (C >> (8 * r)) & 0xFF
            if c >= 2:
                pot += c - 1
        for r in range(4):
            m = (nat >> (8 * r)) & 0xFF
            pot += __builtin_popcount(m & (m >> 1)) + __builtin_popcount(m & (m >> 2) & ~(m >> 1))
        return pot

    # ------------------------------------------------------------------ table

    cdef inline TTE* _probe(self, uint64_t key, int which, TTE* out) noexcept nogil:
        """The entry for `key` in the main table (`which` 1) or the small one (2), copied
        to `out` (returned), or NULL.  A copy: in a shared table the slot may change
        as soon as it is read."""
        cdef TTS* b = &self.tt[(key & self.bmask) * TT_WAYS] if which == 1 else \
            &self.ltt[(key & self.lbmask) * TT_WAYS]
        cdef int i
        cdef uint64_t d, k
        self.tt_probes += 1
        if which == 2 or self.mixk == 0:
            # a table of this engine's own: the check word is the key word
            for i in range(TT_WAYS):
                k = b[i].check
                if (k & 0x8000) and ((k ^ key) & ~(<uint64_t>0xFFFF)) == 0:
                    self.tt_hits += 1
                    d = b[i].data
                    out.key = k
                    out.lo = <int32_t>(<uint32_t>d)
                    out.hi = <int32_t>(<uint32_t>(d >> 32))
                    return out
            return NULL
        for i in range(TT_WAYS):
            d = crowns_load(&b[i].data)
            k = crowns_load(&b[i].check) ^ crowns_mix(d)
            if (k & 0x8000) and ((k ^ key) & ~(<uint64_t>0xFFFF)) == 0:
                self.tt_hits += 1
                out.key = k
                out.lo = <int32_t>(<uint32_t>d)
                out.hi = <int32_t>(<uint32_t>(d >> 32))
                return out
        return NULL

    cdef void _store(self, uint64_t key, int64_t lo, int64_t hi, int move, int depth,
                     int proven, int which=1) noexcept nogil:
        cdef TTS* b = &self.tt[(key & self.bmask) * TT_WAYS] if which == 1 else \
            &self.ltt[(key & self.lbmask) * TT_WAYS]
        cdef TTS* e = NULL
        cdef int i, pri, best_pri = 1 << 30, old_proven, old_depth
        cdef int64_t olo, ohi
        cdef uint64_t data, d, k, ekey = 0
        cdef uint64_t ks[TT_WAYS]
        cdef int32_t plo, phi
        cdef uint64_t mk = self.mixk if which == 1 else 0   # (0: check word = key word)
        if depth > 63:
            depth = 63
        if move < 0:
            move = 63
        self.tt_stores += 1
        # each slot's key word, read once (a shared table's slots may change meanwhile:
        # what is written below rests on what was read here)
        for i in range(TT_WAYS):
            d = crowns_load(&b[i].data)
            k = crowns_load(&b[i].check) ^ (d * mk)
            ks[i] = k
            if e == NULL and (k & 0x8000) and ((k ^ key) & ~(<uint64_t>0xFFFF)) == 0:
                e = &b[i]
                ekey = k
                olo = _unpack_lo(<int32_t>(<uint32_t>d))
                ohi = _unpack_hi(<int32_t>(<uint32_t>(d >> 32)))
        if e != NULL:
            old_proven = (ekey >> 12) & 1
            old_depth = (ekey >> 6) & 63
            if old_proven and not proven:
                # keep the proven bounds; take the newer best move
                if move != 63:
                    d = crowns_load(&e.data)
                    if (crowns_load(&e.check) ^ (d * mk)) == ekey:   # (unless another process rewrote it)
                        crowns_put(&e.check, ((ekey & ~(<uint64_t>63)) | <uint64_t>move) ^ (d * mk))
                return
            if old_proven == proven and (proven or old_depth == depth):
                if (olo if olo > lo else lo) <= (ohi if ohi < hi else hi):
                    if olo > lo:
                        lo = olo
                    if ohi < hi:
                        hi = ohi
                # else: inconsistent heuristic bounds, keep the new ones
                if move == 63:
                    move = ekey & 63
            elif not proven and old_depth > depth:
                return
        else:
            for i in range(TT_WAYS):
                if not (ks[i] & 0x8000):
                    e = &b[i]
                    if which == 1:
                        self.used += 1
                    break
                pri = ((ks[i] >> 6) & 63) + 64 * ((ks[i] >> 12) & 1)
                if ((ks[i] >> 13) & 3) == self.gen:
                    pri += 256
                if pri < best_pri:
                    best_pri = pri
                    e = &b[i]
        plo = _pack_lo(lo)
        phi = _pack_hi(hi)
        if plo > phi:  # only after clamping huge values: keep the entry harmless
            plo = -2147483647 - 1
            phi = 2147483647
        data = (<uint64_t>move) | ((<uint64_t>depth) << 6) | ((<uint64_t>(proven & 1)) << 12) \
            | ((<uint64_t>self.gen) << 13) | 0x8000
        k = (key & ~(<uint64_t>0xFFFF)) | data
        d = (<uint64_t>(<uint32_t>plo)) | ((<uint64_t>(<uint32_t>phi)) << 32)
        crowns_put(&e.data, d)
        crowns_put(&e.check, k ^ (d * mk))
        if which == 1 and 2 * self.used > (self.bmask + 1) * TT_WAYS and self.bmask + 1 < self.nbuckets:
            self._grow()

    cdef void _grow(self) noexcept nogil:
        """Double the part of the main table in use: entries whose key has the new index
        bit set move to the bucket in the new half (same way), the others stay.  The
        new bit is bit 16 or above (at least 2^16 buckets in use), which every entry
        keeps, so no entry is lost and each stays findable.  (Never for a shared table:
        it is used whole from the start.)"""
        cdef uint64_t half = self.bmask + 1, b, bit = self.bmask + 1, k
        cdef int i
        cdef TTS* src
        cdef TTS* dst
        for b in range(half):
            src = &self.tt[b * TT_WAYS]
            dst = &self.tt[(b + half) * TT_WAYS]
            for i in range(TT_WAYS):
                k = src[i].check   # (a private table: the check word is the key word)
                if (k & 0x8000) and (k & bit):
                    dst[i] = src[i]
                    src[i].check = 0
                    src[i].data = 0
        self.bmask = 2 * half - 1

    # ------------------------------------------------------------------ limits

    cdef void _check(self) noexcept nogil:
        cdef double now
        self.next_check = self.nodes + CHECK_EVERY
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.stop = STOP_NODES
            return
        now = _now()
        if self.deadline > 0 and now >= self.deadline:
            self.stop = STOP_TIME
            return
        if now >= self.next_signal:
            self.next_signal = now + 0.05
            with gil:
                if _check_signals() != 0:
                    PyErr_Clear()
                    self.stop = STOP_INTERRUPT
                elif self.cancel is not None:
                    self._poll_cancel()

    # ------------------------------------------------------------------ search

    cdef int _order(self, St* s, uint64_t m, int ttmove, int* out, int exact) noexcept nogil:
        """Legal moves, best first: table move, then (with at least `eval_order_cards`
        cards left) the fitted evaluation of the position a face-up move leads to, else
        what the card gives the mover plus what it denies the opponent: exact score gains
        when `exact` (worth it high in the tree), else a proxy (a King, or cards sharing
        its rank or near it in its suit); then mobility and history."""
        cdef int n = 0, i, j, cell, card, key, tk, p = s.side, q = 1 - s.side
        cdef int keys[12]
        cdef uint32_t a = s.nat[p], b = s.nat[q]
        cdef int by_eval = _popc(s.occ) >= self.eval_order_cards
        cdef St c
        cdef int64_t ev
        if exact:
            self._need(s)
        if not self.ordering:
            while m:
                out[n] = __builtin_ctzll(m)
                m &= m - 1
                n += 1
            return n
        while m:
            cell = __builtin_ctzll(m)
            m &= m - 1
            if cell == ttmove:
                key = 1 << 28
            elif s.marker >= 0 and (s.fd >> cell) & 1:
                key = self.fd_key << 16
            elif by_eval and s.marker >= 0:
                self._make(s, &c, cell, self.cards[cell])
                self._need(&c)
                ev = -self._evaluation(&c)   # 1/64 point, the mover's view
                key = <int>((self.eval_order_w * ev) // 64 + 1024)
                if key < 0:
                    key = 0
                if key > 2047:
                    key = 2047
                key = key << 16
            elif exact:
                card = self.cards[cell]
                if card >= 32:
                    key = self.gain_w * (self._score(a, s.kings[p] + 1) - s.sc[p]) \
                        + self.deny_w * (self._score(b, s.kings[q] + 1) - s.sc[q])
                else:
                    key = self.gain_w * (self._score(a | (<uint32_t>1 << card), s.kings[p]) - s.sc[p]) \
                        + self.deny_w * (self._score(b | (<uint32_t>1 << card), s.kings[q]) - s.sc[q])
                key = (key + 64) << 16
            else:
                card = self.cards[cell]
                if card >= 32:
                    key = self.king_key << 16
                else:
                    key = (self.pgain * __builtin_popcount(NEIGH[card] & a)
                           + self.pdeny * __builtin_popcount(NEIGH[card] & b)) << 16
            if self.mob_w and cell != ttmove:
                # mobility: a move that leaves the opponent few cards to take first.  At a
                # cut node the refutation tried first is usually the one kept, and the
                # subtree that proves it has the opponent's moves at its next level, all
                # of them searched: so of moves about as likely to refute, the one that
                # leaves fewer replies has the smaller proof (about 1/(1 + replies))
                if self.reach == REACH_ANY:
                    j = _popc(s.occ & LINE[cell])
                else:   # the nearest card in each of the four directions
                    j = ((s.occ & RAY[cell][0]) != 0) + ((s.occ & RAY[cell][1]) != 0) \
                        + ((s.occ & RAY[cell][2]) != 0) + ((s.occ & RAY[cell][3]) != 0)
                key += (self.mob_w * MOBK[j]) << 14
            if self.history_on:
                tk = self.history[s.side][cell]
                key += tk if tk < 65535 else 65535
            i = n
            while i > 0 and keys[i - 1] < key:
                keys[i] = keys[i - 1]
                out[i] = out[i - 1]
                i -= 1
            keys[i] = key
            out[i] = cell
            n += 1
        return n

    cdef inline int _uses_table(self, St* s) noexcept nogil:
        """Which table positions like `s` are probed in and stored to: 1 the main table,
        2 the small one (the last plies), 0 none."""
        cdef int lim = self.tt_min_cards_game if s.fd else self.tt_min_cards
        cdef int n = _popc(s.occ) if self.tt_by_occ else _popc(self._component(s))
        if n >= lim:
            return 1
        if n >= self.ltt_min_cards and (self.mode == MODE_GAME or not self.ltt_game_only):
            return 2
        return 0

    cdef inline int _has_ending_move(self, St* s, uint64_t m) noexcept nogil:
        """Whether some move in `m` leaves no card in the line of the cell taken."""
        cdef int cell
        while m:
            cell = __builtin_ctzll(m)
            m &= m - 1
            if not (s.occ & ~(ONE << cell) & LINE[cell]):
                return 1
        return 0

    cdef inline uint64_t _child_key(self, St* s, int cell, int card) noexcept nogil:
        """Zobrist key of the position after the mover takes `card` from `cell`."""
        cdef uint64_t k = s.key ^ ZCELL[cell] ^ ZMARK[s.marker] ^ ZMARK[cell]
        if card >= 32:
            return k ^ ZCARD[s.side][32 + s.kings[s.side]]
        return k ^ ZCARD[s.side][card]

    cdef inline int _children_table(self, St* s) noexcept nogil:
        """The table (as _uses_table) that the children taking a face-up card use: they
        share it (one card fewer, face-down cells as they are)."""
        cdef St c
        c.occ = s.occ & (s.occ - 1)
        c.fd = s.fd
        c.marker = s.marker
        return self._uses_table(&c)

    cdef inline void _prefetch_children(self, St* s, int* moves, int n) noexcept nogil:
        """Start loading the table buckets of the children (their cache misses overlap)."""
        cdef int i, cell, which
        cdef uint64_t k
        if s.marker < 0:
            return
        which = self._children_table(s)
        if which == 0 or (which == 2 and not self.prefetch_small):
            return
        for i in range(n):
            cell = moves[i]
            if (s.fd >> cell) & 1:
                continue
            k = self._child_key(s, cell, self.cards[cell])
            if which == 1:
                __builtin_prefetch(&self.tt[(k & self.bmask) * TT_WAYS])
            else:
                __builtin_prefetch(&self.ltt[(k & self.lbmask) * TT_WAYS])

    cdef int64_t _etc(self, St* s, int* moves, int n, int depth, int64_t beta, int* proven,
                      int* cell_out) noexcept nogil:
        """Enhanced transposition cut-off (Plaat et al. 1996): a child (taking a face-up
        card) whose table entry already proves its value <= -beta makes this node fail
        high without a search.  Returns that lower bound (and its move and proven flag),
        or -INF."""
        cdef int i, cell
        cdef TTE* e
        cdef TTE hit
        cdef int64_t hi_c
        if self._children_table(s) != 1:
            return -INF
        for i in range(n):
            cell = moves[i]
            if (s.fd >> cell) & 1:
                continue
            e = self._probe(self._child_key(s, cell, self.cards[cell]), 1, &hit)
            if e != NULL and (((e.key >> 12) & 1) or ((e.key >> 6) & 63) >= depth - 1):
                hi_c = _unpack_hi(e.hi)
                if -hi_c >= beta:
                    proven[0] = (e.key >> 12) & 1
                    cell_out[0] = cell
                    return -hi_c
        return -INF

    cdef void _reward(self, int side, int cell, int depth) noexcept nogil:
        cdef int i, j
        self.history[side][cell] += depth * depth if depth < 40 else 1600
        if self.history[side][cell] > (1 << 20):
            for i in range(2):
                for j in range(36):
                    self.history[i][j] >>= 1

    cdef int64_t _search(self, St* s, int depth, int64_t alpha, int64_t beta, int* proven,
                         int ply) noexcept nogil:
        cdef uint64_t m
        cdef TTE* e
        cdef TTE hit
        cdef int ttmove = -1, n, i, cell, p, allp, bestm = -1, use, usett, reach, pvs
        cdef int moves[12]
        cdef int64_t best, v, a, lo, hi
        cdef St c
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        if self.stop:
            proven[0] = 0
            return 0
        m = self._gen(s)
        if m == 0:
            proven[0] = 1
            return self._terminal(s)
        reach = _popc(s.occ)
        usett = self._uses_table(s)
        if reach <= self.lean_cards and depth > reach and not usett and self.mode == MODE_OPEN \
                and ply > 0 and s.marker >= 0 and self.bound_cards <= 0:
            # the last plies of an exact open-mode search (no table there): the lean loop
            proven[0] = 1
            return self._lean(s, m, alpha, beta)
        e = self._probe(s.key, usett, &hit) if usett else NULL
        if e != NULL:
            ttmove = e.key & 63
            use = ((e.key >> 12) & 1) or ((e.key >> 6) & 63) >= depth
            if use:
                lo = _unpack_lo(e.lo)
                hi = _unpack_hi(e.hi)
                if lo >= beta or hi <= alpha or lo == hi:
                    proven[0] = (e.key >> 12) & 1
                    if ply == 0:   # the stored move need not be the one that proved the bound
                        self.root_best = -1
                    if lo >= beta:
                        return lo
                    return hi
        # a move that ends the game (no card left in the line of the cell taken) is worth
        # at least the current margin, since scores never fall: fail high at once
        if self.end_cut and s.marker >= 0 and self._has_ending_move(s, m):
            self._need(s)
            v = self._to_value(s.sc[s.side] - s.sc[1 - s.side], s.f)
            if v >= beta:
                self.end_cuts += 1
                proven[0] = 1
                return v
        # cut-offs from score bounds
        self._bounds(s, &lo, &hi, 0, alpha, beta)
        if hi <= alpha or lo >= beta or lo == hi:
            self.bound_cuts += 1
            proven[0] = 1
            return hi if hi <= alpha else lo
        if depth <= 0:
            proven[0] = 0
            v = self._heuristic(s)
            if v < lo:
                v = lo
            if v > hi:
                v = hi
            return v
        n = self._order(s, m, ttmove, moves, reach >= self.exact_order_cards)
        if depth > 1 and self.prefetch and usett:
            self._prefetch_children(s, moves, n)
        if self.etc and usett == 1 and depth > 1 and s.marker >= 0 and reach >= self.etc_min_cards:
            v = self._etc(s, moves, n, depth, beta, &p, &cell)
            if v >= beta:
                self.etc_cuts += 1
                proven[0] = p
                self._store(s.key, v, INF, cell, depth if not p else _popc(s.occ), p, usett)
                if ply == 0:
                    self.root_best = cell
                return v
        best = -INF
        allp = 1
        a = alpha
        for i in range(n):
            cell = moves[i]
            # principal variation search (game mode): moves after the first get a null
            # window first, and a full one only if they may beat the best so far
            pvs = i > 0 and beta - a > 1 and s.f <= self.pvs_max_f and \
                (self.pvs == 2 or (self.pvs == 1 and s.fd != 0))
            if s.marker >= 0 and (s.fd >> cell) & 1:
                if pvs:
                    v = self._chance(s, cell, depth - 1, a, a + 1, &p, ply)
                    if a < v < beta and not self.stop:
                        v = self._chance(s, cell, depth - 1, a, beta, &p, ply)
                else:
                    v = self._chance(s, cell, depth - 1, a, beta, &p, ply)
            else:
                self._make(s, &c, cell, self.cards[cell])
                if pvs:
                    v = -self._search(&c, depth - 1, -(a + 1), -a, &p, ply + 1)
                    if a < v < beta and not self.stop:
                        v = -self._search(&c, depth - 1, -beta, -a, &p, ply + 1)
                else:
                    v = -self._search(&c, depth - 1, -beta, -a, &p, ply + 1)
            if self.stop:
                proven[0] = 0
                return 0
            if v > best:
                best = v
                bestm = cell
            if v >= beta:
                proven[0] = p
                if self.history_on:
                    self._reward(s.side, cell, depth)
                if usett:
                    self._store(s.key, v, INF, cell, depth if not p else _popc(s.occ), p, usett)
                if ply == 0:
                    self.root_best = cell
                return v
            allp &= p
            if v > a:
                a = v
        proven[0] = allp
        if ply == 0:
            self.root_best = bestm
        if not usett:
            pass
        elif best <= alpha:
            self._store(s.key, -INF, best, bestm, depth if not allp else _popc(s.occ), allp, usett)
        else:
            self._store(s.key, best, best, bestm, depth if not allp else _popc(s.occ), allp, usett)
        return best

    cdef int64_t _lean(self, St* s, uint64_t m, int64_t alpha, int64_t beta) noexcept nogil:
        """The last plies with every card known (few cards left, searched to the end):
        plain fail-soft alpha-beta with the end cut-off and the cheap move ordering, and
        nothing else (no table, no bounds, no history).  `m`: the legal moves (not 0).
        The value is exact (proven) unless the search stops."""
        cdef int n, i, lp, hp, lq, hq
        cdef int moves[12]
        cdef int64_t best = -INF, v, a = alpha
        cdef uint64_t m2
        cdef St c
        if self.end_cut and self._has_ending_move(s, m):
            if self.lean_thr:
                # the mover can end the game now: the margin is a lower bound; bound it first
                self._score_bounds(s, s.side, &lp, &hp)
                self._score_bounds(s, 1 - s.side, &lq, &hq)
                if self._to_value(lp - hq, 0) >= beta:
                    self.end_cuts += 1
                    return self._to_value(lp - hq, 0)
                if self._to_value(hp - lq, 0) >= beta:   # else no cut-off is possible
                    self._need(s)
                    v = self._to_value(s.sc[s.side] - s.sc[1 - s.side], 0)
                    if v >= beta:
                        self.end_cuts += 1
                        return v
            else:
                self._need(s)
                v = self._to_value(s.sc[s.side] - s.sc[1 - s.side], 0)
                if v >= beta:
                    self.end_cuts += 1
                    return v
        if m & (m - 1):
            n = self._order(s, m, -1, moves, 0)
        else:   # a forced move: nothing to order
            moves[0] = __builtin_ctzll(m)
            n = 1
        for i in range(n):
            self._make(s, &c, moves[i], self.cards[moves[i]])
            self.nodes += 1
            if self.nodes >= self.next_check:
                self._check()
            if self.stop:
                return 0
            m2 = self._gen(&c)
            if m2 == 0:
                if self.lean_thr:
                    v = self._terminal_thr(&c, a, beta)
                else:
                    v = -self._terminal(&c)
            else:
                v = -self._lean(&c, m2, -beta, -a)
            if self.stop:
                return 0
            if v > best:
                best = v
                if v >= beta:
                    return v
                if v > a:
                    a = v
        return best

    cdef int64_t _chance(self, St* s, int cell, int depth, int64_t alpha, int64_t beta,
                         int* proven, int ply) noexcept nogil:
        """Value (mover's view, scale f!) of taking face-down `cell`: sum over the f unseen
        cards of the value after revealing each (scale (f-1)!), with Star1/Star2 pruning
        (Ballard 1983).  Each card's value starts bounded by score bounds, narrowed by the
        table's entry for the position it reveals."""
        cdef int n = s.f, i, k, p, allp = 1, reply, nr, did_split
        cdef int cards[12]
        cdef int64_t L, U, sum = 0, v, ax, bx, probe_sum, t, tot_l = 0, tot_u = 0, rest_u, rest_l
        cdef int64_t lbs[12]
        cdef int64_t ubs[12]
        cdef int64_t lo_e, hi_e
        cdef uint64_t pool = s.pool, m2, key
        cdef St c, g
        cdef int rmoves[12]
        cdef TTE* e
        cdef TTE hit
        k = 0
        while pool:
            cards[k] = __builtin_ctzll(pool)
            pool &= pool - 1
            k += 1
        if n == 1:
            # the last face-down cell holds the last unseen card: nothing is left to
            # chance (values at f = 1 and f = 0 share the scale 1! = 0! = 1)
            self._make(s, &c, cell, cards[0])
            return -self._search(&c, depth, -beta, -alpha, proven, ply + 1)
        # bounds on each card's value (mover's view, child scale): the mover's final
        # hand lies between its current one and it plus everything still reachable
        self._child_bounds(s, &L, &U)
        if self.prefetch:
            # start loading the table buckets of every card's position (their cache misses overlap)
            self._make(s, &c, cell, cards[0])
            k = self._uses_table(&c)
            if k:
                for i in range(n):
                    key = self._child_key(s, cell, cards[i])
                    if k == 1:
                        __builtin_prefetch(&self.tt[(key & self.bmask) * TT_WAYS])
                    else:
                        __builtin_prefetch(&self.ltt[(key & self.lbmask) * TT_WAYS])
        if not self.star1:   # plain expectimax: every card searched with the full window
            for i in range(n):
                self._make(s, &c, cell, cards[i])
                sum += -self._search(&c, depth, -INF, INF, &p, ply + 1)
                if self.stop:
                    proven[0] = 0
                    return 0
                allp &= p
            proven[0] = allp
            return sum
        for i in range(n):
            lbs[i] = L
            ubs[i] = U
            self._make(s, &c, cell, cards[i])
            if not self._gen(&c):
                lbs[i] = ubs[i] = -self._terminal(&c)
            elif self._uses_table(&c):
                e = self._probe(c.key, self._uses_table(&c), &hit)
                if e != NULL and (((e.key >> 12) & 1) or ((e.key >> 6) & 63) >= depth):
                    lo_e = _unpack_lo(e.lo)
                    hi_e = _unpack_hi(e.hi)
                    if -hi_e > lbs[i] or -lo_e < ubs[i]:
                        allp &= (e.key >> 12) & 1
                        if -hi_e > lbs[i]:
                            lbs[i] = -hi_e
                        if -lo_e < ubs[i]:
                            ubs[i] = -lo_e
                        if lbs[i] > ubs[i]:   # inconsistent heuristic entries: drop them
                            lbs[i] = L
                            ubs[i] = U
            tot_l += lbs[i]
            tot_u += ubs[i]
        if tot_u <= alpha or tot_l >= beta or tot_l == tot_u:
            self.star_cuts += 1
            proven[0] = allp
            return tot_u if tot_u <= alpha else tot_l
        did_split = 0
        if self.split and beta - alpha <= self.split_width and n <= self.split_max_f:
            did_split = 1
            v = self._split(s, cell, depth, alpha, beta, cards, n, lbs, ubs, &tot_l, &tot_u, &allp, ply)
            if self.stop:
                proven[0] = 0
                return 0
            if v != NO_VALUE:
                self.split_cuts += 1
                proven[0] = allp
                return v
            self.split_fallbacks += 1
        # Star2: probe one reply per card for an upper bound, hoping to fail low
        if self.star2 and not did_split and n > 1 and alpha >= tot_l:
            probe_sum = 0
            rest_u = tot_u
            for i in range(n):
                rest_u -= ubs[i]
                t = alpha - probe_sum - rest_u     # this card must be worth <= t
                if t < lbs[i]:
                    break
                if lbs[i] < ubs[i] and ubs[i] > t:
                    self._make(s, &c, cell, cards[i])
                    m2 = self._gen(&c)
                    e = self._probe(c.key, self._uses_table(&c), &hit) if self._uses_table(&c) else NULL
                    reply = -1
                    if e != NULL and (e.key & 63) != 63:
                        reply = e.key & 63
                    nr = self._order(&c, m2, reply, rmoves, 0)
                    reply = rmoves[0]
                    # any one reply of the opponent bounds the card's value from above
                    if (c.fd >> reply) & 1:
                        v = -self._chance(&c, reply, depth - 1, -(t + 1), -t, &p, ply + 2)
                    else:
                        self._make(&c, &g, reply, self.cards[reply])
                        v = self._search(&g, depth - 1, t, t + 1, &p, ply + 2)
                    if self.stop:
                        proven[0] = 0
                        return 0
                    if v > t:
                        break
                    allp &= p
                    if v < ubs[i]:
                        tot_u -= ubs[i] - v
                        ubs[i] = v
                probe_sum += ubs[i]
                if i == n - 1:
                    self.probe_cuts += 1
                    proven[0] = allp
                    return probe_sum
        # Star1
        rest_u = tot_u
        rest_l = tot_l
        for i in range(n):
            rest_u -= ubs[i]
            rest_l -= lbs[i]
            if lbs[i] == ubs[i]:
                v = lbs[i]
            else:
                ax = alpha - sum - rest_u
                bx = beta - sum - rest_l
                if ax < lbs[i] - 1:
                    ax = lbs[i] - 1
                if bx > ubs[i] + 1:
                    bx = ubs[i] + 1
                self._make(s, &c, cell, cards[i])
                v = -self._search(&c, depth, -bx, -ax, &p, ply + 1)
                if self.stop:
                    proven[0] = 0
                    return 0
                allp &= p
            sum += v
            if sum + rest_u <= alpha:
                self.star_cuts += 1
                proven[0] = allp
                return sum + rest_u
            if sum + rest_l >= beta:
                self.star_cuts += 1
                proven[0] = allp
                return sum + rest_l
        proven[0] = allp
        return sum

    cdef int64_t _split(self, St* s, int cell, int depth, int64_t alpha, int64_t beta,
                        int* cards, int n, int64_t* lbs, int64_t* ubs, int64_t* tot_l,
                        int64_t* tot_u, int* allp, int ply) noexcept nogil:
        """Null-window split at a chance node (exact): decide "sum <= alpha" or "sum >= beta"
        with null-window searches of the cards instead of Star1's wide child windows.

        A chance node under a null window only has to answer one question, but Star1 gives
        its first cards windows as wide as the loose score bounds of the cards after them,
        so their subtrees are searched almost exactly.  Here the target (alpha when the
        estimates say "fail low", else beta) is shared out over the cards: a card gets the
        threshold t = estimate + (target - sum of estimates) / (cards left in this pass),
        the estimates being the fitted evaluation of the position the card reveals
        (`split_est` 2; 1: the margin after the card is taken; 0: the horizon heuristic
        the user chose) and then each search's fail-soft
        result, cards likeliest to make their share first (`split_order` 2).  A null-window search at t proves "card <= v" or
        "card >= v" (narrowing lbs/ubs and the totals); a card already within its share is
        not searched (`split_skip`).  Passes repeat (switching sides when one can no longer
        be proven) until the bounds decide the question, or until `split` searches per card;
        then the caller's Star1 continues with the narrowed bounds.  Exact: every bound
        used comes from a search or the score bounds.  Returns the fail-soft value, or
        NO_VALUE when undecided.  (An exact relative of the ChanceProbCut idea of Hauk,
        Buro & Schaeffer 2004: null-window tests at chance children, but at thresholds that
        sum to the parent's, so the answers prove the parent's bound.)"""
        cdef int64_t est[12]
        cdef int64_t E = 0, v, t, d
        cdef int i, j, k, rem, low, p, probes = 0, desc, rnd_probes = 0, rnd_done = 0
        cdef int order[12]
        cdef St c
        for i in range(n):
            if lbs[i] == ubs[i]:
                est[i] = lbs[i]
            else:
                self._make(s, &c, cell, cards[i])
                if self.split_est == 1:   # the margin after taking the card
                    self._need(&c)
                    v = self._to_value(c.sc[s.side] - c.sc[1 - s.side], c.f)
                elif self.split_est == 2:   # the fitted evaluation, whatever heur_kind
                    v = -self._heuristic_of(&c, 2)
                else:
                    v = -self._heuristic(&c)
                est[i] = lbs[i] if v < lbs[i] else (ubs[i] if v > ubs[i] else v)
            E += est[i]
        while probes < self.split * n:
            if tot_u[0] <= alpha:
                return tot_u[0]
            if tot_l[0] >= beta:
                return tot_l[0]
            low = E <= alpha     # pursue "sum <= alpha" (else "sum >= beta")
            if rnd_probes == probes and rnd_done:
                # a pass without a search (every card decided or within its share) and
                # no answer: only with a window wider than null (`split_width` > 1),
                # when the value may lie inside it; Star1 finds it
                return NO_VALUE
            rnd_done = 1
            rnd_probes = probes
            rem = 0
            for i in range(n):
                if lbs[i] < ubs[i]:
                    rem += 1
                # the order of this pass: cards in index order, or by estimate
                k = i
                if self.split_order:
                    desc = (self.split_order == 1) == low
                    while k > 0 and ((est[order[k - 1]] < est[i]) if desc else (est[order[k - 1]] > est[i])):
                        order[k] = order[k - 1]
                        k -= 1
                order[k] = i
            for j in range(n):
                i = order[j]
                if lbs[i] == ubs[i]:
                    continue
                # this card's share of what the sum may still be
                if low:
                    d = alpha - E
                    t = est[i] + (d // rem if d >= 0 else -((-d + rem - 1) // rem))   # floor
                else:
                    d = beta - E
                    t = est[i] + (d // rem if d <= 0 else (d + rem - 1) // rem) - 1   # ceil - 1
                rem -= 1
                if self.split_skip and (ubs[i] <= t if low else lbs[i] > t):
                    # already within its share: count it at its bound, no search
                    E += (ubs[i] if low else lbs[i]) - est[i]
                    est[i] = ubs[i] if low else lbs[i]
                    continue
                if t < lbs[i]:
                    t = lbs[i]
                if t >= ubs[i]:
                    t = ubs[i] - 1
                self._make(s, &c, cell, cards[i])
                v = -self._search(&c, depth, -(t + 1), -t, &p, ply + 1)
                self.split_probes += 1
                probes += 1
                if self.stop:
                    return 0
                allp[0] &= p
                E -= est[i]
                if v <= t:
                    if v < ubs[i]:
                        tot_u[0] -= ubs[i] - v
                        ubs[i] = v
                else:
                    if v > lbs[i]:
                        tot_l[0] += v - lbs[i]
                        lbs[i] = v
                if lbs[i] > ubs[i]:   # inconsistent heuristic bounds: keep the search's
                    if v <= t:
                        tot_l[0] -= lbs[i] - v
                        lbs[i] = v
                    else:
                        tot_u[0] += v - ubs[i]
                        ubs[i] = v
                est[i] = v
                E += v
                if tot_u[0] <= alpha:
                    return tot_u[0]
                if tot_l[0] >= beta:
                    return tot_l[0]
                if (low and tot_l[0] > alpha) or (not low and tot_u[0] < beta):
                    break   # this side cannot be proven any more: switch sides
        return NO_VALUE

    cdef void _child_bounds(self, St* s, int64_t* L, int64_t* U) noexcept nogil:
        """Bounds (mover's view, scale (f-1)!) of the value after taking a face-down card."""
        cdef uint64_t comp
        cdef uint32_t rnat = 0
        cdef int rk = 0, a = s.side, b = 1 - s.side, upa, upb
        self._need(s)
        if self.cb_occ:
            # every card left on the grid, face up or down: all cards outside both hands
            # (a superset of the cards left in an incomplete state, so still a bound)
            rnat = ~(s.nat[0] | s.nat[1])
            rk = 4 - s.kings[0] - s.kings[1]
        else:
            comp = self._component(s)
            self._gather(comp & ~s.fd, s.pool, &rnat, &rk)
        upa = self._score(s.nat[a] | rnat, s.kings[a] + rk)
        upb = self._score(s.nat[b] | rnat, s.kings[b] + rk)
        L[0] = self._to_value(s.sc[a] - upb, s.f - 1)
        U[0] = self._to_value(upa - s.sc[b], s.f - 1)
