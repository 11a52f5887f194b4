"""``crowns five-crowns ...`` subcommands: keeper, play, replay, simulate."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from .._io import check_file_path, check_replaceable, check_writable
from .._seeds import seed_text, seed_to_json
from .._text import number
from ..cli import add_json_flag, print_json
from ._text import count
from .rules import MAX_TIEBREAKS, TIES, tiebreak_label

#: ``simulate`` without ``--policies``: this policy in every seat, at a table of this size
#: (unless ``--players`` says otherwise), the usual four-player game.
DEFAULT_POLICY = "greedy"
DEFAULT_PLAYERS = 4


def cmd_keeper(args: argparse.Namespace) -> int:
    from .keeper import interactive

    if args.save is not None:  # before any question: a folder was refused only after "Overwrite it? y"
        check_file_path(args.save, "--save", what="score-keeper file")
        check_replaceable(args.save, "--save", "score-keeper file")
    if args.resume is not None and not args.resume.strip():
        from ..errors import RecordError

        raise RecordError(f"--resume needs the file of a saved game, got {args.resume!r}")
    _check_max_tiebreaks(args.max_tiebreaks, args.ties, resumed=args.resume is not None)
    names = None if args.players is None else _player_names(args.players)
    interactive(resume=args.resume, save=args.save, names=names, first_dealer=args.first_dealer,
                ties=args.ties, max_tiebreaks=args.max_tiebreaks, cli=True,
                all_wild_melds=args.all_wild_melds, sets=args.sets)
    return 0


def _player_names(items: list[str]) -> list[str]:
    """The names of ``--players``: commas separate names too, as they separate cards
    (``--players Ann,Bob,Cy`` was one player named 'Ann,Bob,Cy': session-19 probe); spaces
    stay inside a name (``"Mary Ann"``).  An argument with no name at all (``""``,
    ``","``) is a PlayerNameError naming it (``,`` was a player's name)."""
    from ..errors import PlayerNameError

    out: list[str] = []
    for item in items:
        parts = [part.strip() for part in item.split(",") if part.strip()]
        if not parts:
            raise PlayerNameError(f"--players: no name in {item!r} (names are separated by spaces or commas)")
        out.extend(parts)
    return out


def _check_max_tiebreaks(value: int | None, ties: str | None, *, resumed: bool = False) -> None:
    """``--max-tiebreaks``: 0..MAX_TIEBREAKS (100), and only where ties are broken
    (``--ties tiebreak``, or a resumed keeper file that may hold that setting); otherwise
    the number would be recorded and never used.  Raises RulesError naming the option."""
    from ..errors import RulesError

    if value is None:
        return
    if not 0 <= value <= MAX_TIEBREAKS:
        raise RulesError(f"--max-tiebreaks must be a whole number 0..{MAX_TIEBREAKS}, got {value}")
    if not resumed and ties != "tiebreak":
        raise RulesError(f"--max-tiebreaks {value} applies only with --ties tiebreak"
                         " (without it, equal lowest totals share the win)")


def _game_rules(args: argparse.Namespace, players: int, **more: Any):  # -> GameRules
    """The GameRules of ``play``/``simulate``: --ties and --max-tiebreaks (checked),
    --sets and --no-all-wild-melds (RULES.md options that only the API took until
    session 20: the commands always played one set up to 7 players and allowed melds of
    wilds only)."""
    from .game import GameRules

    _check_max_tiebreaks(args.max_tiebreaks, args.ties)
    if args.max_tiebreaks is not None:
        more["max_tiebreaks"] = args.max_tiebreaks
    if args.sets is not None:   # GameRules checks it against the players (naming sets=, so --sets)
        more["sets"] = args.sets
    return GameRules(players=players, ties=args.ties, all_wild_melds=not args.no_all_wild_melds, **more)


def _rules_words(rules) -> str:
    """How a game's cards and melds differ from the usual table, for the first line of
    ``play``/``replay``/``simulate`` ("1 set" or "2 sets", and whether melds of wilds
    only are allowed when they are not)."""
    words = count(rules.sets, "set")
    if not rules.all_wild_melds:
        words += ", no melds of wilds only"
    return words


def _add_rules_options(p: argparse.ArgumentParser) -> None:
    """``--sets`` and ``--no-all-wild-melds`` of ``play`` and ``simulate`` (RULES.md,
    Five Crowns: the number of sets, option ``all_wild_melds``)."""
    p.add_argument("--sets", type=int, choices=(1, 2), default=None,
                   help="116-card sets shuffled together (default: 1 for up to 7 players, else 2)")
    p.add_argument("--no-all-wild-melds", action="store_true",
                   help="forbid melds made only of wilds (rules option all_wild_melds=false)")


def _result_text(result) -> str:
    from .cards import RANK_NAMES

    P = result.rules.players
    names = [f"{s}:{p}" for s, p in enumerate(result.policies)]
    width = max(7, *(len(n) for n in names))
    lines = [f"seed {seed_text(result.seed)}, {count(P, 'player')}, {_rules_words(result.rules)}",
             "round wild dealer out   " + " ".join(f"{n:>{width}}" for n in names)]
    # main rounds by number, tiebreak rounds tb1, tb2... (their RoundResult.round numbers
    # go on after the last main round, which is not 11 with --rounds: never show them)
    labels = [str(rr.round) for rr in result.rounds] + [tiebreak_label(k) for k in range(len(result.tiebreaks))]
    for tag, rr in zip(labels, list(result.rounds) + list(result.tiebreaks), strict=True):
        out = "-" if rr.out is None else str(rr.out)
        lines.append(
            f"{tag:>5} {RANK_NAMES[rr.wild_rank]:>4} {rr.dealer:>6} {out:>3}   "
            + " ".join(f"{rr.scores[s] if s in rr.scores else '':>{width}}" for s in range(P))
        )
    lines.append("total                  " + " ".join(f"{t:>{width}}" for t in result.totals))
    win = ", ".join(names[s] for s in result.winners)
    lines.append(("winner: " if len(result.winners) == 1 else "shared win: ") + win)
    return "\n".join(lines)


def _round_json(rr) -> dict:
    """What the text table shows of one round besides its scores: cards dealt, wild rank,
    dealer and the seat that went out (null when nobody did), under the game record's
    key names (``cards``, ``wild_rank``, ``dealer``, ``out``).  ``--json`` gave none of
    them until session 24, so who went out could not be told from it (two seats may both
    score 0)."""
    return {"cards": rr.cards_dealt, "wild_rank": rr.wild_rank, "dealer": rr.dealer, "out": rr.out}


def _result_json(result) -> dict:
    return {
        "seed": seed_to_json(result.seed),
        "policies": list(result.policies),
        "rules": result.rules.to_dict(),
        "round_scores": result.round_scores.tolist(),
        "rounds": [{"round": rr.round} | _round_json(rr) for rr in result.rounds],
        "tiebreaks": [{"label": tiebreak_label(k), "seats": list(t.seats), "scores": t.scores} | _round_json(t)
                      for k, t in enumerate(result.tiebreaks)],
        "totals": list(result.totals),
        "places": list(result.places),
        "winners": list(result.winners),
    }


def cmd_play(args: argparse.Namespace) -> int:
    from .game import play_game

    if args.save is not None:  # before the game: empty, a folder, a missing folder, an existing file
        check_writable(args.save, force=args.force, option="--save", what="game record")
        check_replaceable(args.save, "--save", "game record")
    if len(args.policies) > 14:   # one POLICY per seat: say so rather than GameRules' 'players'
        from ..errors import RulesError
        raise RulesError(f"play takes one POLICY per seat, 1 to 14 seats, got {len(args.policies)} policies")
    rules = _game_rules(args, len(args.policies), rounds=args.rounds, first_dealer=args.first_dealer)
    result = play_game(args.policies, seed=args.seed, rules=rules)
    if args.save is not None:
        result.save(args.save, overwrite=args.force)
    if args.json:
        print_json(_result_json(result))
    else:
        print(_result_text(result))
        if args.save is not None:
            print(f"record saved to {args.save}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .game import replay

    result = replay(args.record, rerun=args.rerun)
    if args.json:
        print_json(_result_json(result) | {"decks_checked_against_seed": result.seed is not None,
                                           "policies_rerun": bool(args.rerun)})
    else:
        print(_result_text(result))
        print("replayed: every step and score agrees with the record")
        if result.seed is not None:
            print(f"every deck is the one seed {seed_text(result.seed)} deals")
        else:
            print("the record has no seed: its decks were taken as they are")
        if args.rerun:
            print(f"rerun: {', '.join(result.policies)} with seed {seed_text(result.seed)} make every recorded choice")
        else:
            print("the policy names are labels: the choices come from the record"
                  " (--rerun plays the built-in policies again from the seed and compares)")
    return 0


def summarize(df):  # -> DataFrame
    """:func:`crowns_solver.five_crowns.simulation.summarize` (its home since session 22;
    this name is kept for code that imported it from here)."""
    from .simulation import summarize as _summarize

    return _summarize(df)


def cmd_simulate(args: argparse.Namespace) -> int:
    from .._io import check_run_outputs, resume_hint, write_csv
    from ..errors import RulesError
    from .simulation import capped_rounds, simulate

    args.games = _games(args)
    check_run_outputs(args.out, args.csv, force=args.force)
    if args.policies is None:  # nothing said: a table of greedy players (4 unless --players)
        args.policies = [DEFAULT_POLICY]
        players = DEFAULT_PLAYERS if args.players is None else args.players
    else:
        # one policy fills a table of the default size, like kings-crowns simulate --policy
        default = DEFAULT_PLAYERS if len(args.policies) == 1 else len(args.policies)
        players = default if args.players is None else args.players
    rules = _game_rules(args, players, rounds=args.rounds)
    if args.rotate and args.duplicate:
        raise RulesError("--rotate and --duplicate exclude each other (duplicate plays every rotation)")
    try:
        df = simulate(args.games, players=players, policies=args.policies, seed=args.seed, rules=rules,
                      rotate=args.rotate, workers=args.workers, progress=args.progress, out=args.out,
                      duplicate=args.duplicate)
    except KeyboardInterrupt:
        print(resume_hint(args.out, "--out", "deals" if args.duplicate else "games"), file=sys.stderr)
        raise  # crowns_solver.cli prints "crowns: interrupted", status 130
    if args.csv is not None:
        write_csv(df, args.csv)
    summary = summarize(df)
    played = df["game"].nunique()
    capped = capped_rounds(df)
    per_game = df.groupby("game")[["tiebreaks", "capped_tiebreaks"]].first()   # the same on each seat's row
    tiebreaks, capped_tiebreaks = int(per_game["tiebreaks"].sum()), int(per_game["capped_tiebreaks"].sum())
    tied_games = int((per_game["tiebreaks"] > 0).sum())
    mean_turns = float(df.groupby("game")["turns"].first().mean())
    if args.json:
        # every figure the text prints (the session-18 probe found the mean turns, the turn
        # cap, the rotation and the tied games missing); counts as whole numbers
        print_json({"games": played, "deals": args.games if args.duplicate else None, "players": players,
                    "seed": args.seed, "rotate": bool(args.rotate), "mean_turns": mean_turns,
                    "rounds": rules.rounds, "sets": rules.sets, "all_wild_melds": rules.all_wild_melds,
                    "max_turns": rules.max_turns, "capped_rounds": capped, "ties": args.ties,
                    "max_tiebreaks": rules.max_tiebreaks, "tiebreaks": tiebreaks, "tied_games": tied_games,
                    "capped_tiebreaks": capped_tiebreaks,
                    "policies": {p: {k: int(v) if k in ("seat_games", "wins") else
                                     None if math.isnan(v) else float(v) for k, v in row.items()}
                                 for p, row in summary.iterrows()}})
        return 0
    if args.duplicate:
        head = (f"{count(args.games, 'deal')} x {count(played // args.games, 'seating')}"
                f" = {count(played, 'game')}")
    else:
        head = count(args.games, "game")
    short = "" if rules.rounds == 11 else ", round 1 only" if rules.rounds == 1 else f", rounds 1 to {rules.rounds} only"
    print(f"{head}, {count(players, 'player')}, {_rules_words(rules)}{short}, seed {args.seed}"
          f"{', seats rotated' if args.rotate else ''}; mean turns per game {mean_turns:.1f}"
          f"; rounds cut off at the turn cap ({count(rules.max_turns, 'turn')}): {capped}")
    if args.ties == "tiebreak":   # with --ties share no game plays one: say nothing
        print(f"tiebreak rounds: {tiebreaks} in {count(tied_games, 'game')}"
              f" (at most {rules.max_tiebreaks} a game); cut off at the turn cap: {capped_tiebreaks}"
              " (counted in the rounds cut off above too)")
    dup = "vs_deal" in summary.columns
    # each game (each deal with --duplicate) is one observation of a policy's win rate:
    # the label says which (session 23: it did not, and the two differ)
    from ..montecarlo import _by_construction

    win_label = f"win rate (95% CI, {'deals' if dup else 'games'} as clusters)"
    win_width = max(26, len(win_label) + 1)
    print(f"{'policy':<10} {'seat-games':>10} {'mean total':>16} {win_label:>{win_width}}"
          + (f" {'vs deal average':>17}" if dup else ""))
    def pm(half: float, places: int) -> str:  # "+- 1.2", or "+- n/a" from one game or deal
        if half == 0:   # equal values: no spread seen, which is not certainty (montecarlo.mean_interval)
            return "(no spread)"
        return f"+- {'n/a' if math.isnan(half) else f'{half:.{places}f}':<4}"

    for name, row in summary.iterrows():
        win = f"{row.win_rate:.3f} ({row.win_low:.3f}-{row.win_high:.3f})"
        print((f"{name:<10} {int(row.seat_games):>10} {row.mean_total:>9.1f} {pm(row.total_ci, 1)}"
               f"{win:>{win_width - 3}}   "
               + (f" {number(row.vs_deal, '+.2f'):>9} {pm(row.vs_deal_ci, 2)}" if dup else "")).rstrip())
    if len(summary) == 1:
        also = " (its average against the deal is 0 by construction too)" if dup else ""
        print(f"note: {_by_construction(summary.index[0], players, 'five-crowns')}{also}; to compare players,"
              " give each its seats (--policies A B ..., best with --duplicate)")
    if args.csv is not None:
        print(f"one row per game and seat written to {args.csv}")
    return 0


def _games(args: argparse.Namespace) -> int:
    """The number of games of ``simulate``: GAMES (positional, as always) or ``--games N``
    (King's Crowns' spelling, session 23), exactly one of them; otherwise a usage error of
    the command's parser (one line, exit status 2) naming both, or saying that neither was
    given (with the arguments ``--policies`` took, where it swallowed the number)."""
    usage = getattr(args, "usage_error", None)
    if usage is None:   # a Namespace built by hand: a CrownsError instead
        from ..cli import UsageError

        def usage(message: str) -> None:
            raise UsageError(message)

    if args.games is not None and args.games_option is not None:
        usage(f"give the number of games once: GAMES ({args.games}) or --games N ({args.games_option}), not both")
    if args.games is None and args.games_option is None:
        took = [p for p in args.policies or ()]
        where = ""
        if took and took[-1].isdecimal():
            where = (f" (--policies took the arguments after it: {' '.join(took)}; put --policies after GAMES,"
                     f" or give --games {took[-1]})")
        usage(f"the following arguments are required: GAMES (or --games N){where}")
    return args.games if args.games is not None else args.games_option


def register(commands: argparse._SubParsersAction) -> None:
    """Declare the ``five-crowns`` subcommands."""
    from .melds_cli import register as register_melds

    register_melds(commands)
    keeper = commands.add_parser(
        "keeper",
        help="score keeper for a game at the table: wild card, dealer, totals, saves after every entry",
        description=(
            "Keep the scores of a Five Crowns game played at the table. Each round shows the"
            " cards dealt, the wild card, who deals and who starts; type each player's points"
            " or the cards left in hand. Saves after every entry; resume with --resume FILE."
            " q or end of input saves and exits 0; Ctrl-C saves too and exits with status 130."
        ),
    )
    src = keeper.add_mutually_exclusive_group()
    src.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE")
    src.add_argument("--save", metavar="FILE",
                     help="save a new game to FILE (default five-crowns-YYYYMMDD-HHMM.json; asks before overwriting)")
    keeper.add_argument("--players", nargs="+", action="extend", metavar="NAME",
                        help="the players in seat order (asked for if omitted; spaces or commas separate names,"
                             " so quote a name with a space: \"Mary Ann\"; a repeated --players adds names)")
    keeper.add_argument("--first-dealer", metavar="NAME", help="who deals round 1 (default: the first player)")
    keeper.add_argument("--ties", choices=TIES,
                        help="equal lowest totals after round 11 share the win (default), or the tied players"
                             " play 6-card tiebreak rounds tb1, tb2...; with --resume it changes the saved game's"
                             " setting (until a tiebreak score is entered)")
    keeper.add_argument("--max-tiebreaks", type=int, metavar="N",
                        help="tiebreak rounds at most, 0..100 (default 3); still tied after them: a shared win")
    keeper.add_argument("--all-wild-melds", action=argparse.BooleanOptionalAction, default=None,
                        help="allow (default) or forbid (--no-all-wild-melds) melds made only of wilds (rules"
                             " option all_wild_melds): typed cards that meld only as wilds are then not said to"
                             " meld; with --resume either one changes the saved game's setting (the way back"
                             " too: --no-all-wild-melds alone could not be undone), if the scores entered"
                             " stay possible")
    keeper.add_argument("--sets", type=int, choices=(1, 2), default=None,
                        help="116-card sets shuffled together (default: 1 for up to 7 players, else 2); with"
                             " --resume it changes the saved game's setting if the entered cards fit it")
    keeper.set_defaults(handler=cmd_keeper)

    play = commands.add_parser("play", help="play one seeded game between computer players",
                               description="Play one seeded Five Crowns game between computer players"
                               " and print the round scores (optionally save the full record).")
    play.add_argument("policies", nargs="+", metavar="POLICY",
                      help="one per seat: random, greedy, advisor or tracker (1 to 14 seats)")
    play.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    play.add_argument("--rounds", type=int, default=11, help="rounds to play, from round 1 (default 11)")
    play.add_argument("--ties", choices=TIES, default="share",
                      help="equal lowest totals share the win (default) or play 6-card tiebreak rounds")
    play.add_argument("--max-tiebreaks", type=int, metavar="N",
                      help="with --ties tiebreak: tiebreak rounds at most, 0..100 (default 3); still tied"
                      " after them: a shared win")
    play.add_argument("--first-dealer", type=int, default=0, metavar="SEAT", help="seat dealing round 1")
    _add_rules_options(play)
    play.add_argument("--save", metavar="FILE", help="save the full game record (JSON) to FILE")
    play.add_argument("--force", action="store_true", help="overwrite the --save file if it exists")
    add_json_flag(play)
    play.set_defaults(handler=cmd_play)

    rep = commands.add_parser("replay", help="replay a saved game record and check every step and score",
                              description="Play a game record saved by 'play --save' again, checking every"
                              " step against the rules (RULES.md, Five Crowns): each drawn card and discard,"
                              " going out and the last turns, the round scores, totals and winners, and, when"
                              " the record has a seed, every deck it deals; then print the round scores. With"
                              " --rerun the record's built-in policies also play again from its seed and must"
                              " make every recorded choice.")
    rep.add_argument("record", metavar="FILE", help="a record saved by 'play --save'")
    rep.add_argument("--rerun", action="store_true",
                     help="also play the record's built-in policies again from its seed and check every choice")
    add_json_flag(rep)
    rep.set_defaults(handler=cmd_replay)

    sim = commands.add_parser("simulate", help="play many seeded games between computer players and compare them",
                              description="Play many seeded games (shared Monte Carlo runner) and print, per policy,"
                              " the mean total and the win rate with 95% intervals.")
    sim.add_argument("games", type=int, nargs="?", metavar="GAMES", help="number of games (or give --games N)")
    sim.add_argument("--games", type=int, dest="games_option", metavar="N",
                     help="number of games, as kings-crowns simulate spells it (instead of GAMES, not with it)")
    sim.add_argument("--policies", nargs="+", action="extend", metavar="POLICY",
                     help="one for all seats or one per seat (a repeated --policies adds seats): random, greedy,"
                     " advisor, tracker"
                     f" (default: {DEFAULT_POLICY} in every seat)")
    sim.add_argument("--players", type=int,
                     help=f"seats (default: the number of policies, or {DEFAULT_PLAYERS} with one policy or none)")
    sim.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    sim.add_argument("--rounds", type=int, default=11,
                     help="rounds to play, from round 1 (default 11; fewer: the shorter game of seeds/002)")
    sim.add_argument("--rotate", action="store_true", help="move the policies one seat each game")
    sim.add_argument("--duplicate", action="store_true",
                     help="duplicate deals: play each of GAMES deals once in every distinct seating rotation"
                     " (so every policy gets the same cards) and report each policy against the deal average")
    sim.add_argument("--ties", choices=TIES, default="share",
                     help="equal lowest totals share the win (default) or play 6-card tiebreak rounds"
                     " (their count is printed)")
    sim.add_argument("--max-tiebreaks", type=int, metavar="N",
                     help="with --ties tiebreak: tiebreak rounds at most per game, 0..100 (default 3)")
    _add_rules_options(sim)
    sim.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    sim.add_argument("--progress", action="store_true", help="show a progress bar")
    sim.add_argument("--out", metavar="FILE", help="resumable JSON-lines results file")
    sim.add_argument("--csv", metavar="FILE", help="write one row per game and seat as CSV")
    sim.add_argument("--force", action="store_true", help="overwrite the --csv file if it exists")
    add_json_flag(sim)
    sim.set_defaults(handler=cmd_simulate, usage_error=sim.error)
    # the other game's spelling, refused by argparse as unrecognised: say this one's (crowns_solver.cli)
    sim.spelling_hints = {"--policy": "five-crowns simulate spells it --policies POLICY ...;"
                                      " --policy is kings-crowns simulate's"}
