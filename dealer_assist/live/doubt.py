"""Whether the cards a ruling is not sure of could change it: a doubt that cannot need not hold a showdown.

A showdown ruled on cards that are not all sure is provisional until the dealer confirms them
(:mod:`dealer_assist.live.handflow`). Often the doubt cannot matter: the loser's king may be a
club or a spade, the pot goes to the same seat with the same chips. :func:`doubt_can_change` asks
the rules engine: the doubtful cards are given every name they could have (every card of the
game's deck that no sure card on the table already is, the joker where the deck has one; two
doubtful cards, every pair of names), and the table is ruled again each time. Only when every such table is ruled the same (the same chips to each
seat, the same winners and shares of each pot) can the doubt not change the ruling; then the ruling
is final at once, while its doubtful cards stay marked and unconfirmed (the hand log keeps them).

It is strict: a name that makes the table one the engine refuses (a joker on the board of Joker
NLH) counts as a change, and so does a doubt too wide to try in full (more than
:data:`MAX_TABLES` tables: three doubtful cards and more). Nothing is left to the reader's own
other guess: the true card may be one the reader never offered.

>>> from dealer_assist.rules.holdem import Holdem
>>> rules = Holdem()
>>> table = rules.read_table({"board": ["As", "Ad", "Ac", "7d", "2s"], "button": 1, "seats": [
...     {"seat": 1, "hole": ["Ah", "Qc"], "committed": 100},
...     {"seat": 2, "hole": ["Kh", "Kc"], "committed": 100}]})
>>> doubt_can_change(rules, table, [("seat2", "Kc")])     # seat 1 holds four aces
False
>>> doubt_can_change(rules, table, [("seat1", "Qc")])     # four aces, whatever the kicker
False
>>> doubt_can_change(rules, table, [("board1", "As")])    # a king there: seat 2 has kings full
True

Pure: no camera, no files, no Qt.
"""
from __future__ import annotations

import dataclasses
import itertools
from typing import Any, Iterable, Optional, Sequence

from dealer_assist.cards import JOKER, Card, CardError, parse_card
from dealer_assist.errors import UserError
from dealer_assist.rules.showdown import Table
from dealer_assist.zones import board_slot, seat_of_zone

__all__ = ["doubt_can_change", "ruled_alike", "MAX_TABLES"]

#: the most tables one question rules (about 0.3 ms each on this project's 2-core CPU: two doubtful
#: cards of a 53-card deck are about 2,000 tables, 0.6 s; three would be 90,000)
MAX_TABLES = 2500


def ruled_alike(result: Any) -> Optional[tuple]:
    """What a dealer pays by: the chips each seat takes and each pot's amount, winners and
    shares (not the words, which name the cards); None for a result that pays no pots."""
    awards = getattr(result, "awards", None)
    payouts = getattr(result, "payouts", None)
    if awards is None or payouts is None:
        return None
    return (tuple(sorted(payouts.items())),
            tuple((a.amount, tuple(a.winners), tuple(sorted(a.shares.items()))) for a in awards))


def _substitute(table: Table, changes: Sequence[tuple[str, Card, Card]]) -> Optional[Table]:
    """``table`` with each ``(zone, old, new)`` swapped in, all at once: a board slot's card, or
    the card in every card field of a seat (hold'em's ``hole``; stud's ``hole``, ``down`` and
    ``up``); None when a doubtful card is not where its zone says."""
    board = list(table.board)
    by_seat: dict[int, dict[Card, Card]] = {}
    for zone, old, new in changes:
        b, n = board_slot(zone), seat_of_zone(zone)
        if b is not None:
            if not 0 <= b < len(board) or board[b] != old:
                return None
            board[b] = new
        elif n is not None:
            by_seat.setdefault(n, {})[old] = new
        else:
            return None
    seats = []
    for seat in table.seats:
        swap = by_seat.pop(seat.seat, None)
        if swap:
            fields = {f.name: getattr(seat, f.name) for f in dataclasses.fields(seat)}
            held = {c for v in fields.values() if isinstance(v, tuple) for c in v}
            if not set(swap) <= held:
                return None
            seat = dataclasses.replace(seat, **{k: tuple(swap.get(c, c) for c in v) for k, v in fields.items()
                                                 if isinstance(v, tuple) and set(v) & set(swap)})
        seats.append(seat)
    if by_seat:
        return None
    return dataclasses.replace(table, board=tuple(board), seats=tuple(seats))


