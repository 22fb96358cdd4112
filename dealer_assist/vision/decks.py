"""Enrolled decks: what ``dealer-assist enroll-deck`` learned about one physical deck, and how
``detect --deck NAME`` uses it (runtime: numpy + OpenCV only).

A deck folder (``calibration/decks/NAME/``) holds

* ``deck.json`` - the deck's name, the cards enrolled, how many views of each, the corner model
  it was enrolled with (embeddings only compare within one model), the thresholds;
* ``refs.npz`` - for every enrolled view of a card: the two corner embeddings of the corner
  classifier (with the classifier's P(none) for each corner) and a whole-card appearance
  template (:func:`card_template`: the card rectified upright, small, colour, zero-mean and
  unit-norm, in both of its two ways up).

At detection time (:meth:`Deck.adjust`):

* **whole card** - a detected card whose template correlates with an enrolled JOKER's template
  at :data:`CARD_MATCH` or more is a joker (this is how a joker with no corner index, drawn in a
  style the model never saw, is named). Templates of suited cards are kept but not used to name
  cards: at 16x22 the spot cards of one deck look alike (a whole deck enrolled this way named
  11 cards of 150 test frames with the wrong rank; models/MODEL_CARD.md);
* **corners** - each readable corner's probabilities are weighed with how close its embedding
  is to this deck's enrolled corners of each card (:func:`corner_evidence`): with the deck's
  spades and clubs enrolled, its own drawing of the two suits tells them apart where the
  generic classifier hesitates.
* **its own index** - with the deck enrolled whole, a corner the classifier cannot read, or reads
  as a name the enrollment check saw it give another card of this deck, is named by the deck's
  own corners where one card's are clearly the closest (:meth:`Deck.own_corner`): French
  R, D and V, or a typeface the classifier never met. Such a name is never surer than the
  reader alone makes it, so the dealer confirms it.

Anything that matches nothing is left to the generic classifier, so enrolling only the jokers
is enough and harmless for the other 52 cards.

* **doubts** - what the enrollment photos showed the reader alone misread (``deck.json``'s
  ``"check"``) is never reported sure with the deck (:func:`check_doubts`, :attr:`Deck.doubts`):
  the name it gave another card, that rank in every suit or that suit on every rank, every court
  name where a court's index was misread or unreadable. The dealer confirms those cards; a deck
  the reader reads right in its photos keeps every card as sure as the reader alone makes it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.cards import Card, Rank, Suit
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, typed
from dealer_assist.vision import geometry
from dealer_assist.vision.classifier import JK, NONE, NUM_CLASSES, READABLE, file_reason

#: Whole-card template size (w, h) in pixels, and its blur (sigma, pixels): coarse on purpose, so
#: that a detector box a little off still correlates with the enrolled view.
TEMPLATE_W, TEMPLATE_H = 16, 22
TEMPLATE_BLUR = 2.0
#: Box size variants (width, height factors) tried when matching a detected card's template.
MATCH_SCALES = (0.9, 1.0, 1.1)
#: Normalised cross-correlation at or above which a card is taken to be an enrolled card (0.70:
#: chosen on held-out test frames 0-149 with benchmarks/eval_enroll.py; frames 150-299 quoted).
CARD_MATCH = 0.7
#: Cosine similarity at or above which a readable corner is taken to be an enrolled corner.
CORNER_MATCH = 0.92
#: A card that is not enrolled counts as this close to a corner (capped at the closest enrolled
#: corner's similarity, so a deck with only its jokers enrolled says nothing about the other
#: cards): about the most a card's twin in the other suit of its colour reaches (95th percentile
#: 0.841 over the held-out decks' corners, test frames 0-149). At 0.92 (CORNER_MATCH, as it was)
#: a corner 0.996 like the 2s the dealer had just taught still read 2c when the look hesitated.
UNSEEN_SIM = 0.85
#: Weight of the enrolled corners' evidence: log-probability added per unit of cosine similarity
#: behind the closest enrolled card (40: chosen on held-out test frames 0-149, corner by corner,
#: with the three held-out decks enrolled whole; benchmarks/eval_enroll.py --whole-deck)
CORNER_WEIGHT = 40.0
#: Probability given to an enrolled identity when a match overrules the classifier.
MATCH_PROB = 0.97
#: a corner whose index the classifier reads at least this surely keeps its card against a
#: whole-card template match (a held-out deck's ornate ace correlates with a joker's central art;
#: the index in its corner says which it is). 0.7 (was 0.9): at 0.9 the enrolled held-out
#: jokers named an As and a Ts JK on test frames 0-149 (their corners read 0.7-0.9), and no
#: joker is lost at 0.7 (benchmarks/eval_enroll.py --start 0 --n 150)
SURE_INDEX = 0.7

#: Label of the deck's BACK among the whole-card templates (a photo named ``BACK.jpg``).
BACK_LABEL = NONE
#: A box the detector calls a back is a face-up joker when its whole card correlates with an
#: enrolled joker at least :data:`CARD_MATCH` and by at least this much more than with the
#: enrolled back (a joker's patterned art can pass for a back; held-out backs correlate 0.7-0.8
#: with the held-out jokers' templates, so without the deck's back enrolled this is not tried)
BACK_MARGIN = 0.05

#: A corner the classifier cannot read (or reads as a name the deck's enrollment check doubts) is
#: named by this deck's own corners when the closest of them (cosine similarity, any enrolled
#: corner, read or not at enrollment) is a suited card's, at least :data:`CORNER_MATCH` close and
#: closer by this much than the closest corner of any other card or the joker
#: (:meth:`Deck.own_corner`). Where the classifier's embedding tells a deck's glyphs
#: apart, a card's right corner leads by a median of 0.035-0.06; where it does not (a thin
#: light typeface in an inset frame), every corner is within 0.005 of every other.
OWN_MARGIN = 0.02

#: The detector's joker score from which a box is its joker: the deck's own corners do not rename
#: it (:meth:`Deck.own_corner`), and a corner read as the deck's joker lifts a box's score to it.
JOKER_SAYS = 0.5

DECK_FILE = "deck.json"
REFS_FILE = "refs.npz"


def label_name(label: int) -> str:
    """The name of an enrolled label: a card (``Card.index`` order, ``JK``) or ``BACK``.

    >>> label_name(51), label_name(JK), label_name(BACK_LABEL)
    ('As', 'JK', 'BACK')
    """
    return "BACK" if int(label) == BACK_LABEL else str(Card.from_index(int(label)))


def label_of(name: str) -> int:
    """:func:`label_name` backwards.

    >>> label_of("As"), label_of("BACK")
    (51, 53)
    """
    return BACK_LABEL if name == "BACK" else Card.parse(name).index


def decks_root() -> Path:
    """``calibration/decks`` of the checkout (beside the package), else of the working folder."""
    here = Path(__file__).resolve().parent.parent.parent / "calibration" / "decks"
    return here if here.parent.is_dir() else Path("calibration") / "decks"


def deck_dir(name: str, root: str | Path | None = None) -> Path:
    """Folder of a deck: ``name`` itself when it is an existing folder path, else ROOT/name.

    >>> deck_dir("house-red", "/tmp/decks").as_posix()
    '/tmp/decks/house-red'
    >>> deck_dir("../x", "/tmp/decks")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: deck name '../x': use letters, digits, '-', '_' and '.' only
    """
    p = Path(name)
    if p.is_dir() and (p / DECK_FILE).is_file():
        return p
    if not name or not all(ch.isalnum() or ch in "-_." for ch in name) or name.startswith("."):
        raise UserError(_("deck name {name}: use letters, digits, '-', '_' and '.' only", name=typed(name)))
    return (Path(root) if root is not None else decks_root()) / name


def card_template(image: np.ndarray, ordered: np.ndarray) -> np.ndarray:
    """Whole-card appearance: the card rectified upright to 16x22, blurred, colour, zero-mean,
    unit-norm; shape (2, D) for the card's two ways up (the ordered polygon's top is arbitrary).

    >>> img = np.zeros((200, 200, 3), np.uint8); img[20:60, 20:40] = 255
    >>> t = card_template(img, geometry.order_card_polygon([[10, 10], [80, 10], [80, 108], [10, 108]]))
    >>> t.shape, round(float(np.linalg.norm(t[0])), 3)
    ((2, 1056), 1.0)
    """
    # sample at twice the size and shrink: a light anti-aliasing for small cards
    big = geometry.rectify_card(image, ordered, width=TEMPLATE_W * 2)
    big = cv2.resize(big, (TEMPLATE_W * 2, TEMPLATE_H * 2), interpolation=cv2.INTER_LINEAR)
    small = cv2.resize(big, (TEMPLATE_W, TEMPLATE_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    small = cv2.GaussianBlur(small, (0, 0), TEMPLATE_BLUR)
    out = []
    for v in (small, small[::-1, ::-1]):
        x = v.reshape(-1) - v.mean()
        out.append(x / (np.linalg.norm(x) + 1e-6))
    return np.stack(out)


def scaled_outlines(ordered: np.ndarray, scales: tuple[float, ...] = MATCH_SCALES) -> list[np.ndarray]:
    """The card outline with its width and height each scaled about the centre (perspective
    kept): the detector's box-size errors that template matching should absorb.

    >>> outs = scaled_outlines(np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float), (0.8, 1.0))
    >>> len(outs), outs[0].round(1).tolist()
    (4, [[1.0, 1.4], [9.0, 1.4], [9.0, 12.6], [1.0, 12.6]])
    """
    h = cv2.getPerspectiveTransform(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32),
                                    np.asarray(ordered, np.float32))
    out = []
    for sw in scales:
        for sh in scales:
            unit = np.array([[0.5 - sw / 2, 0.5 - sh / 2], [0.5 + sw / 2, 0.5 - sh / 2],
                             [0.5 + sw / 2, 0.5 + sh / 2], [0.5 - sw / 2, 0.5 + sh / 2]], np.float32)
            out.append(cv2.perspectiveTransform(unit[None], h)[0].astype(np.float64))
    return out


@dataclass
class Deck:
    """An enrolled deck, loaded for detection."""

    name: str
    folder: Path
    corner_emb: np.ndarray            # (K, D) unit vectors
    corner_label: np.ndarray          # (K,) card index 0..52
    corner_readable: np.ndarray       # (K,) bool: the classifier found an index there at enrollment
    card_tmpl: np.ndarray             # (M, D2) unit vectors (one way up; queries try both)
    card_label: np.ndarray            # (M,)
    info: dict = field(default_factory=dict)
    #: names never reported sure with this deck, each with the card it may be instead (None: no
    #: particular one): what its enrollment check saw the reader get wrong (:func:`check_doubts`)
    doubts: dict = field(default_factory=dict)

    @classmethod
    def session(cls, name: str = "session") -> "Deck":
        """An empty deck held in memory: what the dealer's corrections teach during a session
        (:meth:`CardDetector.learn`), never written to disk."""
        return cls(name=name, folder=Path("."), corner_emb=np.zeros((0, 0), np.float32),
                   corner_label=np.zeros(0, np.int64), corner_readable=np.zeros(0, bool),
                   card_tmpl=np.zeros((0, TEMPLATE_W * TEMPLATE_H * 3), np.float32),
                   card_label=np.zeros(0, np.int64), info={"name": name, "session": True})

    def add_corners(self, emb: np.ndarray, card: int, readable: np.ndarray) -> int:
        """Add corner embeddings (k, D) of card ``card`` (0..52) in memory; returns how many of
        them are readable (only those are compared)."""
        emb = np.asarray(emb, np.float32).reshape(len(readable), -1)
        if self.corner_emb.size == 0:
            self.corner_emb = np.zeros((0, emb.shape[1]), np.float32)
        self.corner_emb = np.concatenate([self.corner_emb, emb])
        self.corner_label = np.concatenate([self.corner_label, np.full(len(emb), int(card), np.int64)])
        self.corner_readable = np.concatenate([self.corner_readable, np.asarray(readable, bool)])
        return int(np.sum(readable))

    @property
    def cards(self) -> list[str]:
        """The cards with a whole-card view (``BACK`` last when the back is enrolled)."""
        return [label_name(i) for i in sorted(set(self.card_label.tolist()))]

    @property
    def tells_jokers_from_backs(self) -> bool:
        """Both its jokers and its back are enrolled (:meth:`joker_among_backs` can decide)."""
        return bool(np.any(self.card_label == BACK_LABEL) and np.any(self.card_label == JK))

    def joker_among_backs(self, image: np.ndarray, ordered: np.ndarray) -> float:
        """For a box the detector calls a back: its correlation with the enrolled jokers when it
        is a face-up joker by this deck's own jokers and back (:data:`BACK_MARGIN`), else 0."""
        if not self.tells_jokers_from_backs:
            return 0.0
        best = self.best_matches(image, ordered, (BACK_LABEL, JK))
        joker = best[JK]
        return joker if joker >= CARD_MATCH and joker >= best[BACK_LABEL] + BACK_MARGIN else 0.0

    def is_its_back(self, image: np.ndarray, ordered: np.ndarray) -> bool:
        """Whether the outline's whole card is this deck's enrolled back: it correlates with the
        back at least :data:`CARD_MATCH`, and more than with any enrolled card (False where the
        back is not enrolled)."""
        best = self.best_matches(image, ordered, tuple(range(NUM_CLASSES)))
        back = best.pop(BACK_LABEL, -1.0)
        return back >= CARD_MATCH and back > max(best.values(), default=-1.0)

    def best_matches(self, image: np.ndarray, ordered: np.ndarray, labels) -> dict[int, float]:
        """{label: best correlation of the outline's whole card with that label's enrolled
        views} for the enrolled ones of ``labels`` (the query templates are made once)."""
        keep = np.isin(self.card_label, np.asarray(labels))
        if not keep.any():
            return {}
        q = np.concatenate([card_template(image, v) for v in scaled_outlines(ordered)])   # (2V, D)
        sims = (self.card_tmpl[keep] @ q.T).max(axis=1)    # (M,)
        out: dict[int, float] = {}
        for lab, sim in zip(self.card_label[keep].tolist(), sims.tolist()):
            out[int(lab)] = max(out.get(int(lab), -1.0), float(sim))
        return out

    def adjust(self, image: np.ndarray, ordered: np.ndarray, probs: np.ndarray, emb: np.ndarray,
               joker_score: float) -> tuple[np.ndarray, float]:
        """The classifier's corner probabilities (2, 54) and the detector's joker score, revised
        by what this deck's enrolled cards look like."""
        probs = np.array(probs, np.float64, copy=True)
        sure = {int(p.argmax()) for p in probs if int(p.argmax()) != NONE and p.max() >= SURE_INDEX}
        # a corner sure of a card other than the joker keeps it: no need to look at the whole card
        joker = self.best_matches(image, ordered, (JK,)).get(JK, 0.0) if not sure or JK in sure else 0.0
        if joker >= CARD_MATCH:
            joker_score = max(joker_score, MATCH_PROB)
            one = np.full(NUM_CLASSES, (1.0 - MATCH_PROB) / (NUM_CLASSES - 1))
            one[JK] = MATCH_PROB
            probs[:] = one
            return probs, joker_score
        ok = self.corner_readable
        for k in range(len(probs)):
            unread = probs[k, NONE] >= 1.0 - READABLE
            if joker_score < JOKER_SAYS and (unread or label_name(int(probs[k, :NONE].argmax())) in self.doubts):
                # a glyph the classifier cannot read, or reads as a name its enrollment check saw
                # it give another of this deck's cards, on a box the detector does not take for a
                # joker: this deck's own corners decide
                own = self.own_corner(emb[k])
                if own is not None:
                    probs[k] = np.full(NUM_CLASSES, (1.0 - MATCH_PROB) / (NUM_CLASSES - 1))
                    probs[k, own] = MATCH_PROB
                    continue
            if unread or not ok.any():
                continue
            best = self.corner_similarity(emb[k])
            if best.max() < CORNER_MATCH and not np.any(self.corner_label[ok] == int(probs[k, :NONE].argmax())):
                continue   # nothing of this deck is close, and the classifier reads a card not enrolled
            probs[k] = corner_evidence(probs[k], best)
            if int(probs[k].argmax()) == JK and best[JK] >= CORNER_MATCH:
                joker_score = max(joker_score, JOKER_SAYS)
        return probs, joker_score

    def own_corner(self, emb: np.ndarray) -> int | None:
        """The suited card (0..51) whose enrolled corners, read by the classifier at enrollment or
        not, one corner's embedding ``emb`` is closest to, when at least :data:`CORNER_MATCH` close
        and :data:`OWN_MARGIN` closer than to any other card's, the joker's among them; None
        otherwise, and for a deck not enrolled whole (every suited card: only then is "closer than
        any other card" a test). Where the classifier cannot read a deck's index (French R, D and
        V; a typeface it never met), the corners the floor manager enrolled still tell the deck's
        cards apart. A corner closest to the joker's is left to the joker's own rules (its whole
        card, :meth:`adjust`).

        >>> deck = Deck.session()
        >>> deck.corner_emb, deck.corner_label = np.eye(53, dtype=np.float32), np.arange(53)
        >>> deck.corner_readable = np.zeros(53, bool)
        >>> near5, between = np.zeros(53, np.float32), np.zeros(53, np.float32)
        >>> near5[[5, 9]] = 0.99, 0.1
        >>> between[[5, 9]] = 0.95, 0.94
        >>> near_joker = np.zeros(53, np.float32); near_joker[[5, 52]] = 0.96, 0.95
        >>> deck.own_corner(near5), deck.own_corner(between), deck.own_corner(near_joker)
        (5, None, None)
        >>> deck.corner_label = np.r_[np.arange(13), np.arange(13), np.arange(26, 53)]   # no diamonds
        >>> deck.own_corner(near5) is None
        True
        """
        if len(np.unique(self.corner_label[self.corner_label < JK])) < JK:
            return None
        best = self._closest(emb, np.ones(len(self.corner_label), bool))
        top = int(best.argmax())
        first = float(best[top])
        best[top] = -np.inf
        ok = top != JK and first >= CORNER_MATCH and first - float(best.max()) >= OWN_MARGIN
        return top if ok else None

    def corner_similarity(self, emb: np.ndarray) -> np.ndarray:
        """Per card (53: 52 cards and JK) the cosine similarity of ``emb`` to the closest enrolled
        readable corner of that card; a card not enrolled gets :data:`UNSEEN_SIM`, capped at the
        closest enrolled corner's similarity (it is never ahead of what the deck shows)."""
        best = self._closest(emb, self.corner_readable)
        top = float(best.max())
        best[np.isinf(best)] = min(UNSEEN_SIM, top)
        return best

    def _closest(self, emb: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Per card (53: 52 cards and JK) the cosine similarity of ``emb`` to its closest enrolled
        corner among ``rows`` (a mask of the enrolled corners); -inf for a card with none."""
        best = np.full(NONE, -np.inf)
        sims = self.corner_emb[rows] @ np.asarray(emb, np.float32)
        np.maximum.at(best, self.corner_label[rows], sims.astype(np.float64))
        return best


def corner_evidence(probs: np.ndarray, best_sim: np.ndarray, weight: float = CORNER_WEIGHT) -> np.ndarray:
    """One corner's 54 probabilities weighed with an enrolled deck's similarities (53 values, from
    :meth:`Deck.corner_similarity`): each card's log-probability gets ``weight`` x (its similarity -
    the best similarity); P(none) is kept.

    >>> p = np.full(NUM_CLASSES, 0.001); p[3], p[2] = 0.7, 0.25; p /= p.sum()   # 2s 0.7, 2h 0.25
    >>> sims = np.full(NONE, 0.5); sims[2], sims[3] = 0.97, 0.90              # the deck's 2h is closer
    >>> out = corner_evidence(p, sims)
    >>> int(out.argmax()), round(float(out.sum()), 6), round(float(out[NONE]), 6) == round(float(p[NONE]), 6)
    (2, 1.0, True)
    >>> int(corner_evidence(p, np.full(NONE, 0.9)).argmax())                  # no preference: unchanged
    3
    """
    p = np.asarray(probs, np.float64)
    card_mass = 1.0 - p[NONE]
    logit = np.log(p[:NONE] + 1e-9) + weight * (np.asarray(best_sim, np.float64) - float(np.max(best_sim)))
    logit -= logit.max()
    q = np.exp(logit)
    out = np.empty(NUM_CLASSES)
    out[:NONE] = q / q.sum() * card_mass
    out[NONE] = p[NONE]
    return out


#: The ranks whose name rests on the index alone: the layout check (:mod:`layout`) counts a
#: number card's pips and sees an ace's one sign, but a jack, a queen and a king are one picture to
#: it, so nothing but the index tells them apart.
COURT_RANKS = "".join(r.symbol for r in (Rank.JACK, Rank.QUEEN, Rank.KING))


def check_doubts(check: dict | None) -> dict[str, str | None]:
    """The names a reader cannot be sure of with this deck, from its enrollment check
    (:func:`dealer_assist.vision.enroll.check_summary`: how the reader without the deck read the
    close, sharp enrollment photos), each with the name the card may be instead (None where no
    particular one). The table is read from farther and worse, so what the reader got wrong there
    it can get wrong at the table, in the other suits too:

    * a name it gave another card (the 8s read on the Js) may be that card;
    * a rank misread (J as 8) is the index's glyph, the same in every suit: every name of the rank
      read (8) may be the card of the rank shown (the J of its suit);
    * a suit misread (a club as a spade) is the suit sign, the same on every rank: every name of
      the suit read may be the same rank of the suit shown;
    * a court card's index it misread as another rank or could not read (``??``) is a glyph the
      reader does not know, and a court's rank rests on its index alone (:data:`COURT_RANKS`):
      every court name is in doubt; a number card's or an ace's unread index puts its own rank in
      doubt.

    A joker read as a card puts that name in doubt (or ``JK``); a card read as a joker, the joker.
    A malformed entry is a :class:`ValueError` (the deck file is damaged).

    >>> d = check_doubts({"wrong": [{"card": "Js", "read": "8s", "sure": True}], "unreadable": []})
    >>> d["8s"], d["8h"], d["8c"], d["Js"], d["Kd"], "9s" in d
    ('Js', 'Jh', 'Jc', None, None, False)
    >>> d = check_doubts({"wrong": [{"card": "3d", "read": "3c", "sure": False}], "unreadable": ["Qs"]})
    >>> d["3c"], d["Kc"], d["Qd"], d["Jh"], "3d" in d, "Th" in d
    ('3d', 'Kd', None, None, False, False)
    >>> check_doubts({"wrong": [{"card": "JK", "read": "Qh", "sure": False}], "unreadable": ["7c"]})
    {'Qh': 'JK', '7c': None, '7d': None, '7h': None, '7s': None}
    >>> check_doubts(None), check_doubts({"wrong": [], "unreadable": []})
    ({}, {})
    """
    out: dict[str, str | None] = {}
    if not check:
        return out
    if not isinstance(check, dict):
        raise ValueError("the enrollment check is not an object")

    def name(text: object) -> str:
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a card name")
        card = Card.parse(text)
        return "JK" if card.is_joker else str(card)

    def put(card: str, other: str | None) -> None:
        if card not in out or (out[card] is None and other is not None):
            out[card] = other

    wrong = check.get("wrong") or []
    unreadable = check.get("unreadable") or []
    if not isinstance(wrong, list) or not isinstance(unreadable, list):
        raise ValueError("the enrollment check's lists are not lists")
    pairs = []
    for w in wrong:
        if not isinstance(w, dict):
            raise ValueError(f"{w!r} is not a misreading")
        pairs.append((name(w.get("card")), name(w.get("read"))))
    for shown, read in pairs:              # the very names first: their "or" is the card itself
        put(read, shown)
    suited = [(shown, read) for shown, read in pairs if "JK" not in (shown, read)]
    for shown, read in suited:
        if shown[0] != read[0]:
            for s in Suit:
                put(read[0] + s.symbol, shown[0] + s.symbol)
        if shown[1] != read[1]:
            for r in Rank:
                put(r.symbol + read[1], r.symbol + shown[1])
    unknown = [card for card in map(name, unreadable) if card != "JK"]
    unknown += [shown for shown, read in suited if shown[0] in COURT_RANKS and read[0] != shown[0]]
    for card in unknown:
        ranks = COURT_RANKS if card[0] in COURT_RANKS else card[0]
        for r in ranks:
            for s in Suit:
                put(r + s.symbol, None)
    return out


def doubts_listed(doubts: dict[str, str | None]) -> object:
    """The doubted names (:attr:`Deck.doubts`) as the dealer reads them: in card order, joined
    with commas, or "every card" where all 52 are.

    >>> print(doubts_listed({"Kh": "Qh", "8s": "Js", "JK": None}))
    8s, Kh, JK
    """
    names = sorted(doubts, key=lambda c: Card.parse(c).index)
    return _("every card") if len(names) >= 52 else ", ".join(names)


def save_deck(folder: Path, info: dict, corner_emb: np.ndarray, corner_label: np.ndarray,
              corner_readable: np.ndarray, card_tmpl: np.ndarray, card_label: np.ndarray) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(folder / REFS_FILE, corner_emb=corner_emb.astype(np.float32),
                        corner_label=corner_label.astype(np.int16),
                        corner_readable=corner_readable.astype(bool),
                        card_tmpl=card_tmpl.astype(np.float32), card_label=card_label.astype(np.int16))
    (folder / DECK_FILE).write_text(json.dumps(info, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_deck(name: str, root: str | Path | None = None) -> Deck:
    """Load an enrolled deck; :class:`UserError` naming what is missing."""
    folder = deck_dir(name, root)
    if not (folder / DECK_FILE).is_file():
        raise UserError(_("deck {name} is not enrolled (no {path}); enroll it with: "
                          "dealer-assist enroll-deck {deck} IMAGES...", name=typed(name),
                          path=folder / DECK_FILE, deck=name))
    try:
        info = json.loads((folder / DECK_FILE).read_text(encoding="utf-8"))
        z = np.load(folder / REFS_FILE)
        deck = Deck(name=info.get("name", name), folder=folder,
                    corner_emb=z["corner_emb"].astype(np.float32),
                    corner_label=z["corner_label"].astype(np.int64),
                    corner_readable=z["corner_readable"].astype(bool),
                    card_tmpl=z["card_tmpl"].astype(np.float32),
                    card_label=z["card_label"].astype(np.int64), info=info,
                    doubts=check_doubts(info.get("check")))
        n = len(deck.corner_label)
        if (deck.corner_emb.shape[0] != n or len(deck.corner_readable) != n or len(deck.card_tmpl) != len(deck.card_label)
                or np.any((deck.corner_label < 0) | (deck.corner_label > JK))
                or np.any((deck.card_label < 0) | (deck.card_label > BACK_LABEL))):
            raise ValueError("its card labels or the rows of its references do not match")
        return deck
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UserError(_("deck {name} in {folder} is damaged ({why}); enroll it again", name=typed(name),
                          folder=folder, why=file_reason(exc))) from None
