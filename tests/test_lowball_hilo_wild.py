"""Seed 004's other ways to rank hands: lowball A-5 and 2-7, hold'em hi/lo, wild cards.

Orderings are written out by hand from the seed's text (A-5: ace low, straights and flushes ignored,
best 5-4-3-2-A; 2-7: ace high, straights and flushes count, best 7-5-4-3-2 not all one suit, and
5-4-3-2-A is ace-high), never copied from the program's output.
"""
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.cards import DECK_52, DECK_53, parse_cards
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.evaluator import Category, _pack, evaluate_key
from dealer_assist.rules.lowball import best_low, low_27, low_a5
from dealer_assist.rules.settle import settle
from dealer_assist.rules.wild import WildSpec, best_wild_hand, parse_wild, wild_key


# ------------------------------------------------------------------ lowball orderings

A5_BEST_FIRST = [
    "5h 4h 3h 2h Ah",      # the wheel, best; suited does not matter (flushes ignored)
    "6c 4d 3h 2s Ac",      # 6-4-3-2-A
    "6d 5c 4s 3h 2d",      # 6-5-4-3-2: a "straight" that does not count
    "7c 5d 4h 3s 2c",      # 7-5-4-3-2
    "Kc Qd Jh Ts 9c",      # king high, still no pair
    "Ac Ad 2h 3s 4c",      # a pair of aces: the lowest pair
    "2c 2d Ah 3s 4d",      # a pair of deuces is worse than aces when aces are low
    "2c 2d 3h 3s 4d",      # two pair
]

D27_BEST_FIRST = [
    "7c 5d 4h 3s 2c",      # the best 2-7 hand
    "7d 6c 4s 3h 2d",
    "8c 6d 4h 3s 2c",
    "Kc Qd Jh Ts 8c",      # king high
    "Ac 5d 4h 3s 2c",      # 5-4-3-2-A is ace high, not a straight
    "2c 2d 5h 4s 3d",      # a pair is worse than any no-pair hand
    "2c 2d 3h 3s 4d",      # two pair
    "6d 5c 4s 3h 2d",      # a straight counts against the hand
    "7h 5h 4h 3h 2h",      # 7-5-4-3-2 all one suit: a flush, worse still
]


@pytest.mark.parametrize("rule, hands", [(low_a5, A5_BEST_FIRST), (low_27, D27_BEST_FIRST)])
def test_lowball_orderings_follow_the_seed(rule, hands):
    values = [rule(parse_cards(h)) for h in hands]
    for better, worse in zip(values, values[1:]):
        assert better < worse, (better.describe(), worse.describe())


def test_the_wheel_is_best_in_a5_and_ace_high_in_27():
    wheel = parse_cards("5d 4c 3h 2s Ad")
    seven = parse_cards("7c 5d 4h 3s 2c")
    assert low_a5(wheel) < low_a5(seven)
    assert low_27(seven) < low_27(wheel)
    assert low_27(wheel).category is Category.HIGH_CARD and low_27(wheel).ranks == (14, 5, 4, 3, 2)
    # A suited wheel is a flush (not a straight flush) in 2-7.
    assert low_27(parse_cards("5h 4h 3h 2h Ah")).category is Category.FLUSH


def test_best_low_of_seven_cards_picks_five_different_low_ranks():
    v = best_low(parse_cards("Kd Ks 8c 5h 4d 3c Ah"), "a5")
    assert v.ranks == (8, 5, 4, 3, 1) and v.category is Category.HIGH_CARD
    assert best_low(parse_cards("Kd Ks 8c 5h 4d 3c Ah"), "a5").qualifies(8)
    assert not best_low(parse_cards("Kd Ks 9c 5h 4d 3c Ah"), "a5").qualifies(8)


@pytest.mark.parametrize("game, winner", [("lowball-a5", 1), ("lowball-27", 2)])
def test_lowball_draw_showdown_same_hands_opposite_winners(game, winner):
    t = {"game": game, "button": 2, "seats": [
        {"seat": 1, "hole": "5d 4c 3h 2s Ad".split(), "committed": 30},
        {"seat": 2, "hole": "7c 5h 4d 3s 2c".split(), "committed": 30}]}
    out = settle(t)
    assert out["payouts"] == {"1": 60 if winner == 1 else 0, "2": 60 if winner == 2 else 0}
    assert out["pots"][0]["winners"] == [winner]


