"""Seven-card stud as seed 003 plays it: the owner, the showdown where weaker hands do not open,
and the draw hints ("effects") for training.

Both of the seed's deals end with the same seven cards per seat, dealt as two face-down cards,
four face-up cards and one face-down card:

* **ver1** (beginner tables): all seven at once; the owner (first to act) is decided from the four
  open cards; one betting round; showdown.
* **ver2** (and intermediate/advanced tables): two down and three up; the owner from the three open
  cards; a betting round; one more up card and one more down card; the owner again, from the four
  open cards; a second betting round; showdown.

The owner is the seat with the strongest open cards: four of a kind > three of a kind > two pair >
one pair > no pair, then the ranks, then the suit of the highest open card (spades > hearts >
diamonds > clubs), so there is always exactly one owner.

>>> owner({1: parse_cards("Kh Kd 5s 4c"), 2: parse_cards("9s 9c 9d 2h"), 3: parse_cards("As Qd 7h 3c")})
2
>>> owner({1: parse_cards("Kh 7d 5s"), 2: parse_cards("Ks 7c 5d")})     # equal ranks: K♠ beats K♥
2

At the showdown the final owner opens first, then each seat clockwise opens only if its hand
beats (or ties) the best hand shown so far; otherwise it folds unshown and cannot win.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence

from dealer_assist.cards import DECK_52, Card, CardError, format_cards, parse_cards
from dealer_assist.i18n import Msg, Text, _, both, typed
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.evaluator import Category, _pick_five, evaluate_key, rank_text
from dealer_assist.rules.holdem import _in_order, hand_of
from dealer_assist.rules.pots import clockwise_from
from dealer_assist.rules.showdown import Ruling, SeatHand, SeatInput, ShowdownGame, Table
from dealer_assist.rules.wild import NO_WILD, WildCards, WildSpec, parse_wild, wild_of

__all__ = ["OpenValue", "open_value", "owner", "StudSeat", "Stud7", "Hint", "made_category",
           "chances", "draw_hints"]


# ------------------------------------------------------------------ the owner (open cards)

_OPEN_CATEGORIES = {  # sorted group sizes -> (strength, name), seed 003's table
    (4,): (4, Category.FOUR_OF_A_KIND.name_msg),
    (3, 1): (3, Category.THREE_OF_A_KIND.name_msg),
    (3,): (3, Category.THREE_OF_A_KIND.name_msg),
    (2, 2): (2, Category.TWO_PAIR.name_msg),
    (2, 1, 1): (1, Category.ONE_PAIR.name_msg),
    (2, 1): (1, Category.ONE_PAIR.name_msg),
}
_NO_PAIR = _("no pair")


@dataclass(frozen=True, slots=True, order=True)
class OpenValue:
    """The strength of a seat's open cards: compare with ``<`` / ``>`` (never equal for two seats).

    ``strength`` 4 four of a kind .. 0 no pair; ``ranks`` grouped, larger groups first;
    ``top`` the highest open card (rank, then suit) that breaks equal ranks.
    """

    strength: int
    ranks: tuple[int, ...]
    top: int               # card index of the highest open card: rank first, then suit
    name_msg: Text = dataclasses.field(compare=False, default="")

    @property
    def name(self) -> str:
        return both(self.name_msg)[0]

    @property
    def name_ja(self) -> str:
        return both(self.name_msg)[1]

    def description(self) -> Msg:
        return _("{hand} {ranks}", hand=self.name_msg, ranks=rank_text(self.ranks))

    def describe(self) -> str:
        return self.description().render("en")

    def describe_ja(self) -> str:
        return self.description().render("ja")


def open_value(up: Sequence[Card], wild: WildSpec = NO_WILD) -> OpenValue:
    """Seed 003's table of open cards (three or four of them; straights and flushes do not count).

    >>> open_value(parse_cards("Kh Kd 3s 3c")).describe(), open_value(parse_cards("Kh 7d 6s 5c")).describe_ja()
    ('two pair K-K-3-3', '役なし K-7-6-5')

    With wild cards (the seed does not say; our reading) an open wild card joins the largest,
    then highest, group of natural open cards, and the highest natural card breaks ties:

    >>> open_value(parse_cards("Kh 7d JK 5c"), parse_wild(["JK"])).describe()
    'one pair K-K-7-5'
    """
    up = tuple(up)
    if not 3 <= len(up) <= 4:
        raise CardError(_("the owner is decided from 3 or 4 open cards, got {cards}", cards=format_cards(up)), up)
    naturals = [c for c in up if not wild.is_wild(c)]
    if any(c.is_joker for c in naturals):
        raise CardError(_("a joker is an open card, but the table names no \"wild\": [\"JK\"]"), up)
    counts: dict[int, int] = {}
    for c in naturals:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    extra = len(up) - len(naturals)
    if extra:
        groups = [(groups[0][0], groups[0][1] + extra)] + groups[1:] if groups else [(14, extra)]
    shape = tuple(n for _, n in groups)
    strength, name = _OPEN_CATEGORIES.get(shape, (0, _NO_PAIR))
    ranks = tuple(r for r, n in groups for _k in range(n))
    return OpenValue(strength, ranks, max((c.index for c in naturals), default=-1), name)


def owner(up_by_seat: Mapping[int, Sequence[Card]], wild: WildSpec = NO_WILD) -> int:
    """The seat whose open cards are strongest (seed 003): it acts first, and shows first."""
    if not up_by_seat:
        raise RuleError(_("no seat has open cards to decide the owner from"), field="up")
    return max(up_by_seat, key=lambda s: open_value(up_by_seat[s], wild))


# ------------------------------------------------------------------ the showdown game

@dataclass(frozen=True, slots=True)
class StudSeat(SeatInput):
    """A stud seat: ``down`` (face-down, up to 3) and ``up`` (face-up, 3 or 4) cards.

    ``hole`` holds all the seat's known cards in the order dealt (down, down, up x4, down).
    """

    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()


class _StudHigh(ShowdownGame):
    """Seven-card stud without wild cards (the natural hand of seven)."""

    def seat_hand(self, table: Table, seat: SeatInput) -> SeatHand:
        key = evaluate_key([c.index for c in seat.hole])
        return hand_of(seat.seat, key, _in_order(_pick_five(seat.hole, key), seat.hole))


class Stud7(WildCards, _StudHigh):
    """Seven-card stud (seed 003).  Seats give ``"down"`` (3 cards) and ``"up"`` (4 cards); no board.

    >>> r = Stud7().settle({"game": "stud7", "seats": [
    ...   {"seat": 1, "down": ["Ah","Ad","2c"], "up": ["Kh","Kd","5s","4c"], "committed": 40},
    ...   {"seat": 2, "down": ["3h","8d","Jc"], "up": ["9s","9c","7d","2h"], "committed": 40},
    ...   {"seat": 3, "down": ["Qs","Qh","6c"], "up": ["As","Qd","7h","3c"], "committed": 40}]})
    >>> r.showdown_order, r.payouts
    ((1, 2, 3), {1: 0, 2: 0, 3: 120})
    >>> r.hands[2].to_json()["shown"], r.hands[3].text
    (False, 'three of a kind, Q-Q-Q-A-7')

    Seat 1 owns the last round (open K-K); its two pair shows; seat 2's pair of nines is weaker and
    folds unshown; seat 3's three queens opens and wins.
    """

    name = "stud7"
    hole_count = 7
    board_count = 0
    extra_fields = ("wild", "owner")

    # -------------------------------------------------------------- input

    def read_table(self, obj: Mapping[str, Any]) -> Table:
        if isinstance(obj, Mapping) and "button" not in obj:
            # Stud has no button: showing starts from the owner and odd chips go by suit.
            seats = obj.get("seats")
            first = seats[0].get("seat") if isinstance(seats, list) and seats and \
                isinstance(seats[0], Mapping) else None
            if isinstance(first, int) and not isinstance(first, bool):
                obj = {**obj, "button": first}
        if isinstance(obj, Mapping) and obj.get("last_aggressor") is not None:
            raise RuleError(_("stud shows from the owner of the last round (seed 003), not from the "
                              "last aggressor; give \"owner\" if it cannot be read from the open cards"),
                            field="last_aggressor")
        try:
            return super().read_table(obj)
        except RuleError as exc:
            if exc.field == "hole" and "must show" in str(exc.reason):
                raise RuleError(_("a seat still in the hand at showdown must show its \"down\" (3) and "
                                  "\"up\" (4) cards"), field="down", seat=exc.seat) from None
            raise

    def read_seat(self, s: Any, position: int) -> SeatInput:
        number = self.read_seat_number(s, position)
        if "hole" in s:
            raise RuleError(_("stud seats give \"down\" (the 3 face-down cards) and \"up\" (the 4 "
                              "face-up cards, in the order dealt), not \"hole\""), field="hole", seat=number)
        self.check_seat_fields(s, number, {"down", "up"})
        committed, ante, folded = self.read_chips(s, number)
        down = self.read_cards(s.get("down"), field="down", seat=number, allow_none=True)
        up = self.read_cards(s.get("up"), field="up", seat=number, allow_none=True)
        if folded:
            if len(down) > 3:
                raise RuleError(_("a seat has at most 3 face-down cards, got {n}", n=len(down)), field="down",
                                seat=number)
            if up and len(up) not in (3, 4):
                raise RuleError(_("a folded seat's open cards are 3 (folded before the 6th card) or 4, "
                                  "got {n}: {cards}", n=len(up), cards=format_cards(up)), field="up", seat=number)
        elif down or up:
            if len(down) != 3:
                raise RuleError(_("expected 3 face-down cards (2 first, 1 last), got {n}: {cards}",
                                  n=len(down), cards=format_cards(down)), field="down", seat=number)
            if len(up) != 4:
                raise RuleError(_("expected 4 face-up cards, got {n}: {cards}", n=len(up), cards=format_cards(up)),
                                field="up", seat=number)
        cards = down[:2] + up + down[2:]
        return StudSeat(number, cards or None, committed, folded, ante, down, up)

    def check_hole(self, seat: SeatInput) -> None:
        down, up = getattr(seat, "down", ()), getattr(seat, "up", ())
        if len(down) != 3:
            raise RuleError(_("expected 3 face-down cards (2 first, 1 last), got {n}: {cards}",
                              n=len(down), cards=format_cards(down)), field="down", seat=seat.seat)
        if len(up) != 4:
            raise RuleError(_("expected 4 face-up cards, got {n}: {cards}", n=len(up), cards=format_cards(up)),
                            field="up", seat=seat.seat)

    def check_table(self, table: Table) -> None:
        wild_of(table)
        given = table.extra.get("owner")
        if given is None:
            return
        if isinstance(given, bool) or not isinstance(given, int) or given not in {s.seat for s in table.seats}:
            raise RuleError(_("the owner must be a seat at the table, got {given}", given=typed(given)), field="owner")
        known = self._known_up(table)
        if given in known and len(known) > 1:
            best = owner(known, wild_of(table))
            if best != given:
                raise RuleError(_("seat {given}'s open cards ({cards}: {open}) are weaker than "
                                  "seat {best}'s ({best_cards}: {best_open}): the owner is seat {best}",
                                  given=given, cards=format_cards(known[given]),
                                  open=open_value(known[given], wild_of(table)).description(),
                                  best=best, best_cards=format_cards(known[best]),
                                  best_open=open_value(known[best], wild_of(table)).description()),
                                field="owner")

    # -------------------------------------------------------------- hooks

    def _known_up(self, table: Table) -> dict[int, tuple[Card, ...]]:
        """Seats whose four open cards are known: the candidates for the last round's owner."""
        return {s.seat: s.up for s in table.seats if len(getattr(s, "up", ())) == 4}

    def final_owner(self, table: Table) -> int:
        given = table.extra.get("owner")
        if given is not None:
            return given
        return owner(self._known_up(table), wild_of(table))

    def hand_cards(self, table: Table, seat: SeatInput) -> tuple[Card, ...]:
        return seat.hole

    def showdown_order(self, table: Table) -> tuple[int, ...]:
        live = [s.seat for s in table.live]
        first = self.final_owner(table)
        if first in live:
            return tuple([first] + [s for s in clockwise_from(first, live) if s != first])
        return tuple(clockwise_from(first, live))

    def odd_chip_order(self, table: Table, winners: Sequence[int], hands: Mapping[int, SeatHand]
                       ) -> list[int]:
        """TDA 20A for stud: the winner with the highest card by suit, all seven cards counting."""
        def top(seat: int) -> int:
            return max((c.index for c in table.seat(seat).hole or () if not c.is_joker), default=-1)
        return sorted(winners, key=top, reverse=True)

    def odd_chip_rule(self) -> Text:
        return _("the winner with the highest card by suit, all cards counting (TDA 20A, stud)")

    def opened(self, table: Table, order: Sequence[int], hands: Mapping[int, SeatHand]
               ) -> dict[int, Optional[int]]:
        """Who opens at the showdown: seat -> None if it opens, else the seat whose hand beat it.

        A seat opens when, in some pot it can win, no hand shown so far beats it (the seed's rule
        for a single pot; with side pots no seat is made to give up a pot it still wins).
        """
        pots = self.pots(table)
        pot_sets = [set(p.eligible) for p in pots if len(p.eligible) > 1] or [set(order)]
        shown: list[int] = []
        out: dict[int, Optional[int]] = {}
        for s in order:
            beaten_by = None
            opens = False
            for eligible in pot_sets:
                if s not in eligible:
                    continue
                rivals = [t for t in shown if t in eligible]
                best = max(rivals, key=lambda t: hands[t].key, default=None)
                if best is None or hands[s].key >= hands[best].key:
                    opens = True
                    break
                beaten_by = best if beaten_by is None else beaten_by
            if opens:
                shown.append(s)
                out[s] = None
            else:
                out[s] = beaten_by
        return out

    def explain_showdown(self, table: Table, order: Sequence[int], hands: Mapping[int, SeatHand]) -> list:
        first = self.final_owner(table)
        known = self._known_up(table)
        if first in known:
            v = open_value(known[first], wild_of(table))
            why = _("seat {seat} owns the last round with open {cards} ({open})", seat=first,
                    cards=format_cards(known[first]), open=v.description())
        else:
            why = _("seat {seat} owns the last round", seat=first)
        if first not in order:
            why = _("{why}, but folded: the next live seat clockwise shows first", why=why)
        lines: list = [_("Showdown order (seed 003: from the owner, clockwise; {why}): {order}.", why=why,
                         order=self.showing_order(order))]
        for s, beaten_by in self.opened(table, order, hands).items():
            h = hands[s]
            if beaten_by is None:
                lines.append(_("Seat {seat} opens: {hand} [{cards}].", seat=s, hand=h.description,
                               cards=format_cards(h.best_five)))
            else:
                lines.append(_("Seat {seat} does not open: its hand is weaker than seat {other}'s {hand}, so "
                               "it folds unshown (mucked).", seat=s, other=beaten_by,
                               hand=hands[beaten_by].description))
        return lines

    def award_pot(self, table: Table, pot, index: int, hands: Mapping[int, SeatHand]):
        """As the base, but a mucked hand is never read out in the ruling."""
        if len(hands) > 1:
            opened = self.opened(table, self.showdown_order(table), hands)
            hands = {s: h if opened[s] is None else
                     dataclasses.replace(h, description=_("hand not shown (mucked)"))
                     for s, h in hands.items()}
        return super().award_pot(table, pot, index, hands)

    def rule(self, table: Table) -> Ruling:
        ruling = super().rule(table)
        if len(ruling.hands) < 2:
            return ruling
        opened = self.opened(table, ruling.showdown_order, ruling.hands)
        hands = {}
        for s, h in ruling.hands.items():
            seat = table.seat(s)
            notes = h.notes + (("up", [str(c) for c in seat.up]), ("shown", opened[s] is None))
            hands[s] = dataclasses.replace(h, notes=notes)
        return dataclasses.replace(ruling, hands=hands)


