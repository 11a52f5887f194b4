"""Stub for the compiled Cross Kings search core (ext/_ck_search.pyx)."""

SOURCE_HASH: str
INF_VALUE: int
WIN: int
BUSY_MESSAGE: str
STOP_CANCELLED: int

# A state: (occ, fd, pool, nat_first, nat_second, kings_first, kings_second, marker, side)
State = tuple[int, int, int, int, int, int, int, int, int]

def monotonic() -> float: ...
def score_interval(nat: int, kings: int) -> tuple[int, int]: ...

def table_layout(tt_bytes: int) -> dict[str, int]: ...

class SharedTable:
    nbuckets: int
    def __init__(self, table_bytes: int) -> None: ...
    @property
    def table_bytes(self) -> int: ...
    @property
    def table_entries(self) -> int: ...
    def entries_used(self) -> int: ...
    def _slot(self, i: int) -> tuple[int, int]: ...
    def _set_slot(self, i: int, check: int, data: int) -> None: ...

class Engine:
    nodes: int
    stop: int
    tt_probes: int
    tt_hits: int
    tt_stores: int
    bound_cuts: int
    star_cuts: int
    probe_cuts: int
    bound_cards: int
    star2: int
    history_on: int
    prefetch: int
    prefetch_score: int
    cache_min_kings: int
    lean_cards: int
    lean_thr: int
    thr_relax: int
    thr_cuts: int
    end_cut: int
    heur_w: int
    heur_kind: int
    eval_order_cards: int
    eval_order_w: int
    ev_score0: int
    ev_score1: int
    ev_gain0: int
    ev_gain1: int
    ev_kings0: int
    ev_kings1: int
    ev_pairs0: int
    ev_pairs1: int
    ev_adj0: int
    ev_adj1: int
    ev_gap0: int
    ev_gap1: int
    ev_tempo0: int
    ev_tempo1: int
    fd_key: int
    king_key: int
    pgain: int
    pdeny: int
    tt_by_occ: int
    end_cuts: int
    tt_min_cards: int
    tt_min_cards_game: int
    exact_order_cards: int
    gain_w: int
    mob_w: int
    etc: int
    etc_cuts: int
    deny_w: int
    ordering: int
    star1: int
    split: int
    split_width: int
    split_max_f: int
    split_skip: int
    split_est: int
    split_order: int
    split_probes: int
    split_cuts: int
    split_fallbacks: int
    pvs: int
    pvs_max_f: int
    def __init__(self, cards: bytes, mode: int, objective: int, reach: int, tt_bytes: int,
                 shared: SharedTable | None = None) -> None: ...
    @property
    def busy(self) -> bool: ...
    @property
    def table_shared(self) -> bool: ...
    @property
    def table_bytes(self) -> int: ...
    @property
    def table_bytes_in_use(self) -> int: ...
    @property
    def score_cache_bytes(self) -> int: ...
    @property
    def table_entries(self) -> int: ...
    def table_used(self) -> int: ...
    def stats(self) -> dict[str, int]: ...
    def set_limits(self, deadline: float = 0.0, node_limit: int = 0) -> None: ...
    def set_cancel(self, cancel: object | None = None) -> None: ...
    def new_generation(self) -> None: ...
    def scale(self, state: State) -> int: ...
    def moves(self, state: State) -> list[int]: ...
    def child(self, state: State, cell: int, card: int = -1) -> State: ...
    def is_chance(self, state: State, cell: int) -> bool: ...
    def pool_cards(self, state: State) -> list[int]: ...
    def terminal_value(self, state: State) -> int | None: ...
    def bounds(self, state: State) -> tuple[int, int]: ...
    def tt_move(self, state: State) -> int: ...
    def tt_bounds(self, state: State) -> tuple[int, int, bool, int] | None: ...
    def heuristic(self, state: State) -> int: ...
    def search(self, state: State, depth: int, alpha: int, beta: int) -> tuple[int, bool, int]: ...
    def search_move(self, state: State, cell: int, depth: int, alpha: int, beta: int) -> tuple[int, bool]: ...
