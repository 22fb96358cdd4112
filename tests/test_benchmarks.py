"""The benchmark scripts' own helpers (the scripts themselves need rendered data and run outside
the test suite)."""
from __future__ import annotations

import doctest
import json
import math
import sys
import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_eval_detect_doctests_pass(monkeypatch):
    module = load("eval_detect")
    # doctest finds a module's tests by its name: another test's script may have imported it
    monkeypatch.setitem(sys.modules, "eval_detect", module)
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_failures_are_counted_by_the_cause_the_model_card_names():
    kind = load("eval_detect").failure_kind
    failures = [
        {"true": "Qs", "got": "Qc", "corners_visible": [True, False]},
        {"extra": "Qc", "on": "Qs"},                 # the same misread, seen from the precision side
        {"true": "9h", "got": "8h", "corners_visible": [True, True]},
        {"true": "5c", "got": "??", "corners_visible": [False, True]},
        {"true": "Ad", "got": "(not found)", "corners_visible": [True, True]},
        {"true": "JK", "got": "??", "corners_visible": [True, True]},
        {"true": "JK", "got": "Ah", "corners_visible": [True, True]},
        {"true": "Kc", "got": "JK", "corners_visible": [True, True]},
        {"extra": "JK", "on": "Kc"},
        {"extra": "JK", "on": "nothing/back"},
        {"extra": "7d", "on": "nothing/back"},
    ]
    assert [kind(f) for f in failures] == [
        "suit wrong", "extra name on a card", "rank wrong", "?? on a visible index", "not found",
        "joker left ??", "joker named a suited card", "suited card named JK", "extra JK on a card",
        "JK on nothing or a back", "card on nothing or a back"]


def test_a_validation_set_renders_with_its_recipe_and_is_read_by_the_shipped_models(tmp_path):
    """``--set val-pips``: training decks with pip drawings no training frame uses, rendered where
    they are missing and read like the test split."""
    import json

    out = tmp_path / "figures.json"
    assert load("eval_detect").main(["--set", "val-pips", "--n", "2", "--data", str(tmp_path / "d"),
                                     "--workers", "1", "--json", str(out)]) == 0
    r = json.loads(out.read_text())
    assert r["recipe"] == "fresh-pips-val" and r["seeds"] == [1_000_600, 1_000_601] and r["frames"] == 2
    metas = sorted((tmp_path / "d" / "meta" / "train").glob("*.json"))
    styles = [json.loads(m.read_text())["meta"]["deck_style"] for m in metas]
    assert len(styles) == 2 and all(int(s.rsplit("~var-", 1)[1]) >= 900_000 for s in styles)
    assert r["cards_counted"] > 0 and 0.0 <= r["recall"] <= 1.0
    o = r["other_name"]          # what the doubtful cards said they might be instead
    assert 0 <= o["or_is_the_card"] <= o["with_or"] <= o["wrong_names_on_a_card"]


def test_eval_sure_chooses_the_threshold_above_every_wrong_name():
    sure = load("eval_sure")
    result = doctest.testmod(sure)
    assert result.attempted > 0 and result.failed == 0
    rows = [(0.99, True), (0.93, True), (0.9241, False), (0.95, True), (0.5, False)]
    t = sure.choose([s for s, ok in rows if not ok])
    assert t == 0.925 and sure.shares(rows, t)["wrong_sure"] == 0
    assert sure.shares(rows, t)["right_not_sure"] == 0


