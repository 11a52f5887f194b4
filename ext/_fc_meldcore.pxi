# Five Crowns exact meld solver core (RULES.md, Five Crowns, "Melds" and card values).
#
# Included (not cimported) by modules that need deadwood in their hot loops, so the
# functions inline.  A hand is given as counts per card code (56 codes: 11*suit + rank-3,
# joker 55), already validated by the Python layer.
#
# The model (each step is an exchange argument; docs/five_crowns_melds.md has the proofs
# in words, tests/test_five_crowns_melds.py checks it against literal brute force):
#  1. A card of the wild rank standing as itself does exactly what a wild in its place
#     would do, so every wild-rank card is treated as a wild; it only matters for the
#     all_wild_melds=false option (a meld of wilds only is then legal when one of them is
#     a wild-rank card, a book of that rank).
#  2. Once one meld holding a natural card exists, every further wild can join a meld
#     (books have no size limit; a run shorter than 11 grows; an 11-card run splits into
#     two runs and a wild repeats a rank across them).  So the deadwood is the value of
#     the natural cards left out, minimised over "natural arrangements" whose wild need
#     fits the wilds held: a book of b naturals needs max(0, 3 - b) wilds; a run needs one
#     wild per gap plus padding up to 3 cards.  A hand with no natural meld leaves every
#     wild in hand unless 3 or more of them form a meld of wilds only.
#  3. A book of one natural is worth no more than a run of that card (both need 2 wilds),
#     so books hold 0 or >= 2 naturals.  Within a suit, a run whose lowest natural is at
#     rank a and highest at e takes one copy of every natural between them (a card left
#     elsewhere could swap places with the run's wild), so the best runs of one suit's
#     natural cards, for each number of wilds, come from a recursion over the lowest card:
#     a table FC_T over all 3^11 suit patterns (0..2 copies of each rank), 10 wild levels.
#  4. The search enumerates the natural cards put into books, rank by rank (only ranks
#     with 2+ cards that could make a book), and at each leaf shares the remaining wilds
#     among the five suits' runs by a small knapsack over the table's rows.  Cards that fit
#     no meld at all are set aside first; cards that fit no run join their rank's book
#     whenever it exists.  Branch and bound: the search stops as soon as every natural
#     card that can meld is melded.
#
# Everything here is noexcept nogil and uses bounded fixed-size storage.

from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil

cdef enum:
    FC_POS = 11           # ranks 3..13 as positions 0..10
    FC_KW = 10            # wild levels 0..9 kept per suit pattern
    FC_NPAT = 177147      # 3 ** 11 suit patterns
    FC_JOKER = 55
    FC_NCODES = 56
    FC_MAXHAND = 14

cdef uint8_t FC_T[FC_NPAT][FC_KW]   # best run value of a suit pattern with <= k wilds
cdef int32_t FC_POW3[FC_POS + 1]
cdef bint FC_READY = False


cdef void fc_build_table() noexcept nogil:
    """Fill FC_T for every suit pattern, smallest index first (sub-patterns come earlier)."""
    cdef int p, k, a, e, x, need, val, present, span, cand, sub
    cdef int idx
    cdef uint8_t cnt[FC_POS]
    FC_POW3[0] = 1
    for p in range(1, FC_POS + 1):
        FC_POW3[p] = FC_POW3[p - 1] * 3
    memset(cnt, 0, sizeof(cnt))
    memset(FC_T[0], 0, FC_KW)
    for idx in range(1, FC_NPAT):
        # odometer: cnt = base-3 digits of idx
        p = 0
        while cnt[p] == 2:
            cnt[p] = 0
            p += 1
        cnt[p] += 1
        a = 0
        while cnt[a] == 0:
            a += 1
        # leave one copy of the lowest card
        memcpy(FC_T[idx], FC_T[idx - FC_POW3[a]], FC_KW)
        # or start a run at a and end it at a natural e >= a
        for e in range(a, FC_POS):
            if cnt[e] == 0:
                continue
            sub = idx
            val = 0
            present = 0
            for x in range(a, e + 1):
                if cnt[x]:
                    sub -= FC_POW3[x]
                    val += x + 3
                    present += 1
            span = e - a + 1
            need = span - present if span >= 3 else 3 - present
            for k in range(need, FC_KW):
                cand = val + FC_T[sub][k - need]
                if cand > FC_T[idx][k]:
                    FC_T[idx][k] = <uint8_t>cand


