"""Stable cards over frames: observations in, tracks with a voted identity out (pure Python).

The detector sees each frame on its own: a card may be missed for a frame, misread for a frame,
or hidden for a moment under the dealer's hand.  The :class:`Tracker` joins the frames:

* each frame's :class:`Observation` s are matched to the existing tracks of the same zone and the
  same kind (face down ``BACK`` or face up), nearest centre first, within ``gate`` table units,
  at most one observation per track;
* every window and delay is in **seconds of the source's own clock** (a camera's capture time, a
  video's timestamps, a folder's ``--fps``), never a count of frames, so the same table gives the
  same tracks at 30, 15, 7.5 or 5 frames a second and when frames are skipped unevenly;
* a track is **accepted** (stable) once seen in ``accept_share`` of the frames of the last
  ``window_s`` seconds and in at least ``min_sightings`` frames (3 of 5 at 15 fps: a card's event
  comes 0.13 s after it appears; 2 of 2 at 5 fps) and **released** once unseen for ``release_s``
  seconds and two frames (0.4 s: a card hidden for a moment by a hand stays);
* its identity is a confidence-weighted vote over its last ``votes`` readings; ``??`` (face up
  but unreadable) counts only where nothing else was read;
* a different card in the place of one missed last frame is a new track (merged back into the
  old one if accepted as the same card); a card read ``accept`` times in a row as another card
  was replaced in place (its old readings go);
* a card turned face up is a new track of the face-up kind (its ``BACK`` track is released a
  few frames later), so a seat never looks empty while its cards are turned over;
* a dealer's correction of ``(zone, card)`` overrides the vote for the rest of the hand
  (``to=None`` hides the card);
* a track is **sure** of its card (:meth:`Tracker.sure`) once at least ``sure_reads`` of its
  recent readings name that card with the reader's ``sure`` flag (:attr:`Observation.sure`) and
  none of them names another card; it stays sure while the vote holds, and loses it when a
  reading surely names another card. A card the dealer set by a correction is sure.

>>> tr = Tracker()
>>> for f in range(3):
...     tr.update(f, f / 15, [Observation("Ks", "board1", (100.0, 50.0), 0.9)])
>>> [(t.zone, tr.identity(t), t.stable, tr.sure(t)) for t in tr.tracks()]
[('board1', 'Ks', True, False)]
>>> for f in range(3, 5):
...     tr.update(f, f / 15, [Observation("Ks", "board1", (100.0, 50.0), 0.99, sure=True)])
>>> [(tr.identity(t), tr.sure(t)) for t in tr.tracks()]
[('Ks', True)]

The hand flow on top of the tracker is :class:`dealer_assist.live.handflow.LiveTable`, also
importable from here.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Optional

from dealer_assist.cards import CardError, parse_card
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, message_of

if TYPE_CHECKING:  # pragma: no cover
    from dealer_assist.live.handflow import LiveTable   # at run time: the module __getattr__ below

__all__ = ["Observation", "TrackerSettings", "Track", "Tracker", "LiveTable", "canonical_card",
           "BACK", "UNREADABLE"]

BACK = "BACK"
UNREADABLE = "??"


@dataclass(frozen=True, slots=True)
class Observation:
    """One card seen in one frame (from the detector, mapped onto the table)."""

    card: str            # RULINGS notation ("As", "JK"), "??" (face up, unreadable) or "BACK"
    zone: Optional[str]  # calibration zone of the card's centre, None = outside every zone
    xy: tuple[float, float]   # centre in table units (for matching across frames)
    confidence: float    # detector/classifier confidence, 1.0 for backs
    polygon: tuple[tuple[float, float], ...] = ()   # image px, passed through for display
    #: the reader's ``sure`` flag (``detect --json``): the name is one the detector does not
    #: doubt. An observation that does not say is not sure.
    sure: bool = False
    #: for a card not sure, the reader's likeliest other name (``detect --json``'s ``"or"``):
    #: what the dealer should check it against
    other: Optional[str] = None


@dataclass(frozen=True, slots=True)
class TrackerSettings:
    """The tracker's and hand flow's tuning: times in seconds of the source's clock, a table in mm.

    The defaults give at 15 fps what 3-of-5 frames to accept and 6 frames to release gave.

    >>> TrackerSettings(accept_share=1.5)
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: tracker settings: accept_share must be above 0 and at most 1, got 1.5
    """

    window_s: float = 0.32       # a track is stable once seen in `accept_share` of the frames of the
    accept_share: float = 0.6    # last `window_s` seconds (3 of 5 at 15 fps) ...
    min_sightings: int = 2       # ... and in at least this many frames (a one-frame misread is no
                                 # card); the window stretches back to this many frames at low rates
    release_s: float = 0.39      # a stable track unseen this long (and two frames) is released
    gate: float = 40.0           # the farthest (table units) a card's centre may move between sightings
    votes: int = 9               # readings kept for the identity vote
    sure_reads: int = 2          # a track is sure of its card once this many of those readings name
                                 # it surely and none names another card (see Tracker.sure)
    present_gap_s: float = 0.19  # a stable track unseen this long no longer counts as "on the table"
                                 # for duplicate / double-slot checks (a card being moved)
    unreadable_s: float = 1.0    # "??" accepted this long in a zone -> unreadable_card
    deal_wait_s: float = 0.52    # how long the dealt seats must stay unchanged before a hand starts
                                 # when some seat holds fewer than its hole cards (dealing)
    new_deal_gap_s: float = 1.5  # backs coming to seats emptied this long before are a next deal
    min_fps: float = 4.0         # falling_behind: fewer frames a second of source time than this ...
    max_skip: float = 0.6        # ... or more than this share of the source's frames skipped
    pace_s: float = 2.0          # ... measured over this many seconds

    def __post_init__(self) -> None:
        if not 0 < self.accept_share <= 1:
            raise UserError(_("tracker settings: accept_share must be above 0 and at most 1, got {value}",
                              value=self.accept_share))
        for name in ("min_sightings", "votes", "sure_reads"):
            if getattr(self, name) < 1:
                raise UserError(_("tracker settings: {name} must be at least 1, got {value}", name=name,
                                  value=getattr(self, name)))
        for name in ("window_s", "release_s", "present_gap_s", "unreadable_s", "deal_wait_s",
                     "new_deal_gap_s", "min_fps", "pace_s"):
            if not getattr(self, name) >= 0:
                raise UserError(_("tracker settings: {name} must be >= 0 seconds, got {value}", name=name,
                                  value=getattr(self, name)))
        if not self.gate > 0:
            raise UserError(_("tracker settings: gate must be positive, got {value}", value=self.gate))
        if not 0 <= self.max_skip <= 1:
            raise UserError(_("tracker settings: max_skip is a share from 0 to 1, got {value}", value=self.max_skip))


_CANON: dict[str, str] = {BACK: BACK, UNREADABLE: UNREADABLE}


def canonical_card(text: Any, *, what: Any = "card") -> str:
    """``text`` in canonical notation: a card (``'As'``, ``'JK'``), ``'??'`` or ``'BACK'``.

    >>> canonical_card("10♥"), canonical_card("??"), canonical_card("back")
    ('Th', '??', 'BACK')
    >>> canonical_card("Xx")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: card: 'Xx' is not a card: 'X' is not a rank. A card is a rank (A K Q J T 9 8 7 6 5 4 3 2, or 10) followed by a suit (s h d c, or ♠ ♥ ♦ ♣), e.g. As, Td, 7c; the joker is JK
    """
    got = _CANON.get(text) if isinstance(text, str) else None
    if got is not None:
        return got
    if isinstance(text, str) and text.strip().upper() == BACK:
        return BACK
    try:
        card = parse_card(text, allow_hidden=True)
    except CardError as exc:
        raise UserError(_("{what}: {detail}", what=what, detail=message_of(exc))) from None
    out = UNREADABLE if card is None else str(card)
    if isinstance(text, str):
        _CANON[text] = out
    return out


_UNPINNED = object()


class Track:
    """One physical card followed over frames (mutable; owned by the :class:`Tracker`)."""

    __slots__ = ("id", "zone", "face", "xy", "polygon", "seen", "readings", "missing", "stable",
                 "first_frame", "accepted_frame", "pinned", "unreadable_since", "last_step", "last_seen",
                 "born", "retired", "sure_as", "others")

    def __init__(self, tid: int, obs: Observation, card: str, step: int, frame: int, votes: int,
                 now: float):
        self.id = tid
        self.zone = obs.zone
        self.face = card != BACK
        self.xy = (float(obs.xy[0]), float(obs.xy[1]))
        self.polygon = obs.polygon
        self.seen: deque = deque([now])      # the times it was seen within the window
        # (card, confidence, sure) of the latest readings
        self.readings: deque = deque([(card, float(obs.confidence), bool(obs.sure))], maxlen=votes)
        self.missing = 0
        self.stable = False
        self.first_frame = frame
        self.accepted_frame: Optional[int] = None
        self.pinned: Any = _UNPINNED
        self.unreadable_since: Optional[float] = None
        self.last_step = step
        self.last_seen = now
        self.born = now            # the time it was first seen
        self.retired = False       # left over from a hand that is over (see Tracker.retire)
        self.sure_as: Optional[str] = None   # the card its readings surely agree on (see reassess)
        # per card it was read as, the reader's latest likeliest other name for it (not sure)
        self.others: dict[str, str] = {}
        self.note_other(card, obs)

    def note_other(self, card: str, obs: Observation) -> None:
        """Keep the reader's likeliest other name for ``card`` from this reading (a sure reading
        drops it)."""
        if obs.sure or not obs.other or obs.other == card:
            self.others.pop(card, None)
        else:
            self.others[card] = obs.other

    def renew(self, n: int) -> None:
        """The last ``n`` readings agree on a card other than the vote: the card was replaced in
        place (e.g. the joker swapped at once); forget the older readings."""
        if len(self.readings) <= n:
            return
        recent = [c for c, _, _ in list(self.readings)[-n:]]
        card = recent[0]
        if card != UNREADABLE and all(c == card for c in recent) and card != self.vote():
            for _i in range(len(self.readings) - n):
                self.readings.popleft()

    def vote(self) -> str:
        """The confidence-weighted vote of the recent readings (``??`` only if nothing else)."""
        if not self.face:
            return BACK
        weight: dict[str, float] = {}
        latest: dict[str, int] = {}
        for i, (card, conf, _sure) in enumerate(self.readings):
            if card == UNREADABLE or card == BACK:
                continue
            weight[card] = weight.get(card, 0.0) + max(conf, 1e-6)
            latest[card] = i
        if not weight:
            return UNREADABLE
        return max(weight, key=lambda c: (weight[c], latest[c]))

    def reassess(self, need: int) -> None:
        """Update :attr:`sure_as` after new readings: a reading that surely names another card
        than the one the track was sure of takes the certainty away; the card is sure (again) once
        ``need`` of the kept readings name it surely and none names another card (``??`` says
        nothing either way)."""
        if not self.face:
            return
        card, _conf, sure = self.readings[-1]
        if sure and card not in (UNREADABLE, BACK) and card != self.sure_as:
            self.sure_as = None
        vote = self.vote()
        if vote == UNREADABLE:
            return
        named = [(c, s) for c, _, s in self.readings if c not in (UNREADABLE, BACK)]
        if all(c == vote for c, _ in named) and sum(s for _, s in named) >= need:
            self.sure_as = vote

    def __repr__(self) -> str:
        return f"Track({self.id}, {self.zone!r}, {self.vote()!r}, stable={self.stable}, missing={self.missing})"


class Tracker:
    """Tracks of the cards on the table; see the module docstring for the rules."""

    def __init__(self, settings: Optional[TrackerSettings] = None):
        self.settings = settings or TrackerSettings()
        self._tracks: dict[int, Track] = {}
        self._next_id = 1
        self._step = 0
        self._overrides: dict[tuple[Optional[str], str], Optional[str]] = {}
        self._times: deque = deque()   # the times of the frames of the last few seconds
        self._offset = 0.0             # added to the source's time after it went backwards
        self.now = 0.0                 # the time of the latest frame (source clock, monotonic here)

    def _clock(self, t: float) -> float:
        """The source's time ``t`` made monotonic: a source that starts again (a reconnected
        camera, a file played again) continues from the last frame instead of going back."""
        t = float(t) + self._offset
        if self._times and t <= self._times[-1]:
            step = (self._times[-1] - self._times[0]) / (len(self._times) - 1) if len(self._times) > 1 else 1 / 15
            self._offset += self._times[-1] + step - t
            t = self._times[-1] + step
        return t

    def _needed(self) -> tuple[float, int]:
        """The window's start time and the sightings a track needs within it to be accepted.

        The window holds the frames the source's pace puts in ``window_s`` seconds (5 at 15 fps,
        2 at 5 fps), and at least ``min_sightings`` frames.
        """
        s = self.settings
        times = self._times
        dt = (times[-1] - times[0]) / (len(times) - 1) if len(times) > 1 else 0.0
        expected = math.floor(s.window_s / dt + 1e-9) + 1 if dt > 0 else 1
        n = min(len(times), max(expected, s.min_sightings))
        return times[-n], max(s.min_sightings, math.ceil(s.accept_share * expected - 1e-9))

    # -- frames -----------------------------------------------------------------------------
    def update(self, frame: int, t: float, observations: Iterable[Observation]) -> None:
        """Take one frame's observations (every frame, also those with nothing seen)."""
        s = self.settings
        self._step += 1
        step = self._step
        now = self.now = self._clock(t)
        self._times.append(now)
        while len(self._times) > 2 and self._times[0] < now - max(s.window_s, s.pace_s, s.release_s) - 1:
            self._times.popleft()
        window_start, needed = self._needed()
        obs = []
        for o in observations:
            if not isinstance(o, Observation):
                raise TypeError(f"an observation must be an Observation, got {type(o).__name__}")   # a caller's mistake
            obs.append((o, canonical_card(o.card, what="observation")))
        # candidate pairs: same zone, same kind (face up / BACK), within the gate; nearest first
        gate2 = s.gate * s.gate
        pairs = []
        live = list(self._tracks.values())
        for j, (o, card) in enumerate(obs):
            face = card != BACK
            ox, oy = float(o.xy[0]), float(o.xy[1])
            for tr in live:
                if tr.zone != o.zone or tr.face != face or (tr.retired and tr.missing):
                    continue    # a leftover card, once it was taken away, is never a new one
                if face and tr.missing and card != UNREADABLE and card != tr.vote() != UNREADABLE:
                    continue    # another card where one went missing: a new card (a misread one
                                # is merged back when accepted, see _twin)
                d2 = (tr.xy[0] - ox) ** 2 + (tr.xy[1] - oy) ** 2
                if d2 <= gate2:
                    pairs.append((d2, tr.id, j))
        pairs.sort()
        used_tracks: set[int] = set()
        used_obs: set[int] = set()
        for _d2, tid, j in pairs:
            if tid in used_tracks or j in used_obs:
                continue
            used_tracks.add(tid)
            used_obs.add(j)
            o, card = obs[j]
            tr = self._tracks[tid]
            tr.seen.append(now)
            tr.readings.append((card, float(o.confidence), bool(o.sure)))
            tr.note_other(card, o)
            tr.renew(needed)
            tr.reassess(s.sure_reads)
            tr.missing = 0
            tr.last_step = step
            tr.last_seen = now
            tr.xy = (float(o.xy[0]), float(o.xy[1]))
            tr.polygon = o.polygon
        for j, (o, card) in enumerate(obs):
            if j not in used_obs:
                tr = Track(self._next_id, o, card, step, frame, s.votes, now)
                tr.reassess(s.sure_reads)
                self._tracks[tr.id] = tr
                self._next_id += 1
        for tid in list(self._tracks):
            tr = self._tracks[tid]
            if tid not in used_tracks and tr.last_step != step:
                tr.missing += 1
            while tr.seen and tr.seen[0] < window_start:
                tr.seen.popleft()
            if not tr.stable and len(tr.seen) >= needed:
                twin = self._twin(tr) if tr.face else None   # two backs may lie close together
                if twin is not None:
                    self._merge(tr, twin)
                    continue
                tr.stable = True
                tr.accepted_frame = frame
            if (tr.stable and tr.missing >= 2 and now - tr.last_seen >= s.release_s) or (
                    not tr.stable and not tr.seen):
                del self._tracks[tid]
                continue
            if tr.stable and tr.face and self.identity(tr) == UNREADABLE:
                if tr.unreadable_since is None:
                    tr.unreadable_since = t
            else:
                tr.unreadable_since = None

    def _twin(self, new: Track) -> Optional[Track]:
        """An accepted track of the same card in the same place (the card missed a few frames and
        came back under a new track after a misread): ``new`` is the same card."""
        card = new.vote()
        gate2 = self.settings.gate ** 2
        for tr in self._tracks.values():
            if (tr is not new and tr.stable and tr.zone == new.zone and tr.face == new.face
                    and tr.vote() == card
                    and (tr.xy[0] - new.xy[0]) ** 2 + (tr.xy[1] - new.xy[1]) ** 2 <= gate2):
                return tr
        return None

    def _merge(self, new: Track, old: Track) -> None:
        for step in new.seen:
            if step not in old.seen:
                old.seen.append(step)
        old.seen = deque(sorted(old.seen))
        old.readings.extend(new.readings)
        old.reassess(self.settings.sure_reads)
        old.missing = min(old.missing, new.missing)
        old.last_step = max(old.last_step, new.last_step)
        old.last_seen = max(old.last_seen, new.last_seen)
        old.xy, old.polygon = new.xy, new.polygon
        del self._tracks[new.id]

    # -- reading ----------------------------------------------------------------------------
    def tracks(self) -> list[Track]:
        """Every live track (stable or not, not retired), oldest first."""
        return [t for t in self._tracks.values() if not t.retired]

    def stable(self, zone: Optional[str] = None) -> list[Track]:
        """Accepted tracks (of ``zone`` if given, not retired), oldest first."""
        return [t for t in self._tracks.values()
                if t.stable and not t.retired and (zone is None or t.zone == zone)]

    def retire(self, keep: Iterable[Track] = ()) -> int:
        """Set aside every track but ``keep``: the cards left on the table from a hand that is over
        (a board and muck not yet cleared when the next hand is dealt). They are followed until
        they are taken away, but no longer count as on the table. Returns how many."""
        keep_ids = {t.id for t in keep}
        n = 0
        for t in self._tracks.values():
            if t.id not in keep_ids and not t.retired:
                t.retired = True
                n += 1
        return n

    def pending(self, zone: Optional[str] = None) -> list[Track]:
        """Tracks seen recently but not (yet) accepted."""
        return [t for t in self._tracks.values() if not t.stable and (zone is None or t.zone == zone)]

    def present(self, track: Track) -> bool:
        """Accepted and seen lately: counts as lying on the table (not being moved away)."""
        return track.stable and self.now - track.last_seen < self.settings.present_gap_s

    def identity(self, track: Track) -> Optional[str]:
        """The track's card after corrections; ``None`` where a correction removed it."""
        if track.pinned is not _UNPINNED:
            return track.pinned
        card = track.vote()
        return self._overrides.get((track.zone, card), card)

    def sure(self, track: Track) -> bool:
        """Whether the track's card (:meth:`identity`) is sure: a card the dealer set by a
        correction, or one its readings surely agree on (:meth:`Track.reassess`). A face-down
        card is sure (nothing is read on it); an unreadable one is not."""
        if track.pinned is not _UNPINNED:
            return track.pinned is not None
        if not track.face:
            return True
        card = track.vote()
        if card == UNREADABLE:
            return False
        if (track.zone, card) in self._overrides:
            return self._overrides[(track.zone, card)] is not None
        return track.sure_as == card

    def other(self, track: Track) -> Optional[str]:
        """For a card not sure (:meth:`sure`), the reader's latest likeliest other name for the
        card it is read as: what the dealer should check it against. None for a sure card, a
        card the dealer set, or where the reader named none."""
        if self.sure(track) or track.pinned is not _UNPINNED or not track.face:
            return None
        card = track.vote()
        if (track.zone, card) in self._overrides:
            return None
        return track.others.get(card)

    # -- corrections ------------------------------------------------------------------------
    def correct(self, zone: str, card: str, to: Optional[str]) -> int:
        """Override ``card`` in ``zone`` with ``to`` (``None`` hides it) for the rest of the hand.

        Returns how many current tracks it changed; the rule also holds for tracks seen later.
        """
        changed = 0
        for tr in self._tracks.values():
            if tr.zone == zone and tr.face and self.identity(tr) == card:
                tr.pinned = to
                changed += 1
        self._overrides[(zone, card)] = to
        return changed

    def corrected(self, zone: str, to: str) -> list[Track]:
        """The tracks of ``zone`` that a correction set to card ``to`` (oldest first)."""
        return [t for t in self._tracks.values() if t.zone == zone and t.face and t.pinned == to]

    def clear_corrections(self) -> None:
        """Forget every correction (a new hand)."""
        self._overrides.clear()
        for tr in self._tracks.values():
            tr.pinned = _UNPINNED

    def snapshot(self) -> list[dict]:
        """The tracks as JSON-ready dicts (for ``LiveTable.state``)."""
        out = []
        for tr in self._tracks.values():
            out.append({"id": tr.id, "zone": tr.zone, "card": self.identity(tr),
                        "xy": [round(tr.xy[0], 1), round(tr.xy[1], 1)],
                        "polygon": [list(p) for p in tr.polygon], "stable": tr.stable,
                        "sure": self.sure(tr), **({"or": o} if (o := self.other(tr)) else {})})
        return out


def __getattr__(name: str):
    # LiveTable lives in handflow (which imports this module); importable from here too.
    if name == "LiveTable":
        from dealer_assist.live.handflow import LiveTable
        return LiveTable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
