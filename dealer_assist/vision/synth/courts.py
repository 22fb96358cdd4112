"""Rich court art (``rich-N``): busy, detailed, double-ended court figures drawn from a seed.

Real decks' jacks, queens and kings are crowded pictures: a figure in a frame, clothes in
stripes, checks, scales and flowers of four or five saturated inks, thin black outlines, a face,
hair, a crown, a sword or a flower, the suit sign beside the head, the two halves mirrored across
a straight or slanted line. The simple court arts of :mod:`faces` (``classic``, ``flat``, ...)
are sparse by comparison, and a detector trained on them took a real deck's queens and kings,
whose busy art fills most of the card, for card BACKS (models/MODEL_CARD.md, "Real photos").
These drawings are the project's own: polygons, ellipses and numpy patterns, no third-party art.

``N`` seeds the deck's look (palette, patterns, divider, frame, line weight); the rank and suit
add the figure's details (headgear, beard, what it holds). Training decks only: a deck style
``BASE~rich-N`` (:func:`styles.deck_style`) is ``BASE`` with this court art.

>>> from dealer_assist.vision.synth.faces import render_card
>>> a, b = render_card("Kh", "gen-03~rich-100001", 110), render_card("Kh", "gen-03~rich-100002", 110)
>>> a.shape, bool((a != b).any())
((154, 110, 4), True)
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from dealer_assist.cards import Card, Rank
from dealer_assist.vision.synth.draw import circle, ellipse, paste_center, pip_mask, poly

GOLD = (40, 185, 235)
RED = (40, 40, 195)
BLUE = (150, 70, 25)
BLACK = (25, 25, 25)
SKIN = ((165, 200, 240), (150, 185, 230), (140, 175, 225), (175, 210, 245))
HAIR = (GOLD, (30, 60, 110), (25, 25, 25), (40, 90, 170), (200, 200, 200))
PATTERNS = ("stripes", "hatch", "checks", "dots", "scales", "zigzag", "diamonds", "flowers", "cross",
            "plain", "bands")


def _pattern(kind: str, h: int, w: int, c0, c1, period: float, angle: float) -> np.ndarray:
    """A (h, w, 3) uint8 tile of ``kind`` in ink ``c1`` on ``c0``, about ``period`` px apart."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    s = max(2.5, float(period))
    a = math.radians(angle)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    if kind == "stripes":
        m = (u % s) < s * 0.45
    elif kind == "bands":
        m = (u % (2.5 * s)) < s * 0.7
    elif kind == "hatch":
        m = ((u % s) < 1.2) | ((v % s) < 1.2)
    elif kind == "checks":
        m = ((np.floor(u / s) + np.floor(v / s)) % 2) == 0
    elif kind == "dots":
        row = np.floor(v / s)
        uu = (u + (row % 2) * s / 2) % s - s / 2
        vv = v % s - s / 2
        m = uu * uu + vv * vv < (s * 0.28) ** 2
    elif kind == "scales":
        row = np.floor(v / s)
        uu = (u + (row % 2) * s / 2) % s - s / 2
        vv = v % s
        d = np.sqrt(uu * uu + vv * vv)
        m = np.abs(d - s / 2) < 0.8
    elif kind == "zigzag":
        z = v + s * 0.5 * np.abs(((u / s) % 2) - 1) * 2
        m = (z % s) < s * 0.35
    elif kind == "diamonds":
        m = (np.abs(u % s - s / 2) + np.abs(v % s - s / 2)) < s * 0.3
    elif kind == "flowers":
        row = np.floor(v / (1.6 * s))
        uu = (u + (row % 2) * 0.8 * s) % (1.6 * s) - 0.8 * s
        vv = v % (1.6 * s) - 0.8 * s
        r = np.sqrt(uu * uu + vv * vv)
        th = np.arctan2(vv, uu)
        m = r < s * (0.35 + 0.25 * np.cos(4 * th))
    elif kind == "cross":
        uu, vv = np.abs(u % s - s / 2), np.abs(v % s - s / 2)
        m = ((uu < 0.8) & (vv < s * 0.3)) | ((vv < 0.8) & (uu < s * 0.3))
    else:  # plain
        m = np.zeros((h, w), bool)
    mf = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 0.5)[..., None]
    out = np.asarray(c0, np.float32) * (1 - mf) + np.asarray(c1, np.float32) * mf
    return out.astype(np.uint8)


