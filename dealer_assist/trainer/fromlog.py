"""Drills from real hands: the hands of the hand log replayed as drills, their ruling hidden (issue 23).

A hand becomes a drill when it reached a ruling on a table: a ``showdown`` event of the hand log
carries the settle input the live table built (``table``) next to the ruling it gave
(``ruling``).  The drill's table is the hand's last such table, with the dealer's corrections
made after it applied (the hand's corrected state); its answer is the engine's, worked out again
from that table, never the logged ruling copied.  Where the ruling kept in the log (the hand's
final one) says otherwise, the drill says so in ``flagged``.

The topic is what the hand is: ``stud`` for a stud hand, ``hilo`` for a hi/lo hand; for the
other games ``side-pots`` when the pot was cut, ``odd-chips`` when a split left odd chips, else the
showdown of the game (``showdown-joker``, ``showdown-holdem``); ``showing-order`` when no chips were
entered at the table (the payouts are then those of one chip a seat, and the question worth
asking is who shows first).

Disputed hands come first, then the newest.  The hand log keeps no verdict of a dispute, so a
hand counts as disputed by what the log shows of it: a ``dispute`` event in the hand (the marker
a floor tool may record), cards the dealer corrected, a ruling that changed during the hand, or
a logged ruling that is not the engine's.

A drill's ``id`` is ``log-<session>-<hand>`` (``log-2-7``); ``log-2-7-showing-order`` when the
showing order is asked of a hand whose own topic is another; ``source`` says where it comes from::

    {"log": "hand-log.sqlite", "hand": "2:7", "status": "ended", "disputed": true,
     "why": [{"code": "corrected", "text": ..., "text_ja": ...}], "corrected": false,
     "chips_entered": true, "provisional": false,
     "stored": {<the logged ruling's payouts, pots, showing order>}}

``corrected``: the dealer's corrections made after the last showdown were applied to its table;
``provisional``: the logged ruling was made on cards not all sure nor confirmed that could change
its chips (a ruling whose doubtful cards could not is final, ``dealer_assist.live.doubt``).

Must not import Qt, the camera or the live pipeline (the hand log reader is plain SQLite).
"""
from __future__ import annotations

import copy
import os
import sqlite3
from typing import Any, Iterable, Mapping, Optional, Sequence

from dealer_assist.cards import JOKER, CardError
from dealer_assist.errors import UserError
from dealer_assist.games import Drilled, UnknownGame, find_game
from dealer_assist.i18n import Msg, Text, _, _n, both, message_of, os_reason, render, typed
from dealer_assist.trainer.drills import TOPICS, Drill
from dealer_assist.zones import board_slot, seat_of_zone

__all__ = ["drills_from_log", "trainer_drills", "hand_drill", "log_question", "ruling_flags", "source_lines",
           "LogSkip"]

#: The fields of a ruling compared between the log and the engine.
_COMPARED = ("payouts", "pots", "showdown_order", "points")
_POT_KEYS = ("amount", "eligible", "winners", "shares", "odd_chips")
_APP_ID = 0x44414C47    # the hand log's PRAGMA application_id ("DALG")


class LogSkip(UserError):
    """A hand of the log that cannot be a drill (no showdown table, a table the engine refuses);
    ``other_topic``: only that it is not of the topic asked for (not worth a word)."""

    other_topic = False


# ----------------------------------------------------------------------------- questions and flags

def log_question(topic: str, game: str) -> Optional[Msg]:
    """The question of a hand from the log where the topic's own names another game (a lowball
    hand asked as a showdown); None where the topic's question fits."""
    if topic not in TOPICS or TOPICS[topic].game in (None, game):
        return None
    try:
        title: Text = find_game(game).title
    except UnknownGame:
        return None
    return _("{game}: who wins each pot, and how many chips does each seat get?", game=title)


