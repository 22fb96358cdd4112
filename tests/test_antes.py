"""Antes are dead money in the main pot (seed 004, issue 25): `settle` keeps a seat's ante apart
from its bets, and agrees with pokerkit on random hands with antes and big-blind antes."""
import random

import pytest

from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.settle import settle

pokerkit = pytest.importorskip("pokerkit")


def seat(number, hole, committed, ante=0, folded=False):
    out = {"seat": number, "hole": hole.split() if hole else None, "committed": committed}
    if ante:
        out["ante"] = ante
    if folded:
        out["folded"] = True
    return out


def holdem(board, seats, button):
    return {"game": "holdem", "board": board.split(), "button": button, "seats": seats}


def pots(out):
    return [(p["amount"], p["eligible"], p["winners"]) for p in out["pots"]]


# ------------------------------------------------------------------ the hand of the issue

WSOP_2023_43_D5_H68 = holdem("2c 8c Th Ah 6d", [
    seat(1, None, 75_000, folded=True),
    seat(2, "9d 9c", 3_575_000, ante=225_000),
    seat(3, None, 0, folded=True),
    seat(4, None, 0, folded=True),
    seat(5, "Ac Kc", 3_350_000)], button=5)


def test_the_wsop_big_blind_ante_hand_pays_the_button_all_seven_million():
    out = settle(WSOP_2023_43_D5_H68)
    # seed 004: the whole ante goes to the main pot, which seat 2 and seat 5 both contest:
    # 225,000 ante + 75,000 small blind + 3,350,000 x 2 = 7,000,000 in one pot
    assert pots(out) == [(7_000_000, [2, 5], [5])]
    assert out["payouts"] == {"1": 0, "2": 0, "3": 0, "4": 0, "5": 7_000_000}
    assert out["antes"] == {"2": 225_000}
    assert any("dead money" in line and "225000" in line for line in out["explanation"])
    assert any("デッドマネー" in line for line in out["explanation_ja"])


def test_without_the_ante_field_the_same_chips_layer_as_bets():
    # what settle did before: the 225,000 above seat 5's call is a pot only seat 2 can win
    table = dict(WSOP_2023_43_D5_H68, seats=[dict(s) for s in WSOP_2023_43_D5_H68["seats"]])
    del table["seats"][1]["ante"]
    assert settle(table)["payouts"]["2"] == 225_000


# ------------------------------------------------------------------ the seed's rule, by hand

def test_equal_antes_with_a_short_all_in():
    # four seats ante 10; seat 1 all in for 40 more; seats 2 and 3 bet 200 more; seat 4 folds.
    # main pot: the antes 4 x 10 = 40, and 40 from each of seats 1-3 = 160; side pot: 160 x 2
    out = settle(holdem("2c 7d 9h Jc 4s", [
        seat(1, "Jd Jh", 50, ante=10), seat(2, "Ah Ad", 210, ante=10),
        seat(3, "Kd Kh", 210, ante=10), seat(4, None, 10, ante=10, folded=True)], button=4))
    assert pots(out) == [(160, [1, 2, 3], [1]), (320, [2, 3], [2])]
    assert out["payouts"] == {"1": 160, "2": 320, "3": 0, "4": 0}


def test_big_blind_ante_and_an_all_in_above_the_big_blind():
    # blinds 50/100, big-blind ante 100 (seat 2). Seat 3 is all in for 150, above the blind
    # but below the big blind's 200 with its ante; seat 2 calls. Seat 1 folded its small blind.
    # main pot: ante 100 + small blind 50 + 150 x 2 = 450, contested by seats 2 and 3
    out = settle(holdem("2c 7d 9h Jc 4s", [
        seat(1, None, 50, folded=True), seat(2, "Kd Kh", 250, ante=100),
        seat(3, "Ah Ad", 150)], button=3))
    assert pots(out) == [(450, [2, 3], [3])]
    assert out["payouts"] == {"1": 0, "2": 0, "3": 450}