class _Painter:
    """Fills polygons and ellipses of a BGR tile with patterns and outlines them."""

    def __init__(self, tile: np.ndarray, rng: np.random.Generator, inks: tuple, line: int, kinds: tuple,
                 period: float):
        self.t, self.rng, self.inks, self.line, self.kinds, self.period = tile, rng, inks, line, kinds, period
        self.h, self.w = tile.shape[:2]

    def pat(self) -> np.ndarray:
        r = self.rng
        c0, c1 = (self.inks[i] for i in r.choice(len(self.inks), 2, replace=False))
        kind = str(r.choice(self.kinds))
        return _pattern(kind, self.h, self.w, c0, c1, self.period * r.uniform(0.7, 1.5), r.uniform(0, 180))

    def fill(self, pts, tex: np.ndarray | None = None, outline: bool = True) -> None:
        m = np.zeros((self.h, self.w), np.uint8)
        poly(m, pts, (255,))
        self._blend(m, self.pat() if tex is None else tex)
        if outline and self.line > 0:
            poly(self.t, pts, BLACK, self.line)

    def fill_ellipse(self, cx, cy, rx, ry, ang, color=None, outline: bool = True) -> None:
        m = np.zeros((self.h, self.w), np.uint8)
        ellipse(m, cx, cy, rx, ry, ang, (255,))
        if color is None:
            self._blend(m, self.pat())
        else:
            tex = np.empty((self.h, self.w, 3), np.uint8)
            tex[:] = color
            self._blend(m, tex)
        if outline and self.line > 0:
            ellipse(self.t, cx, cy, rx, ry, ang, BLACK, self.line)

    def _blend(self, m: np.ndarray, tex: np.ndarray) -> None:
        a = (m.astype(np.float32) / 255.0)[..., None]
        self.t[:] = (self.t * (1 - a) + tex * a).astype(np.uint8)


def _crown(cx: float, cw: float, peak: float, dip: float, base: float, n: int) -> list[tuple[float, float]]:
    """The outline of a crown ``2 cw`` wide about ``cx``: ``n`` points reaching up to ``peak``
    between dips at ``dip``, on a band whose lower edge is at ``base``."""
    pts = [(cx - cw, base)]
    for i in range(n):
        x0 = cx - cw + 2 * cw * i / n
        pts += [(x0 + cw / n, peak), (x0 + 2 * cw / n, dip)]
    pts[-1] = (cx + cw, dip)
    pts.append((cx + cw, base))
    return pts


def _double_ended(tile: np.ndarray, slope: float) -> np.ndarray:
    """A double-ended picture from the upper figure drawn over the whole ``tile``: the divider
    runs through the centre with ``slope`` (0: level), and below it the tile turned 180 degrees."""
    h, w = tile.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    upper = (yy - h / 2) < slope * (xx - w / 2)
    return np.where(upper[..., None], tile, tile[::-1, ::-1])


