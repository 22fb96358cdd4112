"""The hand flow of a live table: stable cards in zones -> hand start, streets, showdown, rulings.

:class:`LiveTable` joins the :class:`~dealer_assist.live.tracker.Tracker` (stable cards) and the
flow of one hold'em hand after another; it is pure (no camera, no files).  What differs between
games lives in the named hooks of a small rules class (:class:`JokerHoldemFlow`; plain hold'em is
:class:`HoldemFlow`, the same without the joker), as python-chess variants override hooks.

The flow of one hand (docs/live.md tells it for dealers):

* **waiting** -> ``hand_start`` once face-down cards lie stable in two or more seat zones (the seats
  dealt in; dealing is over when each holds its two cards, or after the seats stayed unchanged for
  ``deal_wait_s`` seconds); a seat whose cards left it while the deal went on was dealt in and
  folded; a seat getting cards later, before any board card, joins silently;
* ``board`` events as slots 1-3 (flop), 4 (turn), 5 (river) hold readable cards; a joker turned
  in a board slot raises ``joker_on_board`` with the burn-swap procedure and the street waits for
  the card that replaces it;
* a seat whose cards leave its zone while the hand goes on has folded; one seat left wins
  without a showdown;
* face-up cards in a seat zone give ``hole``; after the river, once every live seat has shown or
  mucked, ``showdown`` with the rules engine's ruling; corrections and late chips re-rule;
* doubt is said, never hidden: ``hole`` and ``board`` carry ``sure`` (one flag per card, the
  tracker's :meth:`~dealer_assist.live.tracker.Tracker.sure`), and a ruling made on cards that are
  not all sure is **provisional** (the ruling's ``provisional``, the doubtful cards in its
  ``unsure``) until the dealer confirms them (``confirm``, one card or all at once:
  a ``confirm`` event names them) or corrects them; it is then ruled again. A ruling that no name
  of its doubtful cards could change (:mod:`dealer_assist.live.doubt`: the same chips to each seat
  whatever they are) is final at once, its doubtful cards still in ``unsure`` for the dealer to
  confirm;
* the table cleared -> ``hand_end`` with the final ruling.

Every window is in seconds of the source's clock (the tracker's), never in frames. When frames come
too slowly or too many are skipped (``min_fps``, ``max_skip`` over ``pace_s``), ``falling_behind``
is raised and the showdown is not ruled until the pipeline keeps up again: a ruling is never made
on a table half seen.

>>> from dealer_assist.live.tracker import Observation
>>> table = LiveTable(seats=6)
>>> backs = [Observation("BACK", f"seat{s}", (s * 200.0 + dx, 0.0), 1.0) for s in (2, 5) for dx in (0, 60)]
>>> events = [e for f in range(3) for e in table.step(f, f / 15, backs)]
>>> [(e.type, e.frame, e.seats, e.button) for e in events]
[('hand_start', 2, (2, 5), 2)]
"""
from __future__ import annotations

import functools
import json
from typing import Any, Mapping, Optional

from dealer_assist.cards import CardError, parse_card
from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, _, _n, _p, both, join, seat_list, street, typed, zone
from dealer_assist.live.doubt import doubt_can_change
from dealer_assist.live.events import EVENT_TYPES, Alert, TableEvent
from dealer_assist.live.ruling import TableRuling
from dealer_assist.live.tracker import (BACK, UNREADABLE, Observation, Tracker, TrackerSettings,
                                        canonical_card)
from dealer_assist.people import NAME_MAX, person_name
from dealer_assist.rules.holdem import BURN_SWAP_MSG
from dealer_assist.rules.errors import MAX_CHIPS
from dealer_assist.rules.pots import clockwise_from
from dealer_assist.rules.showdown import SeatInput, Table
from dealer_assist.zones import seat_of_zone

__all__ = ["LiveTable", "JokerHoldemFlow", "HoldemFlow", "BOARD_SLOTS", "STREETS"]

BOARD_SLOTS = ("board1", "board2", "board3", "board4", "board5")
#: street name -> how many board cards the board has once it is out
STREETS = (("flop", 3), ("turn", 4), ("river", 5))
_STREET_OF_SLOT = {1: "flop", 2: "flop", 3: "flop", 4: "turn", 5: "river"}

#: alerts that follow the cards on the table (re-checked every frame)
CARD_CODES = frozenset({"duplicate_card", "sixth_board_card", "wrong_street", "unreadable_card",
                        "joker_on_board", "wrong_card_count", "not_in_deck"})
#: alerts about the hand (raised by the flow, closed with the hand)
HAND_CODES = frozenset({"chips_missing", "ruling_error", "no_showdown_seen"})


