"""Decks someone else drew: the reader on published card designs it has never seen (issue 20).

    apt-get install gnome-cards-data kdegames-card-data-kf5     # the decks (GPL and others; below)
    .venv/bin/python benchmarks/eval_decks.py                      # 40 table frames of each deck
    .venv/bin/python benchmarks/eval_decks.py --recipe world --n 40 --json runs/decks-world.json
    .venv/bin/python benchmarks/eval_decks.py --sheet runs/decks.png   # look at the decks first

Every deck the renderer draws was drawn by the project, the held-out and unseen ones too: their
typefaces, pips and court art come from the same hand. The real photos are one deck. Debian
ships card decks drawn for the desktop's card games, many of them renditions of printed
patterns (Paris, Anglo-American, Dondorf, Bellot, Tigullio...): each is an SVG of every card,
its joker and back. Here each deck's cards are rasterised with Qt's SVG renderer (the one the
desk has) into ``runs/decks/<deck>/`` (``Ah.png``, ..., ``JK.png``, ``BACK.png`` and
``deck.json``), and the renderer lays them on the tables of the ``base`` or ``world`` recipe
(:func:`dealer_assist.vision.synth.scene.render_scene`'s ``deck_images``): the same seeds, so
the same tables, cameras, hands and light for every deck. The frames are scored as
``eval_detect.py`` scores the held-out split (its definitions), deck by deck.

Measurement only: no model is ever trained on these decks (their licences, and the point: decks
the project never drew). A file that is not a full French-suited deck of 52 cards is left out
and said why; German, Italian and Swiss suits (acorns, cups, shields) are left out by name
(:data:`NOT_FRENCH`). The decks are stretched to the poker card's proportions (63x88) from
their own (most are bridge-sized, 57x89), a little wider than printed. Where each deck's index
lies is not known: the corners' visibility is judged at the index box the renderer's own decks
use (:data:`faces.DEFAULT_INDEX_BOX`), and a joker counts as having an index where that box of
it holds ink (:func:`has_ink`).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from dealer_assist.vision.synth.faces import CANON_H, CANON_W, DEFAULT_INDEX_BOX, IMAGE_DECK_INFO  # noqa: E402

#: Where Debian's card-game decks lie once installed (``apt-get install gnome-cards-data
#: kdegames-card-data-kf5``): AisleRiot's (GNOME) and KDE's.
SVG_DIRS = (Path("/usr/share/aisleriot/cards"), Path("/usr/share/carddecks"))
PACKAGES = "gnome-cards-data kdegames-card-data-kf5"
#: Decks whose suits are not the French ones (clubs, diamonds, hearts, spades), though their
#: files name the cards so: left out.
NOT_FRENCH = ("xskat-german", "atlasnye_skat", "tarocco", "swiss-xvii")
#: The same deck twice (a bitmap copy, both packages' Dondorf and Nicu's ornamental): the second
#: left out, so no design counts twice.
DUPLICATES = ("anglo_bitmap", "gnomangelo_bitmap", "kde-dondorf", "kde-nicu-ornamental")
#: Decks whose court cards (and aces) carry other letters than K, Q, J (and A): French R, D, V
#: and 1, German K, D, B, Russian К, Д, В and Т. No reader of English indices can name those
#: right; they are read and reported apart, for what matters there: that no wrong name is sure.
OTHER_INDICES = {"ancient_french": "R D V, 1", "berlin": "K D B", "lattmann": "K D B", "rheinland": "K D B",
                 "kde-xskat-french": "K D B", "slavic_costumes": "К Д В, Т", "Атласные": "К Д В, Т"}
SUIT_WORDS = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
RANK_WORDS = {"A": ("1", "ace"), "T": ("10",), "J": ("jack",), "Q": ("queen",), "K": ("king",)}
JOKER_IDS = ("joker_red", "red_joker", "joker", "joker_black", "black_joker")
BACK_IDS = ("back", "card_back")
RANKS = "23456789TJQKA"
#: a card's width over its height: an element outside this is no card (a sheet, a pip)
ASPECT = (0.55, 0.85)
#: frames of each deck by default, and their seeds (the held-out test's tables: ``render_scene``
#: with split "test", whose own deck is replaced)
N_FRAMES = 40
SEED0 = 3_500_000


def deck_files(dirs: list[Path]) -> list[Path]:
    """The SVG files (``.svg``, ``.svgz``) under ``dirs``, sorted."""
    out: list[Path] = []
    for d in dirs:
        if d.is_dir():
            out += [p for p in d.rglob("*") if p.suffix in (".svg", ".svgz") and p.is_file()]
    return sorted(set(out))


def deck_name(path: Path) -> str:
    """A deck's name: its file's stem; KDE's (each in a folder ``svg-NAME``) ``kde-NAME``, as both
    packages have a Dondorf.

    >>> deck_name(Path("/usr/share/aisleriot/cards/dondorf.svgz")), deck_name(Path("/usr/share/carddecks/svg-dondorf/dondorf.svgz"))
    ('dondorf', 'kde-dondorf')
    """
    if path.parent.name.startswith("svg-"):
        return "kde-" + path.parent.name[4:]
    return path.name.split(".")[0]


def element_ids(card: str) -> list[str]:
    """The element ids a deck file may give a card: AisleRiot's ``club_1``, ``heart_king`` and
    KDE's ``1_club``, ``king_heart``.

    >>> element_ids("Ac")[:2], element_ids("Kh")
    (['club_1', '1_club'], ['heart_king', 'king_heart'])
    """
    suit = SUIT_WORDS[card[1]]
    out = []
    for r in RANK_WORDS.get(card[0], (card[0],)):
        out += [f"{suit}_{r}", f"{r}_{suit}"]
    return out


def has_ink(bgra: np.ndarray, box=DEFAULT_INDEX_BOX, least: float = 0.04) -> bool:
    """Whether the index box of a card image (BGRA, any size) holds ink: at least ``least`` of
    its pixels far from white card stock.

    >>> card = np.full((88, 63, 4), 255, np.uint8)
    >>> has_ink(card)
    False
    >>> card[5:20, 4:11, :3] = 0
    >>> has_ink(card)
    True
    """
    h, w = bgra.shape[:2]
    x0, y0, x1, y1 = box
    part = bgra[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)]
    if part.size == 0:
        return False
    a = part[..., 3:4].astype(np.float32) / 255.0
    rgb = part[..., :3].astype(np.float32) * a + 255.0 * (1 - a)
    ink = (rgb.min(axis=2) < 150) | (rgb.max(axis=2) - rgb.min(axis=2) > 80)
    return float(ink.mean()) >= least


def blank_face(bgra: np.ndarray) -> bool:
    """Whether a card image shows nothing: its middle one flat colour (a drawing Qt's SVG renderer
    could not make).

    >>> blank_face(np.full((88, 63, 4), 40, np.uint8))
    True
    >>> card = np.full((88, 63, 4), 255, np.uint8); card[30:50, 20:40, :3] = 0
    >>> blank_face(card)
    False
    """
    h, w = bgra.shape[:2]
    mid = bgra[h // 8:h - h // 8, w // 8:w - w // 8, :3]
    return float(mid.std()) < 8.0


class SvgDeck:
    """One deck file read by Qt's SVG renderer (an offscreen Qt application is started once,
    where none runs yet)."""

    _app = None

    def __init__(self, path: Path):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtSvg import QSvgRenderer
        from PySide6.QtWidgets import QApplication

        if SvgDeck._app is None and QApplication.instance() is None:
            SvgDeck._app = QApplication([])      # a widgets one: the desk may come later in one process
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        self.path = path
        self.renderer = QSvgRenderer(data)

    def find(self, ids) -> str | None:
        """The first of ``ids`` the file has whose bounds are card-shaped (:data:`ASPECT`)."""
        for i in ids:
            if self.renderer.elementExists(i):
                b = self.renderer.boundsOnElement(i)
                if b.height() > 0 and ASPECT[0] <= b.width() / b.height() <= ASPECT[1]:
                    return i
        return None

    def image(self, element: str, width: int = 2 * CANON_W) -> np.ndarray:
        """The element alone, ``width`` pixels wide at its own proportions, BGRA."""
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QColor, QImage, QPainter

        b = self.renderer.boundsOnElement(element)
        h = max(8, int(round(width * b.height() / b.width())))
        img = QImage(width, h, QImage.Format.Format_ARGB32)
        img.fill(QColor(0, 0, 0, 0))
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.renderer.render(p, element, QRectF(0, 0, width, h))
        p.end()
        arr = np.frombuffer(img.constBits(), np.uint8).reshape(h, img.bytesPerLine() // 4, 4)
        return arr[:, :width].copy()     # Format_ARGB32 is B, G, R, A in memory here


def rasterise(path: Path, out: Path) -> tuple[Path | None, str]:
    """``path``'s cards as ``out/<deck>/<card>.png``, ``BACK.png`` (a deck without a back is left
    out: the tables' face-down cards are drawn from it) and ``JK.png`` where it has one, with
    :data:`faces.IMAGE_DECK_INFO`; (folder, "") or (None, why it is left out). Kept
    from an earlier run where ``deck.json`` is there."""
    name = deck_name(path)
    folder = out / name
    if (folder / IMAGE_DECK_INFO).is_file():
        return folder, ""
    if any(n in str(path) for n in NOT_FRENCH):
        return None, "not French suits"
    if name in DUPLICATES:
        return None, "the same deck as another"
    deck = SvgDeck(path)
    if not deck.renderer.isValid():
        return None, "not an SVG Qt reads"
    cards = [r + s for r in RANKS for s in "cdhs"]
    found = {c: deck.find(element_ids(c)) for c in cards}
    missing = [c for c, e in found.items() if e is None]
    if missing:
        return None, f"no card-shaped {', '.join(missing[:4])}{'...' if len(missing) > 4 else ''}"
    joker, back = deck.find(JOKER_IDS), deck.find(BACK_IDS)
    if back is None:         # the tables' face-down cards are drawn from it
        return None, "no card-shaped back"
    images = {c: deck.image(e) for c, e in {**found, "JK": joker, "BACK": back}.items() if e is not None}
    blank = [c for c in cards if blank_face(images[c])]
    if blank:
        return None, f"Qt draws {', '.join(blank[:4])} as a blank face"
    folder.mkdir(parents=True, exist_ok=True)
    info = {"index_box": list(DEFAULT_INDEX_BOX), "joker_index": False, "source": str(path),
            "joker": joker is not None, "back": True}
    for c, img in images.items():
        if c == "JK":
            info["joker_index"] = has_ink(img)
        cv2.imwrite(str(folder / f"{c}.png"), img)
    (folder / IMAGE_DECK_INFO).write_text(json.dumps(info, indent=1), encoding="utf-8")
    return folder, ""


def render_frames(folder: Path, data: Path, n: int, seed0: int, recipe: str) -> None:
    """``n`` frames of the deck in ``folder`` (seeds ``seed0``...) of the recipe ``recipe`` into
    ``data`` as ``synth`` writes a dataset and ``eval_detect.py`` reads it; frames already there
    stay. A deck without a joker is dealt none."""
    from dealer_assist.vision.synth.dataset import write_frame

    info = json.loads((folder / IMAGE_DECK_INFO).read_text(encoding="utf-8"))
    for sub in ("images", "labels", "meta"):
        (data / sub / "test").mkdir(parents=True, exist_ok=True)
    scene = {"deck_images": str(folder.resolve()), **({} if info["joker"] else {"joker_p": 0.0})}
    for seed in range(seed0, seed0 + n):
        write_frame(str(data), "test", seed, recipe, **scene)


def enrollment_photos(folder: Path, out: Path) -> list[Path]:
    """What a floor manager photographs to enroll tonight's deck (``dealer-assist enroll-deck``), drawn
    from the deck's images: one photo a suit, its 13 cards in two rows
    (``eval_enroll.suit_photos``), and the joker and the back twice each, upright at 150 pixels
    and turned 30 degrees at 120 (``JK-0.png``...)."""
    from eval_enroll import suit_photos

    from dealer_assist.vision.synth.faces import IMAGE_DECK
    from dealer_assist.vision.synth.scene import render_cards

    style = IMAGE_DECK + str(folder.resolve())
    info = json.loads((folder / IMAGE_DECK_INFO).read_text(encoding="utf-8"))
    paths = suit_photos(out, style)
    for card in ("JK", "BACK") if info["joker"] else ("BACK",):
        for k, (angle, width, felt) in enumerate(((0, 150, (40, 110, 30)), (30, 120, (90, 40, 30)))):
            img, _ = render_cards([{"card": card, "style": style, "center": (0, 0), "angle": angle, "width": width}],
                                  background=felt)
            paths.append(out / f"{card}-{k}.png")
            cv2.imwrite(str(paths[-1]), img)
    return paths


def sheet(folders: list[Path], path: Path, cards=("Ks", "Qh", "Jd", "7c", "As", "3s", "Th", "JK", "BACK")) -> None:
    """One row a deck of a few of its cards, to look at before believing the figures."""
    w, h = CANON_W // 2, CANON_H // 2
    rows = []
    for f in folders:
        tiles = []
        for c in cards:
            p = f / f"{c}.png"
            t = cv2.imread(str(p), cv2.IMREAD_UNCHANGED) if p.is_file() else None
            tile = np.full((h, w, 3), (60, 110, 60), np.uint8)
            if t is not None:
                t = cv2.resize(t, (w, h), interpolation=cv2.INTER_AREA)
                a = t[..., 3:4] / 255.0
                tile = (t[..., :3] * a + tile * (1 - a)).astype(np.uint8)
            tiles.append(tile)
        row = np.hstack(tiles)
        cv2.putText(row, f.name, (4, h - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 2)
        rows.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.vstack(rows) if rows else np.zeros((h, w, 3), np.uint8))


#: the figures of a deck's row, as eval_detect.py names them
COLUMNS = ("cards_counted", "recall", "precision", "joker_recall", "frames_all_correct", "right_not_sure", "wrong_sure")


def totals(rows: dict[str, dict]) -> dict:
    """The figures over every deck's frames together: ``eval_detect.figures`` of the decks' counts added."""
    import eval_detect as ED

    tot: Counter = Counter()
    for r in rows.values():
        tot.update(r["counts"])
    return {"decks": len(rows), **ED.figures(tot)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--svg", action="append", type=Path, default=None,
                    help=f"a folder of deck SVGs (default: {', '.join(map(str, SVG_DIRS))})")
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "decks", help="the decks' card images and frames")
    ap.add_argument("--recipe", choices=("base", "world"), default="base",
                    help="the tables the cards lie on: plain felt (base) or photographs and clutter (world)")
    ap.add_argument("--n", type=int, default=N_FRAMES, help="frames of each deck")
    ap.add_argument("--seed0", type=int, default=SEED0)
    ap.add_argument("--only", nargs="*", default=None, help="only these decks (names as listed)")
    ap.add_argument("--far", type=float, default=None, metavar="SHRINK",
                    help="each frame seen from farther away, shrunk by SHRINK into a 1920x1080 frame (eval_detect.far_view)")
    ap.add_argument("--told", action="store_true", help="with --far: read as a calibrated camera's frame (eval_detect.told_far)")
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--json", dest="json_out", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--sheet", type=Path, default=None, help="only write a sheet of every deck's cards here")
    ap.add_argument("--enroll", action="store_true",
                    help="also read each deck enrolled (dealer-assist enroll-deck) from photos of its four suits, "
                         "its joker and its back, as a floor manager would enroll tonight's deck")
    args = ap.parse_args(argv)

    files = deck_files(args.svg or list(SVG_DIRS))
    if not files:
        print(f"no deck files under {', '.join(map(str, args.svg or SVG_DIRS))}: "
              f"apt-get install {PACKAGES}", file=sys.stderr)
        return 2
    decks: dict[str, Path] = {}
    for f in files:
        name = deck_name(f)
        if args.only and name not in args.only:
            continue
        folder, why = rasterise(f, args.out)
        if folder is None:
            print(f"left out {name} ({f}): {why}")
        else:
            decks[name] = folder
    if args.sheet is not None:
        sheet(list(decks.values()), args.sheet)
        print(f"{len(decks)} decks drawn on {args.sheet}")
        return 0
    if not decks:
        print("no deck to read", file=sys.stderr)
        return 2

    import eval_detect as ED

    from dealer_assist.vision.detector import CardDetector

    det = CardDetector(args.models)
    rows: dict[str, dict] = {}
    seen = "" if args.far is None else f", seen from {1 / args.far:.2g}x as far in 1920x1080" + (", told" if args.told else "")
    print(f"{len(decks)} decks, {args.n} {args.recipe} frames each (seeds {args.seed0}..{args.seed0 + args.n - 1}){seen}")
    from dealer_assist.vision.synth.dataset import photos_missing
    if (note := photos_missing(args.recipe)) is not None:
        print(note, file=sys.stderr)
    print(f"{'deck':30s} " + " ".join(f"{c[:12]:>12s}" for c in COLUMNS) + "  commonest failures")
    enrolled: dict[str, dict] = {}

    def show(name: str, r: dict) -> None:
        kinds = ", ".join(f"{k} {v}" for k, v in list(r["failures_by_kind"].items())[:3])
        print(f"{name:30s} " + " ".join(f"{'-' if r[c] is None else r[c]!s:>12s}" for c in COLUMNS) + f"  {kinds}",
              flush=True)

    for name, folder in decks.items():
        data = args.out / f"frames-{args.recipe}" / name
        render_frames(folder, data, args.n, args.seed0, args.recipe)
        rows[name] = ED.evaluate(det, data, "test", n=args.n, far=args.far, told=args.told)
        show(name, rows[name])
        if args.enroll:
            from dealer_assist.vision.enroll import enroll_deck

            root = args.out / "enrolled"
            photos = enrollment_photos(folder, root / "photos" / name)
            summary = enroll_deck(name, photos, args.models, root=root / "decks")
            reader = CardDetector(args.models, deck=name, decks_root=root / "decks")
            enrolled[name] = ED.evaluate(reader, data, "test", n=args.n, far=args.far, told=args.told)
            check = summary["check"]
            enrolled[name]["enrollment"] = {"cards": len(summary["views"]), "skipped": len(summary["skipped"]),
                                            "photos_read_right": check["right"], "photos_cards": check["cards"],
                                            "photos_wrong": check["wrong"], "photos_unreadable": check["unreadable"],
                                            "never_sure": sorted(reader.deck.doubts)}
            sure_wrong = sum(w["sure"] for w in check["wrong"])
            show(f"  enrolled; photos {check['right']}/{check['cards']}" + (f", {sure_wrong} sure wrong" if sure_wrong else "")
                 + (f", {len(reader.deck.doubts)} never sure" if reader.deck.doubts else ""), enrolled[name])
    groups = {}
    for reading, table in (("", rows), ("enrolled: ", enrolled)):
        groups[reading + "K Q J A indices"] = totals({n: r for n, r in table.items() if n not in OTHER_INDICES})
        groups[reading + "other letters"] = totals({n: r for n, r in table.items() if n in OTHER_INDICES})
    for label, tot in groups.items():
        if tot["decks"]:
            print(f"{label + ' (' + str(tot['decks']) + ')':30s} "
                  + " ".join(f"{'-' if tot[c] is None else tot[c]!s:>12s}" for c in COLUMNS))
    for reading, table in (("", rows), ("enrolled, ", enrolled)):
        if table:
            sure = [(n, f) for n, r in table.items() for f in r["failures"] if "extra" in f and f.get("sure")]
            print(f"{reading}wrong names shown sure: {len(sure)}"
                  + "".join(f"\n  {n}: {f['extra']} on {f['on']} ({f['frame']})" for n, f in sure))
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps({"recipe": args.recipe, "n": args.n, "seed0": args.seed0, "far": args.far, "told": args.told,
                                             "groups": groups, "decks": rows, "enrolled": enrolled,
                                             "sources": {n: str(f) for n, f in decks.items()}}, indent=1),
                                 encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
