"""The camera's place, watched: a camera bumped or turned after its calibration puts every zone
beside the cards it should hold, and the table would then rule on cards in the wrong zones.

A calibration ties the camera's picture to the table (:mod:`calibration`); it holds only while the
camera stays where it was. :class:`PlaceWatch` keeps the look of the table as the run began (ORB
corners of the cloth's printing, the rail, the chip trays: never of the cards, which are masked
out) and, every :attr:`PlaceSettings.every_s` seconds, finds the same corners in the frame. The
motion that carries most of them (a rotation, a shift and a zoom, fitted with RANSAC: chips and
hands that moved are outvoted) says where the table now lies in the picture. Carried through the
calibration, it says how far each zone's centre now lies from where the table thinks it is, in
the table's own millimetres:

- ``camera_moved`` is raised when a zone lies :attr:`PlaceSettings.moved_mm` or more off in
  :attr:`PlaceSettings.agree` looks in a row (a hand over the table, a card put down, do not move
  the table's corners). While it stands the frames are not given to the table (:attr:`holding`):
  a card would be taken for one in another zone, a seat's cards for gone. Nor is the frame of a
  look that saw the zones off, nor those up to the next look, which says whether the camera moved.
- A knock is caught at its own frame: each frame is compared with the one before (a small grey
  copy, each quarter by phase correlation, :func:`quarters_shifted`). When most quarters shifted
  at once (:attr:`PlaceSettings.jolt_px`, :attr:`PlaceSettings.jolt_quarters`), the watch looks
  at once and at each frame until a look decides, instead of the frames up to the next look being
  given to the table with its cards in other zones.
- It is cleared when the camera is back where it was (every zone within
  :attr:`PlaceSettings.back_mm`, the same number of looks), or when the dealer lets the zones
  follow the camera (:meth:`follow`: the calibration moved by the motion measured, the table's
  look kept as it was).

Where the calibration keeps the picture it was made on (its ``look:``, written by ``dealer-assist
calibrate``), the table's look is that picture: a camera moved between the calibration and the run
is said at the run's first frames. When that picture cannot be found in the camera's (another
light, a table dressed otherwise) for :data:`LOOK_TRIES` looks, the run's own frame is the look.

A look that finds too few of the table's corners again (a table mostly covered, a picture
blurred by the bump itself) decides nothing. Nor does one whose corners lie in fewer than
:attr:`PlaceSettings.min_cells` ninths of the picture, and where
:attr:`PlaceSettings.held_share` of them still lie where the zones' placement puts them, the
picture did not move: over a bare cloth the corners of cards pushed about (a card the reader
missed, card edges) can outnumber the cloth's, and their motion is not the camera's. The watch
knows nothing of cards or games: it sees the frame and where the reader found cards, and maps
points through the calibration.

>>> import numpy as np
>>> from dealer_assist.live.calibration import Calibration
>>> rng = np.random.default_rng(1)
>>> table = cv2.GaussianBlur(rng.integers(0, 255, (360, 640, 3), dtype=np.uint8), (0, 0), 2)
>>> cal = Calibration(name="t", image_size=(640, 360), seats=1, homography=np.eye(3),
...                   zones={"seat1": np.array([[100., 100], [300, 100], [300, 250], [100, 250]])})
>>> watch = PlaceWatch(cal)
>>> [watch.look(table, k / 2, ()) for k in range(3)]
[[], [], []]
>>> shifted = np.roll(table, 40, axis=1)          # the camera turned: the table 40 px to the right
>>> [[(code, raised) for code, raised, _m in watch.look(shifted, 2 + k / 2, ())] for k in range(2)]
[[], [('camera_moved', True)]]
>>> watch.moved, round(watch.off_mm)
(True, 40)
>>> moved = watch.follow()
>>> moved.zone_at((240.0, 150.0)), cal.zone_at((240.0, 150.0))      # a card at x 240 px is...
('seat1', 'seat1')
>>> moved.zone_at((120.0, 150.0)), cal.zone_at((120.0, 150.0))      # ...one at 120 px no longer
(None, 'seat1')
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any, Iterable, Optional

import cv2
import numpy as np

from dealer_assist.i18n import Msg, _

__all__ = ["PLACE_CODES", "UNWATCHED", "PlaceSettings", "PlaceWatch", "motion_from_look"]

#: The alert of the camera's place, raised and cleared by :class:`PlaceWatch`.
PLACE_CODES = ("camera_moved",)
#: The notice that the camera's place cannot be watched (raised once, never cleared).
UNWATCHED = "camera_unwatched"

#: looks that find nothing of the calibration's picture before the run's own frame is the look
LOOK_TRIES = 6


@dataclass(frozen=True, slots=True)
class PlaceSettings:
    #: seconds between two looks (a look takes about 8 ms on a 1280x720 frame)
    every_s: float = 0.5
    #: millimetres on the table a zone lies off before the camera is called moved (a board slot's
    #: card leaves its slot at about half a card's width, 30 mm)
    moved_mm: float = 20.0
    #: millimetres under which every zone lies again for the camera to be back
    back_mm: float = 8.0
    #: looks in a row that must agree before the camera is called moved, or back
    agree: int = 2
    #: the table's corners found again in a look for it to decide anything
    min_inliers: int = 40
    #: ... and their share of the corners matched
    min_share: float = 0.25
    #: the table's look must hold this many corners for the watch to work at all
    min_corners: int = 80
    #: the corners found again must lie in this many ninths of the picture (a 3x3 grid): a camera
    #: that moved moves the whole picture, a card slid over a bare cloth only its own corners
    min_cells: int = 3
    #: the share of the new motion's corners that, still lying where the zones' placement puts
    #: them, say the picture did not move
    held_share: float = 0.1
    #: the picture is looked at this much smaller (0.5: a 1280x720 frame as 640x360)
    scale: float = 0.5
    #: a jolt: between one frame and the next, at least :attr:`jolt_quarters` quarters of the
    #: picture shifted this many pixels each (of a picture 1280 px across; it scales with the
    #: picture). A hand or a card moves one quarter at most; a knocked camera moves all four
    jolt_px: float = 8.0
    jolt_quarters: int = 3
    #: after a jolt the watch looks at once and at each frame until a look decides, this many
    #: looks at most. A jolt holds no frame by itself: only a look that saw the zones off does, so
    #: a picture that keeps shaking (and looks that cannot decide) never stops the table unsaid
    jolt_looks: int = 3


def _grey(image: np.ndarray, scale: float) -> np.ndarray:
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale != 1 else image
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small


#: the width (px) of the small grey picture two frames are compared in for a jolt
THUMB_WIDTH = 160


def _thumb(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    size = (THUMB_WIDTH, max(2, round(h * THUMB_WIDTH / w)))
    if w >= 4 * THUMB_WIDTH:           # every other pixel first: a tenth of the time of one step
        image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_NEAREST)
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return (cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small).astype(np.float32)


@functools.lru_cache(maxsize=4)
def _hanning(w: int, h: int) -> np.ndarray:
    """The window phase correlation weighs a quarter with (one per picture size, made once)."""
    return cv2.createHanningWindow((w, h), cv2.CV_32F)


def quarters_shifted(before: np.ndarray, now: np.ndarray, px: float) -> int:
    """How many quarters of a picture shifted at least ``px`` pixels from ``before`` to ``now``
    (two small grey pictures of one size), each quarter's shift found by phase correlation.

    >>> rng = np.random.default_rng(0)
    >>> a = cv2.GaussianBlur(rng.uniform(0, 255, (90, 160)).astype(np.float32), (0, 0), 1.5)
    >>> quarters_shifted(a, a, 1.0), quarters_shifted(a, np.roll(a, 2, axis=1), 1.0)
    (0, 4)
    >>> hand = a.copy(); hand[:45, :80] = np.roll(a, 5, axis=0)[:45, :80]   # one quarter moved
    >>> quarters_shifted(a, hand, 1.0)
    1
    """
    h, w = before.shape[:2]
    qh, qw = h // 2, w // 2
    window = _hanning(qw, qh)
    n = 0
    for y in (0, qh):
        for x in (0, qw):
            (dx, dy), _response = cv2.phaseCorrelate(before[y:y + qh, x:x + qw], now[y:y + qh, x:x + qw], window)
            n += bool(np.hypot(dx, dy) >= px)
    return n


def _as3(a: np.ndarray) -> np.ndarray:
    return np.vstack([np.asarray(a, np.float64), [0.0, 0.0, 1.0]])


class PlaceWatch:
    """Looks at a frame now and then (:meth:`look`) and says when the camera has moved off its
    calibration, and when it is back; :meth:`follow` moves the calibration with it."""

    def __init__(self, calibration, settings: PlaceSettings = PlaceSettings()):
        self.settings = settings
        #: the calibration as it was when the table's look was taken
        self.calibration = calibration
        zones = calibration.zones_image()
        self._centres = np.array([np.asarray(p, np.float64).mean(axis=0) for p in zones.values()]) \
            if zones else np.zeros((0, 2))
        self._table_xy = calibration.to_table(self._centres) if len(self._centres) else np.zeros((0, 2))
        self._orb = cv2.ORB_create(nfeatures=800, fastThreshold=10)
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self._ref: Optional[tuple[np.ndarray, np.ndarray]] = None   # (points px, descriptors)
        #: the motion the zones follow now (image px of the table's look -> image px now)
        self.followed = np.eye(3)
        #: the latest motion measured (None: no look decided yet)
        self.motion: Optional[np.ndarray] = None
        #: how far (mm) the farthest zone lay off in the latest look that decided
        self.off_mm = 0.0
        self.moved = False
        #: False when the table's look holds too few corners to watch (a bare cloth)
        self.working = True
        self._last_t: Optional[float] = None
        self._streak = 0
        #: the table's look is the picture the calibration was made on (its ``look:``), not the
        #: run's first frame: a camera moved between the calibration and the run is said at once
        self.from_look = False
        self._undecided = 0
        #: the last frame as a small grey picture, and the looks left after a jolt
        self._prev: Optional[np.ndarray] = None
        self._jolt = 0
        #: looks taken (each about 8 ms), and jolts seen
        self.looks = 0
        self.jolts = 0

    # -- looking ----------------------------------------------------------------------------
    def _look_features(self) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """The corners of the picture the calibration was made on, if it keeps one (and it holds
        enough of them)."""
        path = getattr(self.calibration, "look", None)
        image = cv2.imread(path, cv2.IMREAD_COLOR) if path else None
        if image is None:
            return None
        pts, des = self._features(image, ())
        return (pts, des) if des is not None and len(pts) >= self.settings.min_corners else None

    def _features(self, image: np.ndarray, cards: Iterable[Any]) -> tuple[np.ndarray, Optional[np.ndarray]]:
        s = self.settings.scale
        grey = _grey(image, s)
        mask = np.full(grey.shape, 255, np.uint8)
        for poly in cards:
            pts = np.asarray(poly, np.float64).reshape(-1, 2) * s
            if len(pts) >= 3 and np.all(np.isfinite(pts)):
                cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 0)
        mask = cv2.erode(mask, np.ones((9, 9), np.uint8))        # the card's edge and shadow too
        kps, des = self._orb.detectAndCompute(grey, mask)
        pts = np.array([k.pt for k in kps], np.float64).reshape(-1, 2) / s
        return pts, des

    def _measure(self, image: np.ndarray, cards: Iterable[Any]) -> Optional[np.ndarray]:
        """The motion (3x3) from the table's look to this frame, or None when the look decides
        nothing (too few of the table's corners found again)."""
        st = self.settings
        ref_pts, ref_des = self._ref
        pts, des = self._features(image, cards)
        if des is None or len(pts) < 8:
            return None
        pairs = self._matcher.knnMatch(ref_des, des, k=2)
        good = [m for m, n in (p for p in pairs if len(p) == 2) if m.distance < 0.8 * n.distance]
        if len(good) < st.min_inliers:
            return None
        a = np.float32([ref_pts[m.queryIdx] for m in good])
        b = np.float32([pts[m.trainIdx] for m in good])
        tol = 3.0 / st.scale                                   # px: a corner found again, where put
        motion, inliers = cv2.estimateAffinePartial2D(a, b, method=cv2.RANSAC, ransacReprojThreshold=tol)
        if motion is None or inliers is None:
            return None
        n = int(inliers.sum())
        if n < st.min_inliers or n < st.min_share * len(good):
            return None
        h, w = image.shape[:2]
        kept = b[inliers.ravel() > 0]
        cells = {(min(2, int(3 * x / w)), min(2, int(3 * y / h))) for x, y in kept if 0 <= x < w and 0 <= y < h}
        if len(cells) < st.min_cells:
            return None                    # one thing moved (a card over a bare cloth), not the picture
        # the picture as the zones take it now: where a tenth as many corners as the new motion
        # carries still lie where it puts them, the picture did not move; things on it did (cards
        # slid over a bare cloth, whose own corners outnumber the cloth's). A camera that moved
        # leaves almost none in place: at most 0.5 % in every bump of bench_place.py.
        now = self.followed
        held = int((np.linalg.norm(a @ now[:2, :2].T + now[:2, 2] - b, axis=1) < tol).sum())
        if held >= st.min_inliers // 2 and held >= st.held_share * n:
            return now.copy()
        return _as3(motion)

    def _off_mm(self, motion: np.ndarray) -> float:
        """How far (mm) the farthest zone lies off: a table point the table's look saw at image
        point ``c`` is now at ``motion c``; the zones, moved by :attr:`followed`, take it for the
        table point of ``followed⁻¹ motion c``."""
        if not len(self._centres):
            return 0.0
        m = np.linalg.inv(self.followed) @ motion
        seen = self._centres @ m[:2, :2].T + m[:2, 2]
        taken = self.calibration.to_table(seen)
        off = np.linalg.norm(taken - self._table_xy, axis=1)
        off = off[np.isfinite(off)]
        return float(off.max()) if len(off) else float("inf")

    def look(self, image: np.ndarray, t: float, cards: Iterable[Any] = ()) -> list[tuple[str, bool, Msg]]:
        """The frame at time ``t`` (seconds) and the outlines of the cards the reader found in it
        (image px; masked out): ``(code, raised, words)`` for an alert raised or cleared."""
        st = self.settings
        if not self.working:
            return []
        self._jolted(image)
        if self._ref is None and not self.from_look:
            self._ref = self._look_features()
            self.from_look = self._ref is not None
        if self._ref is None:
            pts, des = self._features(image, cards)
            if des is None or len(pts) < st.min_corners:
                # a bare cloth: nothing to hold the table by. Said once, so that the dealer knows
                # a knocked camera will not be noticed (the principle: say what is not known)
                self.working = False
                return [(UNWATCHED, True, _(
                    "the camera's place cannot be watched: the picture shows too little of the table besides "
                    "the cards (a bare cloth), so a camera knocked or turned would not be noticed. Now and then, "
                    "check on the picture that the zones still lie under the cards"))]
            self._ref, self._last_t = (pts, des), t
            return []
        if self._streak == 0 and not self._jolt and self._last_t is not None and t - self._last_t < st.every_s:
            return []              # (a look that saw a change, or a jolt, is checked at the next frame)
        self._last_t = t
        self.looks += 1
        motion = self._measure(image, cards)
        self._jolt = self._jolt - 1 if motion is None and self._jolt else 0
        if motion is None:
            if not self.moved:
                self._streak = 0           # a move is two decided looks in a row: the table goes on
            if self.from_look and self.motion is None:
                # the calibration's picture is not found in the camera's (another light, a table
                # dressed otherwise): after LOOK_TRIES looks the run's own frame is the look
                self._undecided += 1
                if self._undecided >= LOOK_TRIES:
                    pts, des = self._features(image, cards)
                    self._ref = (pts, des) if des is not None and len(pts) >= st.min_corners else self._ref
                    self.from_look = False
            return []
        self.motion = motion
        self.off_mm = self._off_mm(motion)
        if not self.moved:
            self._streak = self._streak + 1 if self.off_mm >= st.moved_mm else 0
            if self._streak >= st.agree:
                self.moved, self._streak = True, 0
                return [("camera_moved", True, _(
                    "the camera has moved: the table lies about {mm} mm from where its calibration puts it, "
                    "so the zones no longer sit under the cards and the table waits. Put the camera back, or "
                    "let the zones follow the camera (desk: key Z, once the dashed outlines on the picture sit "
                    "on the table)",
                    mm=int(round(self.off_mm))))]
            return []
        self._streak = self._streak + 1 if self.off_mm < st.back_mm else 0
        if self._streak >= st.agree:
            self.moved, self._streak = False, 0
            return [("camera_moved", False, _("the camera is back where it was calibrated"))]
        return []

    def _jolted(self, image: np.ndarray) -> None:
        """Compare the frame with the one before: a jolt (the whole picture shifted at once) makes
        the watch look now, and at each frame until a look decides (at most
        :attr:`PlaceSettings.jolt_looks`), instead of at its next :attr:`PlaceSettings.every_s`:
        the frames after a knock would otherwise reach the table before the next look, their cards
        in other zones. A look that sees the zones off holds its frame (:attr:`holding`)."""
        st = self.settings
        small = _thumb(image)
        before, self._prev = self._prev, small
        if before is None or before.shape != small.shape or self._ref is None:
            return
        if quarters_shifted(before, small, st.jolt_px * THUMB_WIDTH / 1280.0) >= st.jolt_quarters:
            self._jolt = st.jolt_looks
            self.jolts += 1

    @property
    def holding(self) -> bool:
        """The table should not be given this frame: the camera stands moved, or the last look saw
        the zones off and the next one (at the next frame) is to say whether it moved."""
        return self.moved or self._streak > 0

    # -- following ------------------------------------------------------------------------------
    def follow(self):
        """The zones follow the camera: the calibration moved by the motion measured last (the
        table's look is kept, so a later bump is measured against it too). Returns the new
        calibration; :attr:`moved` is cleared."""
        if self.motion is None:
            raise ValueError("no motion of the camera has been measured")
        self.followed = self.motion.copy()
        self.moved, self._streak, self.off_mm = False, 0, self._off_mm(self.motion)
        return self.current()

    def current(self):
        """The calibration as the zones lie now (the first one moved by :attr:`followed`)."""
        return self._moved_by(self.followed)

    def proposed(self):
        """The calibration as :meth:`follow` would make it now (None: no motion measured), for the
        dealer to see where the zones would go before letting them follow."""
        return None if self.motion is None else self._moved_by(self.motion)

    def _moved_by(self, motion: np.ndarray):
        if np.allclose(motion, np.eye(3)):
            return self.calibration
        hom = self.calibration.homography @ np.linalg.inv(motion)
        points = np.asarray(self.calibration.image_points, np.float64).reshape(-1, 2)
        points = points @ motion[:2, :2].T + motion[:2, 2]
        return replace(self.calibration, homography=hom / hom[2, 2], image_points=points)


def motion_from_look(calibration, image: np.ndarray, cards: Iterable[Any] = (),
                     settings: PlaceSettings = PlaceSettings()) -> tuple[Optional[float], Optional[Any]]:
    """The camera's motion since the calibration, measured in ``image`` against the picture the
    calibration was made on (its ``look``): ``(mm, moved)``, how far (mm) the farthest zone lies
    off and the calibration moved with the camera; ``(None, None)`` when the calibration keeps no
    picture or ``image`` gives too few of its corners to tell (``calibrate --check`` and
    ``--follow``)."""
    watch = PlaceWatch(calibration, settings)
    watch._ref = watch._look_features()
    motion = None if watch._ref is None else watch._measure(image, cards)
    if motion is None:
        return None, None
    return watch._off_mm(motion), watch._moved_by(motion)
