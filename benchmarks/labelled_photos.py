"""Folders of labelled photos as public card datasets come: what each photo's labels name and
where they lie, for the real-photo yardstick (``benchmarks/eval_real.py``), which scores the
card reader against them. Reads, never writes; imports no detector (only the names of image
files the commands read: :mod:`dealer_assist.imagefiles`).

* The formats: a Pascal VOC ``.xml`` or a YOLO ``.txt`` beside each photo (or in a ``labels``
  folder standing where its ``images`` folder does, the class names in ``classes.txt``,
  ``obj.names`` or ``data.yaml``), or a COCO file for the folder (:func:`photos`,
  :func:`read_annotations`); a folder that holds no photo itself is read with all its parts.
* What a label names (:func:`parse_label`): a rank, a whole card in many spellings, a joker or a
  face-down card; anything else is another thing on the table (a chip), left out and counted.
* What a folder labels (:func:`conventions`, :func:`declared`): which ranks, jokers, face-down
  cards.
* A phone photo stored sideways with an EXIF turn: the frames its labels may have been drawn on
  (:func:`photo_frames`).
* Suits read by eye for a folder whose labels name ranks only (:func:`read_suits`,
  :func:`with_suits`).
"""
from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import numpy as np

from dealer_assist.imagefiles import is_image

#: VOC label -> rank symbol as the detector writes it (``Card`` names: rank then suit, ``T`` = 10)
VOC_RANKS = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
#: every rank a detection may name, low to high (for the confusion table)
ALL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
#: the ranks this folder's labels cover (edje-train: 9 to A); another folder's are found from its
#: own labels (:func:`conventions`)
LABELLED = tuple(VOC_RANKS.values())
UNKNOWN, JOKER, MISSED = "??", "JK", "-"

#: Rank words and signs a label may use (lower case) -> the detector's rank symbol.
RANK_WORDS = {**{w: s for w, s in zip(("two", "three", "four", "five", "six", "seven", "eight"), ALL_RANKS)},
              "deuce": "2", **VOC_RANKS, **{s.lower(): s for s in ALL_RANKS}, "10": "T"}
#: Suit words, letters and signs a label may use -> the suit letter of a card's name.
SUIT_WORDS = {**{w: w[0] for w in ("club", "diamond", "heart", "spade")},
              **{w + "s": w[0] for w in ("club", "diamond", "heart", "spade")},
              **{ch: ch for ch in "cdhs"}, "♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h",
              "♠": "s", "♤": "s"}
#: Words of a label naming a joker (with any of :data:`JOKER_TRIMS` beside, and a number).
JOKER_WORDS = {"joker", "jokers", "jk", "jkr"}
JOKER_TRIMS = {"red", "black", "big", "small", "little", "colour", "color", "coloured", "colored", "mono",
               "card", "the", "a"}
#: Labels of a card lying face down.
BACK_LABELS = {"back", "backs", "card back", "cardback", "face down", "facedown", "face down card",
               "back of card", "card face down"}


