"""Deck enrollment: learn one physical deck from a few photos of its cards.

Each photo goes through the same detector and geometry as detection (so the references look
exactly like what detection will compare them with). Which card a photo shows comes from, in
order:

1. ``card=`` (the ``--card`` option): every photo shows that card (e.g. ``--card JK``);
2. a label sidecar ``PHOTO.json`` in the dataset schema (docs/synth.md): each labelled card is
   matched to the detection nearest its centre;
3. the file name: ``JK.jpg``, ``JK-2.png``, ``Ah_front.jpg``, ``10h.jpg`` (the part before the
   first ``-``, ``_`` or space), the photo's largest detected card being that card; ``BACK.jpg``
   is the deck's back (its whole-card look only: with the jokers, it tells a joker whose art
   passes for a back from the deck's real backs);
4. a file named after a suit (``spades.jpg``, ``clubs-2.png``, ``hearts``, ``diamonds``): the
   photo shows that suit's 13 cards laid out A 2 3 ... K in reading order (left to right, row by
   row, top row first) - a whole deck in four photos. A photo in which not exactly 13 cards are
   found is skipped with that reason.

Whole-card templates are kept only for cards that are fully in view (photos named by file or
``--card``; labelled cards at least 90 % visible); corner embeddings for every corner whose index
is visible.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from dealer_assist.cards import HIDDEN, Card, CardError
from dealer_assist.errors import UserError, Worded
from dealer_assist.i18n import Said, _, both, join, message_of, os_reason, typed
from dealer_assist.vision import geometry
from dealer_assist.vision.classifier import file_reason
from dealer_assist.vision.decks import BACK_LABEL, TEMPLATE_H, TEMPLATE_W, card_template, deck_dir, label_of, \
    save_deck
from dealer_assist.vision.detector import CLS_FILE, CardDetector, DetectorSettings, read_image
from dealer_assist.vision.steps import DEFAULT_STEPS

#: detector score a box needs in an enrollment photo (lower than at run time: the photo is known
#: to show a card)
ENROLL_CONF = 0.1
#: The reader's steps for the enrollment's check (:func:`read_alone`): all but the one that leaves
#: unnamed a number read on a face showing a picture (``numbers_on_pictures``). The check records
#: what the corners misread (a queen's Q read as a 10), and the deck's own corners then name such
#: cards at the table (:meth:`decks.Deck.adjust`); a check that saw ``??`` there recorded no
#: misreading, and Debian's ``anglo_modern`` enrolled read 0.7463 of its cards right instead of
#: 0.7951 (models/MODEL_CARD.md, "Fifty-fifth session").
CHECK_STEPS = tuple(s for s in DEFAULT_STEPS if s != "numbers_on_pictures")


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _name_token(path: str | Path) -> str:
    """The part of a photo's file name before the first ``-``, ``_`` or space."""
    return re.split(r"[-_ ]", Path(path).stem, maxsplit=1)[0]


def card_from_filename(path: str | Path) -> Card:
    """The card a photo is named after.

    >>> str(card_from_filename("photos/JK-2.jpg")), str(card_from_filename("10h_front.png"))
    ('JK', 'Th')
    >>> card_from_filename("IMG_0042.jpg")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: IMG_0042.jpg: name the photo after its card (JK.jpg, Ah-2.jpg, 10h_front.png) or give --card
    """
    try:
        return Card.parse(_name_token(path))
    except CardError:
        raise UserError(_("{name}: name the photo after its card (JK.jpg, Ah-2.jpg, 10h_front.png) "
                          "or give --card", name=Path(path).name)) from None


#: File-name words of a suit-row photo (rule 4 above) and their suit letter.
SUIT_WORDS = {"spades": "s", "hearts": "h", "diamonds": "d", "clubs": "c"}
#: The ranks of a suit-row photo, in the order they are laid out.
ROW_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def suit_of_filename(path: str | Path) -> str | None:
    """The suit letter a suit-row photo is named after, else None.

    >>> suit_of_filename("tonight/Spades-1.jpg"), suit_of_filename("clubs.png"), suit_of_filename("As.jpg")
    ('s', 'c', None)
    """
    return SUIT_WORDS.get(_name_token(path).lower())


