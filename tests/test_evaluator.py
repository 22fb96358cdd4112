"""The high-hand evaluator: hand categories, kickers, best five, and a cross-check against treys."""
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.cards import DECK_52, CardError, format_cards, parse_cards
from dealer_assist.rules.evaluator import Category, evaluate, evaluate_key

treys = pytest.importorskip("treys")


def ev(text):
    return evaluate(parse_cards(text))


@pytest.mark.parametrize("cards, category, ranks, five", [
    ("As Ks Qs Js Ts 9s 8s", Category.STRAIGHT_FLUSH, "A-K-Q-J-T", "As Ks Qs Js Ts"),
    ("5h 4h 3h 2h Ah Kd Kc", Category.STRAIGHT_FLUSH, "5-4-3-2-A", "5h 4h 3h 2h Ah"),
    ("9c 9d 9h 9s Ac Kd 2c", Category.FOUR_OF_A_KIND, "9-9-9-9-A", None),
    ("7c 7d 7h 2s 2c 2d 3c", Category.FULL_HOUSE, "7-7-7-2-2", None),
    ("7c 7d 7h 8s 8c 8d 3c", Category.FULL_HOUSE, "8-8-8-7-7", None),
    ("Kc 9c 7c 4c 2c Ad Ah", Category.FLUSH, "K-9-7-4-2", "Kc 9c 7c 4c 2c"),
    ("Ac Kc 9c 7c 4c 2c 3d", Category.FLUSH, "A-K-9-7-4", "Ac Kc 9c 7c 4c"),
    ("Ad 2c 3h 4s 5d 9c 9h", Category.STRAIGHT, "5-4-3-2-A", None),
    ("6d 2c 3h 4s 5d Ac Kh", Category.STRAIGHT, "6-5-4-3-2", None),
    ("Qd Kc Ah 2s 3d 9c 8h", Category.HIGH_CARD, "A-K-Q-9-8", None),   # K-A-2 does not connect
    ("Jd Jc Jh 2s 3d 9c 8h", Category.THREE_OF_A_KIND, "J-J-J-9-8", None),
    ("Jd Jc 4h 4s 3d 3c 8h", Category.TWO_PAIR, "J-J-4-4-8", None),
    ("Jd Jc 4h 4s 3d 3c 2h", Category.TWO_PAIR, "J-J-4-4-3", None),   # third pair plays as kicker
    ("Td Tc Ah 4s 3d 9c 8h", Category.ONE_PAIR, "T-T-A-9-8", None),
])
def test_categories_ranks_and_best_five(cards, category, ranks, five):
    v = ev(cards)
    assert v.category is category and v.ranks_text == ranks
    assert len(v.best_five) == 5 and set(v.best_five) <= set(parse_cards(cards))
    if five:
        assert format_cards(v.best_five) == five
    assert evaluate(v.best_five) == v          # the best five alone are worth the same


def test_names_in_both_languages():
    assert ev("As Ks Qs Js Ts").name_ja == "ロイヤルストレートフラッシュ"
    assert ev("As Ks Qs Js Ts").name_en == "royal flush"
    assert ev("Ks Qs Js Ts 9s").name_ja == "ストレートフラッシュ"
    assert ev("2c 2d 2h 5s 5c").describe_ja() == "フルハウス 2-2-2-5-5"
    assert [c.name_ja for c in Category][:4] == ["ハイカード", "ワンペア", "ツーペア", "スリーカード"]


def test_suits_never_break_ties():
    assert ev("As Kd Qc Js 9h") == ev("Ac Kh Qd Jh 9c")


@pytest.mark.parametrize("bad", ["As Ks", "As Ks Qs Js Ts 9s 8s 7s", "As As Qs Js Ts", "JK Ks Qs Js Ts"])
def test_bad_hands_are_card_errors(bad):
    with pytest.raises(CardError):
        ev(bad)


def _treys_class(ev_, hand):
    return ev_.class_to_string(ev_.get_rank_class(ev_.evaluate(hand[:2], hand[2:])))


TREYS_NAMES = {"Royal Flush": Category.STRAIGHT_FLUSH, "Straight Flush": Category.STRAIGHT_FLUSH,
               "Four of a Kind": Category.FOUR_OF_A_KIND, "Full House": Category.FULL_HOUSE,
               "Flush": Category.FLUSH, "Straight": Category.STRAIGHT,
               "Three of a Kind": Category.THREE_OF_A_KIND, "Two Pair": Category.TWO_PAIR,
               "Pair": Category.ONE_PAIR, "High Card": Category.HIGH_CARD}


def test_agrees_with_treys_on_10000_random_seven_card_hands():
    """Same category and the same order (win / tie / loss) for 10,000 pairs of 7-card hands."""
    e = treys.Evaluator()
    t_cards = [treys.Card.new(str(c)) for c in DECK_52]
    rng = random.Random(20261121)
    hands = [rng.sample(range(52), 7) for _ in range(10_000)]
    ours = [evaluate_key(h) for h in hands]
    theirs = [e.evaluate([t_cards[i] for i in h[:2]], [t_cards[i] for i in h[2:]]) for h in hands]
    for h, k in zip(hands[:2000], ours[:2000]):
        assert Category(k >> 20) is TREYS_NAMES[_treys_class(e, [t_cards[i] for i in h])]
    disagreements = 0
    for (a, b), (ta, tb) in zip(itertools.pairwise(ours), itertools.pairwise(theirs)):
        if (a > b) - (a < b) != (ta < tb) - (ta > tb):     # treys: lower is better
            disagreements += 1
    assert disagreements == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK_52), min_size=7, max_size=7, unique=True))
def test_seven_cards_are_worth_their_best_five_card_subset(cards):
    best = max(evaluate_key([c.index for c in five]) for five in itertools.combinations(cards, 5))
    assert evaluate(cards).key == best
