"""Drawing primitives of the synthetic generator: glyph masks (rank text in TTF, Hershey or the
project's own stroke font), suit pips drawn as polygons, and compositing helpers.

Every shape is first drawn as a float32 coverage mask (0..1) cropped tightly to its ink, then
fitted into a target box; colours are applied only when compositing. Masks are drawn 4x
oversized and reduced with area averaging, which gives clean anti-aliased edges.

>>> m = glyph_mask("Q", FontSpec("stroke", "plain", 0.12), 40)
>>> m.shape[0], m.dtype.name, bool(m.max() > 0.9)
(40, 'float32', True)
>>> pip_mask(3, "classic", 30).shape[0] <= 30      # spades
True
"""
from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: DejaVu (Debian's fonts-dejavu-core); DEALER_ASSIST_FONT_DIR points elsewhere (a machine without it).
FONT_DIR = os.environ.get("DEALER_ASSIST_FONT_DIR", "/usr/share/fonts/truetype/dejavu")

#: Hershey faces by name (OpenCV's built-in vector fonts).
HERSHEY = {
    "simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "duplex": cv2.FONT_HERSHEY_DUPLEX,
    "complex": cv2.FONT_HERSHEY_COMPLEX,
    "triplex": cv2.FONT_HERSHEY_TRIPLEX,
    "plain": cv2.FONT_HERSHEY_PLAIN,
    "script": cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
}

SS = 4  # supersampling factor for masks


@dataclass(frozen=True, slots=True)
class FontSpec:
    """How rank text is drawn: ``kind`` is ``ttf`` (``name`` a DejaVu file), ``hershey``
    (``name`` a key of :data:`HERSHEY`) or ``stroke`` (the project's own polyline font;
    ``name`` a variant ``plain`` / ``round`` / ``square``). ``weight`` is the stroke width as a
    fraction of the glyph height (Hershey and stroke fonts); ``italic`` slants the glyph;
    ``stretch`` and ``bold`` reshape any face (so one font file yields many index looks)."""

    kind: str
    name: str
    weight: float = 0.1
    italic: bool = False
    stretch: float = 1.0   # width scale of the glyphs (condensed < 1 < extended)
    bold: float = 0.0      # ink grown (> 0) or thinned (< 0), as a fraction of the glyph height
    warp: int = 0          # a seeded smooth distortion of every glyph's shape (:func:`warp_glyph`); 0: none
    warp_amp: float = 1.0  # the distortion's amplitude, times :func:`warp_glyph`'s (``bend-N``: less)


def _crop(mask: np.ndarray) -> np.ndarray:
    ink = mask > 0.02
    rows, cols = np.flatnonzero(ink.any(1)), np.flatnonzero(ink.any(0))
    if len(cols) == 0:
        return mask[:1, :1]
    return mask[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def _reduce(mask: np.ndarray, w: int, h: int) -> np.ndarray:
    return cv2.resize(mask, (max(1, w), max(1, h)), interpolation=cv2.INTER_AREA)


def _slant(mask: np.ndarray, k: float = 0.2) -> np.ndarray:
    h, w = mask.shape
    pad = int(abs(k) * h) + 2
    m = np.array([[1, -k, k * h + 1], [0, 1, 0]], np.float32)
    return cv2.warpAffine(mask, m, (w + pad, h), flags=cv2.INTER_LINEAR)


def warp_glyph(mask: np.ndarray, seed: int, amp: float = 1.0) -> np.ndarray:
    """``mask`` (a glyph's ink, ink bounds) bent by a smooth field that ``seed`` alone chooses: a
    sum of three plane waves across the glyph in each direction, 0.4 to 1.6 cycles a glyph height,
    moving ink by 2.5-6 % of the glyph's height (times ``amp``). The field is laid in units of the glyph's height,
    so every glyph of one deck is bent alike, as a typeface's are: the ``~warp-N`` of a training
    deck (:func:`dealer_assist.vision.synth.styles.deck_style`) makes typefaces no font file has.

    >>> import numpy as np
    >>> m = np.zeros((40, 24), np.float32); m[4:36, 8:16] = 1
    >>> bent = warp_glyph(m, 7)
    >>> bent.shape[0] > 40 and abs(float(bent.sum()) - float(m.sum())) < 0.1 * float(m.sum())
    True
    >>> bool((warp_glyph(m, 7) == bent).all()), bool((warp_glyph(m, 8) == bent).all())
    (True, False)
    """
    rng = np.random.default_rng([int(seed), 0x57A9])
    h = mask.shape[0]
    pad = int(0.1 * h) + 2
    m = np.pad(mask, pad)
    yy, xx = np.mgrid[0:m.shape[0], 0:m.shape[1]].astype(np.float32)
    u, v = (xx - pad) / h, (yy - pad) / h
    amp = float(rng.uniform(0.025, 0.06)) * h * amp
    field = []
    for _axis in range(2):
        d = np.zeros_like(u)
        for _wave in range(3):
            fu, fv = rng.uniform(0.4, 1.6, 2) * rng.choice([-1.0, 1.0], 2)
            d += float(rng.normal()) * np.sin(2 * np.pi * (fu * u + fv * v) + float(rng.uniform(0, 2 * np.pi)))
        field.append(d * (amp / np.sqrt(3.0)))
    mx, my = (xx + field[0]).astype(np.float32), (yy + field[1]).astype(np.float32)
    return cv2.remap(m.astype(np.float32), mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


# --- the project's own stroke font: polylines in a unit box (x right, y down) -------------

def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 18) -> list:
    return [(cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in np.linspace(a0, a1, n)]


def _rot(strokes: list) -> list:
    return [[(1 - x, 1 - y) for x, y in s] for s in strokes]


_SIX = [_arc(0.5, 0.70, 0.38, 0.30, 0, 360, 28), _arc(0.56, 0.70, 0.44, 0.68, 290, 180, 16)]

STROKES: dict[str, list] = {
    "A": [[(0.0, 1.0), (0.5, 0.0), (1.0, 1.0)], [(0.22, 0.64), (0.78, 0.64)]],
    "K": [[(0.08, 0.0), (0.08, 1.0)], [(0.92, 0.0), (0.08, 0.62)], [(0.36, 0.42), (0.95, 1.0)]],
    "Q": [_arc(0.5, 0.48, 0.44, 0.48, 0, 360, 32), [(0.58, 0.70), (0.98, 1.04)]],
    "J": [[(0.78, 0.0), (0.78, 0.70)] + _arc(0.47, 0.70, 0.31, 0.30, 0, 180, 14)[1:]],
    "O": [_arc(0.5, 0.5, 0.45, 0.5, 0, 360, 32)],
    "E": [[(0.9, 0.0), (0.1, 0.0), (0.1, 1.0), (0.9, 1.0)], [(0.1, 0.5), (0.72, 0.5)]],
    "R": [[(0.1, 1.0), (0.1, 0.0), (0.55, 0.0)] + _arc(0.55, 0.26, 0.33, 0.26, -90, 90, 14)[1:]
          + [(0.1, 0.52)], [(0.45, 0.52), (0.92, 1.0)]],
    "0": [_arc(0.5, 0.5, 0.42, 0.5, 0, 360, 32)],
    "1": [[(0.2, 0.22), (0.58, 0.0), (0.58, 1.0)]],
    "2": [_arc(0.5, 0.3, 0.4, 0.3, 185, 360, 16) + [(0.08, 1.0), (0.95, 1.0)]],
    "3": [_arc(0.5, 0.26, 0.38, 0.26, 200, 450, 18), _arc(0.5, 0.75, 0.44, 0.25, 270, 520, 20)],
    "4": [[(0.72, 1.0), (0.72, 0.0), (0.04, 0.70), (0.98, 0.70)]],
    "5": [[(0.86, 0.0), (0.2, 0.0), (0.14, 0.46)] + _arc(0.5, 0.68, 0.41, 0.32, -148, 162, 22)],
    "6": _SIX,
    "7": [[(0.04, 0.0), (0.96, 0.0), (0.34, 1.0)]],
    "8": [_arc(0.5, 0.25, 0.34, 0.25, 0, 360, 24), _arc(0.5, 0.74, 0.43, 0.26, 0, 360, 24)],
    "9": _rot(_SIX),
}


def _stroke_text_mask(text: str, variant: str, weight: float, height: int) -> np.ndarray:
    h = height * SS
    cw = {"1": 0.55}.get
    widths = [h * (cw(ch) or 0.62) for ch in text]
    gap = h * 0.14
    th = max(1, int(round(weight * h)))
    pad = th + 2
    total_w = int(sum(widths) + gap * (len(text) - 1)) + 2 * pad
    canvas = np.zeros((h + 2 * pad, total_w), np.uint8)
    x0 = pad
    for ch, w in zip(text, widths):
        for stroke in STROKES[ch]:
            pts = np.array([[x0 + x * w, pad + y * h] for x, y in stroke], np.float64)
            if variant == "square" and len(pts) > 4:  # curves become a few straight strokes
                pts = cv2.approxPolyDP(pts.astype(np.float32), 0.07 * h, False).reshape(-1, 2)
                pts = pts.astype(np.float64)
            ipts = np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(canvas, [ipts], False, 255, th, cv2.LINE_AA, 4)
            if variant == "round":
                for p in pts[[0, -1]]:
                    cv2.circle(canvas, (int(p[0] * 16), int(p[1] * 16)), int(th * 8), 255, -1,
                               cv2.LINE_AA, 4)
        x0 += w + gap
    return canvas.astype(np.float32) / 255.0


def _ttf_text_mask(text: str, name: str, height: int) -> np.ndarray:
    size = max(8, height * SS)
    font = _ttf(name, size)
    l, t, r, b = font.getbbox(text)
    img = Image.new("L", (r - l + 8, b - t + 8), 0)
    ImageDraw.Draw(img).text((4 - l, 4 - t), text, fill=255, font=font)
    return np.asarray(img, np.float32) / 255.0


@functools.lru_cache(maxsize=64)
def _ttf(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(os.path.join(FONT_DIR, name), size)


def _hershey_text_mask(text: str, name: str, weight: float, height: int) -> np.ndarray:
    face = HERSHEY[name]
    scale = height * SS / 22.0
    th = max(1, int(round(weight * height * SS)))
    (w, h), base = cv2.getTextSize(text, face, scale, th)
    canvas = np.zeros((h + base + 4 * th + 8, w + 4 * th + 8), np.uint8)
    cv2.putText(canvas, text, (2 * th + 4, h + 2 * th + 4), face, scale, 255, th, cv2.LINE_AA)
    return canvas.astype(np.float32) / 255.0


@functools.lru_cache(maxsize=2048)
def glyph_mask(text: str, font: FontSpec, height: int, max_width: int | None = None) -> np.ndarray:
    """Coverage mask of ``text`` exactly ``height`` px tall (ink bounds), at most ``max_width``
    wide (squeezed horizontally when needed, as condensed card indices are)."""
    if font.kind == "ttf":
        big = _ttf_text_mask(text, font.name, height)
    elif font.kind == "hershey":
        big = _hershey_text_mask(text, font.name, font.weight, height)
    elif font.kind == "stroke":
        big = _stroke_text_mask(text, font.name, font.weight, height)
    else:
        raise ValueError(f"unknown font kind {font.kind!r}")
    if font.italic:
        big = _slant(big)
    if font.warp:
        big = warp_glyph(_crop(big), font.warp, font.warp_amp)
    big = _crop(big)
    if font.bold:
        r = max(1, int(round(abs(font.bold) * big.shape[0])))
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        if font.bold > 0:
            big = cv2.dilate(np.pad(big, r), k)
        else:
            big = cv2.erode(big, k)
        big = _crop(big)
    bh, bw = big.shape
    w = max(1, int(round(bw * height / bh * font.stretch)))
    if max_width is not None and w > max_width:
        w = max_width
    out = np.clip(_reduce(big, w, height), 0.0, 1.0)
    out.setflags(write=False)
    return out


# --- suit pips ------------------------------------------------------------------------------

def _heart_pts(p: float, n: int = 80) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    s = np.sin(t)
    x = np.sign(s) * np.abs(s) ** p * 16
    y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    return np.stack([x, y], 1)


def _norm(pts: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    mn, mx = pts.min(0), pts.max(0)
    u = (pts - mn) / np.maximum(mx - mn, 1e-9)
    return np.stack([x0 + u[:, 0] * (x1 - x0), y0 + u[:, 1] * (y1 - y0)], 1)


def _diamond(half_width: float, bulge: float) -> np.ndarray:
    """A diamond's outline in the unit box: four sides bowed out by ``bulge`` (in by a negative one)."""
    corners = [(0.5, 0.0), (0.5 + half_width, 0.5), (0.5, 1.0), (0.5 - half_width, 0.5)]
    pts = []
    for i in range(4):
        a, b = np.array(corners[i]), np.array(corners[(i + 1) % 4])
        nrm = np.array([-(b - a)[1], (b - a)[0]])
        nrm = nrm / np.linalg.norm(nrm)
        for t in np.linspace(0, 1, 12, endpoint=False):
            pts.append(a + (b - a) * t - nrm * bulge * math.sin(math.pi * t))
    return np.array(pts)


def _var_shapes(suit: int, seed: int) -> tuple[list, list]:
    """A seeded pip drawing (``var-N``): each number draws its own proportions - heart roundness
    and height, spade stem width, flare and length, club lobe size, spacing and height, diamond
    width and bulge - and one in three is drawn low-poly (outline simplified to straight facets,
    club lobes as 5- to 12-gons), as geometric deck designs do. Training decks use these so that
    the corner classifier learns what makes a suit, not four particular drawings."""
    import random

    rnd = random.Random(seed * 7919 + 17)
    p = rnd.uniform(1.8, 4.6)                       # heart/spade roundness
    body = rnd.uniform(0.72, 0.9)                   # spade body height
    sw, flare = rnd.uniform(0.07, 0.22), rnd.uniform(0.0, 0.08)
    stem_top = rnd.uniform(0.42, 0.66)
    lobe_r, spread, lobe_y = rnd.uniform(0.17, 0.27), rnd.uniform(0.2, 0.3), rnd.uniform(0.46, 0.58)
    dw, bulge = rnd.uniform(0.27, 0.45), rnd.uniform(-0.05, 0.12)
    low_poly = rnd.random() < 0.33
    facets = rnd.randint(5, 12)
    eps = rnd.uniform(0.012, 0.045)                 # facet size, fraction of the pip

    def simplify(pts: np.ndarray) -> np.ndarray:
        if not low_poly:
            return pts
        q = cv2.approxPolyDP(pts.astype(np.float32).reshape(-1, 1, 2), eps, True).reshape(-1, 2)
        return q if len(q) >= 3 else pts

    polys: list = []
    circles: list = []
    if suit == 2:
        polys.append(simplify(_norm(_heart_pts(p), 0, 0, 1, rnd.uniform(0.82, 1.0))))
    elif suit == 1:
        polys.append(_diamond(dw, bulge))
    elif suit == 3:
        h = _heart_pts(p)
        h[:, 1] = -h[:, 1]
        polys.append(simplify(_norm(h, 0, 0, 1, body)))
        polys.append(np.array([(0.5 - sw * 0.35, stem_top), (0.5 + sw * 0.35, stem_top),
                               (0.5 + sw + flare, 1.0), (0.5 - sw - flare, 1.0)]))
    else:
        for cx, cy in ((0.5, lobe_r), (0.5 - spread, lobe_y), (0.5 + spread, lobe_y)):
            if low_poly:
                a0 = rnd.uniform(0, math.pi)
                polys.append(np.array([(cx + lobe_r * math.cos(a), cy + lobe_r * math.sin(a))
                                       for a in np.linspace(a0, a0 + 2 * math.pi, facets, endpoint=False)]))
            else:
                circles.append((cx, cy, lobe_r))
        polys.append(np.array([(0.5, lobe_r), (0.5 + spread, lobe_y), (0.5 - spread, lobe_y)]))  # the middle
        polys.append(np.array([(0.5 - sw * 0.3, lobe_r), (0.5 + sw * 0.3, lobe_r), (0.5 + sw + flare, 1.0),
                               (0.5 - sw - flare, 1.0)]))
    return polys, circles


def _blob_shapes(suit: int) -> tuple[list, list]:
    """``blob`` pips (the ``unseen`` validation decks only): round, soft suits, as some novelty
    and souvenir decks draw them. The spade is a near-round body with a short point on a stalk,
    the club three big lobes grown into one round head on a stalk, so that small black cards of
    such a deck are as hard to tell apart as the held-out decks' are."""
    polys: list = []
    circles: list = []
    if suit == 2:
        polys.append(_norm(_heart_pts(1.7), 0, 0, 1, 0.95))
    elif suit == 1:
        polys.append(_diamond(0.4, 0.16))
    elif suit == 3:
        h = _heart_pts(1.6)
        h[:, 1] = -h[:, 1]
        polys.append(_norm(h, 0, 0, 1, 0.78))
        polys.append(np.array([(0.5, 0.6), (0.56, 0.78), (0.62, 1.0), (0.38, 1.0), (0.44, 0.78)]))
    else:
        for cx, cy in ((0.5, 0.3), (0.33, 0.5), (0.67, 0.5)):
            circles.append((cx, cy, 0.27))
        polys.append(np.array([(0.5, 0.62), (0.56, 0.78), (0.62, 1.0), (0.38, 1.0), (0.44, 0.78)]))
    return polys, circles


#: Folders searched for the typeface of a ``glyph-STEM`` pip drawing (Debian's fonts-urw-base35 and
#: fonts-noto-cjk); ``DEALER_ASSIST_GLYPH_FONT_DIRS`` (folders joined by ``os.pathsep``) replaces them
GLYPH_FONT_DIRS = ("/usr/share/fonts/opentype/urw-base35", "/usr/share/fonts/opentype/noto")


def glyph_font_path(stem: str) -> str | None:
    """The file of typeface ``stem`` (``C059-Roman``, ``NotoSansCJK-Bold``) whose suit characters a
    ``glyph-STEM`` pip drawing uses; None where this machine does not have it."""
    dirs = os.environ.get("DEALER_ASSIST_GLYPH_FONT_DIRS")
    for d in (tuple(x for x in dirs.split(os.pathsep) if x) if dirs is not None else GLYPH_FONT_DIRS):
        for ext in (".otf", ".ttf", ".ttc"):
            path = os.path.join(d, stem + ext)
            if os.path.isfile(path):
                return path
    return None


def _poly_shapes(suit: int, shape: str) -> tuple[list, list]:
    """Polygons and circles (cx, cy, r) in a unit box for a suit (0 c, 1 d, 2 h, 3 s)."""
    if shape.startswith("var-"):
        return _var_shapes(suit, int(shape[4:]))
    if shape == "blob":
        return _blob_shapes(suit)
    polys: list = []
    circles: list = []
    fat = {"classic": 3.0, "fat": 2.2, "slim": 3.8, "angular": 3.0}.get(shape, 3.0)
    nh = 9 if shape == "angular" else 80
    if suit == 2:  # heart
        polys.append(_norm(_heart_pts(fat, nh), 0, 0, 1, 0.92))
    elif suit == 1:  # diamond
        k = {"classic": 0.06, "fat": 0.0, "slim": 0.1, "angular": 0.0}.get(shape, 0.05)
        wid = {"fat": 0.42, "slim": 0.3}.get(shape, 0.36)
        polys.append(_diamond(wid, k))
    elif suit == 3:  # spade: inverted heart plus a stem
        h = _heart_pts(fat, nh)
        h[:, 1] = -h[:, 1]
        polys.append(_norm(h, 0, 0, 1, 0.8))
        sw = {"fat": 0.2, "slim": 0.11}.get(shape, 0.15)
        polys.append(np.array([(0.5, 0.55), (0.5 + sw, 1.0), (0.5 - sw, 1.0)]))
    else:  # club: three lobes plus a stem
        r = {"fat": 0.25, "slim": 0.2}.get(shape, 0.225)
        for cx, cy in ((0.5, r), (0.5 - 0.26, 0.52), (0.5 + 0.26, 0.52)):
            if shape == "angular":
                polys.append(np.array([(cx + r * math.cos(a), cy + r * math.sin(a))
                                       for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)]))
            else:
                circles.append((cx, cy, r))
        polys.append(np.array([(0.5, 0.4), (0.56, 0.62), (0.64, 1.0), (0.36, 1.0), (0.44, 0.62)]))
    return polys, circles


@functools.lru_cache(maxsize=512)
def pip_mask(suit: int, shape: str, height: int) -> np.ndarray:
    """Coverage mask of one suit pip ``height`` px tall; ``suit`` is ``Suit`` value
    (0 clubs, 1 diamonds, 2 hearts, 3 spades). ``shape``: classic, fat, slim, angular, blob (drawn
    polygons), ``var-N`` (a seeded drawing, :func:`_var_shapes`), glyph (the DejaVu suit
    characters) or ``glyph-STEM`` (the suit characters of typeface STEM: :func:`glyph_font_path`)."""
    height = max(3, int(height))
    if shape == "glyph":
        big = _ttf_text_mask("♣♦♥♠"[suit], "DejaVuSans.ttf", height)
    elif shape.startswith("glyph-"):
        path = glyph_font_path(shape[6:])
        if path is None:
            raise FileNotFoundError(f"pips {shape}: no typeface {shape[6:]} in {GLYPH_FONT_DIRS}")
        big = _ttf_text_mask("♣♦♥♠"[suit], path, height)
    else:
        n = height * SS * 2
        canvas = np.zeros((n + 8, n + 8), np.uint8)
        polys, circles = _poly_shapes(suit, shape)
        for p in polys:
            ip = np.round((p * n + 4) * 16).astype(np.int32).reshape(-1, 1, 2)
            cv2.fillPoly(canvas, [ip], 255, cv2.LINE_AA, 4)
        for cx, cy, r in circles:
            cv2.circle(canvas, (int((cx * n + 4) * 16), int((cy * n + 4) * 16)), int(r * n * 16),
                       255, -1, cv2.LINE_AA, 4)
        big = canvas.astype(np.float32) / 255.0
    big = _crop(big)
    bh, bw = big.shape
    out = _reduce(big, max(1, int(round(bw * height / bh))), height)
    out.setflags(write=False)
    return out


# --- compositing ----------------------------------------------------------------------------

def paste(canvas: np.ndarray, mask: np.ndarray, x: float, y: float, color, rotate180: bool = False,
          alpha: float = 1.0) -> None:
    """Blend ``color`` into ``canvas`` (uint8, H x W x 3 or 4) through ``mask`` with its
    top-left corner at (x, y); clipped to the canvas. With 4 channels, alpha is raised too."""
    if rotate180:
        mask = mask[::-1, ::-1]
    h, w = mask.shape
    x, y = int(round(x)), int(round(y))
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x0 >= x1 or y0 >= y1:
        return
    m = mask[y0 - y:y1 - y, x0 - x:x1 - x][..., None] * alpha
    region = canvas[y0:y1, x0:x1, :3].astype(np.float32)
    region += (np.asarray(color, np.float32)[:3] - region) * m
    canvas[y0:y1, x0:x1, :3] = np.clip(region + 0.5, 0, 255).astype(np.uint8)
    if canvas.shape[2] == 4:
        a = canvas[y0:y1, x0:x1, 3:4].astype(np.float32)
        a += (255.0 - a) * m
        canvas[y0:y1, x0:x1, 3:4] = np.clip(a + 0.5, 0, 255).astype(np.uint8)


def paste_center(canvas: np.ndarray, mask: np.ndarray, cx: float, cy: float, color,
                 rotate180: bool = False, alpha: float = 1.0) -> None:
    h, w = mask.shape
    paste(canvas, mask, cx - w / 2.0, cy - h / 2.0, color, rotate180, alpha)


def poly(canvas: np.ndarray, pts, color, thickness: int = -1) -> None:
    """Anti-aliased filled (thickness -1) or outlined polygon in canvas pixels (float coords)."""
    ip = np.round(np.asarray(pts, np.float64) * 16).astype(np.int32).reshape(-1, 1, 2)
    col = tuple(float(c) for c in color)
    if thickness < 0:
        cv2.fillPoly(canvas, [ip], col, cv2.LINE_AA, 4)
    else:
        cv2.polylines(canvas, [ip], True, col, thickness, cv2.LINE_AA, 4)


def circle(canvas: np.ndarray, cx: float, cy: float, r: float, color, thickness: int = -1) -> None:
    col = tuple(float(c) for c in color)
    cv2.circle(canvas, (int(round(cx * 16)), int(round(cy * 16))), max(1, int(round(r * 16))), col,
               thickness, cv2.LINE_AA, 4)


def ellipse(canvas: np.ndarray, cx: float, cy: float, rx: float, ry: float, angle: float, color,
            thickness: int = -1) -> None:
    col = tuple(float(c) for c in color)
    cv2.ellipse(canvas, (int(round(cx * 16)), int(round(cy * 16))),
                (max(1, int(round(rx * 16))), max(1, int(round(ry * 16)))), angle, 0, 360, col,
                thickness, cv2.LINE_AA, 4)
