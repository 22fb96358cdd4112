"""Card outline -> index-corner crops: the step shared by training and detection."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.vision import geometry as g


def card_image(angle_deg: float, width: float = 120.0, centre=(640.0, 360.0), tl_colour=(0, 0, 255),
               br_colour=None, size=(720, 1280)):
    """A frame with one white card at ``angle_deg`` (clockwise on screen), an asymmetric 'L'
    mark at its true top-left index and, turned by 180 degrees, at its bottom-right (in
    ``br_colour``, default the same): the way real indices are printed. Returns (image, true
    polygon TL, TR, BR, BL)."""
    w, h = width, width * g.CARD_ASPECT
    scale = 4  # draw the upright card large, then warp
    cw, ch = int(w * scale), int(h * scale)
    card = np.full((ch, cw, 3), 255, np.uint8)
    br_colour = tl_colour if br_colour is None else br_colour

    def mark(img, colour):
        x0, y0 = int(0.06 * cw), int(0.05 * ch)
        cv2.rectangle(img, (x0, y0), (x0 + int(0.04 * cw), y0 + int(0.18 * ch)), colour, -1)   # stem
        cv2.rectangle(img, (x0, y0 + int(0.14 * ch)), (x0 + int(0.13 * cw), y0 + int(0.18 * ch)), colour, -1)  # foot

    mark(card, tl_colour)
    rotated = card[::-1, ::-1].copy()
    mark(rotated, br_colour)
    card = rotated[::-1, ::-1].copy()
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    half = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2.0
    poly = half @ rot.T + np.array(centre)
    m = cv2.getPerspectiveTransform(src, poly.astype(np.float32))
    frame = np.full((*size, 3), (40, 110, 40), np.uint8)
    warped = cv2.warpPerspective(card, m, (size[1], size[0]))
    mask = cv2.warpPerspective(np.full((ch, cw), 255, np.uint8), m, (size[1], size[0])) > 127
    frame[mask] = warped[mask]
    return frame, poly


quad_angles = st.floats(min_value=0.0, max_value=359.9, allow_nan=False)


@given(angle=quad_angles, start=st.integers(0, 3), reverse=st.booleans(),
       aspect=st.floats(1.2, 1.6), persp=st.floats(-0.15, 0.15))
@settings(max_examples=150, deadline=None)
def test_order_is_canonical_whatever_the_input_order(angle, start, reverse, aspect, persp):
    # a card quad (with a little perspective: the far edge shorter)
    w = 100.0
    h = w * aspect
    half = np.array([[-w * (1 - persp), -h], [w * (1 - persp), -h], [w * (1 + persp), h], [-w * (1 + persp), h]]) / 2
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    poly = half @ rot.T + [400.0, 300.0]
    pts = np.roll(poly, start, axis=0)
    if reverse:
        pts = pts[::-1]
    ordered = g.order_card_polygon(pts)
    # the same four points
    assert sorted(map(tuple, np.round(ordered, 6))) == sorted(map(tuple, np.round(poly, 6)))
    # clockwise on screen (y down): positive shoelace area
    x, y = ordered[:, 0], ordered[:, 1]
    assert 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0
    # TL-TR is a short side
    e = g.edge_lengths(ordered)
    assert e[0] + e[2] < e[1] + e[3]
    # and every input order of the same card gives the same answer
    assert np.allclose(g.order_card_polygon(poly), ordered)


@given(cx=st.floats(0, 1280), cy=st.floats(0, 720), w=st.floats(20, 300), h=st.floats(20, 300),
       a=st.floats(-math.pi, math.pi))
@settings(max_examples=100, deadline=None)
def test_obb_polygon_round_trip_keeps_centre_and_area(cx, cy, w, h, a):
    poly = g.polygon_from_obb((cx, cy, w, h, a))
    cx2, cy2, w2, h2, _ = g.obb_from_polygon(poly)
    assert abs(cx2 - cx) < 0.05 and abs(cy2 - cy) < 0.05
    assert abs(w2 * h2 - w * h) / (w * h) < 0.01


@pytest.mark.parametrize("angle", [0, 17, 45, 90, 133, 180, 222, 270, 301, 359])
def test_both_crops_show_an_upright_index_at_any_rotation(angle):
    reference, ref_poly = card_image(0.0)
    ref = g.corner_crops(reference, g.order_card_polygon(ref_poly))[0].astype(np.float32)
    frame, poly = card_image(float(angle))
    ordered = g.order_card_polygon(poly)
    crops = g.corner_crops(frame, ordered)
    assert crops.shape == (2, g.CROP_H, g.CROP_W, 3)
    for crop in crops:
        # the same upright 'L' as the unrotated card's top-left corner (a mirrored or turned L
        # would differ in far more pixels)
        diff = np.abs(crop.astype(np.float32) - ref).mean()
        assert diff < 12, diff
    # and the mark is really there: red pixels in the crop
    red = (crops[..., 2] > 150) & (crops[..., 1] < 100)
    assert red[0].sum() > 40 and red[1].sum() > 40


@pytest.mark.parametrize("angle", [0, 60, 100, 200, 290])
def test_training_crops_say_which_true_corner_they_show(angle):
    # red mark at the true top-left, blue at the true bottom-right
    frame, poly = card_image(float(angle), tl_colour=(0, 0, 255), br_colour=(255, 0, 0))
    rng = np.random.default_rng(angle)
    for _ in range(5):
        pairs = g.training_corner_crops(frame, poly, rng)
        assert sorted(w for w, _ in pairs) == ["br", "tl"]
        for which, crop in pairs:
            red = int(((crop[..., 2] > 150) & (crop[..., 0] < 100)).sum())
            blue = int(((crop[..., 0] > 150) & (crop[..., 2] < 100)).sum())
            assert (red > blue) == (which == "tl"), (which, red, blue)


def test_crops_follow_perspective_tilt():
    # a tilted camera: the card's far edge is shorter; crops still find the mark
    frame, poly = card_image(30.0, width=150)
    squeezed = poly.copy()
    centre = poly.mean(axis=0)
    squeezed[:2] = centre + (poly[:2] - centre) * np.array([0.85, 1.0])
    m = cv2.getPerspectiveTransform(poly.astype(np.float32), squeezed.astype(np.float32))
    tilted = cv2.warpPerspective(frame, m, (1280, 720))
    crops = g.corner_crops(tilted, g.order_card_polygon(squeezed))
    red = (crops[..., 2] > 150) & (crops[..., 1] < 100)
    assert red[0].sum() > 40 and red[1].sum() > 40


def test_crops_at_the_frame_edge_do_not_fail():
    frame, poly = card_image(10.0, centre=(30.0, 40.0))
    crops = g.corner_crops(frame, g.order_card_polygon(poly))
    assert crops.shape == (2, g.CROP_H, g.CROP_W, 3)


def test_bad_polygons_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="expected 4"):
        g.order_card_polygon([[0, 0], [1, 1], [2, 2]])
    with pytest.raises(ValueError, match="finite"):
        g.order_card_polygon([[0, 0], [1, 0], [1, float("nan")], [0, 1]])


# ---------------------------------------------------------------------------------------------
# snapping a detector's box to the card's own edges, and the box variants the corner search reads
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("angle", [0, 17, 90, 133, 250])
def test_refine_snaps_an_offset_shrunk_box_back_to_the_card_outline(angle):
    frame, true = card_image(float(angle), width=110)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    ordered = g.order_card_polygon(true)
    # a box the way the detector errs: 6 % too small, moved 3 % of the card's width and height
    # and turned by 2 degrees
    box = g.order_card_polygon(g.warp_polygon(ordered, 0.94, dx=0.03, dy=-0.03, turn_deg=2.0))
    before = g.polygon_iou(box, true)
    refined = g.refine_card_polygon(gray, box)
    after = g.polygon_iou(refined, true)
    assert 0.8 < before < 0.9
    assert after > 0.97, (before, after)
    # the corner order is kept: each corner moved to the true corner nearest to it
    assert np.abs(g.order_card_polygon(refined) - refined).max() < 1e-9
    assert np.linalg.norm(refined - ordered, axis=1).max() < 2.0


def test_refine_keeps_the_box_where_there_is_no_edge_to_snap_to():
    flat = np.full((300, 300), 128, np.uint8)
    box = g.order_card_polygon([[100, 80], [170, 80], [170, 180], [100, 180]])
    assert np.array_equal(g.refine_card_polygon(flat, box), box)
    # another card's edge far inside this box (it lies on top) does not pull the box onto it
    frame, true = card_image(0.0, width=110)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    over = gray.copy()
    xs = true[:, 0]
    over[:, int(xs.min() + 0.5 * (xs.max() - xs.min())):] = 40   # dark felt-like cover over its right half
    refined = g.refine_card_polygon(over, g.order_card_polygon(true))
    assert g.polygon_iou(refined, true) > 0.9


@given(scale=st.floats(0.8, 1.2), dx=st.floats(-0.1, 0.1), dy=st.floats(-0.1, 0.1),
       turn=st.floats(-45, 45), angle=quad_angles)
@settings(max_examples=60, deadline=None)
def test_warp_polygon_is_undone_by_its_inverse(scale, dx, dy, turn, angle):
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    card = g.order_card_polygon(np.array([[-50, -70], [50, -70], [50, 70], [-50, 70]]) @ rot.T + [400, 300])
    moved = g.warp_polygon(card, scale, dx, dy, turn)
    # the centre moves by (dx, dy) card widths / heights, the size by scale, the corners keep order
    centre = card.mean(axis=0) + dx * (card[1] - card[0]) + dy * (card[3] - card[0])
    assert np.allclose(moved.mean(axis=0), centre, atol=1e-3)
    assert np.allclose(g.edge_lengths(moved), g.edge_lengths(card) * scale, rtol=1e-4)
    # turning and scaling about the centre are undone by their inverses, and so is a shift
    back = g.warp_polygon(g.warp_polygon(card, scale, turn_deg=turn), 1.0 / scale, turn_deg=-turn)
    assert np.allclose(back, card, atol=1e-3)
    assert np.allclose(g.warp_polygon(g.warp_polygon(card, dx=dx, dy=dy), dx=-dx, dy=-dy), card, atol=1e-3)
    # a turn is a rigid rotation on screen for an unforeshortened card
    turned = g.warp_polygon(card, turn_deg=turn)
    assert np.allclose(g.edge_lengths(turned), g.edge_lengths(card), rtol=1e-4)
