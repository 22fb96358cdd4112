"""The desk's live session: the pipeline driven one item at a time, and the dealer's actions (no Qt).

The desk display runs a :class:`LiveSession` in a worker thread, one :meth:`LiveSession.step` at
a time, and hands it the dealer's corrections between frames; each call returns a :class:`Tick`
(the frame, what the detector found, the events, the table state) for the screen. Everything a
session does goes through :class:`~dealer_assist.live.pipeline.Pipeline`, exactly as
``dealer-assist run``: the same events, the same hand log, corrections logged first.

A refused action (a correction naming a card that is not there, a hand that is over) is not an
exception for the screen: it comes back as a ``correction_refused`` alert event in the tick, and
nothing already recorded changes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Optional

from dealer_assist.errors import UserError

__all__ = ["Tick", "LiveSession"]


@dataclass
class Tick:
    """What one step of the session produced, for the screen."""

    frame: Optional[Any] = None           # live.sources.Frame (None for a source alert or an action)
    found: Optional[dict] = None          # the detector's output for that frame
    events: list = field(default_factory=list)
    state: Optional[dict] = None          # LiveTable.state() after the step
    ended: bool = False                   # the source has no more frames
    refused: Optional[str] = None         # why an action was refused


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
        self._collected: list[dict] = []
        inner = pipeline.sink

        def collect(ev: dict) -> None:
            inner(ev)
            self._collected.append(ev)

        pipeline.sink = collect

    @property
    def table(self):
        return self.pipeline.table

    @property
    def frames(self) -> int:
        return self.pipeline.stats.frames

    def _take(self) -> list[dict]:
        out, self._collected = self._collected, []
        return out

    def step(self) -> Tick:
        """Process the source's next item (a frame or a source alert)."""
        from dealer_assist.live.sources import SourceAlert

        if self.ended:
            return Tick(ended=True, state=self.table.state())
        if self._iter is None:
            self._iter = iter(self.source)
        try:
            item = next(self._iter)
        except StopIteration:
            self.ended = True
            return Tick(events=self._take(), state=self.table.state(), ended=True)
        if isinstance(item, SourceAlert):
            self.pipeline.source_alert(item)
            return Tick(events=self._take(), state=self.table.state())
        self.pipeline.process(item)
        return Tick(frame=item, found=self.pipeline.last_found, events=self._take(), state=self.table.state())

    def paused_here(self, tick: Tick) -> bool:
        """Has the session reached ``stop_at`` (the caller should pause)?"""
        return (self.stop_at is not None and tick.frame is not None
                and tick.frame.index >= self.stop_at)

    def act(self, action: Mapping[str, Any]) -> Tick:
        """A dealer action now (a correction from the screen); refused ones come back as an alert."""
        frame = self.pipeline.last_frame
        index = frame.index if frame is not None else 0
        t = frame.t if frame is not None else 0.0
        try:
            self.pipeline.apply(dict(action), index, t)
        except UserError as exc:
            self.pipeline.alert("correction_refused", f"not applied: {exc}", f"適用できません: {exc}",
                                index, t)
            return Tick(events=self._take(), state=self.table.state(), refused=str(exc))
        return Tick(events=self._take(), state=self.table.state())

    def stop(self, why: str) -> Tick:
        """The pipeline cannot go on (a frame the calibration does not fit, a broken source): end
        the session with a ``pipeline_stopped`` alert, to the screen and the hand log."""
        self.ended = True
        frame = self.pipeline.last_frame
        self.pipeline.alert("pipeline_stopped", f"the pipeline stopped: {why}", f"処理が停止しました: {why}",
                            frame.index if frame is not None else 0, frame.t if frame is not None else 0.0)
        return Tick(events=self._take(), state=self.table.state(), ended=True)

    def close(self) -> None:
        try:
            close = getattr(self.source, "close", None)
            if close is not None:
                close()
        finally:
            if self.pipeline.log is not None:
                self.pipeline.log.close()
