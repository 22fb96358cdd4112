"""Writing a dataset of rendered scenes in the layout ultralytics' OBB trainer reads, plus the
full JSON label of each frame.

Layout under ``out_dir``: ``images/{split}/NNNNNN.jpg``, ``labels/{split}/NNNNNN.txt`` (one line
``cls x1 y1 x2 y2 x3 y3 x4 y4``, corners normalised to 0..1, per face / back / joker worth
detecting), ``meta/{split}/NNNNNN.json`` (the vision contract's schema) and ``data.yaml``.
NNNNNN is the frame's seed. Writing is resumable: a frame whose three files exist is skipped;
each file is written under a temporary name and renamed, the JSON last.
"""
from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import cv2
import numpy as np

from dealer_assist.i18n import _, typed
from dealer_assist.vision.synth.scene import cut_by_frame, render_scene
from dealer_assist.vision.synth.styles import SynthError, check_split

CLASS_NAMES = {0: "face", 1: "back", 2: "joker"}
#: A card or back is put in the detector's labels when at least this fraction of it shows (a
#: face-up card also when one of its corner indices is visible).
DETECT_MIN_VISIBLE = 0.3


def yolo_lines(label: dict) -> list[str]:
    """The YOLO OBB label lines of a frame label (see the module doc for which objects count).

    >>> lab = {"width": 100, "height": 50, "backs": [],
    ...        "cards": [{"card": "JK", "polygon": [[10, 10], [30, 10], [30, 40], [10, 40]],
    ...                   "visible_fraction": 1.0, "corners_visible": [True, True]}]}
    >>> yolo_lines(lab)
    ['2 0.100000 0.200000 0.300000 0.200000 0.300000 0.800000 0.100000 0.800000']
    """
    w, h = label["width"], label["height"]
    lines = []

    def fmt(cls: int, polygon) -> str:
        polygon = in_frame(polygon, w, h)
        coords = []
        for x, y in polygon:
            coords += [min(max(x / w, 0.0), 1.0), min(max(y / h, 0.0), 1.0)]
        return f"{cls} " + " ".join(f"{v:.6f}" for v in coords)

    for c in label["cards"]:
        is_joker = c["card"] == "JK"
        index_shows = any(c["corners_visible"]) and (not is_joker or c.get("joker_has_index", True))
        if index_shows or c["visible_fraction"] >= DETECT_MIN_VISIBLE:
            lines.append(fmt(2 if is_joker else 0, c["polygon"]))
    for b in label["backs"]:
        if b["visible_fraction"] >= DETECT_MIN_VISIBLE:
            lines.append(fmt(1, b["polygon"]))
    return lines


def in_frame(polygon, w: int, h: int):
    """A card's outline as the detector is taught it: as it is where it lies wholly in the frame;
    for a card cut by the frame's edge, the box along the card's own sides around the part that
    shows (the real photos label a cut card by what shows; the box keeps the card's turn, so its
    corner in view is a corner of the box).

    >>> in_frame([[10, 10], [30, 10], [30, 40], [10, 40]], 100, 50)
    [[10, 10], [30, 10], [30, 40], [10, 40]]
    >>> sorted(map(tuple, np.round(in_frame([[80, 10], [120, 10], [120, 40], [80, 40]], 100, 50)).tolist()))
    [(80.0, 10.0), (80.0, 40.0), (100.0, 10.0), (100.0, 40.0)]
    """
    if not cut_by_frame(polygon, w, h):
        return polygon
    p = np.asarray(polygon, np.float32)
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area, shown = cv2.intersectConvexConvex(cv2.convexHull(p), frame)
    if shown is None or area <= 0:
        return polygon
    shown = shown.reshape(-1, 2).astype(np.float64)
    origin = p[0].astype(np.float64)
    sides = np.column_stack([p[1] - p[0], p[3] - p[0]]).astype(np.float64)    # the card's two sides
    s, t = np.linalg.solve(sides, (shown - origin).T)                          # the part in view, in them
    box = [origin + sides @ (a, b) for a, b in ((s.min(), t.min()), (s.max(), t.min()), (s.max(), t.max()),
                                                (s.min(), t.max()))]
    return [[float(x), float(y)] for x, y in box]


def _write_atomic(path: str, data: bytes) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"   # unique per process: two writers never share a temp file
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def _paths(out_dir: str, split: str, seed: int) -> tuple[str, str, str]:
    stem = f"{seed:06d}"
    return (os.path.join(out_dir, "images", split, stem + ".jpg"),
            os.path.join(out_dir, "labels", split, stem + ".txt"),
            os.path.join(out_dir, "meta", split, stem + ".json"))


