"""Train the corner suit classifier (``corner-suit.onnx``, :class:`~dealer_assist.vision.classifier.SuitClassifier`)
on rendered tables, on a CPU (``[train]`` extra)::

    dealer-assist synth runs/suit/pips --n 3000 --seed 60000 --recipe fresh-pips --workers 2
    dealer-assist synth runs/suit/base --n 1500 --seed 64000 --workers 2
    python -m dealer_assist.vision.train_suit --data runs/suit/pips --data runs/suit/base \\
        --val runs/val-pips --val runs/val-train --runs runs/suit --epochs 8 --out models

Why a second network on the same corner crops: the corner classifier's most frequent naming
error is a spade read as a club (and back) on decks whose pips it has never seen, and training
it on more pip drawings cost it ranks (models/MODEL_CARD.md, C5/C6). This network only tells
the four suits apart, from the crops the runtime cuts (:func:`geometry.training_corner_crops`,
with detector-like jitter), on frames whose every deck has a pip drawing of its own (the
``fresh-pips`` recipe) and base frames; at run time its word is weighed into the suit the
way the card look's is (``DetectorSettings.corner_suit``), so it cannot move a rank.

Validation: the crops of ``--val`` frame folders (the ``val-pips`` frames' pip drawings are
never rendered for training), with the shipped corner classifier's suit on the same crops
beside it. The held-out TEST styles are never touched. Resumable: ``runs/suit/suit/last.pt``
is written each epoch.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from dealer_assist.vision.classifier import JK, SUIT_FILE
from dealer_assist.vision.train import build_crops, log

#: crop jitter (shift, scale, turn) as the corner classifier's training uses (train.py --crop-jitter)
JITTER = {"shift": 0.07, "scale": 0.08, "angle_deg": 6.0}
SUITS = ("c", "d", "h", "s")


def suit_crops(folders: list[Path], reps: int, seed: int, limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Index-corner crops (N, 56, 36, 3) of suited cards in ``folders`` and their suits (N,) in
    :data:`SUITS` order (a card's class is rank * 4 + suit)."""
    xs, ys = [], []
    for i, d in enumerate(folders):
        x, y = build_crops(d, "train", reps, seed + i, limit, negatives=0, jitter=JITTER)
        keep = y < JK
        xs.append(x[keep])
        ys.append(y[keep] % 4)
    return np.concatenate(xs), np.concatenate(ys)


def corner_classifier_suits(model_dir: Path, x: np.ndarray) -> np.ndarray:
    """The shipped corner classifier's suit for each crop (its 52 card probabilities summed by suit)."""
    from dealer_assist.vision.classifier import CornerClassifier
    from dealer_assist.vision.detector import CLS_FILE

    cls = CornerClassifier(model_dir / CLS_FILE)
    out = []
    for i in range(0, len(x), 1024):
        p, _ = cls(x[i:i + 1024])
        out.append(p[:, :JK].reshape(len(p), 13, 4).sum(axis=1).argmax(axis=1))
    return np.concatenate(out)


def accuracy(pred: np.ndarray, y: np.ndarray) -> dict:
    """Suit accuracy, and spades read as clubs and clubs as spades (the error this model is for)."""
    return {"acc": round(float((pred == y).mean()), 4),
            "s_as_c": int(((y == 3) & (pred == 0)).sum()), "c_as_s": int(((y == 0) & (pred == 3)).sum()),
            "n": int(len(y))}


def _net_from(ckpt: str | Path):
    import torch

    from dealer_assist.vision.train import build_corner_net

    net = build_corner_net(num_classes=4)
    net.load_state_dict(torch.load(str(ckpt), map_location="cpu", weights_only=False)["model"])
    return net


def predict(net, x: np.ndarray) -> np.ndarray:
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 1024):
            xb = torch.from_numpy(x[i:i + 1024]).permute(0, 3, 1, 2).float()
            out.append(net(xb).argmax(1).numpy())
    net.train()
    return np.concatenate(out)


