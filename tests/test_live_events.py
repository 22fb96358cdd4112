"""The live table's events are frozen objects inside the program and JSON at its edges."""
from __future__ import annotations

import dataclasses

import pytest

from dealer_assist.live.events import Alert, Board, HandStart, Hole, Showdown
from dealer_assist.live.handflow import LiveTable
from test_handflow import frames, seg

SCRIPT = [seg(10), seg(12, seat1="BACK BACK", seat2="BACK BACK"),
          seg(12, "9s 6h 2c", seat1="BACK BACK", seat2="BACK BACK"),
          seg(12, "9s 6h 2c Kd 4s", seat1="BACK BACK", seat2="BACK BACK"),
          seg(12, "9s 6h 2c Kd 4s", seat1="Ks Qc", seat2="9h 9c"), seg(12)]


def test_read_gives_objects_whose_json_is_what_step_gives():
    typed, plain = LiveTable(game="holdem"), LiveTable(game="holdem")
    got_typed, got_plain, ruled = [], [], None
    for f, t, seen in frames(SCRIPT):
        got_typed += typed.read(f, t, seen)
        got_plain += plain.step(f, t, seen)
        if typed.ruled is not None:
            ruled = typed.ruled
    assert [type(e) for e in got_typed][:4] == [HandStart, Board, Board, Board]
    assert any(isinstance(e, Hole) for e in got_typed) and any(isinstance(e, Showdown) for e in got_typed)
    assert [e.to_json() for e in got_typed] == got_plain
    show = next(e for e in got_typed if isinstance(e, Showdown))
    # no chips entered: the winners as if each seat put in 1 chip; seat 2's three nines win
    assert show.ruling["payouts"] == {"1": 0, "2": 2} and show.ruling["chips_entered"] is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        show.hand = 7
    # the typed ruling the flow asked the rules engine for, on the typed table
    assert dict(ruled.payouts) == {1: 0, 2: 2} and ruled.hands[2].category == "three_of_a_kind"
    assert typed.ruled is None      # the hand is over: the next one starts afresh


def test_an_open_alert_is_kept_as_an_object_and_told_as_json():
    table = LiveTable(game="holdem")
    events = []
    for f, t, seen in frames([seg(10), seg(12, seat1="BACK BACK", seat2="BACK BACK"),
                              seg(12, "9s 6h 2c", seat1="BACK BACK", seat2="9s BACK")]):
        events += table.act({"type": "button", "seat": 1}, f, t) if f == 0 else []
        events += table.read(f, t, seen)
    alerts = [e for e in events if isinstance(e, Alert)]
    assert [(a.code, a.get("card"), a.cleared) for a in alerts] == [("duplicate_card", "9s", False)]
    assert table.state()["alerts"] == [alerts[0].to_json()]
    assert list(alerts[0].to_json())[-1] == "cleared"
