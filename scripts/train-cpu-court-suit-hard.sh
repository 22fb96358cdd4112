#!/usr/bin/env bash
# The court-suit reader fine-tuned on ends that are hard to read (models/MODEL_CARD.md,
# "Twenty-fifth session"): CS2 rebuilt from its ONNX file and trained 3 more epochs with
# train_court_suit --hard (motion blur, defocus, another card's edge over part of the end; the
# labels kept, so that an end past reading spreads its probabilities instead of naming a suit
# surely). On this 2-core CPU: about 10 minutes to render, 3 to cut the crops, 12 to train.
#
# Needs the training venv (.venv-train: torch and onnx are enough) and, for the world frames,
# Debian's wallpaper packages (models/MODEL_CARD.md lists them). Every step is skipped when its
# output is there. Read the result in a folder D beside the shipped models, with
#   mkdir -p D && cp models/* D/ && cp runs/court-suit-hard/court-suit.onnx D/
#   .venv/bin/python benchmarks/eval_sure.py --models D    (then eval_real.py --models D)
set -euo pipefail
cd "$(dirname "$0")/.."
P=.venv-train/bin/python
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
# 1. frames: the fifteenth session's world-aces frames and the first fonts set of the twelfth
#    (the same seeds as CS2's recipe, scripts/train-cpu-court-suit.sh: a part of its frames)
$DA synth runs/aces/world --n 2000 --split train --seed 5700000 --workers 2 --recipe world-aces --quiet
$DA synth runs/fonts-700000/data --n 2400 --split train --seed 700000 --workers 2 --recipe fresh-fonts --quiet
$DA synth runs/fonts-700000/data --n 800 --split train --seed 702400 --workers 2 --recipe base --quiet
$DA synth runs/fonts-700000/data --n 800 --split train --seed 703200 --workers 2 --recipe fresh-pips --quiet
# 2. CS2 rebuilt from its ONNX file (batch-norm statistics from the world-aces frames' courts)
[ -f runs/recovered/court-suit.pt ] || $P -m dealer_assist.vision.recover --court-suit \
  --onnx models/court-suit.onnx --frames runs/aces/world --out runs/recovered/court-suit.pt
# 3. 3 epochs at lr 1e-3 with the hard augmentation, every suited card's ends, exported
$P -m dealer_assist.vision.train_court_suit --data runs/aces/world --data runs/fonts-700000/data \
  --runs runs/court-suit-hard --epochs 3 --lr 1e-3 --hard --init runs/recovered/court-suit.pt \
  --out runs/court-suit-hard
