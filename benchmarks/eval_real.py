"""Real-photo yardstick (issue 20, item 1): the shipped card reader on real photos of a real deck.

    .venv/bin/python benchmarks/eval_real.py                    # ../shared/real/edje-train
    .venv/bin/python benchmarks/eval_real.py --limit 20 --json runs/eval-real.json
    .venv/bin/python benchmarks/eval_real.py --draw runs/eval-real-draw   # annotated failures
    .venv/bin/python benchmarks/eval_real.py --wide 1920x1080 --shrink 0.8  # as a wider view shows them
    .venv/bin/python benchmarks/eval_real.py --suit-sheets runs/suit-sheets  # the cards, to check the suits

The folder (``/work/shared/real/README.md``) holds photos with a Pascal VOC ``.xml`` beside each:
one ``<object>`` per face-up card of rank 9 to A (``nine ten jack queen king ace``), its
axis-aligned ``<bndbox>`` around the whole card (but around the part in view of a card half
under another, e.g. IMG_2616, IMG_2617; and IMG_2396's ten of diamonds is labelled ``nine``). Suits are not labelled, cards of rank 2 to 8 are
not labelled (there are few), and no photo shows a face-down card or a joker. MEASURE ON IT,
NEVER TRAIN ON IT. Each photo is read with :class:`CardDetector` (default settings, as
``dealer-assist detect`` reads a file). The detector letterboxes the whole frame to its input
(288x512 for H3: a 378x504 portrait photo is scaled by 0.571 to 216x288 and padded, a 960x540
one by 0.533), finds oriented boxes there, and reads the corners and the whole card from the
FULL-resolution photo; nothing else is resized here.

Other folders (real photos of other decks, of a real table) are read the same way with ``--dir``
(``benchmarks/labelled_photos.py`` reads a folder's labels; this script scores against them):
a Pascal VOC ``.xml`` or a YOLO ``.txt`` beside each photo (or in a ``labels`` folder beside an
``images`` folder; a YOLO folder's class names in ``classes.txt``, ``obj.names`` or ``data.yaml``),
or one COCO file for the folder (``_annotations.coco.json``, ``annotations.json``).
A label may name a rank (``nine``, ``9``, ``10``, ``T``, ``queen``), a whole card (``Kc``, ``10h``,
``king of clubs``, ``K♣``, ``clubs_king``), a joker (``joker``, ``JK``, ``red joker``) or a face-down
card (``back``, ``face down``); :func:`parse_label` says which. Labels of other things (chips, a
dealer button) are left out of the figures and counted by name in the report (``left out:``).
What the folder labels is taken from all its labels (:func:`conventions`, printed as ``labels:``):
the ranks from 9, or from a lower rank labelled anywhere, to the ace; jokers where some label is
one (a ``JK`` on a joker is then right, and ``joker_recall`` is reported; ``jokers_wrong`` counts
the others); face-down cards where some label is one (a back on one is then right: ``back_recall``,
``back_precision``; ``backs_wrong`` counts the others); the suits where the labels name them
(else from a suits file, below).

Many datasets box each card's index corners instead (two a card where both show). Where the
median face-up label covers under a third of the card found around it, the folder is taken to
label corners (:func:`label_boxes`, printed as ``label boxes:``; ``--boxes cards|corners`` says
it instead), and each photo's corners are first grouped into cards (:func:`cards_from_corners`:
a corner belongs to the card found whose outline holds it; corners naming one whole card are one
card) and then scored as whole-card labels are.

A label marked difficult (VOC ``<difficult>1</difficult>``, COCO ``iscrowd``) is set aside with
what was found on it (:func:`set_aside`), as VOC's own scoring does.

A phone photo may be stored sideways with an EXIF orientation: it is scored in the frame its
labels were drawn on (:func:`photo_frames`: the one a VOC or COCO size fits; where none
settles it, the one, for all the folder's turned photos, whose labels lie best on the cards
found).

Matching (:func:`match`). A detection (a card: a name, ``JK`` or ``??``; backs apart) is compared
with a labelled card through the axis-aligned box around the detection's oriented outline (the
label is axis-aligned around a card that may be turned). Pass 1 pairs them greedily, best IoU
first, one to one, where IoU >= 0.5 (``--iou``). Pass 2 pairs what is left, again best IoU first,
where one box lies at least 80 % inside the other and IoU >= 0.2: in these photos the box of a
card half under another covers only the part in view, while the detector outlines the whole
card, and a loose detected box around a card is still on that card (``--strict``: pass 1 only;
on all 296 photos pass 2 adds 38 pairs to 406).

What is counted (ranks only: the suit is not labelled, so "named right" means the right rank,
and a right rank with a wrong suit counts as right):

* **rank recall** = labelled cards matched to a detection that names their rank / labelled cards.
* **rank precision** = right names / scored names. A detection's name is *scored* when it names
  a rank 9 to A (matched or not: every face-up 9-A is labelled, so an unmatched 9-A name is on
  no 9-A card and wrong), or it is ``JK`` (no joker lies in any photo, so every ``JK`` is wrong),
  or it names a rank 2 to 8 and is matched to a labelled 9-A card (a known misread). A 2-8 name
  matched to no label is NOT scored: it may be one of the unlabelled 2-8 cards (counted apart as
  ``low_unlabelled``). A *right name* is a scored name matched to a label of its rank.
* **backs** per photo: every reported back is wrong (no face-down card is shown); a labelled card
  that no card detection matches but a back box does (IoU as above) is counted as "taken for a
  back".
* **jokers** reported: every ``JK`` (also inside the precision).
* **unreadable (``??``)**: a ``??`` matched to a labelled card is a miss of that card (in the
  recall); ``??`` matched to no labelled card is counted as ``unknown_on_no_label``: an UPPER
  BOUND of "``??`` on no card", since a few unlabelled 2-8 cards lie in the photos and a ``??``
  on one of them is right.
* **sure**: the detector has no ``sure`` flag yet (issue 20, item 3). :func:`is_sure` is the
  hook: it takes a card's ``"sure"`` when the detector gives one, else the proxy
  ``confidence >= SURE_PROXY`` (0.9). Reported: the share of right names not sure and the share of
  wrong names sure, and how the confidence of right and wrong names is distributed.
* **by size**: the labelled box's LONG side as the detector sees it (photo pixels x the
  letterbox scale: 0.571 for a 378x504 photo, so 100 px there is 175 px in the photo; about the
  card's height, as the part in view of a covered card keeps it), in buckets; per bucket the
  share found (matched to any card detection) and named right. For scale: a card 100 px high in
  a 1280x720 table frame is 40 px at the detector's input.
* **photos all right**: every labelled card named right, no wrong scored name, no back (a ``??``
  on no label does not spoil a photo).
* 95 % intervals of recall and precision resample whole photos (2,000 draws).
* **whole names**: the folder's labels carry no suit, so the suits of its 527 labelled cards were
  read by eye (``benchmarks/real_suits/edje-train.json``: one letter per ``<object>``, ``?`` for
  the one card whose suit no photo pixel shows; ``--suit-sheets DIR`` draws the numbered sheets
  they were read from, to check them). Where a suits file names the folder (or ``--suits FILE``),
  the whole name is scored beside the rank: a right rank of the wrong suit is a wrong card. The
  rank figures do not change; the sure figures of whole names are ``card_wrong_sure`` and
  ``card_right_not_sure``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DIR = ROOT.parent / "shared" / "real" / "edje-train"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from labelled_photos import (  # noqa: E402  (the folders' labels: read there, scored here)
    ALL_RANKS, JOKER, LABELLED, MISSED, SUIT_LETTERS, UNKNOWN, conventions, declared, parse_label,
    photo_frames, photos, read_annotations, read_labels, read_photo, read_suits, turned_frames,
    with_label_suits, with_suits)
from camera_conditions import CONDITIONS, Condition, apply as under_camera, parse_condition, photo_seed  # noqa: E402

#: Proxy of the ``sure`` flag until the detector gives one (issue 20, item 3): a name at least
#: this confident counts as sure. :func:`is_sure` is the one place to change.
SURE_PROXY = 0.9
#: buckets of the labelled box's long side at the detector's input, px (upper bounds; the last
#: is open). The photos as they are fill 80 and up; the lower ones are for ``--wide`` views, where
#: a card's long side of 40-60 input pixels is a short side of about 28-43
SIZE_EDGES = (40, 50, 60, 80, 100, 120, 140)
#: the second matching pass (:func:`match`): one box at least this share inside the other ...
NESTED = 0.8
#: ... and at least this IoU
NESTED_IOU = 0.2
#: suits read by eye for a folder's labelled cards (``<folder name>.json``; :func:`read_suits`)
SUITS_DIR = ROOT / "benchmarks" / "real_suits"
def is_sure(card: dict) -> bool:
    """Whether the dealer is shown ``card`` as sure: the detector's own ``"sure"`` flag when it
    has one (issue 20, item 3), else the proxy ``confidence >= SURE_PROXY``.

    >>> is_sure({"card": "As", "confidence": 0.95}), is_sure({"card": "As", "confidence": 0.5})
    (True, False)
    >>> is_sure({"card": "As", "confidence": 0.95, "sure": False})
    False
    """
    if "sure" in card:
        return bool(card["sure"])
    return float(card.get("confidence", 0.0)) >= SURE_PROXY


def sure_source(cards: list[dict]) -> str:
    """``"flag"`` when the detector's cards carry ``sure``, else the proxy in words."""
    return "flag" if cards and all("sure" in c for c in cards) else f"proxy: confidence >= {SURE_PROXY}"


