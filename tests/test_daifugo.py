"""Daifugo (seed 002): every example of the rulebook, the special rules, the game flow, the payout.

Expected values are worked out by hand from the seed's text (and RULINGS.md, Daifugo);
the comment above each test says which line of the seed it checks.
"""
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dealer_assist.cards import DECK_52, JOKER, Card, Suit, parse_card, parse_cards
from dealer_assist.cli import main
from dealer_assist.rules.daifugo import (
    CASINO_QUEST, STRENGTH_ORDER, Kind, Move, State, interpretations, payout,
    payout_from_json,
)
from dealer_assist.rules.errors import RuleError


def game(hands, turn=1, **kw):
    """A state from hands given as text per seat, seats 1..n clockwise."""
    seats = kw.pop("seats", sorted(hands))
    obj = {"seats": seats, "hands": {str(s): h.split() for s, h in hands.items()}, "turn": turn}
    obj.update(kw)
    return State.from_json(obj)


def put(state, seat, cards, jokers=None):
    return state.check(Move.put(seat, cards, jokers))


def ok(state, seat, cards, jokers=None):
    r = put(state, seat, cards, jokers)
    assert r.legal, r.reason
    return r


def refused(state, seat, cards, jokers=None):
    r = put(state, seat, cards, jokers)
    assert not r.legal, r.reason
    assert r.state is state                      # an illegal move changes nothing
    assert r.reason and r.reason_ja
    return r


def passes(state, *seats):
    for s in seats:
        r = state.check(Move.pass_(s))
        assert r.legal, r.reason
        state = r.state
    return state


# =========================================================================== strength (カードの強さ)

# Seed: ジョーカー>2>1>K>Q...5>4>3; no suit is stronger than another.
def test_strength_order_is_3_lowest_then_up_to_a_and_2():
    assert [r.symbol for r in STRENGTH_ORDER] == list("3456789TJQKA2")


@pytest.mark.parametrize("low, high", [("3c", "4c"), ("Kh", "Ad"), ("Ad", "2c"), ("9s", "Tc"), ("Qd", "Kd")])
def test_a_single_must_be_stronger_by_rank(low, high):
    s = game({1: f"{low} 5s", 2: f"{high} 6s", 3: "7c 7d"})
    s = ok(s, 1, low).state
    ok(s, 2, high)
    s2 = game({1: f"{high} 5s", 2: f"{low} 6s", 3: "7c 7d"})
    r = refused(ok(s2, 1, high).state, 2, low)
    assert "does not beat" in r.reason


def test_equal_rank_does_not_beat_whatever_the_suit():
    s = ok(game({1: "5h 3c", 2: "5s 3d", 3: "4c 4d"}), 1, "5h").state
    refused(s, 2, "5s")


# Seed: a joker played alone is unconditionally the strongest card.
def test_lone_joker_beats_a_2_and_nothing_beats_it():
    s = ok(game({1: "2s 3c", 2: "JK 3d", 3: "2h 4c"}), 1, "2s").state
    r = ok(s, 2, "JK")
    assert r.meld.lone_joker and r.meld.kind is Kind.SINGLE
    r = refused(r.state, 3, "2h")
    assert r.reason == "nothing beats a joker played alone"


def test_a_lone_joker_cannot_be_declared_as_another_card():
    r = refused(game({1: "JK 3c", 2: "4c 4d", 3: "5c 5d"}), 1, "JK", jokers=["3s"])
    assert "alone" in r.reason


# =========================================================================== shapes (カードの出し方)

def test_what_counts_as_a_play():
    assert interpretations(parse_cards("7h 7s 7d"))[0].kind is Kind.GROUP
    assert [m.kind for m in interpretations(parse_cards("5s 6s 7s"))] == [Kind.STAIR]
    assert interpretations(parse_cards("5s 6s")) == []          # two ranks: not a pair, too short a stair
    assert interpretations(parse_cards("5s 6h 7s")) == []       # a stair is one suit
    assert interpretations(parse_cards("5s 6s 8s")) == []       # consecutive
    # stairs run in strength order: K-A-2 is a stair, 2-3-4 is not
    assert [m.kind for m in interpretations(parse_cards("Kd Ad 2d"))] == [Kind.STAIR]
    assert interpretations(parse_cards("2d 3d 4d")) == []


def test_no_play_is_refused_with_what_a_play_is():
    r = refused(game({1: "5s 6h 9c", 2: "4c 4d", 3: "Tc Td"}), 1, "5s 6h")
    assert "one card, two or more of one rank, or a stair" in r.reason


# Seed ③: the next play has the same number of cards and is stronger; pair on pair, three on three.
def test_a_follow_is_the_same_kind_and_size():
    s = ok(game({1: "5h 5s 9c", 2: "6h 6d 6c Ks", 3: "Kc Kd 4c"}), 1, "5h 5s").state
    assert "2 cards of one rank" in refused(s, 2, "Ks").reason
    refused(s, 2, "6h 6d 6c")
    ok(s, 2, "6h 6d")


