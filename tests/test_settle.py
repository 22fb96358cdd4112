"""Hold'em showdowns through `settle`: pots, odd chips, showing order, validation, the CLI contract."""
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.cards import DECK_52, DECK_53
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.settle import settle, settle_batch


def table(board, seats, game="holdem", button=1, **kw):
    t = {"game": game, "board": board.split(), "button": button, "seats": []}
    for s in seats:
        number, hole, committed, *rest = s
        entry = {"seat": number, "hole": hole.split() if hole else None, "committed": committed}
        if rest and rest[0] == "folded":
            entry["folded"] = True
        t["seats"].append(entry)
    t.update(kw)
    return t


# ------------------------------------------------------------------ side pots

def test_three_all_ins_and_folded_money_make_three_pots_each_awarded_on_its_own():
    # Seat 1 all-in 30, seat 2 all-in 80, seats 3 and 4 put in 200; seat 5 folded after 50.
    # Hands: seat 1 trip kings > seat 2 aces > seat 4 queens > seat 3 king-high.
    t = table("2c 7d 9h Jc Ks", [(1, "Kd Kh", 30), (2, "Ah Ad", 80), (3, "3s 4s", 200),
                                  (4, "Qd Qh", 200), (5, "5c 6c", 50, "folded")], button=5)
    out = settle(t)
    assert [(p["amount"], p["eligible"], p["winners"]) for p in out["pots"]] == [
        (150, [1, 2, 3, 4], [1]),      # 30 from each of five seats
        (170, [2, 3, 4], [2]),         # 50 from seats 2-4 and seat 5's remaining 20
        (240, [3, 4], [4]),            # 120 from seats 3 and 4
    ]
    assert out["payouts"] == {"1": 150, "2": 170, "3": 0, "4": 240, "5": 0}
    assert "5" not in out["hands"]


def test_uncalled_chips_go_back_to_the_bettor():
    t = table("2c 7d 9h Jc Ks", [(1, "Kd Kh", 500), (2, "Ah Ad", 100)], button=2)
    out = settle(t)
    assert out["payouts"] == {"1": 600, "2": 0}
    assert out["pots"][1] == {"name": "Side pot 1", "name_ja": "サイドポット1", "amount": 400, "eligible": [1], "winners": [1],
                              "shares": {"1": 400}, "odd_chips": []}


def test_short_stack_wins_main_pot_while_side_pot_goes_to_next_best():
    t = table("2c 7d 9h Jc Ks", [(1, "Kd Kh", 10), (2, "Ah Ad", 100), (3, "Qd Qh", 100)], button=3)
    assert settle(t)["payouts"] == {"1": 30, "2": 180, "3": 0}


def test_everyone_else_folded_wins_without_showdown_and_without_showing():
    t = table("2c 7d 9h Jc Ks", [(1, None, 40, "folded"), (2, None, 100), (3, None, 100, "folded")])
    out = settle(t)
    assert out["payouts"] == {"1": 0, "2": 240, "3": 0}
    assert out["hands"] == {} and out["showdown_order"] == [2]
    assert "without a showdown" in " ".join(out["explanation"])


@pytest.mark.parametrize("board", ["", "2c 7d 9h", "2c 7d 9h Jc"])
def test_a_hand_won_before_the_river_settles_on_the_board_it_reached(board):
    t = table(board, [(1, None, 20, "folded"), (2, None, 60), (3, None, 60, "folded")])
    assert settle(t)["payouts"] == {"1": 0, "2": 140, "3": 0}


def test_a_showdown_still_needs_the_whole_board():
    t = table("2c 7d 9h Jc", [(1, "As Ad", 50), (2, "Kd Kc", 50)])
    with pytest.raises(RuleError, match="needs 5 board cards"):
        settle(t)


# ------------------------------------------------------------------ odd chips (TDA 20A)

def test_odd_chip_goes_to_first_winner_left_of_the_button():
    # Everyone plays the board's broadway straight: a three-way split of 100.
    seats = [(1, "2c 3d", 33), (2, "2d 3c", 33), (3, "2h 3h", 33), (4, "4c 5c", 1, "folded")]
    out = settle(table("Ah Kd Qc Js Th", seats, button=2))
    assert out["payouts"] == {"1": 33, "2": 33, "3": 34, "4": 0}
    assert out["pots"][0]["odd_chips"] == [3]
    out = settle(table("Ah Kd Qc Js Th", seats, button=3))   # wraps round past seat 4 (folded)
    assert out["payouts"] == {"1": 34, "2": 33, "3": 33, "4": 0}


