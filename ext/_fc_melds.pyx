# cython: language_level=3
"""Compiled Five Crowns meld solver (private; use crowns_solver.five_crowns).

Entry points take card codes (0..55: 11*suit + rank-3, joker 55) that the public
wrappers in crowns_solver.five_crowns.melds have already validated: copies within the
card sets, hand sizes within 0..14, wild rank 3..13.  The work runs without the GIL.
"""

from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.stdlib cimport malloc, free

include "_fc_meldcore.pxi"
include "_fc_advisecore.pxi"

cdef extern from *:
    const char* CROWNS_SOURCE_HASH

SOURCE_HASH = CROWNS_SOURCE_HASH.decode()

MAX_HAND = FC_MAXHAND


cdef double _build_seconds = 0.0


cdef int _ready() except -1:
    """Build the tables on first use (about 30 ms); the GIL stays held, so exactly one
    thread builds them and no thread reads them half built."""
    global FC_READY, _build_seconds
    cdef timespec a, b
    if not FC_READY:
        clock_gettime(CLOCK_MONOTONIC, &a)
        fc_build_table()
        clock_gettime(CLOCK_MONOTONIC, &b)
        _build_seconds = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9
        FC_READY = True
    return 0


def build_seconds():
    """Seconds the tables took to build (building them now if not yet done)."""
    _ready()
    return _build_seconds


cdef int _fill(object codes, uint8_t* counts) except -1:
    """counts[code] = copies of each code in `codes` (a sequence of validated ints)."""
    cdef Py_ssize_t n = fc_count_codes(codes, counts)
    if n > FC_MAXHAND:
        raise ValueError(f"{n} cards: the solver takes at most {FC_MAXHAND}")
    return 0


cdef int _check_wild(int wild) except -1:
    if wild < 3 or wild > 13:
        raise ValueError(f"wild rank {wild} outside 3..13")
    return _ready()


cdef enum:
    _OP_DEADWOOD = 0
    _OP_ZERO = 1
    _OP_OUT = 2


cdef int _search(object codes, int wild, bint all_wild, int op) except -1:
    """One meld search on validated card codes: their least deadwood (_OP_DEADWOOD), or
    whether they have deadwood 0 (_OP_ZERO), or whether some len(codes) - 1 of them do
    (_OP_OUT)."""
    cdef uint8_t counts[FC_NCODES]
    cdef int r
    _check_wild(wild)
    _fill(codes, counts)
    with nogil:
        if op == _OP_DEADWOOD:
            r = fc_deadwood(counts, wild, all_wild)
        elif op == _OP_ZERO:
            r = fc_is_zero(counts, wild, all_wild)
        else:
            r = fc_can_go_out(counts, wild, all_wild)
    return r


def deadwood_codes(codes, int wild, bint all_wild=True):
    """Exact minimum deadwood of the cards `codes` (validated card codes)."""
    return _search(codes, wild, all_wild, _OP_DEADWOOD)


def is_zero_codes(codes, int wild, bint all_wild=True):
    """Whether the cards `codes` have deadwood 0 (the search used inside can_go_out)."""
    return _search(codes, wild, all_wild, _OP_ZERO) != 0


def can_go_out_codes(codes, int wild, bint all_wild=True):
    """Whether some len(codes) - 1 of the cards have deadwood 0."""
    return _search(codes, wild, all_wild, _OP_OUT) != 0


