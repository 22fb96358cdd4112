"""``dealer-assist run``: the live table pipeline, from a camera (or a recording) to rulings.

``dealer-assist run [--source SRC] [--calibration FILE] [--game joker-holdem] [--headless]
[--events FILE|-] [--overwrite] [--db FILE] [--actions FILE] [--give-up-after SECONDS]``

With no ``--source`` it plays the bundled sample clip (``sample_frames/clip/``) with its
calibration and its dealer inputs. Events go out as JSON lines (``--events``, default standard
output); every event is also committed to the hand log (``--db``, default ``hand-log.sqlite``)
with a snapshot of its frame. The rulings and alerts are also told in plain words on standard
error (on standard output when the events go to a file), ``--lang ja`` in Japanese.

An events file is appended to (``--overwrite`` starts it afresh); each start first writes a
``session_start`` line. Neither the events file nor the hand log is created before the source has
opened, so a wrong ``--source`` leaves no empty files behind.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from dealer_assist.errors import UserError
from dealer_assist.i18n import _

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
    p.add_argument("--events", metavar="FILE|-", default="-",
                   help="where the JSON-lines events go (default -); a file is appended to, each start "
                        "first writing a session_start line")
    p.add_argument("--overwrite", action="store_true",
                   help="start the --events file afresh instead of appending to it")
    p.add_argument("--realtime", action="store_true",
                   help="play a file at its own speed, skipping frames the machine cannot keep up with")
    p.add_argument("--lang", choices=("ja", "en"), default="ja",
                   help="language of the commentary (default Japanese)")
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
    p.add_argument("--give-up-after", metavar="SECONDS", type=give_up_seconds, default=None,
                   help="a camera or stream that is not there (at start-up or lost mid-run) is retried "
                        "with backoff and a camera_lost alert; stop after it has been gone this many "
                        "seconds (default: never; 0: do not retry)")


def give_up_seconds(text: str) -> float | None:
    """``--give-up-after``: seconds >= 0, or ``never``.

    >>> give_up_seconds("30"), give_up_seconds("never"), give_up_seconds("0")
    (30.0, None, 0.0)
    """
    if text.strip().lower() in ("never", "inf", "none"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds (a number >= 0) or 'never', not {text[:40]!r}") from None
    if not (value >= 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"seconds (a number >= 0) or 'never', not {text[:40]!r}")
    return value


def shown_source(spec: str) -> str:
    """A source spec fit for records and screens: a stream URL without its password."""
    from dealer_assist.live.sources import _redact

    return _redact(spec)


def look_warning(detector, lang: str = "en") -> str | None:
    """The warning for an optional model that is missing (None when all are there or it is off)."""
    from dealer_assist.vision.detector import missing_model_warning

    return missing_model_warning(detector, lang)


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

    def __init__(self, args, sink, *, log_thread_free: bool = False, on_source_open=None):
        """The source is opened first and the hand log only then, so a source that fails leaves
        no file; ``on_source_open()`` runs once both are open (``run`` opens its events file
        there: a hand log that cannot be opened leaves no events file either)."""
        from dealer_assist.commands.detect import model_dir
        from dealer_assist.live.calibration import load_calibration
        from dealer_assist.live.pipeline import Pipeline, read_actions
        from dealer_assist.live.sources import open_source, quiet_native_logs
        from dealer_assist.live.tracker import LiveTable
        from dealer_assist.vision.detector import CardDetector, switched

        # OpenCV's and FFmpeg's own console messages (a camera index that does not open, a refused
        # stream) would bury the line the dealer needs; the sources report such failures themselves
        quiet_native_logs()

        self.source_spec, self.calibration_path, actions_path = resolve_inputs(args)
        self.calibration = load_calibration(self.calibration_path)
        actions = read_actions(actions_path) if actions_path else []
        detector = CardDetector(model_dir(args.models), deck=args.deck,
                                settings=switched(bool(getattr(args, "search", True)),
                                                  bool(getattr(args, "look", True)),
                                                  bool(getattr(args, "rescue", True))))
        self.look_warning = look_warning(detector, getattr(args, "lang", "en"))
        if self.look_warning:
            print(self.look_warning, file=sys.stderr, flush=True)
        table = LiveTable(seats=self.calibration.seats, game=args.game)
        self.log = None
        # the source first: no log file is created for a source that does not open
        self.source = open_source(self.source_spec, fps=args.fps, realtime=args.realtime,
                                  give_up_after=getattr(args, "give_up_after", None))
        try:
            if not args.no_db:
                from dealer_assist.live.handlog import HandLog
                self.log = HandLog(args.db, source=shown_source(self.source_spec), game=args.game,
                                   calibration=self.calibration_path,
                                   models=model_versions(model_dir(args.models), args.deck),
                                   check_same_thread=not log_thread_free)
            if on_source_open is not None:
                on_source_open()
        except BaseException:
            self.close()
            raise
        self.pipeline = Pipeline(detector=detector, calibration=self.calibration, table=table, sink=sink,
                                 log=self.log, actions=actions)

    def close(self) -> None:
        try:
            self.source.close()
        finally:
            if self.log is not None:
                self.log.close()


def _check_events_path(path: str) -> None:
    """Refuse an events file that cannot be written, before anything is opened or created."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UserError(f"the events file {path} is a folder; give a file name such as {path}/events.jsonl")
    if not os.path.isdir(folder):
        raise UserError(f"cannot write the events file {path}: the folder {folder} does not exist")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UserError(f"cannot write the events file {path}: the file is read-only")
    if not os.path.exists(path) and not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write the events file {path}: the folder {folder} is read-only")


