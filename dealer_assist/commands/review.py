"""``dealer-assist review``: the hand log read back, for floor managers settling a dispute.

``dealer-assist review [--db FILE]`` lists the logged hands, newest last. ``review HAND`` tells one
hand in time order (events, the dealer's corrections, the ruling's explanation); ``--lang ja`` in
Japanese. ``--json`` prints the hand (or, with no HAND, the list) as JSON, ``--export FILE`` writes
the hand's JSON to a file and ``--snapshots DIR`` writes its JPEG snapshots (the decisive frames).
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
                    "(newest last); with HAND (the id column of that list), tell that hand in time "
                    "order with its corrections and the ruling's explanation.",
    )
    p.add_argument("hand", nargs="?", metavar="HAND", help="a hand id from the list")
    p.add_argument("--db", metavar="FILE", default=DEFAULT_DB, help=f"hand log (default {DEFAULT_DB})")
    p.add_argument("--session", type=int, metavar="N", help="list only the hands of session N")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--export", metavar="FILE", help="write the hand as JSON to FILE")
    p.add_argument("--snapshots", metavar="DIR", help="write the hand's JPEG snapshots into DIR")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the text")
    p.set_defaults(func=run)


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
    head = (["ID", "セッション", "ハンド", "開始", "状態", "ボード", "勝者", "配当", "訂正"] if ja else
            ["id", "session", "hand", "started", "status", "board", "winners", "payouts", "corrections"])
    rows = []
    for h in hands:
        status = h["status"]
        if ja:
            status = {"ended": "終了", "open": "未終了"}.get(status, status)
        winners = ", ".join(str(s) for s in h["winners"]) or "-"
        if h.get("won_without_showdown") is not None:
            winners += "（SDなし）" if ja else " (no showdown)"
        pays = ", ".join(f"{s}:{v}" for s, v in h["payouts"].items() if v) or "-"
        rows.append([str(h["id"]), str(h["session"]), str(h["hand"]), _when(h["started"]), status,
                     cards_text(h["board"]), winners, pays, str(h["corrections"])])
    widths = [max(_width(r[i]) for r in [head] + rows) for i in range(len(head))]
    right = {0, 1, 2, 8}
    lines = ["  ".join(_pad(c, w, i in right) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in [head] + rows]
    note = ("（配当は シート:額。ハンドの詳細: dealer-assist review ID）" if ja else
            "(payouts are seat:amount; one hand in full: dealer-assist review ID)")
    return "\n".join(lines + [note])


def format_hand(hand: dict, lang: str = "en") -> str:
    """One hand told for a dispute: header, events in time order, corrections, the ruling."""
    ja = lang == "ja"
    sess = hand.get("session") or {}
    out = []
    status = {"ended": "終了", "open": "未終了（記録途中で停止）"} if ja else {"ended": "ended", "open": "open (never ended)"}
    if ja:
        out.append(f"第{hand['hand']}ハンド（セッション{sess.get('id')}、ID {hand['id']}）: {status.get(hand['status'], hand['status'])}")
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
        out.append(f"Hand {hand['hand']} of session {sess.get('id')} (id {hand['id']}): "
                   f"{status.get(hand['status'], hand['status'])}")
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


def _hand_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UserError(f"HAND is a hand id (the id column of dealer-assist review), not {text!r}") from None
    if value < 1:
        raise UserError(f"HAND is a hand id >= 1, not {value}")
    return value


def run(args) -> int:
    from dealer_assist.live.handlog import list_hands, load_hand, load_snapshot

    if args.hand is None:
        if args.export or args.snapshots:
            raise UserError("--export and --snapshots need a HAND id (dealer-assist review lists them)")
        hands = list_hands(args.db, session=args.session)
        if args.json:
            print(json.dumps(hands, ensure_ascii=False, indent=2))
        elif not hands:
            print(f"{args.db}: まだハンドがありません" if args.lang == "ja" else f"{args.db}: no hands logged yet")
        else:
            print(format_list(hands, args.lang))
        return 0

    hand = load_hand(args.db, _hand_id(args.hand))
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
        print(f"wrote hand {hand['id']} to {args.export}", file=talk)
    if args.snapshots:
        try:
            os.makedirs(args.snapshots, exist_ok=True)
            names = snapshot_names(hand["snapshots"])
            for snap, name in zip(hand["snapshots"], names):
                with open(os.path.join(args.snapshots, name), "wb") as fh:
                    fh.write(load_snapshot(args.db, snap["id"]))
        except OSError as exc:
            raise UserError(f"cannot write snapshots to {args.snapshots}: {exc.strerror or exc}") from None
        print(f"wrote {len(names)} snapshot{'s' if len(names) != 1 else ''} of hand {hand['id']} "
              f"to {args.snapshots}", file=talk)
    return 0