# Seed 階段: (例)◇4◇5◇6 on the field: a one-suit 5-6-7 or higher may follow.
def test_stair_follows_when_its_lowest_rank_is_one_higher():
    hands = {1: "4d 5d 6d Kc", 2: "5s 6s 7s 3c 4c 5c", 3: "5h 6h 7h 9d Td Jd Qd"}
    s = ok(game(hands), 1, "4d 5d 6d").state
    ok(s, 2, "5s 6s 7s")                            # 5-6-7 beats 4-5-6
    assert "does not beat" in refused(s, 2, "3c 4c 5c").reason
    assert "stair of 3" in refused(s, 2, "3c").reason      # only stairs until the field clears
    s3 = passes(s, 2)
    refused(s3, 3, "9d Td Jd Qd")                   # a stair of 4 does not follow a stair of 3
    ok(s3, 3, "5h 6h 7h")


def test_only_the_leader_can_start_a_stair():
    s = ok(game({1: "4d 5c", 2: "5s 6s 7s", 3: "9c 9d"}), 1, "4d").state
    assert "a single card" in refused(s, 2, "5s 6s 7s").reason


# =========================================================================== suit lock (しばり)

# Seed: (例)♡3→♠4→♣6→♠9: from then on only ♠ may be played.  The ♠9 matches the ♠4,
# not the ♣6 just before it (RULINGS.md: a match with ANY play of the round).
def test_a_lock_matches_any_earlier_play_of_the_round_not_just_the_last():
    s = game({1: "3h 9s Kd", 2: "4s Td Ts 2d", 3: "6c Qc Qs", 4: "9h Jh Ah"})
    s = ok(s, 1, "3h").state
    r = ok(s, 2, "4s")
    assert r.events == () and r.state.lock is None
    r = ok(r.state, 3, "6c")
    assert r.state.lock is None
    r = ok(r.state, 4, "9h")                        # ♥ matches the ♥3: this locks ♥ in our reading
    assert r.state.lock == (Suit.HEARTS,)


def test_seed_suit_lock_exact_sequence():
    s = game({1: "3h 9s Kd", 2: "4s Td Ts 2d", 3: "6c Qc Qs", 4: "5d Jh Ah"})
    s = ok(s, 1, "3h").state
    s = ok(s, 2, "4s").state
    s = ok(s, 3, "6c").state
    s = passes(s, 4)
    r = ok(s, 1, "9s")
    assert r.events == ("lock",) and r.state.lock == (Suit.SPADES,)
    assert r.state.to_json()["lock"] == ["s"]
    s = r.state
    r = refused(s, 2, "Td")
    assert r.reason == "the round is locked to ♠: only ♠ may be played until the field clears"
    assert "しばり" in r.reason_ja
    s = ok(s, 2, "Ts").state
    assert "locked" in refused(s, 3, "Qc").reason
    s = ok(s, 3, "Qs").state
    assert s.lock == (Suit.SPADES,)                 # lasts the whole round


def test_lock_ends_when_the_field_clears():
    s = game({1: "3h 9s Kd", 2: "4s Ts 2d 5c", 3: "6c Qc Qs"})
    s = ok(ok(s, 1, "3h").state, 2, "4s").state
    s = ok(s, 3, "6c").state
    s = ok(s, 1, "9s").state                        # locks ♠
    s = ok(s, 2, "Ts").state
    s = passes(s, 3, 1)                             # back to seat 2: the field clears
    assert s.field == () and s.lock is None and s.turn == 2
    ok(s, 2, "2d")                                  # any suit again


# Seed: ペアしばり: ♡4♠4 then ♡6♠6: from then on only ♡♠ pairs.
def test_seed_pair_lock():
    s = game({1: "4h 4s Ah As", 2: "6h 6s 9c 9d", 3: "7d 7c Kh Ks"})
    s = ok(s, 1, "4h 4s").state
    r = ok(s, 2, "6h 6s")
    assert r.events == ("lock",) and r.state.lock == (Suit.SPADES, Suit.HEARTS)
    assert "locked to ♠♥" in refused(r.state, 3, "7d 7c").reason
    s = ok(r.state, 3, "Kh Ks").state
    ok(s, 1, "Ah As")


def test_a_pair_lock_needs_the_same_two_suits_not_one_of_them():
    s = game({1: "4h 4s Ac", 2: "6h 6d 9c", 3: "7h 7s Kh"})
    s = ok(s, 1, "4h 4s").state
    r = ok(s, 2, "6h 6d")                           # ♥♦ is not ♥♠: no lock
    assert r.state.lock is None
    r = ok(r.state, 3, "7h 7s")                     # ♥♠ matches the first pair: lock
    assert r.state.lock == (Suit.SPADES, Suit.HEARTS)


# Seed: ♡5♠5の上に♡7JO→しばるか選択出来る: the joker's declared suit decides the lock.
def test_seed_joker_pair_chooses_whether_to_lock():
    s = ok(game({1: "5h 5s Kd", 2: "7h JK 3c", 3: "9c 9d 4c"}), 1, "5h 5s").state
    r = refused(s, 2, "7h JK")
    assert "say what the joker stands for" in r.reason and "ジョーカー" in r.reason_ja
    assert {tuple(map(str, m.declared)) for m in r.options} == {("7s",), ("7h",), ("7d",), ("7c",)}
    locked = ok(s, 2, "7h JK", jokers=["7s"])
    assert locked.events == ("lock",) and locked.state.lock == (Suit.SPADES, Suit.HEARTS)
    assert [str(c) for c in locked.meld.as_cards] == ["7s", "7h"]
    free = ok(s, 2, "7h JK", jokers=["7d"])
    assert free.events == () and free.state.lock is None
    # after the lock, seat 3's ♣♦ pair may not follow; without it, it may
    assert "locked" in refused(locked.state, 3, "9c 9d").reason
    ok(free.state, 3, "9c 9d")


