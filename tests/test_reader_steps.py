"""Each run-time rule of the card reader, given the boxes it is about (issue 20, item 4).

A rule is a step over the frame's candidates (``dealer_assist/vision/steps.py``). These tests
hand a step the situation it exists for, built from a rendered table whose true outlines are
known: a box the detector took for a back on a card that shows its index, a joker with no
index that the detector left unnamed, two boxes that read the same card. So they test the rule,
whatever mistakes the shipped detector happens to make or no longer makes; what each rule is
worth on real photos and rendered validation frames with the shipped models is measured by
``benchmarks/eval_rules.py`` (figures in models/MODEL_CARD.md).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dealer_assist.vision import geometry
from dealer_assist.vision import steps as S
from dealer_assist.vision.classifier import READABLE, class_of, corner
from dealer_assist.vision.detector import CardDetector, DetectorSettings

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
pytestmark = pytest.mark.skipif(not (MODELS / "card-look.onnx").is_file(), reason="no shipped models")

#: detector scores of a box it takes for a face, a back, a joker
AS_FACE, AS_BACK, AS_JOKER = (0.9, 0.0, 0.02), (0.0, 0.9, 0.0), (0.05, 0.0, 0.8)


@pytest.fixture(scope="module")
def reader():
    return CardDetector(MODELS)


def table(*cards, tilt=10.0):
    """A rendered table with ``cards`` (``(name, style)`` or a placement dict) left to right, and
    their true outlines."""
    from dealer_assist.vision.synth.scene import render_cards

    placements = []
    for i, c in enumerate(cards):
        p = dict(c) if isinstance(c, dict) else {"card": c[0], "style": c[1]}
        p.setdefault("center", (-420 + 280 * i, 0))
        p.setdefault("angle", 8.0 * (i % 3) - 8.0)
        p.setdefault("width", 110)
        placements.append(p)
    frame, label = render_cards(placements, background=(90, 40, 30), tilt_deg=tilt)
    outlines = [o["polygon"] for o in sorted(label["cards"] + label.get("backs", []),
                                              key=lambda o: np.mean(np.asarray(o["polygon"])[:, 0]))]
    return frame, outlines


def boxes(outlines, scores, roles=None):
    """Candidates on these outlines with the detector's ``scores`` (a role from each's best class)."""
    obb = np.array([geometry.obb_from_polygon(o) for o in outlines], float)
    sc = np.array(scores, float)
    roles = roles or [S.BACK_ROLE if s.argmax() == 1 else S.FACE_ROLE for s in sc]
    return S.Candidates.new(obb, sc, roles)


def named(c):
    return [(str(c.role[k]), str(c.name[k])) for k in range(len(c))]


def test_a_box_taken_for_a_back_that_shows_an_index_is_a_face_card(reader):
    """A back shows no index: a box the detector calls a back whose corner surely reads one is a
    face card (a suited card, or a joker by the joker's index); a real back stays a back."""
    frame, outlines = table(("Qs", "bicycle-like"), ("JK", "sun-word"), ("BACK", "rosette-purple"))
    cands = boxes(outlines, [AS_BACK] * 3)
    with_rule = reader.read(frame, cands[np.arange(3)], steps=("faces_among_backs",))
    without = reader.read(frame, cands[np.arange(3)], steps=())
    assert named(without) == [("back", "")] * 3
    assert named(with_rule) == [("face", "Qs"), ("face", "JK"), ("back", "")]


def test_a_court_the_detector_takes_for_a_back_is_a_face_card_where_the_look_sees_one(reader):
    """Court art whose figure fills the card edge to edge, with no frame, passes for a back design
    with the detector (Debian's Anglo Modern kings and queens, face up on a photograph, were
    reported as face-down cards). The look takes them for suited cards: they are face boxes, read
    and named by their corners. Real back designs, which the look takes for backs, stay backs."""
    from dealer_assist.vision.synth.courts import TOON_KINDS, toon_look

    for kind in TOON_KINDS:
        n = next(n for n in range(900_000, 900_100) if toon_look(n)["kind"] == kind)
        frame, outlines = table(("Kd", f"gen-03~toon-{n}"), ("BACK", "rosette-purple"), ("Qs", f"gen-05~toon-{n}"),
                                ("BACK", "hex-teal"))
        cands = boxes(outlines, [AS_BACK] * 4)
        assert named(reader.read(frame, cands[np.arange(4)], steps=())) == [("back", "")] * 4
        assert named(reader.read(frame, cands[np.arange(4)], steps=("faces_by_look",))) == \
            [("face", "Kd"), ("back", ""), ("face", "Qs"), ("back", "")], kind
    # the look's step is off where the reader reads without the look
    assert "faces_by_look" not in [s.name for s in CardDetector(MODELS, settings=DetectorSettings(look=False)).steps]


def test_a_back_the_look_takes_for_a_face_is_asked_about_unless_the_deck_knows_its_back(reader):
    """A back design the look takes for a face is read by its corners, which show no index: a
    ``??`` the dealer is asked about, never a name. A deck enrolled with its back (``BACK.jpg``)
    keeps it a back; a court beside it is still turned face up."""
    from dealer_assist.vision.decks import BACK_LABEL, Deck, card_template
    from dealer_assist.vision.look import LOOK_CLASSES

    frame, outlines = table(("BACK", "rosette-purple"), ("Kd", "gen-03~toon-900006"))
    misread = np.zeros(len(LOOK_CLASSES))
    misread[LOOK_CLASSES.index("diamond")] = 0.9          # the look's mistake on the back
    misread[LOOK_CLASSES.index("back")] = 0.1

    def read(with_reader):
        cands = boxes(outlines, [AS_BACK] * 2)
        cands.column("look")[0] = misread
        return named(with_reader.read(frame, cands, steps=("faces_by_look",)))

    assert read(reader) == [("face", "??"), ("face", "Kd")]
    enrolled = CardDetector(MODELS)
    enrolled.deck = Deck.session("tonight")
    enrolled.deck.card_tmpl = card_template(frame, np.asarray(outlines[0], np.float64))[:1]
    enrolled.deck.card_label = np.array([BACK_LABEL])
    assert read(enrolled) == [("back", ""), ("face", "Kd")]


def test_a_court_card_whose_art_scores_as_a_joker_is_named_by_its_index(reader):
    """The detector takes some court-card art for a joker's; a corner that surely reads the card
    outweighs the art while the joker prior is capped (``joker_prior_max``)."""
    frame, outlines = table(("Qs", "bicycle-like"))
    cands = reader.read(frame, boxes(outlines, [(0.03, 0.0, 0.77)]), steps=())
    # one corner reads the queen fairly surely, the other is covered
    cands.data["corners"][0] = np.stack([corner(["Qs"], [0.96]), corner(["none"], [0.95])])
    assert named(S.name(reader, frame, cands)) == [("face", "Qs")]
    uncapped = CardDetector(MODELS, settings=DetectorSettings(joker_prior_max=0.98))
    assert named(S.name(uncapped, frame, cands)) == [("face", "JK")]


def test_the_look_names_a_joker_without_an_index_and_turns_a_back_the_detector_called_a_joker(reader):
    """A face box whose corners read no index: unnamed (``??``) by the corners, the whole-card
    look names it ``JK`` when it looks like a joker. A box the detector's joker score alone names
    ``JK`` that looks like a back is a back."""
    frame, outlines = table(("JK", "harlequin-noindex"), ("BACK", "hex-teal"), ("7h", "bicycle-like"))
    cands = boxes(outlines, [(0.9, 0.0, 0.0), AS_JOKER, AS_FACE])
    before = reader.read(frame, cands[np.arange(3)], steps=())
    assert named(before) == [("face", "??"), ("face", "JK"), ("face", "7h")]
    after = S.look_jokers(reader, frame, before[np.arange(3)])
    assert named(after) == [("face", "JK"), ("back", "JK"), ("face", "7h")]


def test_a_box_the_detector_alone_calls_a_joker_is_one_only_if_the_look_agrees(reader):
    """Pictures the size of a card (prints, notes, book covers on the real photos) set off the
    detector's joker class as a joker without an index does. Named ``JK`` by that score alone, a
    box stays a joker where the look takes it for one, and is ``??`` for the dealer where it
    does not (here a box on the bare table)."""
    frame, outlines = table(("JK", "harlequin-noindex"), ("7h", "bicycle-like"))
    bare = (np.asarray(outlines[0]) + np.array([0.0, 260.0])).tolist()
    before = reader.read(frame, boxes([outlines[0], bare], [AS_JOKER, AS_JOKER]), steps=())
    assert named(before) == [("face", "JK"), ("face", "JK")]
    after = S.look_jokers(reader, frame, before[np.arange(2)])
    assert named(after) == [("face", "JK"), ("face", "??")]
    assert after.confidence[1] < before.confidence[1]


def test_the_centre_pips_set_right_a_suit_the_corners_misread(reader):
    """The suit an ace's centre shows in one large pip is weighed into corners that read a wrong
    suit unsurely; a name the corners read surely is not moved."""
    frame, outlines = table(("Ah", "bicycle-like"), ("Ah", "bicycle-like"))
    cands = reader.read(frame, boxes(outlines, [AS_FACE, AS_FACE]), steps=())
    assert named(cands) == [("face", "Ah"), ("face", "Ah")]
    unsure = np.stack([corner(["Ac", "Ah"], [0.55, 0.4])] * 2)
    sure = np.stack([corner(["Ac"], [0.999])] * 2)
    cands.data["corners"][0], cands.data["corners"][1] = unsure, sure
    S.name(reader, frame, cands)
    assert named(cands) == [("face", "Ac"), ("face", "Ac")]
    S.look_suit(reader, frame, cands)
    assert named(cands) == [("face", "Ah"), ("face", "Ac")]


def test_one_deck_names_the_less_sure_of_two_boxes_read_as_one_card_again(reader):
    """One deck holds each card once: of two separate boxes read Qs, the less sure is named again
    without the card the other bears (here its corners gave Qc a third). Two boxes that both read
    a card surely stay a duplicate for the dealer to see."""
    frame, outlines = table(("Qs", "bicycle-like"), ("Qc", "bicycle-like"))
    cands = reader.read(frame, boxes(outlines, [AS_FACE, AS_FACE]), steps=())
    cands.data["corners"][1] = np.stack([corner(["Qs", "Qc"], [0.6, 0.35])] * 2)
    S.name(reader, frame, cands)
    assert named(cands) == [("face", "Qs"), ("face", "Qs")]
    S.one_deck(reader, frame, cands)
    assert named(cands) == [("face", "Qs"), ("face", "Qc")]
    cands.data["corners"][1] = np.stack([corner(["Qs"], [0.999])] * 2)
    S.name(reader, frame, cands)
    assert named(S.one_deck(reader, frame, cands)) == [("face", "Qs"), ("face", "Qs")]


def test_a_joker_among_backs_of_another_design_is_the_odd_one_out(reader):
    """One deck has one back design: a box the detector calls a back, that the look takes for a
    joker and whose card matches none of the frame's other backs, is a face-up joker. Backs of one
    design stay backs, and so does a lone box with no other back to compare with."""
    frame, outlines = table(("JK", "harlequin-noindex"), ("BACK", "rosette-purple"), ("BACK", "rosette-purple"))
    got = reader.read(frame, boxes(outlines, [AS_BACK] * 3), steps=("jokers_among_backs",))
    assert named(got) == [("face", "JK"), ("back", ""), ("back", "")]
    assert got.source.tolist() == ["back-joker", "detector", "detector"]
    assert named(reader.read(frame, boxes(outlines, [AS_BACK] * 3), steps=())) == [("back", "")] * 3
    lone = boxes(outlines[:1], [AS_BACK])
    assert named(reader.read(frame, lone, steps=("jokers_among_backs",))) == [("back", "")]
    frame, outlines = table(*[("BACK", "hex-teal")] * 3)
    assert named(reader.read(frame, boxes(outlines, [AS_BACK] * 3), steps=("jokers_among_backs",))) == [("back", "")] * 3


def test_a_joker_among_the_backs_is_never_sure(reader):
    """Its name rests on no posterior."""
    frame, outlines = table(("JK", "harlequin-noindex"), ("BACK", "rosette-purple"), ("BACK", "rosette-purple"))
    got = reader.read(frame, boxes(outlines, [AS_BACK] * 3), steps=("jokers_among_backs",))
    cards, backs = S.card_dicts(got)
    assert [c["card"] for c in cards] == ["JK"] and len(backs) == 2
    assert reader.sureness(frame, cards) == [0.0]


def test_two_boxes_on_one_card_are_one_card(reader):
    """Two overlapping boxes read as the same card are one card: the weaker goes. Two separate
    boxes with one name both stay (the tracker's duplicate-card alert; neither is sure)."""
    frame, outlines = table(("9d", "bicycle-like"), ("9d", "bicycle-like"))
    shifted = np.asarray(outlines[0]) + 4.0
    cands = reader.read(frame, boxes([outlines[0], shifted, outlines[1]], [AS_FACE, (0.6, 0.0, 0.0), AS_FACE]), steps=())
    assert [str(n) for n in cands.name] == ["9d"] * 3
    merged = S.merge_same_card(reader, frame, cands)
    assert len(merged) == 2 and merged.boxes[:, 0].tolist() == [cands.boxes[0, 0], cands.boxes[2, 0]]
    cards, _ = S.card_dicts(merged)
    assert reader.sureness(frame, cards) == [0.0, 0.0]


def test_every_step_is_named_and_a_wrong_name_is_a_clear_error():
    from dealer_assist.errors import UserError

    assert set(S.OPTIONAL_STEPS) <= set(S.STEP_NAMES)
    assert [s.name for s in CardDetector(MODELS, settings=DetectorSettings(search=False, rescue_conf=0.0)).steps
            if s.name in ("search", "rescue")] == []
    with pytest.raises(UserError, match="no reader step 'resque'"):
        CardDetector(MODELS, settings=DetectorSettings(steps=("resque",)))


def test_the_posterior_of_a_name_is_what_its_sure_flag_starts_from(reader):
    frame, outlines = table(("Kd", "bicycle-like"))
    cands = reader.read(frame, boxes(outlines, [AS_FACE]), steps=())
    post = cands.data["post"][0][0]
    assert cands.posterior(0) == pytest.approx(float(post[class_of("Kd")]))
    cands.name[0] = "??"
    assert cands.posterior(0) == 0.0


def test_with_its_back_enrolled_a_deck_tells_its_joker_from_its_backs(tmp_path):
    """New joker art can pass for a back. Enrolled with its jokers AND its back (BACK photos), a
    deck tells them apart: of three boxes the detector calls backs, the joker is named JK and the
    real backs stay backs. With the jokers alone nothing changes (unseen backs correlate 0.7-0.8
    with the jokers), and so it is without a deck when the odd-back-out rule is off."""
    import cv2

    from dealer_assist.vision.enroll import enroll_deck
    from dealer_assist.vision.synth.scene import render_cards

    photos = {"JK": [], "BACK": []}
    for kind, styles in (("JK", ("harlequin-noindex", "sun-word")), ("BACK", ("rosette-purple", "hex-teal"))):
        for style in styles:
            for i, (angle, width, felt) in enumerate([(0, 150, (40, 110, 30)), (30, 120, (90, 40, 30))]):
                img, _ = render_cards([{"card": kind, "style": style, "center": (0, 0), "angle": angle,
                                        "width": width}], background=felt)
                photos[kind].append(tmp_path / f"{kind}-{style}-{i}.png")
                cv2.imwrite(str(photos[kind][-1]), img)
    both = enroll_deck("both", photos["JK"] + photos["BACK"], MODELS, root=tmp_path / "decks")
    assert both["views"] == {"JK": 4, "BACK": 4} and not both["skipped"]
    enroll_deck("jokers", photos["JK"], MODELS, root=tmp_path / "decks")
    # --card BACK says the same of photos with other names
    other = tmp_path / "IMG_0007.png"
    other.write_bytes(photos["BACK"][0].read_bytes())
    assert enroll_deck("b2", [other], MODELS, root=tmp_path / "decks", card="back")["views"] == {"BACK": 1}
    no_odd = DetectorSettings(odd_back_joker=2.0)
    generic = CardDetector(MODELS, settings=no_odd)
    with_back = CardDetector(MODELS, deck="both", decks_root=tmp_path / "decks", settings=no_odd)
    jokers_only = CardDetector(MODELS, deck="jokers", decks_root=tmp_path / "decks", settings=no_odd)
    assert with_back.deck.cards == ["JK", "BACK"]
    for joker, angle, width in (("sun-word", 60, 100), ("sun-word", 30, 120), ("harlequin-noindex", 30, 100)):
        frame, outlines = table({"card": "JK", "style": joker, "angle": angle, "width": width},
                                {"card": "BACK", "style": "rosette-purple", "angle": 10, "width": width},
                                {"card": "BACK", "style": "hex-teal", "angle": -20, "width": width}, tilt=15)
        for reader_ in (generic, jokers_only):
            got = reader_.read(frame, boxes(outlines, [AS_BACK] * 3), steps=("jokers_among_backs",))
            assert named(got) == [("back", "")] * 3
        got = with_back.read(frame, boxes(outlines, [AS_BACK] * 3), steps=("jokers_among_backs",))
        assert named(got) == [("face", "JK"), ("back", ""), ("back", "")], joker


def test_a_box_set_aside_whose_corner_surely_reads_a_new_card_is_rescued(reader):
    """Fanned cards: the detector scores a lower card's box too low (or NMS drops it), so it is
    only a spare. The rescue keeps a spare whose corner surely reads a card no other box names,
    named from that corner; a spare lying on a card already named (its echo) and a spare on
    plain felt add nothing, and the boxes already named keep their names."""
    frame, outlines = table(("Qs", "bicycle-like"), ("7h", "bicycle-like"))
    felt = np.asarray(outlines[1], float) + [0.0, 260.0]        # the same box moved onto bare felt
    echo = np.asarray(outlines[0], float) + [6.0, 4.0]          # a box askew on the named Qs
    spares = [outlines[1], echo, felt]
    weak = (0.2, 0.0, 0.01)
    cands = boxes([outlines[0], *spares], [AS_FACE] + [weak] * 3,
                  roles=[S.FACE_ROLE] + [S.SPARE_ROLE] * 3)
    without = reader.read(frame, cands[np.arange(4)], steps=())
    assert [n for n in named(without) if n[0] != S.SPARE_ROLE] == [("face", "Qs")]   # spares report nothing
    rescued = reader.read(frame, cands[np.arange(4)], steps=("rescue",))
    assert named(rescued) == [("face", "Qs"), ("face", "7h")]
    assert rescued.source[1] == "rescue"


def test_two_overlapping_boxes_read_alike_are_two_cards_when_one_reads_another_at_its_other_end(reader):
    """Two overlapping boxes named alike are one card seen twice (the weaker box goes), unless
    the weaker box's ends disagree and one reads a card the frame does not hold yet: then it is
    that card (a real deck's queen, read as a nine at one end, lying on the nine of clubs)."""
    frame, outlines = table({"card": "9c", "style": "bicycle-like", "center": (-40, 0), "angle": 0.0},
                            {"card": "Qc", "style": "bicycle-like", "center": (40, 10), "angle": 0.0})
    cands = reader.read(frame, boxes(outlines, [AS_FACE, AS_FACE]), steps=())
    assert S.gaussian_iou(cands.boxes[:1], cands.boxes[1:2])[0, 0] >= reader.settings.same_card_iou
    cands.data["corners"][0] = np.stack([corner(["9c"], [0.95])] * 2)
    cands.data["corners"][1] = np.stack([corner(["Qc"], [0.8]), corner(["9c"], [0.9])])
    S.name(reader, frame, cands)
    assert named(cands) == [("face", "9c"), ("face", "9c")]
    assert named(S.merge_same_card(reader, frame, cands[np.arange(2)])) == [("face", "9c"), ("face", "Qc")]
    # both ends of the weaker box read the nine (or one reads nothing): one card seen twice
    for other in (corner(["9c"], [0.9]), corner(["none"], [0.95])):
        cands.data["corners"][1] = np.stack([other, corner(["9c"], [0.9])])
        S.name(reader, frame, cands)
        assert named(S.merge_same_card(reader, frame, cands[np.arange(2)])) == [("face", "9c")]
    # ... and so is it when another box of the frame already bears the card the other end reads
    cands.data["corners"][1] = np.stack([corner(["Qc"], [0.8]), corner(["9c"], [0.9])])
    S.name(reader, frame, cands)
    assert S._under_card(reader, cands, 0, 1, {"9c"})[0] == "Qc"
    assert S._under_card(reader, cands, 0, 1, {"9c", "Qc"}) is None


def test_a_name_that_only_the_search_read_at_one_corner_is_never_sure(reader):
    """A box turned off its card reads no index at its own corners; the search's turned crops
    find the nine. The name stands. Where the search read it at one corner only, the name rests
    on a crop moved off the box, which in a fan can show the next card's index: it is never sure
    and the dealer confirms it. Read at both opposite corners, which one neighbour's index cannot
    explain, it is judged as any name is; so is the box on the card itself."""
    frame, outlines = table(("9d", "bicycle-like"))
    o = np.asarray(outlines[0], float)
    t = np.deg2rad(30.0)
    turned = (o - o.mean(0)) @ np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]]) + o.mean(0)
    steps = ("read_corners", "search", "name")
    for outline, searched in ((turned, True), (o, False)):
        cands = reader.read(frame, boxes([outline], [AS_FACE]), steps=steps)
        assert bool(cands.data["searched"][0]) is searched
        assert S.index_shown(cands, 0, "corners_box") < READABLE or not searched
        cards, _ = S.card_dicts(cands)
        assert [c["card"] for c in cards] == ["9d"]
        assert cards[0]["_search_alone"] is False          # both corners read the nine
        assert reader.sureness(frame, cards)[0] > 0.0
    # the search's crops read the nine at one corner, the other reads no index
    cands = reader.read(frame, boxes([turned], [AS_FACE]), steps=steps)
    cands.data["corners"][0][1] = corner(["none"], [0.95])
    S.name(reader, frame, cands)
    cards, _ = S.card_dicts(cands)
    assert [c["card"] for c in cards] == ["9d"]
    assert cards[0]["_search_alone"] is True
    assert reader.sureness(frame, cards)[0] == 0.0


