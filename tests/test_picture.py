"""The camera's picture watched (dealer_assist.live.picture): a camera stuck on one frame, a lens
covered and a lamp in the lens are said to the dealer, kept in the hand log, shown on the desk's
banner while they last, and cleared when the picture is right again; the sample clip raises none."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cli import main
from dealer_assist.desk.view import DeskState
from dealer_assist.live.events import event_from_json
from dealer_assist.live.picture import PICTURE_CODES, PictureSettings, PictureWatch
from dealer_assist.live.words import line

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "sample_frames" / "clip"


def clip_frames(n: int) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(CLIP / "joker-nlh.mp4"))
    out = []
    while len(out) < n:
        ok, frame = cap.read()
        if not ok:
            break
        out.append(frame)
    cap.release()
    return out


def said(watch: PictureWatch, frames, t0: float, fps: float) -> list[tuple[float, str, bool]]:
    out = []
    for k, f in enumerate(frames):
        t = t0 + k / fps
        out += [(round(t, 2), code, raised) for code, raised, _w in watch.look(f, t)]
    return out


def test_the_watch_says_a_stuck_dark_or_washed_out_picture_once_and_when_it_is_right_again():
    frames = clip_frames(60)
    assert len(frames) == 60
    watch = PictureWatch()
    # the clip itself: nothing to say
    assert said(watch, frames, 0.0, 15) == []
    # the same frame again and again: frozen after 10 s, moving again at the next different frame
    stuck = said(watch, [frames[-1]] * 160, 4.0, 15)
    assert stuck == [(pytest.approx(4.0 - 1 / 15 + 10, abs=0.07), "picture_frozen", True)]
    assert said(watch, frames[:1], 20.0, 15) == [(20.0, "picture_frozen", False)]
    # a hand over the lens for a second is no alert; a lens covered for 3 s is
    dark = (frames[0] * 0.08).astype(np.uint8) + np.random.default_rng(0).integers(0, 3, frames[0].shape, np.uint8)
    assert said(watch, [dark] * 15 + frames[:15], 30.0, 15) == []
    covered = said(watch, [dark] * 60, 40.0, 15)
    assert covered == [(43.0, "picture_dark", True)]
    assert said(watch, frames[:2], 45.0, 15) == [(45.0, "picture_dark", False)]
    # a lamp in the lens: a veil of glare over the whole picture
    washed = cv2.addWeighted(frames[0], 0.2, np.full_like(frames[0], 255), 0.8, 0)
    assert said(watch, [washed] * 50, 50.0, 15) == [(53.0, "picture_washed", True)]
    assert said(watch, frames[:1], 60.0, 15) == [(60.0, "picture_washed", False)]
    assert watch.raised == set()


def test_the_real_photos_dark_or_bright_raise_nothing():
    # the real photos include cards on a black suitcase and on dark cloth: not a covered lens
    photos = sorted(p for p in (ROOT.parent / "shared" / "real" / "edje-train").glob("*")
                    if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    if not photos:
        pytest.skip("no real photos beside the project")
    watch = PictureWatch(PictureSettings(hold_s=0.0))
    for k, p in enumerate(photos):
        image = cv2.imread(str(p))
        assert [c for c, _r, _w in watch.look(image, float(k))] == [], p.name


def test_a_stuck_camera_and_a_covered_lens_reach_the_hand_log_and_the_desk(tmp_path):
    frames = clip_frames(3)
    src = tmp_path / "frames"
    src.mkdir()
    black = np.zeros_like(frames[0])
    # at 2 frames a second: 12 s of one frame, a moving picture, then 4 s of a covered lens
    seq = [frames[0]] * 24 + frames[1:3] + [black] * 8 + [frames[1]]
    for k, f in enumerate(seq):
        cv2.imwrite(str(src / f"{k:03d}.png"), f)
    events, db = tmp_path / "events.jsonl", tmp_path / "hands.sqlite"
    assert main(["run", "--headless", "--source", str(src), "--fps", "2", "--calibration", str(CLIP / "table.yaml"),
                 "--events", str(events), "--db", str(db), "--lang", "en"]) == 0
    lines = [json.loads(x) for x in events.read_text().splitlines() if x.strip()]
    alerts = [(e["code"], e["cleared"], e["frame"]) for e in lines if e.get("type") == "alert"
              and e["code"] in PICTURE_CODES]
    assert alerts == [("picture_frozen", False, 20), ("picture_frozen", True, 24),
                      ("picture_dark", False, 32), ("picture_dark", True, 34)]
    frozen = next(e for e in lines if e.get("code") == "picture_frozen")
    assert "has not changed for 10 s" in frozen["message"] and "止まっている" in line(frozen, "ja")
    assert line(frozen, "en").split("] ", 1)[1].startswith("ALERT CAMERA PICTURE FROZEN:")
    with sqlite3.connect(db) as con:
        kept = [json.loads(j)["code"] for (j,) in con.execute("SELECT json FROM events WHERE type = 'alert'")]
    assert [c for c in kept if c in PICTURE_CODES] == ["picture_frozen", "picture_frozen", "picture_dark",
                                                       "picture_dark"]
    # the desk: on the banner (red) while it lasts, gone when the picture is right again
    desk = DeskState(seats=6)
    raised = [ev for ev in map(event_from_json, lines) if ev is not None]
    upto = next(i for i, e in enumerate(raised) if getattr(e, "code", None) == "picture_dark" and not e.cleared)
    desk.feed(raised[:upto + 1], None)
    shown = [(a.code, a.severity, a.title) for a in desk.snapshot("ja").alerts]
    assert ("picture_dark", "stop", "カメラの映像が暗い") in shown
    assert all(n["code"] not in PICTURE_CODES for n in desk.notices)      # standing, not a notice
    desk.feed(raised[upto + 1:], None)
    assert all(a.code not in PICTURE_CODES for a in desk.snapshot("en").alerts)


def test_a_lens_covered_mid_hand_loses_no_card_and_rules_the_hand_as_the_clip_does(tmp_path):
    """Hand 1 of the clip with the lens covered for 4 s after its flop: the cards under the dark
    picture are not taken for gone (no fold, no hand won without a showdown, no 'falling behind'),
    and the hand is ruled as the clip itself is."""
    frames = clip_frames(160)
    dark = (frames[29] * 0.05).astype(np.uint8)

    def run(seq, name):
        src = tmp_path / name
        src.mkdir()
        for k, f in enumerate(seq):
            cv2.imwrite(str(src / f"{k:03d}.png"), f, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        out = tmp_path / f"{name}.jsonl"
        assert main(["run", "--headless", "--source", str(src), "--calibration", str(CLIP / "table.yaml"),
                     "--events", str(out), "--no-db", "--lang", "en"]) == 0
        return [json.loads(x) for x in out.read_text().splitlines() if x.strip()]

    def told(lines):
        return [(e["type"], e.get("hand"), e.get("cards"), e.get("code"), json.dumps(e.get("ruling"), sort_keys=True))
                for e in lines if e.get("type") not in ("session_start",) and e.get("code") not in PICTURE_CODES]

    plain = run(frames, "plain")
    covered = run(frames[:30] + [dark] * 60 + frames[30:], "covered")
    assert [(e["code"], e["cleared"]) for e in covered if e.get("code") in PICTURE_CODES] == [
        ("picture_dark", False), ("picture_dark", True)]
    assert any(e["type"] == "showdown" for e in plain)
    assert told(covered) == told(plain)
