"""Texas hold'em and Joker hold'em (Joker NLH) showdowns.

>>> r = JokerHoldem().settle({"game": "joker-holdem", "board": ["Ks","Js","6s","4d","2c"],
...     "button": 2, "seats": [{"seat": 1, "hole": ["JK","Ts"], "committed": 100},
...                            {"seat": 2, "hole": ["As","8s"], "committed": 100}]})
>>> r.payouts, r.hands[1].text, str(r.hands[1].joker_as)
({1: 200, 2: 0}, 'flush, A-K-J-T-6', 'As')

Joker hold'em differs from hold'em in three hooks only: the deck (53 cards), the joker holder's
hand (both hole cards plus three board cards, the joker standing for the best card that is
neither a board card nor the holder's other hole card), and the pot's winners (the joker holder
loses ties).  A joker on the board is an error that names the burn-swap procedure.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

from dealer_assist.cards import DECK_52, DECK_53, JOKER, Card, format_cards
from dealer_assist.i18n import _, both, street as street_words
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.evaluator import HandValue, _pick_five, evaluate_key
from dealer_assist.rules.showdown import SeatHand, SeatInput, ShowdownGame, Table

__all__ = ["Holdem", "JokerHoldem", "BURN_SWAP", "BURN_SWAP_JA", "BURN_SWAP_MSG", "BoardDeal", "deal_board"]

#: What the dealer must do when the joker is turned on the board (RULINGS.md, Joker NLH 5).
BURN_SWAP_MSG = _("the joker never stays on the board: swap it with the top card of the stub (the next "
                  "burn card); that card becomes the board card, the joker becomes the next burn card, "
                  "and the board cards after it do not change")
BURN_SWAP, BURN_SWAP_JA = both(BURN_SWAP_MSG)


def hand_of(seat: int, key: int, five: Sequence[Card], joker_as: Optional[Card] = None,
            holds_joker: bool = False) -> SeatHand:
    """A :class:`SeatHand` of a high hand from its key and its five cards."""
    value = HandValue(key, tuple(five))
    return SeatHand(seat, key, value.category.slug, value.name_msg, tuple(five),
                    value.description(), joker_as, holds_joker)


class Holdem(ShowdownGame):
    """Texas hold'em: the best five of the two hole cards and the five board cards.

    >>> r = Holdem().settle({"game": "holdem", "board": ["Qc","Jd","Ts","9h","8c"], "button": 1,
    ...     "seats": [{"seat": 1, "hole": ["2c","3d"], "committed": 51},
    ...               {"seat": 2, "hole": ["2s","4d"], "committed": 50},
    ...               {"seat": 3, "hole": ["Ks","4h"], "committed": 50, "folded": True}]})
    >>> r.payouts   # seats 1 and 2 play the board; the odd chip goes left of the button
    {1: 76, 2: 75, 3: 0}
    """

    name = "holdem"
    deck = DECK_52
    jokers = 0

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:
        cards = seat.hole + table.board
        key = evaluate_key([c.index for c in cards])
        five = _pick_five(cards, key)
        return hand_of(seat.seat, key, _in_order(five, cards))


def _in_order(five: Sequence[Card], order: Sequence[Card]) -> tuple[Card, ...]:
    """``five`` listed as they come in ``order`` (hole cards first, then the board)."""
    pos = {c: i for i, c in enumerate(order)}
    return tuple(sorted(five, key=lambda c: pos.get(c, -1)))


class JokerHoldem(Holdem):
    """Joker NLH (seed 000, RULINGS.md): 52 cards and one joker.

    The joker holder uses both hole cards and exactly three board cards; other seats play as in
    hold'em.  The joker becomes the card giving the best hand, never one of the five board cards
    nor the holder's other hole card (it may be a card another seat holds).
    """

    name = "joker-holdem"
    deck = DECK_53
    jokers = 1

    def check_table(self, table: Table) -> None:
        if JOKER in table.board:
            slot = table.board.index(JOKER) + 1
            street = "flop" if slot <= 3 else ("turn" if slot == 4 else "river")
            raise RuleError(_("the joker is board card {slot} ({street}): {procedure}. "
                              "Swap it, then settle with the swapped card",
                              slot=slot, street=street_words(street), procedure=BURN_SWAP_MSG), field="board")

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:
        if JOKER not in seat.hole:
            return super().seat_hand(table, seat)
        other = seat.hole[0] if seat.hole[1] is JOKER else seat.hole[1]
        excluded = {c.index for c in table.board} | {other.index}
        best_key = -1
        best: tuple = ()
        for three in itertools.combinations(table.board, 3):
            real = [other.index] + [c.index for c in three]
            for stand_in in _stand_ins(real, excluded):
                real.append(stand_in)
                key = evaluate_key(real)
                real.pop()
                # The best hand; among equal hands the highest card (then suit) for the joker.
                if key > best_key or (key == best_key and stand_in > best[1]):
                    best_key, best = key, (three, stand_in)
        three, stand_in = best[0], DECK_52[best[1]]
        five = (JOKER, other) + three if seat.hole[0] is JOKER else (other, JOKER) + three
        value = HandValue(best_key, five)
        return SeatHand(seat.seat, best_key, value.category.slug, value.name_msg, five,
                        value.description(), stand_in, True)

    def pot_winners(self, table: Table, eligible: Sequence[int], hands: Mapping[int, SeatHand]):
        best = max(hands[s].key for s in eligible)
        tied = [s for s in eligible if hands[s].key == best]
        holders = [s for s in tied if hands[s].holds_joker]
        if holders and len(tied) > 1:
            j = holders[0]
            winners = tuple(s for s in tied if s != j)
            h = hands[j]
            return winners, [
                _("  Seat {seat} holds the joker and ties with {hand}: the joker holder loses ties "
                  "(Joker NLH rule 4), so it takes no share.", seat=j, hand=h.description)]
        return tuple(tied), []


_SUITS_HIGH_FIRST = (3, 2, 1, 0)     # spades, hearts, diamonds, clubs


def _stand_ins(real: Sequence[int], excluded: set) -> list[int]:
    """Card indices worth trying for the joker beside four real cards (given by index).

    A stand-in matters through its rank (pairing a real card, completing a straight, or as the
    highest kicker) and, where the four real cards share a suit, through that suit (a flush).
    Every other card is no better than one of these, so trying these alone finds the best hand.
    :func:`tests.test_joker_brute_force` checks this against trying all 52 cards.
    """
    ranks = {i >> 2 for i in real}           # rank - 2, 0..12
    suits = {i & 3 for i in real}
    flush_suit = next(iter(suits)) if len(suits) == 1 else -1
    wanted = set(ranks)
    if len(ranks) == 4:
        for r in range(13):
            if r not in ranks and _is_straight(ranks | {r}):
                wanted.add(r)
    out: list[int] = []
    kicker_done = False
    flush_done = False
    for r in range(12, -1, -1):
        is_wanted = r in wanted
        if is_wanted or not kicker_done:
            for suit in _SUITS_HIGH_FIRST:
                i = 4 * r + suit
                if i not in excluded and suit != flush_suit:
                    out.append(i)
                    if not is_wanted:
                        kicker_done = True
                    break
        if flush_suit >= 0 and (is_wanted or not flush_done):
            i = 4 * r + flush_suit
            if i not in excluded:
                out.append(i)
                if not is_wanted:
                    flush_done = True
    return out


def _is_straight(ranks: set) -> bool:
    if len(ranks) != 5:
        return False
    lo, hi = min(ranks), max(ranks)
    return hi - lo == 4 or ranks == {12, 0, 1, 2, 3}


# ------------------------------------------------------------------ dealing the board from the stub

#: The deal of the board from the stub: (street, burn first?, board cards turned).
_DEAL = (("flop", 3), ("turn", 1), ("river", 1))


@dataclass(frozen=True, slots=True)
class BoardDeal:
    """The board dealt from a stub by Joker NLH rule 5 (RULINGS.md), and the burn-swap if any.

    ``swap_slot`` is the board slot (1-5) where the joker was turned (``None`` if it was not),
    ``replacement`` the stub's top card that took its place, ``burns_after_swap`` how many burn
    cards lie in the burn pile right after the swap (the joker among them), ``next_board_card``
    the board card dealt after the swap (``None`` after the river).  ``lines``: why, as catalogue
    messages."""

    board: tuple[Card, ...]
    burns: tuple[Card, ...]
    swap_slot: Optional[int] = None
    replacement: Optional[Card] = None
    burns_after_swap: Optional[int] = None
    next_board_card: Optional[Card] = None
    lines: tuple = ()

    def to_json(self) -> dict:
        en, ja = zip(*(both(m) for m in self.lines)) if self.lines else ((), ())
        return {
            "board": [str(c) for c in self.board],
            "burns": [str(c) for c in self.burns],
            "swap_slot": self.swap_slot,
            "replacement": None if self.replacement is None else str(self.replacement),
            "burns_after_swap": self.burns_after_swap,
            "next_board_card": None if self.next_board_card is None else str(self.next_board_card),
            "explanation": list(en),
            "explanation_ja": list(ja),
        }


def deal_board(stub: Sequence[Card]) -> BoardDeal:
    """Deal burn, flop, burn, turn, burn, river from ``stub`` (top card first) by rule 5.

    A joker turned on the board is swapped with the stub's top card (the next burn card): that
    card becomes the board card, the joker becomes the next burn card, so the next street is
    dealt without another burn and the board cards after it do not change.  A joker that comes
    as a burn card is simply burned.

    >>> from dealer_assist.cards import parse_cards
    >>> d = deal_board(parse_cards("2c Ks JK 6s 4d 9h 3c Td 8h"))
    >>> " ".join(map(str, d.board)), " ".join(map(str, d.burns)), d.swap_slot
    ('Ks 4d 6s 9h Td', '2c JK 3c', 2)
    >>> str(d.replacement), d.burns_after_swap, str(d.next_board_card)
    ('4d', 2, '9h')

    The turn (9h) and the river (Td) are what they would have been had the joker not come.
    """
    rest = list(stub)
    board: list[Card] = []
    burns: list[Card] = []
    skip_burn = False
    swap: dict = {}
    lines: list = []

    def take(what: str) -> Card:
        if not rest:
            raise RuleError(_("the stub ran out before the {street}: a board needs up to 9 stub cards",
                              street=street_words(what)), field="stub")
        return rest.pop(0)

    for name, count in _DEAL:
        if not skip_burn:
            burns.append(take(name))
        skip_burn = False
        if swap and "next" not in swap:
            swap["next"] = None
        turned = [take(name) for _ in range(count)]
        if swap and swap["next"] is None:
            swap["next"] = turned[0]
        for i, c in enumerate(turned):
            if c.is_joker:
                slot = len(board) + 1
                card = take(name)
                board.append(card)
                burns.append(c)
                skip_burn = True
                swap = {"slot": slot, "card": card, "burns": len(burns)}
                lines.append(_("The joker is turned as board card {slot}: {procedure}.", slot=slot,
                               procedure=BURN_SWAP_MSG))
                lines.append(_("Board card {slot} is {card}, the stub's top card; the burn pile holds "
                               "{n} cards, the joker the last of them.", slot=slot, card=str(card),
                               n=len(burns)))
            else:
                board.append(c)
    if burns and JOKER in burns and not swap:
        lines.append(_("The joker came as a burn card: it is burned like any other card and the "
                       "board is dealt as usual."))
    if swap:
        nxt = swap.get("next")
        if nxt is not None:
            lines.append(_("No second burn: the joker is the next street's burn card, so the next "
                           "board card is {card}, as it would have been without the joker.", card=str(nxt)))
        else:
            lines.append(_("The joker was the river card: no board card follows."))
    lines.append(_("Board: {board}; burns: {burns}.", board=format_cards(board), burns=format_cards(burns)))
    return BoardDeal(tuple(board), tuple(burns), swap.get("slot"), swap.get("card"), swap.get("burns"),
                     swap.get("next"), tuple(lines))
