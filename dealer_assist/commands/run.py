"""``dealer-assist run``: the live table pipeline, from a camera (or a recording) to rulings.

``dealer-assist run [--source SRC] [--calibration FILE] [--game joker-holdem] [--headless]
[--events FILE|-] [--overwrite] [--db FILE] [--actions FILE] [--dealer NAME] [--give-up-after SECONDS]``

With no ``--source`` it plays the game's bundled sample clip (the registry's ``clip``, e.g.
``sample_frames/clip/`` for Joker NLH) with its calibration and its dealer inputs;
``--game list`` lists the games (:mod:`dealer_assist.games`). Events go out as JSON lines (``--events``, default standard
output); every event is also committed to the hand log (``--db``, default ``hand-log.sqlite``)
with a snapshot of its frame. The rulings and alerts are also told in plain words on standard
error (on standard output when the events go to a file), ``--lang ja`` in Japanese.

An events file is appended to (``--overwrite`` starts it afresh); each start first writes a
``session_start`` line. Neither the events file nor the hand log is created before the source has
opened, so a wrong ``--source`` leaves no empty files behind.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from dealer_assist.commands import add_lang, given_paths, h, refuse_overwrite
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, _n, message_of, os_reason, typed


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def sample_clip_dir(game: str = "joker-holdem") -> Path:
    """The folder of ``game``'s bundled sample clip (the registry's ``clip``)."""
    from dealer_assist.games import find_game

    clip = find_game(game).clip
    return repo_root() / "sample_frames" / (clip[0] if clip else "clip")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help=h(_("run the live table: camera -> cards -> rulings (default: the bundled sample clip)")),
        description=h(_("Watch a table through a camera, a stream, a video file or a folder of frames; "
                         "print events as JSON lines and log every hand. With no --source, plays the "
                         "game's bundled sample clip (three Joker NLH hands by default).")),
    )
    add_live_arguments(p)
    p.add_argument("--headless", action="store_true",
                   help=h(_("no window and no plain-words commentary: events and the log only")))
    p.add_argument("--events", metavar="FILE|-", default="-",
                   help=h(_("where the JSON-lines events go (default -); a file is appended to, each start "
                             "first writing a session_start line")))
    p.add_argument("--overwrite", action="store_true",
                   help=h(_("start the --events file afresh instead of appending to it")))
    p.add_argument("--realtime", action="store_true",
                   help=h(_("play a file at its own speed, skipping frames the machine cannot keep up with")))
    add_lang(p, _("language of the commentary (default Japanese)"))
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def arg_error(message) -> argparse.ArgumentTypeError:
    """argparse's refusal of an argument's value: ``message`` a message of the catalogues, also kept
    as the error's ``msg`` (the CLI says it in the command's language); ``str()``: its English.

    >>> e = arg_error(_("seconds (a number >= 0) or 'never', not {got}", got="'x'"))
    >>> str(e), e.msg.msgid
    ("seconds (a number >= 0) or 'never', not 'x'", "seconds (a number >= 0) or 'never', not {got}")
    """
    err = argparse.ArgumentTypeError(message)
    err.msg = message
    return err


def dealer_arg(text: str) -> str:
    """``--dealer``: a name of 1 to 40 characters (:func:`dealer_assist.people.person_name`)."""
    from dealer_assist.people import NAME_MAX, person_name

    name = person_name(text)
    if name is None:
        raise arg_error(_("the dealer's name: 1 to {n} characters, no control characters", n=NAME_MAX))
    return name


def add_live_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments that open a live table, shared by ``run`` and ``desk``."""
    p.add_argument("--source", metavar="SRC",
                   help=h(_("camera index (0), rtsp:// or http:// stream, video file or folder of frames "
                             "(default: the bundled sample clip)")))
    p.add_argument("--calibration", metavar="FILE", help=h(_("table calibration YAML (dealer-assist calibrate)")))
    p.add_argument("--game", default="joker-holdem", type=live_game_arg, metavar="GAME",
                   help=h(_("the game at the table (default joker-holdem); 'list' lists the games")))
    p.add_argument("--db", metavar="FILE", default="hand-log.sqlite", help=h(_("hand log (SQLite)")))
    p.add_argument("--no-db", action="store_true", help=h(_("keep no hand log")))
    p.add_argument("--actions", metavar="FILE",
                   help=h(_("dealer inputs (chips, folds, corrections) as JSON lines keyed by frame")))
    p.add_argument("--dealer", metavar="NAME", default=None, type=dealer_arg,
                   help=h(_("who deals at this table, named in every hand the log keeps (the desk's D key "
                             "names the next dealer when dealers rotate)")))
    p.add_argument("--fps", type=float, default=None, help=h(_("frame rate of a folder of frames (default 15)")))
    p.add_argument("--models", metavar="DIR", default=None, help=h(_("model folder (default: the shipped models/)")))
    p.add_argument("--deck", metavar="NAME", help=h(_("a deck enrolled with enroll-deck")))
    p.add_argument("--search", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("search around cards whose corners read no index (on by default)")))
    p.add_argument("--look", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("ask the whole-card look model about unreadable cards, suits and backs (on by default)")))
    p.add_argument("--rescue", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("read the boxes the detector set aside too, for the lower cards of a fanned "
                             "hand (on by default)")))
    p.add_argument("--zoom", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("look again in tiles where the cards are too small in the frame for the "
                             "detector (a whole table in a 1920x1080 view) (on by default)")))
    p.add_argument("--give-up-after", metavar="SECONDS", type=give_up_seconds, default=None,
                   help=h(_("a camera or stream that is not there (at start-up or lost mid-run) is retried "
                             "with backoff and a camera_lost alert; stop after it has been gone this many "
                             "seconds (default: never; 0: do not retry)")))
    p.add_argument("--doubt", metavar="CARD=OTHER", type=doubt_arg, action="append", default=[],
                   help=h(_("rehearsal: the reader reports CARD not sure, offering OTHER, wherever it reads "
                             "it, so a dealer practises confirming or correcting a provisional showdown "
                             "(repeatable: --doubt Qs=Qc --doubt Kc=Ks)")))
    # the central event log of a casino event (dealer_assist/central/, docs/central.md)
    p.add_argument("--central", metavar="URL", type=_arg_check("check_url"), default=None,
                   help=h(_("also send every event, correction and ruling to this PostgreSQL central log "
                             "(postgresql://...); the hand log stays the record and catches the central log "
                             "up after an outage")))
    p.add_argument("--table", metavar="NAME", type=_arg_check("check_table_name"), default=None,
                   help=h(_("this table's name in the central log (needed with --central)")))