cdef void fc_suit_vec(uint8_t* cnt, uint8_t* out) noexcept nogil:
    """Best run value of a suit's counts (any number of copies) for k = 0..FC_KW-1 wilds.

    Patterns with at most 2 copies of each rank are read from FC_T; others (two card
    sets) follow the same recursion down to patterns the table holds.
    """
    cdef int p, idx = 0, big = 0, a = -1, e, x, k, need, val, present, span, cand
    cdef uint8_t sub[FC_KW]
    cdef uint8_t took[FC_POS]
    for p in range(FC_POS):
        if cnt[p] > 2:
            big = 1
        idx += (cnt[p] if cnt[p] <= 2 else 0) * FC_POW3[p]
        if a < 0 and cnt[p]:
            a = p
    if not big:
        memcpy(out, FC_T[idx], FC_KW)
        return
    cnt[a] -= 1
    fc_suit_vec(cnt, out)
    cnt[a] += 1
    for e in range(a, FC_POS):
        if cnt[e] == 0:
            continue
        val = 0
        present = 0
        for x in range(a, e + 1):
            took[x] = cnt[x] > 0
            if took[x]:
                cnt[x] -= 1
                val += x + 3
                present += 1
        span = e - a + 1
        need = span - present if span >= 3 else 3 - present
        if need < FC_KW:
            fc_suit_vec(cnt, sub)
            for k in range(need, FC_KW):
                cand = val + sub[k - need]
                if cand > out[k]:
                    out[k] = <uint8_t>cand
        for x in range(a, e + 1):
            cnt[x] += took[x]


ctypedef struct FcState:
    int W                          # wilds held (jokers + wild-rank cards)
    int v                          # wild-rank cards among them
    int j                          # jokers
    int V                          # value of the natural (non-wild) cards
    int D0                         # value of natural cards that fit no meld at all
    uint8_t live[5][FC_POS]        # cards that can be in a run, by suit and rank (mutated)
    uint8_t dead[5][FC_POS]        # cards that fit a book of their rank but no run
    int idx[5]                     # base-3 index of live[s] (valid when ovf[s] == 0)
    int ovf[5]                     # ranks of suit s with more than 2 copies (two sets)
    int nbr                        # ranks where a book is possible, and their list:
    int br[FC_POS]                 #   rank position
    int bdead[FC_POS]              #   run-less cards at it (they join any book of it)
    int fb[FC_POS + 1]             #   value of every card at list ranks i.. (a bound)
    int best                       # best melded natural value found
    int target                     # value of every natural that can meld: stop there
    int done
    int record                     # keep the best leaf's choices (for arrangements)
    uint8_t cur_b[FC_POS][5]       # live cards of list rank i in the book, by suit
    int8_t cur_on[FC_POS]          # book at list rank i taken
    uint8_t best_b[FC_POS][5]
    int8_t best_on[FC_POS]
    int best_k[5]                  # wilds used by each suit's runs in the best leaf


cdef inline void fc_set_count(FcState* st, int s, int p, int c) noexcept nogil:
    """Set live[s][p] = c, keeping idx[s] (ranks with <= 2 copies) and ovf[s] in step."""
    cdef int before = st.live[s][p]
    if before > 2:
        st.ovf[s] -= 1
    else:
        st.idx[s] -= before * FC_POW3[p]
    if c > 2:
        st.ovf[s] += 1
    else:
        st.idx[s] += c * FC_POW3[p]
    st.live[s][p] = <uint8_t>c


cdef inline const uint8_t* fc_row(FcState* st, int s, uint8_t* buf) noexcept nogil:
    if st.ovf[s]:
        fc_suit_vec(st.live[s], buf)
        return buf
    return FC_T[st.idx[s]]