#: Named data recipes: keyword arguments of :func:`render_scene` beyond (seed, split).
#: ``base`` is what every model up to detector E was trained on; ``joker-rich`` puts a joker in
#: 9 frames of 10 and a second one in a third of those (the detector's joker class barely learned
#: from about one joker per 20 face-up cards).
#: ``fresh-pips`` redraws each frame's pips with a seeded drawing of its own (100,000 drawings),
#: and ``fresh-pips-val`` draws from another 100,000 that training never sees: validation of
#: reading pip drawings the corner classifier has not met, without touching the test split.
#: ``world`` (:mod:`world`) puts the cards on photographs and procedural carpet, wood, cloth...,
#: among clutter, in close-ups and empty frames, with busy seeded court art (issue 20, item 2).
#: ``world-edge`` is ``world`` with cards cut by the frame's edge in 7 frames of 10.
#: ``world-decoy`` is ``world`` with 1-3 card-sized pictures that are not cards (photo prints,
#: notes, covers) in 7 frames of 10, and face-up cards cut by the frame's edge in 1 of 4: what the
#: real photos' jokers on no card and missed edge cards asked for (models/MODEL_CARD.md).
#: ``world-aces`` is ``world`` whose deck has, in half of the frames, a seeded fancy ace of spades
#: (a large spade filled with white ornament, a maker's name, small print), dealt first: the real
#: deck's ace of spades was the number card most often not sure.
#: ``world-courts`` is ``world-aces`` whose seeded court art is, in 6 decks of 10, ``toon-N``
#: (:func:`courts.draw_toon_court`): a cartoon bust or double-ended figure, or the busy figure with
#: no frame wrapped round the index corners, with large suit signs beside it, as many real and
#: Debian decks draw their courts (the layout check took such queens for tens).
#: ``fresh-fonts`` draws each frame's indices in one of the extra typefaces of Debian's font
#: packages (:func:`styles.extra_fonts`: Liberation, URW base35, Quicksand, Noto Mono), with a
#: pip drawing of its own as ``fresh-pips``: what makes a 9 a 9, not DejaVu's 9.
#: ``world-fonts`` is ``world`` with ``fresh-fonts``' typefaces and pip drawings: indices of many
#: typefaces among photographs, clutter and close-ups (the corner classifier of issue 20).
#: ``fresh-warp`` and ``world-warp`` are ``fresh-fonts`` and ``world-fonts`` with the typeface bent
#: by a seeded smooth field and made bolder or lighter, narrower or wider (``~warp-N``,
#: :func:`draw.warp_glyph`): a typeface of its own in every frame, for indices in faces no font
#: file has. Measured in the thirty-sixth session (models/MODEL_CARD.md), a fine-tune on them read
#: the held-out 9s as 3s more often, not less: no shipped model uses them.
#: ``fresh-bend`` and ``world-bend`` bend the typeface half as far and never make it bolder
#: (``~bend-N``). Measured in the thirty-seventh session (models/MODEL_CARD.md): the held-out 9s
#: were read as 3s as often after a fine-tune without any bend, so the small CPU fine-tune, not the
#: bend, loses them; no shipped model uses these recipes either.
RECIPES: dict[str, dict] = {
    "base": {},
    "joker-rich": {"joker_p": 0.9, "joker2_p": 0.35},
    "fresh-pips": {"fresh_pips": (100_000, 200_000)},
    "fresh-pips-val": {"fresh_pips": (900_000, 1_000_000)},
    "world": {"world": True, "joker_p": 0.3},
    "world-edge": {"world": True, "joker_p": 0.3, "edge_p": 0.7},
    "fresh-fonts": {"fresh_fonts": True, "fresh_pips": (100_000, 200_000)},
    "world-decoy": {"world": True, "joker_p": 0.3, "decoy_p": 0.7, "edge_p": 0.25, "edge_up": 1.0},
    "world-aces": {"world": True, "joker_p": 0.3, "ace_p": 0.5},
    "world-courts": {"world": True, "joker_p": 0.3, "ace_p": 0.5, "toon_p": 0.6},
    "world-fonts": {"world": True, "joker_p": 0.3, "fresh_fonts": True, "fresh_pips": (100_000, 200_000)},
    "fresh-warp": {"fresh_fonts": "warp", "fresh_pips": (100_000, 200_000)},
    "world-warp": {"world": True, "joker_p": 0.3, "fresh_fonts": "warp", "fresh_pips": (100_000, 200_000)},
    "fresh-bend": {"fresh_fonts": "bend", "fresh_pips": (100_000, 200_000)},
    "world-bend": {"world": True, "joker_p": 0.3, "fresh_fonts": "bend", "fresh_pips": (100_000, 200_000)},
}


#: Debian's packages of the photographs and texture scans a ``world`` recipe lays behind and
#: beside the cards (:data:`world.PHOTO_DIRS`; their licences in models/MODEL_CARD.md).
PHOTO_PACKAGES = "mate-backgrounds gnome-backgrounds ukui-wallpapers lomiri-wallpapers gimp-data mypaint-data-extras"


