"""Variants as overlays: a game directory that ``extends`` another and says only what differs.

A variant's ``game.yaml`` names its base with ``extends:`` — a game directory name (looked up
next to the variant, then under ``gamedata/``) or a relative path such as ``../1858``.  Then,
file by file (``map.yaml``, ``tiles.yaml``, ``privates.yaml``, ``companies.yaml``,
``trains.yaml``, ``phases.yaml``, ``market.yaml``, ``options.yaml`` and ``game.yaml`` itself):

* a file the variant does not have is inherited unchanged;
* a file it has is merged onto the base's file of the same kind:

  - mappings merge key by key, recursively; a value ``~`` (null) removes the key;
  - lists of entries with a natural key merge entry by entry — ``privates`` and
    ``corporations`` by ``symbol``, ``trains`` (and their ``variants``) and ``phases`` by
    ``name``, ``options`` by ``id``: an entry whose key is in the base changes only the fields
    it gives, a new key is appended (in the variant's order);
  - any other list, and every scalar, is replaced whole;
  - a top-level ``remove:`` mapping deletes entries by key: ``{hexes: [A1], privates: [B&M],
    trains: [7E], 'stock_market.spaces': [50]}`` (a dotted path reaches a nested collection;
    in a list of plain values the key is the value itself);
  - a top-level ``replace:`` list names top-level keys the variant gives whole, not merged
    (``replace: [hexes]`` for a new map);
  - a top-level ``set:`` mapping changes one value anywhere, lists without a natural key
    included: ``{'stock_market.spaces.3': 66, 'lays.corporation.1.cost': 30}`` (a dotted
    address; a list entry by its 0-based index, or by its natural key in a keyed list).  The
    address must exist in the merged file; ``set:`` applies after the merge and ``replace:``,
    before ``remove:`` (so indices are the merged list's).

The merge works on ruamel's round-trip trees, so every merged value keeps the line and column
of the file it came from.  :class:`MergedDoc` (a :class:`~ferrovia.data.loader.YamlDoc`) reports
errors in the variant's own file; a value the variant inherited is reported at the variant
entry that holds it (or its file, or its ``extends:``) with ``(inherited from FILE:LINE:COL)``.

>>> from ferrovia.data.loader import parse_yaml
>>> base, _ = parse_yaml("trains:\\n  - {name: 2H, price: 100, gauge: broad}\\n  - {name: 7E}\\n",
...                      "base/trains.yaml")
>>> over, _ = parse_yaml("trains:\\n  - {name: 2H, price: 120}\\nremove: {trains: [7E]}\\n",
...                      "var/trains.yaml")
>>> doc = merge_docs(base, over, "var/trains.yaml", anchor=("var/game.yaml", 1, 1))
>>> plain(doc.data)
{'trains': [{'name': '2H', 'price': 120, 'gauge': 'broad'}]}
>>> doc.locate(("trains", 0, "price"))
('var/trains.yaml', 2, 23, '')
>>> doc.locate(("trains", 0, "gauge"))
('var/trains.yaml', 2, 5, ' (inherited from base/trains.yaml:2:35)')
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ferrovia.data.loader import PathItem, YamlDoc, load_model, validate_model
from ferrovia.errors import DataError, SourcePos
from ferrovia.notation.errors import QuoteStyle
from ferrovia.paths import gamedata_root
from pydantic import BaseModel
from ruamel.yaml.comments import CommentedMap, CommentedSeq

__all__ = [
    "KEYED_LISTS",
    "MergedDoc",
    "base_dir",
    "extends_error",
    "game_chain",
    "load_part",
    "merge_docs",
    "origins",
    "part_exists",
    "plain",
    "resolved_files",
]

M = TypeVar("M", bound=BaseModel)

KEYED_LISTS: dict[str, str] = {
    "privates": "symbol",
    "corporations": "symbol",
    "trains": "name",
    "variants": "name",
    "phases": "name",
    "options": "id",
}
"""List key -> the field that names its entries (their natural key)."""

REMOVE = "remove"
REPLACE = "replace"
SET = "set"
EXTENDS = "extends"
PART_FILES = ("map", "tiles", "privates", "companies", "trains", "phases", "market", "options")


def plain(node: Any) -> Any:
    """A ruamel tree as plain dicts and lists (for comparing and printing)."""
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


# ---------------------------------------------------------------------- merged documents
@dataclass
class MergedDoc(YamlDoc):
    """A merged tree whose values remember the file they came from.

    ``file`` is the variant's file of this kind (also when the variant has none, then errors
    about inherited values go to ``anchor``).
    """

    origins: dict[int, dict[PathItem, str]] = field(default_factory=dict)
    """id(container) -> key -> file that gave the value (containers are kept alive by data)."""
    sources: dict[str, list[str]] = field(default_factory=dict)
    """File shown -> its source lines."""
    root_file: str = ""
    anchor: tuple[str, int, int] = ("", 1, 1)
    """Where inherited values are reported when no variant entry holds them."""
    own: bool = False
    """Whether the variant has its own file of this kind."""

    def origin(self, parent: Any, key: PathItem | None) -> str:
        if parent is None or key is None:
            return self.root_file
        return self.origins.get(id(parent), {}).get(key, self.root_file)

    def _chain(self, path: Sequence[PathItem]) -> list[tuple[Any, PathItem]]:
        """(container, key) for each step of ``path`` that exists in the tree."""
        steps: list[tuple[Any, PathItem]] = []
        node: Any = self.data
        for item in path:
            if isinstance(node, dict):
                key: PathItem | None = None
                if item in node:
                    key = item
                elif isinstance(item, int) and str(item) in node:
                    key = str(item)
                if key is not None:
                    steps.append((node, key))
                    node = node[key]
            elif isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node):
                steps.append((node, item))
                node = node[item]
        return steps

    def locate(
        self, path: Sequence[PathItem], *, at_key: bool = False
    ) -> tuple[str, int, int, str]:
        steps = self._chain(path)
        parent, key = steps[-1] if steps else (None, None)
        source = self.origin(parent, key)
        line, col = self.position(path, at_key=at_key)
        if source == self.file:
            return self.file, line, col, ""
        note = f" (inherited from {source}:{line}:{col})"
        # The deepest enclosing value the variant itself wrote, else its file, else extends:.
        for holder, k in reversed(steps[:-1]):
            if self.origin(holder, k) == self.file:
                lc: Any = holder.lc
                kl = lc.key(k) if isinstance(holder, dict) else lc.item(k)
                return self.file, kl[0] + 1, kl[1] + 1, note
        if self.own:
            return self.file, 1, 1, note
        return (*self.anchor, note)

    def _lines_of(self, path: Sequence[PathItem]) -> tuple[str, list[str]]:
        steps = self._chain(path)
        parent, key = steps[-1] if steps else (None, None)
        source = self.origin(parent, key)
        return source, self.sources.get(source, [])

    def scalar_origin(self, path: Sequence[PathItem]) -> tuple[SourcePos, QuoteStyle | None]:
        source, lines = self._lines_of(path)
        view = YamlDoc(source, self.data, lines)
        return view.scalar_origin(path)

    def single_line(self, path: Sequence[PathItem], value: str) -> bool:
        source, lines = self._lines_of(path)
        return YamlDoc(source, self.data, lines).single_line(path, value)


def origins(doc: YamlDoc) -> list[tuple[str, str, int, int]]:
    """Where each entry of a (merged) file came from: ``(path, file, line, col)`` for every
    top-level key and every entry of a top-level collection (hexes, privates, ...).

    >>> from ferrovia.data.loader import parse_yaml
    >>> base, _ = parse_yaml("hexes:\\n  A1: {color: white}\\n  B2: {color: red}\\n", "b.yaml")
    >>> over, _ = parse_yaml("hexes:\\n  B2: {color: blue}\\n", "v.yaml")
    >>> origins(merge_docs(base, over, "v.yaml", anchor=("v.yaml", 1, 1)))
    [('hexes', 'v.yaml', 1, 1), ('hexes.A1', 'b.yaml', 2, 3), ('hexes.B2', 'v.yaml', 2, 3)]
    """
    out: list[tuple[str, str, int, int]] = []
    data = doc.data
    if not isinstance(data, dict):
        return out

    def source(parent: Any, key: PathItem) -> str:
        return doc.origin(parent, key) if isinstance(doc, MergedDoc) else doc.file

    def where(parent: Any, key: PathItem) -> tuple[int, int]:
        lc: Any = parent.lc
        try:
            line, col = lc.key(key) if isinstance(parent, dict) else lc.item(key)
        except (KeyError, TypeError):
            return 1, 1
        return line + 1, col + 1

    for key, value in data.items():
        out.append((str(key), source(data, key), *where(data, key)))
        natural = KEYED_LISTS.get(str(key))
        if isinstance(value, dict):
            for k in value:
                out.append((f"{key}.{k}", source(value, k), *where(value, k)))
        elif isinstance(value, list) and natural:
            for i, entry in enumerate(value):
                name = entry.get(natural) if isinstance(entry, dict) else i
                out.append((f"{key}.{name}", source(value, i), *where(value, i)))
    return out


class _Merger:
    """Builds fresh containers, copying positions and recording each value's file."""

    def __init__(self) -> None:
        self.origins: dict[int, dict[PathItem, str]] = {}
        self.errors: list[DataError] = []

    def _note(self, container: Any, key: PathItem, file: str) -> None:
        self.origins.setdefault(id(container), {})[key] = file

    def adopt(self, node: Any, file: str, origins: dict[int, dict[PathItem, str]]) -> Any:
        """A copy of ``node`` (a tree from ``file``, or already merged with ``origins``)."""
        known = origins.get(id(node), {})
        if isinstance(node, dict):
            out = CommentedMap()
            _copy_lc(node, out)
            for k, v in node.items():
                out[k] = self.adopt(v, known.get(k, file), origins)
                _pos(node, k, out, k)
                self._note(out, k, known.get(k, file))
            return out
        if isinstance(node, list):
            seq = CommentedSeq()
            _copy_lc(node, seq)
            for i, v in enumerate(node):
                seq.append(self.adopt(v, known.get(i, file), origins))
                _pos(node, i, seq, i)
                self._note(seq, i, known.get(i, file))
            return seq
        return node

    def merge(
        self,
        base: Any,
        base_origins: dict[int, dict[PathItem, str]],
        base_file: str,
        over: Any,
        over_file: str,
        list_key: str | None = None,
    ) -> Any:
        """``over`` merged onto ``base`` (both trees); returns a fresh tree."""
        empty: dict[int, dict[PathItem, str]] = {}
        if isinstance(base, dict) and isinstance(over, dict):
            out = CommentedMap()
            _copy_lc(over, out)
            b_known = base_origins.get(id(base), {})
            for k, v in base.items():
                if k in over:
                    continue
                out[k] = self.adopt(v, b_known.get(k, base_file), base_origins)
                _pos(base, k, out, k)
                self._note(out, k, b_known.get(k, base_file))
            for k, v in over.items():
                if v is None:
                    out.pop(k, None)  # `key: ~` removes
                    continue
                if k in base:
                    out[k] = self.merge(
                        base[k],
                        base_origins,
                        b_known.get(k, base_file),
                        v,
                        over_file,
                        k if isinstance(k, str) else None,
                    )
                else:
                    out[k] = self.adopt(v, over_file, empty)
                _pos(over, k, out, k)
                self._note(out, k, over_file)
            # Keep the base's order, with the variant's new keys after.
            order = [k for k in base if k in out] + [k for k in over if k in out and k not in base]
            for k in order:
                out.move_to_end(k)
            return out
        natural = KEYED_LISTS.get(list_key or "")
        if natural and isinstance(base, list) and isinstance(over, list):
            return self.merge_keyed(base, base_origins, base_file, over, over_file, natural)
        return self.adopt(over, over_file, empty)

    def merge_keyed(
        self,
        base: list[Any],
        base_origins: dict[int, dict[PathItem, str]],
        base_file: str,
        over: list[Any],
        over_file: str,
        natural: str,
    ) -> CommentedSeq:
        empty: dict[int, dict[PathItem, str]] = {}
        seq = CommentedSeq()
        _copy_lc(over, seq)
        b_known = base_origins.get(id(base), {})
        by_key = {
            e.get(natural): i for i, e in enumerate(over) if isinstance(e, dict) and natural in e
        }
        used: set[int] = set()
        for i, entry in enumerate(base):
            name = entry.get(natural) if isinstance(entry, dict) else None
            j = by_key.get(name) if name is not None else None
            if j is not None:
                used.add(j)
                seq.append(
                    self.merge(entry, base_origins, b_known.get(i, base_file), over[j], over_file)
                )
                _pos(over, j, seq, len(seq) - 1)
                self._note(seq, len(seq) - 1, over_file)
            else:
                seq.append(self.adopt(entry, b_known.get(i, base_file), base_origins))
                _pos(base, i, seq, len(seq) - 1)
                self._note(seq, len(seq) - 1, b_known.get(i, base_file))
        for j, entry in enumerate(over):
            if j in used:
                continue
            seq.append(self.adopt(entry, over_file, empty))
            _pos(over, j, seq, len(seq) - 1)
            self._note(seq, len(seq) - 1, over_file)
        return seq

    def remove(self, tree: Any, spec: Any, spec_doc: YamlDoc) -> None:
        """Apply a top-level ``remove:`` mapping to the merged ``tree`` (errors to the spec)."""
        if not isinstance(spec, dict):
            self.errors.append(
                spec_doc.error((REMOVE,), "'remove' must map collections to lists of keys")
            )
            return
        for where, keys in spec.items():
            target: Any = tree
            for part in str(where).split("."):
                target = target.get(part) if isinstance(target, dict) else None
            if not isinstance(target, dict | list):
                self.errors.append(
                    spec_doc.key_error((REMOVE, where), f"no collection {where!r} to remove from")
                )
                continue
            if not isinstance(keys, list):
                keys = [keys]
            for n, key in enumerate(keys):
                if not self._remove_one(target, str(where).rsplit(".", 1)[-1], key):
                    self.errors.append(
                        spec_doc.error((REMOVE, where, n), f"{where} has no entry {key!r}")
                    )

    def set_values(self, tree: Any, spec: Any, spec_doc: YamlDoc) -> None:
        """Apply a top-level ``set:`` mapping (address -> new value) to the merged ``tree``."""
        if not isinstance(spec, dict):
            self.errors.append(spec_doc.error((SET,), "'set' must map dotted addresses to values"))
            return
        for address, value in spec.items():
            found = _address(tree, str(address))
            if isinstance(found, str):
                self.errors.append(spec_doc.key_error((SET, address), f"set: {found}"))
                continue
            container, key = found
            container[key] = self.adopt(value, spec_doc.file, {})
            # The new value is reported where the variant wrote it.
            data = getattr(getattr(spec, "lc", None), "data", None) or {}
            where = data.get(address)
            lc: Any = getattr(container, "lc", None)
            if where and lc is not None:
                if lc.data is None:
                    lc.data = {}
                old = lc.data.get(key)
                if isinstance(container, dict):
                    lc.data[key] = [*(old[:2] if old else where[:2]), *where[2:]]
                else:
                    lc.data[key] = list(where[2:])
            self._note(container, key, spec_doc.file)

    def _remove_one(self, target: Any, name: str, key: Any) -> bool:
        if isinstance(target, dict):
            for k in list(target):
                if k == key or str(k) == str(key):
                    del target[k]
                    return True
            return False
        natural = KEYED_LISTS.get(name)
        for i, entry in enumerate(target):
            hit = (
                isinstance(entry, dict) and natural is not None and entry.get(natural) == key
            ) or entry == key
            if hit:
                _delete_item(target, i, self.origins)
                return True
        return False


