"""The card reader's run-time rules as steps over one list of candidates (issue 20, item 4).

Runtime: numpy + OpenCV + ONNX Runtime only (no training stack, no games, no Qt).

:meth:`CardDetector.detect <dealer_assist.vision.detector.CardDetector.detect>` turns a frame into
:class:`Candidates`, one row per box the detector found (the boxes it kept, and the ``spare``
face boxes that NMS or the score threshold set aside), then runs the steps of :data:`STEPS` named
in :attr:`DetectorSettings.steps <dealer_assist.vision.detector.DetectorSettings.steps>` in order.
Each step is a small function ``step(reader, image, candidates) -> candidates``: it may name a
row, change its role (``face``, ``back``, ``spare``), move its scores, or drop rows, and nothing
else. A new rule is one function here and one entry in :data:`STEPS`; no step reaches into
another. ``benchmarks/eval_rules.py`` measures each optional step on the real photos and the
rendered validation sets (the model card keeps the figures).

The columns (:class:`Candidates`): ``boxes`` (N, 5) ``cx, cy, w, h, angle`` in frame pixels,
``scores`` (N, 3) the detector's face/back/joker scores, ``outlines`` (N, 4, 2) each box's ordered
outline (NaN for a spare box until the rescue reads it), ``role``, ``name`` ('' until named), ``confidence``, ``source`` (``detector``,
``rescue``: a spare box that became a card, ``back-joker``: a back box that is a face-up joker),
and ``data``: per-row extras the steps share (the corner readings a name rests on, its posterior,
what the look said), filled by the step that knows them.

>>> c = Candidates.new(np.array([[10, 10, 6, 8, 0], [50, 10, 6, 8, 0]], float),
...                    np.array([[0.9, 0.0, 0.1], [0.0, 0.8, 0.0]]), ["face", "back"])
>>> len(c), c.role.tolist(), c.of("back").tolist()
(2, ['face', 'back'], [1])
>>> c[c.role == "face"].boxes[:, 0].tolist()
[10.0]
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from dealer_assist.cards import HIDDEN
from dealer_assist.errors import Worded
from dealer_assist.i18n import _, typed
from dealer_assist.vision import geometry
from dealer_assist.vision.classifier import JK, NONE, READABLE, card_posterior, class_of, name_from_posterior
from dealer_assist.vision.focus import side_widths
from dealer_assist.vision.look import BACK as LOOK_BACK
from dealer_assist.vision.look import FACE as LOOK_FACE
from dealer_assist.vision.look import JOKER as LOOK_JOKER
from dealer_assist.vision.look import look_patch
from dealer_assist.vision.look import kinds as look_kinds
from dealer_assist.vision.look import suits as look_suits
from dealer_assist.vision.layout import NO_COUNT, no_count_share

if TYPE_CHECKING:  # pragma: no cover
    from dealer_assist.vision.detector import CardDetector

__all__ = ["Candidates", "Step", "STEPS", "STEP_NAMES", "DEFAULT_STEPS", "OPTIONAL_STEPS", "pipeline",
           "FACE_ROLE", "BACK_ROLE", "SPARE_ROLE"]

#: detector classes (YOLO label ids), as :mod:`detector` names them
FACE, BACK, JOKER_CLS = 0, 1, 2
FACE_ROLE, BACK_ROLE, SPARE_ROLE = "face", "back", "spare"
#: the order in which cards of each source are reported
SOURCE_ORDER = ("detector", "rescue", "back-joker")
#: ranks whose centre shows a picture, not pips (rows of the (13, 4) suit term: 2..A)
COURT_RANKS = (9, 10, 11)


@dataclass
class Candidates:
    """One frame's boxes as columns, every column indexed alike (a boolean mask or an index array
    selects rows of all of them, as ``supervision.Detections`` does)."""

    boxes: np.ndarray
    scores: np.ndarray
    outlines: np.ndarray
    role: np.ndarray
    name: np.ndarray
    confidence: np.ndarray
    source: np.ndarray
    #: per-row extras, each an array of N rows: ``corners`` (N, 2, 54) and ``embedding`` (N, 2, D)
    #: the readings each name rests on, ``corners_box``/``embedding_box`` what the box itself read
    #: (before the search), ``searched`` (N,) bool, ``post`` (N,) object: (posterior over the 53
    #: identities, corner visibility, face score, joker score) or None, ``look`` (N,) object: the
    #: look's outputs for the row's outline or None, ``layout`` (N,) object: the layout's outputs
    #: for it or None, ``shown`` (N,) object: the outline to report when a step snapped it to the
    #: card's edges
    data: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def new(cls, boxes: np.ndarray, scores: np.ndarray, roles: Sequence[str]) -> "Candidates":
        n = len(boxes)
        roles = list(roles)
        # a spare box's outline is worked out only if the rescue reads it (most are not read)
        outlines = np.full((n, 4, 2), np.nan)
        for k, b in enumerate(boxes):
            if roles[k] != SPARE_ROLE:
                outlines[k] = geometry.order_card_polygon(geometry.polygon_from_obb(b))
        return cls(boxes=np.asarray(boxes, np.float64).reshape(n, 5), scores=np.asarray(scores, np.float64).reshape(n, 3),
                   outlines=outlines, role=np.array(roles, dtype=object).reshape(n),
                   name=np.array([""] * n, dtype=object), confidence=np.zeros(n),
                   source=np.array(["detector"] * n, dtype=object))

    def __len__(self) -> int:
        return len(self.boxes)

    def __getitem__(self, rows) -> "Candidates":
        return Candidates(self.boxes[rows], self.scores[rows], self.outlines[rows], self.role[rows],
                          self.name[rows], self.confidence[rows], self.source[rows],
                          {k: v[rows] for k, v in self.data.items()})

    def of(self, role: str) -> np.ndarray:
        """The indices of the rows in ``role``."""
        return np.flatnonzero(self.role == role)

    def column(self, key: str, tail: tuple[int, ...] = (), fill: Any = None, dtype: Any = object) -> np.ndarray:
        """The extra column ``key``, made (every row ``fill``) when no step has made it yet."""
        if key not in self.data:
            col = np.empty((len(self), *tail), dtype=dtype)
            col[...] = fill
            self.data[key] = col
        return self.data[key]

    def posterior(self, k: int) -> float:
        """The posterior of row ``k``'s name (0 for ``??`` and for a name that rests on none).
        Where an enrolled deck (or the dealer's corrections) weighed into the reading, the lower
        of that and the posterior of the same name read without the deck (``post0``,
        :func:`name_row`): the ``sure`` thresholds were measured on the reading without one, and
        a deck's corners sharpen a posterior by an amount no validation set measured (a blurred
        fanned 3s of a deck never drawn here, read as the deck's Js at 0.994 against 0.859
        without it; models/MODEL_CARD.md, "Forty-fifth session")."""
        post = self.data["post"][k] if "post" in self.data else None
        if self.name[k] == HIDDEN or post is None:
            return 0.0
        p = float(post[0][class_of(self.name[k])])
        generic = self.data["post0"][k] if "post0" in self.data else None
        return p if generic is None else min(p, float(generic[0][class_of(self.name[k])]))


#: a step: (the reader, the BGR frame, the candidates) -> the candidates
StepFn = Callable[["CardDetector", np.ndarray, Candidates], Candidates]


@dataclass(frozen=True, slots=True)
class Step:
    """One rule of the pipeline: its name (``DetectorSettings.steps`` lists names), the function,
    whether a reading without it is still a reading (``optional``; the core steps read and name
    the boxes) and whether it runs unless asked not to (``default``)."""

    name: str
    run: StepFn
    optional: bool = True
    default: bool = True
    doc: str = ""


# -- the steps ---------------------------------------------------------------------------------
def faces_among_backs(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """A back box whose corner reads an index at least ``back_index`` surely is a face (a back
    shows no index; the back class takes some card and joker art it never trained on for a
    back): its score moves to the face class, or the joker class for the joker's index."""
    idx = c.of(BACK_ROLE)
    if not len(idx):
        return c
    p, _ = reader._corner_readings(image, list(c.outlines[idx]))
    sure = corner_sureness(p)
    for k, i in enumerate(idx):
        best = int(sure[k].argmax())
        if sure[k, best] >= reader.settings.back_index:
            _face_up(c, i, JOKER_CLS if int(p[k, best, :NONE].argmax()) == JK else FACE)
    return c


