"""Card faces and backs drawn from a style: index corners, pip layouts, procedural court art,
jokers and back patterns. Everything is drawn at a canonical size (:data:`CANON_W` x
:data:`CANON_H`) as BGRA (alpha 0 outside the rounded corners) and cached.

>>> img = render_card("Qh", "bicycle-like", 100)
>>> img.shape, img.dtype.name
((140, 100, 4), 'uint8')
>>> int(img[0, 0, 3]), int(img[70, 50, 3])          # rounded corner is transparent
(0, 255)
"""
from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card, Rank, parse_card
from dealer_assist.vision.synth.draw import FontSpec, circle, ellipse, glyph_mask, paste, \
    paste_center, pip_mask, poly
from dealer_assist.vision.synth.styles import BACK_STYLES, DECK_STYLES, JOKER_STYLES, BackStyle, \
    DeckStyle, JokerStyle, deck_style

CANON_W = 220
CANON_H = 307          # 220 * 88 / 63, rounded
CORNER_R = 0.055       # corner radius, fraction of the width

#: Default index box (x0, y0, x1, y1, fractions of the card) used for cards whose corner holds
#: no index (jokers without one): the region where an index would be.
DEFAULT_INDEX_BOX = (0.04, 0.03, 0.2, 0.25)

#: A style name ``IMAGE_DECK + FOLDER`` is a deck someone else drew, one image a card in FOLDER
#: (``Ah.png``, ``JK.png``, ``BACK.png``; :func:`image_deck_canvas`): never trained on, it measures
#: reading decks the project has not drawn (``benchmarks/eval_decks.py``).
IMAGE_DECK = "file:"
#: The file beside an image deck's cards saying where its indices lie: ``{"index_box": [x0, y0,
#: x1, y1], "joker_index": true|false}`` (card fractions); without it :data:`DEFAULT_INDEX_BOX`,
#: and a joker without an index.
IMAGE_DECK_INFO = "deck.json"

_RANK_TEXT = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}


@functools.lru_cache(maxsize=1)
def _outline() -> np.ndarray:
    """Alpha of the card outline (rounded corners), read-only."""
    alpha = np.zeros((CANON_H, CANON_W), np.uint8)
    r = CORNER_R * CANON_W
    pts = []
    for cx, cy, a0 in ((CANON_W - 0.5 - r, r - 0.5, -90), (CANON_W - 0.5 - r, CANON_H - 0.5 - r, 0),
                       (r - 0.5, CANON_H - 0.5 - r, 90), (r - 0.5, r - 0.5, 180)):
        for a in np.linspace(a0, a0 + 90, 8):
            pts.append((cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))))
    ip = np.round(np.array(pts) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(alpha, [ip], 255, cv2.LINE_AA, 4)
    alpha.setflags(write=False)
    return alpha


def _blank(paper, border=None) -> np.ndarray:
    img = np.empty((CANON_H, CANON_W, 4), np.uint8)
    img[..., :3] = paper
    img[..., 3] = _outline()
    if border is not None:
        col, inset, th = border
        d = inset * CANON_W
        poly(img, [(d, d), (CANON_W - d, d), (CANON_W - d, CANON_H - d), (d, CANON_H - d)],
             tuple(col) + (255,), th)
    return img


def rank_text(card: Card, style: DeckStyle) -> str:
    if card.rank in _RANK_TEXT:
        return _RANK_TEXT[card.rank]
    return style.ten if card.rank == Rank.TEN else str(int(card.rank))


def _draw_index(img: np.ndarray, card: Card, st: DeckStyle) -> tuple:
    """Draw the rank-over-suit index at TL and (turned) BR; returns its box in card fractions."""
    col = st.colors[card.suit]
    rh = int(round(st.rank_h * CANON_H))
    rmask = glyph_mask(rank_text(card, st), st.font, rh, int(st.rank_w * CANON_W))
    sh = int(round(st.suit_h * CANON_H))
    smask = pip_mask(int(card.suit), st.pips, sh)
    x0, y0 = st.index_x * CANON_W, st.index_y * CANON_H
    box_w = max(rmask.shape[1], smask.shape[1])
    cx = x0 + box_w / 2.0
    gap = 0.012 * CANON_H
    placements = [(rmask, cx - rmask.shape[1] / 2.0, y0), (smask, cx - smask.shape[1] / 2.0, y0 + rh + gap)]
    corners = [(False, False), (True, True)]  # (mirror x, mirror y) = TL, BR
    if st.four_index:
        corners += [(True, False), (False, True)]
    for mx, my in corners:
        for m, x, y in placements:
            h, w = m.shape
            px = CANON_W - x - w if mx else x
            py = CANON_H - y - h if my else y
            paste(img, m, px, py, col, rotate180=(mx and my))
            # the TR / BL copies of a 4-index deck stay upright (as printed on such decks)
    x1 = (x0 + box_w) / CANON_W
    y1 = (y0 + rh + gap + sh) / CANON_H
    return (st.index_x, st.index_y, round(x1, 4), round(y1, 4))


_LAYOUT = {  # pip centres (x, y) in card fractions, bottom-half pips are drawn turned
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.32, 0.2), (0.68, 0.2), (0.32, 0.8), (0.68, 0.8)],
    5: [(0.32, 0.2), (0.68, 0.2), (0.5, 0.5), (0.32, 0.8), (0.68, 0.8)],
    6: [(0.32, 0.2), (0.68, 0.2), (0.32, 0.5), (0.68, 0.5), (0.32, 0.8), (0.68, 0.8)],
    7: [(0.32, 0.2), (0.68, 0.2), (0.5, 0.35), (0.32, 0.5), (0.68, 0.5), (0.32, 0.8), (0.68, 0.8)],
    8: [(0.32, 0.2), (0.68, 0.2), (0.5, 0.35), (0.32, 0.5), (0.68, 0.5), (0.5, 0.65), (0.32, 0.8),
        (0.68, 0.8)],
    9: [(0.32, 0.2), (0.68, 0.2), (0.32, 0.4), (0.68, 0.4), (0.5, 0.5), (0.32, 0.6), (0.68, 0.6),
        (0.32, 0.8), (0.68, 0.8)],
    10: [(0.32, 0.2), (0.68, 0.2), (0.5, 0.3), (0.32, 0.4), (0.68, 0.4), (0.32, 0.6), (0.68, 0.6),
         (0.5, 0.7), (0.32, 0.8), (0.68, 0.8)],
}


