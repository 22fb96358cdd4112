"""Events told in plain words, English or Japanese: the commentary of ``run``, ``review`` and the desk.

Every word comes from the message catalogues (:mod:`dealer_assist.i18n`); an alert is told by its
title (:data:`ALERT_TITLES`, which the desk's banner shows too), never by its code.

Words are an edge of the program, as the events file is: :func:`describe` and :func:`line` take
the table's event (:class:`~dealer_assist.live.events.TableEvent`, live) or its stored event line
(the hand log's rows, which ``review`` and the central floor read) and word the line, so one
table event reads the same live and from the log.

>>> describe({"type": "board", "street": "turn", "cards": ["Ks", "Js", "6s", "4d"]})
'turn: board Ks Js 6s 4d'
>>> line({"t": 4.2, "frame": 63, "type": "board", "hand": 1, "street": "flop",
...       "cards": ["Ks", "Js", "6s"]}, "ja")
'[   4.2秒] 第1ハンド フロップ: ボード Ks Js 6s'
"""
from __future__ import annotations

import json
from typing import Any, Optional

from dealer_assist.cards import card_or_none
from dealer_assist.i18n import Msg, _, _n, _p, join, render, seat, seat_list, street, zone
from dealer_assist.live.events import TableEvent
from dealer_assist.live.handlog import DAMAGED_LINE
from dealer_assist.live.ruling import read_offered, ruling_or_none

#: alert code -> its title: the desk's banner headline and the commentary's name for the alert.
ALERT_TITLES: dict[str, Msg] = {
    "joker_on_board": _("JOKER ON THE BOARD: burn-swap"),
    "duplicate_card": _("SAME CARD SEEN TWICE"),
    "unreadable_card": _("CARD CANNOT BE READ"),
    "sixth_board_card": _("EXTRA CARD ON THE BOARD"),
    "wrong_street": _("BOARD OUT OF ORDER"),
    "chips_missing": _("CHIPS NOT ENTERED"),
    "ruling_error": _("NO RULING"),
    "no_showdown_seen": _("NO SHOWDOWN SEEN"),
    "camera_lost": _("CAMERA LOST"),
    "picture_frozen": _("CAMERA PICTURE FROZEN"),
    "picture_dark": _("CAMERA PICTURE DARK"),
    "picture_washed": _("CAMERA PICTURE WASHED OUT"),
    "picture_blurred": _("CAMERA OUT OF FOCUS: CARDS NOT SURE"),
    "camera_moved": _("CAMERA MOVED: ZONES OFF THE CARDS"),
    "camera_unwatched": _("CAMERA PLACE NOT WATCHED"),
    "small_cards": _("CARDS SMALL IN THE CAMERA'S VIEW"),
    "camera_back": _("CAMERA BACK"),
    "frame_unreadable": _("FRAME UNREADABLE"),
    "source_ended": _("RECORDING ENDED"),
    "pipeline_stopped": _("STOPPED: NO MORE READINGS"),
    "bad_action": _("INPUT REFUSED"),
    "correction_refused": _("CORRECTION REFUSED"),
    "correction_stands": _("CORRECTED BY THE DEALER"),
    "fold_undone": _("NOT A FOLD: CARDS BACK"),
    "font_missing": _("NO JAPANESE FONT"),
    "falling_behind": _("FALLING BEHIND: RULING WAITS"),
    "provisional_ruling": _("PROVISIONAL RULING: CONFIRM THE MARKED CARDS"),
    "ruling_unconfirmed": _("HAND PAID ON A PROVISIONAL RULING"),
    "wrong_card_count": _("WRONG NUMBER OF CARDS"),
    "not_in_deck": _("CARD NOT IN THE 26-CARD DECK"),
    "illegal_play": _("ILLEGAL PLAY"),
    "joker_declaration": _("DECLARE THE JOKER"),
    "no_game": _("NO GAME STARTED"),
    "play_error": _("PLAY CANNOT BE RULED"),
}


#: alert code -> its title when the card it is about was not read surely (the alert's ``sure``
#: is false): the headline asks, it does not tell.
UNSURE_TITLES: dict[str, Msg] = {
    "joker_on_board": _("JOKER ON THE BOARD? Look at the card"),
}


