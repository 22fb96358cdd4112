"""The Joker rulebook's worked examples J1-J9 (RULINGS.md), each settled through `settle`."""
import pytest

from dealer_assist.rules.settle import settle

# (id, board, joker holder's hole, opponent's hole, J's category, J's ranks, joker as, O's category,
#  O's ranks, winner "J" or "O") -- transcribed from the RULINGS.md table.
EXAMPLES = [
    ("J1", "Ks Js 6s 4d 2c", "JK Ts", "As 8s", "flush", "A-K-J-T-6", "As", "flush", "A-K-J-8-6", "J"),
    ("J2", "Ah 9c 8d 6s 4c", "JK 2d", "7h 7d", "one_pair", "A-A-9-8-2", "A", "one_pair", "7-7-A-9-8", "J"),
    ("J3", "As Ad Jh Jc 4c", "JK Qh", "Jd 5s", "three_of_a_kind", "A-A-A-Q-J", "A", "full_house", "J-J-J-A-A", "O"),
    ("J4", "Ks Ts 5s 9d 2c", "JK 3s", "As 4s", "flush", "A-K-T-5-3", "As", "flush", "A-K-T-5-4", "O"),
    ("J5", "7c 6d 5s 4h 3c", "JK Kd", "Qs 9h", "one_pair", "K-K-7-6-5", "K", "straight", "7-6-5-4-3", "O"),
    ("J6", "Qc Jd Ts 9h 8c", "JK 8d", "3s 2h", "straight", "Q-J-T-9-8", None, "straight", "Q-J-T-9-8", "O"),
    ("J7", "Qd Jc Th 5s 2s", "JK Kh", "Ac Kc", "straight", "A-K-Q-J-T", "A", "straight", "A-K-Q-J-T", "O"),
    ("J8", "9s 9h 9d 9c 7c", "JK Kh", "5d 3c", "full_house", "9-9-9-K-K", "K", "four_of_a_kind", "9-9-9-9-7", "O"),
    ("J9", "Ks Qs Js Ts 2d", "JK As", "9s 3h", "flush", "A-K-Q-J-9", "9s", "straight_flush", "K-Q-J-T-9", "O"),
]


def deal(board, j_hole, o_hole, j_seat=1, o_seat=2, button=2):
    return {"game": "joker-holdem", "board": board.split(), "button": button,
            "seats": [{"seat": j_seat, "hole": j_hole.split(), "committed": 100},
                      {"seat": o_seat, "hole": o_hole.split(), "committed": 100}]}


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_rulebook_example(ex):
    _, board, jh, oh, jcat, jranks, joker_as, ocat, oranks, winner = ex
    out = settle(deal(board, jh, oh))
    j, o = out["hands"]["1"], out["hands"]["2"]
    assert (j["category"], j["description"].split(", ")[1]) == (jcat, jranks)
    assert (o["category"], o["description"].split(", ")[1]) == (ocat, oranks)
    if joker_as is None:
        # J6: the rulebook does not name it; a queen (8d JK Jd Ts 9h) or a nine (8d JK Qc Jd Ts)
        # makes the same straight.
        assert j["joker_as"][0] in "Q9"
    elif len(joker_as) == 1:
        assert j["joker_as"][0] == joker_as          # the rulebook names the rank only
    else:
        assert j["joker_as"] == joker_as
    # The joker never stands for a board card or the holder's other hole card.
    assert j["joker_as"] not in board.split() + jh.split()
    # The joker holder's five are both hole cards plus three board cards.
    assert set(jh.split()) <= set(j["best_five"]) and len(set(j["best_five"]) & set(board.split())) == 3
    want = {"1": 200, "2": 0} if winner == "J" else {"1": 0, "2": 200}
    assert out["payouts"] == want
    assert out["pots"][0]["winners"] == [1 if winner == "J" else 2]


def test_joker_may_be_a_card_another_seat_holds():
    # J9: the joker is 9s while the opponent holds 9s.
    out = settle(deal("Ks Qs Js Ts 2d", "JK As", "9s 3h"))
    assert out["hands"]["1"]["joker_as"] == "9s"
    assert "9s" in deal("Ks Qs Js Ts 2d", "JK As", "9s 3h")["seats"][1]["hole"]


def test_tie_loss_is_explained_in_both_languages():
    out = settle(deal("Qd Jc Th 5s 2s", "JK Kh", "Ac Kc"))
    assert any("joker holder loses ties" in line for line in out["explanation"])
    assert any("JOKER保有者の負け" in line for line in out["explanation_ja"])


def test_joker_holder_loses_tie_but_non_holders_still_share():
    # Three seats play the same straight; the joker holder is out, seats 2 and 3 split.
    t = deal("Qc Jd Ts 9h 8c", "JK 8d", "3s 2h")
    t["seats"].append({"seat": 3, "hole": ["4c", "2d"], "committed": 100})
    out = settle(t)
    assert out["payouts"] == {"1": 0, "2": 150, "3": 150}


def test_joker_holder_alone_best_wins_the_whole_pot():
    t = deal("Ah 9c 8d 6s 4c", "JK 2d", "7h 7d")
    t["seats"].append({"seat": 3, "hole": ["5c", "5d"], "committed": 100})
    assert settle(t)["payouts"] == {"1": 300, "2": 0, "3": 0}


def test_non_holder_plays_best_five_of_seven():
    # J5: the opponent plays the board's straight; no forced use of hole cards without the joker.
    out = settle(deal("7c 6d 5s 4h 3c", "JK Kd", "Qs 9h"))
    assert set(out["hands"]["2"]["best_five"]) == {"7c", "6d", "5s", "4h", "3c"}


# ------------------------------------------------------------------ the joker's stand-in, by brute force
import itertools  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402

from dealer_assist.cards import DECK_52  # noqa: E402
from dealer_assist.rules.evaluator import evaluate_key  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK_52))
def test_joker_hand_is_the_best_over_every_allowed_card(deck):
    board, other, opp = deck[:5], deck[5], deck[6:8]
    t = deal(" ".join(map(str, board)), f"JK {other}", " ".join(map(str, opp)))
    hand = settle(t)["hands"]["1"]
    best = max(evaluate_key([other.index, c.index] + [b.index for b in three])
               for three in itertools.combinations(board, 3)
               for c in DECK_52 if c not in board and c != other)
    got = evaluate_key([DECK_52[0].parse(x).index if x != "JK" else
                        DECK_52[0].parse(hand["joker_as"]).index for x in hand["best_five"]])
    assert got == best
    assert hand["joker_as"] not in [str(c) for c in board] + [str(other)]
