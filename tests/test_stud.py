"""Seven-card stud (seed 003): the owner, the showdown where weaker hands do not open, exact ties,
the stud odd chip, both of the seed's deals, and the draw hints ("effects") for training.

Every expected hand below was worked out by hand from the cards, not copied from the program.
"""
import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.cards import DECK_52, parse_cards
from dealer_assist.cli import main
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.evaluator import Category
from dealer_assist.rules.settle import settle
from dealer_assist.rules.stud import chances, draw_hints, made_category, open_value, owner


def seat(n, down, up, committed=100, folded=False):
    s = {"seat": n, "committed": committed}
    if down:
        s["down"] = down.split()
    if up:
        s["up"] = up.split()
    if folded:
        s["folded"] = True
    return s


def stud(*seats, **kw):
    return {"game": "stud7", "seats": list(seats), **kw}


# ------------------------------------------------------------------ the owner (open cards)

def test_open_card_table_of_the_seed_ranks_quads_trips_two_pair_pair_no_pair():
    # The seed's own examples, strongest first: KKKK, KKK2, KK33, KK54, K765.
    hands = ["Ks Kh Kd Kc", "Ks Kh Kd 2c", "Ks Kh 3d 3c", "Ks Kh 5d 4c", "Ks 7h 6d 5c"]
    values = [open_value(parse_cards(h)) for h in hands]
    assert values == sorted(values, reverse=True)
    assert [v.name_ja for v in values] == ["フォーカード", "スリーカード", "ツーペア", "ワンペア", "役なし"]
    # Three open cards (ver2, first round): KKK > KK2 > K43.
    three = [open_value(parse_cards(h)) for h in ["Ks Kh Kd", "Ks Kh 2d", "Ks 4h 3d"]]
    assert three == sorted(three, reverse=True)


def test_owner_compares_ranks_then_the_suit_of_the_highest_open_card():
    assert owner({1: parse_cards("2s 2h 3d 4c"), 2: parse_cards("As Kh Qd Jc")}) == 1   # any pair beats no pair
    assert owner({1: parse_cards("9s 9h 5d 4c"), 2: parse_cards("9d 9c 6h 2s")}) == 2   # kicker 6 beats 5
    assert owner({1: parse_cards("Kh 7d 5s 4c"), 2: parse_cards("Ks 7c 5d 4h")}) == 2   # K♠ beats K♥
    assert owner({4: parse_cards("9h 9c 8s 3d"), 6: parse_cards("9s 9d 8h 3c")}) == 6   # 9♠ is the top card


# ------------------------------------------------------------------ the seed's two deals

def test_ver1_deal_seven_cards_at_once_weaker_hands_fold_unshown():
    # Beginner table (ver1): all seven cards dealt, one owner from the four open cards.
    t = stud(seat(1, "7c 7d 9s", "Ks Kh 4d 2c"),      # open K-K-4-2 (pair); hand K K 7 7 9
             seat(2, "Ac 5s 8h", "Qs Qd Qc 3h"),      # open Q-Q-Q-3 (trips): the owner; hand Q Q Q A 8
             seat(3, "Js Jh 2d", "6s 6h 9d Td"),      # open 6-6-T-9 (pair); hand J J 6 6 T
             seat(4, "5h 4h 9c", "Ah Th 2h 6d"))      # open A-T-6-2 (no pair); hand flush A T 5 4 2
    out = settle(t)
    assert out["showdown_order"] == [2, 3, 4, 1]
    shown = {s: h["shown"] for s, h in out["hands"].items()}
    # 2 opens trips; 3's two pair is weaker -> folds; 4's flush beats trips -> opens;
    # 1's two pair is weaker than the flush -> folds.
    assert shown == {"1": False, "2": True, "3": False, "4": True}
    assert out["hands"]["4"]["category"] == "flush"
    assert out["payouts"] == {"1": 0, "2": 0, "3": 0, "4": 400}
    text = " ".join(out["explanation"])
    assert "seat 2 owns the last round" in text and "Seat 3 does not open" in text
    assert "Seat 1 does not open" in text
    # A mucked hand is never read out in the award line.
    award = next(line for line in out["explanation"] if line.startswith("Main pot"))
    assert "J-J-6-6" not in award and "mucked" in award
    assert any("手札を開けずフォールド" in line for line in out["explanation_ja"])


