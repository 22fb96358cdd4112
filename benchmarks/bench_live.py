"""Live pipeline speed on this machine: frames per second kept up at 1280x720, and the delay from
a card's first frame to its event.

    .venv/bin/python benchmarks/bench_live.py [--repeat 2] [--realtime]

* throughput: the bundled sample clip (1280x720) through the whole pipeline (decode, detect,
  zones, tracker, hand flow, hand log with snapshots), as fast as it goes; frames per second
  against the issue's target of 15.
* delay: for every ``board`` and ``hole`` event, the first clip frame in which its new cards lie
  in their zone (``labels.jsonl``, the renderer's truth) to the frame of the event, in frames and
  in seconds at the clip's 15 fps, plus the processing time of one frame (a live camera's frame is
  processed as it arrives); target at most 0.5 s.
* ``--realtime``: plays the clip at 15 fps as a camera would deliver it and counts the frames the
  pipeline had to skip.
* frame rates: the clip seen at 15, 7.5, 5, 3.75, 3 and 2.5 frames a second (every n-th frame,
  numbered afresh, the dealer's inputs keyed to the first frame at or after theirs): the lowest
  rate at which the three hands' rulings stay right (target: 5 fps or lower).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_assist.commands.detect import model_dir  # noqa: E402
from dealer_assist.live.calibration import load_calibration  # noqa: E402
from dealer_assist.live.events import Alert, Board, HandEnd, Hole, TableEvent  # noqa: E402
from dealer_assist.live.handlog import HandLog  # noqa: E402
from dealer_assist.live.pipeline import Pipeline, read_actions  # noqa: E402
from dealer_assist.live.sources import Frame, open_source  # noqa: E402
from dealer_assist.live.tracker import LiveTable  # noqa: E402
from dealer_assist.vision.detector import CardDetector  # noqa: E402

CLIP = ROOT / "sample_frames" / "clip"


def run_once(realtime: bool, detector) -> tuple[list[TableEvent], dict]:
    cal = load_calibration(CLIP / "table.yaml")
    events: list[TableEvent] = []
    with tempfile.TemporaryDirectory() as tmp:
        log = HandLog(str(Path(tmp) / "bench.sqlite"), source="bench", game="joker-holdem")
        pipe = Pipeline(detector=detector, calibration=cal, table=LiveTable(seats=cal.seats, game="joker-holdem"),
                        sink=events.append, log=log, actions=read_actions(str(CLIP / "dealer.jsonl")))
        src = open_source(str(CLIP / "joker-nlh.mp4"), realtime=realtime)
        try:
            stats = pipe.run(src)
        finally:
            src.close()
            log.close()
    return events, stats.summary() | {"frame_ms": stats.frame_ms}


def first_frames(labels_path: Path) -> dict[tuple[str, str], list[int]]:
    """(zone, card) -> the frames where that card starts to lie in that zone."""
    starts: dict[tuple[str, str], list[int]] = {}
    prev: set = set()
    for line in labels_path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        lab = json.loads(line)
        now = {(c["zone"], c["card"]) for c in lab["cards"] if c.get("zone")}
        for k in now - prev:
            starts.setdefault(k, []).append(int(lab["frame"]))
        prev = now
    return starts


def delays(events: list[TableEvent], starts: dict) -> list[int]:
    """Frames from a card's arrival to the board/hole event that first reports it."""
    out = []
    reported: set = set()
    for ev in events:
        if isinstance(ev, Board):
            items = [(f"board{i + 1}", c) for i, c in enumerate(ev.cards)]
        elif isinstance(ev, Hole):
            items = [(f"seat{ev.seat}", c) for c in ev.cards]
        else:
            continue
        for zone, card in items:
            if (zone, card, ev.hand) in reported:
                continue
            reported.add((zone, card, ev.hand))
            arrivals = [f for f in starts.get((zone, card), []) if f <= ev.frame]
            if arrivals:
                out.append(ev.frame - max(arrivals))
    return out


#: The clip's three hands: each hand_end's payouts and won-without-showdown seat.
EXPECTED = [({"1": 0, "3": 0, "5": 450}, None),
            ({"2": 320, "3": 0, "4": 400, "6": 0}, None),
            ({"1": 100, "2": 0, "4": 0}, 1)]


