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
import json
import os
import sys
import unicodedata
from typing import Any, Optional

from dealer_assist.errors import UserError
from dealer_assist.live.words import cards_text, pays_text, seat_text, describe, describe_correction

DEFAULT_DB = "hand-log.sqlite"   # the same default as ``dealer-assist run --db``

def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review",
        help="list logged hands, or tell one hand (events, corrections, ruling) for a dispute",
        description="Read the hand log written by dealer-assist run. With no HAND, list the hands "
                    "(newest last); with HAND (SESSION:HAND as the list shows it, such as 2:3, or "
                    "the hand's row id), tell that hand in time order with its corrections and the "
                    "ruling's explanation. --salvage DAMAGED NEW copies what is still readable out "
                    "of a damaged log into a new one.",
    )
    p.add_argument("hand", nargs="?", metavar="HAND",
                   help="SESSION:HAND from the list (2:3 = session 2, hand 3), or the hand's row id")
    p.add_argument("--db", metavar="FILE", default=DEFAULT_DB, help=f"hand log (default {DEFAULT_DB})")
    p.add_argument("--session", type=int, metavar="N", help="list only the hands of session N")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--export", metavar="FILE", help="write the hand as JSON to FILE")
    p.add_argument("--snapshots", metavar="DIR", help="write the hand's JPEG snapshots into DIR")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the text")
    p.add_argument("--salvage", nargs=2, metavar=("DAMAGED", "NEW"),
                   help="copy every hand, event and snapshot SQLite can still read out of the damaged "
                        "log DAMAGED into the new log NEW (DAMAGED is only read)")
    p.set_defaults(func=run)


#: a hand's status in words: (English, Japanese)
STATUS_WORDS = {"ended": ("ended", "終了"), "open": ("in progress", "進行中"),
                "interrupted": ("interrupted", "中断")}
#: ... and told in full in a hand's header
STATUS_LONG = {"ended": ("ended", "終了"), "open": ("in progress (still being played)", "進行中（記録中）"),
               "interrupted": ("interrupted (never ended: the run stopped during the hand)",
                               "中断（ハンドの途中で記録が止まりました）")}


def status_text(status: str, lang: str = "en", long: bool = False) -> str:
    """A hand's status (``ended``, ``open``, ``interrupted``) for people."""
    en, ja = (STATUS_LONG if long else STATUS_WORDS).get(status, (status, status))
    return ja if lang == "ja" else en


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


def _stamp(t: Any, frame: Any) -> str:
    ts = f"{t:8.2f} s" if isinstance(t, (int, float)) else " " * 10
    fr = f"frame {frame:>6}" if isinstance(frame, int) else " " * 12
    return f"{ts}  {fr}"


