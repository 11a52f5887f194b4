# Five Crowns discard advisor core (RULES.md, Five Crowns, "Which discard is best").
#
# Included after _fc_meldcore.pxi by the modules that rank discards: _fc_melds.pyx (the
# public rank_discards / should_take_discard) and _fc_game.pyx (the compiled game loop's
# advisor and tracker players), so both use the same search.  Everything is noexcept
# nogil; the caller owns the cache of fc_discard_table (FC_CACHE_SIZE int16 entries,
# filled with -1 before each call).

cdef enum:
    FC_CACHE_SIZE = (FC_MAXHAND + 1) * (FC_MAXHAND + 1) * FC_NCODES


cdef inline int fc_card_value(int c, int wild) noexcept nogil:
    """Points of card code c left in hand (RULES.md card values)."""
    if c == FC_JOKER:
        return 50
    if c % 11 + 3 == wild:
        return 20
    return c % 11 + 3


cdef int fc_outlook(uint8_t* counts, int wild, bint all_wild, const int64_t* unseen,
                    int kept_dw, int64_t* n_out, int64_t* total) noexcept nogil:
    """For a kept hand `counts` (n cards): over each draw d (weight unseen[d]), the least
    deadwood after discarding one of the n+1 cards.  Adds the weight of draws that go out
    to n_out and weight * deadwood to total."""
    cdef int d, e, m, x
    for d in range(FC_NCODES):
        if unseen[d] <= 0:
            continue
        m = kept_dw
        if m > 0:
            counts[d] += 1
            if fc_can_go_out(counts, wild, all_wild):
                m = 0
            for e in range(FC_NCODES if m > 0 else 0):
                if counts[e] == 0 or e == d:
                    continue
                counts[e] -= 1
                x = fc_deadwood(counts, wild, all_wild)
                counts[e] += 1
                if x < m:
                    m = x
                    if m == 0:
                        break
            counts[d] -= 1
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
    cdef int ci, ei, c, e, d, m, x, key, lo, hi, whole
    for ci in range(nd):
        c = codes[ci]
        counts[c] -= 1
        kept_dw[ci] = fc_deadwood(counts, wild, all_wild)
        n_out[ci] = 0
        total[ci] = 0
        for d in range(FC_NCODES):
            if unseen[d] <= 0:
                continue
            m = kept_dw[ci]
            if m > 0:
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


cdef inline double fc_score(int64_t dsum, int64_t stay, int64_t total, double lam, double pen) noexcept nogil:
    """Score of a discard, lower is better: (dsum + lam * stay) / total + pen, where stay
    is the weight of next draws that do not go out.  Monotone in dsum and stay."""
    return (<double>dsum + lam * <double>stay) / <double>total + pen


cdef int fc_best_discard(uint8_t* counts, int wild, bint all_wild, const int64_t* unseen,
                         int64_t total, int* codes, int nd, const int* order, int16_t* cache,
                         double lam, const double* pen, int32_t* kept_dw, int64_t* n_out,
                         int64_t* dsum, double* score) noexcept nogil:
    """The discard of an n+1-card hand `counts` with the least score (fc_score), looking
    one draw ahead as fc_discard_table does, without finishing hopeless candidates.

    codes[0..nd) are the distinct cards held, `order` a permutation of 0..nd (candidates
    in the order tried: a good one first makes the rest stop sooner), pen[ci] >= 0 a
    penalty per candidate, lam >= 0.  Every draw adds a non-negative amount to a
    candidate's score, so a candidate stops as soon as its partial score exceeds the
    best complete one; only the winner's row is then complete.  Ties are broken as
    rank_discards does: more draws that go out, less deadwood now, the higher-valued
    card, a natural before a joker, the lower code.  `total` > 0 is the sum of unseen.
    Returns the winner's index ci; kept_dw, n_out, dsum, score are filled for it."""
    cdef int oi, ci, ei, c, e, d, m, x, key, lo, hi, whole, best = -1, vb, vc
    cdef int64_t stay
    cdef bint dead
    for oi in range(nd):
        ci = order[oi]
        c = codes[ci]
        counts[c] -= 1
        kept_dw[ci] = fc_deadwood(counts, wild, all_wild)
        n_out[ci] = 0
        dsum[ci] = 0
        stay = 0
        dead = False
        for d in range(FC_NCODES):
            if unseen[d] <= 0:
                continue
            m = kept_dw[ci]
            if m > 0:
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
            else:
                stay += unseen[d]
            dsum[ci] += unseen[d] * m
            if best >= 0 and fc_score(dsum[ci], stay, total, lam, pen[ci]) > score[best]:
                dead = True
                break
        counts[c] += 1
        if dead:
            continue
        score[ci] = fc_score(dsum[ci], stay, total, lam, pen[ci])
        if best < 0:
            best = ci
            continue
        if score[ci] != score[best]:
            if score[ci] < score[best]:
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
