#!/usr/bin/env bash
# The card look (stage 3) fine-tuned from the shipped one (or INIT_ONNX) on `world-aces` frames whose rich court
# art holds, in four decks of ten, a suit sign beside the figure 1.7 to 2.6 times the old size
# (courts.deck_look's "sign"; the real deck's courts hold one a sixth of the card high,
# and its black courts were the cards most often not sure: models/MODEL_CARD.md, "Twenty-third
# session"), on this 2-core CPU: about 3 minutes to render, 5 to train.
#
# Needs the training venv (.venv-train: torch and onnx are enough), the frames of
# scripts/train-cpu-aces.sh (runs/aces/world, jr, pips: they keep the fancy aces, the jokers and
# the pips in view) and Debian's wallpaper packages of the world recipe. Read the candidate with
#   .venv/bin/python benchmarks/eval_sure.py --models D    (and eval_real.py, eval_detect.py --models D)
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=.venv-train/bin/python
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
W=${WORK:-runs/courts}
A=${ACES:-runs/aces}
# 1. frames: 2,000 world-aces with the new court signs (seeds 5,900,000+)
$DA synth $W/world --n 2000 --split train --seed 5900000 --workers 2 --recipe world-aces --quiet
# 2. the look to start from as a trainable checkpoint: the shipped one unless INIT_ONNX names
#    another. L6 was made from L5: git show 5ecf078:models/card-look.onnx > L5.onnx, INIT_ONNX=L5.onnx
I=${INIT_ONNX:-models/card-look.onnx}
[ -f $W/look.pt ] || $P -m dealer_assist.vision.recover --look --onnx $I --frames $W/world \
  --out $W/look.pt
# 3. 3 epochs at lr 2e-4 on the new frames and the fifteenth session's (validation: the new frames')
mkdir -p $W/m-look && cp models/*.onnx models/models.json $W/m-look/
$P -m dealer_assist.vision.train_look --data $W/world --runs $W/train-look --init $W/look.pt \
  --extra-data $A/world --extra-data $A/jr --extra-data $A/pips --epochs 3 --lr 0.0002 \
  --holdout-jokers 8 --holdout-backs 6 --out $W/m-look
