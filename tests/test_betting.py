"""Betting structures (seeds/004): legal actions and amounts, caps, pot-limit arithmetic, the short
all-in, antes, the first dealer, and the `dealer-assist bet` contract.

Amounts in the expectations are worked out by hand from the seed's rules (comments show the sums).
"""
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.rules.betting import (
    Action, BettingRound, FixedLimit, IllegalAction, Kind, NoLimit, PotLimit, SpreadLimit,
    bet_from_json, first_dealer, next_button, structure_from_json,
)
from dealer_assist.rules.errors import RuleError


def play(rnd, *actions):
    for a in actions:
        seat, kind, *to = a
        rnd = rnd.apply(Action(seat, kind, to[0] if to else None))
    return rnd


def acts(rnd):
    return {a.kind.value: a for a in rnd.options().legal}


# ------------------------------------------------------------------ fixed limit

def test_fixed_limit_seed_example_raise_goes_to_exactly_30():
    # seeds/004: "10/20": the high bet is 20; a raise must add exactly 10, to 30.
    r = BettingRound.start(structure_from_json({"structure": "fixed-limit", "limits": "10/20",
                                                "street": "flop"}),
                           {1: 500, 2: 500, 3: 500}, button=3)
    assert r.to_act == 1
    assert r.options().bet_range == (10, 10)
    r = play(r, (1, "bet", 10), (2, "raise", 20))
    assert r.options().raise_range == (30, 30)
    with pytest.raises(IllegalAction, match="raise to 25 is too small: fixed limit"):
        r.apply(Action(3, "raise", 25))
    with pytest.raises(IllegalAction, match="too large"):
        r.apply(Action(3, "raise", 40))


def test_fixed_limit_late_streets_use_the_big_bet():
    s = structure_from_json({"structure": "fixed-limit", "limits": [10, 20], "street": "turn"})
    r = BettingRound.start(s, {1: 500, 2: 500}, button=2)
    assert r.options().bet_range == (20, 20)
    assert play(r, (1, "bet", 20)).options().raise_range == (40, 40)


def capped_preflop(cap=4, seats=3):
    # blinds 5/10 on 10/20; button = last seat: SB seat 1, BB seat 2, seat 3 first.
    return BettingRound.start(FixedLimit(10, cap), {s: 1000 for s in range(1, seats + 1)},
                              button=seats, blinds=(5, 10))


def test_fixed_limit_cap_of_four_raises_leaves_call_or_fold():
    r = play(capped_preflop(), (3, "raise", 20), (1, "raise", 30), (2, "raise", 40), (3, "raise", 50))
    assert r.raises == 4
    assert r.to_act == 1
    assert set(acts(r)) == {"fold", "call"}
    assert acts(r)["call"].amount == 20          # seat 1 raised to 30 before: 50 - 30
    with pytest.raises(IllegalAction, match=r"capped \(4 raises this round, cap 4, 3 seats"):
        r.apply(Action(1, "raise", 60))
    assert "上限（4回）" in r.options().why[Kind.RAISE].ja


def test_fixed_limit_cap_lifted_when_only_two_seats_remain():
    r = play(capped_preflop(), (3, "raise", 20), (1, "raise", 30), (2, "raise", 40), (3, "raise", 50),
             (1, "fold"))
    assert r.to_act == 2 and len(r.live) == 2
    assert r.options().raise_range == (60, 60)   # heads-up now: no cap
    r = play(r, (2, "raise", 60), (3, "raise", 70), (2, "raise", 80))
    assert r.raises == 7 and r.options().raise_range == (90, 90)


def test_fixed_limit_heads_up_from_the_start_has_no_cap():
    r = capped_preflop(cap=3, seats=2)
    # heads-up: the button (seat 2) posts the small blind and acts first
    assert r.to_act == 2 and r.seat(2).committed == 5 and r.seat(1).committed == 10
    r = play(r, (2, "raise", 20), (1, "raise", 30), (2, "raise", 40), (1, "raise", 50), (2, "raise", 60))
    assert r.options().raise_range == (70, 70)


def test_fixed_limit_cap_of_three_is_configurable():
    r = play(capped_preflop(cap=3), (3, "raise", 20), (1, "raise", 30), (2, "raise", 40))
    assert set(acts(r)) == {"fold", "call"}


