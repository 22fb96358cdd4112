"""Scripted clips: a fixed camera over a table where cards come and go as a written script says.

A *scenario* (YAML, see ``sample_frames/clip/scenario.yaml`` and docs/synth.md "Sample clip")
fixes the camera, one deck / joker / back style, the felt, the table layout (zones in table
millimetres, each with numbered *slots* where cards lie) and a list of *segments*: each holds the
table unchanged for ``frames`` frames. A segment changes the table with ``clear`` / ``move`` /
``add`` / ``reveal`` (or lists every card with ``cards``), sets chip stacks and the dealer button,
and may put a dealer's hand (``occluder``) over a zone.

Every card lies at its slot's place plus a small offset and turn that depend only on (seed, zone,
slot, card), so a card that stays does not move between frames. Each frame gets fresh sensor
noise and a slight flicker of the light, so consecutive frames are different samples of one scene.
The frame -> table mapping is one homography (:func:`Scenario.table_to_image`), so the clip's
calibration file (:func:`calibration_dict`) is exact.

>>> sc = parse_scenario(EXAMPLE)
>>> len(sc.frames), [len(f.cards) for f in sc.frames]
(3, [1, 2, 1])
>>> img, lab = ClipRenderer(sc).render(1)
>>> img.shape, [(c["card"], c["zone"]) for c in lab["cards"]], len(lab["backs"])
((720, 1280, 3), [('Ks', 'board1')], 1)
>>> parse_scenario({**EXAMPLE, "segments": [{"frames": 1, "add": [{"zone": "board9", "card": "As"}]}]})
Traceback (most recent call last):
...
dealer_assist.vision.synth.clip.ScenarioError: scenario segment 1: unknown zone 'board9' (zones: board1, seat1)
"""
from __future__ import annotations

import functools
import json
import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from dealer_assist.cards import CardError, parse_card
from dealer_assist.errors import UserError
from dealer_assist.i18n import N_, _, message_of, os_reason, typed
from dealer_assist.vision.synth.draw import HERSHEY, poly
from dealer_assist.vision.synth.faces import card_canvas
from dealer_assist.vision.synth.scene import (FRAME_H, FRAME_W, Obj, _button_sprite, _chip_sprite,
                                              _hand_polygon, _labels, _noise_bank, _pose,
                                              _smooth_noise, _warp_sprite, apply_h,
                                              camera_homography)
from dealer_assist.vision.synth.styles import BACK_STYLES, DECK_STYLES, JOKER_STYLES

#: Physical card size (mm), poker size.
CARD_MM = (63.0, 88.0)

#: A tiny scenario for doctests and tests.
EXAMPLE: dict = {
    "name": "example", "seed": 1, "fps": 15,
    "camera": {"tilt_deg": 15, "yaw_deg": 0, "focal_px": 1200, "px_per_mm": 1.75, "center_mm": [400, 240]},
    "styles": {"deck": "sans-bold", "joker": "jester-word", "back": "lattice-blue"},
    "layout": {"zones": {
        "board1": {"center": [400, 240], "size": [68, 94]},
        "seat1": {"center": [220, 395], "size": [120, 104], "slots": [[-20, 0, -3], [20, 0, 3]]}}},
    "segments": [
        {"frames": 1, "add": [{"zone": "board1", "card": "Ks"}]},
        {"frames": 1, "add": [{"zone": "seat1", "card": "BACK", "slot": 0}]},
        {"frames": 1, "clear": ["seat1"]},
    ],
}


class ScenarioError(UserError):
    """A scenario that cannot be rendered (one line, says where and why)."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A zone of the table layout: a rectangle turned by ``angle`` (deg, clockwise on the table)
    around ``center`` (mm), with card slots ``(dx, dy, dangle)`` in the zone's own frame. A card's
    top points along the zone's turned "up" (angle 0: towards the far side of the table)."""

    name: str
    center: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0
    slots: tuple[tuple[float, float, float], ...] = ((0.0, 0.0, 0.0),)

    def polygon(self) -> np.ndarray:
        """Corners (4, 2) in table mm."""
        w, h = self.size
        return self.to_table(np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]))

    def to_table(self, local: np.ndarray) -> np.ndarray:
        a = math.radians(self.angle)
        r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return np.asarray(local, np.float64) @ r.T + np.asarray(self.center)


