"""Drills for new dealers, made and answered by the rules engine (issue 23).

A :class:`Drill` is a table the engine rules on (``table``: exactly what ``dealer-assist settle``
reads, or for the topics that are not about chips the input of the engine that answers them), a
question in English and Japanese, and ``answer``: the engine's own output for that table, never
an answer written by hand.  Drills are seeded: ``make_drill(topic, level, seed, index)`` gives the
same drill on every machine, and its ``id`` (``side-pots-2-7-13``) names those four values.

Topics (:data:`TOPICS`, one registry as python-chess keeps its variants) and what each asks:

==================  ============================================  ===========================
topic               the table                                     the trainee answers
==================  ============================================  ===========================
showdown-joker      a Joker NLH showdown (a seat holds the joker)  ``payouts``
showdown-holdem     a hold'em showdown                             ``payouts``
side-pots           a showdown with all-ins                        ``payouts``, ``pots``
odd-chips           a showdown with a split pot of odd chips       ``payouts``
showing-order       a showdown after a bet or checks (TDA 17A)     ``showdown_order``
burn-swap           a Joker NLH stub with the joker on the board   ``next_board_card``,
                                                                   ``burns_after_swap``
hilo                a hold'em hi/lo showdown                       ``payouts``
half-texas          a finished Half Texas game                     ``points``
stud                a seven-card stud showdown                     ``first_to_act``,
                                                                   ``showdown_order``, ``shown``
daifugo             a Daifugo state and a proposed play            ``legal``
==================  ============================================  ===========================

Levels: 1 is two seats and one pot; 2 is three to six seats, an all-in or two and a fold; 3 is
seven to nine seats (stud: six or seven), up to four all-ins and, in the board games, the joker.

>>> d = make_drill("side-pots", 2, seed=1, index=0)
>>> d.id, d.game, len(d.answer["pots"]) >= 2
('side-pots-2-1-0', 'holdem', True)
>>> from dealer_assist.rules.settle import settle
>>> d.answer == settle(d.table)
True
>>> r = check(d, {"payouts": d.answer["payouts"], "pots": d.answer["pots"]})
>>> r.right, r.wrong
(True, ())

Must not import Qt, the camera or the live pipeline.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence

from dealer_assist.cards import DECK_52, JOKER, Card, CardError, Rank, parse_card
from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, Text, _, both, message_of, seat_list, typed
from dealer_assist.rules.daifugo import STRENGTH_ORDER, Move, State
from dealer_assist.rules.daifugo import check_json as daifugo_check
from dealer_assist.rules.half_texas import Colors
from dealer_assist.rules.holdem import deal_board
from dealer_assist.rules.settle import settle
from dealer_assist.rules.stud import Stud7

__all__ = ["LEVELS", "TOPICS", "Topic", "Drill", "Difference", "CheckResult", "make_drill", "generate",
           "drill_from_json", "check", "check_json"]

LEVELS = (1, 2, 3)
#: How many tables a drill may deal before it takes the last one (the topic's wish not met).
MAX_TRIES = 60


# ----------------------------------------------------------------------------- the tables

def _seat_count(rng: random.Random, level: int, top: int = 9) -> int:
    if level == 1:
        return 2
    if level == 2:
        return rng.randint(3, min(6, top))
    return rng.randint(min(7, top - 1), top)


def _chips(rng: random.Random, level: int, seats: Sequence[int], *, unit: int = 5,
           folds: bool = True) -> tuple[dict[int, int], set[int], list[int]]:
    """Chips committed per seat, the folded seats and the live seats that bet the most."""
    n = len(seats)
    top = rng.randint(20, 200) * 5
    folded: set[int] = set()
    if folds and level >= 2 and n >= 3:
        k = rng.randint(0, 1 if level == 2 else min(2, n - 2))
        folded = set(rng.sample(list(seats), k))
    live = [s for s in seats if s not in folded]
    all_ins = 0 if level == 1 else rng.randint(1, min(2, len(live) - 1)) if level == 2 \
        else rng.randint(min(2, len(live) - 1), min(4, len(live) - 1))
    short = rng.sample(live, all_ins)
    committed = {s: top for s in seats}
    steps = top // unit
    for s in short:
        committed[s] = rng.randint(1, steps - 1) * unit
    for s in folded:
        committed[s] = rng.randint(0, steps) * unit
    callers = [s for s in live if s not in short]
    return committed, folded, callers


def _straight_board(rng: random.Random, deck: list[Card]) -> list[Card]:
    """Five board cards of consecutive ranks, not all of one suit (everyone may play the board)."""
    while True:
        high = rng.randint(5, 14)
        ranks = [14 if r == 1 else r for r in range(high - 4, high + 1)]
        cards = [Card(Rank(r), rng.choice(list(range(4)))) for r in ranks]
        if len({c.suit for c in cards}) > 1:
            for c in cards:
                deck.remove(c)
            rng.shuffle(cards)
            return cards


def board_table(rng: random.Random, level: int, game: str, *, joker: bool = False,
                board_straight: float = 0.0, unit: int = 5, dead: bool = False, **extra: Any) -> dict:
    """A showdown table for a board game: seats, hole cards, board, chips, button.

    ``dead``: at level 1, a third seat that posted an odd blind and folded (the one pot is odd)."""
    n = _seat_count(rng, level)
    seats = sorted(rng.sample(range(1, 10), n + (1 if dead and level == 1 else 0)))
    deck = list(DECK_52)
    board = _straight_board(rng, deck) if rng.random() < board_straight else []
    rng.shuffle(deck)
    if not board:
        board = [deck.pop() for _k in range(5)]
    if dead and level == 1:
        blind = seats.pop(rng.randrange(len(seats)))
    committed, folded, callers = _chips(rng, level, seats, unit=unit)
    if dead and level == 1:
        seats = sorted(seats + [blind])
        committed[blind] = rng.choice((1, 3, 5, 25))
        folded.add(blind)
    live = [s for s in seats if s not in folded]
    holes = {s: [deck.pop(), deck.pop()] for s in seats}
    if joker:
        holder = rng.choice(live)
        holes[holder][rng.randrange(2)] = JOKER
    button = rng.choice(seats)
    last = rng.choice(callers) if callers and rng.random() < 0.6 else None
    table: dict = {"game": game, "board": [str(c) for c in board], "button": button, "seats": []}
    for s in seats:
        entry: dict = {"seat": s, "hole": None if s in folded else [str(c) for c in holes[s]],
                       "committed": committed[s]}
        if s in folded:
            entry["folded"] = True
        table["seats"].append(entry)
    if last is not None:
        table["last_aggressor"] = last
    table.update(extra)
    return table


def _board_game(level: int) -> tuple[str, bool]:
    """The game of the pot topics at ``level``: hold'em, and Joker NLH with the joker at level 3."""
    return ("joker-holdem", True) if level >= 3 else ("holdem", False)


