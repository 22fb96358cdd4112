"""``dealer-assist calibrate``: map a camera's view of the table to the table layout.

Four uses::

    # a calibration from a frame of the camera and the image positions of the layout's four
    # reference points (or the four printed ArUco markers, ids 0-3, lying on those points)
    dealer-assist calibrate --layout calibration/layouts/joker-nlh-6.yaml --image FRAME.jpg \\
        (--points "x1,y1 x2,y2 x3,y3 x4,y4" | --aruco) [--seats N] --out calibration/my-table.yaml \\
        [--preview preview.png]

    # a printable A4 sheet of the four markers
    dealer-assist calibrate --print-markers calibration/markers/aruco-0-3.png

    # check a calibration file, list its zones, draw it over a frame (and with --image, say
    # whether the camera has moved since: exit code 1)
    dealer-assist calibrate --check calibration/my-table.yaml [--image FRAME.jpg] [--preview out.png]

    # the camera moved: the calibration moved with it, measured against the picture it was made on
    dealer-assist calibrate --follow calibration/my-table.yaml --image FRAME.jpg --out calibration/my-table.yaml

See docs/calibration.md.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dealer_assist.commands import add_lang, h, refuse_overwrite
from dealer_assist.errors import UserError
from dealer_assist.i18n import Msg, _, os_reason
from dealer_assist.imagefiles import heif_advice, is_heif_photo


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help=h(_("map the camera image to the table layout (zones: board, burn, muck, seats)")),
        description=h(_("Make a table calibration from a camera frame and four reference points "
                        "(clicked positions or printed ArUco markers), check one, or print the markers.")),
        epilog=h(_("Points are the image positions of the layout's reference_points, in the layout's "
                   "order (far-left, far-right, near-right, near-left for the bundled layouts).")),
    )
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--layout", metavar="FILE", help=h(_("table layout (calibration/layouts/*.yaml)")))
    mode.add_argument("--check", metavar="FILE", help=h(_("check a calibration file and list its zones")))
    mode.add_argument("--follow", metavar="FILE",
                      help=h(_("move a calibration with its camera: the motion is measured in --image against "
                               "the picture the calibration was made on (no markers or points needed); writes "
                               "--out")))
    mode.add_argument("--print-markers", metavar="OUT.png",
                      help=h(_("write a printable A4 sheet (300 dpi) of ArUco markers 0-3")))
    p.add_argument("--image", metavar="FRAME", help=h(_("a frame from the camera (jpg/png)")))
    how = p.add_mutually_exclusive_group()
    how.add_argument("--points", metavar='"x1,y1 x2,y2 x3,y3 x4,y4"',
                     help=h(_("image positions (pixels) of the layout's four reference points, in order")))
    how.add_argument("--aruco", action="store_true",
                     help=h(_("find the four reference points as ArUco markers 0-3 (DICT_4X4_50) in the image")))
    p.add_argument("--seats", type=int, metavar="N", help=h(_("seats at this table (default: the layout's)")))
    p.add_argument("--name", help=h(_("a name for this calibration (default: the layout's)")))
    p.add_argument("--out", metavar="FILE", help=h(_("where to write the calibration (YAML)")))
    p.add_argument("--preview", metavar="PNG", help=h(_("also write the frame with the zones drawn over it")))
    p.add_argument("--marker-size", type=float, default=60.0, metavar="MM",
                   help=h(_("printed side of each marker in mm (default 60)")))
    add_lang(p)
    p.set_defaults(func=run)


def _read_image(path: str):
    import cv2

    from dealer_assist.live.sources import quiet_native_logs

    quiet_native_logs()
    if not Path(path).is_file():
        raise UserError(_("--image {path}: no such file", path=path))
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        if is_heif_photo(path):                     # a phone's HEIC photo is named as one
            raise UserError(_("--image {why}", why=heif_advice(path)))
        raise UserError(_("--image {path}: cannot read it as an image", path=path))
    return image


def _write_image(path: str, image, what: str) -> None:
    import cv2

    out = Path(path)
    if out.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp"):
        raise UserError(_("{what} {path}: give a .png or .jpg file name", what=what, path=path))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(_("{what} {path}: {why}", what=what, path=path, why=os_reason(exc))) from None
    ok = cv2.imwrite(str(out), image)
    if not ok:
        raise UserError(_("{what} {path}: cannot write it", what=what, path=path))


def _zone_table(cal, lang: str) -> str:
    """The calibration's zones, one line each: size on the table, centre in the picture, and whether
    the camera sees it. Zones are named as in the file (``board1``, ``seat2``), in either language.

    >>> from dealer_assist.live.calibration import Calibration
    >>> import numpy as np
    >>> sq = np.array([[0, 0], [100, 0], [100, 50], [0, 50]], float)
    >>> cal = Calibration(name="t", image_size=(640, 360), seats=2, homography=np.eye(3), zones={"burn": sq})
    >>> print(_zone_table(cal, "en"))
    t: 2 seats, 1 zones, frames 640x360, table units mm
      burn        100 x 50     mm  centre at (   50.0,   25.0) px
    """
    vis = cal.visible_zones()
    lines = [_("{name}: {seats} seats, {zones} zones, frames {w}x{h}, table units {units}", name=cal.name,
               seats=cal.seats, zones=len(cal.zones), w=cal.image_size[0], h=cal.image_size[1],
               units=cal.units).render(lang)]
    for name, poly in cal.zones.items():
        c = cal.to_image([poly.mean(axis=0)])[0]
        lo, hi = poly.min(axis=0), poly.max(axis=0)
        size = _("{w} x {h} {units}", w=f"{hi[0] - lo[0]:6.0f}", h=f"{hi[1] - lo[1]:<6.0f}", units=cal.units)
        where = (_("centre at ({x}, {y}) px", x=f"{c[0]:7.1f}", y=f"{c[1]:6.1f}") if all(v == v for v in c)
                 else _("beyond the horizon"))
        note = (None if vis[name] == 1.0 else _("OUT OF VIEW") if vis[name] == 0.0 else _("partly out of view"))
        line = f"  {name:<8} {size.render(lang)}  {where.render(lang)}"
        lines.append(line if note is None else f"{line}  {note.render(lang)}")
    return "\n".join(lines)


def _scale_note(cal) -> Msg | None:
    """How big a card (``CARD_MM``, 63 x 88 mm) looks at the board, as a hint on whether it can be read."""
    from dealer_assist.live.calibration import CARD_MM

    if cal.units != "mm":
        return None
    middle = "board3" if "board3" in cal.zones else "play" if "play" in cal.zones else None
    if middle is None:
        return None
    b, half = cal.zones[middle].mean(axis=0), CARD_MM[0] / 2
    pts = cal.to_image([[b[0] - half, b[1]], [b[0] + half, b[1]]])
    w = float(((pts[1] - pts[0]) ** 2).sum() ** 0.5)
    if not w == w:
        return None
    if w >= 60:
        return _("a card on the board is about {w} px wide", w=f"{w:.0f}")
    return _("a card on the board is about {w} px wide  (small: move the camera closer or use a higher "
             "resolution)", w=f"{w:.0f}")


def _report(cal, image, preview: str | None, check_it: bool, lang: str) -> None:
    """Print the zones and the card-size note; write the preview image when asked (``check_it``:
    ask the dealer to check the zones on it)."""
    from dealer_assist.live import calibration as calib

    print(_zone_table(cal, lang))
    note = _scale_note(cal)
    if note is not None:
        print(note.render(lang))
    if preview:
        _write_image(preview, calib.draw_preview(image, cal, lang=lang), "--preview")
        said = (_("wrote the preview {path}: check every zone lies where it should", path=preview) if check_it
                else _("wrote the preview {path}", path=preview))
        print(said.render(lang))


def _keep_look(d: dict, out: str, image) -> Path:
    """The picture a calibration is made on, written beside it (``OUT.look.jpg``) and named in its
    dict: a run checks the camera's place against it."""
    look = Path(out).with_name(Path(out).stem + ".look.jpg")
    _write_image(str(look), image, "--out")
    d["look"] = look.name
    return look


