"""A camera out of focus (dealer_assist.vision.focus): a card whose outline is blurred past what the
reader can trust is never sure, and ``detect`` says why; a sharp picture, or a noisy one, keeps its
sure cards. The sample clip's flop under a lens out of focus by 3 % of a card is where its clubs
became sure spades and a hand was paid to the wrong seat (models/MODEL_CARD.md, "Fiftieth
session")."""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.cli import main
from dealer_assist.vision.detector import CardDetector, DetectorSettings, default_model_dir
from dealer_assist.vision.focus import BLUR_LIMIT, card_blur
from dealer_assist.vision.geometry import edge_lengths

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import camera_conditions as C  # noqa: E402  (benchmarks/: a camera's conditions, as the yardsticks lay them)
from test_picture import clip_frames  # noqa: E402  (the clip's first frames)

ROOT = Path(__file__).resolve().parent.parent
CLIP = ROOT / "sample_frames" / "clip"
FRAME = 48          # hand 1's flop and both players' cards face up


@functools.cache
def clip_frame(k: int) -> np.ndarray:
    """Frame ``k`` of the clip, decoded once for the module's tests (none of them changes it)."""
    return clip_frames(k + 1)[k]


@functools.cache
def card_long() -> float:
    """The clip's cards' median long side, pixels, as ``benchmarks/eval_clip.py`` takes it."""
    labels = [json.loads(x) for x in (CLIP / "labels.jsonl").read_text().splitlines() if x.strip()]
    return float(np.median([edge_lengths(c["polygon"]).max() for lab in labels for c in lab["cards"] + lab["backs"]]))


def out_of_focus(frame: np.ndarray, part: float) -> np.ndarray:
    """``frame`` through a lens out of focus by ``part`` of a card (a disc of that radius), as
    ``eval_clip.py --camera defocus:PART`` gives it (``benchmarks/camera_conditions.py``)."""
    return C.apply(frame, [C.parse_condition(f"defocus:{part}")], card_long(), FRAME)


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector(default_model_dir())


def named(result: dict) -> list[dict]:
    return [c for c in result["cards"] if c["card"] != "??"]


def test_a_sharp_picture_and_a_noisy_one_keep_their_sure_cards(detector):
    frame = clip_frame(FRAME)
    sharp = named(detector.detect(frame))
    assert len(sharp) >= 5 and all(c["sure"] for c in sharp)
    assert not any(c.get("blurred") for c in sharp)
    noise = np.random.default_rng(3).normal(0.0, 12.0, frame.shape)
    grainy = named(detector.detect(np.clip(frame + noise, 0, 255).astype(np.uint8)))
    assert grainy and not any(c.get("blurred") for c in grainy)


def test_a_lens_out_of_focus_makes_no_card_sure_and_each_says_it_is_blurred(detector):
    soft = out_of_focus(clip_frame(FRAME), 0.03)
    cards = named(detector.detect(soft))
    assert len(cards) >= 3
    assert not any(c["sure"] for c in cards)
    assert all(c.get("blurred") for c in cards)
    assert all(card_blur(soft, c["polygon"]) > BLUR_LIMIT for c in cards)
    # without the limit the same reading makes cards sure (the thresholds know no such blur)
    ungated = CardDetector(default_model_dir(), settings=DetectorSettings(blur_limit=None))
    assert any(c["sure"] for c in named(ungated.detect(soft)))


def test_detect_says_a_blurred_card_in_json_and_in_its_table(tmp_path, capsys):
    path = tmp_path / "soft.png"
    cv2.imwrite(str(path), out_of_focus(clip_frame(FRAME), 0.03))
    assert main(["detect", "--json", str(path)]) == 0
    res = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    cards = [c for c in res["cards"] if c["card"] != "??"]
    assert cards and all(c["blurred"] is True and c["sure"] is False for c in cards)
    assert main(["detect", "--lang", "ja", str(path)]) == 0
    assert "ぼやけている" in capsys.readouterr().out
    assert main(["detect", "--lang", "en", str(clip_frame_path(tmp_path))]) == 0
    assert "blurred:" not in capsys.readouterr().out


def clip_frame_path(tmp_path: Path) -> Path:
    path = tmp_path / "sharp.png"
    cv2.imwrite(str(path), clip_frame(FRAME))
    return path


def test_a_hand_played_out_of_focus_is_held_for_the_dealer_and_the_desk_says_why(tmp_path):
    """Hand 1 of the clip through a lens out of focus by 3 % of a card: its board's 2c reads as a
    2s and would pay seat 1 instead of seat 5. The camera's blur is said, and the showdown is held
    for the dealer with every card to check, the 2 among them; the hand ends provisional."""
    from dealer_assist.desk.view import DeskState
    from dealer_assist.live.events import event_from_json

    src = tmp_path / "frames"
    src.mkdir()
    frames = clip_frames(96)            # hand 1, to its end (frame 87)
    assert len(frames) == 96
    for k, frame in enumerate(frames):
        cv2.imwrite(str(src / f"{k:03d}.png"), out_of_focus(frame, 0.03), [cv2.IMWRITE_PNG_COMPRESSION, 1])
    events = tmp_path / "events.jsonl"
    assert main(["run", "--headless", "--source", str(src), "--fps", "15", "--actions", str(CLIP / "dealer.jsonl"),
                 "--calibration", str(CLIP / "table.yaml"), "--events", str(events), "--no-db", "--lang", "en"]) == 0
    lines = [json.loads(x) for x in events.read_text().splitlines() if x.strip()]
    said = [(e["code"], e["cleared"]) for e in lines if e.get("code") == "picture_blurred"]
    assert said == [("picture_blurred", False)]
    showdown = next(e for e in lines if e["type"] == "showdown" and e["hand"] == 1)
    assert showdown["ruling"]["provisional"] is True
    doubted = {c["zone"]: c["card"] for c in showdown["ruling"]["unsure"]}
    assert {"board1", "board2", "board3", "board4", "board5"} <= set(doubted)
    assert doubted["board3"][0] == "2"
    assert next(e for e in lines if e["type"] == "hand_end" and e["hand"] == 1)["provisional"] is True
    desk = DeskState(seats=6)
    desk.feed([ev for ev in map(event_from_json, lines) if ev is not None], None)
    shown = [(a.code, a.severity, a.title) for a in desk.snapshot("ja").alerts]
    assert ("picture_blurred", "warn", "カメラのピンぼけ：カードは確定しない") in shown
