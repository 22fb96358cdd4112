"""The Daifugo referee (seed 002, Casino Quest rules) at a live table.

Daifugo is no hand of poker: nothing is dealt to the seat zones that the camera follows, the
players hold their cards, and each play is laid in the centre of the table, in the ``play`` zone
of the calibration (``board_slots`` of :class:`DaifugoFlow`: the calibration must have it, as a
hold'em table must have its board slots). :class:`DaifugoTable` is the live table of the game: a
:class:`~dealer_assist.live.handflow.LiveTable` (the same tracker, alerts, pace, corrections,
``step`` / ``apply`` / ``state``) whose reading of the table is the referee's:

* the dealer starts a game (``start``: the seats, who leads, optionally each seat's cards left when
  the referee joins a game under way); ``hand_start`` says so (``button``: the leader);
* cards that come to lie in the ``play`` zone, face up, readable and unchanged for ``settle_s``
  seconds, are a play by the seat to act; the rules engine (:mod:`dealer_assist.rules.daifugo`)
  rules it at once: a ``play`` event with the ruling (legal or not and why in English and Japanese,
  revolution, 8 clears, J reverses, suit lock, stairs, forbidden finishes) and the game's state
  after it (who acts, the direction, the revolution, the lock, each seat's cards left);
* an illegal play is an ``illegal_play`` alert (the desk's red banner), cleared once its cards are
  taken back from the play zone (or the next legal play lands); the game's state is unchanged;
* a play with a joker whose reading matters waits for the dealer's declaration (``joker``, the
  ``joker_declaration`` alert names the legal readings, and the state's ``declaration`` gives them to
  the desk, whose panel offers one button each); a declaration given just before the cards land is
  used for that play;
* a pass is the dealer's input (``pass``; the camera cannot see one), ruled as a ``play`` event;
  ``cards_left`` sets a seat's count where the camera cannot count, a ``cards_left`` event
  (:class:`~dealer_assist.live.events.CardsLeft`, with the count it replaced); ``leaving`` marks a
  seat leaving after the game, a ``leaving`` event; the counts given at ``start`` ride on
  ``hand_start`` (``cards_left``). Every dealer input so leaves its record in the events file and
  the hand log (a joker's declaration in the ``jokers`` of the play it reads);
* the first seat out ends the game: ``hand_end`` carries the payout (ante, 5G per card left, the
  rake, the winner's take, the next game's leader), as ``dealer-assist daifugo payout`` gives it.

A card on the pile that a later play covers, or the cards swept off when the field clears, simply
leave the zone: only cards that were not there before are a new play.

>>> t = DaifugoTable(seats=4, game="daifugo")
>>> [e.type for e in t.apply({"type": "start", "leader": 1}, 0, 0.0)]
['hand_start']
>>> from dealer_assist.live.tracker import Observation
>>> obs = [Observation("5h", "play", (400.0, 200.0), 1.0, sure=True)]
>>> got = [e for f in range(1, 12) for e in t.step(f, f / 15, obs)]
>>> [(e.type, e.seat, e.cards, e.legal, e.turn) for e in got]
[('play', 1, ('5h',), True, 2)]
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Mapping, Optional

from dealer_assist.cards import CardError
from dealer_assist.errors import UserError
from dealer_assist.i18n import Said, _, message_of, typed
from dealer_assist.live.events import TableEvent, _tuple
from dealer_assist.live.handflow import CARD_CODES, JokerHoldemFlow, LiveTable
from dealer_assist.live.ruling import GamePayout
from dealer_assist.live.tracker import BACK, UNREADABLE, canonical_card
from dealer_assist.rules.daifugo import CASINO_QUEST, Meld, Move, Ruling, State, payout
from dealer_assist.rules.errors import RuleError

__all__ = ["DaifugoFlow", "DaifugoTable", "Play", "PLAY_ZONE"]

#: the zone of the calibration where the plays are laid
PLAY_ZONE = "play"


@dataclass(frozen=True, slots=True)
class PlayRuling:
    """The rules engine's ruling on one play (:class:`dealer_assist.rules.daifugo.Ruling`) as the
    ``play`` event carries it: legal or not and why in both languages, the move, the play as it
    counts (its jokers' readings; None for a pass or a play that is none), what it set off
    (``events``: ``lock``, ``revolution``, ``eight_clear``, ...) and, for a joker whose reading
    the dealer must declare, the readings allowed. The game's state after it is the event's own
    fields, so the state is not repeated here."""

    legal: bool
    reason: str
    reason_ja: str
    move: Move
    play: Optional[Meld] = None
    events: tuple[str, ...] = ()
    options: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def of(cls, ruling: Ruling) -> "PlayRuling":
        return cls(ruling.legal, ruling.reason, ruling.reason_ja, ruling.move, ruling.meld, tuple(ruling.events),
                   tuple(tuple(str(c) for c in m.declared) for m in ruling.options))

    def to_json(self) -> dict:
        """The engine's JSON of the ruling, less its ``state`` (the event's fields give it)."""
        out = {"legal": self.legal, "reason": self.reason, "reason_ja": self.reason_ja, "move": self.move.to_json(),
               "play": None if self.play is None else self.play.to_json(), "events": list(self.events)}
        if self.options:
            out["options"] = [list(o) for o in self.options]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> "PlayRuling":
        """A stored play's ruling; a :class:`RuleError` (a ``ValueError``) names what is wrong."""
        if not isinstance(obj, Mapping) or not isinstance(obj.get("legal"), bool):
            raise RuleError(_("a play's ruling is a JSON object saying whether the play is legal"), field="ruling")
        if not all(isinstance(obj.get(k), str) for k in ("reason", "reason_ja")):
            raise RuleError(_("a play's ruling says why in English and Japanese"), field="ruling")
        options = obj.get("options") or []
        if not isinstance(options, list) or not all(isinstance(o, list) for o in options):
            raise RuleError(_("a play's readings are lists of cards"), field="options")
        return cls(obj["legal"], obj["reason"], obj["reason_ja"], Move.from_json(obj.get("move")),
                   None if obj.get("play") is None else Meld.from_json(obj["play"]),
                   tuple(str(e) for e in obj.get("events") or ()), tuple(tuple(str(c) for c in o) for o in options))