def test_fixed_limit_all_in_of_half_a_bet_counts_as_a_raise():
    r = BettingRound.start(FixedLimit(10), {1: 500, 2: 15, 3: 500}, first=1)
    r = play(r, (1, "bet", 10), (2, "all_in"))
    assert r.bet == 15 and r.raises == 1
    assert r.options().raise_range == (25, 25)      # 15 treated as a full raise: +10
    r = play(r, (3, "call"))
    assert "raise" in acts(r)                        # seat 1 faces 5 more = half a bet: reopened


def test_fixed_limit_all_in_under_half_a_bet_is_completed_and_does_not_reopen():
    r = BettingRound.start(FixedLimit(10), {1: 500, 2: 14, 3: 500, 4: 500}, first=1)
    r = play(r, (1, "bet", 10), (2, "all_in"))
    assert r.bet == 14 and r.raises == 0
    assert r.options().raise_range == (20, 20)      # complete the full level 10 + 10
    assert acts(r)["call"].amount == 14
    r = play(r, (3, "call"), (4, "call"))
    # seat 1 bet 10 and faces only 4 more: less than half a bet, so call or fold
    assert r.to_act == 1 and set(acts(r)) == {"fold", "call"}
    assert "not reopened" in r.options().why[Kind.RAISE].en


# ------------------------------------------------------------------ spread limit

def test_spread_limit_ranges_by_street_and_raise_at_least_the_largest_raise():
    early = structure_from_json({"structure": "spread-limit", "limits": "1-5/1-10", "street": "flop"})
    late = structure_from_json({"structure": "spread-limit", "limits": "1-5/1-10", "street": "river"})
    assert (early.low, early.high, late.low, late.high) == (1, 5, 1, 10)
    r = BettingRound.start(late, {1: 100, 2: 100, 3: 100}, first=1)
    assert r.options().bet_range == (1, 10)
    r = play(r, (1, "bet", 2), (2, "raise", 9))      # a raise of 7
    assert r.options().raise_range == (16, 19)      # at least +7, at most +10
    with pytest.raises(IllegalAction, match="too small"):
        r.apply(Action(3, "raise", 12))


def test_spread_limit_has_the_cap_too():
    r = BettingRound.start(SpreadLimit(1, 5, cap=3), {1: 100, 2: 100, 3: 100}, first=1)
    r = play(r, (1, "bet", 5), (2, "raise", 10), (3, "raise", 15), (1, "raise", 20))
    assert r.raises == 3 and set(acts(r)) == {"fold", "call"}


# ------------------------------------------------------------------ pot limit

def test_pot_limit_seed_example_max_raise_to_90():
    # seeds/004: pot 50, opening bet 10, a call; the next seat may raise 50 + 20 + 10 = 80,
    # putting 90 chips in.
    r = BettingRound.start(PotLimit(10), {1: 1000, 2: 1000, 3: 1000}, pot=50, first=1)
    assert r.options().bet_range == (10, 50)        # an opening bet: at most the pot
    r = play(r, (1, "bet", 10), (2, "call"))
    assert r.options().raise_range == (20, 90)
    assert "= 80, so to 90" in r.options().why[Kind.RAISE].en
    with pytest.raises(IllegalAction, match="too large"):
        r.apply(Action(3, "raise", 91))
    assert play(r, (3, "raise", 90)).pot_total == 50 + 10 + 10 + 90


