# Cross Kings hand scoring core (RULES.md, Cross Kings, "Scoring one hand").
#
# Included (not cimported) by every module that scores hands, so the hot functions
# inline into the search.  A hand is a 32-bit mask of natural cards, bit 8*suit + rank-1
# (suits S, H, D, C; ranks A=1..8), plus a count of Kings (0..4).
#
# Exact King placement.  Placing a King never lowers a hand's score (adding a card to a
# run or a set never lowers that group's value, even after its 1-point penalty), and a
# King outside every scoring group is worth nothing, so an optimal placement splits into
#   R: Kings inside scoring runs, chosen per suit from that suit's "useful" King sets
#      (sets whose run value beats every proper subset; precomputed for all 256 suit
#      masks), and
#   S: the remaining Kings, used only to grow sets (of ranks), whose best allocation over
#      ranks is a knapsack with at most 4 items, solved exactly per leaf.
# Enumerating R suit by suit and solving S exactly gives the optimum; it is checked
# against brute force over every placement in tests/test_cross_kings_score.py.

from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef enum:
    _CK_USE_MAX = 4096

cdef int8_t CK_RUN[256]         # run points of one suit's 8-bit mask, no Kings
cdef uint8_t CK_COV[256]        # cells of that mask inside runs of length >= 3
cdef uint64_t CK_SPREAD[256]    # bit i of a suit mask -> byte i (one byte per rank)
cdef uint16_t CK_USE_OFF[257]   # useful King sets of suit mask m: [OFF[m], OFF[m+1])
cdef uint8_t CK_USE_Q[_CK_USE_MAX]
cdef uint8_t CK_USE_N[_CK_USE_MAX]
cdef int8_t CK_USE_GAIN[_CK_USE_MAX]
cdef int8_t CK_BESTG[256][5]   # best run gain of suit mask m with at most b Kings
cdef int8_t CK_EXTRA[5][5][5]   # set gain of x more Kings on a rank holding c cards, j of them Kings

cdef uint64_t _CK_LO = 0x0101010101010101ULL


cdef inline int _ck_run_nokings(unsigned int m) noexcept nogil:
    # Runs of >= 3: t marks the start of every window of 3; a block of L has L-2 of them.
    cdef unsigned int t = m & (m >> 1) & (m >> 2)
    return 2 * __builtin_popcount(t) + __builtin_popcount(t & ~(t << 1))


cdef inline int _ck_cov(unsigned int m) noexcept nogil:
    cdef unsigned int t = m & (m >> 1) & (m >> 2)
    return (t | (t << 1) | (t << 2)) & 0xFF


cdef inline int ck_group(int n, int kings) noexcept nogil:
    return 2 * n - 3 - kings if n >= 3 else 0


