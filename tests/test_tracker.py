"""The tracker: stable cards over frames (acceptance, release, identity vote, corrections)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from dealer_assist.errors import UserError
from dealer_assist.live.tracker import Observation, Tracker, TrackerSettings, LiveTable


def obs(card, zone="board1", xy=(100.0, 50.0), conf=0.9):
    return Observation(card, zone, xy, conf)


def feed(tr, frames, start=0):
    for i, o in enumerate(frames):
        tr.update(start + i, (start + i) / 15, o)


def test_live_table_is_importable_from_the_tracker_module():
    from dealer_assist.live.handflow import LiveTable as LT
    assert LiveTable is LT


def test_a_card_is_accepted_on_its_third_sighting_not_before():
    tr = Tracker()
    feed(tr, [[obs("Ks")], [obs("Ks")]])
    assert [t.stable for t in tr.tracks()] == [False]
    feed(tr, [[obs("Ks")]], start=2)
    (t,) = tr.tracks()
    assert t.stable and t.accepted_frame == 2


def test_three_of_five_with_gaps_is_accepted_two_of_five_is_not():
    tr = Tracker()
    feed(tr, [[obs("Ks")], [], [obs("Ks")], [], [obs("Ks")]])
    assert tr.stable() and tr.stable()[0].accepted_frame == 4
    tr = Tracker()
    feed(tr, [[obs("Ks")], [], [], [obs("Ks")], [], [], [obs("Ks")]])
    assert not tr.stable()


def test_a_single_frame_misdetection_never_becomes_a_card():
    tr = Tracker()
    feed(tr, [[obs("Qd")]] + [[] for _ in range(10)])
    assert tr.tracks() == []


def test_a_card_hidden_for_three_frames_keeps_its_track_and_six_releases_it():
    tr = Tracker()
    feed(tr, [[obs("Ks")]] * 5 + [[]] * 3 + [[obs("Ks")]])
    (t,) = tr.tracks()
    assert t.id == 1 and t.stable
    feed(tr, [[]] * 5, start=9)
    assert tr.stable() and tr.stable()[0].missing == 5
    feed(tr, [[]], start=14)
    assert tr.tracks() == []


def test_the_vote_outweighs_occasional_misreads_and_unreadable_frames():
    tr = Tracker()
    seq = ["8s", "8c", "8s", "??", "8s", "8c", "??", "8s"]
    feed(tr, [[obs(c, conf=0.5 if c == "8c" else 0.8)] for c in seq])
    (t,) = tr.tracks()
    assert tr.identity(t) == "8s"


def test_unreadable_only_where_nothing_else_was_read():
    tr = Tracker()
    feed(tr, [[obs("??")]] * 4)
    assert tr.identity(tr.tracks()[0]) == "??"
    feed(tr, [[obs("Td", conf=0.3)]], start=4)
    assert tr.identity(tr.tracks()[0]) == "Td"


def test_cards_are_matched_by_zone_and_nearest_centre():
    tr = Tracker()
    a, b = (100.0, 50.0), (170.0, 50.0)
    # the two cards come in swapped order every other frame, and drift a little
    for f in range(6):
        pair = [obs("Ks", xy=(a[0] + f, a[1])), obs("Qh", xy=(b[0] + f, b[1]))]
        tr.update(f, f / 15, pair if f % 2 else pair[::-1])
    assert sorted(tr.identity(t) for t in tr.tracks()) == ["Ks", "Qh"]
    assert len(tr.tracks()) == 2
    # the same place in another zone is another card
    tr2 = Tracker()
    feed(tr2, [[obs("Ks", zone="board1"), obs("Ks", zone="board2")]] * 3)
    assert len(tr2.stable()) == 2


def test_a_card_turned_face_up_is_a_new_track_and_the_back_is_released_later():
    tr = Tracker()
    feed(tr, [[obs("BACK", zone="seat1", conf=1.0)]] * 5)
    feed(tr, [[obs("Ah", zone="seat1")]] * 3, start=5)
    kinds = sorted((t.face, t.stable) for t in tr.tracks())
    assert kinds == [(False, True), (True, True)]     # both on the table for a moment
    feed(tr, [[obs("Ah", zone="seat1")]] * 3, start=8)
    assert [tr.identity(t) for t in tr.tracks()] == ["Ah"]


def test_a_correction_overrides_the_vote_for_current_and_later_tracks():
    tr = Tracker()
    feed(tr, [[obs("8c")]] * 3)
    assert tr.correct("board1", "8c", "8s") == 1
    assert tr.identity(tr.tracks()[0]) == "8s"
    feed(tr, [[]] * 6, start=3)          # released ...
    feed(tr, [[obs("8c")]] * 3, start=9)  # ... and seen again
    assert tr.identity(tr.tracks()[0]) == "8s"
    tr.correct("board1", "8s", None)
    assert tr.identity(tr.tracks()[0]) is None
    tr.clear_corrections()
    assert tr.identity(tr.tracks()[0]) == "8c"


def test_bad_settings_and_observations_are_clear_errors():
    with pytest.raises(UserError, match="accept_share"):
        TrackerSettings(accept_share=0)
    with pytest.raises(UserError, match="release_s"):
        TrackerSettings(release_s=-1)
    with pytest.raises(UserError, match="gate"):
        TrackerSettings(gate=0)
    with pytest.raises(UserError, match="observation: 'Zz' is not a card"):
        Tracker().update(0, 0.0, [obs("Zz")])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=30, max_size=30), st.integers(0, 2**31))
def test_a_card_seen_often_enough_is_one_stable_track_whatever_drops(mask, seed):
    """Property: however detections drop, while no run of misses reaches `release`, one card on
    the table stays one track, keeps its identity and, once accepted, stays accepted."""
    s = TrackerSettings()
    # make sure the card is seen at the start and no run of misses reaches release
    mask = [True, True, True] + mask
    run = 0
    for i, seen in enumerate(mask):
        run = 0 if seen else run + 1
        if run >= round(s.release_s * 15):
            mask[i] = True
            run = 0
    rng = random.Random(seed)
    tr = Tracker(s)
    accepted = False
    for f, seen in enumerate(mask):
        o = [obs("Jc", xy=(100 + rng.uniform(-3, 3), 50 + rng.uniform(-3, 3)))] if seen else []
        tr.update(f, f / 15, o)
        tracks = tr.tracks()
        assert len(tracks) == 1 and tracks[0].id == 1
        accepted = accepted or tracks[0].stable
        assert tracks[0].stable == accepted
        assert tr.identity(tracks[0]) == "Jc"
    assert accepted


# ------------------------------------------------------------------------------ sure
def sure_obs(card, sure=True, conf=0.97):
    return Observation(card, "board1", (100.0, 50.0), conf, sure=sure)


def test_a_card_read_surely_over_several_frames_is_sure_and_unsure_readings_never_make_it_so():
    tr = Tracker()
    feed(tr, [[sure_obs("Ks")]])
    (t,) = tr.tracks()
    assert not tr.sure(t)                     # one sure reading is not enough
    feed(tr, [[sure_obs("Ks")], [sure_obs("Ks")]], start=1)
    assert t.stable and tr.sure(t) and tr.snapshot()[0]["sure"] is True
    tr = Tracker()
    feed(tr, [[sure_obs("Ks", sure=False)]] * 6)
    (t,) = tr.tracks()
    assert t.stable and tr.identity(t) == "Ks" and not tr.sure(t)


def test_a_track_whose_readings_disagree_is_not_sure_until_the_odd_one_is_out_of_the_window():
    tr = Tracker()
    feed(tr, [[sure_obs("Ks")], [sure_obs("Kc", sure=False, conf=0.4)], [sure_obs("Ks")], [sure_obs("Ks")]])
    (t,) = tr.tracks()
    assert tr.identity(t) == "Ks" and not tr.sure(t)
    feed(tr, [[sure_obs("Ks")]] * 9, start=4)         # the Kc reading leaves the last 9
    assert tr.sure(t)
    # "??" (a hand passing over it) says nothing either way
    feed(tr, [[sure_obs("??", sure=False, conf=0.3)]], start=13)
    assert tr.sure(t)


def test_a_sure_card_loses_its_certainty_when_a_reading_surely_names_another_card():
    tr = Tracker()
    feed(tr, [[sure_obs("Ks")]] * 5)
    (t,) = tr.tracks()
    assert tr.sure(t)
    feed(tr, [[sure_obs("Kc")]], start=5)
    assert tr.identity(t) == "Ks" and not tr.sure(t)
    feed(tr, [[sure_obs("Ks", sure=False)]] * 3, start=6)    # unsure readings do not give it back
    assert not tr.sure(t)


def test_a_card_the_dealer_corrected_is_sure():
    tr = Tracker()
    feed(tr, [[sure_obs("Kc", sure=False)]] * 4)
    (t,) = tr.tracks()
    assert not tr.sure(t)
    tr.correct("board1", "Kc", "Ks")
    assert tr.identity(t) == "Ks" and tr.sure(t)


def test_observations_without_a_sure_flag_are_not_sure():
    assert Observation("Ks", "board1", (0.0, 0.0), 0.99).sure is False
    with pytest.raises(UserError, match="sure_reads"):
        TrackerSettings(sure_reads=0)


def test_a_card_not_sure_keeps_the_readers_other_name_until_it_is_sure_or_set():
    """The reader's likeliest other name for a card it is not sure of (``detect --json``'s
    ``"or"``) follows the track into the table state, for the dealer to check the card against;
    once the card is read surely, or the dealer sets it, there is nothing to check."""
    from dealer_assist.live.tracker import Observation, Tracker

    tr = Tracker()
    for f in range(6):
        tr.update(f, f / 15, [Observation("Ks", "seat1", (100.0, 50.0), 0.8, sure=False, other="Kc")])
    (t,) = [t for t in tr.tracks() if t.stable]
    assert not tr.sure(t) and tr.other(t) == "Kc"
    assert tr.snapshot()[0]["or"] == "Kc"
    for f in range(6, 10):
        tr.update(f, f / 15, [Observation("Ks", "seat1", (100.0, 50.0), 0.99, sure=True)])
    assert tr.sure(t) and tr.other(t) is None and "or" not in tr.snapshot()[0]
    other = Tracker()
    for f in range(6):
        other.update(f, f / 15, [Observation("9h", "board1", (10.0, 10.0), 0.7, other="9d")])
    (t,) = list(other.tracks())
    other.correct("board1", "9h", "9d")
    assert other.other(t) is None