def test_pot_limit_preflop_pot_raise_with_blinds_and_antes():
    # blinds 50/100, ante 10 from each of 4 seats (40, to the pot): first seat: call 100, then
    # raise by the pot 40 + 150 + 100 = 290: to 390.
    r = BettingRound.start(PotLimit(100), {1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4,
                           blinds=(50, 100), ante=10)
    assert r.pot == 40 and r.to_act == 3
    assert r.options().raise_range == (200, 390)
    # the small blind, after a call: 100 + (40 + 250 + 50) = 440
    r = play(r, (3, "call"), (4, "call"))
    assert r.to_act == 1 and r.options().raise_range == (200, 100 + 40 + 350 + 50)


def test_pot_limit_all_in_above_the_pot_is_refused():
    r = BettingRound.start(PotLimit(10), {1: 1000, 2: 1000}, pot=50, first=1)
    assert "all_in" not in acts(r)
    with pytest.raises(IllegalAction, match=r"cannot go all-in: your stack reaches 1000, above the "
                                            r"most this bet may go to \(50\)"):
        r.apply(Action(1, "all_in"))


# ------------------------------------------------------------------ no limit

def test_no_limit_seed_example_min_reraise_to_110():
    # seeds/004: opening bet 10, a raise of 50 to 60: the next raise adds 50 or more, to 110+.
    r = BettingRound.start(NoLimit(10), {1: 1000, 2: 1000, 3: 1000}, first=1)
    r = play(r, (1, "bet", 10), (2, "raise", 60))
    assert r.options().raise_range == (110, 1000)
    assert acts(r)["call"].amount == 60
    with pytest.raises(IllegalAction, match="raise to 80 is too small"):
        r.apply(Action(3, "raise", 80))


def test_no_limit_min_raise_is_at_least_the_big_blind():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 1000, 3: 1000}, button=3)  # post-flop
    assert r.options().bet_range == (100, 1000)
    with pytest.raises(IllegalAction, match="bet to 60 is too small"):
        r.apply(Action(1, "bet", 60))
    # preflop: bb 100, nobody raised: raise to 200 at least
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 1000, 3: 1000}, button=3, blinds=(50, 100))
    assert r.options().raise_range == (200, 1000)


def short_all_in_table():
    # blinds 50/100, button seat 4: SB 1, BB 2; seat 3 raises to 300 (a raise of 200);
    # seat 4 goes all-in for 400: 100 more, short of a full raise.
    r = BettingRound.start(NoLimit(100), {1: 2000, 2: 2000, 3: 2000, 4: 400}, button=4,
                           blinds=(50, 100))
    return play(r, (3, "raise", 300), (4, "all_in"))


def test_short_all_in_does_not_reopen_the_betting_for_the_raiser():
    r = short_all_in_table()
    assert r.bet == 400 and r.min_raise == 200 and r.raises == 1
    # seats 1 and 2 have not acted: they may raise, by at least 200 over 400
    assert r.to_act == 1 and r.options().raise_range == (600, 2000)
    r = play(r, (1, "fold"), (2, "call"))
    assert r.to_act == 3
    assert set(acts(r)) == {"fold", "call"}
    assert acts(r)["call"].amount == 100
    why = r.options().why
    assert "not reopened" in why[Kind.RAISE].en and "100" in why[Kind.RAISE].en
    assert "再開されていません" in why[Kind.RAISE].ja
    with pytest.raises(IllegalAction, match="not reopened"):
        r.apply(Action(3, "raise", 800))
    with pytest.raises(IllegalAction, match="cannot go all-in"):
        r.apply(Action(3, "all_in"))
    done = r.apply(Action(3, "call"))
    assert done.is_complete and done.pot_total == 50 + 400 * 3


def test_short_all_ins_that_add_up_to_a_full_raise_reopen():
    r = BettingRound.start(NoLimit(100), {1: 2000, 2: 2000, 3: 2000, 4: 400, 5: 550}, button=5,
                           blinds=(50, 100))
    r = play(r, (3, "raise", 300), (4, "all_in"), (5, "all_in"), (1, "fold"), (2, "fold"))
    # seat 3 faces 550 - 300 = 250 more: at least a full raise (200), so it may raise again
    assert r.to_act == 3 and r.options().raise_range == (750, 2000)


def test_big_blind_has_the_option_and_the_round_ends_after_it_checks():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 1000, 3: 1000}, button=1, blinds=(50, 100))
    r = play(r, (1, "call"), (2, "call"))
    assert r.to_act == 3 and {"check", "raise"} <= set(acts(r)) and "call" not in acts(r)
    r = r.apply(Action(3, "check"))
    assert r.is_complete and r.pot_total == 300


def test_check_facing_a_bet_says_how_much_to_call():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 1000, 3: 1000}, first=1)
    r = play(r, (1, "bet", 200))
    with pytest.raises(IllegalAction) as exc:
        r.apply(Action(2, "check"))
    assert exc.value.seat == 2
    assert str(exc.value) == "seat 2: check: you cannot check: 200 to call"
    assert "チェックできません: コールに200必要です" in exc.value.says("ja")
    assert exc.value.why.to_json() == {"en": "you cannot check: 200 to call",
                                       "ja": "チェックできません: コールに200必要です"}