def photos_missing(recipe: str):
    """A warning (:class:`dealer_assist.i18n.Msg`) where ``recipe`` lays photographs behind and
    beside the cards and this machine has none (:func:`world.photo_files`); None otherwise. Such
    frames still render, on procedural surfaces only, so CI needs no package; but they are not the
    frames the same seeds give with the photographs, and a benchmark's figures on them are not
    comparable: the 34 Debian decks' ``world`` frames read 1 sure wrong name without them and 5
    with them (models/MODEL_CARD.md, "Fifty-fourth session").

    >>> photos_missing("base") is None
    True
    """
    if not RECIPES.get(recipe, {}).get("world"):
        return None
    from dealer_assist.vision.synth.world import photo_files

    photos, patterns = photo_files()
    if photos or patterns:
        return None
    return _("warning: this machine has no photographs for the {recipe} recipe's surfaces, so its frames are "
             "drawn on procedural surfaces only, and figures measured on them are not comparable with frames "
             "rendered with the photographs (apt-get install --no-install-recommends {packages})",
             recipe=recipe, packages=PHOTO_PACKAGES)


def write_frame(out_dir: str, split: str, seed: int, recipe: str = "base", **scene) -> bool:
    """Render and store one frame; False when it was already there. ``scene``: keyword arguments
    of :func:`render_scene` over the recipe's (``benchmarks/eval_decks.py``: ``deck_images``)."""
    img_p, txt_p, json_p = _paths(out_dir, split, seed)
    if all(os.path.exists(p) for p in (img_p, txt_p, json_p)):
        return False
    img, label = render_scene(seed, split, jpeg=False, **{**RECIPES[recipe], **scene})
    label["meta"]["recipe"] = recipe
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, label["meta"]["jpeg_quality"]])
    if not ok:
        raise OSError(f"could not encode frame {seed}")
    _write_atomic(img_p, buf.tobytes())
    _write_atomic(txt_p, ("\n".join(yolo_lines(label)) + "\n").encode())
    _write_atomic(json_p, json.dumps(label, separators=(",", ":")).encode())
    return True


def _write_many(args: tuple) -> int:
    out_dir, split, seeds, recipe = args
    return sum(write_frame(out_dir, split, s, recipe) for s in seeds)


def _one_thread() -> None:
    cv2.setNumThreads(1)  # the processes are the parallelism; OpenCV threads would fight them


def write_data_yaml(out_dir: str) -> str:
    root = os.path.abspath(out_dir)
    val = "images/test" if os.path.isdir(os.path.join(root, "images", "test")) else "images/train"
    text = (f"# written by dealer_assist.vision.synth (dealer-assist synth)\npath: {root}\n"
            f"train: images/train\nval: {val}\nnames:\n"
            + "".join(f"  {k}: {v}\n" for k, v in CLASS_NAMES.items()))
    path = os.path.join(root, "data.yaml")
    _write_atomic(path, text.encode())
    return path


def write_dataset(out_dir: str, n: int, split: str, seed0: int = 0, workers: int = 1,
                  progress=None, recipe: str = "base") -> int:
    """Render frames with seeds ``seed0 .. seed0 + n - 1`` of ``split`` into ``out_dir``;
    returns how many were newly written (existing frames are skipped). ``progress(done, n)`` is
    called as chunks finish. With ``workers`` > 1 the frames are drawn in that many spawned
    processes, not forked ones (a process forked from one whose threads hold locks, torch's, ONNX
    Runtime's or OpenCV's, can wait on them for ever: ``train`` and the benchmarks render after
    those have started); a frame is the same whichever process draws it."""
    check_split(split)
    if n < 0 or workers < 1:
        raise SynthError(_("n must be >= 0 and workers >= 1"))
    if recipe not in RECIPES:
        raise SynthError(_("unknown recipe {recipe}; known: {known}", recipe=typed(recipe), known=", ".join(RECIPES)))
    for sub in ("images", "labels", "meta"):
        os.makedirs(os.path.join(out_dir, sub, split), exist_ok=True)
    seeds = list(range(seed0, seed0 + n))
    written = 0
    if workers == 1:
        for i, s in enumerate(seeds):
            written += write_frame(out_dir, split, s, recipe)
            if progress and (i + 1) % 50 == 0:
                progress(i + 1, n)
    else:
        chunk = 20
        jobs = [(out_dir, split, seeds[i:i + chunk], recipe) for i in range(0, len(seeds), chunk)]
        done = 0
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=_one_thread) as ex:
            for k, cnt in zip(jobs, ex.map(_write_many, jobs)):
                written += cnt
                done += len(k[2])
                if progress:
                    progress(done, n)
    write_data_yaml(out_dir)
    return written


def write_flat(out_dir: str, seeds, split: str = "test") -> list[str]:
    """Write frames as ``{split}_{seed:06d}.jpg`` plus the JSON label beside it (the layout of
    ``sample_frames/``); returns the image paths. The JSON's ``image`` names the JPEG file."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for seed in seeds:
        img, label = render_scene(int(seed), split, jpeg=False)
        stem = f"{split}_{int(seed):06d}"
        label["image"] = stem + ".jpg"
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, label["meta"]["jpeg_quality"]])
        if not ok:
            raise OSError(f"could not encode frame {seed}")
        p = os.path.join(out_dir, stem + ".jpg")
        _write_atomic(p, buf.tobytes())
        _write_atomic(os.path.join(out_dir, stem + ".json"), json.dumps(label, indent=1).encode())
        paths.append(p)
    return paths
