"""``dealer-assist review``: the hand log read back, for floor managers settling a dispute.

``dealer-assist review [--db FILE]`` lists the logged hands, newest last. ``review HAND`` tells one
hand in time order (events, the dealer's corrections, the ruling's explanation); ``--lang ja`` in
Japanese. HAND is SESSION:HAND as the list shows it (``2:3``: session 2, hand 3), or the hand's
row id. ``--json`` prints the hand (or, with no HAND, the list) as JSON, ``--export FILE`` writes
the hand's JSON to a file and ``--snapshots DIR`` writes its JPEG snapshots (the decisive frames).
``review --salvage DAMAGED NEW`` copies what SQLite can still read out of a damaged log into a new one.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import unicodedata
from typing import Any, Callable, Optional

from dealer_assist.commands import add_lang, h, refuse_overwrite
from dealer_assist.errors import UserError
from dealer_assist.games import GAMES
from dealer_assist.i18n import Msg, _, _n, _p, join, os_reason, render, seat_list
from dealer_assist.live.words import (RULING_UNREADABLE, cards_text, dealt_text, describe, describe_correction,
                                     offer_note, pays_text, placed_cards)

DEFAULT_DB = "hand-log.sqlite"   # the same default as ``dealer-assist run --db``

def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review",
        help=h(_("list logged hands, or tell one hand (events, corrections, ruling) for a dispute")),
        description=h(_("Read the hand log written by dealer-assist run. With no HAND, list the hands "
                         "(newest last); with HAND (SESSION:HAND as the list shows it, such as 2:3, or "
                         "the hand's row id), tell that hand in time order with its corrections and the "
                         "ruling's explanation. --salvage DAMAGED NEW copies what is still readable out "
                         "of a damaged log into a new one.")),
    )
    p.add_argument("hand", nargs="?", metavar="HAND",
                   help=h(_("SESSION:HAND from the list (2:3 = session 2, hand 3), or the hand's row id")))
    p.add_argument("--db", metavar="FILE", default=DEFAULT_DB,
                   help=h(_("hand log (default {default})", default=DEFAULT_DB)))
    p.add_argument("--session", type=int, metavar="N", help=h(_("list only the hands of session N")))
    p.add_argument("--json", action="store_true", help=h(_("print JSON instead of text")))
    p.add_argument("--export", metavar="FILE", help=h(_("write the hand as JSON to FILE")))
    p.add_argument("--snapshots", metavar="DIR", help=h(_("write the hand's JPEG snapshots into DIR")))
    add_lang(p, _("language of the text (default Japanese)"))
    p.add_argument("--salvage", nargs=2, metavar=("DAMAGED", "NEW"),
                   help=h(_("copy every hand, event and snapshot SQLite can still read out of the damaged "
                             "log DAMAGED into the new log NEW (DAMAGED is only read)")))
    from dealer_assist.commands.run import _arg_check
    p.add_argument("--central", metavar="URL", type=_arg_check("check_url"),
                   help=h(_("read the central log of a casino event (PostgreSQL) instead of --db")))
    p.add_argument("--table", metavar="NAME", type=_arg_check("check_table_name"),
                   help=h(_("with --central: only this table's hands")))
    p.add_argument("--export-phh", metavar="DIR",
                   help=h(_("write each hand (or HAND) as a Poker Hand History file (.phh) into DIR")))
    p.set_defaults(func=run)


#: a hand's status in words
STATUS_WORDS = {"ended": _p("hand status", "ended"), "open": _p("hand status", "in progress"),
                "interrupted": _p("hand status", "interrupted")}
#: ... and told in full in a hand's header
STATUS_LONG = {"ended": _p("hand status", "ended"),
               "open": _p("hand status", "in progress (still being played)"),
               "interrupted": _p("hand status", "interrupted (never ended: the run stopped during the hand)")}
#: a field of the hand log that cannot be read (a damaged log), in the hand list
UNREADABLE = _p("hand list", "(unreadable)")
#: the games' names (a session's game), from the registry
GAME_NAMES = {g.name: g.title for g in GAMES}


def status_text(status: str, lang: str = "en", long: bool = False) -> str:
    """A hand's status (``ended``, ``open``, ``interrupted``) for people."""
    return render((STATUS_LONG if long else STATUS_WORDS).get(status, status), lang)


# -- words --------------------------------------------------------------------------------------
def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - _width(text))
    return gap + text if right else text + gap


