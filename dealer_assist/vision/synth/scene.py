"""Table scenes: a camera over a table, cards, backs, chips and hands laid out as at a real
showdown, rendered with exact labels.

Geometry. Objects are placed on the table plane in *world* units (1 unit = 1 pixel at the
frame centre). A pinhole camera tilted by ``tilt`` degrees (0 = straight overhead) maps the
plane to the 1280x720 frame by one homography; each card's canonical image is mapped through
(card -> world -> frame), so the label polygon is the exact image of the card's corners.
Visibility comes from the real footprints (warped alpha) of everything drawn later.

>>> img, label = render_scene(3)
>>> img.shape, img.dtype.name, label["width"], label["height"]
((720, 1280, 3), 'uint8', 1280, 720)
>>> all(0 <= x <= 1280 and 0 <= y <= 720 for c in label["cards"] for x, y in c["polygon"])
True
>>> render_scene(3)[1] == label                                   # deterministic by seed
True
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from dealer_assist.cards import DECK_52
from dealer_assist.vision.synth.draw import HERSHEY, circle, poly
from dealer_assist.vision.synth.faces import CANON_H, CANON_W, DEFAULT_INDEX_BOX, IMAGE_DECK, card_canvas
from dealer_assist.i18n import _
from dealer_assist.vision.synth.styles import BACK_STYLES, DECK_STYLES, JOKER_STYLES, PIPS_SEP, SynthError, \
    check_split, deck_style, styles_for

FRAME_W, FRAME_H = 1280, 720
SPLIT_CODE = {"train": 1, "test": 2, "unseen": 3}
#: An index counts as visible when at least this fraction of its box is uncovered.
VISIBLE_MIN = 0.7
#: Card width range in the frame (px, the short side).
MIN_CARD_PX, MAX_CARD_PX = 58.0, 205.0
#: Smallest ratio of a placed card's long to short side in the frame (an upright card is 1.40).
MIN_ASPECT = 1.12


@dataclass
class Obj:
    """One thing drawn on the table, bottom to top in list order."""

    kind: str                      # face | back | chip | hand | button
    name: str = ""                 # card name (Ah, JK) for faces
    style: str = ""
    m: np.ndarray | None = None    # 3x3: sprite pixel -> frame pixel
    sprite: np.ndarray | None = None
    index_box: tuple | None = None
    roi: tuple = (0, 0, 0, 0)      # x0, y0, x1, y1 in the frame
    alpha: np.ndarray | None = None  # float32 footprint inside roi
    extra: dict = field(default_factory=dict)


def camera_homography(tilt_deg: float, yaw_deg: float, f: float, cx: float = FRAME_W / 2,
                      cy: float = FRAME_H / 2) -> np.ndarray:
    """World plane (x, y) -> frame pixel for a camera at distance ``f`` (so scale 1 at the frame
    centre), pitched by ``tilt_deg`` (the bottom of the frame nearer) and turned by ``yaw_deg``.

    >>> h = camera_homography(0.0, 0.0, 1200.0)
    >>> p = h @ [10.0, 20.0, 1.0]; [round(float(v), 6) for v in p[:2] / p[2]]
    [650.0, 380.0]
    """
    t, y = math.radians(tilt_deg), math.radians(yaw_deg)
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    pitch = np.array([[1, 0, 0], [0, math.cos(t), 0], [0, -math.sin(t), f]])
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]])
    return k @ pitch @ rz


def apply_h(h: np.ndarray, pts) -> np.ndarray:
    p = np.asarray(pts, np.float64)
    q = np.c_[p, np.ones(len(p))] @ h.T
    return q[:, :2] / q[:, 2:3]


def _pose(cx: float, cy: float, angle_deg: float, width: float, sprite_w: int = CANON_W,
          sprite_h: int = CANON_H) -> np.ndarray:
    """Sprite pixel -> world for a sprite centred at (cx, cy), turned by angle, ``width`` wide."""
    s = width / sprite_w
    a = math.radians(angle_deg)
    c, si = math.cos(a) * s, math.sin(a) * s
    ox, oy = (sprite_w - 1) / 2.0, (sprite_h - 1) / 2.0
    return np.array([[c, -si, cx - c * ox + si * oy], [si, c, cy - si * ox - c * oy], [0, 0, 1]])


def sprite_corners(w: int = CANON_W, h: int = CANON_H) -> np.ndarray:
    """Outline corners TL, TR, BR, BL of a sprite in its pixel coordinates (pixel centres are
    integers, so the outline runs half a pixel outside them)."""
    return np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])


def _warp_sprite(frame: np.ndarray, obj: Obj, shadow: tuple | None, gain: float = 1.0,
                 sheen: tuple | None = None) -> None:
    """Composite ``obj.sprite`` (BGRA) through ``obj.m`` into ``frame``; fills roi and alpha."""
    sp = obj.sprite
    sh, sw = sp.shape[:2]
    corners = apply_h(obj.m, sprite_corners(sw, sh))
    x0 = max(0, int(math.floor(corners[:, 0].min())) - 1)
    y0 = max(0, int(math.floor(corners[:, 1].min())) - 1)
    x1 = min(FRAME_W, int(math.ceil(corners[:, 0].max())) + 2)
    y1 = min(FRAME_H, int(math.ceil(corners[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        obj.roi, obj.alpha = (0, 0, 0, 0), np.zeros((0, 0), np.float32)
        return
    # reduce the sprite first when it is much larger than its image (clean minification)
    out_w = float(np.linalg.norm(corners[1] - corners[0]))
    k = min(1.0, max(out_w * 1.3, 8.0) / sw)
    m = obj.m
    if k < 0.95:
        nw, nh = max(2, int(round(sw * k))), max(2, int(round(sh * k)))
        sp = cv2.resize(sp, (nw, nh), interpolation=cv2.INTER_AREA)
        kx, ky = sw / nw, sh / nh
        a = np.array([[kx, 0, 0.5 * kx - 0.5], [0, ky, 0.5 * ky - 0.5], [0, 0, 1]])
        m = m @ a
    t = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ m
    warped = cv2.warpPerspective(sp, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3].astype(np.float32) / 255.0
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    if shadow is not None:
        dx, dy, blur, strength = shadow
        ms = np.float32([[1, 0, dx], [0, 1, dy]])
        sa = cv2.warpAffine(alpha, ms, (x1 - x0, y1 - y0))
        if blur > 0:
            sa = cv2.GaussianBlur(sa, (0, 0), blur)
        roi *= (1.0 - strength * sa)[..., None]
    a3 = alpha[..., None]
    src = warped[..., :3].astype(np.float32)
    if sheen is not None:  # light falling across a glossy card: a gradient and a soft highlight
        gx, gy, hx, hy, hs = sheen
        yy, xx = np.ogrid[0:y1 - y0, 0:x1 - x0]
        u = (xx - (x1 - x0) / 2) / max(1, x1 - x0)
        v = (yy - (y1 - y0) / 2) / max(1, y1 - y0)
        g = (gain + gx * u + gy * v).astype(np.float32)
        src *= g[..., None]
        if hs > 0:
            src += (hs * np.exp(-(((u - hx) / 0.25) ** 2 + ((v - hy) / 0.25) ** 2))).astype(np.float32)[..., None]
    else:
        src *= np.float32(gain)
    roi = roi * (1 - a3) + src * a3
    frame[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    obj.roi, obj.alpha = (x0, y0, x1, y1), alpha


# --- backgrounds ------------------------------------------------------------------------------

FELTS = {"felt-green": (40, 110, 30), "felt-blue": (120, 70, 20), "felt-red": (30, 30, 120),
         "felt-purple": (90, 40, 70), "felt-grey": (85, 90, 90), "felt-black": (32, 34, 30),
         "felt-teal": (100, 110, 20)}


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cells: int, amp: float) -> np.ndarray:
    g = rng.normal(0, 1, (cells, max(2, int(cells * w / h)))).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC) * amp


def _background(rng: np.random.Generator, h_w2i: np.ndarray) -> tuple[np.ndarray, str]:
    kind = rng.choice(["felt"] * 6 + ["wood"] * 2 + ["cloth"] * 2)
    # world canvas covering the frame (capped), warped once into the frame
    inv = np.linalg.inv(h_w2i)
    wc = apply_h(inv, [[0, 0], [FRAME_W, 0], [FRAME_W, FRAME_H], [0, FRAME_H]])
    wx0, wy0 = wc.min(0) - 20
    wx1, wy1 = wc.max(0) + 20
    scale = min(1.0, 900.0 / max(wx1 - wx0, wy1 - wy0))
    cw, ch = int((wx1 - wx0) * scale) + 1, int((wy1 - wy0) * scale) + 1
    if kind == "felt":
        name = str(rng.choice(sorted(FELTS)))
        base = np.array(FELTS[name], np.float32) * rng.uniform(0.8, 1.2)
        tex = np.empty((ch, cw, 3), np.float32)
        tex[:] = base
        tex *= (1 + _smooth_noise(rng, cw, ch, 6, 0.05))[..., None]
    elif kind == "wood":
        name = "wood"
        base = np.array([40, 80, 130], np.float32) * rng.uniform(0.6, 1.3)
        yy, xx = (a.astype(np.float32) for a in np.ogrid[0:ch, 0:cw])
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        warp = _smooth_noise(rng, cw, ch, 5, 25.0)
        grain = np.sin((v + warp) * rng.uniform(0.08, 0.25)) * 0.12 + np.sin((v + warp * 2) * 0.9) * 0.04
        plank = rng.uniform(90, 220)
        seams = (np.abs(((v / plank) % 1.0) - 0.5) > 0.495).astype(np.float32) * -0.35
        tex = base[None, None, :] * (1 + grain + seams + 0.05 * np.sin(u * 0.01))[..., None]
    else:
        name = str(rng.choice(["cloth-linen", "cloth-gingham"]))
        base = rng.uniform(60, 220, 3).astype(np.float32)
        yy, xx = (a.astype(np.float32) for a in np.ogrid[0:ch, 0:cw])
        if name == "cloth-gingham":
            s = rng.uniform(20, 45)
            bx = ((xx // s) % 2).astype(np.float32)
            by = ((yy // s) % 2).astype(np.float32)
            tex = base[None, None, :] * (0.55 + 0.22 * (bx + by))[..., None]
        else:
            weave = np.sin(xx * 1.7) * np.sin(yy * 1.7) * 0.06
            tex = base[None, None, :] * (1 + weave + _smooth_noise(rng, cw, ch, 8, 0.04))[..., None]
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    to_canvas = np.array([[scale, 0, -wx0 * scale], [0, scale, -wy0 * scale], [0, 0, 1]])
    if kind == "felt" and rng.random() < 0.65:
        _table_print(tex, rng, to_canvas, scale)
        name += "+print"
    m = h_w2i @ np.linalg.inv(to_canvas)
    frame = cv2.warpPerspective(tex, m, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    return frame, name


def _table_print(tex: np.ndarray, rng: np.random.Generator, to_canvas: np.ndarray, scale: float) -> None:
    """Casino felt printing: arcs, betting boxes, card-spot outlines, words."""
    col = tuple(float(c) for c in rng.choice([(200, 220, 230), (60, 200, 230), (230, 230, 230)]) * rng.uniform(0.6, 1.0))
    h, w = tex.shape[:2]
    ox, oy = to_canvas[0, 2], to_canvas[1, 2]
    cx, cy = ox + rng.uniform(-200, 200) * scale, oy + rng.uniform(-150, 150) * scale
    for r in rng.uniform(250, 700, rng.integers(1, 3)):
        cv2.ellipse(tex, (int(cx), int(cy)), (int(r * scale), int(r * scale)), 0, 0, 360, col,
                    max(1, int(3 * scale)), cv2.LINE_AA)
    for _i in range(rng.integers(0, 6)):  # empty card-spot outlines and betting boxes
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        bw, bh = rng.uniform(60, 160) * scale, rng.uniform(80, 200) * scale
        cv2.rectangle(tex, (int(x), int(y)), (int(x + bw), int(y + bh)), col, max(1, int(2 * scale)), cv2.LINE_AA)
    words = ["DEALER", "PLAYER", "BANKER", "JOKER HOLD'EM", "INSURANCE", "ANTE", "BET", "PAYS 2 TO 1", "TIE"]
    for _i in range(rng.integers(1, 4)):
        txt = str(rng.choice(words))
        face = HERSHEY[str(rng.choice(["simplex", "duplex", "complex", "triplex"]))]
        cv2.putText(tex, txt, (int(rng.uniform(0, w * 0.7)), int(rng.uniform(40, h))), face,
                    rng.uniform(1.0, 2.2) * scale, col, max(1, int(2 * scale)), cv2.LINE_AA)


# --- sprites for chips, buttons and hands -------------------------------------------------------

CHIP_COLORS = [(40, 40, 200), (170, 80, 20), (40, 140, 40), (30, 30, 30), (235, 235, 235),
               (150, 50, 130), (30, 150, 220), (80, 80, 80)]


def _chip_sprite(rng: np.random.Generator) -> np.ndarray:
    n = 96
    sp = np.zeros((n, n, 4), np.uint8)
    col = tuple(float(c) for c in CHIP_COLORS[rng.integers(len(CHIP_COLORS))]) + (255.0,)
    ins = (235.0, 235.0, 235.0, 255.0) if col[0] < 200 else (40.0, 40.0, 180.0, 255.0)
    c = n / 2 - 0.5
    circle(sp, c, c, n / 2 - 1, col)
    for k in range(rng.choice([4, 6, 8])):
        a0 = k * 360 / 8 + rng.uniform(0, 5)
        cv2.ellipse(sp, (int(c * 16), int(c * 16)), (int((n / 2 - 6) * 16),) * 2, 0, a0, a0 + 12, ins,
                    8, cv2.LINE_AA, 4)
    circle(sp, c, c, n * 0.3, ins, 2)
    if rng.random() < 0.6:
        face = HERSHEY[str(rng.choice(["simplex", "duplex"]))]
        txt = str(rng.choice(["5", "25", "100", "500", "1K", "$"]))
        (tw, th), _ = cv2.getTextSize(txt, face, 0.8, 2)
        cv2.putText(sp, txt, (int(c - tw / 2), int(c + th / 2)), face, 0.8, ins, 2, cv2.LINE_AA)
    return sp


def _thing_sprite(kind: str, rng: np.random.Generator) -> np.ndarray:
    """A card-sized canvas holding something that is not a card."""
    sp = np.zeros((CANON_H, CANON_W, 4), np.uint8)
    if kind == "cutcard":  # a solid plastic cut card
        col = tuple(float(c) for c in rng.choice([(30, 200, 230), (40, 40, 200), (160, 90, 30), (30, 30, 30),
                                                   (60, 160, 60)])) + (255.0,)
        poly(sp, [(0, 0), (CANON_W - 1, 0), (CANON_W - 1, CANON_H - 1), (0, CANON_H - 1)], col)
    elif kind == "paper":  # a paper slip with a few printed lines
        x0, y0, x1, y1 = 10, 60, CANON_W - 10, CANON_H - 70
        poly(sp, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], (235, 240, 240, 255))
        y = y0 + 22
        while y < y1 - 10:
            txt = "".join(str(v) for v in rng.integers(0, 10, int(rng.integers(3, 9))))
            cv2.putText(sp, txt, (x0 + 10, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (40, 40, 40, 255), 1, cv2.LINE_AA)
            y += 24
    else:  # a phone lying face up
        x0, y0, x1, y1 = 40, 0, CANON_W - 40, CANON_H - 1
        poly(sp, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], (25, 25, 25, 255))
        scr = tuple(float(v) for v in rng.uniform(30, 200, 3)) + (255.0,)
        poly(sp, [(x0 + 8, y0 + 20), (x1 - 8, y0 + 20), (x1 - 8, y1 - 20), (x0 + 8, y1 - 20)], scr)
    return sp


def _button_sprite() -> np.ndarray:
    n = 96
    sp = np.zeros((n, n, 4), np.uint8)
    circle(sp, n / 2 - 0.5, n / 2 - 0.5, n / 2 - 1, (235, 240, 240, 255))
    circle(sp, n / 2 - 0.5, n / 2 - 0.5, n / 2 - 6, (40, 40, 40, 255), 2)
    (tw, th), _ = cv2.getTextSize("DEALER", cv2.FONT_HERSHEY_DUPLEX, 0.55, 1)
    cv2.putText(sp, "DEALER", (int(n / 2 - tw / 2), int(n / 2 + th / 2)), cv2.FONT_HERSHEY_DUPLEX, 0.55,
                (30, 30, 30, 255), 1, cv2.LINE_AA)
    return sp


def _hand_polygon(rng: np.random.Generator, size: float) -> tuple[list, list]:
    """A flat hand (palm + fingers) as polygons in a local frame, fingers pointing +y."""
    palm = [(math.cos(a) * size * 0.45, math.sin(a) * size * 0.55) for a in np.linspace(0, 2 * math.pi, 24)]
    fingers = []
    spread = rng.uniform(0.05, 0.25)
    for i, (off, ln) in enumerate(((-0.3, 0.55), (-0.1, 0.65), (0.1, 0.62), (0.28, 0.5))):
        ang = (i - 1.5) * spread
        x0, y0 = off * size, size * 0.4
        x1, y1 = x0 + math.sin(ang) * ln * size, y0 + math.cos(ang) * ln * size
        fingers.append(((x0, y0), (x1, y1), size * 0.085))
    thumb_side = rng.choice([-1, 1])
    fingers.append(((thumb_side * 0.35 * size, 0.0), (thumb_side * 0.8 * size, 0.35 * size), size * 0.1))
    return palm, fingers


# --- the scene ---------------------------------------------------------------------------------

def _rot_deg(poly4: np.ndarray) -> float:
    top = (poly4[0] + poly4[1]) / 2
    bottom = (poly4[3] + poly4[2]) / 2
    v = top - bottom
    return round(math.degrees(math.atan2(v[0], -v[1])) % 360.0, 1)


class _Layout:
    """Places groups of objects on the table, keeping each group on the frame and (mostly) clear
    of the others."""

    def __init__(self, rng: np.random.Generator, h: np.ndarray, card_w: float):
        self.rng, self.h, self.cw = rng, h, card_w
        self.inv = np.linalg.inv(h)
        self.occ = np.zeros((FRAME_H // 4, FRAME_W // 4), np.uint8)

    def world_at(self, u: float, v: float) -> np.ndarray:
        return apply_h(self.inv, [[u, v]])[0]

    def card_ok(self, m: np.ndarray) -> bool:
        c = apply_h(m, sprite_corners())
        if c[:, 0].min() < 1 or c[:, 1].min() < 1 or c[:, 0].max() > FRAME_W - 1 or c[:, 1].max() > FRAME_H - 1:
            return False
        short = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
        long_ = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
        # the runtime (geometry.order_card_polygon) takes the long side as the card's height;
        # far cards seen very obliquely can foreshorten below that, so they are not placed
        return MIN_CARD_PX <= short <= MAX_CARD_PX and long_ >= MIN_ASPECT * short

    def try_place(self, make, overlap_ok: float = 0.0, tries: int = 25):
        """``make(center_world, angle)`` -> list of sprite->world matrices (cards) or None."""
        for _i in range(tries):
            u = self.rng.uniform(0.08, 0.92) * FRAME_W
            v = self.rng.uniform(0.1, 0.9) * FRAME_H
            cw = self.world_at(u, v)
            mats = make(cw, self.rng.uniform(0, 360))
            if not mats:
                continue
            imgs = [self.h @ m for m in mats]
            if not all(self.card_ok(m) for m in imgs):
                continue
            pts = np.concatenate([apply_h(m, sprite_corners()) for m in imgs]) / 4
            hull = cv2.convexHull(pts.astype(np.float32))
            mask = np.zeros_like(self.occ)
            cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), 1)
            inter = int((mask & self.occ).sum())
            if inter > overlap_ok * max(1, int(mask.sum())):
                continue
            self.occ |= mask
            return imgs
        return None


def _fan(center: np.ndarray, angle: float, width: float, n: int, rng: np.random.Generator,
         spread_x: float, spread_y: float, turn: float) -> list:
    mats = []
    a = angle
    c = center.copy()
    step_local = np.array([spread_x * width, spread_y * width * 88 / 63])
    for i in range(n):
        mats.append(_pose(c[0], c[1], a, width))
        r = math.radians(a)
        rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
        c = c + rot @ (step_local * rng.uniform(0.85, 1.15))
        a += turn + rng.normal(0, 2)
    return mats


def _place_groups(layout: list, lay, add_cards, card_w: float, rng: np.random.Generator, *,
                  overlap_p: float, hand_up_p: float, single_up_p: float) -> None:
    """Place each group of ``layout`` (board, hand, burn, stub, single) where it fits in ``lay``;
    a group overlaps another with probability ``overlap_p``; hands and single cards lie face up
    with probabilities ``hand_up_p`` and ``single_up_p``."""
    for g in layout:
        ov = 0.25 if rng.random() < overlap_p else 0.0
        if g == "board":
            n = int(rng.choice([3, 4, 5]))
            gap = rng.uniform(1.04, 1.3)
            mats = lay.try_place(lambda c, a: _fan(c, a, card_w, n, rng, gap, 0.0, 0.0), ov)
            if mats:
                add_cards(mats)
        elif g == "hand":
            n = int(rng.choice([2, 2, 2, 3, 4, 5]))
            sx = float(rng.uniform(0.26, 0.62)) * rng.choice([1, 1, -1])
            sy = float(rng.uniform(-0.12, 0.15))
            turn = float(rng.uniform(-14, 14))
            mats = lay.try_place(lambda c, a: _fan(c, a, card_w * rng.uniform(0.95, 1.05), n, rng, sx, sy, turn), ov)
            if mats:
                add_cards(mats, face_up=rng.random() < hand_up_p)
        elif g == "burn":
            n = int(rng.integers(1, 5))
            mats = lay.try_place(lambda c, a: [_pose(c[0] + rng.normal(0, 0.12 * card_w), c[1] + rng.normal(0, 0.12 * card_w),
                                                     a + rng.normal(0, 18), card_w) for _ in range(n)], ov)
            if mats:
                add_cards(mats, face_up=False)
        elif g == "stub":
            n = int(rng.integers(3, 7))
            mats = lay.try_place(lambda c, a: [_pose(c[0] + i * 0.6, c[1] - i * 0.8, a + rng.normal(0, 1.0), card_w)
                                               for i in range(n)], ov)
            if mats:
                add_cards(mats, face_up=False)
        else:
            mats = lay.try_place(lambda c, a: [_pose(c[0], c[1], a, card_w * rng.uniform(0.95, 1.05))], ov)
            if mats:
                add_cards(mats, face_up=rng.random() < single_up_p)


def fresh_pips_name(deck_name: str, seed: int, split: str, fresh_pips: tuple[int, int]) -> str:
    """The deck style ``deck_name`` with the seeded pip drawing ``var-N`` of the ``fresh-pips``
    recipes (N in ``fresh_pips`` = lo..hi-1, by the seed alone); training frames only.

    >>> fresh_pips_name("bicycle-like", 3, "train", (100, 200)).split(PIPS_SEP)[1]
    'var-180'
    """
    if split != "train":
        raise SynthError(_("fresh pips are for training frames only: the test split's decks are fixed"))
    lo, hi = fresh_pips
    return f"{deck_name}{PIPS_SEP}var-{lo + (int(seed) * 2654435761 + 97) % (hi - lo)}"


def fresh_font_name(deck_name: str, seed: int, split: str, fresh_fonts: bool | str = True) -> str:
    """The deck style ``deck_name`` with its indices in an extra typeface ``font-STEM`` of the
    ``fresh-fonts`` recipe (:func:`styles.extra_fonts`, by the seed alone); training frames only.
    ``fresh_fonts`` is the recipe's: ``"warp"`` (the ``fresh-warp`` and ``world-warp`` recipes)
    also bends that typeface by a seeded ``warp-N`` (:func:`dealer_assist.vision.synth.draw.warp_glyph`),
    N in 1..999,999 by the seed; ``"bend"`` (``fresh-bend``, ``world-bend``) by ``bend-N``, half
    as far and never bolder.

    >>> from dealer_assist.vision.synth.styles import extra_fonts
    >>> not extra_fonts() or fresh_font_name("bicycle-like", 3, "train").split(PIPS_SEP)[1][5:] in extra_fonts()
    True
    """
    from dealer_assist.vision.synth.styles import extra_fonts

    if split != "train":
        raise SynthError(_("fresh fonts are for training frames only: the test split's decks are fixed"))
    fonts = list(extra_fonts())
    if not fonts:
        raise SynthError(_("the fresh-fonts recipe needs the extra typefaces (styles.EXTRA_FONT_DIRS); "
                           "none is installed"))
    name = f"{deck_name}{PIPS_SEP}font-{fonts[(int(seed) * 2246822519 + 13) % len(fonts)]}"
    if fresh_fonts not in ("warp", "bend"):
        return name
    return f"{name}{PIPS_SEP}{fresh_fonts}-{1 + (int(seed) * 3266489917 + 7) % 999_999}"


def joker_and_back(rng: np.random.Generator, split: str):
    """The frame's joker art and back design, drawn from the split's styles."""
    jokers = styles_for(split, JOKER_STYLES)
    js = jokers[rng.integers(len(jokers))]
    backs = styles_for(split, BACK_STYLES)
    return js, backs[rng.integers(len(backs))]


def deal_pool(rng: np.random.Generator, joker_p: float, joker2_p: float, order=None) -> list[str]:
    """The names of a shuffled deck in the order its face-up cards are dealt, with a joker near
    the top in a share ``joker_p`` of frames (a second in ``joker2_p`` of those); ``order(pool)``,
    when given, re-orders the shuffled 52 before the jokers go in."""
    pool = [str(c) for c in DECK_52]
    rng.shuffle(pool)
    if order is not None:
        pool = order(pool)
    if rng.random() < joker_p:
        pool.insert(int(rng.integers(0, 6)), "JK")
        if rng.random() < joker2_p:
            pool.insert(int(rng.integers(0, 12)), "JK")
    return pool


def dealt_styles(deck: str, joker_style: str, back_style: str, deck_images: str | None) -> tuple[str, str, str]:
    """The styles a frame's cards, jokers and backs are drawn in: the ones its seed chose, or all
    three an image deck's folder (:data:`faces.IMAGE_DECK`).

    >>> dealt_styles("bicycle-like", "jk-a", "back-a", None)
    ('bicycle-like', 'jk-a', 'back-a')
    >>> dealt_styles("bicycle-like", "jk-a", "back-a", "/decks/paris")[0]
    'file:/decks/paris'
    """
    if deck_images is None:
        return deck, joker_style, back_style
    return (IMAGE_DECK + str(deck_images),) * 3


def image_deck_meta(label: dict, deck_images: str | None) -> None:
    """Name the image deck in a frame's ``meta`` where its cards came from one (no typeface of
    the project's drew its indices)."""
    if deck_images is not None:
        name = IMAGE_DECK + str(deck_images)
        label["meta"].update(deck_style=name, font="", joker_style=name, back_style=name)