def test_under_a_lock_the_joker_takes_the_needed_suit_without_being_told():
    s = game({1: "4h 4s Ac", 2: "6h 6s 9c", 3: "Th JK Kh"})
    s = ok(ok(s, 1, "4h 4s").state, 2, "6h 6s").state      # locked ♠♥
    r = ok(s, 3, "Th JK")                                   # only Ts makes ♠♥: forced, no declaration
    assert [str(c) for c in r.meld.declared] == ["Ts"]
    assert "locked" in refused(s, 3, "Th JK", jokers=["Td"]).reason


def test_a_lone_joker_may_be_played_under_a_lock():
    s = game({1: "3h 9s Kd", 2: "4s Td 2d", 3: "6c JK Qc"})
    s = ok(ok(s, 1, "3h").state, 2, "4s").state
    s = ok(s, 3, "6c").state
    s = ok(s, 1, "9s").state
    assert s.lock == (Suit.SPADES,)
    s = passes(s, 2)
    r = ok(s, 3, "JK")
    assert r.state.lock == (Suit.SPADES,)


# =========================================================================== jokers in groups and stairs

# Seed: ♡9♡10JO may be taken as ♡8 or as ♡J (the player's choice).
def test_seed_joker_stair_is_8_or_j_as_declared():
    s = game({1: "9h Th JK 4c", 2: "5c 5d", 3: "6c 6d"})
    r = refused(s, 1, "9h Th JK")
    assert {str(m.declared[0]) for m in r.options} == {"8h", "Jh"}
    as_j = ok(s, 1, "9h Th JK", jokers=["Jh"])
    assert [str(c) for c in as_j.meld.as_cards] == ["9h", "Th", "Jh"] and as_j.events == ("reverse",)
    as_8 = ok(s, 1, "9h Th JK", jokers=["8h"])
    assert [str(c) for c in as_8.meld.as_cards] == ["8h", "9h", "Th"] and as_8.events == ("eight_clear",)
    assert as_8.state.turn == 1 and as_8.state.field == ()


def test_joker_stair_declaration_decides_its_strength():
    assert "is no play" in refused(game({1: "9d Td Qd 4c", 2: "5c", 3: "6c"}), 1, "9d Td Qd").reason
    s = game({1: "5d 6d 7d 4c", 2: "5h 6h 7h JK 3c", 3: "Tc Td"})
    s = ok(s, 1, "5d 6d 7d").state                          # lowest rank 5
    assert "does not beat" in refused(s, 2, "5h 6h JK", jokers=["4h"]).reason   # 4-5-6 < 5-6-7
    assert "does not beat" in refused(s, 2, "5h 6h JK", jokers=["7h"]).reason   # 5-6-7 = 5-6-7
    # 6h 7h JK: 5-6-7 (equal, illegal) or 6-7-8 (legal): the one legal reading needs no declaration
    r = ok(s, 2, "6h 7h JK")
    assert [str(c) for c in r.meld.as_cards] == ["6h", "7h", "8h"] and r.events == ("eight_clear",)


def test_equal_stairs_do_not_beat():
    s = game({1: "9d Td Jd 4c", 2: "9h Th JK 5c", 3: "6c 6d"})
    s = passes(ok(s, 1, "9d Td Jd").state, 3)
    assert "does not beat" in refused(s, 2, "9h Th JK", jokers=["Jh"]).reason


def test_interior_joker_of_a_stair_needs_no_declaration():
    r = ok(game({1: "5s JK 7s 4c", 2: "3c 3d", 3: "6c 6d"}), 1, "5s JK 7s")
    assert [str(c) for c in r.meld.as_cards] == ["5s", "6s", "7s"]


def test_a_declaration_that_does_not_fit_is_refused():
    r = refused(game({1: "9h Th JK 4c", 2: "5c 5d", 3: "6c 6d"}), 1, "9h Th JK", jokers=["Js"])
    assert "is no play" in r.reason


def test_wrong_number_of_declarations_is_malformed():
    with pytest.raises(RuleError, match="1 joker"):
        Move.put(1, "9h Th JK", jokers=["Jh", "8h"])
    with pytest.raises(RuleError, match="no joker"):
        Move.put(1, "9h Th Jh", jokers=["8h"])


# =========================================================================== revolution (革命)

def test_four_of_a_kind_is_a_revolution_and_reverses_strength():
    s = game({1: "5s 5h 5d 5c Ks 9c", 2: "4h 2s Qc", 3: "JK 6c 6d"})
    r = ok(s, 1, "5s 5h 5d 5c")
    assert r.events == ("revolution",) and r.state.revolution
    s = passes(r.state, 2, 3)                         # field clears, seat 1 leads again
    assert s.turn == 1 and s.field == ()
    s = ok(s, 1, "Ks").state
    assert "revolution" in refused(s, 2, "2s").reason   # 2 is weakest now
    s = ok(s, 2, "4h").state                          # 4 beats K
    ok(s, 3, "JK")                                    # a lone joker stays strongest


