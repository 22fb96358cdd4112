"""The desk's live session: the pipeline driven one item at a time, and the dealer's actions (no Qt).

The desk display runs a :class:`LiveSession` in a worker thread, one :meth:`LiveSession.step` at
a time, and hands it the dealer's corrections between frames; each call returns a :class:`Tick`
(the frame, what the detector found, the events, the table state) for the screen. Everything a
session does goes through :class:`~dealer_assist.live.pipeline.Pipeline`, exactly as
``dealer-assist run``: the same events, the same hand log, corrections logged first.

A refused action (a correction naming a card that is not there, a hand that is over) is not an
exception for the screen: it comes back as a ``correction_refused`` alert event in the tick, and
nothing already recorded changes. :meth:`LiveSession.preview` asks the table what a correction
would do before it is sent (refused and why, or the payouts before and after), so the screen can
ask the dealer first; every state it hands the screen carries the corrections standing in the hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Optional

from dealer_assist.cards import CardError
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, both, message_of
from dealer_assist.live.events import TableEvent

__all__ = ["Tick", "LiveSession"]


def _message_ja(exc: Exception) -> str:
    """A refusal in Japanese: the table's own wording (every refusal of the table has one)."""
    text = both(message_of(exc))[1]
    return text.removeprefix("訂正: ")       # the banner's title already says 訂正できません


def _not_applied(exc: Exception) -> tuple[str, str]:
    """The ``correction_refused`` alert's words for a refusal, English and Japanese."""
    return (_("not applied: {why}", why=message_of(exc)).render("en"),
            _("not applied: {why}", why=_message_ja(exc)).render("ja"))


@dataclass
class Tick:
    """What one step of the session produced, for the screen."""

    frame: Optional[Any] = None           # live.sources.Frame (None for a source alert or an action)
    found: Optional[dict] = None          # the detector's output for that frame
    events: list[TableEvent] = field(default_factory=list)   # as the table made them (objects)
    state: Optional[dict] = None          # LiveTable.state() after the step
    ended: bool = False                   # the source has no more frames
    refused: Optional[str] = None         # why an action was refused
    #: the zones (image px) when they moved (the dealer let them follow the camera); None: unchanged
    zones: Optional[dict] = None
    #: where the zones would go if they followed a camera that moved ({}: no such proposal any
    #: more); None: unchanged
    proposed: Optional[dict] = None
    #: the part of the frame the reader looks at alone, ``(x, y, width, height)`` image px, when
    #: it is first known or moved with the zones (``Pipeline.reading_part``); ``()``: the whole
    #: frame; None: unchanged
    part: Optional[tuple] = None