def card_dealer(objs: list, pool: list[str], deck: str, joker_style: str, back_style: str):
    """``add_cards(mats, face_up=True)``: one card object per placement matrix onto ``objs``, face
    up from the top of ``pool`` (a back when face down or when the pool is empty)."""
    def add_cards(mats, face_up: bool = True):
        for m in mats:
            if face_up and pool:
                name = pool.pop(0)
                objs.append(Obj("face", name, joker_style if name == "JK" else deck, m))
            else:
                objs.append(Obj("back", "BACK", back_style, m))
    return add_cards


def render_scene(seed: int, split: str = "train", jpeg: bool = True, joker_p: float = 0.45,
                 joker2_p: float = 0.08, fresh_pips: tuple[int, int] | None = None,
                 world: bool = False, fresh_fonts: bool | str = False, edge_p: float = 0.0, edge_up: float = 0.9,
                 decoy_p: float = 0.0, ace_p: float = 0.0, deck_images: str | None = None,
                 toon_p: float = 0.0) -> tuple[np.ndarray, dict]:
    """One 1280x720 BGR frame of a table and its label (the vision contract's JSON schema),
    deterministic by (seed, split, joker_p, joker2_p). ``split='test'`` uses only held-out styles.
    With ``jpeg`` the frame goes through the JPEG round trip its label's ``meta.jpeg_quality``
    names (so a frame in memory equals the one :func:`write_dataset` stores). ``joker_p``: the
    chance a frame holds a joker; ``joker2_p``: the chance, given one, of a second (the
    ``joker-rich`` recipe of :mod:`dataset` raises both). ``fresh_pips=(lo, hi)``: the TRAIN
    deck's pips are redrawn with the seeded drawing ``var-N``, N in lo..hi-1 chosen by the seed
    alone (the ``fresh-pips`` recipes: a pip drawing per frame, so the corner classifier learns
    what makes a spade a spade, not some decks' drawings); the frame is otherwise the same.
    ``fresh_fonts``: the deck's indices are drawn in an extra typeface chosen by the seed alone
    (the ``fresh-fonts`` recipe, :func:`fresh_font_name`), bent by a seeded warp where it is
    ``"warp"`` (``fresh-warp``) or less far where it is ``"bend"`` (``fresh-bend``); the frame is
    otherwise the same.
    ``world``: a frame of the ``world`` recipe instead (:func:`world.render_world`: photographic
    and procedural surfaces, clutter, close-ups, empty frames, rich court art); frames without it
    are unchanged. ``edge_p`` (``world`` only): the chance a frame gets cards cut by its edge,
    face up with the chance ``edge_up``; ``decoy_p`` (``world`` only): the chance of card-sized
    pictures that are not cards; ``ace_p`` (``world`` only): the chance of a fancy ace of spades;
    ``toon_p`` (``world`` only): the chance that a deck given seeded court art gets the open or
    cartoon ``toon-N`` instead of ``rich-N`` (:func:`world.render_world`).
    ``deck_images``: a folder of a deck someone else drew, one image a card (:data:`faces.IMAGE_DECK`):
    the frame's cards, jokers and backs are drawn from it, and all else is the seed's frame.
    """
    if world:
        from dealer_assist.vision.synth.world import render_world
        return render_world(seed, split, jpeg, joker_p, joker2_p, fresh_pips, edge_p=edge_p, edge_up=edge_up,
                            decoy_p=decoy_p, ace_p=ace_p, fresh_fonts=fresh_fonts, deck_images=deck_images,
                            toon_p=toon_p)
    check_split(split)
    rng = np.random.default_rng([int(seed), SPLIT_CODE[split]])
    deck = styles_for(split, DECK_STYLES)[rng.integers(len(styles_for(split, DECK_STYLES)))]
    if fresh_pips is not None:
        deck = deck_style(fresh_pips_name(deck.name, seed, split, fresh_pips))
    if fresh_fonts:
        deck = deck_style(fresh_font_name(deck.name, seed, split, fresh_fonts))
    js, bs = joker_and_back(rng, split)

    tilt = float(rng.uniform(0, 35)) if rng.random() > 0.2 else float(rng.uniform(0, 4))
    yaw = float(rng.uniform(0, 360))
    f = float(rng.uniform(1000, 1700))
    h = camera_homography(tilt, yaw, f)
    frame, bg_name = _background(rng, h)

    card_w = float(rng.uniform(66, 185))
    lay = _Layout(rng, h, card_w)
    objs: list[Obj] = []
    styles = dealt_styles(deck.name, js.name, bs.name, deck_images)
    add_cards = card_dealer(objs, deal_pool(rng, joker_p, joker2_p), *styles)

    layout = []
    if rng.random() < 0.75:
        layout.append("board")
    layout += ["hand"] * int(rng.integers(0, 6))
    if rng.random() < 0.45:
        layout.append("burn")
    if rng.random() < 0.35:
        layout.append("stub")
    layout += ["single"] * int(rng.integers(0, 4))
    if not layout:
        layout = ["hand", "single"]
    rng.shuffle(layout)
    _place_groups(layout, lay, add_cards, card_w, rng, overlap_p=0.15, hand_up_p=0.82, single_up_p=0.85)

    if not objs:  # every group was too big for this view: a few single cards instead
        for _i in range(3):
            mats = lay.try_place(lambda c, a: [_pose(c[0], c[1], a, card_w)], 0.0)
            if mats:
                add_cards(mats)

    # things that are not cards: cut cards, paper slips, phones (hard negatives)
    for _i in range(int(rng.choice([0, 0, 0, 1, 1, 2]))):
        kind = str(rng.choice(["cutcard", "paper", "phone"]))
        mats = lay.try_place(lambda c, a: [_pose(c[0], c[1], a, card_w * rng.uniform(0.95, 1.1))], 0.0, 10)
        if mats:
            objs.append(Obj("thing", kind, sprite=_thing_sprite(kind, rng), m=mats[0]))

    # chips and the dealer button lie on top of whatever is under them
    n_stacks = int(rng.integers(0, 9))
    for _i in range(n_stacks):
        d = card_w * rng.uniform(0.5, 0.62)
        u, v = rng.uniform(0.03, 0.97) * FRAME_W, rng.uniform(0.05, 0.95) * FRAME_H
        c = lay.world_at(u, v)
        ok = rng.random() < 0.25 or lay.occ[int(v // 4), int(u // 4)] == 0
        if not ok:
            continue
        sp = _chip_sprite(rng)
        height = int(rng.integers(1, 9))
        m0 = h @ _pose(c[0], c[1], rng.uniform(0, 360), d, 96, 96)
        up = np.array([0.0, -1.0]) * d * 0.085 * (0.3 + 0.7 * math.sin(math.radians(max(tilt, 10))))
        for level in range(height):
            sh = np.array([[1, 0, up[0] * level], [0, 1, up[1] * level], [0, 0, 1]])
            dark = sp.copy()
            if level < height - 1:
                dark[..., :3] = (dark[..., :3] * 0.8).astype(np.uint8)
            objs.append(Obj("chip", sprite=dark, m=sh @ m0))
    if rng.random() < 0.3:
        u, v = rng.uniform(0.05, 0.95) * FRAME_W, rng.uniform(0.08, 0.92) * FRAME_H
        c = lay.world_at(u, v)
        objs.append(Obj("button", sprite=_button_sprite(), m=h @ _pose(c[0], c[1], rng.uniform(0, 360), card_w * 0.7, 96, 96)))

    shadow_dir = rng.uniform(0, 2 * math.pi)
    shadow_len = rng.uniform(0.5, 4.0)
    shadow = (math.cos(shadow_dir) * shadow_len, math.sin(shadow_dir) * shadow_len, rng.uniform(1.0, 4.0),
              rng.uniform(0.15, 0.45))
    for o in objs:
        gain = 1.0
        if o.sprite is None:
            o.sprite, o.index_box = card_canvas(o.name, o.style)
            gain = float(rng.uniform(0.86, 1.04))   # each card catches the light a little differently
            sheen = (float(rng.uniform(-0.12, 0.12)), float(rng.uniform(-0.12, 0.12)),
                     float(rng.uniform(-0.5, 0.5)), float(rng.uniform(-0.5, 0.5)),
                     float(rng.uniform(20, 70)) if rng.random() < 0.12 else 0.0)
            _warp_sprite(frame, o, shadow, gain, sheen)
        else:
            _warp_sprite(frame, o, shadow, gain)

    # a dealer's / player's hand reaching in, on top of everything
    if rng.random() < 0.25:
        objs.append(_draw_hand(frame, rng, card_w))

    label = _labels(objs, tilt)
    frame = _camera_effects(frame, rng, label)
    label["image"] = f"{int(seed):06d}.jpg"
    label["meta"].update({
        "seed": int(seed), "split": split, "deck_style": deck.name,
        "font": f"{deck.font.kind}:{deck.font.name}" + (":italic" if deck.font.italic else ""),
        "joker_style": js.name, "back_style": bs.name, "tilt_deg": round(tilt, 1), "yaw_deg": round(yaw, 1),
        "focal_px": round(f, 1), "background": bg_name, "card_width_world": round(card_w, 1),
    })
    image_deck_meta(label, deck_images)
    if jpeg:
        q = label["meta"]["jpeg_quality"]
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, q])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return frame, label


