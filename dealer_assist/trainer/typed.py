"""A drill for a person at a keyboard: its table in words, and a typed answer read back.

:func:`table_lines` says a drill's table line by line in either language (the terminal drill and
the desk's trainer screen print it); :func:`read_reply` turns what the trainee typed into an
answer of the drill's shape (``{"payouts": {...}}``, ``{"legal": true}``), which
:func:`dealer_assist.trainer.drills.check` then compares with the engine's.  What to type, per
topic, is :func:`reply_help`.

>>> from dealer_assist.trainer.drills import make_drill
>>> d = make_drill("daifugo", 1, seed=1, index=0)
>>> read_reply(d, "y"), read_reply(d, "いいえ")
({'legal': True}, {'legal': False})
>>> read_reply(make_drill("showing-order", 1, 1, 0), "3 1")
{'showdown_order': [3, 1]}

Must not import Qt, the camera or the live pipeline.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from dealer_assist.cards import CardError, parse_card
from dealer_assist.errors import UserError
from dealer_assist.i18n import Text, _, render, seat
from dealer_assist.trainer.drills import Drill

__all__ = ["table_parts", "table_lines", "reply_help", "read_reply", "reply_text"]

_PAYOUT_TOPICS = ("showdown-joker", "showdown-holdem", "odd-chips", "hilo")


def _cards(cards: Any) -> str:
    return " ".join(cards) if cards else "-"


def table_parts(drill: Drill, lang: str) -> tuple[list[str], list[tuple[int, str]], list[str]]:
    """The drill's table in words: the lines before the seats, one line per seat (with its
    number), and the lines after them (the cards in the project's notation)."""
    t = drill.table
    out: list[Text] = []
    seats: list[tuple[int, Text]] = []
    tail: list[Text] = []
    if drill.source is not None:      # a hand from the hand log: which one, and why it is disputed
        from dealer_assist.trainer.fromlog import source_lines
        out += source_lines(drill, lang)
    if drill.topic == "burn-swap":
        out.append(_("Stub, top card first: {cards}", cards=_cards(t["stub"])))
    elif drill.topic == "daifugo":
        st = t["state"]
        out.append(_("Seats (clockwise): {seats}; seat {turn} to act", seats=" ".join(map(str, st["seats"])),
                     turn=st["turn"]))
        if st.get("revolution"):
            out.append(_("A revolution is in force."))
        if st.get("direction") == "counterclockwise":
            out.append(_("Play goes counterclockwise (J reverse)."))
        plays = st.get("field") or []
        out.append(_("Field: {plays}", plays=" / ".join(
            f"{p['seat']}: {_cards(p['cards'])}" for p in plays)) if plays else _("Field: empty"))
        if st.get("passed"):
            out.append(_("Passed this round: {seats}", seats=" ".join(map(str, st["passed"]))))
        for s in st["seats"]:
            seats.append((s, _("{seat}: holds {cards}", seat=seat(s), cards=_cards(st["hands"][str(s)]))))
        p = t["play"]
        tail.append(_("The play: {seat} puts down {cards}", seat=seat(p["seat"]), cards=_cards(p.get("cards"))))
    elif drill.topic == "stud":
        for s in t["seats"]:
            if s.get("folded"):
                seats.append((s["seat"], _("{seat}: folded (open {up}), committed {chips}", seat=seat(s["seat"]),
                                           up=_cards(s.get("up")), chips=s.get("committed", 0))))
            else:
                seats.append((s["seat"], _("{seat}: down {down}, open {up}, committed {chips}", seat=seat(s["seat"]),
                                           down=_cards(s.get("down")), up=_cards(s.get("up")),
                                           chips=s.get("committed", 0))))
    elif drill.topic == "half-texas":
        out.append(_("Board: {cards}; raises: {n}", cards=_cards(t["board"]), n=t.get("raises", 0)))
        for s in t["seats"]:
            if s.get("folded"):
                seats.append((s["seat"], _("{seat}: folded; {bp}BP {rp}RP", seat=seat(s["seat"]), bp=s["bp"],
                                           rp=s["rp"])))
            else:
                line = _("{seat}: {cards}; {bp}BP {rp}RP", seat=seat(s["seat"]), cards=_cards(s["hole"]),
                         bp=s["bp"], rp=s["rp"])
                seats.append((s["seat"], line + _(" (raised)") if s.get("raised") else line))
    else:
        board = t.get("board")
        if not board:         # a draw game from the hand log (lowball): no board, no river
            if t.get("button") is not None:
                out.append(_("Button: {seat}", seat=seat(t["button"])))
            if t.get("last_aggressor") is not None:
                out.append(_("Last bet or raise in the last round: {seat}", seat=seat(t["last_aggressor"])))
            else:
                out.append(_("No bet in the last round: checked around."))
        else:
            if t.get("button") is not None:
                out.append(_("Board: {cards}; button: {seat}", cards=_cards(board), seat=seat(t["button"])))
            else:     # a hand from the log whose button the camera did not see
                out.append(_("Board: {cards}", cards=_cards(board)))
            if t.get("last_aggressor") is not None:
                out.append(_("Last bet or raise on the river: {seat}", seat=seat(t["last_aggressor"])))
            else:
                out.append(_("No bet on the river: checked around."))
        if t.get("low_qualifier"):
            out.append(_("Low: {q} or better", q=t["low_qualifier"]))
        for s in t["seats"]:
            if s.get("folded"):
                seats.append((s["seat"], _("{seat}: folded, committed {chips}", seat=seat(s["seat"]),
                                           chips=s.get("committed", 0))))
            else:
                seats.append((s["seat"], _("{seat}: {cards}, committed {chips}", seat=seat(s["seat"]),
                                           cards=_cards(s.get("hole")), chips=s.get("committed", 0))))
    return ([render(x, lang) for x in out], [(n, render(x, lang)) for n, x in seats],
            [render(x, lang) for x in tail])


def table_lines(drill: Drill, lang: str) -> list[str]:
    """The drill's table in words, one line each (the cards in the project's notation)."""
    head, seats, tail = table_parts(drill, lang)
    return head + [line for _n, line in seats] + tail




def reply_help(drill: Drill) -> Text:
    """What to type for this drill's topic."""
    topic = drill.topic
    if topic in _PAYOUT_TOPICS:
        return _("Type the chips each seat gets, seat:chips, e.g. 1:200 3:0 (a seat not named gets 0).")
    if topic == "side-pots":
        return _("Type the chips per seat, then | and each pot as amount:seats, main pot first, "
                 "e.g. 1:300 2:120 | 300:1,2,3 120:2,3")
    if topic == "showing-order":
        return _("Type the seats in the order they show, e.g. 3 5 1")
    if topic == "half-texas":
        return _("Type each seat's change as seat:BP/RP, e.g. 1:+3/+2 2:-1/0 (a seat not named: 0/0).")
    if topic == "stud":
        return _("Type the first seat to act | the showing order | the seats that open, e.g. 4 | 4 1 2 | 4 2")
    if topic == "burn-swap":
        return _("Type the number of burn cards after the swap and the next street's board card "
                 "(- after the river), e.g. 2 9h")
    return _("Type y if the play is legal, n if not.")


_SEAT_AMOUNT = re.compile(r"^(\d+)[:=](-?\d+)$")


def _bad(text: str) -> UserError:
    return UserError(_("cannot read {text}: {help}", text=f"「{text.strip()[:40]}」", help=_("see the line above")))


def _seat_amounts(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for tok in text.replace(",", " ").split():
        m = _SEAT_AMOUNT.match(tok)
        if not m:
            raise _bad(tok)
        out[str(int(m.group(1)))] = int(m.group(2))
    return out


def _seat_numbers(text: str) -> list[int]:
    toks = text.replace(",", " ").split()
    if not all(t.isdigit() for t in toks):
        raise _bad(text)
    return [int(t) for t in toks]


def read_reply(drill: Drill, text: str) -> dict:
    """What the trainee typed, as an answer of the drill's shape; :class:`UserError` if unreadable."""
    text = text.strip()
    if not text:
        raise _bad(text)
    topic = drill.topic
    if topic in _PAYOUT_TOPICS:
        return {"payouts": _seat_amounts(text)}
    if topic == "side-pots":
        chips, _sep, pots_text = text.partition("|")
        pots = []
        for tok in pots_text.split():
            amount, colon, seats = tok.partition(":")
            if not colon or not amount.isdigit():
                raise _bad(tok)
            pots.append({"amount": int(amount), "eligible": _seat_numbers(seats)})
        return {"payouts": _seat_amounts(chips), "pots": pots}
    if topic == "showing-order":
        return {"showdown_order": _seat_numbers(text)}
    if topic == "half-texas":
        points = {}
        for tok in text.split():
            m = re.match(r"^(\d+)[:=]([+-]?\d+)/([+-]?\d+)$", tok)
            if not m:
                raise _bad(tok)
            points[str(int(m.group(1)))] = {"bp": int(m.group(2)), "rp": int(m.group(3))}
        return {"points": points}
    if topic == "stud":
        parts = text.split("|")
        if len(parts) != 3:
            raise _bad(text)
        first = _seat_numbers(parts[0])
        if len(first) != 1:
            raise _bad(parts[0])
        return {"first_to_act": first[0], "showdown_order": _seat_numbers(parts[1]),
                "shown": _seat_numbers(parts[2])}
    if topic == "burn-swap":
        toks = text.split()
        if len(toks) != 2 or not toks[0].isdigit():
            raise _bad(text)
        card = None
        if toks[1] not in ("-", "ー", "なし"):
            try:
                card = str(parse_card(toks[1]))
            except CardError:
                raise _bad(toks[1]) from None
        return {"burns_after_swap": int(toks[0]), "next_board_card": card}
    word = text.lower()
    if word in ("y", "yes", "o", "○", "はい", "true", "legal"):
        return {"legal": True}
    if word in ("n", "no", "x", "×", "いいえ", "false", "illegal"):
        return {"legal": False}
    raise _bad(text)


def answer_of(drill: Drill) -> Mapping[str, Any]:
    """The engine's answer as the trainee would give it (the asked fields only)."""
    from dealer_assist.trainer.drills import TOPICS
    return {k: drill.answer[k] for k in TOPICS[drill.topic].asks}


def reply_text(drill: Drill) -> str:
    """The engine's answer as the trainee would type it (:func:`read_reply` reads it back).

    >>> from dealer_assist.trainer.drills import TOPICS, make_drill, check
    >>> all(check(d, read_reply(d, reply_text(d))).right
    ...     for d in (make_drill(t, lv, 2, 0) for t in TOPICS for lv in (1, 2, 3)))
    True
    """
    a, topic = drill.answer, drill.topic
    chips = " ".join(f"{s}:{v}" for s, v in a.get("payouts", {}).items())
    if topic in _PAYOUT_TOPICS:
        return chips
    if topic == "side-pots":
        return chips + " | " + " ".join(f"{p['amount']}:{','.join(map(str, p['eligible']))}" for p in a["pots"])
    if topic == "showing-order":
        return " ".join(map(str, a["showdown_order"]))
    if topic == "half-texas":
        return " ".join(f"{s}:{p['bp']:+d}/{p['rp']:+d}" for s, p in a["points"].items())
    if topic == "stud":
        return f"{a['first_to_act']} | {' '.join(map(str, a['showdown_order']))} | {' '.join(map(str, a['shown']))}"
    if topic == "burn-swap":
        return f"{a['burns_after_swap']} {a['next_board_card'] or '-'}"
    return "y" if a["legal"] else "n"