def _when(iso: Optional[str], same_day_as: Optional[str] = None) -> str:
    """A logged wall time for people: date and time, or the time alone on the same day."""
    if not iso:
        return "-"
    if same_day_as and same_day_as[:10] == iso[:10]:
        return iso[11:19]
    return iso[:19].replace("T", " ")


def _stamp(t: Any, frame: Any, lang: str = "en") -> str:
    ts = _("{t} s", t=f"{t:8.2f}").render(lang) if isinstance(t, (int, float)) else " " * 10
    fr = _("frame {n}", n=f"{frame:>6}").render(lang) if isinstance(frame, int) else " " * 12
    return f"{ts}  {fr}"


# -- output -------------------------------------------------------------------------------------
def format_list(hands: list[dict], lang: str = "en") -> str:
    """The hands as a table, one line each, newest last."""
    head = [render(m, lang) for m in (
        _p("hand list", "hand"), _p("hand list", "id"), _p("hand list", "started"), _p("hand list", "status"),
        _p("hand list", "board"), _p("hand list", "winners"), _p("hand list", "payouts"),
        _p("hand list", "corrections"))]
    rows = []
    for hand in hands:
        status = status_text(hand["status"], lang)
        if hand.get("unconfirmed"):        # paid on doubtful cards the dealer never confirmed
            status = _p("hand list", "{status}, unconfirmed", status=status).render(lang)
        if hand.get("session_missing"):    # a damaged log: listed all the same, and said
            status = _p("hand list", "{status}, session lost", status=status).render(lang)
        winners = ", ".join(str(s) for s in hand["winners"]) or "-"
        if hand.get("won_without_showdown") is not None:
            winners = _p("hand list", "{winners} (no showdown)", winners=winners).render(lang)
        pays = ", ".join(f"{s}:{v}" for s, v in hand["payouts"].items() if v) or "-"
        board = UNREADABLE.render(lang) if hand.get("board_unreadable") else cards_text(hand["board"])
        rows.append([f"{hand['session']}:{hand['hand']}", str(hand["id"]), _when(hand["started"]), status,
                     board, winners, pays, str(hand["corrections"])])
    widths = [max(_width(r[i]) for r in [head] + rows) for i in range(len(head))]
    right = {1, 7}
    lines = ["  ".join(_pad(c, w, i in right) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in [head] + rows]
    example = f"{hands[-1]['session']}:{hands[-1]['hand']}" if hands else "1:1"
    notes = [_("(hand is session:hand; payouts are seat:amount; one hand in full: "
               "dealer-assist review {example}, or by its id)", example=example)]
    if any(hand.get("session_missing") for hand in hands):
        notes.append(_("(session lost: the hand log has no row for that hand's session (the log is damaged "
                       "there); the hand is listed as it was recorded)"))
    if any(hand.get("board_unreadable") for hand in hands):
        notes.append(_("(unreadable: the board stored for that hand is damaged; its events still tell "
                       "the cards: dealer-assist review HAND)"))
    return "\n".join(lines + [render(m, lang) for m in notes])


def _floor_record(rec: dict, signed: Msg, typed: Msg, nameless: Msg) -> Msg:
    """A floor record's words (its time in UTC): made from that person's own floor address
    (``signed``), with a name typed on the page (``typed``), or before names were kept."""
    chosen = nameless if not rec.get("staff") else signed if rec.get("signed") else typed
    return dataclasses.replace(chosen, fields=(("staff", rec.get("staff") or ""),
                                               ("when", _when(rec.get("when")) + " UTC")))


def dealer_named(line: Any) -> Optional[str]:
    """The dealer an event line names: a ``dealer`` event's ``name``, a ``hand_start``'s
    ``dealer`` (``--dealer``, the desk's D key); None for any other line or none given.

    >>> dealer_named({"type": "dealer", "name": "佐藤"}), dealer_named({"type": "hand_start"})
    ('佐藤', None)
    """
    if not isinstance(line, dict):
        return None
    name = {"dealer": line.get("name"), "hand_start": line.get("dealer")}.get(line.get("type"))
    return name if isinstance(name, str) and name else None


def hand_start(hand: dict) -> dict:
    """The hand's ``hand_start`` event as logged; {} where the log has none."""
    events = hand.get("events")
    for e in events if isinstance(events, list) else ():
        if isinstance(e, dict) and e.get("type") == "hand_start":
            return e
    return {}


def hand_dealer(hand: dict) -> Optional[str]:
    """Who dealt the hand, as its ``hand_start`` names them (:func:`dealer_named`), or None."""
    start = hand_start(hand)
    return dealer_named(start) if start else None


def format_hand(hand: dict, lang: str = "en") -> str:
    """One hand told for a dispute: header, events in time order, corrections, the ruling."""
    ja = lang == "ja"
    sess = hand.get("session") or {}
    out = []
    status = status_text(hand["status"], lang, long=True)
    session_no = sess.get("id") if isinstance(sess, dict) else sess
    ref = hand.get("ref") or f"{session_no}:{hand['hand']}"
    lines = [
        _("Hand {ref}: hand {hand} of session {session} (id {id}): {status}", ref=ref, hand=hand["hand"],
          session=session_no, id=hand["id"], status=status),
        _("  open it with: dealer-assist review {ref}", ref=ref),
        _("  started {started}, ended {ended}", started=_when(hand["started"]),
          ended=_when(hand["ended"], hand["started"])),
    ]
    game = sess.get("game")
    game = GAME_NAMES.get(game, game)
    if hand.get("session_missing"):      # a damaged log: the hand is told from what is there
        lines.append(_("  session {session}: its row is missing from the hand log (the log is damaged there): "
                       "its source, game and calibration are unknown", session=session_no))
    elif sess.get("calibration"):
        lines.append(_("  source {source}, game {game}, calibration {calibration}", source=sess.get("source"),
                       game=game, calibration=sess["calibration"]))
    else:
        lines.append(_("  source {source}, game {game}", source=sess.get("source"), game=game))
    if hand.get("seats_unreadable"):
        lines.append(_("  the seats dealt in, as stored for this hand, cannot be read (the log is damaged there)"))
    elif hand.get("seats"):
        # a table without a button (Daifugo) names the seat that leads in its hand_start event
        leader = hand_start(hand).get("leader")
        lines.append(_("  {dealt}", dealt=dealt_text(hand["seats"], hand.get("button"), leader)))
    dealer = hand_dealer(hand)
    if dealer:
        lines.append(_("  dealt by {name}", name=dealer))
    if hand.get("board_unreadable"):
        lines.append(_("  board: the board stored for this hand cannot be read (the log is damaged there); "
                       "the events below tell the cards"))
    else:
        lines.append(_("  board {cards}", cards=cards_text(hand["board"])))
    winners = hand["winners"]
    win = seat_list(winners) if winners else "-"
    pays = pays_text(hand["payouts"], ja)
    if pays:
        lines.append(_n("  winner {who}; {pays}", "  winners {who}; {pays}", max(1, len(winners)), who=win, pays=pays))
    else:
        lines.append(_n("  winner {who}", "  winners {who}", max(1, len(winners)), who=win))
    if hand.get("won_without_showdown") is not None:
        lines.append(_("  seat {seat} won without a showdown", seat=hand["won_without_showdown"]))
    out += [render(m, lang) for m in lines]

    out.append("")
    out.append(_("Events (time, frame, what happened):").render(lang))
    corr = hand["corrections"]
    due = sorted(range(len(corr)), key=lambda j: corr[j].get("before_event", len(hand["events"])))
    for i, ev in enumerate(hand["events"] + [None]):
        while due and corr[due[0]].get("before_event", len(hand["events"])) <= i:
            c = corr[due.pop(0)]
            label = _("DEALER CORRECTION").render(lang)
            out.append(f"  {_stamp(c.get('t'), c.get('frame'), lang)}  {label} {describe_correction(c, lang)}")
        if ev is not None:
            out.append(f"  {_stamp(ev.get('t'), ev.get('frame'), lang)}  {describe(ev, lang)}")

    out.append("")
    out.append(_("Dealer corrections ({n}):", n=len(corr)).render(lang))
    for c in corr:
        out.append(f"  {_stamp(c.get('t'), c.get('frame'), lang)}  {describe_correction(c, lang)}")
    if not corr:
        out.append(_("  none").render(lang))

    conf = hand.get("confirmations") or []
    if conf:
        out.append("")
        out.append(_("Cards the dealer confirmed as read ({n}):", n=len(conf)).render(lang))
        for c in conf:
            out.append(f"  {_stamp(c.get('t'), c.get('frame'), lang)}  " + render(placed_cards([c]), lang)
                       + offer_note(c.get("or"), None, lang))

    out.append("")
    ruling = hand.get("ruling")
    out.append(_("Ruling:").render(lang))
    if (ruling or {}).get("provisional"):
        out.append(_("  PROVISIONAL: made on cards not all sure, and not confirmed by the dealer: {cards}",
                     cards=placed_cards(ruling.get("unsure"), offered=True)).render(lang))
    elif (ruling or {}).get("unsure"):
        out.append(_("  final: made on cards not all sure nor confirmed ({cards}), but no card they could "
                     "be changes the chips", cards=placed_cards(ruling.get("unsure"), offered=True)).render(lang))
    lines = (ruling or {}).get("explanation_ja" if ja else "explanation") or []
    for line in lines:
        out.append(f"  {line}")
    if not ruling and hand.get("ruling_unreadable"):
        out.append("  " + RULING_UNREADABLE.render(lang))
    elif not ruling:
        out.append(_("  no ruling was recorded for this hand").render(lang))
    floor = hand.get("floor")           # the central log's: the floor's records of the hand (UTC)
    if floor is not None:
        out.append("")
        out.append(_("The floor:").render(lang))
        check = floor.get("checked")
        if check:
            out.append("  " + _floor_record(check, _("cards checked by {staff}, signed in ({when})"),
                                            _("cards checked by {staff} ({when})"),
                                            _("cards checked by the floor ({when})")).render(lang))
        for d in floor.get("disputes") or []:
            out.append("  " + _floor_record(d, _("dispute recorded by {staff}, signed in ({when})"),
                                            _("dispute recorded by {staff} ({when})"),
                                            _("dispute recorded ({when})")).render(lang))
        if not check and not floor.get("disputes"):
            out.append(_("  no check of the cards, no dispute").render(lang))
    snaps = hand.get("snapshots") or []
    if snaps:
        out.append("")
        out.append(_n("{n} snapshot (--snapshots DIR writes them)", "{n} snapshots (--snapshots DIR writes them)",
                      len(snaps), n=len(snaps)).render(lang))
    return "\n".join(out)


def snapshot_names(snapshots: list[dict]) -> list[str]:
    """File names for a hand's snapshots: frame and event type, unique.

    >>> snapshot_names([{"frame": 63, "event_type": "board", "event_seq": 4},
    ...                 {"frame": 63, "event_type": "alert", "event_seq": 5},
    ...                 {"frame": 63, "event_type": "alert", "event_seq": 6}])
    ['frame000063-board.jpg', 'frame000063-alert.jpg', 'frame000063-alert-6.jpg']
    """
    names, seen = [], set()
    for s in snapshots:
        frame = f"frame{s['frame']:06d}" if isinstance(s.get("frame"), int) else "frame-unknown"
        kind = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in str(s.get("event_type")))
        name = f"{frame}-{kind}.jpg"
        if name in seen:
            name = f"{frame}-{kind}-{s.get('event_seq')}.jpg"
        seen.add(name)
        names.append(name)
    return names