@dataclass(frozen=True, slots=True)
class Placed:
    """One card on the table: ``card`` is a card name (canonical, e.g. ``Ks``, ``JK``) or ``BACK``."""

    zone: str
    slot: int
    card: str


@dataclass(frozen=True, slots=True)
class FrameState:
    """What the table holds in one frame."""

    segment: int                       # 1-based segment number
    cards: tuple[Placed, ...]          # bottom to top
    chips: tuple[tuple[int, int], ...]  # (seat, stack height)
    button: int | None
    occluder: str | None               # zone a dealer's hand covers
    note: str = ""


@dataclass(frozen=True)
class Scenario:
    name: str
    seed: int
    fps: float
    tilt_deg: float
    yaw_deg: float
    focal_px: float
    px_per_mm: float
    center_mm: tuple[float, float]
    deck: str
    joker: str
    back: str
    felt: tuple[float, float, float]
    zones: dict[str, Zone]
    chip_spots: dict[int, tuple[float, float]]
    button_spots: dict[int, tuple[float, float]]
    frames: tuple[FrameState, ...]
    video: str = "clip.mp4"
    seats: int = 6
    table_points: tuple[tuple[float, float], ...] = ()
    #: the game's name printed on the felt (the sample clip's Joker NLH table by default)
    title: str = "JOKER HOLD'EM"

    def table_to_image(self) -> np.ndarray:
        """3x3 homography: table mm -> frame pixel."""
        s = self.px_per_mm
        cx, cy = self.center_mm
        to_world = np.array([[s, 0, -s * cx], [0, s, -s * cy], [0, 0, 1.0]])
        return camera_homography(self.tilt_deg, self.yaw_deg, self.focal_px) @ to_world

    def world_to_image(self) -> np.ndarray:
        return camera_homography(self.tilt_deg, self.yaw_deg, self.focal_px)

    def mm_to_world(self, xy) -> tuple[float, float]:
        return ((xy[0] - self.center_mm[0]) * self.px_per_mm, (xy[1] - self.center_mm[1]) * self.px_per_mm)


# --- parsing -----------------------------------------------------------------------------------

def _num(v: Any, what: Any) -> float:
    """``v`` as a number; ``what`` names it: a top-level key (text) or a message (``zone Z size``)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
        if isinstance(what, str):
            raise ScenarioError(_("scenario: {key} must be a number, not {value}", key=what, value=typed(v)))
        raise ScenarioError(_("scenario: {what} must be a number, not {value}", what=what, value=typed(v)))
    return float(v)


def _pair(v: Any, what: Any) -> tuple[float, float]:
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise ScenarioError(_("scenario: {what} must be a pair [x, y], not {value}", what=what, value=typed(v)))
    return _num(v[0], what), _num(v[1], what)


def _keys(obj: Any, allowed: set, what: Any) -> dict:
    if not isinstance(obj, dict):
        raise ScenarioError(_("{what} must be a mapping, not {type}", what=what, type=type(obj).__name__))
    extra = sorted(set(obj) - allowed, key=str)
    if extra:
        raise ScenarioError(_("{what}: unknown key {key} (allowed: {allowed})", what=what, key=typed(extra[0]),
                              allowed=", ".join(sorted(allowed))))
    return obj


def _card_name(text: Any, where: Any) -> str:
    if isinstance(text, str) and text.upper() == "BACK":
        return "BACK"
    try:
        card = parse_card(text)
    except CardError as exc:
        raise ScenarioError(_("{where}: {why}", where=where, why=message_of(exc))) from None
    return str(card)


def _seat_map(obj: Any, what: Any, seats: int) -> dict[int, Any]:
    if not isinstance(obj, dict):
        raise ScenarioError(_("{what} must map seat numbers to values", what=what))
    out = {}
    for k, v in obj.items():
        try:
            seat = int(k)
        except (TypeError, ValueError):
            raise ScenarioError(_("{what}: {key} is not a seat number", what=what, key=typed(k))) from None
        if not 1 <= seat <= seats:
            raise ScenarioError(_("{what}: seat {seat} is not one of 1..{seats}", what=what, seat=seat, seats=seats))
        out[seat] = v
    return out


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario YAML file."""
    import yaml

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(_("cannot read scenario {path}: {why}", path=p, why=os_reason(exc))) from None
    try:
        obj = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScenarioError(_("scenario {path} is not valid YAML: {why}", path=p,
                              why=str(exc).splitlines()[0])) from None
    return parse_scenario(obj)


