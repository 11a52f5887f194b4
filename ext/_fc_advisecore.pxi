# Five Crowns discard advisor core (RULES.md, Five Crowns, "Which discard is best").
#
# Included after _fc_meldcore.pxi by the modules that rank discards: _fc_melds.pyx (the
# public rank_discards / should_take_discard) and _fc_game.pyx (the compiled game loop's
# advisor and tracker players), so both use the same search.  Everything is noexcept
# nogil except the two entry-point helpers fc_count_codes and fc_new_cache; the caller
# owns the cache of fc_discard_table (FC_CACHE_SIZE int16 entries, filled with -1 before
# each call).

from libc.stdlib cimport malloc

cdef enum:
    FC_CACHE_SIZE = (FC_MAXHAND + 1) * (FC_MAXHAND + 1) * FC_NCODES
    # the most a draw weight (copies of a card code still unseen: at most 12, the jokers
    # of two sets) may be: the two-draw sums multiply two weights and a deadwood (at
    # most 14 x 50) over 56 x 56 pairs of draws, which stays within int64 up to 2^20
    FC_MAX_WEIGHT = 1 << 20


cdef int fc_copy_unseen(const int64_t[::1] unseen, int64_t* out) except -1:
    """Copy `unseen` into out[56] and check the copy: ValueError unless it holds 56 draw
    weights, each 0..FC_MAX_WEIGHT, naming the first bad one (a negative weight was
    taken for 0 by some sums and counted by others, a wrong answer; a huge one
    overflowed them).  The search then reads the checked copy, never the caller's
    array, which another thread could change while the search runs without the GIL."""
    cdef int c
    if unseen.shape[0] != FC_NCODES:
        raise ValueError(f"unseen must have 56 entries, got {unseen.shape[0]}")
    for c in range(FC_NCODES):
        out[c] = unseen[c]
    for c in range(FC_NCODES):
        if not 0 <= out[c] <= FC_MAX_WEIGHT:
            from crowns_solver.five_crowns.cards import card_name
            raise ValueError(f"unseen[{c}] (card {card_name(c)}) is {out[c]}: a draw weight is a number"
                             f" of copies 0..{FC_MAX_WEIGHT}")
    return 0


cdef Py_ssize_t fc_count_codes(object codes, uint8_t* counts) except -1:
    """counts[code] = copies of each card code in `codes` (validated ints 0..55, checked
    again here so that no code writes outside counts); returns how many cards, which the
    callers check against their own limits."""
    cdef Py_ssize_t n = 0
    cdef int c
    memset(counts, 0, FC_NCODES)
    for obj in codes:
        c = obj
        if c < 0 or c >= FC_NCODES:
            raise ValueError(f"card code {c} outside 0..55")
        counts[c] += 1  # may wrap past 255 copies: then n is far above any caller's limit
        n += 1
    return n


cdef int16_t* fc_new_cache() except NULL:
    """A cache for fc_discard_table / fc_discard_outcomes: FC_CACHE_SIZE int16 entries, all
    -1 (empty); the caller frees it.  MemoryError when it cannot be allocated."""
    cdef int16_t* cache = <int16_t*>malloc(FC_CACHE_SIZE * sizeof(int16_t))
    if cache == NULL:
        raise MemoryError()
    memset(cache, 0xFF, FC_CACHE_SIZE * sizeof(int16_t))
    return cache


cdef inline int fc_distinct(const uint8_t* counts, int* cl) noexcept nogil:
    """The distinct card codes held in `counts`, ascending, into cl; returns how many."""
    cdef int nd = 0, c
    for c in range(FC_NCODES):
        if counts[c]:
            cl[nd] = c
            nd += 1
    return nd


cdef inline int fc_card_value(int c, int wild) noexcept nogil:
    """Points of card code c left in hand (RULES.md card values)."""
    if c == FC_JOKER:
        return 50
    if c % 11 + 3 == wild:
        return 20
    return c % 11 + 3


