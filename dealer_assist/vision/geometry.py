"""The ONE place where a card's outline becomes index-corner crops (training and runtime alike).

A card is a quadrilateral in the full-resolution frame. The detector gives an oriented box
(OBB: centre, width, height, angle) whose 90/180-degree orientation is unknown; the synthetic
generator knows the true polygon (TL, TR, BR, BL of the upright card face). Both go through the
same steps, so the classifier is trained on exactly what it will see:

1. :func:`order_card_polygon` puts the four corners in a canonical order: clockwise on screen
   (never mirrored) with the LONG side as the card's height. Which of the two short edges
   becomes the "top" is a geometric convention, not the card's true top: cards' indices are
   printed point-symmetric, so either way up the two crops show an upright index.
2. :func:`corner_crops` maps the canonical card onto the frame with a perspective transform and
   samples the two index-corner regions (:data:`CORNER_REGION`) straight from the frame at a
   fixed size (:data:`CROP_W` x :data:`CROP_H`), the bottom-right one turned by 180 degrees.

The generator calls :func:`training_corner_crops`, which first turns the true polygon into the
oriented box a detector would output (``cv2.minAreaRect``) and jitters it the way a detector
errs, then runs the runtime path and says which TRUE corner each crop shows (for its label).

>>> import numpy as np
>>> img = np.zeros((720, 1280, 3), np.uint8)
>>> poly = polygon_from_obb((640.0, 360.0, 140.0, 100.0, 0.0))   # a card lying sideways
>>> ordered = order_card_polygon(poly)
>>> [round(float(v), 1) for v in edge_lengths(ordered)]          # short, long, short, long
[100.0, 140.0, 100.0, 140.0]
>>> corner_crops(img, ordered).shape
(2, 56, 36, 3)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

#: Card height / width of a standard poker card (88 mm x 63 mm).
CARD_ASPECT = 88.0 / 63.0

#: Classifier input size in pixels (width, height): the crop of one index corner.
CROP_W = 36
CROP_H = 56

#: Region cut around the top-left index of the upright card, as fractions of the card's width
#: (x) and height (y): (x0, y0, x1, y1). It reaches outside the card so that a detector box that
#: is somewhat off (the classifier is trained with :data:`JITTER`-like errors of this size) still
#: shows the whole index. Index glyphs (rank over suit) must lie inside x in [0.03, 0.22],
#: y in [0.02, 0.27] of the card for a reliable read.
CORNER_REGION = (-0.05, -0.04, 0.27, 0.31)

#: Default jitter a detector's box is assumed to have (used for training crops): centre shift and
#: size change as fractions of the card's width/height, angle in degrees.
JITTER = {"shift": 0.07, "scale": 0.08, "angle_deg": 6.0}


def as_polygon(points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """A (4, 2) float64 array from four (x, y) points; ValueError naming the problem otherwise.

    >>> as_polygon([[0, 0], [1, 0], [1, 1], [0, 1]]).shape
    (4, 2)
    >>> as_polygon([[0, 0], [1, 0]])
    Traceback (most recent call last):
    ...
    ValueError: polygon: expected 4 (x, y) points, got shape (2, 2)
    """
    arr = np.asarray(points, dtype=np.float64)
    if arr.shape != (4, 2):
        raise ValueError(f"polygon: expected 4 (x, y) points, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("polygon: coordinates must be finite numbers")
    return arr


def polygon_from_obb(obb: Sequence[float]) -> np.ndarray:
    """Four corners of an oriented box ``(cx, cy, w, h, angle)``; angle in radians, clockwise on
    screen (image y points down), as ultralytics' ``xywhr`` uses it.

    >>> polygon_from_obb((10.0, 20.0, 4.0, 2.0, 0.0)).tolist()
    [[8.0, 19.0], [12.0, 19.0], [12.0, 21.0], [8.0, 21.0]]
    """
    cx, cy, w, h, a = (float(v) for v in obb)
    c, s = math.cos(a), math.sin(a)
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) / 2.0
    rot = np.array([[c, -s], [s, c]], np.float64)
    return half @ rot.T + np.array([cx, cy])


def obb_from_polygon(poly: Sequence[Sequence[float]] | np.ndarray) -> tuple[float, float, float, float, float]:
    """The minimum-area oriented box ``(cx, cy, w, h, angle_rad)`` around a quadrilateral — what an
    OBB detector learns from a polygon label.

    >>> [round(v, 3) for v in obb_from_polygon([[8, 19], [12, 19], [12, 21], [8, 21]])[:2]]
    [10.0, 20.0]
    """
    (cx, cy), (w, h), ang = cv2.minAreaRect(as_polygon(poly).astype(np.float32))
    return float(cx), float(cy), float(w), float(h), math.radians(float(ang))


def edge_lengths(poly: np.ndarray) -> np.ndarray:
    """Lengths of the edges p0-p1, p1-p2, p2-p3, p3-p0."""
    p = np.asarray(poly, np.float64)
    return np.linalg.norm(np.roll(p, -1, axis=0) - p, axis=1)


def _signed_area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def order_card_polygon(points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """Canonical corner order (TL, TR, BR, BL) of a card outline: clockwise on screen, the
    TL-TR edge a SHORT side (long side = card height), and of the two ways up the one whose top
    edge is higher on screen (ties: further left). Works for boxes and perspective quads alike.

    >>> order_card_polygon([[0, 0], [0, 10], [14, 10], [14, 0]]).tolist()   # anticlockwise, lying
    [[0.0, 10.0], [0.0, 0.0], [14.0, 0.0], [14.0, 10.0]]
    >>> order_card_polygon([[0, 0], [10, 0], [10, 14], [0, 14]]).tolist()   # already upright
    [[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]]
    """
    p = as_polygon(points)
    if _signed_area(p) < 0:  # anticlockwise on screen (y down): reverse, keeping p0 first
        p = p[[0, 3, 2, 1]]
    e = edge_lengths(p)
    start = 0 if e[0] + e[2] <= e[1] + e[3] else 1  # edge start->start+1 must be a short side
    cands = [np.roll(p, -start, axis=0), np.roll(p, -(start + 2), axis=0)]

    def key(q: np.ndarray) -> tuple[float, float]:
        mid = (q[0] + q[1]) / 2.0
        return (round(float(mid[1]), 6), round(float(mid[0]), 6))

    return min(cands, key=key)


def _card_to_image(ordered: np.ndarray) -> np.ndarray:
    """Homography from card units (x in [0, 1] of width, y in [0, 1] of height) to the frame."""
    src = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(src, ordered.astype(np.float32)).astype(np.float64)


def _region_to_card(region: tuple[float, float, float, float], out_w: int, out_h: int, flip: bool) -> np.ndarray:
    """Affine map from output crop pixels (u, v) to card units for a region; ``flip`` samples
    the point-mirrored region (the bottom-right corner) turned by 180 degrees."""
    x0, y0, x1, y1 = region
    sx, sy = (x1 - x0) / out_w, (y1 - y0) / out_h
    tx, ty = x0 + 0.5 * sx, y0 + 0.5 * sy  # sample at output pixel centres
    if flip:  # card point (x, y) -> (1 - x, 1 - y)
        return np.array([[-sx, 0, 1 - tx], [0, -sy, 1 - ty], [0, 0, 1]], np.float64)
    return np.array([[sx, 0, tx], [0, sy, ty], [0, 0, 1]], np.float64)


def _warp(image: np.ndarray, m: np.ndarray, w: int, h: int) -> np.ndarray:
    # m maps output pixels to source pixels; WARP_INVERSE_MAP samples with it directly.
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def corner_crops(image: np.ndarray, ordered: Sequence[Sequence[float]] | np.ndarray,
                 region: tuple[float, float, float, float] = CORNER_REGION,
                 size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """The two index-corner crops of a card, shape (2, h, w, C): [0] at the ordered polygon's TL,
    [1] at its BR turned by 180 degrees (so a point-symmetric index is upright in both).

    ``ordered`` must come from :func:`order_card_polygon` (the caller keeps the order so it can
    report it). Sampling is straight from the full-resolution ``image``; pixels outside the frame
    repeat the border.

    >>> img = np.zeros((100, 100), np.uint8); img[10:20, 10:15] = 255      # a mark near TL
    >>> tl, br = corner_crops(img, order_card_polygon([[10, 10], [60, 10], [60, 80], [10, 80]]))
    >>> bool(tl.mean() > 20), bool(br.mean() == 0)
    (True, True)
    """
    p = as_polygon(ordered)
    w, h = size
    h_card = _card_to_image(p)
    out = [_warp(image, h_card @ _region_to_card(region, w, h, flip), w, h) for flip in (False, True)]
    return np.stack(out)


def index_centres(ordered: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """Where a card's two index corners (:func:`corner_crops`' [0] and [1]) lie in the image:
    the centres of their :data:`CORNER_REGION`, shape (2, 2).

    >>> index_centres(order_card_polygon([[0, 0], [100, 0], [100, 140], [0, 140]])).round(1).tolist()
    [[11.0, 18.9], [89.0, 121.1]]
    """
    p = as_polygon(ordered)
    u = (CORNER_REGION[0] + CORNER_REGION[2]) / 2.0
    v = (CORNER_REGION[1] + CORNER_REGION[3]) / 2.0
    tl = p[0] + u * (p[1] - p[0]) + v * (p[3] - p[0])
    br = p[2] + u * (p[3] - p[2]) + v * (p[1] - p[2])
    return np.stack([tl, br])


def rectify_card(image: np.ndarray, ordered: Sequence[Sequence[float]] | np.ndarray,
                 width: int = 64) -> np.ndarray:
    """The whole card warped upright to ``width`` x round(width * CARD_ASPECT) pixels (for joker
    and back appearance templates).

    >>> rectify_card(np.zeros((50, 50, 3), np.uint8), [[0, 0], [10, 0], [10, 14], [0, 14]]).shape
    (89, 64, 3)
    """
    p = as_polygon(ordered)
    height = int(round(width * CARD_ASPECT))
    return _warp(image, _card_to_image(p) @ _region_to_card((0.0, 0.0, 1.0, 1.0), width, height, False),
                 width, height)


def jitter_obb(obb: Sequence[float], rng: np.random.Generator, shift: float = JITTER["shift"],
               scale: float = JITTER["scale"], angle_deg: float = JITTER["angle_deg"]) -> tuple[float, ...]:
    """An oriented box perturbed the way a detector errs: centre moved by up to ``shift`` of the
    box size, each side scaled by up to +-``scale``, angle turned by up to +-``angle_deg``."""
    cx, cy, w, h, a = (float(v) for v in obb)
    cx += rng.uniform(-shift, shift) * w
    cy += rng.uniform(-shift, shift) * h
    w *= 1.0 + rng.uniform(-scale, scale)
    h *= 1.0 + rng.uniform(-scale, scale)
    a += math.radians(rng.uniform(-angle_deg, angle_deg))
    return cx, cy, w, h, a


def training_corner_crops(image: np.ndarray, true_polygon: Sequence[Sequence[float]] | np.ndarray,
                          rng: np.random.Generator | None = None, jitter: dict | None = None,
                          region: tuple[float, float, float, float] = CORNER_REGION,
                          size: tuple[int, int] = (CROP_W, CROP_H)) -> list[tuple[str, np.ndarray]]:
    """Classifier training crops for one card, cut exactly as the runtime cuts them.

    ``true_polygon`` is the card's outline TL, TR, BR, BL of the UPRIGHT card face (the dataset's
    ground truth). It becomes the min-area oriented box a detector would predict, is jittered
    (``rng`` given; ``jitter`` overrides :data:`JITTER`), ordered and cropped by the runtime
    functions. Returns two ``(which, crop)`` pairs, ``which`` being the TRUE corner of the card
    ("tl" or "br") that the crop shows, so the caller labels it with the card's name when that
    corner's index is visible and ``none`` otherwise. ``region`` and ``size`` are
    :func:`corner_crops`' (the court-suit reader cuts a larger end of the card).

    >>> img = np.zeros((200, 200, 3), np.uint8)
    >>> [w for w, _ in training_corner_crops(img, [[110, 20], [110, 90], [60, 90], [60, 20]])]
    ['tl', 'br']
    """
    true_p = as_polygon(true_polygon)
    obb = obb_from_polygon(true_p)
    if rng is not None:
        obb = jitter_obb(obb, rng, **{**JITTER, **(jitter or {})})
    ordered = order_card_polygon(polygon_from_obb(obb))
    crops = corner_crops(image, ordered, region=region, size=size)
    result = []
    for corner, crop in zip((ordered[0], ordered[2]), crops):
        d_tl = float(np.linalg.norm(corner - true_p[0]))
        d_br = float(np.linalg.norm(corner - true_p[2]))
        result.append(("tl" if d_tl <= d_br else "br", crop))
    return result


#: Defaults of :func:`refine_card_polygon`: search reach (x the card's width), how far a side
#: may turn (x its length), the weakest edge taken (grey levels per pixel), samples along a
#: side, and the least overlap (IoU) the result must keep with the input.
REFINE = {"search": 0.18, "max_turn": 0.10, "min_edge": 6.0, "samples": 24, "min_overlap": 0.8}


def _intersect(p0: np.ndarray, d0: np.ndarray, p1: np.ndarray, d1: np.ndarray) -> np.ndarray | None:
    """Intersection of the lines p0 + s d0 and p1 + t d1 (None when nearly parallel)."""
    den = d0[0] * d1[1] - d0[1] * d1[0]
    if abs(den) < 1e-9:
        return None
    diff = p1 - p0
    s = (diff[0] * d1[1] - diff[1] * d1[0]) / den
    return p0 + s * d0


def card_width(p: Sequence[Sequence[float]] | np.ndarray) -> float:
    """The mean length of a card outline's two shorter opposite sides (its width, in pixels).

    >>> card_width([[0, 0], [60, 0], [60, 84], [0, 84]]), card_width([[0, 0], [0, 84], [60, 84], [60, 0]])
    (60.0, 60.0)
    """
    e = edge_lengths(p)
    return float(min(e[0] + e[2], e[1] + e[3]) / 2.0)


def _snap_side(gray: np.ndarray, a: np.ndarray, b: np.ndarray, centre: np.ndarray, reach: float,
               span: tuple[float, float], search_turn: float, min_edge: float,
               samples: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The straight edge nearest in brightness-step terms to the side a-b of a card: two points
    on it (at the ends of ``span``, fractions of a-b), or None when no step of ``min_edge`` grey
    levels per pixel is found. The frame is sampled along ``span`` of the side at offsets up to
    ``reach`` pixels either way of it; each candidate line (its own offset at either end of the
    span, so it may turn by up to ``search_turn`` x the side's length) scores the mean step from
    the inside (the light card face) to the outside."""
    d = b - a
    length = float(np.linalg.norm(d))
    if length < 1e-6:
        return None
    u = d / length
    n = np.array([u[1], -u[0]])
    if float(np.dot(n, (a + b) / 2.0 - centre)) < 0:
        n = -n                                                            # n points out of the card
    k = int(min(49, 2 * math.ceil(reach) + 1))
    offsets = np.linspace(-reach, reach, k)
    t = np.linspace(span[0], span[1], samples)
    base = a[None, :] + t[:, None] * d[None, :]                          # (M, 2)
    grid = base[:, None, :] + offsets[None, :, None] * n[None, None, :]   # (M, K, 2)
    prof = cv2.remap(gray, grid[..., 0].astype(np.float32), grid[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    grad = (prof[:, :-2] - prof[:, 2:]) / (2.0 * (offsets[1] - offsets[0]))  # inside - outside
    kk = k - 2
    max_d = max(1, int(round(search_turn * length * (t[-1] - t[0]) / (offsets[1] - offsets[0]))))
    i0 = np.repeat(np.arange(kk), 2 * max_d + 1)
    i1 = i0 + np.tile(np.arange(-max_d, max_d + 1), kk)
    ok = (i1 >= 0) & (i1 < kk)
    i0, i1 = i0[ok], i1[ok]
    frac = (t - t[0]) / (t[-1] - t[0])
    idx = np.rint(i0[:, None] + (i1 - i0)[:, None] * frac[None, :]).astype(np.int64)   # (P, M)
    score = grad[np.arange(samples)[None, :], idx].mean(axis=1)
    best = int(score.argmax())
    if score[best] < min_edge:
        return None
    return base[0] + offsets[1 + i0[best]] * n, base[-1] + offsets[1 + i1[best]] * n


def refine_card_polygon(gray: np.ndarray, ordered: Sequence[Sequence[float]] | np.ndarray,
                        search: float = REFINE["search"], max_turn: float = REFINE["max_turn"],
                        min_edge: float = REFINE["min_edge"], samples: int = REFINE["samples"],
                        min_overlap: float = REFINE["min_overlap"]) -> np.ndarray:
    """Snap a card's (ordered) polygon to the card's own edges in the full-resolution ``gray``
    frame; returns the refined polygon in the same corner order (the input where no edge is found).

    Each side is searched on its own (:func:`_snap_side` over its middle 76 %, so the
    neighbouring sides do not count) up to ``search`` x the card's width in and out of the box,
    for the straight line with the largest mean brightness step from inside (the light card face)
    to outside, when that step is at least ``min_edge`` grey levels per pixel. Adjacent lines are
    intersected into the new corners, so a perspective-foreshortened card becomes a true
    quadrilateral. The result is rejected (input returned) when it is not convex, its area
    changed by more than 35 % or it overlaps the input by less than ``min_overlap`` (IoU): the
    edge found was then most likely another card's, lying over this one.

    >>> img = np.full((200, 200), 40, np.uint8); img[50:150, 60:130] = 230       # a 70 x 100 card
    >>> box = order_card_polygon([[63, 54], [133, 54], [133, 154], [63, 154]])   # a box 3-4 px off
    >>> true = np.array([[59.5, 49.5], [129.5, 49.5], [129.5, 149.5], [59.5, 149.5]])   # its outline
    >>> float(np.abs(box - true).max()), float(np.abs(refine_card_polygon(img, box) - true).max()) < 1.0
    (4.5, True)
    """
    p = as_polygon(ordered)
    if gray.ndim != 2:
        raise ValueError("refine_card_polygon: expects a single-channel (grey) frame")
    width = card_width(p)
    if width < 8.0:
        return p
    centre = p.mean(axis=0)
    reach = max(2.0, search * width)
    lines = []
    for i in range(4):
        a, b = p[i], p[(i + 1) % 4]
        found = _snap_side(gray, a, b, centre, reach, (0.12, 0.88), max_turn, min_edge, samples)
        lines.append((a, b - a) if found is None else (found[0], found[1] - found[0]))
    out = []
    for i in range(4):   # corner i lies on side i-1 and side i
        c = _intersect(*lines[i - 1], *lines[i])
        if c is None:
            return p
        out.append(c)
    q = np.array(out)
    area_p, area_q = _signed_area(p), _signed_area(q)
    if area_p == 0 or not 0.65 <= area_q / area_p <= 1.35:
        return p
    if not cv2.isContourConvex(q.astype(np.float32).reshape(-1, 1, 2)):
        return p
    if polygon_iou(p, q) < min_overlap:
        return p
    return q


def polygon_iou(a: Sequence[Sequence[float]] | np.ndarray, b: Sequence[Sequence[float]] | np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals (0 when either is degenerate).

    >>> round(polygon_iou([[0, 0], [2, 0], [2, 2], [0, 2]], [[1, 0], [3, 0], [3, 2], [1, 2]]), 3)
    0.333
    """
    pa = as_polygon(a).astype(np.float32)
    pb = as_polygon(b).astype(np.float32)
    area_a, area_b = abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb))
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    return float(inter) / (area_a + area_b - float(inter) + 1e-9)


def _variant_to_card(aspect: float, scale: float = 1.0, dx: float = 0.0, dy: float = 0.0,
                     turn_deg: float = 0.0) -> np.ndarray:
    """Affine map (3x3) in card units of a box variant: scaled by ``scale`` about the card's
    centre and turned by ``turn_deg`` (clockwise on screen) in true proportions (``aspect`` =
    height / width), then moved by (``dx``, ``dy``) card widths / heights."""
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    d = np.diag([1.0, aspect])
    m = np.linalg.inv(d) @ rot @ d * scale
    out = np.eye(3)
    out[:2, :2] = m
    out[:2, 2] = 0.5 + np.array([dx, dy]) - m @ np.array([0.5, 0.5])
    return out


def _aspect(p: np.ndarray) -> float:
    e = edge_lengths(p)
    return float((e[1] + e[3]) / max(e[0] + e[2], 1e-9))


def warp_polygon(ordered: Sequence[Sequence[float]] | np.ndarray, scale: float = 1.0,
                 dx: float = 0.0, dy: float = 0.0, turn_deg: float = 0.0) -> np.ndarray:
    """The card polygon scaled by ``scale`` about its centre, turned by ``turn_deg`` (clockwise
    on screen) and moved by (``dx``, ``dy``) card widths / heights, all in the card's own
    (perspective) frame; corner order kept. These are the box variants the detector's corner
    search reads (:func:`corner_crop_variants` cuts their crops directly).

    >>> warp_polygon([[0, 0], [10, 0], [10, 14], [0, 14]], 1.2, dx=0.1).round(3).tolist()
    [[0.0, -1.4], [12.0, -1.4], [12.0, 15.4], [0.0, 15.4]]
    >>> warp_polygon([[0, 0], [10, 0], [10, 14], [0, 14]], turn_deg=90).round(3).tolist()
    [[12.0, 2.0], [12.0, 12.0], [-2.0, 12.0], [-2.0, 2.0]]
    """
    p = as_polygon(ordered)
    unit = np.array([[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], np.float64)
    h = _card_to_image(p) @ _variant_to_card(_aspect(p), scale, dx, dy, turn_deg)
    q = unit @ h.T
    return q[:, :2] / q[:, 2:3]


def corner_crop_variants(image: np.ndarray, ordered: Sequence[Sequence[float]] | np.ndarray,
                         variants: Sequence[Sequence[float]], corner: int,
                         region: tuple[float, float, float, float] = CORNER_REGION,
                         size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """One index-corner crop (``corner`` 0: TL, 1: BR turned by 180 degrees) for each box variant
    ``(scale, dx, dy, turn_deg)`` of :func:`warp_polygon`, shape (len(variants), h, w, C): the
    same pixels as ``corner_crops(image, warp_polygon(ordered, *v))[corner]``, without building
    the polygons.

    >>> img = np.zeros((100, 100), np.uint8); img[10:20, 10:15] = 255      # a mark near TL
    >>> box = order_card_polygon([[10, 10], [60, 10], [60, 80], [10, 80]])
    >>> crops = corner_crop_variants(img, box, [(1.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 30.0)], 0)
    >>> bool(np.array_equal(crops[0], corner_crops(img, box)[0])), crops.shape
    (True, (2, 56, 36))
    """
    p = as_polygon(ordered)
    w, h = size
    h_card = _card_to_image(p)
    aspect = _aspect(p)
    r = _region_to_card(region, w, h, bool(corner))
    return np.stack([_warp(image, h_card @ _variant_to_card(aspect, *v) @ r, w, h) for v in variants])