def reading_order(centres: np.ndarray, heights: np.ndarray) -> list[int]:
    """Indices of cards laid out in rows, in reading order: rows top to bottom (a card starts a
    new row when its centre is more than half a card's height below the row's first card), each
    row left to right.

    >>> reading_order(np.array([[300, 105], [100, 100], [200, 310], [100, 300], [200, 95]]), np.full(5, 140.0))
    [1, 4, 0, 3, 2]
    """
    c = np.asarray(centres, np.float64)
    by_y = sorted(range(len(c)), key=lambda i: c[i, 1])
    rows: list[list[int]] = []
    for i in by_y:
        if rows and c[i, 1] - c[rows[-1][0], 1] <= 0.5 * float(np.median(heights)):
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda j: c[j, 0])]


#: What a photo of the deck's back is enrolled as (``BACK.jpg`` or ``--card BACK``).
BACK = "BACK"


def _targets(path: Path, result_cards: list[dict[str, Any]], card: Card | str | None
             ) -> list[tuple[int, Card | str, bool]]:
    """(detection number, card, fully visible) pairs to enroll from one photo."""
    if not result_cards:
        return []
    sidecar = path.with_suffix(".json")
    if card is None and sidecar.is_file():
        try:
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
            labelled = meta["cards"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise UserError(_("{path}: not a label file ({why})", path=sidecar, why=file_reason(exc))) from None
        centres = np.array([c["center"] for c in result_cards], np.float64)
        out = []
        for lab in labelled:
            poly = np.asarray(lab["polygon"], np.float64)
            d = np.linalg.norm(centres - poly.mean(axis=0), axis=1)
            j = int(d.argmin())
            size = float(np.linalg.norm(poly[0] - poly[1]))
            if d[j] > 0.25 * size:
                continue
            vis = lab.get("corners_visible", [True, True])
            if not any(vis) and lab["card"] != "JK":
                continue
            out.append((j, Card.parse(lab["card"]), float(lab.get("visible_fraction", 1.0)) >= 0.9))
        return out
    suit = suit_of_filename(path) if card is None else None
    if suit is not None:
        if len(result_cards) != len(ROW_RANKS):
            raise _Skip(_("named after a suit, so it should show that suit's 13 cards (A to K in "
                          "reading order); {n} cards were found", n=len(result_cards)))
        polys = [np.asarray(c["polygon"], np.float64) for c in result_cards]
        heights = np.array([max(np.linalg.norm(q[1] - q[2]), np.linalg.norm(q[0] - q[1])) for q in polys])
        order = reading_order(np.array([c["center"] for c in result_cards]), heights)
        return [(j, Card.parse(r + suit), True) for j, r in zip(order, ROW_RANKS)]
    if card is not None:
        target = card
    elif _name_token(path).upper() == BACK:
        target = BACK
    else:
        target = card_from_filename(path)
    areas = [abs(_area(np.array(c["polygon"]))) for c in result_cards]
    return [(int(np.argmax(areas)), target, True)]


class _Skip(Worded, Exception):
    """A photo that cannot be used, with the reason (listed under ``skipped``)."""

    def __init__(self, message: object):
        super().__init__(self._words(message))


def _area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def _check_writable(folder: Path, name: str) -> None:
    """:class:`UserError` before any photo is read where the deck cannot go to ``folder``: it, or a
    folder above it, is a file (``--root`` naming a file)."""
    for q in (folder, *folder.parents):
        try:
            if q.exists() and not q.is_dir():
                raise UserError(_("cannot write deck {name} to {folder}: {path} is a file, not a folder",
                                  name=typed(name), folder=folder, path=q))
        except OSError as exc:          # a name too long for the system, a folder without permission
            raise UserError(_("cannot write deck {name} to {folder}: {why}", name=typed(name), folder=folder,
                              why=os_reason(exc))) from None


def read_alone(reader: CardDetector, image: np.ndarray, cards: list[tuple[np.ndarray, Card]]) -> list[dict[str, Any]]:
    """How the reader without the deck reads the photo's known cards (``(outline, card)``): per
    card ``{"card", "read", "sure"}``, ``read`` the name of the card found most over its outline
    (IoU at least 0.5), None where none is."""
    found = reader.detect(image)["cards"]
    out = []
    for outline, card in cards:
        best, iou = None, 0.5
        for d in found:
            v = geometry.polygon_iou(d["polygon"], outline)
            if v >= iou:
                best, iou = d, v
        out.append({"card": str(card), "read": None if best is None else best["card"],
                    "sure": bool(best is not None and best.get("sure"))})
    return out


def merged_checks(earlier: Any, new: dict[str, Any]) -> dict[str, Any]:
    """A deck's check after photos were added to it (``enroll-deck --append``): the earlier
    photos' findings and the new ones' together, so that a misreading seen before stays a doubt
    (:func:`dealer_assist.vision.decks.check_doubts`); ``new`` alone where there is no earlier
    check or it is not one.

    >>> a = {"cards": 2, "right": 1, "right_sure": 1, "wrong": [{"card": "Kd", "read": "Td", "sure": True}],
    ...      "unreadable": [], "missed": []}
    >>> b = {"cards": 1, "right": 0, "right_sure": 0, "wrong": [], "unreadable": ["JK"], "missed": []}
    >>> m = merged_checks(a, b); m["cards"], m["right"], m["wrong"][0]["read"], m["unreadable"]
    (3, 1, 'Td', ['JK'])
    >>> merged_checks(["not", "a", "check"], b) == b
    True
    """
    if not isinstance(earlier, dict) or not all(isinstance(earlier.get(k) or [], list)
                                                for k in ("wrong", "unreadable", "missed")):
        return new
    try:
        return {"cards": int(earlier.get("cards", 0)) + new["cards"],
                "right": int(earlier.get("right", 0)) + new["right"],
                "right_sure": int(earlier.get("right_sure", 0)) + new["right_sure"],
                **{k: list(earlier.get(k) or []) + new[k] for k in ("wrong", "unreadable", "missed")}}
    except (TypeError, ValueError):
        return new


def check_summary(check: list[dict[str, Any]]) -> dict[str, Any]:
    """What the enrollment photos say of how the reader alone reads this deck: ``cards`` (views
    of known cards), ``right``, ``right_sure``, ``wrong`` (each ``{"card", "read", "sure"}``: the
    name of another card), ``unreadable`` (cards read ``??``) and ``missed`` (cards no box was
    found on). The photos are close and sharp, so the table will not be read better: a deck
    misread here, above all one read surely wrong, is read worse at the table.

    >>> s = check_summary([{"card": "Qd", "read": "Qd", "sure": True}, {"card": "Kd", "read": "Td", "sure": True},
    ...                    {"card": "7c", "read": None, "sure": False}, {"card": "JK", "read": "??", "sure": False}])
    >>> s["cards"], s["right"], s["right_sure"], s["wrong"], s["unreadable"], s["missed"]
    (4, 1, 1, [{'card': 'Kd', 'read': 'Td', 'sure': True}], ['JK'], ['7c'])
    """
    right = [c for c in check if c["read"] == c["card"]]
    return {"cards": len(check), "right": len(right), "right_sure": sum(c["sure"] for c in right),
            "wrong": [c for c in check if c["read"] not in (None, HIDDEN) and c["read"] != c["card"]],
            "unreadable": [c["card"] for c in check if c["read"] == HIDDEN],
            "missed": [c["card"] for c in check if c["read"] is None]}


def enroll_deck(name: str, images: list[str | Path], model_dir: str | Path, root: str | Path | None = None,
                card: str | None = None, append: bool = False) -> dict[str, Any]:
    """Enroll deck ``name`` from ``images``; returns a summary (also written as deck.json).
    Photos in which nothing usable is found are listed under ``"skipped"`` with the reason in
    both languages (``"reason"``, ``"reason_ja"``), as deck.json keeps it. ``"photos_check"``
    says how the reader without the deck read these photos' cards (:func:`check_summary`):
    whether this deck is one the reader reads well; ``"check"``, kept in deck.json, is that with
    an earlier enrollment's where ``append`` adds to one (:func:`merged_checks`). What it saw the
    reader misread is never reported sure with the deck (:func:`decks.check_doubts`)."""
    folder = deck_dir(name, root)
    _check_writable(folder, name)
    fixed: Card | str | None = (BACK if card.strip().upper() == BACK else Card.parse(card)) if card else None
    # a photo is known to show a card: a low score or a "back" call (a new joker art can look
    # like a back design) must not lose it, so every box of any class counts here
    det = CardDetector(model_dir, settings=DetectorSettings(conf=ENROLL_CONF))
    emb_l: list[np.ndarray] = []
    lab_l: list[int] = []
    read_l: list[bool] = []
    tmpl_l: list[np.ndarray] = []
    tlab_l: list[int] = []
    skipped: list[dict[str, str]] = []

    def skip(p: Path, reason: Any) -> None:
        en, ja = both(reason)
        skipped.append({"image": str(p), "reason": en, "reason_ja": ja})
    views: dict[str, int] = {}
    appended_to: Any = None             # the deck's earlier check, when photos are added to it
    reader: CardDetector | None = None      # the reader without the deck, for the check
    check: list[dict[str, Any]] = []
    for path in images:
        p = Path(path)
        try:
            image = read_image(p, named=False)     # listed beside its name
            boxes = det.find_boxes(image)[0]       # UserError: too small or too thin to hold a card
        except UserError as exc:
            skip(p, message_of(exc))
            continue
        polys = [geometry.order_card_polygon(geometry.polygon_from_obb(b)) for b in boxes]
        found = [{"center": b[:2].tolist(), "polygon": q.tolist()} for b, q in zip(boxes, polys)]
        try:
            targets = _targets(p, found, fixed)
        except _Skip as exc:
            skip(p, message_of(exc))
            continue
        if not targets:
            skip(p, _("no card found in the photo"))
            continue
        if any(c != BACK for _j, c, _f in targets):
            reader = reader or CardDetector(model_dir, settings=DetectorSettings(steps=CHECK_STEPS))
            check += read_alone(reader, image, [(polys[j], c) for j, c, _f in targets if c != BACK])
        for j, c, full in targets:
            if c == BACK:       # the deck's back: its whole-card look only
                tmpl_l.append(card_template(image, polys[j])[0])
                tlab_l.append(BACK_LABEL)
                views[BACK] = views.get(BACK, 0) + 1
                continue
            emb, readable = det.read_corners_of(image, polys[j])
            for k in range(2):
                emb_l.append(emb[k])
                lab_l.append(c.index)
                read_l.append(bool(readable[k]))
            if full:
                tmpl_l.append(card_template(image, polys[j])[0])
                tlab_l.append(c.index)
            views[str(c)] = views.get(str(c), 0) + 1
    if append and (folder / "refs.npz").is_file():
        old = np.load(folder / "refs.npz")
        emb_l = list(old["corner_emb"]) + emb_l
        lab_l = list(old["corner_label"]) + lab_l
        read_l = list(old["corner_readable"]) + read_l
        tmpl_l = list(old["card_tmpl"]) + tmpl_l
        tlab_l = list(old["card_label"]) + tlab_l
        try:
            prev_info = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
            prev = prev_info.get("views", {})
            appended_to = prev_info.get("check")
        except (OSError, ValueError, AttributeError):
            prev = {}
        for k, v in prev.items():
            views[k] = views.get(k, 0) + int(v)
    if not lab_l and not tlab_l:
        reasons = join([join([s["image"], ": ", Said(s["reason"], s["reason_ja"])]) for s in skipped[:3]], "; ")
        raise UserError(_("nothing to enroll for deck {name}: {reasons}", name=typed(name), reasons=reasons))
    emb_dim = len(emb_l[0]) if emb_l else 0     # a back alone has no corners
    photos_check = check_summary(check)
    info = {"name": name, "enrolled_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "views": dict(sorted(views.items(), key=lambda kv: label_of(kv[0]))),
            "corner_model": file_sha256(Path(model_dir) / CLS_FILE),
            "template": [TEMPLATE_W, TEMPLATE_H], "skipped": skipped,
            "check": merged_checks(appended_to, photos_check)}
    try:
        save_deck(folder, info, np.array(emb_l, np.float32).reshape(len(emb_l), emb_dim), np.array(lab_l, np.int64),
                  np.array(read_l, bool), np.array(tmpl_l, np.float32).reshape(len(tlab_l), TEMPLATE_W * TEMPLATE_H * 3),
                  np.array(tlab_l))
    except OSError as exc:
        raise UserError(_("cannot write deck {name} to {folder}: {why}", name=typed(name), folder=folder,
                          why=os_reason(exc))) from None
    return {**info, "folder": str(folder), "photos_check": photos_check}
