"""Betting rounds: who may check, call, bet, raise, fold or go all-in, and for how much.

The seed's general poker rules (``seeds/004``) name four betting structures; each is a small
:class:`Structure` whose hooks decide the amounts, over one explicit state machine,
:class:`BettingRound` (frozen: :meth:`BettingRound.apply` returns a new round).

=========================  ==================================================================
structure                  the amounts
=========================  ==================================================================
:class:`FixedLimit`        a bet or raise is exactly the bet of the round ("10/20": 10 on the
                           early rounds, 20 on the late ones); at most ``cap`` raises a round
                           (3 or 4), the cap lifted when only two seats have not folded
:class:`SpreadLimit`       a bet or raise is any amount in [low, high] ("1-5/1-10"); a raise is
                           at least the largest raise of the round; the same cap
:class:`PotLimit`          at least the minimum bet (the big blind), at most a pot-size raise:
                           pot + every bet this round + the call
:class:`NoLimit`           at least the minimum bet, a raise at least the largest bet or raise
                           increment of this round (never less than the big blind); at most the
                           whole stack
=========================  ==================================================================

=========================  ==================================================================
hook                       what it decides
=========================  ==================================================================
``bet_bounds``             the smallest and largest opening bet (``None``: no maximum), and
                           the rule in words (English and Japanese)
``raise_bounds``           the smallest and largest total a raise may go to, and the rule
``is_full``                whether a bet or raise to an amount is a full one (it counts toward
                           the cap, sets the next minimum, and reopens the betting)
``reopened``               whether a seat that already acted may raise again (TDA: an all-in
                           short of a full raise does not reopen the betting; in limit, half a
                           bet does)
``reopen_words``           what reopens the betting, in words
``capped``                 whether the raise cap stops further raises
=========================  ==================================================================

Amounts are "to" amounts: a seat's chips put in this round, after the action.

The seed's own examples (seeds/004):

>>> nl = BettingRound.start(NoLimit(min_bet=10), {1: 1000, 2: 1000, 3: 1000}, first=1)
>>> r = nl.apply(Action(1, "bet", 10)).apply(Action(2, "raise", 60))
>>> r.options().raise_range       # a raise of 50 was made: the next must be 50 more, to 110
(110, 1000)
>>> pl = BettingRound.start(PotLimit(min_bet=10), {1: 1000, 2: 1000, 3: 1000}, pot=50, first=1)
>>> pl.apply(Action(1, "bet", 10)).apply(Action(2, "call")).options().raise_range
(20, 90)

Pot limit: a pot of 50, a bet of 10 and a call: the third seat may raise by 50 + 20 + 10 = 80,
putting 90 in.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Iterable, Mapping, Optional, Sequence

from dealer_assist.cards import Card, CardError, check_unique, parse_card
from dealer_assist.i18n import Text, _, message_of, render, typed
from dealer_assist.rules.errors import MAX_CHIPS, MAX_SEAT, RuleError
from dealer_assist.rules.pots import clockwise_from as clockwise

__all__ = [
    "Kind", "Action", "Reason", "IllegalAction", "Structure", "FixedLimit", "SpreadLimit",
    "PotLimit", "NoLimit", "SeatState", "BettingRound", "Legal", "Options", "first_dealer",
    "next_button", "bet_from_json", "round_from_json", "structure_from_json", "STREETS", "GameBetting",
    "HOLDEM_STREETS", "STUD_STREETS", "DRAW_STREETS",
]


class Kind(str, enum.Enum):
    """The six things a seat may do in turn."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"

    @classmethod
    def parse(cls, text: Any) -> "Kind":
        if isinstance(text, Kind):
            return text
        key = str(text).strip().lower().replace("-", "_").replace(" ", "_")
        key = {"allin": "all_in", "shove": "all_in", "jam": "all_in"}.get(key, key)
        try:
            return cls(key)
        except ValueError:
            raise RuleError(_("unknown action {action}: actions are fold, check, call, bet, raise, "
                              "all_in", action=typed(text)), field="action") from None


