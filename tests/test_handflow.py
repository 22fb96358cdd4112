"""The Joker NLH hand flow of a live table, driven by scripted observation streams.

A script is a list of segments ``(frames, {zone: "cards"})``: the table as a camera would see it
for that many frames (``board`` fills board1.. in order).  The stream builder adds what a real
detector does: random dropped detections, occasional misreads and unreadable frames, jitter.
Payouts in these tests are worked out by hand from RULINGS.md (noted beside each).
"""
from __future__ import annotations

import json
import random

import pytest

from dealer_assist.cards import DECK_52
from dealer_assist.errors import UserError
from dealer_assist.live.events import Showdown
from dealer_assist.live.handflow import LiveTable
from dealer_assist.i18n import both, message_of
from dealer_assist.live.words import describe, line
from dealer_assist.live.tracker import Observation, TrackerSettings

BASE = {f"board{i}": (400.0 + 70 * (i - 1), 300.0) for i in range(1, 6)}
BASE.update({f"seat{s}": (100.0 + 180 * (s - 1), 650.0) for s in range(1, 7)})
BASE.update({"burn": (250.0, 300.0), "muck": (1000.0, 300.0)})


def seg(n, board="", **zones):
    table = {f"board{i}": c for i, c in enumerate(board.split(), 1)}
    table.update({z: v for z, v in zones.items() if v})
    return (n, {z: v.split() for z, v in table.items()})


def frames(script, *, drop=0.0, misread=0.0, seed=1, doubt=()):
    """Observations frame by frame: (frame, t, [Observation]). A card is read surely (the
    detector's ``sure`` flag) unless it is misread or named in ``doubt`` (a dict: card -> the
    other name the reader offers for it, ``"or"``)."""
    rng = random.Random(seed)
    names = [str(c) for c in DECK_52]
    f = 0
    for n, table in script:
        for _ in range(n):
            seen = []
            for zone, cards in table.items():
                x0, y0 = BASE[zone]
                for k, card in enumerate(cards):
                    if rng.random() < drop:
                        continue
                    conf = 1.0 if card == "BACK" else 0.9
                    if card != "BACK" and rng.random() < misread:
                        card, conf = (rng.choice(names), 0.4) if rng.random() < 0.6 else ("??", 0.3)
                    xy = (x0 + 70 * k + rng.uniform(-2, 2), y0 + rng.uniform(-2, 2))
                    sure = card not in ("BACK", "??") and conf >= 0.9 and card not in doubt
                    other = doubt.get(card) if isinstance(doubt, dict) and not sure else None
                    seen.append(Observation(card, zone, xy, conf, sure=sure, other=other))
            rng.shuffle(seen)
            yield f, f / 15, seen
            f += 1


def play(script, actions=None, table=None, **noise):
    """Run a script through a LiveTable; ``actions``: frame -> [dealer actions] (applied first)."""
    table = table or LiveTable(seats=6, game="joker-holdem")
    events = []
    for f, t, seen in frames(script, **noise):
        for a in (actions or {}).get(f, []):
            events += table.apply(a, f, t)
        events += table.step(f, t, seen)
    return events, table


def starts(script):
    """The first frame of each segment."""
    out, f = [], 0
    for n, _ in script:
        out.append(f)
        f += n
    return out


def brief(events):
    out = []
    for e in events:
        k = [e.type]
        if e.type == "board":
            k += [e.street, " ".join(e.cards)]
        elif e.type == "hole":
            k += [e.seat, " ".join(sorted(e.cards))]
        elif e.type == "alert":
            k += [e.code, "cleared" if e.cleared else "raised"]
        elif e.type == "hand_start":
            k += [list(e.seats)]
        out.append(tuple(k))
    return out


def of(events, kind):
    return [e for e in events if e.type == kind]


B2 = "BACK BACK"
FLOP = "Ks Js 6s"
BOARD = "Ks Js 6s 4d 2c"   # the rulebook's example J1 board

# Hand: seats 2, 4, 5 dealt; seat 5 folds preflop (cards to the muck); J1: seat 2 JK Ts makes the
# flush A-K-J-T-6 (joker = As), seat 4 As 8s the flush A-K-J-8-6: seat 2 wins.
FULL_HAND = [
    seg(6),
    seg(10, seat2=B2, seat4=B2, seat5=B2),
    seg(10, seat2=B2, seat4=B2, muck=B2),
    seg(10, board=FLOP, seat2=B2, seat4=B2, muck=B2),
    seg(10, board="Ks Js 6s 4d", seat2=B2, seat4=B2, muck=B2, burn="BACK BACK"),
    seg(10, board=BOARD, seat2=B2, seat4=B2, muck=B2, burn="BACK BACK BACK"),
    seg(12, board=BOARD, seat2="JK Ts", seat4=B2, muck=B2),
    seg(12, board=BOARD, seat2="JK Ts", seat4="As 8s", muck=B2),
    seg(12),
]
CHIPS = {60: [{"type": "committed", "seat": 2, "amount": 100}, {"type": "committed", "seat": 4, "amount": 100},
              {"type": "committed", "seat": 5, "amount": 10}]}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_full_hand_with_a_showdown_and_its_payouts(seed):
    events, table = play(FULL_HAND, CHIPS, drop=0.1, misread=0.05, seed=seed)
    assert brief(events) == [
        ("hand_start", [2, 4, 5]),
        ("board", "flop", FLOP), ("board", "turn", "Ks Js 6s 4d"), ("board", "river", BOARD),
        ("hole", 2, "JK Ts"), ("hole", 4, "8s As"), ("showdown",), ("hand_end",)]
    sd = of(events, "showdown")[0]
    # pot 100 + 100 + 10 = 210 (seat 5's 10 stay in the pot), all to seat 2 (J1: the joker holder's
    # A-K-J-T-6 flush beats A-K-J-8-6)
    assert sd.ruling.payouts == {2: 210, 4: 0, 5: 0}
    assert sd.ruling.hands[2].note("joker_as") == "As"
    assert sd.ruling.chips_entered is True
    assert sd.table["seats"] == [
        {"seat": 2, "hole": ["JK", "Ts"], "committed": 100, "folded": False},
        {"seat": 4, "hole": ["As", "8s"], "committed": 100, "folded": False},
        {"seat": 5, "committed": 10, "folded": True}]
    assert sd.table["button"] == 2      # first hand: the lowest dealt seat
    end = of(events, "hand_end")[0]
    assert end.ruling.payouts == sd.ruling.payouts
    assert end.won_without_showdown is None and list(end.board) == BOARD.split()
    assert all(e.hand == 1 for e in events)
    assert table.state()["hand"] is None
    json.dumps(table.state())


def test_events_come_within_four_frames_of_the_first_frame_showing_the_change():
    events, _ = play(FULL_HAND, CHIPS, drop=0.1, misread=0.05, seed=7)
    s = starts(FULL_HAND)
    firsts = {"hand_start": s[1], "flop": s[3], "turn": s[4], "river": s[5], "hole2": s[6], "hole4": s[7]}
    got = {"hand_start": of(events, "hand_start")[0].frame}
    for e in of(events, "board"):
        got[e.street] = e.frame
    for e in of(events, "hole"):
        got[f"hole{e.seat}"] = e.frame
    for k, first in firsts.items():
        assert first + 2 <= got[k] <= first + 4, (k, first, got[k])
    # the cleared table: released after 6 frames unseen
    assert of(events, "hand_end")[0].frame == s[8] + 5


