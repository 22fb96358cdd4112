"""Train both stages from the project's own synthetic tables, resumably, on a CPU (``[train]`` extra).

One command does everything; each step skips what is already done, so running it again after an
interruption (or with ``--resume``) continues where it stopped::

    YOLO_OFFLINE=1 python -m dealer_assist.vision.train --data runs/data --out models \\
        --n-train 1500 --n-val 120 --epochs 10 --cls-epochs 8 --imgsz 416 --seed 0

Steps (outputs under ``--runs``, default ``runs/``; only the ONNX files go to ``--out``):

1. **data** - render ``--n-train`` frames of the TRAIN styles with
   :func:`dealer_assist.vision.synth.write_dataset` (seeds 0..n-1) and ``--n-val`` more (seeds from
   1,000,000, train styles too: the held-out TEST styles are never seen, not even for validation).
2. **corner crops** - cut every labelled card's two index corners from the full-resolution frame
   through :func:`geometry.training_corner_crops` (the runtime path, with detector-like jitter);
   label = the card (0..51, JK 52) when that corner's index is visible, else none (53).
3. **corner classifier** - a small CNN (:func:`build_corner_net`) trained with augmentation that
   does not trust colour or exact stroke shape (grey-scale, channel swaps, blur, noise, contrast).
4. **detector** - ultralytics YOLOv8-OBB built from the project's yaml (:func:`obb_yaml`: the v8
   OBB layout at depth 0.33 and ``--width`` 0.125 - about 0.93 M parameters, 2.9 GFLOPs at 640,
   the CPU recipe - or 0.25, the "n" scale of the shipped detector, trained on a GPU with
   ``scripts/train-gpu.sh``), from scratch, 3 classes ``face``, ``back``, ``joker``; resumable
   from ``last.pt``. ``--hours`` bounds its wall-clock time instead of ``--epochs``.
5. **export** - both to ONNX (:mod:`dealer_assist.vision.export`) plus ``models.json``.

Needs torch and ultralytics (``pip install -e '.[train]'``); the run time needs neither.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

#: The detector's architecture: ultralytics' YOLOv8 OBB layout; ``{width}`` is 0.125 (half the
#: "n" scale's 0.25, which trains 2.5x faster on a CPU) or 0.25 (the "n" scale, trained on a GPU).
#: Written next to the run.
_OBB_TEMPLATE = """\
# dealer-assist card detector: YOLOv8-OBB layout, depth 0.33, width {width} (3 classes)
nc: 3
scales:
  n: [0.33, {width}, 1024]
backbone:
  - [-1, 1, Conv, [64, 3, 2]]
  - [-1, 1, Conv, [128, 3, 2]]
  - [-1, 3, C2f, [128, True]]
  - [-1, 1, Conv, [256, 3, 2]]
  - [-1, 6, C2f, [256, True]]
  - [-1, 1, Conv, [512, 3, 2]]
  - [-1, 6, C2f, [512, True]]
  - [-1, 1, Conv, [1024, 3, 2]]
  - [-1, 3, C2f, [1024, True]]
  - [-1, 1, SPPF, [1024, 5]]
head:
  - [-1, 1, nn.Upsample, [None, 2, "nearest"]]
  - [[-1, 6], 1, Concat, [1]]
  - [-1, 3, C2f, [512]]
  - [-1, 1, nn.Upsample, [None, 2, "nearest"]]
  - [[-1, 4], 1, Concat, [1]]
  - [-1, 3, C2f, [256]]
  - [-1, 1, Conv, [256, 3, 2]]
  - [[-1, 12], 1, Concat, [1]]
  - [-1, 3, C2f, [512]]
  - [-1, 1, Conv, [512, 3, 2]]
  - [[-1, 9], 1, Concat, [1]]
  - [-1, 3, C2f, [1024]]
  - [[15, 18, 21], 1, OBB, [nc, 1]]