def rank_of(name: str) -> str:
    """The rank symbol of a detection's name (``??`` and ``JK`` are themselves).

    >>> rank_of("Th"), rank_of("9c"), rank_of("JK"), rank_of("??")
    ('T', '9', 'JK', '??')
    """
    return name if name in (UNKNOWN, JOKER) else name[:-1]


def suit_of(name: str) -> str:
    """The suit letter of a detection's name (``""`` for ``JK`` and ``??``, which show none).

    >>> suit_of("Th"), suit_of("JK")
    ('h', '')
    """
    return "" if name in (UNKNOWN, JOKER) else name[-1]


def aabb(polygon) -> list[float]:
    p = np.asarray(polygon, np.float64)
    return [float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max())]


def overlap(a, b) -> tuple[float, float]:
    """(IoU, intersection / the smaller box's area) of two axis-aligned boxes.

    >>> overlap([0, 0, 100, 100], [25, 0, 100, 100])
    (0.75, 1.0)
    """
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0, 0.0
    inter = iw * ih
    area_a, area_b = (a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])
    return inter / (area_a + area_b - inter), inter / max(min(area_a, area_b), 1e-9)


def box_iou(a, b) -> float:
    """IoU of two axis-aligned boxes ``[x0, y0, x1, y1]``.

    >>> box_iou([0, 0, 10, 10], [5, 0, 15, 10])
    0.3333333333333333
    """
    return overlap(a, b)[0]


def match(dets: list[dict], labels: list[dict], thr: float = 0.5, nested: float | None = NESTED,
          floor: float = NESTED_IOU) -> dict[int, int]:
    """One-to-one matching: ``{detection index: label index}``. A detection's ``polygon`` is
    compared through its axis-aligned box with the label's ``box``.

    Pass 1 pairs greedily, best IoU first, every pair with IoU >= ``thr``. Pass 2 (unless
    ``nested`` is None) pairs the detections and labels left, again best IoU first, where one box
    lies mostly inside the other (intersection >= ``nested`` x the smaller box) and the IoU is at
    least ``floor``: the label of a card half under another covers only the part in view (the
    detector outlines the whole card), and a loose detected box around a tightly labelled card
    is still on that card.

    >>> labels = [{"box": [0, 0, 100, 140]}, {"box": [200, 0, 300, 140]}]
    >>> dets = [{"polygon": [[205, 0], [300, 0], [300, 140], [205, 140]]},
    ...         {"polygon": [[0, 0], [100, 0], [100, 140], [0, 140]]},
    ...         {"polygon": [[10, 5], [95, 5], [95, 135], [10, 135]]}]
    >>> match(dets, labels)
    {1: 0, 0: 1}
    >>> strip = [{"box": [160, 0, 200, 140]}]          # the part in view of a covered card
    >>> whole = [{"polygon": [[100, 0], [200, 0], [200, 140], [100, 140]]}]
    >>> match(whole, strip), match(whole, strip, nested=None)
    ({0: 0}, {})
    """
    boxes = [aabb(d["polygon"]) for d in dets]
    ov = {(i, j): overlap(boxes[i], lab["box"]) for i in range(len(dets)) for j, lab in enumerate(labels)}
    out: dict[int, int] = {}
    used: set[int] = set()
    passes = [lambda iou, inside: iou >= thr]
    if nested is not None:
        passes.append(lambda iou, inside: iou >= floor and inside >= nested)
    for ok in passes:
        pairs = sorted(((iou, -i, -j) for (i, j), (iou, inside) in ov.items() if ok(iou, inside)), reverse=True)
        for _, i, j in pairs:
            i, j = -i, -j
            if i in out or j in used:
                continue
            out[i] = j
            used.add(j)
    return out


#: A folder's face-up labels are boxes around the cards' index corners (two a card, where both
#: show), not whole cards, where the median label covers less than this share of the smallest
#: card found around its centre (:func:`label_boxes`); whole-card labels cover about all of it
CORNER_SHARE = 0.3
#: a card's long side is about this many times its index corner's (for the size bucket of a
#: card known only by one corner that nothing was found on)
CORNER_TO_CARD = 4.0


def _inside(polygon, point) -> bool:
    """Whether ``point`` lies inside (or on) a convex or concave ``polygon``.

    >>> _inside([[0, 0], [10, 0], [10, 10], [0, 10]], (5, 5)), _inside([[0, 0], [10, 0], [10, 10]], (1, 9))
    (True, False)
    """
    p = np.asarray(polygon, np.float64)
    x, y = float(point[0]), float(point[1])
    inside = False
    for (x0, y0), (x1, y1) in zip(p, np.roll(p, -1, axis=0)):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _area(polygon) -> float:
    p = np.asarray(polygon, np.float64)
    return 0.5 * abs(float(np.dot(p[:, 0], np.roll(p[:, 1], -1)) - np.dot(p[:, 1], np.roll(p[:, 0], -1))))