def test_lowball_exact_tie_splits_with_the_odd_chip_left_of_the_button():
    t = {"game": "lowball-27", "button": 1, "seats": [
        {"seat": 1, "hole": "7c 5d 4h 3s 2c".split(), "committed": 25},
        {"seat": 2, "hole": "7d 5c 4s 3h 2d".split(), "committed": 25},
        {"seat": 3, "hole": None, "committed": 1, "folded": True}]}
    out = settle(t)
    assert out["payouts"] == {"1": 25, "2": 26, "3": 0}


def test_lowball_needs_five_cards_and_no_board():
    t = {"game": "lowball-a5", "button": 1, "seats": [
        {"seat": 1, "hole": "5d 4c".split(), "committed": 1},
        {"seat": 2, "hole": "7c 5h 4d 3s 2c".split(), "committed": 1}]}
    with pytest.raises(RuleError, match="expected 5 cards"):
        settle(t)


# ------------------------------------------------------------------ hold'em hi/lo

def hilo(board, *seats, button=1, **kw):
    t = {"game": "holdem-hilo", "board": board.split(), "button": button, "seats": [], **kw}
    for n, hole, committed, *rest in seats:
        t["seats"].append({"seat": n, "hole": hole.split() if hole else None, "committed": committed,
                           "folded": bool(rest)})
    return t


def test_hilo_split_with_the_odd_chip_of_the_split_to_the_high_half():
    # Board A 2 7 K K.  Seat 1 (3 4): high K-K pair, low 7-4-3-2-A.  Seat 2 (K Q): trips, low
    # K-Q-7-2-A.  101 chips: 51 to the high half (seat 2), 50 to the low half (seat 1).
    out = settle(hilo("Ah 2d 7c Ks Kd", (1, "3c 4d", 50), (2, "Kh Qc", 50), (3, None, 1, "folded")))
    assert out["payouts"] == {"1": 50, "2": 51, "3": 0}
    names = [p["name"] for p in out["pots"]]
    assert names == ["Main pot (high half)", "Main pot (low half)"]
    assert out["hands"]["1"]["low"]["description"] == "7-4-3-2-A low"
    assert any("high half" in line and "TDA 20A" in line for line in out["explanation"])


def test_hilo_scoop_one_seat_with_the_best_high_and_the_best_low():
    # Board 3 4 5 9 K.  Seat 1 (A 2): wheel straight 5-4-3-2-A and the wheel low.  Seat 2 (K K):
    # trip kings, low K-9-5-4-3.  Seat 1 takes it all.
    out = settle(hilo("3c 4d 5h 9s Kd", (1, "Ac 2d", 40), (2, "Kh Ks", 40)))
    assert out["payouts"] == {"1": 80, "2": 0}
    assert out["hands"]["1"]["category"] == "straight"
    assert any("scoops" in line for line in out["explanation"])


def test_hilo_without_a_qualifier_any_low_plays_and_with_eight_or_better_the_high_takes_all():
    # Board J T 9 4 3: nobody can make an eight-low.  Seat 1 (A A): pair of aces, low T-9-4-3-A.
    # Seat 2 (Q K): straight K-9, low J-T-9-4-3, worse than seat 1's.  Any low: a split.
    seats = [(1, "Ac Ad", 50), (2, "Qs Kh", 50)]
    any_low = settle(hilo("Jc Td 9h 4s 3c", *seats))
    assert any_low["payouts"] == {"1": 50, "2": 50}
    eight = settle(hilo("Jc Td 9h 4s 3c", *seats, low_qualifier=8))
    assert eight["payouts"] == {"1": 0, "2": 100}
    assert eight["hands"]["1"]["low"]["qualifies"] is False
    assert any("high hand takes the whole pot" in line for line in eight["explanation"])


def test_hilo_seats_tied_for_both_halves_share_the_pot_as_one():
    # TDA illustration: two seats both win high and low with the same hands: split as evenly as
    # possible, not half by half (which would give one seat both odd chips).
    # Board 2 3 4 5 K (rainbow): 6-high straights for both; lows 6-5-4-3-2 for both.
    out = settle(hilo("2c 3d 4h 5s Kc", (1, "6c Qd", 33), (2, "6d Qh", 33), (3, None, 1, "folded"),
                      button=3))
    assert out["payouts"] == {"1": 34, "2": 33, "3": 0}
    assert len(out["pots"]) == 1