def _plain(field: str, value: Any) -> Any:
    """A ruling's field as compared: seats as strings, lists of seats sorted, pots cut to what they decide."""
    if field in ("payouts", "points") and isinstance(value, Mapping):
        return {str(k): v for k, v in value.items()}
    if field == "pots" and isinstance(value, list):
        out = []
        for pot in value:
            if not isinstance(pot, Mapping):
                out.append(pot)
                continue
            p = {}
            for k in _POT_KEYS:
                v = pot.get(k)
                if k in ("eligible", "winners", "odd_chips") and isinstance(v, list):
                    v = sorted(v, key=lambda x: (len(str(x)), str(x)))
                elif k == "shares" and isinstance(v, Mapping):
                    v = {str(s): n for s, n in v.items() if n}
                p[k] = v
            out.append(p)
        return out
    return value


def _shown(field: str, value: Any) -> str:
    """A compared field in a few characters, as the trainee would type it."""
    if value is None:
        return "-"
    if field in ("payouts",) and isinstance(value, Mapping):
        return " ".join(f"{s}:{v}" for s, v in value.items()) or "-"
    if field == "points" and isinstance(value, Mapping):
        return " ".join(f"{s}:{p.get('bp', 0):+d}/{p.get('rp', 0):+d}" for s, p in value.items()
                        if isinstance(p, Mapping)) or "-"
    if field == "pots" and isinstance(value, list):
        return " ".join(f"{p.get('amount')}→{','.join(map(str, p.get('winners') or [])) or '-'}"
                        for p in value if isinstance(p, Mapping)) or "-"
    if isinstance(value, list):
        return " ".join(map(str, value)) or "-"
    return str(value)


_FLAG_WORDS = {"payouts": _("payouts"), "pots": _("pots"), "showdown_order": _("showing order"),
               "points": _("points")}


def ruling_flags(stored: Any, answer: Mapping[str, Any]) -> tuple[dict, ...]:
    """Where the ruling kept in the log (``stored``) differs from the engine's ``answer``.

    >>> ruling_flags({"payouts": {"1": 30, "2": 40}}, {"payouts": {"1": 0, "2": 70}})[0]["text"]
    "the hand log's ruling is not the engine's: payouts 1:30 2:40 in the log, 1:0 2:70 by the engine"
    >>> ruling_flags({"payouts": {1: 0, 2: 70}}, {"payouts": {"1": 0, "2": 70}})
    ()
    """
    if not isinstance(stored, Mapping):
        return ()
    out = []
    for field in _COMPARED:
        if field not in stored or field not in answer:
            continue
        s, r = _plain(field, stored[field]), _plain(field, answer[field])
        if s == r:
            continue
        en, ja = both(_("the hand log's ruling is not the engine's: {what} {stored} in the log, "
                        "{recomputed} by the engine", what=_FLAG_WORDS[field],
                        stored=_shown(field, s), recomputed=_shown(field, r)))
        out.append({"field": field, "stored": s, "recomputed": r, "text": en, "text_ja": ja})
    return tuple(out)


def _stored(ruling: Any) -> Optional[dict]:
    """What of a logged ruling a drill keeps to compare (the decisions, not the words)."""
    if not isinstance(ruling, Mapping):
        return None
    return {k: _plain(k, ruling[k]) for k in _COMPARED if k in ruling}


# ----------------------------------------------------------------------------- one hand

def _cards_of(table: Mapping) -> list:
    out = list(table.get("board") or [])
    for s in table.get("seats") or ():
        if isinstance(s, Mapping):
            for k in ("hole", "down", "up"):
                out += list(s.get(k) or [])
    return out


def _level(table: Mapping, answer: Mapping) -> int:
    """The drills' level a hand stands at: 1 two seats and one pot, 2 up to six seats, 3 beyond or
    with the joker."""
    n = len(table.get("seats") or ())
    pots = len(answer.get("pots") or ())
    joker = str(JOKER) in [str(c) for c in _cards_of(table)]
    if n <= 2 and pots <= 1 and not joker:
        return 1
    if n <= 6 and pots <= 3 and not joker:
        return 2
    return 3


def _drilled(game: Any) -> Drilled:
    """How the registry says a showdown of ``game`` is drilled (a game it does not drill: as a
    hold'em showdown)."""
    try:
        found = find_game(game).drilled
    except UnknownGame:
        found = None
    return found if found is not None else Drilled("showdown-holdem")


