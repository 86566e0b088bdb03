"""``ferrovia simulate GAME [VARIANT]``: many seeded bot games, their balance statistics, and
(with a VARIANT) the differences from the base game on the very same seeds."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import FerroviaError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        help="play many seeded bot games and report balance statistics (or compare two games)",
        description=(
            "Play N seeded games of GAME with bots on the cores of this machine (or a Dask "
            "cluster) and report how games end and how long they run, who wins (by seat, by "
            "bot, by starting private), the score spread, floats and closures, when each "
            "train type is first bought, revenue by company and home hex, and the bank over "
            "time.  With VARIANT, the same seeds are played on both and each difference is "
            "given with its 95%% interval."
        ),
    )
    p.add_argument("game", metavar="GAME", help="bundled game name or game directory")
    p.add_argument(
        "variant", metavar="VARIANT", nargs="?", help="a second game to compare on the same seeds"
    )
    p.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="NAMES",
        help="bot of each seat, comma-separated (one name fills every seat; default greedy)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument(
        "--workers", type=int, default=None, help="local processes (default: one per core)"
    )
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="run the games on this Dask distributed scheduler (e.g. tcp://host:8786)",
    )
    p.add_argument("--option", action="append", default=[], help="optional rule")
    p.add_argument("--max-actions", type=int, default=20000, help="stop a game after this many")
    p.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the numbers")
    p.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="DIR",
        help="write DIR/index.html (plots embedded) and DIR/simulation.json",
    )
    p.add_argument(
        "--logs", type=Path, default=None, metavar="DIR", help="keep every game's log in DIR"
    )
    p.add_argument(
        "--reference",
        type=Path,
        nargs="*",
        default=[],
        metavar="FILE",
        help="recorded games (18xx.games exports) whose length is shown next to the bots'",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _usage(args: argparse.Namespace) -> str | None:
    from ferrovia.commands.play import usage_error

    if args.games < 1:
        return "--games must be at least 1"
    if args.workers is not None and args.workers < 1:
        return "--workers must be at least 1"
    for game in [args.game, args.variant]:
        if game is None:
            continue
        wrong = usage_error(
            argparse.Namespace(game=game, players=args.players, seed=args.seed, option=args.option)
        )
        if wrong is not None:
            return wrong
    return None


def _check_outputs(args: argparse.Namespace, games: list[str]) -> None:
    """No output is one of the inputs (a game's data file, a reference export)."""
    from ferrovia.errors import UsageError
    from ferrovia.outputs import Inputs, check_file, readable_file

    inputs = Inputs(*(readable_file(p, "reference") for p in args.reference))
    for game in games:
        if (Path(game) / "game.yaml").is_file():
            inputs.add_game(game)
    if args.json is not None:
        check_file(args.json, inputs)
    for folder in (args.report, args.logs):
        if folder is not None and inputs.game_dir_clash(folder) is not None:
            raise UsageError(f"refusing to write into {folder}: it is a game directory being read")
    if args.report is not None:
        for name in ("simulation.json", "index.html"):
            clash = inputs.clash(args.report / name)
            if clash is not None:
                raise UsageError(
                    f"refusing to write {args.report / name}: it is an input ({clash})"
                )


def run(args: argparse.Namespace) -> int:
    from ferrovia.play import simulate as sim
    from ferrovia.play.bots.base import bot_class, parse_bots

    wrong = _usage(args)
    if wrong is not None:
        print(f"ferrovia simulate: {wrong}", file=sys.stderr)
        return 2
    try:
        bots = parse_bots(args.bots, args.players)
        for name in sorted(set(bots)):
            bot_class(name)  # an unknown bot is reported before any game starts
    except FerroviaError as exc:
        print(f"ferrovia simulate: {exc}", file=sys.stderr)
        return 2
    games = [g for g in (args.game, args.variant) if g is not None]
    _check_outputs(args, games)  # before hours of games, not after them (#13)
    references = [sim.replay_record(p) for p in args.reference]
    summaries: list[dict[str, Any]] = []
    for index, game in enumerate(games):
        prefix = "" if len(games) == 1 else ("base-" if index == 0 else "variant-")
        specs = sim.specs_for(
            game,
            args.games,
            args.players,
            bots,
            args.seed,
            args.option,
            args.max_actions,
            keep_log=args.logs is not None,
        )

        def keep(record: dict[str, Any], prefix: str = prefix) -> None:
            log = record.pop("log", None)
            if args.logs is not None and log is not None:
                path = args.logs / sim.log_name(record, prefix)
                sim.write_atomic(path, sim.dump(log))
                record["log_file"] = str(path)

        records = sim.run_games(
            specs,
            workers=args.workers,
            cluster=args.cluster,
            progress=False if args.no_progress else None,
            on_record=keep,
            desc=Path(game).name,
        )
        meta = {
            "game": game,
            "title": _title(game),
            "players": args.players,
            "bots": bots,
            "seed": args.seed,
            "options": list(args.option),
            "max_actions": args.max_actions,
        }
        summary = sim.summarise(records, meta)
        if references:
            summary["reference"] = references
        summaries.append(summary)
        print(sim.text_summary(summary))
    doc: dict[str, Any]
    if len(summaries) == 2:
        rows = sim.compare(summaries[0], summaries[1])
        print(sim.text_comparison(rows))
        doc = {"base": summaries[0], "variant": summaries[1], "differences": rows}
    else:
        doc = summaries[0]
    if args.json is not None:
        _write(args.json, sim.dump(doc))
    if args.report is not None:
        from ferrovia.play.simreport import report_html

        _write(args.report / "simulation.json", sim.dump(doc))
        _write(args.report / "index.html", report_html(doc))
        print(f"report: {args.report / 'index.html'}")
    return 0


def _title(game: str) -> str:
    from ferrovia.data.definition import load_game
    from ferrovia.play.replay import game_dir_for

    try:
        # a directory is the game itself (a log's header names a variant only by its name now)
        where = Path(game) if Path(game).is_dir() else game_dir_for(game)
        defn = load_game(where)
    except FerroviaError:
        return game
    return str(getattr(defn, "title", None) or defn.name)


def _write(path: Path, text: str) -> None:
    from ferrovia.play.simulate import write_atomic

    try:
        write_atomic(path, text)
    except OSError as exc:
        raise FerroviaError(f"cannot write {path}: {exc.strerror}") from None
