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
weighed into a corner reading that is not sure. Stage 4 (``card-layout.onnx``, optional:
:mod:`layout`) sees the same whole card with its four index corners hidden and says which rank
and suit its pips show: a check of the name that never reads the index, weighed only into how
sure the name is. Stage 5 (``court-suit.onnx``, optional: :mod:`court_suit`) reads a jack's,
queen's or king's suit from its two ends (the index and the sign beside the head) at the detail
the frame gives, weighed into how sure a court's name is.

Decisions a user can see (docs/vision.md):

* A face-up card whose corners are both covered and that does not look like a joker is reported
  with ``"card": "??"`` (RULINGS.md's unknown card): it is on the table, but unreadable.
* Two overlapping boxes that read as the same card are one card seen twice: the weaker goes.
  Two separate boxes with the same name are both kept (one deck holds each card once, so the
  rules engine will refuse the table with a clear "duplicate card" error and the dealer looks);
  neither is sure (:meth:`CardDetector.sureness`). Each decision is a step of :mod:`steps`.
* ``--deck NAME`` (:mod:`decks`) lets an enrolled deck overrule the generic classifier where the
  deck's own corners or joker art match closely.
* Every card carries ``"sure": true|false`` beside its confidence (:meth:`CardDetector.sureness`):
  a card is sure when the posterior of its name, times the whole-card look's agreement (its
  share for the named suit, and its probability that the box is a face card, or a joker for
  ``JK``, over that of the kind it finds likeliest: :func:`look_agreement`), times the layout's
  agreement (from the pips alone: its probability of the name over that of its best reading),
  and for a court card times the court-suit reader's probability of its suit at both ends (the
  look's share then left out, or on a small card taken to its fourth root: :data:`COURT_LOOK_SUIT`), reaches a threshold measured on the validation sets so
  that no wrong name there is sure (one for 2 to 10 and aces, two for court cards, one for jokers,
  one for every card under :data:`SURE_MIN_SIDE` pixels; ``models.json`` ``"sure"``, written by
  ``benchmarks/eval_sure.py`` with the checksums of the models it was measured on: models that
  are not those, a folder without a measured threshold, or reading without the look report no
  card as sure). ``??``, a joker named by its picture alone (no joker index in view), a name the
  frame reads twice and a joker found among the backs are never sure.

>>> import numpy as np
>>> boxes = np.array([[100, 100, 60, 84, 0.0], [102, 101, 60, 84, 0.02], [300, 100, 60, 84, 0.0]])
>>> nms_rotated(boxes, np.array([0.9, 0.8, 0.7]), iou_threshold=0.7).tolist()
[0, 2]
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection, Sequence

import cv2
import numpy as np

from dealer_assist.cards import HIDDEN, Card
from dealer_assist.drawtext import put_text, text_size, words_for
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, _p, message_of, os_reason
from dealer_assist.imagefiles import unreadable_reason
from dealer_assist.vision import geometry
from dealer_assist.vision.classifier import JOKER_PRIOR_MAX, NONE, READABLE, CornerClassifier, class_of, file_reason, load_session
from dealer_assist.vision.look import FACE as LOOK_FACE
from dealer_assist.vision.look import JOKER as LOOK_JOKER
from dealer_assist.vision.look import LOOK_FILE, LookClassifier, look_patch
from dealer_assist.vision.look import kinds as look_kinds
from dealer_assist.vision.look import suits as look_suits
from dealer_assist.vision.layout import LAYOUT_FILE, court_posterior, load_layout, name_agreement
from dealer_assist.vision.court_suit import COURT_SUIT_FILE, end_agreement, is_court, load_court_suit
from dealer_assist.vision.focus import BLUR_LIMIT, card_blurs
from dealer_assist.vision.steps import (BACK_ROLE, DEFAULT_STEPS, FACE_ROLE, LOOK_STEPS, SPARE_ROLE, Candidates,
                                        card_dicts, corner_sureness, nms_rotated, pipeline)
# named here too for the callers that know them from this module
from dealer_assist.vision.steps import COURT_RANKS, OPTIONAL_STEPS, gaussian_iou, look_sure  # noqa: F401
from dealer_assist.vision.steps import _both_corners  # noqa: F401  (tests import it from here)

#: Detector classes (YOLO label ids).
CLASS_NAMES = ("face", "back", "joker")
FACE, BACK, JOKER_CLS = 0, 1, 2

#: File names inside a model folder.
OBB_FILE = "cards-obb.onnx"
CLS_FILE = "corner-cls.onnx"
META_FILE = "models.json"

#: Letterbox grey (as ultralytics pads).
PAD_VALUE = 114

#: The ``models.json`` entry holding the measured ``sure`` threshold (``benchmarks/eval_sure.py``):
#: ``{"threshold": ..., "models": {file: sha256[:16]}, ...how it was chosen}``.
SURE_KEY = "sure"
#: Which way of making the sureness the threshold was measured for (:meth:`CardDetector.sureness`);
#: ``models.json`` records it beside the threshold, and a threshold measured for another score
#: (an older product, :func:`measured_sure`) is not used: no card is sure until it is measured
#: again. Change it whenever :meth:`CardDetector.sureness_parts` combines its parts differently,
#: except for a part that can only lower a card's sureness (the layout's count on a number card in
#: full view, :data:`layout.LAYOUT_SEES`, fifty-fourth session): no wrong name of the validation
#: sets can then rise above a threshold measured without it, so that threshold still shows none
#: of them sure; the model card says which such parts came after the thresholds were measured.
SURE_SCORE = ("p x kind agreement x suit share x layout agreement (A-10 by rank and colour, courts by colour, 2-10 with one index "
              "in view: best count one pip either way); "
              "courts: no look suit share (under 60 px: ^ 0.25) x court-suit reader's agreement at the worse end in view; picture-alone JK 0; "
              "named by the search alone 0 unless both corners read it; "
              "courts: p with the layout's rank groups weighed in (layout.court_posterior)")
