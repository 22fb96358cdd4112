"""How blurred a card looks in the frame: the width of its outline's edge, in parts of its long
side.

A card is a light shape on a darker cloth (or a dark one on a light cloth), and its outline is a
step of brightness. A lens out of focus or a hand in motion spreads that step over a width; the
same spread blurs the index, and past a few hundredths of the card the club's lobes and the
spade's point, about that size, can no longer be told apart. Every reader then reads the same
wrong suit, and surely (``models/MODEL_CARD.md``, "Fiftieth session": the sample clip at a disc of
3 % of a card paid a hand to the wrong seat). The ``sure`` thresholds were chosen on rendered
frames that hold such blur only rarely, so they say nothing of a camera that blurred.

:func:`card_blur` measures the spread where the outline is, not in the card's texture: across
each side of the outline, at points along its middle, the brightness step's height over its
steepest slope is the edge's width (a Gaussian blur of sigma s gives 2.5 s; a step on the pixel
grid about :data:`PIXEL_EDGE`). Of the four sides, the second widest counts: a motion blurs two
opposite sides, a lens all four, and one side may lie against another card or the frame's edge.
A sensor's noise and a cloth's texture, which fooled a blur measure over the index corner
(``MODEL_CARD.md``, "Twenty-first session"), barely move it: the profile is averaged along the
side, and noise can only steepen a slope.

>>> img = np.full((200, 160), 40, np.float32); img[30:170, 40:140] = 220      # a card 140 px long
>>> outline = [[40, 30], [140, 30], [140, 170], [40, 170]]
>>> round(card_blur(img, outline), 3)
0.0
>>> soft = cv2.GaussianBlur(img, (0, 0), 2.0)          # edges of 5 px: 3.6 % of the card
>>> 0.030 < card_blur(soft, outline) < 0.040
True
>>> card_blur(np.full((200, 160), 40, np.float32), outline) is None      # no step: not measured
True
"""
from __future__ import annotations

from typing import Optional, Sequence

import cv2
import numpy as np

__all__ = ["BLUR_LIMIT", "PIXEL_EDGE", "card_blur", "card_blurs", "side_widths"]

#: A card whose outline is spread over more than this part of its long side is never ``sure``:
#: the club's three lobes and the spade's point are details of about 3-4 % of a card's length,
#: and an edge spread that wide spreads them over their own size. On the 296 real photos every
#: card named measures 0.024 at most, on the sample clip as rendered 0.011 at most; the clip under a
#: disc of 3 % of a card (where its clubs became sure spades) 0.039 and more, 99 % of its cards over
#: this (``models/MODEL_CARD.md``, "Fifty-second session").
BLUR_LIMIT = 0.04

#: The width (pixels) :func:`side_widths` gives a sharp step on the pixel grid: the part of a
#: measured width that is the grid's, not the camera's (taken off in quadrature).
PIXEL_EDGE = 1.0

#: Least brightness step (grey levels) across a side for it to be measured: a white card on a white
#: cloth, or a side lying on another card, shows none.
MIN_STEP = 25.0

#: Where each side is measured: points along its middle half, each profile averaged over a strip
#: this many pixels wide along the side, sampled at this many points across it, reaching this part of
#: the card's long side inside and outside the outline (5 pixels at least: the outline may be off by
#: a few), and measured where at least this many of its profiles step by :data:`MIN_STEP`.
ALONG, STRIP, SAMPLES, REACH, LEAST = 9, 5, 41, 0.07, 3

#: The most profiles read in one ``cv2.remap`` (its maps must have fewer than 32,767 rows).
ROWS = 32_000

#: Grey from BGR, as OpenCV weighs the channels.
_GREY = np.array([0.114, 0.587, 0.299], np.float32)