def test_a_second_revolution_restores_the_order():
    s = game({1: "5s 5h 5d 5c Ac", 2: "4s 4h 4d 4c Kc", 3: "6c 6d 3h"})
    s = ok(s, 1, "5s 5h 5d 5c").state
    r = ok(s, 2, "4s 4h 4d 4c")                       # weaker in normal order = stronger now
    assert "revolution_ends" in r.events and not r.state.revolution


def test_a_stair_of_four_is_a_revolution_and_joker_revolutions_count():
    r = ok(game({1: "3d 4d 5d 6d Kc", 2: "4c 4h", 3: "7c 7h"}), 1, "3d 4d 5d 6d")
    assert r.events == ("revolution",)
    r = ok(game({1: "7s 7h 7d JK Kc", 2: "4c 4h", 3: "9c 9h"}), 1, "7s 7h 7d JK", jokers=["7c"])
    assert r.events == ("revolution",) and r.state.revolution


# Seed 5カード以上あり: 7777+joker, and 999999 with two decks, are revolutions.
def test_five_and_six_card_groups_are_revolutions():
    r = ok(game({1: "7s 7h 7d 7c JK Kc", 2: "4c 4h", 3: "9c 9h"}), 1, "7s 7h 7d 7c JK", jokers=["7s"])
    assert r.meld.size == 5 and r.events == ("revolution",)
    six = {1: "9s 9s 9h 9h 9d 9d Kc", 2: "4c", 3: "5c", 4: "6c", 5: "7c", 6: "Tc"}
    r = ok(game(six), 1, "9s 9s 9h 9h 9d 9d")
    assert r.meld.size == 6 and r.events == ("revolution",)


# A revolution during a lock: the lock stays, only the strength turns around.
def test_revolution_during_a_lock():
    s = game({1: "5s 5h 5d 5c 6s 6h 6d 6c Kc", 2: "4s 4h 4d 4c 3s 3h 3d 3c Kd", 3: "9s 9d 9c JK Qc"})
    r = ok(s, 1, "5s 5h 5d 5c")                      # revolution
    r = ok(r.state, 2, "4s 4h 4d 4c")                 # suits match the 5s: lock; revolution ends
    assert set(r.events) == {"lock", "revolution_ends"}
    lock = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    assert r.state.lock == lock and not r.state.revolution
    s = r.state
    # seat 3: 999+JK beats 4444; the lock leaves the joker one reading, 9h
    assert "locked" in refused(s, 3, "9s 9d 9c JK", jokers=["9s"]).reason
    r = ok(s, 3, "9s 9d 9c JK")
    assert [str(c) for c in r.meld.declared] == ["9h"]
    assert r.events == ("revolution",) and r.state.lock == lock and r.state.revolution
    # seat 1: 6666 beats 9999 in the revolution; it ends the revolution, the lock stays
    r = ok(r.state, 1, "6s 6h 6d 6c")
    assert r.events == ("revolution_ends",) and r.state.lock == lock and not r.state.revolution
    # seat 2: 3333 does not beat 6666 in the normal order
    assert "does not beat" in refused(r.state, 2, "3s 3h 3d 3c").reason


def test_joker_declaration_must_fit_the_lock_in_a_four_group():
    s = game({1: "6s 6h 6d 6c Ac", 2: "4s 4h 4d 4c Kc", 3: "7s 7d 7c JK Qc"})
    s = ok(ok(s, 1, "6s 6h 6d 6c").state, 2, "4s 4h 4d 4c").state
    assert s.lock is not None and not s.revolution
    assert "locked" in refused(s, 3, "7s 7d 7c JK", jokers=["7s"]).reason
    r = ok(s, 3, "7s 7d 7c JK")                      # the lock forces 7h
    assert [str(c) for c in r.meld.declared] == ["7h"] and r.state.revolution


# =========================================================================== 8 clears, J reverses

# Seed 8切り: a play with an 8 clears the field at once; its player leads again.
def test_eight_clears_the_field_and_the_player_leads():
    s = game({1: "5s Kd 3c", 2: "8h 4c 4d", 3: "9c 2h", 4: "Tc Th"})
    s = ok(s, 1, "5s").state
    r = ok(s, 2, "8h")
    assert r.events == ("eight_clear",)
    s = r.state
    assert s.field == () and s.turn == 2 and s.passed == frozenset()
    ok(s, 2, "4c 4d")                                 # leads anything


def test_eight_clear_resets_passes_and_locks():
    s = game({1: "3h 5h Kd", 2: "4h 8h Qc", 3: "9c 2h", 4: "Tc Th"})
    s = ok(s, 1, "3h").state
    r = ok(s, 2, "4h")                                # locks ♥
    assert r.state.lock == (Suit.HEARTS,)
    s = passes(r.state, 3, 4)
    s = ok(s, 1, "5h").state
    r = ok(s, 2, "8h")
    assert r.state.lock is None and r.state.passed == frozenset() and r.state.turn == 2


