"""What the desk display shows, worked out from the live table's events and state (no Qt).

:class:`DeskState` is fed what the pipeline produces (its events and ``LiveTable.state()``) and
gives a :class:`DeskSnapshot` in either language: the board, a panel per seat, the ruling's pots
and explanation, and the alerts for the banner. It holds no game logic: hand names, best fives,
the joker's stand-in, payouts and explanations are the rules engine's own, only arranged.

The display keeps a finished hand on the screen (its board, shown cards and final ruling) until
the next hand is dealt: a dealer paying the pot still needs to see it after the cards are gone.

Doubt is shown, never hidden: a card the table is not sure of (``state["unsure"]``, the ruling's
``unsure``) is marked on its tile, and a ruling made on such cards is provisional (its title
says 仮 / provisional, and the banner asks the dealer to confirm or correct the marked cards)
until the dealer confirms them. A ruling whose doubtful cards could not change its chips whatever
they are (the flow asked the rules engine: ``moot``) is final; its cards stay marked.

>>> from dealer_assist.live.events import HandStart
>>> ds = DeskState(seats=3)
>>> ds.feed([HandStart(0.5, 7, 1, seats=(1, 2), button=1)],
...         {"hand": 1, "street": "preflop", "button": 1, "board_slots": [None] * 5, "board": [],
...          "seats": {"1": {"cards": ["BACK", "BACK"], "folded": False, "dealt": True, "committed": None},
...                    "2": {"cards": ["BACK", "BACK"], "folded": False, "dealt": True, "committed": 40},
...                    "3": {"cards": [], "folded": False, "dealt": False, "committed": None}},
...          "alerts": [], "ruling": None, "tracks": []})
>>> snap = ds.snapshot("ja")
>>> snap.title, [s.cards for s in snap.seats], snap.seats[1].committed
('第1ハンド プリフロップ', [('BACK', 'BACK'), ('BACK', 'BACK'), ()], 40)
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional, Sequence

from dealer_assist.desk.texts import SEVERITY, alert_title, card_label, seats_text, t, zone_text
from dealer_assist.live.events import (Alert, Board, HandEnd, HandStart, Hole, Showdown, TableEvent, Up,
                                       event_from_json)
from dealer_assist.live.ruling import HandRuled, PotRuled, TableRuling, read_offered, ruling_or_none
from dealer_assist.live.picture import PICTURE_CODES
from dealer_assist.live.placement import PLACE_CODES, UNWATCHED
from dealer_assist.live.words import line as event_line

__all__ = ["DeskState", "DeskSnapshot", "SeatView", "PotView", "AlertView", "CardSpot"]

#: alert codes that come from the source or the desk, not from the table's cards
SOURCE_LOST, SOURCE_BACK = "camera_lost", "camera_back"

#: alerts about the camera that stand on the banner while they last (raised, then cleared)
STANDING_CODES = PICTURE_CODES + PLACE_CODES


@dataclass(frozen=True, slots=True)
class CardSpot:
    """A card as a panel shows it: ``code`` in RULINGS notation, ``BACK`` or ``??``; ``zone`` is
    where it lies (what a correction names); ``live`` says it may be corrected now."""

    code: str
    zone: Optional[str]
    live: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    dealt: bool
    folded: bool
    button: bool
    committed: Optional[int]
    cards: tuple[str, ...]            # what lies in the seat (face-up codes, BACK, ??)
    hand_name: str = ""               # the rules engine's description, in the snapshot's language
    best_five: tuple[str, ...] = ()
    joker_as: Optional[str] = None    # the joker's stand-in in the best five
    payout: Optional[int] = None      # chips the seat takes (None: no ruling yet)
    winner: bool = False
    shows: Optional[int] = None       # 1-based place in the showdown order
    ante: Optional[int] = None        # the part of ``committed`` posted as an ante (dead money)
    reason: str = ""                  # why a seat that showed takes nothing, in one line
    corrected: tuple[tuple[str, str], ...] = ()   # (card now, card as read) set by a correction
    up: tuple[tuple[str, ...], ...] = ()   # stud: the seat's up cards, one tuple per deal
    acts: bool = False                     # stud: the seat acts first on this deal (the owner)
    draws: tuple[int, ...] = ()            # lowball: the cards the seat drew, one number a draw


@dataclass(frozen=True, slots=True)
class PotView:
    name: str
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    odd_chips: tuple[int, ...]
    text: str                       # one line: name, amount, who may win it, who takes what


@dataclass(frozen=True, slots=True)
class AlertView:
    key: str           # stable identity (code + zone/card) for the banner
    code: str
    title: str
    message: str
    severity: str      # "stop" | "warn" | "info"
    zone: Optional[str] = None
    dismissable: bool = False   # a notice the dealer acknowledges (Esc); the rest clear themselves


@dataclass(frozen=True, slots=True)
class DeskSnapshot:
    lang: str
    hand: Optional[int]
    live: bool                    # a hand in progress (its cards may be corrected)
    street: str
    title: str                    # "第2ハンド ショーダウン", "配札待ち", "第1ハンド 終了"
    button: Optional[int]
    board: tuple[Optional[str], ...]     # five slots
    burn: tuple[str, ...]
    seats: tuple[SeatView, ...]
    pots: tuple[PotView, ...]
    explanation: tuple[str, ...]
    payouts: Mapping[int, int]
    chips_entered: bool
    alerts: tuple[AlertView, ...]
    log: tuple[str, ...]          # the commentary, oldest first
    tracks: tuple[Mapping[str, Any], ...] = ()   # for the frame overlay (live only)
    #: the explanation's deciding line(s): the house-rule notes (a tie the joker holder loses, an
    #: odd chip), else the first pot's award; shown under the pots, where a small screen still has room
    deciding: tuple[str, ...] = ()
    #: the dealer's corrections standing in this hand: ``(zone, card as read, card now or None)``
    corrections: tuple[tuple[str, str, Optional[str]], ...] = ()
    #: the ruling was made on cards not all sure and the dealer has not confirmed them yet
    provisional: bool = False
    #: the cards the table is not sure of, ``(zone, card)``: marked on their tiles
    unsure: tuple[tuple[str, str], ...] = ()
    #: for such cards the reader's likeliest other name, ``(zone, card, other)``
    others: tuple[tuple[str, str, str], ...] = ()
    #: the ruling was made on cards not all sure, but no name they could have changes its chips
    #: (:mod:`dealer_assist.live.doubt`): it is final, its doubtful cards still marked
    moot: bool = False
    #: the game has no dealer button (Daifugo: ``button`` is the seat that led its first play, and
    #: the game's own panel shows who leads now): the header names none
    buttonless: bool = False
    #: between hands, the seat the dealer gave the next hand's button (the B key): the header says so
    next_button: Optional[int] = None

    def doubtful(self, zone: Optional[str], code: Optional[str]) -> bool:
        """Whether ``code`` in ``zone`` is a card the table is not sure of (the dealer confirms it)."""
        return code is not None and (zone, code) in self.unsure

    def other(self, zone: Optional[str], code: Optional[str]) -> Optional[str]:
        """For a doubtful ``code`` in ``zone``, the reader's likeliest other name for it (what
        the dealer should check it against), or None."""
        return other_name(self.others, zone, code) if self.doubtful(zone, code) else None

    def corrected(self, zone: Optional[str], code: Optional[str]) -> Optional[str]:
        """The card as read, when ``code`` in ``zone`` is there by a dealer's correction."""
        if code is None:
            return None
        for z, card, to in self.corrections:
            if z == zone and to == code:
                return card
        return None

    def seat(self, n: int) -> SeatView:
        for s in self.seats:
            if s.seat == n:
                return s
        raise KeyError(f"no seat {n}")

    @property
    def board_spots(self) -> tuple[CardSpot, ...]:
        return tuple(CardSpot(c, f"board{i}", self.live and c not in (None, "BACK"))
                     for i, c in enumerate(self.board, 1) if c is not None)