def parse_label(text: str) -> dict:
    """What one label names: ``{"rank": R}`` (a rank symbol of :data:`ALL_RANKS`) with ``"suit"``
    where it names one, ``{"rank": "JK"}`` for a joker, ``{"back": True}`` for a face-down card.
    Many spellings are read, as folders label cards in many ways; anything else is a
    ``ValueError`` naming the label.

    >>> parse_label("nine"), parse_label("Kc"), parse_label("10H"), parse_label("queen_of_spades")
    ({'rank': '9'}, {'rank': 'K', 'suit': 'c'}, {'rank': 'T', 'suit': 'h'}, {'rank': 'Q', 'suit': 's'})
    >>> parse_label("A♠"), parse_label("hearts 7"), parse_label("Red Joker"), parse_label("face-down")
    ({'rank': 'A', 'suit': 's'}, {'rank': '7', 'suit': 'h'}, {'rank': 'JK'}, {'back': True})
    >>> parse_label("eleven")
    Traceback (most recent call last):
    ValueError: not a card label: 'eleven'
    """
    t = " ".join(str(text).strip().lower().replace("_", " ").replace("-", " ").replace("/", " ").split())
    if t in BACK_LABELS:
        return {"back": True}
    words = [w for w in t.split() if w != "of"]
    if words and any(w.rstrip("0123456789") in JOKER_WORDS for w in words) and all(
            w.rstrip("0123456789") in JOKER_WORDS | JOKER_TRIMS or w.isdigit() for w in words):
        return {"rank": JOKER}
    if len(words) == 1:
        w = words[0]
        if w in RANK_WORDS:
            return {"rank": RANK_WORDS[w]}
        # "Kc", "10h", "A♠" (rank then suit), or "cK", "h10" (suit then rank)
        for k in range(1, len(w)):
            a, b = w[:k], w[k:]
            if a in RANK_WORDS and b in SUIT_WORDS:
                return {"rank": RANK_WORDS[a], "suit": SUIT_WORDS[b]}
            if a in SUIT_WORDS and b in RANK_WORDS:
                return {"rank": RANK_WORDS[b], "suit": SUIT_WORDS[a]}
    if len(words) == 2:
        a, b = words
        if a in RANK_WORDS and b in SUIT_WORDS:
            return {"rank": RANK_WORDS[a], "suit": SUIT_WORDS[b]}
        if a in SUIT_WORDS and b in RANK_WORDS:
            return {"rank": RANK_WORDS[b], "suit": SUIT_WORDS[a]}
    raise ValueError(f"not a card label: {text!r}")


#: a suit as a suits file writes it (``?``: the photo does not show it)
SUIT_LETTERS = "cdhs"


def read_labels(label_path: Path, image_path: Path | None = None) -> list[dict]:
    """The labelled face-up cards of one photo (:func:`read_annotations`):
    ``[{"rank": "K", "box": [x0, y0, x1, y1]}, ...]``, with ``"suit"`` where the label names one."""
    return read_annotations(label_path, image_path)[0]


