"""Table calibration: camera pixels <-> table units, and the zones cards are dealt into.

A calibration file (YAML, format 1) names four reference points on the table twice: where they
are on the table (``table``, in table units, usually mm) and where the camera sees them
(``image``, in pixels). Those four pairs fix a homography, the exact mapping between the camera
image of the (flat) table and the table itself. Zones (board slots, burn, muck, the hole-card
area of each seat) are polygons in table units, so they stay right even though the camera looks
at the table at a slant.

>>> cal = calibration_from_dict({
...     "version": 1, "name": "doc", "image_size": [640, 480], "units": "mm", "seats": 2,
...     "table_points": {"image": [[0, 0], [640, 0], [640, 480], [0, 480]],
...                      "table": [[0, 0], [1280, 0], [1280, 960], [0, 960]]},
...     "zones": {**{f"board{i}": [[100 * i, 0], [100 * i + 90, 0], [100 * i + 90, 120],
...                                [100 * i, 120]] for i in range(1, 6)},
...               "burn": [[0, 0], [90, 0], [90, 120], [0, 120]],
...               "muck": [[700, 0], [900, 0], [900, 200], [700, 200]],
...               "seat1": [[0, 500], [400, 500], [400, 900], [0, 900]],
...               "seat2": [[800, 500], [1200, 500], [1200, 900], [800, 900]],
...               "rail": [[0, 400], [1280, 400], [1280, 960], [0, 960]]}})
>>> cal.to_table([[320, 240]]).round(3).tolist()
[[640.0, 480.0]]
>>> cal.zone_at((60, 30)), cal.zone_at((100, 350)), cal.zone_at((320, 150)), cal.zone_at((-5, 9))
('board1', 'seat1', None, None)

``seat1`` lies inside ``rail``: the smallest zone that holds the point wins.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, Text, _, join, message_of, os_reason, typed

#: The board slots, in dealing order: flop = board1..3, turn = board4, river = board5.
BOARD_ZONES = tuple(f"board{i}" for i in range(1, 6))
MAX_SEATS = 10
#: A playing card's sides in millimetres (poker size, the size ``calibrate``'s note speaks of)
CARD_MM = (63.0, 88.0)
#: Millimetres in one table unit, for the units a card's size is known in
MM_PER_UNIT = {"mm": 1.0, "cm": 10.0, "m": 1000.0, "in": 25.4, "inch": 25.4, "inches": 25.4}
#: ArUco dictionary of the printed markers (ids 0..3 = the four reference points, in order).
ARUCO_DICT = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def required_zones(seats: int, board: tuple[str, ...] = BOARD_ZONES) -> list[str]:
    """The zones every calibration must have for a table of ``seats`` seats; ``board``: the
    game's board slots (a stud table has none).

    >>> required_zones(3)
    ['board1', 'board2', 'board3', 'board4', 'board5', 'burn', 'muck', 'seat1', 'seat2', 'seat3']
    >>> required_zones(2, board=())
    ['burn', 'muck', 'seat1', 'seat2']
    """
    return [*board, "burn", "muck", *(f"seat{i}" for i in range(1, seats + 1))]


# ---------------------------------------------------------------------------------------------
# geometry
# ---------------------------------------------------------------------------------------------
def _apply_h(h: np.ndarray, pts: Any) -> np.ndarray:
    """Map (n, 2) points through a homography; points that fall on or beyond the horizon are NaN."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.hstack([p, np.ones((len(p), 1))]) @ h.T
    w = q[:, 2:3]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = q[:, :2] / w
    out[(w[:, 0] <= 1e-12) | ~np.isfinite(out).all(axis=1)] = np.nan
    return out


def polygon_area(poly: Any) -> float:
    """Unsigned area of a simple polygon (shoelace).

    >>> polygon_area([[0, 0], [4, 0], [4, 3], [0, 3]])
    12.0
    """
    p = np.asarray(poly, dtype=np.float64)
    x, y = p[:, 0], p[:, 1]
    return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2.0)


def point_in_polygon(x: float, y: float, poly: np.ndarray) -> bool:
    """Whether (x, y) lies inside ``poly`` or on its edge (even-odd ray cast).

    >>> sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    >>> point_in_polygon(5, 5, sq), point_in_polygon(10, 5, sq), point_in_polygon(10.01, 5, sq)
    (True, True, False)
    """
    n = len(poly)
    inside = False
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        # on the edge (within a tiny tolerance): counts as inside
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        if abs(cross) <= 1e-9 * max(1.0, abs(x2 - x1) + abs(y2 - y1)) and \
                min(x1, x2) - 1e-9 <= x <= max(x1, x2) + 1e-9 and min(y1, y2) - 1e-9 <= y <= max(y1, y2) + 1e-9:
            return True
        if (y1 > y) != (y2 > y):
            xs = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xs > x:
                inside = not inside
    return inside


def _quad_problem(pts: np.ndarray) -> Msg | None:
    """Why four points in order cannot be a view of a flat quadrilateral (None if they can)."""
    scale = float(np.ptp(pts, axis=0).max())
    if scale <= 0:
        return _("all four points are the same")
    crosses = []
    for i in range(4):
        a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        ab, bc = b - a, c - b
        crosses.append(float(ab[0] * bc[1] - ab[1] * bc[0]))
    tol = 1e-3 * scale * scale
    for i, cr in enumerate(crosses):
        if abs(cr) <= tol:
            trio = ", ".join(str(k % 4 + 1) for k in (i, i + 1, i + 2))
            return _("points {trio} lie on one line (or two points coincide)", trio=trio)
    if not (all(c > 0 for c in crosses) or all(c < 0 for c in crosses)):
        return _("the points do not go round the quadrilateral in order (its sides cross, or it is not "
                 "convex)")
    return None