def stud_table(rng: random.Random, level: int) -> dict:
    n = _seat_count(rng, level, top=7)
    seats = sorted(rng.sample(range(1, 9), n))
    deck = list(DECK_52)
    rng.shuffle(deck)
    committed, folded, _callers = _chips(rng, level, seats, folds=level >= 3)
    out = []
    for s in seats:
        entry: dict = {"seat": s, "committed": committed[s]}
        up = [str(deck.pop()) for _k in range(4)]
        if s in folded:
            entry.update({"down": [], "up": up, "folded": True})
        else:
            entry.update({"down": [str(deck.pop()) for _k in range(3)], "up": up})
        out.append(entry)
    return {"game": "stud7", "seats": out}


def half_texas_table(rng: random.Random, level: int) -> dict:
    n = 2 if level == 1 else rng.randint(3, 4) if level == 2 else rng.randint(5, 6)
    seats = sorted(rng.sample(range(1, 7), n))
    deck = list(Colors().deck)
    rng.shuffle(deck)
    board = [str(deck.pop()) for _k in range(5)]
    low, high = (10, 10) if level == 1 else (3, 10) if level == 2 else (1, 6)
    folded = set(rng.sample(seats, rng.randint(0, 1))) if level >= 2 and n >= 3 else set()
    live = [s for s in seats if s not in folded]
    raised = set(rng.sample(live, rng.randint(0, 2))) if level >= 3 else set()
    out = []
    for s in seats:
        entry: dict = {"seat": s, "hole": None if s in folded else [str(deck.pop()), str(deck.pop())],
                       "bp": rng.randint(low, high), "rp": rng.randint(low, high)}
        if s in folded:
            entry["folded"] = True
        if s in raised:
            entry["raised"] = True
        out.append(entry)
    return {"game": "half-texas", "board": board, "raises": len(raised), "seats": out}


