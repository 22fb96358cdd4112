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
                          rng: np.random.Generator | None = None,
                          jitter: dict | None = None) -> list[tuple[str, np.ndarray]]:
    """Classifier training crops for one card, cut exactly as the runtime cuts them.

    ``true_polygon`` is the card's outline TL, TR, BR, BL of the UPRIGHT card face (the dataset's
    ground truth). It becomes the min-area oriented box a detector would predict, is jittered
    (``rng`` given; ``jitter`` overrides :data:`JITTER`), ordered and cropped by the runtime
    functions. Returns two ``(which, crop)`` pairs, ``which`` being the TRUE corner of the card
    ("tl" or "br") that the crop shows, so the caller labels it with the card's name when that
    corner's index is visible and ``none`` otherwise.

    >>> img = np.zeros((200, 200, 3), np.uint8)
    >>> [w for w, _ in training_corner_crops(img, [[110, 20], [110, 90], [60, 90], [60, 20]])]
    ['tl', 'br']
    """
    true_p = as_polygon(true_polygon)
    obb = obb_from_polygon(true_p)
    if rng is not None:
        obb = jitter_obb(obb, rng, **{**JITTER, **(jitter or {})})
    ordered = order_card_polygon(polygon_from_obb(obb))
    crops = corner_crops(image, ordered)
    result = []
    for corner, crop in zip((ordered[0], ordered[2]), crops):
        d_tl = float(np.linalg.norm(corner - true_p[0]))
        d_br = float(np.linalg.norm(corner - true_p[2]))
        result.append(("tl" if d_tl <= d_br else "br", crop))
    return result