def _address(tree: Any, address: str) -> tuple[Any, PathItem] | str:
    """The (container, key) a dotted ``set:`` address names, or why there is none.

    >>> from ferrovia.data.loader import parse_yaml
    >>> doc, _ = parse_yaml("a:\\n  spaces: [50, 60]\\n  trains:\\n  - {name: 2H}\\n", "f.yaml")
    >>> _address(doc.data, "a.spaces.1")[1], _address(doc.data, "a.trains.2H.name")[1]
    (1, 'name')
    >>> _address(doc.data, "a.spaces.5")
    "no entry 5 in 'a.spaces' (it has 2, from 0)"
    """
    parts = address.split(".")
    node: Any = tree
    walked: list[str] = []
    for n, part in enumerate(parts):
        last = n == len(parts) - 1
        key: PathItem | None = None
        if isinstance(node, dict):
            key = next((k for k in node if k == part or str(k) == part), None)
            if key is None:
                return f"no {part!r} in {'.'.join(walked) or 'the file'!r}"
        elif isinstance(node, list):
            natural = KEYED_LISTS.get(walked[-1] if walked else "")
            if natural is not None:
                key = next(
                    (
                        i
                        for i, e in enumerate(node)
                        if isinstance(e, dict) and str(e.get(natural)) == part
                    ),
                    None,
                )
            if key is None and part.isdigit():
                key = int(part) if int(part) < len(node) else None
                if key is None:
                    where = ".".join(walked)
                    return f"no entry {part} in {where!r} (it has {len(node)}, from 0)"
            if key is None:
                return f"no entry {part!r} in {'.'.join(walked)!r}"
        else:
            return f"{'.'.join(walked)!r} is a single value, not a collection"
        if last:
            return node, key
        node = node[key]
        walked.append(part)
    return "an empty address"


