"""Rebuild a trainable ultralytics checkpoint of the card detector from the shipped ONNX model.

Training checkpoints live in ``runs/`` (not in the repository), so a new machine has only
``models/cards-obb.onnx``. That file holds every weight of the network, with each convolution's
batch normalisation folded into it (``W' = W * g / s``, ``b' = beta - mean * g / s``). This module
puts the weights back into the project's YOLOv8-OBB architecture (:func:`train.obb_yaml`, at the
width the file's first convolution shows) and
unfolds each batch norm so that training can go on from them:

* every ``Conv`` (convolution + batch norm) gets the folded weight as its convolution and a batch
  norm whose running statistics are the real statistics of that convolution's output on training
  frames (``mean``, ``var``), with ``gamma = sqrt(var + eps)`` and ``beta = b' + mean``: in
  evaluation the layer computes exactly ``W' x + b'`` again, and in training, where the batch norm
  uses each batch's own statistics, it starts close to that instead of from an identity guess;
* the head's plain convolutions take their weight and bias as they are.

The rebuilt model is checked against ONNX Runtime on a real frame before it is saved.

    .venv-train/bin/python -m dealer_assist.vision.recover --onnx models/cards-obb.onnx \\
        --frames runs/data/images/train --out runs/recovered/cards-obb.pt

``--corner-classifier`` does the same for the corner classifier (:func:`rebuild_cnn`, the
statistics measured on corner crops of a rendered dataset's train split); its checkpoint is what
``train --init-cls`` and ``export --cls`` take:

    .venv-train/bin/python -m dealer_assist.vision.recover --corner-classifier \\
        --onnx models/corner-cls.onnx --frames runs/val-train --out runs/recovered/cls.pt

``--look`` rebuilds the card look the same way (the statistics measured on whole-card patches of a
rendered dataset); its checkpoint is what ``train_look --init`` takes (``--layout`` rebuilds the
layout check, stage 4, from the same patches with their indices hidden, for ``train_layout --init``):

    .venv-train/bin/python -m dealer_assist.vision.recover --look \\
        --onnx models/card-look.onnx --frames runs/world2/data --out runs/recovered/look.pt

``--court-suit`` rebuilds the court-suit reader (stage 5) from the court crops of a rendered dataset,
for ``train_court_suit --init``.

Needs the ``[train]`` extra (torch, ultralytics, onnx).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from dealer_assist.errors import UserError, says
from dealer_assist.i18n import _
from dealer_assist.vision.classifier import file_reason, load_session


def _load_graph(onnx_path: Path):
    """The ONNX file's graph and its initializers by name (:class:`UserError` when unreadable)."""
    import onnx
    from onnx import numpy_helper

    try:
        graph = onnx.load(str(onnx_path)).graph
    except Exception as exc:  # noqa: BLE001 - a corrupt file is a user's problem to hear about
        raise UserError(_("cannot read the ONNX model {path}: {why}", path=onnx_path, why=file_reason(exc))) from None
    return graph, {i.name: numpy_helper.to_array(i).copy() for i in graph.initializer}


def _initializers(onnx_path: Path) -> dict[str, np.ndarray]:
    return _load_graph(onnx_path)[1]


def _set_identity_norm(bn, bias: np.ndarray) -> None:
    """A batch norm that passes its input through plus ``bias`` (the folded convolution's bias):
    ``sqrt(var + eps) == 1``, so the layer computes exactly ``W' x + b'`` while it is measured."""
    import torch

    bn.running_mean.zero_()
    bn.running_var.fill_(1.0 - bn.eps)
    bn.weight.fill_(1.0)
    bn.bias.copy_(torch.from_numpy(bias))


def _unfold_norms(model, pairs: list, batches) -> None:
    """Unfold each (convolution, batch norm) of ``pairs`` (norms set by :func:`_set_identity_norm`)
    with the real statistics of the convolution's output over ``batches`` (module doc)."""
    import torch

    stats: list[list] = [[] for _ in pairs]
    hooks = [conv.register_forward_hook(
        lambda _m, _i, out, k=k: stats[k].append((out.mean(dim=(0, 2, 3)), out.var(dim=(0, 2, 3)))))
        for k, (conv, _) in enumerate(pairs)]
    model.eval()
    with torch.no_grad():
        for batch in batches:
            model(batch)
    for h in hooks:
        h.remove()
    with torch.no_grad():
        for (_name, bn), measured in zip(pairs, stats):
            mean = torch.stack([m for m, _ in measured]).mean(0)
            var = torch.stack([v for _, v in measured]).mean(0).clamp_min(1e-6)
            b = bn.bias.clone()
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(b + mean)


