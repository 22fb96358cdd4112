"""Table calibration: the zones a card lands in, the calibrate command and its errors.

The camera views are synthetic: a top view of the bundled layout (1 px = 1 mm) with the four
ArUco markers lying on its reference points, warped by a known homography. The truth (where each
table point appears in the image) is that homography, so every check below is against geometry
worked out independently of the code under test.
"""
from __future__ import annotations

import glob

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml
from hypothesis import given, settings, strategies as st

from dealer_assist.cli import main
from dealer_assist.errors import UserError
from dealer_assist.live.calibration import (
    calibration_dict, calibration_from_dict, find_markers, load_calibration, load_layout,
    marker_sheet, required_zones, save_calibration,
)

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ROOT / "calibration" / "layouts" / "joker-nlh-6.yaml"
# where the corners of the 2400 x 1200 mm layout appear in a 1280 x 720 frame (a slanted view)
CORNERS_MM = np.float32([[0, 0], [2400, 0], [2400, 1200], [0, 1200]])
CORNERS_PX = np.float32([[180, 110], [1100, 110], [1270, 700], [10, 700]])


def _project(h: np.ndarray, pts) -> np.ndarray:
    return cv2.perspectiveTransform(np.float64(pts).reshape(-1, 1, 2), h).reshape(-1, 2)


@pytest.fixture(scope="module")
def layout() -> dict:
    return load_layout(LAYOUT)


@pytest.fixture(scope="module")
def camera(layout, tmp_path_factory):
    """(frame path, H table mm -> image px) of a camera view with the four markers on the table."""
    top = np.full((1200, 2400, 3), (40, 110, 40), np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for k, (x, y) in enumerate(layout["reference_points"]):
        m = np.full((80, 80), 255, np.uint8)
        m[10:70, 10:70] = cv2.aruco.generateImageMarker(dictionary, k, 60)   # 60 mm marker, white rim
        top[int(y) - 40:int(y) + 40, int(x) - 40:int(x) + 40] = m[..., None]
    h = cv2.getPerspectiveTransform(CORNERS_MM, CORNERS_PX).astype(np.float64)
    frame = cv2.warpPerspective(top, h, (1280, 720), flags=cv2.INTER_AREA)
    path = tmp_path_factory.mktemp("cam") / "frame.png"
    cv2.imwrite(str(path), frame)
    return path, h


def _cli(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["calibrate", *argv, "--lang", "en"])
    out, err = capsys.readouterr()
    return rc, out, err


def _check_every_zone(cal, h, layout) -> None:
    """Each zone's centre, and points just inside its corners, seen by the camera, are in that zone."""
    for name, poly in layout["zones"].items():
        if name not in cal.zones:
            continue
        poly = np.float64(poly)
        c = poly.mean(axis=0)
        inner = c + (poly - c) * 0.9
        for p_px in _project(h, np.vstack([c, inner])):
            assert cal.zone_at(tuple(p_px)) == name, (name, p_px)


# -- the bundled layout ----------------------------------------------------------------------------
def test_layout_has_every_zone_with_realistic_sizes(layout):
    assert layout["units"] == "mm" and layout["seats"] == 6
    assert set(required_zones(6)) <= set(layout["zones"])
    card_w, card_h = 63, 88
    for k in range(1, 6):
        p = np.float64(layout["zones"][f"board{k}"])
        w, hgt = np.ptp(p, axis=0)
        assert card_w < w <= 100 and card_h < hgt <= 130          # a card fits, with some play
    xs = [np.float64(layout["zones"][f"board{k}"])[:, 0].mean() for k in range(1, 6)]
    assert xs == sorted(xs)                                          # board1..5 left to right
    assert np.float64(layout["zones"]["burn"])[:, 0].max() < np.float64(layout["zones"]["board1"])[:, 0].min()
    assert np.float64(layout["zones"]["muck"])[:, 0].min() > np.float64(layout["zones"]["board5"])[:, 0].max()
    for s in range(1, 7):
        w, hgt = sorted(np.ptp(np.float64(layout["zones"][f"seat{s}"]), axis=0))
        assert w >= 150 and hgt >= 240                               # generous hole-card areas


# -- calibrate from points / from markers ------------------------------------------------------------
def test_points_calibration_puts_every_zone_where_the_camera_sees_it(camera, layout, tmp_path, capsys):
    frame, h = camera
    ref_px = _project(h, layout["reference_points"])
    pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in ref_px)
    out = tmp_path / "table.yaml"
    rc, text, err = _cli(capsys, "--layout", str(LAYOUT), "--image", str(frame), "--points", pts,
                         "--out", str(out))
    assert rc == 0, err
    assert "board5" in text and "seat6" in text
    cal = load_calibration(out, image_size=(1280, 720))
    assert cal.seats == 6 and cal.image_size == (1280, 720)
    _check_every_zone(cal, h, layout)
    # the gap between two board slots belongs to no zone
    gap = _project(h, [[1062, 558]])[0]
    assert cal.zone_at(tuple(gap)) is None
    # a table point seen by the camera maps back to the same table point (to 0.5 mm)
    probe = np.float64([[1200, 600], [150, 600], [2300, 1000]])
    assert np.abs(cal.to_table(_project(h, probe)) - probe).max() < 0.5
    assert np.abs(cal.to_image(probe) - _project(h, probe)).max() < 0.05


