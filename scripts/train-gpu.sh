#!/usr/bin/env bash
# The GPU training recipe of the card models (issue 3; models/MODEL_CARD.md): renders the frames,
# trains the corner classifier (background) and the "n"-width OBB detector (for a wall-clock
# budget) side by side on one GPU, and copies the weights and logs to OUT. Only the ultralytics
# checkpoint and the classifier checkpoint come back; export to ONNX happens on the CPU machine:
#
#   bash scripts/train-gpu.sh OUT [BUDGET_SECONDS]
#   .venv-train/bin/python -m dealer_assist.vision.export --obb OUT/det-last.pt --cls OUT/cls-last.pt \
#       --out models --imgsz 416
#
# Sizes and settings come from the environment (defaults = the shipped run): N_TRAIN, N_JOKER,
# N_PIPS (frames of the fresh-pips recipe, after the joker-rich ones; default 0), N_VAL, CLS_EPOCHS, CLS_LR, WIDTH, BATCH, IMGSZ, LR0, INIT_OBB (continue from an earlier detector), INIT_CLS,
# TRAIN_SEED0, DEVICE (ultralytics: 0 or cpu), CLS_DEVICE (torch: cuda or cpu), WORKERS.
set -uo pipefail
OUT=${1:?usage: train-gpu.sh OUT [BUDGET_SECONDS]}
BUDGET=${2:-540}
T0=$(date +%s)
N_TRAIN=${N_TRAIN:-6000}
N_JOKER=${N_JOKER:-2000}
N_PIPS=${N_PIPS:-0}
N_VAL=${N_VAL:-100}
CLS_EPOCHS=${CLS_EPOCHS:-20}
CLS_LR=${CLS_LR:-0.003}
WIDTH=${WIDTH:-0.25}
BATCH=${BATCH:-64}
IMGSZ=${IMGSZ:-416}
LR0=${LR0:-0.002}
TRAIN_SEED0=${TRAIN_SEED0:-0}
DEVICE=${DEVICE:-0}
CLS_DEVICE=${CLS_DEVICE:-cuda}
WORKERS=${WORKERS:-$(nproc)}
WORK=${WORK:-/tmp/dealer-assist-train}
export YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$WORK"
MIX=(--mix "joker-rich:$N_JOKER")
if (( N_PIPS > 0 )); then MIX+=(--mix "fresh-pips:$N_PIPS"); fi
TRAIN=(python3 -m dealer_assist.vision.train --data "$WORK/data" --n-train "$N_TRAIN" "${MIX[@]}"
       --n-val "$N_VAL" --train-seed0 "$TRAIN_SEED0" --imgsz "$IMGSZ" --seed 0)

echo "== render ($(date -u +%T))"
"${TRAIN[@]}" --runs "$WORK/runs-data" --workers "$WORKERS" --skip-classifier --skip-detector 2>&1 | tee "$OUT/data.log"
echo "rendered in $(( $(date +%s) - T0 )) s"

echo "== classifier in the background ($(date -u +%T))"
"${TRAIN[@]}" --runs "$WORK/runs-cls" --workers 4 --skip-detector --cls-device "$CLS_DEVICE" \
    --cls-epochs "$CLS_EPOCHS" --cls-lr "$CLS_LR" --cls-reps 2 ${INIT_CLS:+--init-cls "$INIT_CLS"} >"$OUT/cls.log" 2>&1 &
CLS_PID=$!

# the detector trains until 75 s before the budget ends (caching, final validation and copying)
HOURS=$(python3 -c "import time; print(round(max(0.01, ($T0 + $BUDGET - 75 - time.time()) / 3600), 4))")
echo "== detector for $HOURS h ($(date -u +%T))"
"${TRAIN[@]}" --runs "$WORK/runs-det" --out "$WORK/models" --workers $(( WORKERS > 4 ? WORKERS - 4 : 1 )) \
    --skip-classifier --width "$WIDTH" --device "$DEVICE" --hours "$HOURS" --epochs 400 --batch "$BATCH" \
    --lr0 "$LR0" --close-mosaic 8 ${INIT_OBB:+--init-obb "$INIT_OBB"} >"$OUT/det.log" 2>&1
echo "detector exit $? at $(( $(date +%s) - T0 )) s"
cp "$WORK/runs-det/obb/detector/weights/last.pt" "$OUT/det-last.pt" 2>/dev/null
cp "$WORK/runs-det/obb/detector/results.csv" "$OUT/det-results.csv" 2>/dev/null
# the classifier gets until 10 s before the budget ends; its last finished epoch is kept either way
while kill -0 "$CLS_PID" 2>/dev/null && (( $(date +%s) < T0 + BUDGET - 10 )); do sleep 2; done
if kill -0 "$CLS_PID" 2>/dev/null; then kill "$CLS_PID"; echo "classifier stopped at the budget"; fi
wait "$CLS_PID"; echo "classifier exit $? at $(( $(date +%s) - T0 )) s"
cp "$WORK/runs-cls/cls/last.pt" "$OUT/cls-last.pt" 2>/dev/null
grep -E "epochs completed|classifier epoch|crops|Error|error" "$OUT/det.log" "$OUT/cls.log" | cut -c1-400 | tail -40
tail -3 "$OUT/det-results.csv" 2>/dev/null
ls -la "$OUT"