def read_annotations(label_path: Path, image_path: Path | None = None,
                     others: Counter | None = None, size: tuple[int, int] | None = None) -> tuple[list[dict], list[dict]]:
    """The labelled face-up cards (as :func:`read_labels`) and face-down cards (``[{"box"}]``) of
    one photo: a Pascal VOC ``.xml`` (``<object><name>`` any spelling :func:`parse_label` reads,
    ``<bndbox>``), a YOLO ``.txt`` (``class cx cy w h`` or ``class x1 y1 x2 y2 ...`` as shares
    of the photo ``image_path``, the class names in :func:`yolo_names`) or the photo's part of a
    COCO ``.json`` (``bbox`` x, y, w, h in pixels; its ``categories`` name the classes). With
    ``others``, a label that names no card (a folder of a real table may label its chips and its
    dealer button too) is counted there by its name and left out; without, it is refused. A label that names no
    card, a malformed file or box is a clear ``ValueError`` naming the file. ``size`` (width,
    height) is the photo's as its YOLO shares are read (default: the upright photo's). A label
    marked ``<difficult>1`` (VOC) or ``iscrowd`` (COCO) carries ``"difficult": True``
    (``eval_real.set_aside``)."""
    label_path = Path(label_path)
    cards: list[dict] = []
    backs: list[dict] = []
    if label_path.suffix.lower() == ".txt":
        objects = [(name, box, False) for name, box in yolo_objects(label_path, image_path, size)]
    elif label_path.suffix.lower() == ".json":
        if image_path is None:
            raise ValueError(f"{label_path}: a COCO file is read for one of its photos")
        objects = [(name, [x, y, x + w, y + h], crowd)
                   for name, (x, y, w, h), crowd in _coco(label_path)[0].get(Path(image_path).name, [])]
    else:
        try:
            root = ET.parse(label_path).getroot()
        except (OSError, ET.ParseError) as e:
            raise ValueError(f"{label_path}: not a Pascal VOC file ({e})") from None
        objects = []
        for obj in root.findall("object"):
            b = obj.find("bndbox")
            try:
                box = [float(b.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax")]
            except (AttributeError, TypeError, ValueError):
                raise ValueError(f"{label_path}: an object without a whole <bndbox>") from None
            hard = (obj.findtext("difficult") or "0").strip().lower() in ("1", "true")
            objects.append(((obj.findtext("name") or "").strip(), box, hard))
    for name, box, hard in objects:
        if not (all(np.isfinite(box)) and box[2] > box[0] and box[3] > box[1]):
            raise ValueError(f"{label_path}: {name!r} has an empty or broken box {box}")
        try:
            what = parse_label(name)
        except ValueError as e:
            if others is None:
                raise ValueError(f"{label_path}: unknown label ({e})") from None
            others[name] += 1
            continue
        if what.get("back"):
            backs.append({"box": box, **({"difficult": True} if hard else {})})
        else:
            lab = {"rank": what["rank"], "box": box}
            if "suit" in what:
                lab["suit"] = what["suit"]
            cards.append({**lab, **({"difficult": True} if hard else {})})
    return cards, backs


#: Files that name a YOLO folder's classes, looked for beside its label files and up to two
#: folders above them
YOLO_NAME_FILES = ("classes.txt", "obj.names", "data.yaml", "dataset.yaml")


def yolo_names(label_path: Path) -> list[str]:
    """The class names of a YOLO label file's folder: one a line (``classes.txt``, ``obj.names``)
    or the ``names`` of a ``data.yaml`` (a list, or ids to names); read once a folder."""
    parent = Path(label_path).resolve().parent
    files = [f for d in [parent, *list(parent.parents)[:2]] for f in (d / fn for fn in YOLO_NAME_FILES)]
    stamps = tuple((st.st_mtime_ns, st.st_size) if (st := _stat(f)) else None for f in files)
    names = _yolo_names_of(parent, stamps)      # read again only where a class list changed
    if names is None:
        raise ValueError(f"{label_path}: a YOLO label file needs its class names beside it or above "
                         f"({', '.join(YOLO_NAME_FILES)})")
    return list(names)


def _stat(path: Path):
    try:
        return path.stat()
    except OSError:
        return None


@functools.lru_cache(maxsize=64)
def _yolo_names_of(parent: Path, stamps: tuple) -> tuple[str, ...] | None:
    """The class names of the YOLO label files of folder ``parent``: the first class list in it or
    in the two folders above (None where there is none); ``stamps``, the lists' times and sizes,
    tell a list changed since from the one read."""
    for folder in [parent, *list(parent.parents)[:2]]:
        for fn in YOLO_NAME_FILES:
            f = folder / fn
            if not f.is_file():
                continue
            import yaml

            try:
                text = f.read_text(encoding="utf-8")
                if f.suffix != ".yaml":
                    return tuple(ln.strip() for ln in text.splitlines() if ln.strip())
                data = yaml.safe_load(text)
            except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError) as e:
                raise ValueError(f"{f}: cannot be read ({type(e).__name__})") from None
            names = data.get("names") if isinstance(data, dict) else None
            if isinstance(names, dict):
                try:
                    by_id = {int(k): str(v) for k, v in names.items()}
                    return tuple(by_id[i] for i in range(len(by_id)))
                except (ValueError, TypeError, KeyError):
                    raise ValueError(f"{f}: 'names' maps the ids 0 to n-1 to class names") from None
            if isinstance(names, list):
                return tuple(str(n) for n in names)
            raise ValueError(f"{f}: no list of class names under 'names'")
    return None


def yolo_objects(label_path: Path, image_path: Path | None,
                 size: tuple[int, int] | None = None) -> list[tuple[str, list[float]]]:
    """(class name, box in pixels) of each line of a YOLO label file: its shares of a photo of
    ``size`` (width, height; default: the upright photo's, as :func:`read_photo` reads it)."""
    if size is None:
        if image_path is None:
            raise ValueError(f"{label_path}: a YOLO label file is read with its photo (its boxes are shares of it)")
        w, h = upright_size(Path(image_path))
    else:
        w, h = size
    names = yolo_names(label_path)
    try:
        lines = Path(label_path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{label_path}: cannot be read ({type(e).__name__})") from None
    out = []
    for n, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls, vals = int(parts[0]), [float(v) for v in parts[1:]]
        except ValueError:
            raise ValueError(f"{label_path}:{n}: not a YOLO line: {line!r}") from None
        if not 0 <= cls < len(names) or len(vals) < 4 or (len(vals) > 4 and len(vals) % 2):
            raise ValueError(f"{label_path}:{n}: not a YOLO line of {len(names)} classes: {line!r}")
        if len(vals) == 4:
            cx, cy, bw, bh = vals
            box = [(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h]
        else:
            xs, ys = np.asarray(vals[0::2]) * w, np.asarray(vals[1::2]) * h
            box = [float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())]
        out.append((names[cls], box))
    return out


def conventions(cards: list[list[dict]], backs: list[list[dict]]) -> dict:
    """What a folder's labels cover, from all its photos' labels (and the cards its class list
    declares, :func:`declared`, as one more photo's): ``ranks``, the ranks every card of
    which is labelled (9 to A as in edje-train, where a 5 named on no label may be an unlabelled 5
    and is not scored, or from a lower rank labelled anywhere up to the ace), ``jokers`` (some
    label names a joker: a ``JK`` on a joker's label is right) and ``backs`` (some label is a
    face-down card: a back on one is right).

    >>> conventions([[{"rank": "K"}, {"rank": "9"}], [{"rank": "A"}]], [[], []])
    {'ranks': ('9', 'T', 'J', 'Q', 'K', 'A'), 'jokers': False, 'backs': False}
    >>> conventions([[{"rank": "2"}, {"rank": "JK"}]], [[{"box": [0, 0, 1, 1]}]])["jokers"]
    True
    """
    seen = {lab["rank"] for labs in cards for lab in labs}
    low = min([ALL_RANKS.index(r) for r in seen if r in ALL_RANKS] + [ALL_RANKS.index(LABELLED[0])])
    return {"ranks": ALL_RANKS[low:], "jokers": JOKER in seen, "backs": any(backs)}


def read_photo(img_path: Path, label_path: Path | None = None) -> np.ndarray:
    """The photo as its labels were drawn on it, where they say (:func:`photo_frames`' first)."""
    return photo_frames(img_path, label_path)[0]


def photo_frames(img_path: Path, label_path: Path | None = None) -> list[np.ndarray]:
    """The photo as its labels may have been drawn on it. A phone photo may carry an EXIF
    orientation: OpenCV turns it upright, but some labelling tools (LabelImg) draw on the pixels
    as stored. Where the labels give the photo's size (a VOC ``<size>``, a COCO image's
    ``width`` and ``height``) and it fits only one, that one; where the photo carries no turn,
    the photo; else both, upright first (a YOLO file's shares, a turn by 180 degrees, no size):
    ``eval_real.evaluate`` then takes, for all such photos of a folder, the one whose labels lie best
    on the cards found. A file that is no image is a clear ``ValueError``."""
    return [im for im, _ in turned_frames(img_path, label_path)]


def turned_frames(img_path: Path, label_path: Path | None = None) -> list[tuple[np.ndarray, bool]]:
    """:func:`photo_frames`, each with whether it is the stored pixels of a turned photo."""
    import cv2

    data = np.fromfile(str(img_path), np.uint8)
    shown = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if shown is None:
        raise ValueError(f"{img_path}: not a readable image")
    if _orientation(img_path) == 1:          # no turn: the pixels are read once
        return [(shown, False)]
    stored = cv2.imdecode(data, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if stored is None or (stored.shape == shown.shape and np.array_equal(stored, shown)):
        return [(shown, False)]
    size = label_size(label_path, img_path) if label_path is not None else None
    fits = [(im, k == 1) for k, im in enumerate((shown, stored)) if size is None or size == (im.shape[1], im.shape[0])]
    return fits or [(shown, False)]


def _orientation(img_path: Path) -> int:
    """A photo's EXIF orientation (1: as stored) from its header, where Pillow reads one."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(img_path) as im:
            value = im.getexif().get(274, 1)
        return int(value) if isinstance(value, int) and 1 <= value <= 8 else 1
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError, TypeError):
        return 1


def upright_size(img_path: Path) -> tuple[int, int]:
    """(width, height) of the photo as :func:`read_photo` shows it upright (from its header and
    EXIF orientation alone, where Pillow reads them; else from the pixels)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(img_path) as im:
            w, h = im.size
            turned = im.getexif().get(274, 1) in (5, 6, 7, 8)      # EXIF orientation: a quarter turn
        return (h, w) if turned else (w, h)
    except (OSError, UnidentifiedImageError, ValueError, SyntaxError):
        h, w = read_photo(img_path).shape[:2]
        return w, h


def label_size(label_path: Path, img_path: Path) -> tuple[int, int] | None:
    """(width, height) of the photo as its label file gives it: a VOC ``<size>`` or a COCO
    image's ``width`` and ``height``; None where it gives none (a YOLO file never does)."""
    suffix = Path(label_path).suffix.lower()
    if suffix == ".xml":
        return voc_size(label_path)
    if suffix == ".json":
        return _coco_sizes(Path(label_path)).get(Path(img_path).name)
    return None


def voc_size(label_path: Path) -> tuple[int, int] | None:
    """(width, height) of a VOC file's ``<size>``; None where it gives none."""
    try:
        size = ET.parse(label_path).getroot().find("size")
        return (int(float(size.findtext("width"))), int(float(size.findtext("height")))) if size is not None else None
    except (OSError, ET.ParseError, TypeError, ValueError):
        return None


def with_label_suits(labels: list[dict]) -> list[dict]:
    """In a folder whose labels name suits: every label with its ``"suit"`` (None where its label
    names none, ``""`` for a joker, which has none to check)."""
    return [dict(lab, suit="" if lab["rank"] == JOKER else lab.get("suit")) for lab in labels]


def read_suits(path: Path) -> dict[str, str]:
    """The suits of a folder's labelled cards: ``{photo stem: "hcs..."}``, one letter (``c d h
    s``, or ``?`` where the photo does not show the suit) per ``<object>`` of its ``.xml``, in
    order. A malformed file is a clear ``ValueError``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a suits file ({e})") from None
    table = data.get("photos") if isinstance(data, dict) else None
    if not isinstance(table, dict):
        raise ValueError(f"{path}: a suits file is {{\"photos\": {{photo: \"hcs...\"}}}}")
    for stem, letters in table.items():
        if not isinstance(letters, str) or set(letters) - set(SUIT_LETTERS + "?"):
            raise ValueError(f"{path}: {stem}: suits are letters of {SUIT_LETTERS!r} or '?', not {letters!r}")
    return table


def with_suits(labels: list[dict], letters: str | None, photo: str = "") -> list[dict]:
    """``labels`` each with its ``"suit"`` (None where not shown), from :func:`read_suits`'
    letters for the photo; unchanged when there are none. A count that differs from the labels'
    is a clear ``ValueError``.

    >>> with_suits([{"rank": "K", "box": [0, 0, 1, 1]}, {"rank": "9", "box": [2, 2, 3, 3]}], "h?")
    [{'rank': 'K', 'box': [0, 0, 1, 1], 'suit': 'h'}, {'rank': '9', 'box': [2, 2, 3, 3], 'suit': None}]
    """
    if letters is None:
        return labels
    if len(letters) != len(labels):
        raise ValueError(f"{photo}: {len(letters)} suits for {len(labels)} labelled cards")
    return [dict(lab, suit=None if ch == "?" else ch) for lab, ch in zip(labels, letters)]


#: COCO files a folder may hold for all its photos (Roboflow writes ``_annotations.coco.json``)
COCO_FILES = ("_annotations.coco.json", "annotations.json", "instances.json", "coco.json")


#: how many folders down a dataset's parts are looked for (``export/train/images/x.jpg``: 2)
PARTS_DEPTH = 3


def photos(folder: Path) -> list[tuple[Path, Path]]:
    """(photo, label file) pairs of ``folder``, sorted by path: each photo with a VOC ``.xml`` or a
    YOLO ``.txt`` of its name beside it, or, for a photo in an ``images`` folder, a ``.txt`` in the
    ``labels`` folder that stands where that ``images`` folder does (``images/x.jpg`` and
    ``labels/x.txt``; ``images/valid/x.jpg`` and ``labels/valid/x.txt``), or else a COCO file
    (:data:`COCO_FILES`) beside it, or beside its ``images`` folder, that names it. Where
    ``folder`` holds no photo itself, the photos of all its folders are read (a dataset exported
    in ``train``, ``valid`` and ``test`` parts). Photos without labels are left out."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    imgs = sorted(p for p in folder.iterdir() if is_image(p) and p.is_file())
    if not imgs:                                   # its parts, at most PARTS_DEPTH folders down
        import os

        for root, dirs, files in os.walk(folder):
            depth = len(Path(root).relative_to(folder).parts)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if depth < PARTS_DEPTH else []
            imgs += [Path(root) / f for f in files if is_image(f)]
        imgs.sort()
    out, used = [], set()
    for img in imgs:
        near = [img.with_suffix(".xml"), img.with_suffix(".txt")]
        parts = img.relative_to(folder).parts
        if "images" in parts[:-1]:
            k = len(parts) - 2 - parts[-2::-1].index("images")
            near.append(folder.joinpath(*parts[:k], "labels", *parts[k + 1:-1], img.stem + ".txt"))
        lab = next((q for q in near if q.is_file()), None)
        if lab is None:
            coco = _coco_beside(img.parent)
            if coco is not None and img.name in _coco(coco)[0]:
                out.append((img, coco))
        elif lab not in used:
            used.add(lab)
            out.append((img, lab))
    return out


def _coco_beside(folder: Path) -> Path | None:
    """The COCO file of the photos in ``folder``: in it, or beside it where it is ``images``."""
    dirs = (folder, folder.parent) if folder.name == "images" else (folder,)
    return next((q for d in dirs for q in (d / f for f in COCO_FILES) if q.is_file()), None)


@functools.lru_cache(maxsize=4)
def _coco_sizes(path: Path) -> dict[str, tuple[int, int]]:
    """(width, height) of a COCO file's photos, where it gives them."""
    _coco(path)
    try:
        images = json.loads(Path(path).read_text(encoding="utf-8"))["images"]
        return {Path(str(im["file_name"])).name: (int(im["width"]), int(im["height"]))
                for im in images if isinstance(im, dict) and "width" in im and "height" in im}
    except (ValueError, TypeError, KeyError):
        return {}


@functools.lru_cache(maxsize=4)
def _coco(path: Path) -> tuple[dict, dict]:
    """A COCO file's photos (file name -> its annotations) and category names (id -> name)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        names = {c["id"]: str(c["name"]) for c in data["categories"]}
        files = {im["id"]: Path(str(im["file_name"])).name for im in data["images"]}
        by_file: dict[str, list] = {f: [] for f in files.values()}
        for a in data["annotations"]:
            by_file[files[a["image_id"]]].append((names[a["category_id"]], [float(v) for v in a["bbox"]],
                                                  bool(a.get("iscrowd", 0))))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
        raise ValueError(f"{path}: not a COCO file ({type(e).__name__})") from None
    return by_file, names


def declared(pairs: list[tuple[Path, Path]]) -> list[dict]:
    """The cards a folder's class list names (:func:`parse_label` of each name of a YOLO folder's
    :func:`yolo_names` or a COCO file's categories that names a card; a VOC folder has none): a
    folder that declares the ranks 2 to 8 labels them, though its photos may show none."""
    files = {lab.parent: lab for _, lab in pairs if lab.suffix.lower() in (".txt", ".json")}   # one a folder
    names: set[str] = set()
    for lab in files.values():
        names.update(_coco(lab)[1].values() if lab.suffix.lower() == ".json" else yolo_names(lab))
    out = []
    for n in sorted(names):
        try:
            what = parse_label(n)
        except ValueError:
            continue
        if "rank" in what:
            out.append(what)
    return out
