"""``dealer-assist detect [--json] [--deck NAME] [--annotate DIR] [--calibration FILE] PATH...``: find and name cards.

Each PATH is an image or a folder of images (its .jpg/.jpeg/.png/.bmp/.webp/.tif/.avif files, sorted;
a phone's HEIC photos are named with what to do with them).
With ``--json``: one JSON object per image and line::

    {"image": "sample_frames/x.jpg", "width": 1280, "height": 720, "ms": 41.2,
     "cards": [{"card": "Ah", "confidence": 0.98, "sure": true, "center": [612.5, 301.0],
                "polygon": [[580, 250], [645, 252], [643, 350], [578, 348]]}],
     "backs": [{"center": [200.0, 310.0], "polygon": [[...]]}]}

``sure`` says the name is one the reader does not doubt (a threshold measured so that no wrong
name of the validation sets is sure: docs/vision.md); the table marks the others with ``?``. A
named card that is not sure may carry ``"or": "Kc"``: the name another part of the reader
prefers for it, what the dealer should check it against. A card whose outline is blurred past what
the reader can trust (a lens out of focus, a camera shaking: ``dealer_assist.vision.focus``) is
never sure and carries ``"blurred": true``; the table says so.

An image that cannot be read gives ``{"image": PATH, "error": "...", "error_ja": "..."}`` (the
error in English and in Japanese) and the others go on; the exit code is then 2. Without
``--json`` the error goes to stderr in the ``--lang`` language.
"""
from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from pathlib import Path

from dealer_assist.commands import add_lang, h, same_file
from dealer_assist.errors import UserError
from dealer_assist.i18n import Text, _, both, message_of, os_reason, render
from dealer_assist.imagefiles import heif_advice, images_in


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "detect",
        help=h(_("find and name the cards in camera frames")),
        description=h(_("Find every face-up card (named in RULINGS.md notation, JK for the joker, ?? "
                        "when no index is readable) and every face-down card in each image.")),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help=h(_("an image, or a folder of images")))
    p.add_argument("--json", action="store_true", help=h(_("one JSON object per image and line")))
    p.add_argument("--deck", metavar="NAME", help=h(_("a deck enrolled with enroll-deck")))
    p.add_argument("--annotate", metavar="DIR", help=h(_("write each image with its cards drawn and named")))
    p.add_argument("--search", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("search around each card whose corners read no index (on by default; "
                            "models/MODEL_CARD.md)")))
    p.add_argument("--look", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("ask the whole-card look model about cards whose corners read no index "
                            "(a joker without one), about their suit, and about boxes the detector takes "
                            "for a back (a court card face up) (on by default; models/MODEL_CARD.md)")))
    p.add_argument("--rescue", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("read the boxes the detector set aside too, for the lower cards of a fanned "
                            "hand (on by default; docs/vision.md)")))
    p.add_argument("--zoom", action=argparse.BooleanOptionalAction, default=True,
                   help=h(_("look again in tiles where the cards are too small in the frame for the "
                            "detector (a whole table in a 1920x1080 view) (on by default; docs/vision.md)")))
    p.add_argument("--calibration", metavar="FILE",
                   help=h(_("the calibration of the camera the images come from: the reader is told how big a "
                            "card looks in them and where the zones lie, as run tells it; where cards are small "
                            "it reads only the zones' part of each image (docs/vision.md)")))
    p.add_argument("--models", metavar="DIR", default=None,
                   help=h(_("model folder (default: $DEALER_ASSIST_MODELS or the shipped models/)")))
    add_lang(p)
    p.set_defaults(func=run)


def model_dir(arg: str | None) -> Path:
    from dealer_assist.vision.detector import default_model_dir

    if arg:
        return Path(arg)
    env = os.environ.get("DEALER_ASSIST_MODELS")
    return Path(env) if env else default_model_dir()


def expand(paths: list[str]) -> list[tuple[str, Text | None]]:
    """(path, error) for each image named or found in a named folder (the error a message of the
    catalogues)."""
    out: list[tuple[str, Text | None]] = []
    for raw in paths:
        p = Path(raw)
        try:
            folder = stat.S_ISDIR(p.stat().st_mode)
        except (FileNotFoundError, NotADirectoryError):
            out.append((raw, _("{path}: no such file", path=raw)))
            continue
        except OSError as exc:          # a name too long for the system, a folder without permission
            out.append((raw, _("cannot read {path}: {why}", path=raw, why=os_reason(exc))))
            continue
        if folder:
            try:
                found, heif = images_in(p)
            except OSError as exc:
                out.append((raw, _("cannot read {path}: {why}", path=raw, why=os_reason(exc))))
                continue
            if not found and not heif:
                out.append((raw, _("{path}: no images in this folder", path=raw)))
            # a phone's HEIC photos are listed with what to do with them, in name order with the rest
            listed = [(q, None) for q in found] + [(q, heif_advice(q)) for q in heif]
            out.extend((str(q), why) for q, why in sorted(listed, key=lambda pair: pair[0]))
        else:
            out.append((raw, None))
    return out