cdef int fc_after_draw(uint8_t* counts, int d, int wild, bint all_wild, int kept_dw) noexcept nogil:
    """The least deadwood of the n cards `counts` (deadwood kept_dw) plus card d after the
    best discard, 0 when the n + 1 cards go out.  `counts` is restored on return."""
    cdef int e, m = kept_dw, x, whole = -1
    if m == 0:
        return 0
    counts[d] += 1
    if fc_can_go_out(counts, wild, all_wild):
        m = 0
    for e in range(FC_NCODES if m > 0 else 0):
        if counts[e] == 0 or e == d:
            continue
        # removing e lowers the deadwood of the n + 1 cards by at most its value
        if whole < 0:
            whole = fc_deadwood(counts, wild, all_wild)
        if whole - fc_card_value(e, wild) >= m:
            continue
        counts[e] -= 1
        x = fc_deadwood(counts, wild, all_wild)
        counts[e] += 1
        if x < m:
            m = x
            if m == 0:
                break
    counts[d] -= 1
    return m


cdef bint fc_isolated(const uint8_t* counts, int d, int wild) noexcept nogil:
    """Whether natural card d can be in no meld of the cards `counts` plus d: fewer than 3
    cards of its rank even with every wild, and no 3 consecutive ranks of its suit around
    it that its suit's cards and the wilds could fill (the test the meld solver uses to
    set cards aside)."""
    cdef int wp = wild - 3, s = d // 11, p = d % 11, w, book = 1, x, q, present
    if d == FC_JOKER or p == wp:
        return False
    w = counts[FC_JOKER]
    for x in range(5):
        w += counts[11 * x + wp]
        book += counts[11 * x + p]
    if book + w >= 3:
        return False
    for x in range((p - 2 if p >= 2 else 0), (p if p <= FC_POS - 3 else FC_POS - 3) + 1):
        present = 0
        for q in range(x, x + 3):
            if q == p or (q != wp and counts[11 * s + q]):
                present += 1
        if present + w >= 3:
            return False
    return True


cdef int fc_drop_min(uint8_t* counts, int wild, bint all_wild) noexcept nogil:
    """The least deadwood of the cards `counts` less one of them (restored on return)."""
    cdef int e, x, best = 1 << 30
    for e in range(FC_NCODES):
        if counts[e]:
            counts[e] -= 1
            x = fc_deadwood(counts, wild, all_wild)
            counts[e] += 1
            if x < best:
                best = x
    return best


cdef int fc_outlook(uint8_t* counts, int wild, bint all_wild, const int64_t* unseen,
                    int kept_dw, int64_t* n_out, int64_t* total) noexcept nogil:
    """For a kept hand `counts` (n cards): over each draw d (weight unseen[d]), the least
    deadwood after discarding one of the n+1 cards.  Adds the weight of draws that go out
    to n_out and weight * deadwood to total.

    A card d that can be in no meld with these cards stays out of every arrangement, so
    after drawing it the best is min(kept_dw, least deadwood of the hand less one card +
    value(d)): that least deadwood is searched once, not once per such d."""
    cdef int d, m, drop = -1
    for d in range(FC_NCODES):
        if unseen[d] <= 0:
            continue
        if kept_dw > 0 and fc_isolated(counts, d, wild):
            if drop < 0:
                drop = fc_drop_min(counts, wild, all_wild)
            m = drop + fc_card_value(d, wild)
            if m > kept_dw:
                m = kept_dw
        else:
            m = fc_after_draw(counts, d, wild, all_wild, kept_dw)
        if m == 0:
            n_out[0] += unseen[d]
        total[0] += unseen[d] * m
    return 0


