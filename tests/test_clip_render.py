"""The scripted sample clip (sample_frames/clip): its renderer, scenario checks, labels,
calibration and expected events agree with each other."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from dealer_assist.vision.synth.clip import (EXAMPLE, ClipRenderer, ScenarioError, calibration_dict,
                                             load_scenario, parse_scenario, write_clip)

ROOT = Path(__file__).resolve().parents[1]
CLIP = ROOT / "sample_frames" / "clip"


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(CLIP / "scenario.yaml")


@pytest.fixture(scope="module")
def labels():
    return [json.loads(line) for line in (CLIP / "labels.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def expected():
    return [json.loads(line) for line in (CLIP / "expected-events.jsonl").read_text().splitlines()]


def test_rendering_is_deterministic(scenario):
    a, b = ClipRenderer(scenario), ClipRenderer(scenario)
    for i in (33, 66):     # the joker on the board; the dealer's hand over board2
        (ia, la), (ib, lb) = a.render(i), b.render(i)
        assert np.array_equal(ia, ib) and la == lb
    # consecutive frames of an unchanged table are new samples (fresh noise), same cards
    (f1, l1), (f2, l2) = a.render(24), a.render(25)
    assert not np.array_equal(f1, f2)
    assert [c["polygon"] for c in l1["cards"]] == [c["polygon"] for c in l2["cards"]]


def test_stored_labels_match_the_scenario(scenario, labels):
    assert len(labels) == len(scenario.frames) == 227
    r = ClipRenderer(scenario)
    for i in (0, 40, 66, 160):
        assert r.render(i)[1] == labels[i], f"labels.jsonl frame {i} is stale: re-render the clip"


def test_labels_tell_the_story(labels):
    jk = [c for c in labels[35]["cards"] if c["card"] == "JK"]
    assert [(c["zone"], c["index_visible"]) for c in jk] == [("board4", True)]
    assert labels[43]["cards"][-1]["card"] == "JK" and labels[43]["cards"][-1]["zone"] == "burn"
    occluded = {c["zone"]: c for c in labels[66]["cards"]}
    assert labels[66]["occluder"] == "board2" and not occluded["board2"]["index_visible"]
    for lab in labels:   # every card wholly inside the frame, 100-125 px wide
        for c in lab["cards"] + lab["backs"]:
            p = np.array(c["polygon"])
            assert (p >= 0).all() and (p[:, 0] <= 1280).all() and (p[:, 1] <= 720).all()
            assert 100 <= np.linalg.norm(p[1] - p[0]) <= 125


def test_calibration_is_exact(scenario, labels):
    stored = yaml.safe_load((CLIP / "table.yaml").read_text())
    assert stored == json.loads(json.dumps(calibration_dict(scenario)))
    from dealer_assist.live.calibration import load_calibration

    cal = load_calibration(CLIP / "table.yaml", image_size=(1280, 720))
    for lab in labels[::10]:
        for c in lab["cards"] + lab["backs"]:
            centre = np.mean(c["polygon"], axis=0)
            assert cal.zone_at((float(centre[0]), float(centre[1]))) == c["zone"]


def test_expected_events_agree_with_the_scenario(labels, expected):
    def face_up(frame, zone_prefix):
        return {c["zone"]: c["card"] for c in labels[frame]["cards"] if c["zone"].startswith(zone_prefix)}

    for e in expected:
        f = e["frame"]
        if e["type"] == "board":
            board = face_up(f, "board")
            assert [board[f"board{i}"] for i in range(1, len(e["cards"]) + 1)] == e["cards"]
            assert len(face_up(f - 1, "board")) < len(e["cards"]) or "JK" in face_up(f - 1, "board").values()
        elif e["type"] == "hole":
            mine = sorted(c["card"] for c in labels[f]["cards"] if c["zone"] == f"seat{e['seat']}")
            assert mine == sorted(e["cards"])
            assert not any(c["zone"] == f"seat{e['seat']}" for c in labels[f - 1]["cards"])
        elif e["type"] == "hand_start":
            dealt = sorted({int(b["zone"][4:]) for b in labels[f]["backs"] if b["zone"].startswith("seat")})
            assert dealt == e["seats"] and not labels[f - 1]["backs"]
        elif e["type"] == "hand_end":
            assert not labels[f]["cards"] and not labels[f]["backs"] and labels[f - 1]["cards"] + labels[f - 1]["backs"]
        elif e["type"] == "alert" and e["code"] == "joker_on_board":
            assert ("JK" in face_up(f, "board").values()) != e["cleared"]


def test_expected_rulings_are_the_rules_engines(expected):
    """The hand-written payouts agree with settle on the same tables (RULINGS.md rule 4: the
    joker holder loses the tie for the side pot of hand 2)."""
    from dealer_assist.rules.settle import settle

    tables = {
        1: {"board": ["9s", "6h", "2c", "Kd", "4s"], "button": 5, "last_aggressor": 1,
            "seats": [{"seat": 1, "hole": ["Ks", "Qc"], "committed": 200},
                      {"seat": 3, "hole": None, "committed": 50, "folded": True},
                      {"seat": 5, "hole": ["9h", "9c"], "committed": 200}]},
        2: {"board": ["Qd", "Jc", "Th", "5s", "5h"], "button": 6, "last_aggressor": 4,
            "seats": [{"seat": 2, "hole": ["Qs", "Qh"], "committed": 100},
                      {"seat": 3, "hole": ["Kh", "JK"], "committed": 300},
                      {"seat": 4, "hole": ["Ac", "Kc"], "committed": 300},
                      {"seat": 6, "hole": None, "committed": 20, "folded": True}]},
        3: {"board": ["Ah", "8d", "3c"], "button": 1,
            "seats": [{"seat": 1, "hole": None, "committed": 60},
                      {"seat": 2, "hole": None, "committed": 20, "folded": True},
                      {"seat": 4, "hole": None, "committed": 20, "folded": True}]},
    }
    dealer = [json.loads(line) for line in (CLIP / "dealer.jsonl").read_text().splitlines()]
    for hand, t in tables.items():   # the dealer's chip inputs are these committed amounts
        ends = [e["frame"] for e in expected if e["type"] == "hand_end"]
        lo = ends[hand - 2] if hand > 1 else -1
        got = {a["seat"]: a["amount"] for a in dealer if a["type"] == "committed" and lo < a["frame"] < ends[hand - 1]}
        assert got == {s["seat"]: s["committed"] for s in t["seats"]}
        ruling = settle({"game": "joker-holdem", **t})
        short = {"payouts": ruling["payouts"],
                 "pots": [{k: p[k] for k in ("amount", "eligible", "winners")} for p in ruling["pots"]]}
        for e in expected:
            if e.get("hand") == hand and "ruling" in e:
                assert e["ruling"] == short
    assert sum(e["type"] == "showdown" for e in expected) == 2


@pytest.mark.parametrize("change, message", [
    ({"add": [{"zone": "board9", "card": "As"}]}, "unknown zone 'board9'"),
    ({"add": [{"zone": "board1", "card": "Ks"}, {"zone": "seat1", "card": "Ks"}]}, "duplicate card Ks"),
    ({"add": [{"zone": "board1", "card": "Xz"}]}, "'Xz' is not a card"),
    ({"add": [{"zone": "seat1", "card": "BACK", "slot": 2}]}, "slot 2 of zone seat1 does not exist"),
    ({"reveal": {"seat1": ["As", "Ad"]}}, "names 2 cards but 0 lie face down"),
    ({"frames": 0}, "frames must be a whole number >= 1"),
    ({"shuffle": True}, "unknown key 'shuffle'"),
])
def test_bad_scenarios_are_clear_errors(change, message):
    bad = copy.deepcopy(EXAMPLE)
    bad["segments"] = [{"frames": 1, **change}]
    with pytest.raises(ScenarioError, match="segment 1: .*" + message.replace("(", r"\(").replace("'", ".")):
        parse_scenario(bad)


def test_duplicate_card_across_steps_is_caught():
    bad = copy.deepcopy(EXAMPLE)
    bad["segments"] = [{"frames": 1, "add": [{"zone": "board1", "card": "JK"}]},
                       {"frames": 1, "add": [{"zone": "seat1", "card": "JK", "slot": 0}]}]
    with pytest.raises(ScenarioError, match="segment 2: duplicate card JK .in board1 and seat1."):
        parse_scenario(bad)


def test_synth_clip_command(tmp_path):
    sc_file = tmp_path / "tiny.yaml"
    sc_file.write_text(yaml.safe_dump(EXAMPLE))
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "dealer_assist.cli", "synth", "--clip", str(sc_file), "--out", str(out), "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    cap = cv2.VideoCapture(str(out / "clip.mp4"))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == 3 and len((out / "labels.jsonl").read_text().splitlines()) == 3
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({**EXAMPLE, "segments": [{"frames": 1, "add": [{"zone": "nowhere", "card": "As"}]}]}))
    r = subprocess.run(cmd[:5] + [str(bad), "--out", str(out), "--lang", "en"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "unknown zone 'nowhere'" in r.stderr and "Traceback" not in r.stderr


def test_write_clip_in_process(tmp_path):
    info = write_clip(parse_scenario(EXAMPLE), tmp_path)
    assert info["frames"] == 3 and (tmp_path / "table.yaml").exists()


@pytest.mark.skipif(not (ROOT / "models" / "cards-obb.onnx").exists(), reason="no shipped models")
def test_shipped_model_reads_the_decoded_joker_frames(labels):
    from dealer_assist.vision.detector import CardDetector

    det = CardDetector(ROOT / "models")
    cap = cv2.VideoCapture(str(CLIP / "joker-nlh.mp4"))
    wanted = {34: ("JK", "board4"), 38: ("JK", "board4"), 160: ("JK", "seat3"), 155: ("Qs", "seat2")}
    i = 0
    while wanted:
        ok, img = cap.read()
        assert ok
        if i in wanted:
            card, zone = wanted.pop(i)
            truth = next(c for c in labels[i]["cards"] if c["card"] == card and c["zone"] == zone)
            poly = np.array(truth["polygon"], np.float32)
            reads = [d["card"] for d in det.detect(img)["cards"]
                     if cv2.pointPolygonTest(poly, tuple(map(float, d["center"])), False) >= 0]
            assert reads == [card], f"frame {i}: {zone} read as {reads}"
        i += 1