def _pos(src: Any, key: Any, dst: Any, dst_key: Any) -> None:
    """Copy the recorded position of ``src[key]`` to ``dst[dst_key]``."""
    data = getattr(getattr(src, "lc", None), "data", None)
    if data and key in data:
        if dst.lc.data is None:
            dst.lc.data = {}
        dst.lc.data[dst_key] = list(data[key])


def _copy_lc(src: Any, dst: Any) -> None:
    lc = getattr(src, "lc", None)
    if lc is not None:
        dst.lc.line, dst.lc.col = lc.line, lc.col
    fa: Any = getattr(src, "fa", None)
    if fa is not None and fa.flow_style():
        dst.fa.set_flow_style()  # resolve prints short entries as they were written


def _delete_item(seq: CommentedSeq, i: int, origins: dict[int, dict[PathItem, str]]) -> None:
    """Delete item ``i`` and shift the positions and origins of the items after it."""
    known = origins.get(id(seq), {})
    n = len(seq)
    if seq.lc.data is None:
        seq.lc.data = {}
    for j in range(i, n - 1):
        if j + 1 in seq.lc.data:
            seq.lc.data[j] = seq.lc.data[j + 1]
        if j + 1 in known:
            known[j] = known[j + 1]
    seq.lc.data.pop(n - 1, None)
    known.pop(n - 1, None)
    del seq[i]