cdef int fc_discard_table(uint8_t* counts, int wild, bint all_wild, const int64_t* unseen,
                          int* codes, int nd, int16_t* cache, int32_t* kept_dw, int64_t* n_out,
                          int64_t* total) noexcept nogil:
    """For each distinct card codes[ci] of an n+1-card hand `counts`: kept_dw[ci], the
    deadwood of the other n cards; then over each draw d (weight unseen[d]) the least
    deadwood after the best next discard: n_out[ci] = weight of draws that go out,
    total[ci] = sum of weight * deadwood.  `counts` is restored on return."""
    cdef int ci, ei, c, e, d, m, x, key, lo, hi, whole, drop
    for ci in range(nd):
        c = codes[ci]
        counts[c] -= 1
        kept_dw[ci] = fc_deadwood(counts, wild, all_wild)
        drop = -1
        n_out[ci] = 0
        total[ci] = 0
        for d in range(FC_NCODES):
            if unseen[d] <= 0:
                continue
            m = kept_dw[ci]
            if m > 0 and fc_isolated(counts, d, wild):
                # d can join no meld: see fc_outlook
                if drop < 0:
                    drop = fc_drop_min(counts, wild, all_wild)
                if drop + fc_card_value(d, wild) < m:
                    m = drop + fc_card_value(d, wild)
            elif m > 0:
                counts[d] += 1
                if fc_can_go_out(counts, wild, all_wild):
                    m = 0
                whole = -1
                for ei in range(nd if m > 0 else 0):
                    e = codes[ei]
                    if counts[e] == 0 or e == d:
                        continue
                    # hand - c - e + d is the same multiset for (c, e) and (e, c)
                    lo = ci if ci < ei else ei
                    hi = ei if ci < ei else ci
                    key = (lo * (FC_MAXHAND + 1) + hi) * FC_NCODES + d
                    x = cache[key]
                    if x < 0:
                        # Bound: removing e lowers the deadwood of the n + 1 cards by at
                        # most e's value (e left over in the best arrangement), so e
                        # cannot beat m when deadwood(n + 1 cards) - value(e) >= m.
                        if whole < 0:
                            whole = fc_deadwood(counts, wild, all_wild)
                        if whole - fc_card_value(e, wild) >= m:
                            continue
                        counts[e] -= 1
                        x = fc_deadwood(counts, wild, all_wild)
                        counts[e] += 1
                        cache[key] = <int16_t>x
                    if x < m:
                        m = x
                        if m == 0:
                            break
                counts[d] -= 1
            if m == 0:
                n_out[ci] += unseen[d]
            total[ci] += unseen[d] * m
        counts[c] += 1
    return 0


cdef int fc_best_discard(uint8_t* counts, int wild, bint all_wild, const int64_t* unseen,
                         int64_t total, int* codes, int nd, const int* order, int16_t* cache,
                         int32_t* kept_dw, int64_t* n_out, int64_t* dsum) noexcept nogil:
    """The first row of fc_discard_table in rank_discards order, without finishing
    hopeless candidates: the discard of an n+1-card hand `counts` with the least expected
    deadwood after the next draw, then the most draws that go out, the least deadwood
    kept, the higher-valued card, a natural card before a joker, the lower code.

    codes[0..nd) are the distinct cards held, `order` a permutation of 0..nd (the order
    tried: a good candidate first makes the others stop sooner).  Every draw adds a
    non-negative amount to a candidate's sum, so a candidate stops as soon as its partial
    sum exceeds the best complete one.  `total` > 0 is the sum of unseen.  Returns the
    winner's index ci; kept_dw, n_out and dsum are complete for it."""
    cdef int oi, ci, ei, c, e, d, m, x, key, lo, hi, whole, best = -1, vb, vc, drop
    cdef bint dead
    for oi in range(nd):
        ci = order[oi]
        c = codes[ci]
        counts[c] -= 1
        kept_dw[ci] = fc_deadwood(counts, wild, all_wild)
        drop = -1
        n_out[ci] = 0
        dsum[ci] = 0
        dead = False
        for d in range(FC_NCODES):
            if unseen[d] <= 0:
                continue
            m = kept_dw[ci]
            if m > 0 and fc_isolated(counts, d, wild):
                # d can join no meld: see fc_outlook
                if drop < 0:
                    drop = fc_drop_min(counts, wild, all_wild)
                if drop + fc_card_value(d, wild) < m:
                    m = drop + fc_card_value(d, wild)
            elif m > 0:
                counts[d] += 1
                if fc_can_go_out(counts, wild, all_wild):
                    m = 0
                whole = -1
                for ei in range(nd if m > 0 else 0):
                    e = codes[ei]
                    if counts[e] == 0 or e == d:
                        continue
                    lo = ci if ci < ei else ei
                    hi = ei if ci < ei else ci
                    key = (lo * (FC_MAXHAND + 1) + hi) * FC_NCODES + d
                    x = cache[key]
                    if x < 0:
                        if whole < 0:
                            whole = fc_deadwood(counts, wild, all_wild)
                        if whole - fc_card_value(e, wild) >= m:
                            continue
                        counts[e] -= 1
                        x = fc_deadwood(counts, wild, all_wild)
                        counts[e] += 1
                        cache[key] = <int16_t>x
                    if x < m:
                        m = x
                        if m == 0:
                            break
                counts[d] -= 1
            if m == 0:
                n_out[ci] += unseen[d]
            dsum[ci] += unseen[d] * m
            if best >= 0 and dsum[ci] > dsum[best]:
                dead = True
                break
        counts[c] += 1
        if dead:
            continue
        if best < 0:
            best = ci
            continue
        if dsum[ci] != dsum[best]:
            if dsum[ci] < dsum[best]:
                best = ci
            continue
        if n_out[ci] != n_out[best]:
            if n_out[ci] > n_out[best]:
                best = ci
            continue
        if kept_dw[ci] != kept_dw[best]:
            if kept_dw[ci] < kept_dw[best]:
                best = ci
            continue
        vc = fc_card_value(c, wild)
        vb = fc_card_value(codes[best], wild)
        if vc != vb:
            if vc > vb:
                best = ci
            continue
        if (c == FC_JOKER) != (codes[best] == FC_JOKER):
            if codes[best] == FC_JOKER:
                best = ci
            continue
        if c < codes[best]:
            best = ci
    return best