def test_an_eight_must_still_follow_the_lock_and_beat_the_field():
    s = game({1: "3h 5h Kd", 2: "4h 8s Qc", 3: "8c 9h", 4: "Tc Th"})
    s = ok(ok(s, 1, "3h").state, 2, "4h").state       # locked ♥
    assert "locked" in refused(s, 3, "8c").reason
    s = game({1: "9s Kd", 2: "8h Qc", 3: "5c 9h"})
    assert "does not beat" in refused(ok(s, 1, "9s").state, 2, "8h").reason


# Seed Jリバース: a J reverses the order of play until the next J or the end of the game.
def test_j_reverses_the_order_until_the_next_j():
    s = game({1: "5s Jd 3c", 2: "6c Jc Kd", 3: "7d 9c", 4: "Tc 4h"})
    s = ok(s, 1, "5s").state
    r = ok(s, 2, "Jc")
    assert r.events == ("reverse",) and r.state.turn == 1      # counterclockwise: 2 -> 1
    assert r.state.to_json()["direction"] == "counterclockwise"
    s = passes(r.state, 1)
    assert s.turn == 4                                # 1 -> 4 -> 3 ...
    s = passes(s, 4, 3)                               # back to seat 2: field clears
    assert s.turn == 2 and s.field == () and not s.clockwise   # the reversal outlasts the round
    s = ok(s, 2, "6c").state
    assert s.turn == 1
    r = ok(s, 1, "Jd")                                # the next J turns it back
    assert r.state.clockwise and r.state.turn == 2


def test_a_stair_with_an_8_and_a_j_clears_and_reverses():
    r = ok(game({1: "8s 9s Ts Js Kd", 2: "4c 4d", 3: "5c 5d", 4: "6c 6d"}), 1, "8s 9s Ts Js")
    assert set(r.events) == {"revolution", "reverse", "eight_clear"}
    assert r.state.turn == 1 and not r.state.clockwise and r.state.revolution


# =========================================================================== turns and passes

def test_everyone_else_passing_clears_the_field_for_the_last_player():
    s = game({1: "5s Kd", 2: "6c Qd", 3: "7d 9c", 4: "Tc 4h"})
    s = ok(s, 1, "5s").state
    s = ok(s, 2, "6c").state
    r = s.check(Move.pass_(3))
    assert r.state.turn == 4 and r.events == ("pass",)
    s = passes(r.state, 4)
    r = s.check(Move.pass_(1))
    assert r.legal and r.events == ("pass", "field_cleared")
    assert r.state.turn == 2 and r.state.field == () and r.state.passed == frozenset()


# Seed ④: a player who passed may not play again until the field clears.
def test_a_passed_player_is_skipped_for_the_rest_of_the_round():
    s = game({1: "5s Kd Ad", 2: "6c Qd", 3: "7d 9c", 4: "Tc 4h"})
    s = ok(s, 1, "5s").state
    s = passes(s, 2)
    s = ok(s, 3, "7d").state
    s = ok(s, 4, "Tc").state
    s = ok(s, 1, "Kd").state
    assert s.turn == 3                                # seat 2 passed: skipped
    r = put(s, 2, "Qd")
    assert not r.legal and "turn" in r.reason


def test_out_of_turn_and_leader_pass_are_refused():
    s = game({1: "5s Kd", 2: "6c Qd", 3: "7d 9c"})
    assert "seat 1's turn" in refused(s, 2, "6c").reason
    r = s.check(Move.pass_(1))
    assert not r.legal and "leader must play" in r.reason


def test_a_card_the_seat_does_not_hold_is_malformed_but_hidden_cards_cover_it():
    s = game({1: "5s Kd", 2: "6c Qd", 3: "?? ?? ??"}, turn=3)
    with pytest.raises(RuleError, match="6c is already in seat 2"):
        s.check(Move.put(3, "6c"))                    # one deck: the only 6c is in seat 2's hand
    r = ok(s, 3, "9h")                                # unseen cards: one ?? is used up
    assert len(r.state.hands[3]) == 2
    with pytest.raises(RuleError, match="does not hold 9c"):
        game({1: "5s Kd", 2: "6c Qd", 3: "7d 8c"}).check(Move.put(1, "9c"))


# =========================================================================== forbidden finishes (禁止アガリ)

@pytest.mark.parametrize("last", ["2s", "8s", "JK"])
def test_forbidden_finish_joker_2_8(last):
    s = game({1: f"{last} 3c", 2: "4c 4d", 3: "5c 5d"})
    s = ok(s, 1, "3c").state
    s = passes(s, 2, 3)
    r = refused(s, 1, last)
    assert "forbidden finish" in r.reason and "禁止アガリ" in r.reason_ja


def test_forbidden_finish_with_a_group_or_stair_containing_2_or_8():
    s = passes(ok(game({1: "2s 2h 3c", 2: "4c 4d", 3: "5c 5d"}), 1, "3c").state, 2, 3)
    assert "forbidden" in refused(s, 1, "2s 2h").reason
    s = passes(ok(game({1: "6s 7s 8s 3c", 2: "4c 4d", 3: "5c 5d"}), 1, "3c").state, 2, 3)
    assert "forbidden" in refused(s, 1, "6s 7s 8s").reason
    s = passes(ok(game({1: "5s 6s JK 3c", 2: "4c 4d", 3: "9c 9d"}), 1, "3c").state, 2, 3)
    assert "forbidden" in refused(s, 1, "5s 6s JK", jokers=["7s"]).reason


