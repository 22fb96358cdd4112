"""Stage 5: a court card's suit, read from its two ends (runtime: numpy + OpenCV + ONNX Runtime).

A jack, queen or king shows its suit only in small signs: the one under the rank in each index,
and the one beside the figure's head. The look (:mod:`look`) sees the whole card at 56 x 78
pixels, where those signs are a few pixels wide, so its share for a court's suit is weak (a
median of about 0.8 on right names, on the real photos as on the rendered sets), and the layout
(:mod:`layout`) checks a court's colour only. Until this stage a black court was almost never
sure: the club/spade confusions of the corner classifier are the surest wrong names of every
validation set, and nothing but the index itself spoke to them.

This small CNN (the corner classifier's network, four outputs) sees each end of a court card
at the detail the frame gives: the card's top-left region (:data:`REGION`: the index and the
sign beside the head) rectified to :data:`SIZE`, and the bottom-right one turned by 180
degrees, and says which suit it shows (:meth:`CourtSuitReader.end_probs`). A court name's
agreement (:func:`end_agreement`) is the named suit's probability at the ends whose index the
corner classifier sees (one end may be covered by another card, or cut by the frame's edge): the
smaller of the two where both are in view, since both ends of one card show its suit;
:meth:`CardDetector.sureness` multiplies a court's sureness by it
(models/MODEL_CARD.md, "Sixteenth session" and "Twenty-sixth session"). It is trained on the project's rendered cards only
(``python -m dealer_assist.vision.train_court_suit``), colours kept (a red suit is told from a
black one by its colour too).

>>> import numpy as np
>>> court_crops(np.zeros((720, 1280, 3), np.uint8), [[100, 100], [160, 100], [160, 184], [100, 184]]).shape
(2, 56, 56, 3)
>>> is_court("Qs"), is_court("Ts"), is_court("JK"), is_court("??")
(True, False, False, False)
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from dealer_assist.i18n import _
from dealer_assist.vision import geometry
from dealer_assist.vision.classifier import READABLE
from dealer_assist.vision.look import PatchClassifier

#: The region of an upright card each end's crop shows, as fractions of the card's width (x) and
#: height (y): (x0, y0, x1, y1). It holds the index and the sign beside a court's head, and
#: reaches a little outside the card so that a box somewhat off still shows the index.
REGION = (-0.04, -0.03, 0.50, 0.36)
#: Crop size (width, height) in pixels: about the detail of a 120-pixel-wide card, the real
#: photos' median.
SIZE = (56, 56)
#: Suits in the order of ``Card.index % 4`` (the model's outputs).
SUITS = "cdhs"
CLASSES = ("club", "diamond", "heart", "spade")
#: File name inside a model folder (optional: without it a court's sureness is as before).
COURT_SUIT_FILE = "court-suit.onnx"


def is_court(name: str) -> bool:
    """Whether a two-letter card name is a jack, queen or king."""
    return len(name) == 2 and name[0] in "JQK" and name[1] in SUITS


def court_crops(image: np.ndarray, ordered: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """The two ends of a card (ordered outline TL, TR, BR, BL) as the reader sees them, shape
    (2, SIZE[1], SIZE[0], 3): [0] the top-left region, [1] the bottom-right one turned by 180
    degrees."""
    return geometry.corner_crops(image, ordered, region=REGION, size=SIZE)


def end_agreement(probs: np.ndarray, name: str, visible: Sequence[float] | np.ndarray | None = None) -> float:
    """A court name's agreement from its two ends' suit probabilities (2, 4): the probability
    of the named suit at the ends whose index is in view (``visible``: each end's P(an index is
    in view) as the corner classifier read it, at least :data:`READABLE`). Where both are in
    view, the SMALLER: both ends of one card show its suit, and an end that doubts it doubts
    the name (the surest wrong courts of the validation sets were read surely at one end and
    in doubt at the other: a Qc on a Qd with blue diamonds, 0.97 and 0.45). Where one is in view,
    that one (the other end shows whatever covers it, and a name is not helped by it); where
    neither is (or ``visible`` is None), the larger of the two.

    >>> p = np.array([[0.9, 0.0, 0.0, 0.1], [0.4, 0.0, 0.0, 0.6]])
    >>> end_agreement(p, "Kc", visible=[0.9, 0.95]), end_agreement(p, "Ks", visible=[0.9, 0.95])
    (0.4, 0.1)
    >>> end_agreement(p, "Kc", visible=[0.1, 0.95]), end_agreement(p, "Kc", visible=[0.1, 0.2])
    (0.4, 0.9)
    >>> end_agreement(p, "Kc")
    0.9
    """
    p = np.asarray(probs, np.float64)[:, SUITS.index(name[1])]
    ends = None if visible is None else np.asarray(visible, np.float64) >= READABLE
    if ends is None or not ends.any():
        return float(np.max(p))
    return float(np.min(p[ends]))


class CourtSuitReader(PatchClassifier):
    """The exported court-suit CNN: BGR uint8 crops (N, 56, 56, 3) in, suit probabilities (N, 4)
    in :data:`CLASSES` order out."""

    what = _("court suit reader")
    classes = CLASSES
    input_hw = (SIZE[1], SIZE[0])

    def end_probs(self, image: np.ndarray, outlines: list[np.ndarray]) -> list[np.ndarray]:
        """Per card (ordered outline) its two ends' suit probabilities (2, 4), read in one batch."""
        if not outlines:
            return []
        probs = self(np.concatenate([court_crops(image, o) for o in outlines]))
        return [probs[2 * k:2 * k + 2] for k in range(len(outlines))]


def load_court_suit(model_dir: str | Path) -> CourtSuitReader | None:
    """The folder's court-suit model, or None when it has none."""
    path = Path(model_dir) / COURT_SUIT_FILE
    return CourtSuitReader(path) if path.is_file() else None