#: An action's name in words (the English is the JSON name).
KIND_WORDS = {Kind.FOLD: _("fold"), Kind.CHECK: _("check"), Kind.CALL: _("call"), Kind.BET: _("bet"),
              Kind.RAISE: _("raise"), Kind.ALL_IN: _("all_in")}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action is legal or not: a catalogue message (:mod:`dealer_assist.i18n`), read in
    English (:attr:`en`) and Japanese (:attr:`ja`)."""

    msg: Text

    @property
    def en(self) -> str:
        return render(self.msg, "en")

    @property
    def ja(self) -> str:
        return render(self.msg, "ja")

    def render(self, lang: str) -> str:
        return render(self.msg, lang)

    def to_json(self) -> dict:
        return {"en": self.en, "ja": self.ja}


class IllegalAction(RuleError):
    """An action the rules forbid; ``why`` (and ``reason``) holds the explanation, which the error
    says in each language: ``str(exc)`` is the English, ``exc.says("ja")`` the Japanese.

    >>> e = IllegalAction(Reason(_("you cannot check: {call} to call", call=200)), field="check", seat=3)
    >>> str(e)
    'seat 3: check: you cannot check: 200 to call'
    >>> e.says("ja").endswith("チェックできません: コールに200必要です")
    True
    """

    def __init__(self, why: Reason, *, field: str, seat: Optional[int] = None):
        super().__init__(why, field=field, seat=seat)
        self.why = why


@dataclass(frozen=True, slots=True)
class Action:
    """A seat's action.  ``to``: for bet and raise, the seat's total this round afterwards.

    >>> Action(3, "raise", 300)
    Action(seat=3, kind=<Kind.RAISE: 'raise'>, to=300)
    """

    seat: int
    kind: Kind
    to: Optional[int] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind.parse(self.kind))

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind.value}" + (f" to {self.to}" if self.to is not None else "")


# --------------------------------------------------------------------------- structures

@dataclass(frozen=True, slots=True)
class Structure:
    """A betting structure: the base says nothing about amounts; subclasses override the hooks."""

    name: ClassVar[str] = "structure"
    words: ClassVar[Text] = ""

    @property
    def raise_cap(self) -> Optional[int]:
        """Raises allowed per round (``None``: no cap)."""
        return getattr(self, "cap", None)

    @property
    def opening(self) -> int:
        """The size of a full opening bet (also the first minimum raise)."""
        raise NotImplementedError

    def bet_bounds(self, rnd: "BettingRound") -> tuple[int, Optional[int], Reason]:
        raise NotImplementedError

    def raise_bounds(self, rnd: "BettingRound", seat: "SeatState") -> tuple[int, Optional[int], Reason]:
        raise NotImplementedError

    def is_full(self, rnd: "BettingRound", to: int) -> bool:
        """A bet/raise to ``to`` is full when it raises the bet by at least the minimum raise."""
        return to - rnd.bet >= rnd.min_raise

    def reopened(self, rnd: "BettingRound", seat: "SeatState") -> bool:
        """A seat that acted may raise again only when facing at least a full raise since then
        (short all-ins count together).  TDA: an all-in short of a full raise does not reopen."""
        return seat.acted_at is None or rnd.bet - seat.acted_at >= rnd.min_raise

    def reopen_words(self, rnd: "BettingRound") -> Text:
        """What reopens the betting, in words."""
        return _("a full raise ({n})", n=rnd.min_raise)

    def capped(self, rnd: "BettingRound") -> bool:
        return False

    def describe(self) -> dict:
        return {"structure": self.name}


def _min_raise_reason(rnd: "BettingRound", lo: int) -> Reason:
    return Reason(_("a raise must add at least {n} (the largest bet or raise of this round, never less "
                    "than the minimum bet), so to {lo} or more", n=rnd.min_raise, lo=lo))


@dataclass(frozen=True, slots=True)
class NoLimit(Structure):
    """No limit: bets from ``min_bet`` (the big blind) up to the whole stack."""

    min_bet: int
    name: ClassVar[str] = "no-limit"
    words: ClassVar[Text] = _("no limit")

    @property
    def opening(self) -> int:
        return self.min_bet

    def bet_bounds(self, rnd) -> tuple[int, Optional[int], Reason]:
        return self.min_bet, None, Reason(
            _("no limit: a bet is at least {n} and at most your stack", n=self.min_bet))

    def raise_bounds(self, rnd, seat) -> tuple[int, Optional[int], Reason]:
        lo = rnd.bet + rnd.min_raise
        why = _min_raise_reason(rnd, lo)
        return lo, None, Reason(_("no limit: {why}; at most your stack", why=why))

    def describe(self) -> dict:
        return {"structure": self.name, "min_bet": self.min_bet}


@dataclass(frozen=True, slots=True)
class PotLimit(Structure):
    """Pot limit: at least ``min_bet``; at most a pot-size raise (pot + bets this round + the call).

    >>> r = BettingRound.start(PotLimit(min_bet=100), {1: 5000, 2: 5000, 3: 5000}, button=1,
    ...                        blinds=(50, 100))
    >>> r.to_act, r.options().raise_range     # 100 + (150 in the blinds + the 100 call)
    (1, (200, 350))
    """

    min_bet: int
    name: ClassVar[str] = "pot-limit"
    words: ClassVar[Text] = _("pot limit")

    @property
    def opening(self) -> int:
        return self.min_bet

    def bet_bounds(self, rnd) -> tuple[int, Optional[int], Reason]:
        pot = rnd.pot_total
        return self.min_bet, max(pot, self.min_bet), Reason(
            _("pot limit: a bet is at least {n} and at most the pot ({pot})", n=self.min_bet, pot=pot))

    def raise_bounds(self, rnd, seat) -> tuple[int, Optional[int], Reason]:
        lo = rnd.bet + rnd.min_raise
        call = rnd.bet - seat.committed
        pot = rnd.pot_total
        hi = max(rnd.bet + pot + call, lo)
        why = _min_raise_reason(rnd, lo)
        return lo, hi, Reason(
            _("pot limit: {why}; at most a pot-size raise: pot {pot} + bets this round {bets} + your call "
              "{call} = {size}, so to {hi}", why=why, pot=rnd.pot, bets=rnd.committed_total, call=call,
              size=pot + call, hi=hi))

    def describe(self) -> dict:
        return {"structure": self.name, "min_bet": self.min_bet}


@dataclass(frozen=True, slots=True)
class FixedLimit(Structure):
    """Fixed limit: every bet and raise is exactly ``bet``; at most ``cap`` raises a round.

    The cap is lifted when only two seats have not folded (seeds/004).  An all-in of at least
    half a bet counts as a raise and reopens the betting; a smaller one lets the next seat call
    it or complete to the full level (TDA, limit).

    >>> r = BettingRound.start(FixedLimit(bet=10), {1: 500, 2: 500, 3: 500}, first=1)
    >>> r = r.apply(Action(1, "bet", 10)).apply(Action(2, "raise", 20))
    >>> r.options().raise_range      # the high bet is 20: a raise goes to exactly 30
    (30, 30)
    """

    bet: int
    cap: Optional[int] = 4
    name: ClassVar[str] = "fixed-limit"
    words: ClassVar[Text] = _("fixed limit")

    @property
    def opening(self) -> int:
        return self.bet

    def bet_bounds(self, rnd) -> tuple[int, Optional[int], Reason]:
        return self.bet, self.bet, Reason(_("fixed limit: a bet is exactly {n}", n=self.bet))

    def raise_bounds(self, rnd, seat) -> tuple[int, Optional[int], Reason]:
        to = rnd.full_level + self.bet
        if rnd.bring_in and rnd.full_level == 0 and rnd.bet == rnd.bring_in:
            why = _("fixed limit: a raise completes the bring-in of {bring_in} to the full bet: exactly {to}",
                    bring_in=rnd.bring_in, to=to)
        elif rnd.full_level < rnd.bet:
            why = _("fixed limit: the all-in to {allin} was less than half a bet, so a raise completes "
                    "the full level {level} plus {n}: exactly {to}", allin=rnd.bet, level=rnd.full_level,
                    n=self.bet, to=to)
        else:
            why = _("fixed limit: a raise adds exactly {n}, to {to}", n=self.bet, to=to)
        return to, to, Reason(why)

    def is_full(self, rnd, to) -> bool:
        return 2 * (to - rnd.full_level) >= self.bet

    def reopened(self, rnd, seat) -> bool:
        return seat.acted_at is None or 2 * (rnd.bet - seat.acted_at) >= self.bet

    def reopen_words(self, rnd) -> Text:
        return _("half a bet ({n})", n=(self.bet + 1) // 2)

    def capped(self, rnd) -> bool:
        return _capped(self.cap, rnd)

    def describe(self) -> dict:
        return {"structure": self.name, "bet": self.bet, "cap": self.cap}


@dataclass(frozen=True, slots=True)
class SpreadLimit(Structure):
    """Spread limit: a bet or a raise is any amount from ``low`` to ``high``.

    A raise must still add at least the largest bet or raise of the round (seeds/004: that rule
    holds in every structure).  At most ``cap`` raises a round, lifted heads-up.

    >>> r = BettingRound.start(SpreadLimit(low=1, high=5), {1: 100, 2: 100}, first=1)
    >>> r.options().bet_range
    (1, 5)
    >>> r.apply(Action(1, "bet", 3)).options().raise_range
    (6, 8)
    """

    low: int
    high: int
    cap: Optional[int] = 4
    name: ClassVar[str] = "spread-limit"
    words: ClassVar[Text] = _("spread limit")

    def __post_init__(self) -> None:
        if not 0 < self.low <= self.high:
            raise RuleError(_("a spread is low-high with 0 < low <= high, not {low}-{high}",
                              low=self.low, high=self.high), field="limits")

    @property
    def opening(self) -> int:
        return self.low

    def bet_bounds(self, rnd) -> tuple[int, Optional[int], Reason]:
        return self.low, self.high, Reason(
            _("spread limit: a bet is {low} to {high}", low=self.low, high=self.high))

    def raise_bounds(self, rnd, seat) -> tuple[int, Optional[int], Reason]:
        step = min(rnd.min_raise, self.high)
        lo, hi = rnd.bet + step, rnd.bet + self.high
        return lo, hi, Reason(
            _("spread limit: a raise adds {step} to {high} (at least the largest raise of this round), so "
              "to {lo}..{hi}", step=step, high=self.high, lo=lo, hi=hi))

    def capped(self, rnd) -> bool:
        return _capped(self.cap, rnd)

    def describe(self) -> dict:
        return {"structure": self.name, "low": self.low, "high": self.high, "cap": self.cap}


def _capped(cap: Optional[int], rnd: "BettingRound") -> bool:
    return cap is not None and rnd.raises >= cap and len(rnd.live) > 2


# --------------------------------------------------------------------------- the round

@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat in a betting round.

    ``stack``: chips behind (not yet bet); ``committed``: chips put in this round;
    ``acted_at``: the bet the seat faced when it last acted this round (``None``: not yet).
    """

    seat: int
    stack: int
    committed: int = 0
    folded: bool = False
    acted_at: Optional[int] = None

    @property
    def all_in(self) -> bool:
        return not self.folded and self.stack == 0

    @property
    def can_act(self) -> bool:
        return not self.folded and self.stack > 0

    @property
    def reach(self) -> int:
        """The most this seat can have in this round: committed + stack."""
        return self.committed + self.stack


@dataclass(frozen=True, slots=True)
class Legal:
    """One legal action: ``amount`` for a call; ``min_to``/``max_to`` for bet, raise, all-in."""

    kind: Kind
    amount: Optional[int] = None
    min_to: Optional[int] = None
    max_to: Optional[int] = None
    all_in: bool = False

    def to_json(self) -> dict:
        out: dict = {"action": self.kind.value}
        if self.amount is not None:
            out["amount"] = self.amount
        if self.min_to is not None:
            out["min_to"] = self.min_to
            out["max_to"] = self.max_to
        if self.all_in and self.kind is not Kind.ALL_IN:
            out["all_in"] = True
        return out