def alert_title(code: str, lang: str, sure: Any = True) -> str:
    """An alert's title in ``lang`` (an unknown code: the code in capitals, in both languages);
    ``sure`` False (the alert's own ``sure``: its card not read surely) asks instead, where the
    code has such a title.

    >>> alert_title("joker_on_board", "en"), alert_title("joker_on_board", "en", sure=False)
    ('JOKER ON THE BOARD: burn-swap', 'JOKER ON THE BOARD? Look at the card')
    """
    m = (UNSURE_TITLES.get(code) if sure is False else None) or ALERT_TITLES.get(code)
    return m.render(lang) if m is not None else str(code).replace("_", " ").upper()


def cards_text(cards: Any) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def seat_text(s: Any, ja: bool) -> str:
    return seat(s).render("ja" if ja else "en")


def _pays(payouts: Optional[dict]) -> Optional[Msg]:
    paid = [(s, v) for s, v in (payouts or {}).items() if v]
    if not paid:
        return None
    return _("pays {list}", list=join([_("seat {seat} {amount}", seat=s, amount=v) for s, v in paid],
                                      _p("payouts", ", ")))


def pays_text(payouts: Optional[dict], ja: bool) -> str:
    return render(_pays(payouts), "ja" if ja else "en")


def placed_cards(cards: Any, offered: bool = False) -> Any:
    """``[{"zone": "seat2", "card": "Ks", "or": "Kc"}, {"zone": "board4", "card": "7c"}, ...]`` in
    words: ``seat 2 Ks, board 4 7c``; with ``offered`` (a ruling's doubtful cards) each card's
    ``"or"`` too, the reader's likeliest other name for it, what the dealer should check it
    against: ``seat 2 Ks (or Kc?), board 4 7c``."""
    other = {(z, c): o for z, c, o in read_offered(cards)} if offered else {}

    def one(z: Any, c: Any) -> Msg:
        if (z, c) in other:
            return _("{zone} {card} (or {other}?)", zone=zone(z), card=c, other=other[(z, c)])
        return _("{zone} {card}", zone=zone(z), card=c)

    items = [one(c.get("zone"), c.get("card")) for c in cards or () if isinstance(c, dict)]
    return join(items, _p("placed cards", ", ")) if items else "-"


#: what ``review`` and the dispute desk say of a hand whose stored ruling cannot be read
RULING_UNREADABLE = _("the ruling stored for this hand cannot be read (the log is damaged): settle the hand "
                      "again from its showdown table")


def _ruling(ev: dict) -> tuple[dict, bool]:
    """An event line's ruling as the words read it, and whether one is there but cannot be read
    (a damaged log: said, not failed on).

    >>> _ruling({"ruling": {"game": "holdem", "payouts": {"1": 20}}})[0]["payouts"], _ruling({})
    ({'1': 20}, ({}, False))
    >>> _ruling({"ruling": "garbage"})
    ({}, True)
    """
    stored = ev.get("ruling")
    if stored is None or ruling_or_none(stored) is None:
        return {}, stored is not None
    return stored, False


def _hands_shown(ruling: dict, lang: str) -> Optional[Msg]:
    ja = lang == "ja"
    hands = ruling.get("hands") or {}
    order = [str(s) for s in ruling.get("showdown_order") or []]
    order += [s for s in hands if s not in order]
    parts = []
    for s in order:
        h = hands.get(s)
        if not h:
            continue
        # the ruling carries each hand's words in both languages: pick them, never re-word them
        what = (h.get("description_ja") or h.get("category_ja")) if ja else (h.get("description") or h.get("category"))
        if h.get("joker_as"):
            parts.append(_("{seat} {hand} (joker as {card})", seat=seat(s), hand=what, card=h["joker_as"]))
        else:
            parts.append(_("{seat} {hand}", seat=seat(s), hand=what))
    return join(parts, _p("hands shown", "; ")) if parts else None


def _colour_points(points: Optional[dict]) -> Optional[Msg]:
    """Half Texas: each seat's BP and RP change (``seat 1 +20 BP +0 RP, seat 2 -0 BP -8 RP``)."""
    if not isinstance(points, dict) or not points:
        return None
    parts = [_("seat {seat} {bp} BP {rp} RP", seat=s, bp=f"{int(p.get('bp', 0)):+d}", rp=f"{int(p.get('rp', 0)):+d}")
             for s, p in points.items() if isinstance(p, dict) and (p.get("bp") or p.get("rp"))]
    return _("points {list}", list=join(parts, _p("payouts", ", "))) if parts else None


