"""The pipeline's own duties, apart from recognition: a camera that drops out becomes a visible,
logged alert and the run goes on; a bad dealer input is refused aloud; a calibration for another
camera is a clear error."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from dealer_assist.errors import UserError
from dealer_assist.live.calibration import load_calibration
from dealer_assist.live.events import Alert
from dealer_assist.live.handlog import HandLog
from dealer_assist.live.pipeline import Pipeline, observations_from
from dealer_assist.live.sources import Frame, SourceAlert
from dealer_assist.live.tracker import LiveTable

TABLE = Path(__file__).resolve().parent.parent / "sample_frames" / "clip" / "table.yaml"


class ScriptedDetector:
    """Stands in for the card detector: returns what the script says for each call."""

    def __init__(self, per_frame):
        self.per_frame = list(per_frame)
        self.calls = 0

    def detect(self, image):
        out = self.per_frame[min(self.calls, len(self.per_frame) - 1)]
        self.calls += 1
        return out


def backs_in(cal, *zones):
    """Two face-down cards lying in each of ``zones`` (image centres from the calibration)."""
    backs = []
    for z in zones:
        poly = cal.zones_image()[z]
        c = poly.mean(axis=0)
        for dx in (-12.0, 12.0):
            backs.append({"center": [float(c[0] + dx), float(c[1])], "polygon": []})
    return {"cards": [], "backs": backs}


def frames(n, start=0, size=(720, 1280)):
    img = np.full((*size, 3), 128, np.uint8)     # a picture, neither dark nor washed out (live.picture)
    return [Frame(i, i / 15.0, img) for i in range(start, start + n)]


def make(tmp_path, detector, actions=()):
    cal = load_calibration(TABLE)
    log = HandLog(tmp_path / "log.sqlite", source="test", game="joker-holdem")
    events: list = []       # the sink gets the table's events as objects
    pipe = Pipeline(detector=detector, calibration=cal, table=LiveTable(seats=cal.seats, game="joker-holdem"),
                    sink=events.append, log=log, actions=actions)
    return pipe, events, log


def test_observations_land_in_the_zones_of_the_calibration():
    cal = load_calibration(TABLE)
    obs = observations_from(backs_in(cal, "seat1", "seat4"), cal)
    assert [o.zone for o in obs] == ["seat1", "seat1", "seat4", "seat4"]
    assert all(o.card == "BACK" for o in obs)


def test_a_camera_dropout_is_an_alert_in_the_stream_and_the_log_and_the_hand_goes_on(tmp_path):
    cal = load_calibration(TABLE)
    dealt = backs_in(cal, "seat1", "seat3")
    pipe, events, log = make(tmp_path, ScriptedDetector([dealt]))
    source = frames(6) + [SourceAlert("camera_lost", "camera lost: reconnecting", "カメラ切断: 再接続中", 0.4),
                          SourceAlert("camera_back", "camera back", "カメラ復帰", 1.2)] + frames(6, start=18)
    pipe.run(source)
    log.close()
    kinds = [(e.type, getattr(e, "code", None)) for e in events]
    assert ("hand_start", None) in kinds
    assert kinds.index(("alert", "camera_lost")) < kinds.index(("alert", "camera_back"))
    lost = next(e for e in events if isinstance(e, Alert) and e.code == "camera_lost")
    assert lost.message_ja and lost.hand == 1   # raised inside the hand it interrupted
    con = sqlite3.connect(tmp_path / "log.sqlite")
    logged = [json.loads(j)["type"] for (j,) in con.execute("SELECT json FROM events ORDER BY seq")]
    con.close()
    assert logged == [e.type for e in events]


def test_a_bad_dealer_input_is_refused_aloud_and_the_run_goes_on(tmp_path):
    cal = load_calibration(TABLE)
    pipe, events, log = make(tmp_path, ScriptedDetector([backs_in(cal, "seat1", "seat3")]),
                             actions=[{"frame": 2, "type": "committed", "seat": 9, "amount": 50},
                                      {"frame": 3, "type": "teleport"}])
    stats = pipe.run(frames(8))
    log.close()
    bad = [e for e in events if isinstance(e, Alert) and e.code == "bad_action"]
    assert len(bad) == 2 and all(e.message.startswith("dealer action ignored") for e in bad)
    assert stats.frames == 8


def test_a_calibration_for_another_frame_size_is_a_clear_error(tmp_path):
    pipe, _, log = make(tmp_path, ScriptedDetector([{"cards": [], "backs": []}]))
    with pytest.raises(UserError, match="calibrate"):
        pipe.run(frames(2, size=(480, 640)))
    log.close()


class LearningDetector(ScriptedDetector):
    """A scripted detector that records what the pipeline asks it to learn."""

    def __init__(self, per_frame):
        super().__init__(per_frame)
        self.learned: list[tuple[int, tuple, str]] = []

    def learn(self, image, polygon, card):
        self.learned.append((int(image[0, 0, 0]), tuple(map(tuple, polygon)), card))
        return 2


def test_a_dealer_correction_teaches_the_reader_that_card_from_the_frame_it_was_seen_in(tmp_path):
    cal = load_calibration(TABLE)
    dealt = backs_in(cal, "seat1", "seat3")
    c = cal.zones_image()["board1"].mean(axis=0)
    poly = [[float(c[0] - 30), float(c[1] - 42)], [float(c[0] + 30), float(c[1] - 42)],
            [float(c[0] + 30), float(c[1] + 42)], [float(c[0] - 30), float(c[1] + 42)]]
    with_card = {"cards": [{"card": "2c", "confidence": 0.9, "center": [float(c[0]), float(c[1])],
                            "polygon": poly}], "backs": dealt["backs"]}
    det = LearningDetector([dealt] * 6 + [with_card])
    pipe, events, log = make(tmp_path, det)
    marked = [Frame(i, i / 15.0, np.full((720, 1280, 3), 100 + i, np.uint8)) for i in range(14)]
    pipe.run(marked)
    pipe.apply({"type": "correct", "zone": "board1", "card": "2c", "to": "2s"}, 14, 1.0)
    # learned from the last frame the tracks were updated from (its pixels say 113), at the card's outline
    assert det.learned == [(113, tuple(map(tuple, poly)), "2s")]
    assert pipe.stats.learned == 2 and pipe.stats.summary()["learned_corners"] == 2
    # a correction that removes a card teaches nothing
    pipe.apply({"type": "correct", "zone": "board1", "card": "2s", "to": None}, 14, 1.0)
    assert len(det.learned) == 1
    log.close()


def test_a_correction_logs_whether_the_dealer_chose_the_name_the_reader_had_offered(tmp_path, capsys):
    """A doubtful K♠ on the board the reader says may be the K♣: the dealer's correction to K♣
    is logged with the reader's offer beside it, and ``review`` says the dealer took the reader's
    own second guess; a correction of a card the reader offered nothing for carries no offer."""
    from dealer_assist.cli import main
    from dealer_assist.live.handlog import load_hand

    cal = load_calibration(TABLE)
    dealt = backs_in(cal, "seat1", "seat3")

    def card(zone, name, sure, other=None):
        c = cal.zones_image()[zone].mean(axis=0)
        poly = [[float(c[0] - 30), float(c[1] - 42)], [float(c[0] + 30), float(c[1] - 42)],
                [float(c[0] + 30), float(c[1] + 42)], [float(c[0] - 30), float(c[1] + 42)]]
        return {"card": name, "confidence": 0.8, "sure": sure, "center": [float(c[0]), float(c[1])],
                "polygon": poly, **({"or": other} if other else {})}

    flop = {"cards": [card("board1", "Ks", False, "Kc"), card("board2", "7h", False), card("board3", "2d", True)],
            "backs": dealt["backs"]}
    pipe, _events, log = make(tmp_path, ScriptedDetector([dealt] * 6 + [flop]))
    pipe.run(frames(14))
    assert pipe.table.other_of("board1", "Ks") == "Kc" and pipe.table.other_of("board2", "7h") is None
    pipe.apply({"type": "correct", "zone": "board1", "card": "Ks", "to": "Kc"}, 14, 1.0)
    pipe.apply({"type": "correct", "zone": "board2", "card": "7h", "to": "7d"}, 14, 1.0)
    with pytest.raises(UserError, match="unknown field"):      # the offer is the reader's, never the action's
        pipe.apply({"type": "correct", "zone": "board3", "card": "2d", "to": "2h", "or": "2h"}, 14, 1.0)
    log.close()
    corr = load_hand(tmp_path / "log.sqlite", "1:1")["corrections"]
    assert [(c["card"], c["to"], c.get("or")) for c in corr] == [("Ks", "Kc", "Kc"), ("7h", "7d", None)]
    assert main(["review", "--db", str(tmp_path / "log.sqlite"), "1:1", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "board 1: Ks corrected to Kc (the name the reader had offered)" in out
    assert "board 2: 7h corrected to 7d\n" in out
    assert main(["review", "--db", str(tmp_path / "log.sqlite"), "1:1"]) == 0
    assert "（読み取りが候補に挙げていた名前）" in capsys.readouterr().out
