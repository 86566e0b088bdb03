"""Bots: chosen per seat by name, deterministic for a seed, playing legal actions only."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from ferrovia.cli import main
from ferrovia.errors import FerroviaError
from ferrovia.kernel.actions import Action
from ferrovia.lib18xx.operating.trains import bank_train_prices
from ferrovia.lib18xx.state import DEPOT, POOL
from ferrovia.play.bots import base, greedy
from ferrovia.play.bots.base import Bot, Turn, bot_class, known_bots, parse_bots
from ferrovia.play.replay import replay
from ferrovia.play.selfplay import acting_seat, new_game, play

MIXED = ["greedy", "greedy", "random", "greedy"]


class FirstLegal(Bot):
    """A third-party bot: always the first legal action."""

    NAME = "first"

    def choose(self, turn: Turn) -> Action:
        return turn.legal[0]


@pytest.mark.parametrize("module", [base, greedy])
def test_doctests(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0


def test_bots_are_found_by_name_entry_point_or_import_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert bot_class("random").NAME == "random" and bot_class("greedy").NAME == "greedy"
    assert bot_class("test_bots:FirstLegal") is FirstLegal
    fake = SimpleNamespace(name="first", load=lambda: FirstLegal)
    monkeypatch.setattr(
        base, "entry_points", lambda group: [fake] if group == "ferrovia.bots" else []
    )
    assert bot_class("first") is FirstLegal
    assert known_bots() == ["first", "greedy", "random"]
    with pytest.raises(
        FerroviaError, match="unknown bot 'nope' \\(known: first, greedy, random\\)"
    ):
        bot_class("nope")
    with pytest.raises(FerroviaError, match="cannot import"):
        bot_class("no_such_module:Bot")
    with pytest.raises(FerroviaError, match=r"not a ferrovia\.play\.bots\.base\.Bot subclass"):
        bot_class("json:dumps")


def test_parse_bots_fills_or_checks_the_seats() -> None:
    assert parse_bots("greedy,random", 2) == ["greedy", "random"]
    assert parse_bots("greedy", 3) == ["greedy"] * 3
    with pytest.raises(FerroviaError, match="names 2 bots for 4 players"):
        parse_bots("greedy,random", 4)


def test_a_third_party_bot_plays_a_seat() -> None:
    res = play(4, 3, max_actions=60, bots=["test_bots:FirstLegal", *MIXED[1:]])
    assert res.log["bots"]["1"] == "test_bots:FirstLegal"
    assert len(res.actions) == 60


def test_greedy_is_deterministic_for_a_seed_and_its_log_replays() -> None:
    a = play(4, 7, max_actions=400, bots=MIXED)
    b = play(4, 7, max_actions=400, bots=MIXED)
    assert a.log == b.log
    assert a.state.dumps() == b.state.dumps()
    again = replay(json.loads(json.dumps(a.log)))
    assert again.error is None and again.state.dumps() == a.state.dumps()
    other = play(4, 8, max_actions=400, bots=MIXED)
    assert other.log["actions"] != a.log["actions"]
    # by action 400 the greedy table has started companies that lay track and run trains
    kinds = {x["type"] for x in a.log["actions"]}
    assert {"bid", "buy_shares", "lay_tile", "buy_train", "run_routes", "dividend"} <= kinds


def test_play_seats_bots_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "g.json"
    args = ["play", "--players", "4", "--seed", "2", "--max-actions", "150", "--json"]
    assert main([*args, "--bots", ",".join(MIXED), "--log", str(log)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["actions"] == 150
    written = json.loads(log.read_text())
    assert written["bots"] == {"1": "greedy", "2": "greedy", "3": "random", "4": "greedy"}
    assert main([*args, "--bots", "greedy,random"]) == 2
    assert capsys.readouterr().err == "ferrovia play: --bots names 2 bots for 4 players\n"
    assert main([*args, "--bots", "greedy,nope,random,greedy"]) == 2
    assert "unknown bot 'nope'" in capsys.readouterr().err


def test_greedy_1830_game_ends_by_the_bank_not_by_bankruptcy() -> None:
    # greedy once played 1830's stock round and auction at random (their steps have other
    # names than 1858's) and parred companies nobody could float: 0/6 games broke the bank
    started: list[tuple[str, bool]] = []

    def first_or(game: Any, state: Any, action: Any) -> None:
        if state.round.kind == "operating" and not started:
            started.extend((c.sym, c.floated) for c in state.corporations.values() if c.ipoed)

    res = play(4, 2, game_name="1830", bots=["greedy"] * 4, observer=first_or)
    assert res.state.finished and res.state.game_end_reason == "bank"
    assert "bankrupt" not in [a["type"] for a in res.actions]
    # a director starts only a company it can float alone: every company started in the
    # first stock round operates in the first operating round (none waits, trainless)
    assert len(started) >= 3 and all(floated for _, floated in started)


def _greedy_until(game_name: str, seed: int, found: Any) -> tuple[Turn, greedy.GreedyBot]:
    """A greedy 4-player game played until ``found(turn, bot)`` holds: that turn, not yet
    played, and the bot of its seat."""
    game, state = new_game(4, seed, (), game_name)
    bots = {str(i): greedy.GreedyBot(str(i), seed) for i in range(1, 5)}
    while not state.finished:
        entity = game.current_entity(state)
        assert entity is not None
        seat = acting_seat(game, state, entity) or "1"
        turn = Turn(game, state, seat, entity, game.active_step(state))
        if found(turn, bots[seat]):
            return turn, bots[seat]
        game.apply(state, bots[seat].choose(turn))
    raise AssertionError("the game ended first")


def test_greedy_saves_for_a_train_before_its_trains_rust() -> None:
    def all_trains_rust_soon(turn: Turn, bot: greedy.GreedyBot) -> bool:
        state, op = turn.state, turn.entity
        return (
            turn.step_name == "dividend"
            and bool(state.corporations[op].trains)
            and not bot.lasting(turn.game, state, op)
        )

    turn, bot = _greedy_until("1830", 2, all_trains_rust_soon)
    game, state, op = turn.game, turn.state, turn.entity
    corp = state.corporations[op]
    need = bot.train_reserve(game, state, op)
    assert need > 0
    corp.cash = need - 1
    again = Turn(game, state, turn.seat, op, turn.step)
    assert getattr(bot.dividend(again), "kind_", None) == "withhold"
    corp.cash = need
    again = Turn(game, state, turn.seat, op, turn.step)
    assert getattr(bot.dividend(again), "kind_", None) == "payout"


def test_a_trainless_company_buys_from_its_directors_other_company_before_he_pays() -> None:
    def may_buy_from_others(turn: Turn, bot: greedy.GreedyBot) -> bool:
        # a buy-trains turn in which other companies' trains are for sale (1830 never offers
        # them to a company whose president must help pay: its emergency rule)
        state = turn.state
        return (
            turn.step_name == "buy_train"
            and not state.corporations[turn.entity].trains
            and any(
                a.type == "buy_train" and state.trains[a.train].owner in state.corporations
                for a in turn.legal
            )
            and any(
                sum(not state.trains[t].obsolete for t in c.trains) >= 2
                for c in state.corporations.values()
                if c.sym != turn.entity
            )
        )

    turn, bot = _greedy_until("1858", 2, may_buy_from_others)
    game, state, op = turn.game, turn.state, turn.entity
    corp = state.corporations[op]
    # another company with two trains, made the same player's, and a treasury short of any
    # bank train: the director would have to pay
    other = next(
        c
        for c in state.corporations.values()
        if c.sym != op and sum(not state.trains[t].obsolete for t in c.trains) >= 2
    )
    other.director = corp.director
    cheapest = min(bot.depot_prices(game, state))
    corp.cash = cheapest // 2
    director = state.player(corp.director or "")
    director.cash = max(director.cash, cheapest)  # able to pay the rest of a bank train
    choice = bot.buy_train(Turn(game, state, turn.seat, op, turn.step))
    assert choice is not None and choice.type == "buy_train"
    assert state.trains[choice.train].owner == other.sym and choice.price == cheapest // 2
    before = director.cash
    game.apply(state, choice)  # a legal purchase
    assert choice.train in corp.trains and corp.cash == 0 and director.cash == before
    # another director's company is never a seller
    other.director = next(p.id for p in state.players if p.id != corp.director)
    corp.trains.clear()
    corp.cash = cheapest // 2
    offers = bot.sibling_trains(Turn(game, state, turn.seat, op, turn.step))
    assert offers == []


def test_a_company_with_a_train_buys_no_train_that_runs_nothing() -> None:
    # W once held a 4H, could afford only the 4M face of the 5E card, bought it (a train was
    # "wanted") and ran nothing on it for twelve ORs of a broad-gauge network
    def only_metre_affordable(turn: Turn, bot: greedy.GreedyBot) -> bool:
        state = turn.state
        if turn.step_name != "buy_train" or turn.entity not in state.corporations:
            return False
        corp = state.corporations[turn.entity]
        working = [t for t in corp.trains if not state.trains[t].obsolete]
        offers = [
            a
            for a in turn.legal
            if a.type == "buy_train" and state.trains[a.train].owner in (DEPOT, POOL)
        ]
        return (
            bool(working)
            and bool(offers)
            and all((getattr(a, "variant", None) or "").endswith("M") for a in offers)
            and not any(state.trains[t].name.endswith("M") for t in working)
        )

    turn, bot = _greedy_until("1858", 2, only_metre_affordable)
    game, state, op = turn.game, turn.state, turn.entity
    assert bot.buy_train(turn) is None  # the metre face adds nothing to a broad network
    # with the broad face's price in the treasury the same card is bought, broad face up
    card = next(
        a.train
        for a in turn.legal
        if a.type == "buy_train" and state.trains[a.train].owner in (DEPOT, POOL)
    )
    state.corporations[op].cash = greedy.card_price(game, state, card)
    choice = bot.buy_train(Turn(game, state, turn.seat, op, turn.step))
    assert choice is not None and choice.type == "buy_train"
    assert choice.train == card and not (getattr(choice, "variant", None) or "").endswith("M")


def test_a_two_faced_train_is_saved_for_at_its_broad_price() -> None:
    # saving for the metre face's price (the 3M's 200), companies paid out their revenue and
    # then could not buy the 6H (300) a broad network runs
    game, state = new_game(4, 2, (), "1858")
    state.depot = [t for t in state.depot if not t.startswith(("2H", "4H"))]  # the 6Hs on sale
    card = state.depot[0]
    assert bank_train_prices(game, state, card) == {"6H": 300, "3M": 200}
    assert greedy.GreedyBot.depot_prices(game, state)[0] == 300
    trainless = next(iter(state.corporations))
    assert greedy.GreedyBot("1", 2).train_reserve(game, state, trainless) == 300


def test_greedy_values_trains_by_the_games_route_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bot's estimate of a train's worth must be the run legal_actions offers: the same
    # route rules (a wounded train's divisor from trains.yaml), not the engine's defaults
    import ferrovia.routes.search
    from ferrovia.lib18xx.operating import routing

    def buying_with_trains(turn: Turn, bot: greedy.GreedyBot) -> bool:
        state = turn.state
        return (
            turn.step_name == "buy_train"
            and turn.entity in state.corporations
            and bool(state.corporations[turn.entity].trains)
            and any(a.type == "buy_train" for a in turn.legal)
        )

    turn, bot = _greedy_until("1858", 2, buying_with_trains)
    seen: list[Any] = []
    search = ferrovia.routes.search.best_routes

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("rules"))
        return search(*args, **kwargs)

    monkeypatch.setattr(ferrovia.routes.search, "best_routes", spy)
    offers = [a for a in turn.legal if a.type == "buy_train"]
    bot.best_train(turn, offers, forced=False)  # type: ignore[arg-type]
    assert seen and all(r == routing.route_rules(turn.game) for r in seen)