def open_events(path: str, overwrite: bool = False):
    """The events file, opened to append (``overwrite``: emptied first). A last line a killed run
    left unfinished is closed with a line break first, so the next line stays whole."""
    try:
        if not overwrite and os.path.isfile(path) and os.path.getsize(path) > 0:
            with open(path, "rb") as fh:
                fh.seek(-1, os.SEEK_END)
                cut = fh.read(1) != b"\n"
        else:
            cut = False
        out = open(path, "w" if overwrite else "a", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write the events file {path}: {exc.strerror or exc}") from None
    if cut:
        out.write("\n")
        out.flush()
    return out


def session_header(source: str, game: str, session: int | None) -> dict:
    """The line each start writes first in the events: which run the following lines belong to."""
    import datetime as dt

    ev = {"type": "session_start", "t": 0.0,
          "started": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
          "source": source, "game": game}
    if session is not None:
        ev["session"] = session
    return ev


def run(args) -> int:
    from dealer_assist.live.pipeline import json_sink
    from dealer_assist.live.words import line as describe_event

    ja = args.lang == "ja"
    files: dict = {}
    if args.events == "-":
        events_stream = sys.stdout
        talk = None if args.headless else sys.stderr
    else:
        _check_events_path(args.events)
        events_stream = None
        talk = None if args.headless else sys.stdout

    def open_events_file() -> None:
        if args.events != "-":
            files["events"] = open_events(args.events, args.overwrite)

    def write_json(ev: dict) -> None:
        if "write" not in files:
            files["write"] = json_sink(files.get("events") or events_stream)
        files["write"](ev)

    def sink(ev: dict) -> None:
        write_json(ev)
        if talk is not None:
            line = describe_event(ev, args.lang)
            if line:
                talk.write(line + "\n")
                talk.flush()

    try:
        parts = LiveParts(args, sink, on_source_open=open_events_file)
    except BaseException:
        if files.get("events") is not None:
            files["events"].close()
        raise
    try:
        session = parts.log.session if parts.log is not None else None
        source = shown_source(parts.source_spec)
        write_json(session_header(source, args.game, session))
        if talk is not None:
            number = session if session is not None else "-"
            if args.events != "-" and not args.overwrite:
                head = _("-- session {session} started: source {source}; events appended to {events}",
                         session=number, source=source, events=args.events)
            else:
                head = _("-- session {session} started: source {source}", session=number, source=source)
            talk.write(head.render(args.lang) + "\n")
            talk.flush()
        stats = parts.pipeline.run(parts.source, max_frames=args.max_frames)
    finally:
        parts.close()
        if files.get("events") is not None:
            files["events"].close()
    if talk is not None:
        s = stats.summary()
        bits = [_("-- {frames} frames in {wall} s ({fps} frames a second), {events} events",
                  frames=s["frames"], wall=s["wall_s"], fps=s["fps"], events=s["events"])]
        if parts.log is not None:
            bits.append(_("; hand log {path}", path=args.db))
        if s.get("learned_corners"):
            bits.append(_("; {n} card corners learned from corrections (this session only)",
                          n=s["learned_corners"]))
        talk.write("".join(b.render(args.lang) for b in bits) + "\n")
    gave_up = getattr(parts.source, "gave_up", None)
    if gave_up:
        raise UserError(gave_up[1] if ja else gave_up[0])
    return 0
