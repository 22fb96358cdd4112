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
            raise RuleError(f"expected null (any low plays) or a highest low card from 5 to 13, such "
                            f"as 8 for eight-or-better; got {q!r}", field="low_qualifier")

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
        return SeatHand(high.seat, high.key, high.category, high.category_ja, high.best_five,
                        high.text, high.text_ja, high.joker_as, high.holds_joker,
                        high.notes + (("low", low_json),))

    def _low_hands(self, table: Table, eligible: Sequence[int]) -> dict[int, SeatHand]:
        q = self.qualifier(table)
        out = {}
        for s in eligible:
            low = self.low_value(table, table.seat(s))
            if q is None or low.qualifies(q):
                out[s] = low_seat_hand(s, low)
            else:
                out[s] = SeatHand(s, _NO_LOW_KEY, "no_low", "ローなし", low.five,
                                  f"no {q}-or-better low ({low.describe()})",
                                  f"{q}以下のローなし（{low.describe_ja()}）")
        return out

    def award_pot(self, table: Table, pot: Pot, index: int, hands: Mapping[int, SeatHand]
                  ) -> list[PotAward]:
        name, name_ja = self.pot_name(index)
        if len(pot.eligible) == 1:
            return [self.award_part(table, name, name_ja, pot.amount, pot.eligible, hands)]
        high_winners, _, _ = self.pot_winners(table, pot.eligible, hands)
        lows = self._low_hands(table, pot.eligible)
        best = max(h.key for h in lows.values())
        if best == _NO_LOW_KEY:
            q = self.qualifier(table)
            award = self.award_part(table, f"{name} (no low)", f"{name_ja}（ローなし）", pot.amount,
                                    pot.eligible, hands, high_winners)
            return [_with_note(award, f"  No seat in this pot has a {q}-or-better low: the high hand "
                                      f"takes the whole pot.",
                               f"  このポットに{q}以下のローがないため、ハイが全額を獲得。")]
        low_winners = tuple(s for s in pot.eligible if lows[s].key == best)
        if set(low_winners) == set(high_winners):
            award = self.award_part(table, f"{name} (high and low)", f"{name_ja}（ハイ・ロー）",
                                    pot.amount, pot.eligible, hands, high_winners)
            w = low_winners
            if len(w) == 1:
                note = (f"  Seat {w[0]} also has the best low ({lows[w[0]].text}): it scoops the pot.",
                        f"  シート{w[0]}はローも最良（{lows[w[0]].text_ja}）: ポット全額を獲得（スクープ）。")
            else:
                note = (f"  {_seat_list(w)} also tie for the best low ({lows[w[0]].text}): the pot "
                        f"is shared as one, as evenly as possible.",
                        f"  {_seat_list(w, True)}はローも同じ（{lows[w[0]].text_ja}）: ポット全体を均等に分ける。")
            return [_with_note(award, *note)]
        low_amount = pot.amount // 2
        high_amount = pot.amount - low_amount
        high = self.award_part(table, f"{name} (high half)", f"{name_ja}（ハイ半分）", high_amount,
                               pot.eligible, hands, high_winners)
        if high_amount != low_amount:
            high = _with_note(high, "  The odd chip of the split goes to the high half (TDA 20A).",
                              "  半分に分けた端数1枚はハイ側へ（TDA 20A）。")
        low = self.award_part(table, f"{name} (low half)", f"{name_ja}（ロー半分）", low_amount,
                              pot.eligible, lows, low_winners)
        return [high, low]

    def explain_showdown(self, table: Table, order: Sequence[int], hands: Mapping[int, SeatHand]
                         ) -> tuple[list[str], list[str]]:
        lines, lines_ja = super().explain_showdown(table, order, hands)
        lows = self._low_hands(table, order)
        for s in order:
            lines.append(f"Seat {s} low: {lows[s].text} [{format_cards(lows[s].best_five)}].")
            lines_ja.append(f"シート{s} ロー: {lows[s].text_ja} [{format_cards(lows[s].best_five)}]。")
        return lines, lines_ja


def _with_note(award: PotAward, line: str, line_ja: str) -> PotAward:
    return PotAward(award.name, award.name_ja, award.amount, award.eligible, award.winners,
                    award.shares, award.odd_chips, award.why + (line,), award.why_ja + (line_ja,))