def _draw_pips(img: np.ndarray, card: Card, st: DeckStyle) -> None:
    col = st.colors[card.suit]
    n = int(card.rank)
    pw = st.pip_w * CANON_W
    if st.jumbo:  # jumbo decks: smaller pips squeezed into the middle
        pts = [(0.5 + (x - 0.5) * 0.8, 0.5 + (y - 0.5) * 0.72) for x, y in _LAYOUT[n]]
        pw *= 0.85
    else:
        pts = _LAYOUT[n]
    m = pip_mask(int(card.suit), st.pips, int(round(pw * 1.15)))
    for x, y in pts:
        paste_center(img, m, x * CANON_W, y * CANON_H, col, rotate180=y > 0.5)


#: Makers' names and small print for the seeded fancy ace of spades (made-up words).
_MAKER = ("ROYALE", "MONARCH", "GALLEON", "TIGER", "CASINO", "REGENT", "ACE", "CROWN", "ORIENT",
          "PEGASUS", "SAKURA", "NO. 88", "CLUB 7", "EMPIRE", "VENUS", "DRAGON")


def _draw_fancy_ace(img: np.ndarray, card: Card, st: DeckStyle, seed: int) -> None:
    """A seeded fancy ace of spades (``fancy-N``), drawn as real decks print theirs: a large
    spade filled with white scrolls, rings and a small emblem, the maker's name above or below
    it and lines of small print, one end turned. The project's own drawing, no deck's art."""
    import random

    rnd = random.Random(seed * 7907 + 3)
    col = st.colors[card.suit]
    size = rnd.uniform(0.42, 0.6) * CANON_W
    cx, cy = CANON_W / 2, CANON_H / 2 + rnd.uniform(-0.03, 0.03) * CANON_H
    m = pip_mask(3, st.pips, int(round(size * 1.2)))
    paste_center(img, m, cx, cy, col)
    h, w = m.shape
    white = tuple(st.paper) + (255,)
    # white ornament inside the body: an inner outline, rings, scrolls, an emblem
    inner = pip_mask(3, st.pips, int(round(h * rnd.uniform(0.55, 0.75))))
    edge = np.clip(inner - cv2.erode(inner, np.ones((3, 3), np.uint8)), 0, 1)
    paste_center(img, edge, cx, cy - h * 0.06, white)
    for _ in range(rnd.randint(2, 6)):
        ox, oy = rnd.uniform(-0.18, 0.18) * w, rnd.uniform(-0.25, 0.1) * h
        circle(img, cx + ox, cy + oy, rnd.uniform(0.03, 0.09) * w, white, rnd.choice([1, 2, -1]))
    for side in (-1, 1):
        if rnd.random() < 0.7:
            pts = [(cx + side * w * (0.05 + 0.2 * t), cy - h * 0.2 + h * 0.35 * t + math.sin(t * 6) * h * 0.04)
                   for t in np.linspace(0, 1, 9)]
            poly(img, pts, white, 1)
    kind = rnd.random()
    if kind < 0.4:    # a small figure: head and shoulders
        circle(img, cx, cy - h * 0.12, w * 0.07, white, -1)
        ellipse(img, cx, cy + h * 0.02, w * 0.12, h * 0.08, 0, white, -1)
    elif kind < 0.7:  # a ring with a letter or sign
        circle(img, cx, cy - h * 0.08, w * 0.14, white, -1)
        paste_center(img, pip_mask(3, st.pips, int(w * 0.16)), cx, cy - h * 0.08, col)
    # the maker's name and small print
    font = rnd.choice([FontSpec("ttf", "DejaVuSerif-Bold.ttf"), FontSpec("ttf", "DejaVuSans-Bold.ttf"),
                       FontSpec("ttf", "DejaVuSerif.ttf")])
    name = glyph_mask(rnd.choice(_MAKER), font, int(CANON_H * rnd.uniform(0.045, 0.07)), int(CANON_W * 0.6))
    above = rnd.random() < 0.5
    y_name = cy - h / 2 - CANON_H * 0.06 if above else cy + h / 2 + CANON_H * 0.06
    ink = (40, 40, 40)
    paste_center(img, name, cx, y_name, ink, rotate180=not above and rnd.random() < 0.6)
    small = FontSpec("ttf", "DejaVuSans.ttf")
    for k in range(rnd.randint(1, 3)):
        words = " ".join(rnd.choice(("THE", "PLAYING", "CARD", "COMPANY", "MADE", "IN", "No.", "808", "1884",
                                     "CO.", "LTD", "QUALITY")) for _ in range(rnd.randint(2, 5)))
        line = glyph_mask(words, small, int(CANON_H * 0.022), int(CANON_W * 0.62))
        y = (cy + h / 2 + CANON_H * (0.05 + 0.035 * k)) if above else (cy - h / 2 - CANON_H * (0.05 + 0.035 * k))
        paste_center(img, line, cx, y, ink, rotate180=True)


def _draw_ace(img: np.ndarray, card: Card, st: DeckStyle) -> None:
    col = st.colors[card.suit]
    if st.ace.startswith("fancy-"):
        if card.suit == 3:
            _draw_fancy_ace(img, card, st, int(st.ace[6:]))
            return
        size = 0.3 * CANON_W      # the other aces of such a deck: one middling pip
    else:
        size = {"plain": 0.22, "big": 0.38, "ornate": 0.42}[st.ace] * CANON_W
    if st.ace == "ornate" and card.suit == 3:
        circle(img, CANON_W / 2, CANON_H / 2, size * 0.95, st.palette[1] + (255,), 3)
        circle(img, CANON_W / 2, CANON_H / 2, size * 0.85, st.palette[0] + (255,), 1)
    m = pip_mask(int(card.suit), st.pips, int(round(size * 1.2)))
    paste_center(img, m, CANON_W / 2, CANON_H / 2, col)