def test_ver2_deal_the_showdown_starts_from_the_last_rounds_owner_not_the_first():
    # Intermediate table (ver2): first two down and three up, then one up and one down.
    first_round = {1: parse_cards("Ks Kh 4d"), 2: parse_cards("Qs Qd 3h"), 3: parse_cards("6s 9d Td")}
    assert owner(first_round) == 1                    # pair of kings leads the first betting round
    t = stud(seat(1, "7c 7d 9s", "Ks Kh 4d 2c"),      # open K-K-4-2; hand K K 7 7 9
             seat(2, "Ac 5s 8h", "Qs Qd 3h 3c"),      # open Q-Q-3-3 (two pair): last round's owner
             seat(3, "Js Jh 2d", "6s 9d Td 6h"))      # open 6-6-T-9; hand J J 6 6 T
    out = settle(t)
    assert out["showdown_order"] == [2, 3, 1]
    # 2 opens Q Q 3 3 A; 3's J J 6 6 is weaker and folds unshown; 1's K K 7 7 beats it and opens.
    assert {s: h["shown"] for s, h in out["hands"].items()} == {"1": True, "2": True, "3": False}
    assert out["payouts"] == {"1": 300, "2": 0, "3": 0}


def test_owner_who_folded_in_the_last_round_still_starts_the_order_from_its_place():
    t = stud(seat(1, "7c 7d 9s", "Ks Kh 4d 2c"),
             seat(2, None, "Qs Qd 3h 3c", committed=20, folded=True),   # the owner, then folded
             seat(3, "Js Jh 2d", "6s 9d Td 6h"))
    out = settle(t)
    assert out["showdown_order"] == [3, 1]
    assert "folded" in out["explanation"][0]
    assert out["payouts"] == {"1": 220, "2": 0, "3": 0}


# ------------------------------------------------------------------ ties and odd chips

def test_exact_tie_splits_and_the_odd_chip_goes_to_the_highest_card_by_suit_of_all_seven():
    # Both make 9-8-7-6-5.  Seat 1 owns (open K♥ beats K♦) but seat 2's last down card A♦ is the
    # highest card either holds: the odd chip is seat 2's.  (The hold'em rule, first winner left
    # of the button, would give it to seat 1 here.)
    t = stud(seat(1, "5c 6c 2c", "7d 8h 9s Kh", committed=50),
             seat(2, "5d 6d Ad", "7h 8s 9c Kd", committed=50),
             seat(3, None, None, committed=1, folded=True), button=2)
    out = settle(t)
    assert out["showdown_order"] == [1, 2]
    assert out["hands"]["2"]["shown"] is True          # a tie is not weaker: it opens
    assert out["payouts"] == {"1": 50, "2": 51, "3": 0}
    assert out["pots"][0]["odd_chips"] == [2]
    assert any("highest card by suit" in line for line in out["explanation"])


def test_a_seat_beaten_in_the_main_pot_still_opens_for_a_side_pot_it_wins():
    # Seat 1 is all-in for 20 with quads; seat 2 (two pair) cannot beat it but is the best of the
    # side pot, so it opens; seat 3 (one pair) is beaten in both pots and folds unshown.
    t = stud(seat(1, "9s 2c 5h", "9d 9c 9h 4s", committed=20),     # open trips: the owner
             seat(2, "Kc Kd 3c", "Qs Qh 6d 7c", committed=100),
             seat(3, "Jc Js 3d", "As 8d 6c 2h", committed=100))
    out = settle(t)
    assert out["showdown_order"] == [1, 2, 3]
    assert {s: h["shown"] for s, h in out["hands"].items()} == {"1": True, "2": True, "3": False}
    assert out["payouts"] == {"1": 60, "2": 160, "3": 0}


# ------------------------------------------------------------------ input errors

@pytest.mark.parametrize("table, words", [
    (stud({"seat": 1, "hole": ["As", "Ks"], "committed": 5}, seat(2, "2c 3c 4c", "5c 6c 7c 8c")), "\"down\""),
    (stud(seat(1, "As Ks Qs", "Js Ts 9s"), seat(2, "2c 3c 4c", "5c 6c 7c 8c")), "4 face-up cards"),
    (stud(seat(1, "As Ks", "Js Ts 9s 8s"), seat(2, "2c 3c 4c", "5c 6c 7c 8c")), "3 face-down"),
    (stud(seat(1, "As Ks Qs", "Js Ts 9s 8s"), seat(2, "2c 3c 4c", "5c 6c 7c As")), "duplicate card As"),
    (stud(seat(1, "As Ks Qs", "Js Ts 9s 8s"), seat(2, "2c 3c 4c", "5c 6c 7c 8c"), last_aggressor=1), "owner"),
    (stud(seat(1, "As Ks Qs", "Js Ts 9s 8s"), seat(2, "2c 3c 4c", "5c 6c 7c 8c"), owner=2), "the owner is seat 1"),
    (stud(seat(1, "As Ks Qs", "Js Ts 9s 8s"), seat(2, None, None)), "\"down\" (3) and \"up\" (4)"),
])
def test_bad_stud_input_is_one_clear_error(table, words):
    with pytest.raises(RuleError) as exc:
        settle(table)
    assert words in str(exc.value)