def parse_scenario(obj: Any) -> Scenario:
    """Check a scenario mapping and expand its segments into per-frame table states."""
    obj = _keys(obj, {"version", "name", "seed", "fps", "video", "camera", "styles", "table", "layout",
                      "segments"}, _("scenario"))
    cam = _keys(obj.get("camera") or {}, {"tilt_deg", "yaw_deg", "focal_px", "px_per_mm", "center_mm"},
                _("scenario camera"))
    sty = _keys(obj.get("styles") or {}, {"deck", "joker", "back"}, _("scenario styles"))
    unknown_style = {"deck": N_("scenario styles: unknown deck style {name}"),
                     "joker": N_("scenario styles: unknown joker style {name}"),
                     "back": N_("scenario styles: unknown back style {name}")}
    for key, table in (("deck", DECK_STYLES), ("joker", JOKER_STYLES), ("back", BACK_STYLES)):
        if sty.get(key) not in table:
            raise ScenarioError(_(unknown_style[key], name=typed(sty.get(key))))
    tab = _keys(obj.get("table") or {}, {"felt", "table_points", "title"}, _("scenario table"))
    title = tab.get("title", "JOKER HOLD'EM")
    if not isinstance(title, str) or len(title) > 40 or not title.isascii():
        raise ScenarioError(_("scenario table: title is the game's name printed on the felt, in at most "
                              "40 plain letters (ASCII)"))
    felt = tab.get("felt", [40, 110, 30])
    if not isinstance(felt, (list, tuple)) or len(felt) != 3:
        raise ScenarioError(_("scenario table: felt must be a BGR colour [b, g, r]"))
    lay = _keys(obj.get("layout") or {}, {"seats", "zones", "chips", "button"}, _("scenario layout"))
    seats = int(_num(lay.get("seats", 6), _("layout seats")))
    zones: dict[str, Zone] = {}
    for name, z in (lay.get("zones") or {}).items():
        z = _keys(z, {"center", "size", "angle", "slots"}, _("scenario zone {name}", name=name))
        slots = z.get("slots", [[0, 0, 0]])
        if not isinstance(slots, list) or not slots:
            raise ScenarioError(_("scenario zone {name}: slots must be a list of [dx, dy, dangle]", name=name))
        sl = []
        for s in slots:
            if not isinstance(s, (list, tuple)) or len(s) not in (2, 3):
                raise ScenarioError(_("scenario zone {name}: a slot is [dx, dy] or [dx, dy, dangle], not {slot}",
                                      name=name, slot=typed(s)))
            sl.append(tuple(_num(v, _("zone {name} slot", name=name)) for v in s) + ((0.0,) if len(s) == 2 else ()))
        zones[str(name)] = Zone(str(name), _pair(z.get("center"), _("zone {name} center", name=name)),
                                _pair(z.get("size"), _("zone {name} size", name=name)),
                                _num(z.get("angle", 0), _("zone {name} angle", name=name)), tuple(sl))
    if not zones:
        raise ScenarioError(_("scenario layout: no zones"))
    chip_spots = {k: _pair(v, _("layout chips seat {seat}", seat=k))
                  for k, v in _seat_map(lay.get("chips") or {}, _("layout chips"), seats).items()}
    button_spots = {k: _pair(v, _("layout button seat {seat}", seat=k))
                    for k, v in _seat_map(lay.get("button") or {}, _("layout button"), seats).items()}
    segs = obj.get("segments")
    if not isinstance(segs, list) or not segs:
        raise ScenarioError(_("scenario: segments must be a non-empty list"))
    frames = _expand(segs, zones, seats, chip_spots, button_spots)
    tp = tab.get("table_points") or []
    return Scenario(
        name=str(obj.get("name", "clip")), seed=int(_num(obj.get("seed", 0), "seed")),
        fps=_num(obj.get("fps", 15), "fps"), tilt_deg=_num(cam.get("tilt_deg", 15), _("camera {key}", key="tilt_deg")),
        yaw_deg=_num(cam.get("yaw_deg", 0), _("camera {key}", key="yaw_deg")),
        focal_px=_num(cam.get("focal_px", 1200), _("camera {key}", key="focal_px")),
        px_per_mm=_num(cam.get("px_per_mm", 1.75), _("camera {key}", key="px_per_mm")),
        center_mm=_pair(cam.get("center_mm", [400, 240]), _("camera {key}", key="center_mm")),
        deck=sty["deck"], joker=sty["joker"], back=sty["back"], felt=tuple(float(v) for v in felt),
        zones=zones, chip_spots=chip_spots, button_spots=button_spots, frames=tuple(frames),
        video=str(obj.get("video", "clip.mp4")), seats=seats,
        table_points=tuple(_pair(p, _("table {key}", key="table_points")) for p in tp), title=title)