def test_aruco_calibration_finds_the_markers(camera, layout, tmp_path, capsys):
    frame, h = camera
    out = tmp_path / "aruco.yaml"
    prev = tmp_path / "preview.png"
    rc, text, err = _cli(capsys, "--layout", str(LAYOUT), "--image", str(frame), "--aruco",
                         "--out", str(out), "--preview", str(prev))
    assert rc == 0, err
    cal = load_calibration(out)
    truth = _project(h, layout["reference_points"])
    assert np.abs(cal.image_points - truth).max() < 1.5          # marker centres to ~1 px
    _check_every_zone(cal, h, layout)
    # the preview is the frame with the zones drawn in: changed inside zones, untouched far outside
    img, pv = cv2.imread(str(frame)), cv2.imread(str(prev))
    assert pv.shape == img.shape
    cx, cy = np.round(_project(h, [np.float64(layout["zones"]["seat4"]).mean(axis=0)])[0]).astype(int)
    assert np.abs(pv[cy, cx].astype(int) - img[cy, cx].astype(int)).sum() > 20
    assert (pv[5, 640] == img[5, 640]).all()


def test_fewer_seats_drops_the_extra_seat_zones(camera, layout, tmp_path, capsys):
    frame, h = camera
    pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in _project(h, layout["reference_points"]))
    out = tmp_path / "four.yaml"
    rc, _, err = _cli(capsys, "--layout", str(LAYOUT), "--image", str(frame), "--points", pts,
                      "--seats", "4", "--out", str(out))
    assert rc == 0, err
    cal = load_calibration(out)
    assert cal.seats == 4 and "seat4" in cal.zones and "seat5" not in cal.zones
    seat5_px = _project(h, [np.float64(layout["zones"]["seat5"]).mean(axis=0)])[0]
    assert cal.zone_at(tuple(seat5_px)) is None


def test_missing_marker_is_named(camera, layout, tmp_path, capsys):
    frame, h = camera
    img = cv2.imread(str(frame))
    x, y = np.round(_project(h, [layout["reference_points"][2]])[0]).astype(int)
    img[y - 40:y + 40, x - 40:x + 40] = (40, 110, 40)        # a hand over marker 2
    covered = tmp_path / "covered.png"
    cv2.imwrite(str(covered), img)
    rc, out, err = _cli(capsys, "--layout", str(LAYOUT), "--image", str(covered), "--aruco",
                        "--out", str(tmp_path / "x.yaml"))
    assert rc == 2 and "id 2" in err and "found 0, 1, 3" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.yaml").exists()


def test_marker_sheet_is_a4_and_readable(tmp_path, capsys):
    out = tmp_path / "markers.png"
    rc, text, err = _cli(capsys, "--print-markers", str(out))
    assert rc == 0, err
    sheet = cv2.imread(str(out))
    assert sheet.shape[:2] == (3508, 2480)                   # A4 at 300 dpi
    found = find_markers(sheet)
    assert sorted(found) == [0, 1, 2, 3]
    # 60 mm at 300 dpi = 708.7 px: measure marker 0's black square along its row
    row = (cv2.cvtColor(sheet, cv2.COLOR_BGR2GRAY)[int(found[0][1]) - 340] < 128)   # its solid top border
    cx = int(found[0][0])
    xs = cx - 500 + np.flatnonzero(row[cx - 500:cx + 500])
    assert abs((xs.max() - xs.min() + 1) - 60 * 300 / 25.4) <= 2