cdef int fc_discard_outcomes(uint8_t* counts, int wild, bint all_wild, const int64_t* unseen,
                             int* codes, int nd, int16_t* cache, int32_t* kept_dw,
                             int16_t* best) noexcept nogil:
    """fc_discard_table's inner values: best[ci * FC_NCODES + d] = the least deadwood of
    the n + 1 cards (hand - codes[ci] + d) after the best discard (0 when they go out),
    for each candidate ci and each card d with unseen[d] > 0 (other entries -1)."""
    cdef int ci, ei, c, e, d, m, x, key, lo, hi, whole, drop
    for ci in range(nd):
        c = codes[ci]
        counts[c] -= 1
        kept_dw[ci] = fc_deadwood(counts, wild, all_wild)
        drop = -1
        for d in range(FC_NCODES):
            best[ci * FC_NCODES + d] = -1
            if unseen[d] <= 0:
                continue
            m = kept_dw[ci]
            if m > 0 and fc_isolated(counts, d, wild):
                # d can join no meld: see fc_outlook
                if drop < 0:
                    drop = fc_drop_min(counts, wild, all_wild)
                if drop + fc_card_value(d, wild) < m:
                    m = drop + fc_card_value(d, wild)
            elif m > 0:
                counts[d] += 1
                if fc_can_go_out(counts, wild, all_wild):
                    m = 0
                whole = -1
                for ei in range(nd if m > 0 else 0):
                    e = codes[ei]
                    if counts[e] == 0 or e == d:
                        continue
                    lo = ci if ci < ei else ei
                    hi = ei if ci < ei else ci
                    key = (lo * (FC_MAXHAND + 1) + hi) * FC_NCODES + d
                    x = cache[key]
                    if x < 0:
                        if whole < 0:
                            whole = fc_deadwood(counts, wild, all_wild)
                        if whole - fc_card_value(e, wild) >= m:
                            continue
                        counts[e] -= 1
                        x = fc_deadwood(counts, wild, all_wild)
                        counts[e] += 1
                        cache[key] = <int16_t>x
                    if x < m:
                        m = x
                        if m == 0:
                            break
                counts[d] -= 1
            best[ci * FC_NCODES + d] = <int16_t>m
        counts[c] += 1
    return 0


