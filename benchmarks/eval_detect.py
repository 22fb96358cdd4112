"""Accuracy of the shipped card detector on a held-out TEST split (styles never seen in training).

    .venv/bin/python benchmarks/eval_detect.py --n 300            # renders runs/eval-test if missing
    .venv/bin/python benchmarks/eval_detect.py --n 300 --no-search   # without the corner search
    .venv/bin/python benchmarks/eval_detect.py --set val-pips     # a validation set (EVAL_SETS)
    .venv/bin/python benchmarks/eval_detect.py --set val-train --far 0.5   # seen from farther away,
                                                  # in a 1920x1080 frame (far_view; --no-zoom: without the zoom)

Frames are rendered by :func:`dealer_assist.vision.synth.write_dataset` with split "test" (its
held-out deck styles, fonts, joker styles and back designs) and seeds 3,000,000 + i, then read
with :class:`dealer_assist.vision.detector.CardDetector` exactly as ``dealer-assist detect`` does.

Matching: a predicted card and a labelled card are the same card when their outlines overlap
with IoU >= 0.5 (greedy, best overlap first). Definitions:

* a labelled card **counts** when at least one corner index is visible, or it is a joker with a
  visible corner or at least half of it in view (the issue's definition);
* **recall** = counted cards that are found AND named right / counted cards;
* **precision** = named predictions (not ``??``) that sit on a labelled card of that name /
  named predictions (a named box on a back, on nothing, or with the wrong name is an error);
* **frame all-correct** = every counted card named right and no wrong named prediction;
* by rotation (the card's in-plane angle, 8 sectors of 45 degrees) and by camera tilt:
  recall of counted cards in that bucket; by card width in pixels likewise;
* **sure** (the detector's ``"sure"`` flag, issue 20 item 3): the share of right names that are
  not sure (``right_not_sure``) and the number of wrong names that are sure (``wrong_sure``);
  ``benchmarks/eval_sure.py`` chooses the threshold;
* **other name** (``"or"``, what a card not sure may be instead): of the wrong names on a card,
  how many carry one and how many of those name the card itself; how many right names not sure
  carry one (``other_name``).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_assist.vision.detector import CardDetector, DetectorSettings, read_image  # noqa: E402
from dealer_assist.vision.geometry import polygon_iou  # noqa: E402
from dealer_assist.vision.synth.dataset import DETECT_MIN_VISIBLE  # noqa: E402

SEED0 = 3_000_000

#: Named frame sets (``--set``): (folder under runs/, split, first seed, data recipe). ``test`` is
#: the held-out TEST split the model card reports; the ``val-*`` sets are validation frames of the
#: TRAIN styles, where settings and models are chosen: ``val-train`` and ``val-train2`` two
#: samples of the base recipe, ``val-pips`` training decks with pip drawings that no training
#: frame uses (the ``fresh-pips-val`` recipe), ``val-world`` frames of the ``world`` recipe (photographs,
#: clutter, close-ups, washed-out light: the sure threshold must hold there too). None of their
#: seeds is a training seed. The ``*-more`` sets (1,500 and 600 frames, :data:`EVAL_FRAMES`) widen
#: the pool the ``sure`` thresholds are chosen on (``benchmarks/eval_sure.py``): on their frames the
#: thresholds of the four 300-frame sets alone let wrong court names through (models/MODEL_CARD.md,
#: "Twenty-fourth session"). The ``check-*`` sets are never chosen on: ``eval_sure.py`` reports
#: how many wrong names their frames show sure at the thresholds chosen on the others. The
#: ``val-unseen*`` sets are frames of the ``unseen`` split (:data:`dealer_assist.vision.synth.styles.UNSEEN_LIST`):
#: decks whose typefaces, pips, court art, jokers and backs no training and no test frame uses,
#: so that the thresholds are also chosen on decks the reader has never seen, and the held-out
#: ``test`` split stays measured only.
EVAL_SETS: dict[str, tuple[str, str, int, str]] = {
    "test": ("eval-test", "test", SEED0, "base"),
    "val-train": ("val-train", "train", 1_000_000, "base"),
    "val-train2": ("val-train2", "train", 1_000_300, "base"),
    "val-pips": ("val-pips", "train", 1_000_600, "fresh-pips-val"),
    "val-world": ("val-world", "train", 1_000_900, "world"),
    "val-base-more": ("val-base-more", "train", 6_300_000, "base"),
    "val-world-more": ("val-world-more", "train", 6_310_000, "world"),
    "val-pips-more": ("val-pips-more", "train", 6_320_000, "fresh-pips"),
    "check-base": ("check-base", "train", 6_330_000, "base"),
    "check-world": ("check-world", "train", 6_340_000, "world"),
    "val-unseen": ("val-unseen", "unseen", 7_000_000, "base"),
    "val-unseen-world": ("val-unseen-world", "unseen", 7_010_000, "world"),
}
#: Frames of each set (``--n``'s default): 300 where not named here.
EVAL_FRAMES: dict[str, int] = {"val-base-more": 1500, "val-world-more": 1500, "val-pips-more": 600,
                               "check-base": 1500, "check-world": 1500, "val-unseen": 600}


def counts(card: dict) -> bool:
    vis = card.get("corners_visible", [True, True])
    if card["card"] == "JK":
        return any(vis) or float(card.get("visible_fraction", 1.0)) >= 0.5
    return any(vis)


def match(preds: list, labels: list, thr: float = 0.5) -> dict[int, int]:
    """Greedy one-to-one matching by IoU: {pred index: label index}. Pairs whose box bears the
    name of the card it lies on go first (as COCO matches within a class): of two boxes on one
    card, the one naming it is the right name and the other the extra one, whichever reaches a
    little further over the card.

    >>> card = {"card": "5d", "polygon": [[0, 0], [60, 0], [60, 90], [0, 90]]}
    >>> near = {"card": "3d", "polygon": [[0, 0], [60, 0], [60, 90], [0, 90]]}
    >>> off = {"card": "5d", "polygon": [[4, 4], [64, 4], [64, 94], [4, 94]]}
    >>> match([near, off], [card])
    {1: 0}
    """
    pairs = []
    for i, p in enumerate(preds):
        pc = np.mean(p["polygon"], axis=0)
        for j, lab in enumerate(labels):
            lp = np.asarray(lab["polygon"])
            if np.linalg.norm(pc - lp.mean(axis=0)) > np.linalg.norm(lp[0] - lp[2]):
                continue
            iou = polygon_iou(p["polygon"], lab["polygon"])
            if iou >= thr:
                pairs.append((p.get("card") is not None and p.get("card") == lab.get("card"), iou, i, j))
    out: dict[int, int] = {}
    used: set[int] = set()
    for _, iou, i, j in sorted(pairs, reverse=True):
        if i in out or j in used:
            continue
        out[i] = j
        used.add(j)
    return out


def rotation_bucket(deg: float) -> str:
    d = float(deg) % 360.0
    lo = int(d // 45) * 45
    return f"{lo:03d}-{lo + 45:03d}"


def tilt_bucket(deg: float) -> str:
    for hi in (10, 20, 30):
        if deg < hi:
            return f"{hi - 10:02d}-{hi:02d}"
    return "30-35+"


def width_bucket(poly) -> str:
    p = np.asarray(poly)
    w = min(np.linalg.norm(p[0] - p[1]), np.linalg.norm(p[1] - p[2]))
    return "<80px" if w < 80 else "80-130px" if w < 130 else ">=130px"


def failure_kind(f: dict) -> str:
    """The cause of one failure, as the model card counts them.

    >>> failure_kind({"true": "7s", "got": "7c", "corners_visible": [True, False]})
    'suit wrong'
    >>> failure_kind({"true": "JK", "got": "(not found)", "corners_visible": [True, True]})
    'joker not found'
    >>> failure_kind({"extra": "JK", "on": "nothing/back"})
    'JK on nothing or a back'
    """
    if "extra" in f:
        if f["on"].startswith("nothing"):
            return f"{'JK' if f['extra'] == 'JK' else 'card'} on nothing or a back"
        return "extra name on a card" if f["extra"] != "JK" else "extra JK on a card"
    true, got = f["true"], f["got"]
    if true == "JK":
        return {"(not found)": "joker not found", "??": "joker left ??"}.get(got, "joker named a suited card")
    if got in ("(not found)", "??"):
        return "not found" if got == "(not found)" else "?? on a visible index"
    if got == "JK":
        return "suited card named JK"
    return "suit wrong" if got[:-1] == true[:-1] else "rank wrong"


#: the counts kept per frame, and the ratios the intervals are given for (numerator, denominator)
PER_FRAME = ("counted", "counted_right", "named_preds", "named_right", "jokers", "jokers_right",
             "frames", "frames_ok")
RATIOS = {"recall": ("counted_right", "counted"), "precision": ("named_right", "named_preds"),
          "joker_recall": ("jokers_right", "jokers"), "frames_all_correct": ("frames_ok", "frames")}


def bootstrap_intervals(counts: np.ndarray, n: int = 2000, seed: int = 0) -> dict[str, list[float]]:
    """95 % percentile intervals of the headline ratios, resampling whole frames (cards of one
    frame are not independent: one bad box can cost two names). ``counts`` is (frames,
    len(PER_FRAME)).

    >>> c = np.array([[10, 10, 10, 10, 1, 1, 1, 1]] * 50 + [[10, 5, 10, 5, 1, 0, 1, 0]] * 50)
    >>> iv = bootstrap_intervals(c)
    >>> iv["recall"][0] < 0.75 < iv["recall"][1], iv["frames_all_correct"][1] < 0.65
    (True, True)
    """
    if len(counts) == 0:
        return {}
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(counts), size=(n, len(counts)))
    sums = counts[idx].sum(axis=1)                                  # (n, len(PER_FRAME))
    col = {k: i for i, k in enumerate(PER_FRAME)}
    out = {}
    for name, (num, den) in RATIOS.items():
        d = sums[:, col[den]]
        r = sums[:, col[num]][d > 0] / d[d > 0]
        if len(r):
            out[name] = [round(float(np.percentile(r, 2.5)), 4), round(float(np.percentile(r, 97.5)), 4)]
    return out


#: The frame a ``--far`` view is drawn into: a whole table from a 1080p camera
FAR_FRAME = (1080, 1920)


def far_view(image: np.ndarray, meta: dict, shrink: float, frame_hw: tuple[int, int] = FAR_FRAME,
             seed: int = 0) -> tuple[np.ndarray, dict]:
    """The rendered frame as a camera farther away sees it: shrunk by ``shrink`` into the middle
    of a ``frame_hw`` frame of its own median colour (with a little sensor noise), and its label
    with every card's and back's outline moved the same way. A 105-pixel card of a 1280x720
    frame is 53 pixels wide in a 1920x1080 frame at ``shrink`` 0.5.

    >>> img = np.full((720, 1280, 3), 60, np.uint8)
    >>> meta = {"cards": [{"card": "As", "polygon": [[0, 0], [100, 0], [100, 140], [0, 140]]}], "backs": []}
    >>> out, m = far_view(img, meta, 0.5)
    >>> out.shape, m["cards"][0]["polygon"][2]
    ((1080, 1920, 3), [690.0, 430.0])
    """
    import cv2

    h, w = image.shape[:2]
    small = cv2.resize(image, (int(round(w * shrink)), int(round(h * shrink))), interpolation=cv2.INTER_AREA)
    out = np.empty((*frame_hw, 3), np.uint8)
    out[:] = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
    out = cv2.add(out, np.random.default_rng(seed).integers(0, 8, out.shape, dtype=np.uint8))
    ox, oy = (frame_hw[1] - small.shape[1]) // 2, (frame_hw[0] - small.shape[0]) // 2
    out[oy:oy + small.shape[0], ox:ox + small.shape[1]] = small

    def moved(items: list[dict]) -> list[dict]:
        return [dict(c, polygon=[[round(x * shrink + ox, 2), round(y * shrink + oy, 2)] for x, y in c["polygon"]])
                for c in items]

    return out, dict(meta, cards=moved(meta["cards"]), backs=moved(meta.get("backs", [])))


def grown_place(place: tuple[int, int, int, int], side: float, frame_hw: tuple[int, int]
                ) -> tuple[int, int, int, int]:
    """``(x, y, width, height)``: the frame's part ``place`` (the same) grown on each side by a
    card's long side (88/63 of the short side ``side``, rounded up) and cut to the ``frame_hw``
    (h, w) frame, as ``Calibration.cards_region_px`` grows the zones (:func:`told_far`,
    ``eval_real.told_camera``).

    >>> grown_place((5, 5, 60, 60), 30.0, (100, 200))
    (0, 0, 107, 100)
    >>> grown_place((100, 50, 20, 10), 0.0, (300, 400))
    (100, 50, 20, 10)
    """
    grow = int(math.ceil(side * 88.0 / 63.0))
    x, y, w, h = place
    x0, y0 = max(0, x - grow), max(0, y - grow)
    x1, y1 = min(frame_hw[1], x + w + grow), min(frame_hw[0], y + h + grow)
    return x0, y0, x1 - x0, y1 - y0


def told_far(meta: dict, image_hw: tuple[int, int], shrink: float, frame_hw: tuple[int, int] = FAR_FRAME
             ) -> tuple[float | None, tuple[int, int, int, int]]:
    """What a calibration would tell the reader of a :func:`far_view` (``--told``): the cards'
    short side (the median of the moved cards' and backs' shorter edges; None without any) and
    the part of the frame they lie in, the shrunk frame's place grown by a card's long side (88/63
    of the short side) and cut to the frame, as ``Calibration.cards_region_px`` grows the zones.

    >>> meta = {"cards": [{"polygon": [[0, 0], [30, 0], [30, 42], [0, 42]]}], "backs": []}
    >>> told_far(meta, (720, 1280), 0.5)
    (30.0, (598, 318, 724, 444))
    """
    sides = [min(math.dist(p[0], p[1]), math.dist(p[1], p[2]))
             for c in meta["cards"] + meta.get("backs", []) for p in [c["polygon"]]]
    side = float(np.median(sides)) if sides else None
    h, w = int(round(image_hw[0] * shrink)), int(round(image_hw[1] * shrink))
    ox, oy = (frame_hw[1] - w) // 2, (frame_hw[0] - h) // 2
    return side, grown_place((ox, oy, w, h), side or 0.0, frame_hw)


def figures(counts: dict[str, int]) -> dict:
    """The headline figures of :func:`evaluate` from its counts (``"counts"``; the counts of several
    runs added together give those of all their frames: ``eval_decks.py``). A ratio whose
    denominator is 0 is None.

    >>> f = figures({"frames": 2, "frames_ok": 1, "counted": 10, "counted_right": 9, "named_preds": 9, "named_right": 9})
    >>> f["recall"], f["precision"], f["frames_all_correct"], f["joker_recall"], f["wrong_sure"]
    (0.9, 1.0, 0.5, None, 0)
    """
    tot = defaultdict(int, counts)

    def ratio(a: str, b: str) -> float | None:
        return round(tot[a] / tot[b], 4) if tot[b] else None

    return {
        "frames": tot["frames"], "cards_counted": tot["counted"],
        "recall": ratio("counted_right", "counted"), "precision": ratio("named_right", "named_preds"),
        "joker_recall": ratio("jokers_right", "jokers"), "jokers": tot["jokers"],
        "joker_recall_no_index": ratio("jokers_noindex_right", "jokers_noindex"),
        "joker_recall_with_index": ratio("jokers_index_right", "jokers_index"),
        "frames_all_correct": ratio("frames_ok", "frames"),
        "back_recall": ratio("backs_found", "backs"), "back_precision": ratio("back_preds_right", "back_preds"), "backs_counted": tot["backs"],
        "unknown_predictions": tot["unknown_preds"],
        "right_not_sure": ratio("right_not_sure", "named_right"), "wrong_sure": tot["wrong_sure"],
        "other_name": {"wrong_names_on_a_card": tot["wrong_on_card"], "with_or": tot["wrong_or"],
                       "or_is_the_card": tot["wrong_or_true"], "right_not_sure_with_or": tot["right_not_sure_or"]},
    }


def evaluate(det: CardDetector, data: Path, split: str, n: int | None = None, failures: int = 100000,
             start: int = 0, detector_for=None, far: float | None = None, told: bool = False) -> dict:
    """Read frames ``start .. start + n - 1`` of a rendered split with ``det`` (or with
    ``detector_for(label)``, a detector chosen per frame from its label: an enrolled deck per deck
    style) and score them against their labels; with ``far``, each frame seen from farther away
    (:func:`far_view`), and with ``told`` too, read as a calibrated camera's frame
    (:func:`told_far`)."""
    metas = sorted((data / "meta" / split).glob("*.json"))[start:None if n is None else start + n]
    tot = defaultdict(int)
    buckets: dict[str, dict[str, list[int]]] = {"rotation": defaultdict(lambda: [0, 0]),
                                                "tilt": defaultdict(lambda: [0, 0]),
                                                "width": defaultdict(lambda: [0, 0])}
    ms: list[float] = []
    confusions: list[dict] = []
    per_frame: list[tuple[int, ...]] = []      # PER_FRAME counts of each frame, for the intervals
    for mp in metas:
        before = {k: tot[k] for k in PER_FRAME}
        meta = json.loads(mp.read_text(encoding="utf-8"))
        image = read_image(data / "images" / split / meta["image"])
        reader = det if detector_for is None else detector_for(meta)
        if far is not None:
            shape = image.shape[:2]
            image, meta = far_view(image, meta, far)
            if told:
                reader.expect_card_side(*told_far(meta, shape, far))
        t0 = time.perf_counter()
        res = reader.detect(image)
        ms.append((time.perf_counter() - t0) * 1000.0)
        labels = meta["cards"]
        m = match(res["cards"], labels)
        tilt = float(meta.get("meta", {}).get("tilt_deg", 0.0))
        frame_ok = True
        hit_labels: dict[int, str] = {m[i]: res["cards"][i]["card"] for i in m}
        for j, lab in enumerate(labels):
            if not counts(lab):
                continue
            ok = hit_labels.get(j) == lab["card"]
            tot["counted"] += 1
            tot["counted_right"] += ok
            if lab["card"] == "JK":
                tot["jokers"] += 1
                tot["jokers_right"] += ok
                key = "jokers_noindex" if lab.get("joker_has_index") is False else "jokers_index"
                tot[key] += 1
                tot[key + "_right"] += ok
            for name, b in (("rotation", rotation_bucket(lab.get("rotation_deg", 0.0))),
                            ("tilt", tilt_bucket(tilt)), ("width", width_bucket(lab["polygon"]))):
                buckets[name][b][0] += 1
                buckets[name][b][1] += ok
            if not ok:
                frame_ok = False
                if len(confusions) < failures:
                    confusions.append({"frame": meta["image"], "true": lab["card"],
                                       "got": hit_labels.get(j, "(not found)"),
                                       "corners_visible": lab.get("corners_visible")})
        for i, c in enumerate(res["cards"]):
            if c["card"] == "??":
                tot["unknown_preds"] += 1
                continue
            tot["named_preds"] += 1
            j = m.get(i)
            if j is not None and labels[j]["card"] == c["card"]:
                tot["named_right"] += 1
                tot["right_not_sure"] += not c.get("sure", False)
                tot["right_not_sure_or"] += "or" in c and not c.get("sure", False)
            else:
                tot["wrong_sure"] += bool(c.get("sure", False))
                if j is not None:          # a wrong name on a card: did "or" say which?
                    tot["wrong_on_card"] += 1
                    tot["wrong_or"] += "or" in c
                    tot["wrong_or_true"] += c.get("or") == labels[j]["card"]
                frame_ok = False
                if len(confusions) < failures:
                    confusions.append({"frame": meta["image"], "extra": c["card"],
                                       "on": labels[j]["card"] if j is not None else "nothing/back",
                                       **({"sure": True} if c.get("sure") else {})})
        # a back counts when enough of it shows to be a detector target (the labels also hold
        # the cards buried in a pile); a predicted back on any back, buried or not, is right
        backs = meta.get("backs", [])
        mb = match(res["backs"], backs)
        showing = [j for j, b in enumerate(backs) if b.get("visible_fraction", 1.0) >= DETECT_MIN_VISIBLE]
        tot["backs"] += len(showing)
        tot["backs_found"] += len(set(mb.values()) & set(showing))
        tot["back_preds"] += len(res["backs"])
        tot["back_preds_right"] += len(mb)
        tot["frames"] += 1
        tot["frames_ok"] += frame_ok
        per_frame.append(tuple(tot[k] - before[k] for k in PER_FRAME))

    return {
        "split": split, **figures(tot),
        "median_ms": round(statistics.median(ms), 1) if ms else None,
        "by_rotation": {k: {"cards": v[0], "recall": round(v[1] / v[0], 4)} for k, v in sorted(buckets["rotation"].items())},
        "by_tilt": {k: {"cards": v[0], "recall": round(v[1] / v[0], 4)} for k, v in sorted(buckets["tilt"].items())},
        "by_width": {k: {"cards": v[0], "recall": round(v[1] / v[0], 4)} for k, v in sorted(buckets["width"].items())},
        "intervals_95": bootstrap_intervals(np.array(per_frame, np.int64).reshape(-1, len(PER_FRAME))),
        "failures": confusions,
        "failures_by_kind": dict(Counter(failure_kind(f) for f in confusions).most_common()),
        "counts": dict(tot),
    }


#: DetectorSettings thresholds this script takes as flags (``look_joker`` -> ``--look-joker``):
#: where they were chosen, on the validation sets
TUNABLE = ("look_joker", "look_not_joker", "look_back_joker", "look_suit", "look_suit_court", "odd_back_joker",
           "odd_back_match", "rescue_conf", "rescue_sure", "rescue_same", "rescue_nms", "rescue_apart", "rescue_max",
           "back_index", "look_back_not_joker", "one_deck_alt", "joker_prior_max")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", dest="frame_set", choices=sorted(EVAL_SETS), default="test",
                    help="named frames: test (held out, default) or a validation set of the train "
                         "styles (val-train, val-train2, val-pips); --data/--split/--seed0/--recipe "
                         "override its parts")
    ap.add_argument("--data", default=None, help="frame folder (rendered if missing)")
    ap.add_argument("--split", default=None)
    ap.add_argument("--n", type=int, default=None, help="frames (default: the set's, EVAL_FRAMES, else 300)")
    ap.add_argument("--seed0", type=int, default=None)
    ap.add_argument("--recipe", default=None, help="data recipe of the frames (synth.dataset.RECIPES)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--deck", default=None)
    ap.add_argument("--json", dest="json_out", default=None, help="also write the figures here")
    ap.add_argument("--search", action=argparse.BooleanOptionalAction, default=True,
                    help="read with the corner search (DetectorSettings.search; on by default)")
    defaults = DetectorSettings()
    ap.add_argument("--look", action=argparse.BooleanOptionalAction, default=True,
                    help="consult the card-look classifier about boxes whose corners read nothing "
                         "(default on; --no-look measures without it)")
    for name in TUNABLE:
        ap.add_argument("--" + name.replace("_", "-"), type=type(getattr(defaults, name)),
                        default=getattr(defaults, name))
    ap.add_argument("--zoom", action=argparse.BooleanOptionalAction, default=True,
                    help="look again in tiles where the cards are small (DetectorSettings.zoom_below; on by default)")
    ap.add_argument("--far", type=float, default=None, metavar="SHRINK",
                    help="see each frame from farther away: shrunk by SHRINK into a 1920x1080 frame "
                         "(far_view; 0.5: a 105-pixel card becomes 53 pixels wide)")
    ap.add_argument("--told", action="store_true",
                    help="with --far: read each frame as a calibrated camera's, told the cards' size (from its "
                         "label) and the part of the frame they lie in (told_far)")
    ap.add_argument("--refine-outline", action="store_true",
                    help="report outlines snapped to the card edges (DetectorSettings(refine_outline=True))")
    args = ap.parse_args(argv)
    folder, split, seed0, recipe = EVAL_SETS[args.frame_set]
    args.n = EVAL_FRAMES.get(args.frame_set, 300) if args.n is None else args.n
    data = Path(args.data) if args.data else ROOT / "runs" / folder
    args.split = args.split or split
    args.seed0 = seed0 if args.seed0 is None else args.seed0
    args.recipe = args.recipe or recipe
    from dealer_assist.vision.synth import write_dataset
    from dealer_assist.vision.synth.dataset import photos_missing
    if (note := photos_missing(args.recipe)) is not None:
        print(note, file=sys.stderr)
    t0 = time.time()
    write_dataset(data, args.n, args.split, seed0=args.seed0, workers=args.workers, recipe=args.recipe)
    print(f"data: {args.n} {args.split} frames in {data} (seeds {args.seed0}..{args.seed0 + args.n - 1}, "
          f"recipe {args.recipe}, {time.time() - t0:.0f} s)")
    tuned = {name: getattr(args, name) for name in TUNABLE}
    det = CardDetector(args.models, deck=args.deck,
                       settings=DetectorSettings(search=args.search, refine_outline=args.refine_outline,
                                                 look=args.look, **tuned,
                                                 **({} if args.zoom else {"zoom_below": 0.0})))
    r = evaluate(det, data, args.split, args.n, far=args.far, told=args.told and args.far is not None)
    r["far"], r["told"] = args.far, bool(args.told and args.far is not None)
    r["seeds"] = [args.seed0, args.seed0 + args.n - 1]
    r["set"], r["recipe"] = args.frame_set if not args.data else str(data), args.recipe
    r["settings"] = {"search": args.search, "refine_outline": args.refine_outline, "look": args.look,
                     "zoom": args.zoom, **tuned}
    for k in ("frames", "cards_counted", "recall", "precision", "joker_recall", "jokers",
              "joker_recall_no_index", "joker_recall_with_index", "frames_all_correct",
              "back_recall", "back_precision", "backs_counted", "unknown_predictions", "right_not_sure",
              "wrong_sure", "median_ms"):
        print(f"{k:>24}: {r[k]}")
    o = r["other_name"]
    print(f"{'other name (or)':>24}: offered for {o['with_or']} of {o['wrong_names_on_a_card']} wrong names on a "
          f"card, the card itself for {o['or_is_the_card']}; for {o['right_not_sure_with_or']} right names not sure")
    print("95 % intervals (frames resampled): " + ", ".join(
        f"{k} {lo:.4f}-{hi:.4f}" for k, (lo, hi) in r["intervals_95"].items()))
    for name in ("by_rotation", "by_tilt", "by_width"):
        print(f"{name}: " + ", ".join(f"{k} {v['recall']:.3f} ({v['cards']})" for k, v in r[name].items()))
    print("failures by kind (a wrong name counts twice: a card missed and a name extra): "
          + ", ".join(f"{k} {v}" for k, v in r["failures_by_kind"].items()))
    print("first failures:")
    for f in r["failures"][:12]:
        print("  ", json.dumps(f))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
