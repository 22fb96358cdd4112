"""Train the court-suit reader (:mod:`dealer_assist.vision.court_suit`) on rendered tables, on a
CPU (``[train]`` extra). The shipped model's recipe (models/MODEL_CARD.md, "Sixteenth
session"; about 22 minutes on this 2-core CPU)::

    python -m dealer_assist.vision.train_court_suit --data runs/aces/world \\
        --data runs/fonts-700000/data --data runs/fonts-720000/data \\
        --monitor runs/lookw/world --runs runs/court-suit --epochs 6 --out models

Every face-up suited card (with ``--courts-only``: every jack, queen and king) in the labels of
the ``--data`` frames gives, per end whose index is in view, a crop cut as the runtime cuts it
(:func:`court_suit.court_crops`) from its outline jittered like a detector's box
(:data:`geometry.JITTER`), ``--reps`` times, labelled with its suit. The reader is asked about
court cards only, but the reader that learned every card's index signs checks a court's name
better on the validation sets. The ``--monitor`` frames (another rendered set, never trained on) report the
reader's accuracy each epoch. Colours are kept (no channel swap): a suit's colour is part of
what tells it. Resumable: ``RUNS/net/last.pt`` is written each epoch, and the crops are cut once
(``RUNS/crops-*.npz``).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from dealer_assist.vision.train import log


def court_crops_of(folders: list[Path], reps: int, seed: int, limit: int | None = None,
                   courts_only: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, 56, 56, 3) and suit labels (N,) of the courts (with ``courts_only`` False: of
    every suited card) of every frame of ``folders`` (their ``meta/*/*.json`` and ``images/``)."""
    import cv2

    from dealer_assist.vision.court_suit import REGION, SIZE, SUITS, is_court
    from dealer_assist.vision.geometry import training_corner_crops

    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for folder in folders:
        for mp in sorted(folder.glob("meta/*/*.json"))[:limit]:
            meta = json.loads(mp.read_text(encoding="utf-8"))
            courts = [c for c in meta["cards"]
                      if is_court(c["card"]) or (not courts_only and c["card"] != "JK" and c["card"][-1:] in SUITS)]
            if not courts:
                continue
            img = cv2.imread(str(folder / "images" / mp.parent.name / meta["image"]))
            if img is None:
                continue
            for c in courts:
                for _ in range(reps):
                    # the runtime's crops (court_suit.court_crops) of a detector-like box, each
                    # labelled with the true end it shows
                    for end, crop in training_corner_crops(img, c["polygon"], rng, region=REGION, size=SIZE):
                        if c["corners_visible"][0 if end == "tl" else 1]:
                            xs.append(crop)
                            ys.append(SUITS.index(c["card"][1]))
    if not xs:
        return np.zeros((0, SIZE[1], SIZE[0], 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.array(ys, np.int64)


def hard_augment(x, gen, p_motion: float = 0.3, p_defocus: float = 0.2, p_cover: float = 0.25):
    """What makes a court's end hard to read, on a batch of raw-pixel crops (float tensor N,3,H,W),
    beside :func:`train.augment`'s mild blur: a camera's motion blur and defocus
    (:func:`train.camera_blur`) and another card's edge over part of the end (a band of 20 to 50 %
    of the crop from one side, cut from another crop of the batch at the same place). The label
    stays: where the suit cannot be told, the reader learns to say so (its probabilities spread)
    instead of guessing surely."""
    import torch

    from dealer_assist.vision.train import camera_blur

    n = x.shape[0]

    def rand(*shape):
        return torch.rand(*shape, generator=gen, device=x.device)

    x = camera_blur(x, gen, p_motion, p_defocus)
    cover = rand(n) < p_cover
    if cover.any() and n > 1:
        other = x[torch.roll(torch.arange(n), 1)]
        h, w = x.shape[2], x.shape[3]
        frac = 0.2 + 0.3 * float(rand(1).item())
        side = int(rand(1).item() * 4)
        band = torch.zeros(h, w, dtype=torch.bool)
        if side == 0:
            band[:, : int(w * frac)] = True
        elif side == 1:
            band[:, w - int(w * frac):] = True
        elif side == 2:
            band[: int(h * frac)] = True
        else:
            band[h - int(h * frac):] = True
        mask = cover[:, None, None, None] & band[None, None]
        x = torch.where(mask, other, x)
    return x


def report(probs: np.ndarray, y: np.ndarray) -> dict:
    """Accuracy, accuracy on the black suits, and how sure the wrong readings were."""
    if not len(y):
        return {"n": 0}
    pred = probs.argmax(1)
    wrong = pred != y
    black = np.isin(y, [0, 3])
    return {"n": int(len(y)), "acc": round(float((~wrong).mean()), 4),
            "black_acc": round(float((~wrong[black]).mean()), 4) if black.any() else None,
            "wrong_conf_p90": round(float(np.quantile(probs.max(1)[wrong], 0.9)), 3) if wrong.any() else None}


def main(argv: list[str] | None = None) -> int:
    from dealer_assist.vision.court_suit import CLASSES, COURT_SUIT_FILE, SIZE
    from dealer_assist.vision.train import augment, train_classifier
    from dealer_assist.vision.train_look import cached_patches, evaluate

    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.train_court_suit")
    ap.add_argument("--data", required=True, type=Path, action="append",
                    help="a rendered dataset (meta/, images/) to train on (repeatable)")
    ap.add_argument("--monitor", type=Path, default=None, help="a rendered dataset to report on each epoch")
    ap.add_argument("--runs", default=Path("runs/court-suit"), type=Path)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--reps", type=int, default=1, help="jittered boxes per card")
    ap.add_argument("--courts-only", action="store_true",
                    help="learn from the court cards' ends alone (by default every suited card's ends: the "
                         "shipped reader CS2 learned more index signs that way and makes the better check of a court's name)")
    ap.add_argument("--hard", action="store_true",
                    help="also blur (motion, defocus) and partly cover the crops (hard_augment): ends past "
                         "reading taught to spread their probabilities")
    ap.add_argument("--label-smoothing", type=float, default=0.05,
                    help="cross-entropy label smoothing (default 0.05, as CS2 was trained; 0: the reader's "
                         "top probability is not capped at 1 - s + s/4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", default=None,
                    help="start from this checkpoint's weights (recover --court-suit rebuilds one from the ONNX)")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N frames of each set (smoke runs)")
    ap.add_argument("--out", type=Path, default=None, help=f"export {COURT_SUIT_FILE} into this folder")
    args = ap.parse_args(argv)

    args.runs.mkdir(parents=True, exist_ok=True)
    missing = [str(d) for d in args.data if not (d / "meta").is_dir()]
    if missing:
        print(f"error: no rendered frames (meta/) under {', '.join(missing)}", file=sys.stderr)
        return 2
    z = cached_patches(args.runs / "crops-train.npz",
                       lambda: dict(zip(("x", "y"), court_crops_of(args.data, args.reps, args.seed, args.limit,
                                                                   args.courts_only))),
                       ", ".join(map(str, args.data)))
    x, y = z["x"], z["y"]
    if len(y) < 2:
        print("error: the frames hold no court card to learn from", file=sys.stderr)
        return 2
    xm = ym = None
    if args.monitor is not None:
        m = cached_patches(args.runs / "crops-monitor.npz",
                           lambda: dict(zip(("x", "y"), court_crops_of([args.monitor], 1, args.seed + 1, args.limit,
                                                                       args.courts_only))),
                           str(args.monitor))
        xm, ym = m["x"], m["y"]
    log(f"court suit: {len(y)} crops ({np.bincount(y, minlength=4).tolist()} per suit)"
        + (f", {len(ym)} to monitor" if ym is not None else ""))

    def validate(net):
        return {"monitor": report(evaluate(net, xm, ym), ym)} if ym is not None and len(ym) else {}

    def batch_augment(xb, gen):
        xb = augment(xb, gen, channel_swap=False)
        return hard_augment(xb, gen) if args.hard else xb

    crop_hw = (SIZE[1], SIZE[0])
    result = train_classifier(x, y, args.runs, args.epochs, args.seed, init=args.init, lr=args.lr, num_classes=len(CLASSES),
                              crop_hw=crop_hw, out_dir="net",
                              batch_augment=batch_augment, validate=validate,
                              label_smoothing=args.label_smoothing)
    if ym is not None and len(ym):
        summary = report(evaluate(result["net"], xm, ym), ym)
        (args.runs / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        log(json.dumps(summary))
    if args.out is not None:
        from dealer_assist.vision.export import export_cnn
        export_cnn(args.runs / "net" / "last.pt", args.out / COURT_SUIT_FILE, len(CLASSES), crop_hw, "crops", ["probs"])
        log(f"exported {args.out / COURT_SUIT_FILE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
