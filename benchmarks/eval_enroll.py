"""What deck enrollment buys on the held-out TEST split: enroll the two held-out joker styles
from a few rendered "photos" (a joker on plain felt, as a floor manager would photograph
tonight's jokers), then read test frames with and without ``--deck``.

    .venv/bin/python benchmarks/eval_enroll.py                 # frames 150..299 of runs/eval-test
    .venv/bin/python benchmarks/eval_enroll.py --start 0 --n 300
    .venv/bin/python benchmarks/eval_enroll.py --whole-deck    # each held-out deck enrolled whole

``--whole-deck``: each held-out deck style is enrolled whole from four "photos", one per suit,
its 13 cards laid out A to K in two rows and the photo named after the suit (``spades.png``, as
a dealer would do it), plus the joker photos; each test frame is read with the deck of its own
style.

The photos are rendered with :func:`synth.scene.render_cards` (each held-out joker style twice:
upright at 150 px and turned 30 degrees at 120 px, on two felt colours), enrolled with
:func:`enroll.enroll_deck` into a temporary folder. Only frames 150-299 are quoted by default: the
template threshold was set looking at frames 0-149.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from eval_detect import SEED0, counts, evaluate, match  # noqa: E402

from dealer_assist.vision.detector import CardDetector  # noqa: E402
from dealer_assist.vision.enroll import enroll_deck  # noqa: E402
from dealer_assist.vision.synth import write_dataset  # noqa: E402
from dealer_assist.vision.synth.scene import render_cards  # noqa: E402
from dealer_assist.vision.synth.styles import BACK_STYLES, DECK_STYLES, JOKER_STYLES, styles_for  # noqa: E402

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

KEYS = ("recall", "precision", "joker_recall", "joker_recall_no_index", "joker_recall_with_index",
        "frames_all_correct", "right_not_sure", "wrong_sure")


def photos_of(folder: Path, card: str, table: dict) -> list[Path]:
    """Two photos of each held-out style of ``table`` showing ``card`` (JK or BACK), named so
    enrollment knows the card (``JK-STYLE-K.png``): upright at 150 px on green felt, turned 30
    degrees at 120 px on blue felt."""
    paths = []
    for style in styles_for("test", table):
        for k, (angle, width, felt) in enumerate(((0, 150, (40, 110, 30)), (30, 120, (90, 40, 30)))):
            img, _ = render_cards([{"card": card, "style": style.name, "center": (0, 0), "angle": angle,
                                    "width": width}], background=felt)
            p = folder / f"{card}-{style.name}-{k}.png"
            cv2.imwrite(str(p), img)
            paths.append(p)
    return paths


def joker_photos(folder: Path) -> list[Path]:
    """Two photos of each held-out joker style (JK*.png)."""
    return photos_of(folder, "JK", JOKER_STYLES)


def back_photos(folder: Path) -> list[Path]:
    """Two photos of each held-out back design (BACK*.png)."""
    return photos_of(folder, "BACK", BACK_STYLES)


def suit_photos(folder: Path, style: str, seed: int = 0, suits: str = "shdc", tilt: float = 0.0,
                yaw: float = 0.0) -> list[Path]:
    """A photo of deck ``style`` per suit of ``suits``, named after the suit, its 13 cards A..K
    in two rows (7 and 6), each card turned a few degrees; the camera ``tilt`` degrees from
    overhead and turned ``yaw`` degrees (as the table camera would take them)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for word, suit in (("spades", "s"), ("hearts", "h"), ("diamonds", "d"), ("clubs", "c")):
        angles = rng.uniform(-4, 4, len(RANKS))     # drawn for every suit: a subset repeats its photos
        if suit not in suits:
            continue
        cards = [{"card": r + suit, "style": style, "center": (-480 + (i % 7) * 160, -150 + (i // 7) * 260),
                  "angle": float(a), "width": 110} for i, (r, a) in enumerate(zip(RANKS, angles))]
        img, _ = render_cards(cards, background=(40, 110, 30), tilt_deg=tilt, yaw_deg=yaw)
        p = folder / f"{word}.png"
        cv2.imwrite(str(p), img)
        paths.append(p)
    return paths


class CorrectedAsItGoes:
    """A night at one table: reads each frame, then the dealer corrects every card it named
    wrong (as the desk lets them), and the reader learns from each correction
    (``CardDetector.learn``) before the next frame. The frame's own reading is scored as read."""

    def __init__(self, detector: CardDetector):
        self.det, self.label, self.corrections, self.learned = detector, None, 0, 0

    def detect(self, image):
        res = self.det.detect(image)
        labels = self.label["cards"]
        for i, j in match(res["cards"], labels).items():
            if counts(labels[j]) and res["cards"][i]["card"] != labels[j]["card"]:
                self.corrections += 1
                self.learned += self.det.learn(image, res["cards"][i]["polygon"], labels[j]["card"])
        return res


def compare(out: dict, data: Path, args, readers) -> None:
    """Read the frames with each of ``readers`` ((name, evaluate() keywords)); figures into ``out``."""
    for name, kw in readers:
        r = evaluate(data=data, split="test", n=args.n, start=args.start, **kw)
        out[name] = {k: r[k] for k in KEYS} | {"failures_by_kind": r["failures_by_kind"]}
        print(f"{name:>10}: " + "  ".join(f"{k} {r[k]}" for k in KEYS), flush=True)
        print(f"{'':>10}  failures by kind: {r['failures_by_kind']}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=str(ROOT / "runs" / "eval-test"))
    ap.add_argument("--models", default=str(ROOT / "models"))
    ap.add_argument("--start", type=int, default=150)
    ap.add_argument("--n", type=int, default=150)
    ap.add_argument("--whole-deck", action="store_true",
                    help="enroll each held-out deck whole (four suit photos) and its jokers")
    ap.add_argument("--suits", default="shdc", help="with --whole-deck: the suits photographed (e.g. sc)")
    ap.add_argument("--photo-tilt", type=float, nargs=2, default=[0.0, 0.0], metavar=("TILT", "YAW"),
                    help="with --whole-deck: the suit photos' camera tilt and yaw in degrees")
    ap.add_argument("--learn-corrections", action="store_true",
                    help="read the frames in order, one table per held-out deck, the dealer correcting "
                         "every misread and the reader learning from it")
    ap.add_argument("--backs", action="store_true",
                    help="enroll the held-out back designs too (BACK photos, two of each)")
    args = ap.parse_args(argv)
    data = Path(args.data)
    write_dataset(data, args.start + args.n, "test", seed0=SEED0, workers=2)
    out = {}
    if args.learn_corrections:
        tables = {st.name: CorrectedAsItGoes(CardDetector(args.models)) for st in styles_for("test", DECK_STYLES)}

        def at_table(label):
            t = tables[label["meta"]["deck_style"]]
            t.label = label
            return t

        compare(out, data, args, (("generic", {"det": CardDetector(args.models)}),
                                  ("learning", {"det": None, "detector_for": at_table})))
        out["corrections"] = sum(t.corrections for t in tables.values())
        out["corners_learned"] = sum(t.learned for t in tables.values())
        print(json.dumps(out))
        return 0
    if args.whole_deck:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            jokers = joker_photos(root) + (back_photos(root) if args.backs else [])
            dets = {}
            for st in styles_for("test", DECK_STYLES):
                summary = enroll_deck(st.name, suit_photos(root / st.name, st.name, suits=args.suits,
                                                     tilt=args.photo_tilt[0], yaw=args.photo_tilt[1]) + jokers, args.models,
                                      root=root / "decks")
                out[f"enrollment {st.name}"] = {"cards": len(summary["views"]), "skipped": summary["skipped"]}
                dets[st.name] = CardDetector(args.models, deck=st.name, decks_root=root / "decks")
            compare(out, data, args, (("generic", {"det": CardDetector(args.models)}),
                                      ("whole deck", {"det": None,
                                                      "detector_for": lambda m: dets[m["meta"]["deck_style"]]})))
        print(json.dumps(out))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        photos = joker_photos(root) + (back_photos(root) if args.backs else [])
        summary = enroll_deck("heldout-jokers", photos, args.models, root=root / "decks")
        out["enrollment"] = {k: summary[k] for k in ("views", "skipped")}
        for name, deck in (("generic", None), ("enrolled", "heldout-jokers")):
            det = CardDetector(args.models, deck=deck, decks_root=root / "decks")
            r = evaluate(det, data, "test", args.n, start=args.start)
            out[name] = {k: r[k] for k in KEYS}
            print(f"{name:>9}: " + "  ".join(f"{k} {r[k]}" for k in KEYS), flush=True)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
