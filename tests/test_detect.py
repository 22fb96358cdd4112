"""The shipped card detector (models/*.onnx, run by ONNX Runtime; no torch needed) and the
``detect`` / ``enroll-deck`` command contracts."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cards import parse_card
from dealer_assist.cli import main
from dealer_assist.vision import classifier as C
from dealer_assist.vision.detector import CardDetector, gaussian_iou, nms_rotated, read_image
from dealer_assist.vision.look import LOOK_FILE

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
SAMPLES = ROOT / "sample_frames"

needs_models = pytest.mark.skipif(not (MODELS / "cards-obb.onnx").is_file(), reason="no shipped model")


@pytest.fixture(scope="module")
def detector():
    return CardDetector(MODELS)


def sample_frames():
    return sorted(p for p in SAMPLES.glob("*.jpg") if p.with_suffix(".json").is_file())


def names_on(result, label) -> list[str]:
    """The names ``detect`` gave the boxes lying on a labelled card (IoU >= 0.5)."""
    from dealer_assist.vision.geometry import polygon_iou

    return [c["card"] for c in result["cards"] if polygon_iou(c["polygon"], label["polygon"]) >= 0.5]


def inside(point, polygon) -> bool:
    return cv2.pointPolygonTest(np.asarray(polygon, np.float32), (float(point[0]), float(point[1])), False) >= 0


# ---------------------------------------------------------------------------------------------
# fusion of the two corners (no model needed)
# ---------------------------------------------------------------------------------------------
def corner(name: str | None, p: float = 0.9) -> np.ndarray:
    return C.corner(["none" if name is None else name], [p])


def test_two_visible_corners_of_one_card_name_it_once_and_more_surely():
    one, _ = C.fuse_card(np.stack([corner("Qh"), corner(None)]), 0.9, 0.01)
    name, both = C.fuse_card(np.stack([corner("Qh"), corner("Qh")]), 0.9, 0.01)
    _, single = C.fuse_card(np.stack([corner("Qh"), corner(None)]), 0.9, 0.01)
    assert one == name == "Qh"
    assert both > single


def test_a_covered_corner_does_not_outvote_a_visible_one():
    assert C.fuse_card(np.stack([corner(None, 0.99), corner("7c", 0.8)]), 0.9, 0.01)[0] == "7c"


def test_unreadable_card_is_reported_unknown_unless_it_looks_like_a_joker():
    both_covered = np.stack([corner(None), corner(None)])
    assert C.fuse_card(both_covered, 0.9, 0.05)[0] == "??"
    assert C.fuse_card(both_covered, 0.1, 0.9)[0] == "JK"


def test_corners_that_disagree_give_a_low_confidence():
    name, conf = C.fuse_card(np.stack([corner("Ks", 0.6), corner("Kc", 0.6)]), 0.9, 0.01)
    _, sure = C.fuse_card(np.stack([corner("Ks", 0.6), corner("Ks", 0.6)]), 0.9, 0.01)
    assert conf < sure


def test_the_suit_seen_in_the_centre_can_weigh_by_rank():
    """The look's suit term may differ by rank (a (13, 4) term, rows 2..A): the centre of an ace
    or a nine shows pips, a king's shows a picture. Corners torn between the spade and the club
    of a rank follow a term that favours clubs for that rank only."""
    from dealer_assist.vision.detector import COURT_RANKS, look_sure

    clubs = np.log(np.array([0.9, 0.02, 0.02, 0.06]) * 4)
    by_rank = np.zeros((13, 4))
    by_rank[:] = clubs
    by_rank[list(COURT_RANKS)] = 0.0                          # J, Q, K: the centre says nothing
    for rank, follows in (("9", True), ("A", True), ("K", False)):
        torn = C.corner([rank + "s", rank + "c"], [0.5, 0.4])
        got = C.fuse_card(np.stack([torn, torn]), 0.9, 0.01, suit_llr=by_rank)[0]
        assert got == rank + ("c" if follows else "s"), rank
    # the gate follows the weight: a name the term cannot move is not shown to the look
    assert look_sure(1.0) == pytest.approx(0.99) and 0.998 < look_sure(1.5) < 0.999


def test_nms_keeps_separate_cards_and_drops_duplicates():
    boxes = np.array([[100, 100, 60, 84, 0.0], [101, 99, 61, 83, 0.01],      # the same card twice
                      [130, 100, 60, 84, 0.2],                                  # overlapping neighbour
                      [400, 300, 80, 110, 1.0]])
    keep = nms_rotated(boxes, np.array([0.9, 0.8, 0.85, 0.7]), iou_threshold=0.7)
    assert sorted(keep.tolist()) == [0, 2, 3]
    sim = gaussian_iou(boxes, boxes)
    assert np.allclose(sim, sim.T, atol=1e-6) and np.allclose(np.diag(sim), 1.0, atol=1e-3)


# ---------------------------------------------------------------------------------------------
# the shipped models on the project's labelled sample frames
# ---------------------------------------------------------------------------------------------
@needs_models
def test_shipped_model_reads_the_sample_frames(detector):
    frames = sample_frames()
    if not frames:
        pytest.skip("no labelled sample_frames/")
    counted = right = named = named_right = 0
    misses = []
    for f in frames:
        labels = json.loads(f.with_suffix(".json").read_text(encoding="utf-8"))
        res = detector.detect_file(f)
        for lab in labels["cards"]:
            if not any(lab.get("corners_visible", [True, True])) and lab["card"] != "JK":
                continue
            counted += 1
            hits = [c for c in res["cards"] if inside(c["center"], lab["polygon"])
                    and inside(np.mean(lab["polygon"], axis=0), c["polygon"])]
            if any(c["card"] == lab["card"] for c in hits):
                right += 1
            else:
                misses.append((f.name, lab["card"], [c["card"] for c in hits]))
        for c in res["cards"]:
            if c["card"] == "??":
                continue
            named += 1
            named_right += any(lab["card"] == c["card"] and inside(c["center"], lab["polygon"])
                               for lab in labels["cards"])
    assert counted > 20
    # A regression guard below what the shipped models measure on these frames (detector H3 with
    # the corner search: recall 152/156 = 0.974, precision 152/152; detector E read 123/156); the
    # issue's targets on the held-out split are NOT all met yet: see models/MODEL_CARD.md.
    assert right / counted >= 0.93, misses
    assert named_right / named >= 0.98


@needs_models
@pytest.mark.parametrize("turn", [25.0, -40.0])
def test_corner_search_reads_cards_whose_box_is_turned(detector, turn):
    from dealer_assist.vision import geometry as g
    from dealer_assist.vision.detector import READ_VARIANTS
    from dealer_assist.vision.synth.scene import render_cards

    names = ["Qh", "7s", "Td", "4c"]
    frame, labels = render_cards([{"card": n, "style": "bicycle-like", "center": (x, y), "angle": a, "width": 120}
                                  for n, x, y, a in zip(names, (-380, -130, 120, 370), (20, -40, 30, -20),
                                                        (0, 35, 100, 200))])
    # boxes the way the detector's worst errors look: the true outline turned about its centre
    # and moved by 3 % of the card's width
    boxes = [g.warp_polygon(g.order_card_polygon(c["polygon"]), dx=0.03, turn_deg=turn) for c in labels["cards"]]
    variants = [(1.0, 0.0, 0.0, 0.0), *READ_VARIANTS]
    (probs, _), (probs0, _), searched = detector._read_corners(frame, boxes, variants)
    read0 = [C.fuse_card(p, 0.9, 0.01)[0] for p in probs0]
    read = [C.fuse_card(p, 0.9, 0.01)[0] for p in probs]
    assert sum(a == b for a, b in zip(read0, names)) <= 1, read0     # the boxes alone miss the index
    assert read == names, (read0, read)
    assert searched.all()
    # a card read surely from its own box is not searched: the true outlines
    (_, _), (_, _), searched = detector._read_corners(
        frame, [g.order_card_polygon(c["polygon"]) for c in labels["cards"]], variants)
    assert not searched.any()


@needs_models
def test_search_setting_keeps_the_detect_contract_and_the_sure_readings(detector):
    from dealer_assist.vision.detector import DetectorSettings

    frames = sample_frames()[:4] or pytest.skip("no sample frames")
    assert detector.settings.search  # on by default
    plain_reader = CardDetector(MODELS, settings=DetectorSettings(search=False))
    for f in frames:
        plain, found = plain_reader.detect_file(f), detector.detect_file(f)
        assert set(found) == set(plain)
        for c in found["cards"]:
            assert set(c) - {"or"} == {"card", "confidence", "sure", "center", "polygon"} and len(c["polygon"]) == 4
            assert "or" not in c or (not c["sure"] and c["card"] not in ("??", "JK"))
            if c["card"] != "??":
                parse_card(c["card"])
        # the search only looks again at cards the box alone leaves unread: what the box reads
        # surely stays
        sure = [c for c in plain["cards"] if c["card"] != "??" and c["confidence"] >= 0.8]
        for c in sure:
            assert any(d["card"] == c["card"] and d["center"] == c["center"] for d in found["cards"]), c


@needs_models
def test_an_empty_table_has_no_cards(detector):
    felt = np.zeros((720, 1280, 3), np.uint8)
    felt[:] = (40, 110, 40)
    noise = np.random.default_rng(0).normal(0, 6, felt.shape)
    res = detector.detect(np.clip(felt + noise, 0, 255).astype(np.uint8))
    assert res == {"cards": [], "backs": []}


@needs_models
def test_frames_that_show_nothing_say_once_what_to_do_where_a_closer_look_could_help(tmp_path, capsys):
    """A frame with pixels to spare that shows no card may hold cards too small for the whole
    frame: ``detect`` says once, on stderr, to give the camera's calibration. Not for a frame with
    no pixels to spare, nor for one so big that it was looked at closer anyway, nor with the zoom
    switched off, nor where a card is found."""
    felt = np.zeros((720, 1280, 3), np.uint8)
    felt[:] = (40, 110, 40)
    felt = np.clip(felt + np.random.default_rng(0).normal(0, 6, felt.shape), 0, 255).astype(np.uint8)
    big, big2, small, huge = tmp_path / "a.png", tmp_path / "b.png", tmp_path / "c.png", tmp_path / "d.png"
    for path, image in ((big, felt), (big2, felt), (small, cv2.resize(felt, (378, 504))),
                        (huge, cv2.resize(felt, (1920, 1080)))):
        assert cv2.imwrite(str(path), image)

    def err(*argv):
        assert main(["detect", "--lang", "en", *argv]) == 0
        return capsys.readouterr().err

    said = err(str(small), str(big), str(big2))
    assert said.count("no card found in") == 1 and f"no card found in {big}:" in said and "--calibration" in said
    assert err(str(small)) == "" and err(str(huge)) == "" and err("--no-zoom", str(big)) == ""
    assert err(str(sorted(SAMPLES.glob("test_*.jpg"))[0])) == ""


@needs_models
def test_the_model_sessions_keep_their_own_threads_and_do_not_spin(detector, monkeypatch):
    # The reader runs five ONNX Runtime sessions one after another. Spinning worker threads take
    # the cores away from the next session: on a 2-core laptop a frame took 41 ms with spinning
    # on and 25 ms with it off (benchmarks/bench_detect.py --spin). One pool shared by all reads
    # 2 ms faster but spins: at a camera's 15 fps it kept 1.3 cores busy, not 0.8 (--pool).
    key = "session.intra_op.allow_spinning"
    sessions = [detector.obb, detector.cls.session, detector.look.session]
    sessions += [m.session for m in (detector.layout, detector.court_suit) if m is not None]
    assert len(sessions) == 5
    assert [s.get_session_options().get_session_config_entry(key) for s in sessions] == ["0"] * 5
    assert all(s.get_session_options().use_per_session_threads for s in sessions)
    monkeypatch.setenv("DEALER_ASSIST_ORT_SPIN", "1")      # how the benchmark measures the other way
    assert C.load_session(MODELS / "corner-cls.onnx", "corner classifier") \
        .get_session_options().get_session_config_entry(key) == "1"


@needs_models
def test_one_thread_pool_for_all_sessions_reads_every_card_alike(detector):
    # The other way the benchmark measures (DEALER_ASSIST_ORT_POOL=shared, bench_detect.py
    # --pool), in a process of its own: a process has one way. The way the threads are shared
    # must not change a single reading.
    import os
    import subprocess
    import sys

    frames = sample_frames()[:3] or pytest.skip("no sample frames")
    probe = ("import json, sys\n"
             "from dealer_assist.vision.detector import CardDetector, default_model_dir, read_image\n"
             "d = CardDetector(default_model_dir())\n"
             "print(json.dumps({'per_session': d.obb.get_session_options().use_per_session_threads,\n"
             "                  'read': [d.detect(read_image(f), sureness=True) for f in sys.argv[1:]]}))\n")
    done = subprocess.run([sys.executable, "-c", probe, *map(str, frames)], cwd=ROOT, timeout=300,
                          env={**os.environ, "DEALER_ASSIST_ORT_POOL": "shared"}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["per_session"] is False
    assert got["read"] == [json.loads(json.dumps(detector.detect(read_image(f), sureness=True))) for f in frames]


# ---------------------------------------------------------------------------------------------
# CLI contract
# ---------------------------------------------------------------------------------------------
@needs_models
def test_a_file_that_is_no_image_is_said_once_in_the_users_words(tmp_path):
    """A file named like a photo that holds something else (here the start of a GIF) is said
    once, in the dealer's language; OpenCV's own message about its decoder stays off the
    terminal, unless debugging (DEALER_ASSIST_DEBUG=1)."""
    import os
    import subprocess
    import sys

    bad = tmp_path / "table.jpg"
    bad.write_bytes(b"GIF89a garbage")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENCV_LOG_LEVEL", "DEALER_ASSIST_DEBUG")}
    for lang, words in (("ja", "読み込める画像ではありません"), ("en", "not a readable image")):
        done = subprocess.run([sys.executable, "-m", "dealer_assist", "detect", str(bad), "--lang", lang],
                              capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines() == [f"dealer-assist detect: {bad}: {words}"], done.stderr
    done = subprocess.run([sys.executable, "-m", "dealer_assist", "detect", str(bad), "--lang", "en"],
                          capture_output=True, text=True, timeout=120, env={**env, "DEALER_ASSIST_DEBUG": "1"})
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) > 1


@needs_models
def test_detect_json_contract_and_unreadable_image(tmp_path, capsys):
    frames = sample_frames()[:2] or pytest.skip("no sample frames")
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"not a jpeg")
    code = main(["detect", "--json", str(frames[0]), str(bad), str(frames[-1])])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 2
    assert len(out) == 3
    objs = [json.loads(line) for line in out]
    assert set(objs[1]) == {"image", "error", "error_ja"} and objs[1]["image"] == str(bad)
    # the error in English and in Japanese (the catalogue's words; English until it has them)
    from dealer_assist.i18n import _ as msg

    assert objs[1]["error"] == f"{bad}: not a readable image"
    assert objs[1]["error_ja"] == msg("{path}: not a readable image", path=str(bad)).render("ja")
    for o in (objs[0], objs[2]):
        assert set(o) == {"image", "width", "height", "ms", "cards", "backs"}
        assert (o["width"], o["height"]) == (1280, 720)
        for c in o["cards"]:
            # sure beside confidence; a named card not sure says what else it may be
            assert list(c) == ["card", "confidence", "sure", "center", "polygon"] + (["or"] if "or" in c else [])
            assert "or" not in c or (not c["sure"] and str(parse_card(c["or"])) == c["or"] != c["card"])
            assert c["card"] == "??" or str(parse_card(c["card"])) == c["card"]
            assert 0.0 <= c["confidence"] <= 1.0
            assert isinstance(c["sure"], bool) and not (c["card"] == "??" and c["sure"])
            assert len(c["polygon"]) == 4 and all(len(p) == 2 for p in c["polygon"])
            assert inside(c["center"], c["polygon"])
        for b in o["backs"]:
            assert set(b) == {"center", "polygon"}


# ---------------------------------------------------------------------------------------------
# sure: the doubt the dealer sees (issue 20, item 3)
# ---------------------------------------------------------------------------------------------
@needs_models
def test_detect_json_says_which_names_are_sure_by_the_measured_threshold(capsys):
    from dealer_assist.vision.detector import model_checksums

    frames = sample_frames()[:3] or pytest.skip("no sample frames")
    meta = json.loads((MODELS / "models.json").read_text())
    entry = meta["sure"]
    assert entry["models"] == model_checksums(MODELS), "models changed: run benchmarks/eval_sure.py --write"
    from dealer_assist.vision.geometry import card_width

    assert 0.5 < entry["threshold"] < 1.0
    assert all(0.5 < entry[k]["threshold"] < 1.0 for k in ("court", "covered_court", "joker", "small"))
    # the thresholds were chosen so that no wrong name of the rendered validation sets is sure
    assert all(entry["figures"][s]["wrong_sure"] == 0
               for s in ("val-train", "val-train2", "val-pips", "val-world", "val-base-more", "val-world-more"))
    detector = CardDetector(MODELS)
    assert detector.sure_threshold == entry["threshold"]
    assert detector.kind_sure_thresholds == {k: entry[k]["threshold"] for k in ("court", "covered_court", "joker")}

    def threshold(card: dict, corners) -> float:
        """a card under 60 pixels: the small cards' threshold; a court card or a joker: its kind's,
        a court showing one index corner (``corners``: each one's chance of showing an index) the
        covered courts'"""
        if card_width(card["polygon"]) < 60:
            return entry["small"]["threshold"]
        one = corners is not None and sorted(corners)[0] < 0.5 <= sorted(corners)[1]
        kind = "joker" if card["card"] == "JK" else ("covered_court" if one else "court") \
            if card["card"][0] in "JQK" else None
        assert card["sure_kind"] == kind
        return entry[kind]["threshold"] if kind else entry["threshold"]

    assert main(["detect", "--json", *map(str, frames)]) == 0
    objs = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    cards = [c for o in objs for c in o["cards"]]
    assert any(c["sure"] for c in cards)
    for f, o in zip(frames, objs):
        scored = detector.detect(read_image(f), sureness=True)["cards"]
        found = detector._detect(read_image(f))["cards"]
        assert [(c["card"], c["sure"]) for c in scored] == [(c["card"], c["sure"]) for c in o["cards"]]
        for c, d in zip(scored, found):
            assert c["sure"] == (c["sureness"] >= threshold(c, d["_vis"]))
            if c["card"] == "??":
                assert c["sureness"] == 0.0 and not c["sure"]


@needs_models
def test_no_card_is_sure_without_a_threshold_measured_for_these_models(tmp_path):
    frame = (sample_frames() or pytest.skip("no sample frames"))[0]
    image = read_image(frame)
    folder = tmp_path / "models"
    folder.mkdir()
    for f in MODELS.glob("*.onnx"):
        (folder / f.name).symlink_to(f)
    meta = json.loads((MODELS / "models.json").read_text())
    named = [c for c in CardDetector(MODELS).detect(image)["cards"] if c["card"] != "??"]
    assert named
    # measured on other models (a checksum differs), or never measured: nothing is sure
    # ... or measured for another way of making the sureness (an older product of the same parts)
    for entry in ({**meta["sure"], "models": {**meta["sure"]["models"], "cards-obb.onnx": "0" * 16}},
                  {**meta["sure"], "score_id": "p x P(face) x suit share x layout agreement"}, None):
        (folder / "models.json").write_text(json.dumps({**meta, "sure": entry} if entry else
                                                       {k: v for k, v in meta.items() if k != "sure"}))
        det = CardDetector(folder)
        assert det.sure_threshold is None
        assert not any(c["sure"] for c in det.detect(image)["cards"])
    # a threshold given in the settings rules: 0 makes every named card sure, above 1 none
    from dealer_assist.vision.detector import DetectorSettings

    every = CardDetector(folder, settings=DetectorSettings(sure=0.0)).detect(image)["cards"]
    names = [c["card"] for c in every]
    assert all(c["sure"] == (c["card"] != "??" and (c["card"] == "JK" or names.count(c["card"]) == 1))
               for c in every)
    assert not any(c["sure"] for c in CardDetector(MODELS, settings=DetectorSettings(sure=1.01)).detect(image)["cards"])
    # and without the look no card is sure: the posterior alone lets confident suit errors through
    assert not any(c["sure"] for c in CardDetector(MODELS, settings=DetectorSettings(look=False)).detect(image)["cards"])


@needs_models
def test_a_court_card_is_sure_only_by_a_threshold_measured_for_court_cards(tmp_path):
    """models.json without the court cards' own thresholds (measured before there were any): no
    jack, queen or king of 60 pixels or more is sure, while the 2 to 10 and aces of the same
    frames keep theirs."""
    from dealer_assist.vision.geometry import card_width

    folder = tmp_path / "models"
    folder.mkdir()
    for f in MODELS.glob("*.onnx"):
        (folder / f.name).symlink_to(f)
    meta = json.loads((MODELS / "models.json").read_text())
    (folder / "models.json").write_text(json.dumps({**meta, "sure": {k: v for k, v in meta["sure"].items()
                                                                      if k not in ("court", "covered_court")}}))
    without, shipped = CardDetector(folder), CardDetector(MODELS)
    courts = numbers = 0
    for frame in sample_frames()[:12]:
        image = read_image(frame)
        a, b = without.detect(image, sureness=True)["cards"], shipped.detect(image, sureness=True)["cards"]
        assert [c["card"] for c in a] == [c["card"] for c in b]
        for x, y in zip(a, b):
            if card_width(x["polygon"]) < 60:
                assert x["sure"] == y["sure"], (x, y)     # under 60 pixels: the small cards' threshold
            elif x["card"][:1] in ("J", "Q", "K") and x["card"] != "JK":
                assert not x["sure"], x
                courts += y["sure"]
            else:
                assert x["sure"] == y["sure"], (x, y)
                numbers += y["sure"]
    assert courts >= 1 and numbers >= 3, (courts, numbers)


@needs_models
def test_a_court_showing_one_index_corner_is_judged_by_its_own_threshold(tmp_path):
    """A court card with one index corner in view has a threshold of its own, measured on such
    courts' wrong names (the court-suit reader sees one end of it, where it sees both of a court
    showing both corners). Where models.json has none, no such court is sure, and every other
    card is judged as before."""
    from dealer_assist.vision.geometry import card_width

    meta = json.loads((MODELS / "models.json").read_text())
    covered = meta["sure"]["covered_court"]["threshold"]
    folder = tmp_path / "models"
    folder.mkdir()
    for f in MODELS.glob("*.onnx"):
        (folder / f.name).symlink_to(f)
    (folder / "models.json").write_text(json.dumps({**meta, "sure": {k: v for k, v in meta["sure"].items()
                                                                      if k != "covered_court"}}))
    without, shipped = CardDetector(folder), CardDetector(MODELS)
    assert without.kind_sure_thresholds["covered_court"] is None and shipped.kind_sure_thresholds["covered_court"] == covered
    seen = sure = 0
    for frame in sample_frames()[:12]:
        image = read_image(frame)
        a, b = without.detect(image, sureness=True)["cards"], shipped.detect(image, sureness=True)["cards"]
        assert [(c["card"], c["sure_kind"]) for c in a] == [(c["card"], c["sure_kind"]) for c in b]
        for x, y in zip(a, b):
            if x["sure_kind"] == "covered_court" and card_width(x["polygon"]) >= 60:
                seen += 1
                sure += y["sure"]
                assert not x["sure"] and y["sure"] == (y["sureness"] >= covered), (x, y)
            else:
                assert x["sure"] == y["sure"], (x, y)
    assert seen >= 1 and sure >= 1, (seen, sure)


@needs_models
def test_a_name_read_twice_or_unread_is_never_sure(detector):
    image = np.zeros((200, 200, 3), np.uint8)
    outline = np.array([[10.0, 10.0], [70.0, 10.0], [70.0, 94.0], [10.0, 94.0]])
    cards = [{"card": c, "_p": 0.999, "_outline": outline} for c in ("As", "As", "??")]
    assert detector.sureness(image, cards) == [0.0, 0.0, 0.0]
    # the look must agree: a blank patch is no face card, so even a sure posterior is not sure
    assert detector.sureness(image, [{"card": "As", "_p": 0.999, "_outline": outline}])[0] < 0.5


@needs_models
def test_detect_folder_table_and_annotate(tmp_path, capsys):
    frames = sample_frames()[:2] or pytest.skip("no sample frames")
    folder = tmp_path / "in"
    folder.mkdir()
    for f in frames:
        shutil.copy(f, folder / f.name)
    code = main(["detect", "--lang", "en", "--annotate", str(tmp_path / "ann"), str(folder)])
    text = capsys.readouterr().out
    assert code == 0
    assert text.count("card(s)") == len(frames)
    written = sorted(p.name for p in (tmp_path / "ann").iterdir())
    assert written == sorted(f.name for f in frames)
    assert cv2.imread(str(tmp_path / "ann" / frames[0].name)).shape == (720, 1280, 3)


#: the first bytes of an iPhone's HEIC photo (an ISO media ``ftyp`` box, brand ``heic``)
HEIC_HEAD = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64


@needs_models
def test_a_folder_of_phone_photos_is_read_whatever_their_format_and_heic_is_named(tmp_path, capsys):
    """A folder as a phone or a photo tool leaves it: upper-case names, WebP, and an iPhone's HEIC
    photos, which OpenCV cannot read. The others are read alike; each HEIC photo is listed with
    what to do (in English and Japanese), and the exit code says something was not read."""
    frame = (sample_frames()[:1] or pytest.skip("no sample frames"))[0]
    folder = tmp_path / "phone"
    folder.mkdir()
    image = cv2.imread(str(frame))
    shutil.copy(frame, folder / "IMG_0001.JPG")
    assert cv2.imwrite(str(folder / "IMG_0002.webp"), image, [cv2.IMWRITE_WEBP_QUALITY, 101])  # lossless
    (folder / "IMG_0003.HEIC").write_bytes(HEIC_HEAD)
    (folder / "notes.txt").write_text("not a photo")
    code = main(["detect", "--json", str(folder)])
    objs = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert code == 2
    assert [Path(o["image"]).name for o in objs] == ["IMG_0001.JPG", "IMG_0002.webp", "IMG_0003.HEIC"]
    assert sorted(c["card"] for c in objs[0]["cards"]) == sorted(c["card"] for c in objs[1]["cards"])
    assert objs[0]["cards"]
    assert "HEIC" in objs[2]["error"] and "JPEG" in objs[2]["error"] and "互換性優先" in objs[2]["error_ja"]
    # named on its own, by its bytes whatever its name
    renamed = tmp_path / "table.jpg"
    renamed.write_bytes(HEIC_HEAD)
    assert main(["detect", "--lang", "en", str(renamed)]) == 2
    assert "a HEIC (HEIF) photo, which cannot be read here" in capsys.readouterr().err
    # a folder of HEIC photos alone says so, not "no images"
    only = tmp_path / "only"
    only.mkdir()
    (only / "a.heic").write_bytes(HEIC_HEAD)
    assert main(["detect", "--lang", "en", str(only)]) == 2
    assert "HEIC" in capsys.readouterr().err


def test_annotations_show_which_cards_are_not_sure_and_what_to_check_them_against(monkeypatch):
    """`detect --annotate`: a sure card in green, a card not sure in magenta with "?" and its
    likeliest other name, a back labelled in the chosen language (English where no CJK typeface
    is installed)."""
    from dealer_assist import drawtext
    from dealer_assist.vision.detector import draw_annotations

    def box(x):
        return [[x, 60], [x + 80, 60], [x + 80, 170], [x, 170]]

    image = np.full((200, 420, 3), 60, np.uint8)
    result = {"cards": [{"card": "Ah", "confidence": 0.97, "sure": True, "polygon": box(20)},
                        {"card": "Kc", "confidence": 0.87, "sure": False, "or": "Ks", "polygon": box(160)}],
              "backs": [{"polygon": box(300)}]}
    drawn = draw_annotations(image, result, "en")

    def colour_on_edge(x, colour):
        edge = drawn[100:130, x - 1:x + 2].reshape(-1, 3)
        return bool((np.abs(edge.astype(int) - colour).sum(axis=1) < 30).any())

    assert colour_on_edge(20, (0, 220, 0)) and not colour_on_edge(20, (187, 61, 255))
    assert colour_on_edge(160, (187, 61, 255)) and not colour_on_edge(160, (0, 220, 0))
    # the not-sure label is longer than the sure one by "? Ks": it reaches further right
    def ink(x0, x1):                         # the label's columns above a box, from its left edge
        row = drawn[30:58, x0:x1].astype(int)
        return np.flatnonzero((np.abs(row - 60).sum(axis=2) > 60).any(axis=0))

    assert ink(160, 300).max() - ink(20, 150).max() > 20
    if drawtext.cjk_font_path() is not None:
        assert not np.array_equal(draw_annotations(image, result, "ja"), drawn)       # 裏向き
    monkeypatch.setattr(drawtext, "cjk_font_path", lambda: None)
    assert np.array_equal(draw_annotations(image, result, "ja"), drawn)


def test_the_detect_table_says_what_to_check_a_doubtful_card_against():
    from dealer_assist.commands.detect import _table

    res = {"image": "x.png", "width": 640, "height": 360, "ms": 30.0, "backs": [],
           "cards": [{"card": "Kc", "confidence": 0.87, "sure": False, "or": "Ks", "center": [100, 100]},
                     {"card": "Ah", "confidence": 0.97, "sure": True, "center": [300, 100]}]}
    en, ja = _table(res, "en").splitlines(), _table(res, "ja").splitlines()
    assert en[1].startswith("  Kc    0.87?") and en[1].endswith("check against Ks")
    assert ja[1].endswith("Ksと見比べてください")
    assert "check" not in en[2] and "見比べ" not in ja[2]


def test_missing_or_corrupt_model_is_a_clear_one_line_error(tmp_path, capsys):
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.zeros((72, 128, 3), np.uint8))
    assert main(["detect", "--lang", "en", "--models", str(tmp_path / "nowhere"), str(img)]) == 2
    assert "model folder not found" in capsys.readouterr().err
    models = tmp_path / "models"
    models.mkdir()
    (models / "cards-obb.onnx").write_bytes(b"\x00garbage" * 100)
    (models / "corner-cls.onnx").write_bytes(b"\x00garbage" * 100)
    assert main(["detect", "--lang", "en", "--models", str(models), str(img)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "cards-obb.onnx" in err and "cannot be loaded" in err


@needs_models
def test_a_corrupt_look_model_is_a_clear_one_line_error(tmp_path, capsys):
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), np.zeros((72, 128, 3), np.uint8))
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    (models / LOOK_FILE).write_bytes(b"\x00garbage" * 100)
    assert main(["detect", "--lang", "en", "--models", str(models), str(img)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and LOOK_FILE in err and "cannot be loaded" in err
    # without the file the detector still works, on its corners alone, and says what is off
    (models / LOOK_FILE).unlink()
    assert main(["detect", "--lang", "en", "--json", "--models", str(models), str(img)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["cards"] == []
    [warning] = out.err.strip().splitlines()
    assert warning.startswith("dealer-assist detect: warning: the optional model") and LOOK_FILE in warning
    assert "whole-card look is off" in warning and "jokers without one" in warning and "suit" in warning
    assert "--no-look" in warning
    # asked not to look, it has nothing to warn about
    assert main(["detect", "--json", "--no-look", "--models", str(models), str(img)]) == 0
    assert capsys.readouterr().err == ""


@needs_models
def test_run_warns_in_the_dealers_language_when_the_look_model_is_missing(tmp_path, capsys):
    models = tmp_path / "models"
    shutil.copytree(MODELS, models)
    (models / LOOK_FILE).unlink()
    clip = ROOT / "sample_frames" / "clip"
    if not (clip / "joker-nlh.mp4").is_file():
        pytest.skip("no sample clip")
    assert main(["run", "--headless", "--no-db", "--events", str(tmp_path / "ev.jsonl"), "--max-frames", "2",
                 "--models", str(models), "--lang", "ja"]) == 0
    err = capsys.readouterr().err
    assert "警告" in err and LOOK_FILE in err and "ジョーカー" in err and "--no-look" in err


# ---------------------------------------------------------------------------------------------
# deck enrollment with a joker style the model never saw
# ---------------------------------------------------------------------------------------------
def heldout_joker_style() -> str:
    from dealer_assist.vision.synth import JOKER_STYLES
    names = [n for n, s in JOKER_STYLES.items() if s.split == "test" and s.index is None]
    return names[0] if names else pytest.skip("no held-out joker style without an index")


def heldout_deck_style() -> str:
    from dealer_assist.vision.synth import DECK_STYLES
    names = [n for n, s in DECK_STYLES.items() if getattr(s, "split", "") == "test"]
    return names[0] if names else pytest.skip("no held-out deck style")


@needs_models
def test_enrolled_deck_names_its_joker_without_an_index(tmp_path, capsys):
    from dealer_assist.vision.synth.scene import render_cards

    joker, deck = heldout_joker_style(), heldout_deck_style()
    photos = []
    for i, (angle, width) in enumerate([(0, 150), (25, 130)]):
        img, _ = render_cards([{"card": "JK", "style": joker, "center": (0, 0), "angle": angle, "width": width}])
        p = tmp_path / f"JK-{i}.png"
        cv2.imwrite(str(p), img)
        photos.append(str(p))
    root = tmp_path / "decks"
    assert main(["enroll-deck", "house", *photos, "--root", str(root)]) == 0
    assert (root / "house" / "deck.json").is_file()
    info = json.loads((root / "house" / "deck.json").read_text())
    assert info["views"] == {"JK": 2}
    capsys.readouterr()
    # a table: the joker turned and smaller, beside ordinary cards of the held-out deck
    table, labels = render_cards([
        {"card": "JK", "style": joker, "center": (-200, 0), "angle": 160, "width": 110},
        {"card": "Kh", "style": deck, "center": (50, -20), "angle": -20, "width": 110},
        {"card": "7c", "style": deck, "center": (260, 40), "angle": 95, "width": 110},
    ], tilt_deg=15)
    frame = tmp_path / "table.png"
    cv2.imwrite(str(frame), table)
    det = CardDetector(MODELS, deck=str(root / "house"))
    res = det.detect_file(frame)
    joker_poly = labels["cards"][0]["polygon"]
    at_joker = [c["card"] for c in res["cards"] if inside(c["center"], joker_poly)]
    assert at_joker == ["JK"], res["cards"]
    # enrolling the joker does not turn other cards into jokers
    others = [c["card"] for c in res["cards"] if not inside(c["center"], joker_poly)]
    assert "JK" not in others


@needs_models
def test_an_enrolled_joker_does_not_take_an_ace_whose_index_reads(tmp_path):
    """A white card with a big central design correlates with a joker's whole-card template
    (0.8-0.9 for the held-out aces); the ace's index in its corner decides."""
    from dealer_assist.vision.enroll import enroll_deck
    from dealer_assist.vision.synth.scene import render_cards

    photos = []
    for style in ("harlequin-noindex", "sun-word"):      # the held-out joker styles
        for i, (angle, width, felt) in enumerate([(0, 150, (40, 110, 30)), (30, 120, (90, 40, 30))]):
            img, _ = render_cards([{"card": "JK", "style": style, "center": (0, 0), "angle": angle,
                                    "width": width}], background=felt)
            photos.append(tmp_path / f"JK-{style}-{i}.png")
            cv2.imwrite(str(photos[-1]), img)
    info = enroll_deck("house", photos, MODELS, root=tmp_path / "decks")
    # small, turned photos too (the detector scores one low and takes the other for a back)
    assert info["views"] == {"JK": 4} and not info["skipped"]
    # held-out test frames where, before the corner guard, the enrolled joker's template took an
    # ace (0.97 sure) from a corner that read its index (3,000,003: an ace read 0.7-0.9 surely)
    from dealer_assist.vision.geometry import polygon_iou
    from dealer_assist.vision.synth.scene import render_scene

    det = CardDetector(MODELS, deck="house", decks_root=tmp_path / "decks")
    checked = 0
    for seed in (3_000_003, 3_000_155, 3_000_163, 3_000_202):
        frame, label = render_scene(seed, "test")
        res = det.detect(frame)
        for lab in label["cards"]:
            if lab["card"][0] == "A" and any(lab["corners_visible"]):
                best = max(res["cards"], key=lambda c: polygon_iou(c["polygon"], lab["polygon"]))
                if polygon_iou(best["polygon"], lab["polygon"]) > 0.5:
                    checked += 1
                    assert best["card"] != "JK", (seed, lab["card"], best)
    assert checked >= 3


def test_enroll_unknown_photo_name_is_a_clear_error(tmp_path, capsys):
    if not (MODELS / "cards-obb.onnx").is_file():
        pytest.skip("no shipped model")
    p = tmp_path / "IMG_0001.png"
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = (40, 110, 40)
    cv2.rectangle(img, (600, 300), (700, 440), (250, 250, 250), -1)
    cv2.imwrite(str(p), img)
    code = main(["enroll-deck", "house", str(p), "--root", str(tmp_path / "decks")])
    err = capsys.readouterr().err
    assert code == 2
    assert "IMG_0001.png" in err


def test_deck_names_cannot_escape_the_decks_folder(tmp_path):
    from dealer_assist.errors import UserError
    from dealer_assist.vision.decks import load_deck

    with pytest.raises(UserError, match="letters, digits"):
        load_deck("../../etc", tmp_path)
    with pytest.raises(UserError, match="not enrolled"):
        load_deck("house", tmp_path)


@needs_models
def test_detect_search_is_on_by_default_and_no_search_names_fewer_cards(tmp_path, capsys):
    frames = sample_frames()
    if not frames:
        pytest.skip("no labelled sample_frames/")
    named = {}
    for flag in ([], ["--search"], ["--no-search"]):
        assert main(["detect", "--json", *flag, *map(str, frames)]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(rows) == len(frames)
        named[" ".join(flag)] = sum(c["card"] != "??" for r in rows for c in r["cards"])
    assert named[""] == named["--search"]
    assert named["--no-search"] <= named[""], named


@needs_models
def test_detect_no_rescue_leaves_the_fanned_card_unfound(tmp_path, capsys):
    """``--no-rescue`` (for ``detect``, ``run`` and ``desk``) turns the rescue of fanned cards off.
    The frame's cards are under 80 pixels wide, so the zoom looks again in tiles, and at that
    detail the fanned 4d is found without the rescue: ``--no-zoom`` shows the rescue alone."""
    from dealer_assist.vision.synth.scene import render_scene

    frame, _ = render_scene(1_000_257, "train")
    path = tmp_path / "fan.jpg"
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 100])
    names = {}
    for flag in (["--no-zoom"], ["--no-zoom", "--rescue"], ["--no-zoom", "--no-rescue"], ["--no-rescue"]):
        assert main(["detect", "--json", *flag, str(path)]) == 0
        names[" ".join(flag)] = [c["card"] for c in json.loads(capsys.readouterr().out)["cards"]]
    assert names["--no-zoom"] == names["--no-zoom --rescue"]
    assert "4d" in names["--no-zoom"] and "4d" not in names["--no-zoom --no-rescue"], names
    assert "4d" in names["--no-rescue"], names


# ---------------------------------------------------------------------------------------------
# the whole-card look: jokers without an index, and the suit the centre shows
# ---------------------------------------------------------------------------------------------
needs_look = pytest.mark.skipif(not (MODELS / LOOK_FILE).is_file(), reason="no shipped look model")


@needs_look
def test_generic_reading_names_a_held_out_joker_without_an_index(detector):
    """No deck enrolled: the harlequin joker (no corner index; an art no model trained on) is
    named JK by its look, the suited cards beside it keep their names."""
    from dealer_assist.vision.synth.scene import render_cards

    deck = heldout_deck_style()
    table, labels = render_cards([
        {"card": "JK", "style": heldout_joker_style(), "center": (-200, 0), "angle": 160, "width": 120},
        {"card": "Kh", "style": deck, "center": (50, -20), "angle": -20, "width": 120},
        {"card": "7c", "style": deck, "center": (260, 40), "angle": 95, "width": 120},
    ], tilt_deg=15)
    res = detector.detect(table)
    names = [[c["card"] for c in res["cards"] if inside(c["center"], lab["polygon"])] for lab in labels["cards"]]
    assert names == [["JK"], ["Kh"], ["7c"]], res["cards"]


@needs_look
def test_card_look_tells_jokers_from_suited_cards_and_reads_the_suit_of_unseen_decks():
    from dealer_assist.vision.geometry import order_card_polygon
    from dealer_assist.vision.look import FACE, JOKER, LookClassifier, kinds, look_patch, suits
    from dealer_assist.vision.synth.scene import render_cards

    look = LookClassifier(MODELS / LOOK_FILE)
    deck = heldout_deck_style()
    cases = [("JK", "harlequin-noindex"), ("JK", "sun-word"),
             ("7c", deck), ("9h", deck), ("5s", deck), ("8d", deck), ("Ts", deck), ("4c", deck)]
    right = total = 0
    for card, style in cases:
        for angle, width in ((0, 140), (100, 110), (215, 90)):
            img, lab = render_cards([{"card": card, "style": style, "center": (0, 0), "angle": angle,
                                      "width": width}], background=(40, 110, 30))
            p = look(look_patch(img, order_card_polygon(lab["cards"][0]["polygon"]))[None])
            k, s = kinds(p)[0], suits(p)[0]
            total += 1
            if card == "JK":
                right += bool(k.argmax() == JOKER)
            else:
                right += bool(k.argmax() == FACE and "cdhs"[s.argmax()] == card[1])
    # a regression guard below what the shipped look model scores here (models/MODEL_CARD.md)
    assert right / total >= 0.85, (right, total)


def _suit_row(style: str, suit: str, n: int = 13, angles=(0,)):
    """A photo of the first ``n`` cards of a suit, A 2 3 ... in two rows of 7 (reading order)."""
    from dealer_assist.vision.synth.scene import render_cards

    ranks = "A 2 3 4 5 6 7 8 9 T J Q K".split()[:n]
    return render_cards([{"card": r + suit, "style": style, "center": (-480 + (i % 7) * 160, -150 + (i // 7) * 260),
                          "angle": angles[i % len(angles)], "width": 110} for i, r in enumerate(ranks)])[0]


def _suit_row_photos(folder, style: str) -> list:
    """Four photos of a deck laid out suit by suit, A to K in two rows, named after the suit."""
    photos = []
    for word, suit in (("spades", "s"), ("hearts", "h"), ("diamonds", "d"), ("clubs", "c")):
        photos.append(folder / f"{word}.png")
        cv2.imwrite(str(photos[-1]), _suit_row(style, suit, angles=(-3, 2, 0, 4)))
    return photos


@needs_models
def test_a_whole_deck_enrolled_from_four_suit_photos_reads_its_tables_no_worse(tmp_path, capsys):
    """A dealer lays each suit out A to K and takes four photos. Enrolled whole, the deck must not
    rename the generic reader's right answers: whole-card templates of spot cards look alike, so
    they name jokers only (with them, a whole enrolled deck gave 11 wrong ranks on 150 test frames)."""
    from dealer_assist.vision.geometry import polygon_iou
    from dealer_assist.vision.synth.scene import render_scene

    style = "heldout-triplex"
    photos = _suit_row_photos(tmp_path, style)
    root = tmp_path / "decks"
    assert main(["enroll-deck", "triplex", *map(str, photos), "--root", str(root)]) == 0
    info = json.loads((root / "triplex" / "deck.json").read_text())
    assert len(info["views"]) == 52 and set(info["views"].values()) == {1}
    capsys.readouterr()
    # a suit photo that does not show 13 cards is skipped with the reason, the others still count
    img = _suit_row(style, "c", 12)
    short = tmp_path / "clubs-short.png"
    cv2.imwrite(str(short), img)
    assert main(["enroll-deck", "--lang", "en", "short", str(short), str(photos[0]), "--root", str(root)]) == 2
    assert "13 cards" in capsys.readouterr().err
    skipped = json.loads((root / "short" / "deck.json").read_text())["skipped"]
    assert [s["image"] for s in skipped] == [str(short)]
    assert "13 cards" in skipped[0]["reason"] and "13枚" in skipped[0]["reason_ja"]
    assert main(["enroll-deck", "short", str(short), str(photos[0]), "--root", str(root)]) == 2
    assert "13枚" in capsys.readouterr().err
    # held-out test frames of that deck: the enrolled deck names at least as many cards right
    generic, enrolled = CardDetector(MODELS), CardDetector(MODELS, deck="triplex", decks_root=root)
    right = {"generic": 0, "enrolled": 0}
    wrong = {"generic": 0, "enrolled": 0}
    frames = 0
    for seed in range(3_000_150, 3_000_300):
        frame, label = render_scene(seed, "test")
        if label["meta"]["deck_style"] != style:
            continue
        frames += 1
        for name, det in (("generic", generic), ("enrolled", enrolled)):
            res = det.detect(frame)
            for lab in label["cards"]:
                if not any(lab["corners_visible"]) or not res["cards"]:
                    continue
                best = max(res["cards"], key=lambda c: polygon_iou(c["polygon"], lab["polygon"]))
                if polygon_iou(best["polygon"], lab["polygon"]) > 0.5 and best["card"] != "??":
                    right[name] += best["card"] == lab["card"]
                    wrong[name] += best["card"] != lab["card"]
        if frames == 12:
            break
    assert frames == 12
    assert right["enrolled"] >= right["generic"] and wrong["enrolled"] <= wrong["generic"], (right, wrong)


def _french_deck(folder: Path) -> Path:
    """A deck whose kings, queens and jacks carry the French R, D and V (and aces 1), drawn here
    with OpenCV as an image deck (``vision.synth.faces.IMAGE_DECK``): one picture a card, the
    index and a suit sign in two corners, a frame in the middle."""
    from dealer_assist.vision.synth.faces import CANON_H, CANON_W, DEFAULT_INDEX_BOX, IMAGE_DECK_INFO

    def sign(img, cx, cy, r, suit, colour):
        blob = lambda x, y, rr: cv2.circle(img, (int(x), int(y)), int(rr), colour, -1)    # noqa: E731
        if suit == "d":
            cv2.fillPoly(img, [np.int32([[cx, cy - r], [cx + 0.7 * r, cy], [cx, cy + r], [cx - 0.7 * r, cy]])], colour)
            return
        if suit == "h":
            blob(cx - r / 2, cy - r / 3, r / 2), blob(cx + r / 2, cy - r / 3, r / 2)
            cv2.fillPoly(img, [np.int32([[cx - r, cy - r / 5], [cx + r, cy - r / 5], [cx, cy + r]])], colour)
            return
        if suit == "s":
            blob(cx - r / 2, cy + r / 5, r / 2), blob(cx + r / 2, cy + r / 5, r / 2)
            cv2.fillPoly(img, [np.int32([[cx - r, cy + r / 4], [cx + r, cy + r / 4], [cx, cy - r]])], colour)
        else:
            blob(cx, cy - r / 2, r / 2.2), blob(cx - r / 2, cy + r / 6, r / 2.2), blob(cx + r / 2, cy + r / 6, r / 2.2)
        cv2.fillPoly(img, [np.int32([[cx, cy], [cx + r / 3, cy + r], [cx - r / 3, cy + r]])], colour)

    folder.mkdir(parents=True, exist_ok=True)
    for name in [r + s for r in "23456789TJQKA" for s in "cdhs"] + ["JK", "BACK"]:
        img = np.full((CANON_H, CANON_W, 3), 255, np.uint8)
        if name == "BACK":
            img[10:-10, 10:-10] = (110, 40, 20)
        elif name == "JK":
            cv2.circle(img, (CANON_W // 2, CANON_H // 2), 60, (160, 0, 160), -1)
        else:
            colour = (0, 0, 200) if name[1] in "dh" else (0, 0, 0)
            text = {"K": "R", "Q": "D", "J": "V", "A": "1", "T": "10"}.get(name[0], name[0])
            corner = np.full_like(img, 255)
            scale = 1.3 if len(text) == 1 else 1.0
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
            cv2.putText(corner, text, (int(26 - tw / 2), 14 + th), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 3, cv2.LINE_AA)
            sign(corner, 26, 30 + th, 10, name[1], colour)
            img = np.minimum(np.minimum(img, corner), corner[::-1, ::-1])
            cv2.rectangle(img, (70, 95), (150, 212), colour, 3)
        cv2.imwrite(str(folder / f"{name}.png"), img)
    (folder / IMAGE_DECK_INFO).write_text(json.dumps({"index_box": list(DEFAULT_INDEX_BOX), "joker_index": False,
                                                      "joker": True, "back": True}), encoding="utf-8")
    return folder


@needs_models
def test_a_deck_enrolled_whole_names_courts_by_its_own_index_letters(tmp_path):
    """French courts (R, D, V) are letters the corner classifier never learned: alone it reads
    them as other ranks. Enrolled whole from four suit photos, the deck's own corners name the
    cards whose letters the enrollment saw misread, and none of them is sure: the dealer
    confirms what only the deck says."""
    from dealer_assist.vision.synth.faces import IMAGE_DECK
    from dealer_assist.vision.synth.scene import render_cards

    style = IMAGE_DECK + str(_french_deck(tmp_path / "french").resolve())
    root = tmp_path / "decks"
    assert main(["enroll-deck", "french", *map(str, _suit_row_photos(tmp_path, style)), "--root", str(root)]) == 0
    # the enrollment's check records what the corners read, a number read on a face showing no
    # count included (the table leaves that unnamed): those misreadings are what the deck's own
    # corners then name (a queen's D read as a 6 here)
    check = json.loads((root / "french" / "deck.json").read_text())["check"]
    assert not [c for c in check["unreadable"] if c[0] in "456789T"], check["unreadable"]
    assert any(w["card"][0] in "QK" and w["read"][0] in "456789T" for w in check["wrong"]), check["wrong"]
    want = ["Qs", "Jh", "Kc", "7h"]
    frame, _ = render_cards([{"card": c, "style": style, "center": (-360 + 240 * i, 0), "angle": 6.0 * (i % 3) - 6,
                              "width": 120} for i, c in enumerate(want)], background=(40, 110, 30))
    read = {}
    for name, det in (("alone", CardDetector(MODELS)), ("deck", CardDetector(MODELS, deck="french", decks_root=root))):
        cards = sorted(det.detect(frame)["cards"], key=lambda c: c["center"][0])
        read[name] = [(c["card"], c["sure"]) for c in cards]
    assert [c for c, _ in read["alone"][:3]] != want[:3], read
    # with the deck each court is its own name or left unnamed, never another card's name, and
    # some are named: which ones rests on how close the deck's one photo of each corner is
    # (OpenCV 5.0 draws this deck so that all three are named, 5.1 so that the jack is, the
    # queen's and the king's corners falling under Deck.own_corner's margin)
    assert all(c in (w, "??") for (c, _), w in zip(read["deck"][:3], want[:3])), read
    assert sum(c == w for (c, _), w in zip(read["deck"][:3], want[:3])) >= 1, read
    assert not any(sure for c, sure in read["deck"][:3]), read
    # the 7h's face, like every card's of this deck, shows a frame and no pips: a seven whose face
    # shows no count is left for the dealer to name, with the deck or without (numbers_on_pictures)
    assert read["alone"][3][0] == read["deck"][3][0] == "??", read


@needs_models
def test_enrolling_says_how_the_reader_alone_reads_the_photos_and_warns_of_a_sure_wrong_name(tmp_path, capsys):
    """The floor learns, before the first hand, whether the reader reads tonight's deck: the
    enrollment photos are read without the deck too, and each card read as another is named,
    with a warning where the reader was sure of it (a deck it misreads, or a photo named after
    the wrong card, as here: the king of hearts photographed as "Qh")."""
    from dealer_assist.vision.synth.scene import render_cards

    style = "heldout-triplex"
    photos = _suit_row_photos(tmp_path, style)[:2]          # spades and hearts
    img, _ = render_cards([{"card": "Kh", "style": style, "center": (0, 0), "angle": 0, "width": 150}])
    wrong = tmp_path / "Qh.png"
    cv2.imwrite(str(wrong), img)
    root = tmp_path / "decks"
    assert main(["enroll-deck", "--lang", "en", "house", *map(str, photos), str(wrong), "--root", str(root)]) == 0
    out, err = capsys.readouterr()
    check = json.loads((root / "house" / "deck.json").read_text())["check"]
    assert check["cards"] == 27 and check["right"] >= 24
    assert {"card": "Qh", "read": "Kh", "sure": True} in check["wrong"]
    assert f"{check['right']} of 27 cards right" in out and "Qh as Kh (sure)" in out
    assert "warning: in these close photos the reader alone is sure of 1 name that is not" in err and "check that photo's name" in err
    assert json.loads(out.strip().splitlines()[-1])["read_wrong_sure"] >= 1
    assert main(["enroll-deck", "house", str(wrong), "--root", str(root)]) == 0
    out, err = capsys.readouterr()
    assert "QhをKhと読み違え（確定）" in out and "警告" in err


@needs_models
def test_what_the_enrollment_saw_misread_is_never_sure_with_the_deck(tmp_path, capsys):
    """Where the enrollment photos show the reader misreading the deck (here the king of hearts,
    filed as "Qh", read "Kh"), the name it gave is never shown sure at the table with that deck,
    and the dealer is told the card it may be; the same rank in the other suits too, since the
    index's glyph is the deck's in every suit, and every court, whose rank rests on its index
    alone. Other cards read as surely as without the deck.
    Photos added later (--append) keep the doubt."""
    from dealer_assist.vision.synth.scene import render_cards

    style = "heldout-triplex"

    def photo(card: str, path: Path, angle: float = 0.0) -> Path:
        img, _ = render_cards([{"card": card, "style": style, "center": (0, 0), "angle": angle, "width": 150}])
        cv2.imwrite(str(path), img)
        return path

    wrong = photo("Kh", tmp_path / "Qh.png")
    root = tmp_path / "decks"
    assert main(["enroll-deck", "--lang", "en", "house", str(wrong), "--root", str(root)]) == 0
    out, _err = capsys.readouterr()
    # a king read on a queen: the kings are in doubt, and every court, whose rank rests on its index alone
    assert "with this deck the reader never shows these 12 names as sure" in out, out
    assert "Jc, Jd, Jh, Js, Qc, Qd, Qh, Qs, Kc, Kd, Kh, Ks" in out, out
    assert json.loads(out.strip().splitlines()[-1])["never_sure"] == 12
    # the same photos and two more cards at the table, read without the deck and with it
    (tmp_path / "table").mkdir()
    views = {"Kh": wrong, "Ks": photo("Ks", tmp_path / "table" / "Ks.png", 7.0),
             "7d": photo("7d", tmp_path / "table" / "7d.png", -5.0)}
    alone, deck = CardDetector(MODELS), CardDetector(MODELS, deck="house", decks_root=root)
    for card, path in views.items():
        image = read_image(path)
        a, d = alone.detect(image)["cards"], deck.detect(image)["cards"]
        assert [c["card"] for c in a] == [card] == [c["card"] for c in d], (card, a, d)
        if card[0] == "K":
            assert a[0]["sure"], a                   # the reader alone is sure of it: wrongly, it believes
            assert not d[0]["sure"] and d[0]["or"] == "Q" + card[1], d
        else:
            assert d[0]["sure"] == a[0]["sure"] and d[0].get("or") == a[0].get("or"), (a, d)
    # a photo of a card it reads right, added to the deck: the doubt stays
    assert main(["enroll-deck", "house", str(views["7d"]), "--append", "--root", str(root)]) == 0
    capsys.readouterr()
    again = CardDetector(MODELS, deck="house", decks_root=root).detect(read_image(wrong))["cards"]
    assert not again[0]["sure"] and again[0]["or"] == "Qh", again
    check = json.loads((root / "house" / "deck.json").read_text())["check"]
    assert check["cards"] == 2 and check["wrong"] == [{"card": "Qh", "read": "Kh", "sure": True}], check
    # the live table with the deck says so once at the start, in the dealer's language
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(SAMPLES / "test_000000.jpg", frames / "000.jpg")
    assert main(["run", "--source", str(frames), "--calibration", str(SAMPLES / "clip" / "table.yaml"), "--no-db",
                 "--deck", str(root / "house")]) == 0
    _out, err = capsys.readouterr()
    assert "デッキ「house」: 次の12個のカード名は" in err and "Kh, Ks" in err, err


def _blurred_view(card: str, width: float, angle: float, style: str = "heldout-stroke-square"):
    """One card of a held-out deck on felt, 20 degrees from overhead, blurred and JPEG'd as a
    table camera would see a small card."""
    from dealer_assist.vision.synth.scene import render_cards

    img, lab = render_cards([{"card": card, "style": style, "center": (0, 0), "angle": angle, "width": width}],
                            tilt_deg=20)
    ok, buf = cv2.imencode(".jpg", cv2.GaussianBlur(img, (0, 0), 1.0), [cv2.IMWRITE_JPEG_QUALITY, 60])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), lab["cards"][0]["polygon"]


@needs_models
def test_one_correction_teaches_the_reader_a_card_it_keeps_misreading():
    """The held-out deck's small 2 of spades reads as the 2 of clubs. The dealer corrects it once;
    from then on its other views read 2s, and the deck's real 2 of clubs still reads 2c."""
    det = CardDetector(MODELS)
    views = [(w, a) for w in (70, 80, 90) for a in (0, 30, 120)]

    def reads(card):
        return [det.detect(_blurred_view(card, w, a)[0])["cards"][0]["card"] for w, a in views]

    before = reads("2s")
    assert before.count("2c") >= 2, before          # the misread the test is about
    image, polygon = _blurred_view("2s", 70, 0)
    assert det.detect(image)["cards"][0]["card"] == "2c"
    assert det.learn(image, polygon, "2s") == 2        # both corners show their index
    assert reads("2s") == ["2s"] * len(views)
    assert reads("2c") == ["2c"] * len(views)
    assert det.deck is not None and det.deck.info.get("session")    # in memory, nothing written


@needs_models
def test_what_a_deck_teaches_names_a_card_but_never_makes_it_surer_than_the_reader_alone():
    """The ``sure`` thresholds were measured on the reader without an enrolled deck; a deck's
    corners (here one the dealer taught by a correction) sharpen the posterior by an amount no
    validation set measured. So a name read with the deck is sure only as far as the same name
    read without it: the corrected 2 of spades now reads 2s, and where the reader alone reads it
    2c, the 2s is not shown as sure; where the two agree, the deck takes no sureness away."""
    det, alone = CardDetector(MODELS), CardDetector(MODELS)
    views = [(w, a) for w in (70, 80, 90) for a in (0, 30, 120)]
    image, polygon = _blurred_view("2s", 70, 0)
    assert det.learn(image, polygon, "2s") == 2
    doubted = 0
    for w, a in views:
        img = _blurred_view("2s", w, a)[0]
        got, before = det.detect(img, sureness=True)["cards"][0], alone.detect(img, sureness=True)["cards"][0]
        assert got["card"] == "2s"
        if before["card"] != "2s":
            doubted += 1
            assert not got["sure"], (w, a, got, before)
        else:
            assert got["sureness"] <= before["sureness"] + 1e-9 and got["sure"] == before["sure"], (w, a, got, before)
    assert doubted >= 2
    # the 2 of clubs, which the reader alone names surely, keeps its sure flag
    for w, a in views[:3]:
        img = _blurred_view("2c", w, a)[0]
        got, before = det.detect(img, sureness=True)["cards"][0], alone.detect(img, sureness=True)["cards"][0]
        assert got["card"] == before["card"] == "2c" and got["sure"] == before["sure"]


@needs_models
def test_the_rescue_of_fanned_cards_only_adds_cards_the_frame_shows(detector):
    """In a fanned hand the lower cards show one corner each; the rescue reads the boxes the
    detector set aside and keeps one whose corner surely shows a card no other box names
    (the rule itself: tests/test_reader_steps.py). On fanned validation frames of the train
    styles, where the detectors before G1 missed these cards without it, the rescue only adds:
    every card named without it keeps its name and place, each card it adds lies on a labelled
    card of that name, and the fanned cards are found."""
    from dealer_assist.vision.detector import DetectorSettings
    from dealer_assist.vision.synth.scene import render_scene

    assert detector.settings.rescue_conf > 0          # on by default
    without = CardDetector(MODELS, settings=DetectorSettings(rescue_conf=0.0))
    for seed, card in ((1_000_184, "Jd"), (1_000_257, "4d"), (1_000_371, "4h"), (1_000_517, "Jd")):
        frame, label = render_scene(seed, "train")
        lab = next(c for c in label["cards"] if c["card"] == card)
        before, after = without.detect(frame), detector.detect(frame)
        assert card in names_on(after, lab), seed
        names_before = {(c["card"], tuple(c["center"])) for c in before["cards"]}
        names_after = {(c["card"], tuple(c["center"])) for c in after["cards"]}
        assert names_before <= names_after, seed
        for name, centre in names_after - names_before:
            assert any(c["card"] == name and cv2.pointPolygonTest(np.asarray(c["polygon"], np.float32), centre, False) >= 0
                       for c in label["cards"]), (seed, name)


@needs_models
def test_frames_of_a_far_camera_are_read_with_the_card_size_its_calibration_gives(tmp_path, capsys):
    """A frame of the sample clip's table seen from a camera mounted higher (0.5 px a mm: a card
    about 30 px wide at 1280x720) shows the detector no card as a whole frame; ``--calibration``
    tells the reader how big a card looks in that camera's frames, as ``run`` does, and the board
    is read. Without the calibration the user is told to give it (in Japanese unless told
    otherwise). An image of another size than the calibration's frames is refused by name."""
    import yaml

    from dealer_assist.vision.synth.clip import ClipRenderer, calibration_dict, parse_scenario

    scenario = yaml.safe_load((SAMPLES / "clip" / "scenario.yaml").read_text(encoding="utf-8"))
    scenario["camera"]["px_per_mm"] = 0.5
    sc = parse_scenario(scenario)
    image, labels = ClipRenderer(sc).render(70)              # hand 1: the whole board out
    frame, table = tmp_path / "far.jpg", tmp_path / "far.yaml"
    assert cv2.imwrite(str(frame), image)
    table.write_text(yaml.safe_dump(json.loads(json.dumps(calibration_dict(sc)))), encoding="utf-8")
    board = sorted(c["card"] for c in labels["cards"] if c["zone"].startswith("board"))
    assert len(board) == 5

    def read(*extra, image=frame):
        code = main(["detect", "--json", *extra, str(image)])
        got = capsys.readouterr()
        read.err = got.err
        return code, [json.loads(line) for line in got.out.strip().splitlines()]

    code, (plain,) = read()
    assert code == 0 and plain["cards"] == []
    assert "カードが見つかりません" in read.err and "--calibration FILE" in read.err and str(frame) in read.err
    code, (told,) = read("--calibration", str(table))
    assert code == 0 and set(board) <= {c["card"] for c in told["cards"]} and read.err == ""
    small = tmp_path / "small.jpg"
    assert cv2.imwrite(str(small), cv2.resize(image, (640, 360)))
    code, (refused,) = read("--calibration", str(table), image=small)
    assert code == 2 and "is for 1280x720 frames, this image is 640x360" in refused["error"]