def render_cards(placements: list[dict], tilt_deg: float = 0.0, yaw_deg: float = 0.0,
                 focal_px: float = 1200.0, background=(40, 110, 30)) -> tuple[np.ndarray, dict]:
    """A plain frame with exactly the cards asked for, no camera effects (for tests and
    demonstrations). Each placement is ``{"card": "Ah" | "JK" | "BACK", "style": name,
    "center": (x, y), "angle": deg, "width": w}`` in world units (with no tilt or yaw, world
    (x, y) is frame pixel (640 + x, 360 + y)); later placements lie on top.

    >>> img, lab = render_cards([{"card": "7s", "style": "bicycle-like", "center": (0, 0),
    ...                            "angle": 0, "width": 100}])
    >>> [[round(v) for v in p] for p in lab["cards"][0]["polygon"]]
    [[590, 290], [690, 290], [690, 430], [590, 430]]
    """
    h = camera_homography(tilt_deg, yaw_deg, focal_px)
    frame = np.empty((FRAME_H, FRAME_W, 3), np.uint8)
    frame[:] = background
    objs = []
    for p in placements:
        name = "BACK" if p["card"].upper() == "BACK" else p["card"]
        cx, cy = p["center"]
        objs.append(Obj("back" if name == "BACK" else "face", name, p["style"],
                        h @ _pose(cx, cy, p.get("angle", 0.0), p["width"])))
    for o in objs:
        o.sprite, o.index_box = card_canvas(o.name, o.style)
        _warp_sprite(frame, o, None)
    label = _labels(objs, tilt_deg)
    label["meta"]["tilt_deg"] = round(float(tilt_deg), 1)
    return frame, label