@dataclass(frozen=True, slots=True)
class Play(TableEvent):
    """A play (or a pass) and the rules engine's ruling on it, with the game's state after it
    (whose turn, the direction, revolution, the suit lock, the field, each seat's cards left)."""

    type: ClassVar[str] = "play"
    seat_keyed: ClassVar[Mapping[str, Any]] = {"cards_left": int}
    seat: Optional[int] = None
    cards: tuple[str, ...] = ()
    passed: bool = False
    jokers: tuple[str, ...] = ()
    legal: bool = False
    ruling: Optional[PlayRuling] = None
    turn: Optional[int] = None
    direction: str = "clockwise"
    revolution: bool = False
    lock: Optional[tuple[str, ...]] = None
    field_cards: tuple[tuple[str, ...], ...] = ()
    cards_left: Mapping[int, int] = field(default_factory=dict)

    def body(self) -> list[tuple[str, Any]]:
        return [("seat", self.seat), ("cards", list(self.cards)), ("pass", self.passed),
                ("jokers", list(self.jokers)), ("legal", self.legal),
                ("ruling", None if self.ruling is None else self.ruling.to_json()),
                ("turn", self.turn), ("direction", self.direction), ("revolution", self.revolution),
                ("lock", None if self.lock is None else list(self.lock)),
                ("field", [list(p) for p in self.field_cards]),
                ("cards_left", {str(s): n for s, n in self.cards_left.items()})]

    @classmethod
    def fields_of(cls, line: Mapping[str, Any]) -> dict[str, Any]:
        out = TableEvent.fields_of.__func__(cls, line)
        out["passed"] = bool(line.get("pass", False))
        out["field_cards"] = _tuple(line.get("field") or [])
        out["ruling"] = None if line.get("ruling") is None else PlayRuling.from_json(line["ruling"])
        return out


class DaifugoFlow(JokerHoldemFlow):
    """Daifugo's hooks: the one zone it reads is the play zone; two jokers in a deck (one deck up to
    five players); its live table is :class:`DaifugoTable`."""

    jokers = 2
    hole_count = 0
    deal_count = 0
    board_slots: tuple[str, ...] = (PLAY_ZONE,)
    table = "dealer_assist.live.daifugo:DaifugoTable"

    def street_name(self, table: LiveTable) -> str:
        return "play"