@dataclass(frozen=True, slots=True)
class Options:
    """What the seat to act may do, and why for each of the six actions."""

    seat: Optional[int]
    legal: tuple[Legal, ...]
    why: Mapping[Kind, Reason]

    def get(self, kind: Kind) -> Optional[Legal]:
        for item in self.legal:
            if item.kind is kind:
                return item
        return None

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(item.kind.value for item in self.legal)

    @property
    def raise_range(self) -> Optional[tuple[int, int]]:
        item = self.get(Kind.RAISE)
        return None if item is None else (item.min_to, item.max_to)

    @property
    def bet_range(self) -> Optional[tuple[int, int]]:
        item = self.get(Kind.BET)
        return None if item is None else (item.min_to, item.max_to)


@dataclass(frozen=True, slots=True)
class BettingRound:
    """One betting round, as an explicit state; :meth:`apply` gives the next state.

    ``pot``: chips in the middle from antes and earlier rounds; ``bet``: the amount each seat
    must reach to stay in; ``min_raise``: the size of the largest full bet or raise so far (the
    next raise adds at least this); ``full_level``: the bet of the last full bet or raise (a
    short all-in leaves it); ``raises``: full raises made (for the cap); ``to_act``: the seat
    whose turn it is, ``None`` when the round is over.

    >>> r = BettingRound.start(NoLimit(min_bet=100), {1: 1000, 2: 1000, 3: 650}, button=1,
    ...                        blinds=(50, 100))
    >>> r.to_act, [a.to_json() for a in r.options().legal]
    (1, [{'action': 'fold'}, {'action': 'call', 'amount': 100}, {'action': 'raise', 'min_to': 200, 'max_to': 1000}, {'action': 'all_in', 'min_to': 1000, 'max_to': 1000}])
    >>> r.options().why[Kind.CHECK].en
    'you cannot check: 100 to call'
    """

    structure: Structure
    seats: tuple[SeatState, ...]
    to_act: Optional[int]
    pot: int = 0
    bet: int = 0
    min_raise: int = 0
    full_level: int = 0
    raises: int = 0
    last_aggressor: Optional[int] = None
    history: tuple[Action, ...] = ()
    bring_in: int = 0

    # ---------------------------------------------------------------- construction

    @classmethod
    def start(cls, structure: Structure, stacks: Mapping[int, int], *, button: Optional[int] = None,
              blinds: Optional[Sequence[int]] = None, ante: int = 0, pot: int = 0,
              first: Optional[int] = None, bb_ante: int = 0, bring_in: int = 0) -> "BettingRound":
        """A new round: antes (to the pot), blinds posted, the first seat to act.

        ``stacks`` are the seats' chips before antes and blinds.  With blinds, the small blind
        is the first seat left of the button and the big blind the next (heads-up: the button
        posts the small blind and acts first); the first to act is left of the big blind.
        Without blinds, the first to act is ``first`` or the first seat left of the button.
        A big blind all-in for less still sets the bet to the full big blind.

        ``bb_ante``: the big blind posts one ante for the whole table, dead money in the pot.
        A big blind short of both posts the blind first and antes what is left (the 2024 Poker
        TDA rules: "big blind first"):

        >>> r = BettingRound.start(NoLimit(min_bet=100), {1: 1000, 2: 150, 3: 1000}, button=3,
        ...                        blinds=(50, 100), bb_ante=100)
        >>> r.pot, [(s.seat, s.stack, s.committed) for s in r.seats]
        (50, [(1, 950, 50), (2, 0, 100), (3, 1000, 0)])

        ``bring_in`` (fixed limit, no blinds): the seat ``first`` opens with a forced bet of less
        than a full bet (seed 004: a forced opening bet "may be called a bring-in"); the next seat
        clockwise acts first and may call it or complete it to the full bet, which is the round's
        opening bet (no raise counted toward the cap). The seat that brought in acts again only when
        someone completed or raised:

        >>> r = BettingRound.start(FixedLimit(bet=10), {1: 500, 2: 500, 3: 500}, ante=1, first=2, bring_in=3)
        >>> r.to_act, r.pot, r.bet, [a.to_json() for a in r.options().legal][1:3]
        (3, 3, 3, [{'action': 'call', 'amount': 3}, {'action': 'raise', 'min_to': 10, 'max_to': 10}])
        >>> r.apply(Action(3, "call")).apply(Action(1, "call")).is_complete
        True
        """
        _check_amount(pot, "pot")
        _check_amount(ante, "ante")
        _check_amount(bb_ante, "bb_ante")
        if bb_ante and not blinds:
            raise RuleError(_("a big-blind ante is posted by the big blind: give the blinds too"),
                            field="bb_ante")
        _check_amount(bring_in, "bring_in")
        if bring_in:
            if blinds:
                raise RuleError(_("a round opens with blinds or with a bring-in, not both"), field="bring_in")
            if not isinstance(structure, FixedLimit):
                raise RuleError(_("a bring-in opens a fixed-limit round (stud), not {structure}",
                                  structure=structure.name), field="bring_in")
            if bring_in >= structure.bet:
                raise RuleError(_("the bring-in ({bring_in}) is less than the full bet ({bet}); "
                                  "a full bet is no bring-in", bring_in=bring_in, bet=structure.bet),
                                field="bring_in")
            if first is None:
                raise RuleError(_("a bring-in is posted by the seat that opens: give \"first\" (in stud the "
                                  "owner, or \"up\" with \"game\": \"stud7\")"), field="first")
        seats = []
        for seat, stack in sorted(stacks.items()):
            _check_seat(seat)
            _check_amount(stack, "stack", seat)
            if stack == 0:
                raise RuleError(_("a seat in the hand needs chips: the stack is 0"), field="stack",
                                seat=seat)
            paid = min(ante, stack)
            pot += paid
            seats.append(SeatState(seat, stack - paid))
        if len(seats) < 2:
            raise RuleError(_("a betting round needs at least two seats"), field="seats")
        order = [s.seat for s in seats]
        if button is not None:
            _check_seat(button, "button")
        bet = 0
        if blinds:
            if button is None:
                raise RuleError(_("blinds need the button: the small blind is left of it"),
                                field="button")
            sb, bb = _blinds(blinds)
            left = clockwise(button, order)
            if len(order) == 2:
                sb_seat = button if button in order else left[0]
                bb_seat = next(s for s in order if s != sb_seat)
            else:
                sb_seat, bb_seat = left[0], left[1]
            by = {s.seat: s for s in seats}
            for seat, amount in ((sb_seat, sb), (bb_seat, bb)):
                s = by[seat]
                paid = min(amount, s.stack)
                by[seat] = replace(s, stack=s.stack - paid, committed=paid)
            if bb_ante:   # after the blind: big blind first
                s = by[bb_seat]
                paid = min(bb_ante, s.stack)
                pot += paid
                by[bb_seat] = replace(s, stack=s.stack - paid)
            seats = [by[s] for s in order]
            bet = bb
            default_first = clockwise(bb_seat, order)[0]
        else:
            default_first = clockwise(button, order)[0] if button is not None else None
        full_level = bet
        if bring_in and first in order:
            # the opening seat's forced bet: not a full bet (a raise completes it), and it has acted
            # facing no bet, so it acts again only once the betting is reopened
            by = {s.seat: s for s in seats}
            s = by[first]
            paid = min(bring_in, s.stack)
            by[first] = replace(s, stack=s.stack - paid, committed=paid, acted_at=0)
            seats = [by[x] for x in order]
            bet, full_level = bring_in, 0
        rnd = cls(structure, tuple(seats), None, pot=pot, bet=bet,
                  min_raise=max(structure.opening, bet if isinstance(structure, (NoLimit, PotLimit)) else 0),
                  full_level=full_level, bring_in=bring_in)
        if first is None:
            first = default_first
        if first is None:
            raise RuleError(_("say who acts first: give the button or the first seat to act"),
                            field="first")
        if first not in order:
            raise RuleError(_("seat {seat} is not at the table (seats {seats})", seat=first,
                              seats=_list(order)), field="first")
        return replace(rnd, to_act=rnd._next_from(first, inclusive=not bring_in))

    # ---------------------------------------------------------------- views

    @property
    def live(self) -> tuple[SeatState, ...]:
        """Seats that have not folded (all-in seats included)."""
        return tuple(s for s in self.seats if not s.folded)

    @property
    def committed_total(self) -> int:
        return sum(s.committed for s in self.seats)

    @property
    def pot_total(self) -> int:
        """Everything in the middle: the pot before this round and every chip bet this round."""
        return self.pot + self.committed_total

    @property
    def is_complete(self) -> bool:
        return self.to_act is None

    @property
    def hand_over(self) -> bool:
        """Only one seat has not folded: it wins without a showdown."""
        return len(self.live) == 1

    def seat(self, number: int) -> SeatState:
        for s in self.seats:
            if s.seat == number:
                return s
        raise RuleError(_("seat {seat} is not at the table (seats {seats})", seat=number,
                          seats=_list(s.seat for s in self.seats)), field="seat", seat=number)

    def _needs_action(self, s: SeatState) -> bool:
        return s.can_act and (s.acted_at is None or s.committed < self.bet)

    def _next_from(self, start: int, inclusive: bool = False) -> Optional[int]:
        """The first seat from ``start`` clockwise that still has to act; ``None``: round over."""
        if len(self.live) <= 1:
            return None
        able = [s for s in self.seats if s.can_act]
        if len(able) == 1 and able[0].committed >= self.bet:
            return None        # nobody left to bet against
        if not able:
            return None
        order = [s.seat for s in self.seats]
        if inclusive and start in order:
            ring = [start] + [x for x in clockwise(start, order) if x != start]
        else:
            ring = clockwise(start, order)
        by = {s.seat: s for s in self.seats}
        for number in ring:
            if self._needs_action(by[number]):
                return number
        return None

    # ---------------------------------------------------------------- rules

    def options(self) -> Options:
        """The legal actions of the seat to act, with amounts, and the reason for each action."""
        if self.to_act is None:
            why = self._over_reason()
            return Options(None, (), {k: why for k in Kind})
        s = self.seat(self.to_act)
        call = self.bet - s.committed
        call_amount = min(call, s.stack)
        st = self.structure
        legal: list[Legal] = []
        why: dict[Kind, Reason] = {}

        # fold
        legal.append(Legal(Kind.FOLD))
        why[Kind.FOLD] = (Reason(_("fold: allowed, but you can check for free (a fold is binding)"))
                          if call <= 0 else
                          Reason(_("fold: give up the hand and the {n} you put in this round", n=s.committed)))
        # check / call
        if call <= 0:
            legal.append(Legal(Kind.CHECK))
            why[Kind.CHECK] = Reason(_("check: there is no bet to call"))
            why[Kind.CALL] = Reason(_("you cannot call: there is nothing to call; check"))
        else:
            why[Kind.CHECK] = Reason(_("you cannot check: {call} to call", call=call))
            short = call_amount < call
            legal.append(Legal(Kind.CALL, amount=call_amount, all_in=call_amount == s.stack))
            why[Kind.CALL] = (Reason(_("call {amount}: all-in, short of the full {call}; you can win only "
                                       "what you matched (side pot)", amount=call_amount, call=call))
                              if short else Reason(_("call {amount} to match the bet of {bet}",
                                                     amount=call_amount, bet=self.bet)))
        # bet / raise
        aggressive: Optional[Legal] = None
        if self.bet == 0:
            why[Kind.RAISE] = Reason(_("you cannot raise: there is no bet yet; bet instead"))
            lo, hi, rule = st.bet_bounds(self)
            aggressive = self._bounded(Kind.BET, s, lo, hi)
            why[Kind.BET] = rule
        else:
            why[Kind.BET] = Reason(_("you cannot bet: there is already a bet of {bet}; call or raise", bet=self.bet))
            block = self._raise_block(s)
            if block is not None:
                why[Kind.RAISE] = block
            else:
                lo, hi, rule = st.raise_bounds(self, s)
                aggressive = self._bounded(Kind.RAISE, s, lo, hi)
                why[Kind.RAISE] = rule
        if aggressive is not None:
            legal.append(aggressive)
            kind = aggressive.kind
            if aggressive.all_in and aggressive.min_to == aggressive.max_to and aggressive.max_to < lo:
                why[kind] = Reason(_("{why}; your stack reaches only {reach}, so only all-in for {reach}",
                                     why=why[kind], reach=s.reach))
        # all-in
        reach = s.reach
        if reach <= self.bet:
            legal.append(Legal(Kind.ALL_IN, min_to=reach, max_to=reach, all_in=True))
            why[Kind.ALL_IN] = Reason(_("all-in for {reach}: a call (your whole stack {stack})", reach=reach,
                                        stack=s.stack))
        elif aggressive is not None and aggressive.max_to == reach:
            legal.append(Legal(Kind.ALL_IN, min_to=reach, max_to=reach, all_in=True))
            why[Kind.ALL_IN] = Reason(_("all-in for {reach}: a {kind}", reach=reach,
                                        kind=KIND_WORDS[aggressive.kind]))
        elif aggressive is not None:
            why[Kind.ALL_IN] = Reason(
                _("you cannot go all-in: your stack reaches {reach}, above the most this {kind} may go to "
                  "({top})", reach=reach, kind=KIND_WORDS[aggressive.kind], top=aggressive.max_to))
        else:
            kind = Kind.RAISE if self.bet else Kind.BET
            why[Kind.ALL_IN] = Reason(_("you cannot go all-in: it would be a {kind}, and {why}",
                                        kind=KIND_WORDS[kind], why=why[kind]))
        return Options(s.seat, tuple(legal), why)

    def _bounded(self, kind: Kind, s: SeatState, lo: int, hi: Optional[int]) -> Optional[Legal]:
        reach = s.reach
        if reach <= self.bet:
            return None
        if reach < lo:
            return Legal(kind, min_to=reach, max_to=reach, all_in=True)
        top = reach if hi is None else min(hi, reach)
        return Legal(kind, min_to=lo, max_to=top, all_in=lo >= reach)

    def _raise_block(self, s: SeatState) -> Optional[Reason]:
        st = self.structure
        if s.reach <= self.bet:
            return Reason(_("you cannot raise: your stack covers only the call ({stack})", stack=s.stack))
        if st.capped(self):
            return Reason(_("you cannot raise: the raises are capped ({raises} raises this round, cap {cap}, "
                            "{live} seats still in); call or fold", raises=self.raises, cap=st.raise_cap,
                            live=len(self.live)))
        if not st.reopened(self, s):
            return Reason(_("you cannot raise: the betting was not reopened; the bet was {was} when you last "
                            "acted, and all-ins since then raised it only by {rise}, less than {reopen}; call "
                            "or fold", was=s.acted_at, rise=self.bet - s.acted_at,
                            reopen=st.reopen_words(self)))
        return None

    def _over_reason(self) -> Reason:
        if self.hand_over:
            w = self.live[0].seat
            return Reason(_("the round is over: everyone else folded, seat {seat} wins the pot ({pot})",
                            seat=w, pot=self.pot_total))
        able = [s for s in self.seats if s.can_act]
        if len(able) <= 1 and any(s.all_in for s in self.seats):
            return Reason(_("the round is over: at most one seat can still bet, the others are all-in; no more "
                            "betting this hand"))
        return Reason(_("the round is over: every seat still in has acted and matched the bet of {bet}",
                        bet=self.bet))

    def check(self, action: Action) -> Optional[Reason]:
        """``None`` if ``action`` is legal now, else the reason it is not."""
        try:
            self.apply(action)
        except IllegalAction as exc:
            return exc.why
        return None

    def apply(self, action: Action) -> "BettingRound":
        """The round after ``action``; :class:`IllegalAction` (a :class:`RuleError`) says why not.

        >>> r = BettingRound.start(NoLimit(min_bet=100), {1: 1000, 2: 1000}, button=1, blinds=(50, 100))
        >>> r.apply(Action(2, "call"))
        Traceback (most recent call last):
        ...
        dealer_assist.rules.betting.IllegalAction: seat 2: call: it is not your turn: seat 1 is to act
        """
        kind = action.kind
        if self.to_act is None:
            why = self._over_reason()
            raise IllegalAction(Reason(_("no action now: {why}", why=why)),
                                seat=action.seat, field=kind.value)
        self.seat(action.seat)
        if action.seat != self.to_act:
            raise IllegalAction(Reason(_("it is not your turn: seat {seat} is to act", seat=self.to_act)),
                                seat=action.seat, field=kind.value)
        opts = self.options()
        s = self.seat(action.seat)

        def refuse(k: Kind, extra: Optional[Reason] = None) -> IllegalAction:
            why = extra or opts.why[k]
            return IllegalAction(why, seat=s.seat, field=k.value)

        if kind is Kind.ALL_IN:
            if opts.get(Kind.ALL_IN) is None:
                raise refuse(Kind.ALL_IN)
            if action.to is not None and action.to != s.reach:
                raise refuse(Kind.ALL_IN, Reason(
                    _("an all-in puts your whole stack in: to {reach}, not {to}", reach=s.reach, to=action.to)))
            if s.reach <= self.bet:
                kind = Kind.CALL
            else:
                kind = Kind.BET if self.bet == 0 else Kind.RAISE
                action = Action(s.seat, kind, s.reach)
        legal = opts.get(kind)
        if legal is None:
            raise refuse(kind)
        if kind is Kind.FOLD:
            new = replace(s, folded=True, acted_at=self.bet)
            return self._after(new, action, aggressive=False)
        if kind is Kind.CHECK:
            if action.to not in (None, s.committed):
                raise refuse(kind, Reason(_("a check puts no chips in")))
            return self._after(replace(s, acted_at=self.bet), action, aggressive=False)
        if kind is Kind.CALL:
            target = s.committed + legal.amount
            if action.to not in (None, target):
                raise refuse(kind, Reason(_("a call goes to {target}, not {to}", target=target, to=action.to)))
            new = replace(s, stack=s.stack - legal.amount, committed=target, acted_at=self.bet)
            return self._after(new, Action(s.seat, Kind.CALL, None), aggressive=False)
        # bet or raise
        to = action.to
        if to is None:
            raise refuse(kind, Reason(_("say how much: a {kind} needs 'to' (your total this round), {lo} to {hi}",
                                        kind=KIND_WORDS[kind], lo=legal.min_to, hi=legal.max_to)))
        if isinstance(to, bool) or not isinstance(to, int):
            raise refuse(kind, Reason(_("'to' must be a whole number of chips, not {to}", to=typed(to))))
        if not legal.min_to <= to <= legal.max_to:
            rule = opts.why[kind]
            if to > s.reach:
                what = _("{to} is more than you have: your stack reaches {reach}", to=to, reach=s.reach)
            elif to < legal.min_to:
                what = _("{kind} to {to} is too small", kind=KIND_WORDS[kind], to=to)
            else:
                what = _("{kind} to {to} is too large", kind=KIND_WORDS[kind], to=to)
            raise refuse(kind, Reason(_("{what}: {rule}", what=what, rule=rule)))
        full = self.structure.is_full(self, to)
        new = replace(s, stack=s.reach - to, committed=to, acted_at=to)
        nxt = self._after(new, Action(s.seat, kind, to), aggressive=True, bet=to)
        if full:
            counted = self.full_level > 0
            nxt = replace(nxt, full_level=to,
                          min_raise=max(self.min_raise, to - self.bet),
                          raises=self.raises + (1 if counted else 0))
        return nxt

    def _after(self, new: SeatState, action: Action, *, aggressive: bool,
               bet: Optional[int] = None) -> "BettingRound":
        seats = tuple(new if x.seat == new.seat else x for x in self.seats)
        rnd = replace(self, seats=seats, history=self.history + (action,),
                      bet=self.bet if bet is None else bet,
                      last_aggressor=new.seat if aggressive else self.last_aggressor)
        return replace(rnd, to_act=rnd._next_from(new.seat))

    def to_json(self) -> dict:
        """The answer of ``dealer-assist bet``: the seat to act, its legal actions, and why."""
        opts = self.options()
        out: dict = {"to_act": self.to_act}
        if self.to_act is not None:
            s = self.seat(self.to_act)
            out["to_call"] = min(max(self.bet - s.committed, 0), s.stack)
        out["actions"] = [a.to_json() for a in opts.legal]
        if self.to_act is None:
            out["why"] = {"round": opts.why[Kind.FOLD].to_json()}
        else:
            out["why"] = {k.value: opts.why[k].to_json() for k in Kind}
        out["round_complete"] = self.to_act is None
        if self.hand_over:
            out["winner"] = self.live[0].seat
        out.update({
            "bet": self.bet,
            "pot": self.pot,
            "pot_total": self.pot_total,
            "min_raise": self.min_raise,
            "raises": self.raises,
            "last_aggressor": self.last_aggressor,
        })
        if self.bring_in:
            out["bring_in"] = self.bring_in
        out.update(self.structure.describe())
        out["seats"] = [{"seat": x.seat, "stack": x.stack, "committed": x.committed,
                         "folded": x.folded, "all_in": x.all_in} for x in self.seats]
        return out


