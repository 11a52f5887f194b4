# cython: language_level=3
"""Compiled Cross Kings hand scorer (private; use crowns_solver.cross_kings).

Entry points take already-validated masks: bit 8*suit + rank-1 of a 32-bit mask for
each natural card, plus a King count 0..4.  The public wrappers in
crowns_solver.cross_kings.scoring validate cards before calling in.
"""

from cpython.exc cimport PyErr_CheckSignals

include "_ck_scoring.pxi"

cdef extern from *:
    const char* CROWNS_SOURCE_HASH

SOURCE_HASH = CROWNS_SOURCE_HASH.decode()

ck_init_tables()


def score_mask(uint32_t nat, int kings):
    """Exact score of natural-card mask `nat` plus `kings` Kings (0..4)."""
    if kings < 0 or kings > 4:
        raise ValueError(f"kings must be 0..4, got {kings}")
    return ck_score(nat, kings)


def eval_placement(uint32_t nat, uint32_t placed):
    """Score of `nat` with Kings standing for exactly the cells of `placed`."""
    if nat & placed:
        raise ValueError("placed Kings must stand for cards the hand does not hold")
    return ck_eval(nat, placed)


cdef int _ck_find(uint32_t nat, int kings, int target, uint32_t* out) noexcept nogil:
    """First placement (fewest Kings, then lexicographic cells) reaching `target`."""
    cdef uint32_t empty = ~nat
    cdef int cells[32]
    cdef int ne = 0, i, a, b, c, d
    cdef uint32_t one = 1, q
    for i in range(32):
        if empty & (one << i):
            cells[ne] = i
            ne += 1
    if ck_eval(nat, 0) == target:
        out[0] = 0
        return 1
    if kings >= 1:
        for a in range(ne):
            q = one << cells[a]
            if ck_eval(nat, q) == target:
                out[0] = q
                return 1
    if kings >= 2:
        for a in range(ne):
            for b in range(a + 1, ne):
                q = (one << cells[a]) | (one << cells[b])
                if ck_eval(nat, q) == target:
                    out[0] = q
                    return 1
    if kings >= 3:
        for a in range(ne):
            for b in range(a + 1, ne):
                for c in range(b + 1, ne):
                    q = (one << cells[a]) | (one << cells[b]) | (one << cells[c])
                    if ck_eval(nat, q) == target:
                        out[0] = q
                        return 1
    if kings >= 4:
        for a in range(ne):
            for b in range(a + 1, ne):
                for c in range(b + 1, ne):
                    for d in range(c + 1, ne):
                        q = ((one << cells[a]) | (one << cells[b]) | (one << cells[c])
                             | (one << cells[d]))
                        if ck_eval(nat, q) == target:
                            out[0] = q
                            return 1
    return 0


def best_placement(uint32_t nat, int kings):
    """An optimal placement: (score, mask of the cells the Kings stand for).

    Deterministic: the optimal placement with the fewest Kings placed, then the first
    in lexicographic order of cells.  Found by trying placements in that order, so it is
    meant for display, not for search.
    """
    if kings < 0 or kings > 4:
        raise ValueError(f"kings must be 0..4, got {kings}")
    cdef int target = ck_score(nat, kings)
    cdef uint32_t q = 0
    cdef int found
    with nogil:
        found = _ck_find(nat, kings, target, &q)
    if not found:
        raise RuntimeError("internal error: no placement reaches the optimal score")
    return target, q


def score_masks(const uint32_t[::1] nat, const uint8_t[::1] kings, int32_t[::1] out):
    """Batch form: out[i] = score of (nat[i], kings[i]).  Kings above 4 are an error
    (ValueError; also when another thread writes one into `kings` during the call).
    Ctrl-C stops it (KeyboardInterrupt), checked every 65,536 hands."""
    cdef Py_ssize_t i, n = nat.shape[0], bad = -1
    cdef int k = 0
    if kings.shape[0] != n or out.shape[0] != n:
        raise ValueError("nat, kings and out must have the same length")
    for i in range(n):
        if kings[i] > 4:
            raise ValueError(f"kings[{i}] = {kings[i]} is more than 4")
    with nogil:
        for i in range(n):
            if (i & 0xFFFF) == 0xFFFF:   # Ctrl-C stops a long batch (KeyboardInterrupt)
                with gil:
                    PyErr_CheckSignals()
            # read once and checked again as used: another thread may write to the array
            # meanwhile, and more than 4 Kings would index the scorer's tables out of range
            k = kings[i]
            if k > 4:
                bad = i
                break
            out[i] = ck_score(nat[i], k)
    if bad >= 0:
        raise ValueError(f"kings[{bad}] = {k} is more than 4; the array changed during the call"
                         " (written by another thread?): it was checked before the work began")


def table_sizes():
    """Sizes of the precomputed tables (for tests and curiosity)."""
    return {"useful_king_sets": CK_USE_OFF[256]}

