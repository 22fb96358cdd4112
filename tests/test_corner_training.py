"""The corner classifier's training helpers (dealer_assist.vision.train): crops cut in several
processes, and a time-boxed run on a lent GPU that still ends its learning-rate schedule."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    from dealer_assist.vision.synth import write_dataset

    data = tmp_path_factory.mktemp("frames")
    write_dataset(data, 4, "train", seed0=5_980_000, workers=1, recipe="base")
    return data


def test_crops_cut_in_several_processes_are_the_same_cards_and_corners(frames):
    from dealer_assist.vision.train import build_crops

    x1, y1 = build_crops(frames, "train", 2, 0)
    x2, y2 = build_crops(frames, "train", 2, 0, workers=2)
    assert x2.shape == x1.shape and x2.dtype == np.uint8
    assert Counter(y2.tolist()) == Counter(y1.tolist())   # every labelled corner, none lost or doubled
    again, _ = build_crops(frames, "train", 2, 0, workers=2)
    assert np.array_equal(again, x2)                        # seeded per process: repeatable


def test_corners_can_also_be_cut_as_a_far_camera_sees_them(frames):
    """``train --cls-far-p``: a share of the cards give their two corners once more from the frame
    shrunk until the card is 18-60 pixels wide, labelled the same; without it the crops are those
    of before, crop for crop."""
    from dealer_assist.vision.classifier import NONE
    from dealer_assist.vision.train import build_crops

    x0, y0 = build_crops(frames, "train", 1, 0, negatives=0)
    x1, y1 = build_crops(frames, "train", 1, 0, negatives=0, far_p=1.0)
    plain, twice = Counter(y0.tolist()), Counter(y1.tolist())
    assert all(twice[k] == 2 * n for k, n in plain.items() if k != NONE) and len(y1) > len(y0)
    assert np.array_equal(build_crops(frames, "train", 1, 0, negatives=0, far_p=0.0)[0], x0)


def test_a_time_boxed_run_trains_the_epochs_that_fit_and_resumes_that_schedule(frames, tmp_path):
    pytest.importorskip("torch")
    import torch

    from dealer_assist.vision.train import build_crops, train_classifier

    x, y = build_crops(frames, "train", 2, 0)
    x, y = np.concatenate([x] * 8)[:2560], np.concatenate([y] * 8)[:2560]   # 10 batches an epoch
    rep = train_classifier(x, y, tmp_path, 500, 0, budget_s=2.0)
    done = len(rep["history"])
    assert 1 <= done < 500
    ck = torch.load(tmp_path / "cls" / "last.pt", weights_only=False)
    assert ck["epochs"] == done == ck["epoch"]
    # a second call resumes the finished schedule instead of starting 500 epochs
    assert len(train_classifier(x, y, tmp_path, 500, 0, budget_s=2.0)["history"]) == done
    # zero epochs: crops only, nothing trained or written
    assert train_classifier(x, y, tmp_path / "none", 0, 0)["history"] == []
    assert not (tmp_path / "none" / "cls" / "last.pt").exists()


def test_a_camera_blur_takes_the_index_edges_away_on_the_share_asked_and_leaves_the_rest(frames):
    """train --cls-blur (needs torch): the corner crops a camera would blur (motion, defocus) lose
    their sharp edges on the share asked; at 0 the crops are left exactly as they were."""
    torch = pytest.importorskip("torch")
    from dealer_assist.vision.train import build_crops, camera_blur

    x, _ = build_crops(frames, "train", 1, 0, negatives=0)
    crops = torch.tensor(x[:64], dtype=torch.float32).permute(0, 3, 1, 2)

    def edges(t):
        return (t[:, :, :, 1:] - t[:, :, :, :-1]).abs().mean(dim=(1, 2, 3))

    gen = torch.Generator().manual_seed(5)
    for p_motion, p_defocus in ((1.0, 0.0), (0.0, 1.0)):
        blurred = camera_blur(crops.clone(), gen, p_motion, p_defocus)
        assert (edges(blurred) < edges(crops)).all()
    half = camera_blur(crops.clone(), gen, 0.5, 0.0)
    changed = (half != crops).flatten(1).any(dim=1).float().mean()
    assert 0.2 < float(changed) < 0.8
    assert torch.equal(camera_blur(crops.clone(), gen, 0.0, 0.0), crops)


def test_a_camera_blur_sized_for_a_smaller_card_blurs_less_and_the_corner_scale_is_unchanged(frames):
    """train_look --blur (needs torch): the whole-card look's patch holds the card in about half
    the corner crop's pixels, so its camera blur is sized down with it (``scale``): the same draws
    take less of the edges away; at scale 1 the blur is the corner classifier's, draw for draw."""
    torch = pytest.importorskip("torch")
    from dealer_assist.vision.train import build_crops, camera_blur
    from dealer_assist.vision.train_look import BLUR_SCALE

    x, _ = build_crops(frames, "train", 1, 0, negatives=0)
    crops = torch.tensor(x[:64], dtype=torch.float32).permute(0, 3, 1, 2)

    def edges(t):
        return float((t[:, :, :, 1:] - t[:, :, :, :-1]).abs().mean())

    def blurred(seed, p_motion, p_defocus, *scale):
        return camera_blur(crops.clone(), torch.Generator().manual_seed(seed), p_motion, p_defocus, *scale)

    for p_motion, p_defocus in ((1.0, 0.0), (0.0, 1.0)):
        full = sum(edges(blurred(s, p_motion, p_defocus)) for s in range(8))
        small = sum(edges(blurred(s, p_motion, p_defocus, BLUR_SCALE)) for s in range(8))
        assert full < small < 8 * edges(crops)
        assert torch.equal(blurred(3, p_motion, p_defocus, 1.0), blurred(3, p_motion, p_defocus))