# --------------------------------------------------------------------------- seats and the button

def next_button(button: int, seats: Iterable[int]) -> int:
    """Where the button goes for the next deal: the next seat clockwise.

    >>> next_button(6, [1, 3, 6]), next_button(1, [1, 3, 6])
    (1, 3)
    """
    ring = clockwise(button, seats)
    if not ring:
        raise RuleError(_("no seats for the button"), field="seats")
    return ring[0]




def first_dealer(cards_by_seat: Mapping[int, Any]) -> int:
    """The first dealer: the seat dealt the highest card, by rank, then by suit ♠ > ♥ > ♦ > ♣.

    >>> first_dealer({1: "Kd", 2: "Ks", 3: "Qs"})
    2
    >>> first_dealer({1: "2c", 2: "Ac"})
    2
    """
    return _first_dealer(cards_by_seat)[0]


def _first_dealer(cards_by_seat: Mapping[int, Any]) -> tuple[int, Card, Reason]:
    if not cards_by_seat:
        raise RuleError(_("deal one card to each seat to find the first dealer"), field="first_dealer")
    cards: dict[int, Card] = {}
    for seat, token in cards_by_seat.items():
        seat = _seat_key(seat, "first_dealer")
        try:
            card = parse_card(token)
        except CardError as exc:
            raise RuleError(message_of(exc), field="first_dealer", seat=seat) from None
        if card.is_joker:
            raise RuleError(_("the joker does not count in the draw for the dealer: deal this seat "
                              "another card"), field="first_dealer", seat=seat)
        cards[seat] = card
    try:
        check_unique({f"seat {s}": (c,) for s, c in cards.items()}, jokers_allowed=0)
    except CardError as exc:
        raise RuleError(message_of(exc), field="first_dealer") from None
    seat = max(cards, key=lambda s: (cards[s].rank, cards[s].suit))
    card = cards[seat]
    same_rank = sorted(s for s, c in cards.items() if c.rank == card.rank and s != seat)
    if same_rank:
        why = _("seat {seat} deals first: {card} is the highest card; the tie on rank {rank} is broken by "
                "suit (spades > hearts > diamonds > clubs)", seat=seat, card=str(card), rank=card.rank.symbol)
    else:
        why = _("seat {seat} deals first: {card} is the highest card", seat=seat, card=str(card))
    return seat, card, Reason(why)