cdef int fc_two_step(uint8_t* counts, int wild, bint all_wild, int64_t* unseen, int64_t total,
                     const int16_t* row, int kept, int c, const int* index, int64_t* cache,
                     double alpha, double lam, double base, double bound,
                     int64_t* e2num, int64_t* s2num) noexcept nogil:
    """Two draws ahead for the n cards `counts` (X = the hand after discarding code c),
    deadwood `kept`, whose one-draw outcomes row[d] (least deadwood of X + d after the
    best discard, 0 when it goes out; a row of fc_discard_outcomes) are known.

    The first draw d1 (weight unseen[d1]) is followed by the discard leaving the least
    deadwood (the card drawn when it is one of those, else the lowest code); the second
    draw d2 comes from the unseen cards less that d1 (total - 1 of them) and is followed
    by the best discard.  e2num = the sum over (d1, d2) of weight x deadwood after both
    (0 once out), s2num = the weight of pairs that have not gone out by then; divided by
    total * (total - 1) they are an expectation and a probability.

    The hand after the first draw and discard is H - c - e1 + d1 for the n + 1 cards H;
    `cache` (FC_CACHE_SIZE pairs, -1 = empty; index[code] = position of code in H's
    distinct codes) keeps its second-draw sums, shared with the other candidates.
    Stops early, returning 1, as soon as base + (alpha * e2num + lam * s2num) /
    (total * (total - 1)) exceeds `bound` (every draw only adds to both); else returns 0.
    `counts` and `unseen` are restored; total >= 2."""
    cdef int d, d1, e, x, found, key, lo, hi
    cdef int64_t w1, base_dsum = 0, base_stay = 0, n2, s2, pairs = total * (total - 1)
    for d in range(FC_NCODES):
        if unseen[d] > 0:
            base_dsum += unseen[d] * row[d]
            if row[d] != 0:
                base_stay += unseen[d]
    # First the draws that do not help (cheap: the hand stays X), then the others: the
    # sums are the same in any order, and the big cheap terms first let a hopeless
    # candidate stop sooner.
    for d1 in range(FC_NCODES):
        if unseen[d1] > 0 and row[d1] == kept and kept > 0:
            # d1 does not help: discard it, X again, one copy of d1 fewer
            e2num[0] += unseen[d1] * (base_dsum - row[d1])
            s2num[0] += unseen[d1] * (base_stay - 1)
    if base + (alpha * <double>e2num[0] + lam * <double>s2num[0]) / <double>pairs > bound:
        return 1
    for d1 in range(FC_NCODES):
        w1 = unseen[d1]
        if w1 <= 0:
            continue
        if row[d1] == 0:  # out at the first draw
            continue
        if row[d1] == kept:  # counted above
            continue
        else:
            counts[d1] += 1
            found = -1
            for e in range(FC_NCODES):
                if counts[e] == 0 or e == d1:
                    continue
                counts[e] -= 1
                x = fc_deadwood(counts, wild, all_wild)
                if x == row[d1]:
                    found = e
                    break
                counts[e] += 1
            if found < 0:  # cannot happen (some discard reaches row[d1]); keep X
                counts[d1] -= 1
                n2 = 0
                s2 = 0
                unseen[d1] -= 1
                fc_outlook(counts, wild, all_wild, unseen, kept, &n2, &s2)
                unseen[d1] += 1
                counts[d1] += 1
            else:
                lo = index[c] if index[c] < index[found] else index[found]
                hi = index[found] if index[c] < index[found] else index[c]
                key = 2 * ((lo * (FC_MAXHAND + 1) + hi) * FC_NCODES + d1)
                if cache[key] >= 0:
                    n2 = cache[key]
                    s2 = cache[key + 1]
                else:
                    n2 = 0
                    s2 = 0
                    unseen[d1] -= 1
                    fc_outlook(counts, wild, all_wild, unseen, row[d1], &n2, &s2)
                    unseen[d1] += 1
                    cache[key] = n2
                    cache[key + 1] = s2
                counts[found] += 1
            counts[d1] -= 1
            e2num[0] += w1 * s2
            s2num[0] += w1 * (total - 1 - n2)
        if base + (alpha * <double>e2num[0] + lam * <double>s2num[0]) / <double>pairs > bound:
            return 1
    return 0