def _expand(segs: list, zones: dict, seats: int, chip_spots: dict, button_spots: dict) -> list[FrameState]:
    cards: list[Placed] = []
    chips: dict[int, int] = {}
    button: int | None = None
    out: list[FrameState] = []
    allowed = {"frames", "note", "cards", "clear", "move", "add", "reveal", "chips", "button", "occluder"}
    for i, seg in enumerate(segs, 1):
        where = _("scenario segment {i}", i=i)
        seg = _keys(seg, allowed, where)
        n = seg.get("frames")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ScenarioError(_("{where}: frames must be a whole number >= 1, not {n}", where=where, n=typed(n)))

        def zone_of(name: Any) -> Zone:
            if name not in zones:
                raise ScenarioError(_("{where}: unknown zone {zone} (zones: {zones})", where=where, zone=typed(name),
                                      zones=", ".join(sorted(zones))))
            return zones[name]

        def free_slot(zone: str, taken: list[Placed]) -> int:
            used = {p.slot for p in taken if p.zone == zone}
            for k in range(len(zones[zone].slots)):
                if k not in used:
                    return k
            raise ScenarioError(_("{where}: zone {zone} has no free slot (it has {n})", where=where, zone=typed(zone),
                                  n=len(zones[zone].slots)))

        if "cards" in seg:
            cards = []
            adds = seg["cards"]
        else:
            adds = seg.get("add") or []
        for z in seg.get("clear") or []:
            if z == "all":
                cards = []
            else:
                zone_of(z)
                cards = [p for p in cards if p.zone != z]
        for mv in seg.get("move") or []:
            mv = _keys(mv, {"from", "to", "card"}, _("{where} move", where=where))
            src, dst = zone_of(mv.get("from")).name, zone_of(mv.get("to")).name
            want = _card_name(mv["card"], where) if "card" in mv else None
            moving = [p for p in cards if p.zone == src and (want is None or p.card == want)]
            if not moving:
                if want:
                    raise ScenarioError(_("{where}: nothing to move from {zone} ({card})", where=where, zone=src,
                                          card=want))
                raise ScenarioError(_("{where}: nothing to move from {zone}", where=where, zone=src))
            cards = [p for p in cards if p not in moving]
            for p in moving:
                cards.append(Placed(dst, free_slot(dst, cards), p.card))
        for seat_zone, names in (seg.get("reveal") or {}).items():
            zone_of(seat_zone)
            if not isinstance(names, list):
                raise ScenarioError(_("{where}: reveal {zone} must list the cards, slot by slot", where=where,
                                      zone=seat_zone))
            backs = sorted((p for p in cards if p.zone == seat_zone and p.card == "BACK"), key=lambda p: p.slot)
            if len(backs) != len(names):
                raise ScenarioError(_("{where}: reveal {zone} names {n} cards but {k} lie face down there",
                                      where=where, zone=seat_zone, n=len(names), k=len(backs)))
            for p, name in zip(backs, names):
                cards[cards.index(p)] = Placed(p.zone, p.slot, _card_name(name, where))
        if not isinstance(adds, list):
            raise ScenarioError(_("{where}: cards/add must be a list", where=where))
        for a in adds:
            a = _keys(a, {"zone", "card", "slot"}, _("{where} card", where=where))
            z = zone_of(a.get("zone")).name
            slot = a.get("slot")
            if slot is None:
                slot = free_slot(z, cards)
            if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(zones[z].slots):
                raise ScenarioError(_("{where}: slot {slot} of zone {zone} does not exist (0..{top})", where=where,
                                      slot=typed(slot), zone=z, top=len(zones[z].slots) - 1))
            if any(p.zone == z and p.slot == slot for p in cards):
                raise ScenarioError(_("{where}: slot {slot} of zone {zone} is already taken", where=where, slot=slot,
                                      zone=z))
            cards.append(Placed(z, slot, _card_name(a.get("card"), where)))
        seen: dict[str, str] = {}
        for p in cards:
            if p.card != "BACK":
                if p.card in seen:
                    raise ScenarioError(_("{where}: duplicate card {card} (in {first} and {second})", where=where,
                                          card=p.card, first=seen[p.card], second=p.zone))
                seen[p.card] = p.zone
        if "chips" in seg:
            chips = {}
            for seat, hgt in _seat_map(seg["chips"] or {}, _("{where} chips", where=where), seats).items():
                if seat not in chip_spots:
                    raise ScenarioError(_("{where}: chips for seat {seat}, but the layout has no chip spot for it",
                                          where=where, seat=seat))
                if isinstance(hgt, bool) or not isinstance(hgt, int) or not 0 <= hgt <= 20:
                    raise ScenarioError(_("{where}: chip stack of seat {seat} must be 0..20 chips high", where=where,
                                          seat=seat))
                chips[seat] = hgt
        if "button" in seg:
            b = seg["button"]
            if b is not None and (b not in button_spots):
                raise ScenarioError(_("{where}: button seat {seat} has no button spot in the layout", where=where,
                                      seat=typed(b)))
            button = b
        occ = seg.get("occluder")
        if occ is not None:
            occ = _keys(occ, {"zone"}, _("{where} occluder", where=where))
            occ = zone_of(occ.get("zone")).name
        state = FrameState(i, tuple(cards), tuple(sorted(chips.items())), button, occ, str(seg.get("note", "")))
        out.extend([state] * n)
    return out