def _check_place(cal, image, lang: str) -> int:
    """``--check --image``: has the camera moved since the calibration? Compared with the picture
    the calibration was made on (its ``look``); exit code 1 when it has."""
    from dealer_assist.live.placement import PlaceSettings, motion_from_look

    if cal.look is None:
        print(_("this calibration keeps no picture of its own (calibrated before looks were kept): whether "
                "the camera moved is seen only on the preview").render(lang))
        return 0
    off, _moved = motion_from_look(cal, image)
    limit = PlaceSettings().moved_mm
    if off is None:
        print(_("cannot tell whether the camera moved: too little of the calibration's picture is found in this "
                "frame (another light, or the table covered); look at the preview").render(lang))
        return 0
    if off >= limit:
        print(_("THE CAMERA HAS MOVED since the calibration: the zones lie about {off} {units} off. "
                "Put the camera back, or calibrate again", off=f"{off:.0f}", units=cal.units).render(lang))
        return 1
    print(_in_place(off, cal.units).render(lang))
    return 0


def _in_place(off: float, units: str) -> Msg:
    return _("the camera is where it was calibrated (the zones lie within {off} {units})",
             off=f"{max(off, 1.0):.0f}", units=units)


def _follow(args: argparse.Namespace) -> int:
    """``--follow FILE --image FRAME --out NEW``: the calibration moved with the camera, measured
    against its own picture; the new frame becomes the new calibration's picture."""
    from dealer_assist.live import calibration as calib
    from dealer_assist.live.placement import PlaceSettings, motion_from_look

    lang = args.lang
    if not args.image or not args.out:
        raise UserError(_("--follow needs --image FRAME (a frame from the camera now) and --out FILE"))
    image = _read_image(args.image)
    cal = calib.load_calibration(args.follow, image_size=(image.shape[1], image.shape[0]))
    if cal.look is None:
        raise UserError(_("{path} keeps no picture of its own (look:), so the camera's motion cannot be "
                          "measured: calibrate with --layout (markers or points)", path=args.follow))
    off, moved = motion_from_look(cal, image)
    if moved is None:
        raise UserError(_("cannot tell how the camera moved: too little of the calibration's picture is found in "
                          "{image} (another light, the table covered): calibrate with --layout", image=args.image))
    if off < PlaceSettings().back_mm:
        print(_("{in_place}: nothing to follow, {out} not written", in_place=_in_place(off, cal.units),
                out=args.out).render(lang))
        return 0
    d = moved.to_dict()
    look = _keep_look(d, args.out, image)
    calib.save_calibration(d, args.out)
    new = calib.load_calibration(args.out, image_size=(image.shape[1], image.shape[0]))
    print(_("the camera moved: the zones lay about {off} {units} off. Wrote {out}, the zones moved "
            "with the camera, and {look}, the picture it now belongs to", off=f"{off:.0f}", units=cal.units,
            out=args.out, look=look.name).render(lang))
    _report(new, image, args.preview, True, lang)
    return 0