def test_forbidden_finish_in_a_revolution_is_joker_3_8_and_2_is_allowed():
    s = game({1: "Qs Qh Qd Qc 3s Ks", 2: "4c 4d", 3: "5c 5d"})
    s = passes(ok(s, 1, "Qs Qh Qd Qc").state, 2, 3)
    assert s.revolution
    s = game({1: "3s", 2: "4c 4d", 3: "5c 5d"}, revolution=True)
    r = refused(s, 1, "3s")
    assert "during a revolution" in r.reason and "革命中" in r.reason_ja
    s = game({1: "2s", 2: "4c 4d", 3: "5c 5d"}, revolution=True)
    r = ok(s, 1, "2s")
    assert r.events == ("win",) and r.state.winner == 1


def test_going_out_wins_and_ends_the_game():
    s = game({1: "As 3c", 2: "4c 4d", 3: "5c 5d"})
    s = passes(ok(s, 1, "3c").state, 2, 3)
    r = ok(s, 1, "As")
    assert r.events == ("win",) and r.state.winner == 1 and r.state.turn is None
    r2 = r.state.check(Move.pass_(2))
    assert not r2.legal and "game is over" in r2.reason


def test_a_leader_whose_last_card_is_forbidden_passes_the_lead():
    s = game({1: "3c", 2: "4c 4d", 3: "8s"}, turn=3)
    r = s.check(Move.pass_(3))
    assert r.legal and r.events == ("pass", "lead_passes") and r.state.turn == 1
    assert r.state.field == () and r.state.passed == frozenset()
    s = game({1: "3c", 2: "4c 4d", 3: "9s"}, turn=3)
    assert not s.check(Move.pass_(3)).legal          # a 9 can finish: the leader must play it


def test_a_player_holding_only_forbidden_cards_can_still_play_them_before_the_end():
    s = game({1: "2s 2h", 2: "4c 4d", 3: "5c 5d"})
    r = ok(s, 1, "2s")                                # one left: not a finish
    assert r.state.hands[1] == (parse_card("2h"),)


# =========================================================================== decks and the state's checks

# Seed: 54 cards (2 jokers); two decks when six or more play, the dealer included; 3 to 9 players.
def test_one_deck_up_to_five_players_two_from_six():
    with pytest.raises(RuleError, match="1 deck"):
        game({1: "As As", 2: "3c", 3: "4c", 4: "5c", 5: "6c"})
    with pytest.raises(RuleError, match="2 jokers"):
        game({1: "JK JK", 2: "JK", 3: "4c", 4: "5c", 5: "6c"})
    s = game({1: "As As JK JK", 2: "JK JK", 3: "4c", 4: "5c", 5: "6c", 6: "7c"})
    assert s.decks == 2
    with pytest.raises(RuleError, match="4 jokers"):
        game({1: "As As JK JK", 2: "JK JK JK", 3: "4c", 4: "5c", 5: "6c", 6: "7c"})


@pytest.mark.parametrize("players, cards, unused", [(3, 54, 24), (5, 54, 4), (6, 108, 48), (9, 108, 18)])
def test_deck_sizes_and_unused_cards(players, cards, unused):
    deck = CASINO_QUEST.deck_for(players)
    assert len(deck) == cards and len(deck) - 10 * players == unused
    assert deck.count(JOKER) == cards // 27          # 2 jokers per 54-card deck
    assert deck.count(parse_card("As")) == cards // 54


@pytest.mark.parametrize("n", [2, 10])
def test_player_count_is_3_to_9(n):
    with pytest.raises(RuleError, match="3 to 9"):
        game({s: "??" for s in range(1, n + 1)})


def test_a_hand_has_at_most_ten_cards():
    with pytest.raises(RuleError, match="dealt 10"):
        game({1: "?? " * 11, 2: "3c", 3: "4c"})


def test_field_must_be_consistent():
    base = {"seats": [1, 2, 3], "hands": {"1": ["3c"], "2": ["4c"], "3": ["5c"]}, "turn": 3}
    with pytest.raises(RuleError, match="do not follow"):
        State.from_json({**base, "field": [{"seat": 1, "cards": ["9c"]}, {"seat": 2, "cards": ["7c"]}]})
    with pytest.raises(RuleError, match="cleared the field"):
        State.from_json({**base, "field": [{"seat": 1, "cards": ["8c"]}]})
    with pytest.raises(RuleError, match="gives the lock|give the lock"):
        State.from_json({**base, "field": [{"seat": 1, "cards": ["6c"]}, {"seat": 2, "cards": ["7c"]}],
                         "lock": None})
    with pytest.raises(RuleError, match="say what the joker"):
        State.from_json({**base, "field": [{"seat": 1, "cards": ["6c", "JK"]}]})


