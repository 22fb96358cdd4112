#!/usr/bin/env bash
# The court-suit reader (stage 5, models/court-suit.onnx; models/MODEL_CARD.md, "Sixteenth
# session"), trained from scratch on this 2-core CPU: about 4 minutes to cut the crops and 21 to
# train 6 epochs (once the frames are there; rendering them takes longer: step 1).
#
# Needs the training venv (.venv-train: torch and onnx are enough), Debian's wallpaper packages for
# the world recipes and its font packages for fresh-fonts (models/MODEL_CARD.md lists them; without
# them the surfaces are procedural and the fonts the base ones). Every step is skipped when its
# output is there. Read the result, in a folder D beside the shipped models, with
#   mkdir -p D && cp models/* D/ && cp runs/court-suit/court-suit.onnx D/
#   .venv/bin/python benchmarks/eval_sure.py --models D    (then eval_real.py --models D)
set -euo pipefail
cd "$(dirname "$0")/.."
P=.venv-train/bin/python
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
# 1. frames: the world-aces frames of the fifteenth session, the two fonts sets of the twelfth
#    (2,400 fresh-fonts, 800 base and 800 fresh-pips each; the second also holds 1,500 base frames
#    of seeds 0+) and, to watch the training only, 2,000 world frames (seeds 5,600,000+)
$DA synth runs/aces/world --n 2000 --split train --seed 5700000 --workers 2 --recipe world-aces --quiet
for s in 700000 720000; do
  $DA synth runs/fonts-$s/data --n 2400 --split train --seed $s --workers 2 --recipe fresh-fonts --quiet
  $DA synth runs/fonts-$s/data --n 800 --split train --seed $((s + 2400)) --workers 2 --recipe base --quiet
  $DA synth runs/fonts-$s/data --n 800 --split train --seed $((s + 3200)) --workers 2 --recipe fresh-pips --quiet
done
$DA synth runs/fonts-720000/data --n 1500 --split train --seed 0 --workers 2 --recipe base --quiet
$DA synth runs/lookw/world --n 2000 --split train --seed 5600000 --workers 2 --recipe world --quiet
# 2. one jittered box per suited card, each end in view a crop (132,777 crops); 6 epochs from
#    scratch (reader CS2; --courts-only --reps 2 --epochs 12 gave CS1)
$P -m dealer_assist.vision.train_court_suit --data runs/aces/world --data runs/fonts-700000/data \
  --data runs/fonts-720000/data --monitor runs/lookw/world --runs runs/court-suit --epochs 6 \
  --out runs/court-suit