def side_widths(image: np.ndarray, outlines: Sequence) -> np.ndarray:
    """The edge's width (pixels) at each side of each outline (a card's four corners in turn round
    it, either way) in ``image`` (BGR or grey): ``(n, 4)``, per side the median over its profiles
    of the brightness step's height over its steepest slope; NaN for a side with fewer than
    :data:`LEAST` profiles that step by :data:`MIN_STEP` or more, and for outlines under 8 pixels.
    All cards of a frame are measured at once (one ``cv2.remap`` for up to 177 cards).

    >>> frame = np.full((300, 300), 30, np.uint8); frame[100:240, 100:200] = 230
    >>> side_widths(frame, [[[100, 100], [200, 100], [200, 240], [100, 240]]] * 400).shape   # in two parts
    (400, 4)
    """
    p = np.asarray(outlines, dtype=np.float64).reshape(-1, 4, 2)
    n = len(p)
    if n == 0:
        return np.zeros((0, 4))
    q = p[:, [1, 2, 3, 0]]                                   # each side runs from p to q
    sides = np.linalg.norm(q - p, axis=2)                    # (n, 4)
    long = sides.max(axis=1)
    usable = (long >= 8.0) & (sides.min(axis=1) > 0.0)
    sides = np.where(sides > 0.0, sides, 1.0)
    reach = np.maximum(5.0, REACH * long)                    # (n,)
    across = np.linspace(-1.0, 1.0, SAMPLES)[None, :] * reach[:, None]         # (n, SAMPLES)
    t = (q - p) / sides[..., None]
    normal = np.stack([-t[..., 1], t[..., 0]], axis=2)
    inward = np.sum(((p + q) / 2.0 - p.mean(axis=1, keepdims=True)) * normal, axis=2) < 0
    normal *= np.where(inward, -1.0, 1.0)[..., None]         # outwards
    at = (np.linspace(0.25, 0.75, ALONG)[None, None, :, None] * sides[..., None, None]
          + (np.arange(STRIP) - STRIP // 2)[None, None, None, :])              # (n, 4, ALONG, STRIP)
    base = (p[:, :, None, None, :] + at[..., None] * t[:, :, None, None, :]).astype(np.float32)
    off = (across[:, None, :, None] * normal[:, :, None, :]).astype(np.float32)          # (n, 4, SAMPLES, 2)
    maps = (base[:, :, :, :, None, :] + off[:, :, None, None, :, :]).reshape(-1, SAMPLES, 2)
    # OpenCV's remap takes maps of fewer than 32,767 rows (182 cards): a frame of more, in parts
    got = np.concatenate([cv2.remap(image, maps[i:i + ROWS], None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                          for i in range(0, len(maps), ROWS)])
    grey = got.astype(np.float32) @ _GREY if got.ndim == 3 else got.astype(np.float32)
    prof = grey.reshape(n, 4, ALONG, STRIP, SAMPLES).mean(axis=3)              # (n, 4, ALONG, SAMPLES)
    k = SAMPLES // 5
    height = np.abs(np.median(prof[..., :k], axis=3) - np.median(prof[..., -k:], axis=3))
    step = (2.0 * reach / (SAMPLES - 1))[:, None, None]
    slope = np.abs(np.diff(prof, axis=3)).max(axis=3) / step
    ok = (height >= MIN_STEP) & (slope > 0.0)
    width = np.sort(np.where(ok, height / np.where(slope > 0.0, slope, 1.0), np.inf), axis=2)
    count = ok.sum(axis=2)                                   # (n, 4)
    lo = np.take_along_axis(width, np.maximum(count - 1, 0)[..., None] // 2, axis=2)[..., 0]
    hi = np.take_along_axis(width, (count // 2)[..., None], axis=2)[..., 0]
    return np.where((count >= LEAST) & usable[:, None], (lo + hi) / 2.0, np.nan)


def card_blurs(image: np.ndarray, outlines: Sequence) -> list[Optional[float]]:
    """How blurred each card with these ``outlines`` looks in ``image`` (BGR or grey): the second
    widest of its sides' edges (:func:`side_widths`), less the pixel grid's own
    (:data:`PIXEL_EDGE`, in quadrature), over the card's long side. None where fewer than two sides
    could be measured.

    >>> frame = np.full((400, 600, 3), 30, np.uint8); frame[100:240, 300:400] = 230
    >>> [round(b, 3) for b in card_blurs(frame, [[[300, 100], [400, 100], [400, 240], [300, 240]]])]
    [0.0]
    """
    p = np.asarray(outlines, dtype=np.float64).reshape(-1, 4, 2)
    widths = side_widths(image, p)
    long = np.linalg.norm(p[:, [1, 2, 3, 0]] - p, axis=2).max(axis=1) if len(p) else np.zeros(0)
    out: list[Optional[float]] = []
    for w, size in zip(widths, long):
        w = np.sort(w[np.isfinite(w)])
        out.append(None if len(w) < 2 else float(np.sqrt(max(w[-2] ** 2 - PIXEL_EDGE ** 2, 0.0))) / float(size))
    return out


def card_blur(image: np.ndarray, outline: Sequence[Sequence[float]]) -> Optional[float]:
    """:func:`card_blurs` of one card."""
    return card_blurs(image, [outline])[0]
