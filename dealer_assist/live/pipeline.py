"""The live pipeline: frames -> cards -> table zones -> stable table -> hand flow -> events and log.

One :class:`Pipeline` joins the parts, each of which knows nothing of the others:

* a frame source (:mod:`dealer_assist.live.sources`: camera, stream, video file, image folder),
* the card detector (:class:`dealer_assist.vision.detector.CardDetector`),
* the table calibration (:mod:`dealer_assist.live.calibration`: image pixels -> table zones),
* :class:`dealer_assist.live.tracker.LiveTable` (stable cards over frames and the hand flow, pure),
* the hand log (:mod:`dealer_assist.live.handlog`, SQLite) and an event sink.

Every event goes to the sink and to the log as soon as it happens (the log commits each one), with
a JPEG snapshot of the frame that decided it. Events stay objects
(:class:`~dealer_assist.live.events.TableEvent`) all the way: the sink of the events file
(:func:`json_sink`) and the hand log turn them into their JSON lines, nothing before them.
Dealer actions (chips, folds, corrections) come from an actions file keyed by frame, or from the
desk display through :meth:`Pipeline.apply`.
"""
from __future__ import annotations

import collections
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, TextIO

import cv2
import numpy as np

from dealer_assist.cards import card_or_none
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, both, json_reason, message_of, os_reason, typed, unique_keys
from dealer_assist.live.calibration import size_mismatch
from dealer_assist.live.events import Alert, TableEvent
from dealer_assist.live.picture import FocusWatch, PictureWatch
from dealer_assist.live.placement import PlaceWatch

#: Event types whose frame is worth a snapshot in the hand log (the decisive frames of a dispute).
SNAPSHOT_TYPES = frozenset({"hand_start", "board", "hole", "alert", "showdown", "confirm", "hand_end"})

#: Alert codes raised by the pipeline itself (not by the table logic).
SOURCE_CODES = frozenset({"camera_lost", "camera_back", "frame_unreadable", "source_ended"})


def observations_from(found: dict, calibration) -> list:
    """Detector output (``{"cards": [...], "backs": [...]}``) -> tracker observations.

    Every card keeps its image polygon for display, the detector's ``sure`` flag (a card
    without one is not sure) and its likeliest other name (``"or"``, for a card not sure); its
    centre is mapped to table units and to the zone it lies in
    (``None`` outside every zone).
    """
    from dealer_assist.live.tracker import Observation

    items = [(c["card"], float(c.get("confidence", 1.0)), c) for c in found.get("cards", ())]
    items += [("BACK", 1.0, b) for b in found.get("backs", ())]
    sure = [bool(c.get("sure", False)) for c in found.get("cards", ())] + [True] * len(found.get("backs", ()))
    if not items:
        return []
    centres = np.array([it[2]["center"] for it in items], dtype=np.float64)
    table_xy = calibration.to_table(centres)
    out = []
    for (name, conf, det), c, xy, is_sure in zip(items, centres, table_xy, sure):
        zone = calibration.zone_at((float(c[0]), float(c[1])))
        poly = tuple((float(p[0]), float(p[1])) for p in det.get("polygon", ()))
        out.append(Observation(card=name, zone=zone, xy=(float(xy[0]), float(xy[1])),
                               confidence=conf, polygon=poly, sure=is_sure, other=card_or_none(det.get("or"))))
    return out


def read_actions(path: str) -> list[dict]:
    """A dealer-actions file: JSON lines, each with ``"frame"`` and an action (see docs/live.md).

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "a.jsonl")
    >>> _ = open(p, "w").write('{"frame": 3, "type": "fold", "seat": 2}\\n\\n# note\\n')
    >>> read_actions(p)
    [{'frame': 3, 'type': 'fold', 'seat': 2}]
    """
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
    except OSError as exc:
        raise UserError(_("cannot read the actions file {path}: {why}", path=path, why=os_reason(exc))) from None
    except UnicodeDecodeError:
        raise UserError(_("{where} is not UTF-8 text", where=path)) from None
    out = []
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            obj = json.loads(line, object_pairs_hook=unique_keys)
        except ValueError as exc:
            raise UserError(_("{path}:{n}: not valid JSON ({why})", path=path, n=n,
                              why=json_reason(getattr(exc, "msg", None) or str(exc)))) from None
        except RecursionError:
            raise UserError(_("{path}:{n}: not an action: nested too deep", path=path, n=n)) from None
        except UserError as exc:
            raise UserError(_("{path}:{n}: {why}", path=path, n=n, why=message_of(exc))) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise UserError(_("{path}:{n}: an action is a JSON object with a \"type\"", path=path, n=n))
        f = obj.get("frame")
        if isinstance(f, bool) or not isinstance(f, int) or f < 0:
            raise UserError(_("{path}:{n}: an action needs \"frame\": a whole number >= 0, got {got}",
                              path=path, n=n, got=typed(f)))
        out.append(obj)
    out.sort(key=lambda a: a["frame"])   # stable: same-frame actions keep the file's order
    return out