def merge_docs(
    base: YamlDoc,
    over: YamlDoc | None,
    file: str,
    *,
    anchor: tuple[str, int, int],
    drop: Sequence[str] = (),
) -> MergedDoc:
    """``over`` (the variant's file, or None) merged onto ``base``; reported as ``file``.

    ``base`` may itself be a :class:`MergedDoc` (a variant of a variant).  Errors in a
    ``remove:`` list are raised as :class:`DataErrors` by :func:`load_part`; here they are kept
    on the result's ``merge_errors``.
    """
    m = _Merger()
    base_origins = base.origins if isinstance(base, MergedDoc) else {}
    base_root = base.root_file if isinstance(base, MergedDoc) else base.file
    sources = dict(base.sources) if isinstance(base, MergedDoc) else {}
    sources.setdefault(base.file, base.lines)
    if over is None or over.data is None:
        data = m.adopt(base.data, base_root, base_origins)
    else:
        sources[over.file] = over.lines
        over_data = over.data
        spec = None
        replace: Any = []
        settings: Any = None
        if isinstance(over_data, dict) and any(k in over_data for k in (REMOVE, REPLACE, SET)):
            spec = over_data.get(REMOVE)
            replace = over_data.get(REPLACE) or []
            settings = over_data.get(SET)
            over_data = CommentedMap(over_data)
            _copy_lc(over.data, over_data)
            for k in over.data:
                _pos(over.data, k, over_data, k)
            over_data.pop(REMOVE, None)
            over_data.pop(REPLACE, None)
            over_data.pop(SET, None)
        data = m.merge(base.data, base_origins, base_root, over_data, over.file)
        if not isinstance(replace, list):
            m.errors.append(over.error((REPLACE,), "'replace' must list top-level keys"))
            replace = []
        for n, key in enumerate(replace):
            # The variant's value is taken whole (e.g. a new map's hexes), not merged.
            if key not in over_data:
                m.errors.append(over.error((REPLACE, n), f"replace: this file has no {key!r}"))
                continue
            data[key] = m.adopt(over_data[key], over.file, {})
        if settings is not None:
            m.set_values(data, settings, over)
        if spec is not None:
            m.remove(data, spec, over)
    for key in drop:
        if isinstance(data, dict):
            data.pop(key, None)
    doc = MergedDoc(
        file,
        data,
        over.lines if over is not None else [],
        origins=m.origins,
        sources=sources,
        root_file=over.file if over is not None else base_root,
        anchor=anchor,
        own=over is not None,
    )
    doc.merge_errors = m.errors  # type: ignore[attr-defined]
    return doc