# ------------------------------------------------------------------ draw hints (seed "effects")

_CHANCES = {
    Category.STRAIGHT: _("straight chance"),
    Category.FLUSH: _("flush chance"),
    Category.FULL_HOUSE: _("full house chance"),
    Category.STRAIGHT_FLUSH: _("straight flush chance"),
}


@dataclass(frozen=True, slots=True)
class Hint:
    """One effect condition met as card ``card_number`` (1..7) is dealt.

    ``kind`` is ``'made'`` (a hand of one pair or better is made) or ``'chance'`` (one card away
    from a straight or better, with a live card to make it: ``outs``).  ``fires`` is False where
    the seed cancels the effect; ``why`` then says which rule cancelled it.
    """

    card_number: int
    kind: str
    category: Category
    text: str
    text_ja: str
    outs: tuple[Card, ...] = ()
    fires: bool = True
    why: str = ""
    why_ja: str = ""


def made_category(cards: Sequence[Card]) -> Optional[Category]:
    """The hand made so far (1 to 7 cards), or ``None`` below one pair.

    >>> made_category(parse_cards("Ah Ad")), made_category(parse_cards("Ah Kd 7c"))
    (<Category.ONE_PAIR: 1>, None)
    """
    cards = tuple(cards)
    if len(cards) >= 5:
        category = Category(evaluate_key([c.index for c in cards]) >> 20)
    else:
        counts: dict[int, int] = {}
        for c in cards:
            counts[c.rank] = counts.get(c.rank, 0) + 1
        shape = sorted(counts.values(), reverse=True) + [0, 0]
        category = (Category.FOUR_OF_A_KIND if shape[0] == 4 else Category.THREE_OF_A_KIND
                    if shape[0] == 3 else Category.TWO_PAIR if shape[:2] == [2, 2]
                    else Category.ONE_PAIR if shape[0] == 2 else Category.HIGH_CARD)
    return None if category is Category.HIGH_CARD else category