def run(args: argparse.Namespace) -> int:
    from dealer_assist.live import calibration as calib

    lang = args.lang
    reads = {"image": args.image, "layout": args.layout, "check": args.check, "follow": args.follow}
    refuse_overwrite(args.preview, "--preview", out=args.out, **reads)
    refuse_overwrite(args.out, "--out", **reads)
    refuse_overwrite(args.print_markers, "--print-markers", image=args.image)
    if args.print_markers:
        if not 1 <= args.marker_size <= 90:     # nan and inf too: no marker prints at such a size
            raise UserError(_("--marker-size must be from 1 to 90 mm (two per A4 row), got {size}",
                              size=f"{args.marker_size:g}"))
        sheet = calib.marker_sheet(dpi=300, marker_mm=args.marker_size, lang=lang)
        _write_image(args.print_markers, sheet, "--print-markers")
        print(_("wrote {path}: ArUco {dictionary} ids 0-3, {size} mm, A4 at 300 dpi; print at 100 % and check "
                "the 100 mm bar", path=args.print_markers, dictionary=calib.ARUCO_DICT,
                size=f"{args.marker_size:g}").render(lang))
        return 0

    if args.follow:
        return _follow(args)

    if args.check:
        if args.preview and not args.image:
            raise UserError(_("--preview needs --image (a frame from this camera)"))
        image = _read_image(args.image) if args.image else None
        size = (image.shape[1], image.shape[0]) if image is not None else None
        cal = calib.load_calibration(args.check, image_size=size)
        _report(cal, image, args.preview, False, lang)
        if not args.preview and args.image:
            print(_("{image} matches the calibration's frame size", image=args.image).render(lang))
        return _check_place(cal, image, lang) if image is not None else 0

    # a new calibration from a layout
    if not args.image:
        raise UserError(_("--layout needs --image FRAME (a frame from the camera)"))
    if not args.points and not args.aruco:
        raise UserError(_("--layout needs --points \"x1,y1 x2,y2 x3,y3 x4,y4\" or --aruco"))
    if not args.out:
        raise UserError(_("--layout needs --out FILE (where to write the calibration)"))
    layout = calib.load_layout(args.layout)
    points = calib.parse_points(args.points) if args.points else None
    image = _read_image(args.image)
    h, w = image.shape[:2]
    if points is None:
        points = calib.marker_points(image)
    else:
        outside = [k + 1 for k, (x, y) in enumerate(points) if not (0 <= x <= w and 0 <= y <= h)]
        if outside:
            raise UserError(_("--points: point {points} lies outside the {w}x{h} image",
                              points=", ".join(map(str, outside)), w=w, h=h))
    d = calib.calibration_dict(layout, points, (w, h), seats=args.seats, name=args.name)
    look = _keep_look(d, args.out, image)
    calib.save_calibration(d, args.out)
    cal = calib.load_calibration(args.out, image_size=(w, h))
    if args.aruco:
        said = _("wrote {out} (from ArUco markers 0-3) and {look}, the picture it was made on (a run checks "
                 "that the camera has not moved against it; keep it beside the calibration)",
                 out=args.out, look=look.name)
    else:
        said = _("wrote {out} (from the given points) and {look}, the picture it was made on (a run checks "
                 "that the camera has not moved against it; keep it beside the calibration)",
                 out=args.out, look=look.name)
    print(said.render(lang))
    _report(cal, image, args.preview, True, lang)
    out_of_view = [n for n, v in cal.visible_zones().items() if v == 0.0]
    if out_of_view:
        print(_("warning: zone(s) {zones} are not in the camera's view", zones=", ".join(out_of_view)).render(lang),
              file=sys.stderr)
    return 0