# --- calibration -------------------------------------------------------------------------------

def calibration_dict(sc: Scenario) -> dict:
    """The clip's calibration (live contract format 1), exact: the table points' image positions
    come from the same homography that drew the frames."""
    pts = list(sc.table_points) or _default_points(sc)
    img = apply_h(sc.table_to_image(), pts)
    zones = {name: [[round(float(x), 1), round(float(y), 1)] for x, y in z.polygon()]
             for name, z in sorted(sc.zones.items(), key=lambda kv: _zone_order(kv[0]))}
    return {"version": 1, "name": sc.name, "image_size": [FRAME_W, FRAME_H], "units": "mm",
            "table_points": {"image": [[round(float(x), 2), round(float(y), 2)] for x, y in img],
                             "table": [[float(x), float(y)] for x, y in pts]},
            "seats": sc.seats, "zones": zones}


def _default_points(sc: Scenario) -> list:
    inv = np.linalg.inv(sc.table_to_image())
    c = apply_h(inv, [[100, 80], [FRAME_W - 100, 80], [FRAME_W - 100, FRAME_H - 80], [100, FRAME_H - 80]])
    return [[round(float(x)), round(float(y))] for x, y in c]


def _zone_order(name: str) -> tuple:
    for k, prefix in enumerate(("board", "burn", "muck", "stub", "seat")):
        if name.startswith(prefix):
            rest = name[len(prefix):]
            return (k, int(rest) if rest.isdigit() else 0, name)
    return (9, 0, name)


# --- rendering ---------------------------------------------------------------------------------

def _hash_rng(*parts: Any) -> np.random.Generator:
    key = zlib.crc32("|".join(str(p) for p in parts).encode())
    return np.random.default_rng(key)


