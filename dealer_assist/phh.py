"""Hands as Poker Hand History files (PHH, the format pokerkit reads and writes), so other poker
tools can read an event's hands: ``dealer-assist review --export-phh DIR`` (a table's log, or the
central log with ``--central``).

What the camera and the dealer's inputs know goes into PHH's own fields: the variant (``NT``),
the players in PHH's order (from the seat left of the button), the cards dealt to each seat and
to the board, the cards shown at the showdown, and each seat's chips. The camera does not see the
bets, only what each seat put in the pot in all: ``starting_stacks`` are those chips (the stacks
*of this pot*), ``winnings`` what each seat won, and no betting actions are written. What PHH
cannot say is in user-defined fields (``_`` first): the joker (PHH has no joker card: it is
written ``??`` in the deal, and ``_joker_seats`` / ``_joker_as`` say whose it was and what it
stood for), the house game and its rules, the ruling's explanation, the dealer's corrections,
and cards withheld from the central log.

Pure: no I/O but :func:`export_command`'s writing of the files.

>>> hand = {"ref": "1:1", "hand": 1, "button": 5, "seats": [1, 3, 5], "board": ["9s", "6h", "2c", "Kd", "4s"],
...         "events": [{"type": "showdown", "table": {"seats": [
...             {"seat": 1, "hole": ["Ks", "JK"], "committed": 150}, {"seat": 3, "committed": 50, "folded": True},
...             {"seat": 5, "hole": ["9c", "9h"], "committed": 150}]},
...             "ruling": {"payouts": {"1": 0, "3": 0, "5": 350}, "showdown_order": [1, 5],
...                        "hands": {"1": {"joker_as": "Kh"}}}}],
...         "ruling": {"payouts": {"1": 0, "3": 0, "5": 350}, "showdown_order": [1, 5],
...                    "hands": {"1": {"joker_as": "Kh"}}}, "session": {"game": "joker-holdem"}}
>>> text = hand_phh(hand)
>>> print("\\n".join(l for l in text.splitlines() if l.startswith(("variant", "players", "starting", "_joker"))))
variant = "NT"
starting_stacks = [150, 50, 150]
players = ["seat 1", "seat 3", "seat 5"]
_joker_seats = [1]
_joker_as = ["seat 1: Kh"]
"""
from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Iterable, Optional

from dealer_assist.errors import UserError
from dealer_assist.i18n import _, _n, os_reason

__all__ = ["hand_phh", "phh_name", "export_command"]

_CARD = re.compile(r"^[AKQJT98765432][shdc]$")

def _house_rules(game: Any) -> Optional[str]:
    """The house rules a PHH file of ``game`` names (the registry's ``phh``), or None where PHH
    cannot hold the game's hands."""
    from dealer_assist.games import UnknownGame, find_game

    try:
        return find_game(game).phh
    except UnknownGame:
        return None


def _phh_cards(cards: Iterable[Any]) -> str:
    """Cards as PHH writes them (``KsJK`` -> ``Ks??``: PHH has no joker; unknown cards ``??``)."""
    return "".join(c if isinstance(c, str) and _CARD.match(c) else "??" for c in cards)


def _order(seats: list[int], button: Optional[int]) -> list[int]:
    """PHH's player order: clockwise from the seat left of the button (the button last)."""
    seats = sorted(seats)
    if button is None or not seats:
        return seats
    after = [s for s in seats if s > button]
    return after + [s for s in seats if s <= button]


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML for {type(value).__name__}")