def test_short_stack_call_is_all_in_and_raise_not_possible():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 150, 3: 1000}, first=1)
    r = play(r, (1, "bet", 300))
    a = acts(r)
    assert a["call"].amount == 150 and a["call"].all_in
    assert "raise" not in a and a["all_in"].max_to == 150
    r = r.apply(Action(2, "all_in"))
    assert r.seat(2).all_in and r.bet == 300 and r.to_act == 3


def test_all_in_for_less_than_a_min_raise_is_still_allowed():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 250, 3: 1000}, first=1)
    r = play(r, (1, "bet", 200))
    assert acts(r)["raise"].min_to == 250 and acts(r)["raise"].max_to == 250
    r = r.apply(Action(2, "raise", 250))
    assert r.bet == 250 and r.min_raise == 200 and r.raises == 0    # short: not a full raise
    assert r.options().raise_range == (450, 1000)


def test_round_ends_when_everyone_else_folds_or_is_all_in():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 1000, 3: 1000}, first=1)
    r = play(r, (1, "bet", 100), (2, "fold"), (3, "fold"))
    assert r.is_complete and r.hand_over and r.to_json()["winner"] == 1
    r = BettingRound.start(NoLimit(100), {1: 500, 2: 1000}, first=1)
    r = play(r, (1, "all_in"), (2, "call"))
    assert r.is_complete and not r.hand_over
    with pytest.raises(IllegalAction, match="no action now"):
        r.apply(Action(1, "check"))


def test_post_flop_heads_up_the_big_blind_acts_first():
    r = BettingRound.start(NoLimit(100), {3: 1000, 7: 1000}, button=7)
    assert r.to_act == 3


# ------------------------------------------------------------------ conservation (hypothesis)

STRUCTURES = st.one_of(
    st.builds(NoLimit, st.integers(1, 50)),
    st.builds(PotLimit, st.integers(1, 50)),
    st.builds(FixedLimit, st.integers(2, 50), st.sampled_from([3, 4, None])),
    st.integers(1, 20).flatmap(lambda lo: st.builds(SpreadLimit, st.just(lo), st.integers(lo, 60),
                                                    st.sampled_from([3, 4, None]))),
)


@settings(max_examples=150, deadline=None)
@given(structure=STRUCTURES, stacks=st.lists(st.integers(1, 400), min_size=2, max_size=6),
       blinds=st.booleans(), ante=st.integers(0, 5), data=st.data())