def test_eval_sure_reads_far_frames_as_an_uncalibrated_and_as_a_calibrated_camera(tmp_path, monkeypatch):
    """The small cards' threshold is chosen on far views read both ways: told the card size and
    the cards' part of the frame, as the live product reads a calibrated far camera, and not told;
    the next set is read untold again."""
    from dealer_assist.vision.synth import write_dataset

    sure = load("eval_sure")
    detect = load("eval_detect")
    monkeypatch.setitem(sys.modules, "eval_detect", detect)
    monkeypatch.setattr(sure, "ROOT", tmp_path)
    folder, split, seed0, recipe = detect.EVAL_SETS["val-train"]
    write_dataset(tmp_path / "runs" / folder, 1, split, seed0=seed0, workers=1, recipe=recipe)
    meta = json.loads(next((tmp_path / "runs" / folder / "meta" / split).glob("*.json")).read_text())

    class Stub:
        def __init__(self):
            self.told, self.seen = None, []

        def expect_card_side(self, px, region=None):
            self.told = None if px is None else (px, tuple(region))

        def detect(self, image, sureness=False):
            self.seen.append((image.shape[:2], self.told))
            return {"cards": [], "backs": []}

    stub = Stub()
    sure.rendered_rows(stub, "val-train", None, far=0.5, told=True)
    sure.rendered_rows(stub, "val-train", None, far=0.5)
    sure.rendered_rows(stub, "val-train", None)
    (far_told, told), (far_shape, untold), (near_shape, near) = stub.seen
    assert far_told == far_shape == (1080, 1920) and near_shape == (720, 1280)
    assert untold is None and near is None and stub.told is None
    side, (x, y, w, h) = told
    own = np.median([min(math.dist(p[0], p[1]), math.dist(p[1], p[2]))
                     for c in meta["cards"] + meta.get("backs", []) for p in [c["polygon"]]])
    assert side == pytest.approx(own * 0.5, rel=0.02)      # the cards' size as the far view shows them
    # the part read: round the shrunk frame's place in the middle (640x360 at 640, 360), in the frame
    assert 0 <= x < 640 and 0 <= y < 360 and x + w > 1280 and y + h > 720 and x + w <= 1920 and y + h <= 1080


def eval_sure_with_a_stand_in_reader(monkeypatch):
    """``benchmarks/eval_sure.py`` with a stand-in reader (a look, no layout or court-suit model) and
    nothing rendered: the rows a test gives its ``rendered_rows`` are what it reads."""
    import dealer_assist.vision.detector as detector_module
    import dealer_assist.vision.synth as synth

    sure = load("eval_sure")
    monkeypatch.setitem(sys.modules, "eval_detect", load("eval_detect"))
    monkeypatch.setitem(sys.modules, "eval_real", load("eval_real"))
    monkeypatch.setattr(synth, "write_dataset", lambda *a, **k: None)

    class Stub:
        look = layout = court_suit = None

        def __init__(self, *_):
            self.look = object()

    monkeypatch.setattr(detector_module, "CardDetector", Stub)
    return sure


def test_eval_sure_measures_the_held_out_decks_and_never_chooses_on_them(tmp_path, monkeypatch, capsys):
    """The held-out decks' frames are read at their own size and seen far as a calibrated camera
    sees them, and their figures printed; a wrong name there, however sure, moves no threshold,
    where the same name on a validation set would."""
    sure = eval_sure_with_a_stand_in_reader(monkeypatch)
    read = []

    def rows(det, frame_set, limit, far=None, told=False, wrong_on=None):
        read.append((frame_set, far, told))
        row = {"frame": "f.jpg", "card": "As", "on": "As", "sureness": 0.5, "right": True, "side": 100.0,
               "small": False, "kind": None}
        small = dict(row, side=40.0, small=True)
        out = [row, small]
        if frame_set == wrong_on:          # one wrong name of every size, very sure
            out += [dict(row, on="Ac", right=False, sureness=0.99), dict(small, on="Ac", right=False, sureness=0.99)]
        return out

    chosen = {}
    for wrong_on in ("test", "val-train"):
        monkeypatch.setattr(sure, "rendered_rows", lambda *a, **k: rows(*a, **k, wrong_on=wrong_on))
        read.clear()
        assert sure.main(["--real", str(tmp_path)]) == 0
        out = capsys.readouterr().out
        chosen[wrong_on] = [line for line in out.splitlines() if line.startswith("threshold")]
        assert ("test", None, False) in read and ("test", 0.5, True) in read and ("test", 0.35, True) in read
        assert ("test", 0.5, False) not in read          # not as an uncalibrated camera's far frames
        assert "test far 0.5 told: 2 names" in out or "test far 0.5 told: 4 names" in out
    assert chosen["test"][0].startswith("threshold 0.001 ") and "under 60 pixels 0.001 " in chosen["test"][1]
    assert chosen["val-train"][0].startswith("threshold 0.991 ") and "under 60 pixels 0.991 " in chosen["val-train"][1]


