"""Stage 4: the card named from its layout, never its index (runtime: numpy + ONNX Runtime only).

The corner classifier names a card from its two index corners, and the look (:mod:`look`) checks
the kind and the suit on the whole card, indices included. A misread index in a typeface never
seen (a 9 taken for a 3, a 10 for a 4 or an 8) or a club sign taken for a spade could still be
shown as sure, because nothing checked the name against anything but the index it was read
from. This small CNN sees the same rectified whole card as the look with its four index corners
hidden (:func:`hide_indices`) and says what the LAYOUT shows: one large sign (an ace), two to ten
pips in their places, or a picture (a jack, queen or king: the art does not tell them apart
across decks, so they are one class), and which suit the pips or the signs beside the picture
are. It is independent of the index: it never sees the typeface, only the pips.

:meth:`CardDetector.sureness` multiplies a name's sureness by the layout's agreement
(:func:`name_agreement`): its probability of the name's class over that of the class it finds
most likely, a number card's and an ace's by rank and colour, a court card's by colour. A 4c
read on the ten of clubs loses its sureness, since the card shows ten pips; a card whose layout
the model cannot make out (mostly covered, blurred) loses little, except a number card in full
view, whose count the layout must see (:data:`LAYOUT_SEES`). It
is trained on the project's rendered cards only (``python -m dealer_assist.vision.train_layout``,
``scripts/train-cpu-layout.sh``), with the same network as the corner classifier and the look.

>>> rank_class("Tc"), rank_class("Ah"), rank_class("Qs"), RANK_GROUPS[rank_class("7d")]
(9, 0, 10, '7')
>>> layout_class("Tc"), LAYOUT_CLASSES[layout_class("Qs")], LAYOUT_CLASSES[layout_class("JK")], rank_class("JK")
(36, 'court-s', 'joker', None)
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from dealer_assist.i18n import _
from dealer_assist.vision.classifier import JK, class_name, class_of
from dealer_assist.vision.look import LOOK_H, LOOK_W, PatchClassifier

#: What a layout can show: the ace, the number cards by rank, and the court cards together.
RANK_GROUPS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "court")
#: Suits in the order of ``Card.index % 4`` (and of the look's classes).
SUITS = "cdhs"
#: Output classes: each rank group in each suit (``layout_class`` = group x 4 + suit), then the
#: joker and what is no face card at all (the table, clutter, a back).
LAYOUT_CLASSES = tuple(f"{g}-{s}" for g in RANK_GROUPS for s in SUITS) + ("joker", "none")
SUITED = len(RANK_GROUPS) * len(SUITS)
JOKER_CLASS, NONE_CLASS = SUITED, SUITED + 1
#: File name inside a model folder (optional: without it no layout check is made).
LAYOUT_FILE = "card-layout.onnx"
_GROUP_OF = {"A": 0, **{str(n): n - 1 for n in range(2, 10)}, "T": 9, "J": 10, "Q": 10, "K": 10}

#: The share of the patch's width and height hidden at each corner by :func:`hide_indices`: the
#: index (rank and suit sign) of every deck the renderer draws, jumbo ones too, lies inside.
INDEX_W, INDEX_H = 0.2, 0.25


def rank_class(card: str) -> int | None:
    """The rank group of a two-letter card name (None for the joker and ``??``)."""
    return _GROUP_OF.get(card[:1]) if card not in ("JK", "??") and len(card) == 2 else None


def layout_class(card: str) -> int | None:
    """The layout output class of a two-letter card name or ``JK`` (None for ``??``)."""
    if card == "JK":
        return JOKER_CLASS
    g = rank_class(card)
    return None if g is None or card[1] not in SUITS else g * 4 + SUITS.index(card[1])


COURT = RANK_GROUPS.index("court")
#: The rank groups of the number cards 2 to 10, whose layouts are counts of pips.
_FIRST_COUNT, _LAST_COUNT = RANK_GROUPS.index("2"), RANK_GROUPS.index("T")
#: The least probability the layout must give a number card's count (its two classes of the
#: name's colour together) for a card with both index corners in view (:func:`number_agreement`'s
#: ``whole``). Chosen looking at two sets: below it lay 5 of the 2,996 sure right names of 2 to 10
#: with both indices in view of six validation sets, and 11 of the 12 wrong names of sureness
#: over 0.5 (one of them sure) that Debian's decks, never trained on, showed so: courts read as
#: numbers (models/MODEL_CARD.md, "Fifty-fourth session").
LAYOUT_SEES = 0.3
#: The court classes of each colour: what :func:`court_agreement` merges.
_COURT_COLOURS = ({COURT * 4 + SUITS.index(s) for s in "dh"}, {COURT * 4 + SUITS.index(s) for s in "cs"})


def number_agreement(probs: np.ndarray, name: str, covered: bool = False, whole: bool = False) -> float:
    """The layout's agreement with a number card's or an ace's name checked for its rank and its
    colour: its probabilities with each rank group's two classes of one colour added together
    (diamonds with hearts, clubs with spades), the name's over the largest. The layout counts pips
    and tells red from black well, but its guess between the two suits of a colour was right on
    about seven cards in ten on its validation frames (models.json ``layout.validation``), and it
    doubted right names more than it caught wrong ones, as it did on court cards
    (:func:`court_agreement`); the suit is checked by the corners and by the look's suit share
    (models/MODEL_CARD.md, "Twenty-seventh session").

    Where ``covered`` (the card shows one index corner, most often one half under another), a
    count one pip more or less of the same colour agrees too: the layout then sees only some of
    the pips, and its commonest doubt on a right name is the next count (an 8 it takes for a 7).
    The wrong names the layout must catch are other colours and other shapes (a 4 on a ten, a 7
    on an ace), which still disagree; an index misread by one (a 9 read as an 8) would not, so a
    card with both index corners in view keeps the full count (models/MODEL_CARD.md, "Seventeenth
    session"). An ace (one large sign) has no neighbour.

    Where ``whole`` (both index corners show an index: the whole face is in view), the layout must
    see the count the name says: a count of 2 to 10 it gives less than :data:`LAYOUT_SEES` (its two
    classes of the name's colour together) agrees not at all, however unsure the layout is of
    anything else. A face that shows no count the layout can make out, both indices in view, is a
    picture: another deck's queen whose Q the corners read as a 10 (models/MODEL_CARD.md,
    "Fifty-fourth session"). A card with one index in view keeps the ratio alone: half of it may
    lie under another card.

    >>> p = np.zeros(len(LAYOUT_CLASSES)); p[layout_class("7h")] = 0.5; p[layout_class("8h")] = 0.3
    >>> p[layout_class("8d")] = 0.15; p[layout_class("Ts")] = 0.05
    >>> [round(number_agreement(p, n), 2) for n in ("7d", "7h", "8d", "Ts", "7s")]
    [1.0, 1.0, 0.9, 0.1, 0.0]
    >>> [round(number_agreement(p, n, covered=True), 2) for n in ("9h", "6d", "5h", "8c")]
    [0.9, 1.0, 0.0, 0.0]
    >>> q = np.full(len(LAYOUT_CLASSES), 0.02); q[layout_class("Td")] = 0.12; q[layout_class("Qd")] = 0.08
    >>> q /= q.sum(); round(number_agreement(q, "Td"), 2), number_agreement(q, "Td", whole=True)
    (1.0, 0.0)
    >>> r = np.zeros(len(LAYOUT_CLASSES)); r[layout_class("Ad")] = 0.2; r[layout_class("9c")] = 0.1
    >>> number_agreement(p, "7d", whole=True), number_agreement(r, "Ad", whole=True)   # an ace: one sign
    (1.0, 1.0)
    """
    probs = np.asarray(probs, np.float64)
    groups = probs[:SUITED].reshape(len(RANK_GROUPS), len(SUITS))
    by_colour = np.stack([groups[:, [SUITS.index("d"), SUITS.index("h")]].sum(axis=1),
                          groups[:, [SUITS.index("c"), SUITS.index("s")]].sum(axis=1)], axis=1)
    g, colour = rank_class(name), 0 if name[1] in "dh" else 1
    near = [g]
    if covered and _FIRST_COUNT <= g <= _LAST_COUNT:
        near = [r for r in (g - 1, g, g + 1) if _FIRST_COUNT <= r <= _LAST_COUNT]
    if whole and _FIRST_COUNT <= g <= _LAST_COUNT and float(by_colour[g, colour]) < LAYOUT_SEES:
        return 0.0
    top = max(float(by_colour.max()), float(probs[SUITED:].max()) if len(probs) > SUITED else 0.0, 1e-9)
    return max(float(by_colour[r, colour]) for r in near) / top


#: The share of a face's layout probability that its picture or its one large sign (the court
#: classes and the ace classes together) must reach for a name of 2 to 10 on a card in full view
#: to be left unnamed (:func:`no_count_share`; ``steps.numbers_on_pictures``): half the layout's
#: probability, more than all the counts of pips together.
NO_COUNT = 0.5
#: The classes that show no count of pips: the aces' and the courts' of each suit.
_NO_COUNT_CLASSES = [RANK_GROUPS.index(g) * 4 + k for g in ("A", "court") for k in range(len(SUITS))]
#: The rank group (:data:`RANK_GROUPS`) of each of the corner classifier's 52 cards, in its class
#: order (:func:`group_weights`).
_CARD_GROUPS = np.array([_GROUP_OF[class_name(i)[0]] for i in range(JK)])


def no_count_share(probs: np.ndarray) -> float:
    """The layout's probability that a face shows no count of pips at all: a court picture or an
    ace's one large sign, of any suit (the ace and court classes together).

    >>> p = np.zeros(len(LAYOUT_CLASSES)); p[layout_class("Qs")] = 0.4; p[layout_class("Ad")] = 0.2
    >>> p[layout_class("Ts")] = 0.4; round(no_count_share(p), 2)
    0.6
    """
    return float(np.asarray(probs, np.float64)[_NO_COUNT_CLASSES].sum())


def picture_agreement(probs: np.ndarray) -> float:
    """The layout's agreement with a court card of either colour and any suit: its four court
    classes added together, their sum over the largest of that sum and the other classes. Asked of
    a court that shows one index corner (:func:`name_agreement`'s ``covered``), whose colour the
    card on top of it may set.

    >>> p = np.zeros(len(LAYOUT_CLASSES)); p[layout_class("Kh")] = 0.3; p[layout_class("Qc")] = 0.3
    >>> p[layout_class("3d")] = 0.4
    >>> picture_agreement(p), round(court_agreement(p, "Kc"), 2)
    (1.0, 0.75)
    >>> p[layout_class("3d")] = 2.4; round(picture_agreement(p), 2)
    0.25
    """
    probs = np.asarray(probs, np.float64)
    courts = [COURT * 4 + k for k in range(len(SUITS))]
    total = float(probs[courts].sum())
    others = np.delete(probs, courts)
    return total / max(total, float(others.max()) if len(others) else 0.0, 1e-9)


def court_agreement(probs: np.ndarray, name: str) -> float:
    """The layout's agreement with a court card's name checked for its colour only: its
    probabilities with each colour's two court classes added together, the named colour's sum
    over the largest. A red court the layout takes for a court of the other red suit agrees
    fully; one it takes for a black court, or for a number card, does not.

    >>> p = np.zeros(len(LAYOUT_CLASSES)); p[layout_class("Kh")] = 0.55; p[layout_class("Kd")] = 0.45
    >>> court_agreement(p, "Kd"), round(court_agreement(p, "Ks"), 2)
    (1.0, 0.0)
    >>> p[layout_class("9c")] = 2.0; round(court_agreement(p, "Qd"), 2)
    0.5
    """
    probs = np.asarray(probs, np.float64)
    merged = probs.copy()
    for group in _COURT_COLOURS:
        idx = sorted(group)
        merged[idx] = 0.0
        merged[idx[0]] = float(probs[idx].sum())
    c = layout_class(name)
    own = next(sorted(g)[0] for g in _COURT_COLOURS if c in g)
    return float(merged[own] / max(float(merged.max()), 1e-9))


def group_weights(probs: np.ndarray) -> np.ndarray:
    """How well each of the 53 identities of the corner classifier (52 cards in its class order,
    then the joker) fits what the layout sees: the layout's probability of the identity's rank
    group (one ace sign, a count of 2 to 10 pips, a picture), its four suits together, so the
    suit stays the corners' and the court-suit reader's to judge. The layout is trained with its
    classes weighted alike, so these are likelihoods up to one factor: Bayes' rule may multiply a
    posterior by them. A layout without a joker class (:data:`SUITED` outputs) cannot rule the
    joker out, so the joker takes the weight of the likeliest group.

    >>> from dealer_assist.vision.classifier import class_of
    >>> p = np.zeros(len(LAYOUT_CLASSES)); p[layout_class("Kh")] = 0.6; p[layout_class("9c")] = 0.3
    >>> p[layout_class("9s")] = 0.1
    >>> w = group_weights(p)
    >>> [round(float(w[class_of(n)]), 2) for n in ("Qs", "Kd", "9h", "5c", "JK")]
    [0.6, 0.6, 0.4, 0.0, 0.0]
    >>> round(float(group_weights(p[:SUITED])[class_of("JK")]), 2)     # a layout with no joker class
    0.6
    """
    probs = np.asarray(probs, np.float64)
    groups = probs[:SUITED].reshape(len(RANK_GROUPS), len(SUITS)).sum(axis=1)
    joker = float(probs[LAYOUT_CLASSES.index("joker")]) if len(probs) > SUITED else float(groups.max())
    return np.append(groups[_CARD_GROUPS], joker)


def court_posterior(post: np.ndarray, probs: np.ndarray, name: str) -> float:
    """The posterior of a court card's name (``post``: the corners' posterior over the 53
    identities, :func:`classifier.card_posterior`) once the layout's view of the card
    (``probs``) is weighed in by Bayes' rule (:func:`group_weights`): the corners read a letter,
    the layout sees a picture or pips with the index hidden, so each is taken as independent
    evidence. A real deck's queen whose Q the corners also half take for a 9 or a 6 (0.92 to the
    queen, the rest on counts of its suit) is a queen when the card shows a picture and no pips.
    Its suit is untouched: a K♠ the corners half take for the K♣ stays as doubtful, since both
    show a picture. Used for the sureness only (:meth:`CardDetector.sureness_parts`), never to
    name the card.

    >>> from dealer_assist.vision.classifier import class_of
    >>> post = np.full(53, 0.001); post[class_of("Qs")] = 0.92; post[class_of("9s")] = 0.04
    >>> post[class_of("Qc")] = 0.04 - 50 * 0.001
    >>> picture = np.full(len(LAYOUT_CLASSES), 0.002); picture[layout_class("Qs")] = 0.9
    >>> pips = np.full(len(LAYOUT_CLASSES), 0.002); pips[layout_class("9s")] = 0.9
    >>> round(court_posterior(post, picture, "Qs"), 3), round(court_posterior(post, pips, "Qs"), 3)
    (0.999, 0.158)
    """
    q = np.asarray(post, np.float64) * group_weights(probs)
    total = float(q.sum())
    return float(q[class_of(name)] / total) if total > 0.0 else 0.0


def hide_indices(patches: np.ndarray) -> np.ndarray:
    """Copies of whole-card patches (N, H, W, 3) with the four corners, where the indices are,
    painted the card's paper colour (each patch's median): the layout classifier must count the
    pips, never read the index the corner classifier already read.

    >>> p = np.full((1, LOOK_H, LOOK_W, 3), 250, np.uint8); p[0, :5, :5] = 0; p[0, 39, 28] = 0
    >>> q = hide_indices(p); int(q[0, 0, 0, 0]), int(q[0, 39, 28, 0])
    (250, 0)
    """
    x = np.array(patches, np.uint8, copy=True)
    if not len(x):
        return x
    h, w = x.shape[1:3]
    cw, ch = int(round(w * INDEX_W)), int(round(h * INDEX_H))
    paper = np.median(x.reshape(len(x), -1, 3), axis=1).astype(np.uint8)[:, None, None, :]
    for ys in (slice(0, ch), slice(h - ch, h)):
        for xs in (slice(0, cw), slice(w - cw, w)):
            x[:, ys, xs] = paper
    return x


class LayoutClassifier(PatchClassifier):
    """The exported layout CNN: BGR uint8 whole-card patches (N, LOOK_H, LOOK_W, 3) in (the look's
    patches; :meth:`probs` hides their indices), probabilities (N, 46) in
    :data:`LAYOUT_CLASSES` order out, or (N, 44) for a model of the suited classes alone."""

    what = _("card layout classifier")
    classes = LAYOUT_CLASSES

    def classes_for(self, outputs) -> tuple[str, ...]:
        """The 46 classes, or the 44 suited ones alone for a model of those (the first layout
        model, shipped: it has no word on a joker, so a ``JK``'s agreement is 1.0)."""
        return LAYOUT_CLASSES[:SUITED] if outputs == SUITED else LAYOUT_CLASSES

    def probs(self, patches: np.ndarray) -> np.ndarray:
        """The layout's class probabilities (N, 44 or 46) of whole-card patches, their indices
        hidden (:func:`hide_indices`)."""
        return self(hide_indices(patches)).astype(np.float64)


def name_agreement(probs: np.ndarray, name: str, covered: bool = False, whole: bool = False) -> float:
    """How far the layout agrees with a name (suited or ``JK``), from one patch's layout
    probabilities (:meth:`LayoutClassifier.probs`): its probability of the name's class over that
    of its most probable class, so 1.0 where the name is what the pips show most, and small only
    where they show another card (a ten's pips under a 4 read from the index); 1.0 for a name the
    model has no class for. A layout that cannot tell (a card mostly covered, a blurred one)
    takes little from a name; one that sees another card takes much.

    A number card or an ace is checked for its rank and colour, not its suit
    (:func:`number_agreement`), and where ``covered`` (the card shows one index corner, not two)
    its count may be one pip off: the card hides some of its pips. Where ``whole`` (both index
    corners show an index) a count of 2 to 10 must be seen at least :data:`LAYOUT_SEES`.

    A court card is checked for its colour, not its suit (:func:`court_agreement`): with the
    indices hidden, a real deck's court shows its suit only in a sign a few pixels wide beside
    the picture, and the layout's guess between diamonds and hearts, or clubs and spades,
    doubted right names without catching wrong ones (models/MODEL_CARD.md, "Fifteenth session").
    A court showing one index corner (``covered``) is checked for a picture only, of either
    colour (:func:`picture_agreement`): half under another card, its patch holds some of the
    card on top, whose colour the layout may take for the court's, while its suit is checked by
    the corners, the look and the court-suit reader at the end in view. A picture it must still
    see: a box between two cards whose one corner read a queen showed a 3's pips, and the layout
    alone kept it from being sure (models/MODEL_CARD.md, "Twenty-second session").

    >>> p = np.full(len(LAYOUT_CLASSES), 0.01); p[layout_class("Tc")] = 0.5; p[layout_class("Kh")] = 0.3
    >>> p /= p.sum()
    >>> [round(name_agreement(p, n), 2) for n in ("Tc", "Ts", "Th", "4c", "JK", "Kd")]
    [1.0, 1.0, 0.04, 0.04, 0.02, 0.62]
    >>> [round(name_agreement(p, n, covered), 2) for n, covered in (("9c", False), ("9c", True), ("8c", True))]
    [0.04, 1.0, 0.04]
    >>> round(name_agreement(p, "Ks"), 2), round(name_agreement(p, "Ks", covered=True), 2)   # it sees a red court
    (0.04, 0.66)
    """
    c = layout_class(name)
    if c is None or c >= len(probs):
        return 1.0
    g = rank_class(name)
    if g == COURT:
        return picture_agreement(probs) if covered else court_agreement(probs, name)
    if g is not None:
        return number_agreement(probs, name, covered, whole)
    return float(probs[c] / max(float(np.max(probs)), 1e-9))


def load_layout(model_dir: str | Path) -> LayoutClassifier | None:
    """The folder's layout model, or None when it has none."""
    path = Path(model_dir) / LAYOUT_FILE
    return LayoutClassifier(path) if path.is_file() else None