def _natural_topic(table: Mapping, answer: Mapping, chips_entered: bool) -> str:
    """The topic a hand is drilled on: its game's own (:attr:`Drilled.topic`) where that comes
    first; else the showing order without chips, side pots or odd chips where the pots have them."""
    own = _drilled(table.get("game"))
    if own.always:
        return own.topic
    if not chips_entered:
        return "showing-order"
    if own.before_pots:
        return own.topic
    pots = answer.get("pots") or []
    if len(pots) >= 2:
        return "side-pots"
    if any(p.get("odd_chips") for p in pots):
        return "odd-chips"
    return own.topic


def _apply_corrections(table: dict, corrections: Iterable[Mapping]) -> bool:
    """The dealer's corrections made after the table was built, applied to it; True if any took."""
    done = False
    for c in corrections:
        zone, card, to = c.get("zone"), c.get("card"), c.get("to")
        if not isinstance(zone, str) or not isinstance(card, str) or not isinstance(to, str):
            continue          # a card removed, or a correction the log cannot tell: the table stays
        board = table.get("board")
        i, seat = board_slot(zone), seat_of_zone(zone)
        if i is not None and isinstance(board, list):
            if i < len(board) and board[i] == card:
                board[i] = to
                done = True
            continue
        if seat is not None:
            for s in table.get("seats") or ():
                if not isinstance(s, dict) or str(s.get("seat")) != str(seat):
                    continue
                for key in ("hole", "down", "up"):
                    cards = s.get(key)
                    if isinstance(cards, list) and card in cards:
                        cards[cards.index(card)] = to
                        done = True
                        break
    return done


def _payouts_of(ruling: Any) -> Any:
    return _plain("payouts", ruling.get("payouts")) if isinstance(ruling, Mapping) else None


def hand_drill(hand: Mapping[str, Any], log: str = "", topic: Optional[str] = None) -> Drill:
    """The drill of one hand as :func:`dealer_assist.live.handlog.load_hand` gives it; ``topic``
    asks that topic instead of the hand's own (``showing-order``).  :class:`LogSkip` if the hand
    cannot be a drill."""
    ref = str(hand.get("ref"))
    events = [e for e in hand.get("events") or () if isinstance(e, Mapping)]
    showdowns = [(i, e) for i, e in enumerate(hand.get("events") or ())
                 if isinstance(e, Mapping) and e.get("type") == "showdown" and isinstance(e.get("table"), Mapping)]
    if not showdowns:
        if hand.get("won_without_showdown") is not None:
            raise LogSkip(_("hand {hand} was won without a showdown: there is no table to rule on", hand=ref))
        raise LogSkip(_("hand {hand} reached no showdown the log kept a table of: nothing to drill", hand=ref))
    index, last = showdowns[-1]
    table = copy.deepcopy(dict(last["table"]))
    later = [c for c in hand.get("corrections") or () if isinstance(c, Mapping)
             and isinstance(c.get("before_event"), int) and c["before_event"] > index]
    corrected = _apply_corrections(table, later)
    stored_ruling = hand.get("ruling") if isinstance(hand.get("ruling"), Mapping) else last.get("ruling")
    chips = not (isinstance(stored_ruling, Mapping) and stored_ruling.get("chips_entered") is False)
    game = table.get("game")
    if topic is not None and topic not in TOPICS:
        raise UserError(_("unknown topic {topic}; the topics are {topics}", topic=typed(topic),
                          topics=", ".join(TOPICS)))
    try:
        drilled = _drilled(game)
        # the engine's answer for the game: settle's (any settling topic's), or the game's own topic's
        own = TOPICS["side-pots"] if TOPICS[drilled.topic].settles else TOPICS[drilled.topic]
        ruled = own.answer(table)
        guess = _natural_topic(table, ruled, chips)
        name = topic or guess
        if name != guess and not (name == "showing-order" and not drilled.always):
            skip = LogSkip(_("hand {hand} is not a {topic} hand", hand=ref, topic=TOPICS[name].title))
            skip.other_topic = True
            raise skip
        answer = ruled if TOPICS[name].answer is own.answer else TOPICS[name].answer(table)
    except LogSkip:
        raise
    except (UserError, CardError, KeyError, IndexError, TypeError, ValueError) as exc:
        # a table the engine refuses (or one the log kept half): not a drill, said in one line
        raise LogSkip(_("hand {hand}: the engine cannot rule on its logged table ({why})", hand=ref,
                        why=message_of(exc) if str(exc) else type(exc).__name__)) from None
    if name == "showing-order" and len(answer.get("showdown_order") or ()) < 2:
        raise LogSkip(_("hand {hand}: fewer than two seats show: no showing order to ask", hand=ref))
    stored = _stored(stored_ruling)
    flagged = ruling_flags(stored, answer)
    why: list[tuple[str, Text]] = []
    if any(e.get("type") == "dispute" or e.get("disputed") is True for e in events):
        why.append(("marked", _("marked as disputed in the hand log")))
    n_corr = len(hand.get("corrections") or ())
    if n_corr:
        why.append(("corrected", _n("the dealer corrected {n} card", "the dealer corrected {n} cards", n_corr,
                                    n=n_corr)))
    rulings = {repr(_payouts_of(e.get("ruling"))) for _i, e in showdowns if isinstance(e.get("ruling"), Mapping)}
    if len(rulings) > 1:
        why.append(("ruling_changed", _("the ruling changed during the hand")))
    if flagged:
        why.append(("ruling_differs", _("the logged ruling is not the engine's")))
    source = {"log": log, "hand": ref, "status": hand.get("status"), "disputed": bool(why),
              "why": [dict(zip(("code", "text", "text_ja"), (code, *both(msg)))) for code, msg in why],
              "corrected": corrected, "chips_entered": chips,
              "provisional": bool(isinstance(stored_ruling, Mapping) and stored_ruling.get("provisional")),
              "stored": stored}
    ident = "log-" + ref.replace(":", "-") + (f"-{name}" if name != guess else "")
    game_name = game if isinstance(game, str) else "holdem"
    return Drill(ident, name, _level(table, answer), game_name, table, answer, source=source, flagged=flagged,
                 ask=log_question(name, game_name))