#: the joker turned as the turn, swapped with the stub's top card (8c), then the river
JOKER_TURN = [
    seg(10, seat1=B2, seat3=B2),
    seg(10, board=FLOP, seat1=B2, seat3=B2, burn="BACK"),
    seg(10, board="Ks Js 6s JK", seat1=B2, seat3=B2, burn="BACK BACK"),
    seg(3, board=FLOP, seat1=B2, seat3=B2, burn="BACK BACK JK"),      # the swap
    seg(10, board="Ks Js 6s 8c", seat1=B2, seat3=B2, burn="BACK BACK JK"),
    seg(10, board="Ks Js 6s 8c 2h", seat1=B2, seat3=B2, burn="BACK BACK JK BACK"),
]


def test_the_joker_turned_on_the_turn_is_called_and_the_swapped_card_is_the_turn():
    script = JOKER_TURN
    events, table = play(script, drop=0.1, misread=0.03, seed=4)
    assert brief(events) == [
        ("hand_start", [1, 3]), ("board", "flop", FLOP),
        ("alert", "joker_on_board", "raised"), ("alert", "joker_on_board", "cleared"),
        ("board", "turn", "Ks Js 6s 8c"), ("board", "river", "Ks Js 6s 8c 2h")]
    raised = of(events, "alert")[0]
    assert raised.get("zone") == "board4"
    assert "board 4" in raised.message and "next burn card" in raised.message
    assert "バーンカード" in raised.message_ja
    s = starts(script)
    assert raised.frame <= s[2] + 4
    cleared, turn = of(events, "alert")[1], of(events, "board")[1]
    assert cleared.frame == turn.frame <= s[4] + 4
    assert table.state()["burn"].count("JK") == 1 and not table.state()["alerts"]


def test_a_fold_leaves_one_seat_who_wins_without_a_showdown():
    script = [
        seg(10, seat1=B2, seat2=B2, seat4=B2),
        seg(10, board=FLOP, seat1=B2, seat2=B2, seat4=B2),
        seg(10, board=FLOP, seat1=B2, seat4=B2, muck=B2),
        seg(10, board=FLOP, seat1=B2, muck="BACK BACK BACK BACK"),
        seg(10),
    ]
    chips = {25: [{"type": "committed", "seat": s, "amount": a} for s, a in ((1, 60), (2, 20), (4, 20))]}
    events, table = play(script, chips, drop=0.1, seed=5)
    assert brief(events) == [("hand_start", [1, 2, 4]), ("board", "flop", FLOP), ("hand_end",)]
    end = events[-1]
    assert end.won_without_showdown == 1
    # everyone else folded: the whole 100 goes to seat 1
    assert end.ruling.payouts == {1: 100, 2: 0, 4: 0}
    assert list(end.board) == FLOP.split()


def test_a_seat_that_folds_while_the_deal_goes_on_was_dealt_in_and_its_chips_count():
    """Seat 6 is dealt two cards lying across each other, which the reader takes for one, and its
    player folds at once, before the deal is judged over (every seat holding two cards, or the
    wait). It was dealt in all the same: the hand starts with it, folded, and the 20 chips it put
    in are dead money in the pot, not refused as a seat's that was never dealt. Payouts by hand:
    seats 2 and 3 put in 150 each, seat 6 20; seat 2's Ac Ad beats seat 3's Kc Kd: 320 to seat 2."""
    board = "Ah 9c 8d 6s 4c"
    script = [
        seg(6),
        seg(3, seat2="BACK", seat3="BACK", seat6="BACK"),
        seg(4, seat2=B2, seat3=B2, seat6="BACK"),            # seat 6's second card hidden by its first
        seg(10, seat2=B2, seat3=B2, muck="BACK"),             # ... and straight to the muck
        seg(10, board=board, seat2=B2, seat3=B2, muck="BACK"),
        seg(12, board=board, seat2="Ac Ad", seat3="Kc Kd", muck="BACK"),
        seg(10),
    ]
    chips = {30: [{"type": "committed", "seat": s, "amount": a} for s, a in ((2, 150), (3, 150), (6, 20))]}
    events, _ = play(script, chips, seed=3)
    assert brief(events)[0] == ("hand_start", [2, 3, 6])
    assert not [e for e in of(events, "alert") if e.code == "bad_action"]
    ruling = of(events, "showdown")[0].ruling
    assert ruling.payouts == {2: 320, 3: 0, 6: 0}
    assert [(p.amount, p.eligible) for p in ruling.pots] == [(320, (2, 3))]
    # a seat whose cards were only covered at the start comes back into the hand, and the dealer is told
    script = [seg(6), seg(3, seat2=B2, seat3=B2, seat6=B2), seg(8, seat2=B2, seat3=B2),
              seg(10, seat2=B2, seat3=B2, seat6=B2)]
    events, table = play(script, seed=3)
    assert brief(events)[0] == ("hand_start", [2, 3, 6])
    assert ("alert", "fold_undone", "raised") in brief(events) and 6 not in table.folded


def test_a_side_pot_goes_to_another_seat_than_the_main_pot():
    # seat 1 all-in for 100 with Ac Ad: three aces; seat 3 JK 2d: one pair of aces (J2: joker = A);
    # seat 2 7h 7d: a pair of sevens.  Main pot 3 x 100 = 300 to seat 1; side pot 2 x 200 = 400
    # (seats 2 and 3) to seat 3.
    board = "Ah 9c 8d 6s 4c"
    script = [
        seg(10, seat1=B2, seat2=B2, seat3=B2),
        seg(10, board=board, seat1=B2, seat2=B2, seat3=B2),
        seg(12, board=board, seat1="Ac Ad", seat2=B2, seat3=B2),
        seg(12, board=board, seat1="Ac Ad", seat2="7h 7d", seat3="JK 2d"),
        seg(10),
    ]
    chips = {15: [{"type": "committed", "seat": s, "amount": a} for s, a in ((1, 100), (2, 300), (3, 300))]
             + [{"type": "last_aggressor", "seat": 2}]}
    events, _ = play(script, chips, drop=0.1, misread=0.05, seed=6)
    assert [b[0] for b in brief(events)] == ["hand_start", "board", "board", "board", "hole", "hole",
                                             "hole", "showdown", "hand_end"]
    ruling = of(events, "showdown")[0].ruling
    assert ruling.payouts == {1: 300, 2: 0, 3: 400}
    assert [(p.amount, p.eligible, p.winners) for p in ruling.pots] == [
        (300, (1, 2, 3), (1,)), (400, (2, 3), (3,))]
    assert ruling.showdown_order[0] == 2      # the last aggressor shows first


