"""Frame sources: a camera, a network stream, a video file or a folder of frames.

:func:`open_source` turns a ``--source`` spec into a :class:`FrameSource`, an iterable of
:class:`Frame` (an image with its index and time) and :class:`SourceAlert` (the camera was lost,
came back, a frame could not be read). Iteration never raises: trouble becomes an alert.

* Files (a video, a folder of images) give every frame in order, ``t = index / fps``, so a run on
  a recording is deterministic. With ``realtime=True`` they are paced at their frame rate and the
  frames the consumer was too slow for are skipped (counted in ``.dropped``).
* Live sources (a camera index, ``rtsp://``, ``http(s)://``) are read by a grabber thread that
  keeps only the newest frame: the consumer always gets the newest one and the stale ones are
  dropped (``.dropped``). A camera that is not there, at start-up or mid-run, is one case: the
  source yields ``camera_lost``, reconnects with exponential backoff (0.5 s doubling to 8 s) and
  yields ``camera_back`` when frames come again. Once it has been gone ``give_up_after`` seconds
  (None = never give up; 0 = no retry: a camera missing at start-up is then a UserError) or after
  ``max_retries`` failed reconnections, it yields ``source_ended``, sets ``.gave_up`` to the
  reason ``(english, japanese)`` and stops.

OpenCV's and FFmpeg's own console messages (``[ WARN:0@0.005] ... can't open camera by index``,
``[tcp @ 0x...] Connection refused``) are switched off before any capture opens
(:func:`quiet_native_logs`): the sources say what went wrong themselves. With the environment
variable ``DEALER_ASSIST_DEBUG=1`` (or this module's logger at DEBUG) they are let through, and the
sources log each attempt on the ``dealer_assist.live.sources`` logger.

>>> import tempfile, cv2, numpy as np, os
>>> d = tempfile.mkdtemp()
>>> for i in range(3):
...     _ = cv2.imwrite(os.path.join(d, f"f{i}.png"), np.full((8, 8, 3), i, np.uint8))
>>> src = open_source(d, fps=10)
>>> [(f.index, f.t, int(f.image[0, 0, 0])) for f in src]
[(0, 0.0, 0), (1, 0.1, 1), (2, 0.2, 2)]
"""
from __future__ import annotations

import logging
import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Union

import numpy as np

from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, _, _n, both, os_reason
from dealer_assist.imagefiles import heif_folder, images_in, is_image

DEFAULT_FPS = 15.0
BACKOFF = (0.5, 8.0)   # first wait, longest wait (seconds) between reconnection attempts

log = logging.getLogger(__name__)
_quieted = False


def debugging() -> bool:
    """Whether the native libraries' own messages should be let through (debug mode)."""
    return os.environ.get("DEALER_ASSIST_DEBUG", "").strip() not in ("", "0") or log.isEnabledFor(logging.DEBUG)


def quiet_native_logs() -> None:
    """Keep OpenCV's and FFmpeg's own messages off the dealer's terminal (unless debugging, or
    the user set OPENCV_LOG_LEVEL / OPENCV_FFMPEG_LOGLEVEL): called before any capture opens.
    FFmpeg reads its level when OpenCV first uses it, OpenCV's own level is set at once."""
    global _quieted
    if _quieted:
        return
    _quieted = True
    if debugging():
        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "48")      # AV_LOG_DEBUG
        log.debug("debug mode: OpenCV and FFmpeg messages are let through")
        return
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")          # AV_LOG_QUIET
    if "OPENCV_LOG_LEVEL" not in os.environ:
        os.environ["OPENCV_LOG_LEVEL"] = "SILENT"
        try:
            import cv2

            cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        except Exception:  # noqa: BLE001 - an OpenCV without its logging module: the variable does it
            pass


def _seconds(s: float) -> str:
    return f"{s:g}"


@dataclass(frozen=True, slots=True)
class Frame:
    """One camera frame: ``index`` counts frames from the source's start (for a live source, the
    frames the camera delivered, so dropped frames leave gaps); ``t`` is seconds (video time for a
    file, wall time since the start for a live source); ``image`` is BGR uint8."""

    index: int
    t: float
    image: np.ndarray