def _figure(tile: np.ndarray, card: Card, st, rng: np.random.Generator, deck: dict) -> None:
    """The upper figure of a double-ended court card, drawn over the whole tile (the lower part
    is cut away by the divider later)."""
    h, w = tile.shape[:2]
    p = _Painter(tile, rng, deck["inks"], deck["line"], deck["kinds"], deck["period"])
    cx = w * (0.5 + rng.uniform(-0.08, 0.08))
    hr = w * rng.uniform(0.12, 0.16)
    hy = h * rng.uniform(0.17, 0.23)
    hx = cx + rng.uniform(-0.06, 0.06) * w
    sh_y = hy + hr * rng.uniform(1.2, 1.5)
    bottom = h * 0.66
    # robe from the shoulders down past the divider
    robe = [(w * rng.uniform(-0.05, 0.06), bottom), (w * rng.uniform(0.02, 0.12), sh_y + hr * 0.6),
            (hx - hr * 1.3, sh_y), (hx + hr * 1.3, sh_y), (w * rng.uniform(0.88, 0.98), sh_y + hr * 0.6),
            (w * rng.uniform(0.94, 1.05), bottom)]
    p.fill(robe)
    # a tunic panel, a sash and bands of trim
    pw = w * rng.uniform(0.12, 0.2)
    p.fill([(hx - pw, sh_y + 2), (hx + pw, sh_y + 2), (hx + pw * 1.4, bottom), (hx - pw * 1.4, bottom)])
    if rng.random() < 0.8:
        y0 = sh_y + rng.uniform(0.1, 0.5) * (bottom - sh_y)
        d = rng.uniform(-0.25, 0.25) * h
        bw = h * rng.uniform(0.03, 0.06)
        p.fill([(0, y0), (w, y0 + d), (w, y0 + d + bw), (0, y0 + bw)])
    for _ in range(int(rng.integers(1, 4))):
        y = rng.uniform(sh_y + hr, bottom)
        p.fill([(w * 0.03, y), (w * 0.97, y), (w * 0.97, y + h * 0.022), (w * 0.03, y + h * 0.022)])
    # collar with beads
    p.fill_ellipse(hx, sh_y, hr * rng.uniform(1.3, 1.8), hr * rng.uniform(0.45, 0.7), rng.uniform(-8, 8))
    bead = deck["inks"][int(rng.integers(len(deck["inks"])))]
    for k in range(9):
        t = math.pi * (0.1 + 0.8 * k / 8)
        circle(tile, hx - math.cos(t) * hr * 1.5, sh_y + math.sin(t) * hr * 0.55, max(1.0, hr * 0.09), bead)
    # an arm and what it holds
    side = rng.choice([-1, 1])
    hand = (hx + side * w * rng.uniform(0.25, 0.36), sh_y + hr * rng.uniform(0.6, 1.6))
    p.fill([(hx + side * hr * 1.0, sh_y + 2), (hx + side * hr * 1.6, sh_y + 2),
            (hand[0] + side * hr * 0.35, hand[1]), (hand[0] - side * hr * 0.35, hand[1] + hr * 0.3)])
    held = str(rng.choice({Rank.KING: ["sword", "sceptre", "axe", "orb"], Rank.QUEEN: ["flower", "sceptre", "fan"],
                           Rank.JACK: ["sword", "leaf", "halberd", "torch"]}[card.rank]))
    ink = deck["inks"]
    if held in ("sword", "sceptre", "halberd", "torch", "axe"):
        top = (hand[0] + side * rng.uniform(-0.05, 0.08) * w, rng.uniform(0.0, 0.1) * h)
        poly(tile, [(hand[0] - 1.5, hand[1] + hr * 0.8), (hand[0] + 1.5, hand[1] + hr * 0.8),
                    (top[0] + 1.5, top[1]), (top[0] - 1.5, top[1])], (180, 180, 185) if held == "sword" else GOLD)
        poly(tile, [(hand[0] - 1.5, hand[1] + hr * 0.8), (hand[0] + 1.5, hand[1] + hr * 0.8),
                    (top[0] + 1.5, top[1]), (top[0] - 1.5, top[1])], BLACK, 1)
        if held == "sword":
            poly(tile, [(hand[0] - hr * 0.6, hand[1] - 3), (hand[0] + hr * 0.6, hand[1] - 3),
                        (hand[0] + hr * 0.6, hand[1] - 6), (hand[0] - hr * 0.6, hand[1] - 6)], GOLD)
        elif held == "sceptre":
            circle(tile, top[0], top[1] + 4, hr * 0.3, ink[1])
            circle(tile, top[0], top[1] + 4, hr * 0.3, BLACK, 1)
        elif held in ("axe", "halberd"):
            p.fill([(top[0], top[1] + 4), (top[0] - side * hr * 0.9, top[1] + 2),
                    (top[0] - side * hr * 0.9, top[1] + hr * 1.1), (top[0], top[1] + hr * 0.7)])
        else:
            ellipse(tile, top[0], top[1] + hr * 0.3, hr * 0.25, hr * 0.5, 0, RED)
            ellipse(tile, top[0], top[1] + hr * 0.35, hr * 0.12, hr * 0.3, 0, GOLD)
    elif held == "flower":
        fx, fy = hand[0], hand[1] - hr * 1.2
        cv2.line(tile, (int(hand[0]), int(hand[1])), (int(fx), int(fy)), (40, 120, 40), 2, cv2.LINE_AA)
        for k in range(6):
            t = 2 * math.pi * k / 6
            circle(tile, fx + math.cos(t) * hr * 0.28, fy + math.sin(t) * hr * 0.28, hr * 0.2, ink[1])
        circle(tile, fx, fy, hr * 0.15, GOLD)
    elif held == "fan":
        p.fill([(hand[0], hand[1]), (hand[0] - hr * 1.0, hand[1] - hr * 1.3), (hand[0] + hr * 1.0, hand[1] - hr * 1.3)])
    elif held == "orb":
        circle(tile, hand[0], hand[1] - hr * 0.5, hr * 0.45, GOLD)
        circle(tile, hand[0], hand[1] - hr * 0.5, hr * 0.45, BLACK, 1)
        cv2.line(tile, (int(hand[0]), int(hand[1] - hr * 0.95)), (int(hand[0]), int(hand[1] - hr * 0.05)), BLACK, 1)
    else:  # leaf
        ellipse(tile, hand[0], hand[1] - hr * 0.8, hr * 0.25, hr * 0.8, side * 20, (40, 130, 50))
    skin = deck["skin"]
    circle(tile, hand[0], hand[1], hr * 0.28, skin)
    circle(tile, hand[0], hand[1], hr * 0.28, BLACK, 1)
    # hair behind the head
    hair = deck["hair"]
    long_hair = card.rank == Rank.QUEEN or rng.random() < 0.4
    if long_hair:
        ellipse(tile, hx, hy + hr * 0.6, hr * 1.3, hr * 1.5, 0, hair)
        for k in range(7):
            x = hx - hr * 1.1 + k * hr * 0.37
            cv2.line(tile, (int(x), int(hy)), (int(x + rng.uniform(-3, 3)), int(hy + hr * 1.9)), BLACK, 1, cv2.LINE_AA)
    # face
    ellipse(tile, hx, hy, hr * 0.85, hr, 0, skin)
    ellipse(tile, hx, hy, hr * 0.85, hr, 0, BLACK, 1)
    look = rng.uniform(-0.25, 0.25) * hr
    for sx in (-1, 1):
        ellipse(tile, hx + sx * hr * 0.35 + look, hy - hr * 0.1, hr * 0.16, hr * 0.09, 0, (245, 245, 245))
        circle(tile, hx + sx * hr * 0.35 + look * 1.2, hy - hr * 0.1, hr * 0.07, BLACK)
        cv2.line(tile, (int(hx + sx * hr * 0.15), int(hy - hr * 0.32)), (int(hx + sx * hr * 0.55), int(hy - hr * 0.3)),
                 BLACK, 1, cv2.LINE_AA)
    cv2.line(tile, (int(hx + look), int(hy - hr * 0.05)), (int(hx + look * 1.3), int(hy + hr * 0.3)), BLACK, 1, cv2.LINE_AA)
    ellipse(tile, hx + look, hy + hr * 0.55, hr * 0.22, hr * 0.07, 0, (50, 50, 180))
    if card.rank == Rank.KING or (card.rank == Rank.JACK and rng.random() < 0.3):  # moustache, beard
        poly(tile, [(hx - hr * 0.45, hy + hr * 0.4), (hx, hy + hr * 0.3), (hx + hr * 0.45, hy + hr * 0.4),
                    (hx, hy + hr * 0.48)], hair)
        if card.rank == Rank.KING:
            beard = [(hx - hr * 0.8, hy + hr * 0.2), (hx + hr * 0.8, hy + hr * 0.2), (hx + hr * 0.3, hy + hr * 1.6),
                     (hx, hy + hr * 1.8), (hx - hr * 0.3, hy + hr * 1.6)]
            poly(tile, beard, hair)
            for k in range(6):
                x = hx - hr * 0.6 + k * hr * 0.24
                cv2.line(tile, (int(x), int(hy + hr * 0.6)), (int(hx + (x - hx) * 0.4), int(hy + hr * 1.6)),
                         BLACK, 1, cv2.LINE_AA)
            poly(tile, beard, BLACK, 1)
            ellipse(tile, hx + look, hy + hr * 0.62, hr * 0.2, hr * 0.06, 0, (50, 50, 180))
    # headgear
    top = hy - hr * 0.85
    if card.rank in (Rank.KING, Rank.QUEEN):
        n = int(rng.integers(3, 6))
        cw = hr * (1.15 if card.rank == Rank.KING else 0.95)
        ch = hr * (1.0 if card.rank == Rank.KING else 0.7)
        pts = _crown(hx, cw, top - ch, top - ch * 0.35, top + hr * 0.15, n)
        poly(tile, pts, GOLD)
        poly(tile, pts, BLACK, max(1, deck["line"]))
        for i in range(n):
            x0 = hx - cw + 2 * cw * i / n + cw / n
            circle(tile, x0, top - ch, max(1.2, hr * 0.1), ink[int(rng.integers(len(ink)))])
        band = [(hx - cw, top - ch * 0.15), (hx + cw, top - ch * 0.15), (hx + cw, top + hr * 0.15), (hx - cw, top + hr * 0.15)]
        p.fill(band)
        for k in range(4):
            circle(tile, hx - cw * 0.75 + k * cw * 0.5, top, max(1.0, hr * 0.08), (RED, BLUE)[k % 2])
    else:  # jack: a cap with a feather
        cap = [(hx - hr * 1.1, top + hr * 0.2), (hx - hr * 0.9, top - hr * 0.6), (hx + hr * 0.5, top - hr * 0.8),
               (hx + hr * 1.2, top + hr * 0.1)]
        p.fill(cap)
        fs = rng.choice([-1, 1])
        ellipse(tile, hx + fs * hr * 0.9, top - hr * 0.9, hr * 0.25, hr * 0.9, fs * 35, ink[int(rng.integers(len(ink)))])
        ellipse(tile, hx + fs * hr * 0.9, top - hr * 0.9, hr * 0.25, hr * 0.9, fs * 35, BLACK, 1)
    # the suit sign beside the head, in its colour: small, or as large as a number card's pips
    # in some decks (``deck["sign"]``; the real deck's courts hold one a sixth of the card high)
    if deck["sign"] <= 0:   # toon-N's open art: its signs are drawn beside the figure instead
        return
    col = st.colors[card.suit]
    size = int(h * rng.uniform(0.07, 0.1) * deck["sign"])
    m = pip_mask(int(card.suit), st.pips, size)
    half = m.shape[1] / 2 + 2
    px = w * 0.16 if hx > w * 0.5 else w * 0.84
    px = min(max(px, half), w - half)
    paste_center(tile, m, px, max(h * rng.uniform(0.07, 0.12), m.shape[0] / 2 + 2), col)


