"""Half Texas hold'em at the live table (seed 001): the 26-card deck checked, the colour points
ruled at the showdown, raises and changes as dealer inputs, and the session's ledger of BP and RP.

Every seat zone, empty ones too, is dealt two cards face down, the board five face down and the
rest go to the burn pile; nobody looks at their cards. Cards are opened where they lie as the
players call them, a folded seat's two cards at once, and everything still in at the showdown.

* **The deck**: any face-up card that is not one of the 26 (black A-K in ♠, red A-K in ♥) is a
  ``not_in_deck`` alert until it is taken away or corrected; the joker is the ``duplicate_card``
  alert every joker-less game raises.
* **Who plays**: the session's players, each with 10 BP and 10 RP at the start; the seats dealt
  in the first hand are the players unless the dealer names them first
  (``{"type": "players", "seats": [1, 2, 4]}``: a new session). A dropped-out seat's cards (its
  swap hand) and an empty seat's are dealt but play no part: they count as folded.
* **Dealer inputs**: ``{"type": "points", "seat": 3, "bp": 12, "rp": 4}`` between hands (a
  session carried over, or the ledger corrected), ``{"type": "raise", "seat": 2}`` (a ``raise`` event: the raises so far and
  the multiplier of the game's points), ``{"type": "fold", "seat": 3}`` (as in every game; the
  seat's cards are opened), ``{"type": "change", "seat": 2, "with": 4}`` (seat 2 swaps its hand
  for the swap hand on dropped seat 4, once a game; ``with`` may be left out when one seat has
  dropped).
* **The showdown**: once the five board cards and the two cards of every player still in are
  open, the rules engine (:class:`dealer_assist.rules.half_texas.HalfTexas`) rules: hands, the
  twin tower, points won and lost, dropouts; a ``showdown`` event as in every game (its
  ``payouts`` empty: nobody is paid chips).
* **The ledger**: when the hand is over, its points go into the session's ledger, and a
  ``ledger`` event gives every player's BP, RP and BP x RP, the changes of the game, who dropped
  out, the next button (never a dropped seat) and whether the session is over (the button round
  twice, or three players out). The next hand's button is set from it unless the dealer says
  otherwise.

>>> flow = HalfTexasFlow()
>>> flow.hole_count, flow.board_slots[:2], flow.board_in_order
(2, ('board1', 'board2'), False)

Must not import the desk, Qt or OpenCV.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional

from dealer_assist.cards import CardError, parse_card
from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, _, both, seat_list, typed, zone
from dealer_assist.live.handflow import BOARD_SLOTS, STREETS, JokerHoldemFlow
from dealer_assist.live.ruling import TableRuling
from dealer_assist.live.tracker import BACK, UNREADABLE
from dealer_assist.rules.half_texas import (_ACTIONS as _HT_ACTIONS, _SUIT_SIGN, DEFAULT_POINTS, DROPOUTS_TO_END, ROUNDS_PER_SESSION,
                                            Colors, HalfTexasRuling, LiveGame, Points, TableSeat)

__all__ = ["HalfTexasFlow", "HalfTexasHand", "Ledger"]


@dataclass
class HalfTexasHand:
    """One game's own record: the players dealt in, the seats whose cards play no part (empty
    seats, swap hands), the raisers in order and the change made."""

    players: Optional[tuple[int, ...]] = None
    idle: tuple[int, ...] = ()
    raised: list[int] = field(default_factory=list)
    change: Optional[tuple[int, int]] = None


@dataclass
class Ledger:
    """The session's points: seat -> :class:`Points`, the game in which each dropped-out seat
    dropped, the games played, the button's rounds and whether the session is over."""

    points: dict[int, Points] = field(default_factory=dict)
    dropped: dict[int, int] = field(default_factory=dict)
    games: int = 0
    rounds: int = 0
    over: bool = False
    reason: Optional[Msg] = None
    #: the last game's changes: seat -> {"bp", "rp"}
    changes: dict[int, dict] = field(default_factory=dict)

    @classmethod
    def start(cls, seats) -> "Ledger":
        return cls({s: Points(DEFAULT_POINTS, DEFAULT_POINTS) for s in sorted(set(seats))})

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(s for s in sorted(self.points) if s not in self.dropped)

    def rows(self) -> dict[int, dict]:
        return {s: {"bp": p.bp, "rp": p.rp, "final": p.final, "dropped": s in self.dropped}
                for s, p in sorted(self.points.items())}

    def to_json(self) -> dict:
        en, ja = both(self.reason) if self.reason is not None else ("", "")
        return {"games": self.games, "seats": {str(s): v for s, v in self.rows().items()},
                "changes": {str(s): dict(v) for s, v in self.changes.items()},
                "over": self.over, "reason": en, "reason_ja": ja}