def _ledger(ev: dict) -> Msg:
    """Half Texas: the session's ledger after a game."""
    rows = []
    for s, r in (ev.get("seats") or {}).items():
        if r.get("dropped"):
            rows.append(_("seat {seat} out ({bp} BP {rp} RP)", seat=s, bp=r.get("bp"), rp=r.get("rp")))
        else:
            rows.append(_("seat {seat} {bp} BP {rp} RP = {final}", seat=s, bp=r.get("bp"), rp=r.get("rp"),
                          final=r.get("final")))
    text = _("ledger after game {n}: {rows}", n=ev.get("games"), rows=join(rows, _p("payouts", ", ")))
    if ev.get("dropouts"):
        text = _("{ledger}; dropped out: {seats}", ledger=text, seats=seat_list(ev["dropouts"]))
    if ev.get("over"):
        return _("{ledger}; the session is over ({why})", ledger=text, why=ev.get("reason") or "-")
    if ev.get("button") is not None:
        return _("{ledger}; next button seat {seat}", ledger=text, seat=ev["button"])
    return text


def _line_of(ev: "TableEvent | dict") -> dict:
    """The event line to word: a table event's ``to_json()``, a stored line as it is."""
    return ev.to_json() if isinstance(ev, TableEvent) else ev


def describe(ev: "TableEvent | dict", lang: str = "en") -> str:
    """What one logged event means, in plain words.

    >>> describe({"type": "board", "street": "turn", "cards": ["Ks", "Js", "6s", "4d"]})
    'turn: board Ks Js 6s 4d'
    >>> describe({"type": "alert", "code": "duplicate_card", "message": "8c seen twice",
    ...           "message_ja": "8cが2か所に", "card": "8c", "cleared": False}, "ja")
    '！注意 同じカードが2か所: 8cが2か所に'
    """
    return render(_describe(_line_of(ev), lang), lang)


def dealt_text(seats: Any, button: Any = None, leader: Any = None) -> Msg:
    """Who a hand was dealt to, and who has the button (or, in Daifugo, leads).

    >>> dealt_text([1, 3, 5], 5).render("ja"), dealt_text([1, 3, 5], 5).render("en")
    ('シート1・シート3・シート5に配札（ボタン: シート5）', 'dealt to seats 1, 3 and 5 (button: seat 5)')
    >>> dealt_text([2, 4], 2, leader=2).render("ja"), dealt_text([2, 4]).render("en")
    ('シート2・シート4に配札（親: シート2）', 'dealt to seats 2 and 4')
    """
    seats = seat_list(seats) if isinstance(seats, (list, tuple)) and seats else "-"
    if leader is not None:
        return _("dealt to {seats} (leads: {seat})", seats=seats, seat=seat(leader))
    if button is not None:
        return _("dealt to {seats} (button: {seat})", seats=seats, seat=seat(button))
    return _("dealt to {seats}", seats=seats)