def test_a_duplicate_card_is_called_and_cleared_when_it_goes():
    script = [
        seg(10, seat1=B2, seat2=B2),
        seg(10, board=FLOP, seat1=B2, seat2=B2),
        seg(10, board=FLOP, seat1=B2, seat2=B2, seat3="Ks"),     # a foreign Ks at seat 3
        seg(10, board=FLOP, seat1=B2, seat2=B2),
    ]
    events, _ = play(script, drop=0.05, seed=8)
    alerts = of(events, "alert")
    assert [(a.code, a.cleared, a.get("card")) for a in alerts] == [
        ("duplicate_card", False, "Ks"), ("duplicate_card", True, "Ks")]
    assert "board 1" in alerts[0].message and "seat 3" in alerts[0].message
    assert alerts[0].message_ja


def test_an_extra_board_card_is_called_but_a_hand_passing_over_the_board_is_not():
    seats = dict(seat1=B2, seat2=B2)
    script = [
        seg(10, **seats),
        seg(10, board=FLOP, **seats),
        seg(5, board="Ks Js", board3="6s ??", **seats),     # a hand over the flop: a blur for 5 frames
        seg(10, board=FLOP, **seats),
        seg(10, board="Ks Js", board3="6s 9h", **seats),    # a real sixth card on board3
        seg(10, board=FLOP, **seats),
        seg(25, board="Ks Js", board3="6s ??", **seats),    # an extra card nobody can read, left there
    ]
    s = starts(script)
    events, _ = play(script, seed=4)
    sixth = [(a.cleared, a.get("zone"), a.frame) for a in of(events, "alert") if a.code == "sixth_board_card"]
    assert sixth[:2] == [(False, "board3", sixth[0][2]), (True, "board3", sixth[1][2])]
    assert s[4] <= sixth[0][2] < s[5] and s[5] <= sixth[1][2]
    assert len(sixth) == 3 and sixth[2][:2] == (False, "board3")
    assert sixth[2][2] >= s[6] + 15                          # only after the unreadable card's second


def test_a_turn_card_before_the_flop_is_the_wrong_street():
    script = [
        seg(10, seat1=B2, seat2=B2),
        seg(10, seat1=B2, seat2=B2, board4="9d"),
        seg(10, board="Ks Js 6s 9d", seat1=B2, seat2=B2),
    ]
    events, _ = play(script, drop=0.05, seed=9)
    assert brief(events) == [
        ("hand_start", [1, 2]), ("alert", "wrong_street", "raised"), ("alert", "wrong_street", "cleared"),
        ("board", "flop", FLOP), ("board", "turn", "Ks Js 6s 9d")]
    assert of(events, "alert")[0].get("zone") == "board4"


def test_a_correction_that_changes_the_winner_makes_a_new_showdown():
    # seat 4's 8s is read as 8c every time: A-K-J-8-6 high card loses to seat 2's queens; the
    # corrected As 8s is a flush and wins (no joker in this hand).
    script = [
        seg(10, seat2=B2, seat4=B2),
        seg(10, board=BOARD, seat2=B2, seat4=B2),
        seg(12, board=BOARD, seat2="Qh Qd", seat4="As 8c"),
        seg(4, board=BOARD, seat2="Qh Qd", seat4="As 8c"),
        seg(10),
    ]
    chips = {12: [{"type": "committed", "seat": 2, "amount": 50}, {"type": "committed", "seat": 4, "amount": 50}]}
    s = starts(script)
    fix = {"type": "correct", "zone": "seat4", "card": "8c", "to": "8s"}
    chips[s[3]] = [fix]
    events, table = play(script, chips, drop=0.05, seed=10)
    sds = of(events, "showdown")
    assert [sd.ruling.payouts for sd in sds] == [{2: 100, 4: 0}, {2: 0, 4: 100}]
    assert sds[1].frame == s[3]
    assert sds[1].table["seats"][1]["hole"] == ["As", "8s"]
    holes = [(e.seat, sorted(e.cards)) for e in of(events, "hole")]
    assert holes[-1] == (4, ["8s", "As"])
    assert of(events, "hand_end")[0].corrections == 1
    assert of(events, "hand_end")[0].ruling.payouts == {2: 0, 4: 100}


def test_apply_returns_the_events_of_a_correction():
    table = LiveTable()
    script = [seg(10, seat2=B2, seat4=B2), seg(6, board="Ks Js 6c", seat2=B2, seat4=B2)]
    for f, t, seen in frames(script):
        table.step(f, t, seen)
    got = table.apply({"type": "correct", "zone": "board3", "card": "6c", "to": "6s"}, 16, 1.1)
    assert brief(got) == [("board", "flop", FLOP)]
    with pytest.raises(UserError, match="no Qd is read in board 3"):
        table.apply({"type": "correct", "zone": "board3", "card": "Qd", "to": "6s"}, 16, 1.1)


def test_cards_hidden_by_a_hand_for_three_frames_stay_and_for_seven_frames_fold():
    script = [
        seg(10, seat1=B2, seat2=B2, seat3=B2),
        seg(10, board=FLOP, seat1=B2, seat2=B2, seat3=B2),
        seg(3, seat1=B2, seat2=B2, seat3=B2),       # a hand over the board and ...
        seg(5, board=FLOP, seat1=B2, seat2=B2, seat3=B2),
        seg(3, board=FLOP, seat2=B2, seat3=B2),     # ... over seat 1's cards: nothing changes
        seg(10, board=FLOP, seat1=B2, seat2=B2, seat3=B2),
        seg(7, board=FLOP, seat1=B2, seat2=B2),     # seat 3's cards gone for 7 frames: folded
        seg(5, board=FLOP, seat1=B2, seat2=B2),
    ]
    events, table = play(script)
    assert brief(events) == [("hand_start", [1, 2, 3]), ("board", "flop", FLOP)]
    st = table.state()
    assert st["board"] == FLOP.split()
    assert [st["seats"][str(s)]["folded"] for s in (1, 2, 3)] == [False, False, True]
    ids = {t["id"] for t in st["tracks"] if t["zone"] == "board1"}
    assert len(ids) == 1


def test_no_chips_entered_shows_winners_from_one_chip_each_until_chips_come():
    script = [
        seg(10, seat1=B2, seat2=B2),
        seg(10, board=BOARD, seat1=B2, seat2=B2),
        seg(12, board=BOARD, seat1="Qh Qd", seat2="3h 2h"),
        seg(6, board=BOARD, seat1="Qh Qd", seat2="3h 2h"),
        seg(10),
    ]
    s = starts(script)
    chips = {s[3]: [{"type": "committed", "seat": 1, "amount": 40}, {"type": "committed", "seat": 2, "amount": 40}]}
    events, _ = play(script, chips, seed=11)
    kinds = brief(events)
    i = kinds.index(("showdown",))
    assert kinds[i - 1] == ("alert", "chips_missing", "raised")
    first = events[i].ruling
    assert first.chips_entered is False and first.payouts == {1: 2, 2: 0}
    assert ("alert", "chips_missing", "cleared") in kinds
    last = of(events, "showdown")[-1].ruling
    assert last.chips_entered is True and last.payouts == {1: 80, 2: 0}


