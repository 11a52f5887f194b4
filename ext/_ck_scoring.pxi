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
#      masks, ordered by size so that the sets of at most b Kings are a prefix), and
#   S: the remaining Kings, used only to grow sets (of ranks), whose best allocation over
#      ranks is a knapsack with at most 4 items, solved exactly per leaf.
# Enumerating R suit by suit (branch and bound) and solving S exactly gives the optimum.
#
# The bound is a relaxation in which every King is valued on its own: a run King at its
# suit's run gain plus a share of its rank's set gain, a set-only King at the share alone.
# The share CK_AP[c][j][b] (in twelfths of a point) is the most any one of x <= b Kings
# added to a rank holding c cards (j of them Kings) can claim of the set gain, so the
# shares of every King on a rank always cover that rank's real set gain: one King on a
# rank with two cards claims 2, and two Kings on a rank with one card claim 1/2 each.
# With one share per King the relaxation splits into independent suits joined by a
# knapsack over at most four Kings.  At the root it also yields a placement (its
# argmax), whose exact value is the first incumbent: that placement is optimal for about
# nine hands in ten, and for most of those the bound proves it at once.  Checked against
# brute force over every placement in tests/test_cross_kings_score.py, and during
# development against the previous (slower) branch and bound on 4.1 M hands with 2-4
# Kings taken from searches, and 400,000 random hands.

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
cdef uint16_t CK_USE_END[256][5]  # ... of at most b Kings: [OFF[m], END[m][b]) (sets ordered by size)
cdef uint8_t CK_USE_Q[_CK_USE_MAX]
cdef uint8_t CK_USE_N[_CK_USE_MAX]
cdef int8_t CK_USE_GAIN[_CK_USE_MAX]
cdef int8_t CK_EXTRA[5][5][5]   # set gain of x more Kings on a rank holding c cards, j of them Kings
cdef uint8_t CK_AP[5][5][5]     # a King's share (twelfths) of that gain, x <= b Kings: see above

cdef uint64_t _CK_LO = 0x0101010101010101ULL
cdef uint64_t _CK_HI = 0x8080808080808080ULL
cdef uint64_t CK_RG1[256]       # run gain of one King on each free rank of a suit mask (bytes)
cdef uint64_t CK_RGN[256]       # run gain of one natural card on each free rank of a suit mask (bytes)


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
    cdef int m, q, sub, i, c, j, x, n, best, k, b
    cdef int gain[256]
    cdef int pos = 0
    for m in range(256):
        CK_RUN[m] = <int8_t>_ck_run_nokings(m)
        CK_COV[m] = <uint8_t>_ck_cov(m)
        CK_SPREAD[m] = 0
        for i in range(8):
            if m & (1 << i):
                CK_SPREAD[m] |= (<uint64_t>1) << (8 * i)
    for m in range(256):
        CK_RG1[m] = 0
        CK_RGN[m] = 0
        for i in range(8):
            if not (m >> i) & 1:
                CK_RGN[m] |= (<uint64_t>(CK_RUN[m | (1 << i)] - CK_RUN[m])) << (8 * i)
                CK_RG1[m] |= (<uint64_t>(CK_RUN[m | (1 << i)] - ((CK_COV[m | (1 << i)] >> i) & 1)
                                         - CK_RUN[m])) << (8 * i)
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
    for m in range(256):
        # by size (so the sets of at most b Kings are a prefix), then best gain first (so
        # the search finds a good incumbent early)
        for i in range(CK_USE_OFF[m] + 1, CK_USE_OFF[m + 1]):
            k = i
            while k > CK_USE_OFF[m] and CK_USE_N[k - 1] == CK_USE_N[k] and CK_USE_GAIN[k - 1] < CK_USE_GAIN[k]:
                tq = CK_USE_Q[k]; tn = CK_USE_N[k]; tg = CK_USE_GAIN[k]
                CK_USE_Q[k] = CK_USE_Q[k - 1]; CK_USE_N[k] = CK_USE_N[k - 1]
                CK_USE_GAIN[k] = CK_USE_GAIN[k - 1]
                CK_USE_Q[k - 1] = tq; CK_USE_N[k - 1] = tn; CK_USE_GAIN[k - 1] = tg
                k -= 1
        for b in range(5):
            i = CK_USE_OFF[m]
            while i < CK_USE_OFF[m + 1] and CK_USE_N[i] <= b:
                i += 1
            CK_USE_END[m][b] = <uint16_t>i
    for c in range(5):
        for j in range(5):
            for b in range(5):
                best = 0
                if j <= c:
                    for x in range(1, b + 1):
                        if c + x > 4:
                            break
                        n = 12 * (ck_group(c + x, j + x) - ck_group(c, j))
                        n = (n + x - 1) // x
                        if n > best:
                            best = n
                CK_AP[c][j][b] = <uint8_t>best


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
    unsigned int ms[4]   # suit masks
    int runsuf[5]        # run points of suits s.. with no Kings


