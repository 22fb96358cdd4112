#!/usr/bin/env bash
# The corner classifier (stage 2) and the card look (stage 3) taught cards as a farther camera
# sees them (18 to 60 pixels wide: `train.far_copy`), on one lent GPU: renders new frames (the mix
# of scripts/train-gpu-corners.sh, mostly `world-fonts` and `fresh-fonts`, docs/synth.md), cuts
# the corner crops (`train --cls-far-p 0.5`: half of the cards also give their two corners as
# seen far) and the look's patches (`train_look --far-p 0.6`), each in WORKERS processes, then
# trains three networks side by side on the GPU until DEADLINE: A and B, the corner classifier
# fine-tuned from its trainable checkpoint (INIT) at lr 5e-4, B with a camera's blur on a share of
# its crops besides (`train --cls-blur 0.3 0.2`: models/MODEL_CARD.md, "Fiftieth session"; B was
# lr 1e-3 before; the fifty-first session's 12,000-frame CPU fine-tune so read the held-out suits
# better and lost jokers showing no index, 0.944 -> 0.898: read B's joker recall), and the look fine-tuned from LOOK_INIT at lr 2e-4. models/MODEL_CARD.md ("Forty-third session") says why, "Forty-fourth session" how it was prepared. Export and
# the choice happen on the CPU machine:
#
#   DEADLINE=$(( $(date +%s) + 540 )) bash scripts/train-gpu-far.sh OUT   # a machine with a CUDA GPU
#   N=60 CLS_DEVICE=cpu LOOK_DEVICE=cpu WORKERS=2 MINUTES=1 PYTHON=.venv-train/bin/python \
#       WORK=runs/far-smoke bash scripts/train-gpu-far.sh OUT         # a smoke run (3 min here)
#   .venv-train/bin/python -c "from dealer_assist.vision.export import export_classifier; \
#       export_classifier('OUT/cls-A.pt', 'D/corner-cls.onnx')"            # D: a copy of models/
#   .venv-train/bin/python -c "from dealer_assist.vision.train_look import export; \
#       export('OUT/look.pt', 'D/card-look.onnx')"                         # the look, likewise
#
# OUT receives cls-A.pt, cls-B.pt and look.pt (the last epoch's checkpoint of each, optimiser
# state included), their logs (cls-A.log, cls-B.log, look.log), render.log, look-patches.log,
# look-init.json (the look's validation report before the fine-tune) and look-summary.json
# (after it). A checkpoint is written at the end of every epoch and copied into OUT when its
# trainer ends, also when the hard stop below ends it.
#
# Frames: seeds 9,600,000 to 9,600,000 + N - 1 (no earlier run used them;
# scripts/train-gpu-corners.sh used 8,000,000+, the thirty-seventh session 9,200,000+). The
# look's validation frames are the last 300 (joker-rich ones, train_look's rule); its held-out
# joker arts and back designs stay out of its training.
#
# Timing: on the eighteenth session's H200 (16 cores) 10,000 frames of this mix rendered in 158 s
# and 345,496 corner crops were cut in 12 s; the far copies add about a quarter more crops. The
# look's patches (about 13 ms a frame a process on this CPU; some 145,000 of them, 1.9 GB, for
# 10,000 frames) are cut with all WORKERS before any training. Then the look starts, and A and B
# when its patches are loaded and its training begins, so that the three time their epochs
# against each other (`train_classifier`'s budget). Within one 10-minute call, DEADLINE = start +
# 540 leaves the trainers about 5 minutes.
#
# The look trains through `train_look --device LOOK_DEVICE --workers WORKERS --minutes M` (M:
# MINUTES, or with DEADLINE the time left when it starts, less 30 s). With DEADLINE each trainer
# is also stopped hard (`timeout`) 5 s before it; a stopped trainer's last whole epoch is what
# OUT gets (its learning-rate schedule then unfinished).
#
# Needs torch, OpenCV, numpy and Pillow (no ultralytics; the GPU machine's python3 has them), the
# trainable checkpoints INIT (default runs/recovered/cls.pt: `python -m dealer_assist.vision.recover
# --corner-classifier`) and LOOK_INIT (default runs/recovered/look.pt: `python -m
# dealer_assist.vision.recover --look`), and the renderer's fonts and photographs:
# DEALER_ASSIST_FONT_DIR, DEALER_ASSIST_EXTRA_FONT_DIRS and DEALER_ASSIST_PHOTO_DIRS point at
# copies where the machine has no Debian packages (docs/synth.md). On the lent machine, with
# runs/recovered/cls.pt, runs/recovered/look.pt and an archive C of those copies carried
# (fonts/dejavu, fonts/extra/{liberation,urw-base35,quicksand,noto}, photos/ at 720 px: about
# 9.6 MB as .txz, made by scripts/pack_gpu_carry.py, whose header says how; the device takes
# 64 MiB in all, the tracked tree about 50 of them):
#
#   mkdir -p /tmp/c && tar xJf C -C /tmp/c && X=/tmp/c/fonts/extra && export \
#     DEALER_ASSIST_FONT_DIR=/tmp/c/fonts/dejavu DEALER_ASSIST_PHOTO_DIRS=/tmp/c/photos \
#     DEALER_ASSIST_EXTRA_FONT_DIRS=$X/liberation:$X/urw-base35:$X/quicksand:$X/noto && \
#     DEADLINE=$(( $(date +%s) + 540 )) bash scripts/train-gpu-far.sh $OUT
#
# Environment: N (frames, default 10000), MINUTES (each network's training time, default 4),
# DEADLINE (a wall-clock end in epoch seconds: A and B get the time left when the look's training
# starts, less 50 s, the look the time left when it starts, less 30 s, and every trainer is
# stopped 5 s before it), WORKERS, CLS_DEVICE (default cuda), LOOK_DEVICE (default CLS_DEVICE),
# LOOK_EPOCHS (the look's most epochs, default 12), WORK (default runs/gpu-far), INIT, LOOK_INIT,
# PYTHON (default python3). Run again with the same WORK, each step resumes what it finds there.
set -uo pipefail
export YOLO_OFFLINE=1 PYTHONUNBUFFERED=1
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}   # the repo's dealer_assist, not installed there
PY=${PYTHON:-python3}
OUT=${1:?usage: train-gpu-far.sh OUT}
N=${N:-10000}
MINUTES=${MINUTES:-4}
WORKERS=${WORKERS:-$(nproc)}
CLS_DEVICE=${CLS_DEVICE:-cuda}
LOOK_DEVICE=${LOOK_DEVICE:-$CLS_DEVICE}
INIT=${INIT:-runs/recovered/cls.pt}
LOOK_INIT=${LOOK_INIT:-runs/recovered/look.pt}
WORK=${WORK:-runs/gpu-far}
for f in "$INIT" "$LOOK_INIT"; do   # before any rendering: a lent GPU's minutes are few
    [ -f "$f" ] || { echo "[far] missing checkpoint $f (python -m dealer_assist.vision.recover)" >&2; exit 2; }