class DaifugoTable(LiveTable):
    """A live Daifugo table: the referee of each play laid in the play zone (see the module)."""

    #: the desk's panel for the game (:mod:`dealer_assist.desk.daifugo_view`)
    desk_panel = "dealer_assist.desk.daifugo_view:DaifugoPanel"
    #: how long new cards in the play zone must lie unchanged before they are ruled as one play
    settle_s = 0.14

    def __init__(self, seats: int = 6, game: str = "daifugo", settings=None):
        super().__init__(seats=seats, game=game, settings=settings)
        self._next_leader: Optional[int] = None
        self._leaving: set[int] = set()
        #: the last game's end, kept for the desk until the next game starts: its payout, its
        #: state at the end and its last ruled play
        self.result: Optional[dict] = None

    def _new_hand_state(self) -> None:
        super()._new_hand_state()
        self.game_state: Optional[State] = None
        self.last_play: Optional[dict] = None
        self.plays: list[dict] = []
        self._jokers: Optional[tuple[str, ...]] = None       # the dealer's declaration for the next play
        self._on_table: Counter = Counter()                     # play-zone cards already accounted for
        self._new_sig: Optional[tuple] = None
        self._new_since = 0.0
        self._undeclared: Optional[tuple[int, tuple[str, ...]]] = None
        self._readings: tuple[tuple[str, ...], ...] = ()       # the legal readings of the joker(s) waiting
        self._illegal: Optional[Counter] = None                 # the cards of the illegal play lying there

    # ===================================================================== reading the table
    def _evaluate(self) -> list:
        out: list = []
        if self.hand is not None:
            self._note_sureness()
        # the live table's own card alerts: one card seen twice (more than two jokers), a card in
        # the play zone that cannot be read (the play waits for it: the dealer corrects it)
        want = self._card_alerts()
        for key in [k for k in self._active if k[0] in CARD_CODES and k not in want]:
            self._clear(out, key)
        self._referee(out)
        for key, (code, msg, extra) in want.items():
            if key not in self._active:
                self._raise(out, key, code, msg, **extra)
        return out

    def _play_zone(self) -> tuple[Counter, int]:
        """The face-up cards lying in the play zone now (by name), and how many are unreadable."""
        tr = self.tracker
        cards: Counter = Counter()
        unreadable = 0
        for t in tr.stable(PLAY_ZONE):
            if not t.face or not tr.present(t):
                continue
            card = tr.identity(t)
            if card is None or card == BACK:
                continue
            if card == UNREADABLE:
                unreadable += 1
            else:
                cards[card] += 1
        return cards, unreadable

    def _referee(self, out: list) -> None:
        now_cards, unreadable = self._play_zone()
        # cards gone from the zone (covered, swept off, taken back) are no longer accounted for
        for card in list(self._on_table):
            if now_cards[card] < self._on_table[card]:
                self._on_table[card] = now_cards[card]
        self._on_table += Counter()
        if self._illegal is not None and not (self._illegal & now_cards):
            self._illegal = None
            if ("illegal_play",) in self._active:
                self._clear(out, ("illegal_play",))
        new = now_cards - self._on_table
        if not new:
            self._new_sig = None
            return
        sig = tuple(sorted(new.elements())) + (("??",) * unreadable)
        now = self.tracker.now
        if sig != self._new_sig:
            self._new_sig, self._new_since = sig, now
            return
        if now - self._new_since < self.settle_s or unreadable:
            return
        cards = tuple(sorted(new.elements(), key=_card_order))
        self._on_table += new
        self._new_sig = None
        if self.game_state is None or self.hand is None:
            self._raise(out, ("no_game",), "no_game",
                        _("cards laid in the play zone ({cards}) but no Daifugo game is started: the "
                          "dealer starts one (start) before the first play", cards=" ".join(cards)),
                        keep=False)
            return
        self._rule(out, self.game_state.turn, cards)

    def _rule(self, out: list, seat: Optional[int], cards: tuple[str, ...]) -> None:
        st = self.game_state
        assert st is not None
        jokers = None
        if "JK" in cards:      # the declaration is for the next play with a joker
            jokers, self._jokers = self._jokers, None
        try:
            move = Move.pass_(seat) if not cards else Move.put(seat, list(cards), list(jokers) if jokers else None)
            ruling = st.check(move)
        except (RuleError, CardError) as exc:
            self._raise(out, ("play_error",), "play_error",
                        _("the play {cards} by seat {seat} cannot be ruled: {why}", cards=" ".join(cards),
                          seat=seat, why=message_of(exc)), keep=False, seat=seat)
            return
        if not ruling.legal and ruling.options:
            # a joker whose reading matters: wait for the dealer's declaration
            self._undeclared = (seat, cards)
            self._readings = tuple(tuple(str(c) for c in m.declared) for m in ruling.options)
            key = ("joker_declaration",)
            if key in self._active:
                del self._active[key]
            self._raise(out, key, "joker_declaration", Said(ruling.reason, ruling.reason_ja), seat=seat)
            return
        if ("joker_declaration",) in self._active:
            self._clear(out, ("joker_declaration",))
        self._undeclared, self._readings = None, ()
        self._said(out, ruling, seat, cards)

    def _said(self, out: list, ruling, seat: Optional[int], cards: tuple[str, ...]) -> None:
        """A ruling made: its event, the illegal-play banner, the game's new state, its end."""
        key = ("illegal_play",)
        if ruling.legal:
            self.game_state = ruling.state
            if key in self._active:
                self._clear(out, key)
            self._illegal = None
        st = self.game_state
        ev = Play(round(self._t, 3), self._frame, self.hand, seat=seat, cards=cards, passed=not cards,
                  jokers=tuple(str(c) for c in (ruling.move.jokers or ())), legal=ruling.legal,
                  ruling=PlayRuling.of(ruling),
                  turn=st.turn, direction="clockwise" if st.clockwise else "counterclockwise",
                  revolution=st.revolution, lock=None if st.lock is None else tuple(s.symbol for s in st.lock),
                  field_cards=tuple(tuple(str(c) for c in p.meld.cards) for p in st.field),
                  cards_left={s: len(st.hands[s]) for s in st.seats})
        js = ev.to_json()
        self.last_play = js
        self.plays.append(js)
        out.append(ev)
        if not ruling.legal:
            if key in self._active:
                del self._active[key]
            who = _("seat {seat}", seat=seat)
            self._raise(out, key, "illegal_play",
                        _("illegal play by {who} ({cards}): {why}", who=who,
                          cards=" ".join(cards) if cards else _("pass"),
                          why=Said(ruling.reason, ruling.reason_ja)), seat=seat)
            if cards:
                self._illegal = Counter(cards)
        if st.winner is not None:
            self._finish(out)

    def _finish(self, out: list) -> None:
        st = self.game_state
        assert st is not None and st.winner is not None
        left = {s: len(st.hands[s]) for s in st.seats if s != st.winner}
        try:
            paid = payout(st.seats, st.winner, left, leaving=sorted(self._leaving & set(st.seats)))
            self.ruling = GamePayout.of(paid)
        except RuleError as exc:
            self.ruling = None
            self._raise(out, ("ruling_error",), "ruling_error", _("no payout: {why}", why=message_of(exc)), keep=False)
        self._next_leader = self.ruling.note("next_leader") if self.ruling else None
        self._end_game(out)

    def _end_game(self, out: list) -> None:
        self.result = {"payout": self.ruling, "last_play": self.last_play,
                       "daifugo": self._daifugo_state(), "hand": self.hand}
        out.append(self._event("hand_end", ruling=self.ruling, corrections=self.corrections))
        for key in [k for k in self._active if k[0] != "falling_behind"]:
            del self._active[key]
        self.tracker.clear_corrections()
        self._leaving = set()
        on_table = self._on_table
        self._new_hand_state()
        self._on_table = on_table        # the winning play still lies there: it is no new play

    # ===================================================================== dealer inputs
    def apply(self, action: Mapping[str, Any], frame: int, t: float) -> list:
        self._frame, self._t = frame, float(t)
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise UserError(_("a dealer action is an object with a \"type\""))
        kind = action["type"]
        handlers = {"start": (self._act_start, {"seats", "leader", "cards_left"}),
                    "pass": (self._act_pass, {"seat"}),
                    "joker": (self._act_joker, {"as"}),
                    "cards_left": (self._act_cards_left, {"seat", "cards"}),
                    "leaving": (self._act_leaving, {"seat"}),
                    "end": (self._act_end, set()),
                    "correct": (self._act_correct, {"zone", "card", "to"})}
        if kind not in handlers:
            raise UserError(_("unknown dealer action {kind}; known: {known}", kind=typed(kind),
                              known=", ".join(handlers)))
        handler, allowed = handlers[kind]
        extra = sorted(set(action) - allowed - {"type", "frame"})
        if extra:
            raise UserError(_("{action}: unknown field(s) {fields}", action=kind, fields=", ".join(extra)))
        self._pending = []
        out: list = []
        handler(action, out)
        caused, self._pending = self._pending, []
        return caused + out + self._evaluate()

    def _act_correct(self, action: Mapping[str, Any], out: list) -> None:     # type: ignore[override]
        super()._act_correct(action)

    def _seats_of(self, action: Mapping[str, Any]) -> list[int]:
        seats = action.get("seats")
        if seats is None:
            return list(range(1, self.seats + 1))
        if (not isinstance(seats, list) or not seats
                or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= self.seats for s in seats)
                or len(set(seats)) != len(seats)):
            raise UserError(_("start: \"seats\" must list the seats playing, clockwise (numbers 1..{top}), "
                              "got {got}", top=self.seats, got=typed(seats)))
        return list(seats)

    def _act_start(self, action: Mapping[str, Any], out: list) -> None:
        if self.game_state is not None:
            raise UserError(_("start: game {hand} is still being played (seat {seat} to act); end it "
                              "first (end)", hand=self.hand, seat=self.game_state.turn))
        seats = self._seats_of(action)
        if not CASINO_QUEST.min_players <= len(seats) <= CASINO_QUEST.max_players:
            raise UserError(_("start: Daifugo is played by {low} to {high} players, the dealer included; "
                              "got {n}", low=CASINO_QUEST.min_players, high=CASINO_QUEST.max_players,
                              n=len(seats)))
        leader = action.get("leader", self._next_leader if self._next_leader in seats else seats[0])
        if leader not in seats:
            raise UserError(_("start: the leader must be one of the seats playing ({seats}), got {got}",
                              seats=", ".join(map(str, seats)), got=typed(leader)))
        counts = {s: 10 for s in seats}
        given = action.get("cards_left") or {}
        if not isinstance(given, Mapping):
            raise UserError(_("start: \"cards_left\" maps a seat to its cards left, such as \"2\": 7"))
        entered: dict[int, int] = {}
        for k, v in given.items():
            s = int(k) if isinstance(k, str) and k.isdigit() else k
            if s not in counts:
                raise UserError(_("start: cards_left names seat {seat}, which is not playing", seat=k))
            counts[s] = entered[s] = self._count(v, "start")
        self.game_state = State.new(seats, {s: ["??"] * n for s, n in counts.items()}, leader)
        self._hands += 1
        self.hand = self._hands
        self.dealt = list(seats)
        self.button = leader
        self._started = self.tracker.now
        # the cards lying in the play zone now belong to no play of this game
        self._on_table = self._play_zone()[0]
        out.append(self._event("hand_start", seats=tuple(seats), button=leader, leader=leader, dealer=self.dealer,
                               cards_left={s: entered[s] for s in seats if s in entered} or None))

    @staticmethod
    def _count(value: Any, kind: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
            raise UserError(_("{action}: a seat holds 1 to 10 cards, got {got}", action=kind, got=typed(value)))
        return value

    def _playing(self, kind: str) -> State:
        if self.game_state is None:
            raise UserError(_("{action}: no Daifugo game is being played (start one first)", action=kind))
        return self.game_state

    def _act_pass(self, action: Mapping[str, Any], out: list) -> None:
        st = self._playing("pass")
        seat = action.get("seat", st.turn)
        if seat not in st.seats:
            raise UserError(_("pass: \"seat\" must be a seat playing ({seats}), got {got}",
                              seats=", ".join(map(str, st.seats)), got=typed(seat)))
        self._rule(out, seat, ())

    def _act_joker(self, action: Mapping[str, Any], out: list) -> None:
        self._playing("joker")
        said = action.get("as")
        if isinstance(said, str):
            said = said.replace(",", " ").split()
        if not isinstance(said, list) or not said:
            raise UserError(_("joker: \"as\" names the card each joker stands for, e.g. [\"9h\"]"))
        cards = []
        for c in said:
            card = canonical_card(c, what=_("joker: as"))
            if card in (BACK, UNREADABLE, "JK"):
                raise UserError(_("joker: \"as\" must name real cards such as 9h, got {got}", got=typed(c)))
            cards.append(card)
        self._jokers = tuple(cards)
        if self._undeclared is not None:
            seat, played = self._undeclared
            self._rule(out, seat, played)

    def _act_cards_left(self, action: Mapping[str, Any], out: list) -> None:
        st = self._playing("cards_left")
        seat = action.get("seat")
        if seat not in st.seats:
            raise UserError(_("cards_left: \"seat\" must be a seat playing ({seats}), got {got}",
                              seats=", ".join(map(str, st.seats)), got=typed(seat)))
        n = self._count(action.get("cards"), "cards_left")
        hands = dict(st.hands)
        was = len(hands[seat])
        hands[seat] = (None,) * n
        self.game_state = replace(st, hands=hands)
        out.append(self._event("cards_left", seat=seat, cards=n, was=was))

    def _act_leaving(self, action: Mapping[str, Any], out: list) -> None:
        seat = action.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise UserError(_("leaving: \"seat\" must be a seat number 1..{top}, got {got}",
                              top=self.seats, got=typed(seat)))
        self._leaving.add(seat)
        out.append(self._event("leaving", seat=seat))

    def _act_end(self, action: Mapping[str, Any], out: list) -> None:
        """The dealer ends a game nobody finished (abandoned): no payout."""
        self._playing("end")
        self.ruling = None
        self._end_game(out)

    # ===================================================================== the desk
    def state(self) -> dict:
        tr = self.tracker
        st = self.game_state
        seats = {}
        for s in range(1, self.seats + 1):
            seats[str(s)] = {"cards": [], "folded": False, "dealt": s in self.dealt, "committed": None,
                             "ante": None,
                             "cards_left": len(st.hands[s]) if st is not None and s in st.hands else None,
                             "passed": bool(st is not None and s in st.passed),
                             "to_act": bool(st is not None and st.turn == s)}
        zone_cards = [c for c in (tr.identity(t) for t in self._zone_tracks(PLAY_ZONE)) if c is not None]
        return {
            "hand": self.hand, "street": "waiting" if self.hand is None else "play", "button": self.button,
            "board": zone_cards, "antes": None, "board_slots": [], "seats": seats,
            "burn": [], "muck": len(self._zone_tracks("muck")),
            "alerts": [a.to_json() for a in self._active.values()],
            "ruling": self.ruling, "tracks": tr.snapshot(), "unsure": [], "confirmed": [],
            "daifugo": self._daifugo_state(), "last_play": self.last_play,
            "daifugo_result": self.result if st is None else None,
            "declaration": self._declaration(),
        }

    def _declaration(self) -> Optional[dict]:
        """The play waiting for the dealer's joker declaration, for the desk: its seat, its cards
        and the legal readings (each the card every joker stands for, in order), or None."""
        if self._undeclared is None:
            return None
        seat, cards = self._undeclared
        return {"seat": seat, "cards": list(cards), "options": [list(o) for o in self._readings]}

    def _daifugo_state(self) -> Optional[dict]:
        """The game's state for the desk: who acts, the direction, the revolution, the lock, the
        field (each play with its seat), who leads the round, the passes, each seat's cards left."""
        st = self.game_state
        daifugo = None
        if st is not None:
            daifugo = {"seats": list(st.seats), "winner": st.winner, "turn": st.turn, "direction": "clockwise" if st.clockwise else "counterclockwise",
                       "revolution": st.revolution,
                       "lock": None if st.lock is None else [s.symbol for s in st.lock],
                       "field": [{"seat": p.seat, "cards": [str(c) for c in p.meld.cards],
                                  "as": p.meld.to_json()["as"]}
                                 for p in st.field],
                       "leader": st.field[-1].seat if st.field else st.turn,
                       "passed": sorted(st.passed),
                       "cards_left": {str(s): len(st.hands[s]) for s in st.seats}}
        return daifugo


def _card_order(card: str) -> tuple:
    """Cards in a play as people lay them: by rank strength, then suit (the joker last)."""
    if card == "JK":
        return (99, "")
    order = "3456789TJQKA2"
    return (order.index(card[0]) if card[0] in order else 50, "shdc".index(card[1]) if card[1] in "shdc" else 9)
