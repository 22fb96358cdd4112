#!/usr/bin/env bash
# The recipe of detector G1 (models/MODEL_CARD.md, "Eleventh session"): render 20,000 training
# frames, rebuild the shipped detector as a trainable checkpoint, fine-tune it on one GPU.
#
#   bash scripts/train-gpu-world.sh            # on a machine with a CUDA GPU, in the repo root
#   HOURS=0.3 DEVICE=0 WORKERS=14 bash scripts/train-gpu-world.sh
#
# It ran on one H100 with 16 CPU cores in 21 minutes (rendering 3 minutes with 16 processes, 41
# epochs of about 23 s). Needs the [train] extra (ultralytics, torch with CUDA, onnx). Resumable:
# run it again and the rendering and the training go on from where they stopped.
# Environment: DATA and RUN (folders; defaults under runs/gpu), HOURS (the training's time
# budget; ultralytics plans the epochs and the learning-rate decay to fit it), DEVICE, WORKERS.
# DEALER_ASSIST_PHOTO_DIRS and DEALER_ASSIST_FONT_DIR point the renderer at the photographs and
# fonts when the machine has no Debian packages (docs/synth.md).
set -euo pipefail
export YOLO_OFFLINE=1
PY=${PYTHON:-python3}
DATA=${DATA:-runs/gpu/data}
RUN=${RUN:-runs/gpu/run}
COMMON=(--data "$DATA" --runs "$RUN" --out "$RUN/models" --n-train 12000 --train-seed0 600000
        --recipe world --mix base:3000 --mix joker-rich:2500 --mix fresh-pips:2500 --n-val 60
        --imgsz 512 --batch 64 --workers "${WORKERS:-14}" --seed 0 --width 0.25 --skip-classifier
        --device "${DEVICE:-0}")
"$PY" -m dealer_assist.vision.train "${COMMON[@]}" --workers "$(nproc)" --skip-detector
INIT=$RUN/init.pt
[ -f "$INIT" ] || "$PY" -m dealer_assist.vision.recover --onnx models/cards-obb.onnx \
    --frames "$DATA/images/train" --out "$INIT"
"$PY" -m dealer_assist.vision.train "${COMMON[@]}" --init-obb "$INIT" --hours "${HOURS:-0.30}" \
    --epochs 400 --lr0 0.0002 --close-mosaic 2 --save-period 1