def homography_from_points(image_pts: Any, table_pts: Any) -> np.ndarray:
    """The 3x3 homography image px -> table units from four point pairs (in the same order).

    Raises :class:`UserError` when the points cannot be a camera view of four table points.

    >>> h = homography_from_points([[0, 0], [10, 0], [10, 10], [0, 10]],
    ...                            [[0, 0], [20, 0], [20, 20], [0, 20]])
    >>> ((h / h[2, 2]).round(6) + 0.0).tolist()
    [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 1.0]]
    >>> homography_from_points([[0, 0], [5, 0], [10, 0], [0, 10]], [[0, 0], [1, 0], [1, 1], [0, 1]])
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: table_points: the image points are degenerate: points 1, 2, 3 lie on one line (or two points coincide)
    """
    img = np.asarray(image_pts, dtype=np.float64).reshape(-1, 2)
    tab = np.asarray(table_pts, dtype=np.float64).reshape(-1, 2)
    if len(img) != 4 or len(tab) != 4:
        raise UserError(_("table_points: need exactly 4 image and 4 table points, got {image} and {table}",
                          image=len(img), table=len(tab)))
    why = _quad_problem(img)
    if why:
        raise UserError(_("table_points: the image points are degenerate: {why}", why=why))
    why = _quad_problem(tab)
    if why:
        raise UserError(_("table_points: the table points are degenerate: {why}", why=why))
    # Direct linear transform, normalised for conditioning (no OpenCV needed for 4 points).
    def norm(p):
        c = p.mean(axis=0)
        s = math.sqrt(2) / max(float(np.sqrt(((p - c) ** 2).sum(axis=1)).mean()), 1e-12)
        return np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])
    ti, tt = norm(img), norm(tab)
    a = _apply_h(ti, img)
    b = _apply_h(tt, tab)
    rows = []
    for (x, y), (u, v) in zip(a, b):
        rows.append([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
        rows.append([0, 0, 0, -x, -y, -1, v * x, v * y, v])
    _u, sv, vt = np.linalg.svd(np.asarray(rows))
    hn = vt[-1].reshape(3, 3)
    h = np.linalg.inv(tt) @ hn @ ti
    if abs(np.linalg.det(h)) < 1e-12 * (np.abs(h).max() ** 3) or not np.isfinite(h).all():
        raise UserError(_("table_points: the points give a mapping that cannot be inverted"))
    # sign so that the reference points have w > 0 (points beyond the horizon map to NaN)
    w = np.hstack([img, np.ones((4, 1))]) @ h[2]
    if np.all(w < 0):
        h = -h
        w = -w
    if not np.all(w > 0):
        raise UserError(_("table_points: the horizon runs between the reference points; "
                          "the image and table points do not match (check their order)"))
    h = h / np.abs(h).max()
    back = _apply_h(h, img)
    err = float(np.abs(back - tab).max())
    if not np.isfinite(err) or err > 1e-6 * max(1.0, float(np.abs(tab).max())):
        raise UserError(_("table_points: the points give no consistent mapping (check their order)"))
    return h


# ---------------------------------------------------------------------------------------------
# the calibration
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Calibration:
    """One camera's view of one table (see the module docstring).

    Build one with :func:`load_calibration` or :func:`calibration_from_dict`.
    """

    name: str
    image_size: tuple[int, int]
    seats: int
    zones: dict[str, np.ndarray]
    homography: np.ndarray
    units: str = "mm"
    image_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    table_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    extra: dict = field(default_factory=dict)
    #: the picture the calibration was made on (a file beside it, named by its ``look:``), as the
    #: camera's place is checked against it (:mod:`dealer_assist.live.placement`); None: none kept
    look: str | None = None

    def __post_init__(self) -> None:
        inv = np.linalg.inv(self.homography)
        object.__setattr__(self, "_inverse", inv / np.abs(inv).max())
        # smallest zone first: the first that holds a point is the one it belongs to
        order = sorted(self.zones, key=lambda n: (polygon_area(self.zones[n]), n))
        object.__setattr__(self, "_order", tuple(order))
        boxes = {n: (self.zones[n].min(axis=0), self.zones[n].max(axis=0)) for n in order}
        object.__setattr__(self, "_boxes", boxes)

    def to_table(self, pts_px: Any) -> np.ndarray:
        """(n, 2) image pixels -> (n, 2) table units (NaN for points beyond the table's horizon)."""
        return _apply_h(self.homography, pts_px)

    def to_image(self, pts_table: Any) -> np.ndarray:
        """(n, 2) table units -> (n, 2) image pixels (NaN for points behind the camera)."""
        return _apply_h(self._inverse, pts_table)  # type: ignore[attr-defined]

    def zone_of_table_point(self, xy: Any) -> str | None:
        """The zone containing a point given in table units (the smallest if several)."""
        x, y = float(xy[0]), float(xy[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        for name in self._order:  # type: ignore[attr-defined]
            lo, hi = self._boxes[name]  # type: ignore[attr-defined]
            if lo[0] <= x <= hi[0] and lo[1] <= y <= hi[1] and point_in_polygon(x, y, self.zones[name]):
                return name
        return None

    def zone_at(self, xy_px: Any) -> str | None:
        """The zone containing an image point (pixels); the smallest wins if zones overlap."""
        t = self.to_table([xy_px])[0]
        return self.zone_of_table_point(t)

    def zones_image(self) -> dict[str, np.ndarray]:
        """Zone polygons in image pixels, for drawing (a homography keeps straight edges straight)."""
        return {name: self.to_image(poly) for name, poly in self.zones.items()}

    def visible_zones(self) -> dict[str, float]:
        """For each zone, the fraction of its corners inside the camera frame (0.0 .. 1.0)."""
        w, h = self.image_size
        out = {}
        for name, poly in self.zones_image().items():
            ok = np.isfinite(poly).all(axis=1) & (poly[:, 0] >= 0) & (poly[:, 0] <= w) \
                & (poly[:, 1] >= 0) & (poly[:, 1] <= h)
            out[name] = float(ok.mean())
        return out

    def card_side_px(self) -> float | None:
        """How many image pixels a card's short side (:data:`CARD_MM`) spans where cards look
        smallest: at the centre of whichever zone in view lies farthest from the camera (the side
        of a card-wide square there, by its area, so a slanted view counts whole). None where the
        table units are not a length (:data:`MM_PER_UNIT`) or no zone is in view. The card reader
        zooms by it (``DetectorSettings.card_px``): a far camera's cards are too small for the
        whole frame to show them, so it cannot judge from what it found.

        >>> sq = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
        >>> half = np.diag([0.5, 0.5, 1.0])       # 2 mm a pixel: image px -> mm doubles
        >>> cal = Calibration(name="t", image_size=(640, 360), seats=2, homography=np.linalg.inv(half),
        ...                   zones={"board1": sq, "seat1": sq + 200})
        >>> round(cal.card_side_px(), 1)
        31.5
        >>> Calibration(name="t", image_size=(640, 360), seats=2, homography=np.eye(3), zones={"board1": sq},
        ...             units="squares").card_side_px() is None
        True
        """
        per = MM_PER_UNIT.get(self.units.strip().lower())
        if per is None:
            return None
        half = CARD_MM[0] / per / 2.0
        seen = self.visible_zones()
        sides = []
        for name, poly in self.zones.items():
            if seen[name] == 0.0:
                continue
            cx, cy = poly.mean(axis=0)
            square = self.to_image([[cx - half, cy - half], [cx + half, cy - half],
                                    [cx + half, cy + half], [cx - half, cy + half]])
            if np.isfinite(square).all():
                sides.append(math.sqrt(polygon_area(square)))
        return min(sides) if sides else None

    def cards_region_px(self) -> tuple[int, int, int, int] | None:
        """``(x, y, width, height)``, image pixels: the part of the frame where the game's cards
        lie, the box of every zone each grown on the table by a card's long side (:data:`CARD_MM`,
        so that a card whose centre is in a zone lies whole inside), cut to the frame. None where
        the table units are not a length, or a zone's grown corners do not map into the picture (a
        corner behind the camera), or nothing is left in the frame. The card reader looks only
        there where cards are small (``DetectorSettings.region``): a far camera shows the table
        in a small part of its frame.

        >>> sq = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
        >>> half = np.diag([0.5, 0.5, 1.0])       # 2 mm a pixel
        >>> cal = Calibration(name="t", image_size=(640, 360), seats=2, homography=np.linalg.inv(half),
        ...                   zones={"board1": sq + 200, "seat1": sq + 300})
        >>> cal.cards_region_px()                 # mm 112..488 -> px 56..244
        (56, 56, 188, 188)
        >>> Calibration(name="t", image_size=(640, 360), seats=2, homography=np.linalg.inv(half),
        ...             zones={"board1": sq}).cards_region_px()   # cut at the frame's corner
        (0, 0, 94, 94)
        """
        per = MM_PER_UNIT.get(self.units.strip().lower())
        if per is None or not self.zones:
            return None
        grow = CARD_MM[1] / per
        corners = []
        for poly in self.zones.values():
            (x0, y0), (x1, y1) = poly.min(axis=0) - grow, poly.max(axis=0) + grow
            corners.append(self.to_image([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
        pts = np.concatenate(corners)
        if not np.isfinite(pts).all():
            return None
        w, h = self.image_size
        x0, y0 = max(0, math.floor(pts[:, 0].min())), max(0, math.floor(pts[:, 1].min()))
        x1, y1 = min(w, math.ceil(pts[:, 0].max())), min(h, math.ceil(pts[:, 1].max()))
        if x1 - x0 < 1 or y1 - y0 < 1:
            return None
        return int(x0), int(y0), int(x1 - x0), int(y1 - y0)

    def card_view(self) -> tuple[float | None, tuple[int, int, int, int] | None]:
        """What the calibration tells the card reader about this camera's cards:
        ``(card_side_px(), cards_region_px())``, as ``CardDetector.expect_card_side`` takes them
        (``reader.expect_card_side(*cal.card_view())``).

        >>> sq = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float)
        >>> half = np.diag([0.5, 0.5, 1.0])       # 2 mm a pixel
        >>> cal = Calibration(name="t", image_size=(640, 360), seats=2, homography=np.linalg.inv(half),
        ...                   zones={"board1": sq + 200, "seat1": sq + 300})
        >>> side, region = cal.card_view()
        >>> round(side, 1), region
        (31.5, (56, 56, 188, 188))
        >>> Calibration(name="t", image_size=(640, 360), seats=2, homography=np.eye(3), zones={"board1": sq},
        ...             units="squares").card_view()
        (None, None)
        """
        return self.card_side_px(), self.cards_region_px()

    def to_dict(self) -> dict:
        """The calibration as the plain dict that :func:`save_calibration` writes."""
        d = {"version": 1, "name": self.name, "image_size": list(self.image_size), "units": self.units,
             "table_points": {"image": self.image_points.tolist(), "table": self.table_points.tolist()},
             "seats": self.seats,
             "zones": {n: p.tolist() for n, p in self.zones.items()}}
        d.update(self.extra)
        return d


def size_mismatch(name: str, cal_size: Iterable[int], got_size: Iterable[int]) -> Msg:
    """The error where frames are not the size the calibration ``name`` was made for:
    ``cal_size`` and ``got_size`` are ``(width, height)``, in pixels.

    >>> size_mismatch("bar", (1280, 720), (640, 360)).render("en")
    "the calibration 'bar' is for 1280x720 frames but the frames are 640x360: calibrate this camera (dealer-assist calibrate)"
    """
    (cal_w, cal_h), (w, h) = (int(v) for v in cal_size), (int(v) for v in got_size)
    return _("the calibration {name} is for {cal_w}x{cal_h} frames but the frames are {w}x{h}: "
             "calibrate this camera (dealer-assist calibrate)", name=typed(name), cal_w=cal_w, cal_h=cal_h, w=w, h=h)


def _where(source: str | None) -> str:
    return f"{source}: " if source else ""


def _at(where: str, message: Msg) -> Text:
    """``message`` after the file it is about (``where``: ``PATH: `` or nothing), in any language.

    >>> _at("table.yaml: ", _("missing field {key}", key="'zones'")).render("en")
    "table.yaml: missing field 'zones'"
    """
    return join((where, message)) if where else message


def _points(value: Any, what: Text, where: str, *, count: int | None = None, at_least: int = 1) -> np.ndarray:
    if not isinstance(value, (list, tuple)):
        raise UserError(_at(where, _("{what} must be a list of [x, y] number pairs", what=what)))
    out = []
    for p in value:
        if not isinstance(p, (list, tuple)) or len(p) != 2 or \
                any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in p):
            raise UserError(_at(where, _("{what} must be a list of [x, y] number pairs; got {got}",
                                         what=what, got=typed(p))))
        if not all(math.isfinite(float(v)) for v in p):
            raise UserError(_at(where, _("{what} must be a list of [x, y] number pairs; got {got} (not a "
                                         "finite number)", what=what, got=typed(p))))
        out.append([float(p[0]), float(p[1])])
    if count is not None and len(out) != count:
        raise UserError(_at(where, _("{what} needs exactly {count} points, got {n}",
                                     what=what, count=count, n=len(out))))
    if len(out) < at_least:
        raise UserError(_at(where, _("{what} needs at least {at_least} points, got {n}",
                                     what=what, at_least=at_least, n=len(out))))
    return np.asarray(out, dtype=np.float64)


def _whole(value: Any, what: str, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UserError(_at(where, _("{what} must be a whole number from {lo} to {hi}, got {got}",
                                     what=what, lo=lo, hi=hi, got=typed(value))))
    return value


def calibration_from_dict(d: Any, *, source: str | None = None,
                          image_size: tuple[int, int] | None = None,
                          board: tuple[str, ...] = BOARD_ZONES) -> Calibration:
    """Check a calibration dict (format 1) and build the :class:`Calibration`.

    ``source`` names the file in error messages; ``image_size`` (w, h), if given, must match;
    ``board``: the board slots the game needs (:func:`required_zones`).
    """
    where = _where(source)
    if not isinstance(d, Mapping):
        raise UserError(_at(where, _("not a calibration: expected a YAML mapping with version, image_size, "
                                     "table_points, seats and zones")))
    version = d.get("version")
    if version != 1:
        raise UserError(_at(where, _("unsupported calibration version {version} (this program reads version 1)",
                                     version=typed(version))))
    for key in ("image_size", "table_points", "seats", "zones"):
        if key not in d:
            raise UserError(_at(where, _("missing field {key}", key=typed(key))))
    size = d["image_size"]
    if not isinstance(size, (list, tuple)) or len(size) != 2 or \
            any(isinstance(v, bool) or not isinstance(v, int) or not 16 <= v <= 20000 for v in size):
        raise UserError(_at(where, _("image_size must be [width, height] in pixels, got {got}", got=typed(size))))
    size_t = (int(size[0]), int(size[1]))
    name = d.get("name", Path(source).stem if source else "table")
    if not isinstance(name, (str, int, float)):
        raise UserError(_at(where, _("name must be text, got {got}", got=typed(name))))
    if image_size is not None and tuple(int(v) for v in image_size) != size_t:
        raise UserError(_at(where, size_mismatch(str(name), size_t, image_size)))
    units = d.get("units", "mm")
    if not isinstance(units, str) or not units:
        raise UserError(_at(where, _("units must be text such as mm, got {got}", got=typed(units))))
    tp = d["table_points"]
    if not isinstance(tp, Mapping) or "image" not in tp or "table" not in tp:
        raise UserError(_at(where, _("table_points must have 'image' (pixels) and 'table' ({units}) point lists",
                                     units=units)))
    img = _points(tp["image"], _("table_points.image"), where, count=4)
    tab = _points(tp["table"], _("table_points.table"), where, count=4)
    try:
        hom = homography_from_points(img, tab)
    except UserError as exc:
        raise UserError(_at(where, message_of(exc))) from None
    seats = _whole(d["seats"], "seats", where, 2, MAX_SEATS)
    zones_raw = d["zones"]
    if not isinstance(zones_raw, Mapping) or not zones_raw:
        raise UserError(_at(where, _("zones must be a mapping of zone name -> polygon")))
    zones: dict[str, np.ndarray] = {}
    for zname, poly in zones_raw.items():
        if not isinstance(zname, str) or not _NAME_RE.match(zname):
            raise UserError(_at(where, _("bad zone name {name} (letters, digits, _ and -)", name=typed(zname))))
        m = re.fullmatch(r"seat(\d+)", zname)
        if m and not 1 <= int(m.group(1)) <= seats:
            raise UserError(_at(where, _("zone {zone} but the table has seats 1..{seats}", zone=zname, seats=seats)))
        p = _points(poly, _("zone {zone}", zone=zname), where, at_least=3)
        if polygon_area(p) <= 1e-9 * max(1.0, float(np.ptp(p, axis=0).max()) ** 2):
            raise UserError(_at(where, _("zone {zone} has no area (its points lie on one line)", zone=zname)))
        zones[zname] = p
    if board is BOARD_ZONES and isinstance(d.get("board"), list):
        # a table whose game lays its cards elsewhere names those zones (Daifugo: board: [play])
        board = tuple(str(z) for z in d["board"])
    missing = [z for z in required_zones(seats, board) if z not in zones]
    if missing:
        zones_txt = ", ".join(missing)
        if board == BOARD_ZONES:
            said = _("missing zones: {zones} (every calibration needs board1..board5, burn, muck and "
                     "seat1..seat{seats})", zones=zones_txt, seats=seats)
        elif board:
            said = _("missing zones: {zones} (every calibration needs {board}, burn, muck and seat1..seat{seats})",
                     zones=zones_txt, board=", ".join(board), seats=seats)
        else:
            said = _("missing zones: {zones} (every calibration needs burn, muck and seat1..seat{seats})",
                     zones=zones_txt, seats=seats)
        raise UserError(_at(where, said))
    cal_probe = _apply_h(np.linalg.inv(hom), np.vstack(list(zones.values())))
    if not np.isfinite(cal_probe).all():
        raise UserError(_at(where, _("some zones lie beyond the camera's horizon: the table points are wrong")))
    extra = {k: v for k, v in d.items()
             if k not in ("version", "name", "image_size", "units", "table_points", "seats", "zones")}
    look = _look(d.get("look"), source, size_t, where)
    return Calibration(name=str(name), image_size=size_t, seats=seats, zones=zones, homography=hom,
                       units=units, image_points=img, table_points=tab, extra=extra, look=look)


def _look(value: Any, source: str | None, size: tuple[int, int], where: str) -> str | None:
    """The calibration's ``look:`` (the picture it was made on, a file name beside it): its path,
    checked to be a picture of the calibration's frame size; None when there is none."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise UserError(_at(where, _("look must be the file name of the picture the calibration was made on, "
                                     "got {got}", got=typed(value))))
    import cv2

    path = Path(value)
    if not path.is_absolute() and source:
        path = Path(source).parent / path
    image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if image is None:
        raise UserError(_at(where, _("look {look}: no picture there (the frame the calibration was made on, "
                                     "kept beside it): calibrate again, or take the look line out", look=value)))
    if (image.shape[1], image.shape[0]) != size:
        raise UserError(_at(where, _("look {look} is {w}x{h}, not the calibration's {cal_w}x{cal_h}: "
                                     "calibrate again", look=value, w=image.shape[1], h=image.shape[0],
                                     cal_w=size[0], cal_h=size[1])))
    return str(path)


#: PyYAML's words for the mistakes a person most often makes in a YAML file, each with its words in
#: the catalogues (the English as PyYAML says it); any other problem stands in PyYAML's English.
_YAML_PROBLEMS = [
    (re.compile(r"expected ',' or '(?P<close>[]}])', but got '<stream end>'"),
     lambda m: _("expected ',' or '{close}', but got '<stream end>'", close=m["close"])),
    (re.compile(r"found unexpected end of stream"), lambda m: _("found unexpected end of stream")),
    (re.compile(r"mapping values are not allowed here"), lambda m: _("mapping values are not allowed here")),
    (re.compile(r"could not find expected ':'"), lambda m: _("could not find expected ':'")),
    (re.compile(r"found character '\\t' that cannot start any token"),
     lambda m: _("found character '\\t' that cannot start any token")),
]


def _yaml_problem(problem: str | None) -> Text:
    """PyYAML's ``problem`` in words of the catalogues where it is a common one, else as it is.

    >>> p = _yaml_problem("expected ',' or ']', but got '<stream end>'")
    >>> p.render("en")
    "expected ',' or ']', but got '<stream end>'"
    >>> _yaml_problem("found undefined alias 'x'"), _yaml_problem(None).render("en")
    ("found undefined alias 'x'", 'bad YAML')
    """
    if not problem:
        return _("bad YAML")
    for pattern, say in _YAML_PROBLEMS:
        if (m := pattern.fullmatch(problem)) is not None:
            return say(m)
    return problem


def _read_yaml(path: str | os.PathLike, what: Msg) -> Any:
    """The YAML in the file at ``path``; ``what`` the file is (a calibration, a layout) for errors."""
    import yaml

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(_("{what} {path}: no such file", what=what, path=str(path))) from None
    except IsADirectoryError:
        raise UserError(_("{what} {path}: is a folder, not a file", what=what, path=str(path))) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(_("{what} {path}: cannot read it ({why})", what=what, path=str(path),
                          why=os_reason(exc))) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = _yaml_problem(getattr(exc, "problem", None))
        if mark is not None:
            raise UserError(_("{what} {path}: not valid YAML at line {line} ({problem})", what=what,
                              path=str(path), line=mark.line + 1, problem=problem)) from None
        raise UserError(_("{what} {path}: not valid YAML ({problem})", what=what, path=str(path),
                          problem=problem)) from None
    except RecursionError:          # brackets nested deeper than Python's stack: no calibration or layout is
        raise UserError(_("{what} {path}: not valid YAML ({problem})", what=what, path=str(path),
                          problem=_("nested too deeply"))) from None


def load_calibration(path: str | os.PathLike, image_size: tuple[int, int] | None = None,
                     board: tuple[str, ...] = BOARD_ZONES) -> Calibration:
    """Read and check a calibration file; ``image_size`` (w, h) of the frames, if known, must match;
    ``board``: the board slots the game needs (none for stud)."""
    data = _read_yaml(path, _("calibration"))
    return calibration_from_dict(data, source=str(path), image_size=image_size, board=board)


def _num(v: float) -> str:
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{float(v):.2f}".rstrip("0").rstrip(".")


def _pts_text(pts: Iterable) -> str:
    return "[" + ", ".join(f"[{_num(p[0])}, {_num(p[1])}]" for p in pts) + "]"


def dump_calibration(cal_dict: Mapping, source: str | None = None) -> str:
    """The YAML text of a calibration dict (checked first; see :func:`save_calibration`).
    ``source``: the file it is for, beside which its ``look`` picture must lie."""
    import yaml

    cal = calibration_from_dict(cal_dict, source=source)

    def q(s: str) -> str:
        return yaml.safe_dump(s, allow_unicode=True, default_style='"').strip().removesuffix("...").strip()

    lines = ["# Table calibration (dealer-assist calibrate); table units: " + cal.units,
             "version: 1",
             f"name: {q(cal.name)}",
             f"image_size: [{cal.image_size[0]}, {cal.image_size[1]}]",
             f"units: {q(cal.units)}",
             "table_points:",
             f"  image: {_pts_text(cal.image_points)}",
             f"  table: {_pts_text(cal.table_points)}",
             f"seats: {cal.seats}",
             "zones:"]
    for zname, poly in cal.zones.items():
        lines.append(f"  {zname}: {_pts_text(poly)}")
    for key, value in cal.extra.items():
        # a list in flow style ([play]); a plain value as a plain line (look: table-3.look.jpg)
        flow = None if isinstance(value, (list, dict)) else False
        lines.append(yaml.safe_dump({key: value}, allow_unicode=True, sort_keys=False,
                                    default_flow_style=flow).rstrip())
    return "\n".join(lines) + "\n"


def save_calibration(cal_dict: Mapping, path: str | os.PathLike) -> Path:
    """Check ``cal_dict`` and write it as a calibration file (atomically: all or nothing); its
    ``look`` picture, if it names one, must already lie beside ``path``."""
    text = dump_calibration(cal_dict, source=str(path))
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    try:
        if p.parent and not p.parent.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        raise UserError(_("cannot write the calibration {path}: {why}", path=str(path), why=os_reason(exc))) from None
    return p


# ---------------------------------------------------------------------------------------------
# layouts (calibration/layouts/*.yaml) and building a calibration from a layout
# ---------------------------------------------------------------------------------------------
def load_layout(path: str | os.PathLike) -> dict:
    """Read and check a table layout: ``units``, ``seats``, ``zones``, ``reference_points``.

    A calibration file is also accepted: its ``table_points.table`` are the reference points, so
    a table calibrated once can be calibrated again after its camera moved.
    """
    d = _read_yaml(path, _("layout"))
    where = _where(str(path))
    if not isinstance(d, Mapping):
        raise UserError(_at(where, _("not a layout: expected a YAML mapping with seats, zones, reference_points")))
    if "reference_points" not in d and isinstance(d.get("table_points"), Mapping) \
            and "table" in d["table_points"]:
        # a calibration file serves as the layout of its own table (re-calibrating a moved camera)
        ref = d["table_points"]["table"]
        d = {k: v for k, v in d.items() if k not in ("table_points", "image_size", "version")}
        d["reference_points"] = ref
    for key in ("seats", "zones", "reference_points"):
        if key not in d:
            raise UserError(_at(where, _("missing field {key}", key=typed(key))))
    _points(d["reference_points"], _("reference_points"), where, count=4)
    # check the zones the same way as a calibration does, with a dummy mapping
    probe = {"version": 1, "name": "probe", "image_size": [100, 100], "units": d.get("units", "mm"),
             "seats": d["seats"], "zones": d["zones"],
             "table_points": {"image": d["reference_points"], "table": d["reference_points"]}}
    if "board" in d:
        probe["board"] = d["board"]
    calibration_from_dict(probe, source=str(path))
    out = dict(d)
    out.setdefault("name", Path(path).stem)
    out.setdefault("units", "mm")
    return out


def calibration_dict(layout: Mapping, image_points: Any, image_size: tuple[int, int], *,
                     seats: int | None = None, name: str | None = None) -> dict:
    """A calibration dict (format 1) from a layout and the image positions of its reference points.

    ``seats`` (fewer than the layout's) keeps only seat1..seatN.
    """
    n = int(layout["seats"]) if seats is None else seats
    if isinstance(n, bool) or not 2 <= n <= int(layout["seats"]):
        raise UserError(_("--seats must be from 2 to {most} for the layout {layout}, got {seats}",
                          most=layout["seats"], layout=layout.get("name", ""), seats=seats))
    zones = {}
    for zname, poly in layout["zones"].items():
        m = re.fullmatch(r"seat(\d+)", str(zname))
        if m and int(m.group(1)) > n:
            continue
        zones[zname] = [[float(x), float(y)] for x, y in poly]
    d = {"version": 1, "name": name or str(layout.get("name", "table")),
         "image_size": [int(image_size[0]), int(image_size[1])], "units": str(layout.get("units", "mm")),
         "table_points": {"image": np.asarray(image_points, dtype=np.float64).round(2).tolist(),
                          "table": [[float(x), float(y)] for x, y in layout["reference_points"]]},
         "seats": n, "zones": zones}
    if "outline" in layout:
        d["outline"] = layout["outline"]
    if "board" in layout:          # the zones its game lays cards in, when not board1..board5
        d["board"] = list(layout["board"])
    calibration_from_dict(d)
    return d


def parse_points(text: str) -> np.ndarray:
    """``"x1,y1 x2,y2 x3,y3 x4,y4"`` -> a (4, 2) array.

    >>> parse_points("10,20 30.5,20 30,40 10,40").tolist()
    [[10.0, 20.0], [30.5, 20.0], [30.0, 40.0], [10.0, 40.0]]
    >>> parse_points("10,20 30,20 30,40")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: --points needs the image positions of 4 reference points ("x1,y1 x2,y2 x3,y3 x4,y4"), got 3
    """
    parts = text.replace(";", " ").split()
    pts = []
    for part in parts:
        xy = part.split(",")
        try:
            if len(xy) != 2:
                raise ValueError
            x, y = float(xy[0]), float(xy[1])
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError
        except ValueError:
            raise UserError(_("--points: {part} is not a point x,y (e.g. 412,188)", part=typed(part))) from None
        pts.append([x, y])
    if len(pts) != 4:
        raise UserError(_("--points needs the image positions of 4 reference points "
                          "(\"x1,y1 x2,y2 x3,y3 x4,y4\"), got {n}", n=len(pts)))
    return np.asarray(pts, dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# ArUco markers, previews
# ---------------------------------------------------------------------------------------------
def _aruco_dict():
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Centres (pixels) of the ArUco markers (DICT_4X4_50) found in ``image``, by id."""
    import cv2

    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(_aruco_dict(), params)
    corners, ids, _rejected = detector.detectMarkers(gray)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for c, i in zip(corners, ids.reshape(-1)):
        quad = np.asarray(c, dtype=np.float64).reshape(4, 2)
        # the centre is where the diagonals cross (exact under perspective, unlike the mean)
        centre = _diagonal_crossing(quad)
        if int(i) in out:   # the same id twice: keep neither, say so at the caller
            out[int(i)] = np.array([np.nan, np.nan])
        else:
            out[int(i)] = centre
    return out


def _diagonal_crossing(q: np.ndarray) -> np.ndarray:
    p, r = q[0], q[2] - q[0]
    s0, s = q[1], q[3] - q[1]
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-12:
        return q.mean(axis=0)
    t = ((s0[0] - p[0]) * s[1] - (s0[1] - p[1]) * s[0]) / den
    return p + t * r


def marker_points(image: np.ndarray) -> np.ndarray:
    """Image positions of the reference points from ArUco markers 0..3 (UserError naming missing ids)."""
    found = find_markers(image)
    dup = [i for i in MARKER_IDS if i in found and not np.isfinite(found[i]).all()]
    if dup:
        raise UserError(_("ArUco marker id {ids} seen more than once: remove the extra copies from the table",
                          ids=", ".join(map(str, dup))))
    missing = [i for i in MARKER_IDS if i not in found]
    if missing:
        seen = sorted(i for i in found if i in MARKER_IDS)
        ids = ", ".join(map(str, missing))
        if seen:
            raise UserError(_("ArUco markers not found: id {ids} (found {seen}; markers 0-3 must all be in view, "
                              "flat and unobstructed)", ids=ids, seen=", ".join(map(str, seen))))
        raise UserError(_("ArUco markers not found: id {ids} (found none of them; markers 0-3 must all be in "
                          "view, flat and unobstructed)", ids=ids))
    return np.array([found[i] for i in MARKER_IDS])


def _stadium(outline: Mapping, n: int = 48) -> np.ndarray | None:
    try:
        (lx, ly), (rx, ry) = outline["centre_left"], outline["centre_right"]
        r = float(outline["radius"])
    except (KeyError, TypeError, ValueError):
        return None
    a = np.linspace(-math.pi / 2, math.pi / 2, n)
    right = np.stack([rx + r * np.cos(a), ry + r * np.sin(a)], axis=1)
    left = np.stack([lx - r * np.cos(a), ly - r * np.sin(a)], axis=1)
    return np.vstack([right, left])


ZONE_COLOURS = {"board": (60, 200, 255), "burn": (80, 80, 255), "muck": (180, 120, 255),
                "seat": (120, 230, 120), "other": (220, 220, 220)}


def _colour(name: str) -> tuple[int, int, int]:
    for key, col in ZONE_COLOURS.items():
        if name.startswith(key):
            return col
    return ZONE_COLOURS["other"]


def draw_preview(image: np.ndarray, cal: Calibration, alpha: float = 0.28, lang: str = "ja") -> np.ndarray:
    """``image`` with the zones drawn over it (translucent fill, outline, name) and the reference
    points marked, for the dealer to check a calibration by eye.

    Each zone is named as the desk names it, in ``lang`` (「ボード1」, 「シート3」, 「バーン」; a
    zone of the dealer's own layout by its file name), with a CJK typeface where one is
    installed (:mod:`dealer_assist.drawtext`), else in English."""
    import cv2

    from dealer_assist.drawtext import put_text, text_size, words_for
    from dealer_assist.i18n import zone as zone_words

    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    fill = out.copy()
    h, w = out.shape[:2]
    scale = max(0.4, min(w, h) / 1400)
    lines = []
    outline = _stadium(cal.extra.get("outline", {})) if isinstance(cal.extra.get("outline"), Mapping) else None
    if outline is not None:
        ipoly = cal.to_image(outline)
        if np.isfinite(ipoly).all():
            lines.append((np.round(ipoly).astype(np.int32), (255, 255, 255)))
    for name, poly in cal.zones.items():
        ipoly = cal.to_image(poly)
        if not np.isfinite(ipoly).all():
            continue
        pts = np.round(ipoly).astype(np.int32)
        col = _colour(name)
        cv2.fillPoly(fill, [pts], col, lineType=cv2.LINE_AA)
        lines.append((pts, col))
    out = cv2.addWeighted(fill, alpha, out, 1 - alpha, 0)
    for pts, col in lines:
        cv2.polylines(out, [pts], True, col, max(1, int(round(2 * scale))), lineType=cv2.LINE_AA)
    font = cv2.FONT_HERSHEY_SIMPLEX
    size = 0.6 * scale * 1.6
    for name, poly in cal.zones.items():
        c = cal.to_image([poly.mean(axis=0)])[0]
        if not np.isfinite(c).all():
            continue
        ipoly = cal.to_image(poly)
        room = 0.95 * float(np.ptp(ipoly[:, 0]))
        label, here = words_for(zone_words(name), lang), size
        if text_size(label, here, 1)[0] > room:       # too wide for the zone: a board's or seat's number alone
            digits = "".join(ch for ch in name if ch.isdigit())
            if digits and name.startswith(("board", "seat")):
                label = digits
            here = size * min(1.0, max(0.5, room / max(1, text_size(label, size, 1)[0])))
        tw, th = text_size(label, here, 1)
        org = (int(c[0] - tw / 2), int(c[1] + th / 2))
        halo = max(3, int(4 * scale)) if label.isascii() else max(6, int(7 * scale))    # a typeface's stroke is a third
        put_text(out, label, org, here, (0, 0, 0), halo)
        put_text(out, label, org, here, (255, 255, 255), max(2, int(1.5 * scale)))
    for k, p in enumerate(cal.image_points):
        x, y = int(round(p[0])), int(round(p[1]))
        r = max(6, int(10 * scale))
        cv2.drawMarker(out, (x, y), (0, 0, 255), cv2.MARKER_CROSS, 2 * r, max(2, int(2 * scale)), cv2.LINE_AA)
        cv2.putText(out, str(k + 1), (x + r, y - r), font, 0.7 * scale * 1.6, (0, 0, 255),
                    max(1, int(2 * scale)), cv2.LINE_AA)
    return out


def marker_sheet(dpi: int = 300, marker_mm: float = 60.0, lang: str = "ja") -> np.ndarray:
    """A printable A4 page (portrait, ``dpi``) with ArUco markers 0..3, ids, cut lines, a scale bar;
    its words in ``lang`` where a typeface can draw them (:mod:`dealer_assist.drawtext`).

    Print at 100 % (no "fit to page"): each black square is then ``marker_mm`` mm wide.
    """
    import cv2

    from dealer_assist.drawtext import put_text, text_size, words_for

    mm = dpi / 25.4
    page_w, page_h = int(round(210 * mm)), int(round(297 * mm))
    page = np.full((page_h, page_w), 255, np.uint8)
    side = int(round(marker_mm * mm))
    cell_w, cell_h = page_w // 2, (page_h - int(40 * mm)) // 2
    top = int(25 * mm)
    fs = dpi / 300
    labels = {0: _("far left"), 1: _("far right"), 2: _("near right"), 3: _("near left")}
    for k in MARKER_IDS:
        img = cv2.aruco.generateImageMarker(_aruco_dict(), k, side)
        cx = cell_w // 2 + (k % 2) * cell_w
        cy = top + cell_h // 2 + (k // 2) * cell_h
        x0, y0 = cx - side // 2, cy - side // 2
        page[y0:y0 + side, x0:x0 + side] = img
        # the centre dot is the reference point: a tiny grey cross helps to lay it on the mark
        text = words_for(_("id {k}  ({where})", k=k, where=labels[k]), lang)
        tw, _th = text_size(text, 1.6 * fs, max(1, int(3 * fs)))
        put_text(page, text, (cx - tw // 2, y0 + side + int(12 * mm)), 1.6 * fs, 0, max(1, int(3 * fs)))
    # dashed cut lines between the four cells
    dash = int(4 * mm)
    for x in range(0, page_w, 2 * dash):
        cv2.line(page, (x, top + cell_h), (min(x + dash, page_w - 1), top + cell_h), 0, max(1, int(2 * fs)))
    for y in range(top, top + 2 * cell_h, 2 * dash):
        cv2.line(page, (cell_w, y), (cell_w, min(y + dash, top + 2 * cell_h)), 0, max(1, int(2 * fs)))
    title = words_for(_("dealer-assist table markers  ArUco {dictionary}  {size} mm  print at 100%",
                        dictionary=ARUCO_DICT, size=f"{marker_mm:g}"), lang)
    put_text(page, title, (int(12 * mm), int(14 * mm)), 1.2 * fs, 0, max(1, int(2 * fs)))
    # a 100 mm scale bar to check the print size
    y = page_h - int(10 * mm)
    x0 = int(12 * mm)
    cv2.line(page, (x0, y), (x0 + int(round(100 * mm)), y), 0, max(1, int(3 * fs)))
    for xx in (x0, x0 + int(round(100 * mm))):
        cv2.line(page, (xx, y - int(3 * mm)), (xx, y + int(3 * mm)), 0, max(1, int(3 * fs)))
    put_text(page, words_for(_("100 mm: measure this line after printing"), lang),
             (x0 + int(round(105 * mm)), y + int(2 * mm)), 1.0 * fs, 0, max(1, int(2 * fs)))
    return page