# --------------------------------------------------------------------------- JSON

#: Betting rounds by name: which take the small bet (False) and which the big bet (True).
STREETS: dict[str, bool] = {
    "preflop": False, "flop": False, "turn": True, "river": True,
    "third": False, "fourth": False, "fifth": True, "sixth": True, "seventh": True,
    "predraw": False, "postdraw": True,
}
_FIRST_STREETS = frozenset({"preflop"})
HOLDEM_STREETS = ("preflop", "flop", "turn", "river")
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
DRAW_STREETS = ("predraw", "postdraw")


@dataclass(frozen=True, slots=True)
class GameBetting:
    """A game's usual betting, as the game registry (:mod:`dealer_assist.games`) names it: the
    structure, the game's betting rounds (the first is the default street) and its forced bets
    (``blinds``, ``ante``, ``bring_in``); ``owner_opens``: the first to act is the owner, the seat
    with the strongest up cards (seed 003), read from the input's ``up``.

    :meth:`fill` gives a ``dealer-assist bet`` input the game's defaults for what it leaves out;
    what the input says wins.  The amounts (blinds, limits, antes, bring-in) are the table's level
    and come from the input; a forced bet the game opens with is asked for by name.

    >>> stud = GameBetting("fixed-limit", STUD_STREETS, ("ante", "bring_in"), owner_opens=True)
    >>> got = stud.fill({"limits": "10/20", "bring_in": 3, "up": {"1": ["Kh", "7d", "5s"], "2": ["9s", "9c", "2h"]},
    ...                  "seats": []}, "stud7")
    >>> got["structure"], got["street"], got["first"]
    ('fixed-limit', 'third', 2)
    >>> stud.fill({"limits": "10/20", "street": "flop"}, "stud7")
    Traceback (most recent call last):
    ...
    dealer_assist.rules.errors.RuleError: street: stud7 has no street 'flop': its betting rounds are third, fourth, fifth, sixth, seventh
    """

    structure: str
    streets: tuple[str, ...]
    forced: tuple[str, ...] = ()
    owner_opens: bool = False

    @property
    def first_street(self) -> str:
        return self.streets[0]

    def blind_streets(self, obj: Mapping[str, Any]) -> frozenset[str]:
        """The streets whose round opens with the input's blinds posted: preflop, and this game's
        first round when the game has blinds (lowball posts them before the draw) and the input
        gives no ``min_bet`` of its own.

        >>> sorted(GameBetting("fixed-limit", DRAW_STREETS, ("blinds",)).blind_streets({}))
        ['predraw', 'preflop']
        """
        if "blinds" in self.forced and "min_bet" not in obj:
            return _FIRST_STREETS | {self.first_street}
        return _FIRST_STREETS

    def fill(self, obj: Mapping[str, Any], game: str) -> dict:
        out = dict(obj)
        out.setdefault("structure", self.structure)
        street = out.setdefault("street", self.first_street)
        if street not in self.streets:
            raise RuleError(_("{game} has no street {street}: its betting rounds are {streets}", game=game,
                              street=typed(street), streets=_list(self.streets)), field="street")
        first = street == self.first_street
        if "bring_in" in self.forced and first and "bring_in" not in out and not _is_snapshot(out.get("seats")):
            raise RuleError(_("{game} opens {street} street with a bring-in: give \"bring_in\", the chips the "
                              "opening seat posts (less than the small bet; 0 when it opens with a bet of its own)",
                              game=game, street=street), field="bring_in")
        if "up" in out:
            if not self.owner_opens:
                raise RuleError(_("{game}: \"up\" (each seat's up cards) is for stud, where the owner opens",
                                  game=game), field="up")
            if out.get("first") is None:
                out["first"] = _owner(out["up"])
        return out