def nothing_found(image: str):
    """What to do where an uncalibrated frame with pixels to spare, not looked at closer (under
    ``DetectorSettings.zoom_empty`` times the detector's input), shows no card at all: its cards
    may be too small for the whole frame (a camera far from the table). Such a frame is not looked
    at closer (on the rendered frames with no card, the tiles took chips and clutter for jokers and
    unreadable cards, and found none of the few cards there: models/MODEL_CARD.md, "Forty-second
    session"); the camera's calibration tells the reader the card size and where the table lies."""
    return _("no card found in {image}: where its cards are small (a camera far from the table), give the camera's "
             "calibration (--calibration FILE) and the reader looks closer at the table; without one, a frame that "
             "shows nothing is not looked at closer, since on empty frames that finds cards that are not there",
             image=image)


def _table(res: dict, lang: str = "en") -> str:
    lines = [_("{image}  {width}x{height}  {ms} ms  {cards} card(s), {backs} back(s)", image=res["image"],
               width=res["width"], height=res["height"], ms=f"{res['ms']:.1f}", cards=len(res["cards"]),
               backs=len(res["backs"])).render(lang)]
    for c in sorted(res["cards"], key=lambda c: (c["center"][1], c["center"][0])):
        mark = " " if c.get("sure") or c["card"] == "??" else "?"
        line = _("{card} {confidence}{mark} at ({x}, {y})", card=f"{c['card']:<4}",
                 confidence=f"{c['confidence']:5.2f}", mark=mark, x=f"{c['center'][0]:7.1f}",
                 y=f"{c['center'][1]:6.1f}").render(lang)
        if mark == "?" and c.get("or"):
            # what to check a doubtful card against, as the annotated picture shows it
            line += _("  check against {card}", card=c["or"]).render(lang)
        if c.get("blurred"):
            line += _("  blurred: focus the camera").render(lang)
        lines.append("  " + line)
    for b in res["backs"]:
        lines.append("  " + _("back        at ({x}, {y})", x=f"{b['center'][0]:7.1f}",
                              y=f"{b['center'][1]:6.1f}").render(lang))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import cv2

    from dealer_assist.live.sources import quiet_native_logs
    from dealer_assist.vision.detector import (CardDetector, draw_annotations, missing_model_warning, read_image,
                                               switched, unzoomed_when_empty)

    quiet_native_logs()      # a file that is no image is said once, in the user's words, not OpenCV's

    detector = CardDetector(model_dir(args.models), deck=args.deck,
                            settings=switched(args.search, args.look, args.rescue, args.zoom))
    warning = missing_model_warning(detector, args.lang)
    if warning:
        print(f"dealer-assist detect: {warning}", file=sys.stderr, flush=True)
    size, cal_name = None, ""
    if args.calibration:       # the camera's frames: read with the card size its calibration gives
        from dealer_assist.live.calibration import load_calibration

        cal = load_calibration(args.calibration)
        detector.expect_card_side(*cal.card_view())
        size, cal_name = cal.image_size, cal.name
    ann = Path(args.annotate) if args.annotate else None
    if ann is not None:
        for given in args.paths:        # the annotated pictures would take the names of the images read
            folder = given if os.path.isdir(given) else os.path.dirname(os.path.abspath(given))
            if same_file(str(ann), folder):
                raise UserError(_("--annotate {path} is the folder of the images read: their annotated copies would "
                                  "replace them; give another folder", path=ann))
        try:
            ann.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(_("--annotate {path}: cannot create the folder: {why}", path=ann,
                              why=os_reason(exc))) from None
    code = 0
    written: set[str] = set()
    hinted = bool(args.calibration) or not args.zoom    # the hint of a frame that shows nothing: once
    st = detector.settings
    for path, err in expand(args.paths):
        res = None
        if err is None:
            try:
                res = detector.detect_file(path, size, cal_name)
            except UserError as exc:
                err = message_of(exc)
        if err is not None:
            code = 2
            if args.json:
                en, ja = both(err)
                print(json.dumps({"image": path, "error": en, "error_ja": ja}, ensure_ascii=False), flush=True)
            else:
                print(f"dealer-assist detect: {render(err, args.lang)}", file=sys.stderr, flush=True)
            continue
        if args.json:
            print(json.dumps(res, ensure_ascii=False), flush=True)
        else:
            print(_table(res, args.lang), flush=True)
        if not hinted and not res["cards"] and not res["backs"] and \
                unzoomed_when_empty((res["height"], res["width"]), detector.input_shape, st.zoom_below, st.zoom_empty):
            hinted = True
            print(f"dealer-assist detect: {render(nothing_found(path), args.lang)}", file=sys.stderr, flush=True)
        if ann is not None:
            stem = Path(path).stem
            name, n = f"{stem}.jpg", 1
            while name in written:
                name, n = f"{stem}-{n}.jpg", n + 1
            written.add(name)
            out = draw_annotations(read_image(path), res, args.lang)
            if not cv2.imwrite(str(ann / name), out):
                raise UserError(_("--annotate: cannot write {path}", path=ann / name))
    return code