@dataclass
class _HandRecord:
    """What was seen of one hand, kept to show it after the table is cleared."""

    hand: int
    button: Optional[int] = None
    dealt: list = field(default_factory=list)
    folded: set = field(default_factory=set)
    committed: dict = field(default_factory=dict)
    cards: dict = field(default_factory=dict)       # seat -> last non-empty cards seen
    shown: dict = field(default_factory=dict)       # seat -> cards from its hole event
    board: list = field(default_factory=list)       # from the board events
    burn: list = field(default_factory=list)
    ruling: Optional[TableRuling] = None
    street: str = "preflop"
    corrections: list = field(default_factory=list)   # [(zone, card, to)] standing in the hand
    unsure: list = field(default_factory=list)        # [(zone, card)] not sure, as last seen
    others: list = field(default_factory=list)        # [(zone, card, other)]: their likeliest other names
    up: dict = field(default_factory=dict)            # stud: seat -> up cards by deal
    acts_first: Optional[int] = None                  # stud: the owner of the last deal


class DeskState:
    """The display's memory: feed it each batch of events with the table state that follows."""

    def __init__(self, seats: int = 6, log_size: int = 400):
        self.seats = seats
        self.state: Optional[dict] = None
        self.record: Optional[_HandRecord] = None
        self.finished: Optional[_HandRecord] = None     # the last hand, shown until the next deal
        # the commentary, worded once per event in each language (the screen redraws every frame)
        self.lines: dict[str, deque] = {lang: deque(maxlen=log_size) for lang in ("ja", "en")}
        self.source_alerts: dict[str, dict] = {}        # camera_lost while the camera is away
        self.notices: list[dict] = []                   # acknowledged by the dealer
        self.frame: Optional[int] = None
        #: the board slots of the table's game (the last state's ``board_slots``; 0 in stud)
        self.board_n = 5

    # ------------------------------------------------------------------ input
    def feed(self, events: Sequence[TableEvent], state: Optional[Mapping[str, Any]]) -> None:
        """Take the events of one step (a frame, a dealer action) and the table state after it."""
        for ev in events:
            for lang, lines in self.lines.items():
                text = event_line(ev, lang)
                if text:
                    lines.append(text)
            if isinstance(ev.frame, int):
                self.frame = ev.frame
            self._event(ev)
        if state is not None:
            self.state = dict(state)
            if isinstance(state.get("board_slots"), list):
                self.board_n = len(state["board_slots"])
            self._absorb(self.state)
        active = {(a.get("code"), a.get("message")) for a in (self.state or {}).get("alerts", ())}
        for ev in events:
            if not isinstance(ev, Alert) or ev.cleared:
                continue
            code = ev.code
            if code in (SOURCE_LOST, SOURCE_BACK) or code in STANDING_CODES or (code, ev.message) in active:
                continue
            # an alert the table does not keep (a refused input, a hand closed without a showdown,
            # the recording's end): the dealer acknowledges it
            self.notify(str(code), str(ev.message or ""), str(ev.message_ja or ""))

    @classmethod
    def logged_hand(cls, events: Sequence[Mapping[str, Any]], ruling: Optional[Mapping[str, Any]],
                    seats: int = 12) -> "DeskState":
        """A hand read back from the hand log (its stored event lines, turned into events again),
        shown as it ended (an open hand as far as it got), with the log's ruling (its JSON, read
        back here; one that cannot be read leaves the hand's own); no notices (they were for the
        dealer at the time)."""
        desk = cls(seats=seats)
        desk.feed([ev for ev in map(event_from_json, events) if ev is not None], None)
        rec = desk.finished or desk.record
        desk.record, desk.finished, desk.notices = None, rec, []
        logged = ruling_or_none(ruling)
        if rec is not None and isinstance(logged, TableRuling):
            rec.ruling = logged
        return desk

    def notify(self, code: str, message: str, message_ja: str = "") -> None:
        """A notice for the banner that stays until the dealer dismisses it (newest last)."""
        note = {"code": code, "message": message, "message_ja": message_ja or message}
        self.notices = [n for n in self.notices if n != note][-3:] + [note]

    def dismiss(self) -> bool:
        """The dealer acknowledged the notices; returns whether there were any."""
        had = bool(self.notices)
        self.notices = []
        return had

    def _event(self, ev: TableEvent) -> None:
        if isinstance(ev, Alert):
            if ev.code == SOURCE_LOST and not ev.cleared:
                self.source_alerts[SOURCE_LOST] = ev.to_json()     # shown as the banner's alert
            elif ev.code == SOURCE_BACK:
                self.source_alerts.pop(SOURCE_LOST, None)
            elif ev.code == UNWATCHED and not ev.cleared:  # said once, until the dealer dismisses it
                self.notify(ev.code, ev.message, ev.message_ja)
            elif ev.code in STANDING_CODES:               # the camera's picture or place: while it lasts
                if ev.cleared:
                    self.source_alerts.pop(ev.code, None)
                else:
                    self.source_alerts[ev.code] = ev.to_json()
            return
        if isinstance(ev, HandStart):
            self.finished = None
            self.record = _HandRecord(hand=int(ev.hand or 0), button=ev.button, dealt=list(ev.seats))
            return
        rec = self.record
        if rec is None or ev.hand != rec.hand:
            return
        if isinstance(ev, Board):
            rec.board = list(ev.cards)
        elif isinstance(ev, Up):       # stud: a deal's up cards; keep each seat's cards by deal
            for n, cards in ev.seats.items():
                known = [c for deal in rec.up.get(n, ()) for c in deal]
                new = [c for c in cards or () if c not in known]
                if new:
                    rec.up[n] = list(rec.up.get(n, ())) + [new]
            rec.acts_first = ev.acts_first
        elif isinstance(ev, Hole):
            rec.shown[ev.seat] = list(ev.cards)
        elif isinstance(ev, Showdown):
            rec.ruling = ev.ruling
            rec.street = "showdown"
            for seat in ev.table.get("seats") or ():   # what the ruling was made from
                n = seat.get("seat")
                if isinstance(n, int):
                    if seat.get("folded"):
                        rec.folded.add(n)
                    if isinstance(seat.get("committed"), int) and ev.ruling.chips_entered is not False:
                        rec.committed[n] = seat["committed"]
        elif isinstance(ev, HandEnd):
            if isinstance(ev.ruling, TableRuling):
                rec.ruling = ev.ruling
            if ev.won_without_showdown is not None:
                rec.street = "won"
            self.finished, self.record = rec, None

    def _absorb(self, st: Mapping[str, Any]) -> None:
        rec = self.record
        if rec is None or st.get("hand") != rec.hand:
            return
        rec.button = st.get("button", rec.button)
        rec.street = st.get("street") or rec.street
        if isinstance(st.get("ruling"), TableRuling):
            rec.ruling = st["ruling"]
        for key, s in (st.get("seats") or {}).items():
            n = int(key)
            if s.get("dealt") and n not in rec.dealt:
                rec.dealt = sorted(rec.dealt + [n])
            if s.get("folded"):
                rec.folded.add(n)
            if s.get("committed") is not None:
                rec.committed[n] = s["committed"]
            if s.get("cards"):
                rec.cards[n] = list(s["cards"])
        if st.get("burn"):
            rec.burn = list(st["burn"])
        if "corrections" in st:
            rec.corrections = _corrections(st)
        if "unsure" in st:
            rec.unsure = _placed(st.get("unsure"))
            rec.others = read_offered(st.get("unsure"))

    # ------------------------------------------------------------------ output
    def snapshot(self, lang: str = "ja") -> DeskSnapshot:
        st = self.state or {}
        live = st.get("hand") is not None and self.record is not None
        if live:
            return self._live_snapshot(st, lang)
        nxt = st.get("next_button") if st.get("hand") is None and isinstance(st.get("next_button"), int) else None
        if self.finished is not None:
            return replace(self._record_snapshot(self.finished, lang), next_button=nxt)
        seats = tuple(SeatView(n, False, False, False, None, tuple(self._seat_cards(st, n)))
                      for n in range(1, self.seats + 1))
        return DeskSnapshot(lang, None, False, "waiting", t("waiting", lang), None,
                            self._slots(st), tuple(st.get("burn") or ()),
                            seats, (), (), {}, True, self._alerts(st, lang), self._log(lang),
                            tuple(st.get("tracks") or ()), next_button=nxt)

    def _slots(self, st: Mapping[str, Any]) -> tuple:
        """The board slots of a state (none for a game without a board), else its board padded."""
        if isinstance(st.get("board_slots"), list):
            return tuple(st["board_slots"])
        return tuple((list(st.get("board") or []) + [None] * self.board_n)[:self.board_n])

    @staticmethod
    def _seat_cards(st: Mapping[str, Any], n: int) -> list[str]:
        cards = list(((st.get("seats") or {}).get(str(n)) or {}).get("cards") or [])
        faces = [c for c in cards if c != "BACK"]
        # a hand being turned over: its backs linger a few frames beside the faces
        return faces if len(faces) >= 2 else cards

    def _live_snapshot(self, st: Mapping[str, Any], lang: str) -> DeskSnapshot:
        rec = self.record
        assert rec is not None
        ruling = st.get("ruling") if isinstance(st.get("ruling"), TableRuling) else None
        street = str(st.get("street") or "preflop")
        seats = []
        for n in range(1, self.seats + 1):
            s = (st.get("seats") or {}).get(str(n)) or {}
            view = self._seat_view(n, bool(s.get("dealt")), bool(s.get("folded")), st.get("button"),
                                   s.get("committed"), self._seat_cards(st, n), ruling, lang, s.get("ante"))
            if s.get("up"):
                view = replace(view, up=tuple(tuple(d) for d in s["up"]), acts=bool(s.get("acts")))
            if s.get("draws"):
                view = replace(view, draws=tuple(s["draws"]))
            seats.append(view)
        title = f"{t('hand', lang, n=st.get('hand'))} {t('street.' + street, lang)}"
        return self._with_ruling(lang, int(st["hand"]), True, street, title, st.get("button"),
                                 self._slots(st),
                                 tuple(st.get("burn") or ()), tuple(seats), ruling, st,
                                 tuple(rec.corrections), tuple(_placed(st.get("unsure"))),
                                 tuple(read_offered(st.get("unsure"))))

    def _record_snapshot(self, rec: _HandRecord, lang: str) -> DeskSnapshot:
        seats = []
        for n in range(1, self.seats + 1):
            dealt = n in rec.dealt
            folded = n in rec.folded
            if not dealt or folded:
                cards: list[str] = []
            elif n in rec.shown:
                cards = list(rec.shown[n])
            else:
                cards = [c for c in rec.cards.get(n, []) if c == "BACK"] or ["BACK", "BACK"]
            view = self._seat_view(n, dealt, folded, rec.button, rec.committed.get(n), cards, rec.ruling, lang)
            if rec.up.get(n):
                view = replace(view, up=tuple(tuple(d) for d in rec.up[n]), acts=rec.acts_first == n)
            seats.append(view)
        board = tuple((list(rec.board) + [None] * self.board_n)[:self.board_n])
        title = f"{t('hand_over', lang, n=rec.hand)}"
        street = "won" if rec.street == "won" else ("showdown" if rec.ruling else "ended")
        # a hand over keeps the doubt its ruling ended with (none once confirmed)
        unsure = list(rec.ruling.unsure) if rec.ruling is not None else []
        return self._with_ruling(lang, rec.hand, False, street, title, rec.button, board, tuple(rec.burn),
                                 tuple(seats), rec.ruling, self.state or {}, tuple(rec.corrections),
                                 tuple(unsure), tuple(rec.others))

    def _seat_view(self, n: int, dealt: bool, folded: bool, button: Optional[int], committed: Any,
                   cards: list[str], ruling: Optional[TableRuling], lang: str,
                   ante: Any = None) -> SeatView:
        hand: Optional[HandRuled] = None
        if ruling is not None and ruling.chips_entered is not False:
            ante = ruling.antes.get(n, ante)
        payout = None
        winner = False
        shows = None
        if ruling is not None:
            hand = ruling.hands.get(n)
            payout = ruling.payouts.get(n)
            winner = ruling.takes_a_pot(n)
            order = list(ruling.showdown_order)
            shows = order.index(n) + 1 if n in order else None
        name = ""
        if hand is not None:
            name = hand.words(lang) or (hand.category_ja if lang == "ja" else hand.category)
            low = hand.note("low")
            if isinstance(low, Mapping):      # hi/lo: the low half's hand too ("7-4-3-2-A low")
                name += "\n" + str(low.get("description_ja" if lang == "ja" else "description") or "")
        reason = lose_reason(n, ruling, lang) if ruling is not None and hand is not None and not winner and not folded else ""
        return SeatView(n, dealt, folded, button == n and dealt,
                        committed if isinstance(committed, int) else None, tuple(cards), name,
                        hand.best_five if hand is not None else (), hand.note("joker_as") if hand is not None else None,
                        payout, winner, shows, ante if isinstance(ante, int) and ante > 0 else None, reason)

    def _with_ruling(self, lang: str, hand: int, live: bool, street: str, title: str, button: Optional[int],
                     board: tuple, burn: tuple, seats: tuple, ruling: Optional[TableRuling],
                     st: Mapping[str, Any], corrections: tuple = (), unsure: tuple = (),
                     others: tuple = ()) -> DeskSnapshot:
        pots: list[PotView] = []
        explanation: tuple[str, ...] = ()
        deciding: tuple[str, ...] = ()
        payouts: dict[int, int] = {}
        chips = True
        if ruling is not None:
            pots = [self._pot_view(p, lang) for p in ruling.pots]
            explanation = ruling.lines(lang)
            payouts = dict(ruling.payouts)
            chips = ruling.chips_entered is not False
            deciding = deciding_lines(explanation, pots)
        if corrections:
            seats = tuple(replace(sv, corrected=tuple((to, card) for z, card, to in corrections
                                                      if z == f"seat{sv.seat}" and to)) for sv in seats)
        provisional = bool(ruling is not None and ruling.provisional)
        moot = bool(ruling is not None and not ruling.provisional and ruling.unsure)
        alerts = self._alerts(st, lang)
        if provisional and live:
            what = placed_text(ruling.unsure, lang, others)
            mine = AlertView("provisional_ruling", "provisional_ruling", alert_title("provisional_ruling", lang),
                             t("provisional_banner", lang, cards=what), SEVERITY["provisional_ruling"])
            rank = {"stop": 0, "warn": 1, "info": 2}
            alerts = tuple(sorted((mine,) + alerts, key=lambda a: rank.get(a.severity, 1)))   # loudest first
        return DeskSnapshot(lang, hand, live, street, title, button, board, burn, seats, tuple(pots),
                            explanation, payouts, chips, alerts, self._log(lang),
                            tuple(st.get("tracks") or ()) if live else (), deciding, corrections,
                            provisional, unsure, others, moot=moot, buttonless="daifugo" in st)

    @staticmethod
    def _pot_view(p: PotRuled, lang: str) -> PotView:
        name, amount, eligible, winners, odd = p.title(lang), p.amount, p.eligible, p.winners, p.odd_chips
        shares = tuple(sorted(p.shares.items()))
        takes = ", ".join(f"{t('seat', lang, n=s)} {v}" for s, v in shares if v) or "-"
        text = (t("pot_line", lang, name=name, amount=amount,
                  eligible=t("seats_list", lang, seats=seats_text(eligible, lang)))
                + "  " + t("pot_takes", lang, who=takes))
        if odd:
            text += "  (" + t("odd_chip", lang, seats=seats_text(odd, lang)) + ")"
        return PotView(name, amount, eligible, winners, shares, odd, text)

    def _alerts(self, st: Mapping[str, Any], lang: str) -> tuple[AlertView, ...]:
        out = []
        sources = list(self.source_alerts.values())
        for a in sources + list(st.get("alerts") or ()):
            code = str(a.get("code"))
            msg = (a.get("message_ja") if lang == "ja" else a.get("message")) or a.get("message") or ""
            zone = a.get("zone") if isinstance(a.get("zone"), str) else None
            key = f"{code}:{zone or ''}:{a.get('card') or ''}"
            out.append(AlertView(key, code, alert_title(code, lang, a.get("sure", True)), str(msg),
                                 SEVERITY.get(code, "warn"), zone))
        standing = _corrections(st) if st.get("hand") is not None else []
        if standing:
            items = "、".join if lang == "ja" else "; ".join
            what = items(t("corrected_item", lang, zone=zone_text(z, lang), card=card_label(c) or c,
                           to=card_label(to) if to else t("removed", lang)) for z, c, to in standing)
            out.append(AlertView("correction_stands", "correction_stands", alert_title("correction_stands", lang),
                                 t("corrected_list", lang, items=what), SEVERITY["correction_stands"]))
        for i, n in enumerate(self.notices):
            msg = n["message_ja"] if lang == "ja" else n["message"]
            out.append(AlertView(f"notice:{i}:{n['code']}", n["code"], alert_title(n["code"], lang), msg,
                                 SEVERITY.get(n["code"], "warn"), None, True))
        rank = {"stop": 0, "warn": 1, "info": 2}
        out.sort(key=lambda a: rank.get(a.severity, 1))     # the loudest first; stable otherwise
        return tuple(out)

    def _log(self, lang: str) -> tuple[str, ...]:
        return tuple(self.lines["ja" if lang == "ja" else "en"])


