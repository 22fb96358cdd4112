"""The card detector at run time: numpy + OpenCV + ONNX Runtime, nothing from the training stack.

Stage 1 (``cards-obb.onnx``, an ultralytics YOLOv8n-OBB exported to ONNX) looks at the frame
letterboxed to a low resolution and finds oriented boxes of three classes: ``face`` (a face-up
card, its whole outline even where partly covered), ``back`` (a face-down card) and ``joker``
(a face-up joker, by its look). Stage 2 goes back to the FULL-resolution frame: each face/joker
box is ordered (:func:`geometry.order_card_polygon`), its two index corners are cut
(:func:`geometry.corner_crops`) and named by the corner classifier, and
:func:`classifier.fuse_card` turns the two corners and the detector's scores into one name.
Stage 3 (``card-look.onnx``, optional: :mod:`look`) sees the whole card: a card whose corners read
no index is named ``JK`` when it looks like a joker, and the suit its centre pips show is
weighed into a corner reading that is not sure.

Decisions a user can see (docs/vision.md):

* A face-up card whose corners are both covered and that does not look like a joker is reported
  with ``"card": "??"`` (RULINGS.md's unknown card): it is on the table, but unreadable.
* Two overlapping boxes that read as the same card are one card seen twice: the weaker goes.
  Two separate boxes with the same name are both kept (one deck holds each card once, so the
  rules engine will refuse the table with a clear "duplicate card" error and the dealer looks);
  the weaker one's confidence is halved so a consumer sorting by confidence sees the doubt.
* ``--deck NAME`` (:mod:`decks`) lets an enrolled deck overrule the generic classifier where the
  deck's own corners or joker art match closely.
* Every card carries ``"sure": true|false`` beside its confidence (:meth:`CardDetector.sureness`):
  a card is sure when the posterior of its name, times the whole-card look's agreement (its
  share for the named suit and its probability that the box is a face card; for ``JK`` its
  probability of a joker), reaches a threshold measured on the validation sets so that no wrong
  name there is sure (``models.json`` ``"sure"``, written by ``benchmarks/eval_sure.py`` with the
  checksums of the models it was measured on: models that are not those, a folder without a
  measured threshold, or reading without the look report no card as sure). ``??``, a name the
  frame reads twice and a joker found among the backs are never sure.

>>> import numpy as np
>>> boxes = np.array([[100, 100, 60, 84, 0.0], [102, 101, 60, 84, 0.02], [300, 100, 60, 84, 0.0]])
>>> nms_rotated(boxes, np.array([0.9, 0.8, 0.7]), iou_threshold=0.7).tolist()
[0, 2]
"""

from __future__ import annotations

import json
import math  # noqa: F401  (used by doctests)
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dealer_assist.cards import HIDDEN, Card
from dealer_assist.errors import UserError
from dealer_assist.vision import geometry
from dealer_assist.vision.classifier import (JK, JOKER_PRIOR_MAX, NONE, READABLE, CornerClassifier, card_posterior,
                                             class_of, load_session, name_from_posterior)
from dealer_assist.vision.look import BACK as LOOK_BACK
from dealer_assist.vision.look import FACE as LOOK_FACE
from dealer_assist.vision.look import JOKER as LOOK_JOKER
from dealer_assist.vision.look import LOOK_FILE, LookClassifier, look_patch
from dealer_assist.vision.look import kinds as look_kinds
from dealer_assist.vision.look import suits as look_suits

#: Detector classes (YOLO label ids).
CLASS_NAMES = ("face", "back", "joker")
FACE, BACK, JOKER_CLS = 0, 1, 2

#: File names inside a model folder.
OBB_FILE = "cards-obb.onnx"
CLS_FILE = "corner-cls.onnx"
META_FILE = "models.json"

#: Ranks whose centre shows a picture, not pips (rows of the (13, 4) suit term: 2..A)
COURT_RANKS = (9, 10, 11)


def look_sure(weight: float) -> float:
    """The posterior from which a card's name cannot be moved by a suit term of ``weight`` (each
    suit's probability clipped to 0.01..0.99, so the term moves a log-odds by at most ``weight``
    x log 99): such a card is not shown to the look for its suit.

    >>> round(look_sure(1.0), 4), round(look_sure(2.0), 6)
    (0.99, 0.999898)
    """
    return 1.0 - 1.0 / (1.0 + 99.0 ** weight)


#: Letterbox grey (as ultralytics pads).
PAD_VALUE = 114

#: The ``models.json`` entry holding the measured ``sure`` threshold (``benchmarks/eval_sure.py``):
#: ``{"threshold": ..., "models": {file: sha256[:16]}, ...how it was chosen}``.
SURE_KEY = "sure"


