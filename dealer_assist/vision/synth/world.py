"""The ``world`` recipe: training frames that look like photos of cards lying about, not only like
a casino table (issue 20, item 2).

A detector trained only on felt tables took carpet, wood, cloth and paper for card backs, clutter
for jokers, and a real deck's busy queens and kings for backs (models/MODEL_CARD.md, "Real
photos"). A ``world`` frame (:func:`render_world`, ``render_scene(..., world=True)``) keeps the
project's own card art and exact labels and changes what is around and behind the cards:

* **surfaces**: photographs and texture tiles from Debian packages when they are installed
  (:data:`PHOTO_DIRS`: wallpapers, paper scans, GIMP's texture patterns; the packages and their
  licences are in models/MODEL_CARD.md), else procedural ones only; procedural carpet, wood,
  cloth, felt, tiles, stone, leather, paper and painted surfaces; two surfaces meeting at an edge;
* **clutter**: business cards, paper sheets with text, photo prints, boxes, books, cups, plates,
  coins, pens, phones and cloth swatches, under and over the cards (hard negatives for backs and
  jokers); **frames with no card at all**;
* **cards**: the busy seeded court art ``rich-N`` (:mod:`courts`) in most frames, court cards
  drawn first in half of them; four layouts: ``table`` (the casino groups of :mod:`scene`),
  ``scatter`` (cards strewn at any angle, overlapping), ``closeup`` (one to three cards, one
  filling up to most of the frame's height) and ``empty``; card widths from 60 to 430 px;
* **camera**: white balance, exposure and gamma, washed-out frames (clipped highlights, lifted
  blacks), vignetting, a photographer's shadow, glossy
  cards, Gaussian, defocus and motion blur, luminance and colour noise, resampling, JPEG at
  quality 20-95 (sometimes twice).

Frames are deterministic by (seed, split) on a machine with the same packages installed (the
label's ``meta.background`` names the photo used). Cards lie wholly inside the frame, as in
:mod:`scene`, except with ``edge_p`` (the ``world-edge`` recipe): then that share of frames gets one
to three cards cut by the frame's edge, 30 to 80 % of each in view, as a phone photo or a table
camera cuts the cards at its border (a fifth of the real photos' missed cards); the detector is
taught the part that shows (:func:`dataset.in_frame`).

>>> img, lab = render_world(5)
>>> img.shape, lab["meta"]["world"]["mode"] in WORLD_MODES
((720, 1280, 3), True)
>>> render_world(5)[1] == lab
True
"""
from __future__ import annotations

import functools
import math
import os
import struct

import cv2
import numpy as np

from dealer_assist.vision.synth.draw import HERSHEY, circle, ellipse, poly
from dealer_assist.vision.synth.faces import CANON_H, CANON_W, card_canvas
from dealer_assist.vision.synth.scene import FELTS, FRAME_H, FRAME_W, MIN_ASPECT, SPLIT_CODE, Obj, _Layout, \
    _button_sprite, _chip_sprite, _draw_hand, _labels, _noise_bank, _place_groups, _pose, _smooth_noise, _warp_sprite, \
    apply_h, camera_homography, card_dealer, deal_pool, dealt_styles, fresh_font_name, fresh_pips_name, image_deck_meta, \
    joker_and_back, sprite_corners
from dealer_assist.vision.synth.styles import DECK_STYLES, PIPS_SEP, check_split, deck_style, styles_for

#: Folders searched for photographs and texture scans (JPEG, PNG, WebP) and GIMP patterns
#: (``.pat``). ``DEALER_ASSIST_PHOTO_DIRS`` (folders joined by ``os.pathsep``; ``none`` for none)
#: replaces the list. Missing folders are skipped; with none found, surfaces are procedural.
PHOTO_DIRS = ("/usr/share/backgrounds", "/usr/share/wallpapers", "/usr/share/mypaint/backgrounds",
              "/usr/share/gimp/2.0/patterns")
WORLD_MODES = ("table", "scatter", "closeup", "empty")
#: the sign with which the camera's yaw turns a card's angle on the table into its angle in the frame
YAW_SIGN = 1.0
#: Card width range (px, the short side) of world frames.
WORLD_MIN_PX, WORLD_MAX_PX = 58.0, 460.0
#: Seeds of the ``rich-N`` court art of training frames (a validation range would start at 900,000).
RICH_RANGE = (100_000, 200_000)
#: Seeds of the ``ace-N`` fancy aces of spades of training frames.
ACE_RANGE = (100_000, 200_000)
_IMG_EXTS = (".jpg", ".jpeg", ".png", ".webp")


# --- photographs and texture scans ---------------------------------------------------------------

def photo_dirs() -> tuple[str, ...]:
    env = os.environ.get("DEALER_ASSIST_PHOTO_DIRS")
    if env is not None:
        return () if env.strip().lower() in ("", "none") else tuple(p for p in env.split(os.pathsep) if p)
    return PHOTO_DIRS