class HalfTexasFlow(JokerHoldemFlow):
    """Half Texas: hold'em's zones and board, no joker, colour points instead of chips."""

    jokers = 0
    hole_count = 2
    deal_count = 2
    board_slots: tuple[str, ...] = BOARD_SLOTS
    board_in_order = False      # any card may be called and opened before the showdown
    chips = False               # played for BP and RP, not chips
    colors = Colors()

    def __init__(self) -> None:
        #: the session's points, kept from hand to hand (None until the first hand or ``players``)
        self.ledger: Optional[Ledger] = None

    def new_hand(self) -> HalfTexasHand:
        return HalfTexasHand()

    # ------------------------------------------------------------------ who plays
    def _players(self, table) -> HalfTexasHand:
        """The hand's players, fixed on its first frame: the session's active players dealt in
        (a new session from the seats dealt when there is none, or the last one is over); the
        other seats dealt count as folded."""
        hand: HalfTexasHand = table.game_hand
        if hand.players is None:
            if self.ledger is None or self.ledger.over:
                self.ledger = Ledger.start(table.dealt)
            active = set(self.ledger.active)
            hand.players = tuple(s for s in table.dealt if s in active)
            hand.idle = tuple(s for s in table.dealt if s not in active)
            table.folded.update(hand.idle)
        return hand

    def read_streets(self, table, out: list) -> None:
        """The board is announced as hold'em's is, but only by cards opened face up (it lies face
        down from the deal; a card opened by a call before its street waits for the others)."""
        self._players(table)
        rec = [None if c in (BACK, UNREADABLE) else c for c in table.board_rec]
        if table.board_out and all(rec[:table.board_out]) and rec[:table.board_out] != table.board_emitted:
            table.board_emitted = list(rec[:table.board_out])     # a corrected board card
            out.append(table._board_event({3: "flop", 4: "turn", 5: "river"}[table.board_out]))
        for street, n in STREETS:
            if n <= table.board_out:
                continue
            if not all(rec[:n]):
                break
            table.board_out = n
            table.board_emitted = list(rec[:n])
            out.append(table._board_event(street))

    # ------------------------------------------------------------------ the ruling
    def rules_table(self, table, chips: bool) -> LiveGame:
        hand = self._players(table)
        if table.won is not None and table.board_out < 5:
            # won by folds: the streets are no longer read, but the winner's colours need the board
            rec = [None if c in (BACK, UNREADABLE) else c for c in table.board_rec]
            if all(rec):
                table.board_out, table.board_emitted = 5, list(rec)
        ledger = self.ledger
        seats = []
        for s in hand.players or ():
            folded = s in table.folded
            shown = table.hole_rec.get(s)
            p = ledger.points[s]
            seats.append(TableSeat(s, tuple(shown) if shown and len(shown) == 2 else None, folded,
                                   s in hand.raised and not folded, p.bp, p.rp))
        button = table._table_button() if table.dealt else None
        return LiveGame(tuple(table.board_emitted), len([s for s in hand.raised if s not in table.folded]),
                        tuple(seats), button if button in (hand.players or ()) else None,
                        max(2, min(table.seats, 8)))

    def showdown_ready(self, table, live: list[int]) -> bool:
        return table.board_out == 5 and all(s in table.hole_rec for s in live)

    # ------------------------------------------------------------------ dealer inputs
    def actions(self) -> dict:
        return {"raise": (self._act_raise, ("seat",)), "change": (self._act_change, ("seat", "with")),
                "players": (self._act_players, ("seats",)), "points": (self._act_points, ("seat", "bp", "rp"))}

    def _player(self, table, action: Mapping[str, Any], kind: str) -> int:
        seat = table._dealt_seat(action, kind)
        hand = self._players(table)
        name = _HT_ACTIONS.get(kind, kind)
        if seat not in (hand.players or ()):
            raise UserError(_("{kind}: seat {seat} is not a player of this game (the players: {players})",
                              kind=name, seat=seat, players=seat_list(hand.players or ())))
        if seat in table.folded:
            raise UserError(_("{kind}: seat {seat} has folded", kind=name, seat=seat))
        if table.showdown_done or table.won is not None:
            raise UserError(_("{kind}: the game is already ruled", kind=name))
        return seat

    def _act_raise(self, table, action: Mapping[str, Any]) -> None:
        """``seat`` raised: every point change of the game is multiplied once more."""
        seat = self._player(table, action, "raise")
        hand: HalfTexasHand = table.game_hand
        if seat in hand.raised:
            raise UserError(_("raise: seat {seat} has raised already; a raiser acts no more", seat=seat))
        hand.raised.append(seat)
        n = len(hand.raised)
        table._pending.append(table._event("raise", seat=seat, raises=n, multiplier=n + 1))

    def _act_change(self, table, action: Mapping[str, Any]) -> None:
        """``seat`` swaps its hand for the swap hand on the dropped seat ``with`` (once a game)."""
        seat = self._player(table, action, "change")
        hand: HalfTexasHand = table.game_hand
        if hand.change is not None:
            raise UserError(_("change: seat {seat} has changed already; one change a game",
                              seat=hand.change[0]))
        if seat in hand.raised:
            raise UserError(_("change: seat {seat} has raised and acts no more", seat=seat))
        swaps = [s for s in hand.idle if self.ledger is not None and s in self.ledger.dropped]
        other = action.get("with")
        if other is None and len(swaps) == 1:
            other = swaps[0]
        if other not in swaps:
            raise UserError(_("change: \"with\" must be a dropped-out seat with a swap hand ({seats}), got {got}",
                              seats=seat_list(swaps) if swaps else "-", got=typed(other)))
        hand.change = (seat, other)
        table._pending.append(table._event("change", seat=seat, with_seat=other))

    def _act_players(self, table, action: Mapping[str, Any]) -> None:
        """A new session with the players on ``seats`` (10 BP and 10 RP each), between hands."""
        seats = action.get("seats")
        if (not isinstance(seats, list) or len(seats) < 2 or len(set(seats)) != len(seats)
                or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= table.seats
                       for s in seats)):
            raise UserError(_("players: \"seats\" must list two or more different seats 1..{top}, got {got}",
                              top=table.seats, got=typed(seats)))
        if table.hand is not None:
            raise UserError(_("players: a new session starts between hands, not during hand {hand}",
                              hand=table.hand))
        self.ledger = Ledger.start(seats)

    def _act_points(self, table, action: Mapping[str, Any]) -> None:
        """Between hands, the dealer sets a player's points in the ledger (a session carried over
        from before the desk started, or the ledger corrected): ``seat``, ``bp``, ``rp``."""
        if table.hand is not None:
            raise UserError(_("points: the ledger is set between hands, not during hand {hand}", hand=table.hand))
        if self.ledger is None:
            raise UserError(_("points: no session yet; name its players first ({example})",
                              example='{"type": "players", "seats": [1, 2, 3]}'))
        seat = table._seat_arg(action, "points")
        if seat not in self.ledger.points:
            raise UserError(_("points: seat {seat} is not a player of the session (the players: {players})",
                              seat=seat, players=seat_list(sorted(self.ledger.points))))
        values = []
        for name in ("bp", "rp"):
            v = action.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 999:
                raise UserError(_("points: \"{name}\" must be a whole number from 0 to 999, got {got}",
                                  name=name, got=typed(v)))
            values.append(v)
        p = Points(*values)
        self.ledger.points[seat] = p
        if p.dropped:
            self.ledger.dropped.setdefault(seat, self.ledger.games)
        else:
            self.ledger.dropped.pop(seat, None)

    # ------------------------------------------------------------------ the deck checked
    def card_alerts(self, table) -> dict:
        want: dict = {}
        tr = table.tracker
        for t in tr.stable():
            if t.zone is None or not t.face or not tr.present(t):
                continue
            card = tr.identity(t)
            if card is None or card in (BACK, UNREADABLE, "JK"):
                continue
            try:
                parsed = parse_card(card)
            except CardError:
                continue
            if self.colors.in_deck(parsed):
                continue
            want[("not_in_deck", card, t.zone)] = (
                "not_in_deck",
                _("{card} in {zone} is not in the 26-card deck of Half Texas (black {black} A-K, red {red} A-K): "
                  "a card from another deck; take it away or correct the misread card",
                  card=card, zone=zone(t.zone), black=_SUIT_SIGN[self.colors.black], red=_SUIT_SIGN[self.colors.red]),
                {"zone": t.zone, "card": card})
        return want

    # ------------------------------------------------------------------ the ledger
    def table_ruling(self, result: HalfTexasRuling) -> TableRuling:
        """The engine's ruling as every desk and log reads it: hands and explanation in the common
        shape, no chips paid, and the colour points (multiplier, points, standings, dropouts,
        winners, tie) as the game's own fields, as ``settle`` writes them."""
        return replace(TableRuling.from_json(result.to_json()), result=result)

    def hand_ended(self, table, out: list) -> None:
        result = table.ruling.result if table.ruling is not None else None
        ledger = self.ledger
        if ledger is None or not isinstance(result, HalfTexasRuling):
            return
        game = ledger.games + 1
        changes: dict[int, dict] = {}
        newly: list[int] = []
        for s, new in result.standings.items():
            if s not in ledger.points:
                continue
            old = ledger.points[s]
            ledger.points[s] = new
            changes[s] = {"bp": new.bp - old.bp, "rp": new.rp - old.rp}
            if new.dropped and s not in ledger.dropped:
                ledger.dropped[s] = game
                newly.append(s)
        ledger.games = game
        ledger.changes = changes
        active = ledger.active
        button = table.button
        nxt = None
        if len(ledger.dropped) >= DROPOUTS_TO_END:
            ledger.over, ledger.reason = True, _("{n} players have dropped out", n=len(ledger.dropped))
        elif len(active) < 2:
            ledger.over, ledger.reason = True, _("fewer than two players are left")
        elif button is not None:
            n = table.seats
            after = [(button + i - 1) % n + 1 for i in range(1, n + 1)]
            nxt = next(s for s in after if s in active)
            if nxt <= button:
                ledger.rounds += 1
            if ledger.rounds >= ROUNDS_PER_SESSION:
                ledger.over, ledger.reason, nxt = True, _("the button has gone round twice"), None
        if nxt is not None and table._next_button is None:
            table._next_button = nxt       # never on a dropped seat (the dealer may still say otherwise)
        en, ja = both(ledger.reason) if ledger.reason is not None else ("", "")
        out.append(table._event("ledger", games=game, seats=ledger.rows(), changes=changes,
                                dropouts=tuple(newly), button=nxt, over=ledger.over, reason=en, reason_ja=ja))

    # ------------------------------------------------------------------ the desk
    def seat_state(self, table, seat: int) -> dict:
        ledger = self.ledger
        hand: HalfTexasHand = table.game_hand
        out: dict = {}
        if ledger is not None and seat in ledger.points:
            p = ledger.points[seat]
            out.update(bp=p.bp, rp=p.rp, dropped=seat in ledger.dropped)
        out["raised"] = seat in hand.raised
        out["swap_hand"] = ledger is not None and seat in ledger.dropped and seat in table.dealt
        return out

    def table_state(self, table) -> dict:
        hand: HalfTexasHand = table.game_hand
        return {"ledger": None if self.ledger is None else self.ledger.to_json(),
                "raises": len(hand.raised), "multiplier": len(hand.raised) + 1,
                "change": None if hand.change is None else {"seat": hand.change[0], "with": hand.change[1]}}
