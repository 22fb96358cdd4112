"""Train the layout classifier (:mod:`dealer_assist.vision.layout`) on rendered tables, on
a CPU (``[train]`` extra); ``scripts/train-cpu-layout.sh`` is the shipped model's recipe::

    dealer-assist synth runs/pips/world --n 1800 --seed 5200000 --recipe world --workers 2
    dealer-assist synth runs/pips/fresh-pips --n 1200 --seed 5210000 --recipe fresh-pips --workers 2
    python -m dealer_assist.vision.train_layout --data runs/pips/world --extra-data runs/pips/fresh-pips \\
        --runs runs/layout --epochs 14 --suited-only --channel-swap --out models

Every face-up suited card the detector's labels hold gives a patch cut as the runtime cuts the
look's (:func:`train_look.build_patches`: the outline jittered like a detector's error, either way
up), its four index corners hidden (:func:`layout.hide_indices`), labelled with its layout class:
the ace, 2 to 10, or a court card, in its suit. The last ``--val-frames`` frames of ``--data``
are validation only. Resumable: ``RUNS/layout/last.pt`` is written each epoch.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from dealer_assist.vision.train import log


def layout_label(card: dict) -> int | None:
    """The layout class of a labelled card (a joker's too), None for one the detector would not see.

    >>> layout_label({"card": "Tc", "visible_fraction": 0.9, "corners_visible": [True, True]})
    36
    >>> layout_label({"card": "JK", "visible_fraction": 0.9, "corners_visible": [True, True]})
    44
    """
    from dealer_assist.vision.layout import layout_class
    from dealer_assist.vision.train_look import look_label

    if look_label(card) is None:
        return None
    return layout_class(card["card"])


def suited_label(card: dict) -> int | None:
    """:func:`layout_label` for a model of the 44 suited classes alone (no joker)."""
    from dealer_assist.vision.layout import SUITED

    lab = layout_label(card)
    return lab if lab is not None and lab < SUITED else None


def patches(data: Path, split: str, seed: int, frames: list[Path], suited_only: bool = False
            ) -> tuple[np.ndarray, np.ndarray]:
    """Index-hidden whole-card patches and their layout classes: the face-up cards, and as
    ``none`` the backs and two table patches clear of any card per frame (``suited_only``: the
    suited cards alone)."""
    from dealer_assist.vision.layout import NONE_CLASS, hide_indices
    from dealer_assist.vision.train_look import build_patches

    if suited_only:
        x, y, _ = build_patches(data, split, seed, frames, hidden_reps=1, joker_reps=1, negatives=0,
                                label=suited_label, backs=False)
    else:
        x, y, _ = build_patches(data, split, seed, frames, hidden_reps=1, joker_reps=1, negatives=2,
                                label=layout_label, backs=True, back_label=NONE_CLASS, none_label=NONE_CLASS)
    return hide_indices(x), y


def report(probs: np.ndarray, y: np.ndarray) -> dict:
    """Accuracy of the whole class, of the rank group and of the suit, per rank group, and how
    often the true class gets less than 0.5 / 0.9."""
    from dealer_assist.vision.layout import JOKER_CLASS, NONE_CLASS, RANK_GROUPS, SUITED

    true_p = probs[np.arange(len(y)), y]
    suited = y < SUITED
    g = probs[:, :SUITED].reshape(len(probs), len(RANK_GROUPS), 4)
    rank_pred, suit_pred = g.sum(2).argmax(1), g.sum(1).argmax(1)
    return {"acc": round(float((probs.argmax(1) == y).mean()), 4),
            "acc_rank": round(float((rank_pred == y // 4)[suited].mean()), 4),
            "acc_suit": round(float((suit_pred == y % 4)[suited].mean()), 4),
            "acc_joker": round(float((probs.argmax(1) == y)[y == JOKER_CLASS].mean()), 4) if (y == JOKER_CLASS).any() else None,
            "acc_none": round(float((probs.argmax(1) == y)[y == NONE_CLASS].mean()), 4) if (y == NONE_CLASS).any() else None,
            "true_below_0.5": round(float((true_p < 0.5).mean()), 4),
            "true_below_0.9": round(float((true_p < 0.9).mean()), 4),
            "rank_per_group": {RANK_GROUPS[c]: round(float((rank_pred[suited & (y // 4 == c)] == c).mean()), 4)
                               for c in range(len(RANK_GROUPS)) if (suited & (y // 4 == c)).any()}}


def widen_head(ckpt: Path, out: Path, num_classes: int) -> Path:
    """A copy of a checkpoint of the same network with fewer output classes (an earlier layout
    model) whose last layer gains rows for the new classes (small random weights), so that a
    run with more classes starts from its features: ``--init`` of such a checkpoint."""
    import torch

    state = torch.load(str(ckpt), map_location="cpu", weights_only=False)
    model = dict(state["model"] if "model" in state else state)
    w, b = model["head.1.weight"], model["head.1.bias"]
    if w.shape[0] < num_classes:
        gen = torch.Generator().manual_seed(0)
        extra = num_classes - w.shape[0]
        model["head.1.weight"] = torch.cat([w, torch.randn(extra, w.shape[1], generator=gen) * 0.01])
        model["head.1.bias"] = torch.cat([b, torch.full((extra,), float(b.mean()))])
    torch.save({"model": model}, str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    from dealer_assist.vision.layout import LAYOUT_CLASSES, LAYOUT_FILE, SUITED
    from dealer_assist.vision.look import LOOK_H, LOOK_W
    from dealer_assist.vision.train import augment, train_classifier
    from dealer_assist.vision.train_look import cached_patches, evaluate

    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.train_layout")
    ap.add_argument("--data", required=True, type=Path, help="a rendered dataset (meta/, images/)")
    ap.add_argument("--extra-data", type=Path, action="append", default=[],
                    help="another rendered dataset whose frames all add training patches (repeatable)")
    ap.add_argument("--split", default="train")
    ap.add_argument("--runs", default=Path("runs/layout"), type=Path)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--val-frames", type=int, default=200, help="the last N frames of --data are validation only")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N frames of each set (smoke runs)")
    ap.add_argument("--init", default=None,
                    help="start from this checkpoint's weights (one with fewer classes gains rows: widen_head)")
    ap.add_argument("--out", type=Path, default=None, help=f"export {LAYOUT_FILE} into this folder")
    ap.add_argument("--suited-only", action="store_true",
                    help="the 44 suited classes alone: no joker, no 'no card' (the shipped model P1)")
    ap.add_argument("--channel-swap", action="store_true",
                    help="swap colour channels in a quarter of the batches, as the corner classifier "
                         "trains (the shipped model P1); by default colours are kept")
    args = ap.parse_args(argv)

    args.runs.mkdir(parents=True, exist_ok=True)
    classes = LAYOUT_CLASSES[:SUITED] if args.suited_only else LAYOUT_CLASSES
    if args.init:
        args.init = str(widen_head(Path(args.init), args.runs / "init.pt", len(classes)))
    frames = sorted((args.data / "meta" / args.split).glob("*.json"))[:args.limit]
    if len(frames) < 2:
        print(f"error: no rendered frames under {args.data / 'meta' / args.split}", file=sys.stderr)
        return 2
    nval = min(args.val_frames, len(frames) // 4)

    def split_patches() -> dict[str, np.ndarray]:
        x, y = patches(args.data, args.split, args.seed, frames[:len(frames) - nval], args.suited_only)
        xv, yv = patches(args.data, args.split, args.seed + 1, frames[len(frames) - nval:], args.suited_only)
        return {"x": x, "y": y, "xv": xv, "yv": yv}

    z = cached_patches(args.runs / "layout-patches.npz", split_patches, f"{len(frames)} frames of {args.data}")
    x, y, xv, yv = z["x"], z["y"], z["xv"], z["yv"]
    for i, extra in enumerate(args.extra_data):
        more = sorted((extra / "meta" / args.split).glob("*.json"))[:args.limit]

        def extra_patches(extra=extra, more=more, i=i) -> dict[str, np.ndarray]:
            ex, ey = patches(extra, args.split, args.seed + 2 + i, more, args.suited_only)
            return {"x": ex, "y": ey}

        e = cached_patches(args.runs / f"layout-patches-extra{i}.npz", extra_patches, f"{len(more)} frames of {extra}")
        x, y = np.concatenate([x, e["x"]]), np.concatenate([y, e["y"]])
    counts = np.bincount(y, minlength=len(classes)).astype(np.float64)
    log(f"layout: train {len(y)} patches ({counts.astype(int).tolist()} per class), {len(yv)} val")

    def validate(net):
        return {"val": report(evaluate(net, xv, yv), yv)}

    result = train_classifier(
        x, y, args.runs, args.epochs, args.seed, init=args.init, lr=args.lr, num_classes=len(classes),
        crop_hw=(LOOK_H, LOOK_W), out_dir="layout", class_weight=counts.sum() / (len(counts) * np.maximum(counts, 1)),
        batch_augment=lambda xb, gen: augment(xb, gen, channel_swap=args.channel_swap), validate=validate)
    summary = report(evaluate(result["net"], xv, yv), yv)
    (args.runs / "layout-summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    log(json.dumps(summary))
    if args.out is not None:
        from dealer_assist.vision.export import export_cnn
        export_cnn(args.runs / "layout" / "last.pt", args.out / LAYOUT_FILE, len(classes), (LOOK_H, LOOK_W),
                   "patches", ["probs"])
        log(f"exported {args.out / LAYOUT_FILE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