@functools.lru_cache(maxsize=4)
def _find(dirs: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    photos, patterns = [], []
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for root, _, files in os.walk(d, followlinks=True):
            for f in files:
                p = os.path.join(root, f)
                low = f.lower()
                try:
                    size = os.path.getsize(p)
                except OSError:
                    continue
                if low.endswith(".pat") and size > 2000:
                    patterns.append(p)
                elif low.endswith(_IMG_EXTS) and size > 30_000:
                    photos.append(p)
    return tuple(sorted(photos)), tuple(sorted(patterns))


def photo_files() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(photographs, GIMP patterns) found under :func:`photo_dirs`, sorted (seeded picks repeat)."""
    return _find(photo_dirs())


def read_gimp_pattern(path: str) -> np.ndarray | None:
    """A GIMP ``.pat`` texture as BGR uint8 (None when unreadable).

    The format: a big-endian header (header size, version, width, height, bytes per pixel,
    ``GPAT``, the name) and the pixels, 1-4 bytes each (grey, grey+alpha, RGB, RGBA)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        hsize, _, w, h, bpp = struct.unpack(">5I", data[:20])
        if data[20:24] != b"GPAT" or not (1 <= bpp <= 4) or w * h * bpp > len(data) - hsize:
            return None
        px = np.frombuffer(data, np.uint8, w * h * bpp, hsize).reshape(h, w, bpp)
    except (OSError, struct.error, ValueError):
        return None
    if bpp <= 2:
        return cv2.cvtColor(np.ascontiguousarray(px[..., 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(px[..., :3]), cv2.COLOR_RGB2BGR)


@functools.lru_cache(maxsize=48)
def _load(path: str) -> np.ndarray | None:
    if path.lower().endswith(".pat"):
        img = read_gimp_pattern(path)
    else:
        flag = cv2.IMREAD_REDUCED_COLOR_2 if os.path.getsize(path) > 1_500_000 else cv2.IMREAD_COLOR
        img = cv2.imread(path, flag)
        if img is not None and max(img.shape[:2]) > 1400:
            k = 1400 / max(img.shape[:2])
            img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    if img is not None:
        img.setflags(write=False)
    return img


def _short_name(path: str) -> str:
    for d in photo_dirs():
        if path.startswith(d.rstrip("/") + "/"):
            return os.path.basename(d.rstrip("/")) + "/" + path[len(d.rstrip("/")) + 1:]
    return os.path.basename(path)


def _jitter_colour(tex: np.ndarray, rng: np.random.Generator, amount: float = 0.25) -> np.ndarray:
    t = tex.astype(np.float32)
    if rng.random() < 0.15:
        t = t[..., rng.permutation(3)]
    if rng.random() < 0.2:
        g = t.mean(axis=2, keepdims=True)
        t = g + (t - g) * rng.uniform(0.0, 0.6)
    t *= rng.uniform(1 - amount, 1 + amount, 3).astype(np.float32) * np.float32(rng.uniform(0.6, 1.25))
    return t


def _photo_canvas(path: str, rng: np.random.Generator, cw: int, ch: int) -> np.ndarray | None:
    """A random window of a photograph, scaled to (ch, cw), maybe mirrored or turned."""
    img = _load(path)
    if img is None:
        return None
    h, w = img.shape[:2]
    zoom = rng.uniform(0.35, 1.0)
    ww, hh = max(16, int(w * zoom)), max(16, int(min(h, w * zoom * ch / cw)))
    x0, y0 = int(rng.integers(0, w - ww + 1)), int(rng.integers(0, h - hh + 1))
    crop = img[y0:y0 + hh, x0:x0 + ww]
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    if rng.random() < 0.3:
        crop = crop[::-1]
    return _jitter_colour(cv2.resize(np.ascontiguousarray(crop), (cw, ch), interpolation=cv2.INTER_AREA), rng)


def _tile_canvas(path: str, rng: np.random.Generator, cw: int, ch: int) -> np.ndarray | None:
    """A texture scan (GIMP pattern, paper) tiled over (ch, cw) at a random scale."""
    img = _load(path)
    if img is None:
        return None
    k = rng.uniform(0.6, 3.0)
    t = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR if k > 1 else cv2.INTER_AREA)
    if rng.random() < 0.5:
        t = cv2.rotate(t, cv2.ROTATE_90_CLOCKWISE)
    reps = (ch // t.shape[0] + 2, cw // t.shape[1] + 2, 1)
    big = np.tile(t, reps)
    oy, ox = int(rng.integers(0, t.shape[0])), int(rng.integers(0, t.shape[1]))
    return _jitter_colour(big[oy:oy + ch, ox:ox + cw], rng)


# --- procedural surfaces ---------------------------------------------------------------------------

def _fine(rng: np.random.Generator, h: int, w: int, sigma: float) -> np.ndarray:
    n = rng.standard_normal((h, w), dtype=np.float32)
    n = cv2.GaussianBlur(n, (0, 0), sigma)
    return n / (n.std() + 1e-6)


def _colour(rng: np.random.Generator, kind: str) -> np.ndarray:
    table = {
        "carpet": [(150, 170, 185), (120, 140, 160), (110, 115, 120), (70, 80, 95), (140, 110, 80), (60, 60, 140),
                   (80, 120, 90), (170, 180, 190), (95, 110, 130)],
        "wood": [(60, 100, 150), (40, 70, 110), (90, 140, 190), (30, 50, 80), (120, 160, 200), (50, 80, 120)],
        "stone": [(150, 150, 150), (120, 125, 130), (180, 180, 175), (90, 95, 100), (160, 170, 190)],
        "leather": [(30, 30, 35), (40, 50, 80), (60, 40, 30), (50, 50, 110), (80, 80, 80)],
        "paper": [(235, 240, 242), (200, 215, 225), (150, 180, 200), (225, 225, 230)],
    }.get(kind)
    if table is None:
        return rng.uniform(30, 235, 3).astype(np.float32)
    return np.array(table[int(rng.integers(len(table)))], np.float32) * np.float32(rng.uniform(0.8, 1.2))


def _carpet(rng, h, w):
    base = _colour(rng, "carpet")
    s1 = rng.uniform(0.6, 1.8)
    loops = _fine(rng, h, w, s1)
    tex = base * (1 + rng.uniform(0.12, 0.35) * loops)[..., None]
    if rng.random() < 0.5:  # berber flecks of a second colour
        fleck = (_fine(rng, h, w, s1 * 1.2) > rng.uniform(1.0, 1.8)).astype(np.float32)
        fleck = cv2.GaussianBlur(fleck, (0, 0), 0.6)[..., None]
        tex = tex * (1 - fleck) + _colour(rng, "carpet") * 0.7 * fleck
    tex *= (1 + _smooth_noise(rng, w, h, int(rng.integers(4, 20)), rng.uniform(0.03, 0.12)))[..., None]
    if rng.random() < 0.3:  # rows of tufts
        yy = np.arange(h, dtype=np.float32)[:, None]
        tex *= (1 + 0.08 * np.sin(yy * rng.uniform(0.4, 1.2)))[..., None]
    return tex


def _wood(rng, h, w):
    light = _colour(rng, "wood")
    dark = light * rng.uniform(0.25, 0.7)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    warp = _smooth_noise(rng, w, h, int(rng.integers(3, 8)), rng.uniform(10, 45))
    f1 = rng.uniform(0.04, 0.25)
    ring = (0.5 + 0.5 * np.sin((v + warp) * f1 + 0.002 * u)) ** rng.uniform(1.0, 6.0)  # growth rings
    f2 = f1 * rng.uniform(2.5, 6.0)
    ring2 = (0.5 + 0.5 * np.sin((v + warp * 1.7) * f2)) ** rng.uniform(2.0, 8.0)       # finer grain
    lines = rng.standard_normal(4096).astype(np.float32)                                  # fibres along the grain
    idx = ((v + warp * 0.8) * rng.uniform(0.6, 1.6)).astype(np.int64) % 4096
    fib = cv2.GaussianBlur(lines[idx], (0, 0), 0.6)
    m = ring * rng.uniform(0.3, 1.0) + ring2 * rng.uniform(0.1, 0.6) + fib * rng.uniform(0.03, 0.12)
    m = np.clip(m + _fine(rng, h, w, 0.7) * 0.03, 0, 1)
    tex = light * (1 - m[..., None]) + dark * m[..., None]
    if rng.random() < 0.5:  # planks
        plank = rng.uniform(60, 260)
        idx = np.floor(v / plank)
        tone = (1 + 0.12 * np.sin(idx * 12.9898 + rng.uniform(0, 6)))[..., None]
        seam = (np.abs((v / plank) % 1.0 - 0.5) > 0.497)[..., None]
        tex = np.where(seam, tex * 0.4, tex * tone)
    return tex


def _cloth(rng, h, w):
    base = _colour(rng, "")
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = int(rng.integers(4))
    p = rng.uniform(1.2, 3.5)
    if kind == 0:     # plain weave
        m = np.sin(xx * math.pi / p) * np.sin(yy * math.pi / p) * 0.12
    elif kind == 1:   # twill (denim)
        m = np.sin((xx + yy) * math.pi / p) * 0.15
    elif kind == 2:   # gingham / checks
        s = rng.uniform(8, 40)
        m = (((xx // s) % 2) + ((yy // s) % 2)) * 0.18 - 0.2
    else:             # printed dots / flowers
        s = rng.uniform(10, 40)
        d = np.hypot((xx % s) - s / 2, (yy % s) - s / 2)
        m = (d < s * rng.uniform(0.12, 0.3)).astype(np.float32) * rng.uniform(-0.5, 0.5)
    m = m + _fine(rng, h, w, 0.8) * 0.05 + _smooth_noise(rng, w, h, 6, 0.05)
    return base * (1 + m)[..., None]


def _felt(rng, h, w):
    base = np.array(FELTS[str(rng.choice(sorted(FELTS)))], np.float32) * rng.uniform(0.7, 1.3)
    m = _fine(rng, h, w, rng.uniform(0.5, 1.2)) * rng.uniform(0.03, 0.1) + _smooth_noise(rng, w, h, 6, 0.06)
    return base * (1 + m)[..., None]


def _tiles(rng, h, w):
    base = _colour(rng, "stone")
    s = rng.uniform(50, 200)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi / 2)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    gw = rng.uniform(1.5, 5)
    grout = ((u % s) < gw) | ((v % s) < gw)
    tone = 1 + 0.06 * np.sin(np.floor(u / s) * 7.1 + np.floor(v / s) * 3.3)
    tex = base * (tone + _fine(rng, h, w, 1.0) * 0.04 + _smooth_noise(rng, w, h, 5, 0.05))[..., None]
    gcol = base * rng.uniform(0.5, 0.9)
    return np.where(grout[..., None], gcol, tex)


def _stone(rng, h, w):
    base = _colour(rng, "stone")
    tex = base * (1 + _fine(rng, h, w, rng.uniform(0.6, 2.0)) * rng.uniform(0.05, 0.2))[..., None]
    if rng.random() < 0.5:  # marble veins
        warp = _smooth_noise(rng, w, h, 4, 60.0)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        vein = np.abs(np.sin((xx * 0.01 + yy * 0.006) * rng.uniform(2, 6) + warp * 0.05)) < 0.05
        tex = np.where(vein[..., None], tex * 0.6, tex)
    return tex


def _leather(rng, h, w):
    base = _colour(rng, "leather")
    bumps = _fine(rng, h, w, rng.uniform(1.0, 2.5))
    tex = base * (1 + 0.12 * bumps + _smooth_noise(rng, w, h, 4, 0.1))[..., None]
    if rng.random() < 0.5:  # a stitched seam
        y = rng.uniform(0.2, 0.8) * h
        for x in np.arange(0, w, rng.uniform(8, 16)):
            cv2.line(tex, (int(x), int(y)), (int(x + 5), int(y)), (200, 200, 200), 1, cv2.LINE_AA)
    return tex


def _paper(rng, h, w):
    base = _colour(rng, "paper")
    fib = _fine(rng, h, w, rng.uniform(0.6, 3.0)) * rng.uniform(0.01, 0.05)
    return base * (1 + fib + _smooth_noise(rng, w, h, 4, 0.04))[..., None]


def _painted(rng, h, w):
    a, b = rng.uniform(20, 240, 3), rng.uniform(20, 240, 3)
    t = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    return (a * (1 - t) + b * t) * (1 + _smooth_noise(rng, w, h, 3, 0.05))[..., None]


SURFACES = {"carpet": _carpet, "wood": _wood, "cloth": _cloth, "felt": _felt, "tiles": _tiles,
            "stone": _stone, "leather": _leather, "paper": _paper, "painted": _painted}
_SURFACE_WEIGHTS = {"carpet": 5, "wood": 5, "cloth": 3, "felt": 2, "tiles": 2, "stone": 2, "leather": 1.5,
                    "paper": 1.5, "painted": 1}


def surface(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, str]:
    """One surface (float32 BGR, h x w) and its name: a photograph, a tiled texture scan or a
    procedural surface (:data:`SURFACES`)."""
    photos, patterns = photo_files()
    r = rng.random()
    if photos and r < 0.22:
        p = photos[int(rng.integers(len(photos)))]
        tex = _tile_canvas(p, rng, w, h) if "/mypaint/" in p else _photo_canvas(p, rng, w, h)
        if tex is not None:
            return tex, "photo:" + _short_name(p)
    if patterns and r < 0.40:
        p = patterns[int(rng.integers(len(patterns)))]
        tex = _tile_canvas(p, rng, w, h)
        if tex is not None:
            return tex, "pattern:" + _short_name(p)
    names = sorted(_SURFACE_WEIGHTS)
    wts = np.array([_SURFACE_WEIGHTS[n] for n in names], np.float64)
    name = str(rng.choice(names, p=wts / wts.sum()))
    return SURFACES[name](rng, h, w).astype(np.float32), name


def world_background(rng: np.random.Generator, h_w2i: np.ndarray) -> tuple[np.ndarray, str]:
    """The frame's surface, drawn on the table plane (so it follows the perspective); in a
    quarter of frames two surfaces meet at an edge."""
    inv = np.linalg.inv(h_w2i)
    wc = apply_h(inv, [[0, 0], [FRAME_W, 0], [FRAME_W, FRAME_H], [0, FRAME_H]])
    wx0, wy0 = wc.min(0) - 20
    wx1, wy1 = wc.max(0) + 20
    scale = min(1.0, 900.0 / max(wx1 - wx0, wy1 - wy0))
    cw, ch = int((wx1 - wx0) * scale) + 1, int((wy1 - wy0) * scale) + 1
    tex, name = surface(rng, cw, ch)
    if rng.random() < 0.25:
        other, name2 = surface(rng, cw, ch)
        yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
        a = rng.uniform(0, 2 * math.pi)
        d = (xx - cw / 2) * math.cos(a) + (yy - ch / 2) * math.sin(a) - rng.uniform(-0.35, 0.35) * min(cw, ch)
        m = np.clip(d / rng.uniform(0.6, 4.0) + 0.5, 0, 1)[..., None]
        edge = np.exp(-(d / rng.uniform(3, 15)) ** 2)[..., None] * rng.uniform(0.0, 0.5)
        tex = (tex * (1 - m) + other * m) * (1 - edge)
        name += "|" + name2
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    to_canvas = np.array([[scale, 0, -wx0 * scale], [0, scale, -wy0 * scale], [0, 0, 1]])
    m = h_w2i @ np.linalg.inv(to_canvas)
    frame = cv2.warpPerspective(tex, m, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return frame, name


# --- clutter -------------------------------------------------------------------------------------

_WORDS = ("ACME", "Coffee", "Hotel", "Invoice", "TOTAL", "Receipt", "Design", "Studio", "www", "Tel", "Fax",
          "Email", "Street", "Ltd", "Inc", "Cafe", "Pizza", "Menu", "Ticket", "Boarding", "Gate", "Seat",
          "Notes", "Chapter", "Price", "SALE", "Fresh", "Organic", "Made in", "Batch", "Lot", "Net wt")


def _text_lines(sp: np.ndarray, rng: np.random.Generator, x0, y0, x1, y1, ink, size=None) -> None:
    y = y0
    sz = size or rng.uniform(0.35, 0.9)
    face = HERSHEY[str(rng.choice(["simplex", "duplex", "complex", "triplex"]))]
    th = max(1, int(round(sz * 1.6)))
    while True:
        (_, hgt), _ = cv2.getTextSize("Ag", face, sz, th)
        y += hgt * rng.uniform(1.5, 2.2)
        if y > y1:
            break
        x = x0
        txt = " ".join(str(rng.choice(_WORDS)) if rng.random() < 0.7 else
                       "".join(str(v) for v in rng.integers(0, 10, int(rng.integers(2, 7)))) for _ in range(6))
        while txt:
            (tw, _), _ = cv2.getTextSize(txt, face, sz, th)
            if x + tw <= x1:
                break
            txt = txt[:-1]
        cv2.putText(sp, txt, (int(x), int(y)), face, sz, ink, th, cv2.LINE_AA)


def _rect_sprite(w: int, h: int, col) -> np.ndarray:
    sp = np.zeros((h, w, 4), np.uint8)
    sp[..., :3] = col
    sp[..., 3] = 255
    return sp


def clutter_sprite(kind: str, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """A BGRA sprite of a thing that is not a card, and its width in card widths."""
    ink = tuple(int(v) for v in rng.choice([(30, 30, 30), (120, 40, 20), (30, 30, 150), (60, 60, 60)])) + (255,)
    if kind == "bizcard":
        w, h = 340, 200
        paper = tuple(int(v) for v in rng.choice([(245, 245, 245), (230, 240, 245), (210, 230, 240), (40, 40, 40),
                                                   (200, 215, 200)]))
        sp = _rect_sprite(w, h, paper)
        if sum(paper) < 300:
            ink = (220, 220, 220, 255)
        logo = tuple(int(v) for v in rng.integers(20, 230, 3)) + (255,)
        if rng.random() < 0.7:
            shape = int(rng.integers(3))
            cx, cy, r = rng.uniform(40, 90), rng.uniform(40, 90), rng.uniform(18, 35)
            if shape == 0:
                circle(sp, cx, cy, r, logo)
            elif shape == 1:
                poly(sp, [(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)], logo)
            else:
                poly(sp, [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)], logo)
        _text_lines(sp, rng, 120, 20, w - 10, h - 15, ink)
        return sp, rng.uniform(1.1, 1.5)
    if kind == "sheet":
        w, h = 420, int(420 * rng.choice([1.414, 1.29, 0.707, 1.0]))
        sp = _rect_sprite(w, h, tuple(int(v) for v in rng.uniform(200, 250, 3)))
        _text_lines(sp, rng, 25, 20, w - 25, h - 20, ink, rng.uniform(0.4, 0.8))
        if rng.random() < 0.4:
            poly(sp, [(25, 30), (w - 25, 30), (w - 25, 90), (25, 90)], tuple(int(v) for v in rng.integers(20, 230, 3)) + (255,))
        return sp, rng.uniform(2.0, 5.0)
    if kind == "print":  # a photo print, with or without a white border
        photos, _ = photo_files()
        w, h = 360, int(360 * rng.choice([0.667, 0.75, 1.5, 1.333, 1.0]))
        sp = _rect_sprite(w, h, (240, 240, 240))
        b = int(rng.choice([0, 0, 12, 20]))
        img = _photo_canvas(photos[int(rng.integers(len(photos)))], rng, w - 2 * b, h - 2 * b) if photos else None
        if img is None:
            img = _cloth(rng, h - 2 * b, w - 2 * b)
        sp[b:h - b, b:w - b, :3] = np.clip(img, 0, 255).astype(np.uint8)
        return sp, rng.uniform(1.2, 3.0)
    if kind == "box":
        w, h = 400, int(400 * rng.uniform(0.5, 1.2))
        col = tuple(int(v) for v in rng.choice([(90, 140, 185), (70, 120, 170), (230, 230, 230), (40, 40, 160),
                                                 (160, 100, 40)]))
        sp = _rect_sprite(w, h, col)
        tex = _paper(rng, h, w)
        sp[..., :3] = np.clip(sp[..., :3].astype(np.float32) * (tex / tex.mean()), 0, 255).astype(np.uint8)
        if rng.random() < 0.6:  # tape
            y = h / 2 + rng.uniform(-20, 20)
            poly(sp, [(0, y - 18), (w, y - 18), (w, y + 18), (0, y + 18)], (150, 180, 200, 255))
        _text_lines(sp, rng, 20, 10, w - 20, h * 0.45, ink, rng.uniform(0.8, 1.6))
        return sp, rng.uniform(2.0, 5.0)
    if kind == "book":
        w, h = 300, 420
        col = tuple(int(v) for v in rng.integers(20, 230, 3))
        sp = _rect_sprite(w, h, col)
        poly(sp, [(0, 0), (24, 0), (24, h), (0, h)], tuple(int(c * 0.6) for c in col) + (255,))
        _text_lines(sp, rng, 40, 40, w - 20, 160, (235, 235, 235, 255), rng.uniform(0.9, 1.5))
        return sp, rng.uniform(1.8, 3.5)
    if kind in ("cup", "plate", "coin"):
        n = 300
        sp = np.zeros((n, n, 4), np.uint8)
        c = n / 2 - 0.5
        if kind == "cup":
            col = tuple(int(v) for v in rng.integers(30, 240, 3)) + (255,)
            ellipse(sp, c + n * 0.38, c, n * 0.1, n * 0.05, 0, col)
            circle(sp, c, c, n * 0.4, col)
            circle(sp, c, c, n * 0.34, tuple(int(v) for v in rng.choice([(20, 40, 70), (200, 220, 230), (30, 30, 30)])) + (255,))
            ellipse(sp, c - n * 0.1, c - n * 0.1, n * 0.08, n * 0.04, 30, (230, 230, 230, 255))
            return sp, rng.uniform(1.0, 1.6)
        if kind == "plate":
            col = tuple(int(v) for v in rng.choice([(240, 240, 240), (225, 235, 240), (200, 200, 200), (40, 120, 200)]))
            circle(sp, c, c, n / 2 - 2, col + (255,))
            circle(sp, c, c, n * 0.33, tuple(int(v * 0.93) for v in col) + (255,), 3)
            return sp, rng.uniform(2.5, 4.5)
        col = tuple(int(v) for v in rng.choice([(60, 140, 190), (170, 170, 170), (40, 90, 150)]))
        circle(sp, c, c, n / 2 - 2, col + (255,))
        circle(sp, c, c, n * 0.42, tuple(int(v * 0.8) for v in col) + (255,), 4)
        return sp, rng.uniform(0.25, 0.45)
    if kind == "pen":
        w, h = 600, 40
        sp = np.zeros((h, w, 4), np.uint8)
        col = tuple(int(v) for v in rng.integers(20, 230, 3)) + (255,)
        poly(sp, [(20, 8), (w - 80, 8), (w - 80, h - 8), (20, h - 8)], col)
        poly(sp, [(w - 80, 10), (w - 5, h / 2), (w - 80, h - 10)], (200, 200, 200, 255))
        return sp, rng.uniform(1.5, 2.3)
    if kind == "phone":
        w, h = 300, 600
        sp = np.zeros((h, w, 4), np.uint8)
        poly(sp, [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)], (25, 25, 25, 255))
        photos, _ = photo_files()
        scr = _photo_canvas(photos[int(rng.integers(len(photos)))], rng, w - 24, h - 60) if photos and rng.random() < 0.6 \
            else _painted(rng, h - 60, w - 24)
        if scr is not None:
            sp[30:h - 30, 12:w - 12, :3] = np.clip(scr, 0, 255).astype(np.uint8)
        return sp, rng.uniform(1.0, 1.3)
    if kind == "snapshot":
        # a picture the size and shape of a card: a photo print, a postcard, a note, a book
        # cover. The real photos' jokers on no card were such things (issue 20): a card's
        # outline with a picture and no index. Square corners mostly, unlike a card's.
        w = 250
        h = int(w * rng.uniform(1.25, 1.6))
        if rng.random() < 0.3:
            w, h = h, w
        content = str(rng.choice(["photo", "photo", "photo", "painted", "note", "cover"]))
        b = int(rng.choice([0, 0, 0, 8, 14])) if content == "photo" else 0
        sp = _rect_sprite(w, h, tuple(int(v) for v in rng.uniform(215, 250, 3)))
        photos, _ = photo_files()
        img = None
        if content == "photo" and photos:
            img = _photo_canvas(photos[int(rng.integers(len(photos)))], rng, w - 2 * b, h - 2 * b)
        if content == "painted" or (content == "photo" and img is None):
            img = _painted(rng, h - 2 * b, w - 2 * b) * 0.5 + _cloth(rng, h - 2 * b, w - 2 * b) * 0.5
        if img is not None:
            sp[b:h - b, b:w - b, :3] = np.clip(img, 0, 255).astype(np.uint8)
        if content == "note":
            sp[..., :3] = np.clip(_paper(rng, h, w), 0, 255).astype(np.uint8)
            _text_lines(sp, rng, 18, 18, w - 18, h - 18, ink, rng.uniform(0.4, 0.9))
        elif content == "cover":
            sp[..., :3] = tuple(int(v) for v in rng.integers(20, 230, 3))
            if photos:
                pic = _photo_canvas(photos[int(rng.integers(len(photos)))], rng, w - 40, h // 2)
                if pic is not None:
                    sp[h // 3:h // 3 + h // 2, 20:w - 20, :3] = np.clip(pic, 0, 255).astype(np.uint8)
            _text_lines(sp, rng, 20, 15, w - 20, h // 3 - 5, (235, 235, 235, 255), rng.uniform(0.8, 1.3))
        if rng.random() < 0.25:  # some are rounded like a card
            r = int(rng.uniform(8, 22))
            m = np.zeros((h, w), np.uint8)
            cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
            cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
            for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
                cv2.circle(m, (cx, cy), r, 255, -1)
            sp[..., 3] = m
        return sp, rng.uniform(0.85, 1.45) * w / min(w, h)   # the short side 0.85-1.45 card widths
    # a cloth swatch or leaf-like blob
    n = 300
    sp = np.zeros((n, n, 4), np.uint8)
    tex, _ = surface(rng, n, n)
    m = np.zeros((n, n), np.uint8)
    k = int(rng.integers(5, 10))
    ang = np.sort(rng.uniform(0, 2 * math.pi, k))
    rad = rng.uniform(0.25, 0.48, k) * n
    poly(m, [(n / 2 + math.cos(a) * r, n / 2 + math.sin(a) * r) for a, r in zip(ang, rad)], (255,))
    sp[..., :3] = np.clip(tex, 0, 255).astype(np.uint8)
    sp[..., 3] = m
    return sp, rng.uniform(1.5, 4.0)


CLUTTER = ("bizcard", "sheet", "print", "box", "book", "cup", "plate", "coin", "pen", "phone", "swatch", "snapshot")
_UNDER = ("bizcard", "sheet", "print", "box", "book", "plate", "swatch", "bizcard", "coin", "pen")
_OVER = ("cup", "coin", "pen", "phone", "bizcard", "coin")


def _clutter_obj(kind: str, rng: np.random.Generator, lay: _Layout, h: np.ndarray, card_w: float) -> Obj:
    sp, width = clutter_sprite(kind, rng)
    u, v = rng.uniform(-0.05, 1.05) * FRAME_W, rng.uniform(-0.05, 1.05) * FRAME_H
    c = lay.world_at(u, v)
    m = h @ _pose(c[0], c[1], rng.uniform(0, 360), card_w * width, sp.shape[1], sp.shape[0])
    return Obj("thing", kind, sprite=sp, m=m)


# --- layout and the frame ------------------------------------------------------------------------

class _WorldLayout(_Layout):
    def __init__(self, rng, h, card_w, lo: float = WORLD_MIN_PX, hi: float = WORLD_MAX_PX):
        super().__init__(rng, h, card_w)
        self.lo, self.hi = lo, hi

    def card_ok(self, m: np.ndarray) -> bool:
        c = apply_h(m, sprite_corners())
        if c[:, 0].min() < 1 or c[:, 1].min() < 1 or c[:, 0].max() > FRAME_W - 1 or c[:, 1].max() > FRAME_H - 1:
            return False
        return self.size_ok(c)

    def size_ok(self, c: np.ndarray) -> bool:
        """Whether a card's outline (frame pixels) has the layout's card size and a card's shape."""
        short = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
        long_ = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
        return self.lo <= short <= self.hi and long_ >= MIN_ASPECT * short


def _edge_cards(lay: _WorldLayout, rng: np.random.Generator, card_w: float, add_cards, n: int,
                face_up: float = 0.9) -> int:
    """Up to ``n`` cards cut by the frame's edge (30-80 % of each in view, sized as the layout's
    cards), each face up with the chance ``face_up``; returns how many were laid."""
    frame = np.array([[0, 0], [FRAME_W, 0], [FRAME_W, FRAME_H], [0, FRAME_H]], np.float32)
    laid = 0
    for _ in range(n):
        for _try in range(30):
            side = int(rng.integers(4))
            along = rng.uniform(0.05, 0.95)
            across = rng.uniform(-0.12, 0.08)       # the centre's distance beyond (-) or inside the edge
            u, v = [(along, -across), (1 + across, along), (along, 1 + across), (-across, along)][side]
            c = lay.world_at(u * FRAME_W, v * FRAME_H)
            m = lay.h @ _pose(c[0], c[1], rng.uniform(0, 360), card_w * rng.uniform(0.9, 1.1))
            q = apply_h(m, sprite_corners()).astype(np.float32)
            if not lay.size_ok(q):
                continue
            shown, _ = cv2.intersectConvexConvex(q, frame)
            share = shown / max(1.0, float(cv2.contourArea(q)))
            if not 0.3 <= share <= 0.8:
                continue
            mask = np.zeros_like(lay.occ)
            cv2.fillConvexPoly(mask, np.round(q / 4).astype(np.int32), 1)
            if int((mask & lay.occ).sum()) > 0.2 * max(1, int(mask.sum())):
                continue
            lay.occ |= mask
            add_cards([m], face_up=rng.random() < face_up)
            laid += 1
            break
    return laid


def _world_camera(frame: np.ndarray, rng: np.random.Generator, label: dict) -> np.ndarray:
    img = frame.astype(np.float32)
    light = 1.0 + _smooth_noise(rng, FRAME_W // 8, FRAME_H // 8, 3, rng.uniform(0.05, 0.2))
    if rng.random() < 0.3:  # the photographer's (or the phone's) soft shadow
        blob = np.zeros_like(light)
        ellipse(blob, rng.uniform(0, FRAME_W / 8), rng.uniform(0, FRAME_H / 8), rng.uniform(8, 40),
                rng.uniform(6, 30), rng.uniform(0, 180), (1.0,))
        blob = cv2.GaussianBlur(blob, (0, 0), rng.uniform(2, 8))
        light *= 1.0 - rng.uniform(0.2, 0.55) * blob
    light = cv2.resize(light, (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:  # vignetting
        yy, xx = np.ogrid[0:FRAME_H, 0:FRAME_W]
        r2 = ((xx - FRAME_W / 2) / (FRAME_W / 2)) ** 2 + ((yy - FRAME_H / 2) / (FRAME_H / 2)) ** 2
        light *= (1 - rng.uniform(0.1, 0.4) * r2 / 2).astype(np.float32)
    temp = rng.uniform(-1, 1)  # white balance: warm (indoor lamps) to cool (shade)
    gains = np.array([1 - 0.22 * temp, 1 + rng.uniform(-0.06, 0.06), 1 + 0.18 * temp], np.float32)
    gains *= np.float32(rng.uniform(0.55, 1.3))
    img *= light[..., None] * gains
    if rng.random() < 0.15:  # washed out: a webcam's auto exposure on a bright table, highlights
        # clipped and blacks lifted (white cards on pale wood lose their edges)
        img = np.minimum(img * np.float32(rng.uniform(1.3, 2.1)), 255.0)
        haze = np.float32(rng.uniform(0.08, 0.35))
        img = img * (1.0 - haze) + 255.0 * haze
    if rng.random() < 0.5:
        g = rng.uniform(0.8, 1.25)
        img = 255.0 * (np.clip(img, 0, 255) / 255.0) ** np.float32(g)
    contrast = float(rng.uniform(0.75, 1.2))
    img = cv2.addWeighted(img, contrast, img, 0.0, 128.0 * (1.0 - contrast))
    sat = float(rng.uniform(0.5, 1.3))
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[..., None]
    img = cv2.addWeighted(img, sat, np.broadcast_to(grey, img.shape).copy(), 1.0 - sat, 0.0)
    glare = 0.0
    if rng.random() < 0.3:
        gx, gy = rng.uniform(0, FRAME_W), rng.uniform(0, FRAME_H)
        sx, sy = rng.uniform(30, 250), rng.uniform(20, 180)
        glare = float(rng.uniform(40, 160))
        yy, xx = np.ogrid[0:FRAME_H, 0:FRAME_W]
        img += (np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2)) * glare).astype(np.float32)[..., None]
    blur = 0.0
    r = rng.random()
    if r < 0.35:
        blur = float(rng.uniform(0.4, 2.0))
        img = cv2.GaussianBlur(img, (0, 0), blur)
    elif r < 0.47:  # defocus: a disc
        rad = float(rng.uniform(1.5, 4.0))
        k = int(math.ceil(rad)) * 2 + 1
        ker = np.zeros((k, k), np.float32)
        cv2.circle(ker, (k // 2, k // 2), int(round(rad)), 1.0, -1, cv2.LINE_AA)
        img = cv2.filter2D(img, -1, ker / ker.sum())
        blur = rad
    elif r < 0.57:  # motion blur
        k = int(rng.integers(3, 12))
        ker = np.zeros((k, k), np.float32)
        ang = rng.uniform(0, math.pi)
        c = (k - 1) / 2
        cv2.line(ker, (int(c - math.cos(ang) * c), int(c - math.sin(ang) * c)),
                 (int(c + math.cos(ang) * c), int(c + math.sin(ang) * c)), 1.0, 1)
        img = cv2.filter2D(img, -1, ker / max(ker.sum(), 1e-6))
        blur = -float(k)
    if rng.random() < 0.25:  # a phone's resampling
        k = rng.uniform(0.4, 0.8)
        small = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)
    noise = float(rng.uniform(0, 12))
    ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
    shot = np.sqrt(np.clip(img, 1, 255) / 128.0)   # brighter pixels, more noise
    n = _noise_bank()[oy:oy + FRAME_H, ox:ox + FRAME_W]
    if rng.random() < 0.5:  # luminance noise only
        n = np.broadcast_to(n[..., :1], n.shape)
    img += n * shot * np.float32(noise)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:  # saved once already (a messenger, a screenshot)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    label["meta"].update({"glare": round(glare, 1), "blur": round(blur, 2), "noise": round(noise, 2),
                          "jpeg_quality": int(rng.integers(20, 96))})
    return out


def render_world(seed: int, split: str = "train", jpeg: bool = True, joker_p: float = 0.3,
                 joker2_p: float = 0.08, fresh_pips: tuple[int, int] | None = None,
                 rich_p: float = 0.7, edge_p: float = 0.0, edge_up: float = 0.9,
                 decoy_p: float = 0.0, ace_p: float = 0.0,
                 fresh_fonts: bool | str = False, deck_images: str | None = None,
                 toon_p: float = 0.0) -> tuple[np.ndarray, dict]:
    """One ``world`` frame and its label (the schema of :func:`scene.render_scene`), deterministic
    by (seed, split) and the photos installed. ``rich_p``: the chance the frame's (training) deck
    gets seeded rich court art. ``edge_p``: the chance of cards cut by the frame's edge, face up
    with the chance ``edge_up``. ``decoy_p``: the chance of 1-3 card-sized pictures that are not
    cards (``snapshot`` clutter: photo prints, notes, covers) under the cards. Frames drawn with
    the defaults are unchanged by the last three. ``ace_p``: the chance the (training) deck gets a
    seeded fancy ace of spades (``~ace-N``, :func:`faces._draw_fancy_ace`), dealt first; frames
    drawn without it are unchanged. ``fresh_fonts``: the (training) deck's indices are drawn in an
    extra typeface chosen by the seed alone (:func:`scene.fresh_font_name`; the ``world-fonts``
    recipe), and bent by a seeded warp where it is ``"warp"`` (``world-warp``), half as far and never
    bolder where it is ``"bend"`` (``world-bend``). ``deck_images``: the cards, jokers and backs are
    drawn from that image deck's folder (:func:`scene.dealt_styles`), all else is the seed's frame.
    ``toon_p``: the chance that a deck given seeded court art gets the open or cartoon ``toon-N``
    (:func:`courts.draw_toon_court`: no frame, large suit signs beside the figure) instead of
    ``rich-N``; frames drawn without it are unchanged (the ``world-courts`` recipe).
    Its ``meta.world`` says the layout, clutter and court art."""
    check_split(split)
    rng = np.random.default_rng([int(seed), SPLIT_CODE[split], 2029])
    decks = styles_for(split, DECK_STYLES)
    deck = decks[rng.integers(len(decks))]
    name = deck.name if fresh_pips is None else fresh_pips_name(deck.name, seed, split, fresh_pips)
    rich = split == "train" and rng.random() < rich_p
    art = None
    if rich:
        lo, hi = RICH_RANGE
        # from a stream of its own: the frame is world-aces' (or world's) to the pixel but the courts
        art = "toon" if toon_p > 0 and np.random.default_rng([int(seed), SPLIT_CODE[split], 2031]).random() < toon_p \
            else "rich"
        name += f"{PIPS_SEP}{art}-{lo + (int(seed) * 2246822519 + 13) % (hi - lo)}"
    fancy_ace = ace_p > 0 and split == "train" and rng.random() < ace_p    # no draw without ace_p
    if fancy_ace:
        name += f"{PIPS_SEP}ace-{ACE_RANGE[0] + (int(seed) * 2654435761 + 29) % (ACE_RANGE[1] - ACE_RANGE[0])}"
    if fresh_fonts:
        name = fresh_font_name(name, seed, split, fresh_fonts)
    deck = deck_style(name)
    js, bs = joker_and_back(rng, split)
    mode = str(rng.choice(WORLD_MODES, p=[0.35, 0.28, 0.25, 0.12]))

    tilt = float(rng.uniform(0, 40)) if rng.random() > 0.25 else float(rng.uniform(0, 5))
    yaw = float(rng.uniform(0, 360))
    f = float(rng.uniform(900, 1700))
    h = camera_homography(tilt, yaw, f)
    frame, bg_name = world_background(rng, h)

    if mode == "closeup":
        # up to a card filling most of the frame's height, as in a phone photo of one card (the
        # real photos' close-ups that the first world-trained detector missed)
        card_w = float(rng.uniform(180, 460))
    elif mode == "scatter":
        card_w = float(np.exp(rng.uniform(math.log(75), math.log(240))))
    else:
        card_w = float(np.exp(rng.uniform(math.log(62), math.log(200))))
    lay = _WorldLayout(rng, h, card_w)
    def courts_first(pool: list[str]) -> list[str]:
        if rng.random() < 0.5:  # court cards first: the real decks' queens and kings were read as backs
            pool = [c for c in pool if c[0] in "JQK"] + [c for c in pool if c[0] not in "JQK"]
        if fancy_ace:           # the fancy ace in view
            pool = [c for c in pool if c == "As"] + [c for c in pool if c != "As"]
        return pool

    objs: list[Obj] = []
    add_cards = card_dealer(objs, deal_pool(rng, joker_p, joker2_p, courts_first),
                            *dealt_styles(deck.name, js.name, bs.name, deck_images))

    # clutter under everything (drawn straight into the surface)
    n_under = int(rng.integers(0, 4)) + (int(rng.integers(2, 6)) if mode == "empty" else 0)
    shadow_dir = rng.uniform(0, 2 * math.pi)
    shadow_len = rng.uniform(0.5, 6.0)
    shadow = (math.cos(shadow_dir) * shadow_len, math.sin(shadow_dir) * shadow_len, rng.uniform(1.0, 5.0),
              rng.uniform(0.15, 0.5))
    under = []
    for _ in range(n_under):
        o = _clutter_obj(str(rng.choice(_UNDER)), rng, lay, h, card_w)
        _warp_sprite(frame, o, shadow)
        under.append(o.name)
    decoys = []
    if decoy_p > 0 and rng.random() < decoy_p:    # no draw at all without decoy_p
        for _ in range(int(rng.integers(1, 4))):
            o = _clutter_obj("snapshot", rng, lay, h, card_w)
            _warp_sprite(frame, o, shadow)
            under.append(o.name)
            decoys.append(np.round(apply_h(o.m, sprite_corners(o.sprite.shape[1], o.sprite.shape[0])), 1).tolist())

    if mode == "closeup":
        n = int(rng.choice([1, 1, 1, 2, 2, 3]))
        for _ in range(n):
            # a card too big to lie askew inside the frame is photographed about upright: the
            # random angle folded to within 20 degrees of 0 or 180
            big = card_w > 300

            def pose(c, a):
                a = (180.0 if a >= 180.0 else 0.0) + (a % 40.0) - 20.0 - YAW_SIGN * yaw if big else a
                return [_pose(c[0], c[1], a, card_w * rng.uniform(0.85, 1.1))]

            mats = lay.try_place(pose, float(rng.choice([0.0, 0.3])), 80 if big else 40)
            if mats:
                add_cards(mats, face_up=rng.random() < 0.95)
    elif mode == "scatter":
        for _ in range(int(rng.integers(2, 11))):
            mats = lay.try_place(lambda c, a: [_pose(c[0], c[1], a, card_w * rng.uniform(0.95, 1.05))],
                                 float(rng.choice([0.0, 0.2, 0.5])), 20)
            if mats:
                add_cards(mats, face_up=rng.random() < 0.92)
    elif mode == "table":
        layout = ["board"] if rng.random() < 0.6 else []
        layout += ["hand"] * int(rng.integers(0, 5))
        layout += ["burn"] if rng.random() < 0.25 else []
        layout += ["stub"] if rng.random() < 0.2 else []
        layout += ["single"] * int(rng.integers(0, 4))
        if not layout:
            layout = ["hand", "single"]
        rng.shuffle(layout)
        _place_groups(layout, lay, add_cards, card_w, rng, overlap_p=0.2, hand_up_p=0.9, single_up_p=0.9)

    edge = 0
    if edge_p > 0 and mode != "empty" and rng.random() < edge_p:   # no draw at all without edge_p
        edge = _edge_cards(lay, rng, card_w, add_cards, int(rng.integers(1, 4)), edge_up)

    # things over the cards: cups, coins, pens, phones
    over = []
    for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3])) if mode != "empty" else int(rng.integers(0, 3))):
        o = _clutter_obj(str(rng.choice(_OVER)), rng, lay, h, card_w)
        objs.append(o)
        over.append(o.name)
    if rng.random() < 0.3:
        for _ in range(int(rng.integers(1, 5))):
            d = card_w * rng.uniform(0.5, 0.62)
            c = lay.world_at(rng.uniform(0.03, 0.97) * FRAME_W, rng.uniform(0.05, 0.95) * FRAME_H)
            sp = _chip_sprite(rng)
            m0 = h @ _pose(c[0], c[1], rng.uniform(0, 360), d, 96, 96)
            up = np.array([0.0, -1.0]) * d * 0.085 * (0.3 + 0.7 * math.sin(math.radians(max(tilt, 10))))
            for level in range(int(rng.integers(1, 6))):
                sh = np.array([[1, 0, up[0] * level], [0, 1, up[1] * level], [0, 0, 1]])
                objs.append(Obj("chip", sprite=sp, m=sh @ m0))
        over.append("chips")
    if rng.random() < 0.1:
        c = lay.world_at(rng.uniform(0.05, 0.95) * FRAME_W, rng.uniform(0.08, 0.92) * FRAME_H)
        objs.append(Obj("button", sprite=_button_sprite(), m=h @ _pose(c[0], c[1], rng.uniform(0, 360), card_w * 0.7, 96, 96)))

    for o in objs:
        if o.sprite is None:
            o.sprite, o.index_box = card_canvas(o.name, o.style)
            gain = float(rng.uniform(0.8, 1.08))
            sheen = (float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25)),
                     float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)),
                     float(rng.uniform(20, 110)) if rng.random() < 0.25 else 0.0)
            _warp_sprite(frame, o, shadow, gain, sheen)
        else:
            _warp_sprite(frame, o, shadow)
    if rng.random() < 0.25:
        objs.append(_draw_hand(frame, rng, card_w))
        over.append("hand")

    label = _labels(objs, tilt)
    frame = _world_camera(frame, rng, label)
    label["image"] = f"{int(seed):06d}.jpg"
    label["meta"].update({
        "seed": int(seed), "split": split, "deck_style": deck.name,
        "font": f"{deck.font.kind}:{deck.font.name}" + (":italic" if deck.font.italic else ""),
        "joker_style": js.name, "back_style": bs.name, "tilt_deg": round(tilt, 1), "yaw_deg": round(yaw, 1),
        "focal_px": round(f, 1), "background": bg_name, "card_width_world": round(card_w, 1),
        "world": {"mode": mode, "under": under, "over": over, "rich_courts": rich,
                  **({"fancy_ace": fancy_ace} if ace_p > 0 else {}),
                  **({"toon_courts": art == "toon"} if toon_p > 0 else {}),
                  **({"edge_cards": edge} if edge_p > 0 else {}),
                  **({"decoys": decoys} if decoy_p > 0 else {})},
    })
    image_deck_meta(label, deck_images)
    if jpeg:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, label["meta"]["jpeg_quality"]])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return frame, label


__all__ = ["render_world", "world_background", "surface", "clutter_sprite", "photo_files", "photo_dirs",
           "read_gimp_pattern", "PHOTO_DIRS", "WORLD_MODES", "CLUTTER", "SURFACES", "CANON_W", "CANON_H"]