# ---------------------------------------------------------------------- games and their bases
MAX_BASES = 8
"""How many bases a chain of ``extends`` may have (a variant of a variant of ... a game)."""


def _show(path: Path) -> str:
    """Relative to the working directory when below it, else absolute (as validate shows)."""
    path = path.resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def base_dir(game_dir: Path, extends: str) -> Path:
    """Where ``extends: NAME`` points: a relative path, else a sibling, else ``gamedata/NAME``."""
    if "/" in extends or extends.startswith("."):
        return (game_dir / extends).resolve()
    sibling = game_dir.resolve().parent / extends
    if (sibling / "game.yaml").is_file():
        return sibling
    return gamedata_root() / extends


def _raw_extends(game_dir: Path, shown: str) -> tuple[YamlDoc | None, str | None, list[DataError]]:
    from ferrovia.data.loader import load_yaml

    doc, errors = load_yaml(game_dir / "game.yaml", os.path.join(shown, "game.yaml"))
    if doc is None or not isinstance(doc.data, dict):
        return doc, None, errors
    value = doc.data.get(EXTENDS)
    if value is None:
        return doc, None, errors
    if not isinstance(value, str) or not value:
        errors.append(doc.error((EXTENDS,), "'extends' must name a base game directory"))
        return doc, None, errors
    return doc, value, errors


