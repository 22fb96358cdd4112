"""The camera's picture itself, watched: a picture that stopped changing, that went dark or that is
washed out reads no card, and the dealer should hear why rather than see cards go unread.

A camera can keep delivering frames that show nothing useful: a driver stuck on one frame (the
table then seems to stand still), a lens covered or the lights off, a lamp or the sun straight
into the lens. None of these is a lost camera (``camera_lost``), and the reader can only say that
it reads nothing. :class:`PictureWatch` looks at each frame once, cheaply, and says when such a
state has lasted long enough not to be a hand passing over the lens:

- ``picture_frozen``: not one pixel changed for :attr:`PictureSettings.frozen_s` seconds (of every
  8th pixel of every 8th row: 14,400 of a 1280x720 frame). A real sensor's noise changes thousands
  of them in every frame, and a video stream's key frames encode it again, so only a stuck camera
  or a stuck capture gives the very same picture that long.
- ``picture_dark``: the frame's brightest parts are dark (its 99th percentile grey level under
  :attr:`PictureSettings.dark_below`), for :attr:`PictureSettings.hold_s` seconds. White cards are
  the brightest thing on a table, even a black one: on the 296 real photos (cards on a black
  suitcase and on dark cloth among them) that percentile is 163 or more, on the sample clip 176.
- ``picture_washed``: even the frame's darkest parts are light (its 1st percentile grey level at
  :attr:`PictureSettings.washed_above` or more: a veil of glare over the whole picture, or an
  exposure far too long) for :attr:`PictureSettings.hold_s` seconds. On the real photos that
  percentile is 73 at most, on the sample clip 58.

- ``picture_blurred``: at least half the named cards of the frame (two or more) have an outline
  blurred past the reader's limit (``detect``'s ``"blurred"``: a lens out of focus, a camera
  shaking; :mod:`dealer_assist.vision.focus`), for :attr:`PictureSettings.hold_s` seconds. Such
  cards are read but never sure, so a showdown that shows them waits for the dealer: the alert
  says why, and that focusing the camera ends it. :class:`FocusWatch` says it, from the cards the
  reader found.

Each is raised once and cleared when the picture is right again. A frame dark or washed out, even
for a moment, is :attr:`PictureWatch.blind`: the pipeline does not give it to the table, whose cards
are then not taken for gone (a fold, a hand over). :class:`PictureWatch` knows nothing of cards or
games: it sees only the frame.

>>> import numpy as np
>>> watch = PictureWatch()
>>> grey = np.full((72, 128, 3), 90, np.uint8); grey[10:30, 10:30] = 240
>>> [watch.look(grey + np.uint8(k % 2), k / 10) for k in range(40)][-1]
[]
>>> said = [watch.look(np.zeros((72, 128, 3), np.uint8), 4 + k / 10) for k in range(40)]
>>> [(c, raised) for step in said for c, raised, _m in step]
[('picture_dark', True)]
>>> [(c, raised) for c, raised, _m in watch.look(grey, 9.0)]
[('picture_dark', False)]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from dealer_assist.i18n import Msg, _

__all__ = ["FocusWatch", "PICTURE_CODES", "PictureSettings", "PictureWatch", "picture_stats"]

#: The alerts of the camera's picture, raised and cleared: :class:`PictureWatch`'s, from the frame
#: alone, and :class:`FocusWatch`'s, from the cards read in it.
FRAME_CODES = ("picture_frozen", "picture_dark", "picture_washed")
PICTURE_CODES = FRAME_CODES + ("picture_blurred",)

#: About how many pixels across the statistics are taken from.
THUMB_W = 160


@dataclass(frozen=True, slots=True)
class PictureSettings:
    #: seconds without one changed pixel before the picture is called frozen
    frozen_s: float = 10.0
    #: the 99th percentile grey level (0-255) under which the picture is dark
    dark_below: float = 40.0
    #: the 1st percentile grey level (0-255) from which the picture is washed out
    washed_above: float = 200.0
    #: seconds a dark, washed-out or blurred picture lasts before it is said (a hand over the lens
    #: passes, a card slid across the table blurs for a moment)
    hold_s: float = 3.0
    #: the share of a frame's named cards, two or more, whose outline is blurred past the reader's
    #: limit from which the picture is blurred
    blurred_share: float = 0.5


def picture_stats(image: np.ndarray) -> tuple[float, float]:
    """``(1st, 99th)`` percentile grey levels of a BGR frame, from every n-th pixel of every n-th
    row (about :data:`THUMB_W` pixels across: a tenth of a millisecond).

    >>> picture_stats(np.full((90, 160, 3), 255, np.uint8))
    (255.0, 255.0)
    """
    step = max(1, image.shape[1] // THUMB_W)
    small = np.ascontiguousarray(image[::step, ::step])
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    low, high = np.percentile(grey, (1, 99))
    return float(low), float(high)


class _Held:
    """Since when each condition has lasted without a break; one that has lasted ``hold_s`` seconds
    is held (a hand over the lens, a card slid across the table, passes first).

    >>> h = _Held(3.0)
    >>> [h.held("dark", bad, t) for bad, t in ((True, 0.0), (True, 2.9), (True, 3.0), (False, 3.1), (True, 3.2))]
    [False, False, True, False, False]
    """

    def __init__(self, hold_s: float):
        self.hold_s = hold_s
        self._since: dict[str, float] = {}

    def held(self, code: str, bad: bool, t: float) -> bool:
        if not bad:
            self._since.pop(code, None)
            return False
        return t - self._since.setdefault(code, t) >= self.hold_s


class PictureWatch:
    """Looks at every frame (:meth:`look`) and says when the picture froze, went dark or washed
    out, and when it is right again."""

    def __init__(self, settings: PictureSettings = PictureSettings()):
        self.settings = settings
        self._last: Optional[np.ndarray] = None
        self._last_t = 0.0
        self._same_since: Optional[float] = None
        self._held = _Held(settings.hold_s)
        self.raised: set[str] = set()
        #: the last frame shows nothing of the table (dark or washed out, however briefly): its
        #: missing cards are not cards gone (:meth:`look` sets it)
        self.blind = False

    def look(self, image: np.ndarray, t: float) -> list[tuple[str, bool, Msg]]:
        """The frame at time ``t`` (seconds): ``(code, raised, words)`` for each alert raised
        (``raised`` True) or cleared (False) by it."""
        st = self.settings
        out: list[tuple[str, bool, Msg]] = []
        # every 8th pixel of every 8th row, copied (a source may reuse its frame's buffer): a real
        # sensor's noise changes thousands of them from one frame to the next
        sample = image[::8, ::8].copy()
        same = self._last is not None and np.array_equal(self._last, sample)
        if not same:
            self._same_since = None
        elif self._same_since is None:
            self._same_since = self._last_t          # unchanged since the first of the same frames
        self._last, self._last_t = sample, t
        frozen = self._same_since is not None and t - self._same_since >= st.frozen_s
        low, high = picture_stats(image)
        now = {"picture_dark": high < st.dark_below, "picture_washed": low >= st.washed_above}
        self.blind = any(now.values())
        state = {"picture_frozen": frozen, **{code: self._held.held(code, bad, t) for code, bad in now.items()}}
        for code in FRAME_CODES:
            if state[code] and code not in self.raised:
                self.raised.add(code)
                out.append((code, True, self._raise_words(code, t)))
            elif not now.get(code, frozen) and code in self.raised:
                self.raised.discard(code)
                out.append((code, False, _CLEARED[code]))
        return out

    def _raise_words(self, code: str, t: float) -> Msg:
        if code == "picture_frozen":
            return _("the camera's picture has not changed for {s} s: the camera or its capture may be stuck, "
                     "and nothing new on the table is seen. Check the camera and its cable",
                     s=int(round(t - (t if self._same_since is None else self._same_since))))
        return _RAISED[code]


class FocusWatch:
    """Looks at the cards the reader found in every frame (:meth:`look`) and says when most are
    blurred (``picture_blurred``), and when they are sharp again. A frame with fewer than two
    named cards says nothing either way.

    >>> watch = FocusWatch()
    >>> soft = [{"card": "Ks", "sure": False, "blurred": True}, {"card": "2c", "sure": False, "blurred": True}]
    >>> said = [watch.look(soft, k / 10) for k in range(40)]
    >>> [(round(k / 10, 1), c, raised) for k, step in enumerate(said) for c, raised, _m in step]
    [(3.0, 'picture_blurred', True)]
    >>> [(c, raised) for c, raised, _m in watch.look([{"card": "Ks", "sure": True}], 5.0)]
    []
    >>> [(c, raised) for c, raised, _m in watch.look([{"card": "Ks", "sure": True}, soft[1], {"card": "9h"}], 5.1)]
    [('picture_blurred', False)]
    """

    CODE = "picture_blurred"

    def __init__(self, settings: PictureSettings = PictureSettings()):
        self.settings = settings
        self._held = _Held(settings.hold_s)
        self.raised = False

    def look(self, cards: list[dict], t: float) -> list[tuple[str, bool, Msg]]:
        """The cards ``detect`` found in the frame at time ``t`` (seconds): ``(code, raised,
        words)`` for the alert raised or cleared by it."""
        named = [c for c in cards if isinstance(c, dict) and c.get("card") not in (None, "??")]
        if len(named) < 2:
            return []
        bad = sum(bool(c.get("blurred")) for c in named) >= self.settings.blurred_share * len(named)
        held = self._held.held(self.CODE, bad, t)
        if not bad and self.raised:
            self.raised = False
            return [(self.CODE, False, _CLEARED[self.CODE])]
        if held and not self.raised:
            self.raised = True
            return [(self.CODE, True, _RAISED[self.CODE])]
        return []


_RAISED = {
    "picture_dark": _("the camera's picture is dark: no card can be read. Is the lens covered, or the "
                      "table's light off?"),
    "picture_washed": _("the camera's picture is washed out: no card can be read. Is a lamp or the sun "
                        "shining into the lens, or the camera's exposure too high?"),
    "picture_blurred": _("the cards look blurred in the camera's picture: the lens may be out of focus, or the "
                         "camera shaking. Cards read so are not sure: a showdown that shows them waits for the "
                         "dealer's check. Focus the camera, or steady it"),
}
_CLEARED = {
    "picture_frozen": _("the camera's picture moves again"),
    "picture_dark": _("the camera's picture is bright enough again"),
    "picture_washed": _("the camera's picture is no longer washed out"),
    "picture_blurred": _("the cards look sharp again in the camera's picture"),
}