def test_a_table_cleared_without_a_showdown_is_called():
    script = [seg(10, seat1=B2, seat2=B2), seg(10, board=FLOP, seat1=B2, seat2=B2), seg(10)]
    events, _ = play(script)
    assert brief(events)[-2:] == [("alert", "no_showdown_seen", "raised"), ("hand_end",)]
    assert events[-1].ruling is None and events[-1].won_without_showdown is None


def test_a_joker_not_read_surely_on_the_board_is_looked_at_before_the_swap():
    # a joker printed without an index is named by its picture alone and never surely: the stop
    # is the same, its words say to look at the card first
    script = JOKER_TURN
    events, table = play(script, doubt={"JK": None})
    raised, cleared = of(events, "alert")
    assert raised.code == "joker_on_board" and raised.get("zone") == "board4"
    assert "board 4 (the turn) may be the joker (not read surely)" in raised.message
    assert "If it is the joker: the joker never stays on the board" in raised.message
    assert "JOKERかもしれません" in raised.message_ja and "バーンカード" in raised.message_ja
    assert "swapped out of board 4" in cleared.message
    assert [e.cards for e in of(events, "board")][-2] == ("Ks", "Js", "6s", "8c")
    # the alert records that its joker was not sure, and its headline asks
    assert raised.get("sure") is False and raised.to_json()["sure"] is False
    assert "ALERT JOKER ON THE BOARD? Look at the card:" in line(raised.to_json(), "en")
    assert "ボードにJOKER？ カードを確認" in line(raised.to_json(), "ja")
    assert "resolved JOKER ON THE BOARD? Look at the card" in line(cleared.to_json(), "en")
    # read surely, the instruction and the headline are plain
    events, _ = play(script)
    sure = of(events, "alert")[0]
    assert "may be" not in sure.message and sure.get("sure") is None
    assert "ALERT JOKER ON THE BOARD: burn-swap:" in line(sure.to_json(), "en")


def test_a_card_read_as_the_joker_and_corrected_is_no_swap():
    # the reader takes the turn, an 8c, for the joker; the dealer corrects it where it lies
    script = [
        seg(10, seat1=B2, seat3=B2),
        seg(10, board=FLOP, seat1=B2, seat3=B2, burn="BACK"),
        seg(20, board="Ks Js 6s JK", seat1=B2, seat3=B2, burn="BACK BACK"),
    ]
    fix = {25: [{"type": "correct", "zone": "board4", "card": "JK", "to": "8c"}]}
    events, table = play(script, fix, doubt={"JK": None})
    raised, cleared = of(events, "alert")
    assert raised.code == cleared.code == "joker_on_board" and cleared.cleared
    assert cleared.message == "board 4 is 8c by the dealer's correction: it was not the joker, nothing is swapped"
    assert "訂正" in cleared.message_ja and "交換" in cleared.message_ja
    assert [e.cards for e in of(events, "board")][-1] == ("Ks", "Js", "6s", "8c")
    assert "JK" not in table.state()["burn"]


def test_a_ruling_error_is_an_alert_and_no_showdown():
    # hold'em has no joker: a joker shown in a seat cannot be settled
    script = [
        seg(10, seat1=B2, seat2=B2),
        seg(10, board=BOARD, seat1=B2, seat2=B2),
        seg(12, board=BOARD, seat1="JK Qd", seat2="3h 2h"),
    ]
    chips = {12: [{"type": "committed", "seat": 1, "amount": 5}, {"type": "committed", "seat": 2, "amount": 5}],
             # the chips change, the table is ruled again, and the same error stands
             28: [{"type": "committed", "seat": 1, "amount": 10}, {"type": "committed", "seat": 2, "amount": 10}]}
    events, _ = play(script, chips, table=LiveTable(seats=6, game="holdem"))
    assert not of(events, "showdown")
    err = [e for e in of(events, "alert") if e.code == "ruling_error"]
    assert err and "without a joker" in err[0].message
    # said once while it stands: not cleared and raised again each time the table is ruled again
    assert [e.cleared for e in err] == [False]


def test_holdem_has_no_joker_swap_and_counts_a_joker_as_a_foreign_card():
    script = [seg(10, seat1=B2, seat2=B2), seg(10, board="Ks Js JK", seat1=B2, seat2=B2)]
    events, _ = play(script, table=LiveTable(game="holdem"))
    codes = [e.code for e in of(events, "alert")]
    assert "joker_on_board" not in codes and codes == ["duplicate_card"]
    events, _ = play(script)
    assert [e.code for e in of(events, "alert")] == ["joker_on_board"]


def test_an_unreadable_card_is_called_after_a_second_and_a_correction_reads_it():
    script = [seg(10, seat1=B2, seat2=B2), seg(25, board="Ks Js ??", seat1=B2, seat2=B2)]
    s = starts(script)
    fix = {"type": "correct", "zone": "board3", "card": "??", "to": "6s"}
    events, _ = play(script, {s[1] + 22: [fix]})
    assert brief(events) == [("hand_start", [1, 2]), ("alert", "unreadable_card", "raised"),
                             ("alert", "unreadable_card", "cleared"), ("board", "flop", FLOP)]
    raised = of(events, "alert")[0]
    assert raised.get("zone") == "board3"
    assert raised.t - (s[1] + 2) / 15 >= 1.0 - 1e-9


def test_the_button_starts_on_the_lowest_dealt_seat_rotates_and_can_be_set():
    hand = [seg(8, seat2=B2, seat4=B2, seat5=B2), seg(8, board=FLOP, seat2=B2, seat4=B2, seat5=B2), seg(8)]
    script = hand * 3
    events, _ = play(script, {48: [{"type": "button", "seat": 2}]})
    assert [(e.hand, e.button) for e in of(events, "hand_start")] == [(1, 2), (2, 4), (3, 2)]
    assert [e.hand for e in of(events, "hand_end")] == [1, 2, 3]


def test_the_dealer_moves_the_button_and_the_hand_is_ruled_and_logged_with_it(tmp_path):
    """A card left in an empty seat during the deal makes the rotation give the button to the wrong
    seat: the dealer moves it (the desk's B key). Mid-hand the move is said once, in both
    languages (the same seat again says nothing), the ruling follows it and the hand log's hand
    keeps the seat the dealer gave; between hands the state shows it until the next hand starts
    with it."""
    from dealer_assist.live.handlog import HandLog, list_hands

    hand = FULL_HAND[:-1] + [seg(10)]
    log = HandLog(tmp_path / "hands.sqlite", source="t", game="joker-holdem")
    end1 = sum(n for n, _ in hand)
    actions = {20: [{"type": "button", "seat": 4}], 21: [{"type": "button", "seat": 4}]}
    table, events, pending = LiveTable(seats=6, game="joker-holdem"), [], []
    for f, t, seen in frames(hand + hand):
        for a in actions.get(f, []):
            events += table.apply(a, f, t)
        if f == end1 + 2:
            assert table.hand is None and table.state()["next_button"] is None
            assert table.apply({"type": "button", "seat": 2}, f, t) == []
        events += table.step(f, t, seen)
        pending.append(table.state()["next_button"])
    assert pending[end1 + 2] == 2 and pending[-1] is None
    for e in events:
        log.record(e)
    (move,) = of(events, "button")
    assert move.to_json() == {"t": move.t, "frame": 20, "type": "button", "hand": 1, "seat": 4, "was": 2}
    assert [(e.hand, e.button) for e in of(events, "hand_start")] == [(1, 2), (2, 2)]   # not 4, after 4
    assert of(events, "showdown")[0].table["button"] == 4
    assert describe(move.to_json(), "ja") == "ディーラーがボタンをシート4に移動（元はシート2）"
    assert describe(move.to_json(), "en") == "the dealer moves the button to seat 4 (was seat 2)"
    log.close()
    assert [h["button"] for h in list_hands(tmp_path / "hands.sqlite")] == [4, 2]