def test_big_blind_ante_and_an_all_in_below_the_big_blind():
    # blinds 50/100, big-blind ante 100 (seat 2). Seat 3 is all in for 50, below the blind;
    # seat 4 calls 100; seat 1 folds its small blind 50; seat 2 checks.
    # main pot: ante 100 + 50 from each of seats 1-4 = 300 (seats 2, 3, 4 contest it);
    # side pot: 50 more from each of seats 2 and 4 = 100
    out = settle(holdem("2c 7d 9h Jc 4s", [
        seat(1, None, 50, folded=True), seat(2, "Kd Kh", 200, ante=100),
        seat(3, "Ah Ad", 50), seat(4, "Qd Qh", 100)], button=4))
    assert pots(out) == [(300, [2, 3, 4], [3]), (100, [2, 4], [2])]
    assert out["payouts"] == {"1": 0, "2": 100, "3": 300, "4": 0}


def test_a_seat_all_in_on_its_ante_alone():
    # antes 20; seat 1 has exactly 20 and is all in on its ante; seats 2 and 3 bet 100 more.
    # main pot: the antes 3 x 20 = 60 (all three contest it); side pot: 100 x 2 = 200
    out = settle(holdem("2c 7d 9h Jc 4s", [
        seat(1, "Ah Ad", 20, ante=20), seat(2, "Kd Kh", 120, ante=20),
        seat(3, "Qd Qh", 120, ante=20)], button=3))
    assert pots(out) == [(60, [1, 2, 3], [1]), (200, [2, 3], [2])]
    assert out["payouts"] == {"1": 60, "2": 200, "3": 0}


def test_a_seat_all_in_for_less_than_the_ante_wins_only_what_it_matched():
    # antes 20; seat 1 has only 15: from each seat's ante it can win 15 (3 x 15 = 45);
    # the other 5 + 5 of the antes go with the bets to the side pot: 10 + 200 = 210
    out = settle(holdem("2c 7d 9h Jc 4s", [
        seat(1, "Ah Ad", 15, ante=15), seat(2, "Kd Kh", 120, ante=20),
        seat(3, "Qd Qh", 120, ante=20)], button=3))
    assert pots(out) == [(45, [1, 2, 3], [1]), (210, [2, 3], [2])]
    assert any("all in on an ante of 15" in line for line in out["explanation"])


def test_an_ante_above_the_chips_committed_is_refused_naming_the_seat():
    with pytest.raises(RuleError, match=r"seat 2: ante: the ante \(300\) is part of the chips committed \(200\)"):
        settle(holdem("2c 7d 9h Jc 4s", [seat(1, "Ah Ad", 200), seat(2, "Kd Kh", 200, ante=300)], 1))
    with pytest.raises(RuleError, match="seat 1: ante"):
        settle(holdem("2c 7d 9h Jc 4s", [seat(1, "Ah Ad", 200, ante=-5), seat(2, "Kd Kh", 200)], 1))


def test_stud_and_hilo_take_antes_too():
    out = settle({"game": "holdem-hilo", "board": "2c 3d 7h Jc Ks".split(), "button": 3, "seats": [
        seat(1, "Ah 4d", 20, ante=20), seat(2, "Kd Kh", 120, ante=20), seat(3, "Qd Qh", 120, ante=20)]})
    # main pot 60 (the antes) split: low to seat 1 (7-4-3-2-A), high to seat 2 (trip kings);
    # side pot 200 (seats 2 and 3): high to seat 2, low to seat 3 (Q-J-7-3-2 below K-J-7-3-2;
    # no qualifier unless the table names one)
    assert pots(out)[:2] == [(30, [1, 2, 3], [2]), (30, [1, 2, 3], [1])]
    assert out["payouts"] == {"1": 30, "2": 130, "3": 100}

    def stud_seat(number, down, up, committed):
        return {"seat": number, "down": down.split(), "up": up.split(), "committed": committed, "ante": 20}
    stud = settle({"game": "stud7", "seats": [
        stud_seat(1, "Ah Ad 2s", "4c 5c 9d Th", 20), stud_seat(2, "Kd Kh 2h", "3c 6c 8d Jh", 120),
        stud_seat(3, "Qd Qh 2d", "3d 6d 8h Js", 120)]})
    assert stud["payouts"] == {"1": 60, "2": 200, "3": 0}