# ----------------------------------------------------------------------------- the log

def _check_file(path: str) -> None:
    """A clear word for the file that is not a hand log, before the log's reader sees it."""
    if not os.path.exists(path):
        raise UserError(_("--from-log: no hand log at {path} (dealer-assist run writes one, hand-log.sqlite)",
                          path=path))
    if os.path.isdir(path):
        raise UserError(_("--from-log: {path} is a folder; give the hand log file in it", path=path))
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise UserError(_("--from-log: cannot read {path}: {why}", path=path, why=os_reason(exc))) from None
    if not head:
        raise UserError(_("--from-log: {path} is empty: not a hand log", path=path))
    if head != b"SQLite format 3\x00":
        raise UserError(_("--from-log: {path} is not a hand log: not an SQLite file (damaged, or another kind "
                          "of file)", path=path))
    try:
        from urllib.parse import quote
        con = sqlite3.connect(f"file:{quote(os.path.abspath(path), safe='/')}?mode=ro", uri=True, timeout=10.0)
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error as exc:
        raise UserError(_("--from-log: {path} cannot be read as a hand log: {why}", path=path,
                          why=str(exc))) from None
    if app_id != _APP_ID:
        raise UserError(_("--from-log: {path} is an SQLite file of another program, not a dealer-assist "
                          "hand log", path=path))


def _read(work, path: str):
    """Run a hand log read; what goes wrong in the file is one clear line."""
    try:
        return work()
    except LogSkip:
        raise
    except UserError as exc:
        raise UserError(_("--from-log: cannot read the hand log {path}: {why}", path=path,
                          why=message_of(exc))) from None
    except (sqlite3.Error, ValueError, TypeError, KeyError) as exc:
        raise UserError(_("--from-log: the hand log {path} is damaged ({why}); dealer-assist review --salvage "
                          "copies what is still readable", path=path, why=str(exc) or type(exc).__name__)) from None