def _arg_check(name: str):
    """An argparse type from a check of dealer_assist.central.schema (its UserError as a usage error)."""
    def check(text: str):
        from dealer_assist.central import schema

        try:
            return getattr(schema, name)(text)
        except UserError as exc:
            raise arg_error(message_of(exc)) from None
    check.__name__ = name
    return check


def check_live_args(args) -> None:
    """Refuse options of ``run`` and ``desk`` that would do nothing or contradict each other, which
    a person would otherwise take as done: ``--table`` without ``--central``, one card given two
    ``--doubt`` offers, a negative ``--stop-at``."""
    if getattr(args, "table", None) is not None and getattr(args, "central", None) is None:
        raise UserError(_("--table goes with --central (a table's own log is --db)"))
    offers: dict[str, str] = {}
    for card, other in getattr(args, "doubt", None) or ():
        if offers.setdefault(card, other) != other:
            raise UserError(_("--doubt gives {card} twice ({first} and {second}): one offer a card",
                              card=card, first=f"{card}={offers[card]}", second=f"{card}={other}"))
    stop = getattr(args, "stop_at", None)
    if stop is not None and stop < 0:
        raise UserError(_("--stop-at is a frame number, 0 or more, not {got}", got=stop))


def doubt_arg(text: str) -> tuple[str, str]:
    """``--doubt``: a card the reader reports not sure and the other name it offers, as the
    reader names cards.

    >>> doubt_arg("Qs=Qc"), doubt_arg("10h=9h"), doubt_arg("K♠=JK")
    (('Qs', 'Qc'), ('Th', '9h'), ('Ks', 'JK'))
    >>> doubt_arg("Qs")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'Qs' is not CARD=OTHER (e.g. Qs=Qc: the queen of spades reported not sure, the queen of clubs offered)
    >>> doubt_arg("Qs=Qs")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'Qs=Qs' offers the same card: OTHER must be another card
    """
    from dealer_assist.cards import CardError, parse_card

    card, sep, other = text.partition("=")
    if not sep:
        raise arg_error(_("{got} is not CARD=OTHER (e.g. Qs=Qc: the queen of spades reported not sure, "
                          "the queen of clubs offered)", got=typed(text)))
    try:
        pair = (str(parse_card(card)), str(parse_card(other)))
    except CardError as exc:
        raise arg_error(message_of(exc)) from None
    if pair[0] == pair[1]:
        raise arg_error(_("{got} offers the same card: OTHER must be another card", got=typed(text)))
    return pair