class JokerHoldemFlow:
    """Joker NLH (seed 000): the game-specific hooks of the hand flow.

    Every game's live flow is this class or a subclass that overrides some of its hooks (the
    registry, :mod:`dealer_assist.games`, names each game's class and its rules; a flow does not
    name its game, and two games may share one flow, as hold'em and hold'em hi/lo do):

    ======================  =====================================================================
    hook                    what it decides
    ======================  =====================================================================
    ``board_slots``         the zones it deals common cards to (none in stud)
    ``deal_count``          face-down cards each seat holds once the deal is over
    ``hole_count``          face-up cards a seat lays down to show its hand
    ``new_hand``            the game's own record of one hand (stud: the up cards by street)
    ``dealing``             whether a seat getting cards now still joins the hand
    ``read_streets``        what a street is: reading the table for the next one
    ``showdown_ready``      what ends the hand at a showdown
    ``rules_table``         the table the rules rule on (how the showdown is shown)
    ``table_ruling``        the engine's ruling in the shape every game's desk and log read
    ``entry_cards``         the cards a seat of that table shows
    ``corrected``           what a dealer's correction changes in the game's own record
    ``actions``             the game's own dealer inputs (lowball: the cards each seat draws)
    ``card_alerts``         the game's own alerts on the cards (lowball: a wrong card count)
    ``street_name``         the street the desk names
    ``seat_state``,         what the desk shows per seat and for the table (who acts)
    ``table_state``
    ``board_in_order``      whether a board card before its street is out is an alert (Half
                            Texas opens any card the players call)
    ``hand_ended``          what the game keeps when a hand is over (Half Texas: the session's
                            points)
    ``chips``               whether the game is played for chips (a seat's committed chips
                            missing at the showdown is an alert)
    ======================  =====================================================================

    >>> en, ja = both(JokerHoldemFlow().joker_on_board(4))
    >>> en.split(": ")[0], "the next burn card" in en, "次のバーンカード" in ja
    ('the joker is in board 4 (the turn)', True, True)
    """

    jokers = 1              # jokers in the deck
    hole_count = 2          # hole cards per seat
    deal_count = 2          # face-down cards per seat once dealt
    board_slots: tuple[str, ...] = BOARD_SLOTS
    board_in_order = True   # a turn or river card before the street before it is an alert
    chips = True            # the pot is chips the dealer enters (Half Texas plays for points)

    # ------------------------------------------------------------------ the hand's shape
    def new_hand(self) -> Any:
        """The game's own record of a new hand (kept on the table as ``game_hand``)."""
        return None

    def dealing(self, table: "LiveTable") -> bool:
        """Whether the deal is still open: a seat given cards now joins the hand (before the flop)."""
        return table.board_out == 0

    def read_streets(self, table: "LiveTable", out: list) -> None:
        """Read the table for the next street and announce it (hold'em: the board's cards)."""
        table._streets(out)

    def showdown_ready(self, table: "LiveTable", live: list[int]) -> bool:
        """Whether the showdown can be ruled: the river is out and every live seat has shown."""
        return table.board_out == 5 and all(s in table.hole_rec for s in live)

    def street_name(self, table: "LiveTable") -> str:
        return {0: "preflop", 3: "flop", 4: "turn", 5: "river"}[table.board_out]

    def rules_table(self, table: "LiveTable", chips: bool) -> Table:
        """The table the rules engine rules on, as its objects (``to_json()`` gives what
        ``dealer-assist settle`` reads, which the ``showdown`` event carries)."""
        live = table._live()
        antes = table._seat_antes() if chips else {}
        seats = []
        for s in table.dealt:
            shown = s in live and s in table.hole_rec and table.won is None
            seats.append(SeatInput(
                s, tuple(parse_card(c) for c in table.hole_rec[s]) if shown else None,
                # a seat whose chips were not entered put in its ante at least
                table.committed.get(s, antes.get(s, 0)) if chips else 1,
                s not in live, antes.get(s, 0)))
        return Table(table.game_rules.name, tuple(parse_card(c) for c in table.board_emitted),
                     table._table_button(), tuple(seats), table.last_aggressor)

    def table_ruling(self, result: Any) -> TableRuling:
        """The engine's ruling (its game's result object) as the live table keeps and shows it."""
        return TableRuling.of(result)

    def entry_cards(self, entry: Mapping[str, Any]) -> list[str]:
        """The cards a seat entry of :meth:`rules_table`'s JSON shows."""
        return list(entry.get("hole") or ())

    def actions(self) -> dict:
        """The game's own dealer inputs: kind -> (handler(table, action), its fields)."""
        return {}

    def card_alerts(self, table: "LiveTable") -> dict:
        """The game's own alerts on the cards lying there now: key -> (code, message, extra)."""
        return {}

    def corrected(self, table: "LiveTable", zone: str, card: str, to: Optional[str]) -> None:
        """The dealer corrected ``card`` in ``zone`` to ``to``: the game's own record follows."""

    def seat_state(self, table: "LiveTable", seat: int) -> dict:
        """The game's own fields of one seat in :meth:`LiveTable.state` (none in hold'em)."""
        return {}

    def table_state(self, table: "LiveTable") -> dict:
        """The game's own fields of :meth:`LiveTable.state` (none in hold'em)."""
        return {}

    def hand_ended(self, table: "LiveTable", out: list) -> None:
        """The hand is over (its ``hand_end`` is in ``out``): what the game keeps from it (none
        in hold'em)."""

    def blocks_board(self, card: str) -> bool:
        """A card that may not stay in a board slot (the street waits for its replacement)."""
        return card == "JK" and self.jokers > 0

    def joker_on_board(self, slot: int) -> Msg:
        """The dealer's instruction for the joker turned in board slot ``slot`` (RULINGS rule 5)."""
        return _("the joker is in {zone} (the {street}): {procedure}", zone=zone(f"board{slot}"),
                 street=street(_STREET_OF_SLOT[slot]), procedure=BURN_SWAP_MSG)

    def joker_maybe_on_board(self, slot: int) -> Msg:
        """:meth:`joker_on_board` for a card read as the joker but not surely (a joker printed
        without an index is named by its picture alone, and never surely): the dealer looks first."""
        return _("{zone} (the {street}) may be the joker (not read surely): look at the card. If it is the "
                 "joker: {procedure}. If not, correct the card", zone=zone(f"board{slot}"),
                 street=street(_STREET_OF_SLOT[slot]), procedure=BURN_SWAP_MSG)

    def joker_corrected(self, slot: str, now: str) -> Msg:
        """The words when the dealer corrected the joker read in board slot ``slot`` to ``now``: a
        misreading, not a swap."""
        return _("{zone} is {card} by the dealer's correction: it was not the joker, nothing is swapped",
                 zone=zone(slot), card=now)

    def joker_swapped(self, slot: str, now: Optional[str]) -> Msg:
        """The words when the joker has left board slot ``slot`` (``now``: its card, if any)."""
        if now is None:
            return _("the joker has left {zone}; the slot waits for the stub's top card", zone=zone(slot))
        return _("the joker was swapped out of {zone}: {zone} is now {card}, the joker is a burn card",
                 zone=zone(slot), card=now)


class HoldemFlow(JokerHoldemFlow):
    """Texas hold'em: Joker NLH without the joker (a joker read anywhere is a misread); hold'em
    hi/lo too (its rules split the pot; its flow is hold'em's)."""

    jokers = 0


def _own_table(game: Any) -> Optional[type]:
    """The table class a game's live flow names (its ``table``), or None (the hand flow's own)."""
    from dealer_assist.games import find_game

    try:
        found = find_game(game)
    except UserError:
        return None
    if not found.flow:
        return None
    module, cls = found.flow.split(":")
    import importlib

    name = getattr(getattr(importlib.import_module(module), cls), "table", None)
    if not name:
        return None
    module, cls = name.split(":")
    return getattr(importlib.import_module(module), cls)


def _dealt_list(seats) -> Msg:
    return seat_list(seats)


_ACTIONS = {"button": _("button"), "committed": _("committed"), "ante": _("ante"), "antes": _("antes"),
            "fold": _("fold"), "last_aggressor": _("last_aggressor"), "correct": _("correct"),
            "confirm": _("confirm"), "draw": _("draw")}


def _action(kind: str):
    """A dealer action's name in an error (``fold`` / ``フォールド``)."""
    return _ACTIONS.get(kind, kind)


def zone_word(name: Optional[str]):
    """A zone in words (``board4`` -> ``board 4`` / ``ボード4``)."""
    return zone(name)


def zone_list(zones) -> Any:
    """Zones in words, ``board 4 and seat 2`` / ``ボード4・シート2``."""
    return join([zone(z) for z in zones], _p("zone list", ", "), _p("zone list", " and "))


def _rule_error(exc: BaseException) -> Msg:
    """Why the rules engine could not rule on the table as read: its own words where it gives
    them in both languages, else what to check."""
    m = getattr(exc, "msg", None)
    if m is not None:
        return _("no ruling: {why}", why=m)
    return _("no ruling: the table as read is not one the rules accept ({detail}); check the cards "
             "and the chips entered", detail=str(exc))