def check_rows(const int8_t[:, ::1] hands, int natural_limit, int joker_limit, int min_cards=0,
               int max_cards=FC_MAXHAND):
    """First problem in a batch of hands (rows of codes, -1 = no card), or None.

    Returns ``(row, code, n)``: `code` is -2 for an entry outside -1..55 (`n` is the
    entry), -3 for a row holding `n` cards, outside min_cards..max_cards, otherwise a
    card held `n` times, more than the limits allow.
    """
    cdef Py_ssize_t i, t, m = hands.shape[0], w = hands.shape[1]
    cdef uint8_t counts[FC_NCODES]
    cdef int c, held, bad_row = -1, bad_code = 0, bad_n = 0
    with nogil:
        for i in range(m):
            memset(counts, 0, FC_NCODES)
            held = 0
            for t in range(w):
                c = hands[i, t]
                if c == -1:
                    continue
                if c < -1 or c >= FC_NCODES:
                    bad_row, bad_code, bad_n = <int>i, -2, c
                    break
                held += 1
                if counts[c] < 255:
                    counts[c] += 1
            if bad_row >= 0:
                break
            if held < min_cards or held > max_cards:
                bad_row, bad_code, bad_n = <int>i, -3, held
                break
            for c in range(FC_NCODES):
                if counts[c] > (joker_limit if c == FC_JOKER else natural_limit):
                    bad_row, bad_code, bad_n = <int>i, c, counts[c]
                    break
            if bad_row >= 0:
                break
    if bad_row < 0:
        return None
    return bad_row, bad_code, bad_n


cdef int _changed(Py_ssize_t i, int entry, bint wild) except -1 with gil:
    """The error of a batch entry found out of range while in use, after _check_batch
    passed it: another thread wrote to the array during the call (it is read without
    the GIL, and the GIL is taken every 1024 rows to look for Ctrl-C)."""
    what = f"wild rank {entry} is not 3..13" if wild else f"entry {entry} is not a card code -1..55"
    raise ValueError(f"row {i}: {what}; the array changed during the call (written by another"
                     " thread?): it was checked before the work began")


cdef inline int _row_counts(const int8_t[:, ::1] hands, Py_ssize_t i, uint8_t* counts) except -1 nogil:
    """counts[code] of row i, each entry read once and checked as it is used (never
    written outside counts, whatever another thread writes into the array meanwhile)."""
    cdef Py_ssize_t t
    cdef int c
    memset(counts, 0, FC_NCODES)
    for t in range(hands.shape[1]):
        c = hands[i, t]
        if c >= 0:
            if c >= FC_NCODES:
                _changed(i, c, False)
            counts[c] += 1
    return 0


cdef inline int _row_wild(const int8_t[::1] wilds, Py_ssize_t i) except -1 nogil:
    """wilds[i], read once and checked (see _row_counts)."""
    cdef int wild = wilds[i]
    if wild < 3 or wild > 13:
        _changed(i, wild, True)
    return wild


cdef int _rows(const int8_t[:, ::1] hands, const int8_t[::1] wilds, bint all_wild,
               int32_t* dw, uint8_t* out) except -1 nogil:
    cdef Py_ssize_t i, m = hands.shape[0]
    cdef uint8_t counts[FC_NCODES]
    cdef int wild
    for i in range(m):
        if (i & 1023) == 1023:
            with gil:
                PyErr_CheckSignals()
        _row_counts(hands, i, counts)
        wild = _row_wild(wilds, i)
        if dw != NULL:
            dw[i] = fc_deadwood(counts, wild, all_wild)
        else:
            out[i] = fc_can_go_out(counts, wild, all_wild)
    return 0


cdef int _check_batch(const int8_t[:, ::1] hands, const int8_t[::1] wilds, Py_ssize_t outputs) except -1:
    """The batch entry points' checks: one wild rank 3..13 and one output per row, at most
    FC_MAXHAND cards a row and every entry -1..55 (more cards, or a code above 55, would
    be written past the solver's fixed tables: codes 100..127 crashed the interpreter)."""
    cdef Py_ssize_t i, t, bad_i = -1, bad_t = 0
    if wilds.shape[0] != hands.shape[0] or outputs != hands.shape[0]:
        raise ValueError("hands, wilds and out must have the same number of rows")
    if hands.shape[1] > FC_MAXHAND:
        raise ValueError(f"rows hold at most {FC_MAXHAND} cards")
    for i in range(wilds.shape[0]):
        _check_wild(wilds[i])
    with nogil:
        for i in range(hands.shape[0]):
            for t in range(hands.shape[1]):
                if hands[i, t] < -1 or hands[i, t] >= FC_NCODES:
                    bad_i, bad_t = i, t
                    break
            if bad_i >= 0:
                break
    if bad_i >= 0:
        raise ValueError(f"row {bad_i}: entry {hands[bad_i, bad_t]} is not a card code -1..55")
    return 0