def live_game_arg(text: str) -> str:
    """``--game``: a game of the registry that the live table follows, or ``list``.

    >>> live_game_arg("stud7"), live_game_arg("list")
    ('stud7', 'list')
    >>> live_game_arg("go-fish")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown game 'go-fish'; the games are holdem, joker-holdem, half-texas, stud7, holdem-hilo, lowball-a5, lowball-27, daifugo
    """
    from dealer_assist.games import find_game

    if text == "list":
        return text
    try:
        game = find_game(text)
        game.live_flow()
    except UserError as exc:
        raise arg_error(message_of(exc)) from None
    return game.name


def print_games(lang: str = "ja", out=None) -> int:
    """``--game list``: every game of the registry, whether the live table follows it, its clip."""
    from dealer_assist.games import GAMES

    out = out or sys.stdout
    for g in GAMES:
        how = _("live table, sample clip") if g.clip else _("live table") if g.live else _("rules only")
        out.write(f"{g.name:14} {g.title.render(lang)}  [{how.render(lang)}]\n")
    return 0


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
        raise arg_error(_("seconds (a number >= 0) or 'never', not {got}", got=typed(text[:40]))) from None
    if not (value >= 0 and value != float("inf")):
        raise arg_error(_("seconds (a number >= 0) or 'never', not {got}", got=typed(text[:40])))
    return value


def shown_source(spec: str) -> str:
    """A source spec fit for records and screens: a stream URL without its password."""
    from dealer_assist.live.sources import _redact

    return _redact(spec)


def look_warning(detector, lang: str = "en") -> str | None:
    """The warning for an optional model that is missing (None when all are there or it is off)."""
    from dealer_assist.vision.detector import missing_model_warning

    return missing_model_warning(detector, lang)


def deck_note(detector, lang: str = "en") -> str | None:
    """What the dealer should know of the enrolled deck in use (``--deck``): the names its
    enrollment photos showed the reader misreading, which always come with their "?" for the
    dealer to confirm (:attr:`dealer_assist.vision.decks.Deck.doubts`); None without such names.

    >>> from types import SimpleNamespace as NS
    >>> deck = NS(name="house", doubts={"8s": "Js", "8c": "Jc", "8h": "Jh", "8d": "Jd"})
    >>> print(deck_note(NS(deck=deck)))
    deck 'house': these 4 names are always left to the dealer to confirm, since its enrollment photos showed the reader misreading cards like them: 8c, 8d, 8h, 8s
    >>> deck_note(NS(deck=None)) is None, deck_note(NS(deck=NS(name="x", doubts={}))) is None
    (True, True)
    """
    from dealer_assist.vision.decks import doubts_listed

    deck = getattr(detector, "deck", None)
    doubts = getattr(deck, "doubts", None)
    if not doubts:
        return None
    return _n("deck {name}: this name is always left to the dealer to confirm, since its enrollment photos "
              "showed the reader misreading a card like it: {cards}",
              "deck {name}: these {n} names are always left to the dealer to confirm, since its enrollment "
              "photos showed the reader misreading cards like them: {cards}", len(doubts), name=typed(deck.name),
              n=len(doubts), cards=doubts_listed(doubts)).render(lang)


