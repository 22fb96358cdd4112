"""Showdown games: from a table (board, hands, chips) to a ruling (pots, winners, payouts, why).

:class:`ShowdownGame` holds everything the showdown games share: reading and checking the table,
building pots, awarding each pot on its own, odd chips, the order of showing, and the ruling's
words in English and Japanese.  A game is a small subclass that overrides only the hooks where its
rules differ (as python-chess variants do):

=========================  ==================================================================
hook                       what it decides
=========================  ==================================================================
``deck``, ``jokers``       which cards exist
``hole_count``,            how many hole / board cards a showdown needs
``board_count``
``deck_for``               the deck of one table (e.g. ``"wild": ["JK"]`` adds the joker)
``check_table``            extra validation (e.g. a joker on the board)
``check_hole``             a shown hand's card count (stud: 3 down and 4 up)
``seat_hand``              a seat's best hand (a :class:`SeatHand`)
``pot_winners``            who wins one pot (e.g. the joker holder loses ties)
``award_pot``              how a pot is divided (e.g. hi/lo halves)
``odd_chip_order``         who gets odd chips first (TDA 20A)
``showdown_order``         who shows first (TDA 17A)
``explain_showdown``       the ruling's lines on the showing (stud: who opens, who mucks)
=========================  ==================================================================

The input is a mapping as ``dealer-assist settle`` reads it (see README), or a :class:`Table`
built in code and checked by :meth:`ShowdownGame.check` (the live table's way); the result is a
:class:`Ruling`, whose :meth:`Ruling.to_json` is the command's output.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Optional, Sequence

from dealer_assist.i18n import (Text, _, _n, _p, both, join, lines as render_lines, message_of, seat_list,
                                 typed)
from dealer_assist.cards import DECK_52, Card, CardError, check_unique, format_cards, parse_card
from dealer_assist.rules.errors import MAX_CHIPS, MAX_SEAT, RuleError
from dealer_assist.rules.pots import Pot, build_pots, clockwise_from, short_antes, split_amount

__all__ = ["SeatInput", "Table", "SeatHand", "PotAward", "Ruling", "ShowdownGame"]


@dataclass(frozen=True, slots=True)
class SeatInput:
    seat: int
    hole: Optional[tuple[Card, ...]]
    committed: int
    folded: bool = False
    ante: int = 0            # the part of ``committed`` posted as an ante (dead money)


def seat_json(seat: SeatInput) -> dict:
    """A seat as ``settle`` reads it: ``hole`` (if shown), ``committed``, ``ante`` (if any),
    ``folded``; a stud seat gives ``down`` and ``up`` instead of ``hole``."""
    out: dict[str, Any] = {"seat": seat.seat}
    down, up = getattr(seat, "down", None), getattr(seat, "up", None)
    if down is None and seat.hole is not None:
        out["hole"] = [str(c) for c in seat.hole]
    out["committed"] = seat.committed
    if seat.ante:
        out["ante"] = seat.ante
    out["folded"] = seat.folded
    if down:
        out["down"] = [str(c) for c in down]
    if up:
        out["up"] = [str(c) for c in up]
    return out


@dataclass(frozen=True, slots=True)
class Table:
    """A checked showdown table.  ``extra`` keeps game-specific input fields."""

    game: str
    board: tuple[Card, ...]
    button: int
    seats: tuple[SeatInput, ...]
    last_aggressor: Optional[int] = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def live(self) -> tuple[SeatInput, ...]:
        return tuple(s for s in self.seats if not s.folded)

    def to_json(self) -> dict:
        """The table as ``dealer-assist settle`` reads it (seat fields as the seat types give them)."""
        out: dict[str, Any] = {"game": self.game, "board": [str(c) for c in self.board],
                               "button": self.button, "seats": [seat_json(s) for s in self.seats]}
        if self.last_aggressor is not None:
            out["last_aggressor"] = self.last_aggressor
        out.update(self.extra)
        return out

    def seat(self, number: int) -> SeatInput:
        for s in self.seats:
            if s.seat == number:
                return s
        raise KeyError(number)


@dataclass(frozen=True, slots=True)
class SeatHand:
    """A seat's hand at showdown.  ``key``: larger is better (games with low hands negate).

    ``category_name`` and ``description`` are catalogue messages (:mod:`dealer_assist.i18n`);
    ``category_ja``, ``text`` and ``text_ja`` are their words."""

    seat: int
    key: int
    category: str
    category_name: Text       # フラッシュ / flush
    best_five: tuple[Card, ...]
    description: Text         # 'flush, A-K-J-T-6' / 'フラッシュ A-K-J-T-6'
    joker_as: Optional[Card] = None
    holds_joker: bool = False
    #: Game-specific JSON fields, as (name, JSON-ready value) pairs: ``wild_as``, ``low``, ``shown``.
    notes: tuple[tuple[str, Any], ...] = ()

    @property
    def category_ja(self) -> str:
        return both(self.category_name)[1]

    @property
    def text(self) -> str:
        return both(self.description)[0]

    @property
    def text_ja(self) -> str:
        return both(self.description)[1]

    def to_json(self) -> dict:
        out = {
            "category": self.category,
            "category_ja": self.category_ja,
            "best_five": [str(c) for c in self.best_five],
            "joker_as": None if self.joker_as is None else str(self.joker_as),
            "description": self.text,
            "description_ja": self.text_ja,
        }
        out.update(self.notes)
        return out


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot (or one half of a split pot) and who takes it; ``title`` and ``reasons`` are
    catalogue messages, ``name`` / ``name_ja`` and ``why`` / ``why_ja`` their words."""

    title: Text                     # 'Main pot', 'Side pot 1', 'Main pot (low half)'
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: Mapping[int, int]
    odd_chips: tuple[int, ...] = ()
    reasons: tuple[Text, ...] = ()

    @property
    def name(self) -> str:
        return both(self.title)[0]

    @property
    def name_ja(self) -> str:
        return both(self.title)[1]

    @property
    def why(self) -> tuple[str, ...]:
        return tuple(render_lines(self.reasons, "en"))

    @property
    def why_ja(self) -> tuple[str, ...]:
        return tuple(render_lines(self.reasons, "ja"))

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "name_ja": self.name_ja,
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": {str(s): v for s, v in self.shares.items()},
            "odd_chips": list(self.odd_chips),
        }