class LiveSession:
    """Frames from ``source`` through ``pipeline``; ``stop_at`` pauses the caller at that frame.

    ``pipeline`` is a :class:`~dealer_assist.live.pipeline.Pipeline` whose sink the session
    collects; ``source`` is an iterable of frames and source alerts (``live.sources``).
    """

    def __init__(self, pipeline, source, *, stop_at: Optional[int] = None):
        self.pipeline = pipeline
        self.source = source
        self.stop_at = stop_at
        self.ended = False
        self._iter: Optional[Iterator] = None
        self._collected: list[TableEvent] = []
        inner = pipeline.sink

        def collect(ev: TableEvent) -> None:
            inner(ev)
            self._collected.append(ev)

        pipeline.sink = collect
        self._calibration = pipeline.calibration
        self._proposed_from: Optional[object] = None     # the motion the proposal shown was made from
        self._part_shown: Optional[tuple] = None         # the reading part last sent to the display

    @property
    def table(self):
        return self.pipeline.table

    @property
    def frames(self) -> int:
        return self.pipeline.stats.frames

    def _take(self) -> list[TableEvent]:
        out, self._collected = self._collected, []
        return out

    def step(self) -> Tick:
        """Process the source's next item (a frame or a source alert)."""
        from dealer_assist.live.sources import SourceAlert

        if self.ended:
            return Tick(ended=True, state=self._state())
        if self._iter is None:
            self._iter = iter(self.source)
        try:
            item = next(self._iter)
        except StopIteration:
            self.ended = True
            return Tick(events=self._take(), state=self._state(), ended=True)
        if isinstance(item, SourceAlert):
            self.pipeline.source_alert(item)
            return Tick(events=self._take(), state=self._state())
        self.pipeline.process(item)
        return self._placed(Tick(frame=item, found=self.pipeline.last_found, events=self._take(),
                                 state=self._state()))

    def _placed(self, tick: Tick) -> Tick:
        """The tick with the zones where they moved, and where they would go while the camera
        stands moved (:class:`~dealer_assist.live.placement.PlaceWatch`)."""
        cal = self.pipeline.calibration
        if cal is not self._calibration:
            self._calibration = cal
            tick.zones = cal.zones_image()
        part = tuple(getattr(self.pipeline, "reading_part", None) or ())
        if part != self._part_shown:
            self._part_shown = tick.part = part
        place = getattr(self.pipeline, "place", None)
        motion = place.motion if place is not None and place.moved else None
        if motion is not self._proposed_from:
            self._proposed_from = motion
            tick.proposed = {} if motion is None else place.proposed().zones_image()
        return tick

    def _state(self) -> dict:
        """The table's state, with the corrections standing in this hand (for the marks on the tiles)."""
        state = self.table.state()
        standing = getattr(self.table, "corrections_standing", None)
        state["corrections"] = standing() if standing is not None else []
        return state

    def preview(self, action: Mapping[str, Any]) -> dict:
        """What a correction would do, before it is sent (nothing of the table changes): ``refused``
        (``None`` or ``{"message", "message_ja"}``: why the table would refuse it; the refusal also
        goes to the hand log as a ``correction_refused`` alert, whose events come as ``tick``), and
        the payouts ``before`` and ``after`` with ``changes`` (the dealer confirms a correction that
        pays other seats)."""
        out: dict[str, Any] = {"action": dict(action), "refused": None, "before": None, "after": None,
                               "changes": False}
        try:
            out.update(self.table.correction_preview(action))
        except (UserError, CardError) as exc:
            out["refused"] = {"message": str(exc), "message_ja": _message_ja(exc)}
            # said on the screen and kept in the hand log, as a refused correction always was
            frame = self.pipeline.last_frame
            self.pipeline.alert("correction_refused", *_not_applied(exc),
                                frame.index if frame is not None else 0, frame.t if frame is not None else 0.0)
            out["tick"] = Tick(events=self._take(), state=self._state(), refused=str(exc))
        return out

    def paused_here(self, tick: Tick) -> bool:
        """Has the session reached ``stop_at`` (the caller should pause)?"""
        return (self.stop_at is not None and tick.frame is not None
                and tick.frame.index >= self.stop_at)

    def act(self, action: Mapping[str, Any]) -> Tick:
        """A dealer action now (a correction or a confirmation from the screen); refused ones come
        back as an alert."""
        frame = self.pipeline.last_frame
        index = frame.index if frame is not None else 0
        t = frame.t if frame is not None else 0.0
        try:
            self.pipeline.apply(dict(action), index, t)
        except UserError as exc:
            code = "correction_refused" if action.get("type") == "correct" else "bad_action"
            self.pipeline.alert(code, *_not_applied(exc), index, t)
            return Tick(events=self._take(), state=self._state(), refused=str(exc))
        return self._placed(Tick(events=self._take(), state=self._state()))

    def stop(self, why) -> Tick:
        """The pipeline cannot go on (a frame the calibration does not fit, a broken source): end
        the session with a ``pipeline_stopped`` alert, to the screen and the hand log."""
        self.ended = True
        frame = self.pipeline.last_frame
        self.pipeline.alert_msg("pipeline_stopped", _("the pipeline stopped: {why}", why=why),
                                frame.index if frame is not None else 0, frame.t if frame is not None else 0.0)
        return Tick(events=self._take(), state=self._state(), ended=True)

    def close(self) -> None:
        try:
            close = getattr(self.source, "close", None)
            if close is not None:
                close()
        finally:
            if self.pipeline.log is not None:
                self.pipeline.log.close()