def test_random_legal_play_conserves_chips_and_ends_with_bets_matched(structure, stacks, blinds,
                                                                      ante, data):
    seats = {i + 1: s for i, s in enumerate(stacks)}
    total = sum(seats.values())
    bb = max(structure.opening, 2)
    r = BettingRound.start(structure, seats, button=len(seats), ante=ante,
                           blinds=(bb // 2, bb) if blinds else None)
    for _ in range(300):
        assert sum(s.stack for s in r.seats) + r.pot_total == total
        if r.is_complete:
            break
        opts = r.options()
        assert opts.seat == r.to_act and opts.legal
        for legal in opts.legal:
            if legal.min_to is not None:
                assert legal.min_to <= legal.max_to <= r.seat(r.to_act).reach
                if legal.kind is not Kind.ALL_IN:
                    assert legal.min_to > r.bet
        choice = data.draw(st.sampled_from(opts.legal))
        to = None
        if choice.kind in (Kind.BET, Kind.RAISE):
            to = data.draw(st.integers(choice.min_to, choice.max_to))
            with pytest.raises(IllegalAction):
                r.apply(Action(r.to_act, choice.kind, choice.max_to + 1))
            if choice.min_to > r.bet + 1:
                with pytest.raises(IllegalAction):
                    r.apply(Action(r.to_act, choice.kind, choice.min_to - 1))
        r = r.apply(Action(r.to_act, choice.kind, to))
    assert r.is_complete
    live = [s for s in r.seats if not s.folded]
    if len(live) > 1:
        # everyone still in who has chips has matched the bet; all-in seats put in all they had
        assert all(s.committed == r.bet for s in live if s.stack > 0)
        assert all(s.committed <= r.bet for s in live)


# ------------------------------------------------------------------ first dealer and the button

def test_first_dealer_highest_rank_then_suit():
    assert first_dealer({1: "Qs", 2: "Kd", 3: "Kh", 4: "2c"}) == 3     # K♥ beats K♦
    assert first_dealer({1: "Ks", 2: "Kh", 3: "Kd", 4: "Kc"}) == 1
    assert first_dealer({1: "Ac", 2: "Ks"}) == 1                       # rank before suit
    assert first_dealer({"5": "10s", "6": "Td".replace("T", "9")}) == 5


def test_first_dealer_bad_draws():
    with pytest.raises(RuleError, match="duplicate card Kd"):
        first_dealer({1: "Kd", 2: "Kd"})
    with pytest.raises(RuleError, match="seat 2: first_dealer: the joker does not count"):
        first_dealer({1: "Kd", 2: "JK"})
    with pytest.raises(RuleError, match="seat 1: first_dealer: 'Kx' is not a card"):
        first_dealer({1: "Kx"})


def test_button_moves_clockwise_and_wraps():
    assert next_button(2, [1, 2, 5, 9]) == 5
    assert next_button(9, [1, 2, 5, 9]) == 1
    out = bet_from_json({"first_dealer": {"1": "Jd", "2": "Jh", "3": "9s"}})
    assert out["button"] == 2 and out["card"] == "Jh" and out["next_button"] == 3
    assert "suit" in out["why"]["en"] and "スート" in out["why"]["ja"]


# ------------------------------------------------------------------ JSON and the command

BASE = {"structure": "no-limit", "blinds": [50, 100], "button": 1,
        "seats": [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000}, {"seat": 3, "stack": 650}]}


def test_json_answer_shape_for_the_seat_to_act():
    out = bet_from_json({**BASE, "actions": [{"seat": 1, "action": "raise", "to": 250}]})
    assert out["to_act"] == 2 and out["to_call"] == 200
    assert out["actions"] == [{"action": "fold"}, {"action": "call", "amount": 200},
                              {"action": "raise", "min_to": 400, "max_to": 1000},
                              {"action": "all_in", "min_to": 1000, "max_to": 1000}]
    assert out["why"]["check"] == {"en": "you cannot check: 200 to call",
                                   "ja": "チェックできません: コールに200必要です"}
    assert set(out["why"]) == {"fold", "check", "call", "bet", "raise", "all_in"}
    assert out["pot_total"] == 400 and out["last_aggressor"] == 1


def test_snapshot_state_and_proposed_action():
    state = {"structure": "pot-limit", "min_bet": 10, "pot": 50, "to_act": 3,
             "seats": [{"seat": 1, "stack": 990, "committed": 10, "acted_at": 10},
                       {"seat": 2, "stack": 990, "committed": 10, "acted_at": 10},
                       {"seat": 3, "stack": 1000}],
             "propose": {"action": "raise", "to": 100}}
    out = bet_from_json(state)
    assert out["actions"][2] == {"action": "raise", "min_to": 20, "max_to": 90}
    assert out["proposed"]["legal"] is False and "too large" in out["proposed"]["why"]["en"]
    assert "ポット・リミット" in out["proposed"]["why"]["ja"]         # the JSON says both languages
    out = bet_from_json({**state, "propose": {"action": "call"}})
    assert out["proposed"] == {"legal": True, "next_to_act": None, "round_complete": True}


def test_snapshot_needs_the_last_raise_when_the_bet_was_raised():
    with pytest.raises(RuleError, match="last_raise: .*give \"last_raise\""):
        bet_from_json({"structure": "no-limit", "min_bet": 100, "to_act": 3,
                       "seats": [{"seat": 1, "stack": 700, "committed": 300},
                                 {"seat": 2, "stack": 1000, "committed": 0, "folded": True},
                                 {"seat": 3, "stack": 1000}]})


@pytest.mark.parametrize("patch, message", [
    ({"structure": "half-pot"}, "structure: unknown structure 'half-pot'"),
    ({"seats": [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": -5}]}, "seat 2: stack: expected a whole number"),
    ({"seats": [{"seat": 1, "stack": 1000}, {"seat": 1, "stack": 5}]}, "seat 1: seat: this seat is listed twice"),
    ({"actions": [{"seat": 2, "action": "call"}]}, "seat 2: actions[0]: call: it is not your turn: seat 1"),
    ({"actions": [{"seat": 1, "action": "raise", "to": 150}]}, "seat 1: actions[0]: raise: raise to 150 is too small"),
    ({"actions": [{"seat": 1, "action": "poke"}]}, "seat 1: actions[0]: unknown action 'poke'"),
    ({"structure": "fixed-limit", "limits": "10/20"}, "street: fixed limit: say the street"),
])
def test_bad_input_names_field_and_seat(patch, message):
    with pytest.raises(RuleError) as exc:
        bet_from_json({**BASE, **patch})
    assert str(exc.value).startswith(message), str(exc.value)


def run_cli(stdin, lang="en"):
    return subprocess.run([sys.executable, "-m", "dealer_assist", "bet", "--lang", lang], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_cli_answers_json_and_refuses_bad_input_with_exit_2():
    ok = run_cli(json.dumps({**BASE, "actions": [{"seat": 1, "action": "call"},
                                                 {"seat": 2, "action": "call"}]}))
    assert ok.returncode == 0, ok.stderr
    out = json.loads(ok.stdout)
    assert out["to_act"] == 3 and {"action": "raise", "min_to": 200, "max_to": 650} in out["actions"]
    bad = run_cli(json.dumps({**BASE, "actions": [{"seat": 1, "action": "check"}]}))
    assert bad.returncode == 2 and bad.stdout == ""
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in bad.stderr
    assert lines[0] == "dealer-assist bet: seat 1: actions[0]: check: you cannot check: 100 to call"
    ja = run_cli(json.dumps({**BASE, "actions": [{"seat": 1, "action": "check"}]}), lang="ja")
    assert ja.returncode == 2 and ja.stdout == "" and ja.stderr.count("\n") == 1
    assert "チェックできません: コールに100必要です" in ja.stderr and "you cannot check" not in ja.stderr
    assert run_cli("{not json").returncode == 2


def test_snapshot_refuses_a_seat_to_act_that_has_nothing_to_do():
    with pytest.raises(RuleError, match="seat 2: to_act: this seat has acted and matched the bet"):
        bet_from_json({"structure": "no-limit", "min_bet": 10, "to_act": 2,
                       "seats": [{"seat": 1, "stack": 90, "committed": 10, "acted_at": 10},
                                 {"seat": 2, "stack": 90, "committed": 10, "acted_at": 10}]})


def test_ante_goes_to_the_pot_and_can_put_a_seat_all_in():
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 1000, 3: 5}, button=3, blinds=(50, 100),
                           ante=10)
    assert r.pot == 10 + 10 + 5 and r.seat(3).all_in
    # seats 1 and 2 post the blinds; seat 3 is all-in on its ante, so seat 1 (SB) acts first
    assert r.to_act == 1 and acts(r)["call"].amount == 50


def test_big_blind_ante_is_dead_money_in_the_pot_and_counts_for_a_pot_limit_raise():
    r = bet_from_json({"structure": "pot-limit", "blinds": [50, 100], "bb_ante": 100, "button": 3,
                       "seats": [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000},
                                 {"seat": 3, "stack": 2650}]})
    # seat 2 (big blind) posts the blind 100 and the table's ante 100; seat 3 acts first
    assert r["pot"] == 100 and r["seats"][1]["stack"] == 800 and r["seats"][1]["committed"] == 100
    # pot-limit raise: call 100, then the pot: ante 100 + blinds 150 + the call 100 = 350 -> to 450
    assert r["to_act"] == 3 and r["to_call"] == 100
    assert {"action": "raise", "min_to": 200, "max_to": 450} in r["actions"]


def test_a_short_big_blind_posts_the_blind_first_and_antes_what_is_left():
    # 2024 TDA: big blind first. 150 chips: the blind 100, then 50 of the 100 ante
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 150, 3: 1000}, button=3, blinds=(50, 100),
                           bb_ante=100)
    assert r.pot == 50 and r.seat(2).committed == 100 and r.seat(2).all_in
    # 80 chips: all of them to the blind, no ante
    r = BettingRound.start(NoLimit(100), {1: 1000, 2: 80, 3: 1000}, button=3, blinds=(50, 100),
                           bb_ante=100)
    assert r.pot == 0 and r.seat(2).committed == 80
    with pytest.raises(RuleError, match="bb_ante: a big-blind ante is posted by the big blind"):
        bet_from_json({"structure": "no-limit", "min_bet": 100, "bb_ante": 100, "button": 1,
                       "seats": [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000}]})