def _frames(folder: Path, n: int, shape: tuple[int, int]) -> np.ndarray:
    """``n`` training frames letterboxed as the detector sees them: (n, 3, h, w) RGB 0..1."""
    import cv2

    from dealer_assist.vision.detector import letterbox

    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))[:n]
    if not files:
        raise UserError(_("no frames in {folder} to measure the batch-norm statistics on", folder=folder))
    out = []
    for f in files:
        img = cv2.imread(str(f))
        if img is None:
            continue
        lb = letterbox(img, shape)[0]
        out.append(cv2.cvtColor(lb, cv2.COLOR_BGR2RGB).transpose(2, 0, 1).astype(np.float32) / 255.0)
    return np.stack(out)


def rebuild(onnx_path: Path, frames: np.ndarray):
    """The OBB model with the ONNX weights and batch norms calibrated on ``frames``."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    import torch
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import OBBModel

    import yaml

    from dealer_assist.vision.train import NAMES, obb_yaml

    inits = _initializers(onnx_path)
    first = inits.get("model.0.conv.weight")
    if first is None:
        raise UserError(_("{path}: no first convolution (model.0.conv.weight): not this project's detector",
                          path=onnx_path))
    cfg = yaml.safe_load(obb_yaml(first.shape[0] / 64))   # the stem has 64 x width channels
    model = OBBModel(cfg, ch=3, nc=len(NAMES), verbose=False)
    model.names = dict(NAMES)
    used: set[str] = set()
    convs: dict[str, Conv] = {}
    with torch.no_grad():
        for name, mod in model.named_modules():
            if isinstance(mod, Conv) and hasattr(mod, "bn"):
                w, b = inits[f"{name}.conv.weight"], inits[f"{name}.conv.bias"]
                if tuple(mod.conv.weight.shape) != w.shape:
                    raise UserError(_("{path}: {name} has shape {shape}, the architecture {wanted}: not "
                                      "this project's detector", path=onnx_path, name=name, shape=str(w.shape),
                                      wanted=str(tuple(mod.conv.weight.shape))))
                mod.conv.weight.copy_(torch.from_numpy(w))
                _set_identity_norm(mod.bn, b)
                used.update({f"{name}.conv.weight", f"{name}.conv.bias"})
                convs[name] = mod
            elif isinstance(mod, torch.nn.Conv2d) and f"{name}.weight" in inits and f"{name}.weight" not in used:
                # (a Conv's own convolution comes after its parent here, its weight already used)
                mod.weight.copy_(torch.from_numpy(inits[f"{name}.weight"]))
                if mod.bias is not None and f"{name}.bias" in inits:
                    mod.bias.copy_(torch.from_numpy(inits[f"{name}.bias"]))
                    used.add(f"{name}.bias")
                used.add(f"{name}.weight")
    left = sorted(k for k in inits if k not in used and inits[k].ndim >= 1 and inits[k].size > 4
                  and k.startswith("model."))
    if left:
        raise UserError(_("{path}: weights not placed in the architecture: {names}", path=onnx_path,
                          names=", ".join(left[:5])))
    # the real statistics of each convolution's output, measured with the exact (identity) norms
    _unfold_norms(model, [(m.conv, m.bn) for m in convs.values()],
                  (torch.from_numpy(frames[i:i + 8]) for i in range(0, len(frames), 8)))
    return model


def check_against_onnx(model, onnx_path: Path, frame: np.ndarray) -> float:
    """Largest absolute difference between the rebuilt model and ONNX Runtime on one frame."""
    import torch

    sess = load_session(onnx_path, _("card detector"))
    ref = sess.run(None, {sess.get_inputs()[0].name: frame[None]})[0]
    model.eval()
    with torch.no_grad():
        got = model(torch.from_numpy(frame[None]))
    got = (got[0] if isinstance(got, (list, tuple)) else got).numpy()
    if got.shape != ref.shape:
        raise UserError(_("the rebuilt model gives {got}, the ONNX model {ref}", got=str(got.shape),
                          ref=str(ref.shape)))
    return float(np.abs(got - ref).max())


def rebuild_cnn(onnx_path: Path, crops: np.ndarray, num_classes: int, crop_hw: tuple[int, int]):
    """A :func:`train.build_corner_net` network (the corner classifier, or the card look) with
    the weights of its exported ONNX file, batch norms unfolded as for the detector (module doc)
    with the statistics of ``crops`` (N, H, W, 3) uint8, as the runtime cuts them."""
    import torch

    from dealer_assist.vision.train import build_corner_net

    graph, inits = _load_graph(onnx_path)
    conv_wb = [(inits[n.input[1]], inits[n.input[2]]) for n in graph.node if n.op_type == "Conv"]
    net = build_corner_net(num_classes, crop_hw=crop_hw)
    pairs = [(m, net.features[i + 1]) for i, m in enumerate(net.features)
             if isinstance(m, torch.nn.Conv2d)]
    if len(pairs) != len(conv_wb) or any(tuple(c.weight.shape) != w.shape for (c, _), (w, _) in zip(pairs, conv_wb)):
        raise UserError(_("{path}: its convolutions do not match the corner network's layout", path=onnx_path))
    with torch.no_grad():
        for (conv, bn), (w, b) in zip(pairs, conv_wb):
            conv.weight.copy_(torch.from_numpy(w))
            _set_identity_norm(bn, b)
        for name in ("embed.2", "head.1"):
            mod = net.get_submodule(name)
            mod.weight.copy_(torch.from_numpy(inits[f"inner.{name}.weight"]))
            mod.bias.copy_(torch.from_numpy(inits[f"inner.{name}.bias"]))
    x = torch.from_numpy(np.ascontiguousarray(crops.transpose(0, 3, 1, 2))).float()
    _unfold_norms(net, pairs, (x[i:i + 256] for i in range(0, len(x), 256)))
    return net


def check_cnn_against_onnx(net, onnx_path: Path, crops: np.ndarray) -> float:
    """Largest absolute difference of the output probabilities, rebuilt network against ONNX
    Runtime, on ``crops``."""
    import torch

    sess = load_session(onnx_path, _("network"))
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2)).astype(np.float32)
    ref = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    net.eval()
    with torch.no_grad():
        got = net.forward_export(torch.from_numpy(x))[0].numpy()
    return float(np.abs(got - ref).max())


def save_checkpoint(model, out: Path) -> Path:
    """An ultralytics checkpoint (``YOLO(out)`` loads it; ``--init-obb out`` trains from it)."""
    import datetime

    import torch
    import ultralytics

    out.parent.mkdir(parents=True, exist_ok=True)
    ckpt = {"model": model.half(), "ema": None, "epoch": -1, "optimizer": None, "train_args": {"task": "obb"},
            "date": datetime.datetime.now().isoformat(), "version": ultralytics.__version__,
            "recovered_from": "onnx"}
    torch.save(ckpt, str(out))
    model.float()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.recover", description=__doc__.split("\n")[0])
    ap.add_argument("--onnx", default="models/cards-obb.onnx")
    ap.add_argument("--frames", required=True, help="a folder of training frames (batch-norm statistics)")
    ap.add_argument("--n", type=int, default=64, help="how many frames to measure on")
    ap.add_argument("--out", default="runs/recovered/cards-obb.pt")
    ap.add_argument("--corner-classifier", action="store_true",
                    help="rebuild the corner classifier instead (--onnx models/corner-cls.onnx; "
                         "--frames: a rendered dataset folder, whose train split's corner crops "
                         "give the batch-norm statistics); the checkpoint is what train --init-cls "
                         "and export --cls take")
    ap.add_argument("--layout", action="store_true",
                    help="rebuild the layout check instead (--onnx models/card-layout.onnx; --frames as "
                         "for --look, the patches' indices hidden as the layout sees them); the "
                         "checkpoint is what train_layout --init takes")
    ap.add_argument("--look", action="store_true",
                    help="rebuild the card look instead (--onnx models/card-look.onnx; --frames: a "
                         "rendered dataset folder, whose train split's whole-card patches give the "
                         "batch-norm statistics); the checkpoint is what train_look --init takes")
    ap.add_argument("--court-suit", action="store_true",
                    help="rebuild the court-suit reader instead (--onnx models/court-suit.onnx; --frames: "
                         "a rendered dataset folder, whose courts' end crops give the batch-norm "
                         "statistics); the checkpoint is what train_court_suit --init takes")
    ap.add_argument("--lang", choices=("ja", "en"), default="ja",
                    help="language of the lines and the errors (default Japanese)")
    args = ap.parse_args(argv)
    try:
        return _recover(args)
    except UserError as exc:
        print(f"recover: {says(exc, args.lang)}", file=sys.stderr)
        return 2


def _recover(args: argparse.Namespace) -> int:
    import json

    lang = args.lang
    if args.court_suit:
        return _recover_court_suit(Path(args.onnx), Path(args.frames), args.n, Path(args.out), lang)

    if args.corner_classifier:
        return _recover_corner_classifier(Path(args.onnx), Path(args.frames), args.n, Path(args.out), lang)
    if args.look or args.layout:
        return _recover_look(Path(args.onnx), Path(args.frames), args.n, Path(args.out), layout=args.layout,
                             lang=lang)

    onnx_path = Path(args.onnx)
    meta = json.loads((onnx_path.parent / "models.json").read_text(encoding="utf-8"))
    h, w = meta["imgsz"]
    frames = _frames(Path(args.frames), args.n, (h, w))
    model = rebuild(onnx_path, frames)
    diff = check_against_onnx(model, onnx_path, frames[0])
    print(_("rebuilt from {path}: largest difference to ONNX Runtime {diff}", path=onnx_path,
            diff=f"{diff:.2e}").render(lang), file=sys.stderr)
    if diff > 1e-2:
        raise UserError(_("the rebuilt detector differs from {path} by {diff}: not saved", path=onnx_path,
                          diff=f"{diff:.3g}"))
    save_checkpoint(model, Path(args.out))
    print(_("saved {path}", path=args.out).render(lang), file=sys.stderr)
    return 0


def _recover_corner_classifier(onnx_path: Path, data: Path, n_frames: int, out: Path, lang: str = "en") -> int:
    from dealer_assist.vision.geometry import CROP_H, CROP_W
    from dealer_assist.vision.train import build_crops

    crops = build_crops(data, "train", reps=1, seed=0, limit=n_frames)[0]
    return _save_cnn(onnx_path, crops, 54, (CROP_H, CROP_W), out, lang)


def _recover_court_suit(onnx_path: Path, data: Path, n_frames: int, out: Path, lang: str = "en") -> int:
    from dealer_assist.vision.court_suit import CLASSES, SIZE
    from dealer_assist.vision.train_court_suit import court_crops_of

    crops = court_crops_of([data], reps=1, seed=0, limit=n_frames)[0]
    if not len(crops):
        raise UserError(_("no court cards in the rendered frames under {folder}", folder=data / "meta"))
    return _save_cnn(onnx_path, crops, len(CLASSES), (SIZE[1], SIZE[0]), out, lang)


def _recover_look(onnx_path: Path, data: Path, n_frames: int, out: Path, layout: bool = False,
                  lang: str = "en") -> int:
    """The card look's checkpoint, or with ``layout`` the layout check's (the same network on the
    same patches with their indices hidden; as many classes as the file names)."""
    from dealer_assist.vision.look import LOOK_CLASSES, LOOK_H, LOOK_W
    from dealer_assist.vision.train_look import build_patches

    frames = sorted((data / "meta" / "train").glob("*.json"))[:n_frames]
    if not frames:
        raise UserError(_("no rendered frames under {folder}", folder=data / "meta" / "train"))
    patches = build_patches(data, "train", 0, frames)[0]
    if not layout:
        return _save_cnn(onnx_path, patches, len(LOOK_CLASSES), (LOOK_H, LOOK_W), out, lang)
    from dealer_assist.vision.layout import LayoutClassifier, hide_indices

    classes = len(LayoutClassifier(onnx_path).classes)
    return _save_cnn(onnx_path, hide_indices(patches), classes, (LOOK_H, LOOK_W), out, lang)


def _save_cnn(onnx_path: Path, crops: np.ndarray, num_classes: int, crop_hw: tuple[int, int], out: Path,
              lang: str = "en") -> int:
    """Rebuild a CNN from its ONNX file, check it against ONNX Runtime and save the checkpoint."""
    import torch

    net = rebuild_cnn(onnx_path, crops, num_classes, crop_hw)
    diff = check_cnn_against_onnx(net, onnx_path, crops[:512])
    print(_("rebuilt from {path} ({n} crops measured): largest difference of the probabilities to ONNX "
            "Runtime {diff}", path=onnx_path, n=len(crops), diff=f"{diff:.2e}").render(lang), file=sys.stderr)
    if diff > 1e-3:
        raise UserError(_("the rebuilt network differs from {path} by {diff}: not saved", path=onnx_path,
                          diff=f"{diff:.3g}"))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": {k: v.detach().cpu() for k, v in net.state_dict().items()},
                "recovered_from": str(onnx_path)}, str(out))
    print(_("saved {path}", path=out).render(lang), file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
