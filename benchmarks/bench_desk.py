"""The desk display's speed on this machine: the sample clip played through the desk (off screen)
as fast as it goes, against the same pipeline with no screen, and how long the screen takes to
show a step once the worker has it.

    .venv/bin/python benchmarks/bench_desk.py [--repeat 2] [--size 1280x800]

* frames per second of the desk (the worker thread reads the cards, the screen redraws every
  frame) and of the bare pipeline (``Pipeline.run``, as ``dealer-assist run --headless``); their
  ratio is what the screen costs; the issue's live target is 15 fps;
* redraw: median and 90th percentile milliseconds of the screen's handling of one step
  (``DeskWindow.on_tick``: feed the view, redraw the panels and the frame), which runs in the
  screen's thread while the worker reads the next frame;
* correction: milliseconds from the dealer's choice in the picker to the confirmation it asks for
  (it moves the pot), and from the confirmation to the new ruling on screen (hand 1's showdown,
  seat 1's Qc corrected to Kc).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QObject, Slot  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from dealer_assist.cli import build_parser  # noqa: E402
from dealer_assist.commands.desk import parse_size, pick_font, wait_until  # noqa: E402
from dealer_assist.commands.run import LiveParts  # noqa: E402
from dealer_assist.desk.session import LiveSession  # noqa: E402
from dealer_assist.desk.window import DeskWindow  # noqa: E402


class RedrawTimer(QObject):
    """Times the window's handling of each step, in the screen's thread."""

    def __init__(self, window):
        super().__init__()
        self.window = window
        self.ms: list[float] = []
        self.paint_ms: list[float] = []       # the camera view's painting of each frame

    @Slot(object)
    def on_tick(self, tick) -> None:
        t0 = time.perf_counter()
        self.window.on_tick(tick)
        self.ms.append((time.perf_counter() - t0) * 1000.0)


def pump(app, until, timeout_s: float = 600.0) -> None:
    """Run the Qt loop until ``until()`` holds, as the desk's own loop runs (asleep until an event
    comes, never polling: ``commands.desk.wait_until``)."""
    if not wait_until(app, until, timeout_s):
        raise SystemExit("timed out")


def parts(db: str, *extra: str) -> LiveParts:
    args = build_parser().parse_args(["desk", "--fast", "--db", db, *extra])
    args.realtime = False
    return LiveParts(args, lambda ev: None, log_thread_free=True)


def desk_run(app, size, stop_at=None):
    tmp = tempfile.mkdtemp()
    p = parts(os.path.join(tmp, "h.sqlite"), *(["--stop-at", str(stop_at)] if stop_at else []))
    w = DeskWindow(LiveSession(p.pipeline, p.source, stop_at=stop_at), calibration=p.calibration,
                   lang="ja", db=os.path.join(tmp, "h.sqlite"))
    w.resize(*size)
    w.show()
    timer = w.bench_timer = RedrawTimer(w)        # kept alive with the window
    w.worker.ticked.disconnect(w.on_tick)
    w.worker.ticked.connect(timer.on_tick)      # a slot of a main-thread object: queued, as before
    redraw = timer.ms
    paint = w.video.paintEvent

    def timed_paint(event, ms=timer.paint_ms):
        t0 = time.perf_counter()
        paint(event)
        ms.append((time.perf_counter() - t0) * 1000.0)

    w.video.paintEvent = timed_paint
    t0 = time.perf_counter()
    w.start()
    return w, redraw, t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--size", default="1280x800")
    args = ap.parse_args()
    size = parse_size(args.size)
    app = QApplication.instance() or QApplication([])
    pick_font(app)
    for r in range(args.repeat):
        # the bare pipeline
        tmp = tempfile.mkdtemp()
        p = parts(os.path.join(tmp, "h.sqlite"))
        stats = p.pipeline.run(p.source)
        p.close()
        bare = stats.frames / stats.wall_s
        # the desk
        w, redraw, t0 = desk_run(app, size)
        pump(app, lambda: w.ended)
        wall = time.perf_counter() - t0
        fps = w.frames_seen / wall
        w.shutdown()
        w.close()
        q = sorted(redraw)
        pq = sorted(w.bench_timer.paint_ms) or [float("nan")]
        print(f"round {r + 1}: desk {w.frames_seen} frames in {wall:.1f} s = {fps:.1f} fps; bare pipeline "
              f"{bare:.1f} fps; desk/bare {fps / bare:.2f}; redraw median {statistics.median(q):.1f} ms, "
              f"p90 {q[int(0.9 * (len(q) - 1))]:.1f} ms; camera view painted {len(pq)} times, median "
              f"{statistics.median(pq):.1f} ms (target: >= 15 fps)")
    # a correction, picker to ruling
    w, _, _ = desk_run(app, size, stop_at=82)
    pump(app, lambda: w.is_paused and (w._last_frame_index or 0) >= 82)
    before = w.seats[1].payout.text()
    t0 = time.perf_counter()
    w.correct("seat1", "Qc", "Kc")
    # it moves 450 chips from seat 5 to seat 1: the desk shows the change and asks first
    pump(app, lambda: w.confirm is not None and w.confirm.isVisible(), timeout_s=30)
    asked = time.perf_counter()
    w.confirm.apply()
    pump(app, lambda: w.seats[1].payout.text() != before, timeout_s=30)
    print(f"correction to ruling on screen: {(asked - t0) * 1000:.1f} ms to the dealer's confirmation "
          f"(payouts before and after), {(time.perf_counter() - asked) * 1000:.1f} ms from it to the new ruling "
          f"(seat 1: {before!r} -> {w.seats[1].payout.text()!r})")
    w.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