@dataclass(frozen=True, slots=True)
class Ruling:
    game: str
    payouts: Mapping[int, int]
    awards: tuple[PotAward, ...]
    hands: Mapping[int, SeatHand]
    showdown_order: tuple[int, ...]
    lines: tuple[Text, ...]          # the explanation, as catalogue messages
    antes: Mapping[int, int] = field(default_factory=dict)   # seat -> ante posted (dead money)

    @property
    def explanation(self) -> tuple[str, ...]:
        return tuple(render_lines(self.lines, "en"))

    @property
    def explanation_ja(self) -> tuple[str, ...]:
        return tuple(render_lines(self.lines, "ja"))

    def to_json(self) -> dict:
        out = {
            "game": self.game,
            "payouts": {str(s): v for s, v in sorted(self.payouts.items())},
            "pots": [a.to_json() for a in self.awards],
            "hands": {str(s): h.to_json() for s, h in sorted(self.hands.items())},
            "showdown_order": list(self.showdown_order),
            "explanation": list(self.explanation),
            "explanation_ja": list(self.explanation_ja),
        }
        if self.antes:   # only where there were antes: the output of a table without is unchanged
            out["antes"] = {str(s): v for s, v in sorted(self.antes.items())}
        return out


def _seat_list(seats: Sequence[int]) -> Text:
    """``seat 2`` / ``seats 2, 3 and 4``; ``シート2・シート3``."""
    return seat_list(seats)


_DECK_INDICES: dict = {}


def _deck_indices(deck: tuple) -> frozenset:
    got = _DECK_INDICES.get(id(deck))
    if got is None:
        got = _DECK_INDICES[id(deck)] = frozenset(c.index for c in deck)
    return got