class ClipRenderer:
    """Renders the frames of a scenario; ``render(i)`` is a pure function of (scenario, i)."""

    def __init__(self, sc: Scenario):
        self.sc = sc
        self.h_world = sc.world_to_image()
        self.card_w = CARD_MM[0] * sc.px_per_mm
        self.shadow = (1.5, 2.5, 2.0, 0.3)

    @functools.cached_property
    def background(self) -> np.ndarray:
        """The felt with its printing, warped into the frame once (the camera does not move)."""
        sc = self.sc
        rng = _hash_rng(sc.seed, "felt")
        k = 2.0                                     # texture px per mm
        x0, y0, x1, y1 = -200.0, -200.0, 1000.0, 700.0
        cw, ch = int((x1 - x0) * k), int((y1 - y0) * k)
        tex = np.empty((ch, cw, 3), np.float32)
        tex[:] = np.array(sc.felt, np.float32)
        tex *= (1 + _smooth_noise(rng, cw, ch, 8, 0.04))[..., None]
        tex *= (1 + rng.normal(0, 0.025, (ch, cw)).astype(np.float32))[..., None]   # the nap
        tex = np.clip(tex, 0, 255).astype(np.uint8)
        ink = tuple(float(min(255, c * 1.45 + 30)) for c in sc.felt)

        def t(p):
            return int(round((p[0] - x0) * k * 16)), int(round((p[1] - y0) * k * 16))

        for name, z in sc.zones.items():   # printed card spots around the board slots
            if name.startswith("board"):
                q = z.polygon() + np.sign(z.polygon() - np.asarray(z.center)) * 2
                cv2.polylines(tex, [np.array([t(p) for p in q], np.int32)], True, ink, 3, cv2.LINE_AA, 4)
        cx, cy = sc.center_mm
        cv2.ellipse(tex, t((cx, cy - 20)), (int(330 * k * 16), int(200 * k * 16)), 0, 0, 360, ink, 3, cv2.LINE_AA, 4)
        for seat, (sx, sy) in sc.chip_spots.items():
            cv2.circle(tex, t((sx, sy)), int(26 * k * 16), ink, 2, cv2.LINE_AA, 4)
        txt = sc.title
        face = HERSHEY["duplex"]
        (tw, th), _ = cv2.getTextSize(txt, face, 1.6, 3)
        org = ((cx - x0) * k - tw / 2, (cy - 105 - y0) * k)
        cv2.putText(tex, txt, (int(org[0]), int(org[1])), face, 1.6, ink, 3, cv2.LINE_AA)
        to_tex = np.array([[k, 0, -x0 * k], [0, k, -y0 * k], [0, 0, 1.0]])
        m = sc.table_to_image() @ np.linalg.inv(to_tex)
        return cv2.warpPerspective(tex, m, (FRAME_W, FRAME_H), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)

    @functools.cached_property
    def light(self) -> np.ndarray:
        """A fixed uneven light over the table (brighter in the middle, a little patchy)."""
        rng = _hash_rng(self.sc.seed, "light")
        f = 1.0 + _smooth_noise(rng, FRAME_W // 8, FRAME_H // 8, 3, 0.05)
        yy, xx = np.mgrid[0:FRAME_H // 8, 0:FRAME_W // 8].astype(np.float32)
        r2 = ((xx - FRAME_W / 16) / (FRAME_W / 16)) ** 2 + ((yy - FRAME_H / 16) / (FRAME_H / 16)) ** 2
        f *= 1.04 - 0.1 * r2
        return cv2.resize(f, (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)

    def card_pose(self, p: Placed) -> tuple[np.ndarray, float, tuple]:
        """Sprite -> frame matrix of a placed card, its light gain and sheen (fixed per card)."""
        sc = self.sc
        z = sc.zones[p.zone]
        dx, dy, da = z.slots[p.slot]
        rng = _hash_rng(sc.seed, p.zone, p.slot, p.card)
        jx, jy, ja = rng.normal(0, 1.0), rng.normal(0, 1.0), rng.normal(0, 1.8)
        centre = z.to_table(np.array([[dx + jx, dy + jy]]))[0]
        wx, wy = sc.mm_to_world(centre)
        m = self.h_world @ _pose(wx, wy, z.angle + da + ja, self.card_w)
        gain = float(rng.uniform(0.93, 1.02))
        sheen = (float(rng.uniform(-0.08, 0.08)), float(rng.uniform(-0.08, 0.08)), 0.0, 0.0, 0.0)
        return m, gain, sheen

    def _chips(self, fs: FrameState) -> list[Obj]:
        sc = self.sc
        objs = []
        d = 40.0 * sc.px_per_mm
        for seat, height in fs.chips:
            rng = _hash_rng(sc.seed, "chips", seat)
            sp = _chip_sprite(rng)
            wx, wy = sc.mm_to_world(sc.chip_spots[seat])
            m0 = self.h_world @ _pose(wx, wy, float(rng.uniform(0, 360)), d, 96, 96)
            up = np.array([0.0, -1.0]) * d * 0.085 * (0.3 + 0.7 * math.sin(math.radians(max(sc.tilt_deg, 10))))
            for level in range(height):
                sh = np.array([[1, 0, up[0] * level], [0, 1, up[1] * level], [0, 0, 1]])
                s2 = sp.copy()
                if level < height - 1:
                    s2[..., :3] = (s2[..., :3] * 0.8).astype(np.uint8)
                objs.append(Obj("chip", sprite=s2, m=sh @ m0))
        if fs.button is not None:
            wx, wy = sc.mm_to_world(sc.button_spots[fs.button])
            objs.append(Obj("button", sprite=_button_sprite(), m=self.h_world @ _pose(wx, wy, 20.0, 45 * sc.px_per_mm, 96, 96)))
        return objs

    def render(self, i: int) -> tuple[np.ndarray, dict]:
        """Frame ``i`` (BGR uint8, before any video compression) and its label."""
        sc = self.sc
        if not 0 <= i < len(sc.frames):
            raise IndexError(f"frame {i} is not in this clip (0..{len(sc.frames) - 1})")
        fs = sc.frames[i]
        frame = self.background.copy()
        objs = self._chips(fs)
        for o in objs:
            _warp_sprite(frame, o, self.shadow)
        cards = []
        for p in fs.cards:
            m, gain, sheen = self.card_pose(p)
            style = sc.back if p.card == "BACK" else sc.joker if p.card == "JK" else sc.deck
            o = Obj("back" if p.card == "BACK" else "face", p.card, style, m, extra={"zone": p.zone, "slot": p.slot})
            o.sprite, o.index_box = card_canvas(p.card, style)
            _warp_sprite(frame, o, self.shadow, gain, sheen)
            cards.append(o)
        objs += cards
        if fs.occluder is not None:
            objs.append(self._reach(frame, fs.occluder, fs.segment))
        label = _labels(objs, sc.tilt_deg)
        faces = [o for o in cards if o.kind == "face"]
        backs = [o for o in cards if o.kind == "back"]
        for entry, o in zip(label["cards"], faces):
            entry.update(zone=o.extra["zone"], slot=o.extra["slot"],
                         index_visible=bool(any(entry["corners_visible"])
                                            and (o.name != "JK" or entry["joker_has_index"])))
        for entry, o in zip(label["backs"], backs):
            entry.update(zone=o.extra["zone"], slot=o.extra["slot"])
        frame = self._effects(frame, i)
        out = {"frame": i, "t": round(i / sc.fps, 4), "segment": fs.segment, "note": fs.note,
               "occluder": fs.occluder, "cards": label["cards"], "backs": label["backs"]}
        return frame, out

    def _reach(self, frame: np.ndarray, zone: str, segment: int) -> Obj:
        """A dealer's hand reaching from the dealer's side (the bottom of the frame) over ``zone``."""
        sc = self.sc
        rng = _hash_rng(sc.seed, "hand", segment)
        target = apply_h(sc.table_to_image(), [sc.zones[zone].center])[0]
        size = self.card_w * 1.6
        base = np.array([target[0] + rng.uniform(-120, 120), FRAME_H + size * 0.3])
        d = target - base
        d /= np.linalg.norm(d)
        ang = math.atan2(-d[0], d[1])
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        org = target - d * size * 0.55
        palm, fingers = _hand_polygon(rng, size)
        mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
        poly(mask, np.array([org + rot @ np.array(p) for p in palm]), (255,))
        side = rot @ np.array([1.0, 0.0]) * size * 0.4
        poly(mask, [org - side, org + side, base + side - d * size, base - side - d * size], (255,))
        for p0, p1, rad in fingers:
            a0, a1 = org + rot @ np.array(p0), org + rot @ np.array(p1)
            cv2.line(mask, tuple(int(v * 16) for v in a0), tuple(int(v * 16) for v in a1), 255,
                     max(2, int(rad * 2)), cv2.LINE_AA, 4)
        bx, by, bw, bh = cv2.boundingRect(mask)
        x0, y0 = max(0, bx - 40), max(0, by - 40)
        x1, y1 = min(FRAME_W, bx + bw + 40), min(FRAME_H, by + bh + 40)
        a = mask[y0:y1, x0:x1].astype(np.float32) / 255.0
        shade = 1 + _smooth_noise(rng, x1 - x0, y1 - y0, 4, 0.08)
        sh = cv2.GaussianBlur(a, (0, 0), 8)
        sh = cv2.warpAffine(sh, np.float32([[1, 0, 10], [0, 1, 12]]), (sh.shape[1], sh.shape[0]))
        skin = np.array((150, 180, 225), np.float32)
        out = frame[y0:y1, x0:x1].astype(np.float32) * (1 - 0.45 * sh)[..., None]
        out = out * (1 - a[..., None]) + skin * shade[..., None] * a[..., None]
        frame[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)
        return Obj("hand", roi=(x0, y0, x1, y1), alpha=a)

    def _effects(self, frame: np.ndarray, i: int) -> np.ndarray:
        """Fixed uneven light, a slight flicker, a touch of lens blur and fresh sensor noise."""
        rng = _hash_rng(self.sc.seed, "frame", i)
        img = frame.astype(np.float32)
        flicker = np.float32(1.0 + rng.normal(0, 0.012))
        img *= self.light[..., None] * flicker
        img = cv2.GaussianBlur(img, (0, 0), 0.6)
        ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        img += _noise_bank()[oy:oy + FRAME_H, ox:ox + FRAME_W] * np.float32(2.5)
        return np.clip(img, 0, 255, out=img).astype(np.uint8)


# --- writing -----------------------------------------------------------------------------------

def write_clip(sc: Scenario, out_dir: str | Path, progress: Callable[[int, int], None] | None = None,
               fourcc: str = "mp4v") -> dict:
    """Render every frame into ``out_dir/<video>``, write ``labels.jsonl`` (one line per frame)
    and ``table.yaml`` (the exact calibration). Returns a summary."""
    import yaml

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    video = out / sc.video
    tmp = video.with_name(video.stem + ".part" + video.suffix)
    writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter_fourcc(*fourcc), sc.fps, (FRAME_W, FRAME_H))
    if not writer.isOpened():
        raise UserError(_("cannot write video {path} with codec {codec}", path=tmp, codec=typed(fourcc)))
    r = ClipRenderer(sc)
    n = len(sc.frames)
    lines = []
    try:
        for i in range(n):
            img, lab = r.render(i)
            writer.write(img)
            lines.append(json.dumps(lab, separators=(",", ":")))
            if progress is not None and (i + 1) % 25 == 0:
                progress(i + 1, n)
    finally:
        writer.release()
    tmp.replace(video)
    (out / "labels.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    cal = calibration_dict(sc)
    head = (f"# Calibration of the sample clip {sc.video} (live contract format 1), written by\n"
            f"# `dealer-assist synth --clip` from the scenario's camera: exact, not measured.\n")
    (out / "table.yaml").write_text(head + yaml.safe_dump(cal, sort_keys=False, default_flow_style=None, width=110),
                                    encoding="utf-8")
    return {"frames": n, "video": str(video), "bytes": video.stat().st_size, "labels": str(out / "labels.jsonl"),
            "calibration": str(out / "table.yaml")}
