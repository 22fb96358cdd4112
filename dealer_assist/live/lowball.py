"""Lowball at the live table (seed 004: A-5 and 2-7 draw): five cards to each seat, draws entered
by the dealer, the final five read at the showdown.

The camera cannot see a draw worth ruling on (the cards go face down to the muck and come back
face down), so the dealer enters each seat's draw as ``{"type": "draw", "seat": 2, "cards": 3}``
(0: the seat stands pat); a ``draw`` event says it, and the desk shows each seat's draws. The
face-up cards at a seat are counted: more than five, or a hand turned face up that is not five
cards, is a ``wrong_card_count`` alert, and no ruling is made on it (face-down cards are not
counted: the reader may see one back too many in a row of backs). Once every seat still in
shows its five cards, the rules engine rules (lowest hand wins: A-5 ignores straights and flushes,
2-7 counts them and aces are high).

Both lowball games (``lowball-a5`` and ``lowball-27``) take this flow: the rules engine the
registry names for each tells them apart.

>>> LowballFlow().hole_count, LowballFlow().board_slots
(5, ())

Must not import the desk, Qt or OpenCV.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from dealer_assist.errors import UserError
from dealer_assist.i18n import _, seat as seat_word, typed
from dealer_assist.live.handflow import JokerHoldemFlow
from dealer_assist.live.tracker import BACK, UNREADABLE

__all__ = ["LowballFlow", "LowballHand"]

#: The most cards a seat may draw at once.
MAX_DRAW = 5


@dataclass
class LowballHand:
    #: seat -> the cards it drew, one number per draw, in order
    draws: dict[int, list[int]] = field(default_factory=dict)


class LowballFlow(JokerHoldemFlow):
    """Five-card draw lowball: no board, five cards a seat, draws entered by the dealer."""

    jokers = 0
    hole_count = 5
    deal_count = 5
    board_slots: tuple[str, ...] = ()

    def new_hand(self) -> LowballHand:
        return LowballHand()

    def dealing(self, table) -> bool:
        return not table.game_hand.draws and not table.hole_rec

    def read_streets(self, table, out: list) -> None:
        """No street is read from the camera: the draws are the dealer's inputs."""

    def showdown_ready(self, table, live: list[int]) -> bool:
        return all(s in table.hole_rec for s in live)

    def street_name(self, table) -> str:
        return "draw" if table.game_hand.draws else "predraw"

    # ------------------------------------------------------------------ the draw
    def actions(self) -> dict:
        return {"draw": (self._act_draw, ("seat", "cards"))}

    def _act_draw(self, table, action: Mapping[str, Any]) -> None:
        """``seat`` draws ``cards`` cards (0 to 5; 0: stands pat)."""
        seat = table._dealt_seat(action, "draw")
        if seat in table.folded:
            raise UserError(_("draw: seat {seat} has folded", seat=seat))
        if table.hole_rec:
            raise UserError(_("draw: the showdown has begun; no more cards are drawn"))
        n = action.get("cards")
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_DRAW:
            raise UserError(_("draw: \"cards\" must be the number of cards the seat draws, 0 to {top}, "
                              "got {got}", top=MAX_DRAW, got=typed(n)))
        draws = table.game_hand.draws.setdefault(seat, [])
        draws.append(n)
        table._pending.append(table._event("draw", seat=seat, cards=n, round=len(draws)))

    # ------------------------------------------------------------------ the cards counted
    def card_alerts(self, table) -> dict:
        if table.hand is None or table.won is not None or table.showdown_done:
            return {}
        want: dict = {}
        tr = table.tracker
        for s in table._live():
            cards = [tr.identity(t) for t in tr.stable(f"seat{s}") if tr.present(t)]
            cards = [c for c in cards if c is not None]
            faces = [c for c in cards if c != BACK]
            # face-down cards are not counted: a row of backs can read as one back more or less
            # than lie there; the names of face-up cards can be counted
            named = [c for c in faces if c != UNREADABLE]
            shown = bool(faces) and len(faces) == len(cards) and UNREADABLE not in faces
            if len(set(named)) > self.hole_count or (shown and len(faces) != self.hole_count):
                want[("wrong_card_count", f"seat{s}")] = (
                    "wrong_card_count",
                    _("{seat} holds {n} cards: a lowball hand is five cards; check the seat's cards "
                      "(a card too many or too few from the draw) before the showdown is ruled",
                      seat=seat_word(s), n=len(faces)),
                    {"zone": f"seat{s}", "seat": s})
        return want

    # ------------------------------------------------------------------ the desk
    def seat_state(self, table, seat: int) -> dict:
        return {"draws": list(table.game_hand.draws.get(seat, ()))}