def test_marker_sheet_speaks_japanese_where_a_typeface_can_draw_it_and_english_where_none(monkeypatch):
    """The printed sheet's words (which marker lies where, print at 100 %, the scale bar) are
    Japanese by default, drawn with a CJK typeface; on a machine without one, the English words
    instead of empty boxes. The markers are the same either way."""
    from dealer_assist import drawtext

    en = marker_sheet(dpi=100, lang="en")
    if drawtext.cjk_font_path() is not None:
        ja = marker_sheet(dpi=100, lang="ja")
        differ = np.argwhere(ja != en)
        assert len(differ)
        assert sorted(find_markers(cv2.cvtColor(ja, cv2.COLOR_GRAY2BGR))) == [0, 1, 2, 3]
        # only words differ: every differing pixel lies outside the four markers' squares
        found = find_markers(cv2.cvtColor(en, cv2.COLOR_GRAY2BGR))
        half = 60 * 100 / 25.4 / 2 + 2
        for x, y in found.values():
            inside = (np.abs(differ[:, 1] - x) <= half) & (np.abs(differ[:, 0] - y) <= half)
            assert not inside.any()
    monkeypatch.setattr(drawtext, "cjk_font_path", lambda: None)
    assert np.array_equal(marker_sheet(dpi=100, lang="ja"), en)


def test_a_typeface_without_japanese_or_no_typeface_at_all_gives_english_words_not_empty_boxes(
        tmp_path, monkeypatch):
    """DEALER_ASSIST_CJK_FONT naming a Latin typeface (which draws あ as an empty box) or a file
    that is no typeface: the sheet is drawn with the English words, no traceback."""
    from dealer_assist import drawtext

    garbage = tmp_path / "font.ttf"
    garbage.write_bytes(b"not a font" * 50)
    latin = sorted(glob.glob("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    en = marker_sheet(dpi=100, lang="en")
    for path in [str(garbage), *latin]:
        monkeypatch.setenv("DEALER_ASSIST_CJK_FONT", path)
        drawtext.cjk_font_path.cache_clear()
        try:
            assert drawtext.cjk_font_path() is None
            assert np.array_equal(marker_sheet(dpi=100, lang="ja"), en)
        finally:
            drawtext.cjk_font_path.cache_clear()


# -- check --------------------------------------------------------------------------------------------
def test_check_lists_zones_and_catches_a_size_mismatch(camera, layout, tmp_path, capsys):
    frame, h = camera
    d = calibration_dict(layout, _project(h, layout["reference_points"]), (1280, 720))
    path = tmp_path / "t.yaml"
    save_calibration(d, path)
    rc, text, err = _cli(capsys, "--check", str(path), "--image", str(frame))
    assert rc == 0 and all(z in text for z in required_zones(6))
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), cv2.resize(cv2.imread(str(frame)), (640, 360)))
    rc, text, err = _cli(capsys, "--check", str(path), "--image", str(small))
    assert rc == 2 and "1280x720" in err and "640x360" in err


# -- the API ------------------------------------------------------------------------------------------
def _square_cal(**over) -> dict:
    d = {"version": 1, "name": "t", "image_size": [1000, 1000], "units": "mm", "seats": 2,
         "table_points": {"image": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]],
                          "table": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]},
         "zones": {**{f"board{k}": [[100 * k, 100], [100 * k + 90, 100], [100 * k + 90, 220], [100 * k, 220]]
                      for k in range(1, 6)},
                   "burn": [[0, 100], [90, 100], [90, 220], [0, 220]],
                   "muck": [[700, 100], [900, 100], [900, 300], [700, 300]],
                   "seat1": [[0, 600], [400, 600], [400, 900], [0, 900]],
                   "seat2": [[600, 600], [1000, 600], [1000, 900], [600, 900]]}}
    d.update(over)
    return d


def test_smallest_zone_wins_where_zones_overlap():
    d = _square_cal()
    d["zones"]["pot"] = [[50, 50], [950, 50], [950, 350], [50, 350]]       # around the whole board
    cal = calibration_from_dict(d)
    assert cal.zone_at((145, 160)) == "board1"
    assert cal.zone_at((95, 160)) == "pot"          # between burn and board1, inside the pot
    assert cal.zone_at((500, 500)) is None


def test_save_and_load_round_trip(tmp_path):
    d = _square_cal(name="テーブル 3")
    save_calibration(d, tmp_path / "c.yaml")
    cal = load_calibration(tmp_path / "c.yaml")
    assert cal.name == "テーブル 3" and cal.seats == 2
    assert set(cal.zones) == set(d["zones"])
    assert np.allclose(cal.zones["muck"], d["zones"]["muck"])
    assert yaml.safe_load((tmp_path / "c.yaml").read_text(encoding="utf-8"))["version"] == 1


