"""``ferrovia diff BASE VARIANT``: what a variant changes, collection by collection.

Both games are resolved first (engine/data/overlay.py), so any two game directories can be compared.
For each file, each collection (``hexes``, ``tiles``, ``privates``, ``corporations``,
``trains``, ``phases``, ...) lists entries added (``+``), removed (``-``) and changed (``~``,
with the fields that differ); other top-level settings are listed as changed keys.  ``--json``
gives ``{"FILE": {"COLLECTION": {"added": [...], "removed": [...], "changed": {KEY:
[FIELDS]}}}}``.  Exit 0 (also when there are differences); 1 when either game has a data
error (each is printed on stderr as validate prints it, after the differences), 2 on usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ferrovia.errors import DataError, DataErrors

Changes = dict[str, dict[str, Any]]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="list what a variant adds, removes and changes compared with a base game",
        description="Compare two game directories (each merged over its own base first).",
    )
    parser.add_argument("base", type=Path, metavar="BASE")
    parser.add_argument("variant", type=Path, metavar="VARIANT")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _entries(value: Any, name: str) -> dict[str, Any] | None:
    """A collection as key -> entry (mappings as they are, keyed lists by natural key)."""
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        return {str(k): v for k, v in value.items()}
    from ferrovia.data.overlay import KEYED_LISTS  # slow to import: only when the command runs

    natural = KEYED_LISTS.get(name)
    if natural and isinstance(value, list) and all(isinstance(e, dict) for e in value):
        return {str(e.get(natural)): e for e in value}
    return None


def _fields(a: Any, b: Any) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return sorted(str(k) for k in set(a) | set(b) if a.get(k) != b.get(k))
    return [] if a == b else ["value"]


def compare(base: dict[str, Any], variant: dict[str, Any]) -> Changes:
    """Differences between two resolved files (plain trees), by collection.

    >>> compare({"hexes": {"A1": {"color": "white"}, "B2": {"color": "red"}}, "layout": "flat"},
    ...         {"hexes": {"A1": {"color": "blue"}, "C3": {"color": "red"}}, "layout": "flat"})
    {'hexes': {'added': ['C3'], 'removed': ['B2'], 'changed': {'A1': ['color']}}}
    """
    from ferrovia.data.overlay import EXTENDS  # slow to import: only when the command runs

    out: Changes = {}
    settings: dict[str, list[str]] = {}
    for key in list(base) + [k for k in variant if k not in base]:
        if key == EXTENDS:
            continue
        a, b = base.get(key), variant.get(key)
        ea, eb = _entries(a, str(key)), _entries(b, str(key))
        if ea is not None and eb is not None:
            added = [k for k in eb if k not in ea]
            removed = [k for k in ea if k not in eb]
            changed = {k: _fields(ea[k], eb[k]) for k in ea if k in eb and ea[k] != eb[k]}
            if added or removed or changed:
                out[str(key)] = {"added": added, "removed": removed, "changed": changed}
        elif a != b:
            settings[str(key)] = _fields(a, b) if isinstance(a, dict) else []
    if settings:
        out["settings"] = {"added": [], "removed": [], "changed": settings}
    return out


def run(args: argparse.Namespace) -> int:
    from ferrovia.data.overlay import (  # slow to import: only when the command runs
        plain,
        resolved_files,
    )
    from ferrovia.data.validate import validate_game
    from ferrovia.outputs import game_directory

    for path in (args.base, args.variant):
        game_directory(path)
    try:
        docs = [resolved_files(args.base), resolved_files(args.variant)]
    except DataErrors as exc:
        for err in exc.errors:
            print(err, file=sys.stderr)
        return 1
    # a file that is a list or a scalar has no entries to compare: say so, as validate does
    shapeless = [d for files in docs for d in files.values() if not isinstance(d.data, dict)]
    for d in shapeless:
        got = "a list" if isinstance(d.data, list) else repr(d.data)
        got = "nothing (the file is empty)" if d.data is None else got
        print(
            DataError(d.file, 1, 1, f"expected a mapping (key: value entries), got {got}"),
            file=sys.stderr,
        )
    if shapeless:
        return 1
    # the differences are listed either way; a game that does not validate is said (as
    # validate says it) and makes the run fail: the variant is not a game as it stands
    errors = [e for path in (args.base, args.variant) for e in validate_game(path).errors]
    for err in errors:
        print(err, file=sys.stderr)
    failed = 1 if errors else 0
    base, variant = ({k: plain(d.data) for k, d in files.items()} for files in docs)
    report: dict[str, Changes] = {}
    for kind in list(base) + [k for k in variant if k not in base]:
        changes = compare(base.get(kind) or {}, variant.get(kind) or {})
        if changes:
            report[f"{kind}.yaml"] = changes
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return failed
    if not report:
        print("no differences")
    for file, collections in report.items():
        print(file)
        for name, ch in collections.items():
            n = len(ch["added"]) + len(ch["removed"]) + len(ch["changed"])
            print(f"  {name}: {n} change{'s' if n != 1 else ''}")
            for key in ch["added"]:
                print(f"    + {key}")
            for key in ch["removed"]:
                print(f"    - {key}")
            for key, fields in ch["changed"].items():
                print(f"    ~ {key}" + (f" ({', '.join(fields)})" if fields else ""))
    return failed