def _hand_ref(text: str):
    """HAND as given: ``"2:3"`` stays a reference, a bare number is the row id."""
    from dealer_assist.live.handlog import parse_hand_ref

    session, number = parse_hand_ref(text)
    return number if session is None else f"{session}:{number}"


_LOG_TABLES = {"hands": _p("log table", "hands"), "events": _p("log table", "events"),
               "corrections": _p("log table", "corrections"), "snapshots": _p("log table", "snapshots"),
               "sessions": _p("log table", "sessions")}


def format_salvage(report: dict, lang: str = "en") -> str:
    """What ``--salvage`` kept, in a few lines."""
    t = report["tables"]
    hands = report["hands"]
    damaged = sorted(k for k, v in report["damaged_at"].items() if v)
    span = f"{hands[0]} .. {hands[-1]}" if hands else "-"
    msgs = [_("salvaged what {src} still holds into {dst}:", src=report["from"], dst=report["to"]),
            _("  {hands}, {events}, {corrections}, {snapshots}, {sessions}",
              hands=_n("{n} hand ({span})", "{n} hands ({span})", len(hands), n=len(hands), span=span),
              events=_n("{n} event", "{n} events", t.get("events", 0), n=t.get("events", 0)),
              corrections=_n("{n} correction", "{n} corrections", t.get("corrections", 0), n=t.get("corrections", 0)),
              snapshots=_n("{n} snapshot", "{n} snapshots", t.get("snapshots", 0), n=t.get("snapshots", 0)),
              sessions=_n("{n} session", "{n} sessions", t.get("sessions", 0), n=t.get("sessions", 0)))]
    if report["rebuilt_hands"]:
        msgs.append(_("  {n} hand(s) whose own row was lost were rebuilt from their events", n=report["rebuilt_hands"]))
    if report["stand_in_sessions"]:
        msgs.append(_("  {n} lost session(s) got a stand-in row", n=report["stand_in_sessions"]))
    msgs.append(_("  tables the damage cut short: {tables} (look: dealer-assist review --db {db})",
                  tables=join([_LOG_TABLES.get(d, d) for d in damaged], _p("log table", ", ")) if damaged
                  else _("none"), db=report["to"]))
    lines = [render(m, lang) for m in msgs]
    return "\n".join(lines)