def test_no_seat_gets_two_odd_chips_of_one_pot():
    seats = [(1, "2c 3d", 33), (2, "2d 3c", 33), (3, "2h 3h", 33), (4, None, 2, "folded")]
    out = settle(table("Ah Kd Qc Js Th", seats, button=1))   # 101 among three: two odd chips
    assert out["payouts"] == {"1": 33, "2": 34, "3": 34, "4": 0}
    assert sorted(out["pots"][0]["odd_chips"]) == [2, 3]


def test_each_pot_has_its_own_odd_chip():
    # All live seats play the board's straight. Main pot 20 (5 from each of four seats) among
    # seats 1-3: 7/7/6, odd chips to seats 1 then 2 (left of button 4). Side pot 45 (15 from
    # seats 2-4, seat 4 folded) among seats 2 and 3: 23/22, its odd chip to seat 2.
    seats = [(1, "2c 3d", 5), (2, "2d 3c", 20), (3, "2h 3h", 20), (4, "4d 4h", 20, "folded")]
    out = settle(table("Ah Kd Qc Js Th", seats, button=4))
    assert [p["odd_chips"] for p in out["pots"]] == [[1, 2], [2]]
    assert out["payouts"] == {"1": 7, "2": 30, "3": 28, "4": 0}


# ------------------------------------------------------------------ showing order (TDA 17A)

def test_last_aggressor_shows_first_then_clockwise():
    seats = [(1, "2c 3d", 10), (2, "4d 5c", 10), (3, "6h 7h", 10), (5, "8c 8d", 10), (6, None, 2, "folded")]
    out = settle(table("Ah Kd Qc Js 2h", seats, button=5, last_aggressor=3))
    assert out["showdown_order"] == [3, 5, 1, 2]


def test_without_a_final_bet_first_live_seat_left_of_the_button_shows_first():
    seats = [(1, "2c 3d", 10), (2, "4d 5c", 10), (3, "6h 7h", 10), (5, "8c 8d", 10), (6, None, 2, "folded")]
    out = settle(table("Ah Kd Qc Js 2h", seats, button=5))
    assert out["showdown_order"] == [1, 2, 3, 5]
    out = settle(table("Ah Kd Qc Js 2h", seats, button=2))
    assert out["showdown_order"] == [3, 5, 1, 2]


def test_folded_last_aggressor_falls_back_to_button_order():
    seats = [(1, "2c 3d", 10), (2, "4d 5c", 10), (3, None, 10, "folded")]
    assert settle(table("Ah Kd Qc Js 2h", seats, button=1, last_aggressor=3))["showdown_order"] == [2, 1]


# ------------------------------------------------------------------ validation

BASE = table("Ah Kd Qc Js 2h", [(1, "2c 3d", 10), (2, "4d 5c", 10)])


def broken(**changes):
    t = json.loads(json.dumps(BASE))
    for path, value in changes.items():
        target = t
        keys = path.split("__")
        for k in keys[:-1]:
            target = target[int(k)] if k.isdigit() else target[k]
        target[keys[-1]] = value
    return t


@pytest.mark.parametrize("changes, field, seat, words", [
    ({"seats__1__hole": ["Ah", "5c"]}, "hole", 2, "duplicate card Ah"),
    ({"seats__1__hole": ["5c", "5c"]}, "hole", 2, "twice"),
    ({"seats__0__hole": ["2c", "3d", "4h"]}, "hole", 1, "expected 2 cards, got 3"),
    ({"seats__0__hole": ["2c"]}, "hole", 1, "expected 2 cards, got 1"),
    ({"board": ["Ah", "Kd", "Qc", "Js"]}, "board", None, "needs 5 board cards, got 4"),
    ({"seats__0__hole": ["JK", "3d"]}, "hole", 1, "without a joker"),
    ({"seats__0__hole": ["1s", "3d"]}, "hole", 1, "'1s' is not a card"),
    ({"seats__1__seat": 1}, "seats", 1, "listed twice"),
    ({"button": 7}, "button", None, "not at the table"),
    ({"last_aggressor": 9}, "last_aggressor", None, "not at the table"),
    ({"seats__0__committed": -5}, "committed", 1, "negative"),
    ({"seats__0__committed": 10.5}, "committed", 1, "whole number"),
    ({"seats__0__committed": "10"}, "committed", 1, "whole number"),
    ({"seats__1__hole": None}, "hole", 2, "must show its hole cards"),
    ({"seats__1__hole": ["??", "??"]}, "hole", 2, "hidden card"),
    ({"game": "joker-holdem", "board": ["Ah", "JK", "Qc", "Js", "2h"]}, "board", None, "burn card"),
])
def test_invalid_tables_name_field_and_seat(changes, field, seat, words):
    with pytest.raises(RuleError) as err:
        settle(broken(**changes))
    assert err.value.field == field and err.value.seat == seat
    assert words in str(err.value)
    if seat is not None:
        assert str(err.value).startswith(f"seat {seat}: ")


