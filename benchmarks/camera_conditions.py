"""A camera's conditions laid over the real photos (``eval_real.py --camera``): the light of a dim
room or a warm lamp, a hand or card in motion, a lens out of focus, a sensor's noise and a
stream's JPEG. The photos show one deck in good light; a real table's camera sees it worse. The
yardstick reads the same photos under each condition, so that what the reader loses, and whether
any wrong name becomes sure, is measured on real cards rather than on rendered ones.

Blur is given in parts of the photo's own card size (the median long side of its labelled cards),
so that it means the same on a 500 px phone photo and a 1920 px table view; light, noise and JPEG
in the photo's own levels. Each photo draws its random parts (the motion's direction, the noise)
from its own name, so a run repeats exactly.

>>> parse_condition("motion"), parse_condition("jpeg:35")
(Condition(name='motion', amount=0.05), Condition(name='jpeg', amount=35.0))
>>> img = np.full((60, 40, 3), 200, np.uint8); img[20:40, 10:30] = 20
>>> out = apply(img, [parse_condition("dim:0.5")], card_long=20.0, seed=1)
>>> int(out[0, 0, 0]), int(out[30, 20, 0])
(100, 10)
>>> dot = np.zeros((41, 41, 3), np.uint8); dot[20, 20] = 255        # a point of light, moving
>>> int((apply(dot, [parse_condition("motion:0.25")], card_long=40.0, seed=1)[..., 0] > 0).sum()) >= 9
True
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

#: each condition's default amount, what the amount means, and its largest amount (above 0)
CONDITIONS: dict[str, tuple[float, str, float]] = {
    "dim": (0.3, "the light scaled by this (a dim room or an exposure too short)", 1.0),
    "warm": (1.0, "a tungsten lamp's white balance: blue down by 45 % and green by 15 %, red up by 10 %, "
                  "at 1; in between at less", 1.0),
    "motion": (0.05, "a straight blur this part of a card's long side long, in a direction of the photo's own", 1.0),
    "defocus": (0.015, "a lens out of focus: a disc this part of a card's long side in radius", 0.5),
    "noise": (12.0, "a sensor's noise: its standard deviation in 8-bit levels, brighter pixels noisier", 100.0),
    "jpeg": (20.0, "saved as JPEG at this quality (1 to 100)", 100.0),
}
#: the order a camera applies them in: the lens and the motion, the light, the sensor, the stream
ORDER = ("defocus", "motion", "dim", "warm", "noise", "jpeg")


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition and its amount (:data:`CONDITIONS`)."""

    name: str
    amount: float


def parse_condition(text: str) -> Condition:
    """``NAME`` or ``NAME:AMOUNT`` (:data:`CONDITIONS`); a clear ``ValueError`` otherwise.

    >>> parse_condition("fog")
    Traceback (most recent call last):
    ...
    ValueError: unknown camera condition 'fog': one of dim, warm, motion, defocus, noise, jpeg (NAME or NAME:AMOUNT)
    >>> parse_condition("dim:2")
    Traceback (most recent call last):
    ...
    ValueError: dim wants an amount above 0 and at most 1, not 2.0
    """
    name, _, amount = text.strip().partition(":")
    name = name.strip().lower()
    if name not in CONDITIONS:
        raise ValueError(f"unknown camera condition {text!r}: one of {', '.join(CONDITIONS)} (NAME or NAME:AMOUNT)")
    try:
        value = float(amount) if amount.strip() else CONDITIONS[name][0]
    except ValueError:
        raise ValueError(f"{name} wants a number after the colon, not {amount!r}") from None
    most = CONDITIONS[name][2]
    if not (math.isfinite(value) and 0.0 < value <= most):
        raise ValueError(f"{name} wants an amount above 0 and at most {most:g}, not {value}")
    return Condition(name, value)


def _disc(radius: float) -> np.ndarray:
    k = int(math.ceil(radius)) * 2 + 1
    ker = np.zeros((k, k), np.float32)
    cv2.circle(ker, (k // 2, k // 2), max(int(round(radius)), 1), 1.0, -1, cv2.LINE_AA)
    return ker / ker.sum()


def _line(length: float, angle: float) -> np.ndarray:
    k = max(int(round(length)), 1) | 1
    ker = np.zeros((k, k), np.float32)
    c = (k - 1) / 2
    dx, dy = math.cos(angle) * c, math.sin(angle) * c
    cv2.line(ker, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    return ker / max(float(ker.sum()), 1e-6)


def apply(image: np.ndarray, conditions: list[Condition], card_long: float, seed: int) -> np.ndarray:
    """``image`` (BGR uint8) as a camera under ``conditions`` would give it, in :data:`ORDER`;
    ``card_long``: the long side of the photo's cards in its pixels (for the blurs)."""
    if not conditions:
        return image
    rng = np.random.default_rng(seed)
    angle = float(rng.uniform(0.0, math.pi))
    img = image.astype(np.float32)
    jpeg = None
    for c in sorted(conditions, key=lambda c: ORDER.index(c.name)):
        if c.name == "defocus":
            img = cv2.filter2D(img, -1, _disc(c.amount * card_long))
        elif c.name == "motion":
            img = cv2.filter2D(img, -1, _line(c.amount * card_long, angle))
        elif c.name == "dim":
            img = img * np.float32(c.amount)
        elif c.name == "warm":
            img = img * np.float32([1.0 - 0.45 * c.amount, 1.0 - 0.15 * c.amount, 1.0 + 0.1 * c.amount])
        elif c.name == "noise":
            shot = np.sqrt(np.clip(img, 1.0, 255.0) / 128.0)
            img = img + rng.normal(0.0, c.amount, img.shape).astype(np.float32) * shot
        elif c.name == "jpeg":
            jpeg = int(round(c.amount))
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, max(jpeg, 1)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def photo_seed(name: str) -> int:
    """A photo's own seed, from its name (the same on every run and machine).

    >>> photo_seed("IMG_2396.JPG") == photo_seed("IMG_2396.JPG") != photo_seed("IMG_2397.JPG")
    True
    """
    return zlib.crc32(name.encode("utf-8"))