def _centre(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0


def label_boxes(read: list[tuple[list[dict], dict]], least: int = 5) -> tuple[str, float | None]:
    """What a folder's face-up label boxes go around, judged from its photos' labels beside the
    cards found (``read``: (labels, :meth:`CardDetector.detect` result) per photo): ``"corners"``
    where the median label covers under :data:`CORNER_SHARE` of the smallest card found around
    its centre (many datasets box only the index corners), else ``"cards"``; and that median
    (None where fewer than ``least`` labels lie in a card found: then ``"cards"``).

    >>> found = {"cards": [{"polygon": [[0, 0], [100, 0], [100, 140], [0, 140]]}], "backs": []}
    >>> label_boxes([([{"box": [4, 4, 22, 36]}, {"box": [78, 104, 96, 136]}], found)] * 3)
    ('corners', 0.041)
    >>> label_boxes([([{"box": [0, 0, 100, 140]}], found)] * 5)
    ('cards', 1.0)
    """
    shares = []
    for labels, result in read:
        for lab in labels:
            around = [_area(d["polygon"]) for d in result["cards"] if _inside(d["polygon"], _centre(lab["box"]))]
            if around and min(around) > 0:
                b = lab["box"]
                shares.append((b[2] - b[0]) * (b[3] - b[1]) / min(around))
    if len(shares) < least:
        return "cards", None
    med = round(float(np.median(shares)), 3)
    return ("corners" if med < CORNER_SHARE else "cards"), med


def cards_from_corners(labels: list[dict], result: dict) -> list[dict]:
    """A photo's labelled index corners as labelled cards, to be scored as whole-card labels are.

    Corners naming a whole card (rank and suit; one deck) are one card wherever they lie; other
    corners (ranks only, jokers) are one card where the same card found (``result["cards"]``)
    holds them (of several, the one with a corner of its outline nearest, for its size), else
    each its own. Each labelled card may be paired with a card found whose outline holds one of
    its corners; the pairs are one to one, as many as can be (augmenting paths), each card
    trying first the cards found that bear its name (a ghost box around its one corner in view
    does not take a card named right), then the card found holding most of its corners, then
    the nearest. A paired card's
    box is then the found card's axis-aligned box, so :func:`match` pairs them. Any other card's box
    spans its corners (a single corner's: the face-down card found around it, if any, else the
    corner itself, with ``"long"``, the long side for its size bucket, :data:`CORNER_TO_CARD`
    times the corner's). A corner no card found holds stays a card that nothing named.

    >>> found = {"cards": [{"polygon": [[0, 0], [100, 0], [100, 140], [0, 140]]}], "backs": []}
    >>> corners = [{"rank": "K", "suit": "c", "box": [4, 4, 22, 36]}, {"rank": "K", "suit": "c", "box": [78, 104, 96, 136]},
    ...            {"rank": "9", "box": [300, 0, 318, 30]}]
    >>> [(c["rank"], c["box"], c["corners"]) for c in cards_from_corners(corners, found)]
    [('K', [0.0, 0.0, 100.0, 140.0], 2), ('9', [300, 0, 318, 30], 1)]
    """
    polys = [np.asarray(d["polygon"], np.float64) for d in result["cards"]]

    def holders(box) -> dict[int, float]:
        """The cards found whose outline holds the box's centre -> how near a corner of the
        outline it lies (for the outline's size)."""
        c = np.asarray(_centre(box))
        out = {}
        for i, p in enumerate(polys):
            if len(p) >= 3 and _inside(p, c):
                edge = max(float(np.linalg.norm(p - np.roll(p, -1, axis=0), axis=1).min()), 1e-9)
                out[i] = float(np.linalg.norm(p - c, axis=1).min()) / edge
        return out

    held_by = [holders(lab["box"]) for lab in labels]
    nearest = [min(h, key=h.get) if h else None for h in held_by]
    groups: dict[tuple, list[int]] = {}
    for k, lab in enumerate(labels):
        if lab.get("suit") and lab["rank"] != JOKER:
            key: tuple = ("card", lab["rank"], lab["suit"])
        elif nearest[k] is not None:
            key = ("found", lab["rank"], nearest[k])
        else:
            key = ("alone", k)
        groups.setdefault(key, []).append(k)
    members = list(groups.values())
    # each labelled card's candidates: the cards found holding its corners, those naming it
    # first (as COCO pairs within a class, and eval_detect.match by name), then most corners,
    # then the nearest; a maximum one-to-one matching, tried in that order (augmenting paths)
    names = [d.get("card", UNKNOWN) for d in result["cards"]]

    def names_it(lab: dict, i: int) -> bool:
        return rank_of(names[i]) == lab["rank"] and (not lab.get("suit") or suit_of(names[i]) == lab["suit"])

    prefs, most = [], []
    for ks in members:
        count: Counter = Counter()
        near: dict[int, float] = {}
        for k in ks:
            for i, d in held_by[k].items():
                count[i] += 1
                near[i] = min(near.get(i, d), d)
        lab = labels[ks[0]]
        prefs.append(sorted(count, key=lambda i: (not names_it(lab, i), -count[i], near[i], i)))
        most.append(max(count.values(), default=0))
    owner_of: dict[int, int] = {}

    def take(g: int, tried: set[int]) -> bool:
        for i in prefs[g]:
            if i not in tried:
                tried.add(i)
                if i not in owner_of or take(owner_of[i], tried):
                    owner_of[i] = g
                    return True
        return False

    for g in sorted(range(len(members)), key=lambda g: (-most[g], members[g][0])):
        take(g, set())
    owned = {g: i for i, g in owner_of.items()}
    out: list[tuple[int, dict]] = []
    for g, ks in enumerate(members):
        first = labels[ks[0]]
        card = {k: v for k, v in first.items() if k != "box"}
        boxes = np.asarray([labels[k]["box"] for k in ks], np.float64)
        if g in owned:
            card["box"] = aabb(polys[owned[g]])
        elif len(ks) > 1:
            card["box"] = [float(boxes[:, 0].min()), float(boxes[:, 1].min()),
                           float(boxes[:, 2].max()), float(boxes[:, 3].max())]
        else:
            b = first["box"]
            back = next((d for d in result.get("backs", ()) if _inside(d["polygon"], _centre(b))), None)
            if back is not None:
                card["box"] = aabb(back["polygon"])
            else:
                card["box"] = b
                card["long"] = CORNER_TO_CARD * max(b[2] - b[0], b[3] - b[1])
        card["corners"] = len(ks)
        out.append((ks[0], card))
    return [card for _, card in sorted(out, key=lambda t: t[0])]


def set_aside(result: dict, labels: list[dict], back_labels: list[dict], iou: float = 0.5,
              nested: float | None = NESTED) -> tuple[dict, list[dict], list[dict], int, int]:
    """A photo's labels marked difficult set aside, as Pascal VOC's own scoring does: neither the
    card nor what was found on it counts, right or wrong. Returns the result without the
    detections :func:`match` pairs with a difficult label (cards with face-up labels, backs with
    face-down ones), the other labels, and how many labels and detections were set aside.

    >>> found = {"cards": [{"card": "Kc", "polygon": [[0, 0], [100, 0], [100, 140], [0, 140]]},
    ...                    {"card": "??", "polygon": [[200, 0], [300, 0], [300, 140], [200, 140]]}], "backs": []}
    >>> res, labs, backs, n, m = set_aside(found, [{"rank": "K", "box": [0, 0, 100, 140]},
    ...                                           {"rank": "5", "box": [200, 0, 300, 140], "difficult": True}], [])
    >>> [d["card"] for d in res["cards"]], [lab["rank"] for lab in labs], n, m
    (['Kc'], ['K'], 1, 1)
    """
    n = sum(bool(lab.get("difficult")) for lab in labels + back_labels)
    if not n:
        return result, labels, back_labels, 0, 0
    out = dict(result)
    dropped = 0
    for key, labs in (("cards", labels), ("backs", back_labels)):
        hard = {j for j, lab in enumerate(labs) if lab.get("difficult")}
        on_hard = {i for i, j in match(result[key], labs, iou, nested).items() if j in hard}
        out[key] = [d for i, d in enumerate(result[key]) if i not in on_hard]
        dropped += len(on_hard)
    keep = lambda labs: [lab for lab in labs if not lab.get("difficult")]  # noqa: E731
    return out, keep(labels), keep(back_labels), n, dropped


def size_bucket(box, scale: float = 1.0, long: float | None = None) -> str:
    """The bucket of a labelled box's long side (or ``long``, where given) x ``scale`` (the
    detector's letterbox scale).

    >>> size_bucket([0, 0, 50, 70]), size_bucket([0, 0, 80, 110]), size_bucket([0, 0, 250, 300], 0.5)
    ('60-80', '100-120', '>=140')
    """
    s = (max(box[2] - box[0], box[3] - box[1]) if long is None else long) * scale
    lo = 0
    for hi in SIZE_EDGES:
        if s < hi:
            return f"<{hi}" if lo == 0 else f"{lo}-{hi}"
        lo = hi
    return f">={SIZE_EDGES[-1]}"


def score_photo(result: dict, labels: list[dict], iou: float = 0.5, nested: float | None = NESTED,
                scale: float = 1.0, ranks: tuple[str, ...] = LABELLED, back_labels: list[dict] | None = None) -> dict:
    """Score one photo: ``result`` is :meth:`CardDetector.detect`'s output, ``labels``
    :func:`read_labels`', ``scale`` the detector's letterbox scale for it, ``ranks`` the ranks the
    folder labels on every card (:func:`conventions`; a name of another rank on no label is not
    scored) and ``back_labels`` its face-down cards where the folder labels them (None: it shows
    none, so every back is wrong). Returns the photo's counts (all additive over photos) and its events:
    ``reads`` (label rank, what it got: a rank, ``JK``, ``??``, ``-`` for not found, ``back``),
    ``sizes`` (bucket, found, right) per label, ``right_conf`` / ``wrong_conf`` (confidences),
    ``right_sure`` / ``wrong_sure`` (:func:`is_sure`) and ``wrong`` (the scored names that are
    wrong: ``{"name", "on", "confidence"}``, ``on`` the label's rank, ``back`` or ``nothing``).

    Where the labels carry suits (:func:`with_suits`), the whole name is scored too: ``card_*``
    counts (a right rank of the wrong suit is a wrong card; a card whose suit the photo does
    not show is left out of them), ``suits`` (label suit, named suit) of the cards named the
    right rank, ``card_right_sure`` / ``card_wrong_sure`` and ``suit_wrong`` (right rank, wrong
    suit: ``{"name", "on", "confidence", "sure"}``)."""
    cards, backs = result["cards"], result["backs"]
    m = match(cards, labels, iou, nested)
    by_label = {j: i for i, j in m.items()}
    c = Counter(photos=1, labels=len(labels), backs=len(backs), photos_with_backs=int(bool(backs)))
    ev: dict = {"reads": [], "sizes": [], "right_conf": [], "wrong_conf": [], "right_sure": [],
                "wrong_sure": [], "wrong": [], "suits": [], "card_right_sure": [], "card_wrong_sure": [],
                "suit_wrong": []}
    suited = bool(labels) and all("suit" in lab for lab in labels)
    # backs on a labelled face-down card are right; the others are wrong
    on_back = match(backs, back_labels, iou, nested) if back_labels else {}
    wrong_backs = [b for i, b in enumerate(backs) if i not in on_back]
    c["back_labels"] = len(back_labels or ())
    c["backs_right"] = len(on_back)
    c["backs_wrong"] = len(wrong_backs)
    # cards not matched by a card detection: are they under a wrong back box?
    free = [j for j in range(len(labels)) if j not in by_label]
    as_back = set(match(wrong_backs, [labels[j] for j in free], iou, nested).values())
    as_back = {free[k] for k in as_back}
    # card detections on no face-up label: on a face-down one?
    loose = [i for i in range(len(cards)) if i not in m]
    on_down = {loose[k] for k in match([cards[i] for i in loose], back_labels, iou, nested)} if back_labels else set()
    for j, lab in enumerate(labels):
        i = by_label.get(j)
        got = rank_of(cards[i]["card"]) if i is not None else ("back" if j in as_back else MISSED)
        right = got == lab["rank"]
        c["found"] += i is not None
        c["rank_right"] += right
        c["taken_for_back"] += j in as_back
        if lab["rank"] == JOKER:
            c["joker_labels"] += 1
            c["jokers_right"] += right
        ev["reads"].append((lab["rank"], got))
        ev["sizes"].append((size_bucket(lab["box"], scale, lab.get("long")), i is not None, right))
        if suited and lab["suit"] is not None:
            c["suit_labelled"] += 1
            if right:
                ev["suits"].append((lab["suit"], suit_of(cards[i]["card"])))
                c["card_right"] += suit_of(cards[i]["card"]) == lab["suit"]
    for i, d in enumerate(cards):
        r = rank_of(d["card"])
        j = m.get(i)
        if r == UNKNOWN:
            c["unknown"] += 1
            c["unknown_on_label"] += j is not None
            c["unknown_on_no_label"] += j is None
            continue
        if r == JOKER:
            c["jokers"] += 1
            c["jokers_wrong"] += j is None or labels[j]["rank"] != JOKER
        scored = r in ranks or r == JOKER or j is not None or i in on_down
        if not scored:
            c["low_unlabelled"] += 1        # a name of an unlabelled rank on no labelled card: not scored
            continue
        c["named"] += 1
        if j is not None and labels[j]["rank"] == r:
            c["named_right"] += 1
            ev["right_conf"].append(float(d["confidence"]))
            ev["right_sure"].append(is_sure(d))
            suit = labels[j]["suit"] if suited else None
            if suit is not None:
                c["card_named"] += 1
                if suit_of(d["card"]) == suit:
                    c["card_named_right"] += 1
                    ev["card_right_sure"].append(is_sure(d))
                else:
                    ev["card_wrong_sure"].append(is_sure(d))
                    ev["suit_wrong"].append({"name": d["card"], "on": labels[j]["rank"] + suit,
                                             "confidence": float(d["confidence"]), "sure": is_sure(d)})
        else:
            c["named_on_label" if j is not None else "named_on_nothing"] += 1
            ev["wrong_conf"].append(float(d["confidence"]))
            ev["wrong_sure"].append(is_sure(d))
            ev["wrong"].append({"name": d["card"], "confidence": float(d["confidence"]), "sure": is_sure(d),
                                "on": labels[j]["rank"] if j is not None else "back" if i in on_down else "nothing"})
            if suited:
                c["card_named"] += 1
                ev["card_wrong_sure"].append(is_sure(d))
    # a ``??`` on no label may lie on an unlabelled card: it does not spoil the photo
    c["photos_all_right"] = int(c["rank_right"] == len(labels) and not ev["wrong"] and not wrong_backs
                                and len(on_back) == c["back_labels"])
    if suited:
        c["photos_all_right_card"] = int(c["photos_all_right"] and c["card_right"] == c["suit_labelled"]
                                         and not ev["suit_wrong"])
    return {"counts": c, **ev}


def photo_place(image_hw: tuple[int, int], frame_hw: tuple[int, int], shrink: float = 1.0) -> tuple[int, int, int, int]:
    """``(x, y, width, height)``: where :func:`wide_view` puts a photo of ``image_hw`` (h, w)
    shrunk by ``shrink`` in its ``frame_hw`` frame (the middle).

    >>> photo_place((100, 80), (300, 400), 0.5)
    (180, 125, 40, 50)
    """
    h, w = max(1, round(image_hw[0] * shrink)), max(1, round(image_hw[1] * shrink))
    fh, fw = max(frame_hw[0], h), max(frame_hw[1], w)
    return (fw - w) // 2, (fh - h) // 2, w, h


def told_camera(labels: list[dict], place: tuple[int, int, int, int], frame_hw: tuple[int, int]
                ) -> tuple[float | None, tuple[int, int, int, int] | None]:
    """What a calibration would tell the reader of a wide view (``--told``): the cards' short
    side (the median of the labelled boxes', in the view's pixels; None without labels) and the
    part of the frame they lie in, the photo's ``place`` grown by a card's long side (88/63 of
    the short side) on each side and cut to the frame, as ``Calibration.cards_region_px`` grows
    the zones.

    >>> told_camera([{"box": [10, 10, 40, 52]}], (5, 5, 60, 60), (100, 200))
    (30.0, (0, 0, 107, 100))
    """
    from eval_detect import grown_place   # benchmarks/ (the detector's imports: only where a view is told)

    if not labels:
        return None, None
    side = float(np.median([min(lab["box"][2] - lab["box"][0], lab["box"][3] - lab["box"][1]) for lab in labels]))
    return side, grown_place(place, side, frame_hw)


def wide_view(image: np.ndarray, labels: list[dict], frame_hw: tuple[int, int], shrink: float = 1.0,
              seed: int = 0, margin: float = 0.35, paint: list | None = None) -> tuple[np.ndarray, list[dict]]:
    """The photo as a wider view of the same place shows it: shrunk by ``shrink``, in the middle
    of a ``frame_hw`` frame (or of the photo's own size, where that is larger), its labels moved. Around it the photo's own surface goes on
    (mirrored, its labelled cards painted over from their surroundings: a mirrored card is no
    card of the deck) and fades, over ``margin`` of the photo's short side, into the surface's
    median colour, with a little sensor noise everywhere. A photo pasted on a plain frame would
    be a card-shaped picture itself, and a surface mirrored over the whole frame would be mostly
    texture; a real table's cards lie on a plain cloth. ``paint``: the boxes (photo pixels) of the
    cards to paint over, where the labels do not box whole cards (index corners); default the
    labels' boxes.

    >>> img = np.full((100, 80, 3), 120, np.uint8); img[20:60, 20:50] = 250
    >>> out, labs = wide_view(img, [{"rank": "9", "box": [20, 20, 50, 60]}], (300, 400), 0.5)
    >>> out.shape, labs[0]["box"]
    ((300, 400, 3), [190.0, 135.0, 205.0, 155.0])
    >>> int((out > 200).all(axis=2).sum()) == int((out[125:175, 180:220] > 200).all(axis=2).sum())
    True
    """
    import cv2

    ox, oy, w, h = photo_place(image.shape[:2], frame_hw, shrink)
    if shrink != 1.0:
        image = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
    fh, fw = max(frame_hw[0], h), max(frame_hw[1], w)
    pads = ((oy, fh - h - oy), (ox, fw - w - ox))
    out = np.pad(image, (*pads, (0, 0)), mode="symmetric")
    cards = np.zeros((h, w), np.uint8)
    for box in ([lab["box"] for lab in labels] if paint is None else paint):
        x0, y0, x1, y1 = (int(round(v * shrink)) for v in box)
        cards[max(0, y0):y1, max(0, x0):x1] = 255
    mask = np.pad(cards, pads, mode="symmetric")
    mask[oy:oy + h, ox:ox + w] = 0
    if mask.any():
        # painted over at a quarter of the size (fast), then set back at full size
        q = cv2.resize(out, (max(1, fw // 4), max(1, fh // 4)), interpolation=cv2.INTER_AREA)
        qm = cv2.dilate(cv2.resize(mask, (q.shape[1], q.shape[0]), interpolation=cv2.INTER_NEAREST),
                        np.ones((5, 5), np.uint8))
        filled = cv2.resize(cv2.inpaint(q, qm, 3, cv2.INPAINT_TELEA), (fw, fh), interpolation=cv2.INTER_LINEAR)
        big = cv2.dilate(mask, np.ones((9, 9), np.uint8)) > 0
        out[big] = filled[big]
    ys, xs = np.arange(fh, dtype=np.float32)[:, None], np.arange(fw, dtype=np.float32)[None, :]
    dy = np.maximum(np.maximum(oy - ys, ys - (oy + h - 1)), 0)
    dx = np.maximum(np.maximum(ox - xs, xs - (ox + w - 1)), 0)
    keep = np.clip(1.0 - np.sqrt(dx * dx + dy * dy) / max(1.0, margin * min(h, w)), 0.0, 1.0)[..., None]
    plain = np.median(image.reshape(-1, 3), axis=0).astype(np.float32)
    out = (out.astype(np.float32) * keep + plain * (1.0 - keep)).round().astype(np.uint8)
    out[oy:oy + h, ox:ox + w] = image
    out = cv2.add(out, np.random.default_rng(seed).integers(0, 6, out.shape, dtype=np.uint8))
    moved = [dict(lab, box=[lab["box"][0] * shrink + ox, lab["box"][1] * shrink + oy,
                            lab["box"][2] * shrink + ox, lab["box"][3] * shrink + oy]) for lab in labels]
    return out, moved


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def bootstrap(per_photo: list[Counter], n: int = 2000, seed: int = 0) -> dict[str, list[float]]:
    """95 % intervals of rank recall and precision (and of the whole name's, where suits are
    labelled), resampling whole photos.

    >>> rows = [Counter(labels=2, rank_right=2, named=2, named_right=2)] * 30 + \\
    ...        [Counter(labels=2, rank_right=0, named=2, named_right=0)] * 10
    >>> iv = bootstrap(rows)
    >>> iv["rank_recall"][0] < 0.75 < iv["rank_recall"][1]
    True
    """
    if not per_photo:
        return {}
    keys = ("labels", "rank_right", "named", "named_right", "suit_labelled", "card_right", "card_named",
            "card_named_right")
    arr = np.array([[r.get(k, 0) for k in keys] for r in per_photo], np.float64)
    rng = np.random.default_rng(seed)
    sums = arr[rng.integers(0, len(arr), size=(n, len(arr)))].sum(axis=1)
    out = {}
    for name, (num, den) in {"rank_recall": (1, 0), "rank_precision": (3, 2), "card_recall": (5, 4),
                             "card_precision": (7, 6)}.items():
        ok = sums[:, den] > 0
        if ok.any():
            r = sums[ok, num] / sums[ok, den]
            out[name] = [round(float(np.percentile(r, 2.5)), 4), round(float(np.percentile(r, 97.5)), 4)]
    return out


def confidence_summary(conf: list[float], sure: list[bool]) -> dict:
    """Quantiles, a histogram and the share sure / not sure of a list of confidences."""
    if not conf:
        return {"n": 0}
    a = np.asarray(conf)
    edges = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0001)
    hist = np.histogram(a, bins=edges)[0]
    return {"n": len(a), "sure": int(sum(sure)), "not_sure": int(len(sure) - sum(sure)),
            "share_sure": round(sum(sure) / len(sure), 4),
            "quantiles": {q: round(float(np.percentile(a, int(q[1:]))), 3) for q in ("p10", "p25", "p50", "p75", "p90")},
            "histogram": {f"{lo:.2f}-{min(hi, 1.0):.2f}": int(h) for lo, hi, h in zip(edges[:-1], edges[1:], hist)}}


def aggregate(scored: list[dict]) -> dict:
    """The figures of a list of :func:`score_photo` results."""
    tot: Counter = Counter()
    for s in scored:
        tot.update(s["counts"])
    confusion: dict[str, Counter] = defaultdict(Counter)
    sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    right_c, wrong_c, right_s, wrong_s, wrong = [], [], [], [], []
    suit_conf: dict[str, Counter] = defaultdict(Counter)
    card_right_s, card_wrong_s, suit_wrong = [], [], []
    for s in scored:
        for true, got in s["reads"]:
            confusion[true][got] += 1
        for b, found, right in s["sizes"]:
            sizes[b][0] += 1
            sizes[b][1] += found
            sizes[b][2] += right
        right_c += s["right_conf"]
        wrong_c += s["wrong_conf"]
        right_s += s["right_sure"]
        wrong_s += s["wrong_sure"]
        wrong += s["wrong"]
        for true, got in s.get("suits", ()):
            suit_conf[true][got] += 1
        card_right_s += s.get("card_right_sure", [])
        card_wrong_s += s.get("card_wrong_sure", [])
        suit_wrong += s.get("suit_wrong", [])
    n = tot["photos"]
    order = [f"<{SIZE_EDGES[0]}"] + [f"{a}-{b}" for a, b in zip(SIZE_EDGES, SIZE_EDGES[1:])] + [f">={SIZE_EDGES[-1]}"]
    return {
        "photos": n, "labelled_cards": tot["labels"],
        "rank_recall": ratio(tot["rank_right"], tot["labels"]),
        "rank_precision": ratio(tot["named_right"], tot["named"]),
        "found": ratio(tot["found"], tot["labels"]),
        "photos_all_right": ratio(tot["photos_all_right"], n),
        "scored_names": tot["named"], "right_names": tot["named_right"],
        "wrong_names_on_a_label": tot["named_on_label"], "wrong_names_on_nothing": tot["named_on_nothing"],
        "backs": tot["backs"], "backs_per_photo": ratio(tot["backs"], n),
        "photos_with_backs": tot["photos_with_backs"], "cards_taken_for_backs": tot["taken_for_back"],
        "jokers": tot["jokers"], "jokers_per_photo": ratio(tot["jokers"], n),
        "jokers_wrong": tot["jokers_wrong"], "jokers_wrong_per_photo": ratio(tot["jokers_wrong"], n),
        "backs_wrong": tot["backs_wrong"], "backs_wrong_per_photo": ratio(tot["backs_wrong"], n),
        **({"joker_labels": tot["joker_labels"], "joker_recall": ratio(tot["jokers_right"], tot["joker_labels"])}
           if tot["joker_labels"] else {}),
        **({"back_labels": tot["back_labels"], "back_recall": ratio(tot["backs_right"], tot["back_labels"]),
            "back_precision": ratio(tot["backs_right"], tot["backs"])} if tot["back_labels"] else {}),
        "unknown": tot["unknown"], "unknown_on_label": tot["unknown_on_label"],
        "unknown_on_no_label": tot["unknown_on_no_label"],
        "low_unlabelled": tot["low_unlabelled"],
        "right_not_sure": ratio(len(right_s) - sum(right_s), len(right_s)),
        "wrong_sure": ratio(sum(wrong_s), len(wrong_s)),
        "confidence_right": confidence_summary(right_c, right_s),
        "confidence_wrong": confidence_summary(wrong_c, wrong_s),
        "confusion": {t: dict(confusion[t].most_common()) for t in ALL_RANKS + (JOKER,) if t in confusion},
        "by_size": {b: {"cards": v[0], "found": round(v[1] / v[0], 4), "rank_recall": round(v[2] / v[0], 4)}
                    for b in order if (v := sizes.get(b))},
        "wrong_names": dict(Counter(f"{w['name'] if w['name'] in (JOKER,) else rank_of(w['name'])} on {w['on']}"
                                    for w in wrong).most_common()),
        "intervals_95": bootstrap([s["counts"] for s in scored]),
        **({"suits_labelled": tot["suit_labelled"],
            "card_recall": ratio(tot["card_right"], tot["suit_labelled"]),
            "card_precision": ratio(tot["card_named_right"], tot["card_named"]),
            "photos_all_right_card": ratio(tot["photos_all_right_card"], n),
            "suit_wrong": len(suit_wrong), "suit_wrong_sure": sum(w["sure"] for w in suit_wrong),
            "card_right_not_sure": ratio(len(card_right_s) - sum(card_right_s), len(card_right_s)),
            "card_wrong_sure": ratio(sum(card_wrong_s), len(card_wrong_s)),
            "card_wrong_sure_n": int(sum(card_wrong_s)),
            "suit_confusion": {t: dict(suit_conf[t].most_common()) for t in SUIT_LETTERS if t in suit_conf},
            "suit_wrong_names": dict(Counter(f"{w['name']} on {w['on']}" + (" (sure)" if w["sure"] else "")
                                             for w in suit_wrong).most_common())}
           if tot["suit_labelled"] else {}),
    }


def print_report(r: dict) -> None:
    for k in ("photos", "labelled_cards", "rank_recall", "rank_precision", "found", "photos_all_right",
              "scored_names", "right_names", "wrong_names_on_a_label", "wrong_names_on_nothing",
              "backs", "backs_per_photo", "photos_with_backs", "cards_taken_for_backs", "jokers",
              "jokers_per_photo", "jokers_wrong", "backs_wrong", "joker_labels", "joker_recall", "back_labels",
              "back_recall", "back_precision", "unknown", "unknown_on_label", "unknown_on_no_label", "low_unlabelled",
              "right_not_sure", "wrong_sure", "median_ms"):
        if k in r:
            print(f"{k:>24}: {r[k]}")
    print("95 % intervals (photos resampled): " + ", ".join(
        f"{k} {lo:.4f}-{hi:.4f}" for k, (lo, hi) in r["intervals_95"].items()))
    if "card_recall" in r:
        how = "named in their labels" if r.get("labels", {}).get("suits") == "labels" else "read by eye"
        print(f"whole name (rank and suit; {r['suits_labelled']} cards with a suit {how}): recall "
              f"{r['card_recall']}, precision {r['card_precision']}, photos all right {r['photos_all_right_card']}, "
              f"right rank wrong suit {r['suit_wrong']} ({r['suit_wrong_sure']} sure), wrong names sure "
              f"{r['card_wrong_sure_n']} ({r['card_wrong_sure']}), right names not sure {r['card_right_not_sure']}")
        print("suits (rows: labelled suit of a card named the right rank; columns: suit named): " + "; ".join(
            f"{t}: " + " ".join(f"{g} {n}" for g, n in row.items()) for t, row in r["suit_confusion"].items()))
        if r["suit_wrong_names"]:
            print("right rank, wrong suit: " + ", ".join(f"{k} {v}" for k, v in r["suit_wrong_names"].items()))
    print(f"sure: {r['sure_source']}")
    for k in ("confidence_right", "confidence_wrong"):
        v = r[k]
        if v["n"]:
            print(f"{k}: n {v['n']}, sure {v['sure']} ({v['share_sure']:.3f}), quantiles {v['quantiles']}, "
                  f"histogram {v['histogram']}")
    cols = list(ALL_RANKS) + [JOKER, UNKNOWN, "back", MISSED]
    used = [c for c in cols if c in ("back", MISSED) or any(c in row for row in r["confusion"].values())]
    print("confusion (rows: labelled rank; columns: rank named by the matched detection, "
          "'back' = only a back box on it, '-' = nothing)")
    print("      " + "".join(f"{c:>6}" for c in used) + "  recall")
    for t, row in r["confusion"].items():
        n = sum(row.values())
        print(f"{t:>5} " + "".join(f"{row.get(c, 0):>6}" for c in used) + f"  {row.get(t, 0) / n:.3f}")
    print("by size (long side of the labelled box at the detector's input, px): " + ", ".join(
        f"{b}: {v['cards']} cards, found {v['found']:.3f}, named {v['rank_recall']:.3f}"
        for b, v in r["by_size"].items()))
    print("wrong names (scored): " + ", ".join(f"{k} {v}" for k, v in r["wrong_names"].items()))
    if "wrong_sure_where" in r:
        print("wrong names shown sure: " + (", ".join(r["wrong_sure_where"]) or "none"))


def draw(det_result: dict, labels: list[dict], image, path: Path) -> None:
    import cv2

    from dealer_assist.vision.detector import draw_annotations

    out = draw_annotations(image, det_result)
    for lab in labels:
        x0, y0, x1, y1 = (int(v) for v in lab["box"])
        cv2.rectangle(out, (x0, y0), (x1, y1), (255, 0, 255), 1)
        cv2.putText(out, lab["rank"], (x0 + 3, y1 - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 0, 255), 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), out)


def suit_sheets(folder: Path, out: Path, suits: dict[str, str] | None = None, per_row: int = 8,
                rows: int = 5) -> int:
    """Sheets of every labelled card of ``folder`` (its box and a little around it, each
    numbered in label order, with its photo and suit when known) for reading or checking the
    suits by eye. Returns how many cards."""
    import cv2

    cw, ch, top = 150, 200, 24
    cells = []
    for img_path, xml_path in photos(folder):
        labels = read_labels(xml_path, img_path)
        letters = (suits or {}).get(img_path.stem)
        image = read_photo(img_path, xml_path)
        for k, lab in enumerate(labels):
            x0, y0, x1, y1 = lab["box"]
            mx, my = 0.04 * (x1 - x0), 0.04 * (y1 - y0)
            crop = image[max(0, int(y0 - my)):int(y1 + my), max(0, int(x0 - mx)):int(x1 + mx)]
            if crop.size == 0:
                continue
            f = min((cw - 4) / crop.shape[1], (ch - 4) / crop.shape[0])
            crop = cv2.resize(crop, (max(1, int(crop.shape[1] * f)), max(1, int(crop.shape[0] * f))),
                              interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)
            tag = lab["rank"] + (letters[k] if letters and k < len(letters) else "")
            cells.append((f"{len(cells)} {tag}", img_path.stem, crop))
    out.mkdir(parents=True, exist_ok=True)
    per = per_row * rows
    index = []
    for start in range(0, len(cells), per):
        sheet = np.full((rows * (ch + top), per_row * cw, 3), 255, np.uint8)
        for k, (tag, stem, crop) in enumerate(cells[start:start + per]):
            r, q = divmod(k, per_row)
            oy, ox = r * (ch + top) + top, q * cw
            sheet[oy:oy + crop.shape[0], ox:ox + crop.shape[1]] = crop
            cv2.putText(sheet, tag, (ox + 4, oy - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 255), 2)
            index.append(f"{tag.split()[0]}\t{stem}\t{tag.split()[1]}")
        cv2.imwrite(str(out / f"sheet_{start:04d}.png"), sheet)
    (out / "index.tsv").write_text("number\tphoto\tlabel\n" + "\n".join(index) + "\n", encoding="utf-8")
    return len(cells)


def evaluate(det, folder: Path, limit: int | None = None, iou: float = 0.5, draw_dir: Path | None = None,
             nested: float | None = NESTED, wide: tuple[int, int] | None = None, shrink: float = 1.0,
             suits: dict[str, str] | None = None, boxes: str = "auto", lowest: str | None = None,
             told: bool = False, camera: list[Condition] | None = None) -> dict:
    """Read and score every photo of ``folder``; ``suits`` (:func:`read_suits`) adds the whole
    name's figures; ``boxes`` says what the face-up labels box: ``"cards"``, ``"corners"`` (the
    index corners: :func:`cards_from_corners`) or ``"auto"`` (:func:`label_boxes` judges, from
    all photos, once read); ``lowest`` (a rank symbol) says the folder labels every card from that
    rank to the ace, whatever its labels show; ``told`` (with ``wide``) tells the reader, for
    each wide view, the card size and the part of the frame a calibration would give
    (:func:`told_camera`); ``camera`` lays a camera's conditions over every photo before it is read
    (:mod:`camera_conditions`: dim or warm light, motion, defocus, noise, JPEG; the blurs in parts of
    the photo's median labelled card). A photo the suits do not cover is a clear ``ValueError``."""
    folder = Path(folder)
    pairs = photos(folder)[:limit]
    others: Counter = Counter()
    read = [read_annotations(lab, img, others) for img, lab in pairs]
    conv = conventions([cards for cards, _ in read] + [declared(pairs)], [backs for _, backs in read])
    if lowest is not None:
        conv["ranks"] = ALL_RANKS[ALL_RANKS.index(lowest):]
    label_suits = any("suit" in lab for cards, _ in read for lab in cards)
    card_long = _card_sizes(pairs, read)

    def seen_by_camera(image: np.ndarray, img_path: Path) -> np.ndarray:
        """The photo as the camera conditions (``camera``) give it, the same on every run."""
        if not camera:
            return image
        return under_camera(image, camera, card_long[img_path], photo_seed(img_path.name))

    known: dict[tuple[Path, int], tuple[dict, float]] = {}   # (photo, frame) -> what was found, ms

    def detect(image: np.ndarray, img_path: Path, k: int) -> dict:
        """What the reader finds in frame ``k`` of a photo (:func:`photo_frames`), read once: a
        turned photo's frames are read to choose between them, and the chosen one is not read again."""
        if (img_path, k) not in known:
            t0 = time.perf_counter()
            res = det.detect(seen_by_camera(image, img_path))
            known[(img_path, k)] = res, (time.perf_counter() - t0) * 1000.0
        return known[(img_path, k)][0]

    def on_cards(image: np.ndarray, img_path: Path, xml_path: Path, k: int) -> np.ndarray:
        """How well the photo's labels lie on the cards found in ``image`` (its frame ``k``):
        how many :func:`match` pairs with one, how many centres lie in one (index corners), and
        the paired boxes' IoU summed."""
        cards, backs = read_annotations(xml_path, img_path, Counter(), (image.shape[1], image.shape[0]))
        res = detect(image, img_path, k)
        found, labs = res["cards"] + res["backs"], cards + backs
        m = match(found, labs, iou, nested)
        return np.array([len(m), sum(any(_inside(d["polygon"], _centre(lab["box"])) for d in found) for lab in labs),
                         sum(box_iou(aabb(found[i]["polygon"]), labs[j]["box"]) for i, j in m.items())])

    # a photo with an EXIF turn its labels do not settle is read as the folder's labelling tool
    # drew on such photos: upright or as stored, whichever puts the labels on the cards found
    agree = np.zeros((2, 3))
    for img_path, xml_path in pairs:
        frames = photo_frames(img_path, xml_path)
        if len(frames) == 2:
            agree += np.stack([on_cards(im, img_path, xml_path, k) for k, im in enumerate(frames)])
    stored_frame = bool(tuple(agree[1]) > tuple(agree[0]))

    def frame(img_path: Path, xml_path: Path) -> tuple[np.ndarray, int, bool]:
        """The photo as its labels were drawn on it, which of :func:`photo_frames` it is, and
        whether it is the stored pixels of a turned photo."""
        frames = turned_frames(img_path, xml_path)
        k = int(stored_frame) if len(frames) == 2 else 0
        return frames[k][0], k, frames[k][1]

    def view(labels: list[dict], back_labels: list[dict], image: np.ndarray, paint: list | None):
        if wide is not None:
            image, moved = wide_view(image, labels + back_labels, wide, shrink, paint=paint)
            labels, back_labels = moved[:len(labels)], moved[len(labels):]
        return image, labels, back_labels

    ready = []          # each photo in the frame its labels were drawn on, with its labels
    turns = 0
    two_passes = wide is not None and boxes != "cards"      # the plain photos read first (below)
    ms, all_cards, seen, plain = [], [], [], []

    def read_view(img_path, xml_path, labels, back_labels, turned, paint, image=None) -> None:
        if image is None:
            image = photo_frames(img_path, xml_path)[turned]
        if wide is None:                    # the photo itself: read once (:func:`detect`)
            res = detect(image, img_path, turned)
            ms.append(known[(img_path, turned)][1])
        else:
            place = photo_place(image.shape[:2], wide, shrink)
            image, labels, back_labels = view(labels, back_labels, seen_by_camera(image, img_path), paint)
            if told:
                det.expect_card_side(*told_camera(labels, place, image.shape[:2]))
            t0 = time.perf_counter()
            res = det.detect(image)
            ms.append((time.perf_counter() - t0) * 1000.0)
            if told:
                det.expect_card_side(None)
        h, w = image.shape[:2]
        seen.append((img_path, xml_path, labels, back_labels, res, (w, h), turned, paint))
        all_cards.extend(res["cards"])

    for (img_path, xml_path), (labels, back_labels) in zip(pairs, read):
        if label_suits:
            labels = with_label_suits(labels)
        elif suits is not None:
            if img_path.stem not in suits:
                raise ValueError(f"the suits file has no entry for {img_path.stem}")
            labels = with_suits(labels, suits[img_path.stem], img_path.stem)
        image, turned, as_stored = frame(img_path, xml_path)
        if turned or xml_path.suffix.lower() == ".txt":     # YOLO shares: of this frame's size
            labels_at, back_labels = read_annotations(xml_path, img_path, Counter(), (image.shape[1], image.shape[0]))
            labels = [dict(lab, box=at["box"]) for lab, at in zip(labels, labels_at)]
        ready.append((img_path, xml_path, labels, back_labels, turned))
        turns += as_stored
        if not two_passes:
            read_view(img_path, xml_path, labels, back_labels, turned, None, image)
        else:
            plain.append(detect(image, img_path, turned))
    share = None
    if two_passes:
        # the wide view paints over the labelled cards where it mirrors the photo: where the labels
        # box index corners, the cards they stand for, as the photo itself shows them
        if boxes == "auto":
            boxes, share = label_boxes([(labels, res) for (_, _, labels, _, _), res in zip(ready, plain)])
        for (img_path, xml_path, labels, back_labels, turned), res in zip(ready, plain):
            paint = ([c["box"] for c in cards_from_corners(labels, res)] + [b["box"] for b in back_labels]
                     if boxes == "corners" else None)
            read_view(img_path, xml_path, labels, back_labels, turned, paint)
    if boxes == "auto":
        boxes, share = label_boxes([(labels, res) for _, _, labels, _, res, _, _, _ in seen])
    scored, per_photo = [], []
    hard: Counter = Counter()
    for (img_path, xml_path, labels, back_labels, res, (w, h), turned, paint), (_, _, labels0, backs0, _) in zip(seen, ready):
        if boxes == "corners":
            labels = cards_from_corners(labels, res)
        res, labels, back_labels, n, m = set_aside(res, labels, back_labels, iou, nested)
        hard += Counter(labels=n, detections=m)
        s = score_photo(res, labels, iou, nested, min(det.input_shape[0] / h, det.input_shape[1] / w),
                        conv["ranks"], back_labels if conv["backs"] else None)
        scored.append(s)
        c = s["counts"]
        per_photo.append({"photo": img_path.relative_to(folder).as_posix(), "size": [w, h],
                          "labels": len(labels), "right": c["rank_right"], "backs": c["backs"],
                          "reads": s["reads"], "wrong": s["wrong"], "suit_wrong": s["suit_wrong"],
                          "unknown_on_no_label": c["unknown_on_no_label"],
                          "cards": [{k: d[k] for k in ("card", "confidence")} for d in res["cards"]]})
        if draw_dir is not None and not c["photos_all_right"]:
            image = view(labels0, backs0, seen_by_camera(photo_frames(img_path, xml_path)[turned], img_path), paint)[0]
            draw(res, labels, image, draw_dir / "_".join(img_path.relative_to(folder).with_suffix(".jpg").parts))
    r = aggregate(scored)
    r["median_ms"] = round(statistics.median(ms), 1) if ms else None
    r["sure_source"] = sure_source(all_cards)
    r["folder"] = str(folder)
    r["labels"] = {"ranks": "".join(conv["ranks"]), "jokers": conv["jokers"], "backs": conv["backs"],
                   "suits": "labels" if label_suits else "file" if suits is not None else None,
                   "boxes": boxes, "corner_share": share, "stored_pixels": turns,
                   "difficult": {"labels": hard["labels"], "detections": hard["detections"]},
                   "left_out": dict(others.most_common())}
    r["matching"] = {"iou": iou, "nested": nested, "nested_iou": NESTED_IOU if nested is not None else None}
    r["photo_sizes"] = dict(Counter(f"{p['size'][0]}x{p['size'][1]}" for p in per_photo).most_common())
    r["per_photo"] = per_photo
    # a wrong name shown sure is the failure the dealer cannot see: each one, and where
    r["wrong_sure_where"] = [f"{w['name']} on {w['on']} ({p['photo']})"
                             for p in per_photo for key in ("wrong", "suit_wrong") for w in p[key] if w.get("sure")]
    return r


def _card_sizes(pairs: list[tuple[Path, Path]], read: list[tuple[list[dict], list[dict]]]) -> dict[Path, float]:
    """Each photo's card size for the camera's blurs: the median long side of its labelled cards
    (face up or down) in its pixels, or, for a photo with no label, the folder's median.

    >>> a = [{"box": [0, 0, 50, 70]}, {"box": [10, 10, 40, 100]}]
    >>> _card_sizes([(Path("a.jpg"), Path("a.xml")), (Path("b.jpg"), Path("b.xml"))], [(a, []), ([], [])])
    {PosixPath('a.jpg'): 80.0, PosixPath('b.jpg'): 80.0}
    """
    def long_side(lab: dict) -> float:
        x0, y0, x1, y1 = lab["box"]
        return float(max(x1 - x0, y1 - y0))

    own = {img: float(np.median([long_side(lab) for lab in cards + backs]))
           for (img, _), (cards, backs) in zip(pairs, read) if cards or backs}
    folder = float(np.median(list(own.values()))) if own else 100.0
    return {img: own.get(img, folder) for img, _ in pairs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(DEFAULT_DIR), help="photos with a Pascal VOC .xml or a YOLO .txt (and its class names) beside each, or a COCO .json for all")
    ap.add_argument("--json", dest="json_out", default=None, help="also write the figures here")
    ap.add_argument("--limit", type=int, default=None, help="only the first N photos (by name)")
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--iou", type=float, default=0.5, help="match threshold (axis-aligned IoU)")
    ap.add_argument("--strict", action="store_true", help="match by IoU only (no second, nested pass)")
    ap.add_argument("--draw", default=None, help="write annotated photos that are not all right here")
    ap.add_argument("--wide", default=None, metavar="WxH",
                    help="read each photo as a wider view shows it: in the middle of a WxH frame that "
                         "continues its surface (wide_view), e.g. 1920x1080")
    ap.add_argument("--shrink", type=float, default=1.0, help="with --wide: the photo shrunk by this first")
    ap.add_argument("--told", action="store_true",
                    help="with --wide: read each view as a calibrated camera's frame, told the cards' size (from "
                         "its labels) and the part of the frame they lie in (the photo's place, grown by a card)")
    ap.add_argument("--zoom", action=argparse.BooleanOptionalAction, default=True,
                    help="look again in tiles where the cards are small (default: on)")
    ap.add_argument("--suits", default=None, metavar="FILE",
                    help="the labelled cards' suits, to score whole names too (default: "
                         "benchmarks/real_suits/<folder name>.json when there is one; 'none': ranks only)")
    ap.add_argument("--ranks", default=None, metavar="LOWEST",
                    help="the folder labels every card from this rank to the ace, e.g. 2 (default: from 9, or "
                         "from the lowest rank its labels or class list name)")
    ap.add_argument("--boxes", choices=("auto", "cards", "corners"), default="auto",
                    help="what the face-up labels box: whole cards, or the index corners (default: "
                         "judged from the labels beside the cards found)")
    ap.add_argument("--camera", action="append", default=[], metavar="NAME[:AMOUNT]",
                    help="lay a camera's condition over every photo before it is read (repeat to combine): "
                         + "; ".join(f"{k} ({v[1]}; default {v[0]:g})" for k, v in CONDITIONS.items()).replace("%", "%%"))
    ap.add_argument("--suit-sheets", default=None, metavar="DIR",
                    help="only write numbered sheets of the labelled cards, with their suits if known, "
                         "to read or check the suits by eye")
    args = ap.parse_args(argv)
    wide = None
    if args.wide:
        try:
            fw, fh = (int(v) for v in args.wide.lower().split("x"))
        except ValueError:
            print(f"--wide wants WxH, e.g. 1920x1080, not {args.wide!r}", file=sys.stderr)
            return 2
        wide = (fh, fw)
    lowest = None
    if args.ranks is not None:
        try:
            lowest = parse_label(args.ranks).get("rank")
        except ValueError:
            lowest = None
        if lowest not in ALL_RANKS:
            print(f"--ranks wants the lowest rank labelled, 2 to A (e.g. 2, 9, ten), not {args.ranks!r}", file=sys.stderr)
            return 2
    if not 0.0 < args.shrink <= 1.0:
        print(f"--shrink wants a number above 0 and at most 1, not {args.shrink}", file=sys.stderr)
        return 2
    try:
        camera = [parse_condition(c) for c in args.camera]
    except ValueError as e:
        print(f"--camera: {e}", file=sys.stderr)
        return 2
    folder = Path(args.dir)
    try:
        found = folder.is_dir() and photos(folder)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    if not found:
        print(f"no labelled photos in {folder}", file=sys.stderr)
        return 2
    suits_path = Path(args.suits) if args.suits and args.suits != "none" else (
        SUITS_DIR / f"{folder.name}.json" if args.suits is None else None)
    suits = None
    if suits_path is not None and (args.suits is not None or suits_path.is_file()):
        try:
            suits = read_suits(suits_path)
        except ValueError as e:
            print(e, file=sys.stderr)
            return 2
    if args.suit_sheets:
        n = suit_sheets(folder, Path(args.suit_sheets), suits)
        print(f"{n} labelled cards on sheets in {args.suit_sheets}")
        return 0
    from dealer_assist.vision.detector import CardDetector, switched

    det = CardDetector(args.models, settings=switched(zoom=args.zoom))
    print(f"photos: {folder} (detector input {det.input_shape[0]}x{det.input_shape[1]}, letterboxed)"
          + (f", each in a {wide[1]}x{wide[0]} view, shrunk by {args.shrink}" if wide else "")
          + (", told the card size and the part of the frame" if args.told and wide else "")
          + (", under the camera conditions " + ", ".join(f"{c.name}:{c.amount:g}" for c in camera) if camera else ""))
    try:
        r = evaluate(det, folder, args.limit, args.iou, Path(args.draw) if args.draw else None,
                     None if args.strict else NESTED, wide, args.shrink, suits, args.boxes, lowest,
                     told=args.told and wide is not None, camera=camera)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    r["suits_file"] = str(suits_path) if suits is not None and r["labels"]["suits"] == "file" else None
    r["view"] = {"wide": list(wide) if wide else None, "shrink": args.shrink, "zoom": args.zoom,
                 "told": bool(args.told and wide),
                 "camera": [{"name": c.name, "amount": c.amount} for c in camera]}
    print(f"{'photo sizes':>24}: {r['photo_sizes']}")
    print(f"{'matching':>24}: {r['matching']}")
    lab = r["labels"]
    print(f"{'labels':>24}: every card of rank {lab['ranks'][0]} to A"
          + (", jokers" if lab["jokers"] else ", no joker (every JK is wrong)")
          + (", face-down cards" if lab["backs"] else ", no face-down card (every back is wrong)")
          + {"labels": ", suits in the labels", "file": ", suits from " + str(r["suits_file"]),
             None: ", no suits (ranks only)"}[lab["suits"]])
    print(f"{'label boxes':>24}: " + ("the index corners, grouped into cards (cards_from_corners)"
                                      if lab["boxes"] == "corners" else "whole cards")
          + (f"; judged: the median label covers {lab['corner_share']} of the card found around it"
             if lab["corner_share"] is not None else " (--boxes)" if args.boxes != "auto" else ""))
    if lab["difficult"]["labels"]:
        print(f"{'difficult':>24}: {lab['difficult']['labels']} labels marked difficult set aside, with the "
              f"{lab['difficult']['detections']} detections on them (set_aside)")
    if lab["stored_pixels"]:
        print(f"{'turned photos':>24}: {lab['stored_pixels']} read as stored, not upright: their labels lie on the "
              "cards found there (photo_frames)")
    if lab["left_out"]:
        print(f"{'left out':>24}: labels that name no card: " + ", ".join(f"{k!r} {v}" for k, v in lab["left_out"].items()))
    print_report(r)
    if args.json_out:
        Path(args.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json_out).write_text(json.dumps(r, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