def test_joker_on_board_names_the_burn_swap_procedure_and_the_street():
    with pytest.raises(RuleError) as err:
        settle(broken(game="joker-holdem", board=["Ah", "Kd", "Qc", "JK", "2h"]))
    msg = str(err.value)
    assert "turn" in msg and "swap" in msg and "next burn card" in msg


def test_two_jokers_are_rejected():
    with pytest.raises(RuleError, match="too many jokers"):
        settle(broken(game="joker-holdem", seats__0__hole=["JK", "3d"], seats__1__hole=["JK", "5c"]))


def test_unknown_game_and_non_object():
    with pytest.raises(RuleError, match="unknown game 'omaha'"):
        settle(broken(game="omaha"))
    out, code = settle_batch([BASE, 7, broken(button=9)])
    assert code == 2 and "payouts" in out[0]
    assert "error" in out[1] and "button" in out[2]["error"]
    # a program reading the batch can show a Japanese screen the Japanese words of each refusal
    assert "「button」" in out[2]["error_ja"] and "button" not in out[2]["error_ja"].replace("「button」", "")


# ------------------------------------------------------------------ the command

def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "dealer_assist", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_cli_single_object_from_stdin():
    r = cli("settle", stdin=json.dumps(BASE))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert sum(out["payouts"].values()) == 20 and set(out) >= {"payouts", "pots", "hands",
                                                                "showdown_order", "explanation", "explanation_ja"}


def test_cli_batch_keeps_order_and_marks_the_bad_object(tmp_path):
    f = tmp_path / "batch.json"
    f.write_text(json.dumps([BASE, broken(seats__0__committed=-1), BASE]))
    r = cli("settle", str(f), "--lang", "en")
    assert r.returncode == 2
    out = json.loads(r.stdout)
    assert len(out) == 3 and "payouts" in out[0] and "payouts" in out[2]
    assert out[1]["error"] == "seat 1: committed: -1 is negative: expected a whole number >= 0"
    assert set(out[1]) == {"error", "error_ja"} and out[1]["error_ja"].startswith("シート1: ")
    assert r.stderr.strip().count("\n") == 0 and "seat 1" in r.stderr


@pytest.mark.parametrize("payload, words", [
    (json.dumps({**BASE, "button": 4}), "button"),
    ("{not json", "not valid JSON"),
])
def test_cli_bad_input_is_one_line_and_exit_2(payload, words):
    r = cli("settle", "--lang", "en", stdin=payload)
    assert r.returncode == 2 and words in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_cli_missing_file():
    r = cli("settle", "/nonexistent/table.json", "--lang", "en")
    assert r.returncode == 2 and "cannot read" in r.stderr


# ------------------------------------------------------------------ properties

@st.composite
def random_table(draw):
    game = draw(st.sampled_from(["holdem", "joker-holdem"]))
    deck = list(DECK_53 if game == "joker-holdem" else DECK_52)
    n = draw(st.integers(2, 10))
    cards = draw(st.permutations(deck))[: 5 + 2 * n]
    board = [c for c in cards[:5]]
    if game == "joker-holdem" and any(c.is_joker for c in board):   # swap the joker off the board
        i = next(i for i, c in enumerate(board) if c.is_joker)
        board[i], cards[5] = cards[5], board[i]
    seats = []
    for k in range(n):
        folded = draw(st.booleans()) if k else False
        seats.append({"seat": k + 1, "hole": [str(c) for c in cards[5 + 2 * k: 7 + 2 * k]],
                      "committed": draw(st.integers(0, 500)), "folded": folded})
    seats[0]["committed"] = max(1, seats[0]["committed"])
    return {"game": game, "board": [str(c) for c in board], "button": draw(st.integers(1, n)),
            "seats": seats}


@settings(max_examples=200, deadline=None)
@given(random_table())
def test_payouts_conserve_chips_and_only_live_seats_win(t):
    out = settle(t)
    assert sum(out["payouts"].values()) == sum(s["committed"] for s in t["seats"])
    assert sum(p["amount"] for p in out["pots"]) == sum(s["committed"] for s in t["seats"])
    for s in t["seats"]:
        if s["folded"]:
            assert out["payouts"][str(s["seat"])] == 0
    for p in out["pots"]:
        assert set(p["winners"]) <= set(p["eligible"])
        shares = list(p["shares"].values())
        assert max(shares) - min(shares) <= 1          # at most one odd chip per seat per pot
