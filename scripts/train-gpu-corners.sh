#!/usr/bin/env bash
# The corner classifier (stage 2) trained on one lent GPU on indices of many typefaces among
# photographs: renders new frames (mostly `world-fonts` and `fresh-fonts`, docs/synth.md), cuts
# their corner crops in parallel, then trains three classifiers side by side on the GPU, each for
# the time left before DEADLINE: A and B fine-tuned from the shipped one (lr 5e-4 and 1e-3), C from
# scratch (lr 3e-3). models/MODEL_CARD.md ("Eighteenth session") says how it ran and what each
# measured. Export and the choice happen on the CPU machine:
#
#   bash scripts/train-gpu-corners.sh OUT                     # on a machine with a CUDA GPU
#   N=60 CLS_DEVICE=cpu WORKERS=2 MINUTES=1 bash scripts/train-gpu-corners.sh OUT   # a smoke run
#   .venv-train/bin/python -c "from dealer_assist.vision.export import export_classifier; \
#       export_classifier('OUT/cls-A.pt', 'D/corner-cls.onnx')"     # D: a copy of models/
#
# Seen on the lent H200 (16 cores; eighteenth session): 10,000 frames rendered in 158 s, 345,496 crops
# cut in 12 s, then the three classifiers side by side at 22-24 s an epoch each (12, 12 and 14
# epochs in 5.3 minutes); the whole call 498 s. It ran with DEADLINE=$(( $(date +%s) + 550 )),
# INIT=.carry/dev/cls.pt and the fonts and photographs carried along (docs/synth.md).
#
# Needs torch, OpenCV and numpy (no ultralytics), the trainable checkpoint of the shipped
# classifier (INIT, default runs/recovered/cls.pt: `python -m dealer_assist.vision.recover
# --corner-classifier`), and the renderer's fonts and photographs: DEALER_ASSIST_FONT_DIR,
# DEALER_ASSIST_EXTRA_FONT_DIRS and DEALER_ASSIST_PHOTO_DIRS point at copies where the machine
# has no Debian packages (docs/synth.md). Environment: N (frames, default 10000), MINUTES
# (each classifier's training time, default 4), DEADLINE (a wall-clock end in epoch seconds: sets
# MINUTES from the time left after the crops), WORKERS, CLS_DEVICE (default cuda), WORK.
set -uo pipefail
export YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
OUT=${1:?usage: train-gpu-corners.sh OUT}
N=${N:-10000}
MINUTES=${MINUTES:-4}
WORKERS=${WORKERS:-$(nproc)}
CLS_DEVICE=${CLS_DEVICE:-cuda}
INIT=${INIT:-runs/recovered/cls.pt}
WORK=${WORK:-runs/gpu-corners}
mkdir -p "$OUT" "$WORK"
# shares: 36 % world-fonts, 23 % fresh-fonts, 11 % world, 7 % world-aces, 9 % fresh-pips,
# 7 % base, 7 % joker-rich (seeds from 8,000,000: no earlier run used them)
n_wf=$((N * 36 / 100)); n_ff=$((N * 23 / 100)); n_w=$((N * 11 / 100)); n_wa=$((N * 7 / 100))
n_fp=$((N * 9 / 100)); n_b=$((N * 7 / 100)); n_jk=$((N - n_wf - n_ff - n_w - n_wa - n_fp - n_b))
DATA=$WORK/data
COMMON=(--data "$DATA" --n-train "$n_wf" --train-seed0 8000000 --recipe world-fonts
        --mix "fresh-fonts:$n_ff" --mix "world:$n_w" --mix "world-aces:$n_wa" --mix "fresh-pips:$n_fp"
        --mix "base:$n_b" --mix "joker-rich:$n_jk" --n-val 8 --n-cls-test 40 --seed 0 --skip-detector
        --workers "$WORKERS")
t0=$(date +%s)
"$PY" -m dealer_assist.vision.train "${COMMON[@]}" --runs "$WORK/A" --crop-workers "$WORKERS" \
    --cls-epochs 0 --cls-device cpu 2>&1 | tail -5 || exit 1
echo "[corners] $N frames rendered and cut in $(( $(date +%s) - t0 )) s"
for r in B C; do   # the same crops for all three
    mkdir -p "$WORK/$r"
    for f in crops-train.npz crops-test.npz; do ln -f "$WORK/A/$f" "$WORK/$r/$f"; done
    [ -e "$WORK/$r/cls-test-data" ] || cp -r "$WORK/A/cls-test-data" "$WORK/$r/"
done
rm -rf "$WORK/A/cls"   # the zero-epoch run's checkpoint
if [ -n "${DEADLINE:-}" ]; then   # a wall-clock end (epoch seconds): the training gets what is left
    MINUTES=$("$PY" -c "print(round(max(0.5, ($DEADLINE - $(date +%s) - 50) / 60), 2))")
fi
echo "[corners] each classifier trains for $MINUTES minutes"
run() {   # NAME LR EPOCHS [INIT]
    "$PY" -m dealer_assist.vision.train "${COMMON[@]}" --runs "$WORK/$1" --cls-device "$CLS_DEVICE" \
        --cls-lr "$2" --cls-epochs "$3" --cls-minutes "$MINUTES" ${4:+--init-cls "$4"} >"$OUT/cls-$1.log" 2>&1
    echo "[corners] $1 ended with status $? after $(( $(date +%s) - t0 )) s"
    cp "$WORK/$1/cls/last.pt" "$OUT/cls-$1.pt" 2>/dev/null
}
run A 5e-4 12 "$INIT" &
run B 1e-3 16 "$INIT" &
run C 3e-3 30 &
wait
grep -h "epochs fit\|classifier epoch" "$OUT"/cls-*.log | cut -c1-330 | tail -40
ls -la "$OUT"