# ------------------------------------------------------------------ against pokerkit

UNIT = 2520   # every amount a multiple of 1..10's common multiple: no odd chips to disagree on


def _play_pokerkit(rng: random.Random, big_blind_ante: bool):
    """One random no-limit hold'em hand played out by pokerkit, to a showdown or a fold."""
    from pokerkit import Automation, NoLimitTexasHoldem

    n = rng.randint(2, 7)
    sb, bb = UNIT, 2 * UNIT
    ante = rng.choice([1, 2, 3]) * UNIT if not big_blind_ante else bb
    # short stacks are common, so that antes and blinds are often all in
    stacks = [rng.choice([rng.randint(1, 4), rng.randint(1, 60)]) * UNIT for _ in range(n)]
    raw_antes = {1: ante} if big_blind_ante else ante   # pokerkit's player 1: the big blind
    state = NoLimitTexasHoldem.create_state(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
         Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
         Automation.HAND_KILLING),
        not big_blind_ante, raw_antes, (sb, bb), bb, stacks, n)
    antes = [state.get_effective_ante(i) for i in range(n)]
    holes = [" ".join(repr(c) for c in cards) for cards in state.hole_cards]   # before any muck
    committed = None   # each seat's chips in the pots, read before pokerkit pushes them
    folded = set()
    while state.status:
        if state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)
            continue
        if state.can_push_chips():
            if committed is None:
                committed = [stacks[i] - state.stacks[i] for i in range(n)]
            state.push_chips()
            continue
        if state.can_pull_chips():
            state.pull_chips()
            continue
        i = state.actor_index
        roll = rng.random()
        if roll < 0.2 and state.can_fold():
            state.fold()
            folded.add(i)
        elif roll < 0.55 and state.can_complete_bet_or_raise_to():
            lo = state.min_completion_betting_or_raising_to_amount
            hi = state.max_completion_betting_or_raising_to_amount
            to = hi if rng.random() < 0.4 else rng.randint(lo // UNIT, hi // UNIT) * UNIT
            state.complete_bet_or_raise_to(max(lo, to))
        else:
            state.check_or_call()
    return state, n, antes, holes, folded, committed


def _as_settle_table(state, n, antes, holes, folded, committed):
    board = [repr(cards[0]) for cards in state.board_cards]
    seats = []
    live = [i for i in range(n) if i not in folded]
    for i in range(n):
        hole = None
        if i not in folded and len(live) > 1:
            hole = holes[i]
        seats.append(seat(i + 1, hole, committed[i], ante=min(antes[i], committed[i]),
                          folded=i in folded))
    return {"game": "holdem", "board": board, "button": n, "seats": seats}


@pytest.mark.parametrize("big_blind_ante", [False, True], ids=["antes", "big-blind-ante"])
def test_payouts_agree_with_pokerkit_on_random_hands_with_antes(big_blind_ante):
    rng = random.Random(25 + big_blind_ante)
    checked = short = 0
    for _ in range(600):
        state, n, antes, holes, folded, committed = _play_pokerkit(rng, big_blind_ante)
        table = _as_settle_table(state, n, antes, holes, folded, committed)
        out = settle(table)
        net = {i + 1: out["payouts"][str(i + 1)] - table["seats"][i]["committed"] for i in range(n)}
        assert net == {i + 1: state.payoffs[i] for i in range(n)}, table
        checked += 1
        short += any(s["committed"] == s.get("ante", 0) > 0 for s in table["seats"])
    assert checked >= 500
    assert short >= 10   # the random stacks did reach seats all in on their ante


def test_the_docs_example_settles_as_the_docs_say():
    import json
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "antes.md").read_text("utf-8")
    (block,) = re.findall(r"```json\n(.*?)```", text, re.S)
    assert settle(json.loads(block))["payouts"]["5"] == 7_000_000
