#!/usr/bin/env bash
# The layout check P5 (stage 4, models/card-layout.onnx; models/MODEL_CARD.md, "Twenty-seventh
# session"): P4 trained 4 epochs more on P4's own three sets, on this 2-core CPU. About 2 minutes
# to render each set of 600 frames (6 for the 2,000), 3 to train. P4 is taken from the commit that
# shipped it (git history; a shallow clone stops with a message) or from WORK/p4.onnx, rebuilt as
# a trainable checkpoint.
#
# Needs the training venv (.venv-train: torch and onnx are enough) and Debian's wallpaper packages
# of the world recipe (models/MODEL_CARD.md lists them). The candidate goes into its own folder;
# read it with
#   .venv/bin/python benchmarks/eval_sure.py --models runs/p5/m-lay   (and eval_real.py --models ...)
# and ship it only after `eval_sure.py --write` has measured its thresholds.
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=.venv-train/bin/python
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
A=${ACES:-runs/aces}
W=${WORK:-runs/p5}
mkdir -p $W
# 0. P4 comes from the commit that shipped it: a shallow clone lacks it (say so before rendering)
if [ ! -s $W/p4.onnx ] && ! git cat-file -e db1cf37:models/card-layout.onnx 2>/dev/null; then
  echo "train-cpu-layout-p5.sh: P4 (models/card-layout.onnx at commit db1cf37) is not in this" \
       "clone's history: run 'git fetch --unshallow' first, or put P4's ONNX file at $W/p4.onnx" >&2
  exit 2
fi
# 1. P4's frames (scripts/train-cpu-aces.sh, step 1; kept where already rendered)
$DA synth $A/world --n 2000 --split train --seed 5700000 --workers 2 --recipe world-aces --quiet
$DA synth $A/jr --n 600 --split train --seed 5702000 --workers 2 --recipe joker-rich --quiet
$DA synth $A/pips --n 600 --split train --seed 5702600 --workers 2 --recipe fresh-pips --quiet
# 2. P4 as a trainable checkpoint, from the commit before P5 replaced it
[ -s $W/p4.onnx ] || git show db1cf37:models/card-layout.onnx > $W/p4.onnx
$P -m dealer_assist.vision.recover --layout --onnx $W/p4.onnx --frames $A/world --out $W/p4.pt
# 3. 4 epochs at lr 5e-4, suited classes, colour swaps, as P4 was trained from P1
mkdir -p $W/m-lay && cp models/*.onnx models/models.json $W/m-lay/
$P -m dealer_assist.vision.train_layout --data $A/world --extra-data $A/pips --extra-data $A/jr \
  --runs $W/train-lay --epochs 4 --lr 5e-4 --val-frames 200 --suited-only --channel-swap \
  --init $W/p4.pt --out $W/m-lay