done
mkdir -p "$OUT" "$WORK"
# shares: 36 % world-fonts, 23 % fresh-fonts, 11 % world, 7 % world-courts (world-aces whose
# seeded court art is drawn 6 times in 10 as the open or cartoon courts of many real and Debian
# decks: docs/synth.md), 9 % fresh-pips,
# 7 % base, 7 % joker-rich (seeds from 9,600,000: no earlier run used them)
n_wf=$((N * 36 / 100)); n_ff=$((N * 23 / 100)); n_w=$((N * 11 / 100)); n_wa=$((N * 7 / 100))
n_fp=$((N * 9 / 100)); n_b=$((N * 7 / 100)); n_jk=$((N - n_wf - n_ff - n_w - n_wa - n_fp - n_b))
DATA=$WORK/data
COMMON=(--data "$DATA" --n-train "$n_wf" --train-seed0 9600000 --recipe world-fonts
        --mix "fresh-fonts:$n_ff" --mix "world:$n_w" --mix "world-courts:$n_wa" --mix "fresh-pips:$n_fp"
        --mix "base:$n_b" --mix "joker-rich:$n_jk" --n-val 8 --n-cls-test 40 --seed 0 --skip-detector
        --workers "$WORKERS" --cls-far-p 0.5)
LOOK_ARGS=(--data "$DATA" --runs "$WORK/look" --init "$LOOK_INIT" --lr 2e-4 --far-p 0.6 --seed 0
           --workers "$WORKERS")

t0=$(date +%s)
# frames and corner crops in a run of no epoch (it writes no checkpoint), then the same crops
# for both classifiers
"$PY" -m dealer_assist.vision.train "${COMMON[@]}" --runs "$WORK/crops" --crop-workers "$WORKERS" \
    --cls-epochs 0 --cls-device cpu >"$OUT/render.log" 2>&1 || { tail -20 "$OUT/render.log"; exit 1; }