def deadwood_rows(const int8_t[:, ::1] hands, const int8_t[::1] wilds, bint all_wild,
                  int32_t[::1] out):
    """Batch form: out[i] = deadwood of row i (validated codes, -1 = no card)."""
    _check_batch(hands, wilds, out.shape[0])
    with nogil:
        _rows(hands, wilds, all_wild, &out[0] if out.shape[0] else NULL, NULL)


def can_go_out_rows(const int8_t[:, ::1] hands, const int8_t[::1] wilds, bint all_wild,
                    uint8_t[::1] out):
    """Batch form: out[i] = 1 if row i (n+1 validated cards) can go out."""
    _check_batch(hands, wilds, out.shape[0])
    if hands.shape[0] == 0:
        return
    with nogil:
        _rows(hands, wilds, all_wild, NULL, &out[0])


def time_rows(const int8_t[:, ::1] hands, const int8_t[::1] wilds, bint all_wild, int passes,
              double[::1] out_us):
    """For benchmarks: out_us[i] = row i's deadwood time in microseconds, the least over
    `passes` passes through all the rows in order (each hand meets the caches as in a
    batch; the least filters out interruptions by other processes).  Ctrl-C stops it
    (KeyboardInterrupt) between rows, as it stops the other batch forms: with many
    passes it ran uninterruptible until done."""
    cdef Py_ssize_t i, m = hands.shape[0]
    cdef uint8_t counts[FC_NCODES]
    cdef timespec a, b
    cdef double us
    cdef int r, wild
    cdef volatile int sink = 0
    _check_batch(hands, wilds, out_us.shape[0])
    with nogil:
        for i in range(m):
            out_us[i] = 1e30
        for r in range(passes):
            for i in range(m):
                if (i & 1023) == 0:
                    with gil:
                        PyErr_CheckSignals()
                _row_counts(hands, i, counts)
                wild = _row_wild(wilds, i)
                clock_gettime(CLOCK_MONOTONIC, &a)
                sink += fc_deadwood(counts, wild, all_wild)
                clock_gettime(CLOCK_MONOTONIC, &b)
                us = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) * 1e-3
                if us < out_us[i]:
                    out_us[i] = us


# ---------------------------------------------------------------------------------------
# One optimal arrangement (for display: runs with the GIL held, not a hot path)

cdef list _suit_runs(uint8_t* cnt, int k, int suit, list left, FcMemo* memo):
    """Runs of one suit's cards reaching the table's value with k wilds (natural codes)."""
    cdef uint8_t vec[FC_KW]
    cdef uint8_t sub[FC_KW]
    cdef uint8_t took[FC_POS]
    cdef int a, e, x, val, present, span, need, goal
    cdef list runs = []
    while True:
        a = 0
        while a < FC_POS and cnt[a] == 0:
            a += 1
        if a == FC_POS:
            return runs
        fc_suit_vec(cnt, vec, memo)
        goal = vec[k]
        cnt[a] -= 1
        fc_suit_vec(cnt, sub, memo)
        if sub[k] == goal:
            left.append(11 * suit + a)
            continue
        cnt[a] += 1
        for e in range(FC_POS - 1, a - 1, -1):  # the longest run first
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
            if need <= k:
                fc_suit_vec(cnt, sub, memo)
                if val + sub[k - need] == goal:
                    runs.append([11 * suit + x for x in range(a, e + 1) if took[x]])
                    k -= need
                    break
            for x in range(a, e + 1):
                cnt[x] += took[x]
        else:
            raise RuntimeError("internal error: no run reaches the table's value")