#: Where a joker lies in the stub (0 the first burn, 1-3 the flop, 5 the turn, 7 the river).
_STUB_BOARD = {1: (1, 2, 3), 2: (5,), 3: (1, 2, 3, 5, 7)}


def burn_swap_table(rng: random.Random, level: int) -> dict:
    deck = list(DECK_52)
    rng.shuffle(deck)
    stub = deck[:9]
    pos = rng.choice(_STUB_BOARD[level])
    stub.insert(pos, JOKER)
    stub = stub[:9]
    return {"game": "joker-holdem", "stub": [str(c) for c in stub]}


def _daifugo_candidates(hand: Sequence[Optional[Card]]) -> list[list[Card]]:
    """Plays a seat could try: singles, groups of one rank, three-card stairs in one suit."""
    cards = [c for c in hand if c is not None]
    out: list[list[Card]] = [[c] for c in cards]
    by_rank: dict = {}
    for c in cards:
        if not c.is_joker:
            by_rank.setdefault(c.rank, []).append(c)
    for group in by_rank.values():
        for size in range(2, len(group) + 1):
            out.append(group[:size])
    pos = {r: i for i, r in enumerate(STRENGTH_ORDER)}
    have = {(c.rank, c.suit) for c in cards if not c.is_joker}
    for c in cards:
        if c.is_joker or pos[c.rank] + 2 >= len(STRENGTH_ORDER):
            continue
        run = [Card(STRENGTH_ORDER[pos[c.rank] + i], c.suit) for i in range(3)]
        if all((x.rank, x.suit) in have for x in run):
            out.append(run)
    return out


def _field_input(state: State) -> dict:
    """A state as ``daifugo check`` reads it, without the output's descriptive fields."""
    out = state.to_json()
    out["field"] = [{k: v for k, v in p.items() if k in ("seat", "cards", "jokers") and v}
                    for p in out["field"]]
    for k in ("lock", "decks", "winner"):
        out.pop(k, None)
    return out


def daifugo_table(rng: random.Random, level: int) -> dict:
    n = 3 if level == 1 else rng.randint(3, 4) if level == 2 else rng.randint(4, 5)
    seats = list(range(1, n + 1))
    deck = list(DECK_52) + [JOKER, JOKER]
    rng.shuffle(deck)
    size = 5 if level == 1 else 7 if level == 2 else rng.randint(2, 8)
    hands = {s: [str(deck.pop()) for _k in range(size)] for s in seats}
    leader = rng.choice(seats)
    revolution = level >= 3 and rng.random() < 0.5
    state = State.from_json({"seats": seats, "hands": {str(s): h for s, h in hands.items()},
                             "turn": leader, "revolution": revolution})
    moves = rng.randint(0, 1) if level == 1 else rng.randint(1, 3) if level == 2 else rng.randint(2, 5)
    for _k in range(moves):
        legal = [m for m in (Move(state.turn, tuple(c)) for c in _daifugo_candidates(state.hands[state.turn]))
                 if state.check(m).legal]
        legal = [m for m in legal if len(state.hands[state.turn]) > len(m.cards)]   # nobody goes out yet
        if state.field:
            legal.append(Move.pass_(state.turn))
        if not legal:
            break
        state = state.check(rng.choice(legal)).state
    tries = [Move(state.turn, tuple(c)) for c in _daifugo_candidates(state.hands[state.turn])]
    ok = [m for m in tries if state.check(m).legal]
    bad = [m for m in tries if m not in ok]
    pool = ok if (rng.random() < 0.5 and ok) or not bad else bad
    return {"state": _field_input(state), "play": rng.choice(pool).to_json()}


# ----------------------------------------------------------------------------- the answers

def _settle_answer(table: Mapping) -> dict:
    return settle(table)


def _stud_answer(table: Mapping) -> dict:
    ruling = settle(table)
    game = Stud7()
    owner = game.final_owner(game.read_table(table))
    return {"first_to_act": owner, "showdown_order": ruling["showdown_order"],
            "shown": [int(s) for s, h in ruling["hands"].items() if h.get("shown")],
            "payouts": ruling["payouts"], "explanation": ruling["explanation"],
            "explanation_ja": ruling["explanation_ja"]}