#: Default :attr:`DetectorSettings.read_variants`: the box moved by 5 % of the card's width and
#: 4 % of its height either way, and turned by 10, 20, 30 and 45 degrees either way (the
#: detector's worst box errors are turns). Chosen on validation frames of the TRAIN styles;
#: models/MODEL_CARD.md has the figures.
READ_VARIANTS: tuple[tuple[float, float, float, float], ...] = (
    (1.0, 0.05, 0.0, 0.0), (1.0, -0.05, 0.0, 0.0), (1.0, 0.0, 0.04, 0.0), (1.0, 0.0, -0.04, 0.0),
    *((1.0, 0.0, 0.0, float(sign * turn)) for turn in (10, 20, 30, 45) for sign in (1, -1)))


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """Thresholds of the run-time pipeline (tuned on a validation split of the TRAIN styles)."""

    conf: float = 0.25          # minimum detector score for a box
    iou: float = 0.75           # rotated NMS threshold (Gaussian IoU)
    min_identity: float = 0.5   # below this posterior a face card is reported as '??'
    #: the box scaled by these factors is read like the search's variants (below), whether or
    #: not ``search`` is on (absorbs the detector's box-size errors at the cost of more crops)
    tta_scales: tuple[float, ...] = (1.0,)
    #: two boxes read as the same card that overlap at least this much (Gaussian IoU) are one
    #: card seen twice (fragments of one outline): the weaker box is dropped
    same_card_iou: float = 0.2
    #: corner search (on by default since detector H3; MODEL_CARD.md: validation recall 0.986 ->
    #: 0.990, test recall 0.958 -> 0.966, precision 0.984 -> 0.987, about 2 ms a frame): a face
    #: card with no corner read surely from its box has both corners cut again from
    #: ``read_variants`` of its box and per corner the reading most sure of an index wins, making
    #: up for the detector's box errors
    search: bool = True
    #: the variants ``(scale, dx, dy, turn_deg)`` the search reads (:func:`geometry.warp_polygon`:
    #: shifts in card widths / heights, turns in degrees clockwise)
    read_variants: tuple[tuple[float, float, float, float], ...] = READ_VARIANTS
    #: a card with a corner read at least this surely from the box itself (P(index) x P(best
    #: index), :func:`_sureness`) is not searched
    sure_enough: float = 0.8
    #: a reading the search found replaces the box's own only when at least this sure (a moved
    #: or turned crop may show a neighbouring card's index)
    search_accept: float = 0.5
    #: report each face card's outline snapped to the card's own edges in the full-resolution
    #: frame (:func:`geometry.refine_card_polygon`) rather than the detector's box (opt-in)
    refine_outline: bool = False
    #: consult the whole-card look classifier (:mod:`look`, ``card-look.onnx``; skipped when the
    #: model folder has none) about every face box: its kind where the corners read no index,
    #: its suit where they do
    look: bool = True
    #: weight of the suit the card's centre shows against the corners' reading, for a card whose
    #: centre shows pips (A to 10; 0: not used) ...
    look_suit: float = 1.5
    #: ... and for a court card (J, Q, K), whose centre shows a picture (models/MODEL_CARD.md,
    #: "Run-time rules of 2026-11-24": 1.5 for both was worse on validation)
    look_suit_court: float = 1.0
    #: such a box is named ``JK`` when the look says joker at least this surely
    look_joker: float = 0.6
    #: a box the detector alone names ``JK`` (no corner reads an index) is left unnamed (``??``)
    #: when the look says a suited card at least this surely
    look_not_joker: float = 0.7
    #: ... and is reported as a BACK when the look says back at least this surely (the
    #: detector's joker class fires on some back designs). On the 900 validation frames the 190
    #: jokers without a readable index named JK looked like a back at most 0.05, the 2 backs
    #: named JK 0.97 and 0.98. Above 1: off
    look_back_not_joker: float = 0.9
    #: a box the detector takes for a BACK is reported as a face-up ``JK`` when the look says
    #: joker at least this surely (a joker's patterned art can pass for a back). Off (above 1)
    #: by default: on the validation frames it changed nothing, and on the held-out test backs
    #: it named 10 backs of an unseen design JK (models/MODEL_CARD.md, "Card look"). The other
    #: look thresholds were chosen on validation frames of the train styles.
    look_back_joker: float = 1.01
    #: ... but a back box is reported as a face-up ``JK`` when the look says joker at least this
    #: surely and its whole card matches none of the frame's other back boxes (one deck, one back
    #: design; :meth:`CardDetector._odd_back`) at ``odd_back_match`` or more. Needs another back
    #: box in the frame. Above 1: off.
    odd_back_joker: float = 0.7
    odd_back_match: float = 0.6
    #: the rescue of fanned cards (docs/vision.md): face boxes that NMS or ``conf`` set aside and
    #: that score at least this are read too (0: off). A card of a fanned hand, mostly covered,
    #: often scores low or overlaps its neighbour's box beyond ``iou``; such a box ...
    rescue_conf: float = 0.05
    #: ... becomes a card when one of its corners reads an index at least this surely and no
    #: other card in the frame bears its name
    rescue_sure: float = 0.9
    #: spare boxes overlapping a kept box at least this much (Gaussian IoU) are that box's echo
    rescue_same: float = 0.9
    #: ... and so is one whose index corner lies closer than this (card widths) to an index
    #: corner of a kept face box that reads the same rank
    rescue_apart: float = 0.3
    #: at most this many spare boxes are read (the highest scoring, after NMS at ``rescue_nms``)
    rescue_max: int = 40
    rescue_nms: float = 0.9
    #: a box the detector takes for a BACK is a face-up card when one of its corners reads an
    #: index, a suited card's or the joker's, at least this surely (:func:`_sureness`; a back
    #: shows no index): it is read and named like any face box. Above 1: off. On the 900
    #: validation frames the 2,068 real back boxes read any index at most 0.76 surely; the 3
    #: jokers taken for backs that show an index read 0.87, 0.89 and 0.96, the 5 suited cards
    #: taken for backs 0.94-0.96 (models/MODEL_CARD.md, "A card taken for a back")
    back_index: float = 0.85
    #: one deck holds each card once: of two separate boxes read as the same card, the less sure
    #: one is named again from its own posterior without the cards the frame's other boxes
    #: bear, when that posterior gave the card it then names at least this much (so a second
    #: card that surely reads the same, a card from another deck, stays a duplicate for the
    #: dealer to see). Above 1: off
    one_deck_alt: float = 0.01
    #: the most the detector's scores may make a box a joker before its corners are read
    #: (:data:`classifier.JOKER_PRIOR_MAX`; it was 0.98, when one corner read surely as a court
    #: card lost to the joker score of its art)
    joker_prior_max: float = JOKER_PRIOR_MAX
    #: a card is reported ``"sure"`` when its sureness (:meth:`CardDetector.sureness`) is at
    #: least this. None: the threshold measured for the model folder (``models.json`` ``"sure"``,
    #: :attr:`CardDetector.sure_threshold`); a folder without one for its models, or reading
    #: without the look, reports no card as sure. Above 1: no card is sure
    sure: float | None = None


def switched(search: bool = True, look: bool = True, rescue: bool = True) -> DetectorSettings:
    """The default settings with the commands' ``--no-search``, ``--no-look`` and ``--no-rescue``
    switches applied (the rescue is off at ``rescue_conf`` 0).

    >>> switched(rescue=False).rescue_conf, switched().rescue_conf == DetectorSettings().rescue_conf
    (0.0, True)
    """
    return DetectorSettings(search=search, look=look, **({} if rescue else {"rescue_conf": 0.0}))


