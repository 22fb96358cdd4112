#!/usr/bin/env bash
# The card look (stage 3) and the layout check (stage 4) fine-tuned on `world` frames, on this 2-core
# CPU (models/MODEL_CARD.md, "Fourteenth session": both measured, neither shipped). About 6 minutes to
# render, 5 to train the look, 4 to train the layout.
#
# Needs the training venv (.venv-train: torch and onnx are enough) and Debian's wallpaper packages
# of the world recipe (models/MODEL_CARD.md lists them; without them the surfaces are procedural).
# Each candidate goes into its own folder beside the shipped models; read it with
#   .venv/bin/python benchmarks/eval_sure.py --models D    (and eval_real.py, eval_detect.py --models D)
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=.venv-train/bin/python
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
# 1. frames: 2,000 world (seeds 5,600,000+; the last 300 are the look's validation, the last 200
#    the layout's), 600 joker-rich and 600 fresh-pips so that neither forgets its jokers and pips
$DA synth runs/lookw/world --n 2000 --split train --seed 5600000 --workers 2 --recipe world --quiet
$DA synth runs/lookw/jr --n 600 --split train --seed 5602000 --workers 2 --recipe joker-rich --quiet
$DA synth runs/lookw/pips --n 600 --split train --seed 5602600 --workers 2 --recipe fresh-pips --quiet
# 2. the shipped look and layout as trainable checkpoints
$P -m dealer_assist.vision.recover --look --onnx models/card-look.onnx --frames runs/lookw/world \
  --out runs/recovered/look.pt
$P -m dealer_assist.vision.recover --layout --onnx models/card-layout.onnx --frames runs/lookw/world \
  --out runs/recovered/layout.pt
# 3. the look L4 -> "L-world": 4 epochs at lr 1e-3 (29,126 patches, 55 s an epoch)
mkdir -p runs/m-lookw && cp models/*.onnx models/models.json runs/m-lookw/
$P -m dealer_assist.vision.train_look --data runs/lookw/world --runs runs/lookw/train --init runs/recovered/look.pt \
  --extra-data runs/lookw/jr --extra-data runs/lookw/pips --epochs 4 --lr 0.001 --holdout-jokers 8 \
  --holdout-backs 6 --out runs/m-lookw
# 4. the layout P1 -> P3: 6 epochs at lr 1e-3, suited classes, colour swaps as P1 (17,418 patches)
mkdir -p runs/m-lay3 && cp models/*.onnx models/models.json runs/m-lay3/
$P -m dealer_assist.vision.train_layout --data runs/lookw/world --extra-data runs/lookw/pips \
  --extra-data runs/lookw/jr --runs runs/lay3 --epochs 6 --lr 1e-3 --val-frames 200 --suited-only \
  --channel-swap --init runs/recovered/layout.pt --out runs/m-lay3