#: A card whose outline's short side is under this many frame pixels is sure only above a
#: threshold of its own (``models.json`` ``"sure"`` ``"small"``), measured on the validation
#: sets seen from farther away (``benchmarks/eval_sure.py``; ``eval_detect.far_view``); None
#: measured: never sure. The validation sets' named cards are 57 pixels wide and more, and the
#: same frames seen from farther away showed wrong names above their threshold at every width
#: under 60 (a club read as a spade, its sign a few pixels wide), none from 60 up
#: (models/MODEL_CARD.md, "Nineteenth session").
SURE_MIN_SIDE = 60.0
#: The kinds of name with a ``sure`` threshold of their own (:func:`sure_kind`; ``models.json``
#: ``"sure"`` entries of these names), each measured on that kind's wrong names of the validation
#: sets; 2 to 10 and aces take the main one. Court cards name their suit by the small signs of the
#: index alone, and the reader, the look and the court-suit reader are wrong together on some
#: (a Js under a Qh, a blurred Jc): on 3,600 validation frames beyond the first 1,200 their wrong
#: names reached a sureness of 0.937, while those of 2 to 10 and aces stayed at 0.80 and below (models/MODEL_CARD.md,
#: "Twenty-fourth session"). A folder whose ``models.json`` has no entry for a kind reports no
#: card of that kind as sure.
#:
#: ``covered_court`` is a court card with one index corner in view (:func:`_one_corner`): the other
#: lies under another card or out of the frame. The court-suit reader checks both ends of a court
#: showing both corners, and one end of a covered court (:func:`court_suit.end_agreement`), so
#: their wrong names reach different heights: 0.891 and 0.904 on the validation sets, where one
#: threshold over both would hold every right court to the higher (models/MODEL_CARD.md,
#: "Twenty-sixth session").
SURE_KINDS = ("court", "covered_court", "joker")
#: With the court-suit reader (:mod:`court_suit`) in the folder, a court card under
#: :data:`SURE_MIN_SIDE` pixels takes the look's share for its suit to this power: the look sees a
#: court's suit signs a few pixels wide (its share has a median of about 0.8 on right names), the
#: reader sees them at the frame's own detail, which on so small a card is little more. 0.5 from
#: the sixteenth session; 0.25 since the corner classifier GC-A (models/MODEL_CARD.md, "Eighteenth
#: session"). A court half under another card (:func:`corner_under_another`: its whole-card patch
#: holds some of the card on top) has none since the twenty-second session, and so has every court
#: of :data:`SURE_MIN_SIDE` pixels and more since the twenty-sixth, when the reader's word came
#: from both ends of a court showing both: the look then only checks that the card is a face card.
#: On the validation sets, the check sets and the real photos the look's suit share held such
#: right courts in doubt and no wrong one; on the small cards of the far views it kept wrong courts
#: down (models/MODEL_CARD.md, "Twenty-sixth session").
COURT_LOOK_SUIT = 0.25


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
    #: such a box is named ``JK`` when the look says joker at least this surely, and one the
    #: detector's joker score alone names ``JK`` keeps the name only then (else ``??``)
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
    #: names reported NOT sure whatever their sureness, each with the other name the card is
    #: offered as (``"or"``): ``(("Ks", "Kc"), ...)``. A doubt put on a known source by hand, for a
    #: dealer to rehearse a provisional showdown and to test what the dealer sees (``run`` and
    #: ``desk --doubt CARD=OTHER``); empty: none. An enrolled deck adds its own
    #: (:attr:`decks.Deck.doubts`: what its enrollment saw the reader misread)
    doubt: tuple[tuple[str, str], ...] = ()
    #: a named card whose outline's edge is spread over more than this part of its long side
    #: (:func:`focus.card_blur`: a lens out of focus, a card or camera in motion) is never sure,
    #: and ``detect`` says so (``"blurred": true``): past it the club's lobes and the spade's point
    #: cannot be told apart, and the thresholds were not chosen on such frames. None: not measured
    blur_limit: float | None = BLUR_LIMIT
    #: look again in tiles (:meth:`CardDetector._zoomed`) where the whole frame, shrunk to the
    #: detector's input, shows its cards smaller than the detector finds them: where the face
    #: boxes found (:func:`sized_by`) have a median short side below this many input pixels, or
    #: where none is found in a frame at least ``zoom_empty`` times the input's size (0: never).
    #: On rendered tables shrunk into a 1920x1080 frame the detector found 0 % of cards 8-12
    #: input pixels wide, 14 % at 12-16, 82 % at 16-20, 96 % at 20-24 and 98 % and more from 24;
    #: the real deck's cards, so shrunk, need more: 54 % at 20-24, 76 % at 24-28, 85 % at 28-32,
    #: 94-96 % at 32-40 (models/MODEL_CARD.md, "Nineteenth session" and "Twentieth session")
    zoom_below: float = 32.0
    zoom_empty: float = 3.0
    #: the short side of a card in the frame, in pixels, where the camera's calibration tells it
    #: (``Calibration.card_side_px``: where cards look smallest; :meth:`CardDetector.expect_card_side`);
    #: 0: not known. Where known, the zoom is chosen from it on every frame instead of from the
    #: boxes the whole frame showed: a far camera's cards may be too small for the whole frame to
    #: show any (a 720p camera whose cards are 30 px wide read none of them; models/MODEL_CARD.md,
    #: "Thirty-ninth session")
    card_px: float = 0.0
    #: ``(x, y, width, height)``, frame pixels: the part of the frame where the cards that matter
    #: lie (a calibrated camera's zones, grown by a card: ``Calibration.cards_region_px``); ():
    #: the whole frame. Where ``card_px`` is known and too small for the whole frame (below
    #: ``zoom_below`` input pixels), the reader looks at this part alone, whole or in the fewest
    #: tiles that bring its cards to :data:`ZOOM_TO` (:func:`region_tiles`): a far camera shows
    #: the table in a small part of its frame. On the sample clip's script rendered at 0.5 px a
    #: mm (1280x720, cards 30 px wide) that read every card as the whole frame's 9 tiles did, in
    #: 89 ms a frame instead of 258; on the real photos seen from far (``eval_real.py --wide
    #: 1920x1080 --shrink 0.4 --told``) rank recall 0.920 instead of 0.881, in 35 ms instead of
    #: 326 (models/MODEL_CARD.md, "Fortieth session"). Cards outside it are not read
    region: tuple[int, int, int, int] | tuple[()] = ()
    #: the steps of the pipeline that run (:data:`steps.STEPS`; the core steps, which read and
    #: name the boxes, always run). ``search=False``, ``look=False``, ``rescue_conf=0`` and
    #: ``refine_outline=True`` switch their steps off or on as before
    steps: tuple[str, ...] = DEFAULT_STEPS

    def pipeline(self) -> tuple:
        """The steps that run, in order (:func:`steps.pipeline`), with the switches applied."""
        names = set(self.steps)
        if not self.search:
            names.discard("search")
        if not self.look:
            names -= set(LOOK_STEPS)
        if self.rescue_conf <= 0:
            names.discard("rescue")
        if self.refine_outline:
            names.add("refine_outline")
        return pipeline(names)


def switched(search: bool = True, look: bool = True, rescue: bool = True, zoom: bool = True) -> DetectorSettings:
    """The default settings with the commands' ``--no-search``, ``--no-look``, ``--no-rescue``
    and ``--no-zoom`` switches applied (the rescue is off at ``rescue_conf`` 0, the zoom at
    ``zoom_below`` 0).

    >>> switched(rescue=False).rescue_conf, switched().rescue_conf == DetectorSettings().rescue_conf
    (0.0, True)
    >>> switched(zoom=False).zoom_below, switched().zoom_below > 0
    (0.0, True)
    """
    return DetectorSettings(search=search, look=look, **({} if rescue else {"rescue_conf": 0.0}),
                            **({} if zoom else {"zoom_below": 0.0}))


#: A box of a tile closer than this (tile pixels) to the tile's edge inside the frame is cut
#: there (:meth:`CardDetector._zoomed`)
ZOOM_EDGE = 3.0
#: The short side, in the detector's input pixels, the zoom brings the cards it saw to (the
#: detector found 98 % of the rendered cards from 24 and 96 % of the real deck's from 32:
#: :attr:`DetectorSettings.zoom_below`; bringing them to 48 found no more real cards and ran
#: twice the tiles on far frames)
ZOOM_TO = 32.0
#: Each tile of an n x n zoom spans this much over 1/n of the frame (the tiles overlap by a
#: quarter of a tile at n = 2, an eighth of the frame at n = 3), so that every card smaller than
#: the overlap lies whole in one tile
ZOOM_SPAN = 1.25
#: The most tiles a side (16 tiles: 17 runs of the detector for one frame)
ZOOM_MAX = 4
#: A box of the whole frame is held by a tile when, grown this much about its centre, it lies
#: inside the tile (:func:`held_by_tiles`)
ZOOM_HELD = 1.2
#: A box in which at least two other boxes lie, each this much inside it and under
#: :data:`ZOOM_PART` of its area, drew several cards as one (:func:`seen_as_several`)
ZOOM_INSIDE = 0.8
ZOOM_PART = 0.7
#: Tiles of a region (:func:`region_tiles`) overlap by a card's long side times this
ZOOM_OVERLAP = 1.25


def zoom_room(frame_hw: tuple[int, int], input_hw: tuple[int, int]) -> int:
    """The most tiles a side a closer look at a frame of ``frame_hw`` (h, w) may take
    (:func:`zoom_grid`; at most :data:`ZOOM_MAX`): under 2, the frame has no pixels that a closer
    look would add to the detector's input ``input_hw``.

    >>> zoom_room((720, 1280), (288, 512)), zoom_room((540, 960), (288, 512)), zoom_room((504, 378), (288, 512))
    (3, 2, 0)
    """
    return min(ZOOM_MAX, int(ZOOM_SPAN * min(frame_hw[0] / input_hw[0], frame_hw[1] / input_hw[1])))


def unzoomed_when_empty(frame_hw: tuple[int, int], input_hw: tuple[int, int], below: float, empty: float) -> bool:
    """Whether a frame of ``frame_hw`` (h, w) that shows nothing has pixels a closer look would
    use (:func:`zoom_room`) and yet is not looked at closer for it (:func:`zoom_grid`: under
    ``empty`` times the detector's input ``input_hw``; ``below``: ``DetectorSettings.zoom_below``).
    Its cards may be too small for the whole frame: a calibration would tell the reader their size.

    >>> [unzoomed_when_empty(hw, (288, 512), 32, 3) for hw in ((720, 1280), (1080, 1920), (504, 378))]
    [True, False, False]
    """
    return zoom_room(frame_hw, input_hw) >= 2 and zoom_grid(frame_hw, input_hw, np.zeros((0, 2)), below, empty) == 0


def zoom_grid(frame_hw: tuple[int, int], input_hw: tuple[int, int], found_wh: np.ndarray,
              below: float, empty: float, known: float = 0.0) -> int:
    """How many tiles a side the detector should look at again (0: none): where the cards' short
    side is below ``below`` input pixels, enough to bring it to :data:`ZOOM_TO`. That side is
    ``known`` (frame pixels: the camera's calibration says how big a card looks) or else the
    median of the face boxes the whole frame showed (``found_wh``, their sides in frame pixels:
    :func:`sized_by`); where none was found, 3 when the frame is at least ``empty`` times the
    input's size. Never so many that a tile would be smaller than the input (that adds no
    pixels), nor more than :data:`ZOOM_MAX`.

    >>> zoom_grid((1080, 1920), (288, 512), np.array([[53.0, 76.0]] * 4), 32, 3)  # 14 input px
    3
    >>> zoom_grid((720, 1280), (288, 512), np.array([[105.0, 150.0]]), 32, 3)   # 42 input px
    0
    >>> zoom_grid((720, 1280), (288, 512), np.array([[70.0, 100.0]]), 32, 3)    # 28 input px
    2
    >>> zoom_grid((1080, 1920), (288, 512), np.zeros((0, 2)), 24, 3), zoom_grid((720, 1280), (288, 512), np.zeros((0, 2)), 24, 3)
    (3, 0)
    >>> zoom_grid((504, 378), (288, 512), np.array([[20.0, 30.0]]), 24, 3)     # a small photo: no pixels to add
    0
    >>> zoom_grid((720, 1280), (288, 512), np.zeros((0, 2)), 32, 3, known=30.0)  # a far 720p camera: 12 input px
    3
    >>> zoom_grid((720, 1280), (288, 512), np.array([[30.0, 40.0]] * 5), 32, 3, known=100.0)  # cards are big
    0
    """
    h, w = frame_hw
    r = min(input_hw[0] / h, input_hw[1] / w)
    most = zoom_room(frame_hw, input_hw)
    if below <= 0 or most < 2:
        return 0
    if known > 0:
        short = known * r
    elif not len(found_wh):
        return min(3, most) if empty > 0 and 1.0 / r >= empty else 0
    else:
        short = float(np.median(np.min(found_wh, axis=1))) * r
    if short >= below:
        return 0
    return int(min(most, max(2, math.ceil(ZOOM_TO / max(short, 1e-6)))))


