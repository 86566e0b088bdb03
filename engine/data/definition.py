"""The immutable definition of one game, as the rules engine reads it.

``load_game(path)`` reads ``gamedata/<game>/`` (every YAML file, the tile set it names), checks
it completely (schemas, tile codes, cross-references; see :mod:`ferrovia.data.validate`) and
returns a
:class:`GameDefinition`, or raises :class:`~ferrovia.errors.DataErrors` listing every mistake as
``FILE:LINE:COL: error: MESSAGE``.  Nothing in a definition changes after loading: the
dataclasses are frozen, collections are tuples or read-only mappings, and the file models are
frozen pydantic models (``schemas/``); the game *state* lives elsewhere (``engine/kernel/``).

>>> from ferrovia.paths import gamedata_root
>>> game = load_game(gamedata_root() / "1858")                     # doctest: +SKIP
>>> game.hexes["A14"].name, game.hexes["A14"].tile.cities[0].slots  # doctest: +SKIP
('Lisboa', 2)

What a :class:`GameDefinition` offers
-------------------------------------
identity      ``name``, ``title``, ``subtitle``, ``designer``, ``players`` (``.min``/``.max``),
              ``layout`` (``'flat'``), ``currency`` (``format_money(n)``), ``rules`` (hook set),
              ``game`` (all of game.yaml, e.g. ``game.end.bank_broken``), ``counts()``
map           ``hexes``: coordinate -> :class:`HexDef` (``color``, ``name``, ``code``, parsed
              ``tile``, doubled coordinates ``x``/``y``)
tiles         ``tiles``: name -> :class:`TileDef` (``color``, ``count`` or ``None`` for
              unlimited, ``code``, parsed ``tile``, ``upgrades_to``, ``own``);
              ``upgrade_rules`` (:class:`ferrovia.schemas.tiles.UpgradeRules`: colour order, ...),
              ``tile_lays`` (operator kind -> tile operations per turn)
privates      ``privates`` (tuple of :class:`ferrovia.schemas.privates.Private`, number order),
              ``private(symbol)``, ``private_income(symbol, phase)``,
              ``two_player_unavailable``
corporations  ``corporations`` (tuple of :class:`ferrovia.schemas.companies.Corporation`),
              ``corporation(symbol)``, ``share_structures``, ``companies`` (capitalisation,
              conversion)
trains        ``trains`` (tuple of :class:`ferrovia.schemas.trains.Train`, each with ``variants``),
              ``train(name)`` -> (type, variant or None), ``train_count(name, players)``,
              ``wounded`` (rules of obsolete trains)
phases        ``phases`` (tuple of :class:`ferrovia.schemas.phases.Phase`), ``phase(name)``
market        ``market`` (:class:`ferrovia.schemas.market.MarketFile`: stock market spaces and par
              values, price movement, station costs), ``bank_cash(players)``,
              ``cert_limit(players)``, ``starting_cash(players)``, ``holding_limit(players)``
options       ``options`` (tuple of :class:`ferrovia.schemas.options.Option`), ``option(id)``
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, cast

from ferrovia.errors import DataErrors
from ferrovia.notation.models import Tile

if TYPE_CHECKING:  # at run time the definition holds records of these (ferrovia.data.records)
    from ferrovia.schemas.companies import CompaniesFile, Corporation, ShareStructure
    from ferrovia.schemas.game import GameFile, Players
    from ferrovia.schemas.map import RouteBonus
    from ferrovia.schemas.market import MarketFile
    from ferrovia.schemas.options import Option, OptionsFile
    from ferrovia.schemas.phases import Phase, PhasesFile
    from ferrovia.schemas.privates import Private, PrivatesFile, TwoPlayerUnavailable
    from ferrovia.schemas.tiles import SpecialLay, TileLay, UpgradeRules
    from ferrovia.schemas.trains import CompanySales, Train, TrainsFile, Variant, WoundedRules

__all__ = [
    "GameDefinition",
    "HexDef",
    "TileDef",
    "load_game",
]


@dataclass(frozen=True, slots=True)
class HexDef:
    """One hex of the board as printed."""

    coord: str
    """Coordinate as written in map.yaml (``'A14'``)."""
    color: str
    """white, yellow, green, brown, gray, red (off-board) or blue (sea)."""
    name: str | None
    """Location name, if any."""
    code: str
    """Preprinted contents in tile notation (``''`` for a plain hex)."""
    tile: Tile
    """``code`` parsed."""
    x: int
    """Column index (``A`` = 0): 18xx.games' doubled x."""
    y: int
    """Row number - 1: 18xx.games' doubled y."""


