"""Seven-card stud at the live table (seed 003): the hooks of the hold'em flow that stud overrides.

Stud has no board: the camera reads each seat's own zone. The house deals as seed 003's middle
and advanced tables do:

* **deal 1**: two face-down cards and three face-up cards to each seat. Once every seat still in
  shows its three up cards readably, an ``up`` event names them and the seat that acts first: the
  *owner*, the seat with the strongest open cards by the seed's table (four of a kind > three of a
  kind > two pair > one pair > no pair, then the ranks; equal ranks are broken by the suit of the
  highest open card, spades > hearts > diamonds > clubs). The seed has no forced bring-in: the
  owner of the three open cards opens betting round 1.
* **deal 2**: one more up card and a last face-down card. Once every seat still in shows four up
  cards, an ``up`` event for the second deal with its owner (from the four open cards), who opens
  betting round 2 and shows first at the showdown.
* **showdown**: from the final owner clockwise each seat turns its three face-down cards; a hand
  weaker than the best shown so far is not opened but mucked (a seat whose cards leave its zone
  has folded, as in hold'em). When every seat still in shows its seven cards the rules engine
  rules (the ruling names who opens and who mucks; an odd chip goes to the winner with the highest
  card by suit, TDA 20A for stud).

>>> flow = StudFlow()
>>> seat, why = flow.owner({1: ["Kh", "7d", "3c"], 2: ["9s", "9c", "2h"], 4: ["Ad", "Qs", "5c"]})
>>> seat, why.render("en")
(2, 'seat 2 acts first: its open cards 9s 9c 2h are one pair 9-9-2')
>>> flow.owner({1: ["Kh", "7d", "3c"], 3: ["Ks", "7c", "3d"]})[0]   # equal ranks: the K of spades
3

Must not import the desk, Qt or OpenCV.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.i18n import Msg, _
from dealer_assist.live.handflow import JokerHoldemFlow
from dealer_assist.live.tracker import BACK, UNREADABLE
from dealer_assist.rules.showdown import Table
from dealer_assist.rules.stud import StudSeat, open_value, owner
from dealer_assist.zones import seat_of_zone

__all__ = ["StudFlow", "StudHand", "STUD_STREETS"]

#: The deals, in order: (street name, up cards each seat shows once it is dealt).
STUD_STREETS = (("deal1", 3), ("deal2", 4))


@dataclass
class StudHand:
    """One stud hand as the flow has read it."""

    #: seat -> its up cards, one list per deal (in the order they lie in the zone, left to right
    #: as the camera sees them)
    up: dict[int, list[list[str]]] = field(default_factory=dict)
    streets: int = 0                   # deals announced (0, 1, 2)
    acts_first: Optional[int] = None   # the owner of the last deal announced
    restate: bool = False              # an up card was corrected: say the deal again

    def up_cards(self, seat: int) -> list[str]:
        return [c for street in self.up.get(seat, ()) for c in street]


class StudFlow(JokerHoldemFlow):
    """Seven-card stud (seed 003): no board, up cards by deal, the owner acts and shows first."""

    jokers = 0
    hole_count = 7       # a seat shows all seven cards
    deal_count = 2       # the two first face-down cards
    board_slots: tuple[str, ...] = ()

    def new_hand(self) -> StudHand:
        return StudHand()

    def dealing(self, table) -> bool:
        return table.game_hand.streets == 0

    # ------------------------------------------------------------------ the deals
    def owner(self, up: Mapping[int, list[str]]) -> tuple[int, Msg]:
        """The seat that acts first from the seats' up cards, and why (seed 003's table)."""
        cards = {s: parse_cards(" ".join(c)) for s, c in up.items()}
        first = owner(cards)
        return first, _("seat {seat} acts first: its open cards {cards} are {open}", seat=first,
                        cards=" ".join(up[first]), open=open_value(cards[first]).description())

    @staticmethod
    def _faces(table, seat: int) -> list[Optional[str]]:
        return [table.tracker.identity(t) for t in table._zone_tracks(f"seat{seat}") if t.face]

    def read_streets(self, table, out: list) -> None:
        hand: StudHand = table.game_hand
        live = table._live()
        if hand.restate and hand.streets:
            hand.restate = False
            self._announce(table, out, STUD_STREETS[hand.streets - 1][0], live)
        if hand.streets >= len(STUD_STREETS) or len(live) < 2:
            return
        name, count = STUD_STREETS[hand.streets]
        new: dict[int, list[str]] = {}
        for s in live:
            faces = self._faces(table, s)
            if len(faces) != count or any(c in (None, UNREADABLE, BACK, "JK") for c in faces):
                return      # not dealt yet, unreadable, or a joker (a foreign card: duplicate_card says so)
            known = hand.up_cards(s)
            fresh = [c for c in faces if c not in known]
            if len(fresh) != count - len(known):
                return      # an up card of an earlier deal is read otherwise now: wait
            new[s] = fresh
        for s in live:
            hand.up.setdefault(s, []).append(new[s])
        hand.streets += 1
        self._announce(table, out, name, live)

    def _announce(self, table, out: list, name: str, live: list[int]) -> None:
        hand: StudHand = table.game_hand
        up = {s: hand.up_cards(s) for s in live if hand.up_cards(s)}
        first, why = self.owner(up)
        hand.acts_first = first
        en, ja = why.render("en"), why.render("ja")
        out.append(table._event("up", street=name, seats={s: tuple(c) for s, c in up.items()},
                                sure={s: tuple(table.card_sure(f"seat{s}", x) for x in c) for s, c in up.items()},
                                acts_first=first, message=en, message_ja=ja))

    def corrected(self, table, zone: str, card: str, to: Optional[str]) -> None:
        """A dealer's correction of an up card changes the deal's record (and maybe its owner)."""
        hand: StudHand = table.game_hand
        seat = seat_of_zone(zone)
        if seat is None:
            return
        for street in hand.up.get(seat, ()):
            if card in street and to is not None:
                street[street.index(card)] = to
                hand.restate = True

    # ------------------------------------------------------------------ the showdown
    def showdown_ready(self, table, live: list[int]) -> bool:
        return table.game_hand.streets == len(STUD_STREETS) and all(s in table.hole_rec for s in live)

    def street_name(self, table) -> str:
        done = table.game_hand.streets
        return STUD_STREETS[done - 1][0] if done else "dealing"

    def rules_table(self, table, chips: bool) -> Table:
        """Stud's table for the rules: each seat's face-down and face-up cards apart (the up cards
        as dealt, the down cards the rest of the seven it shows), no board and no last aggressor
        (stud shows from the owner)."""
        hand: StudHand = table.game_hand
        base = super().rules_table(table, chips)
        seats = []
        for seat in base.seats:
            up = tuple(parse_card(c) for c in hand.up_cards(seat.seat))
            if seat.hole is not None:
                ups = tuple(c for c in up if c in seat.hole)
                down = tuple(c for c in seat.hole if c not in ups)
                seats.append(StudSeat(seat.seat, down[:2] + ups + down[2:], seat.committed, seat.folded,
                                      seat.ante, down, ups))
            elif seat.folded and len(up) in (3, 4):
                seats.append(StudSeat(seat.seat, up, seat.committed, True, seat.ante, (), up))
            else:
                seats.append(StudSeat(seat.seat, None, seat.committed, seat.folded, seat.ante))
        return dataclasses.replace(base, board=(), seats=tuple(seats), last_aggressor=None)

    def entry_cards(self, entry: Mapping[str, Any]) -> list[str]:
        return list(entry.get("down") or ()) + list(entry.get("up") or ())

    # ------------------------------------------------------------------ the desk
    def seat_state(self, table, seat: int) -> dict:
        hand: StudHand = table.game_hand
        return {"up": [list(c) for c in hand.up.get(seat, ())],
                "acts": hand.acts_first == seat and table.hand is not None}

    def table_state(self, table) -> dict:
        return {"acts_first": table.game_hand.acts_first}