def _has_extends(doc: YamlDoc | None) -> bool:
    return doc is not None and isinstance(doc.data, dict) and doc.data.get(EXTENDS) is not None


def extends_error(game_dir: Path, shown: str | None = None) -> DataError | None:
    """What is wrong with the chain of bases a game extends (None if nothing): an ``extends``
    that is not a name, a base without ``game.yaml``, a game that extends itself, or a cycle
    (reported at the game's own ``extends:``, naming the chain).  A game.yaml that cannot be
    read is left to the loader.
    """
    label = shown if shown is not None else _show(game_dir)
    seen: list[tuple[Path, str]] = []
    top: tuple[str, int, int] | None = None
    current = game_dir
    while True:
        doc, ext, _ = _raw_extends(current, label)
        if not _has_extends(doc):
            return None
        assert doc is not None
        line, col = _value_pos(doc)
        if ext is None:
            value = doc.data[EXTENDS] if isinstance(doc.data, dict) else None
            got = (
                "a list"
                if isinstance(value, list)
                else "a mapping"
                if isinstance(value, dict)
                else repr(value)
            )
            return DataError(
                doc.file, line, col, f"'extends' must name a base game directory, got {got}"
            )
        top = top or (doc.file, line, col)
        seen.append((current.resolve(), label))
        if len(seen) > MAX_BASES:
            first = " -> ".join(lab for _, lab in seen[:3])
            return DataError(
                *top,
                f"extends: a chain of more than {MAX_BASES} bases, the limit"
                f" ({first} -> ... -> {label} -> {ext})",
            )
        base = base_dir(current, ext)
        if not (base / "game.yaml").is_file():
            return DataError(
                doc.file, line, col, f"extends: no game {ext!r} ({_show(base)}/game.yaml)"
            )
        dirs = [d for d, _ in seen]
        if base.resolve() in dirs:
            if len(seen) == 1:
                return DataError(doc.file, line, col, "extends: the game extends itself")
            # Named from the game asked about, so the loop reads in the order it was written.
            chain = [lab for _, lab in seen] + [seen[dirs.index(base.resolve())][1]]
            return DataError(*top, f"extends: a cycle of bases: {' -> '.join(chain)}")
        current, label = base, _show(base)