@pytest.mark.parametrize("change, words", [
    ({"zones": {"board1": [[0, 0], [1, 0], [1, 1]]}}, "missing zones: board2"),
    ({"seats": 3}, "seat3"),
    ({"table_points": {"image": [[0, 0], [1000, 0], [1000, 1000]],
                       "table": [[0, 0], [1000, 0], [1000, 1000]]}}, "exactly 4 points, got 3"),
    ({"table_points": {"image": [[0, 0], [500, 0], [1000, 0], [0, 1000]],
                       "table": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]}}, "lie on one line"),
    ({"table_points": {"image": [[0, 0], [1000, 1000], [1000, 0], [0, 1000]],      # 2 and 3 swapped
                       "table": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]}}, "in order"),
    ({"table_points": {"image": [[0, 0], [0, 0], [1000, 1000], [0, 1000]],
                       "table": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]}}, "degenerate"),
    ({"version": 2}, "version"),
    ({"image_size": [1280]}, "image_size"),
    ({"seats": 0}, "seats"),
])
def test_bad_calibrations_say_why(change, words):
    d = _square_cal()
    d.update(change)
    with pytest.raises(UserError) as exc:
        calibration_from_dict(d, source="t.yaml")
    msg = str(exc.value)
    assert words in msg and msg.startswith("t.yaml: ") and "\n" not in msg


def test_extra_seat_zone_and_flat_zone_are_refused():
    d = _square_cal()
    d["zones"]["seat3"] = [[0, 0], [10, 0], [10, 10]]
    with pytest.raises(UserError, match="seat3 but the table has seats 1..2"):
        calibration_from_dict(d)
    d = _square_cal()
    d["zones"]["burn"] = [[0, 0], [10, 10], [20, 20]]
    with pytest.raises(UserError, match="burn has no area"):
        calibration_from_dict(d)


