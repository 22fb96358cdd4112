"""``dealer-assist run``: the live table pipeline, from a camera (or a recording) to rulings.

``dealer-assist run [--source SRC] [--calibration FILE] [--game joker-holdem] [--headless]
[--events FILE|-] [--db FILE] [--actions FILE]``

With no ``--source`` it plays the bundled sample clip (``sample_frames/clip/``) with its
calibration and its dealer inputs. Events go out as JSON lines (``--events``, default standard
output); every event is also committed to the hand log (``--db``, default ``hand-log.sqlite``)
with a snapshot of its frame. The rulings and alerts are also told in plain words on standard
error (on standard output when the events go to a file), ``--lang ja`` in Japanese.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from dealer_assist.errors import UserError

GAMES = ("joker-holdem", "holdem")


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def sample_clip_dir() -> Path:
    return repo_root() / "sample_frames" / "clip"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="run the live table: camera -> cards -> rulings (default: the bundled sample clip)",
        description="Watch a table through a camera, a stream, a video file or a folder of frames; "
                    "print events as JSON lines and log every hand. With no --source, plays the "
                    "bundled sample clip of three Joker NLH hands.",
    )
    add_live_arguments(p)
    p.add_argument("--headless", action="store_true",
                   help="no window and no plain-words commentary: events and the log only")
    p.add_argument("--events", metavar="FILE|-", default="-", help="where the JSON-lines events go (default -)")
    p.add_argument("--realtime", action="store_true",
                   help="play a file at its own speed, skipping frames the machine cannot keep up with")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the commentary")
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def add_live_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments that open a live table, shared by ``run`` and ``desk``."""
    p.add_argument("--source", metavar="SRC",
                   help="camera index (0), rtsp:// or http:// stream, video file or folder of frames "
                        "(default: the bundled sample clip)")
    p.add_argument("--calibration", metavar="FILE", help="table calibration YAML (dealer-assist calibrate)")
    p.add_argument("--game", default="joker-holdem", choices=GAMES)
    p.add_argument("--db", metavar="FILE", default="hand-log.sqlite", help="hand log (SQLite)")
    p.add_argument("--no-db", action="store_true", help="keep no hand log")
    p.add_argument("--actions", metavar="FILE",
                   help="dealer inputs (chips, folds, corrections) as JSON lines keyed by frame")
    p.add_argument("--fps", type=float, default=None, help="frame rate of a folder of frames (default 15)")
    p.add_argument("--models", metavar="DIR", default=None, help="model folder (default: the shipped models/)")
    p.add_argument("--deck", metavar="NAME", help="a deck enrolled with enroll-deck")
    p.add_argument("--search", action=argparse.BooleanOptionalAction, default=True,
                   help="search around cards whose corners read no index (on by default)")
    p.add_argument("--look", action=argparse.BooleanOptionalAction, default=True,
                   help="ask the whole-card look model about unreadable cards and suits (on by default)")
    p.add_argument("--rescue", action=argparse.BooleanOptionalAction, default=True,
                   help="read the boxes the detector set aside too, for the lower cards of a fanned "
                        "hand (on by default)")


def resolve_inputs(args) -> tuple[str, str, str | None]:
    """(source, calibration, actions) with the sample clip's defaults filled in."""
    clip = sample_clip_dir()
    source = args.source
    calibration = args.calibration
    actions = args.actions
    if source is None:
        video = clip / "joker-nlh.mp4"
        if not video.is_file():
            raise UserError(f"the bundled sample clip is missing ({video}); give --source")
        source = str(video)
        if calibration is None:
            calibration = str(clip / "table.yaml")
        if actions is None and (clip / "dealer.jsonl").is_file():
            actions = str(clip / "dealer.jsonl")
    if calibration is None:
        raise UserError("--calibration FILE is needed with --source (make one with dealer-assist calibrate)")
    return source, calibration, actions


def model_versions(folder: Path, deck: str | None) -> dict:
    """Which model files read the cards (their SHA-256), for the hand log: a dispute may ask."""
    from dealer_assist.vision.enroll import file_sha256

    out: dict = {"folder": str(folder), "deck": deck}
    for name in ("cards-obb.onnx", "corner-cls.onnx"):
        f = folder / name
        out[name] = file_sha256(f) if f.is_file() else None
    return out


class LiveParts:
    """What a live table is made of, opened from the command line's arguments (``run`` and ``desk``)."""

    def __init__(self, args, sink, *, log_thread_free: bool = False):
        # OpenCV's own warnings (a camera index that does not open, ...) would bury the one-line
        # error the dealer needs; the sources report such failures themselves
        os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
        from dealer_assist.commands.detect import model_dir
        from dealer_assist.live.calibration import load_calibration
        from dealer_assist.live.pipeline import Pipeline, read_actions
        from dealer_assist.live.sources import open_source
        from dealer_assist.live.tracker import LiveTable
        from dealer_assist.vision.detector import CardDetector, switched

        self.source_spec, self.calibration_path, actions_path = resolve_inputs(args)
        self.calibration = load_calibration(self.calibration_path)
        actions = read_actions(actions_path) if actions_path else []
        detector = CardDetector(model_dir(args.models), deck=args.deck,
                                settings=switched(bool(getattr(args, "search", True)),
                                                  bool(getattr(args, "look", True)),
                                                  bool(getattr(args, "rescue", True))))
        table = LiveTable(seats=self.calibration.seats, game=args.game)
        self.log = None
        if not args.no_db:
            from dealer_assist.live.handlog import HandLog
            self.log = HandLog(args.db, source=self.source_spec, game=args.game,
                               calibration=self.calibration_path,
                               models=model_versions(model_dir(args.models), args.deck),
                               check_same_thread=not log_thread_free)
        try:
            self.source = open_source(self.source_spec, fps=args.fps, realtime=args.realtime)
        except BaseException:
            if self.log is not None:
                self.log.close()
            raise
        self.pipeline = Pipeline(detector=detector, calibration=self.calibration, table=table, sink=sink,
                                 log=self.log, actions=actions)

    def close(self) -> None:
        try:
            self.source.close()
        finally:
            if self.log is not None:
                self.log.close()


def run(args) -> int:
    from dealer_assist.live.pipeline import json_sink
    from dealer_assist.live.words import line as describe_event

    out_file = None
    if args.events == "-":
        events_stream = sys.stdout
        talk = None if args.headless else sys.stderr
    else:
        try:
            out_file = open(args.events, "w", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write the events file {args.events}: {exc.strerror or exc}") from None
        events_stream = out_file
        talk = None if args.headless else sys.stdout
    write_json = json_sink(events_stream)

    def sink(ev: dict) -> None:
        write_json(ev)
        if talk is not None:
            line = describe_event(ev, args.lang)
            if line:
                talk.write(line + "\n")
                talk.flush()

    try:
        parts = LiveParts(args, sink)
    except BaseException:
        if out_file is not None:
            out_file.close()
        raise
    try:
        stats = parts.pipeline.run(parts.source, max_frames=args.max_frames)
    finally:
        parts.close()
        if out_file is not None:
            out_file.close()
    if talk is not None:
        s = stats.summary()
        where = f"; hand log {args.db}" if parts.log is not None else ""
        learned = (f"; {s['learned_corners']} card corners learned from corrections (this session only)"
                   if s.get("learned_corners") else "")
        talk.write(f"-- {s['frames']} frames in {s['wall_s']} s ({s['fps']} fps), "
                   f"{s['events']} events{where}{learned}\n")
    return 0