def _draw_hand(frame: np.ndarray, rng: np.random.Generator, card_w: float) -> Obj:
    size = card_w * rng.uniform(1.3, 2.0)
    side = int(rng.integers(4))
    if side == 0:
        base, ang = (rng.uniform(100, FRAME_W - 100), FRAME_H + size * 0.2), 180.0
    elif side == 1:
        base, ang = (rng.uniform(100, FRAME_W - 100), -size * 0.2), 0.0
    elif side == 2:
        base, ang = (-size * 0.2, rng.uniform(100, FRAME_H - 100)), -90.0
    else:
        base, ang = (FRAME_W + size * 0.2, rng.uniform(100, FRAME_H - 100)), 90.0
    ang += rng.normal(0, 20)
    reach = rng.uniform(0.3, 0.9) * size
    r = math.radians(ang)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    org = np.array(base) + rot @ np.array([0.0, reach])
    palm, fingers = _hand_polygon(rng, size)
    mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
    pts = np.array([org + rot @ np.array(p) for p in palm])
    poly(mask, pts, (255,))
    # forearm back to the frame edge
    arm_w = size * 0.4
    d = rot @ np.array([1.0, 0.0]) * arm_w
    poly(mask, [org - d, org + d, np.array(base) + d - rot @ np.array([0, size]),
                np.array(base) - d - rot @ np.array([0, size])], (255,))
    for p0, p1, rad in fingers:
        a0, a1 = org + rot @ np.array(p0), org + rot @ np.array(p1)
        cv2.line(mask, tuple(int(v * 16) for v in a0), tuple(int(v * 16) for v in a1), 255,
                 max(2, int(rad * 2)), cv2.LINE_AA, 4)
    skin = np.array(rng.choice([(150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 120)]), np.float32)
    skin *= rng.uniform(0.85, 1.1)
    if rng.random() < 0.3:  # a dealer's glove / sleeve
        skin = np.array(rng.choice([(235, 235, 235), (30, 30, 30)]), np.float32)
    bx, by, bw, bh = cv2.boundingRect(mask)
    pad = 40
    x0, y0 = max(0, bx - pad), max(0, by - pad)
    x1, y1 = min(FRAME_W, bx + bw + pad), min(FRAME_H, by + bh + pad)
    a = mask[y0:y1, x0:x1].astype(np.float32) / 255.0
    shade = 1 + _smooth_noise(rng, x1 - x0, y1 - y0, 4, 0.08)
    sh = cv2.GaussianBlur(a, (0, 0), 8)
    sh = cv2.warpAffine(sh, np.float32([[1, 0, 10], [0, 1, 12]]), (sh.shape[1], sh.shape[0]))
    out = frame[y0:y1, x0:x1].astype(np.float32) * (1 - 0.45 * sh)[..., None]
    a3 = a[..., None]
    out = out * (1 - a3) + skin * shade[..., None] * a3
    frame[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)
    return Obj("hand", roi=(x0, y0, x1, y1), alpha=a)