def _face_up(c: Candidates, i: int, to: int) -> None:
    """Back box ``i`` is a face box: its best detector score moves to class ``to`` (face or joker),
    the others to 0."""
    top = c.scores[i].max()
    c.scores[i] = 0.0
    c.scores[i, to] = top
    c.role[i] = FACE_ROLE


def faces_by_look(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """A back box that the whole-card look takes for a suited card (a face is its likeliest kind,
    over a back, a joker and no card) is a face box, read and named like any other: its box score
    moves to the face class. The detector's back class takes court art it never trained on for a
    back where the figure fills the card edge to edge with no frame: a face-up king reported as a
    face-down card, which nobody is asked about. A back design the look takes for a face is read
    by its corners, which find no index there: ``??``, a card the dealer is asked about; a deck
    enrolled with its back keeps such backs (:meth:`Deck.is_its_back
    <dealer_assist.vision.decks.Deck.is_its_back>`; models/MODEL_CARD.md, "Forty-seventh
    session")."""
    idx = c.of(BACK_ROLE)
    if reader.look is None or not len(idx):
        return c
    kind = look_kinds(_look(reader, image, c, idx))
    deck = reader.deck
    for k, i in enumerate(idx):
        if int(kind[k].argmax()) == LOOK_FACE and not (deck is not None and deck.is_its_back(image, c.outlines[i])):
            _face_up(c, i, FACE)
    return c


def read_corners(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """Both index corners of every face box read from its outline (the corner classifier)."""
    idx = c.of(FACE_ROLE)
    if not len(idx):
        return c
    p, e = reader._corner_readings(image, list(c.outlines[idx]))
    for key, val in (("corners", p), ("embedding", e), ("corners_box", p), ("embedding_box", e)):
        c.column(key, val.shape[1:], 0.0, np.float64)[idx] = val
    return c


def search(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """A face box with no corner read at least ``sure_enough`` surely has both corners cut again
    from ``read_variants`` of its box (moved, turned); per corner the reading most sure of an
    index wins when at least ``search_accept`` sure: it makes up for the detector's box errors."""
    idx = c.of(FACE_ROLE)
    if not len(idx) or "corners" not in c.data:
        return c
    st = reader.settings
    variants = [(float(s), 0.0, 0.0, 0.0) for s in st.tta_scales] + [tuple(float(x) for x in v) for v in st.read_variants]
    (p, e), _, searched = reader._read_corners(image, list(c.outlines[idx]), variants,
                                               (c.data["corners_box"][idx], c.data["embedding_box"][idx]))
    c.data["corners"][idx], c.data["embedding"][idx] = p, e
    c.column("searched", (), False, bool)[idx] = searched
    return c


def name_row(reader: "CardDetector", image: np.ndarray, c: Candidates, k: int,
             suit_llr: np.ndarray | None = None) -> None:
    """Name row ``k`` from its corners, the detector's scores, an enrolled deck and a suit term:
    its ``name``, ``confidence`` and ``post`` (what the name rests on)."""
    st = reader.settings
    pk, ek = c.data["corners"][k], c.data["embedding"][k]
    face_s, joker_s = float(c.scores[k][FACE]), float(c.scores[k][JOKER_CLS])
    if reader.deck is not None:
        # the reading without the deck too: what the sure thresholds were measured on
        generic, gvis = card_posterior(pk, face_s, joker_s, suit_llr, st.joker_prior_max)
        c.column("post0")[k] = (generic, gvis, face_s, joker_s)
        pk, joker_s = reader.deck.adjust(image, c.outlines[k], pk, ek, joker_s)
    post, vis = card_posterior(pk, face_s, joker_s, suit_llr, st.joker_prior_max)
    c.column("post")[k] = (post, vis, face_s, joker_s)
    c.name[k], c.confidence[k] = name_from_posterior(post, vis, face_s, joker_s, st.min_identity)


def name(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """Every face box named from its corners and the detector's scores (``??`` when neither corner
    shows an index and it does not look like a joker to the detector, or when no name is likely
    enough: ``min_identity``)."""
    for k in c.of(FACE_ROLE):
        name_row(reader, image, c, int(k))
    return c


def searched_twice(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """One deck holds each card once: a name that only the search found and that another, separate
    box bears too is most likely that card's index seen past this card's corner (a fanned hand):
    the box keeps what its own box reads."""
    if "searched" not in c.data or not c.data["searched"].any():
        return c
    faces = c.of(FACE_ROLE)
    sim = gaussian_iou(c.boxes[faces], c.boxes[faces])
    names = [c.name[i] for i in faces]
    for a, k in enumerate(faces):
        if not c.data["searched"][k] or names[a] == HIDDEN:
            continue
        if any(names[b] == names[a] and sim[a, b] < reader.settings.same_card_iou for b in range(len(faces)) if b != a):
            c.data["corners"][k], c.data["embedding"][k] = c.data["corners_box"][k], c.data["embedding_box"][k]
            name_row(reader, image, c, int(k))
            names[a] = c.name[k]
    return c


def _readable(c: Candidates, rows: np.ndarray) -> np.ndarray:
    if not len(rows):
        return np.zeros(0, bool)
    return (1.0 - c.data["corners"][rows][:, :, NONE]).max(axis=1) >= READABLE


def _look(reader: "CardDetector", image: np.ndarray, c: Candidates, rows: Sequence[int]) -> np.ndarray:
    """The look's outputs for ``rows`` (asked once per row and kept: ``data["look"]``)."""
    col = c.column("look")
    ask = [int(k) for k in rows if col[k] is None]
    if ask:
        out = reader.look(np.stack([look_patch(image, c.outlines[k]) for k in ask]))
        for k, p in zip(ask, out):
            col[k] = p
    return np.stack([col[k] for k in rows])


def look_jokers(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """The whole-card look on a face box whose corners read no index: an unnamed one that looks
    like a joker (``look_joker``) is ``JK``; one the detector's joker score alone names ``JK`` that
    looks like a suited card (``look_not_joker``) is ``??``, one that looks like a back
    (``look_back_not_joker``) is a back, and one that the look does not take for a joker at least
    ``look_joker`` surely either is ``??``: a picture the size of a card (a print, a note, a
    book's cover) sets off the detector's joker class, as a joker without an index does, and only
    the look tells them apart (models/MODEL_CARD.md, "Seventeenth session")."""
    if reader.look is None or "corners" not in c.data:
        return c
    st = reader.settings
    faces = c.of(FACE_ROLE)
    ask = [int(k) for k, ok in zip(faces, _readable(c, faces)) if not ok and c.name[k] in (HIDDEN, "JK")]
    if not ask:
        return c
    kind = look_kinds(_look(reader, image, c, ask))
    for j, k in enumerate(ask):
        det = float(max(c.scores[k][FACE], c.scores[k][JOKER_CLS]))
        if c.name[k] == HIDDEN and kind[j, LOOK_JOKER] >= st.look_joker:
            c.name[k], c.confidence[k] = "JK", det * float(kind[j, LOOK_JOKER])
        elif c.name[k] == "JK" and kind[j, LOOK_FACE] >= st.look_not_joker:
            c.name[k], c.confidence[k] = HIDDEN, c.confidence[k] * (1.0 - float(kind[j, LOOK_FACE]))
        elif c.name[k] == "JK" and kind[j, LOOK_BACK] >= st.look_back_not_joker:
            c.role[k] = BACK_ROLE
        elif c.name[k] == "JK" and kind[j, LOOK_JOKER] < st.look_joker:
            c.name[k], c.confidence[k] = HIDDEN, c.confidence[k] * (1.0 - float(kind[j, LOOK_JOKER]))
    return c


def look_sure(weight: float) -> float:
    """The posterior from which a card's name cannot be moved by a suit term of ``weight`` (each
    suit's probability clipped to 0.01..0.99, so the term moves a log-odds by at most ``weight``
    x log 99): such a card is not shown to the look for its suit.

    >>> round(look_sure(1.0), 4), round(look_sure(2.0), 6)
    (0.99, 0.999898)
    """
    return 1.0 - 1.0 / (1.0 + 99.0 ** weight)


def look_suit(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """The suit a suited card's centre shows weighed into its corners' reading: weight
    ``look_suit`` for A to 10 (pips), ``look_suit_court`` for J, Q, K (a picture), times the look's
    P(a suited card). A name already :func:`look_sure` sure is not asked: the clipped term cannot
    move it to another card."""
    st = reader.settings
    w = max(st.look_suit, st.look_suit_court)
    if reader.look is None or w <= 0 or "corners" not in c.data:
        return c
    sure = look_sure(w)
    faces = c.of(FACE_ROLE)
    generic = c.data.get("post0")       # with a deck: the reading without it is asked alike

    def unsure(k: int) -> bool:
        return float(c.data["post"][k][0].max()) < sure or (
            generic is not None and generic[k] is not None and float(generic[k][0].max()) < sure)

    ask = [int(k) for k, ok in zip(faces, _readable(c, faces)) if ok and c.name[k] not in (HIDDEN, "JK") and unsure(int(k))]
    if not ask:
        return c
    p = _look(reader, image, c, ask)
    kind, suit = look_kinds(p), look_suits(p)
    rank_w = np.full((JK // 4, 1), st.look_suit)
    rank_w[list(COURT_RANKS)] = st.look_suit_court
    for j, k in enumerate(ask):
        s_k = np.clip(suit[j], 0.01, 0.99)
        name_row(reader, image, c, k, rank_w * float(kind[j, LOOK_FACE]) * np.log(4.0 * s_k / s_k.sum()))
    return c


def one_deck(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """One deck holds each card once: of two separate boxes read as the same card, the less sure
    is named again from its own posterior without the cards the frame's other boxes bear, when
    that posterior gave the card it then names at least ``one_deck_alt`` (a second card that
    surely reads the same stays a duplicate for the dealer to see). Jokers are not renamed."""
    st = reader.settings
    faces = c.of(FACE_ROLE)
    if not len(faces) or "post" not in c.data:
        return c
    named = one_deck_names([(c.name[k], float(c.confidence[k])) for k in faces], [c.data["post"][k] for k in faces],
                           c.boxes[faces], st.one_deck_alt, st.same_card_iou, st.min_identity)
    for k, (n, conf) in zip(faces, named):
        c.name[k], c.confidence[k] = n, conf
    return c


def rescue(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """Fanned cards: a spare face box (set aside by NMS or the score threshold, scoring at least
    ``rescue_conf``) that is clear of every kept box's echo and whose corner reads, at least
    ``rescue_sure`` surely, a card no other box in the frame is named, is that card."""
    st = reader.settings
    spare = c.of(SPARE_ROLE)
    kept = np.flatnonzero(c.role != SPARE_ROLE)
    if len(kept) and len(spare):
        spare = spare[gaussian_iou(c.boxes[spare], c.boxes[kept]).max(axis=1) < st.rescue_same]
    if not len(spare):
        return c[kept]
    spare = spare[nms_rotated(c.boxes[spare], c.scores[spare].max(axis=1), st.rescue_nms)[:st.rescue_max]]
    for i in spare:
        c.outlines[i] = geometry.order_card_polygon(geometry.polygon_from_obb(c.boxes[i]))
    polys = list(c.outlines[spare])
    probs, emb = reader._corner_readings(image, polys)
    sure_c = corner_sureness(probs)
    sure = sure_c.max(axis=1)
    faces = c.of(FACE_ROLE)
    taken = {c.name[k] for k in faces}
    sim = gaussian_iou(c.boxes[spare], c.boxes[spare])
    # the index corners already read, and their ranks: a spare box reading one of them again (a
    # box askew on a card already named) is that card
    face_probs = c.data["corners"][faces] if "corners" in c.data and len(faces) else np.zeros((0, 2, NONE + 1))
    seen_at = np.array([p for k in faces for p in geometry.index_centres(c.outlines[k])]).reshape(-1, 2)
    seen_rank = face_probs[:, :, :JK].argmax(axis=2).reshape(-1) // 4
    seen_ok = face_probs[:, :, NONE].reshape(-1) < 0.5
    seen_at, seen_rank = seen_at[seen_ok], seen_rank[seen_ok]
    got: list[int] = []
    for k in np.argsort(-sure, kind="stable"):
        if sure[k] < st.rescue_sure:
            break
        if got and sim[k, got].max() > st.iou:
            continue
        corner = int(sure_c[k].argmax())
        at = geometry.index_centres(polys[k])[corner]
        rank = int(probs[k, corner, :JK].argmax()) // 4
        near = np.linalg.norm(seen_at - at, axis=1) < st.rescue_apart * float(geometry.edge_lengths(polys[k]).min())
        if np.any(near & (seen_rank == rank)):
            continue
        i = spare[k]
        pk, face_s, joker_s = probs[k], float(c.scores[i][FACE]), float(c.scores[i][JOKER_CLS])
        if reader.deck is not None:
            generic, gvis = card_posterior(pk, face_s, joker_s, joker_prior_max=st.joker_prior_max)
            c.column("post0")[i] = (generic, gvis, face_s, joker_s)
            pk, joker_s = reader.deck.adjust(image, polys[k], pk, emb[k], joker_s)
        post, vis = card_posterior(pk, face_s, joker_s, joker_prior_max=st.joker_prior_max)
        # the name rests on the corner, not on the box's weak score: its confidence is the
        # corner's sureness x the posterior
        n, conf = name_from_posterior(post, vis, float(sure[k]), 0.0, st.min_identity)
        if n in (HIDDEN, "JK") or n in taken:
            continue
        taken.add(n)
        got.append(int(k))
        seen_at, seen_rank = np.concatenate([seen_at, at[None]]), np.append(seen_rank, rank)
        c.role[i], c.source[i], c.name[i], c.confidence[i] = FACE_ROLE, "rescue", n, conf
        c.column("post")[i] = (post, vis, face_s, joker_s)
        c.column("look")[i] = None
    return c[np.concatenate([kept, spare[got]]).astype(np.int64)]


def refine_outline(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """Each face card's outline snapped to its own edges in the full-resolution frame
    (:func:`geometry.refine_card_polygon`) is the one reported (opt-in)."""
    faces = c.of(FACE_ROLE)
    if not len(faces):
        return c
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    shown, looked = c.column("shown"), c.column("look")
    for k in faces:
        shown[k] = geometry.order_card_polygon(geometry.refine_card_polygon(gray, c.outlines[k]))
        looked[k] = None         # the look was asked about the box's outline, not this one
    return c


def jokers_among_backs(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """A back box that is a face-up joker showing no index (one that shows it is a face box
    already): by an enrolled deck's own jokers and back, or by the look: the odd back out (it
    looks like a joker at least ``odd_back_joker`` and its whole card matches none of the frame's
    other backs at ``odd_back_match``; one deck, one back design) or any back (``look_back_joker``,
    off by default). Its name rests on no posterior: never sure."""
    idx = [int(i) for i in c.of(BACK_ROLE)]
    out: dict[int, float] = {}
    deck = reader.deck
    if deck is not None:      # the deck's own jokers against its own back (decks.BACK_MARGIN)
        for i in idx:
            sim = deck.joker_among_backs(image, c.outlines[i])
            if sim > 0.0:
                out[i] = float(c.scores[i].max()) * sim
    st = reader.settings
    # a deck that knows its own jokers and back has decided: the odd back out is weaker evidence
    odd = len(idx) >= 2 and not (deck is not None and deck.tells_jokers_from_backs)
    floor = min(st.look_back_joker, st.odd_back_joker if odd else 2.0)
    if reader.look is not None and floor <= 1.0 and idx:
        kind = look_kinds(_look(reader, image, c, idx))
        for k, i in enumerate(idx):
            pj = float(kind[k, LOOK_JOKER])
            if i in out or pj < floor:
                continue
            if pj >= st.look_back_joker or (odd and odd_back(reader, image, c.outlines, i, [j for j in idx if j != i])):
                out[i] = float(c.scores[i].max()) * pj
    for i, conf in out.items():
        c.role[i], c.source[i], c.name[i], c.confidence[i] = FACE_ROLE, "back-joker", "JK", conf
        c.column("post")[i] = None
        if "post0" in c.data:
            c.data["post0"][i] = None
    return c


def odd_back(reader: "CardDetector", image: np.ndarray, outlines: np.ndarray, i: int, others: list[int]) -> bool:
    """Whether box ``i``'s whole card matches none of the ``others`` (the frame's other back
    boxes; one deck, one back design) at ``odd_back_match`` or more."""
    from dealer_assist.vision.decks import card_template, scaled_outlines

    q = np.concatenate([card_template(image, v) for v in scaled_outlines(outlines[i])])   # (2V, D)
    refs = np.concatenate([card_template(image, outlines[j]) for j in others])           # (2N, D)
    return float((refs @ q.T).max()) < reader.settings.odd_back_match


def merge_same_card(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """Two overlapping boxes (Gaussian IoU at least ``same_card_iou``) read as the same card are
    one card seen twice: the weaker box goes, unless its two ends disagree and one reads a card
    the frame does not hold yet (:func:`_under_card`): then it is that card."""
    faces = [int(k) for k in report_order(c)]
    if len(faces) < 2:
        return c
    sim = gaussian_iou(c.boxes[faces], c.boxes[faces])
    order = sorted(range(len(faces)), key=lambda a: -round(float(c.confidence[faces[a]]), 3))
    dropped: set[int] = set()
    for pos, a in enumerate(order):
        if a in dropped or c.name[faces[a]] == HIDDEN:
            continue
        for b in order[pos + 1:]:
            if b not in dropped and c.name[faces[b]] == c.name[faces[a]] and sim[a, b] >= reader.settings.same_card_iou:
                other = _under_card(reader, c, faces[a], faces[b], {str(c.name[k]) for k in faces})
                if other is None:
                    dropped.add(b)
                else:
                    i = faces[b]
                    c.name[i], c.confidence[i], c.column("post")[i] = other
                    if "post0" in c.data:        # read from its own corners, without the deck
                        c.data["post0"][i] = other[2]
                    c.column("look")[i] = None     # asked about the name it had
    keep = np.ones(len(c), bool)
    keep[[faces[b] for b in dropped]] = False
    return c[keep]


#: An unreadable box this much of whose outline named cards cover shows nothing else
#: (:func:`unreadable_within_named`)
GHOST_COVERED = 0.9


def unreadable_within_named(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """An unreadable box (``??``) whose outline the frame's named cards cover for at least
    :data:`GHOST_COVERED` of its area shows nothing they do not show: it is dropped. Two cards of
    a hand lying across each other make a card-shaped region at right angles to both, and the
    detector boxes it too, most often at low resolution (a 1080p view of the whole table); the
    dealer was asked about an unreadable card that is not there, and the hand waited for it. A
    card really there with both indices covered still shows a tenth of itself beside them."""
    faces = [int(k) for k in report_order(c)]
    named = [k for k in faces if c.name[k] != HIDDEN]
    drop = [k for k in faces if c.name[k] == HIDDEN and named
            and covered_share(c.outlines[k], [c.outlines[j] for j in named]) >= GHOST_COVERED]
    if not drop:
        return c
    keep = np.ones(len(c), bool)
    keep[drop] = False
    return c[keep]


def _reported_outline(c: Candidates, k: int) -> np.ndarray:
    """Row ``k``'s outline as ``detect`` reports it (:func:`card_dicts`): the one a step snapped
    to the card's edges where one did, else its box's."""
    shown = c.data.get("shown")
    return shown[k] if shown is not None and shown[k] is not None else c.outlines[k]


def _both_corners(vis) -> bool:
    """Whether both of a card's index corners show an index, as its box's own corners read them
    (``_vis_box``; ``_vis`` where the card carries no such reading): the box lies on the card and
    its whole face is in view, so the layout must see the count of a number card's name
    (:func:`layout.number_agreement`'s ``whole``; :func:`numbers_on_pictures`). A box whose
    corners only the search's moved crops read lies off its card, and its whole-card patch is no
    view of the face. False where not read.

    >>> _both_corners([0.9, 0.99]), _both_corners([0.97, 0.08]), _both_corners(None)
    (True, False, False)
    """
    return vis is not None and len(vis) == 2 and min(float(v) for v in vis) >= READABLE


#: The ranks whose face :func:`numbers_on_pictures` asks the layout about: four pips or more. A two
#: or a three is a few signs on white paper, which the layout took for an ace's sign or a picture
#: on 5 of the 7 such cards it saw so that were named right (models/MODEL_CARD.md, "Fifty-fifth
#: session").
COUNTED_RANKS = "456789T"


def numbers_on_pictures(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """A card named 4 to 10 (:data:`COUNTED_RANKS`) whose box's own corners both show an index (its
    whole face in view) and whose layout (:mod:`layout`, never the index) shows no count of pips
    but a court picture or an ace's one large sign (:func:`layout.no_count_share` at least
    :data:`layout.NO_COUNT`) is left unnamed (``??``) for the dealer to name: the face
    contradicts the index read. Other decks' indices are read as numbers this way: a queen's Q
    taken for a 10, a Russian deck's ace (Т) for a ten, a German jack's B for an 8. Named again
    from the layout and the corners they were right one time in three, and a doubtful name is one
    key away from being confirmed; an unnamed card cannot be confirmed unread
    (models/MODEL_CARD.md, "Fifty-fifth session"). The layout is asked about every named card at
    once and its outputs are kept (``data["layout"]``) for the sureness, which then asks it
    nothing more: one call of the model a frame, as before this step."""
    if reader.layout is None or "corners_box" not in c.data:
        return c
    named = [int(k) for k in c.of(FACE_ROLE) if str(c.name[k]) not in ("", HIDDEN)]
    if not any(str(c.name[k])[:1] in COUNTED_RANKS for k in named):
        return c
    probs = reader.layout.probs(np.stack([look_patch(image, _reported_outline(c, k)) for k in named]))
    col = c.column("layout")
    for k, p in zip(named, probs):
        col[k] = p
        name, share = str(c.name[k]), no_count_share(p)
        if (name[:1] in COUNTED_RANKS and len(name) == 2 and share >= NO_COUNT
                and _both_corners(1.0 - c.data["corners_box"][k][:, NONE])):
            c.name[k], c.confidence[k] = HIDDEN, c.confidence[k] * (1.0 - share)
    return c


#: A back box this near the frame's edge (pixels) is one the frame may cut (:func:`backs_at_frame_edge`)
EDGE_PX = 3
#: ... and is kept only where at least this many of its sides show a card's outline: a card the
#: frame cuts shows most of it (18 of the held-out test's 21 real backs at the edge showed 3 or 4)
EDGE_BACK_SIDES = 3


def backs_at_frame_edge(reader: "CardDetector", image: np.ndarray, c: Candidates) -> Candidates:
    """A back box at the frame's edge (within :data:`EDGE_PX`) is dropped when fewer than
    :data:`EDGE_BACK_SIDES` of its sides show the brightness step of a card's outline
    (:func:`focus.side_widths`). The detector was taught cards the frame cuts, so at the edge it
    takes the corner of a sheet of paper, a floor tile or a strip of wood for the part of a back
    it can see, and a camera's sensor noise makes that likelier (the real photos under noise of 12
    levels: 24 backs on no card instead of 7, 9 of them such parts at the edge). A real card the
    frame cuts still shows its outline where it lies in the frame. Backs within the frame are left
    alone: one on other cards may show two sides or fewer (7 % of the held-out test's, 19 % of
    ``val-world``'s; models/MODEL_CARD.md, "Fifty-third session")."""
    idx = c.of(BACK_ROLE)
    if not len(idx):
        return c
    h, w = image.shape[:2]
    o = c.outlines[idx]
    edge = ((o[..., 0].min(axis=1) < EDGE_PX) | (o[..., 1].min(axis=1) < EDGE_PX)
            | (o[..., 0].max(axis=1) > w - 1 - EDGE_PX) | (o[..., 1].max(axis=1) > h - 1 - EDGE_PX))
    if not edge.any():
        return c
    rows = idx[edge]
    shown = np.isfinite(side_widths(image, c.outlines[rows])).sum(axis=1)
    keep = np.ones(len(c), bool)
    keep[rows[shown < EDGE_BACK_SIDES]] = False
    return c[keep]


def covered_share(outline: np.ndarray, others: list[np.ndarray]) -> float:
    """The share of an outline's area that the union of ``others`` covers (on a pixel grid).

    >>> sq = lambda x0, y0, w, h: np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], float)
    >>> round(covered_share(sq(0, 0, 40, 60), [sq(0, 0, 40, 30), sq(0, 30, 40, 30)]), 2)
    1.0
    >>> round(covered_share(sq(0, 0, 40, 60), [sq(0, 0, 40, 30)]), 1), covered_share(sq(0, 0, 40, 60), [])
    (0.5, 0.0)
    """
    p = np.asarray(outline, np.float64)
    lo = np.floor(p.min(axis=0))
    size = np.ceil(p.max(axis=0) - lo).astype(int) + 2
    own = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(own, [np.round(p - lo).astype(np.int32)], 1)
    area = int(own.sum())
    if not area or not others:
        return 0.0
    cover = np.zeros_like(own)
    for o in others:
        cv2.fillPoly(cover, [np.round(np.asarray(o, np.float64) - lo).astype(np.int32)], 1)
    return float((own & cover).sum()) / area


def _under_card(reader: "CardDetector", c: Candidates, a: int, b: int, taken: set[str]) -> tuple[str, float, tuple] | None:
    """Box ``b``, named as box ``a`` is and over it: the (name, confidence, ``post`` entry) of
    another card ``b`` is, or None when it is ``a``'s card seen twice. One deck holds each card once, so two
    overlapping boxes named alike are one card seen twice, or two cards one of them misnamed.
    ``b`` is another card when its two ends disagree: one reads the shared name, the other a
    card no box of the frame bears, which that end alone names at least ``min_identity`` surely.
    A card of a fan whose index lies under the card above it, its box reaching onto that card,
    reads so; and so does a card whose own index the corner model misreads at one end (a real
    deck's queen read as a nine at one end and a queen at the other, beside the nine)."""
    if "corners" not in c.data or "post" not in c.data or c.name[a] == "JK":
        return None
    st = reader.settings
    shared = class_of(str(c.name[a]))
    pb = c.data["corners"][b]
    for end in (0, 1):
        if int(pb[end, :NONE].argmax()) != shared or int(pb[1 - end, :NONE].argmax()) == shared:
            continue
        alone = pb.copy()
        alone[end] = 0.0
        alone[end, NONE] = 1.0           # that end read as showing no index of its own
        _, _, face_s, joker_s = c.data["post"][b]
        post, vis = card_posterior(alone, face_s, joker_s, joker_prior_max=st.joker_prior_max)
        name, conf = name_from_posterior(post, vis, face_s, joker_s, st.min_identity)
        if name not in (HIDDEN, "JK") and name not in taken:
            return name, conf, (post, vis, face_s, joker_s)
    return None


def report_order(c: Candidates) -> np.ndarray:
    """The face rows in the order they are reported: the detector's, then rescued, then jokers
    among the backs, each in row order."""
    faces = c.of(FACE_ROLE)
    return faces[np.argsort([SOURCE_ORDER.index(s) for s in c.source[faces]], kind="stable")]


#: Every step, in the order they run. The core steps (not optional) read and name the boxes; the
#: others are rules that ``benchmarks/eval_rules.py`` measures one by one.
STEPS: tuple[Step, ...] = (
    Step("faces_among_backs", faces_among_backs),
    Step("faces_by_look", faces_by_look),
    Step("read_corners", read_corners, optional=False),
    Step("search", search),
    Step("name", name, optional=False),
    Step("searched_twice", searched_twice),
    Step("look_jokers", look_jokers),
    Step("look_suit", look_suit),
    Step("one_deck", one_deck),
    Step("refine_outline", refine_outline, default=False),
    Step("rescue", rescue),
    Step("jokers_among_backs", jokers_among_backs),
    Step("merge_same_card", merge_same_card),
    Step("unreadable_within_named", unreadable_within_named),
    Step("numbers_on_pictures", numbers_on_pictures),
    Step("backs_at_frame_edge", backs_at_frame_edge),
)
STEP_NAMES = tuple(s.name for s in STEPS)
DEFAULT_STEPS = tuple(s.name for s in STEPS if s.default)
OPTIONAL_STEPS = tuple(s.name for s in STEPS if s.optional and s.default)
#: the steps that ask the whole-card look (off with ``--no-look`` or without ``card-look.onnx``)
LOOK_STEPS = ("faces_by_look", "look_jokers", "look_suit", "jokers_among_backs")


class StepError(Worded, ValueError):
    """A step name that is no step (a :class:`ValueError`; its words in each language)."""

    def __init__(self, message: object):
        super().__init__(self._words(message))


def pipeline(names: Sequence[str]) -> tuple[Step, ...]:
    """The steps named, in :data:`STEPS`' order, the core steps always among them; a name that is
    no step is a :class:`StepError` (a :class:`ValueError`) naming the steps.

    >>> [s.name for s in pipeline(["rescue", "search"])]
    ['read_corners', 'search', 'name', 'rescue']
    >>> pipeline(["resque"])
    Traceback (most recent call last):
    ...
    dealer_assist.vision.steps.StepError: no reader step 'resque'; the steps are faces_among_backs, faces_by_look, read_corners, search, name, searched_twice, look_jokers, look_suit, one_deck, refine_outline, rescue, jokers_among_backs, merge_same_card, unreadable_within_named, numbers_on_pictures, backs_at_frame_edge
    """
    wanted = set(names)
    unknown = sorted(wanted - set(STEP_NAMES))
    if unknown:
        raise StepError(_("no reader step {name}; the steps are {steps}", name=typed(unknown[0]),
                          steps=", ".join(STEP_NAMES)))
    return tuple(s for s in STEPS if s.name in wanted or not s.optional)


# -- shared helpers ----------------------------------------------------------------------------
def corner_sureness(probs: np.ndarray) -> np.ndarray:
    """How surely a corner reading shows an index: P(not none) x the best index's probability
    (over the last axis of ``probs``).

    >>> p = np.zeros((2, 54)); p[0, 5] = 0.9; p[0, 53] = 0.1; p[1, 53] = 1.0
    >>> corner_sureness(p).round(2).tolist()
    [0.81, 0.0]
    """
    return (1.0 - probs[..., NONE]) * probs[..., :NONE].max(axis=-1)


def gaussian_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Rotated-box similarity (probabilistic IoU over Gaussian boxes, the measure ultralytics'
    OBB NMS uses). ``a`` (N, 5), ``b`` (M, 5) -> (N, M) in [0, 1]."""
    def cov(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        w2, h2 = x[:, 2] ** 2 / 12.0, x[:, 3] ** 2 / 12.0
        cos, sin = np.cos(x[:, 4]), np.sin(x[:, 4])
        return w2 * cos ** 2 + h2 * sin ** 2, w2 * sin ** 2 + h2 * cos ** 2, (w2 - h2) * cos * sin

    eps = 1e-7
    a1, b1, c1 = (v[:, None] for v in cov(a))
    a2, b2, c2 = (v[None, :] for v in cov(b))
    x1, y1 = a[:, 0][:, None], a[:, 1][:, None]
    x2, y2 = b[:, 0][None, :], b[:, 1][None, :]
    t1 = (((a1 + a2) * (y1 - y2) ** 2 + (b1 + b2) * (x1 - x2) ** 2)
          / ((a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps)) * 0.25
    t2 = (((c1 + c2) * (x2 - x1) * (y1 - y2)) / ((a1 + a2) * (b1 + b2) - (c1 + c2) ** 2 + eps)) * 0.5
    t3 = np.log(((a1 + a2) * (b1 + b2) - (c1 + c2) ** 2)
                / (4.0 * np.sqrt(np.clip(a1 * b1 - c1 ** 2, 0, None) * np.clip(a2 * b2 - c2 ** 2, 0, None)) + eps)
                + eps) * 0.5
    bd = np.clip(t1 + t2 + t3, eps, 100.0)
    hd = np.sqrt(1.0 - np.exp(-bd) + eps)
    return 1.0 - hd


def nms_rotated(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Greedy NMS over oriented boxes; returns kept indices, best first.

    >>> boxes = np.array([[100, 100, 60, 84, 0.0], [102, 101, 60, 84, 0.02], [300, 100, 60, 84, 0.0]])
    >>> nms_rotated(boxes, np.array([0.9, 0.8, 0.7]), iou_threshold=0.7).tolist()
    [0, 2]
    """
    if len(boxes) == 0:
        return np.zeros(0, np.int64)
    order = np.argsort(-scores, kind="stable")
    sim = gaussian_iou(boxes[order], boxes[order])
    keep: list[int] = []
    suppressed = np.zeros(len(order), bool)
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(int(order[i]))
        suppressed |= sim[i] > iou_threshold
    return np.array(keep, np.int64)


def one_deck_names(named: list[tuple[str, float]], posts: list, boxes: np.ndarray, min_alt: float,
                   same_iou: float, min_identity: float) -> list[tuple[str, float]]:
    """:func:`one_deck` on plain lists: ``named`` (name, confidence) per face box again, where two
    separate boxes (Gaussian IoU below ``same_iou``; closer ones are one card seen twice, which
    :func:`merge_same_card` settles) bear the same card. ``posts[k]`` = (posterior over the 53
    identities, corner visibility, face score, joker score).

    >>> post = np.zeros(53); post[class_of("As")] = 0.7; post[class_of("Ac")] = 0.3
    >>> sure = np.zeros(53); sure[class_of("As")] = 1.0
    >>> posts = [(sure, np.ones(2), 0.9, 0.0), (post, np.ones(2), 0.9, 0.0)]
    >>> boxes = np.array([[100, 100, 60, 84, 0.0], [600, 300, 60, 84, 0.0]])
    >>> [n for n, _ in one_deck_names([("As", 0.9), ("As", 0.63)], posts, boxes, 0.05, 0.2, 0.5)]
    ['As', 'Ac']
    >>> [n for n, _ in one_deck_names([("As", 0.9), ("As", 0.63)], posts[:1] * 2, boxes, 0.05, 0.2, 0.5)]
    ['As', 'As']
    """
    by_name: dict[str, list[int]] = {}
    for k, (n, _step) in enumerate(named):
        if n not in (HIDDEN, "JK"):
            by_name.setdefault(n, []).append(k)
    if all(len(ks) < 2 for ks in by_name.values()):
        return named
    sim = gaussian_iou(boxes, boxes)
    out = list(named)
    taken = [class_of(n) for n in by_name]
    for ks in by_name.values():
        ks = sorted(ks, key=lambda k: -named[k][1])
        for k in ks[1:]:
            if sim[k, ks[0]] >= same_iou or posts[k] is None:
                continue
            post, vis, face_s, joker_s = posts[k]
            rest = np.asarray(post, np.float64).copy()
            rest[taken] = 0.0
            alt = int(rest.argmax())
            if alt == JK or rest[alt] < min_alt:
                continue
            out[k] = name_from_posterior(rest / rest.sum(), vis, face_s, joker_s, min_identity)
    return out


def card_dicts(c: Candidates) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The cards (in :func:`report_order`) and the backs as ``detect`` reports them, each card
    with ``_p`` (its name's posterior), ``_outline``, ``_look``, ``_vis`` (each index corner's
    P(an index is in view), as the corner classifier read it; None where it was not read) and
    ``_vis_box`` (the same as its box's own corners read them, before the search: whether the box
    lies on the card, for the layout's count: :func:`_both_corners`),
    ``_search_alone`` (:func:`named_by_search_alone`) for the sure flag, ``_layout`` (the layout's
    outputs where a step asked it: :func:`numbers_on_pictures`), and ``_post`` (the
    posterior over the 53 names; None where the name rests on none) for the likeliest other name
    of a card not sure."""
    cards = []
    looked, laid = c.data.get("look"), c.data.get("layout")
    corners, corners_box = c.data.get("corners"), c.data.get("corners_box")
    for k in report_order(c):
        outline = _reported_outline(c, int(k))
        centre = outline.mean(axis=0) if outline is not c.outlines[k] else c.boxes[k][:2]
        cards.append({"card": str(c.name[k]), "confidence": round(float(c.confidence[k]), 3),
                      "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
                      "polygon": round_poly(outline), "_p": c.posterior(int(k)), "_outline": outline,
                      "_look": None if looked is None else looked[k],
                      "_layout": None if laid is None else laid[k], "_index": index_shown(c, int(k)),
                      "_vis": None if corners is None else 1.0 - corners[k, :, NONE],
                      "_vis_box": None if corners_box is None else 1.0 - corners_box[k, :, NONE],
                      "_search_alone": named_by_search_alone(c, int(k)),
                      "_post": None if "post" not in c.data or c.data["post"][k] is None else c.data["post"][k][0]})
    backs = [{"center": [round(float(c.boxes[k][0]), 1), round(float(c.boxes[k][1]), 1)],
              "polygon": round_poly(c.outlines[k])} for k in c.of(BACK_ROLE)]
    return cards, backs


def index_shown(c: Candidates, k: int, readings: str = "corners") -> float:
    """How surely either index corner of candidate ``k`` shows its name's own index (the
    corner classifier's probability of that class, the better corner; 0.0 for ``??`` or a card
    whose corners were not read): 0 for a joker named by its look alone, with no index in view.
    ``readings="corners_box"``: as its box's own corners read them, before the search."""
    name = str(c.name[k])
    if name in ("", HIDDEN) or readings not in c.data:
        return 0.0
    return float(np.max(c.data[readings][k][:, class_of(name)]))


def named_by_search_alone(c: Candidates, k: int) -> bool:
    """Whether candidate ``k``'s name rests on the search's moved crops alone: the search changed
    its reading, its box's own corners read that index less than ``READABLE`` surely, and after
    the search not both corners read it so. A crop moved off the box can show the index of the
    card beside it (a fanned hand): of the rendered sets' names read by the search alone, nine
    wrong ones would have been sure (a 5s read on a 6s from the next card's 5c), none of them
    read at both corners, which one neighbour's index cannot explain (models/MODEL_CARD.md,
    "Twenty-seventh session")."""
    searched = c.data.get("searched")
    if searched is None or not searched[k] or str(c.name[k]) in ("", HIDDEN):
        return False
    if index_shown(c, k, "corners_box") >= READABLE:
        return False
    return float(np.min(c.data["corners"][k][:, class_of(str(c.name[k]))])) < READABLE


def round_poly(poly: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in poly]