def rulings_at(frames: list, every: int, reads: dict) -> tuple[list, bool]:
    """The clip's hand_end rulings seen at 15/every fps, and whether falling_behind was raised."""
    import math

    class Reads:   # the reader's output of each clip frame, computed once
        def detect(self, image):
            return reads[id(image)]

    cal = load_calibration(CLIP / "table.yaml")
    events: list[TableEvent] = []
    actions = [dict(a, frame=math.ceil(a["frame"] / every)) for a in read_actions(str(CLIP / "dealer.jsonl"))]
    pipe = Pipeline(detector=Reads(), calibration=cal, table=LiveTable(seats=cal.seats, game="joker-holdem"),
                    sink=events.append, actions=actions)
    pipe.run(iter([Frame(i // every, f.t, f.image) for i, f in enumerate(frames) if i % every == 0]))
    got = [(e.ruling.to_json()["payouts"] if e.ruling else None, e.won_without_showdown)
           for e in events if isinstance(e, HandEnd)]
    behind = any(isinstance(e, Alert) and e.code == "falling_behind" for e in events)
    return got, behind


def frame_rates(detector) -> None:
    src = open_source(str(CLIP / "joker-nlh.mp4"))
    try:
        frames = [f for f in src if isinstance(f, Frame)]
    finally:
        src.close()
    reads = {id(f.image): detector.detect(f.image) for f in frames}
    lowest = None
    for every in (1, 2, 3, 4, 5, 6):
        got, behind = rulings_at(frames, every, reads)
        right = got == EXPECTED
        paid = [pay for pay, _ in got if pay is not None]
        wrong = [pay for pay in paid if pay not in [p for p, _ in EXPECTED]]
        print(f"clip at {15 / every:.2f} fps: {len(got)} hands, "
              + ("the three rulings right" if right else
                 f"{len(paid)} ruled ({len(wrong)} with payouts none of the hands had), "
                 f"{len(got) - len(paid)} held without a ruling")
              + (", falling_behind raised" if behind else ""))
        if right and (lowest is None or lowest == 15 / (every - 1)):
            lowest = 15 / every
    if lowest is not None:
        print(f"lowest frame rate with the three rulings right: {lowest:.2f} fps (target <= 5): "
              f"ratio {5 / lowest:.2f}")
    else:
        print("the rulings are not right even at 15 fps")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--realtime", action="store_true")
    args = ap.parse_args()
    if not (CLIP / "joker-nlh.mp4").is_file():
        print("no sample clip in sample_frames/clip", file=sys.stderr)
        return 2
    detector = CardDetector(model_dir(None))
    fps_runs, frame_ms = [], []
    events: list[TableEvent] = []
    for _ in range(args.repeat):
        events, s = run_once(False, detector)
        fps_runs.append(s["fps"])
        frame_ms += s["frame_ms"]
        print(f"run: {s['frames']} frames in {s['wall_s']} s = {s['fps']} fps "
              f"(detect median {s['detect_ms_median']} ms, frame median {s['frame_ms_median']} ms)")
    fps = max(fps_runs)
    frame_ms.sort()
    p50 = statistics.median(frame_ms)
    p90 = frame_ms[int(0.9 * (len(frame_ms) - 1))]
    print(f"throughput at 1280x720: best {fps} fps (target >= 15): ratio {fps / 15:.2f}")
    print(f"per frame: median {p50:.1f} ms, p90 {p90:.1f} ms (15 fps allows 66.7 ms)")
    labels = CLIP / "labels.jsonl"
    if labels.is_file():
        d = delays(events, first_frames(labels))
        if d:
            d.sort()
            med_s = statistics.median(d) / 15 + p50 / 1000
            worst_s = d[-1] / 15 + p90 / 1000
            print(f"delay, card's first frame -> its event ({len(d)} cards): frames median "
                  f"{statistics.median(d)}, max {d[-1]}; seconds at 15 fps incl. processing: median "
                  f"{med_s:.2f}, worst {worst_s:.2f} (target <= 0.5): ratio {worst_s / 0.5:.2f}")
    if args.realtime:
        _, s = run_once(True, detector)
        print(f"realtime playback at 15 fps: processed {s['frames']} frames, skipped {s['dropped']}")
    frame_rates(detector)
    return 0


if __name__ == "__main__":
    sys.exit(main())