def _value_pos(doc: YamlDoc) -> tuple[int, int]:
    """Where the ``extends:`` value is written (also when it is a list or a mapping)."""
    lc: Any = getattr(doc.data, "lc", None)
    try:
        line, col = lc.value(EXTENDS)
    except (AttributeError, KeyError, TypeError):
        return doc.position((EXTENDS,))
    return line + 1, col + 1


def _present(path: Path) -> bool:
    """A file to read, or a link that cannot be followed (reading it then says why)."""
    return path.exists() or path.is_symlink()


def game_chain(game_dir: Path, shown: str | None = None) -> list[tuple[Path, str]]:
    """The game and the bases it extends, variant first: [(directory, shown), ...]."""
    chain: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    current: Path | None = game_dir
    label = shown if shown is not None else _show(game_dir)
    while current is not None and current.resolve() not in seen and len(chain) <= MAX_BASES:
        seen.add(current.resolve())
        chain.append((current, label))
        _, ext, _ = _raw_extends(current, label)
        if ext is None:
            break
        current = base_dir(current, ext)
        label = _show(current)
    return chain


def _merged(
    game_dir: Path, shown: str, name: str, kind: str, depth: int = 0
) -> tuple[YamlDoc | None, list[DataError]]:
    """The document of file ``name`` of the game at ``game_dir``, merged over its bases."""
    from ferrovia.data.loader import load_yaml

    path = game_dir / name
    file = os.path.normpath(os.path.join(shown, name))
    game_doc, ext, errors = _raw_extends(game_dir, shown)
    if ext is None:
        if not _present(path):
            return None, [DataError(file, 1, 1, "file not found")]
        doc, more = load_yaml(path, file)
        return doc, errors + more if kind == "game" else more
    errors = list(errors) if kind == "game" else []
    base = base_dir(game_dir, ext)
    assert game_doc is not None
    ext_pos = game_doc.position((EXTENDS,))
    anchor = (game_doc.file, *ext_pos)
    if depth > MAX_BASES or not (base / "game.yaml").is_file():
        what = (
            f"a chain of more than {MAX_BASES} bases, the limit"
            if depth > MAX_BASES
            else f"no game {ext!r} ({_show(base)}/game.yaml)"
        )
        if kind == "game":
            errors.append(DataError(game_doc.file, *ext_pos, f"extends: {what}"))
        return None, errors
    base_shown = _show(base)
    base_name = name
    if kind != "game":
        # The base may name its file of this kind differently (game.yaml files:).
        bgame, _ = _merged(base, base_shown, "game.yaml", "game", depth + 1)
        files = bgame.data.get("files") if bgame and isinstance(bgame.data, dict) else None
        if isinstance(files, dict) and _inside_name(files.get(kind)):
            base_name = files[kind]
    base_doc, base_errors = _merged(base, base_shown, base_name, kind, depth + 1)
    errors += [e for e in base_errors if kind != "game" or e not in errors]
    if base_doc is None:
        if kind == "options" and not _present(path):
            return None, []
        if not _present(path):
            # The base's own reason (a file it cannot read) says more than "not found".
            return None, errors or [
                DataError(file, 1, 1, "file not found (neither here nor in the base)")
            ]
        doc, more = load_yaml(path, file)
        return doc, errors + more
    over = None
    if _present(path):
        over, more = load_yaml(path, file)
        errors += more
        if over is None:
            return None, errors
    merged = merge_docs(base_doc, over, file, anchor=anchor)
    errors += merged.merge_errors  # type: ignore[attr-defined]
    return merged, errors