def deck_look(seed: int) -> dict:
    """The deck-wide choices of ``rich-N``: inks, patterns, line weight, divider, frame, and how
    large the suit sign beside the figure is (``sign``: 1 as before, or 1.7-2.6 times that in
    four decks of ten: the real deck's courts hold one a sixth of the card high).

    >>> signs = [deck_look(n)["sign"] for n in range(100000, 100400)]
    >>> min(signs) == 1.0, 0.3 < sum(s > 1.0 for s in signs) / len(signs) < 0.5, max(signs) <= 2.6
    (True, True, True)
    """
    rng = np.random.default_rng([int(seed), 71])
    if rng.random() < 0.55:  # the classic four court inks
        inks = [GOLD, RED, BLUE, BLACK]
        if rng.random() < 0.5:
            inks.append((245, 245, 245))
    else:
        inks = [tuple(int(v) for v in rng.integers(10, 245, 3)) for _ in range(int(rng.integers(3, 6)))]
        inks.append(GOLD if rng.random() < 0.6 else BLACK)
    k = int(rng.integers(4, 8))
    kinds = tuple(str(x) for x in rng.choice(PATTERNS, k, replace=False))
    return {"inks": tuple(inks), "kinds": kinds, "line": int(rng.choice([1, 1, 2])),
            "period": float(rng.uniform(4.0, 9.0)), "diagonal": bool(rng.random() < 0.6),
            "slope": float(rng.uniform(0.15, 0.5)) * float(rng.choice([-1, 1])),
            "frame": tuple(int(v) for v in (BLUE, BLACK, RED, GOLD)[int(rng.integers(4))]),
            "frame_w": int(rng.choice([1, 2, 2, 3])), "double_frame": bool(rng.random() < 0.4),
            "ground": str(rng.choice(["paper", "paper", "tint", "pattern"])),
            "skin": SKIN[int(rng.integers(len(SKIN)))], "hair": HAIR[int(rng.integers(len(HAIR)))],
            "x0": float(rng.uniform(0.225, 0.25)), "y0": float(rng.uniform(0.07, 0.1)),
            # drawn last, so that the choices above stay those of decks drawn before it existed
            "sign": float(rng.uniform(1.7, 2.6)) if rng.random() < 0.4 else 1.0}


