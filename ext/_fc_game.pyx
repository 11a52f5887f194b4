# cython: language_level=3
"""Compiled Five Crowns round loop for the built-in computer players (private).

``crowns_solver.five_crowns.game`` drives it: for each round the Python side shuffles the
deck with the round's numpy generator (so decks come from exactly the same code as in the
Python engine), calls :func:`play_round`, and builds the round's record from what it
returns.  The loop follows ``game._Engine.play_round`` step by step: the same hand order,
the same tie-breaks, the same random draws from each seat's numpy generator (read through
its bit generator, as numpy's own Cython examples do), the same reshuffles (done by a
Python callback with the round's generator).  So both engines play identical games, which
tests/test_five_crowns_game.py checks record for record.

Policies here (codes in POLICY_CODES) are the built-in ones of players.py; each mirrors
the Python class of the same name and uses only what that seat may see.  The work runs
without the GIL; Ctrl-C is honoured every 1024 turns.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.ref cimport PyObject
from libc.stdlib cimport malloc, realloc, free

include "_fc_meldcore.pxi"
include "_fc_advisecore.pxi"
include "_numpy_bitgen.pxi"

cdef extern from *:
    const char* CROWNS_SOURCE_HASH

SOURCE_HASH = CROWNS_SOURCE_HASH.decode()

cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_ADVISOR = 2
    POL_TRACKER = 3
    MAXP = 14
    MAXDECK = 232
    NPARAM = 5
    SIGNAL_EVERY = 1024

#: Policy name -> code understood by play_round.
POLICY_CODES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "advisor": POL_ADVISOR, "tracker": POL_TRACKER}
#: Parameters per seat passed to play_round (unused ones are ignored).
N_PARAMS = NPARAM


# --------------------------------------------------------------------------- numpy draws
cdef inline double rng_random(crowns_bitgen_t* g) noexcept nogil:
    """numpy ``Generator.random()``: one double in [0, 1) from the bit generator."""
    return g.next_double(g.state)


cdef inline uint64_t rng_integers(crowns_bitgen_t* g, uint32_t k) noexcept nogil:
    """numpy ``Generator.integers(k)`` for 1 <= k < 2**32 (Lemire's method on 32-bit
    draws, as numpy's random_bounded_uint64_fill does for ranges below 2**32)."""
    cdef uint32_t rng = k - 1, rng_excl, leftover, threshold
    cdef uint64_t m
    if rng == 0:
        return 0
    rng_excl = rng + 1
    m = (<uint64_t>g.next_uint32(g.state)) * rng_excl
    leftover = <uint32_t>(m & 0xFFFFFFFFULL)
    if leftover < rng_excl:
        threshold = (0xFFFFFFFFU - rng) % rng_excl
        while leftover < threshold:
            m = (<uint64_t>g.next_uint32(g.state)) * rng_excl
            leftover = <uint32_t>(m & 0xFFFFFFFFULL)
    return m >> 32


#: the most draws integers_like_numpy returns (a list: 2**31 of them would take about 70 GB)
MAX_DRAWS = 1 << 20


def integers_like_numpy(generator, long long k, int count):
    """For tests: `count` draws of ``generator.integers(k)`` (1 <= k < 2**32) made the
    compiled way.  At most MAX_DRAWS of them (ValueError)."""
    cdef crowns_bitgen_t* g = get_bitgen(generator, "generator")
    if not 1 <= k < 2**32:
        raise ValueError("k must be 1 .. 2**32 - 1")
    if count > MAX_DRAWS:
        raise ValueError(f"integers_like_numpy gives at most {MAX_DRAWS} draws, got count={count}")
    return [rng_integers(g, <uint32_t>k) for _ in range(count)]


# --------------------------------------------------------------------------- the table
ctypedef struct Seat:
    int kind
    double param[NPARAM]
    crowns_bitgen_t* rng
    uint8_t hand[FC_MAXHAND + 2]    # in the order the Python engine keeps it
    int size
    uint8_t known[FC_NCODES]        # cards taken from the discard pile and still held
    uint8_t thrown[FC_NCODES]       # cards this seat discarded this round (public)
    uint8_t passed[FC_NCODES]       # face-up cards this seat left for a blind draw (public)
    uint8_t since[FC_NCODES]        # cards it drew blind since the last reshuffle (its own)
    int deadwood                    # of the n cards held between turns


ctypedef struct Table:
    int P                           # seats playing, in turn order 0..P-1
    int n, wild, all_wild, sets
    Seat seat[MAXP]
    uint8_t draw[MAXDECK]           # top = last
    int ndraw
    uint8_t disc[MAXDECK]           # top = last
    int ndisc
    uint8_t disc_cnt[FC_NCODES]     # the discard pile as counts
    uint8_t resh_cnt[FC_NCODES]     # the cards of the last reshuffle (public), as counts
    bint reshuffled                 # whether the draw pile was reshuffled this round
    int out                         # position that went out, or -1
    int16_t* cache                  # scratch of fc_discard_table
    int64_t* pairs                  # scratch of fc_two_step
    int kept[FC_NCODES]             # deadwood kept per discard of the hand after drawing
    int pre_card                    # kept[] already holds hand + pre_card (-1: no)
    int pre_discard                 # the tracker's discard, chosen at its draw (-1: none)
    int turns                       # turns played so far this round


cdef inline int card_value(int c, int wild) noexcept nogil:
    if c == FC_JOKER:
        return 50
    if c % 11 + 3 == wild:
        return 20
    return c % 11 + 3


cdef inline bint is_wild(int c, int wild) noexcept nogil:
    return c == FC_JOKER or c % 11 + 3 == wild


cdef inline void hand_counts(Seat* s, uint8_t* cnt) noexcept nogil:
    cdef int i
    memset(cnt, 0, FC_NCODES)
    for i in range(s.size):
        cnt[s.hand[i]] += 1


cdef void kept_table(Table* t, uint8_t* cnt, int* kept) noexcept nogil:
    """kept[c] = deadwood of cnt minus one c, for each code held (others -1)."""
    cdef int c
    for c in range(FC_NCODES):
        if cnt[c]:
            cnt[c] -= 1
            kept[c] = fc_deadwood(cnt, t.wild, t.all_wild)
            cnt[c] += 1
        else:
            kept[c] = -1


cdef int min_kept(int* kept) noexcept nogil:
    cdef int c, m = 1 << 30
    for c in range(FC_NCODES):
        if kept[c] >= 0 and kept[c] < m:
            m = kept[c]
    return m


cdef int least_deadwood_discard(Table* t, int* kept) noexcept nogil:
    """players._least_deadwood_discard: the least deadwood kept; ties: a natural card
    before a wild, then the higher-valued card, then the lower code."""
    cdef int c, best = -1, v, bv = 0
    for c in range(FC_NCODES):
        if kept[c] < 0:
            continue
        v = card_value(c, t.wild)
        if best < 0 or kept[c] < kept[best] or (kept[c] == kept[best] and (
                (v >= 20) < (bv >= 20) or ((v >= 20) == (bv >= 20) and v > bv))):
            best = c
            bv = v
    return best


cdef int final_discard(Table* t, Seat* s) noexcept nogil:
    """game.last_turn_discard: on a last turn the engine discards the first card of the
    n + 1 held (in hand order) whose discard leaves the least deadwood (t.kept filled)."""
    cdef int i, m = min_kept(t.kept)
    for i in range(s.size):
        if t.kept[s.hand[i]] == m:
            return s.hand[i]
    return s.hand[s.size - 1]  # not reached: some card reaches the minimum


cdef bint last_turn_throws_back(Table* t, int pos, int top) noexcept nogil:
    """players._last_turn_throws_back: on a last turn, whether taking `top` (t.kept holds
    the hand plus top) leads the engine to discard that same card."""
    cdef Seat* s = &t.seat[pos]
    cdef int d
    s.hand[s.size] = <uint8_t>top
    s.size += 1
    d = final_discard(t, s)
    s.size -= 1
    return d == top


cdef inline bint discard_joins(Table* t, int pos) noexcept nogil:
    """SeatView.discard_joins_pool: in its discard phase, the card seat `pos` discards
    joins the pool of its next draw (one card left in the draw pile, another seat draws
    it first, and the draw after reshuffles the discard pile with that card in it)."""
    return t.seat[pos].size > t.n and t.ndraw == 1 and t.P > 1


cdef void unseen_counts(Table* t, int pos, int64_t* unseen, int64_t* total) noexcept nogil:
    """The cards seat `pos`'s next blind draw can come from (SeatView.draw_pool): those it
    has not seen (the full set(s) minus its hand, the discard pile and the cards others
    are known to hold), each capped after a reshuffle at its copies reshuffled less the
    ones this seat drew blind since; with an empty draw pile, the discard pile (under its
    top card in the draw phase, when the seat holds n cards); in the discard phase with
    one card left (discard_joins), the discard pile, which the seat's discard joins (the
    caller adds it per candidate)."""
    cdef int c, q, i, cap
    cdef Seat* s = &t.seat[pos]
    total[0] = 0
    if t.ndraw == 0 or discard_joins(t, pos):
        for c in range(FC_NCODES):
            unseen[c] = t.disc_cnt[c]
        if s.size <= t.n and t.ndisc > 0:
            unseen[t.disc[t.ndisc - 1]] -= 1
    else:
        for c in range(FC_NCODES):
            unseen[c] = (6 if c == FC_JOKER else 2) * t.sets - t.disc_cnt[c]
            for q in range(t.P):
                if q != pos:
                    unseen[c] -= t.seat[q].known[c]
        for i in range(s.size):
            unseen[s.hand[i]] -= 1
        if t.reshuffled:
            for c in range(FC_NCODES):
                cap = t.resh_cnt[c] - s.since[c]
                if unseen[c] > cap:
                    unseen[c] = cap
    for c in range(FC_NCODES):
        total[0] += unseen[c]


# --------------------------------------------------------------------------- policies
cdef bint greedy_draw(Table* t, int pos) noexcept nogil:
    """GreedyPolicy.choose_draw: a card that lowers the deadwood, or a wild it would keep
    (its least-deadwood discard after taking it is not that card); on a last turn not a
    card the engine's discard would throw back."""
    cdef Seat* s = &t.seat[pos]
    cdef uint8_t cnt[FC_NCODES]
    cdef int top = t.disc[t.ndisc - 1]
    cdef bint take
    hand_counts(s, cnt)
    cnt[top] += 1
    kept_table(t, cnt, t.kept)
    t.pre_card = top
    if is_wild(top, t.wild):
        take = least_deadwood_discard(t, t.kept) != top
    else:
        take = min_kept(t.kept) < s.deadwood
    if take and t.out >= 0 and last_turn_throws_back(t, pos, top):
        return False
    return take


cdef bint advisor_compare(Table* t, int pos) noexcept nogil:
    """TakeAdvice.beats_draw: the face-up card leaves less deadwood than a blind draw is
    expected to (exact): it goes out now while some blind draw would not, or it leaves
    less.  Both going out for sure (a hand already out) is a tie: draw blind.  Fills
    t.kept for the hand plus that card."""
    cdef Seat* s = &t.seat[pos]
    cdef uint8_t cnt[FC_NCODES]
    cdef int64_t unseen[FC_NCODES]
    cdef int64_t total, n_out = 0, dsum = 0
    cdef int top = t.disc[t.ndisc - 1], take_dw
    hand_counts(s, cnt)
    cnt[top] += 1
    kept_table(t, cnt, t.kept)
    t.pre_card = top
    take_dw = min_kept(t.kept)
    unseen_counts(t, pos, unseen, &total)
    if total == 0:
        return True
    if take_dw == 0:
        # goes out now: beats the draw unless every unseen card lets the hand go out too
        if s.deadwood == 0:   # a hand already out: any card drawn can be discarded
            return False
        cnt[top] -= 1
        fc_outlook(cnt, t.wild, t.all_wild, unseen, s.deadwood, &n_out, &dsum)
        return dsum > 0
    if take_dw >= s.deadwood:
        # a blind draw never ends above the deadwood held (it can discard the card
        # drawn), so its expectation is at most s.deadwood <= take_dw: draw blind
        return False
    cnt[top] -= 1
    fc_outlook(cnt, t.wild, t.all_wild, unseen, s.deadwood, &n_out, &dsum)
    return take_dw * total < dsum


cdef void take_top(Table* t, int pos, int top) noexcept nogil:
    """The position after seat `pos` takes the face-up card `top`, as run_round makes it
    (a what-if for the draw rules; put_back undoes it)."""
    cdef Seat* s = &t.seat[pos]
    s.hand[s.size] = <uint8_t>top
    s.size += 1
    t.ndisc -= 1
    t.disc_cnt[top] -= 1
    s.known[top] += 1


cdef void put_back(Table* t, int pos, int top) noexcept nogil:
    """Undo take_top."""
    cdef Seat* s = &t.seat[pos]
    s.known[top] -= 1
    t.disc_cnt[top] += 1
    t.ndisc += 1
    s.size -= 1


cdef bint advisor_draw(Table* t, int pos) noexcept nogil:
    """AdvisorPolicy.choose_draw: take the face-up card when it leaves less deadwood than
    a blind draw is expected to (exact; advisor_compare), unless the discard that
    follows (going out: the least deadwood; on a last turn: the engine's; else
    advisor_discard, which can be the card taken only when no unseen card is left) is
    that card."""
    cdef int top = t.disc[t.ndisc - 1], d
    cdef int64_t unseen[FC_NCODES]
    cdef int64_t total
    if not advisor_compare(t, pos):
        return False
    if t.out >= 0:
        return not last_turn_throws_back(t, pos, top)
    if min_kept(t.kept) == 0:
        return least_deadwood_discard(t, t.kept) != top
    unseen_counts(t, pos, unseen, &total)
    if total > 0 and not (t.ndraw == 1 and t.P > 1):
        # the card taken is never the advisor's discard (see AdvisorPolicy.choose_draw),
        # unless its next draw comes from another pool (one card left: discard_joins)
        return True
    take_top(t, pos, top)  # t.kept already holds this hand
    d = advisor_discard(t, pos)
    put_back(t, pos, top)
    return d != top


cdef int candidates(Table* t, int pos, uint8_t* cnt, int* cl, int* order) noexcept nogil:
    """The distinct cards of seat `pos`'s n + 1 cards: counts into cnt, codes ascending
    into cl; order = their indices by the deadwood kept (t.kept), least first.  Returns
    how many."""
    cdef int nd = 0, c, i, j, x
    hand_counts(&t.seat[pos], cnt)
    for c in range(FC_NCODES):
        if cnt[c]:
            cl[nd] = c
            order[nd] = nd
            nd += 1
    for i in range(1, nd):  # insertion sort, stable: ties keep code order
        x = order[i]
        j = i - 1
        while j >= 0 and t.kept[cl[order[j]]] > t.kept[cl[x]]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x
    return nd


cdef int advisor_discard(Table* t, int pos) noexcept nogil:
    """AdvisorPolicy.choose_discard when the seat cannot go out: the first choice of
    rank_discards (least expected deadwood after the next draw, then the best chance to
    go out then, then the least deadwood now, then the higher-valued card, a natural
    card before a joker, then the lower code)."""
    cdef uint8_t cnt[FC_NCODES]
    cdef int64_t unseen[FC_NCODES]
    cdef int64_t total
    cdef int cl[FC_MAXHAND + 1]
    cdef int order[FC_MAXHAND + 1]
    cdef int32_t kept[FC_MAXHAND + 1]
    cdef int64_t n_out[FC_MAXHAND + 1]
    cdef int64_t dsum[FC_MAXHAND + 1]
    cdef int nd, i
    nd = candidates(t, pos, cnt, cl, order)
    unseen_counts(t, pos, unseen, &total)
    if total == 0:  # nothing left to draw: rank by the deadwood kept, then value
        return least_kept_then_value(t, cl, nd)
    memset(t.cache, 0xFF, FC_CACHE_SIZE * sizeof(int16_t))
    i = fc_best_discard(cnt, t.wild, t.all_wild, unseen, total, cl, nd, order, t.cache, kept, n_out, dsum)
    return cl[i]


cdef int least_kept_then_value(Table* t, int* cl, int nd) noexcept nogil:
    """rank_discards order without a look-ahead: least deadwood kept, then the
    higher-valued card, a natural card before a joker, then the lower code."""
    cdef int i, best = 0, a, b, va, vb
    for i in range(1, nd):
        a = cl[i]
        b = cl[best]
        if t.kept[a] != t.kept[b]:
            if t.kept[a] < t.kept[b]:
                best = i
            continue
        va = card_value(a, t.wild)
        vb = card_value(b, t.wild)
        if va != vb:
            if va > vb:
                best = i
            continue
        if (a == FC_JOKER) != (b == FC_JOKER) and b == FC_JOKER:
            best = i
    return cl[best]


# ---- the tracker: two draws ahead, and a memory of what the next seat collects
#
# Parameters (TrackerPolicy._compiled_params, same order): feed_weight, lookahead,
# out_weight, candidates, margin.
#
# Feed chance: how likely a discard lets the next seat go out by taking it, estimated from
# advisor games (300 seeded 4-player games, 20178 discards; docs/five_crowns_game.md): a
# base rate per round size, times a factor for each public sign about the next seat.
cdef double FEED_BASE[14]
FEED_BASE[:] = [0.0, 0.0, 0.0, 0.21, 0.069, 0.028, 0.10, 0.064, 0.046, 0.10, 0.096, 0.068, 0.114, 0.114]
cdef enum:
    SIGN_BOOK = 0     # it holds a card of this rank taken from the discard pile
    SIGN_RUN = 1      # ... a card of this suit within two ranks
    SIGN_THREW = 2    # it discarded a card of this rank this round
    SIGN_PASSED = 3   # it drew blind rather than take a card of this rank
cdef double FEED_FACTOR[4]
FEED_FACTOR[:] = [7.7, 3.2, 0.45, 0.6]
cdef double FEED_WILD = 0.6


cdef double feed_chance(Table* t, int pos, int c) noexcept nogil:
    """Estimated probability that the next seat goes out by taking c (TrackerPolicy.feed)."""
    cdef int q = (pos + 1) % t.P, k, r, rk
    cdef bint sign[4]
    cdef Seat* nx = &t.seat[q]
    cdef double p
    if q == pos:
        return 0.0
    if is_wild(c, t.wild):
        return FEED_WILD
    r = c % 11
    sign[0] = sign[1] = sign[2] = sign[3] = False
    for k in range(FC_JOKER):
        if is_wild(k, t.wild):
            continue
        rk = k % 11
        if nx.known[k]:
            if rk == r:
                sign[SIGN_BOOK] = True
            elif k // 11 == c // 11 and rk - r <= 2 and r - rk <= 2:
                sign[SIGN_RUN] = True
        if rk == r and nx.thrown[k]:
            sign[SIGN_THREW] = True
        if rk == r and nx.passed[k]:
            sign[SIGN_PASSED] = True
    p = FEED_BASE[t.n]
    for k in range(4):
        if sign[k]:
            p = p * FEED_FACTOR[k]
    return p if p < 1.0 else 1.0


cdef int tracker_going_out(Table* t, int pos) noexcept nogil:
    """Going out: of the discards that go out, the one least likely to let the next seat
    go out on its last turn; ties as least_deadwood_discard."""
    cdef int c, best = -1
    cdef double pc, pb = 0
    for c in range(FC_NCODES):
        if t.kept[c] != 0:
            continue
        pc = feed_chance(t, pos, c)
        if best < 0 or pc < pb or (pc == pb and least_before(c, best, t.wild)):
            best = c
            pb = pc
    return best


cdef inline bint least_before(int a, int b, int wild) noexcept nogil:
    """least_deadwood_discard's tie order between two cards of equal kept deadwood: a
    natural card before a wild, then the higher value, then the lower code."""
    cdef int va = card_value(a, wild), vb = card_value(b, wild)
    if (va >= 20) != (vb >= 20):
        return va < 20
    if va != vb:
        return va > vb
    return a < b


cdef int tracker_discard(Table* t, int pos) noexcept nogil:
    """TrackerPolicy.choose_discard when the seat cannot go out (see players.py)."""
    cdef Seat* s = &t.seat[pos]
    cdef uint8_t cnt[FC_NCODES]
    cdef int64_t unseen[FC_NCODES]
    cdef int64_t total, dsum, e1num, e2num, s2num
    cdef int cl[FC_MAXHAND + 1]
    cdef int order[FC_MAXHAND + 1]
    cdef int index[FC_NCODES]
    cdef int32_t kept[FC_MAXHAND + 1]
    cdef int16_t rows[(FC_MAXHAND + 1) * FC_NCODES]
    cdef double first[FC_MAXHAND + 1]
    cdef double e1[FC_MAXHAND + 1]
    cdef double feed[FC_MAXHAND + 1]
    cdef double score, base, best_score = 0, tt, alpha = s.param[1], lam = s.param[2]
    cdef bint chosen[FC_MAXHAND + 1]
    cdef int picked[FC_MAXHAND + 1]
    cdef int nd, i, d, j, k, bi, best = -1, back
    cdef bint joins = discard_joins(t, pos)
    cdef int16_t* row
    nd = candidates(t, pos, cnt, cl, order)
    unseen_counts(t, pos, unseen, &total)
    if total + joins == 0:
        return least_kept_then_value(t, cl, nd)
    memset(t.cache, 0xFF, FC_CACHE_SIZE * sizeof(int16_t))
    fc_discard_outcomes(cnt, t.wild, t.all_wild, unseen, cl, nd, t.cache, kept, rows)
    if joins:
        # each candidate's own discard joins its pool (one more card); drawing it back
        # gives the hand as it is: its least deadwood after the best discard
        total += 1
        back = kept[0]
        for i in range(1, nd):
            if kept[i] < back:
                back = kept[i]
        for i in range(nd):
            rows[i * FC_NCODES + cl[i]] = <int16_t>back
    tt = <double>total * <double>total
    for i in range(nd):
        index[cl[i]] = i
        row = &rows[i * FC_NCODES]
        if joins:
            unseen[cl[i]] += 1
        dsum = 0
        for d in range(FC_NCODES):
            if unseen[d] > 0:
                dsum += unseen[d] * row[d]
        e1num = 0  # next draw: the better of a blind draw and the face-up card
        for d in range(FC_NCODES):
            if unseen[d] > 0:
                e1num += unseen[d] * (row[d] * total if row[d] * total < dsum else dsum)
        if joins:
            unseen[cl[i]] -= 1
        feed[i] = feed_chance(t, pos, cl[i])
        e1[i] = <double>e1num / tt
        first[i] = e1[i] + s.param[0] * feed[i]
        chosen[i] = False
    # the candidates for the two-draw look-ahead: the best `candidates` by the first
    # score, within `margin` points of the best one; a single one needs no look-ahead
    k = 0
    if total >= 2 and (alpha != 0 or lam != 0):
        while k < nd and k < <int>s.param[3]:
            bi = -1
            for i in range(nd):  # the next best by the first score (ties: less kept, lower code)
                if not chosen[i] and (bi < 0 or first[i] < first[bi] or (first[i] == first[bi] and kept[i] < kept[bi])):
                    bi = i
            if k > 0 and first[bi] > first[picked[0]] + s.param[4]:
                break
            chosen[bi] = True
            picked[k] = bi
            k += 1
    if k == 1:
        return cl[picked[0]]
    if k > 1:
        memset(t.pairs, 0xFF, 2 * FC_CACHE_SIZE * sizeof(int64_t))
    for j in range(k):
        bi = picked[j]
        e2num = 0
        s2num = 0
        base = (1.0 - alpha) * e1[bi] + s.param[0] * feed[bi]
        cnt[cl[bi]] -= 1
        if joins:
            # this candidate's own pool: the second-draw sums of another candidate's
            # pool cannot be shared
            unseen[cl[bi]] += 1
            memset(t.pairs, 0xFF, 2 * FC_CACHE_SIZE * sizeof(int64_t))
        i = fc_two_step(cnt, t.wild, t.all_wild, unseen, total, &rows[bi * FC_NCODES], kept[bi], cl[bi],
                        index, t.pairs, alpha, lam, base, best_score if best >= 0 else 1e300, &e2num, &s2num)
        if joins:
            unseen[cl[bi]] -= 1
        cnt[cl[bi]] += 1
        if i:
            continue  # stopped: cannot beat the best
        score = base + (alpha * <double>e2num + lam * <double>s2num) / (<double>total * <double>(total - 1))
        if best < 0 or score < best_score or (score == best_score and kept[bi] < kept[best]):
            best = bi
            best_score = score
    if best < 0:
        for i in range(nd):
            if best < 0 or first[i] < first[best] or (first[i] == first[best] and kept[i] < kept[best]):
                best = i
    return cl[best]


cdef bint tracker_draw(Table* t, int pos) noexcept nogil:
    """TrackerPolicy.choose_draw: the advisor's rule, but never a face-up card that its own
    discard rule (feed penalty included) would throw straight back.  The discard it would
    make after taking the card is left in t.pre_discard (the same position follows)."""
    cdef int top = t.disc[t.ndisc - 1], d
    if not advisor_compare(t, pos):
        return False
    if t.out >= 0:  # last turn: the engine's least-deadwood discard; is it the card taken?
        return not last_turn_throws_back(t, pos, top)
    # the position after taking it, as run_round makes it (t.kept already holds it)
    take_top(t, pos, top)
    d = tracker_going_out(t, pos) if min_kept(t.kept) == 0 else tracker_discard(t, pos)
    put_back(t, pos, top)
    if d == top:
        return False
    t.pre_discard = d
    return True


cdef bint choose_draw(Table* t, int pos) noexcept nogil:
    """True: take the top of the discard pile; False: draw blind."""
    cdef Seat* s = &t.seat[pos]
    if s.kind == POL_RANDOM:
        return rng_random(s.rng) < 0.5
    if s.kind == POL_GREEDY:
        return greedy_draw(t, pos)
    if s.kind == POL_TRACKER:
        return tracker_draw(t, pos)
    return advisor_draw(t, pos)


cdef int choose_discard(Table* t, int pos, bint can_out) noexcept nogil:
    """The card seat `pos` discards from its n + 1 cards (t.kept is filled)."""
    cdef Seat* s = &t.seat[pos]
    cdef int opts[FC_MAXHAND + 1]
    cdef int k = 0, c
    if s.kind == POL_RANDOM:
        if can_out:
            for c in range(FC_NCODES):
                if t.kept[c] == 0:
                    opts[k] = c
                    k += 1
            return opts[rng_integers(s.rng, <uint32_t>k)]
        return s.hand[rng_integers(s.rng, <uint32_t>s.size)]
    if s.kind == POL_TRACKER:
        if t.pre_discard >= 0:  # chosen at the draw, on this very position
            return t.pre_discard
        return tracker_going_out(t, pos) if can_out else tracker_discard(t, pos)
    if s.kind == POL_GREEDY or can_out:
        return least_deadwood_discard(t, t.kept)
    return advisor_discard(t, pos)


# --------------------------------------------------------------------------- the round
cdef int reshuffle(Table* t, PyObject* callback, PyObject* piles) except -1 nogil:
    """The discard pile except its top card becomes the new draw pile (shuffled by the
    Python callback with the round's generator, exactly as the Python engine does)."""
    cdef int i, m = t.ndisc - 1, top = t.disc[t.ndisc - 1]
    with gil:
        new = (<object>callback)([t.disc[i] for i in range(m)])
        if len(new) != m:
            raise RuntimeError("reshuffle returned a pile of the wrong size")
        (<object>piles).append(new)
        for i in range(m):
            if not 0 <= new[i] < FC_NCODES:
                raise ValueError(f"reshuffle returned {new[i]!r}, not a card code 0..55")
            t.draw[m - 1 - i] = <uint8_t>new[i]
    t.ndraw = m
    memcpy(t.resh_cnt, t.disc_cnt, FC_NCODES)
    t.resh_cnt[top] -= 1
    t.reshuffled = True
    for i in range(t.P):
        memset(t.seat[i].since, 0, FC_NCODES)
    memset(t.disc_cnt, 0, FC_NCODES)
    t.disc[0] = <uint8_t>top
    t.ndisc = 1
    t.disc_cnt[top] = 1
    return 0


cdef int run_round(Table* t, int max_turns, int32_t** log, int* nlog, int* reshuffles,
                   PyObject* callback, PyObject* piles) except -1 nogil:
    """The turn loop of game._Engine.play_round.  Appends one packed entry per turn to
    *log (seat position | source << 4 | card << 5 | discard << 11 | out << 17 |
    final << 18 | reshuffled << 19)."""
    cdef int idx = 0, pos, card, discard, i, cap = 256, m, entry, kept_dw
    cdef bint final, take, can_out, goes_out, shuffled
    cdef Seat* s
    cdef uint8_t cnt[FC_NCODES]
    cdef int32_t* buf
    log[0] = <int32_t*>malloc(cap * sizeof(int32_t))
    if log[0] == NULL:
        with gil:
            raise MemoryError()
    nlog[0] = 0
    while True:
        if t.out < 0 and nlog[0] >= max_turns:
            break
        if (nlog[0] & (SIGNAL_EVERY - 1)) == SIGNAL_EVERY - 1:
            with gil:
                PyErr_CheckSignals()
        pos = idx
        s = &t.seat[pos]
        final = t.out >= 0
        t.pre_card = -1
        t.pre_discard = -1
        take = choose_draw(t, pos)
        shuffled = False
        if not take and t.ndraw == 0:
            if t.ndisc > 1:
                reshuffle(t, callback, piles)
                reshuffles[0] += 1
                shuffled = True
            else:  # cannot happen with the allowed player counts
                take = True
        if take:
            t.ndisc -= 1
            card = t.disc[t.ndisc]
            t.disc_cnt[card] -= 1
            s.known[card] += 1
        else:
            if nlog[0] > 0:
                s.passed[(log[0][nlog[0] - 1] >> 11) & 63] += 1
            t.ndraw -= 1
            card = t.draw[t.ndraw]
            if t.reshuffled:
                s.since[card] += 1
        s.hand[s.size] = <uint8_t>card
        s.size += 1
        if not (take and t.pre_card == card):
            hand_counts(s, cnt)
            kept_table(t, cnt, t.kept)
        m = min_kept(t.kept)
        if final:
            for i in range(s.size):
                if t.kept[s.hand[i]] == m:
                    discard = s.hand[i]
                    break
            can_out = False
        else:
            can_out = m == 0
            discard = choose_discard(t, pos, can_out)
        kept_dw = t.kept[discard]
        goes_out = can_out
        for i in range(s.size):
            if s.hand[i] == discard:
                break
        s.size -= 1
        for i in range(i, s.size):
            s.hand[i] = s.hand[i + 1]
        t.disc[t.ndisc] = <uint8_t>discard
        t.ndisc += 1
        t.disc_cnt[discard] += 1
        if s.known[discard]:
            s.known[discard] -= 1
        s.thrown[discard] += 1
        s.deadwood = kept_dw
        if nlog[0] == cap:
            cap *= 2
            buf = <int32_t*>realloc(log[0], cap * sizeof(int32_t))
            if buf == NULL:
                with gil:
                    raise MemoryError()
            log[0] = buf
        entry = pos | (take << 4) | (card << 5) | (discard << 11) | (goes_out << 17) | (final << 18) | (shuffled << 19)
        log[0][nlog[0]] = entry
        nlog[0] += 1
        if goes_out:
            t.out = pos
        idx = (idx + 1) % t.P
        if t.out >= 0 and idx == t.out:
            break
    return 0


def play_round(deck, order, int cards, kinds, params, generators, reshuffle_pile, int max_turns,
               bint all_wild, int sets, names):
    """Play one round; the arguments are validated by the caller (game._CompiledEngine).

    Parameters
    ----------
    deck : list of int
        The shuffled deck, top first (all cards of `sets` sets).
    order : list of int
        Seats in turn order (the starter first).
    cards : int
        n, cards dealt to each seat (the wild rank too).
    kinds, params, generators : lists, one per seat in `order`
        Policy code (POLICY_CODES), its parameters (up to N_PARAMS floats), its numpy
        Generator.
    reshuffle_pile : callable(list of int) -> list of int
        The new draw pile (top first) made from the discard pile minus its top card.
    names : tuple of str
        Card name of each code, for the record.

    Returns
    -------
    (turns, out, scores, hands, reshuffles)
        The record's turn dicts; the seat that went out or None; [(seat, points)] in the
        order the Python engine scores them; {seat: [codes]} at the end; reshuffles.
    """
    global FC_READY
    cdef Table t
    cdef int P = len(order), i, j, pos, e, nlog = 0, reshuffles = 0
    cdef int32_t* log = NULL
    cdef Seat* s
    cdef uint8_t cnt[FC_NCODES]
    if not FC_READY:
        fc_build_table()
        FC_READY = True
    # the caller (game._CompiledEngine) validates all this; checked again here because the
    # table's arrays are fixed: more than MAXDECK cards, or a code outside 0..55, would be
    # written past their ends (three sets crashed the interpreter)
    if not 1 <= sets <= MAXDECK // 116:
        raise ValueError(f"play_round: {sets} card sets; the table holds 1 to {MAXDECK // 116}")
    if not 1 <= P <= MAXP or len(deck) != 116 * sets or not 3 <= cards <= 13 or P * cards + 1 > len(deck):
        raise ValueError("play_round: bad table")
    if len(kinds) != P or len(params) != P or len(generators) != P:
        raise ValueError("play_round: give one kind, parameter list and generator per seat")
    for c in deck:
        if not 0 <= c < FC_NCODES:
            raise ValueError(f"play_round: deck holds {c!r}, not a card code 0..55")
    for c in kinds:
        if not POL_RANDOM <= c <= POL_TRACKER:
            raise ValueError(f"play_round: no policy code {c!r}")
    t.P = P
    t.n = cards
    t.wild = cards
    t.all_wild = all_wild
    t.sets = sets
    t.out = -1
    t.reshuffled = False
    memset(t.resh_cnt, 0, FC_NCODES)
    for pos in range(P):
        t.seat[pos].kind = kinds[pos]
        t.seat[pos].rng = get_bitgen(generators[pos], f"generators[{pos}]")
        for j in range(NPARAM):
            t.seat[pos].param[j] = params[pos][j] if j < len(params[pos]) else 0.0
        t.seat[pos].size = 0
        memset(t.seat[pos].known, 0, FC_NCODES)
        memset(t.seat[pos].thrown, 0, FC_NCODES)
        memset(t.seat[pos].passed, 0, FC_NCODES)
        memset(t.seat[pos].since, 0, FC_NCODES)
    for i in range(P * cards):
        s = &t.seat[i % P]
        s.hand[s.size] = <uint8_t>deck[i]
        s.size += 1
    memset(t.disc_cnt, 0, FC_NCODES)
    t.disc[0] = <uint8_t>deck[P * cards]
    t.disc_cnt[t.disc[0]] = 1
    t.ndisc = 1
    t.ndraw = len(deck) - P * cards - 1
    for i in range(t.ndraw):
        t.draw[t.ndraw - 1 - i] = <uint8_t>deck[P * cards + 1 + i]
    for pos in range(P):
        hand_counts(&t.seat[pos], cnt)
        t.seat[pos].deadwood = fc_deadwood(cnt, cards, all_wild)
    t.cache = <int16_t*>malloc(FC_CACHE_SIZE * sizeof(int16_t))
    t.pairs = <int64_t*>malloc(2 * FC_CACHE_SIZE * sizeof(int64_t))
    if t.cache == NULL or t.pairs == NULL:
        free(t.cache)
        free(t.pairs)
        raise MemoryError()
    piles = []
    try:
        with nogil:
            run_round(&t, max_turns, &log, &nlog, &reshuffles, <PyObject*>reshuffle_pile, <PyObject*>piles)
        turns = []
        k = 0
        for i in range(nlog):
            e = log[i]
            d = {"seat": order[e & 15], "source": "discard" if (e >> 4) & 1 else "draw",
                 "card": names[(e >> 5) & 63], "discard": names[(e >> 11) & 63]}
            if (e >> 17) & 1:
                d["out"] = True
            if (e >> 18) & 1:
                d["final"] = True
            if (e >> 19) & 1:
                d["reshuffle"] = [names[c] for c in piles[k]]
                k += 1
            turns.append(d)
    finally:
        free(log)
        free(t.cache)
        free(t.pairs)
    if t.out >= 0:
        out = order[t.out]
        scores = [(out, 0)]
        for j in range(1, P):
            pos = (t.out + j) % P
            scores.append((order[pos], t.seat[pos].deadwood))
    else:
        out = None
        scores = [(order[pos], t.seat[pos].deadwood) for pos in range(P)]
    hands = {order[pos]: [t.seat[pos].hand[i] for i in range(t.seat[pos].size)] for pos in range(P)}
    return turns, out, scores, hands, reshuffles


# --------------------------------------------------------------------------- for players.py
def discard_outcomes(codes, int wild, bint all_wild, const int64_t[::1] unseen):
    """For each distinct card c of an n+1-card hand (validated codes): the deadwood of the
    other n cards, and for every card d the least deadwood of those n cards plus d after
    the best discard (0 when they go out; -1 where unseen[d] == 0).

    Returns ``(cards, kept, rows)``: distinct codes ascending, deadwood kept per card, and
    one row of 56 ints per card (TrackerPolicy's one-draw look-ahead)."""
    cdef uint8_t counts[FC_NCODES]
    cdef int cl[FC_MAXHAND + 1]
    cdef int32_t kept[FC_MAXHAND + 1]
    cdef int16_t rows[(FC_MAXHAND + 1) * FC_NCODES]
    cdef int64_t uns[FC_NCODES]
    cdef int nd, i
    cdef int16_t* cache
    _check(codes, wild, counts, unseen, uns)
    nd = fc_distinct(counts, cl)
    cache = fc_new_cache()
    try:
        with nogil:
            fc_discard_outcomes(counts, wild, all_wild, uns, cl, nd, cache, kept, rows)
    finally:
        free(cache)
    return ([cl[i] for i in range(nd)], [kept[i] for i in range(nd)],
            [[rows[i * FC_NCODES + c] for c in range(FC_NCODES)] for i in range(nd)])


def two_step(codes, int card, int wild, bint all_wild, const int64_t[::1] unseen, row, int kept):
    """Two draws ahead for an n+1-card hand `codes` less `card` (see fc_two_step), given
    that candidate's row of discard_outcomes and deadwood kept.  Returns (e2num, s2num):
    over pairs of draws, the weighted sum of the deadwood after both and the weight of
    pairs that have not gone out (divide by total * (total - 1))."""
    cdef uint8_t counts[FC_NCODES]
    cdef int16_t r[FC_NCODES]
    cdef int index[FC_NCODES]
    cdef int64_t uns[FC_NCODES]
    cdef int64_t total = 0, e2num = 0, s2num = 0
    cdef int c, nd = 0
    cdef int64_t* pairs
    _check(codes, wild, counts, unseen, uns)
    if not 0 <= card < FC_NCODES or counts[card] == 0:
        raise ValueError("card is not in the hand")
    if len(row) != FC_NCODES:
        raise ValueError("row must have 56 entries")
    for c in range(FC_NCODES):
        r[c] = row[c]
        total += uns[c]
        if counts[c]:
            index[c] = nd
            nd += 1
    if total < 2:
        raise ValueError("two draws need at least 2 unseen cards")
    pairs = <int64_t*>malloc(2 * FC_CACHE_SIZE * sizeof(int64_t))
    if pairs == NULL:
        raise MemoryError()
    try:
        with nogil:
            memset(pairs, 0xFF, 2 * FC_CACHE_SIZE * sizeof(int64_t))
            counts[card] -= 1
            fc_two_step(counts, wild, all_wild, uns, total, r, kept, card, index, pairs,
                        0.0, 0.0, 0.0, 1e300, &e2num, &s2num)
    finally:
        free(pairs)
    return e2num, s2num


cdef int _check(codes, int wild, uint8_t* counts, const int64_t[::1] unseen, int64_t* uns) except -1:
    """Counts of validated codes (at most 14), a wild rank 3..13, and uns[56]: the checked
    copy of the unseen counts 0..FC_MAX_WEIGHT (fc_copy_unseen)."""
    global FC_READY
    cdef Py_ssize_t n
    if wild < 3 or wild > 13:
        raise ValueError(f"wild rank {wild} outside 3..13")
    fc_copy_unseen(unseen, uns)
    n = fc_count_codes(codes, counts)
    if n < 1 or n > FC_MAXHAND:
        raise ValueError(f"{n} cards: expected 1 to {FC_MAXHAND}")
    if not FC_READY:
        fc_build_table()
        FC_READY = True
    return 0