def _placed(cards: Any) -> list[tuple[str, str]]:
    """``[{"zone", "card"}, ...]`` (the table's ``unsure``) as ``(zone, card)`` tuples."""
    return [(c["zone"], c["card"]) for c in cards or ()
            if isinstance(c, Mapping) and isinstance(c.get("zone"), str) and isinstance(c.get("card"), str)]


def other_name(others: Sequence[tuple[str, str, str]], zone: Optional[str], code: Optional[str]) -> Optional[str]:
    """The other name ``others`` (``(zone, card, other)``) give ``code`` in ``zone``, or None.

    >>> other_name([("seat1", "Ks", "Kc")], "seat1", "Ks"), other_name([("seat1", "Ks", "Kc")], "seat2", "Ks")
    ('Kc', None)
    """
    return next((o for z, c, o in others if (z, c) == (zone, code)), None)


def placed_text(cards: Sequence[tuple[str, str]], lang: str,
                others: Sequence[tuple[str, str, str]] = ()) -> str:
    """``[("seat2", "Ks"), ("board4", "7c")]`` in words: ``シート2 K♠、ボード4 7♣``; with ``others``
    (``(zone, card, other)``: the reader's likeliest other names) ``シート2 K♠（K♣?）``.

    >>> placed_text([("seat2", "Ks"), ("board4", "7c")], "en", [("seat2", "Ks", "Kc")])
    'seat 2 K♠ (K♣?), board 4 7♣'
    """
    sep = "、" if lang == "ja" else ", "
    alt = {(z, c): o for z, c, o in others}
    return sep.join(f"{zone_text(z, lang)} {card_label(c) or c}"
                    + ((f"（{card_label(alt[(z, c)])}?）" if lang == "ja" else f" ({card_label(alt[(z, c)])}?)")
                       if (z, c) in alt else "") for z, c in cards)


