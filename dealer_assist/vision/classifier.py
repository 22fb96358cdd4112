"""Stage 2: name a card from its two index corners (runtime: numpy + ONNX Runtime only).

The corner classifier sees one :data:`~dealer_assist.vision.geometry.CROP_W` x
:data:`~dealer_assist.vision.geometry.CROP_H` BGR crop cut by :mod:`geometry` and gives 54
probabilities: ``0..51`` are the cards in :attr:`dealer_assist.cards.Card.index` order, ``52`` is
the joker (a joker whose corner carries an index) and ``53`` is *none* (the corner is covered,
out of the frame, or carries no index). It also outputs a unit-length embedding of the crop,
which deck enrollment (:mod:`dealer_assist.vision.decks`) compares against a deck's own cards.

:func:`fuse_card` combines the two corners of one card with the detector's face/joker scores, so
a card whose two corners are both visible counts once, and a covered corner says nothing.

>>> import numpy as np
>>> p = np.full(54, 0.001); p[51] = 1.0; p /= p.sum()          # a corner that reads "As"
>>> none = np.full(54, 0.001); none[NONE] = 1.0; none /= none.sum()
>>> name, conf = fuse_card(np.stack([p, none]), face_score=0.9, joker_score=0.01)   # 0.9 x P(As)=0.95
>>> name, round(conf, 2)
('As', 0.86)
>>> fuse_card(np.stack([none, none]), face_score=0.9, joker_score=0.01)[0]   # nothing readable
'??'
>>> fuse_card(np.stack([none, none]), face_score=0.1, joker_score=0.9)[0]    # joker by its look
'JK'
"""

from __future__ import annotations

import functools
import json
import math  # noqa: F401  (used by doctests)
import os
from pathlib import Path
from typing import Any

import numpy as np

from dealer_assist.cards import HIDDEN, Card
from dealer_assist.errors import UserError
from dealer_assist.i18n import Said, _, os_reason

#: Number of classifier outputs: 52 cards, the joker, none.
NUM_CLASSES = 54
#: Class of the joker (same as ``JOKER.index``).
JK = 52
#: Class "no index visible in this crop".
NONE = 53

#: A corner counts as readable when P(not none) is at least this.
READABLE = 0.5


def class_name(i: int) -> str:
    """Notation of a classifier class: ``'2c'`` .. ``'As'``, ``'JK'``, ``'none'``.

    >>> class_name(0), class_name(51), class_name(52), class_name(53)
    ('2c', 'As', 'JK', 'none')
    """
    if i == NONE:
        return "none"
    return str(Card.from_index(int(i)))


def class_of(card: str) -> int:
    """Classifier class of a card name (``'JK'`` -> 52).

    >>> class_of('As'), class_of('JK'), class_of('10h')
    (51, 52, 34)
    """
    return Card.parse(card).index


@functools.cache
def _shared_pool() -> bool:
    """Whether this process's sessions share ONNX Runtime's process-wide thread pool: only where
    ``DEALER_ASSIST_ORT_POOL=shared`` asks for it (to measure it: ``benchmarks/bench_detect.py
    --pool``), and this ONNX Runtime can make one. Decided, and the pool made, once.

    One pool serves the reader's five sessions faster: a 1280x720 frame in a median 2-3 ms less,
    with the same readings to the bit. But ONNX Runtime lets that pool's worker spin between runs
    (Python has no way to stop it): playing the sample clip at a camera's 15 frames a second, the
    process kept 1.3 cores busy against 0.8, and dropped no frame either way. A table's laptop
    has better use for that core than 2 ms (models/MODEL_CARD.md, "Thirtieth session"). So each
    session keeps a pool of its own."""
    if os.environ.get("DEALER_ASSIST_ORT_POOL", "session") != "shared":
        return False
    import onnxruntime as ort

    try:
        ort.set_global_thread_pool_sizes(0, 1)   # 0: one thread a physical core
    except Exception as exc:  # made already in this process: use it; else none
        return "already been created" in str(exc)
    return True


def session_options(ort):
    """ONNX Runtime session options for every session the project opens (in a process whose
    sessions share one thread pool, :func:`_shared_pool`, a session with a pool of its own
    cannot be opened)."""
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    if _shared_pool():
        opts.use_per_session_threads = False
    else:
        # The reader runs its sessions in turn. With spinning on, each session's worker threads
        # keep spinning after its run and take the cores from the next session: on a 2-core
        # machine a frame took a median 41 ms with spinning and 25 ms without
        # (benchmarks/bench_detect.py --spin; docs/vision.md). DEALER_ASSIST_ORT_SPIN=1 turns it
        # back on (to measure it).
        spin = os.environ.get("DEALER_ASSIST_ORT_SPIN", "0") == "1"
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    return opts