"""


def obb_yaml(width: float = 0.125) -> str:
    """The detector's ultralytics yaml at a given width multiple.

    >>> "n: [0.33, 0.25, 1024]" in obb_yaml(0.25)
    True
    """
    return _OBB_TEMPLATE.format(width=width)


NAMES = {0: "face", 1: "back", 2: "joker"}
VAL_SEED0 = 1_000_000


def log(msg: str) -> None:
    print(f"[train {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --------------------------------------------------------------------------------------------
# 1. data
# --------------------------------------------------------------------------------------------
def ensure_data(data: Path, n_train: int, n_val: int, workers: int, seed0: int = 0,
                recipe: str = "base", mix: tuple[tuple[str, int], ...] = ()) -> Path:
    """Render (or finish rendering) the train and validation frames; returns the YOLO yaml.

    ``mix`` adds frames of other recipes, ``(recipe, n)`` each, with the seeds that follow."""
    from dealer_assist.vision.synth import write_dataset

    t0 = time.time()
    write_dataset(data, n_train, "train", seed0=seed0, workers=workers, recipe=recipe)
    next_seed = seed0 + n_train
    for extra, n in mix:
        write_dataset(data, n, "train", seed0=next_seed, workers=workers, recipe=extra)
        next_seed += n
    val = data / "val"
    write_dataset(val, n_val, "train", seed0=VAL_SEED0, workers=workers)
    yaml_path = data / "cards-obb-data.yaml"
    tmp = yaml_path.with_suffix(f".{os.getpid()}.tmp")  # atomic: two trainings may share the data
    tmp.write_text(
        f"path: {data.resolve()}\ntrain: images/train\nval: {(val / 'images' / 'train').resolve()}\n"
        "names:\n" + "".join(f"  {k}: {v}\n" for k, v in NAMES.items()), encoding="utf-8")
    tmp.replace(yaml_path)
    log(f"data ready in {data} ({time.time() - t0:.0f} s)")
    return yaml_path


# --------------------------------------------------------------------------------------------
# 2. corner crops
# --------------------------------------------------------------------------------------------
def corner_labels(card: dict) -> tuple[int, int]:
    """Classifier labels (TL corner, BR corner) of one labelled card of the dataset schema.

    >>> corner_labels({"card": "Ah", "corners_visible": [True, False]})
    (50, 53)
    >>> corner_labels({"card": "JK", "corners_visible": [True, True], "joker_has_index": False})
    (53, 53)
    """
    from dealer_assist.vision.classifier import NONE, class_of

    cls = class_of(card["card"])
    if card["card"] == "JK" and card.get("joker_has_index") is False:
        return NONE, NONE
    vis = card.get("corners_visible", [True, True])
    return (cls if vis[0] else NONE), (cls if vis[1] else NONE)


#: the card widths (short side, pixels) a far camera's patch is cut at (:func:`far_copy`): from
#: the smallest card the reader names (a 0.35 view of a 1280x720 table) to where the small
#: cards' threshold ends (``detector.SURE_MIN_SIDE``)
FAR_SIDES = (18.0, 60.0)


def far_copy(img: np.ndarray, polygon, rng: np.random.Generator,
             sides: tuple[float, float] = FAR_SIDES) -> tuple[np.ndarray, np.ndarray]:
    """The card's surroundings as a farther camera sees them, and its outline there: shrunk (as
    ``benchmarks/eval_detect.far_view`` shrinks a frame, with area averaging) until the card's
    short side is drawn from ``sides``, and half of the time stored as a JPEG of quality 55 to 95.
    A card already that small is left as it is.

    >>> img = np.full((400, 400, 3), 200, np.uint8)
    >>> small, poly = far_copy(img, [[100, 100], [200, 100], [200, 240], [100, 240]], np.random.default_rng(0))
    >>> 18 <= min(np.ptp(poly, axis=0)) <= 60 and small.shape[0] < 400
    True
    """
    import cv2

    from dealer_assist.vision.geometry import card_width

    p = np.asarray(polygon, np.float64)
    side = card_width(p)
    target = float(rng.uniform(*sides))
    if target >= side:
        return img, p
    f = target / side
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(p.min(axis=0) - side), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(p.max(axis=0) + side), [w, h]).astype(int)
    crop = img[y0:y1, x0:x1]
    small = cv2.resize(crop, (max(1, int(round(crop.shape[1] * f))), max(1, int(round(crop.shape[0] * f)))),
                       interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
        if ok:
            small = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return small, (p - [x0, y0]) * f


def far_draws(reps: int, far_p: float, rng: np.random.Generator) -> list[bool]:
    """Which cuts of one card to make: ``reps`` at the frame's own size (False), then one more as a
    farther camera sees it (True, :func:`far_copy`) for a share ``far_p`` of the cards. With
    ``far_p`` 0 it draws nothing from ``rng``: the cuts are those of before, cut for cut.

    >>> far_draws(2, 0.0, None), far_draws(1, 1.0, np.random.default_rng(0))
    ([False, False], [False, True])
    """
    return [False] * reps + ([True] if far_p and rng.random() < far_p else [])


def in_parts(fn, workers: int, *args, **kw) -> list:
    """``fn(*args, part=(k, workers), **kw)`` for k = 0 .. ``workers`` - 1, each in a process of its
    own, their results in that order (:func:`build_crops`, ``train_look.cut_patches``: part k cuts
    frames k, k + n, ... with a generator of its own). The processes are spawned, not forked: one
    forked from a process whose threads hold locks (torch's, OpenCV's, a test runner's) can wait
    on them for ever."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futs = [pool.submit(fn, *args, part=(k, workers), **kw) for k in range(workers)]
        return [f.result() for f in futs]


def build_crops(data: Path, split: str, reps: int, seed: int, limit: int | None = None,
                negatives: int = 2, jitter: dict | None = None, workers: int = 1,
                part: tuple[int, int] | None = None, far_p: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Corner crops (N, H, W, 3) uint8 and labels (N,) from a rendered split, cut as at run time.
    ``far_p``: the share of cards that give their corners once more as a farther camera sees them
    (:func:`far_copy`: the card 18 to 60 pixels wide), labelled the same.
    ``workers`` > 1 cuts every ``workers``-th frame in each of that many processes (``part`` =
    (k, n): this call cuts frames k, k + n, ... with a generator of its own); the crops are the
    same for the same ``workers``, whatever the machine."""
    import cv2

    from dealer_assist.vision.classifier import NONE
    from dealer_assist.vision.geometry import training_corner_crops

    if workers > 1 and part is None:
        done = in_parts(build_crops, workers, data, split, reps, seed, limit, negatives, jitter, 1, far_p=far_p)
        if not any(len(d[1]) for d in done):
            raise SystemExit(f"no labelled frames under {data / 'meta' / split}")
        return np.concatenate([d[0] for d in done]), np.concatenate([d[1] for d in done])
    rng = np.random.default_rng(seed if part is None else [seed, part[0], part[1]])
    xs: list[np.ndarray] = []
    ys: list[int] = []
    metas = sorted((data / "meta" / split).glob("*.json"))[:limit]
    if part is not None:
        metas = metas[part[0]::part[1]]
    for mp in metas:
        meta = json.loads(mp.read_text(encoding="utf-8"))
        img = cv2.imread(str(data / "images" / split / meta["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        for card in meta.get("cards", []):
            lab = dict(zip(("tl", "br"), corner_labels(card)))
            for far in far_draws(reps, far_p, rng):
                seen, poly = far_copy(img, card["polygon"], rng) if far else (img, card["polygon"])
                for which, crop in training_corner_crops(seen, poly, rng, jitter):
                    xs.append(crop)
                    ys.append(lab[which])
        for back in meta.get("backs", []):
            for _, crop in training_corner_crops(img, back["polygon"], rng):
                xs.append(crop)
                ys.append(NONE)
        h, w = img.shape[:2]
        for _ in range(negatives):  # random patches of the table: chips, felt, hands
            cw = rng.uniform(60, 200)
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            poly = [[cx, cy], [cx + cw, cy], [cx + cw, cy + cw * 1.4], [cx, cy + cw * 1.4]]
            for _, crop in training_corner_crops(img, poly, rng):
                xs.append(crop)
                ys.append(NONE)
    if not xs:
        if part is not None:   # a worker whose frames hold nothing: the others may
            from dealer_assist.vision.geometry import CROP_H, CROP_W
            return np.zeros((0, CROP_H, CROP_W, 3), np.uint8), np.zeros(0, np.int64)
        raise SystemExit(f"no labelled frames under {data / 'meta' / split}")
    return np.stack(xs), np.array(ys, np.int64)


def ensure_crops(data: Path, runs: Path, split: str, reps: int, seed: int, name: str,
                 limit: int | None = None, jitter: dict | None = None,
                 workers: int = 1, far_p: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    path = runs / f"{name}.npz"
    if path.is_file():
        z = np.load(path)
        return z["x"], z["y"]
    t0 = time.time()
    x, y = build_crops(data, split, reps, seed, limit, jitter=jitter, workers=workers, far_p=far_p)
    tmp = runs / f"{name}.tmp.npz"
    np.savez(tmp, x=x, y=y)
    tmp.replace(path)
    log(f"{name}: {len(y)} crops ({int((y < 53).sum())} with an index) in {time.time() - t0:.0f} s")
    return x, y


# --------------------------------------------------------------------------------------------
# 3. corner classifier
# --------------------------------------------------------------------------------------------
def build_corner_net(num_classes: int = 54, emb_dim: int = 128, crop_hw: tuple[int, int] = (56, 36)):
    """The corner CNN (about 15 M multiply-adds a crop): per-crop normalisation, 5 conv layers, a
    128-d embedding, 54 logits. ``crop_hw`` is the input (height, width); the card-look
    classifier (:mod:`dealer_assist.vision.train_look`) uses the same network on 78 x 56 patches.
    ``forward`` returns logits; ``forward_export`` returns (softmax, unit embedding)."""
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU(inplace=True)]

    class CornerNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *block(3, 16),                                       # 56x36
                *block(16, 32, stride=2), *block(32, 32),            # -> 28x18
                nn.MaxPool2d(2),                                     # -> 14x9
                *block(32, 64), *block(64, 64),
                nn.MaxPool2d(2),                                     # -> 7x4
            )
            self.embed = nn.Sequential(nn.Flatten(), nn.Dropout(0.2),
                                       nn.Linear(64 * (crop_hw[0] // 8) * (crop_hw[1] // 8), emb_dim))
            self.head = nn.Sequential(nn.ReLU(), nn.Linear(emb_dim, num_classes))

        @staticmethod
        def normalise(x: torch.Tensor) -> torch.Tensor:  # raw 0..255 BGR pixels in
            mean = x.mean(dim=(1, 2, 3), keepdim=True)
            std = x.std(dim=(1, 2, 3), keepdim=True)
            return (x - mean) / (std + 8.0)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.embed(self.features(self.normalise(x))))

        def forward_export(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            e = self.embed(self.features(self.normalise(x)))
            probs = torch.softmax(self.head(e), dim=1)
            return probs, e / (e.norm(dim=1, keepdim=True) + 1e-6)

    return CornerNet()


def augment(x, gen, channel_swap: bool = True):
    """Batch augmentation of raw-pixel crops (float tensor N,3,H,W) that keeps the index readable
    but stops the network from trusting one font or one pip drawing: a small random affine warp
    (scale, aspect - condensed and wide fonts -, shear - italics -, rotation, shift), thicker or
    thinner strokes, contrast and brightness, grey-scale, colour-channel swaps (held-out decks
    may colour suits differently; ``channel_swap=False`` keeps the colours, for the layout
    classifier, whose suits are told by colour and shape), blur and noise."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    dev = x.device

    def rand(*shape):
        return torch.rand(*shape, generator=gen, device=dev)

    # affine: output pixel -> input pixel in normalised coordinates
    ang = (rand(n) - 0.5) * 2 * 0.12                     # +-7 degrees
    sx = 1.0 + (rand(n) - 0.5) * 0.3                     # +-15 % width
    sy = 1.0 + (rand(n) - 0.5) * 0.2                     # +-10 % height
    sh = (rand(n) - 0.5) * 0.3                           # shear (italic)
    tx, ty = (rand(n) - 0.5) * 0.12, (rand(n) - 0.5) * 0.1
    c, s_ = torch.cos(ang), torch.sin(ang)
    theta = torch.stack([torch.stack([c * sx, -s_ * sy + sh, tx], 1),
                         torch.stack([s_ * sx, c * sy, ty], 1)], 1)
    warp = rand(n) < 0.8
    if warp.any():
        grid = F.affine_grid(theta[warp], list(x[warp].shape), align_corners=False)
        x[warp] = F.grid_sample(x[warp], grid, mode="bilinear", padding_mode="border", align_corners=False)
    # stroke weight: dark ink on light paper, so a max-filter thins strokes, a min-filter thickens
    m = rand(n)
    thin, thick = m < 0.15, (m >= 0.15) & (m < 0.3)
    if thin.any():
        x[thin] = F.max_pool2d(F.pad(x[thin], (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    if thick.any():
        x[thick] = -F.max_pool2d(F.pad(-x[thick], (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    x = x * (0.6 + 0.8 * rand(n, 1, 1, 1)) + (rand(n, 1, 1, 1) - 0.5) * 80
    grey = rand(n) < 0.25
    if grey.any():
        x[grey] = x[grey].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    perm = rand(n) < (0.25 if channel_swap else 0.0)
    if perm.any():
        idx = torch.randperm(3, generator=gen, device=dev)
        x[perm] = x[perm][:, idx]
    blur = rand(n) < 0.3
    if blur.any():
        x[blur] = F.avg_pool2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), 3, stride=1)
    x = x + torch.randn(x.shape, generator=gen, device=dev) * (rand(n, 1, 1, 1) * 12)
    return x.clamp(0, 255)


#: the long side of a card, in corner-crop pixels, that :func:`camera_blur`'s sizes are made for
BLUR_CARD_PX = 160


def camera_blur(x, gen, p_motion: float = 0.3, p_defocus: float = 0.2, scale: float = 1.0):
    """A camera's blur on a batch of raw-pixel crops (float tensor N,3,H,W), beside
    :func:`augment`'s mild one: motion (a line 3 to 9 pixels long at any angle) on a share
    ``p_motion`` of the crops, defocus (a Gaussian of sigma 0.8 to 2.2 pixels) on a share
    ``p_defocus`` of the others; one length, angle and sigma a batch. At the corner crop's scale
    (a card's long side about :data:`BLUR_CARD_PX` crop pixels) 9 pixels is a motion of about 6 %
    of the card.
    ``scale`` sizes both for crops whose card is smaller: the whole-card look's patch
    (:data:`look.LOOK_H`, 78 pixels a card) blurs at about 0.49 (lines of 3 to 5 pixels, at
    least 3, sigma 0.4 to 1.1). The labels stay: where the card cannot be told, the reader learns
    to spread its probabilities instead of guessing surely (models/MODEL_CARD.md, "Fiftieth
    session"). Needs torch (the training venv): ``tests/test_corner_training.py`` checks it
    there."""
    import math

    import torch
    import torch.nn.functional as F

    n = x.shape[0]

    def rand(*shape):
        return torch.rand(*shape, generator=gen, device=x.device)

    def blur_with(sel, kernel):
        k = kernel.to(device=x.device, dtype=x.dtype)[None, None].expand(3, 1, *kernel.shape)
        pad = kernel.shape[0] // 2
        x[sel] = F.conv2d(F.pad(x[sel], (pad, pad, pad, pad), mode="replicate"), k, groups=3)

    motion = rand(n) < p_motion
    if motion.any():
        length = max(3, int(round((3 + 2 * int(rand(1).item() * 4)) * scale)) | 1)   # 3, 5, 7 or 9 at 1
        angle = float(rand(1).item()) * math.pi
        kernel = torch.zeros(length, length)
        c = length // 2
        for i in range(length * 4):
            t = i / (length * 4 - 1) - 0.5
            kernel[round(c + t * (length - 1) * math.sin(angle)), round(c + t * (length - 1) * math.cos(angle))] = 1
        blur_with(motion, kernel / kernel.sum())
    defocus = (rand(n) < p_defocus) & ~motion
    if defocus.any():
        sigma = (0.8 + 1.4 * float(rand(1).item())) * scale
        r = max(1, int(math.ceil(2.5 * sigma)))
        g = torch.exp(-torch.arange(-r, r + 1, dtype=torch.float32) ** 2 / (2 * sigma * sigma))
        kernel = g[:, None] * g[None, :]
        blur_with(defocus, kernel / kernel.sum())
    return x


def train_classifier(x: np.ndarray, y: np.ndarray, runs: Path, epochs: int, seed: int,
                     x_test: np.ndarray | None = None, y_test: np.ndarray | None = None,
                     init: str | None = None, lr: float = 3e-3, device: str = "cpu", *,
                     num_classes: int = 54, crop_hw: tuple[int, int] = (56, 36), out_dir: str = "cls",
                     class_weight: np.ndarray | None = None,
                     batch_augment=None, validate=None, budget_s: float | None = None,
                     label_smoothing: float = 0.05) -> dict:
    """Train (or resume) the corner CNN; checkpoints each epoch to ``runs/cls/last.pt``.
    ``device`` is a torch device ("cpu", "cuda", "cuda:0"); the crops and their augmentation
    then live there. Returns ``{"history": [...], "net": the trained network}``.

    The card-look classifier (:mod:`train_look`) trains with the same loop: ``num_classes`` and
    ``crop_hw`` (of :func:`build_corner_net`), ``out_dir`` (checkpoint folder under ``runs``), ``class_weight``
    (cross-entropy weights), ``batch_augment(x, generator)`` (default :func:`augment`) and
    ``validate(net) -> dict`` (added to each epoch's record; default: :func:`evaluate_classifier`
    on ``x_test``, ``y_test``).

    ``budget_s`` (a fresh run only): the run times 30 steps at the schedule's starting rate first,
    then trains as many of the ``epochs`` as fit that many seconds (validation included), so that
    a time-boxed run on a lent GPU still ends its learning-rate schedule.

    ``label_smoothing``: of the cross-entropy (0.05 for every shipped reader: a clear input's
    top probability then aims at 1 - 0.05 + 0.05 / ``num_classes``)."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    dev = torch.device(device)
    out = runs / out_dir
    out.mkdir(parents=True, exist_ok=True)
    ckpt_path = out / "last.pt"
    net = build_corner_net(num_classes, crop_hw=crop_hw)
    batch_augment = augment if batch_augment is None else batch_augment
    if validate is None and x_test is not None:
        def validate(n):
            return evaluate_classifier(n, x_test, y_test)
    if init and not ckpt_path.is_file():  # warm start from an earlier run's weights
        net.load_state_dict(torch.load(init, map_location="cpu", weights_only=False)["model"])
        log(f"classifier: starting from {init}")
    if epochs <= 0 and not ckpt_path.is_file():   # crops only (--cls-epochs 0)
        return {"history": [], "net": net}
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps_per_epoch = (len(y) + 255) // 256
    start, history = 0, []
    net.to(dev)
    gen = torch.Generator(device=dev).manual_seed(seed)
    xt = torch.from_numpy(x).permute(0, 3, 1, 2).to(dev)  # uint8 N,3,H,W
    yt = torch.from_numpy(y).to(dev)
    weight = None if class_weight is None else torch.as_tensor(class_weight, dtype=torch.float32, device=dev)
    if budget_s is not None and not ckpt_path.is_file():
        def step(idx):
            loss = F.cross_entropy(net(batch_augment(xt[idx].float(), gen)), yt[idx], weight=weight,
                                   label_smoothing=label_smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()

        for g in opt.param_groups:   # OneCycle's starting rate (max_lr / 25)
            g["lr"] = lr / 25
        epochs = _epochs_in_budget(step, len(yt), steps_per_epoch, epochs, budget_s, dev, gen)
    ck = torch.load(ckpt_path, map_location=dev, weights_only=False) if ckpt_path.is_file() else None
    if ck is not None:
        epochs = ck.get("epochs", epochs)   # a time-boxed run resumes the schedule it chose
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch,
                                                pct_start=0.15)
    if ck is not None:
        net.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        sched.load_state_dict(ck["sched"])
        start, history = ck["epoch"], ck["history"]
        log(f"classifier: resuming after epoch {start}")
    for epoch in range(start, epochs):
        t0 = time.time()
        net.train()
        order = torch.randperm(len(yt), generator=torch.Generator().manual_seed(seed + epoch)).to(dev)
        tot, correct, loss_sum = 0, torch.zeros((), device=dev), torch.zeros((), device=dev)
        for i in range(0, len(order), 256):
            idx = order[i:i + 256]
            xb = batch_augment(xt[idx].float(), gen)
            logits = net(xb)
            loss = F.cross_entropy(logits, yt[idx], weight=weight, label_smoothing=label_smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += loss.detach() * len(idx)   # summed on the device: no sync per batch
            correct += (logits.argmax(1) == yt[idx]).sum()
            tot += len(idx)
        rec = {"epoch": epoch + 1, "loss": float(loss_sum) / tot, "train_acc": float(correct) / tot,
               "seconds": round(time.time() - t0, 1)}
        if validate is not None:
            rec.update(validate(net))
        history.append(rec)
        log(f"classifier epoch {epoch + 1}/{epochs}: {json.dumps(rec)}")
        state = {k: v.detach().cpu() for k, v in net.state_dict().items()}
        torch.save({"model": state, "opt": opt.state_dict(), "sched": sched.state_dict(),
                    "epoch": epoch + 1, "epochs": epochs, "history": history}, out / "last.tmp")
        (out / "last.tmp").replace(ckpt_path)
    return {"history": history, "net": net}


def _epochs_in_budget(step, n: int, steps_per_epoch: int, epochs: int, budget_s: float, dev, gen) -> int:
    """How many of ``epochs`` fit ``budget_s`` seconds (at least one): 10 untimed warm-up steps
    (kernels, caches), then 30 timed ones, of ``step(batch indices)``, plus 8 % for validation."""
    import torch

    t_start = time.time()
    n_probe = min(30, steps_per_epoch)
    for i in range(n_probe + 10):
        if i == 10:
            if dev.type == "cuda":
                torch.cuda.synchronize()
            t_probe = time.time()
        step(torch.randint(n, (256,), generator=gen, device=dev))
    if dev.type == "cuda":
        torch.cuda.synchronize()
    per_epoch = (time.time() - t_probe) / n_probe * steps_per_epoch * 1.08
    fit = min(epochs, max(1, int((budget_s - (time.time() - t_start)) // per_epoch)))
    log(f"classifier: about {per_epoch:.0f} s an epoch; {fit} of {epochs} epochs fit {budget_s:.0f} s")
    return fit


def evaluate_classifier(net, x: np.ndarray, y: np.ndarray) -> dict:
    """Accuracy on crops with an index and on 'none' crops (no augmentation)."""
    import torch

    net.eval()
    dev = next(net.parameters()).device
    preds = []
    with torch.no_grad():
        for i in range(0, len(y), 512):
            xb = torch.from_numpy(x[i:i + 512]).permute(0, 3, 1, 2).float().to(dev)
            preds.append(net(xb).argmax(1).cpu().numpy())
    p = np.concatenate(preds)
    idx = y < 53
    return {"test_index_acc": round(float((p[idx] == y[idx]).mean()), 4) if idx.any() else None,
            "test_none_acc": round(float((p[~idx] == y[~idx]).mean()), 4) if (~idx).any() else None}


# --------------------------------------------------------------------------------------------
# 4. detector
# --------------------------------------------------------------------------------------------
def train_detector(data_yaml: Path, runs: Path, epochs: int, imgsz: int, seed: int, batch: int,
                   workers: int, fraction: float = 1.0, init: str | None = None, width: float = 0.125,
                   device: str = "cpu", hours: float | None = None, lr0: float | None = None,
                   close_mosaic: int | None = None, freeze: int | None = None, save_period: int = 0) -> Path:
    """Train (or resume) the OBB detector from the project's yaml - or, with ``init``, continue
    from the weights of an earlier run of this project (never downloaded weights); returns the
    final weights. ``hours`` trains for that long instead (ultralytics re-plans the epochs, and
    the learning-rate schedule with them, after each epoch); ``lr0`` fixes AdamW's rate (default:
    ultralytics' "auto" choice); ``freeze`` keeps the network's first modules as they are
    (22: only the OBB head learns, the backbone and neck stay ``init``'s); ``save_period`` N keeps
    ``epochN.pt`` every N epochs beside ``last.pt`` (to measure each epoch, or average them)."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics import YOLO

    proj = (runs / "obb").resolve()
    wdir = proj / "detector" / "weights"
    done = proj / "detector" / "DONE"
    if done.is_file():
        log("detector: already trained")
        return wdir / "last.pt"
    last = wdir / "last.pt"
    if last.is_file():
        log(f"detector: resuming from {last}")
        YOLO(str(last)).train(resume=True)
    else:
        cfg = runs / "cards-obb.yaml"
        cfg.write_text(obb_yaml(width), encoding="utf-8")
        model = YOLO(str(init), task="obb") if init else YOLO(str(cfg), task="obb")
        if init:
            log(f"detector: continuing from {init}")
        extra = {"time": hours} if hours else {}
        if lr0:
            extra.update(optimizer="AdamW", lr0=lr0)
        if freeze:
            extra["freeze"] = freeze
        if save_period:
            extra["save_period"] = save_period
        # amp off: its self-check wants downloaded weights; a nano network is data-bound anyway
        model.train(data=str(data_yaml), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers,
                    device=device, seed=seed, deterministic=True, val=False, plots=False, amp=False,
                    cache="ram", project=str(proj), name="detector", exist_ok=True, pretrained=bool(init),
                    close_mosaic=close_mosaic if close_mosaic is not None else max(1, epochs // 5),
                    fraction=fraction, **extra,
                    # the synthetic frames already vary rotation, tilt, colour and scale
                    degrees=0.0, scale=0.25, translate=0.1, fliplr=0.5, mosaic=1.0,
                    hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, patience=0, verbose=False,
                    warmup_epochs=1.0)
    done.write_text("done\n", encoding="utf-8")
    return last


# --------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dealer_assist.vision.train", description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="runs/data", help="dataset folder (rendered if missing)")
    ap.add_argument("--runs", default="runs", help="training outputs (checkpoints, logs)")
    ap.add_argument("--out", default="models", help="where the exported ONNX models go")
    ap.add_argument("--n-train", type=int, default=1500)
    ap.add_argument("--train-seed0", type=int, default=0, help="first seed of the training frames")
    ap.add_argument("--recipe", default="base", help="data recipe (synth.dataset.RECIPES): base, joker-rich")
    ap.add_argument("--mix", action="append", default=[], metavar="RECIPE:N",
                    help="add N frames of another recipe (seeds after the --n-train ones), e.g. joker-rich:750")
    ap.add_argument("--n-val", type=int, default=120)
    ap.add_argument("--n-cls-test", type=int, default=60,
                    help="TEST-split frames (held-out styles) to report classifier accuracy on")
    ap.add_argument("--epochs", type=int, default=10, help="detector epochs")
    ap.add_argument("--cls-epochs", type=int, default=8)
    ap.add_argument("--cls-reps", type=int, default=2, help="jittered crops per card corner")
    ap.add_argument("--crop-jitter", type=float, nargs=3, default=[0.07, 0.08, 6.0],
                    metavar=("SHIFT", "SCALE", "DEG"), help="detector-like error of the training crops' "
                    "boxes: centre shift and size change (fractions of the card), angle (degrees)")
    ap.add_argument("--cls-lr", type=float, default=3e-3)
    ap.add_argument("--imgsz", type=int, default=416)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=float, default=0.125,
                    help="detector width multiple: 0.125 (CPU recipe) or 0.25 (the 'n' scale, GPU recipe)")
    ap.add_argument("--device", default="cpu", help="detector device for ultralytics: cpu, 0, ...")
    ap.add_argument("--cls-device", default="cpu", help="classifier device for torch: cpu, cuda, ...")
    ap.add_argument("--hours", type=float, default=None,
                    help="train the detector for this long instead of --epochs (re-planned per epoch)")
    ap.add_argument("--lr0", type=float, default=None, help="detector AdamW learning rate (default: auto)")
    ap.add_argument("--close-mosaic", type=int, default=None,
                    help="last epochs without mosaic (default: a fifth of --epochs)")
    ap.add_argument("--freeze", type=int, default=None,
                    help="keep the detector's first N modules as --init-obb has them (22: the head alone learns)")
    ap.add_argument("--save-period", type=int, default=0,
                    help="also keep the detector's weights every N epochs (epochN.pt beside last.pt)")
    ap.add_argument("--resume", action="store_true", help="continue an interrupted run (the default "
                    "behaviour anyway: finished steps are skipped)")
    ap.add_argument("--skip-detector", action="store_true")
    ap.add_argument("--skip-classifier", action="store_true", help="use --cls-from instead")
    ap.add_argument("--cls-from", default=None, help="classifier checkpoint to export when skipping "
                    "(none: the shipped models/corner-cls.onnx is copied as it is)")
    ap.add_argument("--init-obb", default=None, help="continue the detector from this run's weights")
    ap.add_argument("--init-cls", default=None, help="start the classifier from these weights")
    ap.add_argument("--crop-workers", type=int, default=1, help="processes cutting the corner crops")
    ap.add_argument("--cls-far-p", type=float, default=0.0,
                    help="the share of training cards whose corners are also cut as a farther camera sees "
                         "them (18 to 60 pixels wide: far_copy); 0: none")
    ap.add_argument("--cls-blur", type=float, nargs=2, default=[0.0, 0.0], metavar=("MOTION", "DEFOCUS"),
                    help="the shares of training crops also given a camera's motion blur and defocus "
                         "(camera_blur; default 0 0: augment's mild blur alone)")
    ap.add_argument("--cls-minutes", type=float, default=None,
                    help="train as many of --cls-epochs as fit this many minutes (a fresh run)")
    args = ap.parse_args(argv)
    os.environ.setdefault("YOLO_OFFLINE", "1")
    data, runs, out = Path(args.data), Path(args.runs), Path(args.out)
    runs.mkdir(parents=True, exist_ok=True)
    t_all = time.time()
    mix = []
    for item in args.mix:
        name, _, n = item.partition(":")
        if not n.isdigit():
            ap.error(f"--mix takes RECIPE:N, got {item!r}")
        mix.append((name, int(n)))
    data_yaml = ensure_data(data, args.n_train, args.n_val, args.workers, args.train_seed0, args.recipe,
                            tuple(mix))

    cls_ckpt: Path | None = Path(args.cls_from) if args.cls_from else runs / "cls" / "last.pt"
    if args.skip_classifier and not args.cls_from:
        cls_ckpt = None
    cls_report: dict = {"history": []}
    if not args.skip_classifier:
        from dealer_assist.vision.synth import write_dataset
        test_dir = runs / "cls-test-data"
        write_dataset(test_dir, args.n_cls_test, "test", seed0=2_000_000, workers=args.workers)
        jit = dict(zip(("shift", "scale", "angle_deg"), args.crop_jitter))
        x, y = ensure_crops(data, runs, "train", args.cls_reps, args.seed, "crops-train", jitter=jit,
                            workers=args.crop_workers, far_p=args.cls_far_p)
        xt, yt = ensure_crops(test_dir, runs, "test", 1, args.seed + 1, "crops-test", jitter=jit)
        t0 = time.time()
        p_motion, p_defocus = args.cls_blur
        blurred = None
        if p_motion > 0 or p_defocus > 0:
            def blurred(xb, gen):
                return camera_blur(augment(xb, gen), gen, p_motion, p_defocus)
            log(f"classifier: a camera's blur besides augment's, motion on {p_motion:g} and defocus on "
                f"{p_defocus:g} of the crops (camera_blur)")
        cls_report = train_classifier(x, y, runs, args.cls_epochs, args.seed, xt, yt, init=args.init_cls,
                                      lr=args.cls_lr, device=args.cls_device, batch_augment=blurred,
                                      budget_s=None if args.cls_minutes is None else args.cls_minutes * 60)
        log(f"classifier trained ({time.time() - t0:.0f} s)")
        del x, y
    if args.skip_detector:
        return 0
    t0 = time.time()
    weights = train_detector(data_yaml, runs, args.epochs, args.imgsz, args.seed, args.batch, args.workers,
                             init=args.init_obb, width=args.width, device=args.device, hours=args.hours,
                             lr0=args.lr0, close_mosaic=args.close_mosaic, freeze=args.freeze,
                             save_period=args.save_period)
    log(f"detector trained ({time.time() - t0:.0f} s)")

    from dealer_assist.vision.export import export_all
    export_all(weights, cls_ckpt, out, imgsz=args.imgsz, extra={
        "recipe": {"n_train": args.n_train, "n_val": args.n_val, "epochs": args.epochs,
                   "cls_epochs": args.cls_epochs, "cls_reps": args.cls_reps,
                   "crop_jitter": args.crop_jitter, "cls_far_p": args.cls_far_p, "cls_blur": args.cls_blur, "cls_lr": args.cls_lr,
                   "imgsz": args.imgsz,
                   "batch": args.batch, "seed": args.seed, "width": args.width, "device": args.device,
                   "hours": args.hours, "lr0": args.lr0, "close_mosaic": args.close_mosaic, "train_seeds": [args.train_seed0, args.train_seed0 + args.n_train - 1],
                   "data_recipe": args.recipe, "mix": args.mix,
                   "val_seeds": [VAL_SEED0, VAL_SEED0 + args.n_val - 1], "init_obb": args.init_obb,
                   "init_cls": args.init_cls, "cls_from": args.cls_from},
        "classifier": cls_report["history"][-1] if cls_report["history"] else None,
        "train_minutes": round((time.time() - t_all) / 60.0, 1)})
    log(f"all done in {(time.time() - t_all) / 60:.1f} min; models in {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