class LiveTable:
    """A live Joker NLH (or hold'em) table: ``step`` each frame, ``apply`` each dealer input.

    Both return the events they cause, as objects (:mod:`dealer_assist.live.events`; their
    ``to_json()`` is the event line of docs/live.md); :meth:`state` is a JSON-ready snapshot for
    the desk display.
    """

    def __new__(cls, *args: Any, **kwargs: Any):
        """A game whose flow names its own table class (``table = "module:Class"``: Daifugo's
        referee, where nothing is dealt to the seats) gets that class from ``LiveTable(game=...)``."""
        if cls is LiveTable:
            game = kwargs.get("game", args[1] if len(args) > 1 else None)
            own = _own_table(game)
            if own is not None:
                return object.__new__(own)
        return object.__new__(cls)

    def __init__(self, seats: int = 6, game: str = "joker-holdem",
                 settings: Optional[TrackerSettings] = None):
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 12:
            raise UserError(_("a live table has 2 to 12 seats, got {seats}", seats=typed(seats)))
        from dealer_assist.games import find_game, live_games

        found = find_game(game) if isinstance(game, str) and game else None
        if found is None or not found.live:
            raise UserError(_("the live table knows the games {games}, not {game}",
                              games=", ".join(g.name for g in live_games()), game=typed(game)))
        self.seats = seats
        self.game = game
        #: the game in the registry: its rules (``game_rules``) and its live hooks (``rules``)
        self.game_rules = found.rules
        self.rules = found.live_flow()
        self.settings = settings or TrackerSettings()
        self.tracker = Tracker(self.settings)
        self.zones = frozenset(self.rules.board_slots + ("burn", "muck")
                               + tuple(f"seat{s}" for s in range(1, seats + 1)))
        self._active: dict[tuple, Alert] = {}
        self._hands = 0
        self._prev_button: Optional[int] = None
        self._next_button: Optional[int] = None
        self._deal_sig: Optional[tuple] = None
        self._deal_since = 0.0
        #: the seats that held face-down cards while this deal went on (since the table was
        #: last empty): a seat that folds before the deal is judged over was dealt in all the same
        self._deal_seen: set[int] = set()
        self._pace: list[tuple[int, float]] = []   # (frame, time) of the frames of the last pace_s
        self._frame = 0
        self._t = 0.0
        #: the level's antes, kept from hand to hand until changed: ``{"each": N}`` (every seat
        #: dealt in antes N) or ``{"big_blind": N, "blind": B}`` (the big blind antes N for the
        #: table, after its blind B: TDA 2024 "big blind first"); None: no antes
        self.ante_structure: Optional[dict] = None
        #: who deals at this table now, as they gave their name (``dealer`` action); kept from hand
        #: to hand, named in each ``hand_start``; None: not given
        self.dealer: Optional[str] = None
        self._new_hand_state()
        self.hand: Optional[int] = None

    def _new_hand_state(self) -> None:
        self.hand = None
        self.dealt: list[int] = []
        self.button: Optional[int] = None
        self.folded: set[int] = set()
        #: the folded seats the camera saw fold (their cards left the zone), not the dealer's input
        self._seen_folds: set[int] = set()
        self.committed: dict[int, int] = {}
        self.antes: dict[int, int] = {}       # a seat's ante entered for this hand (overrides the level's)
        self.last_aggressor: Optional[int] = None
        self.board_rec: list[Optional[str]] = [None] * 5
        self.board_out = 0                    # board cards announced (0, 3, 4, 5)
        self.board_emitted: list[str] = []
        self.hole_rec: dict[int, list[str]] = {}
        #: doubt_matters' answers this hand, by (table, doubt, sure cards): a doubt that comes and
        #: goes from frame to frame is asked of the rules engine once
        self._doubt_answers: dict[tuple, bool] = {}
        self._restate: set[int] = set()
        self.won: Optional[int] = None
        self.showdown_done = False
        #: the hand's ruling with the flow's marks (provisional, chips entered); the engine's own
        #: object is its ``result``
        self.ruling: Optional[TableRuling] = None
        self._settle_input: Optional[dict] = None
        self._doubt_input: Optional[list] = None
        self._showdown_ruling: Optional[TableRuling] = None
        self.corrections = 0
        #: the game's own record of the hand (its flow's ``new_hand``)
        self.game_hand = self.rules.new_hand()
        #: (zone, card) the dealer confirmed as read, in order (``confirm``); and the cards the
        #: dealer set by a correction: both are sure for the rest of the hand
        self.confirmed: list[tuple[str, str]] = []
        #: the cards the dealer set, (zone, card) -> the card it was read as (the joker alert's end
        #: says a joker corrected away was a misreading, not a swap)
        self._dealer_set: dict[tuple[str, str], str] = {}
        #: (zone, card) -> whether its track was sure when last seen (kept once the track is gone)
        self._sure: dict[tuple[str, str], bool] = {}
        self._pending: list[TableEvent] = []     # events a dealer action causes by itself
        self._emptied: dict[int, float] = {}   # seat -> when the cards it was dealt left its zone
        self._started = 0.0                      # when the hand started (tracker time)

    # ===================================================================== public interface
    def step(self, frame: int, t: float, observations: list[Observation]) -> list[TableEvent]:
        """One frame's observations; returns the events it causes, in order (objects of
        :mod:`dealer_assist.live.events`; their ``to_json()`` is the event line)."""
        self._frame, self._t = frame, float(t)
        self.tracker.update(frame, t, observations)
        return self._keep_pace(frame) + self._evaluate()

    def unseen(self) -> None:
        """A frame came whose picture shows nothing of the table (dark, washed out: the pipeline
        does not give it to :meth:`step`). Its cards are not gone, and the frames it stood for were
        not skipped for want of time: the pace is measured afresh from the next frame read."""
        self._pace.clear()

    def pace(self) -> tuple[Optional[float], Optional[float]]:
        """Frames read a second of source time and the share of the source's frames skipped, over
        the last ``pace_s`` seconds (None until that much time has passed)."""
        if len(self._pace) < 2 or self._pace[-1][1] - self._pace[0][1] < self.settings.pace_s * 0.75:
            return None, None
        (f0, t0), (f1, t1) = self._pace[0], self._pace[-1]
        n = len(self._pace) - 1
        fps = n / (t1 - t0)
        skipped = 1 - n / (f1 - f0) if f1 - f0 >= n > 0 else 0.0
        return fps, skipped

    def _keep_pace(self, frame: int) -> list[TableEvent]:
        """Raise ``falling_behind`` while the pipeline reads too few of the source's frames."""
        now = self.tracker.now
        if self._pace and (frame <= self._pace[-1][0] or (
                frame == self._pace[-1][0] + 1 and now - self._pace[-1][1] > 1.0)):
            # the source started again, or delivered nothing for a while without skipping a frame
            # (a camera that dropped out: camera_lost says so): measure afresh
            self._pace.clear()
        self._pace.append((frame, now))
        while len(self._pace) > 2 and self._pace[1][1] <= now - self.settings.pace_s:
            self._pace.pop(0)
        fps, skipped = self.pace()
        if fps is None:
            return []
        s = self.settings
        key = ("falling_behind",)
        slow = fps < s.min_fps or skipped > s.max_skip
        out: list[TableEvent] = []
        if slow and key not in self._active:
            self._raise(out, key, "falling_behind",
                        _("falling behind: reading {fps} frames a second and skipping {skipped} of the "
                          "camera's frames (at least {min_fps} a second needed): the showdown is not "
                          "ruled until it keeps up; lighten the machine's load",
                          fps=f"{fps:.1f}", skipped=f"{skipped:.0%}", min_fps=f"{s.min_fps:g}"))
        elif not slow and key in self._active:
            self._clear(out, key)
        return out

    @property
    def falling_behind(self) -> bool:
        return ("falling_behind",) in self._active

    def apply(self, action: Mapping[str, Any], frame: int, t: float) -> list[TableEvent]:
        """A dealer's input (see docs/live.md); returns the events it causes, in order.

        >>> LiveTable().apply({"type": "fold", "seat": 2}, 0, 0.0)
        Traceback (most recent call last):
        ...
        dealer_assist.errors.UserError: fold: no hand is in progress
        >>> LiveTable().apply({"type": "shuffle"}, 0, 0.0)
        Traceback (most recent call last):
        ...
        dealer_assist.errors.UserError: unknown dealer action 'shuffle'; known: button, committed, ante, antes, fold, last_aggressor, correct, confirm, dealer

        A game's table with dealer inputs of its own overrides it (Daifugo's referee).
        """
        self._frame, self._t = frame, float(t)
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise UserError(_("a dealer action is an object with a \"type\""))
        kind = action["type"]
        handlers = {"button": self._act_button, "committed": self._act_committed, "ante": self._act_ante,
                    "antes": self._act_antes, "fold": self._act_fold,
                    "last_aggressor": self._act_last_aggressor, "correct": self._act_correct,
                    "confirm": self._act_confirm, "dealer": self._act_dealer}
        fields = {"button": {"seat"}, "committed": {"seat", "amount"}, "ante": {"seat", "amount"},
                  "antes": {"each", "big_blind", "blind"}, "fold": {"seat"},
                  "last_aggressor": {"seat"}, "correct": {"zone", "card", "to"},
                  "confirm": {"zone", "card"}, "dealer": {"name"}}
        for name, (act, names) in self.rules.actions().items():
            handlers[name] = functools.partial(act, self)
            fields[name] = set(names)
        handler = handlers.get(kind)
        if handler is None:
            raise UserError(_("unknown dealer action {kind}; known: {known}", kind=typed(kind),
                              known=", ".join(handlers)))
        allowed = fields[kind]
        extra = sorted(set(action) - allowed - {"type", "frame"})
        if extra:
            raise UserError(_("{action}: unknown field(s) {fields}", action=_action(kind),
                              fields=", ".join(extra)))
        self._pending = []
        handler(action)
        caused, self._pending = self._pending, []
        return caused + self._evaluate()

    def state(self) -> dict:
        """A snapshot of the table for the desk display and the pipeline: JSON-ready but for its
        ``ruling`` (the :class:`~dealer_assist.live.ruling.TableRuling`, whose ``to_json()`` is its
        JSON)."""
        tr = self.tracker
        slots: list[Optional[str]] = []
        for i, slot in enumerate(self.rules.board_slots):     # none for a game without a board
            card = self._slot_card(slot)
            if card is None and self.hand is not None and i < self.board_out:
                card = self.board_rec[i]
            slots.append(card)
        board = [c for c in slots if c is not None]
        seats = {}
        for s in range(1, self.seats + 1):
            cards = [c for c in (tr.identity(t) for t in self._zone_tracks(f"seat{s}")) if c is not None]
            seats[str(s)] = {"cards": cards, "folded": s in self.folded,
                             "dealt": s in self.dealt, "committed": self.committed.get(s),
                             "ante": self._seat_antes().get(s), **self.rules.seat_state(self, s)}
        if self.hand is None:
            street = "waiting"
        elif self.won is not None:
            street = "won"
        elif self.showdown_done:
            street = "showdown"
        else:
            street = self.rules.street_name(self)
        out = {
            "hand": self.hand, "street": street, "button": self.button, "next_button": self._next_button,
            "board": board, "dealer": self.dealer,
            "antes": dict(self.ante_structure) if self.ante_structure else None,
            "board_slots": slots, "seats": seats,
            "burn": [c for c in (tr.identity(t) for t in self._zone_tracks("burn")) if c is not None],
            "muck": len(self._zone_tracks("muck")),
            "alerts": [a.to_json() for a in self._active.values()],
            "ruling": self.ruling, "tracks": self._tracks_shown(),
            "unsure": [{"zone": z, "card": c, **({"or": o} if (o := self.other_of(z, c)) else {})}
                       for z, c in self.unsure()],
            "confirmed": [{"zone": z, "card": c} for z, c in self.confirmed],
        }
        out.update(self.rules.table_state(self))
        return out

    # ===================================================================== dealer actions
    def _seat_arg(self, action: Mapping[str, Any], kind: str) -> int:
        seat = action.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise UserError(_("{action}: \"seat\" must be a seat number 1..{top}, got {got}",
                              action=_action(kind), top=self.seats, got=typed(seat)))
        return seat

    def _in_hand(self, kind: str) -> None:
        if self.hand is None:
            raise UserError(_("{action}: no hand is in progress", action=_action(kind)))

    def _dealt_seat(self, action: Mapping[str, Any], kind: str) -> int:
        self._in_hand(kind)
        seat = self._seat_arg(action, kind)
        if seat not in self.dealt:
            raise UserError(_("{action}: seat {seat} is not dealt in hand {hand} ({dealt})",
                              action=_action(kind), seat=seat, hand=self.hand,
                              dealt=_dealt_list(self.dealt)))
        return seat

    def _act_button(self, action: Mapping[str, Any]) -> None:
        """The dealer puts the button on ``seat`` (``{"type": "button", "seat": 3}``): this hand's
        while one is under way (its ruling follows at once: who posts, who gets an odd chip), else
        the next hand's, in place of the seat the rotation would give (a card left in an empty seat
        during the deal made it look dealt in). Said at once (a ``button`` event, which the hand log
        keeps with the hand) when it changes this hand's; the next hand's is named by its
        ``hand_start`` (and meanwhile by ``state()["next_button"]``)."""
        seat = self._seat_arg(action, "button")
        if self.hand is None:
            self._next_button = seat
        elif seat != self.button:
            was, self.button = self.button, seat
            self._pending.append(self._event("button", seat=seat, was=was))

    @staticmethod
    def _chips_arg(action: Mapping[str, Any], kind: str, name: str = "amount") -> int:
        amount = action.get(name)
        if isinstance(amount, float) and amount.is_integer():
            amount = int(amount)
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_CHIPS:
            raise UserError(_("{action}: \"{name}\" must be a whole number of chips from 0 to {top}, "
                              "got {got}", action=_action(kind), name=name, top=MAX_CHIPS, got=typed(amount)))
        return amount

    def _act_committed(self, action: Mapping[str, Any]) -> None:
        seat = self._dealt_seat(action, "committed")
        self.committed[seat] = self._chips_arg(action, "committed")

    def _act_ante(self, action: Mapping[str, Any]) -> None:
        """This hand, ``seat`` posted an ante of ``amount`` (part of its committed chips)."""
        seat = self._dealt_seat(action, "ante")
        self.antes[seat] = self._chips_arg(action, "ante")

    def _act_antes(self, action: Mapping[str, Any]) -> None:
        """The level's antes from now on: ``each`` seat, or the ``big_blind`` for all (after ``blind``)."""
        if "each" in action and "big_blind" in action:
            raise UserError(_("antes: give \"each\" (every seat antes) or \"big_blind\" (a big-blind "
                              "ante), not both"))
        if "blind" in action and "big_blind" not in action:
            raise UserError(_("antes: \"blind\" is the big blind's blind, given with \"big_blind\""))
        if "each" in action:
            each = self._chips_arg(action, "antes", "each")
            self.ante_structure = {"each": each} if each else None
        elif "big_blind" in action:
            ante = self._chips_arg(action, "antes", "big_blind")
            blind = self._chips_arg(action, "antes", "blind") if "blind" in action else None
            self.ante_structure = ({"big_blind": ante, **({"blind": blind} if blind is not None else {})}
                                   if ante else None)
        else:
            self.ante_structure = None

    def _act_fold(self, action: Mapping[str, Any]) -> None:
        seat = self._dealt_seat(action, "fold")
        if seat in self.folded:
            self._seen_folds.discard(seat)       # the dealer says so too: it stays, cards or not
            return
        live = [s for s in self.dealt if s not in self.folded]
        if live == [seat]:
            raise UserError(_("fold: seat {seat} is the last seat in the hand; it cannot fold", seat=seat))
        if self.won is not None:
            raise UserError(_("fold: the hand is already won by seat {seat}", seat=self.won))
        self.folded.add(seat)

    def _act_last_aggressor(self, action: Mapping[str, Any]) -> None:
        self.last_aggressor = self._dealt_seat(action, "last_aggressor")

    # ----------------------------------------------------------------------- corrections
    # A correction is checked before anything changes (pokerkit's style: ``can_correct`` says
    # whether, ``verify_correction`` says why not): it must name a card the zone holds or held
    # this hand, and it may not put one card in two places.
    def verify_correction(self, action: Mapping[str, Any]) -> tuple[str, str, Optional[str]]:
        """The correction's ``(zone, card, to)``, or :class:`UserError` saying why it is refused
        (the error's ``message_ja`` says it in Japanese).

        >>> table = LiveTable()
        >>> table.can_correct({"type": "correct", "zone": "board1", "card": "As", "to": "Ks"})
        False
        >>> try:
        ...     table.verify_correction({"type": "correct", "zone": "board1", "card": "As", "to": "Ks"})
        ... except UserError as exc:
        ...     print(exc, "/", exc.message_ja)
        correct: no hand is in progress / 訂正: 進行中のハンドがありません
        """
        if self.hand is None:
            raise UserError(_("correct: no hand is in progress"))
        zone = action.get("zone")
        if zone not in self.zones:
            raise UserError(_("correct: \"zone\" must be one of board1..board5, burn, muck, "
                              "seat1..seat{top}; got {got}", top=self.seats, got=typed(zone)))
        card = canonical_card(action.get("card"), what=_("correct: card"))
        if card == BACK:
            raise UserError(_("correct: \"card\" is the face-up card as read (or \"??\"), not a "
                              "face-down card"))
        to = action.get("to")
        if to is not None:
            to = canonical_card(to, what=_("correct: to"))
            if to in (BACK, UNREADABLE):
                raise UserError(_("correct: \"to\" must be a card (or null to remove it), not {what}",
                                  what=_("a face-down card") if to == BACK else _("an unreadable card")))
        tr = self.tracker
        held = any(t.zone == zone and t.face and tr.identity(t) == card for t in tr.tracks())
        if zone in BOARD_SLOTS and self.board_rec[BOARD_SLOTS.index(zone)] == card:
            held = True
        seat = seat_of_zone(zone)
        if seat in self.hole_rec and card in self.hole_rec[seat]:
            held = True
        if not held:
            seen = [c for c in (tr.identity(t) for t in self._zone_tracks(zone)) if c is not None]
            faces = [c for c in seen if c != BACK]
            backs = len(seen) - len(faces)
            holds = [join(faces, " ")] if faces else []
            if backs:
                holds.append(_n("{n} face-down card", "{n} face-down cards", backs, n=backs))
            raise UserError(_("correct: no {card} is read in {zone} (it holds {holds})", card=card,
                              zone=zone_word(zone),
                              holds=join(holds, _("; ")) if holds else _("nothing")))
        if to is not None and to != card:
            self._check_no_clash(zone, to)
        return zone, card, to

    def can_correct(self, action: Mapping[str, Any]) -> bool:
        """Would :meth:`apply` accept this correction now? (:meth:`verify_correction` says why not.)"""
        try:
            self.verify_correction(action)
        except (UserError, CardError):
            return False
        return True

    def correction_preview(self, action: Mapping[str, Any]) -> dict:
        """What the correction would do to the payouts, worked out on a copy of the table (nothing
        here changes): ``{"before": {seat: chips} | None, "after": {seat: chips} | None,
        "changes": bool}``; ``changes`` is true when a ruling stands and the correction would pay
        other seats (or leave no ruling). Refused corrections raise as :meth:`verify_correction`."""
        import copy

        from dealer_assist.live import tracker as tracker_module

        self.verify_correction(action)
        # one table's sentinels stay themselves in the copy (a pinned card is compared by identity)
        memo = {id(v): v for v in vars(tracker_module).values() if type(v) is object}
        memo[id(self.rules)] = self.rules
        memo[id(self.settings)] = self.settings
        twin = copy.deepcopy(self, memo)
        twin.apply(dict(action), self._frame, self._t)

        def pays(ruling: Optional[TableRuling]) -> Optional[dict[int, int]]:
            return None if ruling is None else dict(ruling.payouts)

        before, after = pays(self.ruling), pays(twin.ruling)
        return {"before": before, "after": after, "changes": before is not None and before != after}

    def corrections_standing(self) -> list[dict]:
        """The corrections that hold in this hand (they end with it), in the order they were made:
        ``[{"zone", "card", "to"}]`` (``to`` None: removed)."""
        if self.hand is None:
            return []
        return [{"zone": zone, "card": card, "to": to}
                for (zone, card), to in self.tracker._overrides.items()]

    def _check_no_clash(self, zone: str, to: str) -> None:
        """Refuse ``to`` when the table already holds it elsewhere (the joker: as many as the deck has)."""
        if to == "JK" and self.rules.jokers == 0:
            raise UserError(_("correct: this game is played without the joker: a card cannot be "
                              "corrected to JK"))
        tr = self.tracker
        where: set[str] = set()
        for t in tr.stable():
            if t.zone is not None and t.face and tr.identity(t) == to:
                where.add(t.zone)
        for i, c in enumerate(self.board_rec[:self.board_out]):
            if c == to and BOARD_SLOTS[i] != zone:
                where.add(BOARD_SLOTS[i])
        for s, cards in self.hole_rec.items():
            if to in cards:
                where.add(f"seat{s}")
        limit = self.rules.jokers if to == "JK" else 1
        if len(where) < limit:
            return
        order = sorted(where, key=lambda z: (z not in BOARD_SLOTS, seat_of_zone(z) or 0, z))
        raise UserError(_("correct: {card} is already read in {zones}: one card cannot lie in two "
                          "places; if that one is the misread card, correct it first",
                          card=to, zones=zone_list(order)))

    def _act_correct(self, action: Mapping[str, Any]) -> None:
        zone, card, to = self.verify_correction(action)
        self.tracker.correct(zone, card, to)
        if zone in BOARD_SLOTS:
            i = BOARD_SLOTS.index(zone)
            if self.board_rec[i] == card:
                self.board_rec[i] = to
        seat = seat_of_zone(zone)
        if seat in self.hole_rec and card in self.hole_rec[seat]:
            self.hole_rec[seat] = [to if c == card else c for c in self.hole_rec[seat] if c != card or to]
            self._restate.add(seat)
        if to is not None:
            self._dealer_set[(zone, to)] = card
        self.rules.corrected(self, zone, card, to)
        self.corrections += 1

    # ----------------------------------------------------------------------- doubt and confirmation
    def _tracks_shown(self) -> list[dict]:
        """The tracker's tracks (:meth:`Tracker.snapshot`) as the table shows them: a card the
        dealer confirmed is sure there too, with no other name, so the camera view stops asking
        about it once the banner and the marks are gone."""
        confirmed = set(self.confirmed)
        out = []
        for t in self.tracker.snapshot():
            if not t["sure"] and (t["zone"], t["card"]) in confirmed:
                t = {k: v for k, v in t.items() if k != "or"} | {"sure": True}
            out.append(t)
        return out

    def card_sure(self, zone: Optional[str], card: Optional[str]) -> bool:
        """Whether ``card`` in ``zone`` is sure: the dealer confirmed it or set it by a correction,
        or its track is sure (:meth:`Tracker.sure`, remembered for the hand once the track is
        gone). A face-down card is sure; an unreadable one never is."""
        if card is None or card == UNREADABLE or zone is None:
            return False
        if card == BACK:
            return True
        if (zone, card) in self._dealer_set or (zone, card) in self.confirmed:
            return True
        return self._sure.get((zone, card), False)

    def _note_sureness(self) -> None:
        """Remember, for the hand, how sure each face-up card on the board and at the seats is now."""
        tr = self.tracker
        for t in tr.stable():
            if t.face and (t.zone in BOARD_SLOTS or seat_of_zone(t.zone) is not None):
                card = tr.identity(t)
                if card is not None and card != UNREADABLE:
                    self._sure[(t.zone, card)] = tr.sure(t)

    def in_play(self) -> list[tuple[str, str]]:
        """The face-up cards of the hand by name, ``(zone, card)``: the board as shown (a slot's
        card now, else the card announced there) and the cards shown by each seat still in the
        hand (as recorded by its ``hole`` event, else as lying there now)."""
        if self.hand is None:
            return []
        out: list[tuple[str, str]] = []
        for i, slot in enumerate(BOARD_SLOTS):
            card = self._slot_card(slot)
            if card is None and i < self.board_out:
                card = self.board_rec[i]
            if card is not None and card not in (UNREADABLE, BACK):
                out.append((slot, card))
        for s in self._live():
            cards = self.hole_rec.get(s)
            if cards is None:
                cards = [c for c in (self.tracker.identity(t) for t in self._zone_tracks(f"seat{s}") if t.face)
                         if c is not None]
            out += [(f"seat{s}", c) for c in cards if c not in (UNREADABLE, BACK)]
        return out

    def other_of(self, zone: str, card: str) -> Optional[str]:
        """For ``card`` in ``zone`` not sure, the reader's likeliest other name for it
        (:meth:`Tracker.other`): what the dealer should check it against; None where none."""
        tr = self.tracker
        for t in tr.stable():
            if t.zone == zone and tr.identity(t) == card:
                other = tr.other(t)
                if other is not None:
                    return other
        return None

    def unsure(self) -> list[tuple[str, str]]:
        """The cards of :meth:`in_play` that are not sure (what the dealer is asked to confirm)."""
        return [(z, c) for z, c in self.in_play() if not self.card_sure(z, c)]

    def verify_confirm(self, action: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The cards a ``confirm`` action confirms, or :class:`UserError` saying why it is refused:
        with ``zone`` and ``card``, that card (it must be read there); without them, every card of
        :meth:`unsure`.

        >>> LiveTable().verify_confirm({"type": "confirm"})
        Traceback (most recent call last):
        ...
        dealer_assist.errors.UserError: confirm: no hand is in progress
        """
        if self.hand is None:
            raise UserError(_("confirm: no hand is in progress"))
        zone, card = action.get("zone"), action.get("card")
        if zone is None and card is None:
            todo = self.unsure()
            if not todo:
                raise UserError(_("confirm: no card of hand {hand} awaits confirmation", hand=self.hand))
            return todo
        if zone not in self.zones:
            raise UserError(_("confirm: \"zone\" must be one of board1..board5, seat1..seat{top}; got {got}",
                              top=self.seats, got=typed(zone)))
        card = canonical_card(card, what=_("confirm: card"))
        if card in (BACK, UNREADABLE):
            raise UserError(_("confirm: only a card read by name can be confirmed; enter an unreadable "
                              "card as a correction"))
        if (zone, card) not in self.in_play():
            raise UserError(_("confirm: no {card} is read in {zone}", card=card, zone=zone_word(zone)))
        return [(zone, card)]

    def _act_dealer(self, action: Mapping[str, Any]) -> None:
        """A dealer takes the table (dealers rotate): ``{"type": "dealer", "name": "佐藤"}``. Said
        at once (a ``dealer`` event) and named in every ``hand_start`` from then on; a hand under
        way keeps the dealer it started with."""
        name = person_name(action.get("name"))
        if name is None:
            raise UserError(_("dealer: \"name\" must be the dealer's name, 1 to {n} characters, got {got}",
                              n=NAME_MAX, got=typed(action.get("name"), limit=60)))
        if name != self.dealer:
            self.dealer = name
            self._pending.append(self._event("dealer", name=name))

    def _act_confirm(self, action: Mapping[str, Any]) -> None:
        cards = self.verify_confirm(action)
        # what the reader offered instead, before the confirmation ends the doubt
        offered = tuple((z, c, o) for z, c in cards if (o := self.other_of(z, c)) is not None)
        for zc in cards:
            if zc not in self.confirmed:
                self.confirmed.append(zc)
        self._pending.append(self._event("confirm", cards=tuple(cards), offered=offered))

    # ===================================================================== reading the table
    def _zone_tracks(self, zone: str) -> list:
        tracks = [t for t in self.tracker.stable(zone)]
        tracks.sort(key=lambda t: (t.xy[0], t.xy[1]))
        return tracks

    def _slot_card(self, slot: str) -> Optional[str]:
        """The card in a board slot now: its stable track seen most recently (newest on ties)."""
        best = None
        for t in self.tracker.stable(slot):
            if self.tracker.identity(t) is None:
                continue
            if best is None or (t.missing, -t.id) < (best.missing, -best.id):
                best = t
        return None if best is None else self.tracker.identity(best)

    def _seat_has_cards(self, seat: int) -> bool:
        return bool(self.tracker.stable(f"seat{seat}"))

    def _table_empty(self) -> bool:
        return not any(t.zone in BOARD_SLOTS or seat_of_zone(t.zone) is not None for t in self.tracker.stable())

    # ===================================================================== alerts
    def _event(self, kind: str, **fields: Any) -> TableEvent:
        """An event of this frame and hand (``kind``: its type in :data:`EVENT_TYPES`)."""
        return EVENT_TYPES[kind](round(self._t, 3), self._frame, self.hand, **fields)

    def _raise(self, out: list, key: tuple, code: str, message: Msg,
               keep: bool = True, **extra: Any) -> None:
        en, ja = both(message)
        ev = self._event("alert", code=code, message=en, message_ja=ja, extra=tuple(extra.items()))
        if keep:
            self._active[key] = ev
        out.append(ev)

    def _clear(self, out: list, key: tuple) -> None:
        old = self._active.pop(key)
        message, message_ja = old.message, old.message_ja
        if old.code == "joker_on_board" and isinstance(old.get("zone"), str):
            # say what resolved it, not the instruction again
            slot = old.get("zone")
            now = self._slot_card(slot)
            if now is not None and self._dealer_set.get((slot, now)) == "JK":
                message, message_ja = both(self.rules.joker_corrected(slot, now))
            else:
                message, message_ja = both(self.rules.joker_swapped(slot, now))
        out.append(self._event("alert", code=old.code, message=message, message_ja=message_ja,
                               extra=old.extra, cleared=True))

    def _card_alerts(self) -> dict[tuple, tuple]:
        """The alerts the cards on the table call for now: key -> (code, message, ja, extra)."""
        tr = self.tracker
        want: dict[tuple, tuple] = {}
        # one card name in two places (the joker: more than the deck has)
        places: dict[str, list[str]] = {}
        for t in tr.stable():
            if t.zone is None or not t.face or not tr.present(t):
                continue
            card = tr.identity(t)
            if card is None or card == UNREADABLE:
                continue
            places.setdefault(card, []).append(t.zone)
        for card, zones in places.items():
            limit = self.rules.jokers if card == "JK" else 1
            if len(zones) > limit:
                where = zone_list(sorted(zones))
                if card == "JK":
                    msg = (_("a joker is seen in {zones}, but the deck has no joker: check the cards and "
                             "correct the misread one", zones=where) if limit == 0 else
                           _n("a joker is seen in {zones}, but the deck has {n} joker: check the cards "
                              "and correct the misread one",
                              "a joker is seen in {zones}, but the deck has {n} jokers: check the cards "
                              "and correct the misread one", limit, zones=where, n=limit))
                else:
                    msg = _("{card} is seen in two places ({zones}): one is misread or from another deck; "
                            "check both and correct the misread one", card=card, zones=where)
                want[("duplicate_card", card)] = ("duplicate_card", msg, {"card": card, "zone": sorted(zones)[0]})
        live_hand = self.hand is not None and self.won is None and not self.showdown_done
        if live_hand:
            for slot in BOARD_SLOTS:
                # an unreadable box counts only once it has stayed unreadable as long as the
                # unreadable-card alert waits: a hand passing over the board leaves such boxes
                # for a few frames
                n = sum(1 for t in tr.stable(slot) if tr.present(t)
                        and (tr.identity(t) != UNREADABLE or self._long_unreadable(t)))
                if n > 1:
                    want[("sixth_board_card", slot)] = (
                        "sixth_board_card",
                        _("{zone} holds {n} cards: a board slot takes one card; remove the extra card",
                          zone=zone_word(slot), n=n),
                        {"zone": slot})
            filled = [self._slot_card(slot) is not None for slot in BOARD_SLOTS]
            # a slot with a card still being accepted is coming: the whole board turned at once
            coming = [f or any(t.face for t in tr.pending(slot)) for f, slot in zip(filled, BOARD_SLOTS)]
            for k in ((4, 5) if self.rules.board_in_order else ()):
                if filled[k - 1] and self.board_out < k and not all(coming[:k - 1]):
                    want[("wrong_street", f"board{k}")] = (
                        "wrong_street",
                        _("{zone} (the {street}) has a card before the {before} is out: check the order "
                          "of the board", zone=zone_word(f"board{k}"), street=street(_STREET_OF_SLOT[k]),
                          before=street("flop" if k == 4 else "turn")),
                        {"zone": f"board{k}"})
        for i, slot in enumerate(BOARD_SLOTS, 1):
            if self._slot_card(slot) == "JK" and self.rules.blocks_board("JK"):
                # worded as the reading is when it is raised: a joker not read surely is looked at first
                sure = self.card_sure(slot, "JK")
                said = self.rules.joker_on_board(i) if sure else self.rules.joker_maybe_on_board(i)
                want[("joker_on_board", slot)] = ("joker_on_board", said,
                                                  {"zone": slot, "card": "JK", **({} if sure else {"sure": False})})
        want.update(self.rules.card_alerts(self))
        for t in tr.stable():
            if t.zone is not None and self._long_unreadable(t):
                want[("unreadable_card", t.id)] = (
                    "unreadable_card",
                    _("a face-up card in {zone} cannot be read: straighten it under the camera, "
                      "or enter it as a correction of the card \"??\"", zone=zone_word(t.zone)),
                    {"zone": t.zone, "card": UNREADABLE})
        return want

    def _long_unreadable(self, t) -> bool:
        """A face-up track unreadable for at least ``settings.unreadable_s`` (the unreadable-card
        alert's wait; a hand passing over a card leaves it unreadable for less)."""
        return (t.unreadable_since is not None and self.tracker.identity(t) == UNREADABLE
                and self._t - t.unreadable_since >= self.settings.unreadable_s)

    # ===================================================================== the flow
    def _evaluate(self) -> list[TableEvent]:
        out: list[TableEvent] = []
        if self.hand is not None:
            self._note_sureness()
        want = self._card_alerts()
        for key in [k for k in self._active if k[0] in CARD_CODES and k not in want]:
            self._clear(out, key)
        if self.hand is None:
            self._maybe_start(out)
        else:
            self._flow(out)
        for key, (code, msg, extra) in want.items():
            if key not in self._active:
                self._raise(out, key, code, msg, **extra)
        return out

    def _maybe_start(self, out: list) -> None:
        tr = self.tracker
        backs: dict[int, int] = {}
        coming: set[int] = set()
        for t in tr.tracks():
            seat = seat_of_zone(t.zone)
            if seat is None or seat > self.seats or t.face:
                continue
            if t.stable:
                backs[seat] = backs.get(seat, 0) + 1
            else:
                coming.add(seat)
        pending = bool(coming - set(backs))     # a seat's first card still being accepted
        if not backs and not coming:
            self._deal_seen = set()              # the table is empty: no deal goes on
        self._deal_seen |= set(backs)
        if len(backs) < 2:
            self._deal_sig = None
            return
        sig = tuple(sorted(backs.items()))
        if sig != self._deal_sig:
            self._deal_sig, self._deal_since = sig, tr.now
        dealt_done = all(n >= self.rules.deal_count for n in backs.values()) and not pending
        if not dealt_done and tr.now - self._deal_since < self.settings.deal_wait_s:
            return
        self._deal_sig = None
        self._hands += 1
        self.hand = self._hands
        # a seat whose cards left it while the deal went on (a quick fold, before every seat held
        # its cards or the wait was over) was dealt in and folded, as the camera saw: its chips
        # are dead money in the pot. Were they only covered, they come back and the fold is undone.
        gone = sorted(self._deal_seen - set(backs))
        self._deal_seen = set()
        self.dealt = sorted(set(backs) | set(gone))
        self.folded.update(gone)
        self._seen_folds.update(gone)
        if self._next_button is not None:
            self.button = self._next_button
        elif self._prev_button is None:
            self.button = self.dealt[0]
        else:
            later = [s for s in self.dealt if s > self._prev_button]
            self.button = later[0] if later else self.dealt[0]
        self._next_button = None
        self._started = tr.now
        extra = {"antes": dict(self.ante_structure)} if self.ante_structure else {}
        out.append(self._event("hand_start", seats=tuple(self.dealt), button=self.button, dealer=self.dealer,
                               **extra))

    def _live(self) -> list[int]:
        return [s for s in self.dealt if s not in self.folded]

    def _new_deal(self, has: Mapping[int, bool]) -> list:
        """The face-down cards of a next deal: backs that came to two or more seats at least
        ``new_deal_gap_s`` after the cards those seats were dealt in this hand had left them (the
        old board may still lie there; a hand passing over the seats is much quicker)."""
        now = self.tracker.now
        for s in self.dealt:
            if not has[s]:
                self._emptied.setdefault(s, now)
            elif s in self._emptied and not any(t.born > self._emptied[s] for t in self.tracker.stable(f"seat{s}")):
                del self._emptied[s]     # its own cards seen again
        empty_since = dict(self._emptied)
        if not self.rules.dealing(self) or self.won is not None or self.showdown_done:
            # seats not in this hand, once its board is out (before it, they are late seats)
            empty_since.update({s: self._started for s in range(1, self.seats + 1) if s not in self.dealt})
        gap = self.settings.new_deal_gap_s
        new = [t for s, since in empty_since.items() for t in self.tracker.stable(f"seat{s}")
               if not t.face and t.born >= since + gap]
        return new if len({t.zone for t in new}) >= 2 else []

    def _flow(self, out: list) -> None:
        has = {s: self._seat_has_cards(s) for s in range(1, self.seats + 1)}
        self._unfold_covered(out, has)
        decided = self.won is not None or self.showdown_done
        new_deal = self._new_deal(has)
        if new_deal:
            # the next hand is dealt before this one's cards were cleared: it ends here, and what
            # is left of it on the table no longer counts
            self._end(out)
            self.tracker.retire(keep=new_deal)
            return
        # board slots: remember each slot's card; an announced card stays while the table is cleared
        for i, slot in enumerate(self.rules.board_slots):
            card = self._slot_card(slot)
            if card is not None:
                self.board_rec[i] = card
            elif i >= self.board_out:
                self.board_rec[i] = None
        board_on_table = any(self.tracker.stable(slot) for slot in self.rules.board_slots)
        # late seats: cards dealt to a seat after the hand started, before any board card
        if not decided and self.rules.dealing(self) and not board_on_table:
            for s, h in has.items():
                if h and s not in self.dealt and any(not t.face for t in self.tracker.stable(f"seat{s}")):
                    self.dealt = sorted(self.dealt + [s])
        # folds: a seat's cards leave its zone while the hand goes on
        if not decided:
            live = self._live()
            lost = [s for s in live if not has[s] and s not in self.hole_rec]
            if lost:
                others = board_on_table or any(has[s] for s in self.dealt if s not in lost)
                if others and len(live) > len(lost):
                    self.folded.update(lost)
                    self._seen_folds.update(lost)
        live = self._live()
        # streets
        if self.won is None:
            self.rules.read_streets(self, out)
        # face-up hole cards
        for s in live:
            cards = [self.tracker.identity(t) for t in self._zone_tracks(f"seat{s}") if t.face]
            cards = [c for c in cards if c is not None]
            if len(cards) != self.rules.hole_count or UNREADABLE in cards:
                continue
            if sorted(cards) != sorted(self.hole_rec.get(s, [])):
                self.hole_rec[s] = cards
                self._restate.discard(s)
                out.append(self._hole_event(s))
        for s in sorted(self._restate):     # corrected shown cards: restate them
            if len(self.hole_rec.get(s, ())) == self.rules.hole_count:
                out.append(self._hole_event(s))
        self._restate.clear()
        # one seat left: won without a showdown
        if len(live) == 1 and self.won is None and not self.showdown_done:
            self.won = live[0]
        if self.won is not None:
            self._rule_won(out, final=False)
        elif len(live) >= 2 and self.rules.showdown_ready(self, live) and not self.falling_behind:
            self._rule_showdown(out)
        # the table cleared: the hand is over
        if self._table_empty():
            self._end(out)

    def _unfold_covered(self, out: list, has: Mapping[int, bool]) -> None:
        """A seat taken for folded because its cards left its zone, whose cards lie there again
        before the showdown: they were covered (a player's hand over them), not folded. The seat is
        in the hand again, a win without a showdown that its fold made is undone, and the dealer
        is told. A fold the dealer entered stays."""
        back = sorted(s for s in self._seen_folds if has.get(s) and not self.showdown_done)
        if not back:
            return
        for s in back:
            self.folded.discard(s)
            self._seen_folds.discard(s)
        if self.won is not None:
            self.won, self.ruling, self._settle_input = None, None, None
        self._raise(out, ("fold_undone", tuple(back)), "fold_undone",
                    _("{seats}: the cards are back in the zone, so they were covered, not folded; "
                      "the hand goes on with them", seats=seat_list(back)),
                    keep=False, seats=back)

    def _hole_event(self, s: int) -> TableEvent:
        cards = tuple(self.hole_rec[s])
        return self._event("hole", seat=s, cards=cards, sure=tuple(self.card_sure(f"seat{s}", c) for c in cards))

    def _board_event(self, street: str) -> TableEvent:
        cards = tuple(self.board_emitted)
        return self._event("board", street=street, cards=cards,
                           sure=tuple(self.card_sure(BOARD_SLOTS[i], c) for i, c in enumerate(cards)))

    def _streets(self, out: list) -> None:
        rec = self.board_rec

        def ok(card: Optional[str]) -> bool:
            return card is not None and card != UNREADABLE and not self.rules.blocks_board(card)

        if self.board_out and all(ok(c) for c in rec[:self.board_out]) and rec[:self.board_out] != self.board_emitted:
            # a corrected (or re-read) board card: restate the board
            self.board_emitted = list(rec[:self.board_out])
            street = {3: "flop", 4: "turn", 5: "river"}[self.board_out]
            out.append(self._board_event(street))
        for street, n in STREETS:
            if n <= self.board_out:
                continue
            if not all(ok(c) for c in rec[:n]):
                break
            self.board_out = n
            self.board_emitted = list(rec[:n])
            out.append(self._board_event(street))

    # ----------------------------------------------------------------------- rulings
    def _table_button(self) -> int:
        button = self.button if self.button is not None else self.dealt[0]
        if button not in self.dealt:
            # a dead button: the last dealt seat before it plays the button's part
            before = [s for s in self.dealt if s < button]
            button = before[-1] if before else self.dealt[-1]
        return button

    def _seat_antes(self) -> dict[int, int]:
        """Each dealt seat's ante this hand: as entered for the hand, else from the level's antes.

        A big blind short of its blind and ante posts the blind first (TDA 2024) and antes what
        is left; an ante is never more than the chips the seat committed.
        """
        if self.hand is None or not self.dealt:
            return {}
        rule = self.ante_structure or {}
        out: dict[int, int] = {}
        if "each" in rule:
            out = {s: rule["each"] for s in self.dealt}
        elif "big_blind" in rule and len(self.dealt) >= 2:
            order = clockwise_from(self._table_button(), self.dealt)
            bb = order[0] if len(self.dealt) == 2 else order[1]
            out = {bb: rule["big_blind"]}
            if bb in self.committed and "blind" in rule:
                out[bb] = min(rule["big_blind"], max(0, self.committed[bb] - rule["blind"]))
        out.update(self.antes)
        return {s: min(a, self.committed[s]) if s in self.committed else a for s, a in out.items() if a}

    def _settle_table(self, chips: bool) -> Table:
        return self.rules.rules_table(self, chips)

    def _settle(self, out: list, table: Table, chips: bool) -> Optional[TableRuling]:
        """The rules engine's ruling on ``table``, marked with whether the chips were entered, or
        None with a ``ruling_error`` alert saying why there is none."""
        key = ("ruling_error",)
        try:
            ruling = self.rules.table_ruling(self.game_rules.rule(self.game_rules.check(table)))
        except (UserError, CardError) as exc:
            said = _rule_error(exc)
            old = self._active.get(key)
            if old is not None and old.message != said.render("en"):     # another error now
                self._clear(out, key)
            if key not in self._active:
                self._raise(out, key, "ruling_error", said)
            return None
        if key in self._active:
            self._clear(out, key)
        return ruling.marked(chips_entered=chips)

    def _chips_ok(self) -> tuple[bool, list[int]]:
        if not self.rules.chips:
            return True, []
        missing = [s for s in self._live() if s not in self.committed]
        return not missing, missing

    def _table_cards(self, table: Mapping[str, Any], folded: bool) -> list[tuple[str, str]]:
        """The cards of a ruling's table by zone: its board and the seats' shown cards (``folded``:
        folded seats' too)."""
        cards = [(BOARD_SLOTS[i], c) for i, c in enumerate(table.get("board") or ())]
        for seat in table.get("seats") or ():
            if folded or not seat.get("folded"):
                cards += [(f"seat{seat['seat']}", c) for c in self.rules.entry_cards(seat)]
        return cards

    def _doubt_in(self, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The cards a ruling on ``table`` rests on that are not sure: its board and the shown
        cards of the seats still in the hand."""
        return [(z, c) for z, c in self._table_cards(table, folded=False) if not self.card_sure(z, c)]

    def _mark_doubt(self, ruling: TableRuling, table: Mapping[str, Any], doubt: list,
                    typed: Any = None) -> TableRuling:
        """The ruling saying whether it is provisional: made on cards not all sure (``unsure``
        names them, ``others`` the reader's likeliest other name for each where it has one) that
        could change it (:meth:`doubt_matters`), and which of its cards the dealer confirmed. Cards
        not sure that cannot change it stay in ``unsure`` on a ruling that is not provisional."""
        ruled = set(self._table_cards(table, folded=True))
        provisional = bool(doubt) and self.doubt_matters(
            typed, doubt, [(z, c) for z, c in ruled if (z, c) not in doubt and self.card_sure(z, c)])
        return ruling.marked(provisional=provisional, unsure=doubt,
                             others=[(z, c, o) for z, c in doubt if (o := self.other_of(z, c))],
                             confirmed=[(z, c) for z, c in self.confirmed if (z, c) in ruled])

    def doubt_matters(self, typed: Any, doubt: list, sure: Optional[list] = None) -> bool:
        """Whether the doubtful cards ``doubt`` could change the ruling on ``typed`` (the rules'
        table): :func:`~dealer_assist.live.doubt.doubt_can_change` asks the rules engine with every
        name each card could have but the table's ``sure`` cards (a folded seat's card that is not
        sure is no reason to rule a name out). A game whose table is not a showdown table (Half
        Texas pays colour points) always waits for the dealer."""
        if not isinstance(typed, Table) or not hasattr(self.game_rules, "deck_for"):
            return True
        key = (json.dumps(typed.to_json(), sort_keys=True), tuple(doubt), tuple(sorted(sure or ())))
        if key not in self._doubt_answers:
            self._doubt_answers[key] = doubt_can_change(self.game_rules, typed, doubt, sure=sure)
        return self._doubt_answers[key]

    def _rule_showdown(self, out: list) -> None:
        chips, missing = self._chips_ok()
        typed = self._settle_table(chips)
        table = typed.to_json()
        doubt = self._doubt_in(table)
        if table == self._settle_input and doubt == self._doubt_input:
            return
        if table == self._settle_input and self.ruling is not None:
            # only the doubt changed: the same ruling, marked again
            ruling = self.ruling
        else:
            ruling = None
        self._settle_input, self._doubt_input = table, doubt
        key = ("chips_missing",)
        if ruling is None:
            ruling = self._settle(out, typed, chips)
        if ruling is None:
            self.ruling = None
            return
        ruling = self._mark_doubt(ruling, table, doubt, typed)
        if not chips and key not in self._active:
            self._raise(out, key, "chips_missing",
                        _("no committed chips entered for {seats}: the winners are shown as if each seat "
                          "put in 1 chip; enter each seat's committed chips for the payouts",
                          seats=seat_list(missing)),
                        seat=missing[0])
        elif chips and key in self._active:
            self._clear(out, key)
        self.ruling = ruling
        self.showdown_done = True
        # a new showdown event when the ruling changes, or turns final or provisional, or a card
        # of it is confirmed (not for each doubtful card that becomes sure while it stays provisional)
        said = ruling.marked(unsure=(), others=())
        if said != self._showdown_ruling:
            self._showdown_ruling = said
            out.append(self._event("showdown", ruling=ruling, table=table))

    def _rule_won(self, out: list, final: bool) -> None:
        chips = bool(self.committed)
        typed = self._settle_table(chips)
        table = typed.to_json()
        if table == self._settle_input and not final:
            return
        self._settle_input = table
        ruling = self._settle(out, typed, chips)
        self.ruling = ruling
        if final and ruling is not None and not chips and self.rules.chips:
            self._raise(out, ("chips_missing",), "chips_missing",
                        _("no committed chips were entered: seat {seat} wins without a showdown; "
                          "the payouts are shown as if each seat put in 1 chip", seat=self.won),
                        keep=False, seat=self.won)

    def _end(self, out: list) -> None:
        live = self._live()
        if self.won is not None:
            self._rule_won(out, final=True)
        elif not self.showdown_done and len(live) >= 2:
            self._raise(out, ("no_showdown_seen",), "no_showdown_seen",
                        _("the table was cleared with {seats} still in the hand and no showdown seen: no "
                          "ruling for hand {hand}; settle it from the hand log if it is disputed",
                          seats=seat_list(live), hand=self.hand),
                        keep=False)
        out.append(self._event("hand_end", ruling=self.ruling, board=tuple(self.board_emitted),
                               won_without_showdown=self.won, corrections=self.corrections,
                               provisional=bool(self.ruling and self.ruling.provisional),
                               confirmed=tuple(self.confirmed)))
        self.rules.hand_ended(self, out)
        for key in [k for k in self._active if k[0] in HAND_CODES]:
            del self._active[key]     # they belong to the hand that is over
        self._prev_button = self.button
        self.tracker.clear_corrections()
        self._new_hand_state()
