"""Export the trained models to ONNX for the light runtime (``[train]`` extra: torch, ultralytics).

    python -m dealer_assist.vision.export --obb runs/obb/detector/weights/last.pt \\
        --cls runs/cls/last.pt --out models --imgsz 416

writes ``models/cards-obb.onnx`` (input 1x3xHxW, H = the 16:9 frame's letterboxed height at
``imgsz`` width, rounded up to a multiple of 32: 256 for 416), ``models/corner-cls.onnx`` (input
Nx3x56x36 raw BGR pixels; outputs softmax probabilities Nx54 and a unit embedding Nx128) and
``models/models.json`` (input size, class names, recipe and metrics).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
from pathlib import Path

from dealer_assist.i18n import _
from dealer_assist.vision.detector import CLASS_NAMES, CLS_FILE, META_FILE, OBB_FILE
from dealer_assist.vision.geometry import CROP_H, CROP_W
from dealer_assist.vision.look import LOOK_FILE


def runtime_shape(imgsz: int, frame_w: int = 1280, frame_h: int = 720) -> tuple[int, int]:
    """(h, w) of the detector's input for frames of ``frame_w`` x ``frame_h`` at ``imgsz``.

    >>> runtime_shape(416), runtime_shape(320), runtime_shape(640)
    ((256, 416), (192, 320), (384, 640))
    """
    h = imgsz * frame_h / frame_w
    return int(math.ceil(round(h) / 32.0) * 32), imgsz


def export_detector(weights: str | Path, out_path: str | Path, imgsz: int) -> tuple[int, int]:
    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics import YOLO

    shape = runtime_shape(imgsz)
    produced = YOLO(str(weights)).export(format="onnx", imgsz=list(shape), dynamic=False, simplify=False,
                                         half=False, device="cpu", verbose=False)
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(produced, out_path)
    return shape


def export_cnn(ckpt: str | Path, out_path: str | Path, num_classes: int, crop_hw: tuple[int, int],
               input_name: str, output_names: list[str]) -> None:
    """A :func:`train.build_corner_net` checkpoint as ONNX with a dynamic batch: input
    ``input_name`` (n, 3, h, w) raw BGR pixels; outputs the softmax probabilities and, when
    ``output_names`` names two, the unit embedding (``forward_export``)."""
    import torch

    from dealer_assist.vision.train import build_corner_net

    net = build_corner_net(num_classes=num_classes, crop_hw=crop_hw)
    state = torch.load(str(ckpt), map_location="cpu", weights_only=False)
    net.load_state_dict(state["model"] if "model" in state else state)
    net.eval()
    n_out = len(output_names)

    class Export(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, x):
            out = self.inner.forward_export(x)
            return out if n_out == 2 else out[0]

    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(Export(net), (torch.zeros(2, 3, *crop_hw),), str(out_path), input_names=[input_name],
                      output_names=list(output_names), opset_version=17, dynamo=False,
                      dynamic_axes={name: {0: "n"} for name in (input_name, *output_names)})


def export_classifier(ckpt: str | Path, out_path: str | Path) -> None:
    """The corner classifier: ``crops`` (n, 3, 56, 36) -> ``probs`` (n, 54), ``embedding`` (n, 128)."""
    export_cnn(ckpt, out_path, 54, (CROP_H, CROP_W), "crops", ["probs", "embedding"])


def export_all(obb_weights: str | Path, cls_ckpt: str | Path | None, out: str | Path, imgsz: int,
               extra: dict | None = None, cls_onnx: str | Path = "models/" + CLS_FILE) -> Path:
    """Export the detector (and the classifier from ``cls_ckpt``; with None, ``cls_onnx`` - the
    shipped classifier - is copied unchanged) into ``out`` with its ``models.json``; the shipped
    card look beside ``cls_onnx`` is copied too when ``out`` has none."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    shape = export_detector(obb_weights, out / OBB_FILE, imgsz)
    if cls_ckpt is not None:
        export_classifier(cls_ckpt, out / CLS_FILE)
    elif Path(cls_onnx).resolve() != (out / CLS_FILE).resolve():
        shutil.copyfile(cls_onnx, out / CLS_FILE)
    # the card look is trained on its own (train_look); a new model folder gets the shipped one,
    # or it would read without stage 3 (jokers without an index left "??")
    look_src = Path(cls_onnx).parent / LOOK_FILE
    if not (out / LOOK_FILE).is_file() and look_src.is_file():
        shutil.copyfile(look_src, out / LOOK_FILE)
    meta = {"imgsz": list(shape), "train_imgsz": imgsz, "names": list(CLASS_NAMES),
            "crop": [CROP_W, CROP_H], "classes": "0..51 Card.index, 52 JK, 53 none", **(extra or {})}
    old = out / META_FILE
    if old.is_file():  # keep metrics written by the benchmarks
        try:
            prev = json.loads(old.read_text(encoding="utf-8"))
            meta = {**{k: v for k, v in prev.items() if k.startswith("eval") or k == "look"}, **meta}
        except ValueError:
            pass
    (out / META_FILE).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.export")
    ap.add_argument("--obb", required=True, help="ultralytics weights (.pt) of the detector")
    ap.add_argument("--cls", default=None,
                    help="corner classifier checkpoint (.pt); without it the shipped "
                         f"models/{CLS_FILE} is kept (copied into --out)")
    ap.add_argument("--out", default="models")
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--lang", choices=("ja", "en"), default="ja",
                    help="language of the lines and the errors (default Japanese)")
    args = ap.parse_args(argv)
    export_all(args.obb, args.cls, args.out, args.imgsz)
    print(_("exported to {path}", path=args.out).render(args.lang))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