def _owner(up: Any) -> int:
    """The owner (seed 003): the seat whose up cards are the strongest; it acts first."""
    from dealer_assist.rules.stud import owner

    if not isinstance(up, Mapping) or not up:
        raise RuleError(_("\"up\" maps each seat to its up cards, e.g. {example}",
                          example='{"1": ["Kh", "7d", "5s"]}'), field="up")
    cards = {}
    for key, value in up.items():
        seat = _seat_key(key, "up")
        if not isinstance(value, list):
            raise RuleError(_("a seat's up cards are a list, got {got}", got=typed(value)), field="up",
                            seat=seat)
        try:
            cards[seat] = [parse_card(c) for c in value]
        except CardError as exc:
            raise RuleError(message_of(exc), field="up", seat=seat) from None
    try:
        check_unique({f"seat {s}": cs for s, cs in cards.items()})
        return owner(cards)
    except CardError as exc:
        raise RuleError(message_of(exc), field="up") from None

_STRUCTURE_NAMES = {
    "fixed-limit": "fixed-limit", "fixed": "fixed-limit", "limit": "fixed-limit", "fl": "fixed-limit",
    "spread-limit": "spread-limit", "spread": "spread-limit",
    "pot-limit": "pot-limit", "pl": "pot-limit",
    "no-limit": "no-limit", "nl": "no-limit",
}


def _list(items: Iterable[Any]) -> str:
    return ", ".join(str(i) for i in items)


