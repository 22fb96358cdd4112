"""The live table's events are frozen objects inside the program and JSON at its edges."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dealer_assist.live.events import Alert, Board, HandStart, Hole, Showdown, event_from_json
from dealer_assist.live.handflow import LiveTable
from dealer_assist.live.ruling import TableRuling
from test_handflow import frames, seg

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = [seg(10), seg(12, seat1="BACK BACK", seat2="BACK BACK"),
          seg(12, "9s 6h 2c", seat1="BACK BACK", seat2="BACK BACK"),
          seg(12, "9s 6h 2c Kd 4s", seat1="BACK BACK", seat2="BACK BACK"),
          seg(12, "9s 6h 2c Kd 4s", seat1="Ks Qc", seat2="9h 9c"), seg(12)]


def test_step_gives_the_events_as_objects_whose_json_reads_back_as_them():
    typed = LiveTable(game="holdem")
    got_typed, ruled = [], None
    for f, t, seen in frames(SCRIPT):
        got_typed += typed.step(f, t, seen)
        if typed.ruling is not None:
            ruled = typed.ruling.result
    assert [type(e) for e in got_typed][:4] == [HandStart, Board, Board, Board]
    assert any(isinstance(e, Hole) for e in got_typed) and any(isinstance(e, Showdown) for e in got_typed)
    assert [event_from_json(e.to_json()) for e in got_typed] == got_typed
    show = next(e for e in got_typed if isinstance(e, Showdown))
    # no chips entered: the winners as if each seat put in 1 chip; seat 2's three nines win
    assert show.ruling.payouts == {1: 0, 2: 2} and show.ruling.chips_entered is False
    assert show.to_json()["ruling"]["payouts"] == {"1": 0, "2": 2}      # the line as always
    with pytest.raises(dataclasses.FrozenInstanceError):
        show.hand = 7
    with pytest.raises(TypeError):      # an event is read by its attributes, never like a dict
        show["type"]
    # the typed ruling the flow asked the rules engine for, on the typed table
    assert dict(ruled.payouts) == {1: 0, 2: 2} and ruled.hands[2].category == "three_of_a_kind"
    # the showdown and the hand's end carry it too (never written: the event line is the same)
    assert show.ruling.result is ruled and event_from_json(show.to_json()).ruling.result is None
    end = got_typed[-1]
    assert end.type == "hand_end" and end.ruling.result is ruled and "result" not in end.to_json()["ruling"]
    assert typed.ruling is None      # the hand is over: the next one starts afresh


def test_an_open_alert_is_kept_as_an_object_and_told_as_json():
    table = LiveTable(game="holdem")
    events = []
    for f, t, seen in frames([seg(10), seg(12, seat1="BACK BACK", seat2="BACK BACK"),
                              seg(12, "9s 6h 2c", seat1="BACK BACK", seat2="9s BACK")]):
        events += table.apply({"type": "button", "seat": 1}, f, t) if f == 0 else []
        events += table.step(f, t, seen)
    alerts = [e for e in events if isinstance(e, Alert)]
    assert [(a.code, a.get("card"), a.cleared) for a in alerts] == [("duplicate_card", "9s", False)]
    assert table.state()["alerts"] == [alerts[0].to_json()]
    assert list(alerts[0].to_json())[-1] == "cleared"


def test_the_desk_gets_objects_and_the_events_file_and_hand_log_get_the_same_json(tmp_path):
    """The hold'em clip through the desk's session, as ``dealer-assist desk`` plays it: every event
    the session hands the screen is a table event (no dict on the way), the events file written at
    the edge is each of them as ``to_json()``, line for line, and matches the clip's expected events,
    the hand log keeps the same lines, and each line reads back as the object it was."""
    import json

    from dealer_assist.cli import build_parser
    from dealer_assist.commands.run import LiveParts
    from dealer_assist.desk.session import LiveSession
    from dealer_assist.games import find_game
    from dealer_assist.live.events import TableEvent, event_from_json
    from dealer_assist.live.handlog import load_hand, list_hands
    from dealer_assist.live.pipeline import json_sink
    from test_game_clips import LATENCY_FRAMES, expected_file, key, read_jsonl

    game = find_game("holdem")
    if not (ROOT / "sample_frames" / game.clip[0] / game.clip[1]).is_file():
        pytest.skip("no hold'em sample clip")
    db, path = tmp_path / "hands.sqlite", tmp_path / "events.jsonl"
    args = build_parser().parse_args(["run", "--game", "holdem", "--headless", "--db", str(db)])
    with open(path, "w", encoding="utf-8") as out:
        parts = LiveParts(args, json_sink(out))
        session = LiveSession(parts.pipeline, parts.source)
        got: list = []
        try:
            while not session.ended:
                got += session.step().events
        finally:
            session.close()
    assert got and all(isinstance(e, TableEvent) and not isinstance(e, dict) for e in got)
    assert any(e.type == "showdown" and isinstance(e.ruling, TableRuling) for e in got)     # typed, to the desk
    lines = read_jsonl(path)
    assert lines == [e.to_json() for e in got]
    expected = read_jsonl(expected_file(game))
    assert [key(e) for e in lines] == [key(e) for e in expected]
    assert all(e["frame"] <= g["frame"] <= e["frame"] + LATENCY_FRAMES for e, g in zip(expected, lines))
    logged = [e for h in list_hands(str(db)) for e in load_hand(str(db), h["ref"])["events"]]
    assert logged == [line for line in lines if line["hand"] is not None]
    assert [event_from_json(line) for line in lines] == got
    assert path.read_text(encoding="utf-8") == "".join(
        json.dumps(e.to_json(), ensure_ascii=False, separators=(", ", ": ")) + "\n" for e in got)