cdef void fc_leaf(FcState* st, int wrem, int bookval) noexcept nogil:
    cdef int rem = wrem if wrem < FC_KW - 1 else FC_KW - 1
    cdef int s, g = 0, k, kk, bestv, cand, total, base = bookval, ubg = 0
    cdef uint8_t bufs[5][FC_KW]
    cdef const uint8_t* rows[5]
    cdef int gs[5]
    cdef const uint8_t* row
    cdef int dp[6][FC_KW]
    for s in range(5):
        if st.idx[s] == 0 and st.ovf[s] == 0:
            continue
        row = fc_row(st, s, bufs[s])
        if row[rem] == row[0]:
            base += row[0]
        else:
            rows[g] = row
            gs[g] = s
            g += 1
            ubg += row[rem]
    if base + ubg <= st.best:
        return
    if g == 0:
        total = base
    elif g == 1:
        total = base + rows[0][rem]
    else:
        for k in range(rem + 1):
            dp[0][k] = 0
        for s in range(g):
            row = rows[s]
            for k in range(rem + 1):
                bestv = dp[s][k] + row[0]
                for kk in range(1, k + 1):
                    cand = dp[s][k - kk] + row[kk]
                    if cand > bestv:
                        bestv = cand
                dp[s + 1][k] = bestv
        total = base + dp[g][rem]
    if total <= st.best:
        return
    st.best = total
    if total >= st.target:
        st.done = 1
    if not st.record:
        return
    memcpy(st.best_b, st.cur_b, sizeof(st.cur_b))
    memcpy(st.best_on, st.cur_on, sizeof(st.cur_on))
    for s in range(5):
        st.best_k[s] = 0
    if g == 1:
        k = 0
        while rows[0][k] != rows[0][rem]:
            k += 1
        st.best_k[gs[0]] = k
    elif g > 1:
        k = rem
        for s in range(g - 1, -1, -1):
            row = rows[s]
            for kk in range(k + 1):
                if dp[s][k - kk] + row[kk] == dp[s + 1][k]:
                    break
            st.best_k[gs[s]] = kk
            k -= kk


cdef void fc_dfs(FcState* st, int i, int wrem, int bookval) noexcept nogil:
    cdef int s, p, d, m, combos, c, q, B, need, ub, rem, b
    cdef int ss[5]
    cdef int caps[5]
    cdef uint8_t buf[FC_KW]
    if st.done:
        return
    if i == st.nbr:
        fc_leaf(st, wrem, bookval)
        return
    rem = wrem if wrem < FC_KW - 1 else FC_KW - 1
    ub = bookval + st.fb[i]
    for s in range(5):
        if st.idx[s] or st.ovf[s]:
            ub += fc_row(st, s, buf)[rem]
    if ub <= st.best:
        return
    p = st.br[i]
    d = st.bdead[i]
    m = 0
    combos = 1
    for s in range(5):
        st.cur_b[i][s] = 0
        if st.live[s][p]:
            ss[m] = s
            caps[m] = st.live[s][p]
            combos *= caps[m] + 1
            m += 1
    st.cur_on[i] = 1
    for c in range(combos):
        # the largest book first: digit q of combo c counts down from the cap
        q = c
        B = d
        for s in range(m):
            b = caps[s] - q % (caps[s] + 1)
            q //= caps[s] + 1
            st.cur_b[i][ss[s]] = <uint8_t>b
            B += b
        if B < 2:
            continue
        need = 3 - B if B < 3 else 0
        if need > wrem:
            continue
        for s in range(m):
            b = st.cur_b[i][ss[s]]
            if b:
                fc_set_count(st, ss[s], p, st.live[ss[s]][p] - b)
        fc_dfs(st, i + 1, wrem - need, bookval + B * (p + 3))
        for s in range(m):
            b = st.cur_b[i][ss[s]]
            if b:
                fc_set_count(st, ss[s], p, st.live[ss[s]][p] + b)
        if st.done:
            return
    # no book at this rank (its run-less cards stay in hand); pointless with 3+ of them
    if d < 3:
        st.cur_on[i] = 0
        for s in range(m):
            st.cur_b[i][ss[s]] = 0
        fc_dfs(st, i + 1, wrem, bookval)