# -- output -------------------------------------------------------------------------------------
def format_list(hands: list[dict], lang: str = "en") -> str:
    """The hands as a table, one line each, newest last."""
    ja = lang == "ja"
    head = (["ハンド", "ID", "開始", "状態", "ボード", "勝者", "配当", "訂正"] if ja else
            ["hand", "id", "started", "status", "board", "winners", "payouts", "corrections"])
    rows = []
    for h in hands:
        status = status_text(h["status"], lang)
        winners = ", ".join(str(s) for s in h["winners"]) or "-"
        if h.get("won_without_showdown") is not None:
            winners += "（SDなし）" if ja else " (no showdown)"
        pays = ", ".join(f"{s}:{v}" for s, v in h["payouts"].items() if v) or "-"
        rows.append([f"{h['session']}:{h['hand']}", str(h["id"]), _when(h["started"]), status,
                     cards_text(h["board"]), winners, pays, str(h["corrections"])])
    widths = [max(_width(r[i]) for r in [head] + rows) for i in range(len(head))]
    right = {1, 7}
    lines = ["  ".join(_pad(c, w, i in right) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in [head] + rows]
    example = f"{hands[-1]['session']}:{hands[-1]['hand']}" if hands else "1:1"
    note = (f"（ハンドは セッション:ハンド番号、配当は シート:額。ハンドの詳細: dealer-assist review {example}、"
            f"ID でも可）" if ja else
            f"(hand is session:hand; payouts are seat:amount; one hand in full: "
            f"dealer-assist review {example}, or by its id)")
    return "\n".join(lines + [note])


def format_hand(hand: dict, lang: str = "en") -> str:
    """One hand told for a dispute: header, events in time order, corrections, the ruling."""
    ja = lang == "ja"
    sess = hand.get("session") or {}
    out = []
    status = status_text(hand["status"], lang, long=True)
    session_no = sess.get("id") if isinstance(sess, dict) else sess
    ref = hand.get("ref") or f"{session_no}:{hand['hand']}"
    if ja:
        out.append(f"ハンド {ref}（セッション{session_no}の第{hand['hand']}ハンド、ID {hand['id']}）: {status}")
        out.append(f"  このハンドを開く: dealer-assist review {ref}")
        out.append(f"  開始 {_when(hand['started'])}  終了 {_when(hand['ended'], hand['started'])}")
        out.append(f"  映像 {sess.get('source')}  ゲーム {sess.get('game')}"
                   + (f"  キャリブレーション {sess['calibration']}" if sess.get("calibration") else ""))
        if hand.get("seats"):
            out.append(f"  参加 シート {', '.join(map(str, hand['seats']))}（ボタン シート{hand.get('button')}）")
        out.append(f"  ボード {cards_text(hand['board'])}")
        win = "、".join(f"シート{s}" for s in hand["winners"]) or "-"
        pays = pays_text(hand["payouts"], True)
        out.append(f"  勝者 {win}" + (f"  {pays}" if pays else ""))
    else:
        out.append(f"Hand {ref}: hand {hand['hand']} of session {session_no} (id {hand['id']}): {status}")
        out.append(f"  open it with: dealer-assist review {ref}")
        out.append(f"  started {_when(hand['started'])}, ended {_when(hand['ended'], hand['started'])}")
        out.append(f"  source {sess.get('source')}, game {sess.get('game')}"
                   + (f", calibration {sess['calibration']}" if sess.get("calibration") else ""))
        if hand.get("seats"):
            out.append(f"  seats dealt {', '.join(map(str, hand['seats']))} (button seat {hand.get('button')})")
        out.append(f"  board {cards_text(hand['board'])}")
        win = ", ".join(f"seat {s}" for s in hand["winners"]) or "-"
        pays = pays_text(hand["payouts"], False)
        out.append(f"  winner{'s' if len(hand['winners']) > 1 else ''} {win}" + (f"; {pays}" if pays else ""))
    if hand.get("won_without_showdown") is not None:
        s = hand["won_without_showdown"]
        out.append(f"  シート{s}がショーダウンなしで獲得" if ja else f"  seat {s} won without a showdown")

    out.append("")
    out.append("経過（時刻・フレーム・出来事）:" if ja else "Events (time, frame, what happened):")
    corr = hand["corrections"]
    due = sorted(range(len(corr)), key=lambda j: corr[j].get("before_event", len(hand["events"])))
    for i, ev in enumerate(hand["events"] + [None]):
        while due and corr[due[0]].get("before_event", len(hand["events"])) <= i:
            c = corr[due.pop(0)]
            label = "ディーラー訂正" if ja else "DEALER CORRECTION"
            out.append(f"  {_stamp(c.get('t'), c.get('frame'))}  {label} {describe_correction(c, lang)}")
        if ev is not None:
            out.append(f"  {_stamp(ev.get('t'), ev.get('frame'))}  {describe(ev, lang)}")

    out.append("")
    out.append(f"ディーラーの訂正 {len(corr)} 件:" if ja else f"Dealer corrections ({len(corr)}):")
    for c in corr:
        out.append(f"  {_stamp(c.get('t'), c.get('frame'))}  {describe_correction(c, lang)}")
    if not corr:
        out.append("  なし" if ja else "  none")

    out.append("")
    ruling = hand.get("ruling")
    out.append("裁定:" if ja else "Ruling:")
    lines = (ruling or {}).get("explanation_ja" if ja else "explanation") or []
    for line in lines:
        out.append(f"  {line}")
    if not ruling:
        out.append("  裁定は記録されていません" if ja else "  no ruling was recorded for this hand")
    snaps = hand.get("snapshots") or []
    if snaps:
        out.append("")
        out.append(f"スナップショット {len(snaps)} 枚（--snapshots DIR で保存）" if ja else
                   f"{len(snaps)} snapshot{'s' if len(snaps) != 1 else ''} (--snapshots DIR writes them)")
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


def format_salvage(report: dict, lang: str = "en") -> str:
    """What ``--salvage`` kept, in a few lines."""
    t = report["tables"]
    hands = report["hands"]
    damaged = sorted(k for k, v in report["damaged_at"].items() if v)
    span = f"{hands[0]} .. {hands[-1]}" if hands else "-"
    if lang == "ja":
        lines = [f"{report['from']} から読み出せた内容を {report['to']} に写しました:",
                 f"  ハンド {len(hands)}（{span}）、イベント {t.get('events', 0)}、訂正 {t.get('corrections', 0)}、"
                 f"スナップショット {t.get('snapshots', 0)}、セッション {t.get('sessions', 0)}"]
        if report["rebuilt_hands"]:
            lines.append(f"  ハンドの行が失われていた {report['rebuilt_hands']} ハンドはイベントから復元しました")
        if report["stand_in_sessions"]:
            lines.append(f"  失われたセッション {report['stand_in_sessions']} 件は仮の行で補いました")
        lines.append("  損傷で読めなかった表: " + (", ".join(damaged) if damaged else "なし")
                     + f"（確認: dealer-assist review --db {report['to']}）")
    else:
        lines = [f"salvaged what {report['from']} still holds into {report['to']}:",
                 f"  {len(hands)} hand{'s' if len(hands) != 1 else ''} ({span}), {t.get('events', 0)} events, "
                 f"{t.get('corrections', 0)} corrections, {t.get('snapshots', 0)} snapshots, "
                 f"{t.get('sessions', 0)} session{'s' if t.get('sessions', 0) != 1 else ''}"]
        if report["rebuilt_hands"]:
            lines.append(f"  {report['rebuilt_hands']} hand(s) whose own row was lost were rebuilt from their events")
        if report["stand_in_sessions"]:
            lines.append(f"  {report['stand_in_sessions']} lost session(s) got a stand-in row")
        lines.append("  tables the damage cut short: " + (", ".join(damaged) if damaged else "none")
                     + f" (look: dealer-assist review --db {report['to']})")
    return "\n".join(lines)


def run(args) -> int:
    from dealer_assist.live.handlog import list_hands, load_hand, load_snapshot, salvage

    if args.salvage:
        if args.hand is not None or args.export or args.snapshots:
            raise UserError("--salvage DAMAGED NEW works on its own: give no HAND, --export or --snapshots")
        report = salvage(*args.salvage)
        if args.json:
            print(json.dumps(report, ensure_ascii=False, indent=2))
        else:
            print(format_salvage(report, args.lang))
        return 0
    if args.hand is None:
        if args.export or args.snapshots:
            raise UserError("--export and --snapshots need a HAND (SESSION:HAND such as 2:3; "
                            "dealer-assist review lists them)")
        hands = list_hands(args.db, session=args.session)
        if args.json:
            print(json.dumps(hands, ensure_ascii=False, indent=2))
        elif not hands:
            print(f"{args.db}: まだハンドがありません" if args.lang == "ja" else f"{args.db}: no hands logged yet")
        else:
            print(format_list(hands, args.lang))
        return 0

    hand = load_hand(args.db, _hand_ref(args.hand))
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
            raise UserError(f"cannot write {args.export}: {exc.strerror or exc}") from None
        print(f"ハンド {hand['ref']} を {args.export} に書き出しました" if args.lang == "ja" else
              f"wrote hand {hand['ref']} to {args.export}", file=talk)
    if args.snapshots:
        try:
            os.makedirs(args.snapshots, exist_ok=True)
            names = snapshot_names(hand["snapshots"])
            for snap, name in zip(hand["snapshots"], names):
                with open(os.path.join(args.snapshots, name), "wb") as fh:
                    fh.write(load_snapshot(args.db, snap["id"]))
        except OSError as exc:
            raise UserError(f"cannot write snapshots to {args.snapshots}: {exc.strerror or exc}") from None
        print(f"ハンド {hand['ref']} のスナップショット {len(names)} 枚を {args.snapshots} に書き出しました"
              if args.lang == "ja" else
              f"wrote {len(names)} snapshot{'s' if len(names) != 1 else ''} of hand {hand['ref']} "
              f"to {args.snapshots}", file=talk)
    return 0