def test_bad_dealer_actions_are_clear_errors():
    table = LiveTable()
    for f, t, seen in frames([seg(5, seat1=B2, seat2=B2)]):
        table.step(f, t, seen)
    cases = [({"type": "committed", "seat": 9, "amount": 5}, "seat number 1..6"),
             ({"type": "committed", "seat": 3, "amount": 5}, "seat 3 is not dealt"),
             ({"type": "committed", "seat": 1, "amount": -1}, "whole number of chips"),
             ({"type": "correct", "zone": "board9", "card": "As", "to": "Ks"}, "zone"),
             ({"type": "correct", "zone": "board1", "card": "Xx", "to": "Ks"}, "not a card"),
             ({"type": "fold", "seat": 1, "why": "x"}, "unknown field"),
             ({"seat": 1}, "\"type\"")]
    for action, msg in cases:
        with pytest.raises(UserError, match=msg):
            table.apply(action, 5, 0.3)
    table.apply({"type": "fold", "seat": 1}, 5, 0.3)
    with pytest.raises(UserError, match="last seat"):
        table.apply({"type": "fold", "seat": 2}, 5, 0.3)


def test_the_stability_window_is_a_setting():
    script = [seg(10, seat1=B2, seat2=B2)]
    fast, _ = play(script, table=LiveTable(settings=TrackerSettings(min_sightings=1, window_s=0.01)))
    slow, _ = play(script, table=LiveTable(settings=TrackerSettings(accept_share=1.0, window_s=0.32)))
    assert of(fast, "hand_start")[0].frame == 0 and of(slow, "hand_start")[0].frame == 4


def test_a_big_blind_ante_entered_for_the_level_is_dead_money_in_the_main_pot():
    # The WSOP hand of issue 25 at a live table: blinds 75 / 100 (in thousands), big-blind ante 225.
    # Seats 1, 2, 5 dealt, button on seat 5: seat 1 the small blind (folds), seat 2 the big blind.
    # Seat 2 is all in for 3,575 with its ante; seat 5 calls 3,350. Main pot: the ante 225 +
    # seat 1's 75 + 3,350 x 2 = 7,000, all to seat 5 (A-A-K over 9-9).
    board = "2c 8c Th Ah 6d"
    script = [
        seg(10, seat1=B2, seat2=B2, seat5=B2),
        seg(10, seat2=B2, seat5=B2, muck=B2),
        seg(10, board=board, seat2=B2, seat5=B2, muck=B2),
        seg(12, board=board, seat2="9d 9c", seat5="Ac Kc", muck=B2),
        seg(10),
    ]
    actions = {0: [{"type": "antes", "big_blind": 225, "blind": 100}, {"type": "button", "seat": 5}],
               15: [{"type": "committed", "seat": s, "amount": a} for s, a in ((1, 75), (2, 3575), (5, 3350))]}
    events, table = play(script, actions, seed=4)
    start = of(events, "hand_start")[0]
    assert start.antes == {"big_blind": 225, "blind": 100}
    sd = of(events, "showdown")[0]
    assert sd.table["seats"][1] == {"seat": 2, "hole": ["9d", "9c"], "committed": 3575, "ante": 225,
                                       "folded": False}
    assert sd.ruling.payouts == {1: 0, 2: 0, 5: 7000}
    assert sd.ruling.antes == {2: 225}
    assert any("デッドマネー" in line for line in sd.ruling.explanation_ja)
    # the level's antes stay for the next hand; "antes" with nothing turns them off
    assert table.ante_structure == {"big_blind": 225, "blind": 100}
    table.apply({"type": "antes"}, 200, 20.0)
    assert table.ante_structure is None


def test_a_short_big_blind_posts_its_blind_first_and_a_seat_ante_overrides_the_level():
    table = LiveTable(seats=6)
    table.apply({"type": "antes", "big_blind": 200, "blind": 100}, 0, 0.0)
    play([seg(10, seat1=B2, seat2=B2, seat3=B2)], table=table, seed=2)
    table.apply({"type": "button", "seat": 3}, 10, 1.0)
    table.apply({"type": "committed", "seat": 2, "amount": 150}, 10, 1.0)
    # seat 2 is the big blind: 150 chips go to the blind 100 first, the ante gets the other 50
    assert table._seat_antes() == {2: 50}
    table.apply({"type": "antes", "each": 10}, 10, 1.0)
    table.apply({"type": "ante", "seat": 3, "amount": 4}, 10, 1.0)
    assert table._seat_antes() == {1: 10, 2: 10, 3: 4}
    assert table.state()["seats"]["3"]["ante"] == 4
    with pytest.raises(UserError, match="antes: give \"each\""):
        table.apply({"type": "antes", "each": 10, "big_blind": 20}, 10, 1.0)
    with pytest.raises(UserError, match="ante: \"amount\" must be a whole number"):
        table.apply({"type": "ante", "seat": 3, "amount": 10**30}, 10, 1.0)


def test_a_new_hand_dealt_before_the_board_and_muck_are_cleared_is_a_new_hand():
    # hand 1 as FULL_HAND to its showdown; the seats' cards are collected but the board and the
    # muck stay; 2 s later seats 1 and 3 are dealt the next hand; then the old board goes and the
    # new flop comes. Two hands, each with its own board; nothing of hand 1 counts in hand 2.
    old = dict(board=BOARD, muck=B2)
    script = FULL_HAND[:-1] + [
        seg(30, **old),
        seg(10, seat1=B2, seat3=B2, **old),
        seg(10, seat1=B2, seat3=B2),
        seg(10, board="Ah 9c 8d", seat1=B2, seat3=B2),
        seg(12),
    ]
    events, _ = play(script, CHIPS, drop=0.05, seed=3)
    assert [b for b in brief(events) if b[0] in ("hand_start", "hand_end", "board", "showdown")] == [
        ("hand_start", [2, 4, 5]),
        ("board", "flop", FLOP), ("board", "turn", "Ks Js 6s 4d"), ("board", "river", BOARD),
        ("showdown",), ("hand_end",),
        ("hand_start", [1, 3]), ("board", "flop", "Ah 9c 8d"), ("hand_end",)]
    ends = of(events, "hand_end")
    assert ends[0].ruling.payouts == {2: 210, 4: 0, 5: 0} and ends[0].hand == 1
    assert ends[1].hand == 2 and list(ends[1].board) == "Ah 9c 8d".split()
    assert not [e for e in events if e.type == "alert" and e.get("hand") == 2
                and e.code in ("sixth_board_card", "duplicate_card", "wrong_street")]