def chances(cards: Sequence[Card], seen: Iterable[Card] = ()) -> dict[Category, tuple[Card, ...]]:
    """Hands one card away (straight, flush, full house, straight flush), each with its live outs.

    A card is live when it is neither in ``cards`` nor among ``seen`` (other seats' open cards).
    Only hands above what ``cards`` already make count.  Seed 003 announces no separate
    four-of-a-kind chance: trips with a side card are a full house chance, whose outs are the
    cards pairing a side card.

    >>> {c.name: format_cards(o) for c, o in chances(parse_cards("3h 4d 6c 7s")).items()}
    {'STRAIGHT': '5c 5d 5h 5s'}
    >>> chances(parse_cards("3h 4d 6c 7s"), seen=parse_cards("5c 5d 5h 5s"))
    {}
    """
    cards = tuple(cards)
    if not 4 <= len(cards) <= 6:
        return {}            # fewer than five cards after one more make no straight or better
    made = made_category(cards) or Category.HIGH_CARD
    dead = {c.index for c in cards} | {c.index for c in seen if c is not None and not c.is_joker}
    out: dict[Category, list[Card]] = {}
    for card in DECK_52:
        if card.index in dead:
            continue
        got = made_category(cards + (card,))
        # The fourth of a kind is not an announced chance: only the categories in _CHANCES.
        if got in _CHANCES and got > made:
            out.setdefault(got, []).append(card)
    return {c: tuple(v) for c, v in sorted(out.items(), reverse=True)}


