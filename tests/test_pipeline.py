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
    img = np.zeros((*size, 3), np.uint8)
    return [Frame(i, i / 15.0, img) for i in range(start, start + n)]


def make(tmp_path, detector, actions=()):
    cal = load_calibration(TABLE)
    log = HandLog(tmp_path / "log.sqlite", source="test", game="joker-holdem")
    events: list[dict] = []
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
    kinds = [(e["type"], e.get("code")) for e in events]
    assert ("hand_start", None) in kinds
    assert kinds.index(("alert", "camera_lost")) < kinds.index(("alert", "camera_back"))
    lost = next(e for e in events if e.get("code") == "camera_lost")
    assert lost["message_ja"] and lost["hand"] == 1   # raised inside the hand it interrupted
    con = sqlite3.connect(tmp_path / "log.sqlite")
    logged = [json.loads(j)["type"] for (j,) in con.execute("SELECT json FROM events ORDER BY seq")]
    con.close()
    assert logged == [e["type"] for e in events]


def test_a_bad_dealer_input_is_refused_aloud_and_the_run_goes_on(tmp_path):
    cal = load_calibration(TABLE)
    pipe, events, log = make(tmp_path, ScriptedDetector([backs_in(cal, "seat1", "seat3")]),
                             actions=[{"frame": 2, "type": "committed", "seat": 9, "amount": 50},
                                      {"frame": 3, "type": "teleport"}])
    stats = pipe.run(frames(8))
    log.close()
    bad = [e for e in events if e.get("code") == "bad_action"]
    assert len(bad) == 2 and all(e["message"].startswith("dealer action ignored") for e in bad)
    assert stats.frames == 8


def test_a_calibration_for_another_frame_size_is_a_clear_error(tmp_path):
    pipe, _, log = make(tmp_path, ScriptedDetector([{"cards": [], "backs": []}]))
    with pytest.raises(UserError, match="calibrate"):
        pipe.run(frames(2, size=(480, 640)))
    log.close()