def sized_by(scores: np.ndarray, conf: float) -> np.ndarray:
    """Which of the whole frame's boxes (their detector scores, N x 3) say how large its cards
    look, for :func:`zoom_grid`: those the detector takes for face-up cards, scoring at least
    ``conf``. A back box may be a book, a flyer or a patch of carpet, and a joker box a print or
    two cards drawn as one; one large such box kept the closer look away from the small cards
    beside it (models/MODEL_CARD.md, "Forty-ninth session").

    >>> sized_by(np.array([[0.9, 0.0, 0.1], [0.0, 0.8, 0.0], [0.1, 0.0, 0.7], [0.2, 0.0, 0.0]]), 0.25).tolist()
    [True, False, False, False]
    """
    scores = np.asarray(scores, np.float64).reshape(-1, len(CLASS_NAMES))
    return (scores.argmax(axis=1) == FACE) & (scores.max(axis=1) >= conf)


def seen_as_several(boxes: np.ndarray, parts: np.ndarray) -> np.ndarray:
    """Which of the boxes (N, 5) others saw as two cards or more: at least two of the ``parts``
    (the sure enough boxes of the whole frame and of the tiles) lie in it (:data:`ZOOM_INSIDE`
    of each inside), each much smaller than it (under :data:`ZOOM_PART` of its area). At low
    resolution the detector draws one box over two overlapping cards of a hand; a closer look
    parts them, and that box is dropped.

    >>> boxes = np.array([[50.0, 50, 40, 28, 0], [200, 50, 20, 28, 0]])
    >>> parts = np.array([[42.0, 50, 20, 28, 0], [58, 50, 20, 28, 0], [200, 50, 20, 28, 0]])
    >>> seen_as_several(boxes, parts).tolist()
    [True, False]
    """
    out = np.zeros(len(boxes), bool)
    if not len(boxes) or len(parts) < 2:
        return out
    polys = [geometry.polygon_from_obb(p).astype(np.float32) for p in parts]
    areas = np.array([max(float(cv2.contourArea(p)), 1e-6) for p in polys])
    for i, box in enumerate(boxes):
        own = geometry.polygon_from_obb(box).astype(np.float32)
        area = max(float(cv2.contourArea(own)), 1e-6)
        inside = 0
        for p, a in zip(polys, areas):
            if a < ZOOM_PART * area:
                shared, _ = cv2.intersectConvexConvex(own, p)
                inside += shared >= ZOOM_INSIDE * a
        out[i] = inside >= 2
    return out