def _describe(ev: dict, lang: str) -> Any:
    ja = lang == "ja"
    kind = ev.get("type")
    if kind == DAMAGED_LINE:
        return _("(a line of the hand log that cannot be read: the log is damaged there)")
    if kind == "session_start":
        return _("session {session} started: source {source}", session=ev.get("session") or "-",
                 source=ev.get("source") or "-")
    if kind == "hand_start":
        dealt = dealt_text(ev.get("seats"), ev.get("button"), ev.get("leader"))
        n = ev.get("hand")
        text = (_("hand {n} starts: {dealt}", n=n, dealt=dealt) if type(n) is int
                else _("hand starts: {dealt}", dealt=dealt))
        if ev.get("dealer"):
            text = _("{start}, dealer {name}", start=text, name=str(ev.get("dealer")))
        counts = ev.get("cards_left")       # Daifugo: the counts the dealer gave at the start
        if isinstance(counts, dict) and counts:
            given = [_n("seat {seat} {n} card", "seat {seat} {n} cards", n if isinstance(n, int) else 0,
                        seat=s, n=n) for s, n in counts.items()]
            text = _("{start}; cards left as entered: {counts}", start=text,
                     counts=join(given, _p("payouts", ", ")))
        return text
    if kind == "cards_left":    # Daifugo: a seat's count entered by the dealer
        if ev.get("was") is None:
            return _("the dealer set seat {seat}'s cards left to {n}", seat=ev.get("seat"), n=ev.get("cards"))
        return _("the dealer set seat {seat}'s cards left to {n} (was {was})", seat=ev.get("seat"),
                 n=ev.get("cards"), was=ev.get("was"))
    if kind == "dealer":
        return _("dealer {name} takes the table", name=str(ev.get("name") or ""))
    if kind == "button":        # the dealer moved the button of the hand under way
        if ev.get("was") is None:
            return _("the dealer puts the button on seat {seat}", seat=ev.get("seat"))
        return _("the dealer moves the button to seat {seat} (was seat {was})", seat=ev.get("seat"),
                 was=ev.get("was"))
    if kind == "leaving":       # Daifugo: a seat leaves after this game
        return _("seat {seat} leaves the table after this game", seat=ev.get("seat"))
    if kind == "board":
        return _("{street}: board {cards}", street=street(str(ev.get("street", ""))),
                 cards=cards_text(ev.get("cards")))
    if kind == "hole":
        return _("seat {seat} shows {cards}", seat=ev.get("seat"), cards=cards_text(ev.get("cards")))
    if kind == "draw":
        n = ev.get("cards")
        if n == 0:
            return _("seat {seat} stands pat (draw {round})", seat=ev.get("seat"), round=ev.get("round"))
        return _n("seat {seat} draws {n} card (draw {round})", "seat {seat} draws {n} cards (draw {round})",
                  n if isinstance(n, int) else 0, seat=ev.get("seat"), n=n, round=ev.get("round"))
    if kind == "raise":
        return _("seat {seat} raises: raise {n}, points x{m}", seat=ev.get("seat"), n=ev.get("raises"),
                 m=ev.get("multiplier"))
    if kind == "change":
        return _("seat {seat} changes hands with the swap hand of seat {other}", seat=ev.get("seat"),
                 other=ev.get("with"))
    if kind == "ledger":
        reason = ev.get("reason_ja") if ja else ev.get("reason")
        return _ledger(dict(ev, reason=reason))
    if kind == "up":
        ups = [_("{seat} {cards}", seat=seat(s), cards=cards_text(c))
               for s, c in (ev.get("seats") or {}).items()]
        return _("{street}: up cards {cards}; {acts}", street=street(str(ev.get("street", ""))),
                 cards=join(ups, _p("up cards", "; ")),
                 acts=(ev.get("message_ja") if ja else ev.get("message")) or "-")
    if kind == "alert":
        msg = (ev.get("message_ja") if ja else ev.get("message")) or ""
        title = alert_title(str(ev.get("code")), lang, ev.get("sure", True))
        if ev.get("cleared"):
            return _("resolved {title}: {message}", title=title, message=msg) if msg else \
                _("resolved {title}", title=title)
        return _("ALERT {title}: {message}", title=title, message=msg) if msg else _("ALERT {title}", title=title)
    if kind == "showdown":
        ruling, damaged = _ruling(ev)
        if damaged:
            return _("showdown (its ruling in the log cannot be read)")
        parts = [p for p in (_hands_shown(ruling, lang), _pays(ruling.get("payouts")),
                             _colour_points(ruling.get("points"))) if p]
        if ruling.get("provisional"):
            what = join(parts, _p("showdown parts", "; ")) if parts else "-"
            return _("PROVISIONAL showdown (the dealer confirms {cards}): {what}",
                     cards=placed_cards(ruling.get("unsure"), offered=True), what=what)
        if ruling.get("unsure") and ruling.get("provisional") is False:
            return _("showdown: {what} (final: {cards} not sure, but no card there could change the chips)",
                     what=join(parts, _p("showdown parts", "; ")) if parts else "-",
                     cards=placed_cards(ruling.get("unsure"), offered=True))
        if not parts:
            return _("showdown")
        return _("showdown: {what}", what=join(parts, _p("showdown parts", "; ")))
    if kind == "confirm":
        return _("the dealer confirmed {cards} as read", cards=placed_cards(ev.get("cards")))
    if kind == "play":          # Daifugo: a play or a pass ruled (the rules engine's own words)
        ruling = ev.get("ruling") if isinstance(ev.get("ruling"), dict) else {}
        why = str((ruling.get("reason_ja") if ja else ruling.get("reason")) or "-")
        if ev.get("legal"):
            return why
        return _("ILLEGAL: seat {seat} ({cards}): {why}", seat=ev.get("seat"),
                 cards=cards_text(ev.get("cards")) if ev.get("cards") else _("pass"), why=why)
    if kind == "hand_end":
        ruling, damaged = _ruling(ev)
        wws = ev.get("won_without_showdown")
        bits: list = []
        if wws is not None:
            bits.append(_("seat {seat} wins without a showdown", seat=wws))
        if ruling:
            pays = _pays(ruling.get("payouts"))
            if pays:
                bits.append(pays)
        elif damaged:
            bits.append(_("its ruling in the log cannot be read"))
        else:
            bits.append(_("no ruling"))
        n = ev.get("corrections")
        if n:
            bits.append(_n("{n} correction", "{n} corrections", n, n=n))
        n = len(ev.get("confirmed") or ())
        if n:
            bits.append(_n("{n} card confirmed", "{n} cards confirmed", n, n=n))
        if ev.get("provisional"):
            bits.append(_("the ruling stayed provisional: cards not confirmed"))
        if not bits:
            return _("hand over")
        return _("hand over: {what}", what=join(bits, _p("hand over", ", ")))
    rest = {k: v for k, v in ev.items() if k not in ("t", "frame", "type", "hand")}
    return f"{kind} {json.dumps(rest, ensure_ascii=False)}" if rest else str(kind)


