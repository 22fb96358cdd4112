#!/usr/bin/env bash
# The corner classifier fine-tuned on more index typefaces, on this 2-core CPU (models/MODEL_CARD.md,
# "Twelfth session": measured, not shipped). About 10 minutes to render, 53 minutes to train.
#
# Needs the training venv (.venv-train: ultralytics, torch), the shipped classifier rebuilt as a
# checkpoint (python -m dealer_assist.vision.recover --corner-classifier -> runs/recovered/cls.pt), and
# runs/fonts/crops-train.npz from the last session's 4,000 frames (seeds 700,000+: 2,400 fresh-fonts,
# 800 base, 800 fresh-pips; the same command as step 1 with --data runs/fonts/data --runs runs/fonts
# --train-seed0 700000). Read the result with the candidate steps of the model card.
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=.venv-train/bin/python
# 1. 4,000 new frames (seeds 720,000+) and their corner crops (--cls-epochs 0 stops after the crops)
$P -m dealer_assist.vision.train --data runs/fonts5/data --runs runs/fonts5 --n-train 2400 \
  --train-seed0 720000 --recipe fresh-fonts --mix base:800 --mix fresh-pips:800 --n-val 10 \
  --skip-detector --cls-epochs 0 --workers 2 || test -f runs/fonts5/crops-train.npz
# 2. both sets of crops in one training file
mkdir -p runs/fonts6
$P - <<'PY'
import numpy as np
a, b = np.load("runs/fonts/crops-train.npz"), np.load("runs/fonts5/crops-train.npz")
np.savez("runs/fonts6/crops-train.npz", x=np.concatenate([a["x"], b["x"]]), y=np.concatenate([a["y"], b["y"]]))
PY
cp runs/fonts/crops-test.npz runs/fonts6/ && cp -r runs/fonts/cls-test-data runs/fonts6/
# 3. fine-tune the shipped classifier: 6 epochs at lr 5e-4 (runs/fonts6/cls/last.pt)
$P -m dealer_assist.vision.train --data runs/fonts5/data --runs runs/fonts6 --skip-detector \
  --init-cls runs/recovered/cls.pt --cls-epochs 6 --cls-lr 5e-4 --n-val 10 --workers 2
# 4. as a candidate beside the shipped detector and look:
#    mkdir -p D && cp models/cards-obb.onnx models/card-look.onnx models/models.json D/
#    $P -c "from dealer_assist.vision.export import export_classifier; export_classifier('runs/fonts6/cls/last.pt', 'D/corner-cls.onnx')"
#    .venv/bin/python benchmarks/eval_real.py --models D; .venv/bin/python benchmarks/eval_sure.py --models D
#    .venv/bin/python benchmarks/eval_detect.py --set val-world --models D   (and val-train, val-train2, val-pips)