def extents(boxes: np.ndarray, grow: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest x, y (two (N, 2) arrays) of oriented boxes (N, 5), each grown by
    ``grow`` about its centre.

    >>> lo, hi = extents(np.array([[50.0, 40, 20, 10, 0]]), 2.0)
    >>> lo.tolist(), hi.tolist()
    ([[30.0, 30.0]], [[70.0, 50.0]])
    """
    if not len(boxes):
        return np.zeros((0, 2)), np.zeros((0, 2))
    grown = np.column_stack([boxes[:, :2], boxes[:, 2:4] * grow, boxes[:, 4]])
    poly = np.stack([geometry.polygon_from_obb(b) for b in grown])
    return poly.min(axis=1), poly.max(axis=1)


def clear_in_tile(lo: np.ndarray, hi: np.ndarray, tile: tuple[int, int, int, int],
                  frame_hw: tuple[int, int]) -> np.ndarray:
    """Which boxes, by their :func:`extents` in frame pixels, lie in ``tile`` at least
    :data:`ZOOM_EDGE` from each of its edges inside the frame (an edge on the frame's own border
    cuts nothing): the tile holds them whole.

    >>> lo, hi = np.array([[1.0, 10], [700, 10]]), np.array([[60.0, 90], [760, 90]])
    >>> clear_in_tile(lo, hi, (0, 0, 720, 405), (1080, 1920)).tolist()
    [True, False]
    """
    x0, y0, tw, th = tile
    h, w = frame_hw
    return (((x0 == 0) | (lo[:, 0] >= x0 + ZOOM_EDGE)) & ((x0 + tw >= w) | (hi[:, 0] <= x0 + tw - ZOOM_EDGE))
            & ((y0 == 0) | (lo[:, 1] >= y0 + ZOOM_EDGE)) & ((y0 + th >= h) | (hi[:, 1] <= y0 + th - ZOOM_EDGE)))


def held_by_tiles(boxes: np.ndarray, tiles: list[tuple[int, int, int, int]], frame_hw: tuple[int, int]) -> np.ndarray:
    """Which of the whole frame's boxes (N, 5) some tile holds whole (:func:`clear_in_tile`),
    each grown by :data:`ZOOM_HELD` about its centre (the whole frame draws it coarsely). The
    tile saw that place with more pixels, and what it found there (or did not) stands for it: on
    the real photos seen in a wider view, the whole frame's extra boxes were mostly textures
    taken for backs.

    >>> tiles = zoom_tiles((1080, 1920), 2)
    >>> held_by_tiles(np.array([[300.0, 300, 60, 90, 0], [960, 540, 60, 90, 0], [960, 540, 900, 600, 0]]),
    ...               tiles, (1080, 1920)).tolist()
    [True, True, False]
    """
    lo, hi = extents(boxes, ZOOM_HELD)
    out = np.zeros(len(boxes), bool)
    for tile in tiles:
        out |= clear_in_tile(lo, hi, tile, frame_hw)
    return out


def zoom_tiles(frame_hw: tuple[int, int], n: int) -> list[tuple[int, int, int, int]]:
    """``(x0, y0, width, height)`` of the n x n overlapping tiles of a frame (:data:`ZOOM_SPAN`).

    >>> zoom_tiles((1080, 1920), 2)
    [(0, 0, 1200, 675), (720, 0, 1200, 675), (0, 405, 1200, 675), (720, 405, 1200, 675)]
    """
    h, w = frame_hw
    tw, th = min(w, int(round(w * ZOOM_SPAN / n))), min(h, int(round(h * ZOOM_SPAN / n)))
    return [(int(round(ix * (w - tw) / (n - 1))), int(round(iy * (h - th) / (n - 1))), tw, th)
            for iy in range(n) for ix in range(n)]


def region_tiles(region_hw: tuple[int, int], input_hw: tuple[int, int], card_px: float
                 ) -> list[tuple[int, int, int, int]]:
    """``(x0, y0, width, height)`` of the fewest overlapping tiles of a region of ``region_hw``
    (h, w) that bring cards whose short side is ``card_px`` to :data:`ZOOM_TO` input pixels:
    tiles of the input's shape, enlarged where the region is small (a far camera's table), at
    most :data:`ZOOM_MAX` a side; neighbours overlap by a card's long side times
    :data:`ZOOM_OVERLAP`, so that every card lies whole in one tile. None (``[]``) where the
    region seen whole already brings them there.

    >>> region_tiles((282, 444), (288, 512), 30.0)   # a far 720p camera's table: 12 px too tall for one
    [(0, 0, 444, 270), (0, 12, 444, 270)]
    >>> region_tiles((250, 400), (288, 512), 30.0)   # seen whole, its cards are 34 input px
    []
    >>> [t[:2] for t in region_tiles((700, 1200), (288, 512), 30.0)]
    [(0, 0), (360, 0), (720, 0), (0, 215), (360, 215), (720, 215), (0, 430), (360, 430), (720, 430)]
    """
    rh, rw = int(region_hw[0]), int(region_hw[1])
    if card_px <= 0:
        return []
    per = ZOOM_TO / card_px                                  # input pixels wanted a region pixel
    overlap = card_px * geometry.CARD_ASPECT * ZOOM_OVERLAP

    def spread(size: int, tile: float) -> tuple[list[int], int]:
        if size <= tile:
            return [0], size
        n = min(ZOOM_MAX, math.ceil((size - overlap) / max(tile - overlap, 1.0)))
        least = math.ceil((size + (n - 1) * overlap) / n)        # n tiles that still overlap enough
        t = min(size, math.ceil(max(tile, least)))
        if t >= size and least < size:
            # the tile, rounded up, is the whole part: n tiles would all be the part itself. Rounded
            # down it is one pixel short of it, and its cards reach the zoom's size
            t = max(least, math.floor(tile))
        return sorted({int(round(i * (size - t) / (n - 1))) for i in range(n)}), t

    xs, tw = spread(rw, input_hw[1] / per)
    ys, th = spread(rh, input_hw[0] / per)
    if len(xs) == 1 and len(ys) == 1:
        return []
    return [(x, y, tw, th) for y in ys for x in xs]


def too_small(image_hw: tuple[int, ...], shape: tuple[int, int]) -> bool:
    """Whether a frame of ``image_hw`` (h, w) pixels shrinks to less than one pixel on a side when
    letterboxed to ``shape`` (h, w) (:func:`letterbox`): too thin, or too small, to hold a card.

    >>> too_small((720, 1280), (288, 512)), too_small((1, 1500), (288, 512)), too_small((5000, 2), (288, 512))
    (False, True, True)
    >>> too_small((0, 10), (288, 512)), too_small((2, 2), (288, 512))
    (True, False)
    """
    h, w = int(image_hw[0]), int(image_hw[1])
    if h < 1 or w < 1:
        return True
    r = min(shape[0] / h, shape[1] / w)
    return int(round(w * r)) < 1 or int(round(h * r)) < 1


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
            raise UserError(_("model folder not found: {path}", path=d))
        meta_path = self.meta_path = d / META_FILE
        meta: dict[str, Any] = {}
        if meta_path.is_file():
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError, RecursionError) as exc:
                raise UserError(_("{path}: not valid JSON ({why})", path=meta_path, why=file_reason(exc))) from None
            if not isinstance(meta, dict):
                raise UserError(_("{path}: the model folder's description is a JSON object (its input size "
                                  "imgsz, its class names, its thresholds), not {type}", path=meta_path,
                                  type=type(meta).__name__))
        self.obb = load_session(d / OBB_FILE, _("card detector"))
        self.cls = CornerClassifier(d / CLS_FILE)
        self.look_path = d / LOOK_FILE     # optional: missing_model_warning() names what is off without it
        self.look = LookClassifier(d / LOOK_FILE) if (d / LOOK_FILE).is_file() else None
        #: stage 4, optional: the rank and suit the whole card's layout shows (:mod:`layout`), a
        #: check of the name that does not come from the index
        self.layout = load_layout(d)
        #: stage 5, optional: a court card's suit read from its two ends (:mod:`court_suit`)
        self.court_suit = load_court_suit(d)
        inp = self.obb.get_inputs()[0]
        self.input_shape = _input_shape(meta.get("imgsz"), inp.shape, d / OBB_FILE, meta_path)
        self.input_name = inp.name
        self.settings = settings
        try:
            #: the steps :meth:`detect` runs, in order (:attr:`DetectorSettings.steps`)
            self.steps = settings.pipeline()
        except ValueError as exc:
            raise UserError(message_of(exc)) from None
        #: the sure threshold measured for these very models (None: not measured, no card is sure)
        self.sure_threshold: float | None = measured_sure(d, meta)
        #: ... and the one of cards under :data:`SURE_MIN_SIDE` pixels (None: not measured, no
        #: such card is sure)
        self.small_sure_threshold: float | None = measured_sure(d, meta, small=True)
        #: ... and those of court cards and jokers of that size and more (:data:`SURE_KINDS`;
        #: None: not measured, no such card is sure)
        self.kind_sure_thresholds: dict[str, float | None] = {k: measured_sure(d, meta, kind=k) for k in SURE_KINDS}
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

    def _find(self, image: np.ndarray, spare: bool | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`find_boxes`'s boxes and scores, and the spare face boxes: those NMS or the
        score threshold set aside that score at least :attr:`DetectorSettings.rescue_conf`
        (none when ``spare`` is False; None: when the rescue is on)."""
        if too_small(image.shape[:2], self.input_shape):
            raise UserError(_("an image of {width}x{height} pixels is too small (or too thin) to hold a card",
                              width=image.shape[1], height=image.shape[0]))
        st = self.settings
        if spare is None:
            spare = st.rescue_conf > 0
        floor = min(st.conf, st.rescue_conf) if st.rescue_conf > 0 and spare else st.conf
        boxes, sc = self._candidates(image, floor)
        empty = np.zeros((0, 5)), np.zeros((0, len(CLASS_NAMES)))
        if not len(boxes):
            return *empty, *empty
        best = sc.max(axis=1)
        main = np.flatnonzero(best >= st.conf)
        keep = main[nms_rotated(boxes[main], best[main], st.iou)] if len(main) else np.zeros(0, np.int64)
        rest = np.ones(len(boxes), bool)
        rest[keep] = False
        rest &= (sc.argmax(axis=1) != BACK) & (best >= st.rescue_conf) & (st.rescue_conf > 0) & spare
        return boxes[keep], sc[keep], boxes[rest], sc[rest]

    def candidates(self, image: np.ndarray) -> Candidates:
        """The frame's boxes as :class:`steps.Candidates`: each box the detector kept (a ``face``
        or a ``back`` by its best class) and, when the rescue step runs, the ``spare`` face boxes."""
        with_spare = any(s.name == "rescue" for s in self.steps)
        boxes, scores, spare_b, spare_s = self._find(image, with_spare)
        roles = [BACK_ROLE if s.argmax() == BACK else FACE_ROLE for s in scores] + [SPARE_ROLE] * len(spare_b)
        return Candidates.new(np.concatenate([boxes, spare_b]), np.concatenate([scores, spare_s]), roles)

    def _candidates(self, image: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
        """The detector's boxes scoring at least ``floor`` in ``image`` (frame pixels), before
        NMS: the whole frame's, and where its cards are too small for the detector, the tiles'
        (:meth:`_zoomed`); where the cards are known to be too small and the part of the frame
        they lie in is known, that part's alone, seen whole or in its tiles (:meth:`_region_plan`)."""
        region, tiles = self._region_plan(image.shape[:2])
        if region is None:
            boxes, scores = self._boxes(image, floor)
            if self.settings.card_px <= 0:      # not told the card size: judged from the boxes found
                n = zoom_grid(image.shape[:2], self.input_shape, boxes[sized_by(scores, self.settings.conf), 2:4],
                              self.settings.zoom_below, self.settings.zoom_empty)
                tiles = zoom_tiles(image.shape[:2], n) if n >= 2 else []
            return self._with_tiles(image, floor, boxes, scores, tiles)
        x0, y0, w, h = region
        part = np.ascontiguousarray(image[y0:y0 + h, x0:x0 + w])
        if tiles:       # they cover the part, each card whole in one: the part seen whole adds nothing
            boxes, scores = self._zoomed(part, floor, tiles)
            keep = ~seen_as_several(boxes, boxes[scores.max(axis=1) >= self.settings.conf])
            boxes, scores = boxes[keep], scores[keep]
        else:
            boxes, scores = self._boxes(part, floor)
        if len(boxes):
            boxes = boxes.copy()
            boxes[:, 0] += x0
            boxes[:, 1] += y0
        return boxes, scores

    def _with_tiles(self, image: np.ndarray, floor: float, boxes: np.ndarray, scores: np.ndarray,
                    tiles: list[tuple[int, int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """The boxes ``image`` showed whole joined by its ``tiles``' (none: as they are)."""
        if not tiles:
            return boxes, scores
        more = self._zoomed(image, floor, tiles)
        # where a tile held a box of the whole frame whole, the closer look speaks for that place
        held = held_by_tiles(boxes, tiles, image.shape[:2])
        boxes, scores = np.concatenate([boxes[~held], more[0]]), np.concatenate([scores[~held], more[1]])
        keep = ~seen_as_several(boxes, boxes[scores.max(axis=1) >= self.settings.conf])
        return boxes[keep], scores[keep]

    def _zoomed(self, image: np.ndarray, floor: float, tiles: list[tuple[int, int, int, int]]
                ) -> tuple[np.ndarray, np.ndarray]:
        """The boxes of the overlapping ``tiles`` of the frame (:func:`zoom_tiles`), each shrunk
        to the detector's input less than the whole frame, in frame pixels. A box that touches a
        tile's edge inside the frame is left out: the card goes on in the next tile, which holds
        it whole."""
        h, w = image.shape[:2]
        found_b, found_s = [], []
        for x0, y0, tw, th in tiles:
            b, sc = self._boxes(np.ascontiguousarray(image[y0:y0 + th, x0:x0 + tw]), floor)
            if not len(b):
                continue
            b = b.copy()
            b[:, 0] += x0
            b[:, 1] += y0
            whole = clear_in_tile(*extents(b), (x0, y0, tw, th), (h, w))
            found_b.append(b[whole])
            found_s.append(sc[whole])
        if not found_b:
            return np.zeros((0, 5)), np.zeros((0, len(CLASS_NAMES)))
        return np.concatenate(found_b), np.concatenate(found_s)

    def _boxes(self, image: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
        """The detector's boxes scoring at least ``floor`` in ``image`` shrunk whole to its input
        (frame pixels), before NMS."""
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

    def expect_card_side(self, px: float | None, region: Sequence[int] | None = None) -> None:
        """Tell the reader how many frame pixels a card's short side spans where cards look
        smallest (a calibrated camera knows: ``Calibration.card_side_px``; None or 0: not known),
        and the part of the frame the cards lie in, ``(x, y, width, height)`` (the calibration's
        zones: ``Calibration.cards_region_px``; None: the whole frame). The zoom is then chosen
        from that size on every frame (:attr:`DetectorSettings.card_px`), and where cards are
        too small for the whole frame, the reader looks at that part alone
        (:attr:`DetectorSettings.region`)."""
        px = float(px) if px is not None and math.isfinite(px) and px > 0 else 0.0
        box: tuple = ()
        if region is not None and len(region) == 4:
            x, y, w, h = (int(v) for v in region)
            if w >= 1 and h >= 1:
                box = (x, y, w, h)
        self.settings = dataclasses.replace(self.settings, card_px=px, region=box)

    def closer_look(self, frame_hw: tuple[int, int]) -> tuple[tuple[int, int, int, int] | None, int]:
        """How the reader looks at a frame of ``frame_hw`` (h, w) for the card size and the part of
        the frame it was told (:meth:`expect_card_side`): ``(region, tiles)``, the part of the frame
        it looks at instead of the whole, ``(x, y, width, height)`` cut to the frame (None: the
        whole frame), and how many tiles it looks at again (0: none). Both ``(None, 0)`` where it
        was not told a card size, or cards are big enough for the whole frame (then the zoom is
        judged from the boxes, as for any frame); ``(None, n * n)`` where it was told the size
        but not the part."""
        region, tiles = self._region_plan(frame_hw)
        return region, len(tiles)

    def _region_plan(self, frame_hw: tuple[int, int]) -> tuple[tuple[int, int, int, int] | None,
                                                                 list[tuple[int, int, int, int]]]:
        """:meth:`closer_look` with the tiles themselves (frame pixels, or the region's where
        there is one: :func:`region_tiles`)."""
        st = self.settings
        h, w = int(frame_hw[0]), int(frame_hw[1])
        if st.card_px <= 0 or st.zoom_below <= 0:
            return None, []
        whole = zoom_grid((h, w), self.input_shape, np.zeros((0, 2)), st.zoom_below, st.zoom_empty, st.card_px)
        r = min(self.input_shape[0] / max(h, 1), self.input_shape[1] / max(w, 1))
        if not st.region or st.card_px * r >= st.zoom_below:
            return None, zoom_tiles((h, w), whole) if whole >= 2 else []
        x, y, rw, rh = st.region
        x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + rw), min(h, y + rh)
        if x1 - x0 < 1 or y1 - y0 < 1 or (x1 - x0, y1 - y0) == (w, h):
            return None, zoom_tiles((h, w), whole) if whole >= 2 else []
        return (x0, y0, x1 - x0, y1 - y0), region_tiles((y1 - y0, x1 - x0), self.input_shape, st.card_px)

    # -- both stages -------------------------------------------------------------------------
    def detect(self, image: np.ndarray, sureness: bool = False) -> dict[str, list[dict[str, Any]]]:
        """``{"cards": [...], "backs": [...]}`` for one BGR frame, as ``detect --json`` prints:
        each card ``{"card", "confidence", "sure", "center", "polygon"}``, and a named card that
        is not sure its likeliest other name, ``"or"``, where the evidence has one
        (:func:`likeliest_other`: what the dealer should check it against). A name the enrolled
        deck's enrollment saw the reader misread (:attr:`decks.Deck.doubts`) or one doubted by hand
        (:attr:`DetectorSettings.doubt`) is never sure, offered as the card it may be where that is
        known. Nor is a card whose outline is blurred past :attr:`DetectorSettings.blur_limit`
        (:meth:`blur_of`): it carries ``"blurred": true``. With ``sureness``
        each card also carries the number its ``sure`` flag compares (``"sureness"``), for
        choosing the threshold. A card under :data:`SURE_MIN_SIDE` pixels is compared with the
        threshold measured for such cards (:attr:`small_sure_threshold`), a larger court card or
        joker with the one measured for its kind (:attr:`kind_sure_thresholds`; a court card with
        one index corner in view: ``covered_court``), and ``sureness`` adds that kind
        (``"sure_kind"``, :func:`sure_kind`) and the card's blur (``"blur"``)."""
        found = self._detect(image)
        parts = self.sureness_parts(image, found["cards"])
        blur = self.blur_of(image, found["cards"])
        limit = self.settings.blur_limit
        # the enrolled deck's doubts (what its enrollment saw the reader misread), then the
        # dealer's own by hand
        doubt = {**(self.deck.doubts if self.deck is not None else {}), **dict(self.settings.doubt)}
        out = []
        for c, part, b in zip(found["cards"], parts, blur):
            score = None if part is None else part["sureness"]
            kind = sure_kind(c["card"], _one_corner(c.get("_vis")))
            threshold = self.threshold_for(c["_outline"], c["card"], kind)
            sure = bool(threshold is not None and score is not None and score >= threshold
                        and c["card"] not in doubt)
            blurred = limit is not None and b is not None and b > limit
            card = {"card": c["card"], "confidence": c["confidence"], "sure": sure and not blurred,
                    "center": c["center"], "polygon": c["polygon"]}
            if blurred:
                card["blurred"] = True
            if not card["sure"] and part is not None and part.get("_evidence") is not None:
                # one deck holds each card once: not a name another card of the frame bears
                taken = {d["card"] for d in found["cards"] if d is not c}
                other = likeliest_other(c["card"], part["_evidence"], taken)
                if other is not None:
                    card["or"] = other
            if doubt.get(c["card"]) is not None:
                card["or"] = doubt[c["card"]]
            if sureness:
                card["sureness"] = None if score is None else round(score, 6)
                card["sure_kind"] = kind
                card["blur"] = None if b is None else round(b, 5)
            out.append(card)
        return {"cards": out, "backs": found["backs"]}

    def blur_of(self, image: np.ndarray, cards: list[dict[str, Any]]) -> list[float | None]:
        """How blurred each named card of :meth:`_detect` looks (:func:`focus.card_blurs`: its
        outline's edge width over its long side); None for ``??`` (never sure), where not measured
        and for every card when :attr:`DetectorSettings.blur_limit` is None."""
        out: list[float | None] = [None] * len(cards)
        named = [k for k, c in enumerate(cards) if c["card"] != HIDDEN]
        if self.settings.blur_limit is None or not named:
            return out
        for k, b in zip(named, card_blurs(image, [cards[k]["_outline"] for k in named])):
            out[k] = b
        return out

    def threshold_for(self, outline, name: str, kind: str | None = None) -> float | None:
        """The ``sure`` threshold of a card with this outline and name: :attr:`DetectorSettings.sure`
        where set, else the one measured for its size (:data:`SURE_MIN_SIDE`) and, from that size
        up, for its kind (``kind``, :func:`sure_kind`; by default its name's); None: no such card
        is sure."""
        if self.settings.sure is not None:
            return self.settings.sure
        if _small(outline):
            return self.small_sure_threshold
        kind = sure_kind(name) if kind is None else kind
        return self.sure_threshold if kind is None else self.kind_sure_thresholds[kind]

    def _detect(self, image: np.ndarray) -> dict[str, list[dict[str, Any]]]:
        """:meth:`detect`'s cards and backs, each card with ``_p`` (the posterior of its name),
        ``_outline`` (its ordered outline) and ``_look`` for :meth:`sureness`, and no ``sure``
        yet: the frame's :meth:`candidates` through every step of the pipeline."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise UserError(_("expected a colour (BGR) image"))
        cards, backs = card_dicts(self.read(image, self.candidates(image)))
        return {"cards": cards, "backs": backs}

    def read(self, image: np.ndarray, cands: Candidates, steps: tuple[str, ...] | None = None) -> Candidates:
        """``cands`` through the pipeline's steps (or the core steps and those named in ``steps``):
        each box read, named, its role settled. A step's test gives it the boxes it is about.

        >>> import numpy as np
        >>> det = CardDetector(default_model_dir())
        >>> empty = det.read(np.zeros((72, 128, 3), np.uint8), Candidates.new(np.zeros((0, 5)), np.zeros((0, 3)), []))
        >>> len(empty)
        0
        """
        for step in (self.steps if steps is None else pipeline(steps)):
            cands = step.run(self, image, cands)
        return cands

    def sureness(self, image: np.ndarray, cards: list[dict[str, Any]]) -> list[float | None]:
        """How sure each card's name is, per card of :meth:`_detect`: the posterior of its name
        (``_p``: what its corners, the detector's scores, the look's suit term and an enrolled
        deck give that name) times the whole card's look agreeing (:func:`look_agreement`: its
        kind's probability over that of the look's likeliest kind, times its share for the named
        suit); and, where the folder has the layout model
        (:mod:`layout`), times the layout's agreement: its probability that the card's layout
        (its pips, one ace sign, a court picture, a joker: never its index) shows the name, over
        its probability of what it finds most likely; and, for a jack, queen or king where the
        folder has the court-suit reader (:mod:`court_suit`), times the reader's probability of
        its suit at its ends whose index is in view, the worse of them where both are
        (:func:`court_suit.end_agreement`), the look's suit share then taken to the power
        :data:`COURT_LOOK_SUIT`. 0 for ``??``, for a ``JK`` whose corners
        show no joker index (named by its picture alone), for a name two cards of the frame
        bear (the joker excepted: a deck may hold two), for a name only the search's moved crops
        read and for cards whose name rests on no
        posterior (a joker among the backs); None for every card when the look is off or missing
        (the posterior alone lets confident suit errors through: no card is sure without it)."""
        return [None if parts is None else parts["sureness"] for parts in self.sureness_parts(image, cards)]

    def sureness_parts(self, image: np.ndarray, cards: list[dict[str, Any]]) -> list[dict[str, float] | None]:
        """:meth:`sureness` with its parts, per card: ``{"sureness", "p", "look", "layout",
        "court_suit"}`` (the posterior of the name, for a jack, queen or king with the layout's
        view of picture or pips weighed in: :func:`layout.court_posterior`; the look's agreement,
        the layout's and the court-suit reader's, 1.0 where not asked: ``??``, duplicates, a
        number card, a folder without the model); None for every card without the look."""
        if self.look is None or not self.settings.look:
            return [None] * len(cards)
        names = [c["card"] for c in cards]
        out = []
        for c in cards:
            p = float(c.get("_p", 0.0))
            p = 0.0 if c["card"] == HIDDEN or (c["card"] != "JK" and names.count(c["card"]) > 1) else p
            out.append({"sureness": p, "p": p, "look": 1.0, "layout": 1.0, "court_suit": 1.0})
        todo = [k for k, part in enumerate(out) if part["p"] > 0.0]
        if todo:
            # the look's outputs where naming already asked it about the same outline
            ask = [k for k in todo if cards[k].get("_look") is None]
            # ... and the layout's where a step already asked it (steps.numbers_on_pictures)
            lay = [k for k in todo if cards[k].get("_layout") is None] if self.layout is not None else []
            patches = {k: look_patch(image, cards[k]["_outline"]) for k in sorted({*ask, *lay})}
            got = dict(zip(ask, self.look(np.stack([patches[k] for k in ask])))) if ask else {}
            probs = np.stack([got[k] if k in got else cards[k]["_look"] for k in todo])
            kind, suit = look_kinds(probs), look_suits(probs)
            courts = [k for k in todo if is_court(cards[k]["card"])] if self.court_suit is not None else []
            for j, k in enumerate(todo):
                covered = _one_corner(cards[k].get("_vis"))
                out[k]["_evidence"] = {"post": cards[k].get("_post"), "kind": kind[j], "suit": suit[j],
                                       "ends": None, "vis": cards[k].get("_vis"), "layout": None,
                                       "covered": covered,
                                       "whole": _both_corners(cards[k].get("_vis_box", cards[k].get("_vis"))),
                                       "small": _small(cards[k]["_outline"]),
                                       "under": covered and corner_under_another(
                                           cards[k]["_outline"], cards[k]["_vis"],
                                           [c["_outline"] for i, c in enumerate(cards) if i != k]),
                                       "court_suit": self.court_suit is not None}
            if courts:
                ends = self.court_suit.end_probs(image, [np.asarray(cards[k]["_outline"]) for k in courts])
                for k, e in zip(courts, ends):
                    out[k]["_evidence"]["ends"] = e
            if self.layout is not None:
                got = dict(zip(lay, self.layout.probs(np.stack([patches[k] for k in lay])))) if lay else {}
                for k in todo:
                    ev = out[k]["_evidence"]
                    ev["layout"] = got[k] if k in got else cards[k]["_layout"]
                    if is_court(cards[k]["card"]) and ev["post"] is not None:
                        # the corners read a letter, the layout sees a picture or pips: a court
                        # whose letter the corners half take for a count of its suit is surer
                        # where the card shows a picture (layout.court_posterior), less sure where
                        # it shows pips; its suit stays as doubtful as the corners leave it
                        read = float(np.asarray(ev["post"])[class_of(cards[k]["card"])])
                        if read > 0.0:
                            out[k]["p"] = min(1.0, out[k]["p"] * court_posterior(ev["post"], ev["layout"], cards[k]["card"]) / read)
            for k in todo:
                out[k].update(name_agreements(cards[k]["card"], out[k]["_evidence"]))
                out[k]["sureness"] = out[k]["p"] * out[k]["look"] * out[k]["layout"] * out[k]["court_suit"]
                if cards[k]["card"] == "JK" and float(cards[k].get("_index", 1.0)) < READABLE:
                    # a joker named by its picture alone, no joker index in view: a print or a
                    # book cover the size of a card looks like one (the real photos), so the
                    # dealer confirms it
                    out[k]["sureness"] = 0.0
                if cards[k].get("_search_alone"):
                    # named from the search's moved crops alone: in a fan they can show the
                    # next card's index (a 5 of clubs read as this 6 of spades' name)
                    out[k]["sureness"] = 0.0
        return out

    def _read_corners(self, image: np.ndarray, polys: list[np.ndarray], variants: list[tuple[float, ...]],
                      first: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], np.ndarray]:
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
        variants. ``first``: the polygons' own readings, when already read."""
        probs0, emb0 = self._corner_readings(image, polys) if first is None else first
        probs, emb = probs0.copy(), emb0.copy()
        searched = np.zeros(len(polys), bool)
        extra = [v for v in variants if not all(x == y for x, y in zip(v, (1.0, 0.0, 0.0, 0.0)))]
        sure = corner_sureness(probs0)                                           # (N, 2)
        # a card with one corner read surely is named: only cards without one are searched
        todo = [(k, c) for k in range(len(polys)) if sure[k].max() < self.settings.sure_enough for c in (0, 1)]
        if not extra or not todo:
            return (probs, emb), (probs0, emb0), searched
        crops = np.concatenate([geometry.corner_crop_variants(image, polys[k], extra, c) for k, c in todo])
        p2, e2 = self.cls(crops)
        s2 = corner_sureness(p2).reshape(len(todo), len(extra))
        for j, (k, c) in enumerate(todo):
            best = int(s2[j].argmax())
            if s2[j, best] > max(sure[k, c], self.settings.search_accept):
                probs[k, c] = p2[j * len(extra) + best]
                emb[k, c] = e2[j * len(extra) + best]
                searched[k] = True
        return (probs, emb), (probs0, emb0), searched

    def detect_file(self, path: str | Path, size: tuple[int, int] | None = None,
                    calibration: str = "") -> dict[str, Any]:
        """Read an image file and detect; the result carries ``image``, ``width``, ``height``,
        ``ms`` (detection time, reading excluded) like ``detect --json``. :class:`UserError`
        when the file cannot be read as an image, or is not of ``size`` (w, h: the frames of the
        camera ``calibration`` names, whose card size the reader was told)."""
        image = read_image(path)
        if size is not None and (image.shape[1], image.shape[0]) != tuple(size):
            raise UserError(_("{path}: the calibration {name} is for {w}x{h} frames, this image is {got_w}x{got_h}",
                              path=path, name=calibration, w=size[0], h=size[1], got_w=image.shape[1],
                              got_h=image.shape[0]))
        if too_small(image.shape[:2], self.input_shape):
            raise UserError(_("{path}: an image of {width}x{height} pixels is too small (or too thin) to hold a card",
                              path=path, width=image.shape[1], height=image.shape[0]))
        t0 = time.perf_counter()
        found = self.detect(image)
        ms = (time.perf_counter() - t0) * 1000.0
        return {"image": str(path), "width": int(image.shape[1]), "height": int(image.shape[0]),
                "ms": round(ms, 1), **found}


#: The largest side ``models.json`` ``"imgsz"`` may give the detector's input, in pixels.
IMGSZ_MAX = 4096


def _input_shape(imgsz: Any, model_shape: Any, model: Path, meta_path: Path) -> tuple[int, int]:
    """The detector's input size (h, w): ``models.json``'s ``"imgsz"`` where it gives one, else the
    model's own (its input shape ``model_shape``, N C H W); :class:`UserError` naming the file
    when neither is two whole numbers of pixels from 1 to :data:`IMGSZ_MAX`, or when ``imgsz``
    differs from the size the model was exported at.

    >>> _input_shape(None, [1, 3, 288, 512], Path("m.onnx"), Path("models.json"))
    (288, 512)
    >>> _input_shape([0, 0], [1, 3, 288, 512], Path("m.onnx"), Path("models.json"))
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: models.json: "imgsz" is [height, width] of the card detector's input: two whole numbers of pixels from 1 to 4096, not [0, 0]
    """
    fixed = [v for v in list(model_shape)[2:4] if isinstance(v, int) and not isinstance(v, bool) and v > 0]
    if imgsz is None:
        if len(fixed) != 2:
            raise UserError(_("card detector {path}: cannot tell its input size (input shape {shape}); "
                              "write imgsz [h, w] in {meta}", path=model, shape=str(model_shape),
                              meta=meta_path))
        return fixed[0], fixed[1]

    def whole(v: Any) -> bool:
        return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and float(v).is_integer() and 1 <= v <= IMGSZ_MAX)

    if not isinstance(imgsz, list) or len(imgsz) != 2 or not all(whole(v) for v in imgsz):
        raise UserError(_("{path}: \"imgsz\" is [height, width] of the card detector's input: two whole numbers "
                          "of pixels from 1 to {most}, not {got}", path=meta_path, most=IMGSZ_MAX,
                          got=json.dumps(imgsz)[:60]))
    shape = (int(imgsz[0]), int(imgsz[1]))
    if len(fixed) == 2 and shape != (fixed[0], fixed[1]):
        raise UserError(_("{path}: \"imgsz\" {got} is not the input size of the card detector {model}; "
                          "write [{h}, {w}]", path=meta_path, got=json.dumps(imgsz), model=model,
                          h=fixed[0], w=fixed[1]))
    return shape


def _small(outline) -> bool:
    """Whether a card (its outline) is under :data:`SURE_MIN_SIDE` pixels wide: judged at the small
    cards' threshold, and a court of it checked by the look for its suit too."""
    return geometry.card_width(outline) < SURE_MIN_SIDE


def _one_corner(vis) -> bool:
    """Whether a card's two index corners (``_vis``: each one's probability of showing an index)
    show one index, not two: the card is most often half under another, and the layout may take
    its count one pip off (:func:`layout.number_agreement`). False where not read.

    >>> _one_corner([0.97, 0.08]), _one_corner([0.9, 0.99]), _one_corner(None)
    (True, False, False)
    """
    return vis is not None and len(vis) == 2 and min(float(v) for v in vis) < READABLE <= max(float(v) for v in vis)


def corner_under_another(outline, vis, others) -> bool:
    """Whether a card's index corner that reads no index (the lower of ``vis``) lies inside
    another card's outline of the frame (``others``): the card lies half under that card, and its
    whole-card patch holds some of it.

    >>> sq = lambda x0, y0, w, h: [[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]]
    >>> corner_under_another(sq(0, 0, 100, 140), [0.99, 0.02], [sq(50, 70, 100, 140)])
    True
    >>> corner_under_another(sq(0, 0, 100, 140), [0.99, 0.02], [sq(200, 0, 100, 140)])
    False
    """
    if vis is None or len(vis) != 2 or not others:
        return False
    x, y = (float(v) for v in geometry.index_centres(np.asarray(outline, np.float64))[int(np.argmin(vis))])
    return any(cv2.pointPolygonTest(np.asarray(o, np.float32).reshape(-1, 1, 2), (x, y), False) >= 0 for o in others)


def look_agreement(kind: np.ndarray, suit: np.ndarray, name: str, suit_power: float = 1.0) -> float:
    """How far the whole-card look agrees with a card's name, from its kind probabilities (face,
    joker, back, none: :func:`look.kinds`) and its suit shares (:func:`look.suits`).

    The kind is checked as an agreement: the probability of the name's kind (a face card, or the
    joker for ``JK``) over that of the kind the look finds most likely. A card read from its index
    loses nothing where the look also sees a face card first, and much where it sees a back or
    the table; a real deck's court art, which the look has never seen, spreads some of its
    probability to the joker and the back without doubting the face (on the real photos P(face)
    had a median of 0.80 on jacks, queens and kings, and the face was the look's first kind for
    98 % of them). The suit is checked by its plain share: clubs read as spades are the reader's
    commonest wrong names, so the look must see the named suit, not merely not see another
    (models/MODEL_CARD.md, "Fourteenth session"); ``suit_power`` below 1 weighs the share less
    (a court card checked by the court-suit reader too: :data:`COURT_LOOK_SUIT`).

    >>> kind = np.array([0.7, 0.2, 0.1, 0.0]); suit = np.array([0.05, 0.0, 0.0, 0.95])
    >>> round(look_agreement(kind, suit, "As"), 3), round(look_agreement(kind, suit, "Ac"), 3)
    (0.95, 0.05)
    >>> round(look_agreement(kind, suit, "JK"), 3), round(look_agreement(np.array([0.3, 0.0, 0.7, 0.0]), suit, "As"), 3)
    (0.286, 0.407)
    >>> round(look_agreement(kind, np.array([0.25, 0.0, 0.0, 0.75]), "Ks", 0.5), 3)
    0.866
    """
    top = max(float(np.max(kind)), 1e-9)
    if name == "JK":
        return float(kind[LOOK_JOKER]) / top
    return float(kind[LOOK_FACE]) / top * float(suit[Card.parse(name).index % 4]) ** suit_power


#: a name the corners themselves give at least this posterior is a candidate other name
OTHER_POSTERIOR = 0.05


def likeliest_other(name: str, evidence: dict[str, Any], taken: Collection[str] = ()) -> str | None:
    """What else a card named ``name`` may be, by the evidence its sureness was made of
    (:meth:`CardDetector.sureness_parts`' ``_evidence``): the names another of its readers
    prefers (the same rank in the suit the whole card's look sees most, except on a court
    half under another card, whose look sees some of the card on top; or, for a court, the suit the
    court-suit reader sees at an end in view; the number card or ace the layout sees most, on a card
    showing both index corners: a covered card's layout sees the pips of the card on it) or the
    corners themselves give at least :data:`OTHER_POSTERIOR`; of those, the one whose product
    of posterior, look agreement, layout agreement and court-suit agreement is largest, leaving
    out the names in ``taken`` (the frame's other cards: one deck holds each card once, and the
    pips a covered card's layout sees may be those of the card on top of it). None where no
    reader prefers another name (the doubt is about no card in particular), for a joker or
    ``??``, or without a posterior. The dealer is shown what to check a doubtful card
    against (a K♠ that may be the K♣), never a name no reader saw. On the four validation sets
    it offered a name for 42 of the 85 wrong names on a card, the true card for 34 of them
    (models/MODEL_CARD.md, "Twenty-first session").

    >>> from dealer_assist.vision.classifier import class_of
    >>> post = np.full(53, 1e-4); post[class_of("Kc")] = 0.99
    >>> ev = {"post": post, "kind": np.array([0.9, 0.05, 0.05, 0.0]), "suit": np.array([0.6, 0.0, 0.0, 0.4]),
    ...       "ends": np.array([[0.3, 0.0, 0.0, 0.7], [0.4, 0.0, 0.0, 0.6]]), "vis": None, "layout": None,
    ...       "covered": False, "court_suit": True}
    >>> likeliest_other("Kc", ev)               # the court-suit reader sees a spade
    'Ks'
    >>> likeliest_other("Kc", ev, taken={"Ks"}) is None     # ... but the K♠ lies elsewhere
    True
    >>> ev["ends"] = np.array([[0.9, 0.0, 0.0, 0.1], [0.9, 0.0, 0.0, 0.1]])
    >>> likeliest_other("Kc", ev) is None       # every reader agrees: no other name to offer
    True
    >>> likeliest_other("JK", ev) is None, likeliest_other("Kc", dict(ev, post=None)) is None
    (True, True)
    """
    from dealer_assist.vision.classifier import JK, class_name, class_of
    from dealer_assist.vision.court_suit import SUITS
    from dealer_assist.vision.layout import LAYOUT_CLASSES

    post = evidence.get("post")
    if post is None or name in (HIDDEN, "JK"):
        return None
    post = np.asarray(post, np.float64)
    rank = name[:-1]
    court = bool(evidence.get("court_suit")) and is_court(name)
    names = {class_name(int(i)) for i in np.flatnonzero(post[:JK] >= OTHER_POSTERIOR)}   # suited cards
    if float(evidence["kind"][LOOK_FACE]) >= float(np.max(evidence["kind"])) and not (court and evidence.get("under")):
        names.add(rank + SUITS[int(np.argmax(evidence["suit"]))])    # a covered court's look sees the card on top
    ends = evidence.get("ends")
    if court and ends is not None:
        ends = np.asarray(ends, np.float64)
        vis = evidence.get("vis")
        seen = ends if vis is None or not (np.asarray(vis) >= READABLE).any() else ends[np.asarray(vis) >= READABLE]
        names.add(rank + SUITS[int(np.argmax(seen.max(axis=0)))])
    lp = evidence.get("layout")
    if lp is not None and not evidence.get("covered"):   # a covered card's pips are partly another's
        group, _, suit = LAYOUT_CLASSES[int(np.argmax(lp))].partition("-")
        if suit and group != "court":          # a court's layout tells its colour only
            names.add(group + suit)
    names -= {name, "JK", *taken}
    if not names:
        return None

    return max(sorted(names),
               key=lambda n: float(post[class_of(n)]) * math.prod(name_agreements(n, evidence).values()))


def name_agreements(name: str, evidence: dict[str, Any]) -> dict[str, float]:
    """How far a card's readers other than its corners agree with a name, from the card's
    evidence (:meth:`CardDetector.sureness_parts`' ``_evidence``): ``look`` the look's agreement
    (:func:`look_agreement`; where the court-suit reader is at hand, a court's suit share not at
    all, or on a small card to :data:`COURT_LOOK_SUIT`), ``layout`` the layout's (:func:`layout.name_agreement`; 1.0
    without the model; the evidence's ``covered`` and ``whole`` say whether one index corner or
    both are in view) and ``court_suit`` the court-suit reader's at its ends in view
    (:func:`court_suit.end_agreement`; 1.0 for a number card or without the model). The card's
    own name and the other names :func:`likeliest_other` weighs are measured alike.

    >>> ev = {"kind": np.array([0.8, 0.1, 0.1, 0.0]), "suit": np.array([0.0, 0.2, 0.8, 0.0]),
    ...       "ends": None, "vis": None, "layout": None, "covered": False, "court_suit": True}
    >>> {k: round(v, 3) for k, v in name_agreements("9h", ev).items()}
    {'look': 0.8, 'layout': 1.0, 'court_suit': 1.0}

    A court card is checked by the look for being a face card, not for its suit: the court-suit
    reader sees its suit at the frame's own detail. On a card under :data:`SURE_MIN_SIDE` pixels
    (``small``) the look's suit share still counts, to :data:`COURT_LOOK_SUIT`, unless the card
    lies half under another (``under``: the look sees some of the card on top). Without the
    reader the look checks a court's suit as any card's.

    >>> look = lambda name, **ev2: round(name_agreements(name, dict(ev, **ev2))["look"], 3)
    >>> look("Kd"), look("Kd", small=True), look("Kd", small=True, under=True), look("Kd", court_suit=False)
    (1.0, 0.669, 1.0, 0.2)
    """
    court = bool(evidence.get("court_suit")) and is_court(name)
    lp, ends = evidence.get("layout"), evidence.get("ends")
    power = 1.0 if not court else COURT_LOOK_SUIT if evidence.get("small") and not evidence.get("under") else 0.0
    return {"look": look_agreement(evidence["kind"], evidence["suit"], name, power),
            "layout": 1.0 if lp is None else name_agreement(lp, name, bool(evidence.get("covered")),
                                                            bool(evidence.get("whole"))),
            "court_suit": end_agreement(ends, name, evidence.get("vis")) if court and ends is not None else 1.0}


def missing_model_warning(detector: "CardDetector", lang: str = "en") -> str | None:
    """A one-line warning when the optional whole-card look model is missing while it is asked
    for (``--look``, the default), naming what is off without it; None otherwise.

    The detector still runs without it: a card whose corners show no index is then named a joker
    by the detector's joker score alone (no whole-card look at it), the suit the centre pips
    show is not weighed into a doubtful corner reading, and no card is reported sure.
    """
    if getattr(detector, "look", None) is not None or not detector.settings.look:
        if getattr(detector, "sure_threshold", 0.0) is None and getattr(detector, "look", None) is not None:
            # every model there, but no threshold measured on these very files: nothing will be sure,
            # and a dealer who sees every card doubtful should be told why
            return _("warning: the sure thresholds of {meta} were not measured on these model files (one was "
                     "changed, added or removed, or the file is missing), so no card is reported sure and "
                     "every name waits for the dealer (measure them: benchmarks/eval_sure.py --write)",
                     meta=getattr(detector, "meta_path", META_FILE)).render(lang)
        return None
    path = getattr(detector, "look_path", LOOK_FILE)
    return _("warning: the optional model {path} is missing, so the whole-card look is off: cards "
             "whose corners show no index (jokers without one) are not looked at whole, and the suit "
             "the centre pips show is not checked, and no card is reported sure (restore the model, "
             "or give --no-look to silence this)", path=path).render(lang)


def model_checksums(model_dir: str | Path) -> dict[str, str]:
    """``{file: sha256[:16]}`` of the models a ``sure`` threshold is measured on (the layout
    model and the court-suit reader too, where the folder has them)."""
    from dealer_assist.vision.enroll import file_sha256

    d = Path(model_dir)
    return {name: file_sha256(d / name) for name in (OBB_FILE, CLS_FILE, LOOK_FILE, LAYOUT_FILE, COURT_SUIT_FILE)
            if (d / name).is_file()}


def sure_kind(name: str, covered: bool = False) -> str | None:
    """The kind with a ``sure`` threshold of its own (:data:`SURE_KINDS`) that a card of this
    name is, None for the rest (2 to 10, aces, ``??``); ``covered``: the card shows one index
    corner (:func:`_one_corner`), which makes a court card a ``covered_court``.

    >>> [sure_kind(n) for n in ("Qc", "Jh", "Ks", "JK", "Td", "As", "??")]
    ['court', 'court', 'court', 'joker', None, None, None]
    >>> [sure_kind(n, covered=True) for n in ("Qc", "JK", "Td")]
    ['covered_court', 'joker', None]
    """
    if name == "JK":
        return "joker"
    if is_court(name):
        return "covered_court" if covered else "court"
    return None


def measured_sure(model_dir: str | Path, meta: dict[str, Any], small: bool = False,
                  kind: str | None = None) -> float | None:
    """The ``sure`` threshold ``models.json`` (``meta``) holds for the models in ``model_dir``
    (``small``: the one for cards under :data:`SURE_MIN_SIDE` pixels, its ``"small"`` entry;
    ``kind``: the one of court cards or jokers of that size and more, its entry of that name,
    :data:`SURE_KINDS`): None when it holds none, when it was measured on other models (its
    checksums differ: new models must be measured again, ``benchmarks/eval_sure.py --write``),
    for another way of making the sureness (its ``"score_id"`` is not :data:`SURE_SCORE`) or,
    for small cards, at another size.

    >>> measured_sure("nowhere", {}), measured_sure("nowhere", {"sure": {"threshold": "high"}})
    (None, None)
    >>> measured_sure("nowhere", {"sure": {"threshold": 0.8, "models": {}, "score_id": "p x look"}}) is None
    True
    >>> measured_sure("nowhere", {"sure": {"threshold": 0.8, "models": {}, "score_id": SURE_SCORE,
    ...                                    "small": {"threshold": 0.9, "below_px": 50}}}, small=True) is None
    True
    >>> measured_sure("nowhere", {"sure": {"threshold": 0.8, "models": {}, "score_id": SURE_SCORE}}, kind="court") is None
    True
    """
    entry = meta.get(SURE_KEY)
    if not isinstance(entry, dict) or entry.get("score_id") != SURE_SCORE:
        return None
    if kind is not None:
        own = entry.get(kind)
        if kind not in SURE_KINDS or not isinstance(own, dict):
            return None
        entry = {**entry, "threshold": own.get("threshold")}
    elif small:
        own = entry.get("small")
        if not isinstance(own, dict) or own.get("below_px") != SURE_MIN_SIDE:
            return None
        entry = {**entry, **own}     # its threshold, checked against the entry's models
    value = entry.get("threshold")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if entry.get("models") != model_checksums(model_dir):
        return None
    return float(value)


def read_image(path: str | Path, named: bool = True) -> np.ndarray:
    """A BGR uint8 frame from an image file; :class:`UserError` when it is not one, naming the
    file (unless ``named`` is false: where the caller lists the reason beside the file's name)."""
    p = Path(path)
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as exc:
        raise UserError(_("cannot read {path}: {why}", path=p, why=os_reason(exc)) if named else
                        _("cannot read it: {why}", why=os_reason(exc))) from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:                   # a phone's HEIC photo is named as one, with what to do
        raise UserError(unreadable_reason(p, data[:16].tobytes(), named=named))
    return image


def draw_annotations(image: np.ndarray, result: dict[str, Any], lang: str = "ja") -> np.ndarray:
    """A copy of the frame with each card's outline and name, and backs outlined. A card that is
    not sure is drawn in magenta (as the desk marks it), its name followed by ``?`` and the
    likeliest other name where the reader has one (``Kc? Ks 0.87``: what to check it against); an
    unreadable card (``??``) in amber; a sure one in green. Words ("back") are in ``lang`` where a
    typeface can draw them (:mod:`dealer_assist.drawtext`)."""
    out = image.copy()
    back = words_for(_p("picture", "back"), lang)
    for b in result.get("backs", []):
        pts = np.round(np.array(b["polygon"])).astype(np.int32)
        cv2.polylines(out, [pts], True, (200, 120, 0), 2, cv2.LINE_AA)
        put_text(out, back, _label_at(pts, text_size(back, 0.5)[0], out.shape), 0.5, (200, 120, 0), 1)
    for c in result.get("cards", []):
        pts = np.round(np.array(c["polygon"])).astype(np.int32)
        if c["card"] == "??":
            colour, name = (0, 200, 255), "??"
        elif c.get("sure", True):
            colour, name = (0, 220, 0), c["card"]
        else:
            # the desk's mark of a card the dealer should confirm (magenta, #ff3dbb)
            colour, name = (187, 61, 255), f"{c['card']}?" + (f" {c['or']}" if c.get("or") else "")
        label = f"{name} {c['confidence']:.2f}"
        org = _label_at(pts, text_size(label, 0.55, 3)[0], out.shape)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        put_text(out, label, org, 0.55, (0, 0, 0), 3)          # a dark edge, then the colour
        put_text(out, label, org, 0.55, colour, 1)
    return out


def _label_at(pts: np.ndarray, width: int, shape: tuple) -> tuple[int, int]:
    """Where a box's label starts: above its first corner, kept inside the picture (a card at an
    edge keeps its name in view)."""
    h, w = shape[:2]
    return (max(2, min(int(pts[0][0]), w - width - 2)), max(14, min(int(pts[0][1]) - 4, h - 4)))


def default_model_dir() -> Path:
    """``models/`` of the checkout (beside the package), else ``./models``."""
    here = Path(__file__).resolve().parent.parent.parent / "models"
    return here if here.is_dir() else Path("models")