def letterbox(image: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad to ``shape`` (h, w) like ultralytics does.

    Returns the padded image, the scale and the (x, y) padding (left, top).

    >>> out, r, pad = letterbox(np.zeros((720, 1280, 3), np.uint8), (256, 416))
    >>> out.shape, round(r, 4), pad
    ((256, 416, 3), 0.325, (0.0, 11.0))
    """
    h, w = image.shape[:2]
    th, tw = shape
    r = min(th / h, tw / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    # bilinear, as ultralytics resizes its (augmented) training images: the detector saw this
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    dw, dh = (tw - nw) / 2.0, (th - nh) / 2.0
    top, left = int(round(dh - 0.1)), int(round(dw - 0.1))
    out = cv2.copyMakeBorder(resized, top, th - nh - top, left, tw - nw - left, cv2.BORDER_CONSTANT,
                             value=(PAD_VALUE, PAD_VALUE, PAD_VALUE))
    return out, r, (float(left), float(top))


def gaussian_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise similarity (0..1) of oriented boxes ``(cx, cy, w, h, angle)`` a (N, 5), b (M, 5),
    each seen as a 2-D Gaussian (the box's uniform covariance): 1 - Hellinger distance from the
    Bhattacharyya distance. Invariant to the 90/180-degree ambiguity of box angles, cheap to
    vectorise, and close to polygon IoU for boxes of similar size.

    >>> box = np.array([[0.0, 0.0, 10.0, 14.0, 0.0]])
    >>> round(float(gaussian_iou(box, box)[0, 0]), 3)
    1.0
    >>> turned = np.array([[0.0, 0.0, 14.0, 10.0, math.pi / 2]])    # the same box, described turned
    >>> round(float(gaussian_iou(box, turned)[0, 0]), 3)
    1.0
    >>> far = np.array([[100.0, 0.0, 10.0, 14.0, 0.0]])
    >>> float(gaussian_iou(box, far)[0, 0]) < 0.01
    True
    """
    def cov(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        va, vb = x[:, 2] ** 2 / 12.0, x[:, 3] ** 2 / 12.0
        c, s = np.cos(x[:, 4]), np.sin(x[:, 4])
        return va * c * c + vb * s * s, va * s * s + vb * c * c, (va - vb) * c * s

    a = np.asarray(a, np.float64).reshape(-1, 5)
    b = np.asarray(b, np.float64).reshape(-1, 5)
    a1, b1, c1 = (v[:, None] for v in cov(a))
    a2, b2, c2 = (v[None, :] for v in cov(b))
    dx = a[:, 0][:, None] - b[:, 0][None, :]
    dy = a[:, 1][:, None] - b[:, 1][None, :]
    sa, sb, sc = (a1 + a2) / 2.0, (b1 + b2) / 2.0, (c1 + c2) / 2.0
    det = sa * sb - sc * sc + 1e-9
    maha = (sb * dx * dx + sa * dy * dy - 2.0 * sc * dx * dy) / det
    det1 = np.clip(a1 * b1 - c1 * c1, 0, None)
    det2 = np.clip(a2 * b2 - c2 * c2, 0, None)
    bd = maha / 8.0 + 0.5 * np.log(det / (np.sqrt(det1 * det2) + 1e-9) + 1e-9)
    bd = np.clip(bd, 0.0, 100.0)
    return 1.0 - np.sqrt(np.clip(1.0 - np.exp(-bd), 0.0, 1.0))


def nms_rotated(boxes: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Greedy non-maximum suppression of oriented boxes; indices kept, best score first."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    if len(order) == 0:
        return order
    sim = gaussian_iou(boxes[order], boxes[order])
    keep: list[int] = []
    suppressed = np.zeros(len(order), bool)
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(int(order[i]))
        suppressed |= sim[i] > iou_threshold
    return np.array(keep, dtype=np.int64)


def _round_poly(poly: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in poly]


class CardDetector:
    """Both stages loaded from a model folder (``models/`` by default): ``cards-obb.onnx``,
    ``corner-cls.onnx`` and ``models.json`` (input size, class names).

    ``deck``: a deck enrolled with ``dealer-assist enroll-deck`` (a name under
    ``calibration/decks/`` or a folder path); its cards overrule the generic classifier where
    they match closely.
    """

    def __init__(self, model_dir: str | Path = "models", deck: str | None = None,
                 settings: DetectorSettings = DetectorSettings(), decks_root: str | Path | None = None):
        d = Path(model_dir)
        if not d.is_dir():
            raise UserError(f"model folder not found: {d}")
        meta_path = d / META_FILE
        meta: dict[str, Any] = {}
        if meta_path.is_file():
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise UserError(f"{meta_path}: not valid JSON ({exc})") from None
        self.obb = load_session(d / OBB_FILE, "card detector")
        self.cls = CornerClassifier(d / CLS_FILE)
        self.look_path = d / LOOK_FILE     # optional: missing_model_warning() names what is off without it
        self.look = LookClassifier(d / LOOK_FILE) if (d / LOOK_FILE).is_file() else None
        inp = self.obb.get_inputs()[0]
        shape = meta.get("imgsz") or [inp.shape[2], inp.shape[3]]
        try:
            self.input_shape = (int(shape[0]), int(shape[1]))
        except (TypeError, ValueError):
            raise UserError(f"card detector {d / OBB_FILE}: cannot tell its input size "
                            f"(input shape {inp.shape}); write imgsz [h, w] in {meta_path}") from None
        self.input_name = inp.name
        self.settings = settings
        #: the sure threshold measured for these very models (None: not measured, no card is sure)
        self.sure_threshold: float | None = measured_sure(d, meta)
        self.deck = None
        if deck is not None:
            from dealer_assist.vision.decks import load_deck
            self.deck = load_deck(deck, decks_root)
            from dealer_assist.vision.enroll import file_sha256
            if self.deck.info.get("corner_model") != file_sha256(d / CLS_FILE):
                # corner embeddings only compare within one model; whole-card templates still do
                self.deck.corner_readable[:] = False

    def learn(self, image: np.ndarray, polygon, card: str) -> int:
        """A person says the card at ``polygon`` (image pixels) in ``image`` is ``card``: its
        readable corners join the deck in use (or a session deck, in memory only), so that this
        deck's drawing of that card is read as ``card`` from now on (:mod:`decks`). Returns how
        many corners were learned (0 when neither shows an index)."""
        from dealer_assist.vision.decks import Deck

        target = Card.parse(card)
        emb, readable = self.read_corners_of(image, geometry.order_card_polygon(polygon))
        if not readable.any():
            return 0
        if self.deck is None:
            self.deck = Deck.session()
        return self.deck.add_corners(emb, target.index, readable)

    def read_corners_of(self, image: np.ndarray, ordered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The two corners of one card (an ordered outline) as enrollment and :meth:`learn` keep
        them: their embeddings (2, D) and whether each shows an index (2,) bool."""
        probs, emb = self._corner_readings(image, [ordered])
        return emb[0], probs[0, :, NONE] < 1.0 - READABLE

    def _corner_readings(self, image: np.ndarray, polys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Both index corners of N ordered card outlines read in one batch: probabilities
        (N, 2, 54) and embeddings (N, 2, D)."""
        probs, emb = self.cls(np.concatenate([geometry.corner_crops(image, p) for p in polys]))
        return probs.reshape(len(polys), 2, -1), emb.reshape(len(polys), 2, -1)

    # -- stage 1 -----------------------------------------------------------------------------
    def find_boxes(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Oriented boxes (N, 5) ``cx, cy, w, h, angle`` in frame pixels and class scores (N, 3)."""
        return self._find(image)[:2]

    def _find(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`find_boxes`'s boxes and scores, and the spare face boxes: those NMS or the
        score threshold set aside that score at least :attr:`DetectorSettings.rescue_conf`."""
        st = self.settings
        floor = min(st.conf, st.rescue_conf) if st.rescue_conf > 0 else st.conf
        boxes, sc = self._candidates(image, floor)
        empty = np.zeros((0, 5)), np.zeros((0, len(CLASS_NAMES)))
        if not len(boxes):
            return *empty, *empty
        best = sc.max(axis=1)
        main = np.flatnonzero(best >= st.conf)
        keep = main[nms_rotated(boxes[main], best[main], st.iou)] if len(main) else np.zeros(0, np.int64)
        spare = np.ones(len(boxes), bool)
        spare[keep] = False
        spare &= (sc.argmax(axis=1) != BACK) & (best >= st.rescue_conf) & (st.rescue_conf > 0)
        return boxes[keep], sc[keep], boxes[spare], sc[spare]

    def _candidates(self, image: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
        """The detector's boxes scoring at least ``floor`` in ``image`` (frame pixels), before NMS."""
        lb, r, (px, py) = letterbox(image, self.input_shape)
        x = np.ascontiguousarray(lb[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        out = self.obb.run(None, {self.input_name: x})[0][0]  # (4 + nc + 1, anchors)
        nc = len(CLASS_NAMES)
        scores = out[4:4 + nc].T
        conf = scores.max(axis=1)
        sel = conf >= floor
        if not np.any(sel):
            return np.zeros((0, 5)), np.zeros((0, nc))
        xywh = out[:4, sel].T.astype(np.float64)
        ang = out[4 + nc, sel].astype(np.float64)
        sc = scores[sel].astype(np.float64)
        boxes = np.column_stack([xywh, ang])
        boxes[:, 0] = (boxes[:, 0] - px) / r
        boxes[:, 1] = (boxes[:, 1] - py) / r
        boxes[:, 2:4] /= r
        return boxes, sc

    # -- both stages -------------------------------------------------------------------------
    def detect(self, image: np.ndarray, sureness: bool = False) -> dict[str, list[dict[str, Any]]]:
        """``{"cards": [...], "backs": [...]}`` for one BGR frame, as ``detect --json`` prints:
        each card ``{"card", "confidence", "sure", "center", "polygon"}``. With ``sureness``
        each card also carries the number its ``sure`` flag compares (``"sureness"``, and
        ``"sureness_no_look"`` the posterior alone), for choosing the threshold."""
        found = self._detect(image)
        threshold = self.settings.sure if self.settings.sure is not None else self.sure_threshold
        scores = self.sureness(image, found["cards"])
        out = []
        for c, score in zip(found["cards"], scores):
            card = {"card": c["card"], "confidence": c["confidence"],
                    "sure": bool(threshold is not None and score is not None and score >= threshold),
                    "center": c["center"], "polygon": c["polygon"]}
            if sureness:
                card["sureness"] = None if score is None else round(score, 6)
            out.append(card)
        return {"cards": out, "backs": found["backs"]}

    def sureness(self, image: np.ndarray, cards: list[dict[str, Any]]) -> list[float | None]:
        """How sure each card's name is, per card of :meth:`_detect`: the posterior of its name
        (``_p``: what its corners, the detector's scores, the look's suit term and an enrolled
        deck give that name) times the whole card's look agreeing: P(face) x its share for the
        named suit, or P(joker) for ``JK``. 0 for ``??``, for a name two cards of the frame bear
        (the joker excepted: a deck may hold two) and for cards whose name rests on no posterior
        (a joker among the backs); None for every card when the look is off or missing (the
        posterior alone lets confident suit errors through: no card is sure without the look)."""
        if self.look is None or not self.settings.look:
            return [None] * len(cards)
        names = [c["card"] for c in cards]
        out = []
        for c in cards:
            p = float(c.get("_p", 0.0))
            out.append(0.0 if c["card"] == HIDDEN or (c["card"] != "JK" and names.count(c["card"]) > 1) else p)
        todo = [k for k, p in enumerate(out) if p > 0.0]
        if todo:
            # the look's outputs where naming already asked it about the same outline
            ask = [k for k in todo if cards[k].get("_look") is None]
            got = dict(zip(ask, self.look(np.stack([look_patch(image, cards[k]["_outline"]) for k in ask])))) if ask else {}
            probs = np.stack([got[k] if k in got else cards[k]["_look"] for k in todo])
            kind, suit = look_kinds(probs), look_suits(probs)
            for j, k in enumerate(todo):
                name = cards[k]["card"]
                if name == "JK":
                    agree = float(kind[j, LOOK_JOKER])
                else:
                    agree = float(kind[j, LOOK_FACE]) * float(suit[j, Card.parse(name).index % 4])
                out[k] *= agree
        return out

    def _detect(self, image: np.ndarray) -> dict[str, list[dict[str, Any]]]:
        """:meth:`detect`'s cards and backs, each card with ``_p`` (the posterior of its name)
        and ``_outline`` (its ordered outline) for :meth:`sureness`, and no ``sure`` yet."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise UserError("expected a colour (BGR) image")
        boxes, scores, spare_b, spare_s = self._find(image)
        # a box whose centre lies outside the frame is a card at least half out of view (its
        # index corners too) or a ghost along the edge: nothing a dealer could act on
        inside = _centre_inside(boxes, image.shape)
        boxes, scores = boxes[inside], scores[inside]
        polys = [geometry.order_card_polygon(geometry.polygon_from_obb(b)) for b in boxes]
        scores = self._faces_among_backs(image, polys, scores)
        is_back = [bool(s.argmax() == BACK) for s in scores]
        face_idx = [i for i, b in enumerate(is_back) if not b]
        cards: list[dict[str, Any]] = []
        named: list[tuple[str, float]] = []
        face_probs = np.zeros((0, 2, NONE + 1))
        p_named: list[float] = []
        self._looked = {}                      # the look's outputs by box, where it was asked
        if face_idx:
            faces, named, face_probs, p_named = self._name_faces(image, boxes, scores, polys, face_idx)
            for i in set(face_idx) - set(faces):      # the look surely takes it for a back
                is_back[i] = True
            face_idx = faces
        if face_idx:
            shown: dict[int, np.ndarray] = {}
            if self.settings.refine_outline:
                gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
                for i in face_idx:
                    shown[i] = geometry.order_card_polygon(geometry.refine_card_polygon(gray, polys[i]))
            for k, i in enumerate(face_idx):
                name, conf = named[k]
                outline = shown.get(i, polys[i])
                centre = outline.mean(axis=0) if i in shown else boxes[i][:2]
                cards.append({"card": name, "confidence": round(conf, 3),
                              "center": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
                              "polygon": _round_poly(outline), "_p": p_named[k], "_outline": outline,
                              "_look": None if i in shown else self._looked.get(i)})
        if len(spare_b):
            found, fb = self._rescue(image, spare_b, spare_s, boxes, [polys[i] for i in face_idx],
                                     face_probs, {c["card"] for c in cards})
            if found:
                cards += found
                boxes = np.concatenate([boxes, fb])
                polys += [geometry.order_card_polygon(geometry.polygon_from_obb(b)) for b in fb]
                face_idx += list(range(len(is_back), len(is_back) + len(fb)))
                is_back += [False] * len(fb)
        turned = self._jokers_among_backs(image, boxes, scores, polys, is_back)
        for i, conf in turned.items():       # a joker among the backs rests on no posterior: not sure
            cards.append({"card": "JK", "confidence": round(conf, 3),
                          "center": [round(float(boxes[i][0]), 1), round(float(boxes[i][1]), 1)],
                          "polygon": _round_poly(polys[i]), "_p": 0.0, "_outline": polys[i]})
        card_boxes = face_idx + list(turned)
        cards = _merge_same_name(cards, boxes[card_boxes] if card_boxes else np.zeros((0, 5)),
                                 self.settings.same_card_iou)
        _mark_duplicates(cards)
        backs = [{"center": [round(float(boxes[i][0]), 1), round(float(boxes[i][1]), 1)],
                  "polygon": _round_poly(polys[i])}
                 for i, b in enumerate(is_back) if b and i not in turned]
        return {"cards": cards, "backs": backs}

    def _name_faces(self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray, polys: list[np.ndarray],
                    face_idx: list[int]) -> tuple[list[int], list[tuple[str, float]], np.ndarray, list[float]]:
        """Name the face boxes ``face_idx`` (indices into ``boxes``, ``scores`` and ``polys``):
        ``(faces, named, probs, p)``, the boxes that are still face boxes, their (name, confidence),
        the corner readings (N, 2, 54) each name rests on and the posterior of each name. A box of ``face_idx`` missing from
        ``faces`` is one the look surely takes for a back (:meth:`_look_again`).

        The corners are read (with the search, :meth:`_read_corners`), each box is named from its
        corners and the detector's scores (and an enrolled deck's), the look is asked about the
        boxes it can help with, and one deck's rule settles names two separate boxes bear."""
        st = self.settings
        variants = [(float(sc), 0.0, 0.0, 0.0) for sc in st.tta_scales]
        if st.search:
            variants += [tuple(float(x) for x in v) for v in st.read_variants]
        (probs, emb), (probs0, emb0), searched = self._read_corners(image, [polys[i] for i in face_idx], variants)

        # what each name rests on: (posterior, corner visibility, face score, joker score)
        posts: list = [None] * len(face_idx)

        def name_card(k: int, pk: np.ndarray, ek: np.ndarray, suit_llr=None) -> tuple[str, float]:
            i = face_idx[k]
            face_s, joker_s = float(scores[i][FACE]), float(scores[i][JOKER_CLS])
            if self.deck is not None:
                pk, joker_s = self.deck.adjust(image, polys[i], pk, ek, joker_s)
            post, vis = card_posterior(pk, face_s, joker_s, suit_llr, st.joker_prior_max)
            posts[k] = (post, vis, face_s, joker_s)
            return name_from_posterior(post, vis, face_s, joker_s, st.min_identity)

        cur_p, cur_e = list(probs), list(emb)        # the corner readings each name rests on
        named = [name_card(k, cur_p[k], cur_e[k]) for k in range(len(face_idx))]
        # one deck holds each card once: a name that only the search found and that another,
        # separate box also reads is most likely that card's index, seen past this card's
        # corner (a fanned hand): this box keeps what its own box reads
        if searched.any():
            sim = gaussian_iou(boxes[face_idx], boxes[face_idx])
            for k in np.flatnonzero(searched):
                name = named[k][0]
                if name != HIDDEN and any(named[j][0] == name and sim[k, j] < st.same_card_iou
                                          for j in range(len(named)) if j != k):
                    cur_p[k], cur_e[k] = probs0[k], emb0[k]
                    named[k] = name_card(k, cur_p[k], cur_e[k])
        backs: list[int] = []
        looked: dict[int, np.ndarray] = {}
        if self.look is not None and st.look:
            named, backs, looked = self._look_again(
                image, [polys[i] for i in face_idx], np.stack(cur_p), named,
                [float(max(scores[i][FACE], scores[i][JOKER_CLS])) for i in face_idx],
                lambda k, llr: name_card(k, cur_p[k], cur_e[k], llr),
                np.array([post.max() for post, *_ in posts]))   # the look need not check a sure name
        if st.one_deck_alt <= 1.0:
            # the boxes the look calls backs are named JK, which one deck neither renames nor
            # counts as taken: they can stay in until the end
            named = one_deck(named, posts, boxes[face_idx], st.one_deck_alt, st.same_card_iou, st.min_identity)
        keep = [k for k in range(len(face_idx)) if k not in backs]
        # the posterior of the name each box is reported with (0 for ??: it names nothing)
        p_named = [0.0 if named[k][0] == HIDDEN or posts[k] is None else float(posts[k][0][class_of(named[k][0])])
                   for k in keep]
        self._looked = {face_idx[k]: looked[k] for k in keep if k in looked}
        return ([face_idx[k] for k in keep], [named[k] for k in keep],
                np.stack([cur_p[k] for k in keep]) if keep else np.zeros((0, 2, NONE + 1)), p_named)

    def _rescue(self, image: np.ndarray, spare_b: np.ndarray, spare_s: np.ndarray, kept: np.ndarray,
                face_polys: list[np.ndarray], face_probs: np.ndarray, names: set[str]
                ) -> tuple[list[dict[str, Any]], np.ndarray]:
        """Cards among the spare boxes (:meth:`_find`): a box clear of every kept box's echo whose
        corner reads, surely, a card no other box in the frame is named."""
        st = self.settings
        inside = _centre_inside(spare_b, image.shape)
        spare_b, spare_s = spare_b[inside], spare_s[inside]
        if len(kept) and len(spare_b):
            clear = gaussian_iou(spare_b, kept).max(axis=1) < st.rescue_same
            spare_b, spare_s = spare_b[clear], spare_s[clear]
        if not len(spare_b):
            return [], np.zeros((0, 5))
        keep = nms_rotated(spare_b, spare_s.max(axis=1), st.rescue_nms)[:st.rescue_max]
        spare_b, spare_s = spare_b[keep], spare_s[keep]
        polys = [geometry.order_card_polygon(geometry.polygon_from_obb(b)) for b in spare_b]
        probs, emb = self._corner_readings(image, polys)
        sure_c = _sureness(probs)
        sure = sure_c.max(axis=1)
        found: list[dict[str, Any]] = []
        got: list[int] = []
        taken = set(names)
        sim = gaussian_iou(spare_b, spare_b)
        # the index corners already read, and their ranks: a spare box reading one of them again
        # (a box askew on a card already named) is that card
        seen_at = np.array([c for p in face_polys for c in geometry.index_centres(p)]).reshape(-1, 2)
        seen_rank = face_probs[:, :, :JK].argmax(axis=2).reshape(-1) // 4
        seen_ok = face_probs[:, :, NONE].reshape(-1) < 0.5
        seen_at, seen_rank = seen_at[seen_ok], seen_rank[seen_ok]
        for k in np.argsort(-sure, kind="stable"):
            if sure[k] < st.rescue_sure:
                break
            if got and sim[k, got].max() > st.iou:
                continue
            c = int(sure_c[k].argmax())
            at = geometry.index_centres(polys[k])[c]
            rank = int(probs[k, c, :JK].argmax()) // 4
            near = np.linalg.norm(seen_at - at, axis=1) < st.rescue_apart * float(geometry.edge_lengths(polys[k]).min())
            if np.any(near & (seen_rank == rank)):
                continue
            pk, face_s, joker_s = probs[k], float(spare_s[k][FACE]), float(spare_s[k][JOKER_CLS])
            if self.deck is not None:
                pk, joker_s = self.deck.adjust(image, polys[k], pk, emb[k], joker_s)
            post, vis = card_posterior(pk, face_s, joker_s, joker_prior_max=st.joker_prior_max)
            # the name rests on the corner, not on the box's weak score: its confidence is the
            # corner's sureness x the posterior
            name, conf = name_from_posterior(post, vis, float(sure[k]), 0.0, st.min_identity)
            if name in (HIDDEN, "JK") or name in taken:
                continue
            taken.add(name)
            got.append(int(k))
            seen_at, seen_rank = np.concatenate([seen_at, at[None]]), np.append(seen_rank, rank)
            found.append({"card": name, "confidence": round(conf, 3),
                          "center": [round(float(spare_b[k][0]), 1), round(float(spare_b[k][1]), 1)],
                          "polygon": _round_poly(polys[k]), "_p": float(post[class_of(name)]), "_outline": polys[k]})
        return found, spare_b[got]

    def _faces_among_backs(self, image: np.ndarray, polys: list[np.ndarray], scores: np.ndarray) -> np.ndarray:
        """The class scores (N, 3) again, with each back box whose corner reads an index at
        least :attr:`DetectorSettings.back_index` surely made a face box (a back shows no index;
        the detector's back class takes some card and joker art it never trained on for a back):
        its box score moves to the face class, or to the joker class when the index is the
        joker's, so that it is read and named like any face box."""
        idx = np.flatnonzero(scores.argmax(axis=1) == BACK)
        if self.settings.back_index > 1.0 or not len(idx):
            return scores
        p, _ = self._corner_readings(image, [polys[i] for i in idx])
        sure = _sureness(p)                                                    # (n, 2)
        out = scores.copy()
        for k, i in enumerate(idx):
            c = int(sure[k].argmax())
            if sure[k, c] >= self.settings.back_index:
                to = JOKER_CLS if int(p[k, c, :NONE].argmax()) == JK else FACE
                out[i] = 0.0
                out[i, to] = scores[i].max()
        return out

    def _jokers_among_backs(self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                            polys: list[np.ndarray], is_back: list[bool]) -> dict[int, float]:
        """{box index: confidence} of the back boxes that are face-up jokers showing no index
        (one that shows it is a face box already, :meth:`_faces_among_backs`): by an enrolled
        deck's own jokers and back (:meth:`decks.Deck.joker_among_backs`), or by the look
        classifier: the odd back out (:attr:`DetectorSettings.odd_back_joker`), or any back
        (:attr:`DetectorSettings.look_back_joker`, off by default)."""
        idx = [i for i, b in enumerate(is_back) if b]
        out: dict[int, float] = {}
        if self.deck is not None:      # the deck's own jokers against its own back (decks.BACK_MARGIN)
            for i in idx:
                sim = self.deck.joker_among_backs(image, polys[i])
                if sim > 0.0:
                    out[i] = float(scores[i].max()) * sim
        st = self.settings
        # a deck that knows its own jokers and back has decided: the frame's odd back out is
        # weaker evidence than that
        odd = len(idx) >= 2 and not (self.deck is not None and self.deck.tells_jokers_from_backs)
        floor = min(st.look_back_joker, st.odd_back_joker if odd else 2.0)
        if self.look is None or not st.look or floor > 1.0 or not idx:
            return out
        kind = look_kinds(self.look(np.stack([look_patch(image, polys[i]) for i in idx])))
        for k, i in enumerate(idx):
            pj = float(kind[k, LOOK_JOKER])
            if i in out or pj < floor:
                continue
            if pj >= st.look_back_joker or (odd and self._odd_back(image, polys, i, [j for j in idx if j != i])):
                out[i] = float(scores[i].max()) * pj
        return out

    def _odd_back(self, image: np.ndarray, polys: list[np.ndarray], i: int, others: list[int]) -> bool:
        """Whether box ``i``'s whole card matches none of the ``others`` (the frame's other back
        boxes; one deck, one back design) at :attr:`DetectorSettings.odd_back_match` or more."""
        from dealer_assist.vision.decks import card_template, scaled_outlines

        q = np.concatenate([card_template(image, v) for v in scaled_outlines(polys[i])])   # (2V, D)
        refs = np.concatenate([card_template(image, polys[j]) for j in others])           # (2N, D)
        return float((refs @ q.T).max()) < self.settings.odd_back_match

    def _look_again(self, image: np.ndarray, polys: list[np.ndarray], probs: np.ndarray,
                    named: list[tuple[str, float]], det: list[float], rename,
                    surest: np.ndarray) -> tuple[list[tuple[str, float]], list[int], dict[int, np.ndarray]]:
        """The look classifier's word on the face boxes (corner readings ``probs`` (N, 2, 54)).

        A box whose corners read no index: an unnamed one that looks like a joker becomes
        ``JK``; one named ``JK`` by the detector's joker score alone that looks like a suited
        card becomes ``??``, and one that looks like a back is listed among the boxes returned
        beside the names (the caller reports those as backs), and the look's outputs by box. A suited card whose corners
        read: the suit its centre shows is weighed in (``rename(k, suit_llr)`` names it again) with weight
        :attr:`DetectorSettings.look_suit` (cards of A to 10) or
        :attr:`DetectorSettings.look_suit_court` (J, Q, K) x P(a suited card). A name already at
        least :func:`look_sure` sure (``surest``) is not asked: the suit term is clipped so that
        it cannot move a posterior that sure to another card."""
        st = self.settings
        w = max(st.look_suit, st.look_suit_court)
        sure = look_sure(w)
        rank_w = np.full((JK // 4, 1), st.look_suit)
        rank_w[list(COURT_RANKS)] = st.look_suit_court
        readable = (1.0 - probs[:, :, NONE]).max(axis=1) >= READABLE
        ask = [k for k in range(len(polys))
               if (not readable[k] and named[k][0] in (HIDDEN, "JK"))
               or (readable[k] and w > 0 and named[k][0] not in (HIDDEN, "JK") and surest[k] < sure)]
        backs: list[int] = []
        if not ask:
            return named, backs, {}
        p = self.look(np.stack([look_patch(image, polys[k]) for k in ask]))
        kind, suit = look_kinds(p), look_suits(p)
        out = list(named)
        for j, k in enumerate(ask):
            if not readable[k]:
                if named[k][0] == HIDDEN and kind[j, LOOK_JOKER] >= self.settings.look_joker:
                    out[k] = ("JK", det[k] * float(kind[j, LOOK_JOKER]))
                elif named[k][0] == "JK" and kind[j, LOOK_FACE] >= self.settings.look_not_joker:
                    out[k] = (HIDDEN, named[k][1] * (1.0 - float(kind[j, LOOK_FACE])))
                elif named[k][0] == "JK" and kind[j, LOOK_BACK] >= self.settings.look_back_not_joker:
                    backs.append(k)
            else:
                s_k = np.clip(suit[j], 0.01, 0.99)
                out[k] = rename(k, rank_w * float(kind[j, LOOK_FACE]) * np.log(4.0 * s_k / s_k.sum()))
        return out, backs, {k: p[j] for j, k in enumerate(ask)}

    def _read_corners(self, image: np.ndarray, polys: list[np.ndarray], variants: list[tuple[float, ...]]
                      ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], np.ndarray]:
        """Read the two index corners of N ordered card polygons: ``((probs, emb), (probs0,
        emb0), searched)``: corner probabilities (N, 2, 54) and embeddings (N, 2, D) after the
        search, the same read from the polygons alone, and which cards' readings the search
        changed (N,).

        Both corners are read from the polygon itself first. When neither reads an index at
        least :attr:`DetectorSettings.sure_enough` surely (:func:`_sureness`), both are cut again
        from each of the ``variants`` ``(scale, dx, dy, turn_deg)`` of
        :func:`geometry.warp_polygon` (:func:`geometry.corner_crop_variants`; the identity is
        skipped) and per corner the reading most sure of an index wins when it is at least
        :attr:`DetectorSettings.search_accept` sure, so the TL and BR corners may take different
        variants."""
        probs0, emb0 = self._corner_readings(image, polys)
        probs, emb = probs0.copy(), emb0.copy()
        searched = np.zeros(len(polys), bool)
        extra = [v for v in variants if not all(x == y for x, y in zip(v, (1.0, 0.0, 0.0, 0.0)))]
        sure = _sureness(probs0)                                           # (N, 2)
        # a card with one corner read surely is named: only cards without one are searched
        todo = [(k, c) for k in range(len(polys)) if sure[k].max() < self.settings.sure_enough for c in (0, 1)]
        if not extra or not todo:
            return (probs, emb), (probs0, emb0), searched
        crops = np.concatenate([geometry.corner_crop_variants(image, polys[k], extra, c) for k, c in todo])
        p2, e2 = self.cls(crops)
        s2 = _sureness(p2).reshape(len(todo), len(extra))
        for j, (k, c) in enumerate(todo):
            best = int(s2[j].argmax())
            if s2[j, best] > max(sure[k, c], self.settings.search_accept):
                probs[k, c] = p2[j * len(extra) + best]
                emb[k, c] = e2[j * len(extra) + best]
                searched[k] = True
        return (probs, emb), (probs0, emb0), searched

    def detect_file(self, path: str | Path) -> dict[str, Any]:
        """Read an image file and detect; the result carries ``image``, ``width``, ``height``,
        ``ms`` (detection time, reading excluded) like ``detect --json``. :class:`UserError`
        when the file cannot be read as an image."""
        image = read_image(path)
        t0 = time.perf_counter()
        found = self.detect(image)
        ms = (time.perf_counter() - t0) * 1000.0
        return {"image": str(path), "width": int(image.shape[1]), "height": int(image.shape[0]),
                "ms": round(ms, 1), **found}


def missing_model_warning(detector: "CardDetector", lang: str = "en") -> str | None:
    """A one-line warning when the optional whole-card look model is missing while it is asked
    for (``--look``, the default), naming what is off without it; None otherwise.

    The detector still runs without it: a card whose corners show no index is then named a joker
    by the detector's joker score alone (no whole-card look at it), the suit the centre pips
    show is not weighed into a doubtful corner reading, and no card is reported sure.
    """
    if getattr(detector, "look", None) is not None or not detector.settings.look:
        return None
    path = getattr(detector, "look_path", LOOK_FILE)
    if lang == "ja":
        return (f"警告: 任意のモデル {path} がないため、カード全体の見た目による判定が無効です: "
                f"インデックスの読めないカード（インデックスのないジョーカーなど）の見た目確認と、"
                f"中央のスートによる確認を行いません。確実（sure）と判定されるカードもありません"
                f"（モデルを戻すか、--no-look でこの警告を消せます）")
    return (f"warning: the optional model {path} is missing, so the whole-card look is off: cards "
            f"whose corners show no index (jokers without one) are not looked at whole, and the suit "
            f"the centre pips show is not checked, and no card is reported sure (restore the model, "
            f"or give --no-look to silence this)")


def model_checksums(model_dir: str | Path) -> dict[str, str]:
    """``{file: sha256[:16]}`` of the three models a ``sure`` threshold is measured on."""
    from dealer_assist.vision.enroll import file_sha256

    d = Path(model_dir)
    return {name: file_sha256(d / name) for name in (OBB_FILE, CLS_FILE, LOOK_FILE) if (d / name).is_file()}


def measured_sure(model_dir: str | Path, meta: dict[str, Any]) -> float | None:
    """The ``sure`` threshold ``models.json`` (``meta``) holds for the models in ``model_dir``:
    None when it holds none, or when it was measured on other models (its checksums differ: new
    models must be measured again, ``benchmarks/eval_sure.py --write``).

    >>> measured_sure("nowhere", {}), measured_sure("nowhere", {"sure": {"threshold": "high"}})
    (None, None)
    """
    entry = meta.get(SURE_KEY)
    if not isinstance(entry, dict):
        return None
    value = entry.get("threshold")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if entry.get("models") != model_checksums(model_dir):
        return None
    return float(value)


def _centre_inside(boxes: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which boxes ``(cx, cy, w, h, angle)`` have their centre inside a frame of ``shape``.

    >>> _centre_inside(np.array([[10, 10, 5, 5, 0], [-1, 10, 5, 5, 0], [10, 720, 5, 5, 0]]), (720, 1280, 3)).tolist()
    [True, False, False]
    """
    h, w = shape[:2]
    if not len(boxes):
        return np.zeros(0, bool)
    return (boxes[:, 0] >= 0) & (boxes[:, 0] < w) & (boxes[:, 1] >= 0) & (boxes[:, 1] < h)


def _sureness(probs: np.ndarray) -> np.ndarray:
    """How surely a corner reading shows an index: P(not none) x the best index's probability
    (over the last axis of ``probs``).

    >>> p = np.zeros((2, 54)); p[0, 5] = 0.9; p[0, 53] = 0.1; p[1, 53] = 1.0
    >>> _sureness(p).round(2).tolist()
    [0.81, 0.0]
    """
    return (1.0 - probs[..., NONE]) * probs[..., :NONE].max(axis=-1)


def one_deck(named: list[tuple[str, float]], posts: list, boxes: np.ndarray, min_alt: float,
             same_iou: float, min_identity: float) -> list[tuple[str, float]]:
    """One deck holds each card once: ``named`` (name, confidence) per face box again, where two
    separate boxes (Gaussian IoU below ``same_iou``; closer ones are one card seen twice, which
    :func:`_merge_same_name` settles) bear the same card. The surest keeps it; each other is named
    from its own posterior (``posts[k]`` = (posterior over the 53 identities, corner visibility,
    face score, joker score), :func:`card_posterior`) given that it is none of the cards the
    frame's other boxes bear, when the card it then names had at least ``min_alt`` of that
    posterior to begin with; otherwise it keeps the name (a duplicate the dealer should see).
    Jokers are not renamed (a deck may hold two).

    >>> post = np.zeros(53); post[class_of("As")] = 0.7; post[class_of("Ac")] = 0.3
    >>> sure = np.zeros(53); sure[class_of("As")] = 1.0
    >>> posts = [(sure, np.ones(2), 0.9, 0.0), (post, np.ones(2), 0.9, 0.0)]
    >>> boxes = np.array([[100, 100, 60, 84, 0.0], [600, 300, 60, 84, 0.0]])
    >>> [n for n, _ in one_deck([("As", 0.9), ("As", 0.63)], posts, boxes, 0.05, 0.2, 0.5)]
    ['As', 'Ac']
    >>> [n for n, _ in one_deck([("As", 0.9), ("As", 0.63)], posts[:1] * 2, boxes, 0.05, 0.2, 0.5)]
    ['As', 'As']
    """
    by_name: dict[str, list[int]] = {}
    for k, (name, _) in enumerate(named):
        if name not in (HIDDEN, "JK"):
            by_name.setdefault(name, []).append(k)
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


def _merge_same_name(cards: list[dict[str, Any]], boxes: np.ndarray, threshold: float) -> list[dict[str, Any]]:
    """Drop a named box that overlaps a stronger box of the same name (one card, two boxes).

    >>> cards = [{"card": "Ah", "confidence": 0.9}, {"card": "Ah", "confidence": 0.5},
    ...          {"card": "Ah", "confidence": 0.8}]
    >>> boxes = np.array([[100, 100, 60, 84, 0.0], [110, 120, 60, 60, 0.1], [600, 300, 60, 84, 0.0]])
    >>> [c["confidence"] for c in _merge_same_name(cards, boxes, 0.2)]
    [0.9, 0.8]
    """
    if len(cards) < 2:
        return cards
    sim = gaussian_iou(boxes, boxes)
    order = sorted(range(len(cards)), key=lambda i: -cards[i]["confidence"])
    dropped: set[int] = set()
    for a, i in enumerate(order):
        if i in dropped or cards[i]["card"] == "??":
            continue
        for j in order[a + 1:]:
            if j not in dropped and cards[j]["card"] == cards[i]["card"] and sim[i, j] >= threshold:
                dropped.add(j)
    return [c for k, c in enumerate(cards) if k not in dropped]


def _mark_duplicates(cards: list[dict[str, Any]]) -> None:
    """Keep every box but halve the confidence of all but the strongest of a repeated name."""
    best: dict[str, int] = {}
    for i, c in enumerate(cards):
        if c["card"] == "??":
            continue
        j = best.get(c["card"])
        if j is None or cards[j]["confidence"] < c["confidence"]:
            best[c["card"]] = i
    for i, c in enumerate(cards):
        if c["card"] != "??" and best[c["card"]] != i:
            c["confidence"] = round(c["confidence"] / 2.0, 3)


def read_image(path: str | Path) -> np.ndarray:
    """A BGR uint8 frame from an image file; :class:`UserError` when it is not one."""
    p = Path(path)
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as exc:
        raise UserError(f"cannot read {p}: {exc.strerror or exc}") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UserError(f"{p}: not a readable image")
    return image


def draw_annotations(image: np.ndarray, result: dict[str, Any]) -> np.ndarray:
    """A copy of the frame with each card's outline and name, and backs outlined."""
    out = image.copy()
    for b in result.get("backs", []):
        pts = np.round(np.array(b["polygon"])).astype(np.int32)
        cv2.polylines(out, [pts], True, (200, 120, 0), 2, cv2.LINE_AA)
        cv2.putText(out, "back", tuple(int(v) for v in pts[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (200, 120, 0), 1, cv2.LINE_AA)
    for c in result.get("cards", []):
        pts = np.round(np.array(c["polygon"])).astype(np.int32)
        colour = (0, 200, 255) if c["card"] == "??" else (0, 220, 0)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        label = f"{c['card']} {c['confidence']:.2f}"
        org = (int(pts[0][0]), max(12, int(pts[0][1]) - 4))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, 1, cv2.LINE_AA)
    return out


def default_model_dir() -> Path:
    """``models/`` of the checkout (beside the package), else ``./models``."""
    here = Path(__file__).resolve().parent.parent.parent / "models"
    return here if here.is_dir() else Path("models")



