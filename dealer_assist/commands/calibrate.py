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

from dealer_assist.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="map the camera image to the table layout (zones: board, burn, muck, seats)",
        description="Make a table calibration from a camera frame and four reference points "
                    "(clicked positions or printed ArUco markers), check one, or print the markers.",
        epilog="Points are the image positions of the layout's reference_points, in the layout's "
               "order (far-left, far-right, near-right, near-left for the bundled layouts).",
    )
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--layout", metavar="FILE", help="table layout (calibration/layouts/*.yaml)")
    mode.add_argument("--check", metavar="FILE", help="check a calibration file and list its zones")
    mode.add_argument("--follow", metavar="FILE",
                      help="move a calibration with its camera: the motion is measured in --image against the "
                           "picture the calibration was made on (no markers or points needed); writes --out")
    mode.add_argument("--print-markers", metavar="OUT.png",
                      help="write a printable A4 sheet (300 dpi) of ArUco markers 0-3")
    p.add_argument("--image", metavar="FRAME", help="a frame from the camera (jpg/png)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--points", metavar='"x1,y1 x2,y2 x3,y3 x4,y4"',
                     help="image positions (pixels) of the layout's four reference points, in order")
    how.add_argument("--aruco", action="store_true",
                     help="find the four reference points as ArUco markers 0-3 (DICT_4X4_50) in the image")
    p.add_argument("--seats", type=int, metavar="N", help="seats at this table (default: the layout's)")
    p.add_argument("--name", help="a name for this calibration (default: the layout's)")
    p.add_argument("--out", metavar="FILE", help="where to write the calibration (YAML)")
    p.add_argument("--preview", metavar="PNG", help="also write the frame with the zones drawn over it")
    p.add_argument("--marker-size", type=float, default=60.0, metavar="MM",
                   help="printed side of each marker in mm (default 60)")
    p.set_defaults(func=run)


def _read_image(path: str):
    import cv2

    if not Path(path).is_file():
        raise UserError(f"--image {path}: no such file")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"--image {path}: cannot read it as an image")
    return image


def _write_image(path: str, image, what: str) -> None:
    import cv2

    out = Path(path)
    if out.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp"):
        raise UserError(f"{what} {path}: give a .png or .jpg file name")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{what} {path}: {exc.strerror or exc}") from None
    ok = cv2.imwrite(str(out), image)
    if not ok:
        raise UserError(f"{what} {path}: cannot write it")


def _zone_table(cal) -> str:
    vis = cal.visible_zones()
    lines = [f"{cal.name}: {cal.seats} seats, {len(cal.zones)} zones, frames "
             f"{cal.image_size[0]}x{cal.image_size[1]}, table units {cal.units}"]
    for name, poly in cal.zones.items():
        c = cal.to_image([poly.mean(axis=0)])[0]
        lo, hi = poly.min(axis=0), poly.max(axis=0)
        where = f"centre at ({c[0]:7.1f}, {c[1]:6.1f}) px" if all(v == v for v in c) else "beyond the horizon"
        note = "" if vis[name] == 1.0 else ("  OUT OF VIEW" if vis[name] == 0.0 else "  partly out of view")
        lines.append(f"  {name:<8} {hi[0] - lo[0]:6.0f} x {hi[1] - lo[1]:<6.0f} {cal.units}  {where}{note}")
    return "\n".join(lines)


def _scale_note(cal) -> str:
    """How big a card (63 x 88 mm) looks at the board, as a hint on whether it can be read."""
    if cal.units != "mm":
        return ""
    middle = "board3" if "board3" in cal.zones else "play" if "play" in cal.zones else None
    if middle is None:
        return ""
    b = cal.zones[middle].mean(axis=0)
    pts = cal.to_image([[b[0] - 31.5, b[1]], [b[0] + 31.5, b[1]]])
    w = float(((pts[1] - pts[0]) ** 2).sum() ** 0.5)
    if not w == w:
        return ""
    hint = "" if w >= 60 else "  (small: move the camera closer or use a higher resolution)"
    return f"a card on the board is about {w:.0f} px wide{hint}"



def _report(cal, image, preview: str | None, hint: str) -> None:
    """Print the zones and the card-size note; write the preview image when asked."""
    from dealer_assist.live import calibration as calib

    print(_zone_table(cal))
    note = _scale_note(cal)
    if note:
        print(note)
    if preview:
        _write_image(preview, calib.draw_preview(image, cal), "--preview")
        print(f"wrote the preview {preview}{hint}")

def _keep_look(d: dict, out: str, image) -> Path:
    """The picture a calibration is made on, written beside it (``OUT.look.jpg``) and named in its
    dict: a run checks the camera's place against it."""
    look = Path(out).with_name(Path(out).stem + ".look.jpg")
    _write_image(str(look), image, "--out")
    d["look"] = look.name
    return look


def _check_place(cal, image) -> int:
    """``--check --image``: has the camera moved since the calibration? Compared with the picture
    the calibration was made on (its ``look``); exit code 1 when it has."""
    from dealer_assist.live.placement import PlaceSettings, motion_from_look

    if cal.look is None:
        print("this calibration keeps no picture of its own (calibrated before looks were kept): whether "
              "the camera moved is seen only on the preview")
        return 0
    off, _moved = motion_from_look(cal, image)
    limit = PlaceSettings().moved_mm
    if off is None:
        print("cannot tell whether the camera moved: too little of the calibration's picture is found in this "
              "frame (another light, or the table covered); look at the preview")
        return 0
    if off >= limit:
        print(f"THE CAMERA HAS MOVED since the calibration: the zones lie about {off:.0f} {cal.units} off. "
              f"Put the camera back, or calibrate again")
        return 1
    print(_in_place(off, cal.units))
    return 0


def _in_place(off: float, units: str) -> str:
    return f"the camera is where it was calibrated (the zones lie within {max(off, 1.0):.0f} {units})"


def _follow(args: argparse.Namespace) -> int:
    """``--follow FILE --image FRAME --out NEW``: the calibration moved with the camera, measured
    against its own picture; the new frame becomes the new calibration's picture."""
    from dealer_assist.live import calibration as calib
    from dealer_assist.live.placement import PlaceSettings, motion_from_look

    if not args.image or not args.out:
        raise UserError("--follow needs --image FRAME (a frame from the camera now) and --out FILE")
    image = _read_image(args.image)
    cal = calib.load_calibration(args.follow, image_size=(image.shape[1], image.shape[0]))
    if cal.look is None:
        raise UserError(f"{args.follow} keeps no picture of its own (look:), so the camera's motion cannot be "
                        f"measured: calibrate with --layout (markers or points)")
    off, moved = motion_from_look(cal, image)
    if moved is None:
        raise UserError(f"cannot tell how the camera moved: too little of the calibration's picture is found in "
                        f"{args.image} (another light, the table covered): calibrate with --layout")
    if off < PlaceSettings().back_mm:
        print(f"{_in_place(off, cal.units)}: nothing to follow, {args.out} not written")
        return 0
    d = moved.to_dict()
    look = _keep_look(d, args.out, image)
    calib.save_calibration(d, args.out)
    new = calib.load_calibration(args.out, image_size=(image.shape[1], image.shape[0]))
    print(f"the camera moved: the zones lay about {off:.0f} {cal.units} off. Wrote {args.out}, the zones moved "
          f"with the camera, and {look.name}, the picture it now belongs to")
    _report(new, image, args.preview, ": check every zone lies where it should")
    return 0


def run(args: argparse.Namespace) -> int:
    from dealer_assist.live import calibration as calib

    if args.print_markers:
        if args.marker_size <= 0 or args.marker_size > 90:
            raise UserError(f"--marker-size must be from 1 to 90 mm (two per A4 row), got {args.marker_size:g}")
        sheet = calib.marker_sheet(dpi=300, marker_mm=args.marker_size)
        _write_image(args.print_markers, sheet, "--print-markers")
        print(f"wrote {args.print_markers}: ArUco {calib.ARUCO_DICT} ids 0-3, {args.marker_size:g} mm, "
              f"A4 at 300 dpi; print at 100 % and check the 100 mm bar")
        return 0

    if args.follow:
        return _follow(args)

    if args.check:
        if args.preview and not args.image:
            raise UserError("--preview needs --image (a frame from this camera)")
        image = _read_image(args.image) if args.image else None
        size = (image.shape[1], image.shape[0]) if image is not None else None
        cal = calib.load_calibration(args.check, image_size=size)
        _report(cal, image, args.preview, "")
        if not args.preview and args.image:
            print(f"{args.image} matches the calibration's frame size")
        return _check_place(cal, image) if image is not None else 0

    # a new calibration from a layout
    if not args.image:
        raise UserError("--layout needs --image FRAME (a frame from the camera)")
    if not args.points and not args.aruco:
        raise UserError("--layout needs --points \"x1,y1 x2,y2 x3,y3 x4,y4\" or --aruco")
    if not args.out:
        raise UserError("--layout needs --out FILE (where to write the calibration)")
    layout = calib.load_layout(args.layout)
    points = calib.parse_points(args.points) if args.points else None
    image = _read_image(args.image)
    h, w = image.shape[:2]
    if points is None:
        points = calib.marker_points(image)
    else:
        outside = [k + 1 for k, (x, y) in enumerate(points) if not (0 <= x <= w and 0 <= y <= h)]
        if outside:
            raise UserError(f"--points: point {', '.join(map(str, outside))} lies outside the "
                            f"{w}x{h} image")
    d = calib.calibration_dict(layout, points, (w, h), seats=args.seats, name=args.name)
    look = _keep_look(d, args.out, image)
    calib.save_calibration(d, args.out)
    cal = calib.load_calibration(args.out, image_size=(w, h))
    how = "ArUco markers 0-3" if args.aruco else "the given points"
    print(f"wrote {args.out} (from {how}) and {look.name}, the picture it was made on (a run checks that "
          f"the camera has not moved against it; keep it beside the calibration)")
    _report(cal, image, args.preview, ": check every zone lies where it should")
    out_of_view = [n for n, v in cal.visible_zones().items() if v == 0.0]
    if out_of_view:
        print(f"warning: zone(s) {', '.join(out_of_view)} are not in the camera's view", file=sys.stderr)
    return 0