def _burn_swap_answer(table: Mapping) -> dict:
    stub = table.get("stub")
    if not isinstance(stub, list):
        raise UserError(_("{field}: {why}", field="stub", why=_("expected the list of stub cards, top card first")))
    try:
        cards = [parse_card(c) for c in stub]
    except CardError as exc:
        raise UserError(_("{field}: {why}", field="stub", why=message_of(exc))) from None
    return deal_board(cards).to_json()


def _daifugo_answer(table: Mapping) -> dict:
    return daifugo_check(table)


# ----------------------------------------------------------------------------- the topics

def _pots_split(answer: Mapping) -> bool:
    return len(answer["pots"]) >= 2


def _has_odd_chips(answer: Mapping) -> bool:
    return any(p["odd_chips"] for p in answer["pots"])


def _has_halves(answer: Mapping) -> bool:
    """A pot split in a high and a low half (the engine's own name of a low half)."""
    low_half = _("{pot} (low half)", pot="").render("en")
    return any(p["name"].endswith(low_half) for p in answer["pots"])


@dataclass(frozen=True, slots=True)
class Topic:
    """One kind of drill: its tables, its question, the engine that answers it, what it asks.

    ``asks``: the answer's fields a trainee must give (missing: wrong, "not answered");
    ``also``: fields compared when the trainee gives them.  ``keep`` says whether a dealt table
    shows what the topic is about (a split pot for odd chips); the drill deals again if not."""

    name: str
    title: Msg
    question: Msg
    make: Callable[[random.Random, int], dict]
    answer: Callable[[Mapping], dict]
    asks: tuple[str, ...]
    also: tuple[str, ...] = ()
    settles: bool = True            # the table is a ``settle`` input and the answer its output
    keep: Callable[[Mapping, Mapping, int], bool] = lambda table, answer, level: True
    #: the game its question names (None: any game); a hand of another game from the log is
    #: asked with that game's name
    game: Optional[str] = None


def _make_board(game: Optional[str] = None, *, joker_always: bool = False, **kw: Any):
    def make(rng: random.Random, level: int) -> dict:
        g, joker = _board_game(level)
        if game is not None:
            g, joker = game, joker_always     # a topic of one game deals its joker only if it says so
        return board_table(rng, level, g, joker=joker, **kw)
    return make


def _make_hilo(rng: random.Random, level: int) -> dict:
    extra = {"low_qualifier": 8} if level >= 2 and rng.random() < 0.5 else {}
    return board_table(rng, level, "holdem-hilo", unit=1 if level >= 2 else 5, **extra)


_PAYOUT_ALSO = ("pots", "showdown_order")

