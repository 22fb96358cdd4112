"""Stage 3: the whole-card look (runtime: numpy + OpenCV + ONNX Runtime only).

The corner classifier names a card from its index corners. This small CNN sees the whole card
rectified to :data:`LOOK_W` x :data:`LOOK_H` pixels and says what KIND of thing it is, and for a
suited card, which suit its pips show:

* ``club``, ``diamond``, ``heart``, ``spade`` - a suited card (pips or a court figure), by suit,
* ``joker`` - a joker, by its art,
* ``back`` - a card face down,
* ``none`` - not a card (a chip, a hand, the felt).

The detector uses it twice (:class:`~dealer_assist.vision.detector.DetectorSettings`): a box
whose corners read no index (covered, or a joker printed without one) is named by its kind, and
the suit its centre pips show - larger than the index's suit sign, so more of them survive blur
and distance - weighs in with the corners' reading of a suited card.

It is trained on the project's rendered tables, with 48 seeded joker drawings
(:func:`dealer_assist.vision.synth.faces._draw_proc_joker`) beside the hand-made ones, so that it
learns "a face that is not a suited card" rather than a few drawings; the held-out jokers
(harlequin, sun) and decks are never seen.

>>> import numpy as np
>>> patch = look_patch(np.zeros((720, 1280, 3), np.uint8), [[100, 100], [160, 100], [160, 184], [100, 184]])
>>> patch.shape
(78, 56, 3)
>>> p = np.array([[0.1, 0.0, 0.0, 0.6, 0.2, 0.1, 0.0]])
>>> kinds(p).round(2).tolist(), suits(p).round(3).tolist()
([[0.7, 0.2, 0.1, 0.0]], [[0.143, 0.0, 0.0, 0.857]])
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from dealer_assist.errors import UserError
from dealer_assist.i18n import _
from dealer_assist.vision.classifier import load_session
from dealer_assist.vision.geometry import rectify_card

#: Input size of the look classifier (width, height): the whole card.
LOOK_W = 56
LOOK_H = 78
#: Its outputs, in order: the suited card by suit (the order of ``Card.index % 4``), then the
#: other kinds.
LOOK_CLASSES = ("club", "diamond", "heart", "spade", "joker", "back", "none")
#: Kinds (:func:`kinds` columns).
KINDS = ("face", "joker", "back", "none")
FACE, JOKER, BACK, NOTHING = range(4)
#: Output index of the joker, back and none classes.
JOKER_OUT, BACK_OUT, NONE_OUT = 4, 5, 6
#: File name inside a model folder (optional: without it the detector works as before).
LOOK_FILE = "card-look.onnx"


def kinds(probs: np.ndarray) -> np.ndarray:
    """(N, 4) probabilities of face / joker / back / none from the (N, 7) outputs."""
    p = np.asarray(probs, np.float64)
    return np.column_stack([p[:, :4].sum(axis=1), p[:, JOKER_OUT], p[:, BACK_OUT], p[:, NONE_OUT]])


def suits(probs: np.ndarray) -> np.ndarray:
    """(N, 4) suit probabilities (club, diamond, heart, spade) given a suited card."""
    p = np.asarray(probs, np.float64)[:, :4]
    return p / np.maximum(p.sum(axis=1, keepdims=True), 1e-9)


def look_patch(image: np.ndarray, ordered: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """The card inside ``ordered`` (TL, TR, BR, BL) rectified to the look classifier's input."""
    patch = rectify_card(image, ordered, width=LOOK_W)
    if patch.shape[0] != LOOK_H:  # rectify_card rounds width x card aspect: 56 -> 78
        raise AssertionError(f"look patch is {patch.shape}, expected {LOOK_H} rows")
    return patch


class PatchClassifier:
    """An exported whole-card CNN: BGR uint8 patches (N, LOOK_H, LOOK_W, 3) in, probabilities
    (N, len(classes)) out (its first output). Subclasses name what it is, its classes and, for
    other patches than the whole card's, their size."""

    what = _("card look classifier")
    classes: tuple[str, ...] = LOOK_CLASSES
    #: the input's (height, width)
    input_hw: tuple[int, int] = (LOOK_H, LOOK_W)

    def __init__(self, path: str | Path):
        self.session = load_session(path, self.what)
        self.input_name = self.session.get_inputs()[0].name
        self.output_name = self.session.get_outputs()[0].name
        shape = self.session.get_inputs()[0].shape
        outs = self.session.get_outputs()[0].shape
        self.classes = self.classes_for(outs[-1])
        if len(shape) != 4 or shape[2:] != list(self.input_hw) or outs[-1] != len(self.classes):
            raise UserError(_("{what} {path}: input {shape}, output {outs}; expected "
                              "[n, 3, {h}, {w}] -> [n, {k}]", what=self.what, path=path, shape=str(shape),
                              outs=str(outs), h=self.input_hw[0], w=self.input_hw[1], k=len(self.classes)))

    def classes_for(self, outputs) -> tuple[str, ...]:
        """The classes of a model with this many outputs (a subclass may take more than one
        size; any other size is refused by the caller)."""
        return self.classes

    def __call__(self, patches: np.ndarray) -> np.ndarray:
        if len(patches) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        x = np.ascontiguousarray(np.asarray(patches).transpose(0, 3, 1, 2), dtype=np.float32)
        return self.session.run([self.output_name], {self.input_name: x})[0]


class LookClassifier(PatchClassifier):
    """The exported look CNN: BGR uint8 patches (N, LOOK_H, LOOK_W, 3) in, probabilities
    (N, 7) in :data:`LOOK_CLASSES` order out. The first output is used."""