def draw_rich_court(img: np.ndarray, card: Card, st, seed: int) -> None:
    """Draw the ``rich-N`` court figure of ``card`` into the canonical card ``img`` (BGRA)."""
    from dealer_assist.vision.synth.faces import CANON_H, CANON_W

    deck = deck_look(seed)
    rng = np.random.default_rng([int(seed), int(card.rank), int(card.suit), 72])
    fx0, fy0 = deck["x0"] * CANON_W, deck["y0"] * CANON_H
    if st.jumbo:
        fx0, fy0 = 0.24 * CANON_W, 0.27 * CANON_H
    fx1, fy1 = CANON_W - fx0, CANON_H - fy0
    x0, y0, x1, y1 = int(round(fx0)), int(round(fy0)), int(round(fx1)), int(round(fy1))
    fw, fh = x1 - x0, y1 - y0
    paper = np.asarray(st.paper, np.float32)
    tile = np.empty((fh, fw, 3), np.uint8)
    if deck["ground"] == "tint":
        tile[:] = (paper * 0.8 + np.asarray(deck["inks"][0], np.float32) * 0.2).astype(np.uint8)
    elif deck["ground"] == "pattern":
        tile[:] = _pattern("dots", fh, fw, tuple(int(v) for v in paper),
                           tuple(int(v) for v in (paper * 0.6 + np.asarray(deck["inks"][0]) * 0.4)), 6.0, 45)
    else:
        tile[:] = paper.astype(np.uint8)
    _figure(tile, card, st, rng, deck)
    slope = deck["slope"] if deck["diagonal"] else 0.0
    img[y0:y1, x0:x1, :3] = _double_ended(tile, slope)
    fc = deck["frame"]
    cv2.line(img, (x0, int(round(fh / 2 - slope * fw / 2)) + y0), (x1 - 1, int(round(fh / 2 + slope * fw / 2)) + y0),
             fc + (255,), deck["line"], cv2.LINE_AA)
    poly(img, [(fx0, fy0), (fx1, fy0), (fx1, fy1), (fx0, fy1)], fc + (255,), deck["frame_w"])
    if deck["double_frame"]:
        d = 3   # inside the first: the index corner stays clear
        poly(img, [(fx0 + d, fy0 + d), (fx1 - d, fy0 + d), (fx1 - d, fy1 - d), (fx0 + d, fy1 - d)], fc + (255,), 1)