cdef inline int _ck_hsum(uint64_t x) noexcept nogil:
    """Sum of the eight bytes of x (each sum below 256)."""
    return <int>((x * _CK_LO) >> 56)


cdef inline uint64_t _ck_shares(uint64_t C, uint64_t J, int b, int* av, int* room) noexcept nogil:
    """Per-rank King shares (twelfths, one byte per rank) and free cells per rank."""
    cdef uint64_t A = 0
    cdef int r, c
    for r in range(8):
        c = (C >> (8 * r)) & 0xFF
        av[r] = CK_AP[c][(J >> (8 * r)) & 0xFF][b]
        room[r] = 4 - c
        A |= (<uint64_t>av[r]) << (8 * r)
    return A


cdef inline void _ck_set_only(int b, int* av, int* room, int* K, int* pick) noexcept nogil:
    """K[t]: the t best shares over free cells (Kings used only for sets); pick: their ranks."""
    cdef int t, r, x
    K[0] = 0
    for t in range(1, b + 1):
        x = -1
        for r in range(8):
            if room[r] > 0 and av[r] > 0 and (x < 0 or av[r] > av[x]):
                x = r
        pick[t - 1] = x
        if x < 0:
            K[t] = K[t - 1]
        else:
            K[t] = K[t - 1] + av[x]
            room[x] -= 1


cdef inline void _ck_suit_best(unsigned int ms, uint64_t A, int b, int* W, int* WI) noexcept nogil:
    """W[t]: best run gain plus shares (twelfths) of at most t run Kings in a suit with
    natural cards ms; WI[t]: the useful set reaching it (-1: none)."""
    cdef int i, n, v, t
    for t in range(b + 1):
        W[t] = 0
        WI[t] = -1
    for i in range(CK_USE_OFF[ms], CK_USE_END[ms][b]):
        n = CK_USE_N[i]
        v = 12 * CK_USE_GAIN[i] + _ck_hsum(A & (CK_SPREAD[CK_USE_Q[i]] * 0xFF))
        if v > W[n]:
            W[n] = v
            WI[n] = i
    for t in range(1, b + 1):
        if W[t - 1] > W[t]:
            W[t] = W[t - 1]
            WI[t] = WI[t - 1]


cdef int _ck_bound12(_CkCtx* ctx, int s, int b, uint64_t C, uint64_t J) noexcept nogil:
    """Upper bound (twelfths of a point) of what b more Kings add to the hand once the run
    Kings of suits < s are placed (C, J: cards and Kings per rank)."""
    cdef int t, x, v
    cdef int K[5]
    cdef int W[5]
    cdef int WI[5]
    cdef int av[8]
    cdef int room[8]
    cdef int pick[4]
    cdef uint64_t A = _ck_shares(C, J, b, av, room)
    _ck_set_only(b, av, room, K, pick)
    while s < 4:
        _ck_suit_best(ctx.ms[s], A, b, W, WI)
        t = b
        while t >= 1:
            for x in range(1, t + 1):
                v = K[t - x] + W[x]
                if v > K[t]:
                    K[t] = v
            t -= 1
        s += 1
    return K[b]