cdef void ck_init_tables() noexcept nogil:
    cdef int m, q, sub, i, c, j, x, n, best, k
    cdef int gain[256]
    cdef int pos = 0
    for m in range(256):
        CK_RUN[m] = <int8_t>_ck_run_nokings(m)
        CK_COV[m] = <uint8_t>_ck_cov(m)
        CK_SPREAD[m] = 0
        for i in range(8):
            if m & (1 << i):
                CK_SPREAD[m] |= (<uint64_t>1) << (8 * i)
    for c in range(5):
        for j in range(5):
            for x in range(5):
                CK_EXTRA[c][j][x] = <int8_t>(ck_group(c + x, j + x) - ck_group(c, j))
    for m in range(256):
        CK_USE_OFF[m] = <uint16_t>pos
        # run gain of every King set q on the empty cells of m
        for q in range(256):
            gain[q] = -1
            if q & m:
                continue
            gain[q] = CK_RUN[m | q] - __builtin_popcount(CK_COV[m | q] & q) - CK_RUN[m]
        for n in range(1, 5):
            for q in range(256):
                if gain[q] < 0 or __builtin_popcount(q) != n:
                    continue
                best = -1
                for i in range(8):  # every maximal proper subset
                    if q & (1 << i):
                        sub = q & ~(1 << i)
                        if gain[sub] > best:
                            best = gain[sub]
                # run gain is monotone in q, so beating every maximal proper subset
                # means beating every proper subset
                if gain[q] > best:
                    CK_USE_Q[pos] = <uint8_t>q
                    CK_USE_N[pos] = <uint8_t>n
                    CK_USE_GAIN[pos] = <int8_t>gain[q]
                    pos += 1
    CK_USE_OFF[256] = <uint16_t>pos
    cdef uint8_t tq, tn
    cdef int8_t tg
    for m in range(256):  # best gain first, so the search finds a good incumbent early
        for i in range(CK_USE_OFF[m] + 1, CK_USE_OFF[m + 1]):
            k = i
            while k > CK_USE_OFF[m] and CK_USE_GAIN[k - 1] < CK_USE_GAIN[k]:
                tq = CK_USE_Q[k]; tn = CK_USE_N[k]; tg = CK_USE_GAIN[k]
                CK_USE_Q[k] = CK_USE_Q[k - 1]; CK_USE_N[k] = CK_USE_N[k - 1]
                CK_USE_GAIN[k] = CK_USE_GAIN[k - 1]
                CK_USE_Q[k - 1] = tq; CK_USE_N[k - 1] = tn; CK_USE_GAIN[k - 1] = tg
                k -= 1
    for m in range(256):
        for n in range(5):
            best = 0
            for i in range(CK_USE_OFF[m], CK_USE_OFF[m + 1]):
                if CK_USE_N[i] <= n and CK_USE_GAIN[i] > best:
                    best = CK_USE_GAIN[i]
            CK_BESTG[m][n] = <int8_t>best


cdef inline uint64_t ck_rank_counts(uint32_t m) noexcept nogil:
    """Cards per rank, one byte per rank."""
    return (CK_SPREAD[m & 0xFF] + CK_SPREAD[(m >> 8) & 0xFF]
            + CK_SPREAD[(m >> 16) & 0xFF] + CK_SPREAD[m >> 24])


cdef inline int ck_set_points(uint64_t C, uint64_t J) noexcept nogil:
    """Set points for per-rank card counts C, J of them placed Kings (bytes)."""
    cdef uint64_t ge3 = ((C + 0x0505050505050505ULL) >> 3) & _CK_LO
    cdef uint64_t M = ge3 * 0xFF
    cdef int sumc = <int>(((C & M) * _CK_LO) >> 56)
    cdef int pen = <int>(((J & M) * _CK_LO) >> 56)
    return 2 * sumc - 3 * __builtin_popcountll(ge3) - pen


cdef inline int ck_eval(uint32_t nat, uint32_t q) noexcept nogil:
    """Score of naturals `nat` with Kings standing for the cells of `q` (q & nat == 0)."""
    cdef uint32_t a = nat | q
    cdef int s, total = 0
    cdef unsigned int ms, qs
    for s in range(4):
        ms = (a >> (8 * s)) & 0xFF
        qs = (q >> (8 * s)) & 0xFF
        total += CK_RUN[ms] - __builtin_popcount(CK_COV[ms] & qs)
    return total + ck_set_points(ck_rank_counts(a), ck_rank_counts(q))


cdef inline int _ck_extra(uint64_t C, uint64_t J, int b) noexcept nogil:
    """Best set gain from b more Kings on empty cells, ranks chosen freely (knapsack)."""
    cdef int best[5]
    cdef int r, t, x, c, j, xmax, v
    for t in range(b + 1):
        best[t] = 0
    for r in range(8):
        c = (C >> (8 * r)) & 0xFF
        if c >= 4 or c + b < 3:
            continue
        j = (J >> (8 * r)) & 0xFF
        xmax = 4 - c
        t = b
        while t >= 1:
            x = 1
            while x <= xmax and x <= t:
                v = best[t - x] + CK_EXTRA[c][j][x]
                if v > best[t]:
                    best[t] = v
                x += 1
            t -= 1
    return best[b]