def test_file_errors_are_one_line(tmp_path, capsys):
    rc, _, err = _cli(capsys, "--check", str(tmp_path / "nope.yaml"))
    assert rc == 2 and "no such file" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nzones: [unclosed\n", encoding="utf-8")
    rc, _, err = _cli(capsys, "--check", str(bad))
    assert rc == 2 and "not valid YAML" in err and len(err.strip().splitlines()) == 1
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    rc, _, err = _cli(capsys, "--check", str(empty))
    assert rc == 2 and "not a calibration" in err
    rc, _, err = _cli(capsys, "--layout", str(LAYOUT), "--image", str(tmp_path / "none.png"),
                      "--points", "1,1 2,1 2,2 1,2", "--out", str(tmp_path / "o.yaml"))
    assert rc == 2 and "no such file" in err


def test_points_argument_errors(camera, tmp_path, capsys):
    frame, _ = camera
    base = ["--layout", str(LAYOUT), "--image", str(frame), "--out", str(tmp_path / "o.yaml")]
    rc, _, err = _cli(capsys, *base, "--points", "10,10 900,10 900,600")
    assert rc == 2 and "4 reference points" in err and "got 3" in err
    rc, _, err = _cli(capsys, *base, "--points", "10,10 900,10 900,600 abc")
    assert rc == 2 and "'abc' is not a point" in err
    rc, _, err = _cli(capsys, *base, "--points", "10,10 500,10 900,10 10,600")
    assert rc == 2 and "on one line" in err
    rc, _, err = _cli(capsys, *base, "--points", "10,10 900,10 1900,600 10,600")
    assert rc == 2 and "outside the 1280x720 image" in err
    assert not (tmp_path / "o.yaml").exists()


def test_clip_calibration_loads_if_present():
    path = ROOT / "sample_frames" / "clip" / "table.yaml"
    if not path.exists():
        pytest.skip("the sample clip is not rendered yet")
    cal = load_calibration(path)
    assert cal.seats >= 2 and set(required_zones(cal.seats)) <= set(cal.zones)


# -- property: any reasonable camera pose maps zones correctly -----------------------------------------
@settings(max_examples=60, deadline=None)
@given(tilt=st.floats(0.0, 0.35), shift=st.floats(-80, 80), zoom=st.floats(0.35, 0.6),
       rot=st.floats(-0.25, 0.25), u=st.floats(0.1, 0.9), v=st.floats(0.1, 0.9),
       zone=st.sampled_from(required_zones(6) + ["stub"]))
def test_any_camera_pose_maps_points_to_their_zone(layout, tilt, shift, zoom, rot, u, v, zone):
    # a camera pose: rotate and scale the table, then squeeze the far side (perspective)
    c, s = math.cos(rot), math.sin(rot)
    a = np.array([[zoom * c, -zoom * s, 640 + shift], [zoom * s, zoom * c, 360], [0, 0, 1.0]]) @ \
        np.array([[1, 0, -1200], [0, 1, -600], [0, 0, 1.0]])
    persp = np.array([[1, 0, 0], [0, 1, 0], [0, -tilt / 1200, 1 + tilt]])    # far side (y = 0) smaller
    h = a @ persp
    ref_px = _project(h, layout["reference_points"])
    cal = calibration_from_dict(calibration_dict(layout, ref_px, (1280, 720)))
    poly = np.float64(layout["zones"][zone])
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    p = lo + (hi - lo) * np.array([u, v])                 # a point inside the (rectangular) zone
    assert cal.zone_at(tuple(_project(h, [p])[0])) == zone
    assert np.abs(cal.to_table(_project(h, [p])) - p).max() < 0.2     # image points kept to 0.01 px


def test_a_calibration_file_is_the_layout_for_recalibrating_its_table(camera, layout, tmp_path, capsys):
    frame, h = camera
    first = tmp_path / "first.yaml"
    save_calibration(calibration_dict(layout, _project(h, layout["reference_points"]), (1280, 720),
                                      seats=5, name="table 7"), first)
    # the camera was bumped: the whole view moved 12 px right and 5 px down
    moved_h = np.array([[1, 0, 12], [0, 1, 5], [0, 0, 1.0]]) @ h
    moved = tmp_path / "moved.png"
    cv2.imwrite(str(moved), cv2.warpAffine(cv2.imread(str(frame)), np.float32([[1, 0, 12], [0, 1, 5]]),
                                           (1280, 720)))
    rc, _, err = _cli(capsys, "--layout", str(first), "--image", str(moved), "--aruco",
                      "--out", str(tmp_path / "again.yaml"))
    assert rc == 0, err
    cal = load_calibration(tmp_path / "again.yaml")
    assert cal.name == "table 7" and cal.seats == 5 and "seat6" not in cal.zones
    _check_every_zone(cal, moved_h, layout)


def test_the_preview_names_each_zone_in_the_dealers_language(camera, tmp_path, capsys):
    """A floor person checks the zones on the preview: 「シート4」 in Japanese, "seat 4" in English,
    never the file's own name ``seat4`` drawn in Latin letters on a Japanese screen."""
    from dealer_assist.drawtext import cjk_font_path
    from dealer_assist.live.calibration import draw_preview

    if cjk_font_path() is None:
        pytest.skip("no CJK typeface here: the preview falls back to English words")
    frame, h = camera
    pts = " ".join(f"{x:.2f},{y:.2f}" for x, y in _project(h, yaml.safe_load(LAYOUT.read_text())["reference_points"]))
    out = tmp_path / "t.yaml"
    rc, _, err = _cli(capsys, "--layout", str(LAYOUT), "--image", str(frame), "--points", pts, "--out", str(out))
    assert rc == 0, err
    cal, img = load_calibration(out), cv2.imread(str(frame))
    ja, en = draw_preview(img, cal, lang="ja"), draw_preview(img, cal, lang="en")
    cx, cy = np.round(cal.to_image([cal.zones["seat4"].mean(axis=0)])[0]).astype(int)
    box = (slice(cy - 20, cy + 20), slice(cx - 60, cx + 60))
    assert np.abs(ja[box].astype(int) - en[box].astype(int)).sum() > 1000     # other words drawn there
    assert (ja[5, 640] == img[5, 640]).all()          # and nothing else moved


def test_a_phone_heic_photo_to_calibrate_on_is_named_with_what_to_do(tmp_path, capsys):
    """``calibrate --image`` of an iPhone's HEIC photo, which OpenCV cannot read, says what it is and
    how to get a JPEG; another file it cannot read keeps its plain refusal."""
    table = ROOT / "sample_frames" / "clip" / "table.yaml"
    heic = tmp_path / "table.heic"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    assert main(["calibrate", "--check", str(table), "--image", str(heic), "--lang", "en"]) == 2
    assert f"--image {heic}: a HEIC (HEIF) photo, which cannot be read here: convert it to JPEG" \
        in capsys.readouterr().err
    junk = tmp_path / "table.jpg"
    junk.write_bytes(b"not a picture")
    assert main(["calibrate", "--check", str(table), "--image", str(junk), "--lang", "en"]) == 2
    assert f"--image {junk}: cannot read it as an image" in capsys.readouterr().err