TOPICS: dict[str, Topic] = {t.name: t for t in (
    Topic("showdown-joker", _("Joker NLH showdown"),
          _("Joker NLH: who wins each pot, and how many chips does each seat get?"),
          _make_board("joker-holdem", joker_always=True), _settle_answer, ("payouts",), _PAYOUT_ALSO,
          game="joker-holdem"),
    Topic("showdown-holdem", _("Hold'em showdown"),
          _("Hold'em: who wins each pot, and how many chips does each seat get?"),
          _make_board("holdem"), _settle_answer, ("payouts",), _PAYOUT_ALSO, game="holdem"),
    Topic("side-pots", _("Side pots"),
          _("Cut the pots: each pot's amount and the seats that may win it; then the chips each seat gets."),
          _make_board(), _settle_answer, ("payouts", "pots"), ("showdown_order",),
          keep=lambda t, a, level: level == 1 or _pots_split(a)),
    Topic("odd-chips", _("Odd chips"),
          _("A pot is split: how many chips does each seat get, and who takes the odd chip?"),
          _make_board(board_straight=0.85, unit=1, dead=True), _settle_answer, ("payouts",), _PAYOUT_ALSO,
          keep=lambda t, a, level: _has_odd_chips(a)),
    Topic("showing-order", _("Showing order"),
          _("Which seat shows first at the showdown, and in what order do the others show (TDA 17A)?"),
          _make_board(), _settle_answer, ("showdown_order",), ("payouts", "pots"),
          keep=lambda t, a, level: level == 1 or len(a["showdown_order"]) >= 3),
    Topic("burn-swap", _("Joker burn-swap"),
          _("The dealer deals burn, flop, burn, turn, burn, river from this stub (top card first). The "
            "joker comes on the board: after the swap, how many burn cards lie in the burn pile, and "
            "which card is the next street's board card?"),
          lambda rng, level: burn_swap_table(rng, level), _burn_swap_answer,
          ("burns_after_swap", "next_board_card"), ("replacement", "board"), settles=False),
    Topic("hilo", _("Hi/lo halves"),
          _("Hold'em hi/lo: who takes the high half and the low half of each pot, and how many chips "
            "does each seat get?"),
          _make_hilo, _settle_answer, ("payouts",), _PAYOUT_ALSO,
          keep=lambda t, a, level: _has_halves(a), game="holdem-hilo"),
    Topic("half-texas", _("Half Texas points"),
          _("Half Texas: how many BP and RP does each seat gain or lose in this game?"),
          lambda rng, level: half_texas_table(rng, level), _settle_answer, ("points",), ("dropouts",),
          game="half-texas"),
    Topic("stud", _("Stud: first to act and showing order"),
          _("Seven-card stud: which seat owns the last round (acts first), in what order do the seats "
            "show, and which seats open their hands?"),
          lambda rng, level: stud_table(rng, level), _stud_answer,
          ("first_to_act", "showdown_order", "shown"), ("payouts",), settles=False, game="stud7"),
    Topic("daifugo", _("Daifugo: legal or not"),
          _("Daifugo: may this seat make this play now?"),
          lambda rng, level: daifugo_table(rng, level), _daifugo_answer, ("legal",), settles=False,
          game="daifugo"),
)}


# ----------------------------------------------------------------------------- the drill

@dataclass(frozen=True, slots=True)
class Drill:
    """A table, a question and the engine's answer.  :meth:`to_json` is one line of
    ``dealer-assist drill --json``."""

    id: str
    topic: str
    level: int
    game: str
    table: Mapping[str, Any]
    answer: Mapping[str, Any]
    #: A drill made from a hand of the hand log (:mod:`dealer_assist.trainer.fromlog`): where it
    #: comes from (``{"log", "hand", "disputed", "why", "corrected", ...}``); None for an engine drill.
    source: Optional[Mapping[str, Any]] = None
    #: Of a drill from the log: where the ruling stored in the log differs from the engine's
    #: answer worked out again from the same table (``{"field", "stored", "recomputed", "text",
    #: "text_ja"}`` each); empty when they agree.
    flagged: tuple[Mapping[str, Any], ...] = ()
    #: The question, where the topic's own does not fit the drill's game (a hand from the log).
    ask: Optional[Msg] = None

    @property
    def question(self) -> Msg:
        return self.ask if self.ask is not None else TOPICS[self.topic].question

    def to_json(self) -> dict:
        en, ja = both(self.question)
        out = {"id": self.id, "topic": self.topic, "level": self.level, "game": self.game,
               "table": self.table, "question": en, "question_ja": ja, "answer": self.answer}
        if self.source is not None:
            out["source"] = dict(self.source)
            out["flagged"] = [dict(f) for f in self.flagged]
        return out


def _game_of(table: Mapping) -> str:
    game = table.get("game")
    if isinstance(game, str):
        return game
    return "daifugo"


def make_drill(topic: str, level: int, seed: int = 0, index: int = 0) -> Drill:
    """Drill ``index`` of ``topic`` at ``level`` for ``seed``: the same on every run."""
    if not isinstance(topic, str) or topic not in TOPICS:
        raise UserError(_("unknown topic {topic}; the topics are {topics}", topic=typed(topic),
                          topics=", ".join(TOPICS)))
    if level not in LEVELS:
        raise UserError(_("level {level}: the levels are 1, 2 and 3", level=typed(level)))
    t = TOPICS[topic]
    rng = random.Random(f"{topic}/{level}/{seed}/{index}")
    table: dict = {}
    answer: dict = {}
    for _try in range(MAX_TRIES):
        table = t.make(rng, level)
        answer = t.answer(table)
        if t.keep(table, answer, level):
            break
    return Drill(f"{topic}-{level}-{seed}-{index}", topic, level, _game_of(table), table, answer)