def _figure_half(st: DeckStyle, card: Card, w: int, h: int, line: bool) -> np.ndarray:
    """Upper half of a double-ended court figure drawn into a BGRA tile (w x h)."""
    tile = np.zeros((h, w, 4), np.uint8)
    p = st.palette
    col_suit = st.colors[card.suit]
    cx = w * 0.5
    th = -1 if not line else 2
    ink = (30, 30, 30, 255)

    def fill(c):
        return (30, 30, 30, 255) if line else tuple(c) + (255,)

    # robe / shoulders
    body = [(w * 0.08, h), (w * 0.15, h * 0.62), (cx, h * 0.55), (w * 0.85, h * 0.62), (w * 0.92, h)]
    poly(tile, body, fill(p[0]), th)
    if not line:
        for k in range(4):  # robe bands
            y = h * (0.68 + 0.08 * k)
            poly(tile, [(w * 0.12, y), (w * 0.88, y), (w * 0.88, y + h * 0.035), (w * 0.12, y + h * 0.035)],
                 tuple(p[(k + 1) % 4]) + (255,))
        poly(tile, [(cx - w * 0.07, h * 0.57), (cx + w * 0.07, h * 0.57), (cx, h)], tuple(p[2]) + (255,))
    # head
    hr = w * 0.16
    hy = h * 0.38
    circle(tile, cx, hy, hr, (170, 200, 240, 255) if not line else ink, th)
    if not line:
        circle(tile, cx - hr * 0.35, hy - hr * 0.1, hr * 0.09, ink)
        circle(tile, cx + hr * 0.35, hy - hr * 0.1, hr * 0.09, ink)
        poly(tile, [(cx - hr * 0.3, hy + hr * 0.45), (cx + hr * 0.3, hy + hr * 0.45)], ink, 1)
    if card.rank == Rank.KING:  # crown with points and a beard
        pts = [(cx - hr * 1.1, hy - hr * 0.7)]
        for i in range(5):
            pts += [(cx - hr * 1.1 + hr * 0.55 * i + hr * 0.27, hy - hr * 1.8),
                    (cx - hr * 1.1 + hr * 0.55 * (i + 1), hy - hr * 1.2)]
        pts[-1] = (cx + hr * 1.1, hy - hr * 0.7)
        poly(tile, pts, fill(p[2]), th)
        poly(tile, [(cx - hr, hy + hr * 0.3), (cx + hr, hy + hr * 0.3), (cx, hy + hr * 1.7)], fill(p[3]), th)
    elif card.rank == Rank.QUEEN:  # tiara and long hair
        ellipse(tile, cx, hy + hr * 0.4, hr * 1.5, hr * 1.6, 0, fill(p[3]), th)
        circle(tile, cx, hy, hr, (170, 200, 240, 255) if not line else ink, th)
        poly(tile, [(cx - hr, hy - hr * 0.8), (cx - hr * 0.5, hy - hr * 1.5), (cx, hy - hr * 1.1),
                    (cx + hr * 0.5, hy - hr * 1.5), (cx + hr, hy - hr * 0.8)], fill(p[2]), th)
        circle(tile, cx, hy - hr * 1.3, hr * 0.2, fill(p[1]), th)
    else:  # jack: feathered cap
        poly(tile, [(cx - hr * 1.2, hy - hr * 0.6), (cx + hr * 1.2, hy - hr * 0.6), (cx + hr * 0.6, hy - hr * 1.4),
                    (cx - hr * 0.9, hy - hr * 1.3)], fill(p[1]), th)
        poly(tile, [(cx + hr * 0.5, hy - hr * 1.3), (cx + hr * 1.8, hy - hr * 2.1), (cx + hr * 0.9, hy - hr * 1.0)],
             fill(p[2]), th)
    # the suit sign the figure holds
    m = pip_mask(int(card.suit), st.pips, int(h * 0.16))
    paste_center(tile, m, w * 0.22, h * 0.5, col_suit)
    return tile