def test_state_json_round_trips():
    s = game({1: "3h 9s Kd", 2: "4s Ts 2d", 3: "6c Qc Qs", 4: "5d JK Ah"})
    for m in [Move.put(1, "3h"), Move.put(2, "4s"), Move.put(3, "6c"), Move.pass_(4), Move.put(1, "9s")]:
        s = s.apply(m)
    again = State.from_json(json.loads(json.dumps(s.to_json())))
    assert again == s and again.to_json() == s.to_json()


def test_illegal_apply_raises_in_both_languages():
    s = game({1: "5s Kd", 2: "6c Qd", 3: "7d 9c"})
    with pytest.raises(RuleError, match="turn, not seat 2's$") as got:
        s.play(2, "6c")
    assert str(got.value) == "seat 2: it is seat 1's turn, not seat 2's"
    assert "シート1の番" in got.value.says("ja") and "turn" not in got.value.says("ja")


# =========================================================================== property: cards are conserved

@st.composite
def deals(draw):
    n = draw(st.integers(3, 5))
    deck = list(DECK_52) + [JOKER, JOKER]
    order = draw(st.permutations(range(len(deck))))
    hands = {s + 1: [deck[i] for i in order[s * 10:(s + 1) * 10]] for s in range(n)}
    return hands, draw(st.randoms(use_true_random=False))


def _candidates(hand):
    naturals = [c for c in hand if not c.is_joker]
    out = [(c,) for c in hand]
    by_rank = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
    for cs in by_rank.values():
        for k in range(2, len(cs) + 1):
            out.append(tuple(cs[:k]))
    if any(c.is_joker for c in hand):
        out += [(c, JOKER) for c in naturals]
    for c in naturals:                                  # three-card stairs from c upwards
        i = STRENGTH_ORDER.index(c.rank)
        if i + 2 < len(STRENGTH_ORDER):
            run = tuple(Card(STRENGTH_ORDER[i + k], c.suit) for k in range(3))
            if all(x in hand for x in run):
                out.append(run)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_random_games_conserve_cards_and_keep_turns_sane(deal):
    hands, rnd = deal
    s = State.new(sorted(hands), {k: [str(c) for c in v] for k, v in hands.items()}, leader=1)
    total = sum(len(h) for h in hands.values())
    discarded = 0
    for _ in range(200):
        if s.winner is not None:
            break
        legal = []
        for cards in _candidates(s.hands[s.turn]):
            r = s.check(Move.put(s.turn, cards))
            if r.legal:
                legal.append(r)
        r = s.check(Move.pass_(s.turn))
        if r.legal:
            legal.append(r)
        assert legal, "a player must always have a legal move (a pass, or some card when leading)"
        r = rnd.choice(legal)
        before_field = sum(p.meld.size for p in s.field)
        new = r.state
        if r.meld is not None and not new.field and new.winner is None:
            discarded += before_field + r.meld.size          # 8 clear / everyone passed
        elif r.meld is None and not new.field:
            discarded += before_field
        s = new
        in_hands = sum(len(h) for h in s.hands.values())
        assert in_hands + sum(p.meld.size for p in s.field) + discarded == total
        if s.winner is None:
            assert s.turn in s.seats and s.turn not in s.passed
            if not s.field:
                assert not s.passed and s.lock is None
    # Round-trip the final state too
    assert State.from_json(s.to_json()) == s


# =========================================================================== payout

# Seed: ante 5G each; the others pay 5G per card left; rake 2G x players; the winner takes the rest.
def test_payout_by_hand():
    p = payout([1, 2, 3, 4, 5], 3, {1: 4, 2: 1, 4: 10, 5: 7})
    # pot = 5 x 5 + 5 x (4 + 1 + 10 + 7) = 25 + 110 = 135; rake 10; winner takes 125, net 120
    assert (p.pot, p.rake, p.winner_takes) == (135, 10, 125)
    assert p.changes == {1: -25, 2: -10, 3: 120, 4: -55, 5: -40}
    assert p.next_leader == 3 and not p.dead_button


def test_dead_button_when_the_winner_leaves():
    p = payout([1, 2, 3, 4, 5], 5, {1: 4, 2: 1, 3: 3, 4: 10}, leaving=[5])
    assert p.next_leader == 1 and p.dead_button               # left of seat 5, clockwise, wraps to 1
    p = payout([1, 2, 3, 4, 5], 2, {1: 4, 3: 3, 4: 10, 5: 1}, leaving=[2, 3])
    assert p.next_leader == 4 and p.dead_button
    p = payout([1, 2, 3, 4, 5], 2, {1: 4, 3: 3, 4: 10, 5: 1}, leaving=[3])
    assert p.next_leader == 2 and not p.dead_button


def test_payout_refuses_impossible_results():
    with pytest.raises(RuleError, match="holds no cards"):
        payout([1, 2, 3], 1, {1: 2, 2: 3, 3: 4})
    with pytest.raises(RuleError, match="only the winner"):
        payout([1, 2, 3], 1, {2: 0, 3: 4})
    with pytest.raises(RuleError, match="0 to 10"):
        payout([1, 2, 3], 1, {2: 11, 3: 4})
    with pytest.raises(RuleError, match="missing"):
        payout([1, 2, 3], 1, {2: 1})
    with pytest.raises(RuleError, match="at least 50G"):
        payout([1, 2, 3], 1, {2: 1, 3: 2}, chips={1: 100, 2: 49, 3: 80})