@dataclass(frozen=True, slots=True)
class TileDef:
    """One tile type of the game's manifest."""

    name: str
    color: str
    count: int | None
    """Copies in the game; ``None`` = unlimited."""
    code: str
    tile: Tile
    upgrades_to: tuple[str, ...] | None = None
    """Explicit upgrade list from tiles.yaml, or None when the generic rules decide."""
    own: bool = False
    """Defined in the game's tiles.yaml rather than taken from the tile set."""
    special_lay: SpecialLay | None = None
    """tiles.yaml ``special_lay``: laid straight on a white hex of a terrain cost, for its own
    price."""


def _per_players(table: Mapping[int, int], players: int, what: str) -> int:
    try:
        return table[players]
    except KeyError:
        counts = ", ".join(str(k) for k in sorted(table))
        raise ValueError(f"no {what} for {players} players (defined for {counts})") from None


@dataclass(frozen=True)
class GameDefinition:
    """Everything fixed about one game; see the module docstring for an overview."""

    path: Path
    """The game directory it was loaded from."""
    game: GameFile
    hexes: Mapping[str, HexDef]
    tiles: Mapping[str, TileDef]
    upgrade_rules: UpgradeRules
    tile_lays: Mapping[str, tuple[TileLay, ...]]
    """Tile operations per operating turn by operator kind (``corporation``, ``private``)."""
    privates: tuple[Private, ...]
    two_player_unavailable: TwoPlayerUnavailable | None
    companies: CompaniesFile
    trains_file: TrainsFile
    phases: tuple[Phase, ...]
    market: MarketFile
    options: tuple[Option, ...]
    route_bonuses: Mapping[str, RouteBonus] = field(default_factory=dict)
    """map.yaml ``route_bonuses``: name -> a route bonus."""
    private_lay: TileLay | None = None
    """The tile operation of a private's extra lay (an upgrade allowed, no cost of its own):
    made with the definition, so a replay needs no schema model (built by build_definition)."""
    _index: dict[str, dict[str, object]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Read-only views of the mappings, so no caller can change the definition by accident.
        object.__setattr__(self, "hexes", MappingProxyType(dict(self.hexes)))
        object.__setattr__(self, "tiles", MappingProxyType(dict(self.tiles)))
        object.__setattr__(self, "tile_lays", MappingProxyType(dict(self.tile_lays)))
        index: dict[str, dict[str, object]] = {
            "private": {p.symbol: p for p in self.privates},
            "corporation": {c.symbol: c for c in self.companies.corporations},
            "phase": {p.name: p for p in self.phases},
            "option": {o.id: o for o in self.options},
            "train": {},
        }
        for train in self.trains_file.trains:
            index["train"][train.name] = (train, None)
            for variant in train.variants:
                index["train"][variant.name] = (train, variant)
        object.__setattr__(self, "_index", index)

    # ------------------------------------------------------------------ identity
    @property
    def name(self) -> str:
        return self.game.name

    @property
    def title(self) -> str:
        return self.game.title

    @property
    def subtitle(self) -> str | None:
        return self.game.subtitle

    @property
    def designer(self) -> str | None:
        return self.game.designer

    @property
    def players(self) -> Players:
        return self.game.players

    @property
    def layout(self) -> str:
        return self.game.layout

    @property
    def currency(self) -> str:
        return self.game.currency

    @property
    def rules(self) -> str:
        """Name of the rule-hook set in ``engine/games/``."""
        return self.game.rules

    def format_money(self, amount: int) -> str:
        """``P120`` for 1858 (the game's currency format)."""
        return self.game.currency.replace("%d", str(amount))

    # ------------------------------------------------------------------ companies
    @property
    def corporations(self) -> tuple[Corporation, ...]:
        return self.companies.corporations

    @property
    def share_structures(self) -> Mapping[str, ShareStructure]:
        return MappingProxyType(self.companies.share_structures)

    def corporation(self, symbol: str) -> Corporation:
        """The public company with this symbol (KeyError if none)."""
        return cast("Corporation", self._index["corporation"][symbol])

    def private(self, symbol: str) -> Private:
        """The private railway with this symbol (KeyError if none)."""
        return cast("Private", self._index["private"][symbol])

    # ------------------------------------------------------------------ trains, phases
    @property
    def trains(self) -> tuple[Train, ...]:
        """Train types in sale order; each has its ``variants`` (other faces)."""
        return self.trains_file.trains

    @property
    def wounded(self) -> WoundedRules:
        return self.trains_file.wounded

    @property
    def between_companies(self) -> CompanySales:
        """What one company may pay another for a train (trains.yaml ``between_companies``)."""
        return self.trains_file.between_companies

    def train(self, name: str) -> tuple[Train, Variant | None]:
        """The train type named (or owning the variant named), and the variant if any."""
        found = self._index["train"][name]
        assert isinstance(found, tuple)
        return found

    def train_count(self, name: str, players: int) -> int | None:
        """How many of a train type exist with this many players (None = unlimited)."""
        train, _ = self.train(name)
        if isinstance(train.count, dict):
            return train.count[players]
        return train.count

    def phase(self, name: str) -> Phase:
        return cast("Phase", self._index["phase"][name])

    def option(self, option_id: str) -> Option:
        return cast("Option", self._index["option"][option_id])

    # ------------------------------------------------------------------ money
    def bank_cash(self, players: int) -> int:
        return _per_players(self.market.bank, players, "bank size")

    def cert_limit(self, players: int) -> int:
        return _per_players(self.market.certificate_limit, players, "certificate limit")

    def starting_cash(self, players: int) -> int:
        return _per_players(self.market.starting_cash, players, "starting cash")

    def holding_limit(self, players: int) -> int | None:
        """Most percent of one company a player may buy, or None when there is no limit."""
        return self.market.holding_limit.get(players)

    def private_income(self, symbol: str, phase: str) -> int:
        """A private's income in ``phase``: the entry for the latest phase not after it."""
        order = [p.name for p in self.phases]
        now = order.index(phase)
        income = 0
        for name in order[: now + 1]:
            income = self.private(symbol).income.get(name, income)
        return income

    # ------------------------------------------------------------------ summary
    def counts(self) -> dict[str, int]:
        """Sizes shown by ``ferrovia validate`` (hexes, tile types, privates, ...)."""
        return {
            "hexes": len(self.hexes),
            "tiles": len(self.tiles),
            "privates": len(self.privates),
            "corporations": len(self.corporations),
            "trains": len(self.trains),
            "phases": len(self.phases),
        }


def build_definition(
    path: Path,
    *,
    game: GameFile,
    hexes: Mapping[str, HexDef],
    tiles: Mapping[str, TileDef],
    upgrade_rules: UpgradeRules,
    tile_lays: Mapping[str, tuple[TileLay, ...]],
    privates: PrivatesFile,
    companies: CompaniesFile,
    trains: TrainsFile,
    phases: PhasesFile,
    market: MarketFile,
    options: OptionsFile,
    route_bonuses: Mapping[str, RouteBonus] | None = None,
) -> GameDefinition:
    """Assemble a definition from validated parts (used by :mod:`ferrovia.data.validate`)."""
    from ferrovia.schemas.tiles import TileLay  # validated parts: the schemas are loaded

    return GameDefinition(
        path=path,
        game=game,
        hexes=hexes,
        tiles=tiles,
        upgrade_rules=upgrade_rules,
        tile_lays=tile_lays,
        privates=privates.privates,
        two_player_unavailable=privates.two_player_unavailable,
        companies=companies,
        trains_file=trains,
        phases=phases.phases,
        market=market,
        options=options.options,
        route_bonuses=dict(route_bonuses or {}),
        # unvalidated (same value): validating builds TileLay's validator
        private_lay=TileLay.model_construct(upgrade=True),
    )


def load_game(path: Path | str) -> GameDefinition:
    """Load and fully check the game in directory ``path``.

    Raises :class:`~ferrovia.errors.DataErrors` with every error found (all files, all checks).
    A definition that validated is kept on disk while its files are unchanged
    (:mod:`ferrovia.data.defcache`); ``ferrovia validate`` always checks afresh.
    """
    from ferrovia.data.defcache import cached_definition

    return cached_definition(Path(path), _load_checked)


def _load_checked(path: Path) -> GameDefinition:
    from ferrovia.data.records import plain
    from ferrovia.data.validate import validate_game  # late: validate builds definitions

    result = validate_game(path)
    if result.errors or result.definition is None:
        raise DataErrors(result.errors)
    # records, not models: read back from the cache they need no pydantic (ferrovia.data.records)
    return plain(result.definition)