def test_a_back_at_the_frame_edge_must_show_its_outline(reader):
    """At the frame's edge the detector may take a strip of grainy cloth for the part of a back it
    sees: such a box, which shows no card's outline, is dropped. A back the frame cuts shows its
    outline inside the frame and stays; so does a box on the same cloth within the frame (a back
    in a pile may show few of its sides). Face boxes are not its business."""
    frame, outlines = table(("BACK", "rosette-purple"), ("9d", "bicycle-like"),
                            {"card": "BACK", "style": "hex-teal", "center": (-640, 120), "angle": 0, "width": 110},
                            tilt=0.0)
    rng = np.random.default_rng(7)
    frame = np.clip(frame.astype(np.float32) + rng.normal(0.0, 20.0, frame.shape), 0, 255).astype(np.uint8)
    h, w = frame.shape[:2]
    cut = min(outlines, key=lambda o: np.asarray(o)[:, 0].min())        # the back the frame's left edge cuts
    assert np.asarray(cut)[:, 0].min() < 0
    strip = [[w - 90, 200], [w - 1, 200], [w - 1, 330], [w - 90, 330]]   # grainy cloth at the right edge
    inside = [[900, 480], [990, 480], [990, 610], [900, 610]]            # the same cloth within the frame
    spots = [np.clip(np.asarray(cut, float), 0, [w - 1, h - 1]), strip, inside, outlines[-1]]
    cands = boxes(spots, [AS_BACK, AS_BACK, AS_BACK, AS_FACE])
    without = reader.read(frame, cands[np.arange(4)], steps=())
    kept = reader.read(frame, cands[np.arange(4)], steps=("backs_at_frame_edge",))
    assert [str(r) for r in without.role] == ["back", "back", "back", "face"]
    assert [str(r) for r in kept.role] == ["back", "back", "face"]
    assert kept.boxes[:2, 0].tolist() == [without.boxes[0, 0], without.boxes[2, 0]]     # the strip went
