"""More hostile input, each met as a person meets it at the command line: the command refuses it in
one clear line (exit code 2) or reads what it can, never a Python traceback.

Found by a sweep of hostile inputs: an image too thin to hold a card, a models.json that is no
description of the models, a marker size that is no number of millimetres, a YAML file of brackets
nested deeper than Python's stack, a decks folder that is a file, a central log out of reach for
floor-staff, a file name too long for the system, and a terminal that cannot write Japanese.
"""
from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cli import main

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
CLIP = ROOT / "sample_frames" / "clip"
needs_models = pytest.mark.skipif(not (MODELS / "cards-obb.onnx").is_file(), reason="no shipped model")
needs_clip = pytest.mark.skipif(not (CLIP / "joker-nlh.mp4").is_file(), reason="no sample clip")

#: Frames too thin to hold a card: letterboxed to the detector's input, a side shrinks below a pixel.
THIN = [(1, 1500), (2, 5000), (5000, 2)]


def cli(argv: list[str], capsys) -> tuple[int, str, list[str]]:
    """The exit code, stdout and the stderr lines of one command (a traceback fails the test)."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err.splitlines()


def one_line_refusal(code: int, err: list[str], command: str) -> str:
    assert code == 2, err
    assert len(err) == 1 and err[0].startswith(f"dealer-assist {command}: "), err
    return err[0]


def write(path: Path, hw: tuple[int, int], value: int = 90) -> str:
    assert cv2.imwrite(str(path), np.full((*hw, 3), value, np.uint8))
    return str(path)


def joker_photo(path: Path) -> str:
    """A photo of a joker, as enroll-deck learns one from."""
    from dealer_assist.vision.synth import JOKER_STYLES
    from dealer_assist.vision.synth.scene import render_cards

    img, _ = render_cards([{"card": "JK", "style": next(iter(JOKER_STYLES)), "center": (0, 0), "angle": 0,
                            "width": 150}])
    cv2.imwrite(str(path), img)
    return str(path)


def models_with(tmp_path: Path, meta_text: str) -> Path:
    """A model folder: the shipped models, its models.json replaced by ``meta_text``."""
    folder = tmp_path / "models"
    folder.mkdir()
    for f in MODELS.iterdir():
        if f.is_file() and f.name != "models.json":
            (folder / f.name).symlink_to(f)
    (folder / "models.json").write_text(meta_text, encoding="utf-8")
    return folder


# ----------------------------------------------------------------------------------- 1. thin image
@needs_models
@pytest.mark.parametrize("json_out", [False, True])
def test_an_image_too_thin_for_a_card_is_refused_and_the_others_are_read(tmp_path, capsys, json_out):
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, hw in enumerate(THIN):
        write(folder / f"{i}-thin.png", hw)
    write(folder / "9-table.png", (300, 400))
    code, out, err = cli(["detect", "--lang", "en", *(["--json"] if json_out else []), str(folder)], capsys)
    assert code == 2
    if json_out:
        rows = [json.loads(line) for line in out.splitlines()]
        assert [Path(r["image"]).name for r in rows] == ["0-thin.png", "1-thin.png", "2-thin.png", "9-table.png"]
        errors = [r["error"] for r in rows[:3]]
        assert all("too small" in r["error_ja"] or "小さすぎ" in r["error_ja"] for r in rows[:3])
        assert rows[3]["width"] == 400 and rows[3]["cards"] == []
    else:
        errors = err
        assert len(err) == 3 and all(e.startswith("dealer-assist detect: ") for e in err), err
        assert "9-table.png  400x300" in out          # the image after the thin ones is still read
    for e, (h, w) in zip(errors, THIN):
        assert f"{w}x{h} pixels" in e and "too small (or too thin) to hold a card" in e, e


@needs_models
def test_a_thin_image_in_japanese(tmp_path, capsys):
    code, out, err = cli(["detect", write(tmp_path / "thin.png", (1, 1500))], capsys)
    line = one_line_refusal(code, err, "detect")
    assert "1500x1 ピクセル" in line and "thin.png" in line


@needs_models
def test_enroll_deck_skips_a_thin_photo_and_enrolls_the_others(tmp_path, capsys):
    thin = [write(tmp_path / f"JK-{i}.png", hw) for i, hw in enumerate(THIN)]
    root = tmp_path / "decks"
    code, out, err = cli(["enroll-deck", "--lang", "en", "house", joker_photo(tmp_path / "JK.png"), *thin,
                          "--root", str(root)], capsys)
    assert code == 2
    assert len(err) == 3 and all("too small (or too thin) to hold a card" in e for e in err), err
    assert json.loads(out.splitlines()[-1]) == {"views": {"JK": 1}, "skipped": 3, "read_right": 1, "read_cards": 1,
                                                "read_wrong_sure": 0, "never_sure": 0}
    assert (root / "house" / "deck.json").is_file()


@needs_models
def test_enroll_deck_names_a_photo_it_cannot_read_once(tmp_path, capsys):
    """A photo that is no image, or is not there, is listed once by its name with the reason."""
    bad, gone = tmp_path / "JK-1.jpg", tmp_path / "JK-2.jpg"
    bad.write_bytes(b"GIF89a garbage")
    code, out, err = cli(["enroll-deck", "--lang", "en", "house", joker_photo(tmp_path / "JK.png"), str(bad), str(gone),
                          "--root", str(tmp_path / "decks")], capsys)
    assert code == 2 and len(err) == 2, err
    assert err[0].endswith(f"{bad}: not a readable image") and err[0].count(str(bad)) == 1, err
    assert err[1].count(str(gone)) == 1 and "cannot read it" in err[1], err


@needs_models
@pytest.mark.parametrize("check", [
    {"wrong": "Kh as Qh", "unreadable": []},
    {"wrong": [{"card": "Kh", "read": "Zz", "sure": True}], "unreadable": []},
    {"wrong": [], "unreadable": [7]},
    "read well",
])
def test_a_deck_file_whose_check_was_tampered_with_is_named_damaged(tmp_path, capsys, check):
    """The enrollment's check in deck.json says which names are never sure with the deck; one
    that does not read as cards stops ``detect --deck`` in one line, naming the deck, so that no
    doubt it held is silently lost."""
    root = tmp_path / "decks"
    assert cli(["enroll-deck", "house", joker_photo(tmp_path / "JK.png"), "--root", str(root)], capsys)[0] == 0
    info = json.loads((root / "house" / "deck.json").read_text(encoding="utf-8"))
    (root / "house" / "deck.json").write_text(json.dumps({**info, "check": check}), encoding="utf-8")
    frame = write(tmp_path / "table.png", (300, 400))
    line = one_line_refusal(*cli(["detect", "--lang", "en", frame, "--deck", str(root / "house")], capsys)[::2],
                            "detect")
    assert f"deck '{root / 'house'}'" in line and "is damaged" in line and "enroll it again" in line, line


@needs_models
@pytest.mark.parametrize("column, value", [("corner_label", 60), ("corner_label", -1), ("card_label", 99)])
def test_a_deck_whose_references_name_no_card_is_named_damaged(tmp_path, capsys, column, value):
    """refs.npz holds each enrolled corner's and card's label; one that names no card (a file
    damaged or edited) stops ``detect --deck`` in one line instead of a traceback mid-frame."""
    import numpy as np

    root = tmp_path / "decks"
    assert cli(["enroll-deck", "house", joker_photo(tmp_path / "JK.png"), "--root", str(root)], capsys)[0] == 0
    refs = root / "house" / "refs.npz"
    z = dict(np.load(refs))
    z[column] = np.full_like(z[column], value)
    np.savez(refs, **z)
    frame = write(tmp_path / "table.png", (300, 400))
    line = one_line_refusal(*cli(["detect", "--lang", "en", frame, "--deck", str(root / "house")], capsys)[::2],
                            "detect")
    assert "is damaged" in line and "card labels" in line and "enroll it again" in line, line


# ------------------------------------------------------------------------------ 2. bad models.json
@needs_models
@pytest.mark.parametrize("meta, says", [
    ("[]", "is a JSON object"),
    ('"models"', "is a JSON object"),
    ("[" * 100_000, "not valid JSON"),
    (None, '"imgsz" is [height, width]'),             # imgsz [0, 0]
    ('{"imgsz": [288]}', '"imgsz" is [height, width]'),
    ('{"imgsz": [true, true]}', '"imgsz" is [height, width]'),
    ('{"imgsz": [100, 100]}', "is not the input size of the card detector"),
])
def test_a_bad_models_json_is_named_in_one_line(tmp_path, capsys, meta, says):
    if meta is None:
        shipped = json.loads((MODELS / "models.json").read_text(encoding="utf-8"))
        meta = json.dumps({**shipped, "imgsz": [0, 0]})
    models = models_with(tmp_path, meta)
    frame = write(tmp_path / "table.png", (300, 400))
    line = one_line_refusal(*cli(["detect", "--lang", "en", frame, "--models", str(models)], capsys)[::2], "detect")
    assert str(models / "models.json") in line and says in line, line


@needs_models
def test_a_bad_models_json_by_the_environment_and_for_enroll_deck(tmp_path, capsys, monkeypatch):
    models = models_with(tmp_path, "[]")
    frame = write(tmp_path / "table.png", (300, 400))
    monkeypatch.setenv("DEALER_ASSIST_MODELS", str(models))
    for argv in (["detect", frame], ["enroll-deck", "house", joker_photo(tmp_path / "JK.png"),
                                     "--root", str(tmp_path / "decks")]):
        line = one_line_refusal(*cli([*argv, "--lang", "en"], capsys)[::2], argv[0])
        assert str(models / "models.json") in line and "is a JSON object" in line, line
        line = one_line_refusal(*cli(argv, capsys)[::2], argv[0])
        assert "モデルフォルダの説明はJSONオブジェクト" in line, line


@needs_models
@needs_clip
def test_run_refuses_a_bad_models_json_in_one_line(tmp_path, capsys):
    models = models_with(tmp_path, "[]")
    line = one_line_refusal(*cli(["run", "--lang", "en", "--source", str(CLIP / "joker-nlh.mp4"), "--calibration",
                                  str(CLIP / "table.yaml"), "--models", str(models)], capsys)[::2], "run")
    assert str(models / "models.json") in line and "is a JSON object" in line, line


# ---------------------------------------------------------------------------------- 3. marker size
def test_a_marker_size_that_is_no_size_is_refused(tmp_path, capsys):
    out = tmp_path / "markers.png"
    for size in ("nan", "NaN", "inf", "0.001", "0.5", "0"):
        line = one_line_refusal(*cli(["calibrate", "--lang", "en", "--print-markers", str(out), "--marker-size", size],
                                     capsys)[::2], "calibrate")
        assert "--marker-size must be from 1 to 90 mm" in line, line
        assert not out.exists()
    # the smallest size the refusal names still prints
    code, said, err = cli(["calibrate", "--lang", "en", "--print-markers", str(out), "--marker-size", "1"], capsys)
    assert code == 0 and out.is_file(), err


# ------------------------------------------------------------------------- 4. YAML nested too deep
@pytest.fixture
def deep_yaml(tmp_path) -> Path:
    p = tmp_path / "deep.yaml"
    p.write_text("[" * 100_000, encoding="utf-8")
    return p


def test_calibrate_check_and_layout_refuse_yaml_nested_too_deep(tmp_path, capsys, deep_yaml):
    frame = write(tmp_path / "frame.png", (300, 400))
    for argv, what in ((["--check", str(deep_yaml)], "calibration"),
                       (["--layout", str(deep_yaml), "--image", frame, "--points", "10,10 300,10 300,200 10,200",
                         "--out", str(tmp_path / "table.yaml")], "layout"),
                       (["--follow", str(deep_yaml), "--image", frame, "--out", str(tmp_path / "t2.yaml")],
                        "calibration")):
        line = one_line_refusal(*cli(["calibrate", "--lang", "en", *argv], capsys)[::2], "calibrate")
        assert line == f"dealer-assist calibrate: {what} {deep_yaml}: not valid YAML (nested too deeply)", line
        line = one_line_refusal(*cli(["calibrate", *argv], capsys)[::2], "calibrate")
        assert "正しいYAMLではありません（入れ子が深すぎます）" in line, line


@needs_clip
def test_run_refuses_a_calibration_nested_too_deep(capsys, deep_yaml):
    line = one_line_refusal(*cli(["run", "--lang", "en", "--source", str(CLIP / "joker-nlh.mp4"),
                                  "--calibration", str(deep_yaml)], capsys)[::2], "run")
    assert f"calibration {deep_yaml}: not valid YAML (nested too deeply)" in line, line


# ------------------------------------------------------------------------------ 5. --root is a file
@needs_models
def test_enroll_deck_with_a_file_for_its_decks_folder(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("not a folder", encoding="utf-8")
    photo = joker_photo(tmp_path / "JK.png")
    for root in (afile, afile / "below"):
        line = one_line_refusal(*cli(["enroll-deck", "--lang", "en", "house", photo, "--root", str(root)],
                                     capsys)[::2], "enroll-deck")
        assert f"cannot write deck 'house' to {root / 'house'}: {afile} is a file, not a folder" in line, line
    line = one_line_refusal(*cli(["enroll-deck", "house", photo, "--root", str(afile)], capsys)[::2], "enroll-deck")
    assert "デッキ「house」" in line and "フォルダではなくファイルです" in line, line
    assert afile.read_text(encoding="utf-8") == "not a folder"


# ------------------------------------------------------------------ 6. floor-staff, log out of reach
def test_floor_staff_with_the_central_log_out_of_reach(capsys):
    pytest.importorskip("psycopg", reason="the central log needs the test extra (psycopg)")
    url = "postgresql://floor:s3cret-pw@127.0.0.1:1/event"
    for action in ("list", "add", "revoke"):
        argv = ["floor-staff", "--central", url, "--lang", "en", action, *(["Tanaka"] if action != "list" else [])]
        line = one_line_refusal(*cli(argv, capsys)[::2], "floor-staff")
        assert "cannot read the central log postgresql://floor:***@127.0.0.1:1/event" in line, line
        assert "s3cret-pw" not in line


# ------------------------------------------------------------------------- 7. a file name too long
@needs_models
def test_a_file_name_too_long_is_one_images_error(tmp_path, capsys):
    long = tmp_path / ("a" * 300 + ".jpg")
    frame = write(tmp_path / "table.png", (300, 400))
    code, out, err = cli(["detect", "--lang", "en", str(long), frame], capsys)
    line = one_line_refusal(code, err, "detect")
    assert line == f"dealer-assist detect: cannot read {long}: File name too long", line
    assert "table.png  400x300" in out                   # the next image is still read
    code, out, err = cli(["detect", "--json", str(long), frame], capsys)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and rows[0]["error"].endswith("File name too long") and "ファイル名が長すぎます" in rows[0]["error_ja"]
    assert rows[1]["width"] == 400


# ----------------------------------------------------------------- 8. a terminal that cannot write it
def ascii_terminal(monkeypatch) -> tuple[io.TextIOWrapper, io.TextIOWrapper]:
    out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", newline="\n")
    err = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict", newline="\n")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    return out, err


def written(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("ascii")


def test_settle_on_an_ascii_terminal_writes_everything(monkeypatch, capsys):
    table = ROOT / "examples" / "showdown.json"
    assert main(["settle", str(table)]) == 0
    expected = json.loads(capsys.readouterr().out)
    out, err = ascii_terminal(monkeypatch)
    assert main(["settle", str(table)]) == 0
    text = written(out)
    # every Japanese character is there as its escape, which JSON reads back: nothing is lost
    assert json.loads(text) == expected
    assert "\\u30e1\\u30a4\\u30f3\\u30dd\\u30c3\\u30c8" in text      # メインポット
    assert written(err) == ""


def test_an_error_on_an_ascii_terminal_is_one_readable_line(monkeypatch, tmp_path):
    out, err = ascii_terminal(monkeypatch)
    assert main(["settle", str(tmp_path / "none.json")]) == 2
    lines = written(err).splitlines()
    assert len(lines) == 1 and lines[0].startswith("dealer-assist settle: ") and re.search(r"\\u[0-9a-f]{4}", lines[0])
    assert "ファイル" in lines[0].encode("ascii").decode("unicode_escape"), lines[0]     # its Japanese, escaped


def test_models_whose_sure_thresholds_were_not_measured_on_them_say_why_no_card_is_sure(tmp_path, capsys):
    """A models folder with one file missing or changed reads every card as doubtful (the sure
    thresholds hold only for the files they were measured on): the dealer is told why, once."""
    import shutil

    from dealer_assist.cli import main

    models = Path(__file__).resolve().parent.parent / "models"
    frame = Path(__file__).resolve().parent.parent / "sample_frames" / "test_000000.jpg"
    assert main(["detect", str(frame), "--lang", "en"]) == 0
    assert "warning" not in capsys.readouterr().err              # the shipped folder: nothing to say
    mine = tmp_path / "models"
    shutil.copytree(models, mine)
    (mine / "court-suit.onnx").unlink()
    assert main(["detect", str(frame), "--models", str(mine), "--lang", "en"]) == 0
    out = capsys.readouterr()
    assert "no card is reported sure" in out.err and out.err.count("warning") == 1
    assert "?" in out.out                                        # and so every name is marked doubtful


@pytest.mark.parametrize("argv, said", [
    (["run", "--headless", "--no-db", "--table", "t1"], "--table goes with --central"),
    (["run", "--headless", "--no-db", "--doubt", "Qs=Qc", "--doubt", "Qs=Kc"], "--doubt gives Qs twice"),
    (["desk", "--fast", "--no-db", "--stop-at", "-1", "--screenshot", "x.png"], "--stop-at is a frame number"),
])
def test_a_live_option_that_would_do_nothing_is_refused_not_taken_as_done(argv, said, tmp_path, capsys, monkeypatch):
    """``--table`` without a central log named no table anywhere; two offers for one card kept the
    first in silence; ``--stop-at -1`` never stopped. Each is said before the table starts."""
    from dealer_assist.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(argv + ["--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()