def _table_cards(table: Table) -> list[tuple[str, Card]]:
    """Every card on ``table`` by zone (a seat's card once, whichever of its fields hold it)."""
    out = [(f"board{i}", c) for i, c in enumerate(table.board, 1)]
    for s in table.seats:
        seen: list[Card] = []
        for f in dataclasses.fields(s):
            value = getattr(s, f.name)
            if isinstance(value, tuple):
                seen += [c for c in value if isinstance(c, Card) and c not in seen]
        out += [(f"seat{s.seat}", c) for c in seen]
    return out


def _names(rules: Any, table: Table, doubt: Sequence[tuple[str, Card]],
           sure: Optional[Iterable[tuple[str, str]]] = None) -> tuple[list[Card], int]:
    """Every name a doubtful card could have: the game's deck (and its jokers), less the cards on
    the table that are sure (``sure``: ``(zone, card)``; by default every card not in doubt); and
    how many jokers the doubtful cards may be between them (the deck's, less the sure ones)."""
    deck, jokers = rules.deck_for(table)
    if sure is None:
        held = [c for z, c in _table_cards(table) if (z, c) not in doubt]
    else:
        held = [parse_card(card) for _, card in sure]
    taken = {c for c in held if not c.is_joker}
    names = [c for c in deck if c not in taken and not c.is_joker]
    free = jokers - sum(1 for c in held if c.is_joker)
    return names + ([JOKER] if free > 0 else []), free


def doubt_can_change(rules: Any, table: Table, doubt: Iterable[tuple[str, str]],
                     limit: int = MAX_TABLES, sure: Optional[Iterable[tuple[str, str]]] = None) -> bool:
    """Whether the cards of ``doubt`` (``(zone, card)`` as read, on ``table``) could change the
    ruling of ``rules`` (a showdown game: ``deck_for``, ``check``, ``rule``) on ``table``:
    True unless every name each could have, together, gives the same chips and winners. A
    doubtful card may be any card of the deck but those of ``sure`` (the table's cards it is sure
    of, ``(zone, card)``; by default every card on ``table`` not in ``doubt``: pass it where the
    table holds cards that are neither, a folded stud seat's up cards).

    Strict where it cannot answer: a table it cannot rule, a doubt it cannot place on the table,
    or more than ``limit`` tables to try, all count as a change."""
    try:
        placed = [(z, parse_card(c)) for z, c in doubt]
    except CardError:
        return True
    if not placed:
        return False
    try:
        base = ruled_alike(rules.rule(rules.check(table)))
        names, jokers = _names(rules, table, placed, sure)
    except (UserError, CardError, ValueError):
        return True
    if base is None:
        return True
    count = 1
    for _ in placed:
        count *= len(names)
        if count > limit:
            return True
    read = tuple(c for _, c in placed)
    # each card alone first (the others as read): where the doubt matters, it most often shows there
    alone = [read[:i] + (c,) + read[i + 1:] for i in range(len(read)) for c in names]
    for names_now in itertools.chain(alone, itertools.product(names, repeat=len(placed))):
        plain = [c for c in names_now if not c.is_joker]
        if len(set(plain)) != len(plain) or len(names_now) - len(plain) > jokers:
            continue            # one card twice, or more jokers than the deck has: no such table
        if all(new == old for (_, old), new in zip(placed, names_now)):
            continue
        other = _substitute(table, [(z, old, new) for (z, old), new in zip(placed, names_now)])
        if other is None:
            return True
        try:
            if ruled_alike(rules.rule(rules.check(other))) != base:
                return True
        except (UserError, CardError, ValueError):
            return True
    return False
