"""``crowns kings-crowns ...`` subcommands."""

from __future__ import annotations

import argparse
import sys

from .._text import count
from ..cli import add_json_flag, print_json

#: Same as crowns_solver.kings_crowns.policies.POLICY_NAMES (not imported: it loads numpy
#: and the engine; tests/test_kings_crowns_cli.py checks they agree).
POLICY_NAMES = ("random", "greedy", "aggressive", "defensive", "lookahead")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def _rules(args: argparse.Namespace):  # -> Rules
    from .deck import DEFAULT_DECK, load_deck
    from .rules import DEFAULT_MAX_TURNS, Rules

    deck = load_deck(args.deck) if args.deck is not None else DEFAULT_DECK  # --deck "" is refused, not ignored
    return Rules(target=args.target, max_turns=args.max_turns or DEFAULT_MAX_TURNS, deck=deck)


#: Players of ``simulate`` when neither ``--players`` nor several policies say otherwise.
DEFAULT_PLAYERS = 4


def cmd_simulate(args: argparse.Namespace) -> int:
    from .._io import check_run_outputs, resume_hint
    from .simulation import simulate, win_rates

    check_run_outputs(args.out, None, force=False)  # names --out in every message, before any game
    if args.players is None:   # one seat per policy named, as five-crowns simulate (session 24); else 4
        args.players = len(args.policy) if args.policy and len(args.policy) > 1 else DEFAULT_PLAYERS
        if args.players > 5:   # say where the count came from: no --players was given
            from ..errors import RulesError

            raise RulesError(f"King's Crowns is for 2 to 5 players, got {args.players} --policy names (one seat"
                             " each; give one to 5 of them, or --players P with one policy or P)")
    rules = _rules(args)
    try:
        df = simulate(
            args.games, players=args.players, policies=args.policy or ["greedy"], rules=rules, seed=args.seed,
            rotate=args.rotate, workers=args.workers, progress=args.progress, out=args.out,
            chunk_size=args.chunk_size,
        )
    except KeyboardInterrupt:
        print(resume_hint(args.out, "--out"), file=sys.stderr)
        raise  # crowns_solver.cli prints "crowns: interrupted", status 130
    table = win_rates(df, by=args.by)
    stalemates = int((df["winner"] < 0).sum())
    if args.json:
        # every figure the text prints (the probe of session 18 found the policies, the
        # deck's size, the turn cap and the median missing), under the same names
        print_json({
            "games": len(df), "players": args.players, "seed": args.seed, "by": args.by,
            "policies": list(df.attrs["params"]["policies"]), "rotate": bool(args.rotate),
            "target": rules.target_for(args.players), "deck": rules.deck.name, "deck_cards": rules.deck.size,
            "max_turns": rules.max_turns, "stalemates": stalemates, "mean_turns": float(df["turns"].mean()),
            "median_turns": float(df["turns"].median()),
            "win_rates": [{args.by: k, **row} for k, row in zip(table.index, table.to_dict("records"))],
        })
        return 0
    pols = ", ".join(df.attrs["params"]["policies"])
    print(f"King's Crowns: {count(len(df), 'game')}, {args.players} players ({pols}{', rotated' if args.rotate else ''}),"
          f" target {rules.target_for(args.players)}, deck {rules.deck.name} ({rules.deck.size} cards), seed {args.seed}")
    width = max([12, *(len(str(label)) for label in table.index)])  # a lookahead:... name is longer
    label = "seat" if args.by == "seat" else "policy"
    # by policy each game is one observation (a policy's seats of a game are not
    # independent): the label says so (session 23: it said Wilson's interval of the
    # wins and games printed, which it is not when a policy has several seats)
    from ..montecarlo import CLUSTER_LABEL, _by_construction

    interval = "95% CI (Wilson)" if args.by == "seat" else f"95% CI ({CLUSTER_LABEL})"
    print(f"{label:<{width}} {'wins':>7} {'games':>7} {'rate':>7}   {interval}")
    for row in table.itertuples():
        print(f"{str(row.Index):<{width}} {row.wins:>7} {row.games:>7} {row.rate:>7.3f}"
              f"   {row.ci_low:.3f} .. {row.ci_high:.3f}")
    if args.by == "policy" and len(table) == 1:
        print(f"note: {_by_construction(table.index[0], args.players, 'kings-crowns')}; to compare players,"
              " give each its seats (--policy A B ... --rotate)")
    print(f"stalemates (turn cap {rules.max_turns}): {stalemates};"
          f" turns per game: mean {df['turns'].mean():.1f}, median {df['turns'].median():.0f}")
    if args.out is not None:
        # a file that already held every game: nothing was played or written (session 21:
        # it said "results written to")
        played = df.attrs.get("games_played", len(df))
        if played == 0:
            print(f"{args.out} was already complete ({count(len(df), 'game')}): nothing new was played or written")
        elif played < len(df):
            print(f"results written to {args.out} ({played} new, the rest read back from it)")
        else:
            print(f"results written to {args.out}")
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    from .deck import DEFAULT_DECK, deck_facts, load_deck, min_cards
    from .rules import Rules

    deck = load_deck(args.file) if args.file is not None else DEFAULT_DECK
    # a deck without a Salvation deals but can never be won (simulate and play refuse it)
    winnable = deck.count("salvation") > 0
    dealable = [p for p in range(2, 6) if deck.size >= min_cards(p)]
    playable = dealable if winnable else []
    # the rules' own target (100, 75 with five) may be more than the deck's crown points:
    # simulate then refuses it unless --target is lowered (probe 19: the deck was said to
    # deal games that simulate refused, with no word why)
    # and only the Crowns its cards let a seat play count (a coloured Crown needs its Gift,
    # a 15 or 20 Time with God or Holy Spirit): session 20
    points, usable, why = deck.crown_points(), deck.playable_crown_points(), deck.unplayable_crowns()
    reach = [p for p in playable if Rules().target_for(p) <= usable]
    if args.json:
        # the same facts the deck reader checks when this output is read back as a deck file
        print_json({"name": deck.name, **deck_facts(deck), "deck": deck.to_dict()})
        return 0
    print(f"deck {deck.name}: {deck.size} cards, {deck.crown_points()} crown points")
    if why:
        print(f"  only {usable} of them can ever be played: {'; '.join(why)}, which the deck lacks")
    if dealable and not winnable:
        print("  no Salvation: no seat could ever play a crown, so every game would end at the turn cap"
              " (kings-crowns simulate and Game refuse this deck)")
    elif playable:
        players = f"{playable[0]}" if len(playable) == 1 else f"{playable[0]} to {playable[-1]}"
        print(f"  deals games of {players} players")
        short = [p for p in playable if p not in reach]
        if short:
            who = "" if short == playable else \
                f" for {short[0]}" + ("" if len(short) == 1 else f" to {short[-1]}") + " players"
            target = Rules().target_for(short[0])
            its = f"its {points} crown points are" if usable == points else f"its {usable} playable crown points are"
            unless = f"unless the target is {usable} or less (--target)" if usable else "whatever the target"
            print(f"  {its} below the rules' target{who} ({target}): kings-crowns simulate and Game refuse it {unless}")
    else:
        print(f"  too small to deal: even 2 players need at least {min_cards(2)} cards")
    for name, n in deck.to_dict().items():
        print(f"  {name:<20} {n:>4}")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Declare the ``kings-crowns`` subcommands (imports nothing heavy: ``crowns --help``
    stays fast)."""
    sim = commands.add_parser(
        "simulate", help="play many games between computer players and print win rates",
        description="Play many King's Crowns games between computer players and print the win"
        " rates with 95% Wilson confidence intervals.",
    )
    # at most the Monte Carlo runner's MAX_GAMES: checked there, its message naming --games
    sim.add_argument("--games", type=_positive, default=1000, metavar="N", help="number of games (default 1000)")
    sim.add_argument("--players", type=int, default=None, metavar="P",
                     help=f"players, 2..5 (default: one per --policy named, else {DEFAULT_PLAYERS})")
    # extend: a repeated --policy adds seats (the last list silently replaced the first);
    # default None, not ["greedy"], which extend would keep in front of the names given
    sim.add_argument("--policy", nargs="+", action="extend", default=None, metavar="NAME",
                     help=f"one policy for every seat or one per seat: {', '.join(POLICY_NAMES)}"
                     " (lookahead:samples=N,horizon=H,rollout=NAME also); default greedy")
    sim.add_argument("--seed", type=int, default=0, metavar="S", help="root seed (default 0)")
    sim.add_argument("--rotate", action="store_true", help="rotate the policies one seat each game (fair comparison)")
    sim.add_argument("--deck", metavar="FILE", help="deck file (TOML or JSON: card name = count)")
    sim.add_argument("--target", type=_positive, metavar="POINTS", help="crown points to win (default 100, 75 with 5 players)")
    sim.add_argument("--max-turns", type=_positive, metavar="T", help="turn cap over all seats (default 2000)")
    sim.add_argument("--out", metavar="FILE", help="write results here (JSON lines); resumes if it exists")
    sim.add_argument("--workers", type=_positive, metavar="K", help="worker processes (default: all cores)")
    sim.add_argument("--chunk-size", type=_positive, default=1000, metavar="C", help="games per chunk (default 1000)")
    sim.add_argument("--by", choices=("seat", "policy"), default="policy", help="win rates by policy (default) or seat")
    sim.add_argument("--progress", action="store_true", help="show a progress bar")
    add_json_flag(sim)
    sim.set_defaults(handler=cmd_simulate)
    # five-crowns simulate's spelling, refused by argparse as unrecognised: say this one's (crowns_solver.cli)
    sim.spelling_hints = {"--policies": "kings-crowns simulate spells it --policy NAME ...;"
                                        " --policies is five-crowns simulate's",
                          "<number>": "kings-crowns simulate takes the number of games as --games N"}

    deck = commands.add_parser("deck", help="show a deck (default: the built-in one) or check a deck file",
                               description="Show the cards of a King's Crowns deck and their counts: the"
                               " built-in one (RULES.md, King's Crowns), or a deck file (TOML or JSON, card"
                               " name = count), which is checked as simulate --deck would check it.")
    deck.add_argument("file", nargs="?", metavar="FILE", help="deck file (TOML or JSON)")
    add_json_flag(deck)
    deck.set_defaults(handler=cmd_deck)