def file_reason(exc: BaseException) -> Said:
    """Why a file the reader needs (``models.json``, an enrolled deck, a label file) could not be
    read: ``str(exc)`` in English; in Japanese the system's reason (:func:`os_reason`), the line
    and column of a JSON mistake, or that its contents are not as expected.

    >>> r = file_reason(json.JSONDecodeError("Expecting value", "{", 1))
    >>> r.render("en")
    'Expecting value: line 1 column 2 (char 1)'
    >>> r.meaning.render("en"), file_reason(KeyError("cards")).meaning.render("en")
    ('line 1 column 2', 'its contents are not as expected')
    """
    if isinstance(exc, json.JSONDecodeError):
        meaning: Any = _("line {line} column {column}", line=exc.lineno, column=exc.colno)
    elif isinstance(exc, OSError):
        meaning = os_reason(exc)
    else:
        meaning = _("its contents are not as expected")
    return Said(str(exc), meaning)


def ort_reason(exc: BaseException) -> Said:
    """Why ONNX Runtime refused a model file: the first line of its own words (at most 200
    characters) in English; in Japanese what its status means.

    >>> r = ort_reason(RuntimeError("[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model failed"))
    >>> r.render("en"), r.meaning.render("en")
    ('[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model failed', 'the file cannot be parsed as an ONNX model')
    """
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "INVALID_PROTOBUF" in first or "Protobuf parsing failed" in first:
        meaning = _("the file cannot be parsed as an ONNX model")
    else:
        meaning = _("ONNX Runtime cannot load the file")
    return Said(first[:200], meaning)