@dataclass(frozen=True, slots=True)
class SourceAlert:
    """Something the dealer should know about the source (codes: ``camera_lost``, ``camera_back``,
    ``source_ended``, ``frame_unreadable``), in English and Japanese."""

    code: str
    message: str
    message_ja: str
    t: float


Item = Union[Frame, SourceAlert]


class FrameSource:
    """Base of all sources: iterate for :class:`Frame` and :class:`SourceAlert` items."""

    fps: float = DEFAULT_FPS
    live: bool = False
    dropped: int = 0

    def __iter__(self) -> Iterator[Item]:  # pragma: no cover - overridden
        raise NotImplementedError

    def close(self) -> None:
        """Release the camera or file (safe to call more than once)."""

    def describe(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _Pacer:
    """Realtime playback of a file: which frame index is due now, and waiting for the next."""

    def __init__(self, fps: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.fps, self.clock, self.sleep = fps, clock, sleep
        self.start: Optional[float] = None

    def due(self) -> int:
        if self.start is None:
            self.start = self.clock()
        return int(math.floor((self.clock() - self.start) * self.fps + 1e-9))

    def wait_for(self, index: int) -> None:
        assert self.start is not None
        delay = self.start + index / self.fps - self.clock()
        if delay > 0:
            self.sleep(delay)


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------
class FolderSource(FrameSource):
    """The image files of a folder (:func:`dealer_assist.imagefiles.is_image`), in name order, at ``fps``."""

    def __init__(self, folder: str | os.PathLike, fps: float = DEFAULT_FPS, realtime: bool = False):
        self.folder = Path(folder)
        try:
            self.files, heif = images_in(self.folder)
        except OSError as exc:
            raise UserError(_("cannot read {path}: {why}", path=str(folder), why=os_reason(exc))) from None
        if not self.files:
            raise UserError(_("no images (.jpg, .png, .webp, .tif, ...) in the folder {folder}", folder=folder)
                            if not heif else heif_folder(folder, len(heif)))
        self.fps = fps
        self.realtime = realtime
        self.dropped = 0
        self.live = False

    def describe(self) -> str:
        return f"folder {self.folder} ({len(self.files)} images at {self.fps:g} fps)"

    def __len__(self) -> int:
        return len(self.files)

    def __iter__(self) -> Iterator[Item]:
        import cv2

        pacer = _Pacer(self.fps) if self.realtime else None
        i = 0
        while i < len(self.files):
            if pacer is not None:
                due = pacer.due()
                if due > i:                      # too slow: skip to the frame that is due
                    skip = min(due, len(self.files) - 1) - i
                    self.dropped += skip
                    i += skip
                pacer.wait_for(i)
            path = self.files[i]
            t = round(i / self.fps, 6)
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                yield SourceAlert("frame_unreadable", *both(_("cannot read the image {name}; skipped it",
                                                              name=path.name)), t)
            else:
                yield Frame(i, t, image)
            i += 1


class VideoSource(FrameSource):
    """A video file, every frame in order at the file's own frame rate."""

    def __init__(self, path: str | os.PathLike, fps: Optional[float] = None, realtime: bool = False,
                 capture_factory: Optional[Callable[[str], Any]] = None):
        import cv2

        self.path = str(path)
        quiet_native_logs()
        factory = capture_factory or cv2.VideoCapture
        self.cap = factory(self.path)
        if self.cap is None or not self.cap.isOpened():
            raise UserError(_("cannot read {path} as a video (or an image folder)", path=self.path))
        own = float(self.cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = own if math.isfinite(own) and 1.0 <= own <= 500.0 else (fps or DEFAULT_FPS)
        self.frame_count = int(self.cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.realtime = realtime
        self.dropped = 0
        self.live = False

    def describe(self) -> str:
        n = f"{self.frame_count} frames, " if self.frame_count > 0 else ""
        return f"video {self.path} ({n}{self.fps:g} fps)"

    def __iter__(self) -> Iterator[Item]:
        pacer = _Pacer(self.fps) if self.realtime else None
        i = 0
        while self.cap is not None:
            if pacer is not None:
                due = pacer.due()
                while i < due:                   # too slow: skip without decoding
                    if not self.cap.grab():
                        return
                    self.dropped += 1
                    i += 1
                pacer.wait_for(i)
            ok, image = self.cap.read()
            if not ok or image is None:
                return
            yield Frame(i, round(i / self.fps, 6), image)
            i += 1

    def close(self) -> None:
        if self.cap is not None:
            self.cap.release()
            self.cap = None


# ---------------------------------------------------------------------------------------------
# live: camera or stream
# ---------------------------------------------------------------------------------------------
def _default_capture(spec: str) -> Any:
    import cv2

    if spec.isdigit():
        cap = cv2.VideoCapture(int(spec))
        try:
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)   # ask the driver for no backlog (not all honour it)
        except cv2.error:  # pragma: no cover - driver dependent
            pass
        return cap
    return cv2.VideoCapture(spec, cv2.CAP_FFMPEG,
                            [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, 5000, cv2.CAP_PROP_READ_TIMEOUT_MSEC, 5000])


class LiveSource(FrameSource):
    """A camera or a network stream, read by a grabber thread that keeps only the newest frame.

    ``capture_factory(spec)`` opens the device (default: ``cv2.VideoCapture``); it must return an
    object with ``isOpened()``, ``read() -> (ok, image)``, ``get(prop)`` and ``release()``.

    A camera that does not open at start-up is handled as one lost mid-run: ``camera_lost``, then
    retries with backoff until it comes (``camera_back``) or ``give_up_after`` seconds have passed
    (``source_ended``; ``.gave_up`` holds the reason). With ``give_up_after=0`` (or
    ``reconnect=False``) a camera missing at start-up raises :class:`UserError` at once.
    """

    def __init__(self, spec: str, *, reconnect: bool = True, max_retries: Optional[int] = None,
                 capture_factory: Optional[Callable[[str], Any]] = None,
                 backoff: tuple[float, float] = BACKOFF, fps: Optional[float] = None,
                 give_up_after: Optional[float] = None):
        quiet_native_logs()
        self.spec = spec
        self.what_msg = (_("camera {spec}", spec=spec) if spec.isdigit()
                         else _("stream {spec}", spec=_redact(spec)))
        self.what, self.what_ja = both(self.what_msg)
        self.factory = capture_factory or _default_capture
        self.reconnect = reconnect
        self.max_retries = max_retries
        self.give_up_after = give_up_after
        #: why it gave up (None: it has not), a message of the catalogues
        self.gave_up_msg: Optional[Msg] = None
        self.backoff = backoff
        self.live = True
        self.dropped = 0
        self.delivered = 0
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._latest: Optional[Frame] = None
        self._alerts: list[SourceAlert] = []
        self._ended = False
        self._grabbed = 0
        self._thread: Optional[threading.Thread] = None
        self._start = time.monotonic()
        self._given_fps = fps
        self.fps = fps or DEFAULT_FPS
        self._cap = self._open()
        #: the camera was not there at start-up: the grabber starts by looking for it
        self.missing_at_start = self._cap is None
        if self._cap is None and (not reconnect or give_up_after == 0):
            raise UserError(_("no such file or camera: {spec} (cannot open {what})", spec=spec, what=self.what_msg))
        if self._cap is not None:
            self._take_fps(self._cap)

    def _take_fps(self, cap: Any) -> None:
        own = 0.0
        try:
            import cv2
            own = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        except Exception:  # noqa: BLE001 - a fake or odd capture: fall back to the given rate
            own = 0.0
        self.fps = own if math.isfinite(own) and 1.0 <= own <= 500.0 else (self._given_fps or DEFAULT_FPS)

    def describe(self) -> str:
        return f"{self.what} (live, newest frame only)"

    def _open(self) -> Any:
        try:
            cap = self.factory(self.spec)
        except Exception as exc:  # noqa: BLE001 - a driver error is a failed attempt, not a crash
            log.debug("opening %s raised %s: %s", self.what, type(exc).__name__, exc)
            return None
        if cap is None:
            log.debug("opening %s gave no capture", self.what)
            return None
        try:
            if cap.isOpened():
                log.debug("%s opened", self.what)
                return cap
        except Exception:  # noqa: BLE001
            pass
        log.debug("%s did not open", self.what)
        _release(cap)
        return None

    def _now(self) -> float:
        return round(time.monotonic() - self._start, 3)

    def _alert(self, code: str, msg: Msg) -> None:
        with self._cond:
            self._alerts.append(SourceAlert(code, *both(msg), self._now()))
            self._cond.notify_all()

    def _read(self) -> Optional[np.ndarray]:
        if self._cap is None:
            return None
        try:
            ok, image = self._cap.read()
        except Exception:  # noqa: BLE001
            return None
        if not ok or image is None or getattr(image, "size", 0) == 0:
            return None
        return image

    def _grab_loop(self) -> None:
        first, longest = self.backoff
        missing = self._cap is None          # not there at start-up: the same as lost
        while not self._stop.is_set():
            image = None if missing else self._read()
            if image is not None:
                with self._cond:
                    if self._latest is not None:
                        self.dropped += 1        # the consumer never saw it: it is stale now
                    self._latest = Frame(self._grabbed, self._now(), image)
                    self._grabbed += 1
                    self._cond.notify_all()
                continue
            if self._stop.is_set():
                break
            # lost (or not there at start-up): tell, then try again with backoff
            _release(self._cap)
            self._cap = None
            limit = self.give_up_after
            what = self.what_msg
            if missing and limit is None:
                self._alert("camera_lost", _("{what} cannot be opened; trying again", what=what))
            elif missing:
                self._alert("camera_lost", _("{what} cannot be opened; trying again (stops after {s} s "
                                             "without it)", what=what, s=_seconds(limit)))
            elif limit is None:
                self._alert("camera_lost", _("{what} stopped delivering frames; reconnecting", what=what))
            else:
                self._alert("camera_lost", _("{what} stopped delivering frames; reconnecting (stops after "
                                             "{s} s without it)", what=what, s=_seconds(limit)))
            missing = False
            if not self.reconnect:
                self._finish(_("{what} is lost; not reconnecting", what=what))
                return
            lost_at = time.monotonic()
            wait, tries = first, 0
            while not self._stop.is_set():
                gone = time.monotonic() - lost_at
                if limit is not None and gone >= limit:
                    self._give_up(_("{what} was gone for {gone} s (--give-up-after {limit}); stopping",
                                    what=what, gone=_seconds(round(gone, 1)), limit=_seconds(limit)))
                    return
                if self.max_retries is not None and tries >= self.max_retries:
                    self._give_up(_("{what} did not come back after {n} attempts; stopping",
                                    what=what, n=tries))
                    return
                pause = wait if limit is None else max(0.0, min(wait, limit - gone))
                if self._stop.wait(pause):
                    return
                if limit is not None and time.monotonic() - lost_at >= limit:
                    continue                     # time is up: give up rather than try once more
                tries += 1
                wait = min(wait * 2, longest)
                log.debug("reconnecting to %s: attempt %d", self.what, tries)
                cap = self._open()
                if cap is None:
                    continue
                self._cap = cap
                image = self._read()
                if image is None:
                    _release(self._cap)
                    self._cap = None
                    continue
                if self._grabbed == 0:
                    self._take_fps(cap)
                self._alert("camera_back", _n("{what} is back (after {n} attempt)",
                                              "{what} is back (after {n} attempts)", tries, what=what, n=tries))
                with self._cond:
                    self._latest = Frame(self._grabbed, self._now(), image)
                    self._grabbed += 1
                    self._cond.notify_all()
                break

    @property
    def gave_up(self) -> Optional[tuple[str, str]]:
        """Why it gave up, in English and Japanese (None: it has not)."""
        return None if self.gave_up_msg is None else both(self.gave_up_msg)

    def _give_up(self, msg: Msg) -> None:
        self.gave_up_msg = msg
        log.debug("giving up: %s", msg.render("en"))
        self._finish(msg)

    def _finish(self, msg: Msg) -> None:
        with self._cond:
            self._alerts.append(SourceAlert("source_ended", *both(msg), self._now()))
            self._ended = True
            self._cond.notify_all()

    def __iter__(self) -> Iterator[Item]:
        if self._thread is None:
            self._thread = threading.Thread(target=self._grab_loop, name=f"grab-{self.spec}", daemon=True)
            self._thread.start()
        while True:
            with self._cond:
                while not self._alerts and self._latest is None and not self._ended \
                        and not self._stop.is_set():
                    self._cond.wait(0.5)
                alerts, self._alerts = self._alerts, []
                frame, self._latest = self._latest, None
                ended = self._ended or self._stop.is_set()
            # an alert raised before the newest frame was grabbed goes first
            for a in alerts:
                if frame is not None and a.t > frame.t:
                    continue
                yield a
            if frame is not None:
                self.delivered += 1
                yield frame
            for a in alerts:
                if frame is not None and a.t > frame.t:
                    yield a
            if ended:
                with self._cond:
                    if not self._alerts and self._latest is None:
                        return

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        _release(self._cap)
        self._cap = None


def _release(cap: Any) -> None:
    if cap is not None:
        try:
            cap.release()
        except Exception:  # noqa: BLE001
            pass


def _redact(url: str) -> str:
    """A stream URL without its password, for messages and logs.

    >>> _redact("rtsp://admin:secret@10.0.0.5:554/stream1")
    'rtsp://admin:***@10.0.0.5:554/stream1'
    """
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return url
    cred, at, host = rest.partition("@")
    user = cred.split(":", 1)[0]
    return f"{head}://{user}:***@{host}" if ":" in cred else url


# ---------------------------------------------------------------------------------------------
#: the frame rates a source may be given (``--fps``): a frame every 100 seconds (a time-lapse of a table)
#: to the fastest camera; beyond them a frame's time is no number a log can hold (1e-320 fps)
MIN_FPS, MAX_FPS = 0.01, 1000.0


def open_source(spec: str, *, fps: Optional[float] = None, realtime: bool = False,
                reconnect: bool = True, max_retries: Optional[int] = None,
                capture_factory: Optional[Callable[[str], Any]] = None,
                backoff: tuple[float, float] = BACKOFF,
                give_up_after: Optional[float] = None) -> FrameSource:
    """The source a ``--source`` spec names: a camera index (``0``), an ``rtsp://`` or
    ``http(s)://`` stream, a folder of images (at ``fps``, default 15) or a video file.

    ``give_up_after``: seconds a camera or stream may be gone (at start-up or mid-run) before the
    source stops (None: never; 0: no retry). ``capture_factory`` and ``backoff`` are for tests
    (a fake camera, short waits).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise UserError(_("no source given (a camera index such as 0, a stream URL, a video file or a folder)"))
    spec = spec.strip()
    if fps is not None and (not math.isfinite(fps) or not MIN_FPS <= fps <= MAX_FPS):
        raise UserError(_("--fps must be a number from {low} to {high} frames a second, got {fps}",
                          low=f"{MIN_FPS:g}", high=f"{MAX_FPS:g}", fps=f"{fps:g}"))
    if max_retries is not None and max_retries < 0:
        raise UserError(_("max_retries must be 0 or more, got {n}", n=max_retries))
    if give_up_after is not None and (not math.isfinite(give_up_after) or give_up_after < 0):
        raise UserError(_("--give-up-after must be 0 or more seconds (or 'never'), got {s}", s=f"{give_up_after:g}"))
    lo, hi = backoff
    if not 0 <= lo <= hi:
        raise UserError(_("bad reconnection backoff {backoff}", backoff=str(backoff)))
    low = spec.lower()
    if spec.isdigit() or low.startswith(("rtsp://", "rtsps://", "http://", "https://")):
        return LiveSource(spec, reconnect=reconnect, max_retries=max_retries,
                          capture_factory=capture_factory, backoff=backoff, fps=fps,
                          give_up_after=give_up_after)
    p = Path(spec)
    if p.is_dir():
        return FolderSource(p, fps=fps or DEFAULT_FPS, realtime=realtime)
    if p.is_file():
        if is_image(p):
            raise UserError(_("{spec} is a single image; give the folder it is in, or use dealer-assist detect",
                              spec=spec))
        return VideoSource(p, fps=fps, realtime=realtime, capture_factory=capture_factory)
    raise UserError(_("no such file or camera: {spec}", spec=spec))