cdef int _ck_root12(_CkCtx* ctx, int b, uint64_t C, uint32_t* qout) noexcept nogil:
    """_ck_bound12 at the root (no King placed), also giving the relaxation's argmax as a
    placement `qout` (each King on a distinct free cell)."""
    cdef int t, x, v, s, r, i
    cdef int K[5][5]      # K[s][t]: set-only Kings and the run Kings of suits < s
    cdef int KX[5][5]     # run Kings given to suit s - 1 at K[s][t]
    cdef int W[5]
    cdef int WI[4][5]
    cdef int av[8]
    cdef int room[8]
    cdef int pick[4]
    cdef uint64_t A = _ck_shares(C, 0, b, av, room)
    _ck_set_only(b, av, room, K[0], pick)
    for s in range(4):
        _ck_suit_best(ctx.ms[s], A, b, W, WI[s])
        for t in range(b + 1):
            K[s + 1][t] = K[s][t]
            KX[s + 1][t] = 0
            for x in range(1, t + 1):
                v = K[s][t - x] + W[x]
                if v > K[s + 1][t]:
                    K[s + 1][t] = v
                    KX[s + 1][t] = x
    cdef uint32_t q = 0
    t = b
    s = 4
    while s > 0:
        x = KX[s][t]
        if x > 0 and WI[s - 1][x] >= 0:
            q |= (<uint32_t>CK_USE_Q[WI[s - 1][x]]) << (8 * (s - 1))
        t -= x
        s -= 1
    for i in range(t):   # the set-only Kings, each on a free cell of its rank
        r = pick[i]
        if r < 0:
            break
        for s in range(4):
            if not ((ctx.nat | q) >> (8 * s + r)) & 1:
                q |= (<uint32_t>1) << (8 * s + r)
                break
    qout[0] = q
    return K[4][b]


cdef void _ck_rec(_CkCtx* ctx, int s, int b, int runval, uint64_t C, uint64_t J) noexcept nogil:
    """Branch and bound over the run Kings of suit s onwards.

    runval: run points of suits < s; C, J: cards and placed Kings per rank (bytes).
    """
    cdef int v, i, setp
    cdef unsigned int ms
    cdef uint64_t sp
    setp = ck_set_points(C, J)
    while s < 4 and CK_USE_OFF[ctx.ms[s]] == CK_USE_OFF[ctx.ms[s] + 1]:
        runval += CK_RUN[ctx.ms[s]]   # no run King can help this suit
        s += 1
    if s == 4 or b == 0:
        v = runval + setp + ctx.runsuf[s]
        if b > 0:
            v += _ck_extra(C, J, b)
        if v > ctx.best:
            ctx.best = v
        return
    if runval + setp + ctx.runsuf[s] + _ck_bound12(ctx, s, b, C, J) // 12 <= ctx.best:
        return
    ms = ctx.ms[s]
    if s == 3:   # the last suit: its children are leaves
        for i in range(CK_USE_OFF[ms], CK_USE_END[ms][b]):
            sp = CK_SPREAD[CK_USE_Q[i]]
            v = runval + CK_RUN[ms] + CK_USE_GAIN[i] + ck_set_points(C + sp, J + sp)
            if b > CK_USE_N[i]:
                v += _ck_extra(C + sp, J + sp, b - CK_USE_N[i])
            if v > ctx.best:
                ctx.best = v
        v = runval + CK_RUN[ms] + setp + _ck_extra(C, J, b)
        if v > ctx.best:
            ctx.best = v
        return
    for i in range(CK_USE_OFF[ms], CK_USE_END[ms][b]):
        sp = CK_SPREAD[CK_USE_Q[i]]
        _ck_rec(ctx, s + 1, b - CK_USE_N[i], runval + CK_RUN[ms] + CK_USE_GAIN[i],
                C + sp, J + sp)
    _ck_rec(ctx, s + 1, b, runval + CK_RUN[ms], C, J)