def run(args) -> int:
    from dealer_assist.live.handlog import list_hands, load_hand, load_snapshot, salvage

    refuse_overwrite(args.export, "--export", db=None if args.central else args.db)
    if args.export_phh:
        from dealer_assist.phh import export_command
        return export_command(args)
    if args.central:
        from dealer_assist.central.review import run_central
        return run_central(args)
    if args.table:
        raise UserError(_("--table goes with --central (a table's own log is --db)"))
    if args.salvage:
        if args.hand is not None or args.export or args.snapshots:
            raise UserError(_("--salvage DAMAGED NEW works on its own: give no HAND, --export or --snapshots"))
        report = salvage(*args.salvage)
        if args.json:
            print(json.dumps(report, ensure_ascii=False, indent=2))
        else:
            print(format_salvage(report, args.lang))
        return 0
    if args.hand is None:
        if args.export or args.snapshots:
            raise UserError(_("--export and --snapshots need a HAND (SESSION:HAND such as 2:3; "
                              "dealer-assist review lists them)"))
        hands = list_hands(args.db, session=args.session)
        if args.json:
            print(json.dumps(hands, ensure_ascii=False, indent=2))
        elif not hands:
            print(_("{db}: no hands logged yet", db=args.db).render(args.lang))
        else:
            print(format_list(hands, args.lang))
        return 0

    hand = load_hand(args.db, _hand_ref(args.hand))
    show_hand(hand, args, lambda snap_id: load_snapshot(args.db, snap_id))
    return 0


