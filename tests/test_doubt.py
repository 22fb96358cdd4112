"""Whether a doubtful card could change a ruling (dealer_assist.live.doubt): the question that lets
a showdown be final at once when its doubt cannot matter, and keeps it provisional when it can."""
from __future__ import annotations

import random

import pytest

from dealer_assist.cards import DECK_52
from dealer_assist.games import find_game
from dealer_assist.live.doubt import doubt_can_change, ruled_alike

QUADS = {"board": ["Ac", "Ah", "7d", "6d", "5d"], "button": 1, "seats": [
    {"seat": 1, "hole": ["As", "Ad"], "committed": 100},        # four aces
    {"seat": 2, "hole": ["2c", "3c"], "committed": 100},        # a 3 high nothing, read unsure
    {"seat": 3, "hole": ["Kh", "Kc"], "committed": 40}]}        # kings: second in the side pot


def table_of(game: str, obj: dict):
    rules = find_game(game).rules
    return rules, rules.read_table(obj)


def test_a_losers_card_that_no_name_could_lift_does_not_change_the_ruling():
    rules, table = table_of("holdem", QUADS)
    assert doubt_can_change(rules, table, [("seat3", "Kc")]) is False
    assert doubt_can_change(rules, table, [("seat2", "2c")]) is False


def test_the_winners_card_and_a_board_card_can_change_it():
    rules, table = table_of("holdem", QUADS)
    assert doubt_can_change(rules, table, [("seat1", "Ad")]) is False     # trips aces still win
    assert doubt_can_change(rules, table, [("board1", "Ac")]) is True     # a 4d: seat 2's straight
    rules, table = table_of("holdem", {"board": ["Ks", "Js", "6s", "4d", "2c"], "button": 2, "seats": [
        {"seat": 2, "hole": ["Qh", "Qd"], "committed": 50},
        {"seat": 4, "hole": ["As", "8c"], "committed": 50}]})
    assert doubt_can_change(rules, table, [("seat2", "Qh")]) is True      # a 3h: seat 4's ace high wins
    assert doubt_can_change(rules, table, [("seat4", "8c")]) is True      # an 8s: seat 4's flush


def test_two_doubtful_cards_are_tried_together_not_one_by_one():
    """Seat 2's 2c and 3c, each alone, make at best a straight; together (8d 4d) a straight flush
    that beats the four aces."""
    rules, table = table_of("holdem", QUADS)
    assert doubt_can_change(rules, table, [("seat2", "2c")]) is False
    assert doubt_can_change(rules, table, [("seat2", "3c")]) is False
    assert doubt_can_change(rules, table, [("seat2", "2c"), ("seat2", "3c")]) is True


def test_the_joker_is_one_of_the_names_where_the_deck_has_one():
    """Seat 2's Kc read unsure beside four aces on the board and seat 1's Ah: no card of a
    52-card deck wins it, but the joker does (seat 2: four aces with the joker, king kicker).
    Where the deck holds a joker it is tried; where it holds none, never."""
    obj = {"board": ["As", "Ad", "Ac", "7d", "2s"], "button": 1, "seats": [
        {"seat": 1, "hole": ["Ah", "Qc"], "committed": 100},
        {"seat": 2, "hole": ["Kh", "Kc"], "committed": 100}]}
    rules, table = table_of("holdem", obj)
    assert doubt_can_change(rules, table, [("seat2", "Kc")]) is False      # no card beats four aces
    rules, table = table_of("joker-holdem", obj)
    assert doubt_can_change(rules, table, [("seat2", "Kc")]) is True       # the joker


def test_a_joker_surely_seen_elsewhere_is_not_a_name_a_doubtful_card_may_have():
    """Joker NLH's one joker surely in seat 3's hand: seat 2's doubtful Kc cannot be the joker, and
    no other card beats seat 1's four aces. Where seat 3's joker is not sure, it may be."""
    obj = {"board": ["As", "Ad", "Ac", "7d", "2s"], "button": 1, "seats": [
        {"seat": 1, "hole": ["Ah", "Qc"], "committed": 100},
        {"seat": 2, "hole": ["Kh", "Kc"], "committed": 100},
        {"seat": 3, "hole": ["JK", "9h"], "committed": 100}]}
    rules, table = table_of("joker-holdem", obj)
    assert doubt_can_change(rules, table, [("seat2", "Kc")]) is False
    sure = [(f"board{i}", c) for i, c in enumerate(obj["board"], 1)]
    sure += [("seat1", "Ah"), ("seat1", "Qc"), ("seat2", "Kh"), ("seat3", "9h")]
    assert doubt_can_change(rules, table, [("seat2", "Kc")], sure=sure) is True