def describe_correction(c: dict, lang: str = "en") -> str:
    """One dealer correction in plain words.

    >>> describe_correction({"zone": "board4", "card": "8c", "to": "8s"})
    'board 4: 8c corrected to 8s'
    >>> describe_correction({"zone": "seat2", "card": "??", "to": None}, "ja")
    'シート2: ?? を取り除き'

    Where the reader had offered another name for the card (``"or"``), it says whether the
    dealer chose that name or another:

    >>> describe_correction({"zone": "seat1", "card": "Ks", "to": "Kc", "or": "Kc"})
    'seat 1: Ks corrected to Kc (the name the reader had offered)'
    >>> describe_correction({"zone": "seat1", "card": "Ks", "to": "Qs", "or": "Kc"})
    'seat 1: Ks corrected to Qs (the reader had asked: or Kc?)'
    >>> describe_correction({"zone": "seat1", "card": "Ks", "to": "Kc", "or": "Kc"}, "ja")
    'シート1: Ks を Kc に訂正（読み取りが候補に挙げていた名前）'
    """
    where, card, to = zone(c.get("zone") or "?"), c.get("card") or "?", c.get("to")
    if to is None:
        text = _("{zone}: {card} removed", zone=where, card=card).render(lang)
    else:
        text = _("{zone}: {card} corrected to {to}", zone=where, card=card, to=to).render(lang)
    return text + offer_note(c.get("or"), to, lang)


def offer_note(other: Any, chosen: Optional[str], lang: str = "en") -> str:
    """What the reader had offered for a card the dealer confirmed or corrected (``other``: its
    ``"or"``; ``chosen``: the name a correction gave it, None for a confirmation), to follow the
    card in a hand's account:
    whether the dealer took it, or what the card was checked against; "" where nothing (or no
    card) was offered. A Japanese full-width bracket brings its own space.

    >>> offer_note("Kc", "Kc"), offer_note("Kc", "Ks"), offer_note("<b>", "Ks")
    (' (the name the reader had offered)', ' (the reader had asked: or Kc?)', '')
    >>> offer_note("Kc", "Ks", "ja")
    '（読み取りは Kc かと確認を求めていた）'
    """
    other = card_or_none(other)
    if other is None:
        return ""
    gap = "" if lang == "ja" else " "
    if other == chosen:
        return gap + _("(the name the reader had offered)").render(lang)
    return gap + _("(the reader had asked: or {card}?)", card=other).render(lang)


def line(ev: "TableEvent | dict", lang: str = "en", explain: bool = True) -> str:
    """One event with its time and hand, for a running commentary; a showdown also gets the
    ruling's explanation lines (what a floor manager reads aloud)."""
    ev = _line_of(ev)
    t = ev.get("t")
    stamp = _("[{t}s] ", t=f"{t:6.1f}").render(lang) if isinstance(t, (int, float)) else ""
    hand = ev.get("hand")
    if hand is not None and not (ev.get("type") == "hand_start" and type(hand) is int):     # it says its number
        stamp += _("hand {n} ", n=hand).render(lang)
    out = stamp + describe(ev, lang)
    if explain and ev.get("type") == "showdown":
        lines = _ruling(ev)[0].get("explanation_ja" if lang == "ja" else "explanation") or []
        out += "".join("\n    " + x for x in lines)
    return out
