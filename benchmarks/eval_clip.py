"""Does the shipped card model read the sample clip? Decodes every frame of the video (as the
pipeline will see it), runs ``CardDetector(models).detect`` and compares with ``labels.jsonl``.

    .venv/bin/python benchmarks/eval_clip.py [--models models] [--video V --labels L [--calibration C]]
        [--camera NAME[:AMOUNT] ...] [--json OUT]

A face-up card counts (for recall) in a frame when one of its corner indices is visible (for
the joker: when its corner index shows); a detection matches a true card or back when its centre
lies inside the true polygon. Prints per-frame recall/precision of named cards and of backs, how
many wrong names were shown sure and the share of right names not sure, and per card and zone the
share of its frames read right. ``--calibration`` reads a clip as ``run`` reads it with that
calibration (a far camera's clip: the card size and the zones' part of the frame told).
``--camera`` reads every frame as a worse camera would give it (``camera_conditions``: dim or warm
light, motion, defocus, noise, JPEG; the blurs in parts of the clip's median labelled card), as
``eval_real.py --camera`` reads the real photos.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent.parent / "sample_frames" / "clip"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from camera_conditions import CONDITIONS, apply as under_camera, parse_condition  # noqa: E402


def inside(poly, pt) -> bool:
    return cv2.pointPolygonTest(np.asarray(poly, np.float32), (float(pt[0]), float(pt[1])), False) >= 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=str(HERE.parent.parent / "models"))
    ap.add_argument("--video", default=str(HERE / "joker-nlh.mp4"))
    ap.add_argument("--labels", default=str(HERE / "labels.jsonl"))
    ap.add_argument("--calibration", help="the clip's calibration (its table.yaml): read as run reads it, told "
                                          "the card size and the zones' part of the frame")
    ap.add_argument("--camera", action="append", default=[], metavar="NAME[:AMOUNT]",
                    help="read every frame as a worse camera gives it (repeat to combine): "
                         + ", ".join(CONDITIONS))
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args(argv)
    try:
        camera = [parse_condition(c) for c in a.camera]
    except ValueError as e:
        print(f"--camera: {e}", file=sys.stderr)
        return 2
    from dealer_assist.vision.detector import CardDetector
    from dealer_assist.vision.geometry import edge_lengths

    det = CardDetector(a.models)
    if a.calibration:
        from dealer_assist.live.calibration import load_calibration

        cal = load_calibration(a.calibration)
        det.expect_card_side(*cal.card_view())
    labels = [json.loads(line) for line in Path(a.labels).read_text().splitlines() if line.strip()]
    sides = [float(edge_lengths(c["polygon"]).max()) for lab in labels for c in lab["cards"] + lab["backs"]]
    card_long = float(np.median(sides)) if sides else 100.0
    cap = cv2.VideoCapture(a.video)
    n_true = n_hit = n_named = n_named_ok = n_unknown = n_wrong_sure = n_right_unsure = 0
    b_true = b_hit = b_det = b_det_ok = 0
    per_card = defaultdict(lambda: [0, 0, defaultdict(int)])   # (card, zone) -> [frames, right, reads]
    frames_all_right = 0
    ms = []
    for lab in labels:
        ok, img = cap.read()
        if not ok:
            print(f"video ended at frame {lab['frame']}", file=sys.stderr)
            return 2
        if camera:
            img = under_camera(img, camera, card_long, lab["frame"])
        t0 = time.perf_counter()
        out = det.detect(img)
        ms.append((time.perf_counter() - t0) * 1000)
        truth = [c for c in lab["cards"] if c["index_visible"]]
        frame_ok = True
        for c in truth:
            reads = [d["card"] for d in out["cards"] if inside(c["polygon"], d["center"])]
            right = c["card"] in reads
            n_true += 1
            n_hit += right
            frame_ok &= right
            k = per_card[(c["card"], c["zone"])]
            k[0] += 1
            k[1] += right
            k[2][reads[0] if reads else "-"] += 1
        for d in out["cards"]:
            if d["card"] == "??":
                n_unknown += 1
                continue
            n_named += 1
            right = any(d["card"] == c["card"] and inside(c["polygon"], d["center"]) for c in lab["cards"])
            n_named_ok += right
            n_wrong_sure += (not right) and bool(d.get("sure"))
            n_right_unsure += right and not d.get("sure")
        vis_backs = [b for b in lab["backs"] if b["visible_fraction"] >= 0.5]
        b_true += len(vis_backs)
        b_hit += sum(any(inside(b["polygon"], d["center"]) for d in out["backs"]) for b in vis_backs)
        b_det += len(out["backs"])
        b_det_ok += sum(any(inside(b["polygon"], d["center"]) for b in lab["backs"]) for d in out["backs"])
        frames_all_right += frame_ok
    res = {
        "frames": len(labels), "median_ms": round(float(np.median(ms)), 1),
        "camera": [{"name": c.name, "amount": c.amount} for c in camera],
        "card_recall": round(n_hit / max(1, n_true), 4), "card_precision": round(n_named_ok / max(1, n_named), 4),
        "cards_counted": n_true, "unknown_reads": n_unknown, "wrong_named_sure": n_wrong_sure,
        "right_not_sure": round(n_right_unsure / max(1, n_named_ok), 4),
        "frames_all_cards_right": round(frames_all_right / max(1, len(labels)), 4),
        "back_recall": round(b_hit / max(1, b_true), 4), "back_precision": round(b_det_ok / max(1, b_det), 4),
        "per_card": {f"{c}@{z}": {"frames": k[0], "right": round(k[1] / k[0], 3),
                                  "reads": dict(sorted(k[2].items(), key=lambda kv: -kv[1]))}
                     for (c, z), k in sorted(per_card.items(), key=lambda kv: kv[1][1] / kv[1][0])},
    }
    print(json.dumps({k: v for k, v in res.items() if k != "per_card"}))
    for key, v in res["per_card"].items():
        print(f"  {key:12s} {v['right']:.3f} of {v['frames']:3d} frames  reads {v['reads']}")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