@dataclass
class RunStats:
    frames: int = 0
    events: int = 0
    detect_ms: list = field(default_factory=list)
    frame_ms: list = field(default_factory=list)
    dropped: int = 0
    wall_s: float = 0.0
    learned: int = 0     # card corners the reader learned from the dealer's corrections

    def summary(self) -> dict:
        def med(xs):
            return round(float(np.median(xs)), 1) if xs else None
        fps = self.frames / self.wall_s if self.wall_s > 0 else None
        return {"frames": self.frames, "events": self.events, "wall_s": round(self.wall_s, 2),
                "fps": round(fps, 1) if fps else None, "detect_ms_median": med(self.detect_ms),
                "learned_corners": self.learned,
                "frame_ms_median": med(self.frame_ms), "dropped": self.dropped}


def _outlines(found: dict) -> list:
    """The outlines (image px) of every card and back the reader found."""
    return [c["polygon"] for key in ("cards", "backs") for c in found.get(key, ()) if c.get("polygon") is not None]


class Pipeline:
    """Frames in, events out. ``sink(event)`` gets every event (a :class:`TableEvent`) in order."""

    def __init__(self, *, detector, calibration, table, sink: Callable[[TableEvent], None],
                 log=None, actions: Iterable[dict] = (), snapshot_quality: int = 80):
        self.detector = detector
        self.calibration = calibration
        self.table = table
        self.sink = sink
        self.log = log
        self.pending = collections.deque(actions)    # taken from the front, frame by frame
        self.snapshot_quality = snapshot_quality
        self.stats = RunStats()
        self.last_frame: Optional[Any] = None
        self.last_found: dict = {"cards": [], "backs": []}
        self._tracked_image: Optional[np.ndarray] = None   # the frame the tracks were last updated from
        self._checked_size = False
        self._said_card_size = False
        #: the camera's picture watched for a stuck, dark or washed-out picture (:mod:`picture`)
        self.picture = PictureWatch()
        #: the cards' sharpness watched: a lens out of focus, a camera shaking (:mod:`picture`)
        self.focus = FocusWatch()
        #: the camera's place watched: a camera bumped off its calibration (:mod:`placement`)
        self.place = PlaceWatch(calibration)
        self._tell_card_size()

    def _tell_card_size(self) -> None:
        """Tell the card reader how big a card looks in this camera's frames and the part of the
        frame the zones hold (the calibration knows both), so that on a far camera it looks
        closer at the table in every frame, even where the whole frame shows none of its cards.
        A stand-in reader without the hook is left as it is."""
        view = self.calibration.card_view()
        self._card_side = view[0]
        tell = getattr(self.detector, "expect_card_side", None)
        if callable(tell):
            tell(*view)
        plan = getattr(self.detector, "closer_look", None)
        w, h = self.calibration.image_size
        # how the reader looks at this camera's frames (their size is the calibration's: checked
        # at the first frame), worked out once: (the part it reads alone or None, tiles)
        self._closer = plan((int(h), int(w))) if callable(plan) else (None, 0)

    @property
    def reading_part(self) -> Optional[tuple]:
        """The part of the frame the reader looks at alone, ``(x, y, width, height)``, where the
        calibration says cards are small (no card outside it is read; the desk outlines it);
        None: the whole frame."""
        return self._closer[0]

    # -- events ------------------------------------------------------------------------------
    def _emit(self, events: Iterable[TableEvent], image: Optional[np.ndarray]) -> None:
        jpeg = None
        for ev in events:
            if self.log is not None:
                if jpeg is None and image is not None and ev.type in SNAPSHOT_TYPES:
                    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.snapshot_quality])
                    jpeg = buf.tobytes() if ok else b""
                self.log.record(ev, snapshot_jpeg=jpeg or None)
            self.stats.events += 1
            self.sink(ev)

    def apply(self, action: dict, frame: int, t: float) -> list[TableEvent]:
        """A dealer action now (from the desk or the actions file); returns the events it caused.

        A correction the table accepts is written to the hand log before the events it causes, so
        a dispute shows it in its place; a refused one raises :class:`UserError` and logs nothing.
        The logged correction carries the other name the reader had offered for the card
        (``"or"``, :meth:`LiveTable.other_of`) where it had one: whether the dealer took the
        reader's own second guess or a name no reader saw.
        """
        if action.get("type") == "follow_camera":
            return self._follow_camera(frame, t)
        hand = self.table.hand
        offered = self._offered(action)
        events = self.table.apply(action, frame, t)
        if action.get("type") == "correct":
            if self.log is not None:
                self.log.record_correction(dict(action, **({"or": offered} if offered else {})), frame, t, hand)
            self._learn(action)
        self._emit(events, self.last_frame.image if self.last_frame is not None else None)
        return events

    def _follow_camera(self, frame: int, t: float) -> list[TableEvent]:
        """The dealer lets the zones follow a camera that moved (``{"type": "follow_camera"}``):
        the calibration is moved by the motion measured (:meth:`PlaceWatch.follow`), the
        ``camera_moved`` alert is cleared with how far the zones moved, and the table is given the
        frames again. Refused when no move stands."""
        if not self.place.moved:
            raise UserError(_("the camera has not been seen to move: the zones stay where they are"))
        before = self.place.off_mm
        self.calibration = self.place.follow()
        self._tell_card_size()
        return [self.alert("camera_moved", *both(_(
            "the zones follow the camera: moved by about {mm} mm on the table. Check on the picture that they "
            "sit under the cards; calibrate again at the next break", mm=int(round(before)))), frame, t, cleared=True)]

    def _offered(self, action: dict) -> Optional[str]:
        """For a correction, the other name the reader offered for the corrected card before it
        (None: not a correction, no such card, or no offer)."""
        other_of = getattr(self.table, "other_of", None)
        zone, card = action.get("zone"), action.get("card")
        if action.get("type") != "correct" or other_of is None or not isinstance(zone, str) or not isinstance(card, str):
            return None
        return card_or_none(other_of(zone, card))

    def _learn(self, action: dict) -> None:
        """The dealer corrected a card to another card: the reader learns that card's corners
        from the frame the correction was made on, so the same card of this deck reads right for
        the rest of the session (``CardDetector.learn``; in memory only, enroll-deck saves a
        deck). Only a card seen in that frame is learned from."""
        learn = getattr(self.detector, "learn", None)
        tracker = getattr(self.table, "tracker", None)
        to = action.get("to")
        if learn is None or tracker is None or to is None or self._tracked_image is None:
            return
        from dealer_assist.live.tracker import canonical_card

        to = canonical_card(to, what="correct: to")
        for track in tracker.corrected(action.get("zone"), to):
            if track.missing == 0 and len(track.polygon) == 4:
                self.stats.learned += learn(self._tracked_image, track.polygon, to)

    def alert(self, code: str, message: str, message_ja: str, frame: int, t: float, cleared: bool = False) -> Alert:
        """Raise a one-off alert (a refused dealer input, the source's news), or clear one the
        pipeline raised (``cleared``: the camera's picture is right again): to the sink and the
        hand log.  :meth:`alert_msg` takes a catalogue message instead of its two languages."""
        ev = Alert(round(float(t), 3), frame, self.table.hand, code=code, message=message, message_ja=message_ja,
                   cleared=cleared)
        self._emit([ev], None)
        return ev

    def alert_msg(self, code: str, message, frame: int, t: float) -> Alert:
        """:meth:`alert` with a catalogue message (:class:`dealer_assist.i18n.Msg`)."""
        return self.alert(code, *both(message), frame, t)

    def source_alert(self, alert) -> None:
        self.alert(alert.code, alert.message, alert.message_ja, self.stats.frames, alert.t)

    # -- frames ------------------------------------------------------------------------------
    def _check_size(self, image: np.ndarray) -> None:
        if self._checked_size:
            return
        self._checked_size = True
        want = tuple(self.calibration.image_size)
        got = (int(image.shape[1]), int(image.shape[0]))
        if want != got:
            raise UserError(size_mismatch(self.calibration.name, want, got))

    def _small_cards(self, frame) -> list[TableEvent]:
        """Once, at the first frame: a ``small_cards`` note where the calibration says cards look
        so small that the reader looks closer at every frame (at the zones' part of the frame
        alone, reading no card outside it; or, where the calibration gives no such part, in
        tiles: slower), and two overlapping cards may read as one, so that the operator knows
        what such a camera costs."""
        if self._said_card_size:
            return []
        self._said_card_size = True
        region, n = self._closer
        if region is None and n < 2:
            return []
        px = int(round(self._card_side or 0))
        if region is None:
            said = _("a card looks about {px} px wide in this camera's frames: the reader looks at every frame again in "
                     "{tiles} tiles (slower), and may take two overlapping cards for one; a closer camera or a higher "
                     "resolution reads better", px=px, tiles=n)
        else:
            said = _("a card looks about {px} px wide in this camera's frames: the reader looks closer at the part of "
                     "the frame that holds the zones ({w}x{h} px) and reads no card outside it, and may take two "
                     "overlapping cards for one; a closer camera or a higher resolution reads better",
                     px=px, w=region[2], h=region[3])
        return [self.alert_msg("small_cards", said, frame.index, frame.t)]

    def process(self, frame) -> list[TableEvent]:
        """One frame: due actions, detection, tracking; returns the events it caused."""
        t0 = time.perf_counter()
        self._check_size(frame.image)
        noted = self._small_cards(frame)
        self.last_frame = frame
        caused: list[TableEvent] = noted + self._watched(self.picture.look(frame.image, frame.t), frame)
        if self.picture.blind:
            # a picture that shows nothing (the lens covered, the light off, glare) says nothing of
            # the table: not read, and not given to the table, whose cards would seem gone (folds,
            # a hand won without a showdown). The dealer's actions wait for a frame that is read.
            return self._unseen(caused, t0)
        while self.pending and self.pending[0]["frame"] <= frame.index:
            act = dict(self.pending.popleft())
            act.pop("frame", None)
            try:
                caused += self.apply(act, frame.index, frame.t)
            except UserError as exc:
                caused.append(self.alert_msg("bad_action", _("dealer action ignored: {why}",
                                                             why=message_of(exc)), frame.index, frame.t))
        td = time.perf_counter()
        found = self.detector.detect(frame.image)
        self.stats.detect_ms.append((time.perf_counter() - td) * 1000.0)
        self.last_found = found
        caused += self._watched(self.focus.look(found.get("cards", []), frame.t), frame)
        caused += self._watched(self.place.look(frame.image, frame.t, _outlines(found)), frame)
        if self.place.holding:
            # the zones no longer lie under the cards (or a look just saw them off): a card would
            # be taken for one in another zone, a seat's cards for gone. The table waits for the
            # camera, or for the dealer to let the zones follow it.
            return self._unseen(caused, t0)
        obs = observations_from(found, self.calibration)
        events = self.table.step(frame.index, frame.t, obs)
        self._tracked_image = frame.image
        self._emit(events, frame.image)
        self.stats.frames += 1
        self.stats.frame_ms.append((time.perf_counter() - t0) * 1000.0)
        return caused + events

    def _watched(self, said, frame) -> list[TableEvent]:
        """The alerts a watch of the camera raised or cleared on ``frame`` (``(code, raised,
        words)``), sent and logged."""
        return [self.alert(code, *both(words), frame.index, frame.t, cleared=not raised)
                for code, raised, words in said]

    def _unseen(self, caused: list[TableEvent], t0: float) -> list[TableEvent]:
        """A frame not given to the table (:meth:`LiveTable.unseen`), counted; returns ``caused``."""
        self.table.unseen()
        self.stats.frames += 1
        self.stats.frame_ms.append((time.perf_counter() - t0) * 1000.0)
        return caused

    def run(self, source, on_frame: Optional[Callable[[Any, list], None]] = None,
            max_frames: Optional[int] = None) -> RunStats:
        """Drive the pipeline from ``source`` (an iterable of frames and source alerts)."""
        from dealer_assist.live.sources import SourceAlert

        start = time.perf_counter()
        try:
            for item in source:
                if isinstance(item, SourceAlert):
                    self.source_alert(item)
                    continue
                events = self.process(item)
                if on_frame is not None:
                    on_frame(item, events)
                if max_frames is not None and self.stats.frames >= max_frames:
                    break
        finally:
            self.stats.wall_s = time.perf_counter() - start
            self.stats.dropped = int(getattr(source, "dropped", 0) or 0)
        return self.stats


def json_sink(stream: TextIO) -> Callable[[Any], None]:
    """Write each event as one JSON line and flush (a consumer reads events as they happen): a
    :class:`TableEvent` as its :meth:`~TableEvent.to_json`, a line that is no table event (the
    session's header) as it is.

    >>> import io
    >>> out = io.StringIO()
    >>> json_sink(out)(Alert(1.5, 22, None, code="camera_lost", message="m", message_ja="j"))
    >>> out.getvalue()
    '{"t": 1.5, "frame": 22, "type": "alert", "hand": null, "code": "camera_lost", "message": "m", "message_ja": "j", "cleared": false}\\n'
    """
    def sink(ev: Any) -> None:
        line = ev.to_json() if isinstance(ev, TableEvent) else ev
        stream.write(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")) + "\n")
        stream.flush()
    return sink