# --- open and cartoon court art (``toon-N``) -------------------------------------------------------

#: The share of the card's width and height, from each corner, that ``toon-N`` art leaves as paper
#: where an index lies (every deck's index is inside x 0.03-0.22, y 0.02-0.27: :mod:`styles`).
INDEX_CLEAR_W, INDEX_CLEAR_H = 0.235, 0.285
TOON_KINDS = ("bust", "double", "open")


def toon_look(seed: int) -> dict:
    """The deck-wide choices of ``toon-N``: the kind of art (a single-ended cartoon bust, a
    double-ended cartoon figure, or the ``rich-N`` figure with no frame, wrapped round the index
    corners), where the large suit signs are (top left and bottom right, one of them, or none),
    their size (0.16-0.3 of the card's width: as large as or larger than a number card's pips),
    an outline or none, and the inks.

    >>> looks = [toon_look(n) for n in range(200000, 200300)]
    >>> sorted({x["kind"] for x in looks}) == sorted(TOON_KINDS), all(0.16 <= x["sign"] <= 0.3 for x in looks)
    (True, True)
    >>> 0.5 < sum(x["signs"] == ("tl", "br") for x in looks) / len(looks) < 0.7
    True
    """
    rng = np.random.default_rng([int(seed), 73])
    kind = str(rng.choice(TOON_KINDS, p=[0.4, 0.25, 0.35]))
    u = rng.random()
    signs = ("tl", "br") if u < 0.6 else ("br",) if u < 0.82 else ("tl",) if u < 0.92 else ()
    rich = deck_look(seed)
    inks = tuple(tuple(int(v) for v in rng.integers(20, 240, 3)) for _ in range(int(rng.integers(3, 6))))
    return {"kind": kind, "signs": signs, "sign": float(rng.uniform(0.16, 0.3)),
            "frame": bool(rng.random() < 0.35), "outline": int(rng.choice([1, 2, 2, 3])),
            "inks": inks if rng.random() < 0.6 else rich["inks"], "rich": rich,
            "head": float(rng.uniform(0.11, 0.17)), "body": float(rng.uniform(0.5, 0.75))}