def _find_ref(hands: Sequence[Mapping], ref: str, path: str) -> Mapping:
    from dealer_assist.live.handlog import parse_hand_ref

    try:
        session, number = parse_hand_ref(ref)
    except UserError:
        raise UserError(_("--hand {hand}: a hand is SESSION:HAND as dealer-assist review lists it, such as 2:3",
                          hand=typed(str(ref)[:40]))) from None
    for h in hands:
        if (session is None and h.get("id") == number) or (h.get("session") == session and h.get("hand") == number):
            return h
    known = ", ".join(str(h.get("ref")) for h in hands[-8:]) or "-"
    raise UserError(_("--hand {hand}: no such hand in {path} (its last hands: {known}; dealer-assist review "
                      "lists them)", hand=ref, path=path, known=known))


def drills_from_log(path: str | os.PathLike, hand: Optional[str] = None, topic: Optional[str] = None,
                    level: Optional[int] = None, skipped: Optional[list] = None) -> list[Drill]:
    """The drills of the hand log at ``path``: disputed hands first, then the newest.

    ``hand`` (``"2:3"`` or a row id): that hand only, and a clear error if it cannot be a drill.
    ``topic``: only the hands of that topic (``showing-order``: every showdown of a board game).
    ``level``: only the drills of that level.  ``skipped`` collects ``(ref, why)`` of the hands
    that reached a showdown but cannot be drills.  :class:`UserError` if the file is no hand log.
    """
    from dealer_assist.live.handlog import list_hands, load_hand

    path = os.fspath(path)
    _check_file(path)
    if topic is not None and topic not in TOPICS:
        raise UserError(_("unknown topic {topic}; the topics are {topics}", topic=typed(topic),
                          topics=", ".join(TOPICS)))
    hands = _read(lambda: list_hands(path), path)
    if hand is not None:
        summary = _find_ref(hands, hand, path)
        d = hand_drill(_read(lambda: load_hand(path, summary["id"]), path), path, topic)
        if level is not None and d.level != level:
            raise UserError(_("--hand {hand} is a level {got} drill, not level {level}", hand=hand, got=d.level,
                              level=level))
        return [d]
    out: list[tuple[bool, int, Drill]] = []
    for h in hands:
        if h.get("status") == "open" or h.get("won_without_showdown") is not None or not h.get("winners"):
            continue          # being played now, won without a showdown, or no ruling
        try:
            d = hand_drill(_read(lambda: load_hand(path, h["id"]), path), path, topic)
        except LogSkip as exc:
            if skipped is not None and not exc.other_topic:
                skipped.append((h.get("ref"), exc))
            continue
        if level is not None and d.level != level:
            continue
        out.append((bool(d.source and d.source.get("disputed")), int(h.get("id") or 0), d))
    out.sort(key=lambda x: (not x[0], -x[1]))
    return [d for _disputed, _id, d in out]


def no_drills(path: str, topic: Optional[str] = None) -> UserError:
    return UserError(_("--from-log: no hand of {path} reached a ruling the trainer can drill{only}", path=path,
                       only=_(" (of topic {topic})", topic=topic) if topic else ""))


def trainer_drills(path: str | os.PathLike) -> list[Drill]:
    """The drills of the desk's trainer screen from a hand log (``desk --trainer NAME --from-log FILE``);
    :class:`UserError` when the file is no hand log or none of its hands can be a drill."""
    drills = drills_from_log(path)
    if not drills:
        raise no_drills(os.fspath(path))
    return drills


def source_lines(drill: Drill, lang: str) -> list[str]:
    """What a trainee reads of a drill's hand before answering: which hand, and why it is disputed."""
    src = drill.source
    if not src:
        return []
    out = [render(_("Hand {hand} of the hand log", hand=src.get("hand")), lang)]
    whys = [w.get("text_ja" if lang == "ja" else "text") for w in src.get("why") or () if isinstance(w, Mapping)]
    whys = [w for w in whys if isinstance(w, str) and w]
    if whys:
        out.append(render(_("Disputed: {why}", why=("、" if lang == "ja" else "; ").join(whys)), lang))
    if src.get("corrected"):
        out.append(render(_("The dealer's corrections after the showdown are applied to the table."), lang))
    if src.get("chips_entered") is False:
        out.append(render(_("No chips were entered at the table: each seat counts as 1 chip."), lang))
    return out