cdef int fc_setup(FcState* st, const uint8_t* counts, int wild) noexcept nogil:
    """Split a hand into wilds, run-capable, book-only and hopeless natural cards.

    Returns the number of natural (non-wild) cards.
    """
    cdef int wp = wild - 3, s, p, x, n = 0, lo, hi, live, W, c
    cdef int rc[FC_POS]
    cdef unsigned int mask[5]
    st.j = counts[FC_JOKER]
    st.v = 0
    st.V = 0
    st.D0 = 0
    for s in range(5):
        st.v += counts[11 * s + wp]
        mask[s] = 0
        for p in range(FC_POS):
            c = counts[11 * s + p] if p != wp else 0
            st.live[s][p] = <uint8_t>c
            st.dead[s][p] = 0
            if c:
                mask[s] |= 1u << p
                n += c
                st.V += c * (p + 3)
    W = st.v + st.j
    st.W = W
    for p in range(FC_POS):
        rc[p] = 0
        for s in range(5):
            rc[p] += st.live[s][p]
    st.nbr = 0
    for s in range(5):
        st.idx[s] = 0
        st.ovf[s] = 0
        for p in range(FC_POS):
            c = st.live[s][p]
            if not c:
                continue
            live = W >= 2
            if not live:
                lo = p - 2 if p >= 2 else 0
                hi = p if p <= FC_POS - 3 else FC_POS - 3
                for x in range(lo, hi + 1):
                    if __builtin_popcount((mask[s] >> x) & 7u) >= 3 - W:
                        live = 1
                        break
            if live:
                st.idx[s] += (c if c <= 2 else 0) * FC_POW3[p]
                if c > 2:
                    st.ovf[s] += 1
            else:
                st.live[s][p] = 0
                if rc[p] + W >= 3:
                    st.dead[s][p] = <uint8_t>c
                else:
                    st.D0 += c * (p + 3)
    for p in range(FC_POS):
        if rc[p] >= 2 and rc[p] + W >= 3:
            st.br[st.nbr] = p
            st.bdead[st.nbr] = 0
            for s in range(5):
                st.bdead[st.nbr] += st.dead[s][p]
            st.nbr += 1
    st.fb[st.nbr] = 0
    for x in range(st.nbr - 1, -1, -1):
        st.fb[x] = st.fb[x + 1] + rc[st.br[x]] * (st.br[x] + 3)
    return n


cdef int fc_melded(FcState* st, int floor) noexcept nogil:
    """Best melded natural value; `floor` is a value already known reachable (or -1)."""
    st.best = floor
    st.target = st.V - st.D0
    st.done = 0
    fc_dfs(st, 0, st.W, 0)
    return st.best


cdef int fc_deadwood(const uint8_t* counts, int wild, int all_wild) noexcept nogil:
    """Exact minimum deadwood of a validated hand (counts per code), RULES.md."""
    cdef FcState st
    st.record = 0
    cdef int n = fc_setup(&st, counts, wild)
    if n == 0:
        if st.W == 0 or (st.W >= 3 and (all_wild or st.v >= 1)):
            return 0
        return 20 * st.v + 50 * st.j
    cdef int melded = fc_melded(&st, 0)
    if melded == 0:
        return st.V + 20 * st.v + 50 * st.j
    return st.V - melded


cdef bint fc_is_zero(const uint8_t* counts, int wild, int all_wild) noexcept nogil:
    """Whether a validated hand has deadwood 0 (faster than fc_deadwood(...) == 0)."""
    cdef FcState st
    st.record = 0
    cdef int n = fc_setup(&st, counts, wild)
    if n == 0:
        return st.W == 0 or (st.W >= 3 and (all_wild or st.v >= 1))
    if st.D0:
        return False
    return fc_melded(&st, st.V - 1) == st.V


cdef bint fc_can_go_out(uint8_t* counts, int wild, int all_wild) noexcept nogil:
    """Whether some card of a validated n+1-card hand can be discarded leaving deadwood 0.

    `counts` is modified during the call and restored.
    """
    cdef FcState st
    st.record = 0
    cdef int n = fc_setup(&st, counts, wild)
    cdef int s, p, ndead = 0, code = -1, c
    cdef bint ok
    # a card that fits no meld with every wild of the hand fits none after a discard
    for s in range(5):
        for p in range(FC_POS):
            if counts[11 * s + p] and not st.live[s][p] and not st.dead[s][p] and p != wild - 3:
                ndead += counts[11 * s + p]
                code = 11 * s + p
    if ndead >= 2:
        return False
    if ndead == 1:
        counts[code] -= 1
        ok = fc_is_zero(counts, wild, all_wild)
        counts[code] += 1
        return ok
    for c in range(FC_NCODES):
        if counts[c]:
            counts[c] -= 1
            ok = fc_is_zero(counts, wild, all_wild)
            counts[c] += 1
            if ok:
                return True
    return False