def test_every_input_example_in_the_docs_runs():
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "betting.md").read_text("utf-8")
    ran = 0
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        obj = json.loads(block)
        if "to_call" in obj:       # the output example
            continue
        out = bet_from_json(obj)
        assert "button" in out or out["to_act"] is not None
        ran += 1
    assert ran >= 3


# ------------------------------------------------------------------ "game": the registry's betting

STUD_SEATS = [{"seat": 1, "stack": 200}, {"seat": 2, "stack": 200}, {"seat": 3, "stack": 200}]
STUD_UP = {"1": ["Kh", "7d", "5s"], "2": ["9s", "9c", "2h"], "3": ["As", "Qd", "3c"]}


def test_a_stud7_round_gets_fixed_limit_third_street_and_the_owners_bring_in():
    out = bet_from_json({"game": "stud7", "limits": "10/20", "ante": 1, "bring_in": 3, "up": STUD_UP,
                         "seats": STUD_SEATS})
    assert (out["game"], out["structure"], out["bring_in"], out["pot"], out["to_call"]) == ("stud7", "fixed-limit", 3, 3, 3)
    assert [s["committed"] for s in out["seats"]] == [0, 3, 0]        # seat 2's nines are the owner
    assert out["to_act"] == 3
    assert out["actions"][1:3] == [{"action": "call", "amount": 3}, {"action": "raise", "min_to": 10, "max_to": 10}]
    assert "bring-in of 3" in out["why"]["raise"]["en"] and "ブリングイン" in out["why"]["raise"]["ja"]


