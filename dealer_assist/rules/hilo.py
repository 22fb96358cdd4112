"""Hold'em hi/lo split (seed 004): half of each pot to the best high hand, half to the best low.

How the seed is read (docs/showdown-games.md):

* The seed says only "the strongest and the weakest hand win, half each"; it names no qualifier.
  So by default **any** low plays: every seat's low is the best ace-to-five low (the seed's A-5
  lowball: aces low, straights and flushes ignored) of its seven cards.  A table that plays
  "eight or better" sets ``"low_qualifier": 8``; when no eligible seat has a qualifying low, the
  high hand takes the whole pot.
* Each pot (main and side) is split on its own (TDA 21).  The odd chip of the split goes to the
  high half, and odd chips inside a half go to the first winner clockwise from the button
  (TDA 20A).  When the same seat(s) win both halves, the pot is shared as one, as evenly as
  possible (one seat alone "scoops" it).

>>> r = HoldemHiLo().settle({"game": "holdem-hilo", "board": ["Ah","2d","7c","Ks","Kd"],
...     "button": 1, "seats": [{"seat": 1, "hole": ["3c","4d"], "committed": 50},
...                            {"seat": 2, "hole": ["Kh","Qc"], "committed": 50},
...                            {"seat": 3, "hole": None, "committed": 1, "folded": True}]})
>>> r.payouts        # seat 2's trip kings take the high half and the odd chip, seat 1 the low
{1: 50, 2: 51, 3: 0}
>>> r.hands[1].text, dict(r.hands[1].notes)["low"]["description"]
('one pair, K-K-A-7-4', '7-4-3-2-A low')
"""
from __future__ import annotations

from typing import Mapping, Optional, Sequence

from dealer_assist.cards import format_cards
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.holdem import Holdem
from dealer_assist.rules.lowball import LowValue, best_low, low_seat_hand
from dealer_assist.rules.pots import Pot
from dealer_assist.i18n import _, typed
from dealer_assist.rules.showdown import PotAward, SeatHand, SeatInput, Table, _seat_list

__all__ = ["HoldemHiLo"]

_NO_LOW_KEY = -(1 << 40)     # below every real low


class HoldemHiLo(Holdem):
    """Texas hold'em high-low split; optional ``"low_qualifier"`` (e.g. 8) for an N-or-better low."""

    name = "holdem-hilo"
    extra_fields = ("low_qualifier",)

    def check_table(self, table: Table) -> None:
        q = table.extra.get("low_qualifier")
        if q is not None and (isinstance(q, bool) or not isinstance(q, int) or not 5 <= q <= 13):
            raise RuleError(_("expected null (any low plays) or a highest low card from 5 to 13, such "
                              "as 8 for eight-or-better; got {got}", got=typed(q)), field="low_qualifier")

    def qualifier(self, table: Table) -> Optional[int]:
        return table.extra.get("low_qualifier")

    def low_value(self, table: Table, seat: SeatInput) -> LowValue:
        return best_low(seat.hole + table.board, "a5")

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:
        high = super().seat_hand(table, seat)
        low = self.low_value(table, seat)
        q = self.qualifier(table)
        low_json = {"best_five": [str(c) for c in low.five], "description": low.describe(),
                    "description_ja": low.describe_ja(),
                    "qualifies": True if q is None else low.qualifies(q)}
        return SeatHand(high.seat, high.key, high.category, high.category_name, high.best_five,
                        high.description, high.joker_as, high.holds_joker,
                        high.notes + (("low", low_json),))

    def _low_hands(self, table: Table, eligible: Sequence[int]) -> dict[int, SeatHand]:
        q = self.qualifier(table)
        out = {}
        for s in eligible:
            low = self.low_value(table, table.seat(s))
            if q is None or low.qualifies(q):
                out[s] = low_seat_hand(s, low)
            else:
                out[s] = SeatHand(s, _NO_LOW_KEY, "no_low", _("no low"), low.five,
                                  _("no {q}-or-better low ({low})", q=q, low=low.description()))
        return out

    def award_pot(self, table: Table, pot: Pot, index: int, hands: Mapping[int, SeatHand]
                  ) -> list[PotAward]:
        name = self.pot_name(index)
        if len(pot.eligible) == 1:
            return [self.award_part(table, name, pot.amount, pot.eligible, hands)]
        high_winners = self.pot_winners(table, pot.eligible, hands)[0]
        lows = self._low_hands(table, pot.eligible)
        best = max(h.key for h in lows.values())
        if best == _NO_LOW_KEY:
            q = self.qualifier(table)
            award = self.award_part(table, _("{pot} (no low)", pot=name), pot.amount,
                                    pot.eligible, hands, high_winners)
            return [_with_note(award, _("  No seat in this pot has a {q}-or-better low: the high hand "
                                        "takes the whole pot.", q=q))]
        low_winners = tuple(s for s in pot.eligible if lows[s].key == best)
        if set(low_winners) == set(high_winners):
            award = self.award_part(table, _("{pot} (high and low)", pot=name),
                                    pot.amount, pot.eligible, hands, high_winners)
            w = low_winners
            if len(w) == 1:
                note = _("  Seat {seat} also has the best low ({low}): it scoops the pot.", seat=w[0],
                         low=lows[w[0]].description)
            else:
                note = _("  {seats} also tie for the best low ({low}): the pot is shared as one, as evenly "
                         "as possible.", seats=_seat_list(w), low=lows[w[0]].description)
            return [_with_note(award, note)]
        low_amount = pot.amount // 2
        high_amount = pot.amount - low_amount
        high = self.award_part(table, _("{pot} (high half)", pot=name), high_amount,
                               pot.eligible, hands, high_winners)
        if high_amount != low_amount:
            high = _with_note(high, _("  The odd chip of the split goes to the high half (TDA 20A)."))
        low = self.award_part(table, _("{pot} (low half)", pot=name), low_amount,
                              pot.eligible, lows, low_winners)
        return [high, low]

    def explain_showdown(self, table: Table, order: Sequence[int], hands: Mapping[int, SeatHand]) -> list:
        lines = super().explain_showdown(table, order, hands)
        lows = self._low_hands(table, order)
        for s in order:
            lines.append(_("Seat {seat} low: {low} [{cards}].", seat=s, low=lows[s].description,
                           cards=format_cards(lows[s].best_five)))
        return lines


def _with_note(award: PotAward, line) -> PotAward:
    return PotAward(award.title, award.amount, award.eligible, award.winners,
                    award.shares, award.odd_chips, award.reasons + (line,))
