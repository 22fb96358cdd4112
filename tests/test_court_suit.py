"""The court-suit reader (``models/court-suit.onnx``, :mod:`dealer_assist.vision.court_suit`): a
jack's, queen's or king's suit read from its two ends, so that a court card named in the other
suit of its colour is not shown as sure, and one named right can be. (A folder without the model,
or with a corrupt one: tests/test_layout.py, with the layout check.)"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dealer_assist.vision.court_suit import (CLASSES, COURT_SUIT_FILE, SIZE, CourtSuitReader, court_crops,
                                             end_agreement, is_court)
from dealer_assist.vision.detector import CardDetector, read_image

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
SAMPLES = ROOT / "sample_frames"
OTHER_SUIT = {"c": "s", "s": "c", "d": "h", "h": "d"}

needs_model = pytest.mark.skipif(not (MODELS / COURT_SUIT_FILE).is_file(), reason="no shipped court-suit model")


def rendered_court(card: str, style: str, width: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """A rendered card on grey felt in a 400 x 400 frame and its outline (TL, TR, BR, BL)."""
    from dealer_assist.vision.synth.faces import render_card

    rgba = render_card(card, style, width)
    h, w = rgba.shape[:2]
    frame = np.full((400, 400, 3), 90, np.uint8)
    y0, x0 = (400 - h) // 2, (400 - w) // 2
    a = rgba[..., 3:4].astype(np.float32) / 255.0
    region = frame[y0:y0 + h, x0:x0 + w]
    frame[y0:y0 + h, x0:x0 + w] = (rgba[..., :3] * a + region * (1 - a)).astype(np.uint8)
    outline = np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float64)
    return frame, outline


@needs_model
def test_the_reader_tells_the_suit_of_courts_of_decks_it_never_saw():
    """Held-out deck designs (the test split's, never trained on), clubs and spades above all:
    the reader names the suit of nearly every court from its ends."""
    reader = CourtSuitReader(MODELS / COURT_SUIT_FILE)
    right = total = black_right = black = 0
    for style in ("heldout-serif-condensed", "heldout-triplex", "heldout-stroke-square"):
        for card in (r + s for r in "JQK" for s in "cdhs"):
            frame, outline = rendered_court(card, style)
            probs = reader(court_crops(frame, outline))
            best = CLASSES[int(probs.sum(0).argmax())][0]
            right += best == card[1]
            total += 1
            if card[1] in "cs":
                black_right += best == card[1]
                black += 1
    assert right / total >= 0.9, f"suit right on {right} of {total} held-out courts"
    assert black_right / black >= 0.85, f"club/spade right on {black_right} of {black} held-out courts"


@needs_model
def test_a_court_named_in_the_other_suit_of_its_colour_is_not_sure():
    """A court card read in a sample frame, its name moved to the other suit of its colour (the
    reader's commonest wrong names: a Qc read as a Qs): the court-suit reader's agreement falls
    and the card is not sure, while its own name keeps its agreement."""
    det = CardDetector(MODELS)
    # the lower of the courts' two thresholds (a court showing one index corner has its own)
    court = min(det.kind_sure_thresholds["court"], det.kind_sure_thresholds["covered_court"])
    assert det.court_suit is not None and court is not None
    checked = 0
    for frame, card, part, _other, after in renamed_courts(det):
        assert after["court_suit"] < 0.5 < part["court_suit"], (frame, card, part, after)
        assert after["sureness"] < court, (frame, card, after)
        checked += 1
    assert checked >= 2


def renamed_courts(det: CardDetector, frames: int = 10):
    """The court cards of the first sample frames whose court-suit reading holds (0.9 or more),
    each renamed to the other suit of its colour where no card of the frame bears that name:
    ``(frame name, the card as read, its sureness parts, the name it is given, its sureness
    parts under that name)``."""
    for frame in sorted(SAMPLES.glob("*.jpg"))[:frames]:
        image = read_image(frame)
        cards = det._detect(image)["cards"]
        before = det.sureness_parts(image, cards)
        names = {card["card"] for card in cards}
        for k, (c, part) in enumerate(zip(cards, before)):
            if not is_court(c["card"]) or part is None or part["p"] == 0.0 or part["court_suit"] < 0.9:
                continue
            other = c["card"][0] + OTHER_SUIT[c["card"][1]]
            if other in names:
                continue
            changed = [dict(card) for card in cards]
            changed[k]["card"] = other
            yield frame.name, c["card"], part, other, det.sureness_parts(image, changed)[k]


def test_a_number_card_is_not_asked_and_both_ends_in_view_must_agree():
    ends = np.array([[0.1, 0.0, 0.0, 0.9], [0.8, 0.0, 0.0, 0.2]])
    # both indices in view: an end that doubts the suit doubts the name
    assert end_agreement(ends, "Qc", visible=[0.99, 0.98]) == pytest.approx(0.1)
    assert end_agreement(ends, "Qs", visible=[0.99, 0.98]) == pytest.approx(0.2)
    # one in view: the other end shows what covers it and says nothing
    assert end_agreement(ends, "Qc", visible=[0.2, 0.98]) == pytest.approx(0.8)
    # neither (or not read): the better end
    assert end_agreement(ends, "Qc") == pytest.approx(0.8)
    assert [is_court(n) for n in ("Kd", "Jc", "Td", "As", "JK", "??", "K")] == [True, True, False, False,
                                                                                False, False, False]
    det = CardDetector(MODELS)
    image = read_image(sorted(SAMPLES.glob("*.jpg"))[0])
    cards = det._detect(image)["cards"]
    for c, part in zip(cards, det.sureness_parts(image, cards)):
        if part is not None and not is_court(c["card"]):
            assert part["court_suit"] == 1.0


def test_court_suit_training_smoke_run_exports_a_model_the_detector_loads(tmp_path):
    """One epoch on a handful of rendered frames (needs the [train] extra: torch), exported and
    loaded as the detector loads it."""
    pytest.importorskip("torch")
    from dealer_assist.vision.synth import write_dataset
    from dealer_assist.vision.train_court_suit import main as train_main

    data = tmp_path / "data"
    write_dataset(data, 10, "train", seed0=5_990_000, workers=1, recipe="base")
    out = tmp_path / "out"
    out.mkdir()
    assert train_main(["--data", str(data), "--monitor", str(data), "--runs", str(tmp_path / "runs"),
                       "--epochs", "1", "--out", str(out)]) == 0
    reader = CourtSuitReader(out / COURT_SUIT_FILE)
    probs = reader(np.zeros((3, SIZE[1], SIZE[0], 3), np.uint8))
    assert probs.shape == (3, 4) and np.allclose(probs.sum(axis=1), 1, atol=1e-4)
    assert train_main(["--data", str(tmp_path / "nowhere"), "--runs", str(tmp_path / "r2")]) == 2


def test_the_hard_augmentation_blurs_and_covers_part_of_an_end_as_a_card_on_top_would():
    """train_court_suit --hard (needs torch): motion blur and defocus take the index's sharp edges
    away; a cover puts another crop's pixels over one side of the end, the rest untouched."""
    torch = pytest.importorskip("torch")
    from dealer_assist.vision.train_court_suit import hard_augment

    frame, outline = rendered_court("Ks", "bicycle-like", 150)
    crops = torch.tensor(np.concatenate([court_crops(frame, outline)] * 4), dtype=torch.float32).permute(0, 3, 1, 2)

    def edges(x):
        return float((x[:, :, :, 1:] - x[:, :, :, :-1]).abs().mean())

    gen = torch.Generator().manual_seed(3)
    assert edges(hard_augment(crops.clone(), gen, 1.0, 0.0, 0.0)) < 0.8 * edges(crops)      # motion
    assert edges(hard_augment(crops.clone(), gen, 0.0, 1.0, 0.0)) < 0.8 * edges(crops)      # defocus
    other = torch.flip(crops, dims=(2, 3))            # another card's pixels beside each crop
    mixed = torch.stack([crops[0], other[0]] * 4)
    covered = hard_augment(mixed.clone(), gen, 0.0, 0.0, 1.0)
    changed = (covered != mixed).any(dim=1)           # N, H, W
    share = changed.float().mean(dim=(1, 2))
    assert ((share > 0.05) & (share < 0.55)).all()    # a band, not the whole end
    rows, cols = changed[0].any(dim=1), changed[0].any(dim=0)
    assert bool(rows.all()) or bool(cols.all())       # from one side to the other


def test_the_crops_show_the_index_end_upright_at_both_ends():
    """Both crops of a rendered court hold its index (dark ink on the paper) in their top-left,
    the bottom-right end turned upright."""
    frame, outline = rendered_court("Ks", "bicycle-like", 150)
    crops = court_crops(frame, outline)
    assert crops.shape == (2, SIZE[1], SIZE[0], 3)
    for crop in crops:
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        assert grey[8:30, 6:22].min() < 100      # the rank's ink


@needs_model
def test_a_court_read_as_the_other_suit_of_its_colour_is_asked_against_its_true_name():
    """The same renamed court: not sure, and the reader's likeliest other name for it
    (``detect --json``'s ``"or"``, what the dealer should check it against) is the card it is."""
    from dealer_assist.vision.detector import likeliest_other

    checked = 0
    for frame, card, _part, other, after in renamed_courts(CardDetector(MODELS)):
        assert likeliest_other(other, after["_evidence"]) == card, (frame, card)
        checked += 1
    assert checked >= 2


def test_a_doubtful_card_offers_another_name_only_where_a_reader_saw_one():
    """``"or"`` names a card another reader prefers (or the corners half read): a card not sure
    that every reader agrees on offers none (no noise for the dealer), and a sure card none."""
    import dataclasses

    det = CardDetector(MODELS)
    det.settings = dataclasses.replace(det.settings, sure=1.01)      # no card is sure
    named = offered = 0
    for frame in sorted(SAMPLES.glob("*.jpg"))[:4]:
        for c in det.detect(read_image(frame))["cards"]:
            if c["card"] in ("??", "JK"):
                assert "or" not in c
                continue
            named += 1
            if "or" in c:
                offered += 1
                assert not c["sure"] and c["or"] not in (c["card"], "JK") and len(c["or"]) == 2, c
    assert named >= 10 and offered < named / 2
    det.settings = dataclasses.replace(det.settings, sure=0.0)       # every card is sure
    assert all("or" not in c for f in sorted(SAMPLES.glob("*.jpg"))[:2] for c in det.detect(read_image(f))["cards"])
