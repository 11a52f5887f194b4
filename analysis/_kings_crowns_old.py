"""King's Crowns study: who wins, how long games last, and what the deck changes.

Runs Monte Carlo simulations through :func:`crowns_solver.kings_crowns.simulate` (the
shared runner, so every number reproduces from the seeds printed in the report) and
writes ``report.md`` with PNG charts into ``reports/kings_crowns/``:

1. fair policy comparison: the four simple players at one table, seats rotated;
2. head-to-head: every pair of simple players in two-player games, seats rotated;
3. seat advantage: four equal players (greedy, then aggressive), win rate by seat;
4. game length by player count (2..5), greedy and aggressive tables;
5. the lookahead player against the others (rotated seats);
6. a deck variant (more Sins, fewer Forgiveness) against the default deck.

Usage: ``python analysis/kings_crowns_study.py [--scale 1.0] [--workers K] [--out DIR]``
(the default run takes a few minutes on 2 cores; ``--scale 0.1`` is a quick smoke run).
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

import numpy as np
import pandas as pd

from crowns_solver import __version__
from crowns_solver.kings_crowns import DEFAULT_DECK, Deck, Rules, simulate, win_rates
from crowns_solver.report import win_rate_chart, win_rate_markdown

SIMPLE = ["greedy", "aggressive", "defensive", "random"]


def _figure(size=(6, 3.6)):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=110)
    FigureCanvasAgg(fig)
    return fig


def run_study(out_dir: str | Path = "reports/kings_crowns", *, scale: float = 1.0, workers: int | None = None,
              seed: int = 2024) -> Path:
    """Run every simulation of the study and write ``out_dir/report.md`` plus charts.

    Parameters
    ----------
    out_dir : path
        Output folder (created).
    scale : float
        Multiplies every game count (1.0: the published report).
    workers : int, optional
        Worker processes (default: all cores).
    seed : int
        Root seed; each simulation uses ``seed + k`` for its own k, listed in the report.

    Returns
    -------
    Path
        The report file.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    n = lambda g: max(40, int(round(g * scale / 40)) * 40)  # noqa: E731  (multiples of 2..5 seats)
    md: list[str] = []
    runs: list[str] = []
    findings: list[str] = []

    def sim(k: int, games: int, **kw) -> pd.DataFrame:
        t0 = time.perf_counter()
        df = simulate(games, seed=seed + k, workers=workers, **kw)
        pols = ", ".join(df.attrs["params"]["policies"])
        runs.append(f"| {k} | {seed + k} | {games} | {kw.get('players', 4)} | {pols} | {'yes' if kw.get('rotate') else 'no'}"
                    f" | {kw['rules'].deck.name if 'rules' in kw else 'default'} | {time.perf_counter() - t0:.1f} |")
        return df

    # 1. four simple players at one table
    g1 = n(40_000)
    df1 = sim(1, g1, players=4, policies=SIMPLE, rotate=True)
    t1 = win_rates(df1, by="policy").sort_values("rate", ascending=False)
    win_rate_chart(t1, f"Four players at one table, seats rotated ({g1} games)", "policy", 0.25, out / "policies_4p.png")
    best = t1.index[0]
    findings.append(f"At a four-player table the **{best}** player wins {t1.loc[best, 'rate']:.1%}"
                    f" (95% CI {t1.loc[best, 'ci_low']:.1%}..{t1.loc[best, 'ci_high']:.1%}) against a fair share of 25%;"
                    f" random play almost never wins ({int(t1.loc['random', 'wins'])} of {g1}). Playing Sins on the leader pays.")
    md += ["## 1. The four simple players at one table", "",
           f"{g1} four-player games, one seat each, the seating rotated one place every game (so each player"
           " sits in every seat equally often).", "", win_rate_markdown(t1, "policy"), "",
           "![policies](policies_4p.png)", ""]

    # 2. head-to-head
    g2 = n(8_000)
    rows = []
    for k, (a, b) in enumerate(itertools.combinations(SIMPLE, 2)):
        df = sim(10 + k, g2, players=2, policies=[a, b], rotate=True)
        t = win_rates(df, by="policy")
        rows.append({"player": a, "opponent": b, "wins": int(t.loc[a, "wins"]), "games": g2,
                     "rate": t.loc[a, "rate"], "95% CI": f"{t.loc[a, 'ci_low']:.3f} .. {t.loc[a, 'ci_high']:.3f}",
                     "stalemates": int((df["winner"] < 0).sum())})
    h2h = pd.DataFrame(rows)
    mat = pd.DataFrame(np.nan, index=SIMPLE, columns=SIMPLE)
    for r in rows:
        mat.loc[r["player"], r["opponent"]] = r["rate"]
        mat.loc[r["opponent"], r["player"]] = 1 - r["rate"] - r["stalemates"] / r["games"]
    fig = _figure((5.2, 4.2))
    ax = fig.add_subplot()
    im = ax.imshow(mat.to_numpy(dtype=float), vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(4), SIMPLE)
    ax.set_yticks(range(4), SIMPLE)
    for i, j in itertools.product(range(4), range(4)):
        v = mat.iloc[i, j]
        if v == v:
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=9, color="black" if 0.25 < v < 0.75 else "white")
    ax.set_xlabel("opponent")
    ax.set_ylabel("player (row wins this share)")
    ax.set_title(f"Two-player head-to-head ({g2} games per pair)", fontsize=10)
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(out / "head_to_head.png")
    md += ["## 2. Head-to-head (two players)", "",
           f"Each pair plays {g2} two-player games with seats alternating. The row player's win share:", "",
           h2h.to_markdown(index=False, floatfmt=".3f"), "", "![head to head](head_to_head.png)", ""]

    # 3. seat advantage
    g3 = n(40_000)
    md += ["## 3. Seat advantage", "",
           f"Four equal players ({g3} games each); seat 0 sits left of the dealer and plays first.", ""]
    for k, pol in enumerate(("greedy", "aggressive")):
        df = sim(20 + k, g3, players=4, policies=pol)
        t = win_rates(df, by="seat")
        findings.append(f"Seat advantage, 4 x {pol}: seat 0 (first to play) wins {t.loc[0, 'rate']:.1%}"
                        f" [{t.loc[0, 'ci_low']:.1%}..{t.loc[0, 'ci_high']:.1%}], seat 3 {t.loc[3, 'rate']:.1%}"
                        f" [{t.loc[3, 'ci_low']:.1%}..{t.loc[3, 'ci_high']:.1%}].")
        win_rate_chart(t, f"Seat win rates, 4 x {pol} ({g3} games)", "seat", 0.25, out / f"seats_{pol}.png")
        md += [f"**4 x {pol}**", "", win_rate_markdown(t, "seat"), "", f"![seats {pol}](seats_{pol}.png)", ""]

    # 4. game length by player count
    g4 = n(10_000)
    lengths = []
    for k, (players, pol) in enumerate(itertools.product(range(2, 6), ("greedy", "aggressive"))):
        df = sim(30 + k, g4, players=players, policies=pol)
        t = df["turns"]
        lengths.append({"players": players, "policy": pol, "games": g4, "mean turns": t.mean(),
                        "median": t.median(), "p90": t.quantile(0.9), "mean rounds": t.mean() / players,
                        "stalemates": int((df["winner"] < 0).sum())})
    lt = pd.DataFrame(lengths)
    findings.append("Game length (mean turns over all seats) grows with the table: greedy "
                    + ", ".join(f"{r['players']}p {r['mean turns']:.0f}" for r in lengths if r["policy"] == "greedy")
                    + "; aggressive " + ", ".join(f"{r['players']}p {r['mean turns']:.0f}" for r in lengths if r["policy"] == "aggressive")
                    + f" ({min(r['mean rounds'] for r in lengths if r['policy'] == 'aggressive'):.0f}"
                    f"-{max(r['mean rounds'] for r in lengths if r['policy'] == 'aggressive'):.0f} aggressive rounds"
                    " whatever the table size); some aggressive tables stall and hit the"
                    f" turn cap ({sum(r['stalemates'] for r in lengths if r['policy'] == 'aggressive')} stalemates in"
                    f" {4 * g4} aggressive games).")
    fig = _figure()
    ax = fig.add_subplot()
    for pol, marker in (("greedy", "o"), ("aggressive", "s")):
        sub = lt[lt["policy"] == pol]
        ax.plot(sub["players"], sub["mean turns"], marker=marker, label=f"{pol}: turns")
        ax.plot(sub["players"], sub["mean rounds"], marker=marker, linestyle="--", label=f"{pol}: rounds")
    ax.set_xticks(range(2, 6))
    ax.set_xlabel("players (target 100; 75 with five)")
    ax.set_ylabel("mean game length")
    ax.set_title("Game length by player count", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "length_by_players.png")
    md += ["## 4. Game length by player count", "",
           "A turn is one seat's draw and play; a round is one turn of every seat.", "",
           lt.to_markdown(index=False, floatfmt=".1f"), "", "![length](length_by_players.png)", ""]

    # 5. the lookahead player
    g5 = n(800)
    md += ["## 5. The lookahead player", "",
           "Determinized Monte Carlo (64 sampled deals per decision, 20-turn rollouts by the aggressive player,"
           " keeps the rollout player's choice unless another play is better by two standard errors). Seats rotated.", ""]
    for k, (label, pols) in enumerate((("vs 3 aggressive", ["lookahead", "aggressive", "aggressive", "aggressive"]),
                                        ("vs greedy, aggressive, defensive", ["lookahead", "greedy", "aggressive", "defensive"]))):
        df = sim(40 + k, g5, players=4, policies=pols, rotate=True, chunk_size=40)
        t = win_rates(df, by="policy").sort_values("rate", ascending=False)
        fair = 0.25
        name = f"lookahead_{k}.png"
        win_rate_chart(t, f"Lookahead {label} ({g5} games)", "policy", fair, out / name)
        md += [f"**Lookahead {label}** ({g5} games):", "", win_rate_markdown(t, "policy"), "", f"![lookahead]({name})", ""]
        findings.append(f"The lookahead player {label}: {t.loc['lookahead', 'rate']:.1%}"
                        f" [{t.loc['lookahead', 'ci_low']:.1%}..{t.loc['lookahead', 'ci_high']:.1%}] of games"
                        f" (best of the others: {t.drop(index='lookahead')['rate'].max():.1%}).")
    g5b = n(2_000)
    df = sim(42, g5b, players=2, policies=["lookahead", "aggressive"], rotate=True, chunk_size=100)
    t = win_rates(df, by="policy")
    md += [f"**Lookahead vs aggressive, two players** ({g5b} games):", "", win_rate_markdown(t, "policy"), ""]
    findings.append(f"Two players, lookahead vs aggressive: {t.loc['lookahead', 'rate']:.1%}"
                    f" [{t.loc['lookahead', 'ci_low']:.1%}..{t.loc['lookahead', 'ci_high']:.1%}].")

    # 6. deck variant
    g6 = n(40_000)
    counts = DEFAULT_DECK.to_dict()
    variant = Deck.from_mapping({**counts, **{f"sin-{c}": 10 for c in ("orange", "maroon", "purple")},
                                 **{f"forgiveness-{c}": 5 for c in ("orange", "maroon", "purple")}}, "more-sins")
    md += ["## 6. A deck variant: more Sins, fewer Forgiveness", "",
           f"Variant deck `more-sins`: Sins 10 of each colour (default 6), Forgiveness 5 of each (default 8),"
           f" {variant.size} cards. Four simple players, seats rotated, {g6} games per deck.", ""]
    comp = []
    for k, deck in enumerate((DEFAULT_DECK, variant)):
        df = sim(50 + k, g6, players=4, policies=SIMPLE, rotate=True, rules=Rules(deck=deck))
        t = win_rates(df, by="policy")
        for pol in SIMPLE:
            comp.append({"deck": deck.name, "policy": pol, "rate": t.loc[pol, "rate"],
                         "ci_low": t.loc[pol, "ci_low"], "ci_high": t.loc[pol, "ci_high"]})
        comp.append({"deck": deck.name, "policy": "(mean turns)", "rate": df["turns"].mean(), "ci_low": np.nan, "ci_high": np.nan})
        comp.append({"deck": deck.name, "policy": "(stalemates)", "rate": float((df["winner"] < 0).sum()), "ci_low": np.nan, "ci_high": np.nan})
    ct = pd.DataFrame(comp)
    stale = ct[ct["policy"] == "(stalemates)"].set_index("deck")["rate"]
    turns_ = ct[ct["policy"] == "(mean turns)"].set_index("deck")["rate"]
    findings.append(f"Deck matters: with more Sins than remedies (`more-sins`) {stale['more-sins'] / g6:.0%} of games"
                    f" end at the turn cap (default deck {stale['default'] / g6:.1%}), mean length {turns_['more-sins']:.0f}"
                    f" turns instead of {turns_['default']:.0f}, and only the aggressive player still wins regularly.")
    fig = _figure((6.4, 3.6))
    ax = fig.add_subplot()
    width = 0.38
    for k, deck in enumerate(("default", "more-sins")):
        sub = ct[(ct["deck"] == deck) & ~ct["policy"].str.startswith("(")]
        x = np.arange(len(sub)) + (k - 0.5) * width
        r = sub["rate"].to_numpy(dtype=float)
        ax.bar(x, r, width, yerr=[r - sub["ci_low"], sub["ci_high"] - r], capsize=3, label=deck)
    ax.set_xticks(range(4), SIMPLE)
    ax.axhline(0.25, color="#cc3311", linestyle="--", linewidth=1)
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_title(f"Default deck vs more-sins deck ({g6} games each)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "deck_variant.png")
    ct_show = ct.copy()
    ct_show["95% CI"] = [f"{a:.3f} .. {b:.3f}" if a == a else "" for a, b in zip(ct_show.pop("ci_low"), ct_show.pop("ci_high"))]
    md += [ct_show.to_markdown(index=False, floatfmt=".3f"), "", "![deck variant](deck_variant.png)", ""]

    elapsed = time.perf_counter() - t_start
    head = ["# King's Crowns: a Monte Carlo study", "",
            f"Generated by `analysis/kings_crowns_study.py` (crowns_solver {__version__}, root seed {seed},"
            f" scale {scale}) in {elapsed / 60:.1f} minutes. Rules as in RULES.md (target 100, 75 with five"
            " players; turn cap 2000 turns; the default 118-card deck, an assumption documented there)."
            " Win rates carry 95% Wilson intervals; games that hit the turn cap count as games without a winner.", "",
            "Players: `random` (uniform legal play), `greedy` (builder: crowns, covers its own Sins, Salvation,"
            " Gifts, Time with God; never plays Sins), `aggressive` (the builder, but plays a Sin on the leader"
            " first), `defensive` (the builder, holding Forgiveness and Holy Spirit), `lookahead` (determinized"
            " Monte Carlo). See docs/kings_crowns.md.", "", "## Key findings", "",
            *[f"- {f}" for f in findings], ""]
    tail = ["## Runs", "", "| k | seed | games | players | policies | rotated | deck | seconds |",
            "|---|---|---|---|---|---|---|---|", *runs, ""]
    path = out / "report.md"
    path.write_text("\n".join(head + md + tail), encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="reports/kings_crowns")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    path = run_study(args.out, scale=args.scale, workers=args.workers, seed=args.seed)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