def test_the_bring_in_completed_is_the_opening_bet_and_the_owner_may_raise_again():
    base = {"game": "stud7", "limits": "10/20", "bring_in": 3, "first": 2, "seats": STUD_SEATS}
    out = bet_from_json({**base, "actions": [{"seat": 3, "action": "raise", "to": 10},
                                             {"seat": 1, "action": "call"}]})
    assert out["to_act"] == 2 and out["raises"] == 0          # completing counts toward no cap
    assert {"action": "raise", "min_to": 20, "max_to": 20} in out["actions"]
    # everyone just calls the bring-in: the owner has no option, the round is over
    out = bet_from_json({**base, "actions": [{"seat": 3, "action": "call"}, {"seat": 1, "action": "call"}]})
    assert out["round_complete"] is True and out["pot_total"] == 9


def test_explicit_fields_win_over_the_games_defaults_and_later_streets_have_no_bring_in():
    out = bet_from_json({"game": "holdem", "structure": "pot-limit", "blinds": [50, 100], "button": 1,
                         "seats": [{"seat": s, "stack": 1000} for s in (1, 2, 3)]})
    assert out["structure"] == "pot-limit" and out["to_act"] == 1 and out["to_call"] == 100
    out = bet_from_json({"game": "stud7", "limits": "10/20", "street": "fifth", "first": 3, "seats": STUD_SEATS})
    assert out["to_call"] == 0 and "bring_in" not in out and out["to_act"] == 3
    assert out["actions"][2] == {"action": "bet", "min_to": 20, "max_to": 20}


def test_lowball_posts_its_blinds_before_the_draw():
    out = bet_from_json({"game": "lowball-27", "limits": "10/20", "blinds": [5, 10], "button": 1,
                         "seats": [{"seat": s, "stack": 100} for s in (1, 2, 3)]})
    assert out["structure"] == "fixed-limit" and out["to_call"] == 10 and out["pot_total"] == 15


@pytest.mark.parametrize("data, words", [
    ({"game": "go-fish"}, "unknown game 'go-fish'; the games are holdem, joker-holdem"),
    ({"game": "daifugo"}, "game: daifugo has no betting round"),
    ({"game": "half-texas"}, "game: half-texas has no betting round: it is played for points"),
    ({"game": "stud7", "limits": "10/20", "street": "flop", "first": 1}, "stud7 has no street 'flop'"),
    ({"game": "stud7", "limits": "10/20", "first": 1}, "bring_in: stud7 opens third street with a bring-in"),
    ({"game": "stud7", "limits": "10/20", "bring_in": 10, "first": 1}, "less than the full bet"),
    ({"game": "holdem", "blinds": [1, 2], "button": 1, "up": STUD_UP}, "\"up\" (each seat's up cards) is for stud"),
])
def test_a_bad_game_input_is_a_one_line_error_with_exit_2(data, words):
    got = run_cli(json.dumps({**data, "seats": STUD_SEATS}))
    assert got.returncode == 2 and got.stdout == ""
    assert words in got.stderr and got.stderr.count("\n") == 1