def hand_phh(hand: dict, table: Optional[str] = None) -> str:
    """One hand (as ``review`` loads it, from a table's log or the central log) as PHH text."""
    events = hand.get("events") or []
    ruling = hand.get("ruling") or {}
    showdown = next((e for e in events if e.get("type") == "showdown"), None)
    sd_table = (showdown or {}).get("table") or {}
    by_seat = {s.get("seat"): s for s in sd_table.get("seats") or () if isinstance(s, dict)}
    holes: dict[int, list] = {}
    for e in events:
        if e.get("type") == "hole" and isinstance(e.get("seat"), int):
            holes[e["seat"]] = list(e.get("cards") or [])
    for seat, s in by_seat.items():
        if s.get("hole"):
            holes[seat] = list(s["hole"])
    seats = [s for s in (hand.get("seats") or sorted(set(holes) | set(by_seat))) if isinstance(s, int)]
    order = _order(seats, hand.get("button"))
    index = {s: i + 1 for i, s in enumerate(order)}
    payouts = {int(k): int(v) for k, v in (ruling.get("payouts") or {}).items()}
    committed = {s: by_seat.get(s, {}).get("committed") for s in order}
    known = all(isinstance(v, int) for v in committed.values())
    if not known:                 # won without a showdown: only the pot is known, not who put what in
        committed = {s: 0 for s in order}

    actions = [f"d dh p{index[s]} {_phh_cards(holes.get(s) or ['??', '??'])}" for s in order]
    board = [c for c in hand.get("board") or []]
    for cut in (board[:3], board[3:4], board[4:5]):
        if cut:
            actions.append(f"d db {_phh_cards(cut)}")
    shown = [s for s in ruling.get("showdown_order") or () if s in index and holes.get(s)] if showdown else []
    for s in shown:
        actions.append(f"p{index[s]} sm {_phh_cards(holes[s])}")

    hands = ruling.get("hands") or {}
    joker_seats = [s for s in order if "JK" in (holes.get(s) or ())]
    joker_as = [f"seat {s}: {hands.get(str(s), {}).get('joker_as')}" for s in joker_seats
                if hands.get(str(s), {}).get("joker_as")]
    game = _game_of(hand)
    swapped = sum(1 for e in events if e.get("type") == "alert" and e.get("code") == "joker_on_board"
                  and not e.get("cleared"))
    withheld = sum(1 for e in events if e.get("withheld"))
    fields: list[tuple[str, Any]] = [
        ("variant", "NT"),
        ("antes", [0] * len(order)),
        ("blinds_or_straddles", [0] * len(order)),
        ("min_bet", 1),
        ("starting_stacks", [committed[s] for s in order]),
        ("actions", actions),
        ("hand", int(hand.get("hand") or 0)),
        ("seats", order),
        ("seat_count", max(order) if order else 0),
        ("players", [f"seat {s}" for s in order]),
        ("winnings", [payouts.get(s, 0) for s in order]),
    ]
    started = hand.get("started") or ""
    m = re.match(r"(\d{4})-(\d\d)-(\d\d)", started)
    if m:
        fields += [("year", int(m.group(1))), ("month", int(m.group(2))), ("day", int(m.group(3)))]
    fields += [
        ("_dealer_assist_hand", hand.get("ref") or ""),
        ("_dealer_assist_table", table or hand.get("table") or ""),
        ("_game", game),
        ("_house_rules", _house_rules(game) or game),
        ("_stacks_are_chips_committed", True),
        ("_committed_known", known),
        ("_button_seat", hand.get("button") if isinstance(hand.get("button"), int) else 0),
        ("_joker_seats", joker_seats),
        ("_joker_as", joker_as),
        ("_board_joker_swaps", swapped),
        ("_won_without_showdown", hand.get("won_without_showdown") or 0),
        ("_corrections", len(hand.get("corrections") or [])),
        ("_withheld_events", withheld),
        ("_explanation", [str(x) for x in ruling.get("explanation") or []]),
        ("_explanation_ja", [str(x) for x in ruling.get("explanation_ja") or []]),
    ]
    return "".join(f"{k} = {_toml(v)}\n" for k, v in fields)


def _game_of(hand: dict) -> Any:
    return (hand.get("session") or {}).get("game") or hand.get("game") or "joker-holdem"


def phh_name(hand: dict, table: Optional[str] = None) -> str:
    """``t12-2-3.phh``: table, session, hand (file-name safe)."""
    ref = str(hand.get("ref") or f"0:{hand.get('hand', 0)}").replace(":", "-")
    base = f"{table or hand.get('table') or 'table'}-{ref}"
    return re.sub(r"[^\w.\-]", "_", base) + ".phh"


def export_command(args) -> int:
    """``review --export-phh DIR [HAND]`` from ``--db`` or ``--central [--table]``."""
    out = args.export_phh
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise UserError(_("cannot write hand histories to {path}: {why}", path=out, why=os_reason(exc))) from None
    hands: list[dict] = []
    if args.central:
        from dealer_assist.central.reader import CentralLog

        with CentralLog(args.central) as log:
            refs = [(h["ref"], h["table"]) for h in log.list_hands(args.table)
                    if args.session is None or h["session"] == args.session]
            if args.hand is not None:
                refs = [(args.hand, args.table)]
            hands = [log.load_hand(ref, table) for ref, table in refs]
    else:
        from dealer_assist.commands.review import _hand_ref
        from dealer_assist.live.handlog import list_hands, load_hand

        if args.hand is not None:
            hands = [load_hand(args.db, _hand_ref(args.hand))]
        else:
            hands = [load_hand(args.db, h["ref"]) for h in list_hands(args.db, session=args.session)]
    other = [h for h in hands if _house_rules(_game_of(h)) is None]
    hands = [h for h in hands if _house_rules(_game_of(h)) is not None]
    if other:
        games = ", ".join(sorted({str(_game_of(h)) for h in other}))
        from dealer_assist.games import GAMES

        can = ", ".join(g.name for g in GAMES if g.phh is not None)
        print(_n("{n} hand of {games} left out: the PHH export writes hold'em hands ({can})",
                 "{n} hands of {games} left out: the PHH export writes hold'em hands ({can})",
                 len(other), n=len(other), games=games, can=can).render(args.lang), file=sys.stderr)
    if not hands:
        print(_("no hands to write").render(args.lang))
        return 0
    table = args.table or (None if args.central else os.path.splitext(os.path.basename(args.db))[0])
    try:
        for h in hands:
            with open(os.path.join(out, phh_name(h, h.get("table") or table)), "w", encoding="utf-8") as fh:
                fh.write(hand_phh(h, h.get("table") or table))
    except OSError as exc:
        raise UserError(_("cannot write hand histories to {path}: {why}", path=out, why=os_reason(exc))) from None
    print(_("wrote {n} hand histories (PHH) to {path}", n=len(hands), path=out).render(args.lang))
    return 0