tail -4 "$OUT/render.log"
echo "[far] $N frames rendered and corners cut in $(( $(date +%s) - t0 )) s"
for r in A B; do
    mkdir -p "$WORK/$r"
    for f in crops-train.npz crops-test.npz; do ln -f "$WORK/crops/$f" "$WORK/$r/$f"; done
    [ -e "$WORK/$r/cls-test-data" ] || cp -r "$WORK/crops/cls-test-data" "$WORK/$r/"
done
# the look's patches (cached in $WORK/look/patches.npz) and its validation report before training
if [ ! -f "$WORK/look/last.pt" ]; then
    "$PY" -m dealer_assist.vision.train_look "${LOOK_ARGS[@]}" --epochs 0 \
        >"$OUT/look-patches.log" 2>&1 && cp "$WORK/look/summary.json" "$OUT/look-init.json" \
        || { tail -20 "$OUT/look-patches.log"; echo "[far] no look patches: the classifiers train alone"; LOOK_FAILED=1; }
fi
grep -h "patches" "$OUT/look-patches.log" 2>/dev/null | cut -c1-200
echo "[far] look patches cut after $(( $(date +%s) - t0 )) s"

stop_at() {   # the hard stop's prefix, as "timeout -k 5 S", from DEADLINE; nothing without it
    [ -n "${DEADLINE:-}" ] || return 0
    local left=$(( DEADLINE - $(date +%s) - 5 ))
    echo timeout -k 5 $(( left > 30 ? left : 30 ))
}
run() {   # NAME LR EPOCHS [more train arguments]
    $(stop_at) "$PY" -m dealer_assist.vision.train "${COMMON[@]}" --runs "$WORK/$1" --cls-device "$CLS_DEVICE" \
        --cls-lr "$2" --cls-epochs "$3" --cls-minutes "$MINUTES" --init-cls "$INIT" "${@:4}" >"$OUT/cls-$1.log" 2>&1
    echo "[far] $1 ended with status $? after $(( $(date +%s) - t0 )) s"
    cp "$WORK/$1/cls/last.pt" "$OUT/cls-$1.pt"
}
look() {   # its budget: MINUTES, or the time left before DEADLINE less 30 s for its last report
    rm -f "$WORK/look/summary.json"   # the one before training (look-init.json)
    local minutes=$MINUTES
    [ -z "${DEADLINE:-}" ] || minutes=$("$PY" -c "print(round(max(0.5, ($DEADLINE - 30 - $(date +%s)) / 60), 2))")
    $(stop_at) "$PY" -m dealer_assist.vision.train_look "${LOOK_ARGS[@]}" --epochs "${LOOK_EPOCHS:-12}" \
        --device "$LOOK_DEVICE" --minutes "$minutes" >"$OUT/look.log" 2>&1
    echo "[far] look ended with status $? after $(( $(date +%s) - t0 )) s"
    cp "$WORK/look/last.pt" "$OUT/look.pt"
    cp "$WORK/look/summary.json" "$OUT/look-summary.json" 2>/dev/null || echo "[far] the look wrote no summary"
}
# The look first: it loads its patches (some GB) before its training starts, and each trainer
# times its epochs while the others run; A and B start when the look's training does.
if [ -z "${LOOK_FAILED:-}" ]; then
    look &
    look_pid=$!
    for _ in $(seq 600); do
        grep -q "look: training on" "$OUT/look.log" 2>/dev/null && break
        kill -0 "$look_pid" 2>/dev/null || break
        sleep 0.5
    done
fi
if [ -n "${DEADLINE:-}" ]; then   # a wall-clock end (epoch seconds): the training gets what is left
    MINUTES=$("$PY" -c "print(round(max(0.5, ($DEADLINE - $(date +%s) - 50) / 60), 2))")
fi
echo "[far] A and B start after $(( $(date +%s) - t0 )) s, for $MINUTES minutes$(
    [ -n "${DEADLINE:-}" ] && echo ", every trainer stopped $(( DEADLINE - $(date +%s) - 5 )) s from now at the latest")"
run A 5e-4 12 &
run B 5e-4 12 --cls-blur 0.3 0.2 &
wait
grep -hs "epochs fit\|classifier epoch" "$OUT"/cls-*.log "$OUT/look.log" | cut -c1-330 | tail -40
ls -la "$OUT"
missing=0
for f in cls-A.pt cls-B.pt look.pt; do [ -s "$OUT/$f" ] || { echo "[far] no $OUT/$f" >&2; missing=1; }; done
echo "[far] all done in $(( $(date +%s) - t0 )) s"
exit $missing