def load_session(path: str | Path, what: object):
    """An ONNX Runtime session for a model file (:func:`session_options`); :class:`UserError`
    naming the file when it is missing or not a readable ONNX model. ``what`` names the model in
    the error (a catalogue message, ``_("card detector")``, or plain text)."""
    try:
        import onnxruntime as ort
    except ImportError:  # pragma: no cover - the runtime dependency is declared
        raise UserError(_("onnxruntime is not installed: pip install onnxruntime")) from None
    p = Path(path)
    if not p.is_file():
        raise UserError(_("{what} model not found: {path} (train one with python -m "
                          "dealer_assist.vision.train, or use the shipped models/ folder)", what=what, path=p))
    opts = session_options(ort)
    try:
        return ort.InferenceSession(str(p), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for corrupt files
        raise UserError(_("{what} model {path} cannot be loaded (corrupt or not an ONNX model): {why}",
                          what=what, path=p, why=ort_reason(exc))) from None


class CornerClassifier:
    """The exported corner CNN (``corner-cls.onnx``): BGR uint8 crops in, probabilities and
    embeddings out. The network normalises each crop itself, so the input is raw pixels."""

    def __init__(self, path: str | Path):
        self.session = load_session(path, _("corner classifier"))
        self.input_name = self.session.get_inputs()[0].name
        outs = [o.name for o in self.session.get_outputs()]
        if len(outs) < 2:
            raise UserError(_("corner classifier model {path}: expected outputs (probs, embedding), got {outs}",
                              path=path, outs=str(outs)))
        self.output_names = outs[:2]

    def __call__(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``crops`` (N, H, W, 3) uint8 BGR -> (probs (N, 54), embeddings (N, D))."""
        if len(crops) == 0:
            return np.zeros((0, NUM_CLASSES), np.float32), np.zeros((0, 0), np.float32)
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        probs, emb = self.session.run(self.output_names, {self.input_name: x})
        return probs, emb


#: The most the detector's class scores may make a box a joker before its corners are read
#: (:func:`card_posterior`). The detector's joker score is a guess from the card's art, and
#: court-card art it never trained on can score 0.7-0.8 as a joker; at this cap one corner
#: read surely as a suited card outweighs it, while a card whose corners read nothing (a joker
#: printed without an index) is still named JK on the score alone. Chosen on the validation
#: frames of the train styles (models/MODEL_CARD.md, "A court card taken for a joker").
JOKER_PRIOR_MAX = 0.9


def fuse_card(corner_probs: np.ndarray, face_score: float, joker_score: float,
              min_identity: float = 0.5, suit_llr: np.ndarray | None = None,
              joker_prior_max: float = JOKER_PRIOR_MAX) -> tuple[str, float]:
    """Name one card from its corners' probabilities (shape (k, 54), k = 1 or 2) and the
    detector's class scores for this box.

    Each corner votes with the weight P(readable) = 1 - P(none): a covered corner says nothing
    and two visible corners of the same card reinforce one identity (they are one card, never
    two). The detector's face/joker scores are the prior for "joker", so a joker is named by its
    whole look even when it has no index; the corners can overrule it and vice versa. Returns
    ``(name, confidence)``; ``name`` is ``'??'`` when no corner is readable and the card does not
    look like a joker, or when the identity is too uncertain (below ``min_identity``).
    Confidence = P(identity) x P(the box is a card).

    ``suit_llr`` (4 values, club diamond heart spade, or (13, 4): one row per rank, 2 to A):
    log-likelihood ratios of the suit seen elsewhere on the card (the look classifier's view of the
    centre pips), added to every card of that suit (of that rank); it can tip a corner torn
    between a spade and a club, not overrule a sure one.

    >>> spade_or_club = corner(["2s", "2c"], [0.5, 0.4])
    >>> fuse_card(np.stack([spade_or_club, spade_or_club]), 0.9, 0.01)[0]
    '2s'
    >>> clubs = np.log(np.array([0.9, 0.02, 0.02, 0.06]) * 4)
    >>> fuse_card(np.stack([spade_or_club, spade_or_club]), 0.9, 0.01, suit_llr=clubs)[0]
    '2c'

    A court card whose art the detector takes for a joker's is named by the one corner that
    shows its index; with nothing readable the same scores name a joker:

    >>> queen = np.stack([corner(["Qs"], [0.95]), corner(["none"], [0.95])])
    >>> fuse_card(queen, 0.03, 0.77)[0], fuse_card(np.stack([corner(["none"], [0.95])] * 2), 0.03, 0.77)[0]
    ('Qs', 'JK')
    """
    post, vis = card_posterior(corner_probs, face_score, joker_score, suit_llr, joker_prior_max)
    return name_from_posterior(post, vis, face_score, joker_score, min_identity)


def name_from_posterior(post: np.ndarray, vis: np.ndarray, face_score: float, joker_score: float,
                        min_identity: float = 0.5) -> tuple[str, float]:
    """:func:`fuse_card`'s decision from :func:`card_posterior`'s output (for a caller that
    needs the posterior too)."""
    best = int(post.argmax())
    det = min(1.0, max(face_score, joker_score))
    readable = float(vis.max()) >= READABLE
    if best != JK and not readable:
        return HIDDEN, float(det * (1.0 - vis.max()))
    if post[best] < min_identity:
        return HIDDEN, float(det * post[best])
    return class_name(best), float(det * post[best])


def card_posterior(corner_probs: np.ndarray, face_score: float, joker_score: float,
                   suit_llr: np.ndarray | None = None, joker_prior_max: float = JOKER_PRIOR_MAX
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The posterior over the 53 identities (52 cards, JK) behind :func:`fuse_card`, and each
    corner's P(an index is visible). The prior that the box is a joker is the detector's joker
    share of its face and joker scores, kept within 0.02 .. ``joker_prior_max``.

    >>> post, vis = card_posterior(np.stack([corner(["As"], [0.9]), corner(["As"], [0.9])]), 0.9, 0.01)
    >>> int(post.argmax()) == class_of("As"), bool(post.max() > 0.99), vis.round(2).tolist()
    (True, True, [1.0, 1.0])
    """
    p = np.asarray(corner_probs, np.float64).reshape(-1, NUM_CLASSES)
    eps = 1e-6
    vis = 1.0 - p[:, NONE]
    q = p[:, :NONE] + eps
    q /= q.sum(axis=1, keepdims=True)
    # log-likelihood ratio against "uniform over 53", each corner weighted by its visibility
    llr = (vis[:, None] * np.log(q * NONE)).sum(axis=0)
    if suit_llr is not None:
        sl = np.asarray(suit_llr, np.float64)
        llr[:JK] += np.tile(sl, JK // 4) if sl.ndim == 1 else sl.reshape(JK)
    pj = joker_score / max(face_score + joker_score, eps)
    pj = min(max(pj, 0.02), joker_prior_max)
    prior = np.full(NONE, (1.0 - pj) / (NONE - 1))
    prior[JK] = pj
    logpost = llr + np.log(prior)
    logpost -= logpost.max()
    post = np.exp(logpost)
    return post / post.sum(), vis


def corner(names: list[str], ps: list[float]) -> np.ndarray:
    """A corner reading (54 probabilities) that gives ``names`` (cards, ``'JK'`` or ``'none'``)
    the probabilities ``ps`` and spreads the rest (for examples and tests).

    >>> round(float(corner(["As"], [0.9])[class_of("As")]), 2), round(float(corner(["none"], [0.8])[NONE]), 2)
    (0.9, 0.8)
    """
    v = np.full(NUM_CLASSES, (1.0 - sum(ps)) / (NUM_CLASSES - len(names)))
    for n, p in zip(names, ps):
        v[NONE if n == "none" else class_of(n)] = p
    return v


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax.

    >>> [round(v, 3) for v in softmax(np.array([0.0, math.log(3.0)])).tolist()]
    [0.25, 0.75]
    """
    z = x - x.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)