def test_eval_sure_lets_no_blurred_card_set_a_threshold_and_counts_a_right_one_not_sure(tmp_path, monkeypatch, capsys):
    """A card blurred past the reader's limit is never sure (detect's "blurred"): a very sure wrong
    name on it moves no threshold, and a right name on it counts as not sure."""
    sure = eval_sure_with_a_stand_in_reader(monkeypatch)

    def rows(det, frame_set, limit, far=None, told=False, blurred=False):
        row = {"frame": "f.jpg", "card": "As", "on": "As", "sureness": 0.95, "right": True, "side": 100.0,
               "small": False, "kind": None, "blur": 0.01, "blurred": False}
        wrong = dict(row, on="Ac", right=False, sureness=0.9, blur=0.05, blurred=blurred)
        return [row, dict(row, blur=0.05, blurred=blurred), wrong] if frame_set == "val-train" else [row]

    said = {}
    for blurred in (False, True):
        monkeypatch.setattr(sure, "rendered_rows", lambda *a, **k: rows(*a, **k, blurred=blurred))
        assert sure.main(["--real", str(tmp_path), "--no-far"]) == 0
        said[blurred] = capsys.readouterr().out
    assert said[False].startswith("threshold 0.901 ") and said[True].startswith("threshold 0.001 ")
    assert "val-train: 3 names, 1 wrong; sure wrong 0; right not sure 0 of 2 (0.0)" in said[False]
    assert "val-train: 3 names, 1 wrong; sure wrong 0; right not sure 1 of 2 (0.5)" in said[True]


def test_eval_sure_counts_a_real_card_of_the_wrong_suit_as_wrong(tmp_path, monkeypatch):
    """The real photos are measured by whole names where their suits are read
    (benchmarks/real_suits/): a right rank of the wrong suit is a wrong name there."""
    import cv2

    sure = load("eval_sure")
    real = load("eval_real")
    monkeypatch.setitem(sys.modules, "eval_real", real)
    folder = tmp_path / "deck"
    folder.mkdir()
    cv2.imwrite(str(folder / "IMG_1.jpg"), np.full((300, 400, 3), 200, np.uint8))
    objects = "".join(f"<object><name>{n}</name><bndbox><xmin>{x}</xmin><ymin>10</ymin><xmax>{x + 100}</xmax>"
                      f"<ymax>150</ymax></bndbox></object>" for n, x in (("king", 0), ("ace", 200)))
    (folder / "IMG_1.xml").write_text(f"<annotation>{objects}</annotation>")
    suits = tmp_path / "suits"
    suits.mkdir()
    (suits / "deck.json").write_text(json.dumps({"photos": {"IMG_1": "sh"}}))
    monkeypatch.setattr(real, "SUITS_DIR", suits)

    def rect(x):
        return [[x, 10], [x + 100, 10], [x + 100, 150], [x, 150]]

    class Stub:
        def detect(self, image, sureness=False):
            return {"cards": [{"card": "Kc", "confidence": 0.97, "sureness": 0.95, "sure_kind": "court",
                               "polygon": rect(0)},
                              {"card": "Ah", "confidence": 0.97, "sureness": 0.95, "sure_kind": None,
                               "polygon": rect(200)}],
                    "backs": []}

    rows = sure.real_rows(Stub(), folder, None)
    assert [(r["card"], r["on"], r["right"]) for r in rows] == [("Kc", "Ks", False), ("Ah", "Ah", True)]
    (suits / "deck.json").unlink()                 # no suits read: ranks only, as before
    rows = sure.real_rows(Stub(), folder, None)
    assert [(r["on"], r["right"]) for r in rows] == [("K", True), ("A", True)]