def show_hand(hand: dict, args, snapshot: Callable[[Any], bytes]) -> None:
    """One hand as ``review HAND`` gives it (a table's own log or the central one): told, or as
    JSON (``--json``), written to ``--export`` and its snapshots to ``--snapshots`` (``snapshot``
    reads one snapshot's bytes by its id)."""
    text = json.dumps(hand, ensure_ascii=False, indent=2)
    talk = sys.stderr if args.json else sys.stdout
    if args.json:
        print(text)
    elif not (args.export or args.snapshots):
        print(format_hand(hand, args.lang))
    if args.export:
        try:
            with open(args.export, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            raise UserError(_("cannot write {path}: {why}", path=args.export, why=os_reason(exc))) from None
        print(_("wrote hand {ref} to {path}", ref=hand["ref"], path=args.export).render(args.lang), file=talk)
    if args.snapshots:
        damaged: list = []          # a snapshot the disk changed is not written as the hand's evidence
        written = 0
        try:
            os.makedirs(args.snapshots, exist_ok=True)
            names = snapshot_names(hand["snapshots"])
            for snap, name in zip(hand["snapshots"], names):
                try:
                    jpeg = snapshot(snap["id"])
                except UserError:
                    damaged.append(snap["id"])
                    continue
                with open(os.path.join(args.snapshots, name), "wb") as fh:
                    fh.write(jpeg)
                written += 1
        except OSError as exc:
            raise UserError(_("cannot write snapshots to {path}: {why}", path=args.snapshots,
                              why=os_reason(exc))) from None
        print(_n("wrote {n} snapshot of hand {ref} to {path}", "wrote {n} snapshots of hand {ref} to {path}",
                 written, n=written, ref=hand["ref"], path=args.snapshots).render(args.lang), file=talk)
        if damaged:
            raise UserError(_n("snapshot {ids} of hand {ref} is damaged (its bytes are no longer those recorded) "
                               "and was not written", "snapshots {ids} of hand {ref} are damaged (their bytes are "
                               "no longer those recorded) and were not written", len(damaged),
                               ids=", ".join(map(str, damaged)), ref=hand["ref"]))