def arrange(codes, int wild, bint all_wild=True):
    """One optimal arrangement of the natural (non-wild) cards.

    Returns ``(deadwood, books, runs, left)``: books and runs as lists of natural card
    codes (wilds are placed by the caller: every wild joins a meld when at least one
    meld exists), `left` the natural codes left in hand.
    """
    cdef uint8_t counts[FC_NCODES]
    cdef FcState st
    cdef int n, i, s, p, b, melded, dw
    cdef uint8_t pat[FC_POS]
    _check_wild(wild)
    _fill(codes, counts)
    st.record = 1
    n = fc_setup(&st, counts, wild)
    if n == 0:
        return fc_deadwood(counts, wild, all_wild), [], [], []
    cdef uint8_t base[5][FC_POS]
    memcpy(base, st.live, sizeof(base))
    for i in range(st.nbr):
        st.best_on[i] = 0
        for s in range(5):
            st.best_b[i][s] = 0
    for s in range(5):
        st.best_k[s] = 0
    melded = fc_melded(&st, -1)
    dw = st.V + 20 * st.v + 50 * st.j if melded == 0 else st.V - melded
    books = []
    left = []
    for i in range(st.nbr):
        p = st.br[i]
        if st.best_on[i]:
            book = []
            for s in range(5):
                b = st.best_b[i][s] + st.dead[s][p]
                book.extend([11 * s + p] * b)
                base[s][p] -= st.best_b[i][s]
            books.append(book)
        else:
            for s in range(5):
                left.extend([11 * s + p] * st.dead[s][p])
    runs = []
    for s in range(5):
        memcpy(pat, base[s], FC_POS)
        runs.extend(_suit_runs(pat, st.best_k[s], s, left, &st.memo))
    for s in range(5):  # cards that fit no meld at all
        for p in range(FC_POS):
            if p != wild - 3 and counts[11 * s + p] and not st.live[s][p] and not st.dead[s][p]:
                left.extend([11 * s + p] * counts[11 * s + p])
    left.sort()
    return dw, books, runs, left


# ---------------------------------------------------------------------------------------
# The discard advisor: every candidate discard, every possible draw, every next discard

def outlook(codes, int wild, bint all_wild, const int64_t[::1] unseen):
    """For a hand of n cards about to draw blind: (weight of draws that let it go out,
    sum over draws of weight * least deadwood after the best discard).  Draw weights
    are `unseen` (copies per code, each 0..2**20: ValueError naming the first other)."""
    cdef uint8_t counts[FC_NCODES]
    cdef int64_t uns[FC_NCODES]
    cdef int64_t n_out = 0, total = 0
    cdef int kept
    _check_wild(wild)
    _fill(codes, counts)
    fc_copy_unseen(unseen, uns)
    with nogil:
        kept = fc_deadwood(counts, wild, all_wild)
        fc_outlook(counts, wild, all_wild, uns, kept, &n_out, &total)
    return n_out, total


def discard_table(codes, int wild, bint all_wild, const int64_t[::1] unseen):
    """For each distinct card c of an n+1-card hand: (c, deadwood of the other n cards,
    weight of next draws that let them go out, sum over draws of weight * least deadwood
    after the best discard).  Draw weights are `unseen` (copies per code, each 0..2**20:
    ValueError naming the first other)."""
    cdef uint8_t counts[FC_NCODES]
    cdef int cl[FC_MAXHAND + 1]
    cdef int32_t kept[FC_MAXHAND + 1]
    cdef int64_t n_out[FC_MAXHAND + 1]
    cdef int64_t total[FC_MAXHAND + 1]
    cdef int64_t uns[FC_NCODES]
    cdef int nd, i
    cdef int16_t* cache
    _check_wild(wild)
    _fill(codes, counts)
    fc_copy_unseen(unseen, uns)
    nd = fc_distinct(counts, cl)
    cache = fc_new_cache()
    try:
        with nogil:
            fc_discard_table(counts, wild, all_wild, uns, cl, nd, cache, kept, n_out, total)
    finally:
        free(cache)
    return [(cl[i], kept[i], n_out[i], total[i]) for i in range(nd)]


def table_bytes():
    """Size of the precomputed suit-run table in bytes (for curiosity and the docs)."""
    return sizeof(FC_T)