def test_too_wide_a_doubt_and_a_doubt_not_on_the_table_count_as_a_change():
    rules, table = table_of("holdem", QUADS)
    three = [("seat2", "2c"), ("seat2", "3c"), ("seat3", "Kc")]
    assert doubt_can_change(rules, table, three) is True                   # over MAX_TABLES: not tried
    assert doubt_can_change(rules, table, [("seat3", "Qs")]) is True       # no Qs at seat 3
    assert doubt_can_change(rules, table, [("seat9", "Kc")]) is True
    assert doubt_can_change(rules, table, [("seat3", "K?")]) is True       # not a card
    assert doubt_can_change(rules, table, []) is False


def test_a_card_on_the_table_that_is_not_sure_rules_no_name_out():
    """Only the table's sure cards rule names out: where seat 2's 2c is neither sure nor in the
    doubt (a folded stud seat's up card, say), seat 3's doubtful Kc may be that 2c, and a table
    holding it twice is one the engine refuses: the doubt counts as a change."""
    rules, table = table_of("holdem", QUADS)
    everything = [(z, c) for z, c in ((f"board{i}", b) for i, b in enumerate(QUADS["board"], 1))]
    everything += [(f"seat{s['seat']}", c) for s in QUADS["seats"] for c in s["hole"]]
    sure = [zc for zc in everything if zc not in (("seat3", "Kc"), ("seat2", "2c"))]
    assert doubt_can_change(rules, table, [("seat3", "Kc")], sure=sure + [("seat2", "2c")]) is False
    assert doubt_can_change(rules, table, [("seat3", "Kc")], sure=sure) is True


def test_stud_cards_down_and_up_are_swapped_together():
    rules = find_game("stud7").rules
    table = rules.read_table({"button": 1, "seats": [
        {"seat": 1, "down": ["As", "Ad", "Kd"], "up": ["Ac", "Ah", "2c", "3d"], "committed": 50},
        {"seat": 2, "down": ["9c", "8c", "5h"], "up": ["7h", "6s", "Jd", "4s"], "committed": 50}]})
    assert doubt_can_change(rules, table, [("seat2", "5h")]) is False      # four aces beat any of it
    assert doubt_can_change(rules, table, [("seat1", "Ah")]) is True       # trips aces lose to the straight


@pytest.mark.parametrize("seed", range(6))
def test_a_doubt_said_not_to_matter_never_changes_the_chips(seed):
    """Random hold'em tables, one random doubtful card: where the question says it cannot change
    the ruling, every other name checked by hand gives the same payouts."""
    rng = random.Random(seed)
    rules = find_game("holdem").rules
    moot = 0
    for _ in range(40):
        cards = rng.sample([str(c) for c in DECK_52], 11)
        obj = {"board": cards[:5], "button": 1, "seats": [
            {"seat": s, "hole": cards[5 + 2 * i:7 + 2 * i], "committed": 50 + 25 * i}
            for i, s in enumerate((1, 2, 3))]}
        table = rules.read_table(obj)
        zone, card = rng.choice([(f"seat{s}", c) for i, s in enumerate((1, 2, 3))
                                 for c in cards[5 + 2 * i:7 + 2 * i]])
        if doubt_can_change(rules, table, [(zone, card)]):
            continue
        moot += 1
        base = ruled_alike(rules.settle(obj))
        seat = int(zone[4:])
        for other in (str(c) for c in DECK_52 if str(c) not in cards):
            changed = {**obj, "seats": [{**s, "hole": [other if c == card else c for c in s["hole"]]}
                                        if s["seat"] == seat else s for s in obj["seats"]]}
            assert ruled_alike(rules.settle(changed)) == base, (obj, zone, card, other)
    assert moot > 0