def _check_amount(value: Any, field: str, seat: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHIPS:
        raise RuleError(_("expected a whole number of chips from 0 to {max}, got {got}", max=MAX_CHIPS,
                          got=typed(value)), field=field, seat=seat)
    return value


def _check_seat(value: Any, field: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEAT:
        raise RuleError(_("a seat is a whole number from 1 to {max}, got {got}", max=MAX_SEAT, got=typed(value)),
                        field=field)
    return value


def _seat_key(value: Any, field: str) -> int:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() \
            and len(value.strip()) <= 6:
        value = int(value)
    return _check_seat(value, field)


def _blinds(value: Any) -> tuple[int, int]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2):
        raise RuleError(_("blinds are [small, big], e.g. [50, 100], got {got}", got=typed(value)), field="blinds")
    sb, bb = (_check_amount(v, "blinds") for v in value)
    if bb <= 0 or sb > bb:
        raise RuleError(_("blinds are [small, big] with 0 <= small <= big and big > 0, got {got}",
                          got=str(list(value))), field="blinds")
    return sb, bb


def _pair(text: str, sep: str, field: str) -> list[str]:
    parts = text.split(sep)
    if len(parts) != 2:
        raise RuleError(_("cannot read {text}", text=typed(text)), field=field)
    return parts


def _limits(obj: Mapping[str, Any], kind: str) -> Any:
    """``limits`` as [small, big] (fixed) or [[lo, hi], [lo, hi]] (spread); strings accepted."""
    value = obj.get("limits")
    if value is None:
        return None
    try:
        if isinstance(value, str):
            halves = _pair(value.replace(" ", ""), "/", "limits")
            if kind == "fixed-limit":
                value = [int(h) for h in halves]
            else:
                value = [[int(x) for x in _pair(h, "-", "limits")] for h in halves]
    except ValueError:
        raise RuleError(_("cannot read {limits}: fixed limit is like \"10/20\", spread "
                          "limit like \"1-5/1-10\"", limits=typed(obj.get("limits"))), field="limits") from None
    return value


def structure_from_json(obj: Mapping[str, Any]) -> Structure:
    """The structure of this round from the input's ``structure``, ``limits``/``bet``/``spread``,
    ``street``, ``blinds``, ``min_bet`` and ``cap``.

    >>> structure_from_json({"structure": "fixed-limit", "limits": "10/20", "street": "turn"})
    FixedLimit(bet=20, cap=4)
    >>> structure_from_json({"structure": "spread-limit", "limits": "1-5/1-10", "street": "flop", "cap": 3})
    SpreadLimit(low=1, high=5, cap=3)
    """
    raw = obj.get("structure")
    name = _STRUCTURE_NAMES.get(str(raw).strip().lower().replace("_", "-").replace(" ", "-"))
    if raw is None or name is None:
        raise RuleError(_("unknown structure {structure}: fixed-limit, spread-limit, pot-limit or no-limit",
                          structure=typed(raw)), field="structure")
    street = obj.get("street")
    if street is not None and (not isinstance(street, str) or street not in STREETS):
        raise RuleError(_("unknown street {street}: one of {streets}", street=typed(street),
                          streets=_list(STREETS)), field="street")
    big = STREETS.get(street) if street is not None else None
    cap = obj.get("cap", 4)
    if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
        raise RuleError(_("the cap is a number of raises >= 1, or null for none; got {got}", got=typed(cap)),
                        field="cap")
    if name == "fixed-limit":
        if "bet" in obj:
            bet = _check_amount(obj["bet"], "bet")
        else:
            limits = _limits(obj, name)
            if limits is None:
                raise RuleError(_("fixed limit needs \"limits\": [small bet, big bet] (e.g. \"10/20\") "
                                  "and the street, or \"bet\""), field="limits")
            if not isinstance(limits, (list, tuple)) or len(limits) != 2:
                raise RuleError(_("fixed limit: limits are [small bet, big bet], got {got}", got=typed(limits)),
                                field="limits")
            if big is None:
                raise RuleError(_("fixed limit: say the street (which of small and big bet applies)"),
                                field="street")
            bet = _check_amount(limits[1] if big else limits[0], "limits")
        if bet <= 0:
            raise RuleError(_("the bet must be more than 0"), field="bet")
        return FixedLimit(bet, cap)
    if name == "spread-limit":
        if "spread" in obj:
            span = obj["spread"]
        else:
            limits = _limits(obj, name)
            if limits is None:
                raise RuleError(_("spread limit needs \"limits\": [[low, high], [low, high]] (e.g. "
                                  "\"1-5/1-10\") and the street, or \"spread\": [low, high]"),
                                field="limits")
            if not isinstance(limits, (list, tuple)) or len(limits) != 2:
                raise RuleError(_("spread limit: limits are [[low, high], [low, high]], got {got}",
                                  got=typed(limits)), field="limits")
            if big is None:
                raise RuleError(_("spread limit: say the street (which spread applies)"), field="street")
            span = limits[1] if big else limits[0]
        if not isinstance(span, (list, tuple)) or len(span) != 2:
            raise RuleError(_("a spread is [low, high], got {got}", got=typed(span)), field="spread")
        low, high = (_check_amount(v, "spread") for v in span)
        return SpreadLimit(low, high, cap)
    min_bet = obj.get("min_bet")
    if min_bet is None:
        if obj.get("blinds") is None:
            raise RuleError(_("pot-limit needs the minimum bet: \"blinds\": [small, big] or \"min_bet\"")
                            if name == "pot-limit" else
                            _("no-limit needs the minimum bet: \"blinds\": [small, big] or \"min_bet\""),
                            field="min_bet")
        min_bet = _blinds(obj["blinds"])[1]
    min_bet = _check_amount(min_bet, "min_bet")
    if min_bet <= 0:
        raise RuleError(_("the minimum bet must be more than 0"), field="min_bet")
    return PotLimit(min_bet) if name == "pot-limit" else NoLimit(min_bet)


def _action_from_json(item: Any, index: int) -> Action:
    where = f"actions[{index}]"
    if not isinstance(item, Mapping):
        raise RuleError(_("an action is an object like {example}, got {got}",
                          example='{"seat": 3, "action": "raise", "to": 300}', got=typed(item)), field=where)
    if "seat" not in item or "action" not in item:
        raise RuleError(_("an action needs \"seat\" and \"action\""), field=where)
    seat = _check_seat(item["seat"], where)
    try:
        kind = Kind.parse(item["action"])
    except RuleError as exc:
        raise RuleError(exc.reason, field=where, seat=seat) from None
    to = item.get("to")
    if to is not None and (isinstance(to, bool) or not isinstance(to, int)):
        raise RuleError(_("'to' must be a whole number of chips, got {got}", got=typed(to)), field=where,
                        seat=seat)
    return Action(seat, kind, to)


#: The fields of a ``dealer-assist bet`` input (docs/betting.md), and of each of its seats.
BET_FIELDS = frozenset({"game", "structure", "street", "limits", "bet", "spread", "cap", "min_bet", "blinds",
                        "ante", "bb_ante", "bring_in", "up", "button", "first", "pot", "seats", "actions",
                        "to_act", "last_raise", "full_level", "raises", "propose", "first_dealer"})
SEAT_FIELDS = frozenset({"seat", "stack", "committed", "folded", "acted_at"})


def round_from_json(obj: Mapping[str, Any], blind_streets: frozenset[str] = _FIRST_STREETS) -> BettingRound:
    """The betting round an input describes, after replaying its ``actions``; its ``blinds`` are
    posted when its street is one of ``blind_streets`` (a game's: :meth:`GameBetting.blind_streets`)
    or names none."""
    if not isinstance(obj, Mapping):
        raise RuleError(_("the input is a JSON object, not {type}", type=type(obj).__name__))
    structure = structure_from_json(obj)
    seats_in = obj.get("seats")
    if not isinstance(seats_in, list) or not seats_in:
        raise RuleError(_("\"seats\" is a list like {example}", example='[{"seat": 1, "stack": 1000}, ...]'),
                        field="seats")
    seen: set[int] = set()
    snapshot = _is_snapshot(seats_in)
    rows = []
    for i, x in enumerate(seats_in):
        if not isinstance(x, Mapping) or "seat" not in x:
            raise RuleError(_("each seat is an object with \"seat\" and \"stack\", got {got}", got=typed(x)),
                            field=f"seats[{i}]")
        seat = _check_seat(x["seat"], f"seats[{i}].seat")
        unknown = sorted(str(k) for k in x if k not in SEAT_FIELDS)
        if unknown:
            raise RuleError(_("unknown field(s) {fields}; known: {known}", fields=", ".join(unknown),
                              known=", ".join(sorted(SEAT_FIELDS))), seat=seat)
        if seat in seen:
            raise RuleError(_("this seat is listed twice"), field="seat", seat=seat)
        seen.add(seat)
        if "stack" not in x:
            raise RuleError(_("missing \"stack\" (chips not yet bet)"), field="stack", seat=seat)
        stack = _check_amount(x["stack"], "stack", seat)
        committed = _check_amount(x.get("committed", 0), "committed", seat)
        folded = x.get("folded", False)
        if not isinstance(folded, bool):
            raise RuleError(_("expected true or false, got {got}", got=typed(folded)), field="folded", seat=seat)
        acted = x.get("acted_at")
        if acted is not None:
            _check_amount(acted, "acted_at", seat)
        rows.append(SeatState(seat, stack, committed, folded, acted))
    pot = _check_amount(obj.get("pot", 0), "pot")
    button = obj.get("button")
    if button is not None:
        _check_seat(button, "button")
    first = obj.get("first")
    if first is not None:
        _check_seat(first, "first")
    if snapshot:
        rnd = _snapshot(obj, structure, rows, pot)
    else:
        street = obj.get("street")
        blinds = obj.get("blinds") if street is None or street in blind_streets else None
        if blinds is not None:
            blinds = _blinds(blinds)
        rnd = BettingRound.start(structure, {r.seat: r.stack for r in rows}, button=button,
                                 blinds=blinds, ante=_check_amount(obj.get("ante", 0), "ante"),
                                 pot=pot, first=first,
                                 bb_ante=_check_amount(obj.get("bb_ante", 0), "bb_ante"),
                                 bring_in=_check_amount(obj.get("bring_in", 0), "bring_in"))
    actions = obj.get("actions", [])
    if not isinstance(actions, list):
        raise RuleError(_("\"actions\" is a list of actions in order"), field="actions")
    for i, item in enumerate(actions):
        action = _action_from_json(item, i)
        try:
            rnd = rnd.apply(action)
        except IllegalAction as exc:
            raise RuleError(_("{action}: {why}", action=KIND_WORDS[action.kind], why=exc.why),
                            field=f"actions[{i}]", seat=action.seat) from None
        except RuleError as exc:
            raise RuleError(exc.reason, field=f"actions[{i}]", seat=action.seat) from None
    return rnd


def _is_snapshot(seats_in: Any) -> bool:
    """Whether the seats give the round's current state (committed, folded, acted_at)."""
    return isinstance(seats_in, list) and any(
        isinstance(x, Mapping) and ("committed" in x or "folded" in x or "acted_at" in x) for x in seats_in)


def _snapshot(obj: Mapping[str, Any], structure: Structure, rows: list[SeatState],
              pot: int) -> BettingRound:
    """A round given by its current state: committed amounts, folds, who is to act."""
    rows = sorted(rows, key=lambda r: r.seat)
    if len(rows) < 2:
        raise RuleError(_("a betting round needs at least two seats"), field="seats")
    top = max(r.committed for r in rows)
    bet = _check_amount(obj.get("bet", top), "bet")
    if bet < top:
        raise RuleError(_("the bet ({bet}) is below a seat's committed chips ({top})", bet=bet, top=top),
                        field="bet")
    for r in rows:
        if r.acted_at is not None and r.acted_at > bet:
            raise RuleError(_("acted_at {acted_at} is above the bet {bet}", acted_at=r.acted_at, bet=bet),
                            field="acted_at", seat=r.seat)
    beyond_opening = bet > structure.opening
    if "last_raise" in obj:
        min_raise = _check_amount(obj["last_raise"], "last_raise")
        if min_raise <= 0:
            raise RuleError(_("the last raise must be more than 0"), field="last_raise")
    elif beyond_opening and not isinstance(structure, FixedLimit):
        raise RuleError(_("the bet ({bet}) is above the opening bet: give \"last_raise\", the largest "
                          "bet or raise increment of this round (the minimum raise depends on it)", bet=bet),
                        field="last_raise")
    else:
        min_raise = structure.opening
    full_level = _check_amount(obj.get("full_level", bet), "full_level")
    if full_level > bet:
        raise RuleError(_("full_level {full_level} is above the bet {bet}", full_level=full_level, bet=bet),
                        field="full_level")
    if "raises" in obj:
        raises = _check_amount(obj["raises"], "raises")
    elif beyond_opening and structure.raise_cap is not None:
        raise RuleError(_("the bet ({bet}) is above the opening bet and the cap is {cap}: "
                          "give \"raises\", the number of raises made this round", bet=bet,
                          cap=structure.raise_cap), field="raises")
    else:
        raises = 0
    to_act = obj.get("to_act")
    rnd = BettingRound(structure, tuple(rows), None, pot=pot, bet=bet, min_raise=min_raise,
                       full_level=full_level, raises=raises)
    if to_act is None:
        raise RuleError(_("a betting state with committed chips needs \"to_act\": the seat whose turn "
                          "it is"), field="to_act")
    _check_seat(to_act, "to_act")
    s = rnd.seat(to_act)
    if s.folded:
        raise RuleError(_("this seat has folded: it cannot be the seat to act"), field="to_act", seat=to_act)
    if s.stack == 0:
        raise RuleError(_("this seat is all-in (stack 0): it cannot be the seat to act"), field="to_act",
                        seat=to_act)
    if len(rnd.live) < 2:
        raise RuleError(_("only one seat has not folded: the hand is over"), field="seats")
    if s.acted_at is not None and s.committed >= bet:
        raise RuleError(_("this seat has acted and matched the bet of {bet}: it has nothing to do "
                          "until someone bets or raises", bet=bet), field="to_act", seat=to_act)
    return replace(rnd, to_act=to_act)


def bet_from_json(obj: Any) -> dict:
    """``dealer-assist bet``: one input object in, one answer out (see docs/betting.md).

    >>> out = bet_from_json({"structure": "no-limit", "blinds": [50, 100], "button": 1,
    ...     "seats": [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 1000}, {"seat": 3, "stack": 650}],
    ...     "actions": [{"seat": 1, "action": "call"}, {"seat": 2, "action": "call"}]})
    >>> out["to_act"], out["actions"][1], out["actions"][2]
    (3, {'action': 'check'}, {'action': 'raise', 'min_to': 200, 'max_to': 650})
    >>> bet_from_json({"first_dealer": {"1": "Kd", "2": "Ks"}})["button"]
    2

    ``"game"`` names a game of the registry (:func:`dealer_assist.games.find_game`), whose usual
    betting (:class:`GameBetting`) fills in what the input leaves out; stud's third street gets the
    bring-in, posted by the owner:

    >>> out = bet_from_json({"game": "stud7", "limits": "10/20", "ante": 1, "bring_in": 3,
    ...     "up": {"1": ["Kh", "7d", "5s"], "2": ["9s", "9c", "2h"], "3": ["As", "Qd", "3c"]},
    ...     "seats": [{"seat": 1, "stack": 200}, {"seat": 2, "stack": 200}, {"seat": 3, "stack": 200}]})
    >>> out["game"], out["structure"], out["bring_in"], out["to_act"], out["actions"][1:3]
    ('stud7', 'fixed-limit', 3, 3, [{'action': 'call', 'amount': 3}, {'action': 'raise', 'min_to': 10, 'max_to': 10}])
    >>> bet_from_json({"game": "daifugo", "seats": []})
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: game: daifugo has no betting round: its money is the ante and the payment per card left (dealer-assist daifugo payout)
    """
    if not isinstance(obj, Mapping):
        raise RuleError(_("the input is a JSON object, not {type}", type=type(obj).__name__))
    game = None
    if "game" in obj and "first_dealer" not in obj:
        from dealer_assist.games import find_game

        game = find_game(obj["game"])
        obj = game.betting_defaults(obj)
    if "first_dealer" in obj:
        draw = obj["first_dealer"]
        if not isinstance(draw, Mapping):
            raise RuleError(_("first_dealer maps each seat to the card it was dealt, e.g. {example}",
                              example='{"1": "Kd", "2": "Ks"}'), field="first_dealer")
        seat, card, why = _first_dealer(draw)
        return {"button": seat, "card": str(card), "why": why.to_json(),
                "next_button": next_button(seat, [_seat_key(s, "first_dealer") for s in draw])}
    unknown = sorted(str(k) for k in obj if k not in BET_FIELDS)
    if unknown:         # a misspelt field ("antes", "stak") would be read as left out: say so instead
        raise RuleError(_("unknown field(s) {fields}; known: {known}", fields=", ".join(unknown),
                          known=", ".join(sorted(BET_FIELDS))))
    rnd = round_from_json(obj, _FIRST_STREETS if game is None else game.betting.blind_streets(obj))
    out = rnd.to_json()
    if game is not None:
        out = {"game": game.name, **out}
    proposed = obj.get("propose")
    if proposed is not None:
        if not isinstance(proposed, Mapping):
            raise RuleError(_("propose an action like {example} (the seat defaults to the seat to act)",
                              example='{"action": "raise", "to": 300}'), field="propose")
        item = dict(proposed)
        if item.get("seat") is None:
            if rnd.to_act is None:
                raise RuleError(_("the round is over: no seat is to act; name the seat"), field="propose")
            item["seat"] = rnd.to_act
        try:
            action = _action_from_json(item, 0)
        except RuleError as exc:
            raise RuleError(exc.reason, field="propose", seat=exc.seat) from None
        why = rnd.check(action)
        if why is None:
            after = rnd.apply(action)
            out["proposed"] = {"legal": True, "next_to_act": after.to_act,
                               "round_complete": after.is_complete}
        else:
            out["proposed"] = {"legal": False, "why": why.to_json()}
    return out