def test_hilo_low_tie_splits_the_low_half_while_high_goes_alone():
    # Board K K 7 2 3.  Seat 3 (K Q): trip kings, the high.  Seats 1 (A 4) and 2 (A 4): the same
    # low 7-4-3-2-A.  High half 75 to seat 3; low half 75 split, its odd chip to the first of the
    # two clockwise from the button (seat 1): seat 2.
    out = settle(hilo("Kc Kd 7h 2s 3c", (1, "Ah 4d", 50), (2, "As 4c", 50), (3, "Ks Qh", 50)))
    assert out["payouts"] == {"1": 37, "2": 38, "3": 75}
    low = next(p for p in out["pots"] if p["name"] == "Main pot (low half)")
    assert low["winners"] == [1, 2] and low["odd_chips"] == [2]


def test_hilo_bad_qualifier():
    with pytest.raises(RuleError, match="low_qualifier"):
        settle(hilo("Kc Kd 7h 2s 3c", (1, "Ah 4d", 50), (2, "As 4c", 50), low_qualifier="8"))


# ------------------------------------------------------------------ wild cards

def test_seed_example_eight_eight_deuce_is_three_eights():
    v = best_wild_hand(parse_cards("8c 8d 2h Ks 4d"), parse_wild(["2"]))
    assert v.key >> 20 == Category.THREE_OF_A_KIND and v.value.ranks[:3] == (8, 8, 8)
    assert [(str(w), s.rank) for w, s in v.wild_as] == [("2h", 8)]


def test_five_of_a_kind_beats_a_straight_flush():
    # Joker wild: seat 1 holds JK 9c with three nines on the board: five nines.
    # Seat 2 holds a natural straight flush K-Q-J-T-9 of spades... the 9s is on the board.
    t = {"game": "holdem", "wild": ["JK"], "board": "9s 9h 9d Ts Js".split(), "button": 2,
         "seats": [{"seat": 1, "hole": ["JK", "9c"], "committed": 10},
                   {"seat": 2, "hole": ["Ks", "Qs"], "committed": 10}]}
    out = settle(t)
    assert out["hands"]["2"]["category"] == "straight_flush"
    assert out["hands"]["1"]["category"] == "five_of_a_kind"
    assert out["hands"]["1"]["description_ja"].startswith("ファイブカード")
    assert out["payouts"] == {"1": 20, "2": 0}


def test_wild_cards_on_the_board_are_wild_for_everyone_and_reported():
    # Deuces wild, the 2s on the board.  Seat 1 (A A) makes three aces with it, seat 2 (Q Q)
    # three queens with the same deuce.
    t = {"game": "holdem", "wild": ["2"], "board": "2s Kd 8c 7h 3c".split(), "button": 2,
         "seats": [{"seat": 1, "hole": ["Ah", "Ad"], "committed": 10},
                   {"seat": 2, "hole": ["Qh", "Qc"], "committed": 10}]}
    out = settle(t)
    h1, h2 = out["hands"]["1"], out["hands"]["2"]
    assert h1["category"] == h2["category"] == "three_of_a_kind"
    assert h1["wild_as"]["2s"][0] == "A" and h2["wild_as"]["2s"][0] == "Q"
    assert "2s" in h1["best_five"] and "wild: 2s=A" in h1["description"]
    assert out["payouts"] == {"1": 20, "2": 0}


def test_without_wild_holdem_is_unchanged_and_the_joker_needs_wild_jk():
    base = {"game": "holdem", "board": "2s Kd 8c 7h 3c".split(), "button": 2,
            "seats": [{"seat": 1, "hole": ["Ah", "Ad"], "committed": 10},
                      {"seat": 2, "hole": ["JK", "Kc"], "committed": 10}]}
    with pytest.raises(RuleError, match="without a joker"):
        settle(base)
    out = settle({**base, "wild": ["JK"]})
    assert out["hands"]["2"]["joker_as"][0] == "K" and out["payouts"] == {"1": 0, "2": 20}


@pytest.mark.parametrize("wild, words", [
    (["2s"], "not a rank or JK"), ("2", "expected a list"), (["2", "2"], "listed twice"),
    (["JK", "joker"], "listed twice"),
])
def test_bad_wild_lists(wild, words):
    t = {"game": "holdem", "wild": wild, "board": "2s Kd 8c 7h 3c".split(), "button": 2,
         "seats": [{"seat": 1, "hole": ["Ah", "Ad"], "committed": 10},
                   {"seat": 2, "hole": ["Kh", "Kc"], "committed": 10}]}
    with pytest.raises(RuleError, match=words):
        settle(t)


def test_wild_is_refused_where_the_game_has_its_own_joker_rules():
    t = {"game": "joker-holdem", "wild": ["2"], "board": "2s Kd 8c 7h 3c".split(), "button": 2,
         "seats": [{"seat": 1, "hole": ["Ah", "Ad"], "committed": 10},
                   {"seat": 2, "hole": ["Kh", "Kc"], "committed": 10}]}
    with pytest.raises(RuleError, match="unknown field"):
        settle(t)