def resolve_inputs(args) -> tuple[str, str, str | None]:
    """(source, calibration, actions) with the sample clip's defaults filled in."""
    from dealer_assist.games import find_game

    game = find_game(getattr(args, "game", "joker-holdem"))
    clip = sample_clip_dir(game.name)
    source = args.source
    calibration = args.calibration
    actions = args.actions
    if source is None:
        if game.clip is None:
            raise UserError(_("there is no bundled sample clip of {game}; give --source and --calibration", game=game.name))
        video = clip / game.clip[1]
        if not video.is_file():
            raise UserError(_("the bundled sample clip is missing ({path}); give --source", path=video))
        source = str(video)
        if calibration is None:
            calibration = str(clip / "table.yaml")
        if actions is None and (clip / "dealer.jsonl").is_file():
            actions = str(clip / "dealer.jsonl")
    if calibration is None:
        raise UserError(_("--calibration FILE is needed with --source (make one with dealer-assist calibrate)"))
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
        from dealer_assist.games import find_game
        from dealer_assist.live.calibration import load_calibration
        from dealer_assist.live.pipeline import Pipeline, read_actions
        from dealer_assist.live.sources import open_source, quiet_native_logs
        from dealer_assist.live.tracker import LiveTable
        from dealer_assist.vision.detector import CardDetector, switched

        # OpenCV's and FFmpeg's own console messages (a camera index that does not open, a refused
        # stream) would bury the line the dealer needs; the sources report such failures themselves
        quiet_native_logs()

        check_live_args(args)
        self.source_spec, self.calibration_path, actions_path = resolve_inputs(args)
        flow = find_game(args.game).live_flow()
        self.calibration = load_calibration(self.calibration_path, board=flow.board_slots)
        actions = read_actions(actions_path) if actions_path else []
        if getattr(args, "dealer", None) is not None:      # the dealer at the start, before any frame
            actions.insert(0, {"frame": 0, "type": "dealer", "name": args.dealer})
        settings = switched(bool(getattr(args, "search", True)), bool(getattr(args, "look", True)),
                            bool(getattr(args, "rescue", True)), bool(getattr(args, "zoom", True)))
        detector = CardDetector(model_dir(args.models), deck=args.deck,
                                settings=dataclasses.replace(settings, doubt=tuple(getattr(args, "doubt", None) or ())))
        self.look_warning = look_warning(detector, getattr(args, "lang", "en"))
        if self.look_warning:
            print(self.look_warning, file=sys.stderr, flush=True)
        note = deck_note(detector, getattr(args, "lang", "en"))
        if note:
            print(note, file=sys.stderr, flush=True)
        table = LiveTable(seats=self.calibration.seats, game=args.game)
        self.log = None
        self.forwarder = None
        if getattr(args, "central", None) and (args.no_db or not getattr(args, "table", None)):
            raise UserError(_("--central needs --table NAME and a hand log (no --no-db): the hand log is "
                              "what is sent, and what is kept while the central log is out of reach"))
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
                if getattr(args, "central", None):
                    from dealer_assist.central.forward import Forwarder
                    self.forwarder = Forwarder(args.db, args.central, args.table,
                                               lang=getattr(args, "lang", "ja")).start()
                    sink = _poking(sink, self.forwarder)
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
            try:
                if self.log is not None:
                    self.log.close()
            finally:
                self.close_forwarder()

    def close_forwarder(self) -> None:
        """Send what the central log still lacks (a few seconds at most) and stop the forwarder;
        after the hand log's close, so the session's end goes too."""
        forwarder, self.forwarder = self.forwarder, None
        if forwarder is not None:
            forwarder.close()


def _poking(sink, forwarder):
    """``sink`` that also wakes the central log's forwarder (the event is in the hand log by then)."""
    def poking_sink(ev) -> None:
        sink(ev)
        forwarder.poke()
    return poking_sink


def _check_events_path(path: str) -> None:
    """Refuse an events file that cannot be written, before anything is opened or created."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise UserError(_("the events file {path} is a folder; give a file name such as {path}/events.jsonl",
                          path=path))
    if not os.path.isdir(folder):
        raise UserError(_("cannot write the events file {path}: the folder {folder} does not exist",
                          path=path, folder=folder))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise UserError(_("cannot write the events file {path}: the file is read-only", path=path))
    if not os.path.exists(path) and not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(_("cannot write the events file {path}: the folder {folder} is read-only",
                          path=path, folder=folder))


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
        raise UserError(_("cannot write the events file {path}: {why}", path=path, why=os_reason(exc))) from None
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

    if args.game == "list":
        return print_games(args.lang)
    files: dict = {}
    if args.events == "-":
        events_stream = sys.stdout
        talk = None if args.headless else sys.stderr
    else:
        _check_events_path(args.events)
        refuse_overwrite(args.events, "--events", **given_paths(args, "db", "source", "actions", "calibration"))
        events_stream = None
        talk = None if args.headless else sys.stdout

    def open_events_file() -> None:
        if args.events != "-":
            files["events"] = open_events(args.events, args.overwrite)

    def write_json(ev) -> None:
        """One line of the events file: a table event (its ``to_json()``) or the session's header."""
        if "write" not in files:
            files["write"] = json_sink(files.get("events") or events_stream)
        files["write"](ev)

    def sink(ev) -> None:
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
    gave_up = getattr(parts.source, "gave_up_msg", None)
    if gave_up is not None:
        raise UserError(gave_up)
    return 0