@pytest.mark.parametrize("gap_s", [1.0, 3.0])
def test_a_camera_dropout_mid_hand_leaves_exactly_the_hand_that_was_played(gap_s):
    # no frame at all for gap_s seconds after the turn (the camera dropped out); then the same
    # table again: one hand, its river, its showdown and its payouts as without the dropout
    table = LiveTable(seats=6, game="joker-holdem")
    events = []
    turn_end = sum(n for n, _ in FULL_HAND[:5])
    for f, t, seen in frames(FULL_HAND, drop=0.05, seed=7):
        for a in CHIPS.get(f, []):
            events += table.apply(a, f, t)
        events += table.step(f, t + (gap_s if f >= turn_end else 0.0), seen)
    assert [b[0] for b in brief(events) if b[0] != "alert"] == [
        "hand_start", "board", "board", "board", "hole", "hole", "showdown", "hand_end"]
    assert of(events, "hand_end")[0].ruling.payouts == {2: 210, 4: 0, 5: 0}
    assert not [e for e in events if e.type == "alert" and e.code == "falling_behind"]


def showdown_table(burn="", doubt=()):
    """Seats 2 (Qh Qd) and 4 (As 8c) at a showdown on the board Ks Js 6s 4d 2c, 50 chips each:
    seat 2's queens win 100; the 8c is a misread 8s (the flush wins). ``doubt``: cards the
    reader never reads surely."""
    table = LiveTable()
    script = [seg(10, seat2=B2, seat4=B2), seg(10, board=BOARD, seat2=B2, seat4=B2, burn=burn),
              seg(12, board=BOARD, seat2="Qh Qd", seat4="As 8c", burn=burn)]
    for f, t, seen in frames(script, doubt=doubt):
        if f == 12:
            for s in (2, 4):
                table.apply({"type": "committed", "seat": s, "amount": 50}, f, t)
        table.step(f, t, seen)
    assert table.ruling.payouts == {2: 100, 4: 0}
    return table, f, t


def test_a_correction_that_puts_one_card_in_two_places_is_refused_with_its_reason():
    table, f, t = showdown_table(burn="JK")
    cases = [({"zone": "seat4", "card": "8c", "to": "Ks"}, "Ks is already read in board 1", "Ksはすでにボード1にあります"),
             ({"zone": "seat4", "card": "8c", "to": "Qh"}, "Qh is already read in seat 2", "Qhはすでにシート2にあります"),
             ({"zone": "seat4", "card": "8c", "to": "As"}, "As is already read in seat 4", "Asはすでにシート4にあります"),
             ({"zone": "board5", "card": "2c", "to": "JK"}, "JK is already read in burn", "JKはすでにバーンにあります")]
    for fix, en, ja in cases:
        action = {"type": "correct", **fix}
        assert not table.can_correct(action)
        with pytest.raises(UserError, match=en) as err:
            table.verify_correction(action)
        assert ja in err.value.message_ja and "2か所" in err.value.message_ja
        with pytest.raises(UserError, match=en):           # apply refuses it the same way
            table.apply(action, f, t)
    # nothing changed: no correction counted, none standing, the same ruling
    assert table.corrections == 0 and table.corrections_standing() == []
    assert table.ruling.payouts == {2: 100, 4: 0}
    assert table.can_correct({"type": "correct", "zone": "seat4", "card": "8c", "to": "8s"})
    holdem = LiveTable(game="holdem")
    for f2, t2, seen in frames([seg(10, seat2=B2, seat4=B2), seg(6, board=FLOP, seat2=B2, seat4=B2)]):
        holdem.step(f2, t2, seen)
    with pytest.raises(UserError, match="without the joker"):
        holdem.apply({"type": "correct", "zone": "board1", "card": "Ks", "to": "JK"}, 16, 1.1)


def test_a_correction_not_there_leaves_nothing_behind():
    table, f, t = showdown_table()
    with pytest.raises(UserError, match="no Qs is read in seat 4") as err:
        table.apply({"type": "correct", "zone": "seat4", "card": "Qs", "to": "Qc"}, f, t)
    assert "シート4にQsは読まれていません" in err.value.message_ja
    assert table.corrections_standing() == []


def test_a_correction_preview_shows_the_payouts_before_and_after_and_changes_nothing():
    table, f, t = showdown_table()
    fix = {"type": "correct", "zone": "seat4", "card": "8c", "to": "8s"}
    preview = table.correction_preview(fix)
    assert preview == {"before": {2: 100, 4: 0}, "after": {2: 0, 4: 100}, "changes": True}
    assert table.ruling.payouts == {2: 100, 4: 0} and table.corrections == 0
    assert table.corrections_standing() == []
    # a correction that pays nobody else: no change, it goes straight through
    same = {"type": "correct", "zone": "seat4", "card": "8c", "to": "8h"}
    assert table.correction_preview(same)["changes"] is False
    events = table.apply(fix, f, t)
    assert of(events, "showdown")[0].ruling.payouts == {2: 0, 4: 100}
    assert table.corrections_standing() == [{"zone": "seat4", "card": "8c", "to": "8s"}]
    with pytest.raises(UserError, match="already read"):
        table.correction_preview({"type": "correct", "zone": "seat2", "card": "Qh", "to": "As"})


# ------------------------------------------------------------------------------ doubt and confirmation
def test_cards_read_surely_give_a_final_showdown_and_the_events_say_each_card_is_sure():
    events, table = play(FULL_HAND, CHIPS)
    for e in of(events, "board") + of(events, "hole"):
        assert e.sure == (True,) * len(e.cards), e
    (sd,) = of(events, "showdown")
    assert sd.ruling.provisional is False and sd.ruling.unsure == ()
    end = of(events, "hand_end")[0]
    assert end.provisional is False and end.confirmed == ()


def test_a_showdown_on_a_doubtful_card_is_provisional_until_the_dealer_confirms_it():
    table, f, t = showdown_table(doubt={"8c", "4d"})
    sd = table.ruling
    assert sd.provisional is True
    assert sd.unsure == (("board4", "4d"), ("seat4", "8c"))
    assert sd.payouts == {2: 100, 4: 0}       # the ruling is there, marked provisional
    assert table.state()["unsure"] == sd.to_json()["unsure"] == [{"zone": "board4", "card": "4d"},
                                                                  {"zone": "seat4", "card": "8c"}]
    # the dealer confirms one card, then all the others with one key
    events = table.apply({"type": "confirm", "zone": "board4", "card": "4d"}, f, t)
    assert [e.type for e in events] == ["confirm", "showdown"]
    assert events[0].cards == (("board4", "4d"),)
    assert events[1].ruling.provisional is True and events[1].ruling.unsure == (("seat4", "8c"),)
    events = table.apply({"type": "confirm"}, f, t)
    assert events[0].type == "confirm" and events[0].cards == (("seat4", "8c"),)
    final = of(events, "showdown")[-1].ruling
    assert final.provisional is False and final.unsure == ()
    assert final.confirmed == (("board4", "4d"), ("seat4", "8c"))
    assert final.payouts == {2: 100, 4: 0}
    with pytest.raises(UserError, match="no card of hand 1 awaits confirmation") as err:
        table.apply({"type": "confirm"}, f, t)
    assert "確認待ちのカードはありません" in err.value.message_ja
    # the table cleared: the hand ends final, naming the cards the dealer confirmed
    end = []
    for f2 in range(f + 1, f + 12):
        end += table.step(f2, f2 / 15, [])
    (he,) = of(end, "hand_end")
    assert he.provisional is False and he.ruling.provisional is False
    assert he.confirmed == final.confirmed
    assert he.to_json()["confirmed"] == he.to_json()["ruling"]["confirmed"] == [
        {"zone": "board4", "card": "4d"}, {"zone": "seat4", "card": "8c"}]