def part_exists(game_dir: Path, name: str) -> bool:
    """Whether the game, or a base it extends, has a file of this kind."""
    return any((directory / name).exists() for directory, _ in game_chain(game_dir))


def load_part(
    game_dir: Path, shown: str, name: str, kind: str, model: type[M]
) -> tuple[YamlDoc | None, M | None, list[DataError]]:
    """Like :func:`ferrovia.data.loader.load_model` for file ``name`` of a game, merged over its
    bases.

    A game without ``extends`` loads exactly as before (cached by text).
    """
    path = game_dir / name
    file = os.path.normpath(os.path.join(shown, name))
    game_doc, ext, _ = _raw_extends(game_dir, shown)
    if _has_extends(game_doc):
        problem = extends_error(game_dir, shown)
        if problem is not None:
            # Nothing can be merged: one error at the extends:, not each file's noise.
            return None, None, [problem] if kind == "game" else []
    if ext is None:
        return load_model(path, file, model)
    doc, errors = _merged(game_dir, shown, name, kind)
    if doc is None:
        return None, None, errors
    if doc.data is None:
        return doc, None, [*errors, DataError(file, 1, 1, "the file is empty")]
    result, more = validate_model(doc, model)
    return doc, result, errors + more


def resolved_files(game_dir: Path, shown: str | None = None) -> dict[str, YamlDoc]:
    """Kind -> merged document of every file of the game (``game`` first), for resolve/diff."""
    label = shown if shown is not None else _show(game_dir)
    out: dict[str, YamlDoc] = {}
    problem = extends_error(game_dir, label)
    if problem is not None:
        raise _errors([problem])
    game, errors = _merged(game_dir, label, "game.yaml", "game")
    if game is None:
        raise _errors(errors)
    out["game"] = game
    files = game.data.get("files") if isinstance(game.data, dict) else None
    for kind in PART_FILES:
        name = f"{kind}.yaml"
        if isinstance(files, dict) and isinstance(files.get(kind), str):
            if not _inside_name(files[kind]):
                # never read a data file from outside the game directory
                raise _errors([game.error(("files", kind), _outside(files[kind]) or "")])
            name = files[kind]
        doc, errs = _merged(game_dir, label, name, kind)
        if doc is not None:
            out[kind] = doc
        elif kind != "options" and errs:
            raise _errors(errs)
    return out


def _inside_name(value: Any) -> bool:
    """A ``files:`` entry that names a file inside the game directory."""
    return isinstance(value, str) and _outside(value) is None


def _outside(value: str) -> str | None:
    from ferrovia.schemas.game import inside_problem

    return inside_problem(value)


def _errors(errors: list[DataError]) -> Exception:
    from ferrovia.errors import DataErrors

    return DataErrors(errors)