def draw_hints(cards: Sequence[Card], *, seen: Iterable[Card] = (), level: str = "intermediate"
               ) -> tuple[Hint, ...]:
    """The seed's effects for one seat's cards in the order dealt (training mode).

    As each card comes: a newly made hand (one pair or better, above what was made before) is a
    ``made`` effect; otherwise the best chance that arises on this card (a straight or better one
    card away, with at least one card still to come and a live out) is a ``chance`` effect.  The seed's cancellations:

    * a made hand and a chance on the same card: the made hand shows (the chance is still noted);
    * a chance no higher than one already noted does not show (flush, then straight: nothing);
    * intermediate and advanced tables (``level``): when three or more effects come by the fifth
      card, only the last two of those show.

    >>> [(h.card_number, h.text, h.fires) for h in draw_hints(parse_cards("Ah Ad Ks Kd Kc"))]
    [(2, 'one pair', False), (4, 'two pair', True), (4, 'full house chance', False), (5, 'full house', True)]

    That is the seed's own example [A][A][K][K][K]: the pair on card 2 does not show, and the
    full house chance flagged with the two pair stops any lower chance later.
    """
    cards = tuple(cards)
    if not 1 <= len(cards) <= 7:
        raise CardError(_("a stud hand is 1 to 7 cards, got {n}", n=len(cards)), cards)
    if any(c.is_joker for c in cards) or len(set(cards)) != len(cards):
        raise CardError(_("expected distinct cards without a joker: {cards}", cards=format_cards(cards)), cards)
    if level not in ("beginner", "intermediate", "advanced"):
        raise RuleError(_("level is beginner, intermediate or advanced, got {level}", level=typed(level)),
                        field="level")
    seen = tuple(c for c in seen if c is not None)
    hints: list[Hint] = []
    made_before: Optional[Category] = None
    flagged: Optional[Category] = None
    carried: set = set()
    for n in range(1, len(cards) + 1):
        now = cards[:n]
        made = made_category(now)
        new_made = made is not None and (made_before is None or made > made_before)
        found = chances(now, seen) if n < 7 else {}
        # Only a chance that arises on this card counts; one carried over is not announced again.
        top = next((c for c in found if c not in carried), None)
        carried = set(found)
        made_hint = None
        if new_made:
            made_hint = Hint(n, "made", made, *both(made.name_msg))
            hints.append(made_hint)
        if top is not None:
            text, text_ja = both(_CHANCES[top])
            if made_hint is not None:
                hints.append(Hint(n, "chance", top, text, text_ja, found[top], False,
                                  *both(_("a made hand on the same card shows instead"))))
            elif flagged is not None and top <= flagged:
                hints.append(Hint(n, "chance", top, text, text_ja, found[top], False,
                                  *both(_("a {chance} was already noted", chance=_CHANCES[flagged]))))
            else:
                hints.append(Hint(n, "chance", top, text, text_ja, found[top]))
            flagged = top if flagged is None else max(flagged, top)
        if made is not None:
            made_before = made if made_before is None else max(made_before, made)
    if level != "beginner":
        early = [i for i, h in enumerate(hints) if h.fires and h.card_number <= 5]
        for i in early[:-2]:
            hints[i] = dataclasses.replace(
                hints[i], fires=False,
                **dict(zip(("why", "why_ja"),
                           both(_("three or more effects by the fifth card: only the last two show")))))
    return tuple(hints)
