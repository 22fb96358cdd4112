#!/usr/bin/env bash
# Fine-tune the shipped detector on one GPU with `world-decoy` frames: card-sized pictures that
# are not cards (the real photos' jokers on no card) and face-up cards cut by the frame's edge
# (the real photos' largest group of missed cards), beside the frames G1 learned from.
# models/MODEL_CARD.md, "Fifteenth session", says how it ran and what it measured.
#
#   bash scripts/train-gpu-decoy.sh OUT                     # on a machine with a CUDA GPU
#   N=40 HOURS=0.005 DEVICE=cpu WORKERS=2 bash scripts/train-gpu-decoy.sh OUT   # a smoke run
#
# OUT receives the log, the final weights as ONNX (det-final.onnx) and up to six epochs'
# weights without their optimiser state (epochN.pt; `python -m dealer_assist.vision.export`
# makes ONNX of them). Needs the [train] extra (ultralytics, torch, onnx). Environment: N (frames
# in all, default 14000), HOURS (training's time budget, default 0.08), STOP_S (a hard stop for
# the training step, seconds), DEADLINE (a wall-clock end in epoch seconds: sets both from the
# time left), DEVICE, WORKERS, WORK (default runs/gpu-decoy).
# Timing seen on the lent H200 (16 cores): 14,000 frames rendered in 275 s (0.31 s a frame a
# process), then 8 epochs of 16-26 s. Within one 10-minute call, N=9000 leaves the training
# about 5 minutes; with DEADLINE set the training takes whatever time is left.
# How it ran there: the wheels of ultralytics 8.4.190 and ultralytics-thop 2.2.3 installed with
# --no-deps into /tmp/site, an empty stand-in `polars` package beside them (ultralytics reads its
# results CSV with it inside a try), PYTHONPATH=/tmp/site:$PWD, the 14 DejaVu fonts the renderer
# uses and the Debian photographs re-encoded at 900 px (to fit the 64 MiB a call may carry).
# DEALER_ASSIST_PHOTO_DIRS and DEALER_ASSIST_FONT_DIR point the renderer at copies of the
# photographs and fonts when the machine has no Debian packages (docs/synth.md).
set -uo pipefail
export YOLO_OFFLINE=1
PY=${PYTHON:-python3}
OUT=${1:?usage: train-gpu-decoy.sh OUT}
N=${N:-14000}
WORK=${WORK:-runs/gpu-decoy}
DATA=$WORK/data
RUN=$WORK/run
mkdir -p "$OUT" "$WORK"
# shares of the frames: 40 % world-decoy, 20 % world, 15 % joker-rich, 12.5 % base, 12.5 % fresh-pips
n_dec=$((N * 40 / 100)); n_world=$((N * 20 / 100)); n_jk=$((N * 15 / 100)); n_base=$((N * 125 / 1000))
n_pips=$((N - n_dec - n_world - n_jk - n_base))
COMMON=(--data "$DATA" --runs "$RUN" --out "$RUN/models" --n-train "$n_dec" --train-seed0 750000
        --recipe world-decoy --mix "world:$n_world" --mix "joker-rich:$n_jk" --mix "base:$n_base"
        --mix "fresh-pips:$n_pips" --n-val 16 --imgsz 512 --batch 64 --seed 0 --width 0.25
        --skip-classifier --device "${DEVICE:-0}")
t0=$(date +%s)
"$PY" -m dealer_assist.vision.train "${COMMON[@]}" --workers "$(nproc)" --skip-detector || exit 1
echo "[decoy] rendered $N frames in $(( $(date +%s) - t0 )) s"
INIT=$RUN/init.pt
[ -f "$INIT" ] || "$PY" -m dealer_assist.vision.recover --onnx models/cards-obb.onnx \
    --frames "$DATA/images/train" --out "$INIT" || exit 1
t1=$(date +%s)
STOP_S=${STOP_S:-100000}
HOURS=${HOURS:-0.08}
if [ -n "${DEADLINE:-}" ]; then   # a wall-clock end (epoch seconds): the training gets what is left
    STOP_S=$((DEADLINE - t1 - 30))
    HOURS=$(python3 -c "print(max(0.002, ($STOP_S - 60) / 3600))")
fi
echo "[decoy] training for $HOURS h, stopped after $STOP_S s at the latest"
timeout "$STOP_S" "$PY" -m dealer_assist.vision.train "${COMMON[@]}" --workers "${WORKERS:-14}" \
    --init-obb "$INIT" --hours "$HOURS" --epochs 400 --lr0 0.0001 --close-mosaic 2 --save-period 1
echo "[decoy] training ended with status $? after $(( $(date +%s) - t1 )) s"
W=$RUN/obb/detector/weights
ls -la "$W"
# the last weights as ONNX (the export of a finished run, or of last.pt after a hard stop)
if [ -f "$RUN/models/cards-obb.onnx" ]; then
    cp "$RUN/models/cards-obb.onnx" "$OUT/det-final.onnx"
elif [ -f "$W/last.pt" ]; then
    "$PY" -m dealer_assist.vision.export --obb "$W/last.pt" --out "$WORK/final" --imgsz 512 \
        && cp "$WORK/final/cards-obb.onnx" "$OUT/det-final.onnx"
fi
# the last six epochs' weights, optimiser state removed (about 6 MB each)
"$PY" - "$W" "$OUT" <<'EOF'
import re, sys
from pathlib import Path
from ultralytics.utils.torch_utils import strip_optimizer
w, out = Path(sys.argv[1]), Path(sys.argv[2])
eps = sorted(w.glob("epoch*.pt"), key=lambda p: int(re.sub(r"\D", "", p.stem) or 0))
for p in eps[-6:]:
    strip_optimizer(str(p), str(out / p.name))
    print("[decoy] kept", p.name, (out / p.name).stat().st_size)
EOF
echo "[decoy] all done in $(( $(date +%s) - t0 )) s"