def suit_init_from_corner(corner_ckpt: str | Path, out: Path) -> Path:
    """A 4-suit starting checkpoint from a corner-classifier checkpoint (``recover
    --corner-classifier``): the same features and embedding, and each suit's output the mean of
    that suit's 13 card outputs (classes rank x 4 + suit), so training starts from what the corner
    classifier already knows of suits."""
    import torch

    state = torch.load(str(corner_ckpt), map_location="cpu", weights_only=False)
    state = dict(state["model"] if "model" in state else state)
    w, b = state["head.1.weight"], state["head.1.bias"]                  # (54, 128), (54,)
    state["head.1.weight"] = w[:JK].reshape(13, 4, -1).mean(dim=0).clone()
    state["head.1.bias"] = b[:JK].reshape(13, 4).mean(dim=0).clone()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": state}, out)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.train_suit")
    ap.add_argument("--data", required=True, type=Path, action="append",
                    help="a rendered dataset (meta/, images/) to train on; repeatable")
    ap.add_argument("--val", type=Path, action="append", default=[],
                    help="a rendered dataset to validate on (e.g. runs/val-pips); repeatable")
    ap.add_argument("--runs", default=Path("runs/suit"), type=Path)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--reps", type=int, default=2, help="jittered crops per card corner")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=int, default=None, help="use only the first N frames of each folder (smoke runs)")
    ap.add_argument("--models", type=Path, default=Path("models"),
                    help="the shipped corner classifier to compare with on the validation crops")
    ap.add_argument("--out", type=Path, default=None, help="export corner-suit.onnx into this folder")
    ap.add_argument("--init-corner", default=None,
                    help="start from a corner-classifier checkpoint (recover --corner-classifier): its "
                         "features, and each suit's output the mean of its 13 cards'")
    args = ap.parse_args(argv)

    from dealer_assist.vision.train import train_classifier
    from dealer_assist.vision.train_look import cached_patches, record_in_models_json

    for d in args.data + args.val:
        if not any((d / "meta" / "train").glob("*.json")):
            print(f"error: no rendered frames under {d / 'meta' / 'train'}", file=sys.stderr)
            return 2
    args.runs.mkdir(parents=True, exist_ok=True)
    z = cached_patches(args.runs / "crops.npz",
                       lambda: dict(zip(("x", "y"), suit_crops(args.data, args.reps, args.seed, args.limit))),
                       f"{len(args.data)} folders")
    x, y = z["x"], z["y"]
    vals = {}
    for i, d in enumerate(args.val):
        v = cached_patches(args.runs / f"crops-val{i}-{d.name}.npz",
                           lambda d=d, i=i: dict(zip(("x", "y"), suit_crops([d], 1, args.seed + 100 + i, args.limit))),
                           str(d))
        base = corner_classifier_suits(args.models, v["x"]) if (args.models / "corner-cls.onnx").is_file() else None
        vals[d.name] = (v["x"], v["y"], accuracy(base, v["y"]) if base is not None else None)
        log(f"validation {d.name}: {len(v['y'])} crops; shipped corner classifier {vals[d.name][2]}")
    log(f"train: {len(y)} crops, per suit {np.bincount(y, minlength=4).tolist()}")

    def validate(net) -> dict:
        return {name: accuracy(predict(net, vx), vy) for name, (vx, vy, _) in vals.items()}

    t0 = time.time()
    init = None
    if args.init_corner:
        init = str(suit_init_from_corner(args.init_corner, args.runs / "init-from-corner.pt"))
        log(f"start from {args.init_corner}: {validate(_net_from(init))}")
    res = train_classifier(x, y, args.runs, args.epochs, args.seed, lr=args.lr, num_classes=4,
                           out_dir="suit", validate=validate, init=init)
    summary = {"validation": {name: {"suit_model": r, "corner_classifier": vals[name][2]}
                              for name, r in (res["history"][-1].items()) if name in vals},
               "train_crops": int(len(y)), "minutes": round((time.time() - t0) / 60, 1)}
    (args.runs / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    log(json.dumps(summary))
    if args.out is not None:
        from dealer_assist.vision.export import export_cnn

        export_cnn(args.runs / "suit" / "last.pt", args.out / SUIT_FILE, 4, (56, 36), "crops", ["probs"])
        record_in_models_json(args.out, {
            "file": SUIT_FILE, "input": [36, 56], "classes": list(SUITS),
            "data": [str(d) for d in args.data], "epochs": args.epochs, "lr": args.lr, "reps": args.reps,
            "seed": args.seed, "crop_jitter": JITTER, "init_corner": args.init_corner,
            "validation": summary["validation"]}, key="suit")
        log(f"exported {args.out / SUIT_FILE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
