"""The real-photo yardstick (benchmarks/eval_real.py): its matching and counting on a synthetic
photo with known right, wrong and missed cards, and the script end to end on three real photos
when the folder is at hand."""
from __future__ import annotations

import doctest
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load():
    spec = importlib.util.spec_from_file_location("eval_real", ROOT / "benchmarks" / "eval_real.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


E = load()
import labelled_photos as L  # noqa: E402  (benchmarks/, where the yardstick reads the folders' labels)
import camera_conditions as C  # noqa: E402  (benchmarks/, a camera's conditions over the photos)


def run_eval(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """``benchmarks/eval_real.py ARGS`` as a user runs it, from the project root."""
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "eval_real.py"), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def rect(x0, y0, x1, y1):
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def card(name, conf, x0, x1, y0=0, y1=140, **extra):
    return {"card": name, "confidence": conf, "polygon": rect(x0, y0, x1, y1), **extra}


LABELS = [{"rank": r, "box": [x0, 0, x1, 140]} for r, x0, x1 in (
    ("K", 0, 100),        # read right, sure
    ("Q", 200, 300),      # read as J (a wrong name on a labelled card), sure
    ("9", 400, 500),      # read ??
    ("A", 600, 700),      # nothing on it
    ("T", 800, 900),      # only a back box on it
    ("J", 1000, 1040),    # the part in view of a covered card; the detection outlines it whole
    ("K", 2000, 2100),    # read as 8 (a low name on a labelled card: scored, wrong)
)]
RESULT = {
    "cards": [
        card("Kh", 0.95, 2, 98),
        card("Jc", 0.92, 205, 300),
        card("??", 0.10, 400, 498),
        card("Js", 0.70, 940, 1040),          # IoU 0.4 with the J strip, the strip wholly inside
        card("5d", 0.80, 1200, 1300),         # on no label: perhaps an unlabelled 5, not scored
        card("Ac", 0.60, 1400, 1500),         # a 9-A name on no label: wrong
        card("JK", 0.50, 1600, 1700),         # no joker lies anywhere: wrong
        card("??", 0.20, 1800, 1900),         # ?? on no label
        card("8h", 0.85, 2000, 2100),
    ],
    "backs": [{"polygon": rect(800, 0, 900, 140)}, {"polygon": rect(2200, 0, 2300, 140)}],
}


def test_counts_of_a_synthetic_photo():
    s = E.score_photo(RESULT, LABELS)
    c = s["counts"]
    assert c["labels"] == 7 and c["rank_right"] == 2 and c["found"] == 5
    assert c["named"] == 6 and c["named_right"] == 2
    assert c["named_on_label"] == 2 and c["named_on_nothing"] == 2
    assert c["jokers"] == 1 and c["low_unlabelled"] == 1
    assert c["unknown"] == 2 and c["unknown_on_label"] == 1 and c["unknown_on_no_label"] == 1
    assert c["backs"] == 2 and c["taken_for_back"] == 1 and c["photos_all_right"] == 0
    assert s["reads"] == [("K", "K"), ("Q", "J"), ("9", "??"), ("A", "-"), ("T", "back"), ("J", "J"), ("K", "8")]
    assert s["right_sure"] == [True, False] and s["wrong_sure"] == [True, False, False, False]


def test_aggregate_over_photos():
    clean = E.score_photo({"cards": [card("9s", 0.99, 0, 100)], "backs": []}, [{"rank": "9", "box": [0, 0, 100, 140]}])
    assert clean["counts"]["photos_all_right"] == 1
    r = E.aggregate([E.score_photo(RESULT, LABELS), clean])
    assert r["photos"] == 2 and r["labelled_cards"] == 8
    assert r["rank_recall"] == round(3 / 8, 4) and r["rank_precision"] == round(3 / 7, 4)
    assert r["backs_per_photo"] == 1.0 and r["jokers_per_photo"] == 0.5 and r["photos_all_right"] == 0.5
    assert r["right_not_sure"] == round(1 / 3, 4) and r["wrong_sure"] == 0.25
    assert r["confusion"]["K"] == {"K": 1, "8": 1} and r["confusion"]["A"] == {"-": 1}
    assert r["wrong_names"] == {"J on Q": 1, "8 on K": 1, "A on nothing": 1, "JK on nothing": 1}
    assert sum(v["cards"] for v in r["by_size"].values()) == 8


def test_strict_matching_leaves_the_covered_card_unmatched():
    c = E.score_photo(RESULT, LABELS, nested=None)["counts"]
    assert c["rank_right"] == 1 and c["named_on_nothing"] == 3


def test_one_detection_is_matched_to_one_label_only():
    labels = [{"rank": "K", "box": [0, 0, 100, 140]}]
    two = {"cards": [card("Kh", 0.9, 0, 100), card("Kd", 0.5, 3, 100)], "backs": []}
    c = E.score_photo(two, labels)["counts"]
    assert c["rank_right"] == 1 and c["named"] == 2 and c["named_right"] == 1 and c["named_on_nothing"] == 1


def test_the_sure_flag_replaces_the_confidence_proxy():
    labels = [{"rank": "A", "box": [0, 0, 100, 140]}]
    flagged = {"cards": [card("As", 0.99, 0, 100, sure=False)], "backs": []}
    assert E.score_photo(flagged, labels)["right_sure"] == [False]
    assert E.sure_source(flagged["cards"]) == "flag"
    assert E.sure_source([card("As", 0.99, 0, 100)]).startswith("proxy")


def test_voc_labels_are_read(tmp_path):
    (tmp_path / "a.xml").write_text(
        "<annotation><object><name>ten</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>30</xmax>"
        "<ymax>40</ymax></bndbox></object></annotation>")
    assert E.read_labels(tmp_path / "a.xml") == [{"rank": "T", "box": [1.0, 2.0, 30.0, 40.0]}]


def test_doctests_pass():
    for module in (E, L, C):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_end_to_end_on_three_real_photos(tmp_path):
    out = tmp_path / "real.json"
    run = run_eval("--limit", "3", "--json", str(out))
    assert run.returncode == 0, run.stderr
    assert "rank_recall" in run.stdout and "confusion" in run.stdout
    r = json.loads(out.read_text())
    assert r["photos"] == 3 and r["labelled_cards"] >= 3
    assert 0.0 <= r["rank_recall"] <= 1.0 and len(r["per_photo"]) == 3
    # the folder's suits, read by eye, are found and the whole names scored beside the ranks
    assert "whole name (rank and suit" in run.stdout
    assert r["suits_labelled"] >= 3 and 0.0 <= r["card_recall"] <= r["rank_recall"]
    assert r["suits_file"].endswith("edje-train.json")


def test_a_wide_view_keeps_the_photo_and_its_labels_and_draws_no_second_card():
    """--wide: the photo shrunk into the middle of a bigger frame, its labels moved with it; the
    surface around it goes on (mirrored, fading into its median colour), and the labelled card's
    mirror images are painted over, so the frame shows exactly one white card."""
    import numpy as np

    photo = np.full((400, 300, 3), (60, 90, 120), np.uint8)
    photo[100:240, 50:150] = 250                      # a card at the photo's left edge region
    labels = [{"rank": "K", "box": [50, 100, 150, 240]}]
    out, moved = E.wide_view(photo, labels, (1080, 1920), 0.5)
    assert out.shape == (1080, 1920, 3)
    x0, y0, x1, y1 = (int(v) for v in moved[0]["box"])
    assert (x1 - x0, y1 - y0) == (50, 70)
    white = (out > 200).all(axis=2)
    assert white[y0 + 5:y1 - 5, x0 + 5:x1 - 5].all()
    assert white.sum() <= (x1 - x0 + 2) * (y1 - y0 + 2)
    edge = out[540, 1919].astype(int)                 # far from the photo: its median colour
    assert np.abs(edge - np.array([60, 90, 120])).max() <= 8


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_end_to_end_in_a_wide_view(tmp_path):
    out = tmp_path / "wide.json"
    run = run_eval("--limit", "2", "--wide", "1920x1080", "--shrink", "0.8", "--json", str(out))
    assert run.returncode == 0, run.stderr
    assert "1920x1080 view" in run.stdout
    r = json.loads(out.read_text())
    assert r["view"] == {"wide": [1080, 1920], "shrink": 0.8, "zoom": True, "told": False, "camera": []}
    assert r["photo_sizes"] == {"1920x1080": 2}
    # every wrong name shown sure is named with its photo (here: none, or a list)
    assert "wrong names shown sure: " in run.stdout and isinstance(r["wrong_sure_where"], list)
    # a far camera's view read as its calibration would tell the reader: the cards' size and the
    # part of the frame they lie in
    told = tmp_path / "told.json"
    run = run_eval("--limit", "2", "--wide", "1920x1080", "--shrink", "0.4", "--told", "--json", str(told))
    assert run.returncode == 0, run.stderr
    assert "told the card size and the part of the frame" in run.stdout
    r = json.loads(told.read_text())
    assert r["view"]["told"] is True and r["found"] > 0
    bad = run_eval("--wide", "big", timeout=120)
    assert bad.returncode == 2 and "WxH" in bad.stderr and "Traceback" not in bad.stderr
    bad = run_eval("--wide", "1920x1080", "--shrink", "0", timeout=120)
    assert bad.returncode == 2 and "--shrink" in bad.stderr and "Traceback" not in bad.stderr


def test_a_camera_condition_changes_the_photo_as_that_camera_would_and_the_same_on_every_run():
    import numpy as np

    photo = np.full((200, 150, 3), 220, np.uint8)
    photo[60:140, 40:110] = 30                        # a dark print with sharp edges
    sharp_step = np.abs(np.diff(photo[100, :, 0].astype(int))).max()
    for name in ("motion", "defocus"):
        out = C.apply(photo, [C.parse_condition(name + ":0.1")], card_long=100.0, seed=7)
        assert out.shape == photo.shape and out.dtype == np.uint8
        # a blur spreads the step over pixels: no neighbour jumps as far as before
        assert np.abs(np.diff(out[100, :, 0].astype(int))).max() < sharp_step
    dim = C.apply(photo, [C.parse_condition("dim:0.5")], 100.0, 7)
    assert int(dim[0, 0, 0]) == 110
    warm = C.apply(photo, [C.parse_condition("warm")], 100.0, 7)[0, 0]
    assert warm[2] > warm[1] > warm[0]                # BGR: red up, blue down
    noisy = [C.apply(photo, [C.parse_condition("noise")], 100.0, seed) for seed in (7, 7, 8)]
    assert np.array_equal(noisy[0], noisy[1]) and not np.array_equal(noisy[0], noisy[2])
    assert not np.array_equal(C.apply(photo, [C.parse_condition("jpeg:5")], 100.0, 7), photo)
    # several at once, applied as a camera does: the lens before the light, the stream last
    both = C.apply(photo, [C.parse_condition("jpeg:50"), C.parse_condition("dim:0.5")], 100.0, 7)
    assert abs(int(both[0, 0, 0]) - 110) <= 3
    for bad in ("fog", "dim:0", "dim:x", "jpeg:101", "motion:nan"):
        with pytest.raises(ValueError):
            C.parse_condition(bad)


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_real_photos_read_under_a_camera_condition(tmp_path):
    """--camera: the same real photos read as an out-of-focus camera would give them; the reader
    loses cards there, and the figures say which conditions they were read under."""
    plain, blurred = tmp_path / "plain.json", tmp_path / "defocus.json"
    assert run_eval("--limit", "3", "--json", str(plain)).returncode == 0
    run = run_eval("--limit", "3", "--camera", "defocus:0.05", "--json", str(blurred))
    assert run.returncode == 0, run.stderr
    assert "under the camera conditions defocus:0.05" in run.stdout
    p, b = json.loads(plain.read_text()), json.loads(blurred.read_text())
    assert b["view"]["camera"] == [{"name": "defocus", "amount": 0.05}] and p["view"]["camera"] == []
    assert p["rank_recall"] > 0.5 and b["rank_recall"] < p["rank_recall"]
    helped = run_eval("--help", timeout=120)
    assert helped.returncode == 0 and "--camera" in helped.stdout and "defocus" in helped.stdout
    bad = run_eval("--camera", "fog", timeout=120)
    assert bad.returncode == 2 and "unknown camera condition 'fog'" in bad.stderr and "Traceback" not in bad.stderr


def test_a_right_rank_of_the_wrong_suit_is_a_wrong_card_where_suits_are_labelled():
    """With the suits read by eye (benchmarks/real_suits/), the whole name is scored too: a right
    rank of the wrong suit is a wrong card (and counted as sure when shown sure), a card whose
    suit the photo does not show is left out of the whole-name figures, and the rank figures
    stay as they were."""
    labels = E.with_suits([{"rank": "K", "box": [0, 0, 100, 140]}, {"rank": "Q", "box": [200, 0, 300, 140]},
                           {"rank": "9", "box": [400, 0, 500, 140]}, {"rank": "A", "box": [600, 0, 700, 140]}],
                          "hsc?")
    result = {"cards": [card("Kh", 0.95, 0, 100, sure=True), card("Qc", 0.96, 200, 300, sure=True),
                        card("9c", 0.70, 400, 500, sure=False), card("Ad", 0.99, 600, 700, sure=True),
                        card("JK", 0.40, 900, 1000, sure=False)], "backs": []}
    s = E.score_photo(result, labels)
    c = s["counts"]
    assert c["rank_right"] == 4 and c["named_right"] == 4 and c["named"] == 5
    assert c["suit_labelled"] == 3 and c["card_right"] == 2
    assert c["card_named"] == 4 and c["card_named_right"] == 2     # Qc on Qs and JK wrong; Ad left out
    assert s["suit_wrong"] == [{"name": "Qc", "on": "Qs", "confidence": 0.96, "sure": True}]
    assert s["wrong"] == [{"name": "JK", "confidence": 0.40, "sure": False, "on": "nothing"}]
    assert s["suits"] == [("h", "h"), ("s", "c"), ("c", "c")]
    assert c["photos_all_right"] == 0 and c["photos_all_right_card"] == 0
    r = E.aggregate([s])
    assert r["card_recall"] == round(2 / 3, 4) and r["card_precision"] == 0.5
    assert r["suit_wrong"] == 1 and r["suit_wrong_sure"] == 1 and r["card_wrong_sure_n"] == 1
    assert r["suit_wrong_names"] == {"Qc on Qs (sure)": 1} and r["suit_confusion"]["s"] == {"c": 1}
    assert r["rank_recall"] == 1.0                                  # the rank figures as before
    plain = E.aggregate([E.score_photo(result, [{k: v for k, v in lab.items() if k != "suit"} for lab in labels])])
    assert "card_recall" not in plain and plain["rank_recall"] == 1.0


def test_a_bad_suits_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "s.json"
    for text in ("{", '{"photos": ["h"]}', '{"photos": {"IMG_1": "hx"}}'):
        bad.write_text(text)
        with pytest.raises(ValueError, match="s.json"):
            E.read_suits(bad)
    with pytest.raises(ValueError, match="2 suits for 1 labelled"):
        E.with_suits([{"rank": "K", "box": [0, 0, 1, 1]}], "hs", "IMG_1")
    (tmp_path / "IMG_1.xml").write_text(
        "<annotation><object><name>ten</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>30</xmax>"
        "<ymax>40</ymax></bndbox></object></annotation>")
    import cv2
    import numpy as np
    cv2.imwrite(str(tmp_path / "IMG_1.jpg"), np.full((60, 40, 3), 200, np.uint8))
    bad.write_text('{"photos": {"IMG_1": "hs"}}')
    run = run_eval("--dir", str(tmp_path), "--suits", str(bad))
    assert run.returncode == 2 and "2 suits for 1 labelled" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_the_shipped_suits_name_one_suit_for_every_labelled_real_card():
    suits = E.read_suits(E.SUITS_DIR / f"{E.DEFAULT_DIR.name}.json")
    pairs = E.photos(E.DEFAULT_DIR)
    assert {img.stem for img, _ in pairs} == set(suits)
    for img, xml in pairs:
        assert len(E.read_labels(xml)) == len(suits[img.stem]), img.name
    letters = "".join(suits.values())
    assert letters.count("?") <= 2 and all(letters.count(s) > 100 for s in E.SUIT_LETTERS)


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_ranks_only_on_request_and_the_sheets_to_check_the_suits(tmp_path):
    """(The whole names are checked end to end in test_end_to_end_on_three_real_photos.)"""
    plain = run_eval("--limit", "1", "--suits", "none")
    assert plain.returncode == 0 and "whole name" not in plain.stdout
    few = tmp_path / "few"
    few.mkdir()
    for img, xml in E.photos(E.DEFAULT_DIR)[:2]:
        (few / img.name).write_bytes(img.read_bytes())
        (few / xml.name).write_bytes(xml.read_bytes())
    suits = E.read_suits(E.SUITS_DIR / f"{E.DEFAULT_DIR.name}.json")
    (tmp_path / "few.json").write_text(json.dumps({"photos": {p.stem: suits[p.stem] for p, _ in E.photos(few)}}))
    sheets = tmp_path / "sheets"
    run = run_eval("--dir", str(few), "--suits", str(tmp_path / "few.json"), "--suit-sheets", str(sheets))
    assert run.returncode == 0, run.stderr
    rows = (sheets / "index.tsv").read_text().splitlines()[1:]
    n = sum(len(suits[p.stem]) for p, _ in E.photos(few))
    assert len(rows) == n and list(sheets.glob("sheet_*.png"))
    assert rows[0].split("\t")[2][-1] in "cdhs?"


# -- other folders: other label spellings, YOLO files, jokers and face-down cards labelled ---------

def test_labels_of_many_spellings_name_the_same_cards():
    """Folders label cards in many ways; each spelling names the card a dealer would read."""
    same = {"Kc": ("K", "c"), "kc": ("K", "c"), "KC": ("K", "c"), "king of clubs": ("K", "c"),
            "king_clubs": ("K", "c"), "K♣": ("K", "c"), "clubs-king": ("K", "c"), "cK": ("K", "c"),
            "10h": ("T", "h"), "Th": ("T", "h"), "ten of hearts": ("T", "h"), "H10": ("T", "h"),
            "2S": ("2", "s"), "deuce of spades": ("2", "s"), "As": ("A", "s"), "ace of spades": ("A", "s")}
    for text, (rank, suit) in same.items():
        assert E.parse_label(text) == {"rank": rank, "suit": suit}, text
    assert E.parse_label("Queen") == {"rank": "Q"} and E.parse_label("7") == {"rank": "7"}
    for text in ("joker", "JK", "Joker_Red", "black joker", "joker2"):
        assert E.parse_label(text) == {"rank": "JK"}, text
    for text in ("back", "Card_Back", "face down"):
        assert E.parse_label(text) == {"back": True}, text
    for text in ("", "chip", "1c", "kx", "king of kings", "joker chip"):
        with pytest.raises(ValueError, match="not a card label"):
            E.parse_label(text)


def test_a_voc_file_with_whole_names_jokers_and_backs(tmp_path):
    def obj(name, box):
        return (f"<object><name>{name}</name><bndbox><xmin>{box[0]}</xmin><ymin>{box[1]}</ymin>"
                f"<xmax>{box[2]}</xmax><ymax>{box[3]}</ymax></bndbox></object>")
    (tmp_path / "a.xml").write_text("<annotation>" + obj("Kh", (0, 0, 100, 140)) + obj("joker", (200, 0, 300, 140))
                                    + obj("back", (400, 0, 500, 140)) + "</annotation>")
    cards, backs = E.read_annotations(tmp_path / "a.xml")
    assert cards == [{"rank": "K", "box": [0.0, 0.0, 100.0, 140.0], "suit": "h"},
                     {"rank": "JK", "box": [200.0, 0.0, 300.0, 140.0]}]
    assert backs == [{"box": [400.0, 0.0, 500.0, 140.0]}]
    for body, why in ((obj("chip", (0, 0, 9, 9)), "unknown label"), (obj("Kh", (50, 0, 10, 140)), "empty or broken"),
                      ("<object><name>Kh</name></object>", "bndbox"), ("<annotation", "not a Pascal VOC")):
        (tmp_path / "b.xml").write_text(body if body.startswith("<annotation") else f"<annotation>{body}</annotation>")
        with pytest.raises(ValueError, match=why):
            E.read_annotations(tmp_path / "b.xml")


def test_jokers_and_face_down_cards_are_right_where_the_folder_labels_them():
    """In a folder that labels jokers and face-down cards, a JK on a joker and a back on a folded
    hand are right, and only the others are wrong; every rank is scored where 2 to A are labelled."""
    labels = E.with_label_suits([{"rank": "JK", "box": [0, 0, 100, 140]}, {"rank": "5", "box": [200, 0, 300, 140], "suit": "d"}])
    downs = [{"box": [400, 0, 500, 140]}, {"box": [600, 0, 700, 140]}]
    result = {"cards": [card("JK", 0.9, 0, 100, sure=True), card("5d", 0.9, 200, 300, sure=True),
                        card("3c", 0.6, 600, 700, sure=False),    # a name on a face-down card: wrong
                        card("JK", 0.5, 900, 1000, sure=False),   # a joker on nothing: wrong
                        card("4h", 0.6, 1100, 1200, sure=False)],  # 2-A labelled: a 4 on nothing is wrong
              "backs": [{"polygon": rect(400, 0, 500, 140)}, {"polygon": rect(1300, 0, 1400, 140)}]}
    conv = E.conventions([labels], [downs])
    assert conv == {"ranks": E.ALL_RANKS[3:], "jokers": True, "backs": True}   # lowest labelled: 5
    s = E.score_photo(result, labels, ranks=E.ALL_RANKS, back_labels=downs)
    c = s["counts"]
    assert c["rank_right"] == 2 and c["jokers_right"] == 1 and c["jokers"] == 2 and c["jokers_wrong"] == 1
    assert c["backs_right"] == 1 and c["backs_wrong"] == 1 and c["named"] == 5 and c["named_right"] == 2
    assert {w["name"]: w["on"] for w in s["wrong"]} == {"3c": "back", "JK": "nothing", "4h": "nothing"}
    assert c["card_named_right"] == 2                  # the joker's whole name is right: it has no suit
    r = E.aggregate([s])
    assert r["joker_recall"] == 1.0 and r["back_recall"] == 0.5 and r["back_precision"] == 0.5
    assert r["jokers_wrong_per_photo"] == 1.0 and r["backs_wrong_per_photo"] == 1.0
    assert r["confusion"]["JK"] == {"JK": 1}
    # the same photo in a folder without them: every joker and every back is wrong, as in edje-train
    plain = E.score_photo(result, labels)["counts"]
    assert plain["backs_wrong"] == 2 and plain["low_unlabelled"] == 2    # the 3 and the 4: perhaps unlabelled


def _yolo_copy(pairs, suits, root):
    """The photos of ``pairs`` with their labels written as a YOLO dataset (images/, labels/,
    data.yaml): whole names (rank and suit), boxes as shares of the photo."""
    import cv2

    classes = [r + s for r in E.LABELLED for s in "cdhs"] + ["unknown-suit-" + r for r in E.LABELLED]
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    (root / "data.yaml").write_text("names:\n" + "".join(f"  {k}: {n.replace('unknown-suit-', '')}\n"
                                                         for k, n in enumerate(classes)))
    for img, xml in pairs:
        h, w = cv2.imread(str(img)).shape[:2]
        lines = []
        for lab, s in zip(E.read_labels(xml), suits[img.stem]):
            x0, y0, x1, y1 = lab["box"]
            k = classes.index(lab["rank"] + s if s != "?" else "unknown-suit-" + lab["rank"])
            lines.append(f"{k} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
        (root / "images" / img.name).write_bytes(img.read_bytes())
        (root / "labels" / (img.stem + ".txt")).write_text("\n".join(lines) + "\n")


def _coco_copy(pairs, suits, root):
    """The photos of ``pairs`` with one COCO file for them all (Roboflow's name), whole names
    spelt out ("king of hearts")."""
    words = {"9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
    suit_words = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    root.mkdir(parents=True)
    cats, images, anns = {}, [], []
    for n, (img, xml) in enumerate(pairs):
        (root / img.name).write_bytes(img.read_bytes())
        images.append({"id": n, "file_name": img.name})
        for lab, s in zip(E.read_labels(xml), suits[img.stem]):
            name = words[lab["rank"]] + ("" if s == "?" else f" of {suit_words[s]}")
            cid = cats.setdefault(name, len(cats) + 1)
            x0, y0, x1, y1 = lab["box"]
            anns.append({"id": len(anns), "image_id": n, "category_id": cid, "bbox": [x0, y0, x1 - x0, y1 - y0]})
    (root / "_annotations.coco.json").write_text(json.dumps(
        {"images": images, "annotations": anns, "categories": [{"id": i, "name": k} for k, i in cats.items()]}))


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_the_same_photos_labelled_as_a_yolo_or_coco_dataset_score_the_same(tmp_path):
    """Three real photos, their labels written as a YOLO dataset with the suits in the class
    names, or as one COCO file with the names spelt out, score exactly as the VOC files with the
    suits file do."""
    suits = E.read_suits(E.SUITS_DIR / f"{E.DEFAULT_DIR.name}.json")
    pairs = E.photos(E.DEFAULT_DIR)[:3]
    _yolo_copy(pairs, suits, tmp_path / "yolo")
    _coco_copy(pairs, suits, tmp_path / "coco")
    assert [img.name for img, _ in E.photos(tmp_path / "yolo")] == [img.name for img, _ in pairs]
    assert [img.name for img, _ in E.photos(tmp_path / "coco")] == [img.name for img, _ in pairs]
    runs = {}
    for name, args in (("voc", ("--limit", "3")), ("yolo", ("--dir", str(tmp_path / "yolo"))),
                       ("coco", ("--dir", str(tmp_path / "coco")))):
        out = tmp_path / f"{name}.json"
        run = run_eval(*args, "--json", str(out))
        assert run.returncode == 0, run.stderr
        runs[name] = json.loads(out.read_text())
    voc = runs["voc"]
    for other in (runs["yolo"], runs["coco"]):
        assert other["labels"] == {"ranks": "9TJQKA", "jokers": False, "backs": False, "suits": "labels",
                                   "boxes": "cards", "corner_share": voc["labels"]["corner_share"],
                                   "stored_pixels": 0, "difficult": {"labels": 0, "detections": 0}, "left_out": {}}
        for k in ("labelled_cards", "rank_recall", "rank_precision", "card_recall", "card_precision",
                  "backs_per_photo", "jokers_per_photo", "right_not_sure", "confusion"):
            assert other[k] == voc[k], k
    for text in ('{"images": [{"id": 0, "file_name": "x.jpg"}]}', "[" * 100_000, '{"images": 7}'):
        (tmp_path / "coco" / "_annotations.coco.json").write_text(text)
        L._coco.cache_clear()
        run = run_eval("--dir", str(tmp_path / "coco"), timeout=120)
        assert run.returncode == 2 and "not a COCO file" in run.stderr and "Traceback" not in run.stderr, text[:20]


def test_a_yolo_file_without_class_names_or_with_a_bad_line_is_a_clear_error(tmp_path):
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "p.jpg"), np.full((100, 200, 3), 90, np.uint8))
    (tmp_path / "p.txt").write_text("0 0.5 0.5 0.2 0.4\n")
    run = run_eval("--dir", str(tmp_path), timeout=120)
    assert run.returncode == 2 and "class names" in run.stderr and "Traceback" not in run.stderr
    (tmp_path / "classes.txt").write_text("Kh\nback\n")
    assert E.read_annotations(tmp_path / "p.txt", tmp_path / "p.jpg") == (
        [{"rank": "K", "box": [80.0, 30.0, 120.0, 70.0], "suit": "h"}], [])
    (tmp_path / "p.txt").write_text("1 0.1 0.1 0.3 0.1 0.3 0.5 0.1 0.5\n")      # a polygon: its box
    assert E.read_annotations(tmp_path / "p.txt", tmp_path / "p.jpg") == ([], [{"box": [20.0, 10.0, 60.0, 50.0]}])
    (tmp_path / "p.txt").write_text("7 0.5 0.5 0.2 0.4\n")
    run = run_eval("--dir", str(tmp_path), timeout=120)
    assert run.returncode == 2 and "p.txt:1" in run.stderr and "Traceback" not in run.stderr
    # class names in a data.yaml, ids to names or a list; a hostile or broken one is a clear error
    (tmp_path / "classes.txt").unlink()
    (tmp_path / "p.txt").write_text("10 0.5 0.5 0.2 0.4\n")
    (tmp_path / "data.yaml").write_text("names:\n" + "".join(f"  {k}: {'Qs' if k == 10 else 'back'}\n" for k in range(12)))
    assert E.read_labels(tmp_path / "p.txt", tmp_path / "p.jpg")[0]["rank"] == "Q"       # id 10, not the 3rd
    for text in ("names: [", "[1, 2]", "names: {0: Kh, 2: Qh}", "a: " + "[" * 5000, "\xff"):
        (tmp_path / "data.yaml").write_text(text, encoding="latin-1")
        run = run_eval("--dir", str(tmp_path), timeout=120)
        assert run.returncode == 2 and "data.yaml" in run.stderr and "Traceback" not in run.stderr, text


def test_a_phone_photo_turned_by_its_exif_is_read_as_its_labels_were_drawn(tmp_path):
    """A phone photo stored sideways with an EXIF orientation: where the VOC file's size is the
    stored photo's (LabelImg draws on the stored pixels), the stored pixels are scored; where it is
    the upright photo's, or not given, the upright one."""
    import numpy as np
    from PIL import Image

    pixels = np.zeros((100, 200, 3), np.uint8)
    im = Image.fromarray(pixels)
    exif = im.getexif()
    exif[274] = 6                                     # turned 90 degrees on viewing
    im.save(tmp_path / "p.jpg", exif=exif)

    def voc(size):
        (tmp_path / "p.xml").write_text("<annotation>" + (f"<size><width>{size[0]}</width><height>{size[1]}</height>"
                                                          "<depth>3</depth></size>" if size else "") + "</annotation>")
        return E.read_photo(tmp_path / "p.jpg", tmp_path / "p.xml").shape[:2]

    assert voc((200, 100)) == (100, 200)              # labelled on the stored pixels
    assert voc((100, 200)) == (200, 100)              # labelled upright
    assert voc(None) == (200, 100)
    (tmp_path / "q.jpg").write_bytes(b"not a photo")
    with pytest.raises(ValueError, match="not a readable image"):
        E.read_photo(tmp_path / "q.jpg")


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_labels_of_other_things_on_the_table_are_left_out_and_said(tmp_path):
    """A folder of a real table may label its chips and dealer button beside the cards: those are
    left out of the figures, and the report says which and how many; a card label still counts."""
    img, xml = E.photos(E.DEFAULT_DIR)[0]
    (tmp_path / img.name).write_bytes(img.read_bytes())
    extra = "".join(f"<object><name>{n}</name><bndbox><xmin>1</xmin><ymin>1</ymin><xmax>20</xmax><ymax>20</ymax>"
                    "</bndbox></object>" for n in ("chip", "chip", "dealer button"))
    (tmp_path / xml.name).write_text(xml.read_text().replace("</annotation>", extra + "</annotation>"))
    cards, backs = E.read_annotations(tmp_path / xml.name, others=(seen := E.Counter()))
    assert cards == E.read_labels(xml) and backs == [] and seen == {"chip": 2, "dealer button": 1}
    with pytest.raises(ValueError, match="unknown label"):
        E.read_annotations(tmp_path / xml.name)
    out = tmp_path / "r.json"
    run = run_eval("--dir", str(tmp_path), "--json", str(out), "--suits", "none", timeout=120)
    assert run.returncode == 0, run.stderr
    assert "labels that name no card: 'chip' 2, 'dealer button' 1" in run.stdout
    r = json.loads(out.read_text())
    assert r["labels"]["left_out"] == {"chip": 2, "dealer button": 1} and r["labelled_cards"] == len(cards)


def _rendered_folders(root, seeds=range(6)):
    """Rendered table frames (held-out designs) written twice: a Pascal VOC folder boxing each
    face-up card whole, and a YOLO folder boxing only its index corners that show (as many
    public datasets do), both naming whole cards (``Kc``, ``JK``). A card is labelled in both or
    in neither: only cards with an index corner in view. Returns the two folders."""
    import cv2
    import numpy as np

    from dealer_assist.vision.synth.faces import DEFAULT_INDEX_BOX
    from dealer_assist.vision.synth.scene import render_scene

    whole, corners = root / "whole", root / "corners"
    (corners / "images").mkdir(parents=True)
    (corners / "labels").mkdir()
    whole.mkdir()
    classes = [r + s for r in E.ALL_RANKS for s in "cdhs"] + ["JK", "back"]
    (corners / "classes.txt").write_text("\n".join(classes) + "\n")
    for seed in seeds:
        image, label = render_scene(seed, "test")
        h, w = image.shape[:2]
        objects, lines = [], []
        for c in label["cards"]:
            if not any(c["corners_visible"]) or (c["card"] == "JK" and not c["joker_has_index"]):
                continue
            q = np.asarray(c["polygon"], float)
            x0, y0, x1, y1 = DEFAULT_INDEX_BOX
            for flip, shown in zip((False, True), c["corners_visible"]):
                us, vs = ((1 - x1, 1 - x0), (1 - y1, 1 - y0)) if flip else ((x0, x1), (y0, y1))
                pts = np.array([(1 - u) * (1 - v) * q[0] + u * (1 - v) * q[1] + u * v * q[2] + (1 - u) * v * q[3]
                                for u in us for v in vs])
                bx0, by0 = np.clip(pts.min(0), 0, (w, h))
                bx1, by1 = np.clip(pts.max(0), 0, (w, h))
                if shown and bx1 - bx0 > 1 and by1 - by0 > 1:
                    lines.append(f"{classes.index(c['card'])} {(bx0 + bx1) / 2 / w:.6f} {(by0 + by1) / 2 / h:.6f} "
                                 f"{(bx1 - bx0) / w:.6f} {(by1 - by0) / h:.6f}")
            x0, y0 = np.clip(q.min(0), 0, (w, h))
            x1, y1 = np.clip(q.max(0), 0, (w, h))
            objects.append(f"<object><name>{c['card']}</name><bndbox><xmin>{x0:.1f}</xmin><ymin>{y0:.1f}</ymin>"
                           f"<xmax>{x1:.1f}</xmax><ymax>{y1:.1f}</ymax></bndbox></object>")
        for b in label["backs"]:       # face-down cards: boxed whole in both
            q = np.asarray(b["polygon"], float)
            (x0, y0), (x1, y1) = np.clip(q.min(0), 0, (w, h)), np.clip(q.max(0), 0, (w, h))
            objects.append(f"<object><name>back</name><bndbox><xmin>{x0:.1f}</xmin><ymin>{y0:.1f}</ymin>"
                           f"<xmax>{x1:.1f}</xmax><ymax>{y1:.1f}</ymax></bndbox></object>")
            lines.append(f"{classes.index('back')} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                         f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
        cv2.imwrite(str(whole / f"f{seed}.png"), image)
        cv2.imwrite(str(corners / "images" / f"f{seed}.png"), image)
        (whole / f"f{seed}.xml").write_text("<annotation>" + "".join(objects) + "</annotation>")
        (corners / "labels" / f"f{seed}.txt").write_text("\n".join(lines) + "\n")
    return whole, corners


def test_a_folder_that_boxes_only_the_index_corners_scores_as_one_that_boxes_whole_cards(tmp_path):
    """Many public card datasets box each card's index corners, not the card. The yardstick
    tells such a folder by its labels beside the cards found, groups each card's corners into
    the card, and scores it as the same frames labelled whole; told the wrong thing (``--boxes
    cards``) it would find almost nothing right."""
    whole, corners = _rendered_folders(tmp_path)
    runs = {}
    for name, args in (("whole", ("--dir", str(whole))), ("corners", ("--dir", str(corners))),
                       ("told cards", ("--dir", str(corners), "--boxes", "cards"))):
        out = tmp_path / f"{name}.json"
        run = run_eval(*args, "--json", str(out), timeout=200)
        assert run.returncode == 0, run.stderr
        runs[name] = json.loads(out.read_text())
        runs[name]["stdout"] = run.stdout
    a, b = runs["whole"], runs["corners"]
    assert a["labels"]["boxes"] == "cards" and a["labels"]["corner_share"] > 0.6
    assert b["labels"]["boxes"] == "corners" and b["labels"]["corner_share"] < 0.15
    assert "label boxes: the index corners" in b["stdout"] and "label boxes: whole cards" in a["stdout"]
    assert a["labels"]["ranks"] == b["labels"]["ranks"] == "23456789TJQKA"
    assert a["labelled_cards"] == b["labelled_cards"] > 30 and a["back_labels"] == b["back_labels"] > 0
    assert a["card_recall"] > 0.9
    for k in ("card_recall", "card_precision", "rank_recall", "rank_precision", "back_recall", "photos_all_right"):
        assert abs(a[k] - b[k]) <= 0.02, (k, a[k], b[k])
    told = runs["told cards"]
    assert told["labels"]["boxes"] == "cards" and told["labels"]["corner_share"] is None
    assert told["labelled_cards"] > b["labelled_cards"] and told["card_recall"] < 0.2
    # in a wider view, the cards the corners stand for are painted over where the view mirrors
    # the photo, as whole-card labels are: the two score alike there too
    wide = {}
    for name, folder in (("whole", whole), ("corners", corners)):
        out = tmp_path / f"wide-{name}.json"
        run = run_eval("--dir", str(folder), "--wide", "1920x1080", "--shrink", "0.8", "--json", str(out), timeout=300)
        assert run.returncode == 0, run.stderr
        wide[name] = json.loads(out.read_text())
    assert wide["corners"]["labels"]["boxes"] == "corners" and wide["whole"]["labels"]["boxes"] == "cards"
    assert abs(wide["whole"]["labelled_cards"] - wide["corners"]["labelled_cards"]) <= 1
    for k in ("card_recall", "card_precision"):
        assert abs(wide["whole"][k] - wide["corners"][k]) <= 0.03, (k, wide["whole"][k], wide["corners"][k])


def test_a_class_list_that_names_the_low_ranks_makes_them_labelled(tmp_path):
    """A YOLO folder whose class list names every rank labels them all, though its photos show
    no card below 9: a 5 named where no card is labelled is then wrong, not an unlabelled 5."""
    (tmp_path / "classes.txt").write_text("\n".join(["chip"] + [r + s for r in E.ALL_RANKS for s in "cdhs"]) + "\n")
    (tmp_path / "a.txt").write_text("")
    assert E.conventions([[{"rank": "K"}]], [[]])["ranks"] == E.LABELLED
    assert E.conventions([[{"rank": "K"}], E.declared([(tmp_path / "a.png", tmp_path / "a.txt")])],
                         [[]])["ranks"] == E.ALL_RANKS


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_the_lowest_rank_labelled_can_be_said(tmp_path):
    """A VOC folder has no class list: ``--ranks 2`` says it labels every rank, so a low name on
    no labelled card is wrong; a rank that is none is a clear refusal."""
    out = tmp_path / "r.json"
    run = run_eval("--limit", "3", "--ranks", "2", "--json", str(out))
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text())["labels"]["ranks"] == "".join(E.ALL_RANKS)
    assert "every card of rank 2 to A" in run.stdout
    bad = run_eval("--limit", "3", "--ranks", "eleven", timeout=60)
    assert bad.returncode == 2 and "--ranks wants the lowest rank" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_a_yolo_folder_of_turned_phone_photos_is_scored_on_the_pixels_its_labels_were_drawn_on(tmp_path):
    """Real photos stored sideways with an EXIF turn (as phones store them), labelled in YOLO
    shares of the upright photo in one folder and of the stored pixels in another: a YOLO file
    gives no size to tell which, so each photo is scored in the frame where its labels lie on
    the cards found, and both folders score as the photos upright do."""
    import cv2
    from PIL import Image

    pairs = E.photos(E.DEFAULT_DIR)[:3]
    classes = list(E.LABELLED)
    for name in ("upright", "stored", "plain"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "classes.txt").write_text("\n".join(classes) + "\n")
    for img, xml in pairs:
        up = E.read_photo(img, xml)
        h, w = up.shape[:2]
        side = cv2.rotate(up, cv2.ROTATE_90_COUNTERCLOCKWISE)     # EXIF 6: turned clockwise to view
        pil = Image.fromarray(side[:, :, ::-1])
        exif = pil.getexif()
        exif[274] = 6
        for name in ("upright", "stored"):
            pil.save(tmp_path / name / (img.stem + ".jpg"), quality=95, exif=exif)
        Image.fromarray(up[:, :, ::-1]).save(tmp_path / "plain" / (img.stem + ".jpg"), quality=95)
        shown = E.photo_frames(tmp_path / "upright" / (img.stem + ".jpg"))
        assert len(shown) == 2 and shown[0].shape[:2] == (h, w) and shown[1].shape[:2] == (w, h)
        rows = {"upright": [], "stored": []}
        for lab in E.read_labels(xml):
            x0, y0, x1, y1 = lab["box"]
            k = classes.index(lab["rank"])
            rows["upright"].append(f"{k} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
            sx0, sy0, sx1, sy1 = y0, w - x1, y1, w - x0                # the same box on the stored pixels
            rows["stored"].append(f"{k} {(sx0 + sx1) / 2 / h:.6f} {(sy0 + sy1) / 2 / w:.6f} {(sx1 - sx0) / h:.6f} {(sy1 - sy0) / w:.6f}")
        for name in ("upright", "stored"):
            (tmp_path / name / (img.stem + ".txt")).write_text("\n".join(rows[name]) + "\n")
        (tmp_path / "plain" / (img.stem + ".txt")).write_text("\n".join(rows["upright"]) + "\n")
    runs = {}
    for name in ("plain", "upright", "stored"):
        out = tmp_path / f"{name}.json"
        run = run_eval("--dir", str(tmp_path / name), "--json", str(out), timeout=200)
        assert run.returncode == 0, run.stderr
        runs[name] = json.loads(out.read_text())
        runs[name]["stdout"] = run.stdout
    plain = runs["plain"]
    assert plain["labelled_cards"] >= 3 and plain["rank_recall"] >= 0.75 and plain["labels"]["stored_pixels"] == 0
    assert runs["upright"]["labels"]["stored_pixels"] == 0
    assert runs["stored"]["labels"]["stored_pixels"] == len(pairs) and "3 read as stored" in runs["stored"]["stdout"]
    for name in ("upright", "stored"):
        for k in ("labelled_cards", "rank_recall", "rank_precision", "found"):
            assert runs[name][k] == plain[k], (name, k)


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_a_dataset_exported_in_parts_is_read_whole(tmp_path):
    """Datasets come exported in parts: ``train/``, ``valid/`` each with its ``images`` and
    ``labels`` (or its COCO file), or ``images/train`` beside ``labels/train``. Pointed at the
    export, the yardstick reads every part, and scores the photos as their VOC files do."""
    suits = E.read_suits(E.SUITS_DIR / f"{E.DEFAULT_DIR.name}.json")
    pairs = E.photos(E.DEFAULT_DIR)[:4]
    _yolo_copy(pairs[:2], suits, tmp_path / "parts" / "train")
    _yolo_copy(pairs[2:], suits, tmp_path / "parts" / "valid")
    _coco_copy(pairs[:2], suits, tmp_path / "coco" / "train")
    _coco_copy(pairs[2:], suits, tmp_path / "coco" / "valid")
    flat = tmp_path / "flat"
    _yolo_copy(pairs, suits, flat)
    for img, _ in pairs:                       # ultralytics' layout: images/<part>, labels/<part>
        part = "train" if (img, _) in pairs[:2] else "val"
        for kind, ext in (("images", img.suffix), ("labels", ".txt")):
            (flat / kind / part).mkdir(exist_ok=True)
            (flat / kind / (img.stem + ext)).rename(flat / kind / part / (img.stem + ext))
    for name in ("parts", "coco", "flat"):
        got = E.photos(tmp_path / name)
        assert sorted(img.name for img, _ in got) == sorted(img.name for img, _ in pairs), name
    runs = {}
    for name, args in (("voc", ("--limit", "4")), ("parts", ("--dir", str(tmp_path / "parts"))),
                       ("coco", ("--dir", str(tmp_path / "coco"))), ("flat", ("--dir", str(tmp_path / "flat")))):
        out = tmp_path / f"{name}.json"
        run = run_eval(*args, "--json", str(out))
        assert run.returncode == 0, run.stderr
        runs[name] = json.loads(out.read_text())
    for name in ("parts", "coco", "flat"):
        for k in ("photos", "labelled_cards", "rank_recall", "rank_precision", "card_recall", "card_precision"):
            assert runs[name][k] == runs["voc"][k], (name, k)
    assert {p["photo"] for p in runs["parts"]["per_photo"]} == {
        f"{part}/images/{img.name}" for part, half in (("train", pairs[:2]), ("valid", pairs[2:])) for img, _ in half}


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_photos_of_any_format_the_commands_read_are_scored_alike(tmp_path):
    """A folder whose photos are named ``.JPEG`` or ``.Jpg`` or saved as WebP is scored as the same
    photos in JPEG: the yardstick reads the images ``detect`` reads (dealer_assist.imagefiles)."""
    import cv2

    pairs = [pair for pair in E.photos(E.DEFAULT_DIR) if L._orientation(pair[0]) == 1][:3]
    plain, other = tmp_path / "plain", tmp_path / "other"
    for folder in (plain, other):
        folder.mkdir()
    for (img, xml), name in zip(pairs, ("a.JPEG", "b.Jpg", "c.webp")):
        shutil.copy(img, plain / img.name)
        shutil.copy(xml, plain / xml.name)
        if name.endswith(".webp"):
            assert cv2.imwrite(str(other / name), cv2.imread(str(img)), [cv2.IMWRITE_WEBP_QUALITY, 101])
        else:
            shutil.copy(img, other / name)
        shutil.copy(xml, other / (Path(name).stem + ".xml"))
    assert [img.name for img, _ in E.photos(other)] == ["a.JPEG", "b.Jpg", "c.webp"]
    runs = {}
    for folder in (plain, other):
        out = tmp_path / f"{folder.name}.json"
        run = run_eval("--dir", str(folder), "--json", str(out))
        assert run.returncode == 0, run.stderr
        runs[folder.name] = json.loads(out.read_text())
    for k in ("photos", "labelled_cards", "rank_recall", "rank_precision", "backs", "jokers"):
        assert runs["other"][k] == runs["plain"][k], k
    assert runs["plain"]["photos"] == 3


@pytest.mark.skipif(not E.DEFAULT_DIR.is_dir(), reason=f"no real photos at {E.DEFAULT_DIR}")
def test_labels_marked_difficult_are_set_aside_with_what_was_found_on_them(tmp_path):
    """A VOC label marked ``<difficult>1</difficult>`` counts neither way, as in VOC's own
    scoring: the card is not labelled, and the name found on it is not scored."""
    pairs = E.photos(E.DEFAULT_DIR)[:3]
    for n, (img, xml) in enumerate(pairs):
        (tmp_path / img.name).write_bytes(img.read_bytes())
        text = xml.read_text()
        if n == 1:
            text = text.replace("<difficult>0</difficult>", "<difficult>1</difficult>", 1)
        (tmp_path / xml.name).write_text(text)
    assert sum(bool(lab.get("difficult")) for _, xml in E.photos(tmp_path) for lab in E.read_labels(xml)) == 1
    runs = {}
    for name, folder in (("plain", E.DEFAULT_DIR), ("marked", tmp_path)):
        out = tmp_path / f"{name}.json"
        run = run_eval("--dir", str(folder), "--limit", "3", "--suits", "none", "--json", str(out), timeout=120)
        assert run.returncode == 0, run.stderr
        runs[name] = json.loads(out.read_text())
        runs[name]["stdout"] = run.stdout
    plain, marked = runs["plain"], runs["marked"]
    assert plain["right_names"] == plain["labelled_cards"] == 3          # all three read right
    assert marked["labelled_cards"] == 2 and marked["scored_names"] == plain["scored_names"] - 1
    assert marked["labels"]["difficult"] == {"labels": 1, "detections": 1}
    assert "1 labels marked difficult set aside, with the 1 detections on them" in marked["stdout"]


def test_a_corner_in_view_goes_to_the_card_found_that_names_it_not_to_a_ghost_around_it():
    """A covered card shows one index corner; a ghost box (here ``??``, shifted so that one of its
    corners lies nearer the label) holds that corner too. The labelled card is the named card's,
    so its right, sure name is not scored as a sure wrong name on nothing."""
    named = card("Kc", 0.95, 0, 100, sure=True)
    ghost = card("??", 0.05, 10, 110, y0=15, y1=155)
    found = {"cards": [ghost, named], "backs": []}
    corner = [{"rank": "K", "suit": "c", "box": [4, 4, 22, 36]}]
    cards = E.cards_from_corners(corner, found)
    assert [(c["rank"], c["box"]) for c in cards] == [("K", [0.0, 0.0, 100.0, 140.0])]
    scored = E.score_photo(found, cards)
    assert scored["right_sure"] == [True] and scored["wrong"] == []
    # a rank-only label (no suit) is paired by its rank the same way; with no card named it, the
    # nearest holder keeps it, as before
    assert E.cards_from_corners([{"rank": "K", "box": [4, 4, 22, 36]}], found)[0]["box"] == [0.0, 0.0, 100.0, 140.0]
    other = {"cards": [ghost, card("Qc", 0.95, 0, 100)], "backs": []}
    assert E.cards_from_corners(corner, other)[0]["box"] == [10.0, 15.0, 110.0, 155.0]
