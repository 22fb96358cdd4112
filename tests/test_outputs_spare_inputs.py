"""An output option never writes over what the command reads, nor over any hand log: one mistyped
path (``--export`` given the log's own name, ``--events`` the actions file) once turned a night's
hand log into a JSON file. Each is refused before anything is written, and the file is as it was."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dealer_assist.cli import main

ROOT = Path(__file__).resolve().parent.parent
FRAME = ROOT / "sample_frames" / "test_000000.jpg"
CALIBRATION = ROOT / "sample_frames" / "clip" / "table.yaml"


@pytest.fixture()
def log(tmp_path) -> Path:
    """A small hand log (the hand log's own schema, one session, no hands)."""
    from dealer_assist.live.handlog import HandLog

    path = tmp_path / "hands.sqlite"
    HandLog(str(path), source="test", game="holdem").close()
    return path


def _cases(tmp: Path, log: Path) -> list[tuple[str, list[str], Path]]:
    actions = tmp / "dealer.jsonl"
    actions.write_text('{"frame": 1, "type": "dealer", "name": "Sato"}\n', encoding="utf-8")
    photos = tmp / "photos"
    photos.mkdir()
    shutil.copy(FRAME, photos / "a.jpg")
    image = tmp / "frame.jpg"
    shutil.copy(FRAME, image)
    other_log = tmp / "other.sqlite"
    shutil.copy(log, other_log)
    return [
        ("review --export over its own log", ["review", "--db", str(log), "1:1", "--export", str(log)], log),
        ("review --export over another hand log", ["review", "--db", str(log), "1:1", "--export", str(other_log)],
         other_log),
        ("run --events into the hand log", ["run", "--headless", "--db", str(log), "--events", str(log),
                                            "--overwrite"], log),
        ("run --events over the actions", ["run", "--headless", "--no-db", "--actions", str(actions),
                                           "--events", str(actions), "--overwrite"], actions),
        ("desk --screenshot over the hand log", ["desk", "--fast", "--stop-at", "5", "--db", str(log),
                                                 "--screenshot", str(log)], log),
        ("detect --annotate into the photos' folder", ["detect", "--annotate", str(photos), str(photos / "a.jpg")],
         photos / "a.jpg"),
        ("calibrate --preview over the frame", ["calibrate", "--check", str(CALIBRATION), "--image", str(image),
                                                "--preview", str(image)], image),
    ]


@pytest.mark.parametrize("case", range(7))
def test_an_output_named_as_an_input_or_a_hand_log_is_refused_and_the_file_kept(case, tmp_path, log, capsys):
    what, argv, kept = _cases(tmp_path, log)[case]
    before = kept.read_bytes()
    assert main(argv + ["--lang", "en"]) == 2, what
    err = capsys.readouterr().err
    assert "give another" in err and "Traceback" not in err, (what, err)
    assert kept.read_bytes() == before, what


def test_a_misspelt_or_repeated_field_is_refused_not_read_as_left_out(tmp_path, capsys, monkeypatch):
    """``bet`` read ``"antes": 25`` as no ante, and every JSON reader kept the last of two keys of
    one name (``"committed": 100, "committed": 5`` paid on 5): both are refused, saying which."""
    import io
    import json

    seats = [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000}]
    cases = [
        ("bet", json.dumps({"structure": "no-limit", "blinds": [50, 100], "button": 1, "antes": 25, "seats": seats}),
         "antes"),
        ("bet", json.dumps({"structure": "no-limit", "blinds": [50, 100], "button": 1,
                            "seats": [{"seat": 1, "stack": 1000, "stak": 5}, seats[1]]}), "stak"),
        ("settle", '{"game": "holdem", "button": 1, "board": ["As", "Kd", "2c", "7h", "9s"], "seats": ['
                   '{"seat": 1, "hole": ["Qs", "Qd"], "committed": 100, "committed": 5},'
                   '{"seat": 2, "hole": ["Ks", "Kh"], "committed": 5}]}', '"committed" is given twice'),
    ]
    for command, text, said in cases:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        assert main([command, "--lang", "en"]) == 2, command
        out = capsys.readouterr()
        assert said in out.err and out.out == "", (command, out.err)
    actions = tmp_path / "dealer.jsonl"
    actions.write_text('{"frame": 1, "frame": 2, "type": "dealer", "name": "Sato"}\n', encoding="utf-8")
    assert main(["run", "--headless", "--no-db", "--actions", str(actions), "--lang", "en"]) == 2
    assert '"frame" is given twice' in capsys.readouterr().err
