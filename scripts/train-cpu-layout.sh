#!/usr/bin/env bash
# The layout check (stage 4, models/card-layout.onnx; models/MODEL_CARD.md, "Thirteenth session"),
# as it was trained on this 2-core CPU: about 10 minutes to render, 26 minutes to train P1 (shipped).
# Needs the project's venv with the [train] extra (torch). Then measure the sure threshold again:
#   .venv/bin/python benchmarks/eval_sure.py --write
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=${PYTHON:-.venv/bin/python}
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
# 1. rendered training frames (seeds no other set uses). P1's world frames were rendered before
#    Debian's wallpaper packages were installed here: procedural surfaces only (docs/synth.md)
$DA synth runs/pips/world --n 1800 --seed 5200000 --recipe world --workers 2
$DA synth runs/pips/fresh-pips --n 1200 --seed 5210000 --recipe fresh-pips --workers 2
$DA synth runs/pips/base --n 600 --seed 5230000 --recipe base --workers 2
# 2. P1 (shipped): the 44 suited classes, 14 epochs from scratch, with the corner classifier's
#    colour-channel swaps
$P -m dealer_assist.vision.train_layout --data runs/pips/world --extra-data runs/pips/fresh-pips \
  --extra-data runs/pips/base --runs runs/layout --epochs 14 --lr 3e-3 --val-frames 200 \
  --suited-only --channel-swap --out models
# 3. P2 (tried, not shipped): 46 classes (the joker and "no card": backs and table patches), 8 epochs
#    from P1's weights (its last layer widened), colours kept, 600 joker-rich frames more
if [ "${P2:-0}" = 1 ]; then
  $DA synth runs/pips/joker-rich --n 600 --seed 5240000 --recipe joker-rich --workers 1
  mkdir -p runs/layout2/export
  $P -m dealer_assist.vision.train_layout --data runs/pips/world --extra-data runs/pips/fresh-pips \
    --extra-data runs/pips/base --extra-data runs/pips/joker-rich --runs runs/layout2 --epochs 8 --lr 2e-3 \
    --val-frames 200 --init runs/layout/layout/last.pt --out runs/layout2/export
fi