cdef struct _CkCtx:
    uint32_t nat
    int best
    int bsuf[5][5]   # bsuf[s][b]: best run gain of suits s.. with at most b Kings in all
    int runsuf[5]    # run points of suits s.. with no Kings


cdef void _ck_rec(_CkCtx* ctx, int s, int b, int runval, uint64_t C, uint64_t J) noexcept nogil:
    """Branch and bound over the run Kings of suit s onwards.

    runval: run points of suits < s; C, J: cards and placed Kings per rank (bytes).
    """
    cdef int v, i, setp
    cdef unsigned int ms
    cdef uint64_t sp
    setp = ck_set_points(C, J)
    if s == 4 or b == 0:
        v = runval + setp + ctx.runsuf[s]
        if b > 0:
            v += _ck_extra(C, J, b)
        if v > ctx.best:
            ctx.best = v
        return
    # upper bound: run gains of the remaining suits sharing b Kings, plus the best set
    # gain of b more Kings anywhere (run Kings can gain no more in sets than that)
    if runval + setp + ctx.runsuf[s] + ctx.bsuf[s][b] + _ck_extra(C, J, b) <= ctx.best:
        return
    ms = (ctx.nat >> (8 * s)) & 0xFF
    for i in range(CK_USE_OFF[ms], CK_USE_OFF[ms + 1]):
        if CK_USE_N[i] <= b:
            sp = CK_SPREAD[CK_USE_Q[i]]
            _ck_rec(ctx, s + 1, b - CK_USE_N[i], runval + CK_RUN[ms] + CK_USE_GAIN[i],
                    C + sp, J + sp)
    _ck_rec(ctx, s + 1, b, runval + CK_RUN[ms], C, J)


cdef inline int _ck_score1(uint32_t nat) noexcept nogil:
    """One King: the best single cell, run gain plus set gain (RULES.md scoring)."""
    cdef uint64_t C = ck_rank_counts(nat)
    cdef int s, r, total = 0, best = 0, v
    cdef unsigned int ms
    for s in range(4):
        ms = (nat >> (8 * s)) & 0xFF
        total += CK_RUN[ms]
        for r in range(8):
            if not (ms >> r) & 1:
                v = (CK_RUN[ms | (1u << r)] - ((CK_COV[ms | (1u << r)] >> r) & 1) - CK_RUN[ms]
                     + CK_EXTRA[(C >> (8 * r)) & 0xFF][0][1])
                if v > best:
                    best = v
    return total + ck_set_points(C, 0) + best


cdef inline int ck_score(uint32_t nat, int kings) noexcept nogil:
    """Exact score of a hand: natural-card mask plus a number of Kings (0..4)."""
    cdef int s, total
    if kings <= 0:
        total = 0
        for s in range(4):
            total += CK_RUN[(nat >> (8 * s)) & 0xFF]
        return total + ck_set_points(ck_rank_counts(nat), 0)
    cdef _CkCtx ctx
    cdef int b, x, best, v
    cdef unsigned int ms
    ctx.nat = nat
    ctx.best = -1
    for b in range(5):
        ctx.bsuf[4][b] = 0
    s = 3
    while s >= 0:
        ms = (nat >> (8 * s)) & 0xFF
        for b in range(5):
            best = 0
            for x in range(b + 1):
                v = CK_BESTG[ms][x] + ctx.bsuf[s + 1][b - x]
                if v > best:
                    best = v
            ctx.bsuf[s][b] = best
        s -= 1
    if kings == 1:
        return _ck_score1(nat)
    ctx.runsuf[4] = 0
    s = 3
    while s >= 0:
        ctx.runsuf[s] = ctx.runsuf[s + 1] + CK_RUN[(nat >> (8 * s)) & 0xFF]
        s -= 1
    _ck_rec(&ctx, 0, kings, 0, ck_rank_counts(nat), 0)
    return ctx.best