cdef inline uint64_t _ck_bytemax(uint64_t a, uint64_t b) noexcept nogil:
    """Byte-wise maximum of two words whose bytes are all below 128."""
    cdef uint64_t ge = (((a | _CK_HI) - b) & _CK_HI) >> 7   # 1 in the bytes where a >= b
    cdef uint64_t m = ge * 0xFF
    return (a & m) | (b & ~m)


cdef inline int _ck_score1(uint32_t nat) noexcept nogil:
    """One King: the best single free cell, run gain plus set gain (RULES.md scoring).

    Branch-free over the 32 cells: CK_RG1[m] holds, one byte per rank, the run gain of a
    King on each free rank of suit mask m (0 on held ranks), and the set gain of a King
    on rank r is 2 when the hand holds two cards of r and 1 when it holds three (nothing
    otherwise), counted only on the suit's free cells.  The best cell is the byte-wise
    maximum over the four suits (every gain is below 16, so bytes never carry)."""
    cdef uint64_t C = ck_rank_counts(nat)
    # per-rank set gain: bytes equal to 2 -> 2, equal to 3 -> 1 (exact zero-byte tests)
    cdef uint64_t x2 = C ^ 0x0202020202020202ULL
    cdef uint64_t x3 = C ^ 0x0303030303030303ULL
    cdef uint64_t z2 = ~((((x2 & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x2)) & _CK_HI
    cdef uint64_t z3 = ~((((x3 & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x3)) & _CK_HI
    cdef uint64_t SG = (z2 >> 6) | (z3 >> 7)
    cdef unsigned int m0 = nat & 0xFF, m1 = (nat >> 8) & 0xFF, m2 = (nat >> 16) & 0xFF, m3 = nat >> 24
    cdef uint64_t w = _ck_bytemax(
        _ck_bytemax(CK_RG1[m0] + (SG & ~(CK_SPREAD[m0] * 0xFF)), CK_RG1[m1] + (SG & ~(CK_SPREAD[m1] * 0xFF))),
        _ck_bytemax(CK_RG1[m2] + (SG & ~(CK_SPREAD[m2] * 0xFF)), CK_RG1[m3] + (SG & ~(CK_SPREAD[m3] * 0xFF))))
    w = _ck_bytemax(w, w >> 32)
    w = _ck_bytemax(w, w >> 16)
    w = _ck_bytemax(w, w >> 8)
    return CK_RUN[m0] + CK_RUN[m1] + CK_RUN[m2] + CK_RUN[m3] + ck_set_points(C, 0) + <int>(w & 0xFF)


cdef inline int ck_score(uint32_t nat, int kings) noexcept nogil:
    """Exact score of a hand: natural-card mask plus a number of Kings (0..4)."""
    cdef int s, total, bound
    cdef uint32_t q
    if kings <= 0:
        total = 0
        for s in range(4):
            total += CK_RUN[(nat >> (8 * s)) & 0xFF]
        return total + ck_set_points(ck_rank_counts(nat), 0)
    if kings == 1:
        return _ck_score1(nat)
    cdef _CkCtx ctx
    ctx.nat = nat
    for s in range(4):
        ctx.ms[s] = (nat >> (8 * s)) & 0xFF
    ctx.runsuf[4] = 0
    s = 3
    while s >= 0:
        ctx.runsuf[s] = ctx.runsuf[s + 1] + CK_RUN[ctx.ms[s]]
        s -= 1
    cdef uint64_t C = ck_rank_counts(nat)
    bound = ctx.runsuf[0] + ck_set_points(C, 0) + _ck_root12(&ctx, kings, C, &q) // 12
    ctx.best = ck_eval(nat, q)   # the relaxation's placement: optimal when it meets the bound
    if ctx.best < bound:
        _ck_rec(&ctx, 0, kings, 0, C, 0)
    return ctx.best