def test_cli_refuses_bad_stud_input_with_exit_code_2(tmp_path, capsys):
    f = tmp_path / "t.json"
    f.write_text('{"game": "stud7", "seats": [{"seat": 1, "down": ["As"], "up": [], "committed": 1}]}')
    assert main(["settle", str(f), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "seat 1" in err and "Traceback" not in err


def test_wild_cards_play_in_stud_too():
    t = stud(seat(1, "2c 2d Kh", "Ks Kd 5s 4c"),       # deuces wild: K K K + two wilds = five kings
             seat(2, "Ah Qh Jh", "Th 9h 3s 6d"), wild=["2"])   # a natural royal flush
    out = settle(t)
    assert out["hands"]["1"]["category"] == "five_of_a_kind"
    assert out["payouts"] == {"1": 200, "2": 0}


# ------------------------------------------------------------------ property: chips are conserved

@st.composite
def stud_table(draw):
    n = draw(st.integers(2, 7))
    cards = [str(c) for c in draw(st.permutations(DECK_52))[: 7 * n]]
    seats = []
    for k in range(n):
        c = cards[7 * k: 7 * k + 7]
        seats.append({"seat": k + 1, "down": c[:3], "up": c[3:], "committed": draw(st.integers(0, 300)),
                      "folded": bool(k) and draw(st.booleans())})
    seats[0]["committed"] = max(1, seats[0]["committed"])
    return {"game": "stud7", "seats": seats}


@settings(max_examples=120, deadline=None)
@given(stud_table())
def test_stud_payouts_conserve_chips_and_mucked_seats_win_nothing(t):
    out = settle(t)
    assert sum(out["payouts"].values()) == sum(s["committed"] for s in t["seats"])
    live = [s for s in t["seats"] if not s["folded"]]
    if len(live) > 1:
        order = out["showdown_order"]
        assert out["hands"][str(order[0])]["shown"] is True      # the first to show always opens
        for p in out["pots"]:
            if len(p["eligible"]) > 1:
                assert all(out["hands"][str(w)]["shown"] for w in p["winners"])


# ------------------------------------------------------------------ draw hints (the seed's effects)

def fired(hints):
    return [(h.card_number, h.text) for h in hints if h.fires]


def test_effects_aakkk_the_first_pair_is_cancelled_at_intermediate_tables():
    hints = draw_hints(parse_cards("Ah Ad Ks Kd Kc"))
    assert fired(hints) == [(4, "two pair"), (5, "full house")]
    assert fired(draw_hints(parse_cards("Ah Ad Ks Kd Kc"), level="beginner")) == [
        (2, "one pair"), (4, "two pair"), (5, "full house")]


def test_effects_made_hand_comes_before_a_chance_on_the_same_card():
    # Spades 7 8 9, diamond Q, then spade Q: a pair and a flush chance together -> "one pair".
    hints = draw_hints(parse_cards("7s 8s 9s Qd Qs"))
    assert fired(hints) == [(5, "one pair")]
    assert [h.text_ja for h in hints if h.card_number == 5] == ["ワンペア", "フラッシュチャンス"]


def test_effects_a_lower_chance_after_a_higher_one_does_not_show():
    # Flush chance on card 4, then an open-ended straight chance on card 5: no effect.
    hints = draw_hints(parse_cards("6s 7s 9s 2s 8d"))
    assert fired(hints) == [(4, "flush chance")]
    late = [h for h in hints if h.card_number == 5]
    assert late[0].text == "straight chance" and not late[0].fires
    # [4][4][5][5][6] two pair flags a full house chance; a later straight chance stays silent.
    hints = draw_hints(parse_cards("4c 4d 5c 5d 6h 7s"))
    assert (6, "straight chance") not in fired(hints)
    assert any(h.text == "full house chance" and h.card_number == 4 for h in hints)


def test_effects_no_chance_when_every_out_is_in_other_seats_open_cards():
    cards = parse_cards("3h 4d 6c 7s")
    assert fired(draw_hints(cards)) == [(4, "straight chance")]
    assert fired(draw_hints(cards, seen=parse_cards("5c 5d 5h 5s"))) == []
    assert fired(draw_hints(cards, seen=parse_cards("5c 5d 5h"))) == [(4, "straight chance")]


def test_effects_trips_on_three_cards_gives_no_quads_chance_then_a_full_house_chance():
    # Three effects by card 5 at an intermediate table: the pair on card 2 does not show
    # (the seed: "no effect on a pair at card 2 -> three of a kind or better").
    hints = draw_hints(parse_cards("8s 8h 8d Kc"))
    assert fired(hints) == [(3, "three of a kind"), (4, "full house chance")]
    assert fired(draw_hints(parse_cards("8s 8h 8d Kc"), level="beginner")) == [
        (2, "one pair"), (3, "three of a kind"), (4, "full house chance")]
    fh = [h for h in hints if h.text == "full house chance"][0]
    assert {str(c) for c in fh.outs} == {"Ks", "Kh", "Kd"}          # not the fourth eight
    # With the other three kings in sight, no full house chance (the fourth eight is still live).
    assert fired(draw_hints(parse_cards("8s 8h 8d Kc"), seen=parse_cards("Ks Kh Kd"))) == [
        (2, "one pair"), (3, "three of a kind")]
    # A chance that carries on to the next card is not announced again.
    assert fired(draw_hints(parse_cards("8s 8h 8d Kc 2d"))) == [(3, "three of a kind"),
                                                                (4, "full house chance")]


def test_chances_and_made_hands_helpers():
    assert made_category(parse_cards("Ah Ad")) is Category.ONE_PAIR
    assert made_category(parse_cards("Ah Kd")) is None
    assert set(chances(parse_cards("Ah Kh Qh Jh"))) == {Category.STRAIGHT_FLUSH, Category.FLUSH,
                                                        Category.STRAIGHT}
    assert chances(parse_cards("Ah Kh Qh")) == {}          # three cards are not one card away


@st.composite
def five_cards(draw):
    return tuple(draw(st.permutations(DECK_52))[:5])


@settings(max_examples=300, deadline=None)
@given(five_cards())
def test_seed_deductions_from_a_missing_effect_hold(cards):
    # Seed 003, "役確定予告": at intermediate tables, a pair on card 2 with no effect means three
    # of a kind or better by card 5; trips on card 3 with no effect means a full house or better.
    hints = draw_hints(cards)
    pair2 = [h for h in hints if h.card_number == 2 and h.kind == "made"]
    if pair2 and not pair2[0].fires:
        assert made_category(cards) >= Category.THREE_OF_A_KIND
    trips3 = [h for h in hints if h.card_number == 3 and h.category is Category.THREE_OF_A_KIND]
    if trips3 and not trips3[0].fires:
        assert made_category(cards) >= Category.FULL_HOUSE


def test_everyone_else_folded_needs_no_cards_and_no_showdown():
    out = settle(stud({"seat": 1, "committed": 40},
                      seat(2, None, "9s 9c 7d", committed=40, folded=True)))   # folded after 5 cards
    assert out["payouts"] == {"1": 80, "2": 0} and out["hands"] == {}


def test_a_given_owner_without_known_open_cards_starts_the_order_clockwise_from_it():
    out = settle(stud(seat(1, "Ah Ad 2c", "Kh Kc 5s 4c", committed=40),
                      seat(2, "3h 8d Jc", "9s 9c 7d 2h", committed=40),
                      seat(3, None, None, committed=10, folded=True), owner=3))
    assert out["showdown_order"] == [1, 2]


def test_an_open_wild_joker_joins_the_best_group_for_the_owner():
    # Joker wild, face up beside a king: K-K-5-4 owns over 9-9-7-2.  Seat 1's hand: the joker
    # as a three makes the wheel straight 5-4-3-2-A, better than three aces.
    out = settle(stud(seat(1, "Ah Ad 2c", "Kh JK 5s 4c", committed=40),
                      seat(2, "3h 8d Jc", "9s 9c 7d 2h", committed=40), wild=["JK"]))
    assert out["showdown_order"] == [1, 2]
    h = out["hands"]["1"]
    assert h["category"] == "straight" and h["joker_as"][0] == "3"
    assert out["payouts"] == {"1": 80, "2": 0}