class ShowdownGame:
    """Base of the showdown games; by itself it is nothing playable (see :class:`Holdem`)."""

    name: ClassVar[str] = "showdown"
    deck: ClassVar[tuple[Card, ...]] = DECK_52
    jokers: ClassVar[int] = 0
    hole_count: ClassVar[int] = 2
    board_count: ClassVar[int] = 5
    extra_fields: ClassVar[tuple[str, ...]] = ()

    # ----------------------------------------------------------------- reading the table

    def read_table(self, obj: Mapping[str, Any]) -> Table:
        """Check ``obj`` and build a :class:`Table`; :class:`RuleError` names field and seat."""
        if not isinstance(obj, Mapping):
            raise RuleError(_("a table is a JSON object, not {type}", type=type(obj).__name__))
        known = {"game", "board", "button", "seats", "last_aggressor", *self.extra_fields}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise RuleError(_("unknown field(s) {fields} for game {game}; known: {known}",
                              fields=", ".join(unknown), game=typed(self.name), known=", ".join(sorted(known))),
                            field=unknown[0])
        board = self.read_cards(obj.get("board"), field="board", seat=None, allow_none=self.board_count == 0)
        seats_obj = obj.get("seats")
        if not isinstance(seats_obj, list) or not seats_obj:
            raise RuleError(_("expected a non-empty list of seats"), field="seats")
        seats: list[SeatInput] = []
        numbers: set[int] = set()
        for i, s in enumerate(seats_obj):
            seat = self.read_seat(s, i)
            if seat.seat in numbers:
                raise RuleError(_("seat {seat} is listed twice", seat=seat.seat), field="seats", seat=seat.seat)
            numbers.add(seat.seat)
            seats.append(seat)
        button = self.read_int(obj.get("button"), "button", None, minimum=1)
        if button not in numbers:
            raise RuleError(_("the button is on seat {button}, which is not at the table (seats {seats})",
                              button=button, seats=str(sorted(numbers))), field="button")
        last = obj.get("last_aggressor")
        if last is not None:
            last = self.read_int(last, "last_aggressor", None, minimum=1)
            if last not in numbers:
                raise RuleError(_("seat {seat} is not at the table (seats {seats})",
                                  seat=last, seats=str(sorted(numbers))), field="last_aggressor")
        extra = {k: obj[k] for k in self.extra_fields if k in obj}
        table = Table(self.name, board, button, tuple(sorted(seats, key=lambda s: s.seat)), last, extra)
        return self.check(table)

    def check(self, table: Table) -> Table:
        """Check a :class:`Table` as :meth:`read_table` checks one it reads (the live table builds
        its tables as objects, not JSON): a seat left, the board, the shown cards, the deck; returns
        it. :class:`RuleError` names field and seat."""
        board = table.board
        if not table.live:
            raise RuleError(_("every seat has folded: one seat must still be in the hand"), field="folded")
        if len(board) > self.board_count or (len(table.live) > 1 and len(board) != self.board_count):
            # a hand won without a showdown may end on any street; a showdown needs the full board
            raise RuleError(_("a {game} showdown needs {n} board cards, got {got}: {cards}", game=self.name,
                              n=self.board_count, got=len(board), cards=format_cards(board)), field="board")
        if len(table.live) > 1:
            for s in table.live:
                if s.hole is None:
                    raise RuleError(_("a seat still in the hand at showdown must show its hole cards"),
                                    field="hole", seat=s.seat)
                self.check_hole(s)
        self.check_cards(table)
        self.check_table(table)
        return table

    def check_hole(self, seat: SeatInput) -> None:
        """The cards a seat shows at the showdown are as many as the game deals (hook: stud counts
        its face-down and face-up cards apart)."""
        if len(seat.hole) != self.hole_count:
            raise RuleError(_("expected {n} cards, got {got}: {cards}", n=self.hole_count, got=len(seat.hole),
                              cards=format_cards(seat.hole)), field="hole", seat=seat.seat)

    def read_int(self, value: Any, field: str, seat: Optional[int], minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                said = (_("expected a whole number, got None") if value is None
                        else _("expected a whole number, got {value}", value=typed(value)))
                raise RuleError(said, field=field, seat=seat)
        if value < minimum:
            if value < 0:
                said = _("{value} is negative: expected a whole number >= {minimum}", value=value, minimum=minimum)
            else:
                said = _("{value} is below {minimum}: expected a whole number >= {minimum}",
                         value=value, minimum=minimum)
            raise RuleError(said, field=field, seat=seat)
        top = MAX_SEAT if field in ("seat", "button", "last_aggressor", "owner") else MAX_CHIPS
        if value > top:
            raise RuleError(_("{value} is too large: expected at most {top}", value=value, top=top),
                            field=field, seat=seat)
        return value

    def read_cards(self, value: Any, *, field: str, seat: Optional[int], allow_none: bool = False
                   ) -> tuple[Card, ...]:
        if value is None and allow_none:
            return ()
        if not isinstance(value, list):
            raise RuleError(_("expected a list of cards such as [\"As\", \"Kd\"], got {value}", value=typed(value)),
                            field=field, seat=seat)
        out = []
        for token in value:
            try:
                out.append(parse_card(token))
            except CardError as exc:
                raise RuleError(message_of(exc), field=field, seat=seat) from None
        return tuple(out)

    def read_seat_number(self, s: Any, position: int) -> int:
        """The seat number of seat entry ``position`` (0-based), checking the entry is an object."""
        if not isinstance(s, Mapping):
            raise RuleError(_("seat entry {n} is not an object", n=position + 1), field="seats")
        if "seat" not in s:
            raise RuleError(_("seat entry {n} has no \"seat\" number", n=position + 1), field="seat")
        return self.read_int(s["seat"], "seat", None, minimum=1)

    def read_seat(self, s: Any, position: int) -> SeatInput:
        number = self.read_seat_number(s, position)
        self.check_seat_fields(s, number, {"hole"})
        committed, ante, folded = self.read_chips(s, number)
        hole_raw = s.get("hole")
        if hole_raw is None:
            hole = None    # a folded seat, or the last seat left (no showdown): checked in read_table
        else:
            hole = self.read_cards(hole_raw, field="hole", seat=number)
            if len(hole) != self.hole_count:
                raise RuleError(_("expected {n} cards, got {got}: {cards}", n=self.hole_count, got=len(hole),
                                  cards=format_cards(hole)), field="hole", seat=number)
        return SeatInput(number, hole, committed, folded, ante)

    def check_seat_fields(self, s: Mapping[str, Any], number: int, cards: set[str]) -> None:
        """Refuse a seat entry's unknown fields; ``cards``: the game's card fields."""
        unknown = sorted(set(s) - {"seat", "committed", "ante", "folded", *cards, *self.seat_extra_fields()})
        if unknown:
            raise RuleError(_("unknown field(s) {fields}", fields=", ".join(unknown)),
                            field=unknown[0], seat=number)

    def read_chips(self, s: Mapping[str, Any], number: int) -> tuple[int, int, bool]:
        """A seat entry's ``committed``, ``ante`` (part of it, default 0) and ``folded``."""
        folded = s.get("folded", False)
        if not isinstance(folded, bool):
            raise RuleError(_("expected true or false, got {value}", value=typed(folded)),
                            field="folded", seat=number)
        committed = self.read_int(s.get("committed"), "committed", number)
        ante = self.read_int(s.get("ante", 0), "ante", number)
        if ante > committed:
            raise RuleError(_("the ante ({ante}) is part of the chips committed ({committed}): "
                              "committed counts every chip the seat put in, its ante included",
                              ante=ante, committed=committed), field="ante", seat=number)
        return committed, ante, folded

    def seat_extra_fields(self) -> tuple[str, ...]:
        return ()

    def check_cards(self, table: Table) -> None:
        groups: dict[str, tuple[Card, ...]] = {"board": table.board}
        for s in table.seats:
            if s.hole:
                groups[f"seat {s.seat}"] = s.hole
        deck, jokers = self.deck_for(table)
        in_deck = _deck_indices(deck)
        for place, cards in groups.items():
            seat = None if place == "board" else int(place.split()[1])
            fld = "board" if seat is None else "hole"
            for c in cards:
                if c.is_joker and not jokers:
                    raise RuleError(_("{game} is played without a joker (JK); "
                                      "joker hold'em is game \"joker-holdem\"", game=self.name),
                                    field=fld, seat=seat)
                if not c.is_joker and c.index not in in_deck:
                    raise RuleError(_("{card} is not in the {game} deck", card=str(c), game=self.name),
                                    field=fld, seat=seat)
        try:
            check_unique(groups, jokers_allowed=jokers)
        except CardError as exc:
            where = [p for p in groups if exc.token is not None and exc.token in groups[p]]
            seat = next((int(p.split()[1]) for p in reversed(where) if p != "board"), None)
            raise RuleError(message_of(exc), field="hole" if seat else "board", seat=seat) from None

    # ----------------------------------------------------------------- hooks

    def deck_for(self, table: Table) -> tuple[tuple[Card, ...], int]:
        """The deck and the number of jokers in it for this table (hook: wild jokers add one)."""
        return self.deck, self.jokers

    def check_table(self, table: Table) -> None:
        """Game-specific validation (hook)."""

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:  # pragma: no cover - abstract
        raise NotImplementedError

    def pot_winners(self, table: Table, eligible: Sequence[int], hands: Mapping[int, SeatHand]
                    ) -> tuple[tuple[int, ...], list[Text]]:
        """The winners of one pot among ``eligible``, with notes on why (catalogue messages)."""
        best = max(hands[s].key for s in eligible)
        return tuple(s for s in eligible if hands[s].key == best), []

    def odd_chip_order(self, table: Table, winners: Sequence[int], hands: Mapping[int, SeatHand]
                       ) -> list[int]:
        """TDA 20A for board games: the first winner clockwise from the button gets it first."""
        return clockwise_from(table.button, winners)

    def odd_chip_rule(self) -> Text:
        return _("first winner clockwise from the button (TDA 20A)")

    def showdown_order(self, table: Table) -> tuple[int, ...]:
        """TDA 17A: the last aggressor first; with no bet, first live seat left of the button."""
        live = [s.seat for s in table.live]
        if table.last_aggressor in live:
            start = table.last_aggressor
            order = clockwise_from(start, live)
            return tuple([start] + [s for s in order if s != start])
        return tuple(clockwise_from(table.button, live))

    def award_pot(self, table: Table, pot: Pot, index: int, hands: Mapping[int, SeatHand]) -> list[PotAward]:
        """Award one pot (hook: hi/lo splits it in halves)."""
        return [self.award_part(table, self.pot_name(index), pot.amount, pot.eligible, hands)]

    # ----------------------------------------------------------------- the ruling

    def pot_name(self, index: int) -> Text:
        if index == 0:
            return _("Main pot")
        return _("Side pot {n}", n=index)

    def award_part(self, table: Table, name: Text, amount: int, eligible: Sequence[int],
                   hands: Mapping[int, SeatHand], winners: Optional[Sequence[int]] = None) -> PotAward:
        eligible = tuple(eligible)
        why: list[Text] = []
        if len(eligible) == 1:
            winners = eligible
            s = eligible[0]
            if len(table.live) == 1:
                why.append(_("{pot} {amount}: seat {seat} wins without a showdown (everyone else folded).",
                             pot=name, amount=amount, seat=s))
            else:
                why.append(_("{pot} {amount}: only seat {seat} reached this level; its uncalled chips go "
                             "back to it.", pot=name, amount=amount, seat=s))
        else:
            if winners is None:
                winners, notes = self.pot_winners(table, eligible, hands)
            else:
                notes = []
            w = winners[0]
            losers = [s for s in eligible if s not in winners]
            if len(winners) == 1 and losers:
                why.append(_("{pot} {amount} ({seats}): seat {seat} wins with {hand} over {losers}.",
                             pot=name, amount=amount, seats=_seat_list(eligible), seat=w,
                             hand=hands[w].description,
                             losers=join([_("seat {seat}'s {hand}", seat=s, hand=hands[s].description)
                                          for s in losers], _p("losing hands", "; "))))
            elif len(winners) == 1:
                why.append(_("{pot} {amount} ({seats}): seat {seat} wins with {hand}.", pot=name,
                             amount=amount, seats=_seat_list(eligible), seat=w, hand=hands[w].description))
            else:
                why.append(_("{pot} {amount} ({seats}): {winners} tie with {hand} and split it.", pot=name,
                             amount=amount, seats=_seat_list(eligible), winners=_seat_list(winners),
                             hand=hands[w].description))
            why.extend(notes)
        order = self.odd_chip_order(table, winners, hands)
        shares, lucky = split_amount(amount, order)
        if lucky:
            why.append(_n("  {n} odd chip to {seats}: {rule}.", "  {n} odd chips to {seats}: {rule}.", len(lucky),
                          n=len(lucky), seats=_seat_list(lucky), rule=self.odd_chip_rule()))
        return PotAward(name, amount, eligible, tuple(sorted(winners)),
                        {s: shares[s] for s in sorted(shares)}, tuple(lucky), tuple(why))

    def settle(self, obj: Mapping[str, Any]) -> Ruling:
        """Read ``obj`` and rule on it."""
        return self.rule(self.read_table(obj))

    def rule(self, table: Table) -> Ruling:
        live = table.live
        showdown = len(live) > 1
        hands: dict[int, SeatHand] = {}
        if showdown:
            for s in live:
                hands[s.seat] = self.seat_hand(table, s)
        committed = {s.seat: s.committed for s in table.seats}
        if sum(committed.values()) == 0:
            raise RuleError(_("no chips were committed: there is nothing to award"), field="committed")
        pots = self.pots(table)
        awards: list[PotAward] = []
        for i, pot in enumerate(pots):
            awards.extend(self.award_pot(table, pot, i, hands))
        payouts = {s.seat: 0 for s in table.seats}
        for a in awards:
            for s, v in a.shares.items():
                payouts[s] += v
        order = self.showdown_order(table) if showdown else tuple(s.seat for s in live)
        explanation: list[Text] = []
        if showdown:
            explanation.extend(self.explain_showdown(table, order, hands))
        explanation.extend(self.explain_antes(table, pots))
        for a in awards:
            explanation.extend(a.reasons)
        paid = join([_("seat {seat} {amount}", seat=s, amount=v) for s, v in sorted(payouts.items()) if v],
                    _p("payouts", ", "))
        explanation.append(_("Payouts: {paid} (total {total}).", paid=paid, total=sum(payouts.values())))
        assert sum(payouts.values()) == sum(committed.values()), "chips must be conserved"
        return Ruling(self.name, payouts, tuple(awards), hands, tuple(order), tuple(explanation),
                      {s.seat: s.ante for s in table.seats if s.ante})

    def pots(self, table: Table) -> list[Pot]:
        """The main pot and the side pots of ``table``, its antes dead money in the main pot."""
        return build_pots({s.seat: s.committed for s in table.seats},
                          folded={s.seat for s in table.seats if s.folded},
                          antes={s.seat: s.ante for s in table.seats if s.ante})

    def explain_antes(self, table: Table, pots: Sequence[Pot]) -> list[Text]:
        """The ruling's lines on the antes: dead money in the main pot (seed 004), and short antes."""
        antes = {s.seat: s.ante for s in table.seats if s.ante}
        if not antes:
            return []
        who = join([_("seat {seat} {amount}", seat=s, amount=a) for s, a in sorted(antes.items())],
                   _p("payouts", ", "))
        out: list[Text] = [
            _("Antes {total} ({who}): dead money in the main pot, contested by every seat still in the hand; "
              "the side pots are cut from the chips committed beyond the antes (seed 004).",
              total=sum(antes.values()), who=who)]
        short = short_antes({s.seat: s.committed for s in table.seats}, antes,
                            {s.seat for s in table.seats if s.folded})
        for number, ante in short.items():
            out.append(_("Seat {seat} is all in on an ante of {ante}, short of the others': it wins at most "
                         "{ante} of each seat's ante; the rest of the antes go to the next pot.",
                         seat=number, ante=ante))
        return out

    def showing_order(self, order: Sequence[int]) -> Text:
        """``1, 3, 5`` / ``シート1→シート3→シート5``."""
        return join([_p("showing order", "{seat}", seat=s) for s in order], _p("showing order", ", "))

    def explain_showdown(self, table: Table, order: Sequence[int], hands: Mapping[int, SeatHand]
                         ) -> list[Text]:
        """The ruling's lines on who shows in what order and with what (hook: stud shows otherwise)."""
        first = order[0]
        if table.last_aggressor == first:
            reason = _("the last aggressor shows first")
        else:
            reason = _("no bet on the last round: first live seat left of the button")
        out: list[Text] = [_("Showdown order (TDA 17A, {reason}): {order}.", reason=reason,
                             order=self.showing_order(order))]
        for s in order:
            h = hands[s]
            cards = format_cards(h.best_five)
            if h.joker_as is not None:
                out.append(_("Seat {seat}: {hand} [{cards}] (joker as {card}).", seat=s, hand=h.description,
                             cards=cards, card=str(h.joker_as)))
            else:
                out.append(_("Seat {seat}: {hand} [{cards}].", seat=s, hand=h.description, cards=cards))
        return out