def _corrections(st: Mapping[str, Any]) -> list[tuple[str, str, Optional[str]]]:
    """The corrections standing in the table state (``LiveSession`` adds them), as tuples."""
    out = []
    for c in st.get("corrections") or ():
        if isinstance(c, Mapping) and isinstance(c.get("zone"), str) and isinstance(c.get("card"), str):
            out.append((c["zone"], c["card"], c.get("to") if isinstance(c.get("to"), str) else None))
    return out


def _hand_words(hand: HandRuled, lang: str) -> str:
    """A hand's category in words: ``フルハウス`` / ``full house``; a lowball hand (its
    ``low_rule`` given) by its low, since its category is its high hand's.

    >>> _hand_words(HandRuled("high_card", "ハイカード", (), "8-6-4-3-2 low", "8-6-4-3-2 ロー", (("low_rule", "27"),)), "en")
    '8-6-4-3-2 low'
    """
    if hand.note("low_rule"):
        return hand.words(lang)
    if lang == "ja":
        return hand.category_ja or hand.description_ja
    return (hand.category or hand.description).replace("_", " ")


def lose_reason(seat: int, ruling: TableRuling, lang: str) -> str:
    """Why ``seat``, which showed its cards, takes no pot, in one line from the ruling's hands:
    a tie the joker holder loses (the line most disputed) if it lost one, else the better hand of
    the first pot it could win.

    >>> straight = HandRuled("straight", "ストレート", (), "straight, A-K-Q-J-T", "ストレート A-K-Q-J-T")
    >>> r = TableRuling("joker-holdem", hands={
    ...     3: replace(straight, notes=(("joker_as", "As"),)),
    ...     5: HandRuled("three_of_a_kind", "スリーカード", (), "three 9s", "スリーカード 9"), 4: straight},
    ...     pots=(PotRuled("Main pot", "メインポット", 10, (3, 5), (5,), {5: 10}),
    ...           PotRuled("Side pot 1", "サイドポット1", 10, (3, 4), (4,), {4: 10})))
    >>> lose_reason(3, r, "ja"), lose_reason(3, r, "en")
    ('シート4と同点、JOKERの負け', 'ties seat 4; the joker loses ties')
    >>> r = replace(r, hands={**r.hands, 3: replace(straight, description="straight, K-Q-J-T-9")})
    >>> lose_reason(3, r, "ja"), lose_reason(3, r, "en")
    ('シート5のスリーカードに負け', "loses to seat 5's three of a kind")
    """
    mine = ruling.hands.get(seat)
    if mine is None:
        return ""
    lost = [p for p in ruling.pots if seat in p.eligible and p.winners and seat not in p.winners]
    if not lost:
        return ""
    joker = mine.note("joker_as") is not None or "JK" in mine.best_five
    for p in lost:
        tied = [w for w in p.winners if w in ruling.hands and ruling.hands[w].description == mine.description]
        if joker and tied and mine.description:
            return t("ties_joker", lang, seats=seats_text(tied, lang))
    winners = list(lost[0].winners)
    best = ruling.hands.get(winners[0])
    return t("loses_to", lang, seats=seats_text(winners, lang), hand=_hand_words(best, lang) if best else "")


def deciding_lines(explanation: Sequence[str], pots: Sequence[PotView]) -> tuple[str, ...]:
    """The explanation's deciding line(s): the indented house-rule notes under a pot's award (the
    joker holder loses the tie, who gets the odd chip), else the first pot's award line."""
    notes = tuple(line.strip() for line in explanation if line.startswith("  ") and line.strip())
    if notes:
        return notes
    for pot in pots[:1]:
        for line in explanation:
            if pot.name and line.startswith(pot.name):
                return (line,)
    return ()