def _labels(objs: list[Obj], tilt: float) -> dict:
    cover = np.zeros((FRAME_H, FRAME_W), np.uint8)
    cards, backs = [], []
    for o in reversed(objs):
        x0, y0, x1, y1 = o.roi
        if o.alpha is None or x1 <= x0:
            continue
        foot = o.alpha > 0.5
        if o.kind in ("face", "back"):
            cov = cover[y0:y1, x0:x1] > 0
            polygon = apply_h(o.m, sprite_corners())
            area = int(foot.sum())
            if cut_by_frame(polygon):      # the part beyond the frame does not show either
                area = max(area, int(round(cv2.contourArea(polygon.astype(np.float32)))))
            vis = float((foot & ~cov).sum()) / max(1, area)
            entry = {"polygon": [[round(float(x), 2), round(float(y), 2)] for x, y in polygon],
                     "visible_fraction": round(vis, 3)}
            if o.kind == "face":
                box = o.index_box or DEFAULT_INDEX_BOX
                cv_ = [_index_visible(o.m, box, flip, cover) for flip in (False, True)]
                entry = {"card": o.name, **entry, "corners_visible": [f >= VISIBLE_MIN for f in cv_],
                         "corner_fractions": [round(f, 3) for f in cv_],
                         "joker_has_index": (o.index_box is not None) if o.name == "JK" else None,
                         "rotation_deg": _rot_deg(polygon)}
                cards.append(entry)
            else:
                backs.append(entry)
        cover[y0:y1, x0:x1] |= foot.astype(np.uint8)
    cards.reverse()
    backs.reverse()
    return {"image": "", "width": FRAME_W, "height": FRAME_H, "cards": cards, "backs": backs,
            "meta": {"rotation_deg": [c["rotation_deg"] for c in cards], "tilt_deg": round(tilt, 1)}}


