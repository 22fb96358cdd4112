#!/usr/bin/env bash
# The layout check P6 (stage 4, models/card-layout.onnx; models/MODEL_CARD.md, "Forty-sixth
# session"): P5 fine-tuned on this 2-core CPU with frames whose court cards are drawn as many real
# and Debian decks draw theirs: a cartoon bust or double-ended figure, or the busy figure with no
# frame, beside large suit signs (the world-courts recipe, courts.draw_toon_court), and the
# world-aces frames whose rich courts hold large signs (scripts/train-cpu-courts.sh), beside P5's
# own three sets. P5 took the Qd of two Debian decks, read "10" at both corners, for a ten: the
# wrong name was sure. About 6 minutes to render each set of 2,000 frames, 10 to train.
#
# Needs the training venv (.venv-train: torch and onnx are enough) and Debian's wallpaper packages
# of the world recipe (models/MODEL_CARD.md lists them). The candidate goes into its own folder;
# read it with
#   .venv/bin/python benchmarks/eval_sure.py --models runs/p6/m-lay   (and eval_real.py --models ...)
# and ship it only after `eval_sure.py --write` has measured its thresholds.
set -euo pipefail
cd "$(dirname "$0")/.."
export YOLO_OFFLINE=1
P=.venv-train/bin/python
DA=${DEALER_ASSIST:-.venv/bin/dealer-assist}
A=${ACES:-runs/aces}
W=${WORK:-runs/p6}
mkdir -p $W
# 0. P5 comes from the commit that shipped it: a shallow clone lacks it (say so before rendering)
if [ ! -s $W/p5.onnx ] && ! git cat-file -e 7ce005f:models/card-layout.onnx 2>/dev/null; then
  echo "train-cpu-layout-p6.sh: P5 (models/card-layout.onnx at commit 7ce005f) is not in this" \
       "clone's history: run 'git fetch --unshallow' first, or put P5's ONNX file at $W/p5.onnx" >&2
  exit 2
fi
# 1. frames (kept where already rendered): the open and cartoon courts, the large-sign rich courts,
#    and P5's own sets
$DA synth runs/toon/world --n 2000 --split train --seed 6600000 --workers 2 --recipe world-courts --quiet
$DA synth runs/courts/world --n 2000 --split train --seed 5900000 --workers 2 --recipe world-aces --quiet
$DA synth $A/world --n 2000 --split train --seed 5700000 --workers 2 --recipe world-aces --quiet
$DA synth $A/jr --n 600 --split train --seed 5702000 --workers 2 --recipe joker-rich --quiet
$DA synth $A/pips --n 600 --split train --seed 5702600 --workers 2 --recipe fresh-pips --quiet
# 2. P5 as a trainable checkpoint
[ -s $W/p5.onnx ] || git show 7ce005f:models/card-layout.onnx > $W/p5.onnx
$P -m dealer_assist.vision.recover --layout --onnx $W/p5.onnx --frames runs/toon/world --out $W/p5.pt
# 3. 3 epochs at lr 3e-4, suited classes, colour swaps (validation: the last 200 world-courts frames)
mkdir -p $W/m-lay && cp models/*.onnx models/models.json $W/m-lay/
$P -m dealer_assist.vision.train_layout --data runs/toon/world --extra-data runs/courts/world \
  --extra-data $A/world --extra-data $A/pips --extra-data $A/jr \
  --runs $W/train-lay --epochs 3 --lr 3e-4 --val-frames 200 --suited-only --channel-swap \
  --init $W/p5.pt --out $W/m-lay
