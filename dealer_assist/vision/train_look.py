"""Train the card-look classifier (:mod:`dealer_assist.vision.look`) on rendered tables, on a CPU
(``[train]`` extra)::

    dealer-assist synth runs/look/data --n 3000 --seed 5000000 --recipe joker-rich --workers 2
    python -m dealer_assist.vision.train_look --data runs/look/data --runs runs/look \\
        --epochs 14 --holdout-jokers 8 --out models

Every labelled object of every frame gives a patch cut the way the runtime cuts it (its outline
as the min-area box a detector would predict, jittered like a detector's error, ordered and
rectified by :func:`~dealer_assist.vision.look.look_patch`): face-up suited cards -> their suit,
jokers -> ``joker``, backs -> ``back`` (each when the detector's labels would hold it), random
table patches clear of any card -> ``none``. Cards whose corners are both hidden get more
patches: those are the ones the runtime asks about.

Validation: the jokers of the last ``--holdout-jokers`` seeded joker styles (``proc-joker-NN``)
and the backs of the last ``--holdout-backs`` seeded back designs (``proc-back-NN``) are kept
out of training and with frames ``--val-frames`` (the last ones) measure how the classifier
reads a joker ART and a back DESIGN it has never seen, and what it says of suited cards. The held-out
TEST styles (benchmarks/eval_detect.py) are never touched. Resumable: the checkpoint
``runs/look/last.pt`` is written each epoch.

On a lent GPU: ``--device cuda`` trains (and evaluates) there, ``--minutes M`` trains as many of
``--epochs`` as fit M minutes (:func:`dealer_assist.vision.train.train_classifier`'s budget, a
fresh run only) and ``--workers N`` cuts the patches in N processes (:func:`cut_patches`).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from dealer_assist.vision.look import (BACK, BACK_OUT, FACE, JOKER, JOKER_OUT, LOOK_CLASSES, LOOK_H, LOOK_W,
                                       NONE_OUT, NOTHING, kinds, suits)
from dealer_assist.vision.synth.dataset import DETECT_MIN_VISIBLE
from dealer_assist.vision.train import BLUR_CARD_PX, far_copy, far_draws, in_parts, log


def look_label(card: dict) -> int | None:
    """The look output class of a labelled card (None: the detector would not see it): its suit
    (0 club .. 3 spade) or 4 for a joker.

    >>> look_label({"card": "JK", "visible_fraction": 0.6, "corners_visible": [False, False]})
    4
    >>> look_label({"card": "7h", "visible_fraction": 0.1, "corners_visible": [True, False]})
    2
    >>> look_label({"card": "7h", "visible_fraction": 0.2, "corners_visible": [False, False]}) is None
    True
    """
    from dealer_assist.cards import Card

    if card.get("visible_fraction", 1.0) < DETECT_MIN_VISIBLE and not any(card.get("corners_visible", [True])):
        return None
    return JOKER_OUT if card["card"] == "JK" else Card.parse(card["card"]).index % 4


def _patch(img: np.ndarray, polygon, rng: np.random.Generator, far: bool = False) -> np.ndarray:
    from dealer_assist.vision.geometry import (JITTER, jitter_obb, obb_from_polygon, order_card_polygon,
                                               polygon_from_obb)
    from dealer_assist.vision.look import look_patch

    if far:
        img, polygon = far_copy(img, polygon, rng)

    obb = jitter_obb(obb_from_polygon(np.asarray(polygon, np.float64)), rng, **JITTER)
    ordered = order_card_polygon(polygon_from_obb(obb))
    if rng.random() < 0.5:           # either way up: the runtime's order depends on the view
        ordered = np.roll(ordered, 2, axis=0)
    return look_patch(img, ordered)


def build_patches(data: Path, split: str, seed: int, frames: list[Path],
                  hidden_reps: int = 3, joker_reps: int = 3, negatives: int = 2,
                  label=look_label, backs: bool = True, back_label: int = BACK_OUT,
                  none_label: int = NONE_OUT, decoy_reps: int = 0,
                  far_p: float = 0.0) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Patches (N, LOOK_H, LOOK_W, 3), labels (N,) and for each the frame's joker style (jokers),
    back style (backs), ``decoy`` (decoys) or '' (others). ``label(card) -> int | None`` names a
    labelled card's class (:func:`look_label`; None: no patch), ``backs`` adds the face-down
    cards as ``back_label`` and ``negatives`` table patches per frame are ``none_label``.
    ``decoy_reps`` patches of each card-sized picture that is not a card (the ``world-decoy``
    recipe's ``meta.world.decoys``: photo prints, notes, covers) that no card or back lies on are
    ``none_label`` too: a bird print is not a joker. ``far_p``: the share of cards and backs
    that give one more patch, cut as a farther camera sees them (:func:`dealer_assist.vision.train.far_copy`:
    18 to 60 pixels wide), so that the look learns what a small card's suit does and does not show."""
    import cv2

    from dealer_assist.vision.geometry import polygon_iou

    rng = np.random.default_rng(seed)
    xs, ys, tags = [], [], []
    for mp in frames:
        meta = json.loads(mp.read_text(encoding="utf-8"))
        img = cv2.imread(str(data / "images" / split / meta["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        style = meta["meta"].get("joker_style", "")
        back_style = meta["meta"].get("back_style", "")
        for card in meta["cards"]:
            lab = label(card)
            if lab is None:
                continue
            hidden = not any(card.get("corners_visible", [True]))
            reps = joker_reps if lab == JOKER_OUT else (hidden_reps if hidden else 1)
            for far in far_draws(reps, far_p, rng):
                xs.append(_patch(img, card["polygon"], rng, far))
                ys.append(lab)
                tags.append(style if lab == JOKER_OUT else "")
        for back in (meta["backs"] if backs else []):
            if back["visible_fraction"] >= DETECT_MIN_VISIBLE:
                for far in far_draws(1, far_p, rng):
                    xs.append(_patch(img, back["polygon"], rng, far))
                    ys.append(back_label)
                    tags.append(back_style)
        h, w = img.shape[:2]
        polys = [c["polygon"] for c in meta["cards"]] + [b["polygon"] for b in meta["backs"]]
        for decoy in meta["meta"].get("world", {}).get("decoys", []) if decoy_reps else []:
            d = np.asarray(decoy, np.float64)
            if (d.min(axis=0) < 0).any() or d[:, 0].max() > w or d[:, 1].max() > h:
                continue   # cut by the frame's edge
            if any(polygon_iou(decoy, p) > 0.02 for p in polys):
                continue   # a card lies on it: its patch would show the card
            for _ in range(decoy_reps):
                xs.append(_patch(img, decoy, rng))
                ys.append(none_label)
                tags.append("decoy")
        made = tries = 0
        while made < negatives and tries < 20:   # table patches clear of every card
            tries += 1
            cw = rng.uniform(60, 190)
            cx, cy = rng.uniform(cw / 2, w - cw / 2), rng.uniform(cw * 0.7, h - cw * 0.7)
            poly = [[cx - cw / 2, cy - cw * 0.7], [cx + cw / 2, cy - cw * 0.7], [cx + cw / 2, cy + cw * 0.7],
                    [cx - cw / 2, cy + cw * 0.7]]
            if any(polygon_iou(poly, p) > 0.05 for p in polys):
                continue
            xs.append(_patch(img, poly, rng))
            ys.append(none_label)
            tags.append("")
            made += 1
    return np.stack(xs), np.array(ys, np.int64), tags


def _patches_part(data: Path, split: str, seed: int, frames: list[Path], kw: dict,
                  part: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    k, n = part
    return build_patches(data, split, [seed, k, n], frames[k::n], **kw)


def cut_patches(data: Path, split: str, seed: int, frames: list[Path], workers: int = 1,
                **kw) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """:func:`build_patches` (its keyword options ``kw``) in ``workers`` processes: process k of n
    cuts frames k, k + n, ... with a generator of its own (seeded ``[seed, k, n]``), and the
    parts are joined in that order. The patches are the same for the same ``workers``, whatever
    the machine; with one worker they are :func:`build_patches`'s own, patch for patch."""
    n = min(workers, len(frames))
    if n <= 1:
        return build_patches(data, split, seed, frames, **kw)
    parts = in_parts(_patches_part, n, data, split, seed, frames, kw)
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            [t for p in parts for t in p[2]])


def evaluate(net, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Softmax probabilities (N, 4) of a trained network (eval mode, no augmentation), computed
    on the network's device."""
    import torch

    dev = next(net.parameters()).device
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = torch.from_numpy(x[i:i + 512]).to(dev).permute(0, 3, 1, 2).float()
            out.append(torch.softmax(net(xb), dim=1).cpu().numpy())
    return np.concatenate(out) if out else np.zeros((0, len(LOOK_CLASSES)), np.float32)


def report(probs: np.ndarray, y: np.ndarray, thresholds=(0.5, 0.7, 0.8, 0.9)) -> dict:
    """Kind accuracy (face / joker / back / none), suit accuracy of suited cards, and at each
    joker threshold: joker recall and the share of suited cards / backs / table patches that
    would be called a joker."""
    k = kinds(probs)
    yk = np.where(y < 4, FACE, y - 3)            # output class -> kind
    pred = k.argmax(1)
    rec = {f"acc_{name}": round(float((pred[yk == i] == i).mean()), 4)
           for i, name in enumerate(("face", "joker", "back", "none")) if (yk == i).any()}
    if (y < 4).any():
        rec["acc_suit"] = round(float((suits(probs[y < 4]).argmax(1) == y[y < 4]).mean()), 4)
    for t in thresholds:
        called = k[:, JOKER] >= t
        rec[f"joker@{t}"] = {
            "recall": round(float(called[yk == JOKER].mean()), 4) if (yk == JOKER).any() else None,
            "false_face": round(float(called[yk == FACE].mean()), 5) if (yk == FACE).any() else None,
            "false_back": round(float(called[yk == BACK].mean()), 5) if (yk == BACK).any() else None,
            "false_none": round(float(called[yk == NOTHING].mean()), 5) if (yk == NOTHING).any() else None}
    return rec


#: :func:`train.camera_blur`'s sizes are for the corner crop's scale (a card's long side about
#: ``train.BLUR_CARD_PX`` crop pixels); a look patch holds the whole card in :data:`look.LOOK_H` pixels
BLUR_SCALE = LOOK_H / BLUR_CARD_PX


def flip_augment(x, gen):
    """Mirror half of a batch left-right: a joker's art may face either way."""
    import torch

    m = torch.rand(x.shape[0], generator=gen, device=x.device) < 0.5
    if m.any():
        x[m] = x[m].flip(3)
    return x


def train(x: np.ndarray, y: np.ndarray, runs: Path, epochs: int, seed: int, lr: float = 3e-3,
          x_val: np.ndarray | None = None, y_val: np.ndarray | None = None, init: str | None = None,
          device: str = "cpu", budget_s: float | None = None, blur: tuple[float, float] = (0.0, 0.0)):
    """Train (or resume from ``runs/last.pt``) with the corner classifier's loop
    (:func:`dealer_assist.vision.train.train_classifier`): the same CNN on whole-card patches,
    balanced classes, mirrored batches, on ``device`` ("cpu", "cuda"), as many of ``epochs`` as
    fit ``budget_s`` seconds (None: all of them; a fresh run only). ``blur`` (motion, defocus)
    blurs those shares of the patches as a camera would (:func:`train.camera_blur`, sized for
    the patch's card: :data:`BLUR_SCALE`). Returns (network, history)."""
    from dealer_assist.vision.train import augment, camera_blur, train_classifier

    p_motion, p_defocus = blur

    def batch_augment(xb, gen):
        xb = flip_augment(augment(xb, gen), gen)
        return camera_blur(xb, gen, p_motion, p_defocus, BLUR_SCALE) if p_motion or p_defocus else xb

    # balanced classes: each class weighs as much as the others in the loss
    counts = np.bincount(y, minlength=len(LOOK_CLASSES)).astype(np.float64)
    if x_val is not None and len(x_val):
        def validate(net):
            return {"val": report(evaluate(net, x_val, y_val), y_val)}
    else:
        validate = None
    log(f"look: training on {device}" + ("" if budget_s is None else f" for {budget_s:.0f} s at most")
        + (f", a camera's blur besides augment's, motion on {p_motion:g} and defocus on {p_defocus:g} of the "
           f"patches (camera_blur at {BLUR_SCALE:.2f})" if p_motion or p_defocus else ""))
    result = train_classifier(
        x, y, runs, epochs, seed, init=init, lr=lr, device=device, num_classes=len(LOOK_CLASSES),
        crop_hw=(LOOK_H, LOOK_W), out_dir=".", class_weight=counts.sum() / (len(counts) * np.maximum(counts, 1)),
        batch_augment=batch_augment, validate=validate, budget_s=budget_s)
    return result["net"], result["history"]


def export(ckpt: str | Path, out_path: str | Path) -> None:
    """The checkpoint as ONNX: input ``patches`` (n, 3, LOOK_H, LOOK_W) raw BGR pixels, output
    ``probs`` (n, 7) in LOOK_CLASSES order."""
    from dealer_assist.vision.export import export_cnn

    export_cnn(ckpt, out_path, len(LOOK_CLASSES), (LOOK_H, LOOK_W), "patches", ["probs"])


def record_in_models_json(out: Path, info: dict) -> None:
    """Write ``info`` as the ``look`` entry of ``out/models.json`` (kept beside the detector's)."""
    from dealer_assist.vision.detector import META_FILE

    path = out / META_FILE
    meta = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    meta["look"] = info
    path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def cached_patches(path: Path, build, what: str) -> dict[str, np.ndarray]:
    """The arrays ``build()`` returns, kept in ``path`` (written whole or not at all) and read
    from there when it exists: cutting patches from thousands of frames takes minutes."""
    if path.is_file():
        z = np.load(path, allow_pickle=False)
        return {k: z[k] for k in z.files}
    t0 = time.time()
    arrays = build()
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **arrays)
    tmp.replace(path)
    log(f"patches: {len(arrays['y'])} train" + (f", {len(arrays['yv'])} val" if "yv" in arrays else "")
        + f" from {what} in {time.time() - t0:.0f} s")
    return arrays


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.train_look")
    ap.add_argument("--data", required=True, type=Path, help="a rendered dataset (meta/, images/)")
    ap.add_argument("--split", default="train")
    ap.add_argument("--runs", default=Path("runs/look"), type=Path)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--holdout-jokers", type=int, default=8,
                    help="the last N seeded joker styles are validation only")
    ap.add_argument("--holdout-backs", type=int, default=6,
                    help="the last N seeded back designs are validation only")
    ap.add_argument("--val-frames", type=int, default=300, help="the last N frames are validation only")
    ap.add_argument("--limit", type=int, default=None, help="use only the first N frames (smoke runs)")
    ap.add_argument("--out", type=Path, default=None, help="export card-look.onnx into this folder")
    ap.add_argument("--init", default=None,
                    help="start from this checkpoint's weights (a fine-tune; e.g. runs/look/last.pt)")
    ap.add_argument("--decoy-reps", type=int, default=0,
                    help="patches of each card-sized picture that is not a card (world-decoy frames), "
                         "taught as 'none'")
    ap.add_argument("--far-p", type=float, default=0.0,
                    help="the share of cards and backs that give one more patch, cut as a farther camera "
                         "sees them (18 to 60 pixels wide: far_copy); 0: none")
    ap.add_argument("--extra-data", type=Path, action="append", default=[],
                    help="another rendered dataset whose frames all add training patches (e.g. a "
                         "fresh-pips recipe; repeatable); the validation frames stay --data's")
    ap.add_argument("--blur", type=float, nargs=2, default=[0.0, 0.0], metavar=("MOTION", "DEFOCUS"),
                    help="also blur these shares of the patches as a camera would, in motion and out of "
                         "focus (train.camera_blur, sized for the whole card; default 0 0: augment's "
                         "mild blur alone)")
    ap.add_argument("--device", default="cpu", help="the torch device to train on (cpu, cuda, cuda:0)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="train as many of --epochs as fit this many minutes (a fresh run)")
    ap.add_argument("--workers", type=int, default=1,
                    help="processes cutting the patches (1: the patches of a single process, as before)")
    args = ap.parse_args(argv)

    from dealer_assist.vision.look import LOOK_FILE
    from dealer_assist.vision.synth.styles import BACK_STYLES, JOKER_STYLES

    args.runs.mkdir(parents=True, exist_ok=True)
    frames = sorted((args.data / "meta" / args.split).glob("*.json"))[:args.limit]
    if len(frames) < 2:
        print(f"error: no rendered frames under {args.data / 'meta' / args.split}", file=sys.stderr)
        return 2
    proc = sorted(n for n in JOKER_STYLES if n.startswith("proc-joker-"))
    held = set(proc[len(proc) - args.holdout_jokers:]) if args.holdout_jokers else set()
    proc_b = sorted(n for n in BACK_STYLES if n.startswith("proc-back-"))
    held_b = set(proc_b[len(proc_b) - args.holdout_backs:]) if args.holdout_backs else set()
    nval = min(args.val_frames, len(frames) // 4)

    def split_patches() -> dict[str, np.ndarray]:
        x, y, tags = cut_patches(args.data, args.split, args.seed, frames[:len(frames) - nval], args.workers,
                                 decoy_reps=args.decoy_reps, far_p=args.far_p)
        xv, yv, tv = cut_patches(args.data, args.split, args.seed + 1, frames[len(frames) - nval:], args.workers,
                                 decoy_reps=args.decoy_reps, far_p=args.far_p)
        return {"x": x, "y": y, "tags": np.array(tags), "xv": xv, "yv": yv, "tv": np.array(tv)}

    z = cached_patches(args.runs / "patches.npz", split_patches, f"{len(frames)} frames of {args.data}")
    x, y, tags, xv, yv, tv = z["x"], z["y"], list(z["tags"]), z["xv"], z["yv"], list(z["tv"])
    for i, extra in enumerate(args.extra_data):
        more = sorted((extra / "meta" / args.split).glob("*.json"))

        def extra_patches(extra=extra, more=more, i=i) -> dict[str, np.ndarray]:
            ex, ey, et = cut_patches(extra, args.split, args.seed + 2 + i, more, args.workers,
                                     decoy_reps=args.decoy_reps, far_p=args.far_p)
            return {"x": ex, "y": ey, "tags": np.array(et)}

        z = cached_patches(args.runs / f"patches-extra{i}.npz", extra_patches, f"{len(more)} frames of {extra}")
        x, y, tags = np.concatenate([x, z["x"]]), np.concatenate([y, z["y"]]), tags + list(z["tags"])
    # held-out joker arts and back designs: their patches are validation only, wherever they
    # come from
    hx = np.array([t in held for t in tags], bool)
    hv = np.array([t in held for t in tv], bool)
    jx = np.concatenate([x[hx], xv[hv]])
    bx_t = np.array([t in held_b for t in tags], bool)
    bx_v = np.array([t in held_b for t in tv], bool)
    bx = np.concatenate([x[bx_t], xv[bx_v]])
    x, y = x[~(hx | bx_t)], y[~(hx | bx_t)]
    log(f"train {len(y)} patches ({np.bincount(y, minlength=len(LOOK_CLASSES)).tolist()} per class), "
        f"{int(hx.sum())} of held-out joker arts {sorted(held)}, {int(bx_t.sum())} of held-out backs {sorted(held_b)}")
    net, history = train(x, y, args.runs, args.epochs, args.seed, args.lr, xv, yv, init=args.init,
                         device=args.device, budget_s=None if args.minutes is None else args.minutes * 60,
                         blur=tuple(args.blur))
    summary = {"val_frames": report(evaluate(net, xv, yv), yv)}
    if len(jx):
        summary["heldout_joker_arts"] = report(evaluate(net, jx, np.full(len(jx), JOKER_OUT)),
                                               np.full(len(jx), JOKER_OUT))
        summary["heldout_joker_patches"] = int(len(jx))
    if len(bx):
        summary["heldout_back_designs"] = report(evaluate(net, bx, np.full(len(bx), BACK_OUT)),
                                                 np.full(len(bx), BACK_OUT))
        summary["heldout_back_patches"] = int(len(bx))
    (args.runs / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    log(json.dumps(summary))
    if args.out is not None:
        export(args.runs / "last.pt", args.out / LOOK_FILE)
        record_in_models_json(args.out, {
            "file": LOOK_FILE, "input": [LOOK_W, LOOK_H], "classes": list(LOOK_CLASSES),
            "data": str(args.data), "frames": len(frames), "epochs": args.epochs, "lr": args.lr,
            "init": args.init, "extra_data": [str(e) for e in args.extra_data],
            "seed": args.seed, "far_p": args.far_p, "blur": args.blur, "heldout_jokers": sorted(held), "heldout_backs": sorted(held_b),
            "validation": summary})
        log(f"exported {args.out / LOOK_FILE}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
