"""The typed ruling the live table keeps, shows and logs (issue 22): for every poker game it holds
what the rules engine ruled, field for field, and writes the JSON every tool has always read; a
stored ruling that is not one is refused with the field named, and a reader shows the hand
without it."""
from __future__ import annotations

import json
import random

import pytest

from dealer_assist.games import find_game
from dealer_assist.live.events import HandEnd, Showdown, event_from_json
from dealer_assist.live.ruling import GamePayout, RulingFormatError, TableRuling, ruling_from_json
from dealer_assist.rules.daifugo import payout
from test_independent_winners import random_table

TABLES = 150


def _joker_table(rng: random.Random) -> dict:
    """A random hold'em table with the joker in one live seat's hole (Joker NLH)."""
    table = random_table(rng, "holdem")
    table["game"] = "joker-holdem"
    live = [s for s in table["seats"] if not s.get("folded") and s.get("hole")]
    rng.choice(live)["hole"][rng.randrange(2)] = "JK"
    return table


@pytest.mark.parametrize("game", ["holdem", "joker-holdem", "holdem-hilo", "stud7", "lowball-a5", "lowball-27"])
def test_the_typed_ruling_is_the_engines_ruling_field_for_field_on_random_tables(game):
    rng = random.Random(f"table-ruling {game}")
    rules = find_game(game).rules
    for _ in range(TABLES):
        table = _joker_table(rng) if game == "joker-holdem" else random_table(rng, game)
        result = rules.settle(table)
        typed = TableRuling.of(result)
        # the same JSON, key for key and in the engine's order: the event line and the log unchanged
        assert list(typed.to_json().items()) == list(result.to_json().items())
        assert typed.result is result
        # the desk reads the engine's numbers as they are
        assert typed.payouts == dict(result.payouts)
        assert [p.winners for p in typed.pots] == [tuple(a.winners) for a in result.awards]
        assert {s: h.best_five for s, h in typed.hands.items()} == {
            s: tuple(str(c) for c in h.best_five) for s, h in result.hands.items()}
        # read back from the hand log: the same ruling (the engine's object is not stored)
        back = TableRuling.from_json(json.loads(json.dumps(typed.to_json())))
        assert back == typed and back.result is None


def test_half_texas_the_colour_points_ride_as_the_games_own_fields_and_the_engine_result_stays_typed():
    from dealer_assist.live.half_texas import HalfTexasFlow

    obj = {"game": "half-texas", "board": ["8s", "8h", "9s", "Ts", "2h"], "raises": 1,
           "seats": [{"seat": 1, "hole": ["Th", "3h"], "bp": 10, "rp": 10},
                     {"seat": 2, "hole": ["As", "Ah"], "bp": 4, "rp": 1}]}
    rules = find_game("half-texas").rules
    result = rules.ruling(obj)
    typed = HalfTexasFlow().table_ruling(result)
    assert list(typed.to_json().items()) == list(rules.settle(obj).items())    # settle's JSON, in its order
    assert typed.payouts == {} and typed.pots == ()              # nobody is paid chips
    assert typed.winners_of_pots() == (1,) and typed.hands[1].category == "twin_tower"
    assert typed.note("points")["2"]["rp"] == -1                 # it had 1 RP: points stop at 0
    assert result.standings[2].dropped and result.dropouts == (2,)


def test_a_daifugo_payout_is_typed_and_writes_the_engines_json():
    paid = payout((1, 2, 3), 1, {2: 4, 3: 5})
    typed = GamePayout.of(paid)
    assert list(typed.to_json().items()) == list(paid.to_json().items())
    assert typed.winner == 1 and typed.payouts == dict(paid.changes) and typed.winners_of_pots() == (1,)
    assert ruling_from_json(paid.to_json()) == typed and isinstance(ruling_from_json(paid.to_json()), GamePayout)


@pytest.mark.parametrize("bad, field", [
    ([1, 2], "JSON object"),
    ({"game": "holdem", "payouts": {"one": 2}}, "payouts"),
    ({"game": "holdem", "payouts": {"1": "lots"}}, "payouts"),
    ({"game": "holdem", "pots": "all of it"}, "pots"),
    ({"game": "holdem", "hands": {"1": ["As"]}}, "hands"),
    ({"game": "holdem", "provisional": "yes"}, "provisional"),
    ({"game": "holdem", "unsure": [{"card": "As"}]}, "unsure"),
    ({"game": 7}, "game"),
])
def test_a_stored_ruling_that_is_not_one_is_refused_naming_the_field(bad, field):
    with pytest.raises(RulingFormatError, match=field):
        TableRuling.from_json(bad)


def test_a_damaged_ruling_in_the_log_loses_the_ruling_not_the_hands_end():
    good = TableRuling.of(find_game("holdem").rules.settle(random_table(random.Random(3), "holdem")))
    end = HandEnd(9.0, 135, 1, ruling=good, board=("As",)).to_json()
    assert event_from_json(end) == HandEnd(9.0, 135, 1, ruling=good, board=("As",))
    end["ruling"] = {"game": "holdem", "payouts": {"1": "lots"}}
    back = event_from_json(end)
    assert isinstance(back, HandEnd) and back.ruling is None and back.board == ("As",)
    # a showdown line is its ruling: a damaged one is no event (a reader shows what it can)
    show = Showdown(8.0, 120, 1, ruling=good, table={}).to_json()
    assert event_from_json(show).ruling == good
    show["ruling"] = "a ruling"
    assert event_from_json(show) is None