def _brute(real, wilds):
    counts = [0] * 13
    for i in real:
        counts[i >> 2] += 1
    for r in range(12, -1, -1):
        if counts[r] + wilds >= 5:
            return _pack(Category.FIVE_OF_A_KIND, (r + 2,) * 5)
    free = [i for i in range(52) if i not in real]
    return max(evaluate_key(list(real) + list(c)) for c in itertools.combinations(free, wilds))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 2), st.integers(5, 7), st.randoms(use_true_random=False))
def test_pruned_wild_search_equals_trying_every_card(wilds, total, rnd):
    real = rnd.sample(range(52), total - wilds)
    assert wild_key(real, wilds)[0] == _brute(real, wilds)


def test_pruned_wild_search_with_three_wilds_on_flush_and_straight_draws():
    rnd = random.Random(6)
    for _ in range(25):
        suit = rnd.randrange(4)
        real = rnd.sample([4 * r + suit for r in range(13)], 2) + rnd.sample(range(52), 2)
        real = list(dict.fromkeys(real))
        if len(real) < 4:
            continue
        assert wild_key(real, 3)[0] == _brute(real, 3)


def test_stand_ins_are_distinct_cards_except_in_five_of_a_kind():
    v = best_wild_hand(parse_cards("Ah Kh 2c 2d JK Qd 3s"), WildSpec(frozenset({2}), True))
    stand = [s for _, s in v.wild_as]
    assert len(set(stand)) == len(stand)
    # Hearts A K and three wilds as Q J T of hearts: a royal flush beats four aces.
    assert v.value.category is Category.STRAIGHT_FLUSH and v.value.ranks == (14, 13, 12, 11, 10)
    assert sorted(str(s) for s in stand) == ["Jh", "Qh", "Th"]


# ------------------------------------------------------------------ property: chips are conserved

@st.composite
def any_table(draw):
    game = draw(st.sampled_from(["holdem-wild", "holdem-hilo", "lowball-a5", "lowball-27"]))
    n = draw(st.integers(2, 8))
    wild = None
    deck = DECK_52
    if game == "holdem-wild":
        wild = draw(st.sampled_from([["2"], ["JK"], ["JK", "2"], ["A", "K"]]))
        deck = DECK_53 if "JK" in wild else DECK_52
    per = 5 if game.startswith("lowball") else 2
    board_n = 0 if game.startswith("lowball") else 5
    cards = [str(c) for c in draw(st.permutations(deck))[: board_n + per * n]]
    seats = []
    for k in range(n):
        seats.append({"seat": k + 1, "hole": cards[board_n + per * k: board_n + per * (k + 1)],
                      "committed": draw(st.integers(0, 300)), "folded": bool(k) and draw(st.booleans())})
    seats[0]["committed"] = max(1, seats[0]["committed"])
    t = {"game": "holdem" if game == "holdem-wild" else game, "button": draw(st.integers(1, n)),
         "seats": seats}
    if board_n:
        t["board"] = cards[:board_n]
    if wild:
        t["wild"] = wild
    if game == "holdem-hilo" and draw(st.booleans()):
        t["low_qualifier"] = 8
    return t


@settings(max_examples=200, deadline=None)
@given(any_table())
def test_payouts_conserve_chips_in_every_added_game(t):
    out = settle(t)
    committed = sum(s["committed"] for s in t["seats"])
    assert sum(out["payouts"].values()) == committed
    assert sum(p["amount"] for p in out["pots"]) == committed
    for s in t["seats"]:
        if s["folded"]:
            assert out["payouts"][str(s["seat"])] == 0
    for p in out["pots"]:
        shares = list(p["shares"].values())
        assert max(shares) - min(shares) <= 1


# ------------------------------------------------------------------ the documentation's examples

def test_docs_examples_settle():
    import json
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "showdown-games.md").read_text("utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    assert len(blocks) == 4
    outs = {json.loads(b)["game"] + str(i): settle(json.loads(b)) for i, b in enumerate(blocks)}
    assert outs["stud70"]["payouts"] == {"1": 0, "2": 0, "3": 0, "4": 400}
    assert outs["lowball-271"]["payouts"] == {"1": 0, "2": 60}
    assert outs["holdem-hilo2"]["payouts"] == {"1": 50, "2": 51, "3": 0}
    assert outs["holdem3"]["hands"]["1"]["category"] == "five_of_a_kind"
