#!/usr/bin/env bash
# The card look (stage 3) and the layout check (stage 4) fine-tuned on `world-aces` frames, whose
# decks have a seeded fancy ace of spades in half of the frames, on this 2-core CPU
# (models/MODEL_CARD.md, "Fifteenth session"). About 6 minutes to render, 4 to train the look,
# 4 to train the layout. The real deck's ace of spades was the number card most often not sure.
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
W=${WORK:-runs/aces}
# 1. frames: 2,000 world-aces (seeds 5,700,000+), 600 joker-rich and 600 fresh-pips so that
#    neither model forgets its jokers and pips
$DA synth $W/world --n 2000 --split train --seed 5700000 --workers 2 --recipe world-aces --quiet
$DA synth $W/jr --n 600 --split train --seed 5702000 --workers 2 --recipe joker-rich --quiet
$DA synth $W/pips --n 600 --split train --seed 5702600 --workers 2 --recipe fresh-pips --quiet
# 2. the shipped look and layout as trainable checkpoints
[ -f $W/look.pt ] || $P -m dealer_assist.vision.recover --look --onnx models/card-look.onnx --frames $W/world \
  --out $W/look.pt
[ -f $W/layout.pt ] || $P -m dealer_assist.vision.recover --layout --onnx models/card-layout.onnx --frames $W/world \
  --out $W/layout.pt
# 3. the look: 3 epochs at lr 5e-4
mkdir -p $W/m-look && cp models/*.onnx models/models.json $W/m-look/
$P -m dealer_assist.vision.train_look --data $W/world --runs $W/train-look --init $W/look.pt \
  --extra-data $W/jr --extra-data $W/pips --epochs 3 --lr 0.0005 --holdout-jokers 8 \
  --holdout-backs 6 --out $W/m-look
# 4. the layout: 4 epochs at lr 5e-4, suited classes, colour swaps as P1
mkdir -p $W/m-lay && cp models/*.onnx models/models.json $W/m-lay/
$P -m dealer_assist.vision.train_layout --data $W/world --extra-data $W/pips \
  --extra-data $W/jr --runs $W/train-lay --epochs 4 --lr 5e-4 --val-frames 200 --suited-only \
  --channel-swap --init $W/layout.pt --out $W/m-lay
# 5. both together
mkdir -p $W/m-both && cp models/*.onnx models/models.json $W/m-both/
cp $W/m-look/card-look.onnx $W/m-lay/card-layout.onnx $W/m-both/
