# cython: language_level=3
"""Compiled King's Crowns engine (private; use crowns_solver.kings_crowns).

The rules (RULES.md, King's Crowns) live here, once: dealing, drawing (with the
reshuffle), the legal plays, applying a play, the target and the turn cap.  Both the
fast path (``play_games``: whole games in C, GIL released) and the Python-facing path
(``Engine``, driven move by move by ``crowns_solver.kings_crowns.Game``) call the same
functions, so the two produce identical games from the same random stream.

Cards are codes 0..27 (see crowns_solver/kings_crowns/cards.py).  A play is the int
``16 * card + dest``: dest 0 discard pile, 1 own play stack, 2 own gifts stack, 3 own
crown stack, 4 + q the play stack of opponent q (a Sin).  A draw source is 0 (draw pile)
or 1 (discard pile).

Computer players are C functions that see only a ``KCView`` (one seat's view: own hand,
every stack, the discard top, pile sizes), never the state, so they cannot read hidden
cards.  The lookahead player samples the hidden cards from the view (determinized Monte
Carlo, "perfect information Monte Carlo") and rolls each candidate play out with a simple
player, using common random numbers across candidates.

Randomness comes from a numpy BitGenerator (its ``capsule``), so a game reproduces from
the user's seed; rollouts inside the lookahead player use a splitmix64 stream seeded from
it, because they need many cheap copies of one stream (common random numbers).
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int16_t, int8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from cpython.exc cimport PyErr_CheckSignals

from crowns_solver.errors import DeckError, EngineBusyError, PositionError, RulesError

#: EngineBusyError's message: a second thread called an engine already in use.
BUSY_MESSAGE = ("this King's Crowns game engine is in use by another thread: a game (Game) and"
                " its engine cannot be shared between threads; use one per thread, or worker"
                " processes (workers=) to simulate in parallel")

include "_engine_guard.pxi"

cdef extern from "Python.h":
    int PyOS_InterruptOccurred()   # SIGINT since the last call? (clears it; main thread, GIL held)

cdef extern from *:
    const char* CROWNS_SOURCE_HASH
    int __builtin_popcount(unsigned int) nogil

SOURCE_HASH = CROWNS_SOURCE_HASH.decode()

# numpy's bitgen_t (crowns_bitgen_t) and the getters of a Generator's bit generator and lock
include "_numpy_bitgen.pxi"

cdef enum:
    NK = 28          # card kinds
    MAXP = 5         # players
    HANDCAP = 8      # a hand holds at most 7 cards (6 + the one drawn)
    MAXACT = 64      # distinct plays from one hand: at most 7 kinds x 5 destinations
    SAL = 0
    TWG = 7
    HS = 8
    GIFT0 = 9
    CROWN0 = 12
    D_DISCARD = 0
    D_PLAY = 1
    D_GIFTS = 2
    D_CROWNS = 3
    D_SIN = 4
    PH_DRAW = 0
    PH_PLAY = 1
    PH_OVER = 2
    SRC_DRAW = 0
    SRC_DISCARD = 1
    END_NONE = 0
    END_TARGET = 1
    END_STALEMATE = 2
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_AGGRESSIVE = 2
    POL_DEFENSIVE = 3
    POL_LOOKAHEAD = 4
    N_POLICIES = 5
    MAX_DECK = 10000
    HAND_SIZE = 6
    MAX_LIMIT = 1000000      # a target or turn cap: at most 10**6, as Rules allows
    MAX_SCORE = 20 * MAX_DECK   # crown points: at most 20 a card

N_KINDS = NK
MAX_PLAYERS = MAXP
MAX_DECK_CARDS = MAX_DECK
POLICY_IDS = {"random": POL_RANDOM, "greedy": POL_GREEDY, "aggressive": POL_AGGRESSIVE,
              "defensive": POL_DEFENSIVE, "lookahead": POL_LOOKAHEAD}


# ---------------------------------------------------------------- random numbers

# Per-game generators without Python: numpy's SeedSequence (pool of 4 words, hash
# mixing) and PCG64 (XSL-RR 128/64, seeded from generate_state(4, uint64)) rewritten in C,
# bit for bit, so game g of a run gets the same stream here as
# Generator(PCG64(SeedSequence([*root, g]))) gives the Python path, at a fraction of the
# cost of building those objects (about 10 us a game, as long as a greedy game itself).
# tests/test_kings_crowns_seeding.py checks the streams against numpy's.
cdef extern from *:
    """
    typedef __uint128_t kc_u128;
    typedef struct { kc_u128 state; kc_u128 inc; int has32; uint32_t u32; } kc_pcg64;

    static inline void kc_pcg_step(kc_pcg64* r) {
        const kc_u128 mult = (((kc_u128)2549297995355413924ULL) << 64) | 4865540595714422341ULL;
        r->state = r->state * mult + r->inc;
    }
    static inline uint64_t kc_pcg_next64(kc_pcg64* r) {
        uint64_t x; unsigned rot;
        kc_pcg_step(r);
        x = ((uint64_t)(r->state >> 64)) ^ (uint64_t)r->state;
        rot = (unsigned)(r->state >> 122);
        return (x >> rot) | (x << ((-rot) & 63));
    }
    static uint64_t kc_pcg_u64(void* st) { return kc_pcg_next64((kc_pcg64*)st); }
    static uint32_t kc_pcg_u32(void* st) {
        kc_pcg64* r = (kc_pcg64*)st; uint64_t n;
        if (r->has32) { r->has32 = 0; return r->u32; }
        n = kc_pcg_next64(r);
        r->has32 = 1; r->u32 = (uint32_t)(n >> 32);
        return (uint32_t)(n & 0xffffffffULL);
    }
    static double kc_pcg_double(void* st) { return (kc_pcg_next64((kc_pcg64*)st) >> 11) * (1.0 / 9007199254740992.0); }

    /* numpy.random.SeedSequence(entropy words) -> generate_state(4, uint64) -> PCG64 seed */
    static inline uint32_t kc_hashmix(uint32_t v, uint32_t* h) {
        v ^= *h; *h *= 0x931e8875U; v *= *h; v ^= v >> 16; return v;
    }
    static inline uint32_t kc_mix(uint32_t x, uint32_t y) {
        uint32_t r = 0xca01f9ddU * x - 0x4973f715U * y; r ^= r >> 16; return r;
    }
    static void kc_seed_pcg(kc_pcg64* r, const uint32_t* ent, int n) {
        uint32_t pool[4], h = 0x43b0d7e5U, words[8]; uint64_t v[4]; int i, j; kc_u128 s, inc;
        for (i = 0; i < 4; i++) pool[i] = kc_hashmix(i < n ? ent[i] : 0U, &h);
        for (i = 0; i < 4; i++) for (j = 0; j < 4; j++) if (i != j) pool[j] = kc_mix(pool[j], kc_hashmix(pool[i], &h));
        for (i = 4; i < n; i++) for (j = 0; j < 4; j++) pool[j] = kc_mix(pool[j], kc_hashmix(ent[i], &h));
        h = 0x8b51f9ddU;
        for (i = 0; i < 8; i++) {
            uint32_t d = pool[i & 3];
            d ^= h; h *= 0x58f38dedU; d *= h; d ^= d >> 16; words[i] = d;
        }
        for (i = 0; i < 4; i++) v[i] = ((uint64_t)words[2 * i + 1] << 32) | words[2 * i];
        s = (((kc_u128)v[0]) << 64) | v[1];
        inc = (((kc_u128)v[2]) << 64) | v[3];
        r->state = 0; r->inc = (inc << 1) | 1U;
        kc_pcg_step(r); r->state += s; kc_pcg_step(r);
        r->has32 = 0; r->u32 = 0;
    }
    """
    ctypedef struct kc_pcg64:
        pass
    uint64_t kc_pcg_u64(void* st) noexcept nogil
    uint32_t kc_pcg_u32(void* st) noexcept nogil
    double kc_pcg_double(void* st) noexcept nogil
    void kc_seed_pcg(kc_pcg64* r, const uint32_t* ent, int n) noexcept nogil


cdef struct Rng:
    crowns_bitgen_t* bg     # numpy bit generator, or NULL: then splitmix64 on s
    uint64_t s


cdef inline uint32_t rng_u32(Rng* r) noexcept nogil:
    cdef uint64_t z
    if r.bg != NULL:
        return r.bg.next_uint32(r.bg.state)
    r.s += <uint64_t>0x9E3779B97F4A7C15ULL
    z = r.s
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return <uint32_t>((z ^ (z >> 31)) >> 32)


cdef inline uint64_t rng_u64(Rng* r) noexcept nogil:
    return (<uint64_t>rng_u32(r) << 32) | rng_u32(r)


cdef inline int rng_below(Rng* r, int n) noexcept nogil:
    """Uniform int in [0, n), n >= 1 (Lemire's multiply-and-reject, unbiased)."""
    cdef uint64_t m = <uint64_t>rng_u32(r) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t t
    if low < <uint32_t>n:
        t = <uint32_t>(((<uint64_t>1 << 32) - <uint64_t>n) % <uint64_t>n)
        while low < t:
            m = <uint64_t>rng_u32(r) * <uint64_t>n
            low = <uint32_t>m
    return <int>(m >> 32)


cdef inline void shuffle(uint8_t* a, int n, Rng* r) noexcept nogil:
    """Fisher-Yates shuffle of a[0:n]."""
    cdef int i, j
    cdef uint8_t t
    i = n - 1
    while i > 0:
        j = rng_below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1


# ---------------------------------------------------------------- cards

cdef inline bint is_sin(int c) noexcept nogil:
    return 1 <= c <= 3


cdef inline bint is_forgiveness(int c) noexcept nogil:
    return 4 <= c <= 6


cdef inline bint is_gift(int c) noexcept nogil:
    return GIFT0 <= c <= 11


cdef inline bint is_crown(int c) noexcept nogil:
    return c >= CROWN0


cdef inline int crown_points(int c) noexcept nogil:
    return 5 * (((c - CROWN0) & 3) + 1)


# ---------------------------------------------------------------- state and view

cdef struct KCState:
    int n_players
    int target
    int max_turns
    int turn            # turns completed
    int current         # seat to move
    int phase
    int winner          # -1 until someone reaches the target
    int ended
    int deck_n
    int deck_counts[NK]
    uint8_t* draw       # draw pile, top = draw[draw_n - 1]; capacity deck_n
    int draw_n
    uint8_t* disc       # discard pile, top = disc[disc_n - 1]; capacity deck_n
    int disc_n
    uint8_t hand[MAXP][HANDCAP]
    int hand_n[MAXP]
    int play_top[MAXP]  # top card of each play stack, -1 if empty
    int play_n[MAXP]
    int gifts[MAXP]     # bit g: Gift of colour g (red, blue, green) played
    int score[MAXP]     # crown points
    int seat_counts[MAXP][NK]   # cards on each seat's three stacks, by kind
    int reshuffles
    uint8_t* play_log   # NULL, or ordered play stacks: seat s at [s * deck_n ...]
    uint8_t* crown_log  # NULL, or ordered crown stacks, same layout
    uint8_t gift_log[MAXP][3]
    int crowns_n[MAXP]


cdef struct KCView:
    # what seat `seat` sees: nothing here is hidden from it
    int seat
    int n_players
    int target
    int max_turns
    int turn
    int phase
    int hand[NK]         # own hand, counts by kind
    int hand_n
    int hand_sizes[MAXP]
    int play_top[MAXP]
    int play_n[MAXP]
    int gifts[MAXP]
    int score[MAXP]
    int disc_top         # -1 if the discard pile is empty
    int disc_n
    int draw_n
    const int32_t* seat_counts   # [MAXP * NK]: every seat's stacks (face up)
    const int32_t* deck_counts   # [NK]: the deck (public)


cdef struct LAParams:
    int samples          # determinizations per decision
    int horizon          # turns rolled out after the decision
    int rollout          # policy id used in rollouts (0..3)


cdef void extract_view(const KCState* st, int seat, KCView* v) noexcept nogil:
    cdef int q, k
    v.seat = seat
    v.n_players = st.n_players
    v.target = st.target
    v.max_turns = st.max_turns
    v.turn = st.turn
    v.phase = st.phase
    memset(v.hand, 0, sizeof(v.hand))
    for k in range(st.hand_n[seat]):
        v.hand[st.hand[seat][k]] += 1
    v.hand_n = st.hand_n[seat]
    for q in range(MAXP):
        v.hand_sizes[q] = st.hand_n[q]
        v.play_top[q] = st.play_top[q]
        v.play_n[q] = st.play_n[q]
        v.gifts[q] = st.gifts[q]
        v.score[q] = st.score[q]
    v.disc_top = st.disc[st.disc_n - 1] if st.disc_n > 0 else -1
    v.disc_n = st.disc_n
    v.draw_n = st.draw_n
    v.seat_counts = <const int32_t*>&st.seat_counts[0][0]
    v.deck_counts = <const int32_t*>&st.deck_counts[0]


# ---------------------------------------------------------------- the rules

cdef inline bint crown_ok(const KCView* v, int p, int c) noexcept nogil:
    """RULES.md: a Crown needs Salvation, a top that is not a Sin, 15/20 only on Time
    with God or Holy Spirit, and black or a Gift of the Crown's colour."""
    cdef int top = v.play_top[p]
    cdef int col = (c - CROWN0) >> 2
    if v.play_n[p] == 0 or is_sin(top):
        return 0
    if ((c - CROWN0) & 3) >= 2 and top != TWG and top != HS:
        return 0
    return col == 0 or (v.gifts[p] >> (col - 1)) & 1


cdef inline bint sinnable(const KCView* v, int q) noexcept nogil:
    return q != v.seat and v.play_n[q] > 0 and not is_sin(v.play_top[q])


cdef int legal_plays(const KCView* v, int* out) noexcept nogil:
    """Every distinct legal play of seat v.seat from its hand (RULES.md "Legal plays")."""
    cdef int n = 0, c, q
    cdef int p = v.seat
    cdef int top = v.play_top[p]
    cdef bint saved = v.play_n[p] > 0
    for c in range(NK):
        if v.hand[c] == 0:
            continue
        out[n] = 16 * c + D_DISCARD
        n += 1
        if c == SAL:
            if not saved:
                out[n] = 16 * c + D_PLAY
                n += 1
        elif is_sin(c):
            for q in range(v.n_players):
                if sinnable(v, q):
                    out[n] = 16 * c + D_SIN + q
                    n += 1
        elif is_forgiveness(c):
            if top == c - 3:
                out[n] = 16 * c + D_PLAY
                n += 1
        elif c == TWG:
            if saved and not is_sin(top):
                out[n] = 16 * c + D_PLAY
                n += 1
        elif c == HS:
            if saved:
                out[n] = 16 * c + D_PLAY
                n += 1
        elif is_gift(c):
            if saved and not (v.gifts[p] >> (c - GIFT0)) & 1:
                out[n] = 16 * c + D_GIFTS
                n += 1
        else:
            if crown_ok(v, p, c):
                out[n] = 16 * c + D_CROWNS
                n += 1
    return n


cdef inline int legal_draws(const KCState* st, int* out) noexcept nogil:
    cdef int n = 0
    if st.draw_n + st.disc_n > 0:
        out[n] = SRC_DRAW
        n += 1
    if st.disc_n > 0:
        out[n] = SRC_DISCARD
        n += 1
    return n


cdef void begin_turn(KCState* st) noexcept nogil:
    """Set the phase of the seat to move; a seat with nothing to draw and no card passes."""
    while True:
        if st.draw_n + st.disc_n > 0:
            st.phase = PH_DRAW
            return
        if st.hand_n[st.current] > 0:
            st.phase = PH_PLAY     # both piles empty: play without drawing
            return
        st.turn += 1               # nothing to draw, nothing to play: the turn passes
        if st.turn >= st.max_turns:
            st.phase = PH_OVER
            st.ended = END_STALEMATE
            return
        st.current = (st.current + 1) % st.n_players


cdef void deal(KCState* st, Rng* r) noexcept nogil:
    """Shuffle the deck, deal 6 cards each from seat 0 round, turn one card up."""
    cdef int c, k, n = 0, p
    for c in range(NK):
        for k in range(st.deck_counts[c]):
            st.draw[n] = <uint8_t>c
            n += 1
    st.draw_n = n
    shuffle(st.draw, n, r)
    st.disc_n = 0
    for p in range(MAXP):
        st.hand_n[p] = 0
        st.play_top[p] = -1
        st.play_n[p] = 0
        st.gifts[p] = 0
        st.score[p] = 0
        st.crowns_n[p] = 0
        for c in range(NK):
            st.seat_counts[p][c] = 0
    for k in range(HAND_SIZE * st.n_players):
        p = k % st.n_players
        st.draw_n -= 1
        st.hand[p][st.hand_n[p]] = st.draw[st.draw_n]
        st.hand_n[p] += 1
    st.draw_n -= 1
    st.disc[0] = st.draw[st.draw_n]
    st.disc_n = 1
    st.turn = 0
    st.current = 0
    st.winner = -1
    st.ended = END_NONE
    st.reshuffles = 0
    begin_turn(st)


cdef int apply_draw(KCState* st, int src, Rng* r) noexcept nogil:
    """Draw for the seat to move; returns the card drawn.  Assumes `src` is legal."""
    cdef int p = st.current, c
    if src == SRC_DISCARD:
        st.disc_n -= 1
        c = st.disc[st.disc_n]
    else:
        if st.draw_n == 0:         # RULES.md: the whole discard pile becomes the draw pile
            memcpy(st.draw, st.disc, st.disc_n)
            st.draw_n = st.disc_n
            st.disc_n = 0
            shuffle(st.draw, st.draw_n, r)
            st.reshuffles += 1
        st.draw_n -= 1
        c = st.draw[st.draw_n]
    st.hand[p][st.hand_n[p]] = <uint8_t>c
    st.hand_n[p] += 1
    st.phase = PH_PLAY
    return c


cdef inline void push_play(KCState* st, int q, int c) noexcept nogil:
    if st.play_log != NULL:
        st.play_log[q * st.deck_n + st.play_n[q]] = <uint8_t>c
    st.play_top[q] = c
    st.play_n[q] += 1
    st.seat_counts[q][c] += 1


cdef void apply_play(KCState* st, int action) noexcept nogil:
    """Play `action` for the seat to move, then end the turn.  Assumes it is legal."""
    cdef int p = st.current
    cdef int c = action >> 4, d = action & 15, k
    for k in range(st.hand_n[p]):
        if st.hand[p][k] == c:
            st.hand_n[p] -= 1
            st.hand[p][k] = st.hand[p][st.hand_n[p]]
            break
    if d == D_DISCARD:
        st.disc[st.disc_n] = <uint8_t>c
        st.disc_n += 1
    elif d == D_PLAY:
        push_play(st, p, c)
    elif d == D_GIFTS:
        st.gift_log[p][__builtin_popcount(st.gifts[p])] = <uint8_t>c
        st.gifts[p] |= 1 << (c - GIFT0)
        st.seat_counts[p][c] += 1
    elif d == D_CROWNS:
        if st.crown_log != NULL:
            st.crown_log[p * st.deck_n + st.crowns_n[p]] = <uint8_t>c
        st.crowns_n[p] += 1
        st.score[p] += crown_points(c)
        st.seat_counts[p][c] += 1
    else:
        push_play(st, d - D_SIN, c)
    st.turn += 1
    if st.score[p] >= st.target:
        st.winner = p
        st.ended = END_TARGET
        st.phase = PH_OVER
    elif st.turn >= st.max_turns:
        st.ended = END_STALEMATE
        st.phase = PH_OVER
    else:
        st.current = (p + 1) % st.n_players
        begin_turn(st)


# ---------------------------------------------------------------- simple players

cdef int keep_value(const KCView* v, int c, int style) noexcept nogil:
    """How much a builder wants to keep card c (the lowest is discarded)."""
    cdef int p = v.seat, top = v.play_top[p], col
    cdef bint saved = v.play_n[p] > 0
    if c == SAL:
        return 0 if saved else 100
    if is_sin(c):
        return 9 if style == POL_AGGRESSIVE else 1
    if is_forgiveness(c):
        return 60 if style == POL_DEFENSIVE else 6
    if c == TWG:
        return 3 if (top == TWG or top == HS) else 25
    if c == HS:
        return 90 if style == POL_DEFENSIVE else 30
    if is_gift(c):
        return 0 if (v.gifts[p] >> (c - GIFT0)) & 1 else 40
    col = (c - CROWN0) >> 2
    return crown_points(c) + (10 if (col == 0 or (v.gifts[p] >> (col - 1)) & 1) else 0)


cdef int leader_to_sin(const KCView* v) noexcept nogil:
    """The opponent with most crown points whose play stack takes a Sin (ties: the
    first after us in turn order), or -1."""
    cdef int k, q, best = -1
    for k in range(1, v.n_players):
        q = (v.seat + k) % v.n_players
        if sinnable(v, q) and (best < 0 or v.score[q] > v.score[best]):
            best = q
    return best


cdef int builder_play(const KCView* v, int style) noexcept nogil:
    """Greedy builder (and its aggressive and defensive variants), RULES.md plays only."""
    cdef int p = v.seat, top = v.play_top[p], c, best = -1, q, g
    cdef bint saved = v.play_n[p] > 0
    for c in range(NK - 1, CROWN0 - 1, -1):         # the highest playable crown (at equal
        if v.hand[c] and crown_ok(v, p, c):        # points, the highest code: green first)
            if best < 0 or crown_points(c) > crown_points(best):
                best = c
    if style == POL_AGGRESSIVE:
        if best >= 0 and v.score[p] + crown_points(best) >= v.target:
            return 16 * best + D_CROWNS
        q = leader_to_sin(v)
        if q >= 0:
            for c in range(1, 4):
                if v.hand[c]:
                    return 16 * c + D_SIN + q
    if best >= 0:
        return 16 * best + D_CROWNS
    if is_sin(top):
        if v.hand[top + 3]:
            return 16 * (top + 3) + D_PLAY
        if v.hand[HS]:
            return 16 * HS + D_PLAY
    if not saved:
        if v.hand[SAL]:
            return 16 * SAL + D_PLAY
    else:
        for g in range(3):
            if v.hand[GIFT0 + g] and not (v.gifts[p] >> g) & 1:
                return 16 * (GIFT0 + g) + D_GIFTS
        if not is_sin(top) and top != TWG and top != HS:
            if v.hand[TWG]:
                return 16 * TWG + D_PLAY
            if v.hand[HS] and style != POL_DEFENSIVE:
                return 16 * HS + D_PLAY
    # nothing to build: discard the card worth least (ties: the lowest code)
    best = -1
    for c in range(NK):
        if v.hand[c] and (best < 0 or keep_value(v, c, style) < keep_value(v, best, style)):
            best = c
    return 16 * best + D_DISCARD


cdef bint builder_wants(const KCView* v, int c, int style) noexcept nogil:
    """Would a builder take discard top c (it would play it at once, or hold it)?"""
    cdef int p = v.seat, top = v.play_top[p]
    cdef bint saved = v.play_n[p] > 0
    if is_crown(c):
        return crown_ok(v, p, c)
    if is_forgiveness(c):
        return top == c - 3
    if c == HS:
        return is_sin(top) or style == POL_DEFENSIVE
    if c == SAL:
        return not saved and v.hand[SAL] == 0
    if is_gift(c):
        return saved and not (v.gifts[p] >> (c - GIFT0)) & 1 and v.hand[c] == 0
    if c == TWG:
        return saved and not is_sin(top) and top != TWG and top != HS and v.hand[TWG] == 0
    if is_sin(c):
        return style == POL_AGGRESSIVE and leader_to_sin(v) >= 0
    return 0


cdef int simple_draw(int pol, const KCView* v, Rng* r) noexcept nogil:
    if v.disc_n == 0:
        return SRC_DRAW
    if pol == POL_RANDOM:
        return rng_below(r, 2)
    return SRC_DISCARD if builder_wants(v, v.disc_top, pol) else SRC_DRAW


cdef int simple_play(int pol, const KCView* v, Rng* r) noexcept nogil:
    cdef int acts[MAXACT]
    cdef int n
    if pol == POL_RANDOM:
        n = legal_plays(v, acts)
        return acts[rng_below(r, n)]
    return builder_play(v, pol)


# ---------------------------------------------------------------- lookahead player

cdef inline int potential(const KCState* st, int q) noexcept nogil:
    """Crown points plus what the stacks promise: Salvation not under a Sin (10), Time
    with God or Holy Spirit on top (10 more), each Gift (5)."""
    cdef int top = st.play_top[q]
    cdef int x = st.score[q] + 5 * __builtin_popcount(st.gifts[q])
    if st.play_n[q] > 0 and not is_sin(top):
        x += 10
        if top == TWG or top == HS:
            x += 10
    return x


cdef double evaluate(const KCState* st, int seat) noexcept nogil:
    """1 for a win, 0 for a loss; otherwise 0.5 plus half the lead in potential over the
    best opponent as a share of the target (clipped to 0.02..0.98)."""
    cdef int q, best = -1000000, x
    cdef double y
    if st.ended == END_TARGET:
        return 1.0 if st.winner == seat else 0.0
    for q in range(st.n_players):
        if q != seat:
            x = potential(st, q)
            if x > best:
                best = x
    y = 0.5 + 0.5 * (potential(st, seat) - best) / <double>st.target
    return 0.02 if y < 0.02 else (0.98 if y > 0.98 else y)


cdef void rollout(KCState* st, int rollout_pol, int horizon, Rng* r) noexcept nogil:
    cdef KCView v
    cdef int stop = st.turn + horizon
    while st.phase != PH_OVER and st.turn < stop:
        extract_view(st, st.current, &v)
        if st.phase == PH_DRAW:
            apply_draw(st, simple_draw(rollout_pol, &v, r), r)
            extract_view(st, st.current, &v)
        apply_play(st, simple_play(rollout_pol, &v, r))


cdef int determinize(const KCView* v, KCState* st, uint8_t* pool, Rng* r) noexcept nogil:
    """Fill `st` (buffers already set) with a deal consistent with view `v`: the unseen
    cards (deck minus own hand, every stack and the discard top) shuffled into the
    opponents' hands, the draw pile and the discard pile under its top.  Returns -1 if
    the view is inconsistent (more cards seen than the deck holds)."""
    cdef int c, k, q, n = 0, unseen, slots, i = 0
    slots = v.draw_n + (v.disc_n - 1 if v.disc_n > 0 else 0)
    for q in range(v.n_players):
        if q != v.seat:
            slots += v.hand_sizes[q]
    for c in range(NK):
        unseen = v.deck_counts[c] - v.hand[c]
        for q in range(v.n_players):
            unseen -= v.seat_counts[q * NK + c]
        if c == v.disc_top:
            unseen -= 1
        if unseen < 0:
            return -1
        if n + unseen > slots:
            return -1
        for k in range(unseen):
            pool[n] = <uint8_t>c
            n += 1
    if n != slots:
        return -1
    shuffle(pool, n, r)
    st.n_players = v.n_players
    st.target = v.target
    st.max_turns = v.max_turns
    st.turn = v.turn
    st.current = v.seat
    st.phase = v.phase
    st.winner = -1
    st.ended = END_NONE
    st.reshuffles = 0
    st.play_log = NULL
    st.crown_log = NULL
    for c in range(NK):
        st.deck_counts[c] = v.deck_counts[c]
    for q in range(MAXP):
        st.play_top[q] = v.play_top[q]
        st.play_n[q] = v.play_n[q]
        st.gifts[q] = v.gifts[q]
        st.score[q] = v.score[q]
        st.crowns_n[q] = 0
        for c in range(NK):
            st.seat_counts[q][c] = v.seat_counts[q * NK + c] if q < v.n_players else 0
        st.hand_n[q] = 0
        if q == v.seat:
            for c in range(NK):
                for k in range(v.hand[c]):
                    st.hand[q][st.hand_n[q]] = <uint8_t>c
                    st.hand_n[q] += 1
        elif q < v.n_players:
            for k in range(v.hand_sizes[q]):
                st.hand[q][k] = pool[i]
                i += 1
            st.hand_n[q] = v.hand_sizes[q]
    for k in range(v.draw_n):
        st.draw[k] = pool[i]
        i += 1
    st.draw_n = v.draw_n
    st.disc_n = 0
    if v.disc_n > 0:
        for k in range(v.disc_n - 1):
            st.disc[k] = pool[i]
            i += 1
        st.disc[v.disc_n - 1] = <uint8_t>v.disc_top
        st.disc_n = v.disc_n
    return 0


cdef inline void copy_state(KCState* dst, const KCState* src, uint8_t* draw, uint8_t* disc) noexcept nogil:
    memcpy(dst, src, sizeof(KCState))
    dst.draw = draw
    dst.disc = disc
    memcpy(draw, src.draw, src.draw_n)
    memcpy(disc, src.disc, src.disc_n)


#: Whether the lookahead player looks for Ctrl-C between its samples (set by the entry
#: points while Python's default SIGINT handler is installed): one decision with many
#: samples and a long horizon can take minutes, and Ctrl-C waited for the whole game.
cdef int watch_interrupts = 0
#: LOOKAHEAD_INTERRUPTED: what a lookahead decision returns when Ctrl-C stopped it.
cdef enum:
    LOOKAHEAD_INTERRUPTED = -3
    POLICY_CHANGED = -4            # play_games: a seat's player id changed during the call
    INTERRUPT_EVERY = 4            # samples between two looks (a sample is n rollouts)


cdef int interrupted() noexcept nogil:
    """True once after a Ctrl-C (SIGINT) when `watch_interrupts` is on."""
    cdef int hit = 0
    if watch_interrupts:
        with gil:
            hit = PyOS_InterruptOccurred()
    return hit


cdef int _watch_interrupts() except -1:
    """Turn `watch_interrupts` on when SIGINT's handler is Python's default (which raises
    KeyboardInterrupt, as the entry points then do), off otherwise (a handler of the
    user's own, or SIGINT ignored as in the runner's worker processes)."""
    global watch_interrupts
    import signal
    watch_interrupts = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    return 0


cdef int lookahead_values(const KCView* v, const LAParams* la, Rng* r, int* acts, double* mean,
                          double* adv, double* se) noexcept nogil:
    """Determinized Monte Carlo.  Candidates: the draw sources, or every distinct legal
    play.  Each of `samples` times, sample the hidden cards from the view, then for each
    candidate apply it and roll out `horizon` turns with the rollout player for every
    seat, scoring the end with `evaluate`; every candidate sees the same deals and the
    same rollout streams (common random numbers).  Fills acts, the mean value of each
    candidate, and its mean advantage over the rollout player's own choice (the default)
    with the standard error of that paired difference.  Returns the number of candidates
    and sets acts[n] to the default's index; -1: inconsistent view, -2: out of memory,
    LOOKAHEAD_INTERRUPTED: Ctrl-C (see `interrupted`)."""
    cdef int n, a, k, cap, dflt = 0
    cdef KCState det, work
    cdef Rng rr
    cdef uint64_t seed
    cdef uint8_t* mem
    cdef double vals[MAXACT]
    cdef double sd2[MAXACT]
    cdef double d
    if v.phase == PH_DRAW:
        n = 1
        acts[0] = SRC_DRAW
        if v.disc_n > 0:
            acts[1] = SRC_DISCARD
            n = 2
        k = simple_draw(la.rollout, v, r) if la.rollout != POL_RANDOM else SRC_DRAW
    else:
        n = legal_plays(v, acts)
        k = simple_play(la.rollout, v, r) if la.rollout != POL_RANDOM else acts[0]
    for a in range(n):
        if acts[a] == k:
            dflt = a
        mean[a] = 0.0
        adv[a] = 0.0
        se[a] = 0.0
        sd2[a] = 0.0
    acts[n] = dflt
    if n == 1:
        return n
    cap = 0
    for a in range(NK):
        cap += v.deck_counts[a]
    mem = <uint8_t*>malloc(5 * <size_t>(cap + 1))
    if mem == NULL:
        return -2
    det.draw = mem
    det.disc = mem + (cap + 1)
    det.deck_n = cap
    for k in range(la.samples):
        if k % INTERRUPT_EVERY == INTERRUPT_EVERY - 1 and interrupted():
            free(mem)
            return LOOKAHEAD_INTERRUPTED
        if determinize(v, &det, mem + 4 * (cap + 1), r) < 0:
            free(mem)
            return -1
        seed = rng_u64(r)
        for a in range(n):
            copy_state(&work, &det, mem + 2 * (cap + 1), mem + 3 * (cap + 1))
            rr.bg = NULL
            rr.s = seed
            if v.phase == PH_DRAW:
                apply_draw(&work, acts[a], &rr)
            else:
                apply_play(&work, acts[a])
            rollout(&work, la.rollout, la.horizon, &rr)
            vals[a] = evaluate(&work, v.seat)
        for a in range(n):
            d = vals[a] - vals[dflt]
            mean[a] += vals[a]
            adv[a] += d
            sd2[a] += d * d
    free(mem)
    for a in range(n):
        mean[a] /= la.samples
        adv[a] /= la.samples
        d = sd2[a] / la.samples - adv[a] * adv[a]
        se[a] = (d / la.samples) ** 0.5 if d > 0 and la.samples > 1 else 0.0
    return n


cdef int lookahead_choose(const KCView* v, const LAParams* la, Rng* r) noexcept nogil:
    """The rollout player's own choice, unless a candidate beats it clearly: the
    candidate with the largest mean advantage, if that advantage exceeds two standard
    errors of the paired difference (with a dozen candidates, noise alone often puts
    one a standard error ahead; a sound default should not be overturned by noise)."""
    cdef int acts[MAXACT + 1]
    cdef double mean[MAXACT]
    cdef double adv[MAXACT]
    cdef double se[MAXACT]
    cdef int n, a, best
    n = lookahead_values(v, la, r, acts, mean, adv, se)
    if n < 0:
        return n
    best = acts[n]
    for a in range(n):
        if adv[a] > 2.0 * se[a] and adv[a] > adv[best]:
            best = a
    return acts[best]


cdef int policy_draw(int pol, const KCView* v, const LAParams* la, Rng* r) noexcept nogil:
    if pol == POL_LOOKAHEAD:
        return lookahead_choose(v, la, r)
    return simple_draw(pol, v, r)


cdef int policy_play(int pol, const KCView* v, const LAParams* la, Rng* r) noexcept nogil:
    if pol == POL_LOOKAHEAD:
        return lookahead_choose(v, la, r)
    return simple_play(pol, v, r)


# ---------------------------------------------------------------- Python entry points

cdef enum:
    MAX_ROOT_WORDS = 64

MAX_SEED_WORDS = MAX_ROOT_WORDS
#: the most words game_stream returns (a list: 2**31 of them would take about 70 GB)
MAX_STREAM_WORDS = 1 << 20


cdef void seed_game(crowns_bitgen_t* bg, kc_pcg64* pcg, const uint32_t* root, int n_root, uint64_t game) noexcept nogil:
    """Point `bg` at `pcg`, seeded as PCG64(SeedSequence([*root, game])) is."""
    cdef uint32_t ent[MAX_ROOT_WORDS + 2]
    cdef int i, n = n_root
    for i in range(n_root):
        ent[i] = root[i]
    ent[n] = <uint32_t>(game & 0xffffffffULL)
    n += 1
    if game >> 32:
        ent[n] = <uint32_t>(game >> 32)
        n += 1
    kc_seed_pcg(pcg, ent, n)
    bg.state = <void*>pcg
    bg.next_uint64 = kc_pcg_u64
    bg.next_uint32 = kc_pcg_u32
    bg.next_double = kc_pcg_double
    bg.next_raw = kc_pcg_u64


def game_stream(const uint32_t[::1] root, unsigned long long game, int n):
    """The first `n` 32-bit words of game `game`'s stream (as ``play_games`` with `root`
    draws them): for checking it against numpy's ``PCG64(SeedSequence([*root, game]))``.
    At most MAX_STREAM_WORDS (ValueError), none for n <= 0."""
    cdef crowns_bitgen_t bg
    cdef kc_pcg64 pcg
    cdef int i
    if root.shape[0] > MAX_ROOT_WORDS:
        raise ValueError(f"at most {MAX_ROOT_WORDS} root seed words, got {root.shape[0]}")
    if n > MAX_STREAM_WORDS:
        raise ValueError(f"game_stream gives at most {MAX_STREAM_WORDS} words, got n={n}")
    seed_game(&bg, &pcg, &root[0] if root.shape[0] else NULL, root.shape[0], game)
    return [bg.next_uint32(bg.state) for i in range(n)]


cdef void check_la(object la, LAParams* out) except *:
    samples, horizon, rollout_pol = la
    if not 1 <= samples <= 10000 or not 1 <= horizon <= 100000 or not 0 <= rollout_pol < POL_LOOKAHEAD:
        raise ValueError(f"bad lookahead parameters {la!r}")
    out.samples = samples
    out.horizon = horizon
    out.rollout = rollout_pol


cdef void check_deck(const int32_t[::1] deck_counts, int n_players) except *:
    # each count is bounded before they are added up: a sum of counts near 2**31 wrapped
    # around to a small deck, whose piles were then overrun (a crash)
    cdef int c
    cdef long long n = 0
    if deck_counts.shape[0] != NK:
        raise DeckError(f"deck_counts must have {NK} entries, got {deck_counts.shape[0]}")
    for c in range(NK):
        if not 0 <= deck_counts[c] <= MAX_DECK:
            raise DeckError(f"deck_counts[{c}] must be 0..{MAX_DECK}, got {deck_counts[c]}")
        n += deck_counts[c]
    if n > MAX_DECK:
        raise DeckError(f"the deck has {n} cards, more than the {MAX_DECK} supported")
    if not 2 <= n_players <= MAXP:
        raise ValueError(f"players must be 2..{MAXP}, got {n_players}")
    if n < HAND_SIZE * n_players + 1:
        raise DeckError(f"a deck of {n} cards is too small for {n_players} players")


cdef void check_limits(long long target, long long max_turns) except *:
    if not 1 <= target <= MAX_LIMIT:
        raise RulesError(f"target must be 1..{MAX_LIMIT}, got {target}")
    if not 1 <= max_turns <= MAX_LIMIT:
        raise RulesError(f"max_turns must be 1..{MAX_LIMIT}, got {max_turns}")


cdef long long view_count(object value, str what, long long hi) except -1:
    """`value` (a count or size in a view dict) as a whole number 0..`hi`, else a
    PositionError naming `what` and the value: bounded so that their sums in C cannot
    wrap around."""
    cdef long long x
    try:
        x = value
    except (OverflowError, TypeError):
        raise PositionError(f"a view's {what} must be a whole number 0..{hi}, got {value!r}") from None
    if not 0 <= x <= hi:
        raise PositionError(f"a view's {what} must be 0..{hi}, got {x}")
    return x


cdef class Engine(_OneThread):
    """One game's state, driven move by move (the Python-facing path).

    Engine(deck_counts, n_players, target, max_turns, generator) deals at once.  The
    generator's bit generator is shared: every shuffle and every built-in player's
    random choice is drawn from it, in the same order as ``play_games``.

    One engine serves one thread at a time: a method that reads or changes the game
    (:meth:`builtin` runs with the GIL released) raises
    :class:`~crowns_solver.errors.EngineBusyError` when it starts while another thread is
    inside the engine, before touching anything.  The flag is taken with one atomic
    compare-and-swap (with or without a GIL) and dropped in ``finally`` (an exception or
    Ctrl-C never leaves the engine busy); calls from the thread already inside (``draw`` checks ``legal_draws``) pass.
    The properties are plain reads.
    """
    cdef KCState st
    cdef Rng rng
    cdef object gen
    cdef object lock                # the generator's lock, held while drawing from it
    cdef uint8_t* mem

    def __cinit__(self, const int32_t[::1] deck_counts, int n_players, int target, int max_turns, gen):
        cdef int c, n = 0
        self.mem = NULL
        check_deck(deck_counts, n_players)
        check_limits(target, max_turns)
        for c in range(NK):
            self.st.deck_counts[c] = deck_counts[c]
            n += deck_counts[c]
        self.st.deck_n = n
        self.mem = <uint8_t*>malloc((2 + 2 * MAXP) * <size_t>(n + 1))
        if self.mem == NULL:
            raise MemoryError()
        self.st.draw = self.mem
        self.st.disc = self.mem + (n + 1)
        self.st.play_log = self.mem + 2 * (n + 1)
        self.st.crown_log = self.mem + (2 + MAXP) * (n + 1)
        self.st.n_players = n_players
        self.st.target = target
        self.st.max_turns = max_turns
        self.gen = gen
        self.rng.bg = get_bitgen(gen, "gen")
        self.rng.s = 0
        self.lock = bitgen_lock(gen, "gen")
        with self.lock:
            deal(&self.st, &self.rng)

    def __dealloc__(self):
        free(self.mem)

    @property
    def phase(self):
        return self.st.phase

    @property
    def current(self):
        return self.st.current

    @property
    def turn(self):
        return self.st.turn

    @property
    def winner(self):
        return self.st.winner

    @property
    def ended(self):
        return self.st.ended

    def legal_draws(self):
        """The draw sources open to the seat to move (none outside the draw phase)."""
        cdef int out[2]
        self._enter()
        try:
            if self.st.phase != PH_DRAW:
                return []
            n = legal_draws(&self.st, out)
            return [out[i] for i in range(n)]
        finally:
            self._leave()

    def legal_plays(self):
        """The plays open to the seat to move (none outside the play phase)."""
        cdef int out[MAXACT]
        cdef KCView v
        self._enter()
        try:
            if self.st.phase != PH_PLAY:
                return []
            extract_view(&self.st, self.st.current, &v)
            n = legal_plays(&v, out)
            return [out[i] for i in range(n)]
        finally:
            self._leave()

    def draw(self, int src):
        """Draw from source `src` for the seat to move; returns the card drawn."""
        self._enter()
        try:
            if src not in self.legal_draws():
                raise ValueError(f"draw source {src} is not legal now")
            with self.lock:   # a reshuffle draws from the generator
                return apply_draw(&self.st, src, &self.rng)
        finally:
            self._leave()

    def play(self, int action):
        """Play `action` for the seat to move (ending the turn)."""
        self._enter()
        try:
            if action not in self.legal_plays():
                raise ValueError(f"play {action} is not legal now")
            apply_play(&self.st, action)
        finally:
            self._leave()

    def builtin(self, int pol, la=(64, 20, POL_AGGRESSIVE)):
        """The built-in player's choice (draw source or play) for the seat to move.
        Ctrl-C stops a lookahead decision (KeyboardInterrupt), as in :func:`choose`."""
        cdef KCView v
        cdef LAParams p
        cdef int r
        check_la(la, &p)
        if not 0 <= pol < N_POLICIES:
            raise ValueError(f"no built-in player {pol}")
        self._enter()
        try:
            if self.st.phase == PH_OVER:
                raise ValueError("the game is over")
            extract_view(&self.st, self.st.current, &v)
            # as choose(): Ctrl-C stops a lookahead decision (it could run for minutes,
            # uninterruptible, and a stop was reported as a RuntimeError)
            _watch_interrupts()
            with self.lock:
                with nogil:
                    r = policy_draw(pol, &v, &p, &self.rng) if self.st.phase == PH_DRAW else policy_play(pol, &v, &p, &self.rng)
            return _policy_result(r, "state")
        finally:
            self._leave()

    def view(self, int seat):
        """What `seat` sees, as a dict of ints and lists (no hidden card)."""
        cdef KCView v
        cdef int q, c, k
        self._enter()
        try:
            if not 0 <= seat < self.st.n_players:
                raise ValueError(f"no seat {seat}")
            extract_view(&self.st, seat, &v)
            P = self.st.n_players
            return {
                "seat": seat, "players": P, "target": v.target, "max_turns": v.max_turns,
                "turn": v.turn, "phase": v.phase, "current": self.st.current,
                "hand": [v.hand[c] for c in range(NK)],
                "hand_sizes": [v.hand_sizes[q] for q in range(P)],
                "play_stacks": [[self.st.play_log[q * self.st.deck_n + k] for k in range(self.st.play_n[q])] for q in range(P)],
                "gift_stacks": [[self.st.gift_log[q][k] for k in range(__builtin_popcount(self.st.gifts[q]))] for q in range(P)],
                "crown_stacks": [[self.st.crown_log[q * self.st.deck_n + k] for k in range(self.st.crowns_n[q])] for q in range(P)],
                "discard_top": v.disc_top, "discard_size": v.disc_n, "draw_size": v.draw_n,
                "deck": [self.st.deck_counts[c] for c in range(NK)],
            }
        finally:
            self._leave()

    def state(self):
        """The whole state, hidden cards included (for tests and replays)."""
        cdef int q, k
        self._enter()
        try:
            P = self.st.n_players
            d = self.view(self.st.current if self.st.phase != PH_OVER else 0)
            del d["hand"], d["seat"]
            d["hands"] = [sorted(self.st.hand[q][k] for k in range(self.st.hand_n[q])) for q in range(P)]
            d["draw_pile"] = [self.st.draw[k] for k in range(self.st.draw_n)]
            d["discard_pile"] = [self.st.disc[k] for k in range(self.st.disc_n)]
            d["scores"] = [self.st.score[q] for q in range(P)]
            d["winner"] = self.st.winner
            d["ended"] = self.st.ended
            d["reshuffles"] = self.st.reshuffles
            return d
        finally:
            self._leave()

    def set_state(self, hands, play_stacks, gift_stacks, crown_stacks, draw_pile, discard_pile,
                  int current, int phase, int turn=0):
        """Replace the state (tests and analysis).  Every card list holds codes; the
        cards must be exactly the deck, and a seat to play must hold a card.  Raises
        ValueError if they are not."""
        cdef int q, c, k, P = self.st.n_players
        self._enter()
        try:
            counts = [0] * NK
            lists = [draw_pile, discard_pile]
            for group in (hands, play_stacks, gift_stacks, crown_stacks):
                if len(group) != P:
                    raise ValueError(f"give one list per seat ({P})")
                lists.extend(group)
            for lst in lists:
                for c in lst:
                    if not 0 <= c < NK:
                        raise ValueError(f"not a card code: {c!r}")
                    counts[c] += 1
            if counts != [self.st.deck_counts[c] for c in range(NK)]:
                raise ValueError("the cards given are not exactly the deck")
            if not 0 <= current < P or phase not in (PH_DRAW, PH_PLAY) or not 0 <= turn < self.st.max_turns:
                raise ValueError("bad current seat, phase or turn")
            if phase == PH_PLAY and len(hands[current]) == 0:
                # no play exists: the players answered an uninitialised number, an illegal
                # play or an error code (fill_view refuses the same view)
                raise ValueError(f"seat {current} is to play but holds no card")
            for q in range(P):
                if len(hands[q]) > HANDCAP - 1 or len(gift_stacks[q]) > 3:
                    raise ValueError(f"seat {q}: too many cards in hand or gifts")
                if len(hands[q]) != (HAND_SIZE + 1 if (q == current and phase == PH_PLAY) else HAND_SIZE):
                    pass  # hands may be short (late game); sizes are not forced
                if any(not is_gift(c) for c in gift_stacks[q]) or len(set(gift_stacks[q])) != len(gift_stacks[q]):
                    raise ValueError(f"seat {q}: a gifts stack holds distinct Gifts only")
                if any(not is_crown(c) for c in crown_stacks[q]):
                    raise ValueError(f"seat {q}: a crown stack holds Crowns only")
                if any(is_gift(c) or is_crown(c) for c in play_stacks[q]):
                    raise ValueError(f"seat {q}: a play stack holds no Gift or Crown")
            for q in range(MAXP):
                self.st.hand_n[q] = 0
                self.st.play_n[q] = 0
                self.st.play_top[q] = -1
                self.st.gifts[q] = 0
                self.st.score[q] = 0
                self.st.crowns_n[q] = 0
                for c in range(NK):
                    self.st.seat_counts[q][c] = 0
            for q in range(P):
                for c in hands[q]:
                    self.st.hand[q][self.st.hand_n[q]] = c
                    self.st.hand_n[q] += 1
                for c in play_stacks[q]:
                    push_play(&self.st, q, c)
                for c in gift_stacks[q]:
                    self.st.gift_log[q][__builtin_popcount(self.st.gifts[q])] = c
                    self.st.gifts[q] |= 1 << (c - GIFT0)
                    self.st.seat_counts[q][c] += 1
                for c in crown_stacks[q]:
                    self.st.crown_log[q * self.st.deck_n + self.st.crowns_n[q]] = c
                    self.st.crowns_n[q] += 1
                    self.st.score[q] += crown_points(c)
                    self.st.seat_counts[q][c] += 1
            self.st.draw_n = len(draw_pile)
            for k, c in enumerate(draw_pile):
                self.st.draw[k] = c
            self.st.disc_n = len(discard_pile)
            for k, c in enumerate(discard_pile):
                self.st.disc[k] = c
            self.st.current = current
            self.st.turn = turn
            self.st.winner = -1
            self.st.ended = END_NONE
            self.st.phase = phase
            if phase == PH_DRAW:
                begin_turn(&self.st)
        finally:
            self._leave()


cdef void fill_view(dict d, KCView* v, const int32_t[::1] seat_counts, const int32_t[::1] deck) except *:
    """A KCView from a view dict (SeatView.to_native()), checked so nothing can crash."""
    cdef int q, c, P
    P = d["players"]
    if not 2 <= P <= MAXP:
        raise ValueError("players must be 2..5")
    if seat_counts.shape[0] != MAXP * NK or deck.shape[0] != NK:
        raise ValueError("bad seat_counts or deck length")
    v.seat = d["seat"]
    v.n_players = P
    # counts and sizes are bounded (view_count) before C adds them up or adds to them:
    # near 2**31 their sums wrapped around (hand counts summing to a small hand, pile
    # sizes to the number of unseen cards, whose piles were then overrun: a crash)
    v.target = view_count(d["target"], "target", MAX_LIMIT)
    v.max_turns = view_count(d["max_turns"], "max_turns", MAX_LIMIT)
    v.turn = d["turn"]
    v.phase = d["phase"]
    if not 0 <= v.seat < P or v.phase not in (PH_DRAW, PH_PLAY) or v.target < 1 or v.max_turns < 1:
        raise ValueError("bad seat, phase, target or max_turns")
    if not 0 <= v.turn < v.max_turns:
        raise ValueError("bad turn")
    hand = d["hand"]
    if len(hand) != NK:
        raise ValueError("hand must give 28 counts")
    v.hand_n = 0
    for c in range(NK):
        v.hand[c] = view_count(hand[c], f"hand[{c}]", HANDCAP - 1)
        v.hand_n += v.hand[c]
    if v.hand_n > HANDCAP - 1 or (v.phase == PH_PLAY and v.hand_n == 0):
        raise ValueError("bad hand size")
    for key in ("hand_sizes", "play_top", "play_n", "gifts", "score"):
        if len(d[key]) != P:
            raise ValueError(f"{key} must give one entry per seat")
    for q in range(MAXP):
        if q < P:
            v.hand_sizes[q] = d["hand_sizes"][q]
            v.play_top[q] = d["play_top"][q]
            v.play_n[q] = view_count(d["play_n"][q], f"play_n[{q}]", MAX_DECK)
            v.gifts[q] = d["gifts"][q]
            v.score[q] = view_count(d["score"][q], f"score[{q}]", MAX_SCORE)
            if (not 0 <= v.hand_sizes[q] < HANDCAP or not -1 <= v.play_top[q] < NK
                    or (v.play_n[q] == 0) != (v.play_top[q] == -1) or not 0 <= v.gifts[q] < 8):
                raise ValueError(f"bad entries for seat {q}")
        else:
            v.hand_sizes[q] = 0
            v.play_top[q] = -1
            v.play_n[q] = 0
            v.gifts[q] = 0
            v.score[q] = 0
    v.disc_top = d["discard_top"]
    v.disc_n = view_count(d["discard_size"], "discard_size", MAX_DECK)
    v.draw_n = view_count(d["draw_size"], "draw_size", MAX_DECK)
    if not -1 <= v.disc_top < NK or (v.disc_n == 0) != (v.disc_top == -1):
        raise ValueError("bad discard or draw pile")
    for c in range(MAXP * NK):
        if not 0 <= seat_counts[c] <= MAX_DECK:
            raise PositionError(f"a view's seat_counts[{c}] (seat {c // NK}, card {c % NK}) must be"
                                f" 0..{MAX_DECK}, got {seat_counts[c]}")
    v.seat_counts = &seat_counts[0]
    v.deck_counts = &deck[0]
    check_deck(deck, P)


def legal_plays_view(dict d, const int32_t[::1] seat_counts, const int32_t[::1] deck):
    """Legal plays of the view's seat (play phase) from a view dict."""
    cdef KCView v
    cdef int out[MAXACT]
    fill_view(d, &v, seat_counts, deck)
    if v.phase != PH_PLAY:
        return []
    n = legal_plays(&v, out)
    return [out[i] for i in range(n)]


cdef int _policy_result(int r, str what) except -1:
    """`r`, a policy's or lookahead's result, when it is one (>= 0); else the exception its
    code means: Ctrl-C during a lookahead decision, an inconsistent `what` ("state" of an
    Engine, "view" given to choose()/lookahead), out of memory."""
    if r == LOOKAHEAD_INTERRUPTED:
        raise KeyboardInterrupt
    if r == -1:
        raise ValueError(f"the {what} is inconsistent: it shows more cards than the deck holds")
    if r < 0:
        raise MemoryError()
    return r


def choose(int pol, dict d, const int32_t[::1] seat_counts, const int32_t[::1] deck, gen,
           la=(64, 20, POL_AGGRESSIVE)):
    """A built-in player's choice from a view dict: a draw source (draw phase) or a play."""
    cdef KCView v
    cdef LAParams p
    cdef Rng r
    cdef int res
    fill_view(d, &v, seat_counts, deck)
    check_la(la, &p)
    if not 0 <= pol < N_POLICIES:
        raise ValueError(f"no built-in player {pol}")
    r.bg = get_bitgen(gen, "gen")
    r.s = 0
    _watch_interrupts()
    with bitgen_lock(gen, "gen"):   # numpy's rule for drawing without the GIL (see get_bitgen)
        with nogil:
            res = policy_draw(pol, &v, &p, &r) if v.phase == PH_DRAW else policy_play(pol, &v, &p, &r)
    return _policy_result(res, "view")


def play_games(int n_games, const int32_t[::1] deck_counts, int n_players, int target, int max_turns,
               const int8_t[:, ::1] seat_policies, gen, la,
               int8_t[::1] winner, int32_t[::1] turns, int16_t[:, ::1] scores, int32_t[::1] reshuffles,
               const uint32_t[::1] root=None, unsigned long long first_game=0):
    """Play `n_games` whole games with built-in players (the fast path).

    seat_policies[g, s] is the player id of seat s in game g.  Fills winner (-1: turn cap
    reached), turns, scores[g, s] and reshuffles.  Checks for Ctrl-C after every game,
    and the lookahead player between its samples (KeyboardInterrupt).

    Randomness: with `root` (the uint32 words of a seed's entropy), game g has its own
    stream, the one ``Generator(PCG64(SeedSequence([*root, first_game + g])))`` gives
    (`gen` is then unused); without it, all games draw from `gen` in turn.
    """
    cdef KCState st
    cdef Rng r
    cdef LAParams p
    cdef KCView v
    cdef int g, s, c, n = 0, a, pol
    cdef uint8_t* mem
    cdef crowns_bitgen_t own_bg
    cdef kc_pcg64 own_pcg
    cdef const uint32_t* root_p = NULL
    cdef int n_root = -1
    if root is not None:
        if root.shape[0] > MAX_ROOT_WORDS:
            raise ValueError(f"at most {MAX_ROOT_WORDS} root seed words, got {root.shape[0]}")
        n_root = root.shape[0]
        if n_root:
            root_p = &root[0]
    check_deck(deck_counts, n_players)
    check_la(la, &p)
    check_limits(target, max_turns)
    if n_games < 0:
        raise ValueError(f"n_games must be >= 0, got {n_games}")
    if (seat_policies.shape[0] < n_games or seat_policies.shape[1] != n_players or winner.shape[0] < n_games
            or turns.shape[0] < n_games or scores.shape[0] < n_games or scores.shape[1] != n_players
            or reshuffles.shape[0] < n_games):
        raise ValueError("output arrays have the wrong shape")
    for g in range(n_games):
        for s in range(n_players):
            if not 0 <= seat_policies[g, s] < N_POLICIES:
                raise ValueError(f"no built-in player {seat_policies[g, s]}")
    for c in range(NK):
        st.deck_counts[c] = deck_counts[c]
        n += deck_counts[c]
    st.deck_n = n
    st.n_players = n_players
    st.target = target
    st.max_turns = max_turns
    st.play_log = NULL
    st.crown_log = NULL
    mem = <uint8_t*>malloc(2 * <size_t>(n + 1))
    if mem == NULL:
        raise MemoryError()
    st.draw = mem
    st.disc = mem + (n + 1)
    r.bg = get_bitgen(gen, "gen") if n_root < 0 else &own_bg
    r.s = 0
    # one stream for every game: hold the generator's lock during each game (not between
    # games, where the Ctrl-C check may run a handler of the user's)
    lock = bitgen_lock(gen, "gen") if n_root < 0 else None
    _watch_interrupts()
    try:
        for g in range(n_games):
            if lock is not None:
                lock.acquire()
            try:
                with nogil:
                    if n_root >= 0:
                        seed_game(&own_bg, &own_pcg, root_p, n_root, first_game + <uint64_t>g)
                    deal(&st, &r)
                    while st.phase != PH_OVER:
                        pol = seat_policies[g, st.current]
                        if pol < 0 or pol >= N_POLICIES:
                            # checked above, but read here without the GIL: another thread
                            # wrote to the array meanwhile (never index the players by it)
                            a = POLICY_CHANGED
                            break
                        extract_view(&st, st.current, &v)
                        if st.phase == PH_DRAW:
                            a = policy_draw(pol, &v, &p, &r)
                            if a < 0:
                                break
                            apply_draw(&st, a, &r)
                            extract_view(&st, st.current, &v)
                        a = policy_play(pol, &v, &p, &r)
                        if a < 0:
                            break
                        apply_play(&st, a)
            finally:
                if lock is not None:
                    lock.release()
            if st.phase != PH_OVER:
                if a == LOOKAHEAD_INTERRUPTED:
                    raise KeyboardInterrupt   # Ctrl-C in the middle of a lookahead decision
                if a == POLICY_CHANGED:
                    raise ValueError(f"seat_policies[{g}, {st.current}] = {seat_policies[g, st.current]} is no"
                                     " built-in player; the array changed during the call (written by"
                                     " another thread?): it was checked before the games began")
                raise MemoryError("lookahead player out of memory")
            winner[g] = st.winner
            turns[g] = st.turn
            reshuffles[g] = st.reshuffles
            for s in range(n_players):
                scores[g, s] = st.score[s]
            PyErr_CheckSignals()          # Ctrl-C: raises KeyboardInterrupt
    finally:
        free(mem)
    return n_games


def lookahead_table(dict d, const int32_t[::1] seat_counts, const int32_t[::1] deck, gen, la):
    """The lookahead player's candidates from a view dict: a list of (candidate, mean
    value, advantage over the default, standard error, is_default)."""
    cdef KCView v
    cdef LAParams p
    cdef Rng r
    cdef int acts[MAXACT + 1]
    cdef double mean[MAXACT]
    cdef double adv[MAXACT]
    cdef double se[MAXACT]
    cdef int n
    fill_view(d, &v, seat_counts, deck)
    check_la(la, &p)
    r.bg = get_bitgen(gen, "gen")
    r.s = 0
    _watch_interrupts()
    with bitgen_lock(gen, "gen"):
        with nogil:
            n = lookahead_values(&v, &p, &r, acts, mean, adv, se)
    _policy_result(n, "view")
    return [(acts[i], mean[i], adv[i], se[i], i == acts[n]) for i in range(n)]