def test_the_other_name_the_reader_offered_is_in_the_state_the_ruling_and_the_confirmation():
    """A doubtful 8c the reader says may be the 8s: the table state's doubtful card says so, so
    does the provisional ruling of the showdown event (its line in words too), and the dealer's
    confirmation records it (the hand log keeps what the card was checked against)."""
    from dealer_assist.live.events import event_from_json
    from dealer_assist.live.words import line

    table, f, t = showdown_table(doubt={"8c": "8s", "4d": None})
    assert table.state()["unsure"] == [{"zone": "board4", "card": "4d"},
                                       {"zone": "seat4", "card": "8c", "or": "8s"}]
    assert table.ruling.to_json()["unsure"] == [{"zone": "board4", "card": "4d"},
                                                {"zone": "seat4", "card": "8c", "or": "8s"}]
    sd = Showdown(frame=f, t=t, hand=1, ruling=table.ruling, table={})
    assert event_from_json(sd.to_json()).ruling.others == (("seat4", "8c", "8s"),)
    assert "board 4 4d, seat 4 8c (or 8s?)" in line(sd.to_json(), "en")
    assert "ボード4 4d、シート4 8c（8s?）" in line(sd.to_json(), "ja")
    (confirm, _sd) = table.apply({"type": "confirm"}, f, t)
    assert confirm.to_json()["cards"] == [{"zone": "board4", "card": "4d"},
                                          {"zone": "seat4", "card": "8c", "or": "8s"}]
    assert event_from_json(confirm.to_json()) == confirm
    assert table.state()["unsure"] == []


def test_a_card_the_dealer_confirmed_is_shown_sure_on_the_camera_view_too():
    """The tracks the camera view labels ("8♣/8♠?" for a doubtful card) say a confirmed card is
    sure, with no other name, while the reader itself still doubts it frame after frame; a card
    the dealer has not confirmed keeps its doubt there."""
    table, f, t = showdown_table(doubt={"8c": "8s", "4d": None})
    tracks = {(x["zone"], x["card"]): x for x in table.state()["tracks"]}
    assert tracks[("seat4", "8c")]["sure"] is False and tracks[("seat4", "8c")]["or"] == "8s"
    assert tracks[("board4", "4d")]["sure"] is False
    table.apply({"type": "confirm", "zone": "seat4", "card": "8c"}, f, t)
    tracks = {(x["zone"], x["card"]): x for x in table.state()["tracks"]}
    assert tracks[("seat4", "8c")]["sure"] is True and "or" not in tracks[("seat4", "8c")]
    assert tracks[("board4", "4d")]["sure"] is False
    assert not table.tracker.sure(next(tr for tr in table.tracker.stable() if tr.zone == "seat4"
                                       and table.tracker.identity(tr) == "8c"))


def test_a_hand_that_ends_unconfirmed_says_its_ruling_stayed_provisional():
    table, f, t = showdown_table(doubt={"Qh"})
    end = []
    for f2 in range(f + 1, f + 12):
        end += table.step(f2, f2 / 15, [])
    (he,) = of(end, "hand_end")
    assert he.provisional is True and he.ruling.unsure == (("seat2", "Qh"),)
    from dealer_assist.live.words import describe
    assert "provisional" in describe(he) and "仮のまま" in describe(he, "ja")


def moot_table(doubt):
    """Seats 2 (Kh Kd: three kings) and 4 (9c 8h: king high) at a showdown on Ks Js 6s 4d 2c, 50
    chips each, in Joker NLH: no card seat 4's 9c could be (the joker included) beats three kings."""
    table = LiveTable()
    script = [seg(10, seat2=B2, seat4=B2), seg(10, board=BOARD, seat2=B2, seat4=B2),
              seg(12, board=BOARD, seat2="Kh Kd", seat4="9c 8h")]
    for f, t, seen in frames(script, doubt=doubt):
        if f == 12:
            for s in (2, 4):
                table.apply({"type": "committed", "seat": s, "amount": 50}, f, t)
        table.step(f, t, seen)
    return table, f, t


def test_a_doubt_that_cannot_change_the_chips_leaves_the_showdown_final_and_the_card_marked():
    from dealer_assist.live.words import describe

    table, f, t = moot_table({"9c"})
    ruling = table.ruling
    assert ruling.payouts == {2: 100, 4: 0}
    assert ruling.provisional is False and ruling.unsure == (("seat4", "9c"),)
    assert ruling.to_json()["unsure"] == [{"zone": "seat4", "card": "9c"}]
    assert table.state()["unsure"] == [{"zone": "seat4", "card": "9c"}]     # still the dealer's to confirm
    line = describe({"type": "showdown", "hand": 1, "ruling": ruling.to_json()})
    assert "final" in line and "9c" in line and "確定" in describe(
        {"type": "showdown", "hand": 1, "ruling": ruling.to_json()}, "ja")
    end = []
    for f2 in range(f + 1, f + 12):
        end += table.step(f2, f2 / 15, [])
    (he,) = of(end, "hand_end")
    assert he.provisional is False and he.ruling.unsure == (("seat4", "9c"),) and he.confirmed == ()


def test_a_doubt_that_comes_and_goes_is_asked_of_the_rules_engine_once(monkeypatch):
    """Two doubtful cards that cannot change the chips cost the engine about 2,000 rulings: a
    doubt that flickers from frame to frame must not ask again each time it comes back."""
    import dealer_assist.live.handflow as hf

    table, f, t = moot_table({"9c"})
    asked = []
    real = hf.doubt_can_change
    monkeypatch.setattr(hf, "doubt_can_change", lambda *a, **k: asked.append(a[2]) or real(*a, **k))
    typed = table._settle_table(True)
    board = [(f"board{i}", c) for i, c in enumerate(BOARD.split(), 1)]
    for _ in range(3):
        assert table.doubt_matters(typed, [("seat4", "9c")], board + [("seat2", "Kh"), ("seat2", "Kd"),
                                                                     ("seat4", "8h")]) is False
        assert table.doubt_matters(typed, [("seat4", "9c"), ("seat4", "8h")],
                                   board + [("seat2", "Kh"), ("seat2", "Kd")]) is True    # two spades: a flush
    # the first was asked when the showdown was ruled (the same table, doubt and sure cards); the
    # second once
    assert asked == [[("seat4", "9c"), ("seat4", "8h")]]