def test_payout_chips_after_and_who_cannot_join_next():
    p = payout([1, 2, 3], 1, {2: 9, 3: 2}, chips={1: 100, 2: 60, 3: 80})
    # seat 2 pays 5 + 45 = 50 -> 10G left, below 50
    assert p.chips_after == {1: 100 + p.changes[1], 2: 10, 3: 65}
    assert any("seat 2 (10G)" in line for line in p.explanation)


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 9).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n), st.lists(st.integers(1, 10), min_size=n, max_size=n))))
def test_payout_conserves_money(args):
    n, winner, counts = args
    seats = list(range(1, n + 1))
    left = {s: counts[s - 1] for s in seats if s != winner}
    p = payout(seats, winner, left)
    assert sum(p.changes.values()) + p.rake == 0
    assert p.rake == 2 * n
    assert p.pot == 5 * n + 5 * sum(left.values())
    for s in seats:
        if s == winner:
            assert p.changes[s] == p.pot - p.rake - 5 > 0
        else:
            assert p.changes[s] == -(5 + 5 * left[s])


def test_payout_from_json_with_hands():
    p = payout_from_json({"seats": [1, 2, 3], "winner": 2, "hands": {"1": ["??", "??"], "2": [], "3": ["As"]}})
    assert p.cards_left == {1: 2, 2: 0, 3: 1} and p.changes == {1: -15, 2: 19, 3: -10}


# =========================================================================== the command

def run_cli(argv, stdin_text, capsys, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin_text))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_check_illegal_is_a_normal_answer(capsys, monkeypatch):
    doc = {"state": {"seats": [1, 2, 3], "hands": {"1": ["9s", "Kd"], "2": ["4c", "Qd"], "3": ["7d"]},
                     "turn": 2, "field": [{"seat": 1, "cards": ["5s"]}]},
           "play": {"seat": 2, "cards": ["4c"]}}
    code, out, err = run_cli(["daifugo", "check"], json.dumps(doc), capsys, monkeypatch)
    assert code == 0 and err == ""
    ans = json.loads(out)
    assert ans["legal"] is False and "does not beat" in ans["reason"] and ans["reason_ja"]
    assert ans["state"]["turn"] == 2


def test_cli_check_plays_sequence(capsys, monkeypatch):
    doc = {"state": {"seats": [1, 2, 3, 4], "hands": {"1": ["3h", "9s", "Kd"], "2": ["4s", "Td", "2d"],
                                                       "3": ["6c", "Tc", "Qs"], "4": ["9h", "Jh", "??"]},
                     "turn": 1},
           "plays": [{"seat": 1, "cards": ["3h"]}, {"seat": 2, "cards": ["4s"]}, {"seat": 3, "cards": ["6c"]},
                     {"seat": 4, "pass": True}, {"seat": 1, "cards": ["9s"]}, {"seat": 2, "cards": ["Td"]}]}
    code, out, _ = run_cli(["daifugo", "check", "--compact"], json.dumps(doc), capsys, monkeypatch)
    ans = json.loads(out)
    assert code == 0 and ans["legal"] is False and len(ans["results"]) == 6
    assert ans["results"][4]["events"] == ["lock"] and ans["state"]["lock"] == ["s"]
    assert ans["state"]["turn"] == 2


@pytest.mark.parametrize("text, fragment", [
    ("{", "not valid JSON"),
    ('{"state": {"seats": [1,2,3], "hands": {"1": ["Zz"], "2": [], "3": []}, "turn": 1}, "play": {"seat": 1, "cards": ["Zz"]}}', "not a card"),
    ('{"state": {"seats": [1,2,3], "hands": {"1": ["5s"], "2": ["6s"], "3": ["7s"]}, "turn": 1}}', "play"),
    ('{"state": {"seats": [1,2,3], "hands": {"1": ["5s"], "2": ["6s"], "3": ["7s"]}, "turn": 1}, "play": {"seat": 9, "cards": ["5s"]}}', "not at this table"),
])
def test_cli_malformed_input_is_exit_2_one_line(text, fragment, capsys, monkeypatch):
    code, out, err = run_cli(["daifugo", "check", "--lang", "en"], text, capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_cli_payout(capsys, monkeypatch):
    doc = {"seats": [1, 2, 3, 4], "winner": 2, "cards_left": {"1": 3, "3": 10, "4": 1}, "leaving": [2]}
    code, out, _ = run_cli(["daifugo", "payout"], json.dumps(doc), capsys, monkeypatch)
    ans = json.loads(out)
    # pot 20 + 5 x 14 = 90, rake 8, winner takes 82 (net 77)
    assert code == 0 and ans["payouts"] == {"1": -20, "2": 77, "3": -55, "4": -10}
    assert ans["next_leader"] == 3 and ans["dead_button"] is True
    code, out, err = run_cli(["daifugo", "payout", "--lang", "en"], '{"seats": [1,2,3], "winner": 4, "cards_left": {}}',
                             capsys, monkeypatch)
    assert code == 2 and "not in seats" in err