def _cartoon(tile: np.ndarray, card: Card, rng: np.random.Generator, look: dict, cx: float, hy: float,
             bottom: float) -> None:
    """A cartoon figure into ``tile`` (BGR): a big round head at (cx, hy), a crown (king, queen) or
    a cap (jack), hair, a face, and a body in one flat ink or a pattern down to ``bottom``."""
    h, w = tile.shape[:2]
    ln = look["outline"]
    inks = look["inks"]
    hr = w * look["head"] * rng.uniform(0.9, 1.1)
    bw = w * look["body"] * rng.uniform(0.85, 1.05) / 2
    sh = hy + hr * 1.05
    body = [(cx - bw, bottom), (cx - bw * 0.95, sh + hr * 0.5), (cx - bw * 0.55, sh), (cx + bw * 0.55, sh),
            (cx + bw * 0.95, sh + hr * 0.5), (cx + bw, bottom)]
    if rng.random() < 0.5:
        p = _Painter(tile, rng, inks + (BLACK,), ln, ("stripes", "checks", "dots", "plain", "bands"), 7.0)
        p.fill(body)
    else:
        poly(tile, body, inks[int(rng.integers(len(inks)))])
        poly(tile, body, BLACK, ln)
    # a collar, or a band down the chest
    c2 = inks[int(rng.integers(len(inks)))]
    if rng.random() < 0.5:
        poly(tile, [(cx - bw * 0.5, sh), (cx, sh + hr * 0.9), (cx + bw * 0.5, sh)], c2)
    else:
        poly(tile, [(cx - hr * 0.18, sh), (cx + hr * 0.18, sh), (cx + hr * 0.18, bottom), (cx - hr * 0.18, bottom)], c2)
    hair = HAIR[int(rng.integers(len(HAIR)))]
    if card.rank == Rank.QUEEN or rng.random() < 0.3:
        ellipse(tile, cx, hy + hr * 0.5, hr * 1.25, hr * 1.35, 0, hair)
    skin = SKIN[int(rng.integers(len(SKIN)))]
    circle(tile, cx, hy, hr, skin)
    circle(tile, cx, hy, hr, BLACK, ln)
    for sx in (-1, 1):
        circle(tile, cx + sx * hr * 0.38, hy - hr * 0.05, max(1.2, hr * 0.12), BLACK)
    ellipse(tile, cx, hy + hr * 0.45, hr * 0.3, hr * 0.12, 0, (60, 60, 190))
    if card.rank == Rank.KING and rng.random() < 0.8:
        poly(tile, [(cx - hr * 0.8, hy + hr * 0.3), (cx + hr * 0.8, hy + hr * 0.3), (cx, hy + hr * 1.4)], hair)
    top = hy - hr * 0.8
    if card.rank in (Rank.KING, Rank.QUEEN):
        n = int(rng.integers(3, 6))
        cw, ch = hr * (1.0 if card.rank == Rank.KING else 0.8), hr * (0.9 if card.rank == Rank.KING else 0.6)
        pts = _crown(cx, cw, top - ch, top - ch * 0.3, top + hr * 0.2, n)
        poly(tile, pts, GOLD)
        poly(tile, pts, BLACK, ln)
    else:
        cap = [(cx - hr * 1.05, top + hr * 0.35), (cx - hr * 0.8, top - hr * 0.45), (cx + hr * 0.7, top - hr * 0.55),
               (cx + hr * 1.1, top + hr * 0.3)]
        poly(tile, cap, inks[int(rng.integers(len(inks)))])
        poly(tile, cap, BLACK, ln)