def test_a_doubt_that_could_change_the_chips_keeps_the_showdown_provisional_until_it_cannot():
    # both of seat 2's kings unsure: together they might be a 3 and a 5, and seat 4's king high wins
    table, f, t = moot_table({"Kh", "Kd"})
    assert table.ruling.provisional is True
    assert table.ruling.unsure == (("seat2", "Kh"), ("seat2", "Kd"))
    # the dealer confirms one: the other alone cannot lose the pair of kings (Ks on the board)
    events = table.apply({"type": "confirm", "zone": "seat2", "card": "Kh"}, f, t)
    final = of(events, "showdown")[-1].ruling
    assert final.provisional is False and final.unsure == (("seat2", "Kd"),)
    assert final.confirmed == (("seat2", "Kh"),) and final.payouts == {2: 100, 4: 0}


def test_a_correction_settles_the_doubt_about_the_card_it_sets():
    table, f, t = showdown_table(doubt={"8c"})
    assert table.ruling.provisional
    events = table.apply({"type": "correct", "zone": "seat4", "card": "8c", "to": "8s"}, f, t)
    final = of(events, "showdown")[-1].ruling
    assert final.provisional is False and final.payouts == {2: 0, 4: 100}
    assert of(events, "hole")[-1].sure == (True, True)


def test_a_card_the_reader_doubts_is_not_sure_until_its_readings_agree_surely():
    # the 8c read unsure at first, surely later: the provisional showdown turns final by itself
    table = LiveTable()
    script = [seg(10, seat2=B2, seat4=B2), seg(10, board=BOARD, seat2=B2, seat4=B2),
              seg(12, board=BOARD, seat2="Qh Qd", seat4="As 8c")]
    events = []
    for f, t, seen in frames(script, doubt={"8c"}):
        events += table.step(f, t, seen)
    assert of(events, "hole")[-1].sure in ((True, False), (False, True))
    assert of(events, "showdown")[-1].ruling.provisional is True
    for f, t, seen in frames([seg(4, board=BOARD, seat2="Qh Qd", seat4="As 8c")]):
        events += table.step(32 + f, (32 + f) / 15, seen)
    assert of(events, "showdown")[-1].ruling.provisional is False
    assert table.state()["unsure"] == []


@pytest.mark.parametrize("action, message, ja", [
    ({"type": "confirm", "zone": "seat4", "card": "Kd"}, "no Kd is read in seat 4", "シート4にKdは読まれていません"),
    ({"type": "confirm", "zone": "seat9", "card": "8c"}, "zone", "場所は"),
    ({"type": "confirm", "zone": "seat4", "card": "??"}, "only a card read by name", "読み取れたカードだけ"),
    ({"type": "confirm", "zone": "seat4", "card": "8c", "to": "8s"}, "unknown field", None),
])
def test_a_confirmation_of_a_card_not_there_is_refused_and_changes_nothing(action, message, ja):
    table, f, t = showdown_table(doubt={"8c"})
    with pytest.raises(UserError, match=message) as err:
        table.apply(action, f, t)
    if ja:
        assert ja in err.value.message_ja
    assert table.confirmed == [] and table.ruling.provisional is True
    with pytest.raises(UserError, match="no hand is in progress"):
        LiveTable().apply({"type": "confirm"}, 0, 0.0)


def test_the_dealer_at_the_table_is_named_in_each_hand_from_the_next_one():
    """Dealers rotate: the name given (the ``dealer`` action, ``run --dealer``, the desk's D key)
    is said at once and named in every hand_start after it; a change mid-hand names the next hand,
    the hand under way keeps its own; a name that is none is refused in both languages."""
    two_hands = FULL_HAND + FULL_HAND[1:]
    events, table = play(two_hands, {0: [{"type": "dealer", "name": " 佐藤 花子 "}],
                                     30: [{"type": "dealer", "name": "Tanaka"}],
                                     40: [{"type": "dealer", "name": "Tanaka"}]})
    starts = of(events, "hand_start")
    assert [s.dealer for s in starts] == ["佐藤 花子", "Tanaka"]
    assert [(e.name, e.frame) for e in of(events, "dealer")] == [("佐藤 花子", 0), ("Tanaka", 30)]
    assert starts[0].to_json()["dealer"] == "佐藤 花子" and table.state()["dealer"] == "Tanaka"
    assert describe(of(events, "dealer")[0].to_json(), "ja") == "ディーラー交代: 佐藤 花子"
    assert describe(starts[1].to_json(), "en").endswith(", dealer Tanaka")
    # without a name given, hand_start says nothing of it
    events, _ = play(FULL_HAND)
    assert "dealer" not in of(events, "hand_start")[0].to_json()
    for bad in ("", "  ", 7, None, "a\u0000b", "x" * 41):
        with pytest.raises(UserError) as err:
            LiveTable(seats=6).apply({"type": "dealer", "name": bad}, 0, 0.0)
        assert "dealer's name, 1 to 40 characters" in str(err.value)
        assert "ディーラーの名前" in both(message_of(err.value))[1]


@pytest.mark.parametrize("seats", [3, 2])
def test_cards_covered_by_a_players_hand_for_a_second_are_not_a_fold(seats):
    """A player's hand over their cards for a second (15 frames): the table first takes the seat
    for folded, but the cards lie there again before the showdown, so the seat is in the hand
    again (heads-up, the win without a showdown is undone), the dealer is told, and the seat's
    aces win at the showdown. Before, the seat stayed folded and the pot went to the queens."""
    live = {"seat1": B2, "seat2": B2, "seat3": B2}
    if seats == 2:
        del live["seat3"]
    covered = {z: v for z, v in live.items() if z != f"seat{seats}"}
    shown = {"seat1": "Qh Qd", "seat2": "3h 2h", "seat3": "As Ah"}
    if seats == 2:
        shown = {"seat1": "Qh Qd", "seat2": "As Ah"}
    script = [seg(10, **live), seg(10, board=FLOP, **live), seg(15, board=FLOP, **covered),
              seg(10, board=FLOP, **live), seg(10, board=BOARD, **live), seg(12, board=BOARD, **shown), seg(10)]
    events, table = play(script)
    undone = [e for e in of(events, "alert") if e.code == "fold_undone"]
    assert len(undone) == 1 and undone[0].get("seats") == [seats]
    assert f"seat {seats}: the cards are back in the zone" in undone[0].message
    assert "フォールドではありません" in undone[0].message_ja
    assert [e.seat for e in of(events, "hole")] == list(range(1, seats + 1))
    final = of(events, "hand_end")[-1]
    assert final.won_without_showdown is None
    assert {s: v for s, v in final.ruling.payouts.items() if v} == {seats: seats}
    if seats == 3:
        # a fold the dealer entered stays, its cards in the zone or not: seat 1's shown queens are
        # not a live seat's
        events, _ = play(script, {25: [{"type": "fold", "seat": 1}]})
        assert [e.seat for e in of(events, "hole")] == [2, 3]
        # ... and so does one the camera saw that the dealer then entered too
        events, _ = play(script, {30: [{"type": "fold", "seat": 3}]})
        assert not [e for e in of(events, "alert") if e.code == "fold_undone"]
        assert [e.seat for e in of(events, "hole")] == [1, 2]