def _draw_court(img: np.ndarray, card: Card, st: DeckStyle) -> None:
    if st.court.startswith("rich-"):  # busy, detailed seeded art (courts.py; training decks only)
        from dealer_assist.vision.synth.courts import draw_rich_court
        draw_rich_court(img, card, st, int(st.court[5:]))
        return
    if st.court.startswith("toon-"):  # open and cartoon seeded art (courts.py; training decks only)
        from dealer_assist.vision.synth.courts import draw_toon_court
        draw_toon_court(img, card, st, int(st.court[5:]))
        return
    col = st.colors[card.suit]
    fx0, fy0 = 0.22 * CANON_W, 0.1 * CANON_H
    fx1, fy1 = CANON_W - fx0, CANON_H - fy0
    if st.jumbo:
        fx0, fy0, fx1, fy1 = 0.26 * CANON_W, 0.3 * CANON_H, 0.74 * CANON_W, 0.7 * CANON_H
    fw, fh = int(fx1 - fx0), int(fy1 - fy0)
    if st.court == "letter":  # modern: a big letter over a large pip, point-symmetric
        m = pip_mask(int(card.suit), st.pips, int(fh * 0.3))
        paste_center(img, m, CANON_W / 2, CANON_H / 2, col, alpha=0.25)
        lm = glyph_mask(_RANK_TEXT[card.rank], st.font, int(fh * 0.34), int(fw * 0.8))
        paste_center(img, lm, CANON_W / 2, fy0 + fh * 0.25, col)
        paste_center(img, lm, CANON_W / 2, fy1 - fh * 0.25, col, rotate180=True)
        poly(img, [(fx0, fy0), (fx1, fy0), (fx1, fy1), (fx0, fy1)], tuple(col) + (255,), 1)
        return
    if st.court == "geo":  # abstract: a big emblem per rank, point-symmetric
        p = st.palette
        cx, cy = CANON_W / 2, CANON_H / 2
        poly(img, [(fx0, fy0), (fx1, fy0), (fx1, fy1), (fx0, fy1)], tuple(p[3]) + (255,))
        if card.rank == Rank.KING:
            for k in (0, 1):
                sgn = 1 if k == 0 else -1
                pts = [(cx - fw * 0.4, cy - sgn * 8), (cx - fw * 0.4, cy - sgn * fh * 0.3),
                       (cx - fw * 0.2, cy - sgn * fh * 0.15), (cx, cy - sgn * fh * 0.4),
                       (cx + fw * 0.2, cy - sgn * fh * 0.15), (cx + fw * 0.4, cy - sgn * fh * 0.3),
                       (cx + fw * 0.4, cy - sgn * 8)]
                poly(img, pts, tuple(p[k]) + (255,))
        elif card.rank == Rank.QUEEN:
            poly(img, [(cx, fy0 + 6), (fx1 - 6, cy), (cx, fy1 - 6), (fx0 + 6, cy)], tuple(p[0]) + (255,))
            circle(img, cx, cy, fw * 0.3, tuple(p[1]) + (255,))
            circle(img, cx, cy, fw * 0.15, tuple(p[2]) + (255,))
        else:
            poly(img, [(fx0 + 6, fy0 + 6), (fx1 - 6, fy0 + 6), (cx, cy)], tuple(p[0]) + (255,))
            poly(img, [(fx0 + 6, fy1 - 6), (fx1 - 6, fy1 - 6), (cx, cy)], tuple(p[1]) + (255,))
        m = pip_mask(int(card.suit), st.pips, int(fh * 0.14))
        paste_center(img, m, cx, cy, col)
        return
    line = st.court == "line"
    if st.court == "bust":  # a single-ended portrait filling the frame
        full = _figure_half(st, card, fw, fh, False)
    else:
        half = _figure_half(st, card, fw, fh // 2, line)
        full = np.concatenate([half, half[::-1, ::-1]], 0)
    x, y = int(fx0), int(fy0)
    a = full[..., 3:4].astype(np.float32) / 255.0
    reg = img[y:y + full.shape[0], x:x + fw, :3].astype(np.float32)
    img[y:y + full.shape[0], x:x + fw, :3] = (reg * (1 - a) + full[..., :3] * a).astype(np.uint8)
    frame_col = tuple(st.palette[0]) + (255,) if not line else (40, 40, 40, 255)
    poly(img, [(fx0, fy0), (fx1, fy0), (fx1, fy1), (fx0, fy1)], frame_col, 2)
    if st.court != "bust":
        cv2.line(img, (int(fx0), int(fy0 + fh / 2)), (int(fx1), int(fy0 + fh / 2)), frame_col, 1, cv2.LINE_AA)


def _star(cx: float, cy: float, r: float, n: int = 5, inner: float = 0.45, rot: float = -90) -> list:
    pts = []
    for i in range(2 * n):
        rr = r if i % 2 == 0 else r * inner
        a = math.radians(rot + 180.0 * i / n)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _draw_joker(img: np.ndarray, js: JokerStyle) -> tuple | None:
    W, H = CANON_W, CANON_H
    cx, cy = W / 2, H / 2
    c, acc = tuple(js.color) + (255,), tuple(js.accent) + (255,)
    if js.art == "jester":
        poly(img, [(cx - 55, cy + 5), (cx - 80, cy - 70), (cx - 20, cy - 30), (cx, cy - 95), (cx + 20, cy - 30),
                   (cx + 80, cy - 70), (cx + 55, cy + 5)], acc)
        for bx, by in ((cx - 80, cy - 70), (cx, cy - 95), (cx + 80, cy - 70)):
            circle(img, bx, by, 9, c)
        circle(img, cx, cy + 30, 42, (180, 210, 245, 255))
        circle(img, cx - 15, cy + 22, 5, c)
        circle(img, cx + 15, cy + 22, 5, c)
        cv2.ellipse(img, (int(cx), int(cy + 38)), (20, 12), 0, 0, 180, c, 3, cv2.LINE_AA)
        poly(img, [(cx - 60, cy + 75), (cx + 60, cy + 75), (cx + 40, cy + 120), (cx - 40, cy + 120)], c)
    elif js.art == "star":
        poly(img, _star(cx, cy - 10, 80), acc)
        poly(img, _star(cx, cy - 10, 45, inner=0.5, rot=-54), c)
        m = glyph_mask("JOKER", FontSpec("ttf", "DejaVuSans-Bold.ttf"), 30, int(W * 0.75))
        paste_center(img, m, cx, cy + 95, js.color)
    elif js.art == "mask":
        ellipse(img, cx, cy, 70, 90, 0, acc)
        ellipse(img, cx - 28, cy - 20, 18, 10, -15, (250, 250, 250, 255))
        ellipse(img, cx + 28, cy - 20, 18, 10, 15, (250, 250, 250, 255))
        cv2.ellipse(img, (int(cx), int(cy + 25)), (35, 22), 0, 0, 180, c, 5, cv2.LINE_AA)
        for k in range(6):
            a = math.radians(200 + k * 28)
            poly(img, [(cx + 60 * math.cos(a), cy - 70 + 30 * math.sin(a)),
                       (cx + 110 * math.cos(a), cy - 80 + 60 * math.sin(a)),
                       (cx + 70 * math.cos(a + 0.2), cy - 70 + 30 * math.sin(a + 0.2))], c)
    elif js.art == "word":
        m = glyph_mask("JOKER", js.font, 44, int(W * 0.8))
        tilt = cv2.getRotationMatrix2D((m.shape[1] / 2, m.shape[0] / 2), 55, 1.0)
        side = int(max(m.shape) * 1.1)
        tilt[0, 2] += (side - m.shape[1]) / 2
        tilt[1, 2] += (side - m.shape[0]) / 2
        rm = cv2.warpAffine(m, tilt, (side, side))
        paste_center(img, rm, cx, cy, js.color)
        poly(img, _star(cx - 50, cy - 80, 25), acc)
        poly(img, _star(cx + 50, cy + 80, 25), acc)
    elif js.art == "harlequin":
        s = 28
        for i in range(-1, W // s + 2):
            for j in range(-1, H // s + 2):
                if (i + j) % 2 == 0:
                    x, y = 30 + i * s * 0.5, 40 + j * s * 0.8
                    if 30 < x < W - 30 and 40 < y < H - 40:
                        poly(img, [(x, y - s * 0.4), (x + s * 0.25, y), (x, y + s * 0.4), (x - s * 0.25, y)],
                             acc if (i // 2 + j) % 2 else c)
        m = glyph_mask("JOKER", FontSpec("ttf", "DejaVuSerifCondensed-Bold.ttf"), 28, int(W * 0.7))
        poly(img, [(cx - 80, cy - 22), (cx + 80, cy - 22), (cx + 80, cy + 22), (cx - 80, cy + 22)], (250, 250, 250, 255))
        paste_center(img, m, cx, cy, js.color)
    elif js.art == "sun":
        for k in range(16):
            a = math.radians(k * 22.5)
            poly(img, [(cx + 40 * math.cos(a - 0.15), cy + 40 * math.sin(a - 0.15)),
                       (cx + 95 * math.cos(a), cy + 95 * math.sin(a)),
                       (cx + 40 * math.cos(a + 0.15), cy + 40 * math.sin(a + 0.15))], acc)
        circle(img, cx, cy, 45, c)
        circle(img, cx - 15, cy - 8, 6, acc)
        circle(img, cx + 15, cy - 8, 6, acc)
    elif js.art == "clown":
        circle(img, cx, cy, 62, (200, 220, 245, 255))
        for dx in (-70, 70):
            for k in range(4):
                circle(img, cx + dx + (k % 2) * 10 * np.sign(dx), cy - 40 + k * 22, 16, acc)
        ellipse(img, cx - 22, cy - 15, 10, 14, 0, (250, 250, 250, 255))
        ellipse(img, cx + 22, cy - 15, 10, 14, 0, (250, 250, 250, 255))
        circle(img, cx - 22, cy - 12, 5, c)
        circle(img, cx + 22, cy - 12, 5, c)
        circle(img, cx, cy + 8, 12, (40, 40, 220, 255))
        cv2.ellipse(img, (int(cx), int(cy + 28)), (30, 14), 0, 0, 180, (40, 40, 200, 255), 4, cv2.LINE_AA)
        poly(img, [(cx - 40, cy - 58), (cx, cy - 130), (cx + 40, cy - 58)], c)
    elif js.art == "bigword":
        poly(img, [(24, 24), (W - 24, 24), (W - 24, H - 24), (24, H - 24)], acc, 3)
        m = glyph_mask("JOKER", js.font, 56, int(W * 0.7))
        vert = np.ascontiguousarray(np.rot90(m, -1))
        if vert.shape[0] > H - 70:
            vert = cv2.resize(vert, (vert.shape[1], H - 70))
        paste_center(img, vert, cx, cy, js.color)
    elif js.art.startswith("proc-"):
        _draw_proc_joker(img, js, int(js.art[5:]))
    else:
        raise ValueError(f"unknown joker art {js.art!r}")
    if js.index is None:
        return None
    x0, y0 = 0.05 * W, 0.03 * H
    if js.index == "word":
        lh = int(0.042 * H)
        y = y0
        boxes = []
        for ch in "JOKER":
            m = glyph_mask(ch, js.font, lh, int(0.12 * W))
            boxes.append((m, y))
            y += lh + 0.006 * H
        bw = max(m.shape[1] for m, _ in boxes)
        for m, yy in boxes:
            x = x0 + (bw - m.shape[1]) / 2
            paste(img, m, x, yy, js.color)
            paste(img, m, W - x - m.shape[1], H - yy - m.shape[0], js.color, rotate180=True)
        return (0.05, 0.03, round((x0 + bw) / W, 4), round(y / H, 4))
    # "star": a J over a star
    rh = int(0.1 * H)
    m = glyph_mask("J", js.font, rh, int(0.12 * W))
    sm = np.zeros((int(0.08 * H) + 2, int(0.08 * H) + 2, 4), np.uint8)
    poly(sm, _star(sm.shape[1] / 2, sm.shape[0] / 2, sm.shape[0] / 2 - 1), (255, 255, 255, 255))
    smask = sm[..., 3].astype(np.float32) / 255.0
    bw = max(m.shape[1], smask.shape[1])
    for mm, yy in ((m, y0), (smask, y0 + rh + 0.01 * H)):
        x = x0 + (bw - mm.shape[1]) / 2
        colr = js.color if mm is m else js.accent
        paste(img, mm, x, yy, colr)
        paste(img, mm, W - x - mm.shape[1], H - yy - mm.shape[0], colr, rotate180=True)
    return (0.05, 0.03, round((x0 + bw) / W, 4), round((y0 + rh + 0.01 * H + smask.shape[0]) / H, 4))


#: Motifs of the seeded joker art (``proc-N``). The held-out jokers' motifs (the harlequin's
#: diamond lattice, the sun's rays) are deliberately not among them.
PROC_GROUNDS = ("plain", "stripes", "dots", "checks", "rings", "confetti", "frame")
PROC_FIGURES = ("hat", "face", "stars", "moon", "bell", "blob", "crown", "none")
PROC_WORDS = ("none", "across", "down", "slant", "band", "twice")


def _draw_proc_joker(img: np.ndarray, js: JokerStyle, seed: int) -> None:
    """Seeded joker art: a ground motif, a figure and the word JOKER, each drawn from a few
    families with random sizes, places and colours. Many different jokers for training, so the
    detector and the look classifier learn "a face that is not a suited card" rather than six
    drawings.

    >>> from dealer_assist.vision.synth.styles import JokerStyle
    >>> a, b = (np.full((CANON_H, CANON_W, 4), 255, np.uint8) for _ in range(2))
    >>> _draw_proc_joker(a, JokerStyle("t", "train", "proc-7", None), 7)
    >>> _draw_proc_joker(b, JokerStyle("t", "train", "proc-7", None), 7)
    >>> bool((a == b).all()), bool((a[..., :3] < 250).any())      # seeded, and drawn
    (True, True)
    """
    import random

    from dealer_assist.vision.synth.styles import TRAIN_FONTS

    rnd = random.Random(seed)
    W, H = CANON_W, CANON_H
    cx, cy = W / 2 + rnd.uniform(-12, 12), H / 2 + rnd.uniform(-25, 25)

    def colour():
        return tuple(rnd.randrange(0, 240) for _ in range(3)) + (255,)

    c, acc, acc2 = tuple(js.color) + (255,), tuple(js.accent) + (255,), colour()
    m = rnd.uniform(22, 34)           # keep the corners (where an index would be) mostly clear
    ground = rnd.choice(PROC_GROUNDS)
    full = img
    img = img.copy()         # the ground is drawn on a layer and kept inside a central panel
    gcol = acc2 if rnd.random() < 0.5 else tuple(int(v * 0.35 + 255 * 0.65) for v in acc[:3]) + (255,)
    if ground == "stripes":
        step, ang = rnd.uniform(12, 26), math.radians(rnd.choice([0, 90, 30, -30, 45, -45]))
        ca, sa = math.cos(ang), math.sin(ang)
        for k in range(-20, 21):
            o = k * step
            p0 = (cx + o * -sa - 400 * ca, cy + o * ca - 400 * sa)
            p1 = (cx + o * -sa + 400 * ca, cy + o * ca + 400 * sa)
            cv2.line(img, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), gcol, max(2, int(step / 3)),
                     cv2.LINE_AA)
    elif ground == "dots":
        step, r = rnd.uniform(14, 24), rnd.uniform(2.5, 5)
        for i in range(int(W / step) + 1):
            for j in range(int(H / step) + 1):
                circle(img, i * step + (j % 2) * step / 2, j * step, r, gcol)
    elif ground == "checks":
        step = rnd.uniform(14, 26)
        for i in range(int(W / step) + 1):
            for j in range(int(H / step) + 1):
                if (i + j) % 2:
                    poly(img, [(i * step, j * step), ((i + 1) * step, j * step), ((i + 1) * step, (j + 1) * step),
                               (i * step, (j + 1) * step)], gcol)
    elif ground == "rings":
        for k in range(rnd.randint(3, 7)):
            circle(img, cx, cy, 30 + k * rnd.uniform(14, 20), gcol, rnd.randint(2, 5))
    elif ground == "confetti":
        for _ in range(rnd.randint(25, 60)):
            x, y = rnd.uniform(0, W), rnd.uniform(0, H)
            poly(img, _star(x, y, rnd.uniform(3, 8), n=rnd.choice([4, 5, 6]), rot=rnd.uniform(0, 90)),
                 rnd.choice([gcol, acc, colour()]))
    elif ground == "frame":
        t = rnd.randint(2, 6)
        x0, y0 = rnd.uniform(0.2, 0.26) * W, rnd.uniform(0.26, 0.3) * H     # a frame round the art
        poly(img, [(x0, y0), (W - x0, y0), (W - x0, H - y0), (x0, H - y0)], gcol, t)
    panel = np.zeros((H, W), np.uint8)
    if rnd.random() < 0.5:
        ellipse(panel, W / 2, H / 2, rnd.uniform(0.28, 0.4) * W, rnd.uniform(0.25, 0.36) * H, 0, (255,))
    else:
        y0 = rnd.uniform(0.2, 0.3) * H
        poly(panel, [(m, y0), (W - m, y0), (W - m, H - y0), (m, H - y0)], (255,))
    if ground == "frame":
        panel[:] = 255
    full[panel > 127] = img[panel > 127]
    img = full
    s = rnd.uniform(0.7, 1.15)
    fig = rnd.choice(PROC_FIGURES)
    if fig == "hat":
        n = rnd.randint(2, 5)
        xs = [cx - 70 * s + 140 * s * k / (n - 1) for k in range(n)]
        tips = [(x, cy - rnd.uniform(55, 95) * s) for x in xs]
        pts = [(cx - 60 * s, cy + 10 * s)]
        for k, tip in enumerate(tips):
            pts.append(tip)
            if k < n - 1:
                pts.append(((tip[0] + tips[k + 1][0]) / 2, cy - 25 * s))
        pts.append((cx + 60 * s, cy + 10 * s))
        poly(img, pts, acc)
        for tx, ty in tips:
            circle(img, tx, ty, 8 * s, c)
        if rnd.random() < 0.6:
            circle(img, cx, cy + 40 * s, 36 * s, colour())
            circle(img, cx - 12 * s, cy + 34 * s, 4 * s, c)
            circle(img, cx + 12 * s, cy + 34 * s, 4 * s, c)
    elif fig == "face":
        r = rnd.uniform(45, 70) * s
        circle(img, cx, cy, r, colour())
        circle(img, cx, cy, r, c, 3)
        for dx in (-0.38, 0.38):
            ellipse(img, cx + dx * r, cy - 0.2 * r, 0.15 * r, 0.2 * r, 0, c)
        cv2.ellipse(img, (int(cx), int(cy + 0.25 * r)), (int(0.45 * r), int(0.25 * r)), 0, 0, 180, c, 4,
                    cv2.LINE_AA)
        if rnd.random() < 0.5:
            circle(img, cx, cy + 0.05 * r, 0.13 * r, (40, 40, 220, 255))
    elif fig == "stars":
        for _ in range(rnd.randint(1, 4)):
            poly(img, _star(cx + rnd.uniform(-50, 50), cy + rnd.uniform(-70, 70), rnd.uniform(20, 60) * s,
                            n=rnd.choice([5, 6, 8]), inner=rnd.uniform(0.35, 0.55), rot=rnd.uniform(-90, 0)),
                 rnd.choice([c, acc, acc2]))
    elif fig == "moon":
        r = rnd.uniform(45, 70) * s
        circle(img, cx, cy, r, acc)
        circle(img, cx + 0.45 * r, cy - 0.2 * r, 0.85 * r, tuple(js.paper) + (255,))
    elif fig == "bell":
        pts = [(cx - 20 * s, cy - 55 * s), (cx + 20 * s, cy - 55 * s), (cx + 45 * s, cy + 30 * s),
               (cx + 60 * s, cy + 45 * s), (cx - 60 * s, cy + 45 * s), (cx - 45 * s, cy + 30 * s)]
        poly(img, pts, acc)
        circle(img, cx, cy + 55 * s, 12 * s, c)
    elif fig == "blob":
        k = rnd.randint(6, 11)
        pts = []
        for i in range(k):
            a = 2 * math.pi * i / k
            rr = rnd.uniform(40, 85) * s
            pts.append((cx + rr * math.cos(a), cy + rr * 1.2 * math.sin(a)))
        poly(img, pts, rnd.choice([acc, acc2]))
        poly(img, pts, c, 3)
    elif fig == "crown":
        n = rnd.randint(3, 5)
        w2 = 65 * s
        pts = [(cx - w2, cy + 35 * s)]
        for k in range(n):
            x = cx - w2 + 2 * w2 * (k + 0.5) / n
            pts += [(x - w2 / n * 0.5, cy - 5 * s), (x, cy - 55 * s), (x + w2 / n * 0.5, cy - 5 * s)]
        pts.append((cx + w2, cy + 35 * s))
        poly(img, pts, acc)
        poly(img, pts, c, 2)
    word = rnd.choice(PROC_WORDS)
    if word == "none" and fig == "none":
        word = "across"
    if word != "none":
        kind, name = rnd.choice(TRAIN_FONTS)
        font = FontSpec(kind, name, 0.12)
        size = int(rnd.uniform(24, 48))
        mw = glyph_mask("JOKER", font, size, int(W - 2 * m))
        col = rnd.choice([js.color, js.accent, acc2[:3]])
        if word in ("across", "twice", "band"):
            y = rnd.choice([cy + 85 * s, cy - 85 * s, cy]) if word != "band" else cy
            y = min(max(y, 0.3 * H), 0.7 * H)    # clear of the corners, where an index would be
            if word == "band":
                poly(img, [(m, y - size * 0.75), (W - m, y - size * 0.75), (W - m, y + size * 0.75),
                           (m, y + size * 0.75)], tuple(js.paper) + (255,))
            paste_center(img, mw, cx, y, col)
            if word == "twice":
                paste_center(img, mw, cx, H - y, col, rotate180=True)
        elif word == "down":
            vert = np.ascontiguousarray(np.rot90(mw, rnd.choice([1, -1])))
            if vert.shape[0] > 0.5 * H:
                vert = cv2.resize(vert, (vert.shape[1], int(0.5 * H)))
            paste_center(img, vert, cx + rnd.choice([-45, 0, 45]), cy, col)
        else:   # slant
            ang = rnd.uniform(25, 65) * rnd.choice([1, -1])
            side = int(max(mw.shape) * 1.1)
            rot = cv2.getRotationMatrix2D((mw.shape[1] / 2, mw.shape[0] / 2), ang, 1.0)
            rot[0, 2] += (side - mw.shape[1]) / 2
            rot[1, 2] += (side - mw.shape[0]) / 2
            paste_center(img, cv2.warpAffine(mw, rot, (side, side)), cx, cy, col)
    if js.index is None:   # no index: where one would be, the corners stay blank paper
        for x0, y0 in ((0.0, 0.0), (0.77 * W, 0.72 * H)):
            img[int(y0):int(y0 + 0.28 * H) + 1, int(x0):int(x0 + 0.23 * W) + 1, :3] = js.paper


def _draw_back(img: np.ndarray, bs: BackStyle) -> None:
    W, H = CANON_W, CANON_H
    fg, bg = tuple(bs.colors[0]) + (255,), tuple(bs.colors[1]) + (255,)
    m = int(round(bs.margin * W))
    x0, y0, x1, y1 = m, m, W - m, H - m
    inner = img[y0:y1, x0:x1]
    inner[..., :3] = bs.colors[1]
    h, w = inner.shape[:2]
    if bs.pattern == "lattice":
        for k in range(-h, w + h, 12):
            cv2.line(inner, (k, 0), (k + h, h), fg, 2, cv2.LINE_AA)
            cv2.line(inner, (k, h), (k + h, 0), fg, 2, cv2.LINE_AA)
        cv2.rectangle(inner, (3, 3), (w - 4, h - 4), fg, 3)
    elif bs.pattern == "frame":
        inner[..., :3] = bs.colors[0]
        for k, col in enumerate((bg, fg, bg, fg)):
            d = 6 + k * 8
            cv2.rectangle(inner, (d, d), (w - 1 - d, h - 1 - d), col, 3 if k % 2 == 0 else -1)
        ellipse(inner, w / 2, h / 2, w * 0.28, h * 0.22, 0, bg)
        poly(inner, _star(w / 2, h / 2, w * 0.2), fg)
    elif bs.pattern == "dots":
        inner[..., :3] = bs.colors[0]
        for yy in range(6, h, 14):
            for xx in range(6 + (yy // 14 % 2) * 7, w, 14):
                circle(inner, xx, yy, 3.5, bg)
    elif bs.pattern == "stripes":
        for k in range(-h, w + h, 10):
            cv2.line(inner, (k, 0), (k + h // 2, h), fg, 4, cv2.LINE_AA)
        cv2.rectangle(inner, (0, 0), (w - 1, h - 1), fg, 4)
    elif bs.pattern == "checker":
        s = 16
        for yy in range(0, h, s):
            for xx in range(0, w, s):
                inner[yy:yy + s, xx:xx + s, :3] = bs.colors[(xx // s + yy // s) % 2]
    elif bs.pattern == "rosette":
        for r in range(6, int(max(w, h) * 0.75), 9):
            circle(inner, w / 2, h / 2, r, fg, 2)
        for k in range(12):
            a = math.radians(k * 30)
            ellipse(inner, w / 2 + 40 * math.cos(a), h / 2 + 40 * math.sin(a), 30, 12, k * 30, fg, 2)
    elif bs.pattern == "hex":
        inner[..., :3] = bs.colors[1]
        r = 11
        for j, yy in enumerate(np.arange(0, h + r, r * 1.5)):
            for xx in np.arange((j % 2) * r * 0.87, w + r, r * 1.73):
                pts = [(xx + r * math.cos(math.radians(60 * i + 30)), yy + r * math.sin(math.radians(60 * i + 30)))
                       for i in range(6)]
                poly(inner, pts, fg, 2)
    elif bs.pattern == "waves":
        for yy in range(-10, h + 10, 9):
            pts = [(xx, yy + 4 * math.sin(xx * 0.15)) for xx in range(0, w + 1, 4)]
            cv2.polylines(
                inner, [np.round(np.array(pts) * 16).astype(np.int32).reshape(-1, 1, 2)], False, fg, 2, cv2.LINE_AA, 4)
    elif bs.pattern == "plaid":
        for k in range(0, max(w, h), 22):
            cv2.line(inner, (k, 0), (k, h), fg, 5)
            cv2.line(inner, (0, k), (w, k), fg, 5)
            cv2.line(inner, (k + 11, 0), (k + 11, h), fg, 1)
            cv2.line(inner, (0, k + 11), (w, k + 11), fg, 1)
    elif bs.pattern == "emblem":
        inner[..., :3] = bs.colors[0]
        cv2.rectangle(inner, (6, 6), (w - 7, h - 7), bg, 2)
        circle(inner, w / 2, h / 2, w * 0.32, bg)
        circle(inner, w / 2, h / 2, w * 0.25, fg)
        poly(inner, [(w / 2, h / 2 - w * 0.2), (w / 2 + w * 0.14, h / 2), (w / 2, h / 2 + w * 0.2),
                     (w / 2 - w * 0.14, h / 2)], bg)
    elif bs.pattern.startswith("proc-"):
        _draw_proc_back(inner, bs, int(bs.pattern[5:]))
    else:
        raise ValueError(f"unknown back pattern {bs.pattern!r}")


#: Tilings of the seeded backs (``proc-N``); the held-out backs' rosette and hexagons are not
#: among them.
PROC_TILINGS = ("hatch", "lines", "dots", "squares", "chevrons", "rings", "stars", "bricks")


def _draw_proc_back(inner: np.ndarray, bs: BackStyle, seed: int) -> None:
    """Seeded back design on the back's inner area: a tiling over all of it, sometimes a second
    colour, an inner border and a central medallion. Many designs, so that a back is learned
    as "one small motif repeated edge to edge", not as nine drawings.

    >>> from dealer_assist.vision.synth.styles import BackStyle
    >>> a, b = (np.full((300, 200, 4), 255, np.uint8) for _ in range(2))
    >>> bs = BackStyle("t", "train", "proc-3", ((120, 30, 30), (230, 230, 230)))
    >>> _draw_proc_back(a, bs, 3); _draw_proc_back(b, bs, 3)
    >>> bool((a == b).all()), bool((a[..., :3] < 200).mean() > 0.05)     # seeded, and patterned
    (True, True)
    """
    import random

    rnd = random.Random(seed)
    h, w = inner.shape[:2]
    fg = tuple(bs.colors[0]) + (255,)
    fg2 = fg if rnd.random() < 0.6 else tuple(int(v * 0.5 + 128 * 0.5) for v in bs.colors[0]) + (255,)
    tiling = rnd.choice(PROC_TILINGS)
    step = rnd.uniform(7, 16)
    thick = rnd.choice([1, 2, 2, 3])
    if tiling in ("hatch", "lines"):
        angles = [rnd.uniform(0, 180)]
        if tiling == "hatch":
            angles.append(angles[0] + rnd.choice([60, 90, 120]))
        for a in angles:
            ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
            for k in range(-int((w + h) / step) - 2, int((w + h) / step) + 3):
                o = k * step
                x, y = w / 2 - sa * o, h / 2 + ca * o
                cv2.line(inner, (int(x - ca * 2 * (w + h)), int(y - sa * 2 * (w + h))),
                         (int(x + ca * 2 * (w + h)), int(y + sa * 2 * (w + h))), fg, thick, cv2.LINE_AA)
    elif tiling in ("dots", "rings", "stars"):
        r = step * rnd.uniform(0.2, 0.38)
        for j, yy in enumerate(np.arange(step / 2, h, step)):
            for xx in np.arange(step / 2 + (j % 2) * step / 2 * rnd.choice([0, 1]), w, step):
                col = fg if (int(xx / step) + j) % 2 else fg2
                if tiling == "dots":
                    circle(inner, xx, yy, r, col)
                elif tiling == "rings":
                    circle(inner, xx, yy, r * 1.2, col, 1)
                else:
                    poly(inner, _star(xx, yy, r * 1.4, n=rnd.choice([4, 5, 6]) if j == 0 else 5), col)
    elif tiling == "squares":
        sq = step * rnd.uniform(0.4, 0.7)
        for yy in np.arange(0, h, step):
            for xx in np.arange(0, w, step):
                col = fg if (int(xx / step) + int(yy / step)) % 2 else fg2
                cv2.rectangle(inner, (int(xx), int(yy)), (int(xx + sq), int(yy + sq)), col, -1)
    elif tiling == "chevrons":
        for yy in np.arange(-step, h + step, step):
            pts = [(xx, yy + (step / 2 if int(xx / step) % 2 else 0)) for xx in np.arange(0, w + step, step)]
            cv2.polylines(inner, [np.round(np.array(pts) * 16).astype(np.int32).reshape(-1, 1, 2)], False, fg,
                          thick + 1, cv2.LINE_AA, 4)
    else:  # bricks
        bh = step
        for j, yy in enumerate(np.arange(0, h, bh)):
            cv2.line(inner, (0, int(yy)), (w, int(yy)), fg, thick)
            for xx in np.arange((j % 2) * step, w, 2 * step):
                cv2.line(inner, (int(xx), int(yy)), (int(xx), int(yy + bh)), fg, thick)
    if rnd.random() < 0.6:   # an inner border
        d = rnd.randint(3, 12)
        cv2.rectangle(inner, (d, d), (w - 1 - d, h - 1 - d), fg, rnd.randint(2, 5))
    if rnd.random() < 0.35:  # a central medallion
        bg = tuple(bs.colors[1]) + (255,)
        rx, ry = w * rnd.uniform(0.2, 0.32), h * rnd.uniform(0.12, 0.22)
        ellipse(inner, w / 2, h / 2, rx, ry, 0, bg)
        ellipse(inner, w / 2, h / 2, rx, ry, 0, fg, 2)
        if rnd.random() < 0.5:
            circle(inner, w / 2, h / 2, min(rx, ry) * 0.5, fg)


def image_deck_canvas(card_name: str, folder: str | Path) -> tuple[np.ndarray, tuple | None]:
    """A card of an image deck (:data:`IMAGE_DECK`) at the canonical size, as :func:`card_canvas`
    gives it: ``FOLDER/<card_name>.png`` laid on white card stock (its own transparency shows the
    stock) and stretched to the poker card's proportions, in the rounded outline of every card
    drawn here; the index box from :data:`IMAGE_DECK_INFO` (None for the back, and for a joker
    the file does not say has an index). A missing or unreadable image is a ValueError naming it."""
    path = Path(folder) / f"{card_name}.png"
    art = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if art is None or art.ndim not in (2, 3) or art.shape[0] < 8 or art.shape[1] < 8:
        raise ValueError(f"image deck: no readable card image {path}")
    if art.ndim == 2:
        art = cv2.cvtColor(art, cv2.COLOR_GRAY2BGRA)
    elif art.shape[2] == 3:
        art = cv2.cvtColor(art, cv2.COLOR_BGR2BGRA)
    art = cv2.resize(art, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    a = art[..., 3:4].astype(np.float32) / 255.0
    img = np.empty((CANON_H, CANON_W, 4), np.uint8)
    img[..., :3] = np.clip(art[..., :3] * a + 255.0 * (1.0 - a), 0, 255).astype(np.uint8)
    img[..., 3] = _outline()
    info_path = Path(folder) / IMAGE_DECK_INFO
    info = json.loads(info_path.read_text(encoding="utf-8")) if info_path.is_file() else {}
    box = tuple(float(v) for v in info.get("index_box", DEFAULT_INDEX_BOX))
    if card_name == "BACK" or (card_name == "JK" and not info.get("joker_index", False)):
        box = None
    return img, box


@functools.lru_cache(maxsize=600)
def card_canvas(card_name: str, style_name: str) -> tuple[np.ndarray, tuple | None]:
    """The card at canonical size (BGRA, read-only) and its index box (x0, y0, x1, y1 in card
    fractions; ``None`` for a joker without a corner index). ``card_name`` is a card (``Ah``,
    ``JK``) or ``BACK``; ``style_name`` a deck style, or for ``JK`` / ``BACK`` a joker / back
    style (a deck style gives its first joker / back of the same split); an image deck's name
    (:data:`IMAGE_DECK`) gives all three from its folder (:func:`image_deck_canvas`)."""
    if style_name.startswith(IMAGE_DECK):
        img, box = image_deck_canvas(card_name, style_name[len(IMAGE_DECK):])
        img.setflags(write=False)
        return img, box
    if card_name == "BACK":
        bs = BACK_STYLES.get(style_name) or _first(BACK_STYLES, style_name)
        img = _blank(bs.paper)
        _draw_back(img, bs)
        box = None
    else:
        card = parse_card(card_name)
        if card.is_joker:
            js = JOKER_STYLES.get(style_name) or _first(JOKER_STYLES, style_name)
            img = _blank(js.paper)
            box = _draw_joker(img, js)
        else:
            try:
                st = deck_style(style_name)
            except ValueError as exc:
                raise ValueError(f"{exc}; known: {', '.join(DECK_STYLES)}") from None
            img = _blank(st.paper, st.border)
            if card.rank == Rank.ACE:
                _draw_ace(img, card, st)
            elif card.rank >= Rank.JACK:
                _draw_court(img, card, st)
            else:
                _draw_pips(img, card, st)
            box = _draw_index(img, card, st)
    img[..., 3] = _outline()  # drawing raises alpha: restore the rounded outline
    img.setflags(write=False)
    return img, box


def _first(table: dict, deck_style_name: str):
    try:
        st = deck_style(deck_style_name)
    except ValueError:
        raise ValueError(f"unknown style {deck_style_name!r}") from None
    return next(s for s in table.values() if s.split == st.split)


def render_card(card: str, style: str, width_px: int) -> np.ndarray:
    """An upright card face (or ``"BACK"``) as BGRA, ``width_px`` wide and
    ``round(width_px * 88 / 63)`` tall; alpha is 0 outside the rounded outline.

    ``style`` names a deck style of :data:`DECK_STYLES` (or, for ``JK``, a joker style; for
    ``BACK``, a back style)."""
    if not 8 <= int(width_px) <= 2000:
        raise ValueError(f"width_px must be 8..2000, not {width_px}")
    name = "BACK" if str(card).upper() == "BACK" else str(parse_card(card))
    img, _ = card_canvas(name, style)
    h = int(round(width_px * 88 / 63))
    interp = cv2.INTER_AREA if width_px < CANON_W else cv2.INTER_CUBIC
    return cv2.resize(img, (int(width_px), h), interpolation=interp)