def generate(n: int, seed: int = 0, topic: Optional[str] = None, level: Optional[int] = None
             ) -> Iterator[Drill]:
    """``n`` drills: every topic in turn (or only ``topic``), levels 1, 2, 3 in turn (or ``level``)."""
    names = [topic] if topic is not None else list(TOPICS)
    for i in range(n):
        name = names[i % len(names)]
        lv = level if level is not None else LEVELS[(i // len(names)) % len(LEVELS)]
        yield make_drill(name, lv, seed, i)


def drill_from_json(obj: Any) -> Drill:
    """A drill as ``drill --json`` wrote it, its answer worked out again by the engine from its
    table (an answer edited in the file is not believed).  :class:`UserError` if malformed."""
    if not isinstance(obj, Mapping):
        raise UserError(_("drill: expected the drill as a JSON object (a line of drill --json)"))
    topic = obj.get("topic")
    if not isinstance(topic, str) or topic not in TOPICS:
        raise UserError(_("drill: unknown topic {topic}; the topics are {topics}", topic=typed(topic),
                          topics=", ".join(TOPICS)))
    level = obj.get("level")
    if isinstance(level, bool) or level not in LEVELS:
        raise UserError(_("drill: level {level}: the levels are 1, 2 and 3", level=typed(level)))
    table = obj.get("table")
    if not isinstance(table, Mapping):
        raise UserError(_("drill: table: expected the drill's table as a JSON object"))
    ident = obj.get("id")
    answer = TOPICS[topic].answer(table)
    source = obj.get("source")
    if isinstance(source, Mapping):      # a hand from the hand log: its question and its flags
        from dealer_assist.trainer.fromlog import log_question, ruling_flags
        # the flags are worked out again too: the logged ruling against the engine's answer
        flagged = ruling_flags(source.get("stored"), answer)
        return Drill(ident if isinstance(ident, str) else "", topic, level, _game_of(table), table, answer,
                     source=source, flagged=flagged, ask=log_question(topic, _game_of(table)))
    return Drill(ident if isinstance(ident, str) else "", topic, level, _game_of(table), table, answer)


# ----------------------------------------------------------------------------- checking

_FIELD_WORDS = {
    "payouts": _("payouts"), "pots": _("pots"), "showdown_order": _("showing order"),
    "points": _("points"), "dropouts": _("dropouts"), "first_to_act": _("first to act"),
    "shown": _("seats that open"), "legal": _("legal or not"), "burns_after_swap": _("burn cards after the swap"),
    "next_board_card": _("next board card"), "replacement": _("card that replaces the joker"),
    "board": _("board"),
}


@dataclass(frozen=True, slots=True)
class Difference:
    """One thing the trainee's answer got wrong: where (``field``), what they gave and what is
    right, and the line that says it."""

    field: str
    given: Any
    expected: Any
    words: Text

    def to_json(self) -> dict:
        en, ja = both(self.words)
        return {"field": self.field, "given": self.given, "expected": self.expected, "text": en, "text_ja": ja}


@dataclass(frozen=True, slots=True)
class CheckResult:
    drill: Drill
    right: bool
    expected: Mapping[str, Any]
    wrong: tuple[Difference, ...] = ()
    explanation: tuple[str, ...] = ()
    explanation_ja: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"id": self.drill.id, "topic": self.drill.topic, "right": self.right,
                "expected": dict(self.expected), "wrong": [d.to_json() for d in self.wrong],
                "explanation": list(self.explanation), "explanation_ja": list(self.explanation_ja)}


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(_show(v) for v in value) or "-"
    return str(value)


def _bad(field_name: str, what: Msg) -> UserError:
    return UserError(_("answer: {field}: {what}", field=field_name, what=what))


def _seat_map(value: Any, field_name: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _bad(field_name, _("expected an object seat -> value, such as {example}",
                                 example='{"1": 200, "2": 0}'))
    return {str(k): v for k, v in value.items()}


def _whole(value: Any, field_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(field_name, _("expected a whole number, got {value}", value=typed(value)))
    return value


def _seats(value: Any, field_name: str) -> list[int]:
    if not isinstance(value, list):
        raise _bad(field_name, _("expected a list of seat numbers"))
    return [_whole(v, field_name) for v in value]


def _card(value: Any, field_name: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _bad(field_name, _("expected a card such as {example}, or null", example="Kd"))
    try:
        return str(parse_card(value))
    except CardError:
        raise _bad(field_name, _("{value} is not a card", value=typed(value))) from None


def _compare_payouts(given: Any, expected: Mapping, name: str = "payouts") -> list[Difference]:
    got = _seat_map(given, name)
    out = []
    for s in sorted(set(expected) | set(got), key=lambda x: (len(x), x)):
        g = _whole(got[s], f"{name}.{s}") if s in got else 0
        e = expected.get(s, 0)
        if g != e:
            out.append(Difference(f"{name}.{s}", g, e, _("seat {seat} gets {expected} chips, not {given}",
                                                          seat=s, expected=e, given=g)))
    return out


def _compare_pots(given: Any, expected: Sequence[Mapping]) -> list[Difference]:
    if not isinstance(given, list):
        raise _bad("pots", _("expected a list of pots, main pot first"))
    out = []
    if len(given) != len(expected):
        out.append(Difference("pots", len(given), len(expected),
                              _("there are {expected} pots, not {given}", expected=len(expected), given=len(given))))
    for i, (g, e) in enumerate(zip(given, expected)):
        if not isinstance(g, Mapping):
            raise _bad(f"pots[{i}]", _("expected a pot as an object (amount, eligible, winners)"))
        pot_words = (e["name"], e["name_ja"])
        for key in ("amount", "eligible", "winners", "odd_chips"):
            if key not in g:
                continue
            if key == "amount":
                gv, ev = _whole(g[key], f"pots[{i}].amount"), e[key]
            else:
                gv, ev = sorted(_seats(g[key], f"pots[{i}].{key}")), sorted(e[key])
            if gv == ev:
                continue
            if key == "amount":
                words = _("{pot} is {expected} chips, not {given}", pot=_Both(*pot_words), expected=ev, given=gv)
            elif key == "eligible":
                words = _("{pot} may be won by {expected}, not {given}", pot=_Both(*pot_words),
                          expected=_seats_words(ev), given=_seats_words(gv))
            elif key == "winners":
                words = _("{pot} goes to {expected}, not {given}", pot=_Both(*pot_words),
                          expected=_seats_words(ev), given=_seats_words(gv))
            else:
                words = _("the odd chips of {pot} go to {expected}, not {given}", pot=_Both(*pot_words),
                          expected=_seats_words(ev), given=_seats_words(gv))
            out.append(Difference(f"pots[{i}].{key}", gv, ev, words))
        if "shares" in g:
            out += _compare_payouts(g["shares"], e["shares"], f"pots[{i}].shares")
    return out


@dataclass(frozen=True, slots=True)
class _Both:
    """Words already in both languages (a pot's ``name`` / ``name_ja`` from the ruling)."""

    en: str
    ja: str

    def render(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


def _seats_words(seats: Sequence[int]) -> Text:
    return seat_list(seats) if seats else _("nobody")


def _compare_field(key: str, given: Any, expected: Any) -> list[Difference]:
    if key == "payouts":
        return _compare_payouts(given, expected)
    if key == "pots":
        return _compare_pots(given, expected)
    if key == "points":
        got = _seat_map(given, "points")
        out = []
        for s in sorted(set(expected) | set(got), key=lambda x: (len(x), x)):
            g = got.get(s, {"bp": 0, "rp": 0})
            if not isinstance(g, Mapping):
                raise _bad(f"points.{s}", _("expected {example}", example='{"bp": 2, "rp": -1}'))
            gv = {"bp": _whole(g.get("bp", 0), f"points.{s}.bp"), "rp": _whole(g.get("rp", 0), f"points.{s}.rp")}
            ev = expected.get(s, {"bp": 0, "rp": 0})
            if gv != ev:
                out.append(Difference(f"points.{s}", gv, ev, _(
                    "seat {seat}: {ebp}BP {erp}RP, not {gbp}BP {grp}RP", seat=s,
                    ebp=_signed(ev["bp"]), erp=_signed(ev["rp"]), gbp=_signed(gv["bp"]), grp=_signed(gv["rp"]))))
        return out
    if key in ("showdown_order",):
        gv = _seats(given, key)
        if gv != list(expected):
            return [Difference(key, gv, expected, _("the showing order is {expected}, not {given}",
                                                    expected=_show(list(expected)), given=_show(gv)))]
        return []
    if key in ("shown", "dropouts"):
        gv = sorted(_seats(given, key))
        if gv != sorted(expected):
            return [Difference(key, gv, sorted(expected), _("{what}: {expected}, not {given}",
                                                            what=_FIELD_WORDS[key], expected=_seats_words(sorted(expected)),
                                                            given=_seats_words(gv)))]
        return []
    if key == "first_to_act":
        gv = _whole(given, key)
        if gv != expected:
            return [Difference(key, gv, expected, _("seat {expected} acts first, not seat {given}",
                                                    expected=expected, given=gv))]
        return []
    if key == "legal":
        if not isinstance(given, bool):
            raise _bad(key, _("expected true or false"))
        if given != expected:
            return [Difference(key, given, expected, _("the play is legal") if expected
                               else _("the play is not legal"))]
        return []
    if key == "burns_after_swap":
        gv = _whole(given, key) if given is not None else None
        if gv != expected:
            return [Difference(key, gv, expected, _("{expected} burn cards after the swap, not {given}",
                                                    expected=_show(expected), given=_show(gv)))]
        return []
    if key in ("next_board_card", "replacement"):
        gv = _card(given, key)
        if gv != expected:
            return [Difference(key, gv, expected, _("{what}: {expected}, not {given}", what=_FIELD_WORDS[key],
                                                    expected=_show(expected), given=_show(gv)))]
        return []
    if key == "board":
        if not isinstance(given, list):
            raise _bad(key, _("expected a list of cards"))
        gv = [_card(c, key) for c in given]
        if gv != list(expected):
            return [Difference(key, gv, expected, _("{what}: {expected}, not {given}", what=_FIELD_WORDS[key],
                                                    expected=_show(list(expected)), given=_show(gv)))]
        return []
    raise AssertionError(key)   # pragma: no cover - every asked field is compared above


def _signed(v: int) -> str:
    return f"{v:+d}"


def check(drill: Drill, given: Any) -> CheckResult:
    """Compare the trainee's answer with the engine's.  :class:`UserError` when it is no answer."""
    topic = TOPICS[drill.topic]
    if not isinstance(given, Mapping):
        raise UserError(_("answer: expected the trainee's answer as a JSON object, such as {example}",
                          example='{"payouts": {"1": 200, "2": 0}}'))
    fields = topic.asks + topic.also
    if not any(k in given for k in fields):
        raise UserError(_("answer: none of the fields this drill asks for ({fields})",
                          fields=", ".join(topic.asks)))
    wrong: list[Difference] = []
    for key in fields:
        if key in given:
            wrong += _compare_field(key, given[key], drill.answer[key])
        elif key in topic.asks:
            wrong.append(Difference(key, None, drill.answer[key], _("{what}: not answered",
                                                                     what=_FIELD_WORDS[key])))
    answer = drill.answer
    verdict = _("Right.") if not wrong else _("Wrong: {what}.", what=_p_join([d.words for d in wrong]))
    en = [both(verdict)[0]]
    ja = [both(verdict)[1]]
    if "explanation" in answer:
        en += list(answer["explanation"])
        ja += list(answer["explanation_ja"])
    else:    # daifugo: the reason
        en.append(answer["reason"])
        ja.append(answer["reason_ja"])
    for f in drill.flagged:      # a hand from the log whose logged ruling the engine no longer gives
        if isinstance(f.get("text"), str) and isinstance(f.get("text_ja"), str):
            en.append(f["text"])
            ja.append(f["text_ja"])
    return CheckResult(drill, not wrong, answer, tuple(wrong), tuple(en), tuple(ja))


def _p_join(items: Sequence[Text]) -> Text:
    from dealer_assist.i18n import _p, join
    return join(items, _p("differences", "; "))


def check_json(obj: Any) -> dict:
    """``{"drill": ..., "answer": ...}`` -> the check's JSON (``drill check``)."""
    if not isinstance(obj, Mapping) or "drill" not in obj or "answer" not in obj:
        raise UserError(_("expected {example} (or an array of them)", example='{"drill": ..., "answer": ...}'))
    return check(drill_from_json(obj["drill"]), obj["answer"]).to_json()