def cut_by_frame(points: np.ndarray, w: int = FRAME_W, h: int = FRAME_H) -> bool:
    """Whether a polygon (frame pixels) reaches beyond a ``w`` x ``h`` frame."""
    p = np.asarray(points, np.float64)
    return bool(p[:, 0].min() < 0 or p[:, 1].min() < 0 or p[:, 0].max() > w or p[:, 1].max() > h)


def _index_visible(m: np.ndarray, box: tuple, flip: bool, cover: np.ndarray) -> float:
    """Uncovered fraction of an index box (TL, or BR when ``flip``) of a card drawn with ``m``."""
    x0, y0, x1, y1 = box
    if flip:
        x0, y0, x1, y1 = 1 - x1, 1 - y1, 1 - x0, 1 - y0
    pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]) * [CANON_W, CANON_H] - 0.5
    q = apply_h(m, pts)
    bx0, by0 = np.floor(q.min(0)).astype(int) - 1
    bx1, by1 = np.ceil(q.max(0)).astype(int) + 2
    bx0, by0 = max(bx0, 0), max(by0, 0)
    bx1, by1 = min(bx1, FRAME_W), min(by1, FRAME_H)
    if bx1 <= bx0 or by1 <= by0:
        return 0.0
    mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((q - [bx0, by0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    total = int(mask.sum())
    if cut_by_frame(q):                    # an index partly beyond the frame shows only in part
        total = max(total, int(round(cv2.contourArea(q.astype(np.float32)))))
    if total == 0:
        return 0.0
    free = int((mask.astype(bool) & (cover[by0:by1, bx0:bx1] == 0)).sum())
    return free / total


@functools.lru_cache(maxsize=1)
def _noise_bank() -> np.ndarray:
    """Unit Gaussian sensor noise, larger than a frame; frames take seeded random windows."""
    return np.random.default_rng(12345).standard_normal((FRAME_H + 64, FRAME_W + 64, 3), dtype=np.float32)


def _camera_effects(frame: np.ndarray, rng: np.random.Generator, label: dict) -> np.ndarray:
    img = frame.astype(np.float32)
    # uneven lighting, exposure and a colour cast in one multiplicative field
    light = 1.0 + _smooth_noise(rng, FRAME_W // 8, FRAME_H // 8, 3, 0.12)
    if rng.random() < 0.2:  # the soft shadow of an arm or a head across the table
        band = np.zeros_like(light)
        p0 = rng.uniform(0, [FRAME_W / 8, FRAME_H / 8])
        ang = rng.uniform(0, math.pi)
        d = np.array([math.cos(ang), math.sin(ang)]) * 400
        cv2.line(band, tuple(int(v) for v in p0 - d), tuple(int(v) for v in p0 + d), 1.0,
                 int(rng.uniform(8, 40)))
        band = cv2.GaussianBlur(band, (0, 0), rng.uniform(2, 6))
        light *= 1.0 - rng.uniform(0.2, 0.45) * band
    light = cv2.resize(light, (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)
    gains = rng.uniform(0.88, 1.12, 3).astype(np.float32) * np.float32(rng.uniform(0.7, 1.2))
    img *= light[..., None] * gains
    contrast = float(rng.uniform(0.8, 1.15))
    if abs(contrast - 1.0) > 0.03:
        img = cv2.addWeighted(img, contrast, img, 0.0, 128.0 * (1.0 - contrast))
    sat = float(rng.uniform(0.7, 1.2))
    if abs(sat - 1.0) > 0.05:  # saturation: blend with the grey image
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[..., None]
        img = cv2.addWeighted(img, sat, np.broadcast_to(grey, img.shape).copy(), 1.0 - sat, 0.0)
    glare = 0.0
    if rng.random() < 0.4:  # a soft specular spot
        gx, gy = rng.uniform(0, FRAME_W), rng.uniform(0, FRAME_H)
        sx, sy = rng.uniform(40, 250), rng.uniform(30, 180)
        glare = float(rng.uniform(40, 140))
        x0, x1 = int(max(0, gx - 3 * sx)), int(min(FRAME_W, gx + 3 * sx))
        y0, y1 = int(max(0, gy - 3 * sy)), int(min(FRAME_H, gy + 3 * sy))
        if x1 > x0 and y1 > y0:
            yy, xx = np.ogrid[y0:y1, x0:x1]
            g = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2)).astype(np.float32) * glare
            img[y0:y1, x0:x1] += g[..., None]
    blur = 0.0
    r = rng.random()
    if r < 0.35:
        blur = float(rng.uniform(0.4, 1.3))
        img = cv2.GaussianBlur(img, (0, 0), blur)
    elif r < 0.45:  # motion blur
        k = int(rng.integers(3, 8))
        ker = np.zeros((k, k), np.float32)
        ang = rng.uniform(0, math.pi)
        c = (k - 1) / 2
        cv2.line(ker, (int(c - math.cos(ang) * c), int(c - math.sin(ang) * c)),
                 (int(c + math.cos(ang) * c), int(c + math.sin(ang) * c)), 1.0, 1)
        ker /= max(ker.sum(), 1e-6)
        img = cv2.filter2D(img, -1, ker)
        blur = -float(k)
    noise = float(rng.uniform(0, 7))
    ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
    img += _noise_bank()[oy:oy + FRAME_H, ox:ox + FRAME_W] * np.float32(noise)
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    label["meta"].update({"glare": round(glare, 1), "blur": round(blur, 2), "noise": round(noise, 2),
                          "jpeg_quality": int(rng.integers(45, 96))})
    return out
