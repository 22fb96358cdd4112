#!/usr/bin/env bash
# The corner classifier fine-tuned on more index typefaces, on this 2-core CPU (models/MODEL_CARD.md,
# "Twelfth session" and "Fourteenth session"). About 20 minutes to render and cut, 50 to train.
#
# Needs the training venv (.venv-train: torch and onnx are enough for the classifier) and Debian's
# font packages of the fresh-fonts recipe (fonts-liberation fonts-urw-base35 fonts-quicksand
# fonts-noto-mono: without them the recipe draws the base fonts only). Every step is skipped when its
# output is there, so an interrupted run goes on where it stopped. Read the result with step 5.
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=.venv-train/bin/python
# 1. 8,000 frames in two runs of 4,000 (seeds 700,000+ and 720,000+: 2,400 fresh-fonts, 800 base,
#    800 fresh-pips each) and their corner crops (--cls-epochs 0 stops after the crops)
for s in 700000 720000; do
  [ -f runs/fonts-$s/crops-train.npz ] || $P -m dealer_assist.vision.train --data runs/fonts-$s/data \
    --runs runs/fonts-$s --n-train 2400 --train-seed0 $s --recipe fresh-fonts --mix base:800 \
    --mix fresh-pips:800 --n-val 10 --skip-detector --cls-epochs 0 --workers 2 || test -f runs/fonts-$s/crops-train.npz
done
# 2. both sets of crops in one training file
mkdir -p runs/fonts6
[ -f runs/fonts6/crops-train.npz ] || $P - <<'PY'
import numpy as np
a, b = np.load("runs/fonts-700000/crops-train.npz"), np.load("runs/fonts-720000/crops-train.npz")
np.savez("runs/fonts6/crops-train.npz", x=np.concatenate([a["x"], b["x"]]), y=np.concatenate([a["y"], b["y"]]))
PY
[ -f runs/fonts6/crops-test.npz ] || { cp runs/fonts-700000/crops-test.npz runs/fonts6/ && cp -r runs/fonts-700000/cls-test-data runs/fonts6/; }
# 3. the shipped classifier as a trainable checkpoint
[ -f runs/recovered/cls.pt ] || $P -m dealer_assist.vision.recover --corner-classifier \
  --onnx models/corner-cls.onnx --frames runs/fonts-720000/data --out runs/recovered/cls.pt
# 4. fine-tune it: 6 epochs at lr 5e-4 (runs/fonts6/cls/last.pt)
$P -m dealer_assist.vision.train --data runs/fonts-720000/data --runs runs/fonts6 --skip-detector \
  --init-cls runs/recovered/cls.pt --cls-epochs 6 --cls-lr 5e-4 --n-val 10 --workers 2
# 5. as a candidate beside the shipped detector, look and layout (D a new folder):
#    mkdir -p D && cp models/cards-obb.onnx models/card-look.onnx models/card-layout.onnx models/models.json D/
#    $P -c "from dealer_assist.vision.export import export_classifier; export_classifier('runs/fonts6/cls/last.pt', 'D/corner-cls.onnx')"
#    .venv/bin/python benchmarks/eval_real.py --models D; .venv/bin/python benchmarks/eval_sure.py --models D
#    .venv/bin/python benchmarks/eval_detect.py --set val-world --models D   (and val-train, val-train2, val-pips, then test once)