def draw_toon_court(img: np.ndarray, card: Card, st, seed: int) -> None:
    """Draw the ``toon-N`` court art of ``card`` into the canonical card ``img`` (BGRA): a
    cartoon bust or double-ended figure on the paper, or the ``rich-N`` figure with no frame
    wrapped round the index corners, and the suit's large sign beside it (:func:`toon_look`).
    The corners where an index lies stay paper.

    >>> from dealer_assist.vision.synth.faces import render_card
    >>> a = render_card("Qd", "gen-03~toon-200001", 110); a.shape
    (154, 110, 4)
    >>> bool((a[:, :, :3] != render_card("Qd", "gen-03~toon-200002", 110)[:, :, :3]).any())
    True
    """
    from dealer_assist.vision.synth.faces import CANON_H, CANON_W

    look = toon_look(seed)
    rng = np.random.default_rng([int(seed), int(card.rank), int(card.suit), 74])
    W, H = CANON_W, CANON_H
    tile = img[:, :, :3].copy()
    paper = np.asarray(st.paper, np.uint8)
    kind = look["kind"]
    if kind == "bust":
        _cartoon(tile, card, rng, look, W * rng.uniform(0.42, 0.58), H * rng.uniform(0.33, 0.42), H * rng.uniform(0.68, 0.8))
    elif kind == "double":
        half = tile.copy()
        _cartoon(half, card, rng, look, W * rng.uniform(0.45, 0.55), H * rng.uniform(0.2, 0.26), H * 0.62)
        tile = _double_ended(half, 0.0)
        if rng.random() < 0.5:
            cv2.line(tile, (int(W * 0.2), H // 2), (int(W * 0.8), H // 2), BLACK, 1, cv2.LINE_AA)
    else:  # open: the rich figure with no frame, across the card
        rich = look["rich"]
        x0, y0 = int(W * 0.1), int(H * 0.04)
        fw, fh = W - 2 * x0, H - 2 * y0
        part = np.empty((fh, fw, 3), np.uint8)
        part[:] = paper
        _figure(part, card, st, rng, {**rich, "sign": 0.0})
        tile[y0:y0 + fh, x0:x0 + fw] = _double_ended(part, rich["slope"] if rich["diagonal"] else 0.0)
    # the corners where an index lies stay paper (the art wraps round them)
    cw, ch = int(round(W * INDEX_CLEAR_W)), int(round(H * INDEX_CLEAR_H))
    corners = [(slice(0, ch), slice(0, cw)), (slice(H - ch, H), slice(W - cw, W))]
    if st.four_index:
        corners += [(slice(0, ch), slice(W - cw, W)), (slice(H - ch, H), slice(0, cw))]
    base = img[:, :, :3]
    for ys, xs in corners:
        tile[ys, xs] = base[ys, xs]
    # the suit's large signs beside the figure, just inside the index corners
    col = st.colors[card.suit]
    m = pip_mask(int(card.suit), st.pips, int(W * look["sign"] * 1.15))
    for where in look["signs"]:
        sx = W * INDEX_CLEAR_W + m.shape[1] / 2 + 2
        sy = H * rng.uniform(0.1, 0.2)
        if where == "br":
            paste_center(tile, m, W - sx, H - sy, col, rotate180=True)
        else:
            paste_center(tile, m, sx, sy, col)
    if look["frame"]:
        fx0, fy0 = W * INDEX_CLEAR_W, H * 0.05
        poly(tile, [(fx0, fy0), (W - fx0, fy0), (W - fx0, H - fy0), (fx0, H - fy0)], BLACK, 1)
    img[:, :, :3] = tile
