"""Words drawn into a picture in any language: OpenCV's own fonts have Latin letters only, so a
Japanese label on a printed marker sheet or an annotated frame is drawn with a CJK typeface
through Pillow (:func:`put_text`); a Latin label is drawn by OpenCV as before.

Where no CJK typeface is installed, :func:`drawable` says so, and the caller draws its English
words instead (:func:`words_for`): a picture never shows empty boxes in place of Japanese.

>>> import numpy as np
>>> page = np.full((60, 200, 3), 255, np.uint8)
>>> put_text(page, "id 0", (5, 40), 1.0, (0, 0, 0), 2)          # Latin: OpenCV's font
>>> bool((page < 128).any())
True
"""
from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
from typing import Optional

import cv2
import numpy as np

from dealer_assist.i18n import Text, render

__all__ = ["cjk_font_path", "drawable", "words_for", "put_text", "text_size"]

#: OpenCV's font for Latin labels (as the pictures were drawn before)
FONT = cv2.FONT_HERSHEY_SIMPLEX
#: a CJK typeface's pixel size for OpenCV's font scale 1 (its capitals stand about 22 px high)
CJK_PX_PER_SCALE = 30

#: where a CJK typeface lies on Debian/Ubuntu, macOS and Windows (tried after fontconfig)
_FONT_GLOBS = (
    "/usr/share/fonts/**/NotoSansCJK-Regular.ttc", "/usr/share/fonts/**/NotoSansCJK*.ttc",
    "/usr/share/fonts/**/NotoSansJP-*.otf", "/usr/share/fonts/**/SourceHanSans*.ttc",
    "/usr/share/fonts/**/ipag*.ttf", "/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc",
    "/System/Library/Fonts/Hiragino*.ttc", "/Library/Fonts/*Gothic*.ttc",
    "C:/Windows/Fonts/YuGothM.ttc", "C:/Windows/Fonts/meiryo.ttc", "C:/Windows/Fonts/msgothic.ttc",
)


@functools.lru_cache(maxsize=1)
def cjk_font_path() -> Optional[str]:
    """A file of a typeface with Japanese glyphs: ``DEALER_ASSIST_CJK_FONT`` when set, else what
    fontconfig names for Noto Sans CJK JP, else the first of the usual places; None when there
    is none (Debian: ``apt install fonts-noto-cjk``)."""
    env = os.environ.get("DEALER_ASSIST_CJK_FONT")
    if env:                             # a file that is no typeface with kana: none (English words)
        return env if os.path.isfile(env) and _has_kana(env) else None
    if shutil.which("fc-match"):
        try:
            out = subprocess.run(["fc-match", "-f", "%{file}", "Noto Sans CJK JP:lang=ja"], capture_output=True,
                                 text=True, timeout=5).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            out = ""
        if out and os.path.isfile(out) and _has_kana(out):
            return out
    for pattern in _FONT_GLOBS:
        for path in sorted(glob.glob(pattern, recursive=True)):
            if _has_kana(path):
                return path
    return None


def _has_kana(path: str) -> bool:
    """The typeface at ``path`` draws kana (fontconfig's best match may be a Latin face, which
    draws あ and い as the same empty box)."""
    try:
        from PIL import ImageFont

        font = ImageFont.truetype(path, 20)
        a, i = font.getmask("あ"), font.getmask("い")
        return a.getbbox() is not None and bytes(a) != bytes(i)
    except Exception:                   # not a typeface Pillow can read: not one to draw with
        return False


def drawable(text: str) -> bool:
    """``text`` can be drawn: Latin letters always (OpenCV's font), others with a CJK typeface."""
    return text.isascii() or cjk_font_path() is not None


def _by_opencv(text: str) -> bool:
    """``text`` is drawn with OpenCV's font: Latin letters, or anything where no CJK typeface is."""
    return text.isascii() or cjk_font_path() is None


def words_for(words: Text, lang: str) -> str:
    """``words`` in ``lang`` if they can be drawn here, else in English.

    >>> from dealer_assist.i18n import _
    >>> words_for(_("back"), "en")
    'back'
    """
    said = render(words, lang)
    return said if drawable(said) else render(words, "en")


@functools.lru_cache(maxsize=16)
def _font(px: int):
    from PIL import ImageFont

    return ImageFont.truetype(cjk_font_path(), max(6, px))


def _px(scale: float) -> int:
    return max(6, int(round(CJK_PX_PER_SCALE * scale)))


def text_size(text: str, scale: float, thickness: int = 1) -> tuple[int, int]:
    """``(width, height)`` in pixels of ``text`` as :func:`put_text` draws it."""
    if _by_opencv(text):
        (w, h), _base = cv2.getTextSize(text, FONT, scale, thickness)
        return w, h
    left, top, right, bottom = _font(_px(scale)).getbbox(text)
    return int(right - left), int(bottom - top)


def put_text(image: np.ndarray, text: str, org: tuple[int, int], scale: float, colour, thickness: int = 1) -> None:
    """Draw ``text`` into ``image`` (BGR or grey, in place) with its baseline's left end at
    ``org``, as ``cv2.putText`` with :data:`FONT` would; text that is not Latin with a CJK
    typeface (only the pixels under the words are touched)."""
    if _by_opencv(text):
        cv2.putText(image, text, tuple(int(v) for v in org), FONT, scale, colour, thickness, cv2.LINE_AA)
        return
    from PIL import Image, ImageDraw

    font = _font(_px(scale))
    stroke = max(0, thickness // 3)
    left, top, right, bottom = font.getbbox(text, anchor="ls", stroke_width=stroke)
    x, y = int(org[0]), int(org[1])
    h, w = image.shape[:2]
    x0, y0 = max(0, x + left - 2), max(0, y + top - 2)
    x1, y1 = min(w, x + right + 2), min(h, y + bottom + 2)
    if x1 <= x0 or y1 <= y0:
        return
    patch = image[y0:y1, x0:x1]
    grey = patch.ndim == 2
    pil = Image.fromarray(patch if grey else np.ascontiguousarray(patch[:, :, ::-1]))
    bgr = (colour,) * 3 if np.isscalar(colour) else tuple(colour)
    fill = int(bgr[0]) if grey else (int(bgr[2]), int(bgr[1]), int(bgr[0]))
    ImageDraw.Draw(pil).text((x - x0, y - y0), text, font=font, fill=fill, anchor="ls",
                             stroke_width=stroke, stroke_fill=fill)
    out = np.asarray(pil)
    image[y0:y1, x0:x1] = out if grey else out[:, :, ::-1]
