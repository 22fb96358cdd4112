"""The desk display's widgets (PySide6): card tiles, the camera view, the board, seat and ruling
panels, the alert banner and the card picker. They show a :class:`~dealer_assist.desk.view.DeskSnapshot`
and report clicks; none of them knows a rule of the game.
"""
from __future__ import annotations

import re

from typing import Any, Iterable, Mapping, Optional, Sequence

import numpy as np
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QImage, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (QDialog, QFrame, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QPushButton, QRadioButton, QScrollArea, QSizePolicy, QSpinBox, QVBoxLayout,
                               QWidget)

from dealer_assist.desk.texts import SUIT_SYMBOL, alert_title, card_label, t, zone_text
from dealer_assist.desk.view import AlertView, DeskSnapshot, PotView, SeatView, other_name

#: four-colour suits: a spade and a club, a heart and a diamond are told apart at arm's length
SUIT_COLOURS = {"s": "#151515", "h": "#d11a1a", "d": "#1565d8", "c": "#12843a"}
JOKER_COLOUR = "#7b1fa2"
SEVERITY_STYLE = {"stop": ("#c62828", "#ffffff"), "warn": ("#f9a825", "#111111"), "info": ("#1565c0", "#ffffff")}
PANEL_BG = "#1d2125"
TEXT = "#f2f2f2"
MUTED = "#9aa3ab"
WIN = "#2e9d4a"
CORRECTED = "#ff9100"    # the mark of a card the dealer corrected (until the hand ends)
DOUBTFUL = "#ff3dbb"     # the mark of a card the table is not sure of (the dealer confirms it)
DECIDING = "#ffd54a"

APP_STYLE = f"""
QMainWindow, QWidget#central {{ background: #121518; }}
QToolBar {{ background: #181c20; border: none; spacing: 6px; padding: 4px; }}
QToolButton {{ color: {TEXT}; background: #2a3038; border-radius: 6px; padding: 4px 10px; font-size: 13pt; }}
QToolButton:checked {{ background: #455a64; }}
QStatusBar {{ color: {MUTED}; background: #181c20; font-size: 11pt; }}
QSplitter::handle {{ background: #121518; }}
QPushButton {{ background: #2a3038; color: {TEXT}; border-radius: 6px; padding: 6px 12px; }}
QScrollBar:vertical {{ background: {PANEL_BG}; width: 10px; margin: 0; }}
QScrollBar::handle:vertical {{ background: #4a545e; border-radius: 4px; min-height: 24px; }}
QScrollBar::add-line:vertical, QScrollBar::sub-line:vertical {{ height: 0; }}
QScrollBar::add-page:vertical, QScrollBar::sub-page:vertical {{ background: none; }}
"""



def card_colour(code: Optional[str]) -> str:
    if code == "JK":
        return JOKER_COLOUR
    if code and len(code) == 2 and code[1] in SUIT_COLOURS:
        return SUIT_COLOURS[code[1]]
    return "#555555"


def restyle(widget: QWidget, sheet: str) -> None:
    """Give ``widget`` this style sheet unless it has it already. Qt re-polishes a widget on every
    ``setStyleSheet``, even to the sheet it has: the seat panels, redrawn every frame, spent
    about 4 ms of each frame's redraw there (``benchmarks/bench_desk.py``)."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


_QT_WORDS: dict[str, Any] = {}


def use_qt_language(lang: str) -> bool:
    """Qt's own words (a text box's right-click menu: 「元に戻す」「コピー(&C)」「貼り付け(&P)」...)
    in the desk's language: Qt's Japanese catalogue (``qtbase_ja.qm``, shipped with PySide6)
    installed while Japanese is shown, taken out for English. False where no catalogue loads
    (Qt's words stay English; the desk's own are unaffected). Asked again for the language in
    place (the desk command, then its window), it does nothing."""
    from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

    app = QCoreApplication.instance()
    if app is None:
        return False
    if _QT_WORDS.get("lang") == lang and _QT_WORDS.get("app") is app:
        return True
    _QT_WORDS.pop("lang", None)
    old = _QT_WORDS.pop("translator", None)
    if old is not None and _QT_WORDS.get("app") is app:
        app.removeTranslator(old)
    _QT_WORDS["app"] = app
    if lang == "ja":
        tr = QTranslator(app)
        if not tr.load("qtbase_ja", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            return False
        app.installTranslator(tr)
        _QT_WORDS["translator"] = tr
    _QT_WORDS["lang"] = lang
    return True


def font(size: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    return f


def label(text: str = "", size: float = 12, bold: bool = False, colour: Optional[str] = None,
          wrap: bool = False) -> QLabel:
    """A label in the display's type: ``size`` points, optionally bold, coloured and wrapping."""
    lab = QLabel(text)
    lab.setFont(font(size, bold))
    if colour:
        lab.setStyleSheet(f"color: {colour};")
    lab.setWordWrap(wrap)
    return lab


def vbox(parent: QWidget, margins: tuple[int, int, int, int] = (0, 0, 0, 0), spacing: int = 6) -> QVBoxLayout:
    """A vertical layout on ``parent`` with these margins and spacing."""
    lay = QVBoxLayout(parent)
    lay.setContentsMargins(*margins)
    lay.setSpacing(spacing)
    return lay


class FitLabel(QLabel):
    """One line that never wraps: its font shrinks (down to ``min_size`` points) until the text
    fits the width it is given; only past that is it cut with "…" (the whole text in the tooltip).
    :meth:`fits` says whether the whole line is on screen."""

    def __init__(self, size: float = 12, bold: bool = False, min_size: float = 10,
                 parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._size, self._bold, self._min = size, bold, min_size
        self._full = ""
        self.setWordWrap(False)
        self.setFont(font(size, bold))
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(24)

    def set_size(self, size: float, min_size: Optional[float] = None) -> None:
        self._size = size
        if min_size is not None:
            self._min = min_size
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt)
        self._full = str(text)
        self._fit()

    def full_text(self) -> str:
        return self._full

    def fits(self) -> bool:
        """The whole text is shown (not cut) in the label's width."""
        return QLabel.text(self) == self._full and (
            QFontMetrics(self.font()).horizontalAdvance(self._full) <= self.contentsRect().width())

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt)
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        f = fitting_font([self._full], width, self._size, self._min, self._bold) if width > 30 \
            else font(self._size, self._bold)
        if f != self.font():
            self.setFont(f)
        text = self._full
        if width > 30 and QFontMetrics(f).horizontalAdvance(text) > width:
            text = QFontMetrics(f).elidedText(text, Qt.TextElideMode.ElideRight, width)
        self.setToolTip(self._full if text != self._full else "")
        if QLabel.text(self) != text:
            QLabel.setText(self, text)


class FitLines(QLabel):
    """Lines (the text's own line breaks) that a narrow panel must not break inside a word: the
    font shrinks, down to ``min_size`` points, until the widest line fits the width it is given;
    only past that does a line wrap (``or_wrap``: at the first size, not the smallest). Qt breaks
    Japanese between any two characters (「ツインタ」 / 「ワー」, a question's last 「か？」 alone), so a
    hand's name beside two large cards needs the room of its own line. :meth:`text` is the whole
    text."""

    def __init__(self, size: float = 12, bold: bool = False, min_size: float = 9, or_wrap: bool = False,
                 parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._size, self._bold, self._min, self._or_wrap = size, bold, min_size, or_wrap
        self._fitted: Optional[tuple] = None      # (text, width, size) the font was fitted to
        self.setWordWrap(True)
        self.setFont(font(size, bold))

    def set_size(self, size: float) -> None:
        self._size = size
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt)
        QLabel.setText(self, str(text))
        self._fit()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt)
        super().resizeEvent(event)
        self._fit()

    def fits(self) -> bool:
        """Every line is on one line of the label's width (none wraps)."""
        metrics = QFontMetrics(self.font())
        widest = max(metrics.horizontalAdvance(x) for x in self.text().splitlines() or [""])
        return widest <= self.contentsRect().width()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        key = (self.text(), width, self._size)
        if key == self._fitted:           # the desk sets a seat's same text at every frame
            return
        self._fitted = key
        f = fitting_font(self.text().splitlines(), width, self._size, self._min, self._bold, or_wrap=self._or_wrap) \
            if width > 30 else font(self._size, self._bold)
        if f != self.font():
            self.setFont(f)


def fitting_font(lines: Sequence[str], width: float, size: float, min_size: float, bold: bool = False,
                 or_wrap: bool = False) -> QFont:
    """The display's type at ``size`` points, or smaller (by half points, down to ``min_size``)
    until the widest of ``lines`` fits ``width`` pixels. With ``or_wrap``, lines that do not fit
    even at ``min_size`` keep ``size`` (they wrap, in type as large as the rest)."""
    def widest(f: QFont) -> int:
        return max((QFontMetrics(f).horizontalAdvance(x) for x in lines), default=0)

    first = f = font(size, bold)
    while size > min_size and widest(f) > width:
        size = max(min_size, size - 0.5)
        f = font(size, bold)
    return first if or_wrap and widest(f) > width else f


class CardTile(QWidget):
    """One card drawn large: rank and suit in four colours, the joker, a back, an unreadable
    card or an empty slot. ``stand_in`` marks what the joker plays as; clicking emits ``clicked``."""

    clicked = Signal()

    def __init__(self, height: int = 96, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._h = height
        self.code: Optional[str] = None
        self.stand_in: Optional[str] = None
        self.highlight = False
        self.clickable = False
        self.corrected: Optional[str] = None     # the card as read, when a correction set this one
        self.doubtful = False                    # the table is not sure of it: the dealer confirms it
        self.other: Optional[str] = None         # ... and the reader's likeliest other name for it
        self.other_text = ""                     # ... shown on the tile ("or K♣?")
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(int(self._h * 0.72), self._h)

    minimumSizeHint = sizeHint

    def set_height(self, height: int) -> None:
        if height != self._h:
            self._h = height
            self.updateGeometry()
            self.update()

    def set_card(self, code: Optional[str], *, stand_in: Optional[str] = None, highlight: bool = False,
                 clickable: bool = False, corrected: Optional[str] = None, note: str = "",
                 doubtful: bool = False, other: Optional[str] = None, other_text: str = "") -> None:
        """Show ``code``; ``corrected`` (the card as read) marks a card a correction set, ``note``
        says so in the tooltip; ``doubtful`` marks a card the table is not sure of, and ``other``
        (the reader's likeliest other name for it) is shown on it as ``other_text``."""
        corrected = corrected if code is not None else None
        doubtful = doubtful and code is not None and not corrected
        other = other if doubtful else None
        changed = ((code, stand_in, highlight, clickable, corrected, doubtful, other, other_text)
                   != (self.code, self.stand_in, self.highlight, self.clickable, self.corrected, self.doubtful,
                       self.other, self.other_text))
        self.code, self.stand_in, self.highlight, self.clickable = code, stand_in, highlight, clickable
        self.corrected, self.doubtful, self.other, self.other_text = corrected, doubtful, other, other_text
        self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)
        tip = ""
        if code and code not in ("BACK",):
            tip = code + (f" = {stand_in}" if stand_in else "")
        if (corrected or doubtful) and note:
            tip += f"  ({note})"
        self.setToolTip(tip)
        if changed:
            self.update()

    def text(self) -> str:
        """What the tile shows, as text (for tests and screen readers)."""
        if self.code is None:
            return ""
        out = card_label(self.code) if self.code != "BACK" else "BACK"
        return out + (f"={card_label(self.stand_in)}" if self.stand_in else "")

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt)
        if self.clickable and event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mousePressEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(2, 2, self.width() - 4, self.height() - 4)
        radius = r.width() * 0.1
        code = self.code
        if code is None:
            p.setPen(QPen(QColor("#56606a"), 2, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r, radius, radius)
            return
        if code == "BACK":
            p.setPen(QPen(QColor("#e8e8e8"), 2))
            p.setBrush(QBrush(QColor("#23408e"), Qt.BrushStyle.SolidPattern))
            p.drawRoundedRect(r, radius, radius)
            p.setBrush(QBrush(QColor("#6f8fe0"), Qt.BrushStyle.DiagCrossPattern))
            inner = r.adjusted(r.width() * 0.12, r.width() * 0.12, -r.width() * 0.12, -r.width() * 0.12)
            p.drawRoundedRect(inner, radius * 0.6, radius * 0.6)
            return
        border = (QColor("#ffd54a") if self.highlight else QColor(CORRECTED) if self.corrected
                  else QColor(DOUBTFUL) if self.doubtful else QColor("#b0b0b0"))
        pen = QPen(border, 4 if self.highlight or self.corrected or self.doubtful else 1.5)
        if self.doubtful and not self.highlight:
            pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(QColor("#fff0fa") if self.doubtful else QColor("#fbfbf8"))
        p.drawRoundedRect(r, radius, radius)
        if self.doubtful:
            # the doubtful card's mark: a "?" badge on its top left corner, seen from across the table
            d = max(12.0, r.width() * 0.36)
            badge = QRectF(r.left() - 1, r.top() - 1, d, d)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(DOUBTFUL))
            p.drawEllipse(badge)
            p.setPen(QColor("#ffffff"))
            p.setFont(font(max(6.0, d * 0.5), True))
            p.drawText(badge, Qt.AlignmentFlag.AlignCenter, "?")
        if self.corrected:
            # the corrected card's mark: an orange corner, seen from across the table
            k = r.width() * 0.34
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(CORRECTED))
            p.drawPolygon(QPolygonF([QPointF(r.right() - k, r.top()), QPointF(r.right(), r.top()),
                                     QPointF(r.right(), r.top() + k)]))
        colour = QColor(card_colour(code))
        if code == "??":
            p.setPen(QColor("#777777"))
            p.setFont(font(r.height() * 0.32, True))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "?")
            return
        if code == "JK":
            p.setPen(colour)
            small = r.width() < 40
            p.setFont(font(max(6.0, r.width() * (0.3 if small else 0.19)), True))
            top = QRectF(r.left(), r.top() + r.height() * 0.08, r.width(), r.height() * 0.4)
            p.drawText(top, Qt.AlignmentFlag.AlignCenter, "JK" if small else "JOKER")
            p.setFont(font(r.height() * 0.22, True))
            p.drawText(QRectF(r.left(), r.top() + r.height() * 0.36, r.width(), r.height() * 0.4),
                       Qt.AlignmentFlag.AlignCenter, "★")
        else:
            rank = "10" if code[0] == "T" else code[0]
            p.setPen(colour)
            size = r.height() * (0.27 if rank == "10" else 0.32)
            p.setFont(font(size, True))
            p.drawText(QRectF(r.left(), r.top() + r.height() * 0.02, r.width(), r.height() * 0.5),
                       Qt.AlignmentFlag.AlignCenter, rank)
            p.setFont(font(r.height() * 0.3))
            p.drawText(QRectF(r.left(), r.top() + r.height() * 0.42, r.width(), r.height() * 0.45),
                       Qt.AlignmentFlag.AlignCenter, SUIT_SYMBOL.get(code[1], "?"))
        if self.other and not self.stand_in:
            # the reader's likeliest other name for a doubtful card, on a band across the bottom:
            # what the dealer should check it against
            band = QRectF(r.left(), r.bottom() - r.height() * 0.26, r.width(), r.height() * 0.26)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(DOUBTFUL))
            p.drawRoundedRect(band, radius * 0.5, radius * 0.5)
            p.setPen(QColor("#ffffff"))
            p.setFont(font(max(6.0, min(band.height() * 0.5, r.width() * 0.2)), True))
            p.drawText(band, Qt.AlignmentFlag.AlignCenter, self.other_text or card_label(self.other))
        if self.stand_in:
            # the joker's stand-in, in the stand-in's colour, on a band across the bottom
            band = QRectF(r.left(), r.bottom() - r.height() * 0.3, r.width(), r.height() * 0.3)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#ffe082"))
            p.drawRoundedRect(band, radius * 0.5, radius * 0.5)
            p.setPen(QColor(card_colour(self.stand_in)))
            p.setFont(font(max(6.0, band.height() * 0.42), True))
            p.drawText(band, Qt.AlignmentFlag.AlignCenter, "=" + card_label(self.stand_in))


def tile_marks(read: Optional[str], doubt: bool, other: Optional[str], lang: str) -> dict[str, Any]:
    """What :meth:`CardTile.set_card` shows of a card beside its name, as its keyword arguments:
    the tooltip (the card as read where a correction set it; for a doubtful card, confirm or
    correct it, and what the reader would read instead), the doubt and the reader's likeliest
    other name with its band text.

    >>> tile_marks(None, True, "Kc", "en")["note"], tile_marks(None, True, "Kc", "en")["other_text"]
    ('not sure, or is it K♣? Confirm or correct it', 'or K♣?')
    >>> tile_marks(None, True, None, "en")["note"], tile_marks(None, False, None, "en")["note"]
    ('not sure: confirm or correct it', '')
    """
    note = (t("corrected_tip", lang, card=card_label(read)) if read
            else (t("doubtful_or_tip", lang, card=card_label(other)) if other else t("doubtful_tip", lang)) if doubt
            else "")
    return {"corrected": read, "note": note, "doubtful": doubt, "other": other,
            "other_text": t("doubtful_or", lang, card=card_label(other)) if other else ""}


class VideoView(QWidget):
    """The camera frame with the table zones shaded and every tracked card outlined and named.

    Clicking a face-up card emits ``cardClicked({"zone", "card"})`` (for a correction).
    """

    cardClicked = Signal(object)

    ZONE_COLOURS = {"board": QColor(0, 200, 180, 46), "seat": QColor(90, 140, 255, 38),
                    "burn": QColor(200, 200, 200, 40), "muck": QColor(200, 200, 200, 30)}

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self._image: Optional[QImage] = None
        self._zones: dict[str, np.ndarray] = {}
        self._proposed: dict[str, np.ndarray] = {}
        self._part: tuple = ()
        self._tracks: tuple = ()
        self._alert_zones: set[str] = set()
        self._lang = "ja"
        # the table's zones drawn once for the view's size, alerts and language (they change
        # seldom; the frame under them changes every time)
        self._zone_layer: Optional[QImage] = None
        self._zone_key: Optional[tuple] = None
        self.setMinimumSize(320, 180)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(800, 450)

    def set_zones(self, zones: Mapping[str, np.ndarray]) -> None:
        self._zones = {k: np.asarray(v, np.float64) for k, v in zones.items()}
        self._zone_layer = None
        self.update()

    def set_proposed(self, zones: Mapping[str, np.ndarray]) -> None:
        """Where the zones would go if they followed a camera that moved (drawn dashed in amber
        over the frame; empty: none)."""
        self._proposed = {k: np.asarray(v, np.float64) for k, v in zones.items()}
        self._zone_layer = None
        self.update()

    def set_part(self, part: Sequence[float]) -> None:
        """The part of the frame the reader looks at alone, ``(x, y, width, height)`` image px
        (drawn as a dotted frame, with words saying that no card outside it is read; empty: the
        whole frame is read, nothing drawn)."""
        self._part = tuple(float(v) for v in part) if len(part) == 4 else ()
        self._zone_layer = None
        self.update()

    def set_frame(self, image: Optional[np.ndarray]) -> None:
        if image is None:
            return
        img = np.ascontiguousarray(image)
        h, w = img.shape[:2]
        self._image = QImage(img.data, w, h, int(img.strides[0]), QImage.Format.Format_BGR888).copy()
        self.update()

    def set_image(self, image: QImage) -> None:
        self._image = image
        self.update()

    def set_overlay(self, tracks: Iterable[Mapping[str, Any]], alert_zones: Iterable[str], lang: str) -> None:
        self._tracks = tuple(tracks)
        self._alert_zones = set(alert_zones)
        self._lang = lang
        self.update()

    def has_frame(self) -> bool:
        return self._image is not None

    # --- geometry: image pixels <-> widget pixels
    def _fit(self) -> tuple[float, float, float]:
        if self._image is None:
            return 1.0, 0.0, 0.0
        iw, ih = self._image.width(), self._image.height()
        s = min(self.width() / iw, self.height() / ih)
        return s, (self.width() - iw * s) / 2, (self.height() - ih * s) / 2

    def _poly(self, pts: Iterable[Sequence[float]]) -> QPolygonF:
        s, ox, oy = self._fit()
        return QPolygonF([QPointF(ox + float(x) * s, oy + float(y) * s) for x, y in pts])

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy = self._fit()
        return (x - ox) / s, (y - oy) / s

    def track_at(self, x: float, y: float) -> Optional[Mapping[str, Any]]:
        """The face-up tracked card under widget point (x, y), if any."""
        ix, iy = self.to_image(x, y)
        for tr in reversed(self._tracks):
            card = tr.get("card")
            if not tr.get("stable") or card in (None, "BACK") or len(tr.get("polygon") or ()) < 3:
                continue
            poly = QPolygonF([QPointF(float(px), float(py)) for px, py in tr["polygon"]])
            if poly.containsPoint(QPointF(ix, iy), Qt.FillRule.OddEvenFill):
                return tr
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt)
        if event.button() == Qt.MouseButton.LeftButton:
            pos = event.position()
            tr = self.track_at(pos.x(), pos.y())
            if tr is not None and tr.get("zone"):
                self.cardClicked.emit({"zone": tr["zone"], "card": tr["card"]})
        super().mousePressEvent(event)

    def _zones_drawn(self) -> QImage:
        """The zones and their names, as drawn over the frame (:meth:`_fit`): a transparent layer
        of the view's size, drawn again only when the view's size, the zones, the alerts or the
        language change. Drawing every zone's filled outline each frame took the screen's thread
        about 3 ms a frame (``benchmarks/bench_desk.py``)."""
        dpr = self.devicePixelRatioF()       # a high-density screen: the layer at its own pixels
        fit = self._fit()
        key = (self.width(), self.height(), dpr, fit, frozenset(self._alert_zones), self._lang, self._part)
        if self._zone_layer is not None and key == self._zone_key:
            return self._zone_layer
        layer = QImage(max(1, round(self.width() * dpr)), max(1, round(self.height() * dpr)),
                       QImage.Format.Format_ARGB32_Premultiplied)
        layer.setDevicePixelRatio(dpr)
        layer.fill(Qt.GlobalColor.transparent)
        p = QPainter(layer)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        for name, pts in self._zones.items():
            if not np.isfinite(pts).all():
                continue
            kind = "board" if name.startswith("board") else "seat" if name.startswith("seat") else name
            colour = self.ZONE_COLOURS.get(kind, QColor(255, 255, 255, 25))
            poly = self._poly(pts)
            alert = name in self._alert_zones
            p.setPen(QPen(QColor(230, 40, 40) if alert else colour.lighter(170), 3 if alert else 1))
            p.setBrush(QColor(230, 40, 40, 70) if alert else colour)
            p.drawPolygon(poly)
            b = poly.boundingRect()
            p.setPen(QColor(255, 255, 255, 170))
            p.setFont(font(max(7.0, 9.0 * min(1.0, fit[0] * 1.6))))
            p.drawText(QRectF(b.left() + 3, b.top() + 1, b.width(), 16), Qt.AlignmentFlag.AlignLeft,
                       zone_text(name, self._lang))
        dashed = QPen(QColor(255, 176, 32), 2, Qt.PenStyle.DashLine)
        p.setBrush(Qt.BrushStyle.NoBrush)
        if self._part:
            x, y, w, h = self._part
            frame = self._poly([(x, y), (x + w, y), (x + w, y + h), (x, y + h)]).boundingRect()
            p.setPen(QPen(QColor(255, 255, 255, 200), 1.5, Qt.PenStyle.DotLine))
            p.drawRect(frame)
            p.setPen(QColor(255, 255, 255, 200))
            p.setFont(font(max(7.0, 9.0 * min(1.0, fit[0] * 1.6))))
            p.drawText(QRectF(frame.left(), frame.top() - 16, max(frame.width(), 240.0), 15),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, t("read_part", self._lang))
        for pts in self._proposed.values():
            if np.isfinite(pts).all():
                p.setPen(dashed)
                p.drawPolygon(self._poly(pts))
        p.end()
        self._zone_layer, self._zone_key = layer, key
        return layer

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt)
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#0d0f11"))
        if self._image is None:
            p.setPen(QColor(MUTED))
            p.setFont(font(14))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "…")
            return
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        s, ox, oy = self._fit()
        p.drawImage(QRectF(ox, oy, self._image.width() * s, self._image.height() * s), self._image)
        p.drawImage(0, 0, self._zones_drawn())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        label_font = font(max(8.0, 11.0 * min(1.0, s * 1.6)), True)
        for tr in self._tracks:
            pts = tr.get("polygon") or ()
            if len(pts) < 3:
                continue
            card = tr.get("card")
            poly = self._poly(pts)
            if card == "BACK":
                pen = QPen(QColor(120, 170, 255), 1.5)
            elif card == "??":
                pen = QPen(QColor(255, 152, 0), 3)
            elif tr.get("sure") is False:
                pen = QPen(QColor(DOUBTFUL), 3)        # read, but not surely: the dealer confirms it
            else:
                pen = QPen(QColor(40, 230, 120), 3)
            if tr.get("zone") in self._alert_zones and card not in ("BACK",):
                pen = QPen(QColor(255, 50, 50), 4)
            if not tr.get("stable"):
                pen.setStyle(Qt.PenStyle.DashLine)
                pen.setWidthF(1.5)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPolygon(poly)
            if card in (None, "BACK") or not tr.get("stable"):
                continue
            text = track_label(tr)
            top = min(poly, key=lambda q: (q.y(), q.x()))
            p.setFont(label_font)
            fm = p.fontMetrics()
            box = QRectF(top.x() - 2, top.y() - fm.height() - 4, fm.horizontalAdvance(text) + 8, fm.height() + 2)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 200))
            p.drawRoundedRect(box, 3, 3)
            p.setPen(_label_colour(card))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def track_label(tr: dict) -> str:
    """A tracked card's name on the camera view: with "?" when the table is not sure of it, and
    with the reader's likeliest other name for it when there is one.

    >>> track_label({"card": "Ks", "sure": True}), track_label({"card": "Ks", "sure": False})
    ('K♠', 'K♠?')
    >>> track_label({"card": "Ks", "sure": False, "or": "Kc"}), track_label({"card": "??", "sure": False})
    ('K♠/K♣?', '?')
    >>> track_label({"card": "Ks", "sure": False, "or": "Zz"})
    'K♠?'
    """
    from dealer_assist.cards import card_or_none

    card = tr.get("card")
    other = card_or_none(tr.get("or")) if tr.get("sure") is False else None
    if other:
        return f"{card_label(card)}/{card_label(other)}?"
    return card_label(card) + ("?" if tr.get("sure") is False and card != "??" else "")


def _label_colour(card: str) -> QColor:
    """A card name's colour on the camera view's dark label box: its suit colour, lightened."""
    if card == "??":
        return QColor(255, 170, 40)
    if card == "JK":
        return QColor("#e1a6ff")
    if card.endswith("s"):
        return QColor("#ffffff")       # black spades would vanish on the dark box
    return QColor(card_colour(card)).lighter(190)


class Panel(QFrame):
    """A dark rounded panel with a title."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setObjectName("panel")
        self.setStyleSheet(f"QFrame#panel {{ background: {PANEL_BG}; border-radius: 8px; }}")


class BoardPanel(Panel):
    """The hand's headline (number, street, button), the five board slots and the burn cards."""

    cardClicked = Signal(object)

    def __init__(self, tile: int = 96, parent: Optional[QWidget] = None):
        super().__init__(parent)
        lay = vbox(self, (12, 6, 12, 8), spacing=4)
        # the headline and the button/burn line share a row: the height goes to the ruling
        head = QHBoxLayout()
        head.setSpacing(16)
        self.title = label(size=19, bold=True, colour=TEXT)
        self.sub = label(size=12, colour=MUTED, wrap=True)
        self.sub.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(self.title)
        head.addWidget(self.sub, 1)
        lay.addLayout(head)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.base_tile = tile
        self.tiles = [CardTile(tile) for _ in range(5)]
        for i, tl in enumerate(self.tiles, 1):
            tl.clicked.connect(lambda i=i: self._clicked(i))
            row.addWidget(tl)
        row.addStretch(1)
        lay.addLayout(row)
        self._snap: Optional[DeskSnapshot] = None

    def set_scale(self, k: float) -> None:
        for tl in self.tiles:
            tl.set_height(int(self.base_tile * k))
        self.title.setFont(font(19 * k, True))
        self.sub.setFont(font(12 * k))

    def _clicked(self, slot: int) -> None:
        code = self.tiles[slot - 1].code
        if code is not None:
            self.cardClicked.emit({"zone": f"board{slot}", "card": code})

    def show_snapshot(self, snap: DeskSnapshot) -> None:
        self._snap = snap
        lang = snap.lang
        self.title.setText(snap.title)
        bits = []
        if snap.button is not None and not snap.buttonless:
            bits.append(t("button", lang, n=snap.button))
        if snap.next_button is not None and not snap.buttonless:
            bits.append(t("next_button", lang, n=snap.next_button))
        if snap.burn:
            faces = [card_label(c) for c in snap.burn if c not in ("BACK", "??")]
            bits.append(t("burn_count", lang, n=len(snap.burn)) + (" " + " ".join(faces) if faces else ""))
        self.sub.setText("   ".join(bits))
        joker_zones = {a.zone for a in snap.alerts if a.code == "joker_on_board"}
        for i, tile in enumerate(self.tiles):
            code = snap.board[i] if i < len(snap.board) else None
            read = snap.corrected(f"board{i + 1}", code)
            doubt = snap.doubtful(f"board{i + 1}", code)
            other = snap.other(f"board{i + 1}", code)
            tile.set_card(code, highlight=f"board{i + 1}" in joker_zones,
                          clickable=snap.live and code is not None, **tile_marks(read, doubt, other, lang))
            tile.setVisible(i < len(snap.board))     # a game without a board (stud) shows none


class SeatPanel(Panel):
    """One seat: number and button, chips in, its cards, its hand, the best five (joker's
    stand-in marked) and what it takes."""

    cardClicked = Signal(object)

    def __init__(self, seat: int, tile: int = 58, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.seat = seat
        lay = vbox(self, (8, 5, 8, 5), spacing=2)
        head = QHBoxLayout()
        self.name = label(size=15, bold=True)
        self.badge = label(size=10, bold=True)
        self.badge.setStyleSheet("color: #111; background: #ffd54a; border-radius: 8px; padding: 0px 5px;")
        head.addWidget(self.name)
        head.addWidget(self.badge)
        head.addStretch(1)
        self.payout = label(size=16, bold=True, wrap=True)
        self.payout.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(self.payout)
        lay.addLayout(head)
        self.status = label(size=11, wrap=True)
        lay.addWidget(self.status)
        row = QHBoxLayout()
        row.setSpacing(4)
        self.tiles = [CardTile(tile) for _ in range(2)]
        for i, tl in enumerate(self.tiles):
            tl.clicked.connect(lambda i=i: self._clicked(i))
            row.addWidget(tl)
        row.addSpacing(4)
        self.hand = FitLines(12, bold=True, min_size=9)
        self.hand.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.hand.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row.addWidget(self.hand, 1)
        lay.addLayout(row)
        self.reason = FitLabel(11, bold=True, min_size=9)
        self.reason.setStyleSheet(f"color: {DECIDING};")
        lay.addWidget(self.reason)
        five = QHBoxLayout()
        five.setSpacing(2)
        self.five = [CardTile(max(30, int(tile * 0.55))) for _ in range(5)]
        for tl in self.five:
            five.addWidget(tl)
        five.addStretch(1)
        lay.addLayout(five)
        lay.addStretch(1)
        self.base_tile = tile
        self.view: Optional[SeatView] = None
        self._live = False

    def set_scale(self, k: float) -> None:
        for tl in self.tiles:
            tl.set_height(int(self.base_tile * k))
        for tl in self.five:
            tl.set_height(max(30, int(self.base_tile * 0.55 * k)))
        self.name.setFont(font(15 * k, True))
        self.payout.setFont(font(16 * k, True))
        self.hand.set_size(12 * k)
        self.status.setFont(font(11 * k))
        self.reason.set_size(11 * k, 9)

    def _clicked(self, i: int) -> None:
        code = self.tiles[i].code
        if code is not None:
            self.cardClicked.emit({"zone": f"seat{self.seat}", "card": code})

    def show_seat(self, sv: SeatView, lang: str, live: bool, unsure: Sequence[tuple[str, str]] = (),
                  others: Sequence[tuple[str, str, str]] = ()) -> None:
        """Show the seat; ``unsure`` (``(zone, card)``) marks its cards the table is not sure of."""
        self.view, self._live = sv, live
        self.name.setText(t("seat", lang, n=sv.seat))
        self.badge.setText(t("btn", lang))
        self.badge.setVisible(sv.button)
        if not sv.dealt:
            status = t("not_dealt", lang)
        elif sv.folded:
            status = t("folded", lang)
        elif sv.committed is not None:
            status = t("committed", lang, n=sv.committed)
            if sv.ante:
                status = t("with_ante", lang, text=status, n=sv.ante)
        else:
            status = t("committed_none", lang)
        if sv.up:
            # stud: the up cards deal by deal, and who acts first on the last one
            status += "\n" + t("up_cards", lang, cards=" | ".join(
                " ".join(card_label(c) for c in deal) for deal in sv.up))
            if sv.acts and not sv.folded:
                status += "  ▶ " + t("acts", lang)
        if sv.draws:
            status += "\n" + t("draws", lang, n=" / ".join(str(n) for n in sv.draws))
        self.status.setText(status)
        faces = [c for c in sv.cards if c != "BACK"]
        shown = list(sv.cards[:2]) if len(sv.cards) <= 2 else (faces[:2] if len(faces) >= 2 else list(sv.cards[:2]))
        corrected = dict(sv.corrected)
        for i, tile in enumerate(self.tiles):
            code = shown[i] if i < len(shown) else None
            read = corrected.get(code) if code else None
            doubt = code is not None and (f"seat{sv.seat}", code) in unsure
            other = other_name(others, f"seat{sv.seat}", code) if doubt else None
            tile.set_card(code, clickable=live and code not in (None, "BACK"), **tile_marks(read, doubt, other, lang))
            tile.setVisible(code is not None or (sv.dealt and not sv.folded))
        self.reason.setText(sv.reason)
        name = hand_lines(sv.hand_name, lang)
        if sv.joker_as and name:
            name += "\n" + t("joker_as", lang, card=card_label(sv.joker_as))
        self.hand.setText(name)
        for i, tile in enumerate(self.five):
            code = sv.best_five[i] if i < len(sv.best_five) else None
            tile.set_card(code, stand_in=sv.joker_as if code == "JK" else None)
            tile.setVisible(bool(sv.best_five))
        if sv.payout is not None and sv.payout > 0:
            self.payout.setText(t("wins", lang, n=sv.payout))
        else:
            self.payout.setText("")
        colour = TEXT if sv.dealt and not sv.folded else MUTED
        restyle(self.name, f"color: {colour};")
        restyle(self.status, f"color: {MUTED if sv.folded or not sv.dealt else TEXT};")
        restyle(self.hand, f"color: {TEXT};")
        restyle(self.payout, f"color: {'#7dff9b' if sv.winner else TEXT};")
        border = f"3px solid {WIN}" if sv.winner else "1px solid #2f363d"
        bg = "#173522" if sv.winner else PANEL_BG
        restyle(self, f"QFrame#panel {{ background: {bg}; border-radius: 8px; border: {border}; }}")


def hand_lines(name: str, lang: str) -> str:
    """A hand's description as a seat panel shows it, a part a line: its name above its ranks,
    and Half Texas's colours of the five on a line of their own, out of their brackets.

    >>> hand_lines("straight, A-K-Q-J-T", "en"), hand_lines("ストレート A-K-Q-J-T", "ja")
    ('straight\\nA-K-Q-J-T', 'ストレート\\nA-K-Q-J-T')
    >>> hand_lines("ツインタワー 8-8-9-T-T（黒3枚・赤2枚）", "ja")
    'ツインタワー\\n8-8-9-T-T\\n黒3枚・赤2枚'
    >>> hand_lines("one pair 8-8-A-K-9 (2 black, 3 red)", "en")
    'one pair\\n8-8-A-K-9\\n2 black, 3 red'
    """
    ranks = re.search(r",? (?=[2-9TJQKA](?:-[2-9TJQKA])+)", name)
    if ranks:
        name = name[:ranks.start()] + "\n" + name[ranks.end():]
    else:
        name = name.replace(", ", "\n", 1) if lang != "ja" else name.replace(" ", "\n", 1)
    return re.sub(r"(?<=\S) ?[(（]([^()（）]*)[)）]$", lambda m: "\n" + m.group(1), name, flags=re.M)


#: the label beside the ruling's title: provisional (filled) or final beside doubtful cards (outlined)
_PROVISIONAL_STYLE = f"color: #ffffff; background: {DOUBTFUL}; border-radius: 4px; padding: 1px 6px;"
_MOOT_STYLE = f"color: {DOUBTFUL}; border: 1px solid {DOUBTFUL}; border-radius: 4px; padding: 1px 6px;"


class RulingPanel(Panel):
    """The ruling: each pot on one line (who may win it, who takes what), the deciding line (the
    house rule that settled it) and the engine's whole explanation."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        lay = vbox(self, (12, 8, 12, 8), spacing=4)
        head = QHBoxLayout()
        head.setSpacing(12)
        self.title = label(size=17, bold=True, colour=TEXT)
        head.addWidget(self.title)
        # a provisional ruling says so beside its title, in the doubtful cards' colour, on one line
        self.provisional = FitLabel(13, bold=True, min_size=10)
        self.provisional.setStyleSheet(_PROVISIONAL_STYLE)
        self.provisional.hide()
        head.addWidget(self.provisional, 1)
        lay.addLayout(head)
        self.warning = label(size=12, bold=True, wrap=True)
        self.warning.setStyleSheet("color: #111; background: #f9a825; border-radius: 4px; padding: 3px;")
        lay.addWidget(self.warning)
        self.pots_box = QVBoxLayout()
        self.pots_box.setSpacing(2)
        lay.addLayout(self.pots_box)
        self.pot_labels: list[FitLabel] = []
        self.deciding = label(size=13, bold=True, colour=DECIDING, wrap=True)
        self.deciding.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        lay.addWidget(self.deciding)
        # a wrapped label gets the height of one line from its layout, whatever its width: its
        # lines are given their height for the width it has, at every resize (_fit_deciding)
        self.deciding.installEventFilter(self)
        self.why = label(size=12, colour=TEXT, wrap=True)
        self.why.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setStyleSheet(f"background: {PANEL_BG};")
        self.scroll.setWidget(self.why)
        self.scroll.setMinimumHeight(24)
        self.scroll.viewport().installEventFilter(self)
        lay.addWidget(self.scroll, 1)
        self.scale = 1.0
        self._fitted: Optional[tuple] = None

    def set_scale(self, k: float) -> None:
        self.scale = k
        self.title.setFont(font(17 * k, True))
        self.provisional.set_size(13 * k, 10)
        self.deciding.setFont(font(13 * k, True))
        self._fit_deciding()
        for lab in self.pot_labels:
            lab.set_size(16 * k, 10)
        self._fit_why()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt)
        if obj is self.scroll.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_why()
        elif obj is self.deciding and event.type() == QEvent.Type.Resize:
            self._fit_deciding()
        return super().eventFilter(obj, event)

    def _fit_deciding(self) -> None:
        """The deciding line whole at the width it has: its height for that width as its least
        height (the explanation below gives up what it takes)."""
        need = self.deciding.heightForWidth(self.deciding.width()) if self.deciding.text() else 0
        if need > 0 and need != self.deciding.minimumHeight():
            self.deciding.setMinimumHeight(need)

    def _fit_why(self) -> None:
        """The explanation's type: as large as the screen's scale asks (12 pt at 1280x800, up to
        14.4 pt) and as small as 11 pt where that lets the whole of it show without scrolling."""
        vp = self.scroll.viewport()
        key = (self.why.text(), vp.width(), vp.height(), self.scale)
        if key == self._fitted or vp.width() < 50:
            return
        self._fitted = key
        size = 12 * min(self.scale, 1.2)
        self.why.setFont(font(size))
        while size > 11 and self.why.heightForWidth(vp.width()) > vp.height():
            size = max(11.0, size - 0.4)
            self.why.setFont(font(size))

    def show_snapshot(self, snap: DeskSnapshot) -> None:
        lang = snap.lang
        provisional = snap.provisional and bool(snap.pots)
        self.title.setText(t("ruling_provisional" if provisional else "ruling", lang))
        restyle(self.title, f"color: {DOUBTFUL if provisional else TEXT};")
        moot = snap.moot and bool(snap.pots) and not provisional
        if provisional:
            self.provisional.setText(t("provisional_line" if snap.live else "provisional_over", lang))
        elif moot:
            self.provisional.setText(t("moot_line", lang))
        # final with doubtful cards: the same place, the doubtful cards' colour as an outline only
        restyle(self.provisional, _MOOT_STYLE if moot else _PROVISIONAL_STYLE)
        self.provisional.setVisible(provisional or moot)
        self.warning.setText(t("chips_estimate", lang))
        self.warning.setVisible(bool(snap.pots) and not snap.chips_entered)
        while len(self.pot_labels) < len(snap.pots):
            lab = FitLabel(16 * self.scale, bold=True, min_size=10)
            lab.setStyleSheet("color: #7dff9b;")
            self.pots_box.addWidget(lab)
            self.pot_labels.append(lab)
        for i, lab in enumerate(self.pot_labels):
            if i < len(snap.pots):
                lab.setText(snap.pots[i].text)
                lab.show()
            else:
                lab.hide()
        self.deciding.setText("\n".join(snap.deciding))
        self.deciding.setVisible(bool(snap.deciding))
        self._fit_deciding()
        if snap.pots:
            self.why.setText("\n".join(snap.explanation))
        else:
            self.why.setText(t("no_ruling", lang) if snap.hand is not None else "")
        self._fit_why()

    def pot_texts(self) -> list[str]:
        return [lab.full_text() for lab in self.pot_labels if not lab.isHidden()]

    def explanation_fits(self) -> bool:
        """The whole explanation is on screen: no scrolling needed to read its last line."""
        need = self.why.heightForWidth(self.scroll.viewport().width())
        return need <= self.scroll.viewport().height() and not self.scroll.verticalScrollBar().isVisible()


class AlertBanner(QFrame):
    """Alerts that need the dealer's hands, loudest first, in a band across the top that cannot be
    missed; "all clear" when there are none. Notices (refused inputs) wait for ``dismissed``."""

    dismissed = Signal()
    MAX_ROWS = 3

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setObjectName("banner")
        self.lay = QVBoxLayout(self)
        self.lay.setContentsMargins(10, 6, 10, 6)
        self.lay.setSpacing(4)
        self.rows: list[QFrame] = []
        self.alerts: tuple[AlertView, ...] = ()
        self._key: Optional[tuple] = None
        self.dismiss_button = QPushButton()
        self.dismiss_button.setFont(font(13, True))
        self.dismiss_button.clicked.connect(self.dismissed.emit)
        self.set_alerts((), "ja")

    def set_alerts(self, alerts: Sequence[AlertView], lang: str) -> None:
        key = (tuple((a.key, a.title, a.message) for a in alerts), lang)
        if key == self._key:
            return
        self._key = key
        self.alerts = tuple(alerts)
        for row in self.rows:
            row.setParent(None)
            row.deleteLater()
        self.rows = []
        self.lay.removeWidget(self.dismiss_button)
        if not alerts:
            row = QLabel(t("all_clear", lang))
            row.setFont(font(14, True))
            row.setStyleSheet("color: #b9f6ca; background: #1b3a26; border-radius: 6px; padding: 4px 10px;")
            self.lay.addWidget(row)
            self.rows.append(row)
            self.dismiss_button.hide()
            return
        for a in alerts[:self.MAX_ROWS]:
            bg, fg = SEVERITY_STYLE.get(a.severity, SEVERITY_STYLE["warn"])
            row = QFrame()
            row.setObjectName("alertrow")
            row.setStyleSheet(f"QFrame#alertrow {{ background: {bg}; border-radius: 6px; }}"
                              f" QLabel {{ color: {fg}; background: transparent; }}")
            rl = QHBoxLayout(row)
            rl.setContentsMargins(12, 6, 12, 6)
            title = QLabel(("⚠ " if a.severity == "stop" else "") + a.title)
            title.setFont(font(20 if a.severity == "stop" else 16, True))
            title.setObjectName("alerttitle")
            msg = QLabel(a.message)
            msg.setWordWrap(True)
            msg.setFont(font(15 if a.severity == "stop" else 13))
            msg.setObjectName("alertmessage")
            msg.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            rl.addWidget(title)
            rl.addSpacing(14)
            rl.addWidget(msg, 1)
            self.lay.addWidget(row)
            self.rows.append(row)
        if len(alerts) > self.MAX_ROWS:
            more = QLabel(f"+{len(alerts) - self.MAX_ROWS}: " + ", ".join(a.title for a in alerts[self.MAX_ROWS:]))
            more.setFont(font(12, True))
            more.setStyleSheet("color: #ffcdd2;")
            self.lay.addWidget(more)
            self.rows.append(more)
        if any(a.dismissable for a in alerts):
            self.dismiss_button.setText(t("dismiss", lang))
            self.lay.addWidget(self.dismiss_button, 0, Qt.AlignmentFlag.AlignRight)
            self.dismiss_button.show()
        else:
            self.dismiss_button.hide()

    def codes(self) -> list[str]:
        return [a.code for a in self.alerts]

    def text(self) -> str:
        """Everything the banner says (for tests and the screen reader)."""
        out = []
        for row in self.rows:
            if isinstance(row, QLabel):
                out.append(row.text())
            else:
                out += [lab.text() for lab in row.findChildren(QLabel)]
        return "\n".join(out)


class EventLog(QListWidget):
    """The hand's commentary, newest at the bottom."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setFont(font(11))
        self.setStyleSheet(f"QListWidget {{ background: {PANEL_BG}; color: {TEXT}; border: none; }}")
        self.setWordWrap(True)
        self._lines: tuple[str, ...] = ()

    def set_lines(self, lines: Sequence[str]) -> None:
        lines = tuple(lines)
        if lines == self._lines:
            return
        if lines[:len(self._lines)] == self._lines and self._lines:
            for text in lines[len(self._lines):]:
                self.addItem(text)
        else:
            self.clear()
            self.addItems(list(lines))
        self._lines = lines
        self.scrollToBottom()


_PICKER_RANKS = "AKQJT98765432"


class CardPicker(QDialog):
    """Pick the true identity of a misread card: a grid of the 52 cards and the joker, or a field to
    type one (``Kc``, ``10h``, ``JK``). Text that is not a card changes nothing: the dialog says why
    and stays open. Removing the card is its own button, asked again before it is done. Emits
    ``chosen(code or None)``."""

    chosen = Signal(object)
    confirmed = Signal()

    def __init__(self, zone: str, card: str, lang: str, parent: Optional[QWidget] = None,
                 doubtful: bool = False, other: Optional[str] = None):
        super().__init__(parent)
        self.zone, self.card, self.lang = zone, card, lang
        self.setWindowTitle(t("picker_title", lang, card=card_label(card), zone=zone_text(zone, lang)))
        self.setStyleSheet(f"QDialog {{ background: {PANEL_BG}; }} QLabel {{ color: {TEXT}; }}")
        lay = QVBoxLayout(self)
        head = QLabel(t("picker_title", lang, card=card_label(card), zone=zone_text(zone, lang)))
        head.setFont(font(18, True))
        lay.addWidget(head)
        # a card the table is not sure of: the dealer may say it is right, first of all
        self.confirm_button = self._button(t("picker_confirm", lang, card=card_label(card)), 15, True)
        self.confirm_button.setStyleSheet(f"QPushButton {{ background: {DOUBTFUL}; color: white; }}")
        self.confirm_button.clicked.connect(self.confirm)
        self.confirm_button.setVisible(doubtful)
        lay.addWidget(self.confirm_button)
        # ... or that it is the name the reader would read instead, in one click
        self.other_button = self._button(t("picker_other", lang, card=card_label(other)) if other else "", 15, True)
        self.other_button.setStyleSheet(f"QPushButton {{ background: #fbfbf8; color: "
                                        f"{SUIT_COLOURS.get(other[-1], TEXT) if other else TEXT}; }}")
        self.other_button.clicked.connect(lambda: self.choose(other))
        self.other_button.setVisible(bool(doubtful and other))
        lay.addWidget(self.other_button)
        hint = QLabel(t("picker_hint", lang))
        hint.setFont(font(12))
        lay.addWidget(hint)
        grid = QGridLayout()
        grid.setSpacing(4)
        self.buttons: dict[str, QPushButton] = {}
        for r, suit in enumerate("shdc"):
            for c, rank in enumerate(_PICKER_RANKS):
                code = rank + suit
                b = self._button(card_label(code), 15, True)
                b.setMinimumSize(54, 44)
                b.setStyleSheet(f"QPushButton {{ color: {SUIT_COLOURS[suit]}; background: #fbfbf8; "
                                f"border-radius: 5px; }} QPushButton:focus {{ border: 3px solid #ffd54a; }}")
                b.clicked.connect(lambda _=False, code=code: self.choose(code))
                grid.addWidget(b, r, c)
                self.buttons[code] = b
        jk = self._button("JOKER", 15, True)
        jk.setMinimumHeight(44)
        jk.setStyleSheet(f"QPushButton {{ color: {JOKER_COLOUR}; background: #fbfbf8; border-radius: 5px; }}")
        jk.clicked.connect(lambda: self.choose("JK"))
        grid.addWidget(jk, 4, 0, 1, 3)
        self.buttons["JK"] = jk
        lay.addLayout(grid)
        self.entry = QLineEdit()
        self.entry.setFont(font(16))
        self.entry.setPlaceholderText("Kc / 10h / JK")
        self.entry.setMaxLength(12)
        self.entry.returnPressed.connect(self._typed)
        self.entry.textEdited.connect(lambda _text: self.error.setText(""))
        lay.addWidget(self.entry)
        self.error = QLabel()
        self.error.setFont(font(13, True))
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #ff8a80;")
        lay.addWidget(self.error)
        # removing the card: its own button, and a second step that says what it does
        self.remove_ask = QFrame()
        self.remove_ask.setObjectName("removeask")
        self.remove_ask.setStyleSheet("QFrame#removeask { background: #4a1c1c; border-radius: 6px; }")
        ask = QHBoxLayout(self.remove_ask)
        self.remove_text = QLabel(t("picker_remove_ask", lang, card=card_label(card), zone=zone_text(zone, lang)))
        self.remove_text.setFont(font(13, True))
        self.remove_text.setWordWrap(True)
        self.remove_yes = self._button(t("picker_remove_yes", lang), 13, True)
        self.remove_yes.setStyleSheet("QPushButton { background: #c62828; color: white; }")
        self.remove_yes.clicked.connect(lambda: self.choose(None))
        self.remove_no = self._button(t("picker_remove_no", lang), 13)
        self.remove_no.clicked.connect(self.keep)
        ask.addWidget(self.remove_text, 1)
        ask.addWidget(self.remove_yes)
        ask.addWidget(self.remove_no)
        lay.addWidget(self.remove_ask)
        self.remove_ask.hide()
        low = QHBoxLayout()
        self.remove_button = self._button(t("picker_remove", lang), 13, True)
        self.remove_button.clicked.connect(self.ask_remove)
        cancel = self._button(t("picker_cancel", lang), 13)
        cancel.clicked.connect(self.reject)
        low.addWidget(self.remove_button)
        low.addStretch(1)
        low.addWidget(cancel)
        lay.addLayout(low)
        # Del asks to remove the card (in the field: once the field is empty, else it edits the text)
        self.entry.installEventFilter(self)
        self.entry.setFocus()

    @staticmethod
    def _button(text: str, size: float, bold: bool = False) -> QPushButton:
        """A button Enter never presses by itself (no default button: Enter belongs to the field)."""
        b = QPushButton(text)
        b.setFont(font(size, bold))
        b.setAutoDefault(False)
        b.setDefault(False)
        return b

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self.entry.hasFocus():
                self._typed()
            event.accept()          # never a default button, never the dialog's accept
            return
        if event.key() == Qt.Key.Key_Delete:
            self.ask_remove()
            event.accept()
            return
        super().keyPressEvent(event)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt)
        if (obj is self.entry and event.type() == QEvent.Type.KeyPress
                and event.key() == Qt.Key.Key_Delete and not self.entry.text()):
            self.ask_remove()
            return True
        return super().eventFilter(obj, event)

    def choose(self, code: Optional[str]) -> None:
        self.chosen.emit(code)
        self.accept()

    def confirm(self) -> None:
        """The dealer says the card is right as read."""
        self.confirmed.emit()
        self.accept()

    def ask_remove(self) -> None:
        """The first step of removing the card: say what it does and wait for "remove it"."""
        self.remove_ask.show()
        self.remove_no.setFocus()

    def keep(self) -> None:
        self.remove_ask.hide()
        self.entry.setFocus()

    def _typed(self) -> None:
        from dealer_assist.cards import CardError, parse_card

        text = self.entry.text().strip()
        if not text:
            self.error.setText(t("picker_empty", self.lang))
            return
        try:
            code = str(parse_card(text))
        except (CardError, ValueError, TypeError):
            code = None
        if code not in self.buttons:
            # not a card: nothing is sent, the text stays for the dealer to fix
            self.error.setText(t("picker_bad", self.lang, text=text))
            self.entry.selectAll()
            return
        self.choose(code)


class CorrectionConfirm(QDialog):
    """A correction that changes who is paid: the payouts now and after it, per seat, and the
    dealer's "apply" (a click; Enter does not apply it). Emits ``confirmed`` when applied."""

    confirmed = Signal()

    def __init__(self, action: Mapping[str, Any], before: Optional[Mapping[int, int]],
                 after: Optional[Mapping[int, int]], lang: str, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.action = dict(action)
        self.setWindowTitle(t("confirm_title", lang))
        self.setStyleSheet(f"QDialog {{ background: {PANEL_BG}; }} QLabel {{ color: {TEXT}; }}")
        lay = QVBoxLayout(self)
        head = QLabel("⚠ " + t("confirm_title", lang))
        head.setFont(font(20, True))
        head.setStyleSheet(f"color: {CORRECTED};")
        lay.addWidget(head)
        to = action.get("to")
        what = QLabel(t("confirm_what", lang, zone=zone_text(str(action.get("zone")), lang),
                        card=card_label(str(action.get("card"))),
                        to=card_label(to) if to else t("removed", lang)))
        what.setFont(font(17, True))
        lay.addWidget(what)
        sub = QLabel(t("confirm_head", lang))
        sub.setFont(font(12))
        sub.setStyleSheet(f"color: {MUTED};")
        lay.addWidget(sub)
        before, after = dict(before or {}), (dict(after) if after is not None else None)
        seats = sorted(set(before) | set(after or {}))
        self.lines: list[QLabel] = []
        for n in seats:
            was = before.get(n, 0)
            now = t("confirm_none", lang) if after is None else after.get(n, 0)
            lab = QLabel(t("confirm_seat", lang, n=n, before=was, after=now))
            moved = after is None or after.get(n, 0) != was
            lab.setFont(font(17 if moved else 14, moved))
            lab.setStyleSheet(f"color: {DECIDING if moved else MUTED};")
            lay.addWidget(lab)
            self.lines.append(lab)
        low = QHBoxLayout()
        self.apply_button = QPushButton(t("confirm_apply", lang))
        self.apply_button.setFont(font(14, True))
        self.apply_button.setAutoDefault(False)
        self.apply_button.setStyleSheet(f"QPushButton {{ background: {CORRECTED}; color: #111; }}")
        self.apply_button.clicked.connect(self.apply)
        self.cancel_button = QPushButton(t("confirm_cancel", lang))
        self.cancel_button.setFont(font(14))
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self.reject)
        low.addWidget(self.apply_button)
        low.addStretch(1)
        low.addWidget(self.cancel_button)
        lay.addLayout(low)
        self.cancel_button.setFocus()

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()          # a payout change is applied by a click, never by a stray Enter
            return
        super().keyPressEvent(event)

    def apply(self) -> None:
        self.confirmed.emit()
        self.accept()

    def text(self) -> str:
        return "\n".join(lab.text() for lab in self.lines)


def antes_text(rule: Optional[Mapping[str, Any]], lang: str) -> str:
    """The level's antes in a few words ("" for none).

    >>> antes_text({"big_blind": 225, "blind": 100}, "ja"), antes_text({"each": 25}, "en")
    ('ビッグブラインドアンティ 225（ブラインド 100 を先に）', 'antes 25 each')
    """
    if not rule:
        return ""
    if "each" in rule:
        return t("antes_each", lang, n=rule["each"])
    if "blind" in rule:
        return t("antes_bb_blind", lang, n=rule["big_blind"], blind=rule["blind"])
    return t("antes_bb", lang, n=rule["big_blind"])


class AnteDialog(QDialog):
    """The level's antes, as the dealer sets them when the level changes: none, every seat, or a
    big-blind ante (with the big blind, posted first by a big blind short of both).
    Emits ``chosen`` with the dealer action (``{"type": "antes", ...}``)."""

    chosen = Signal(object)

    def __init__(self, current: Optional[Mapping[str, Any]], lang: str, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.lang = lang
        self.setWindowTitle(t("antes_title", lang))
        self.setStyleSheet(f"QDialog {{ background: {PANEL_BG}; }} QLabel, QRadioButton {{ color: {TEXT}; }}")
        lay = QVBoxLayout(self)
        head = QLabel(t("antes_title", lang))
        head.setFont(font(18, True))
        lay.addWidget(head)
        hint = QLabel(t("antes_hint", lang))
        hint.setFont(font(12))
        hint.setWordWrap(True)
        lay.addWidget(hint)
        self.none = QRadioButton(t("antes_none", lang))
        self.each = QRadioButton(t("antes_each_choice", lang))
        self.big_blind = QRadioButton(t("antes_bb_choice", lang))
        for b in (self.none, self.each, self.big_blind):
            b.setFont(font(14))
            lay.addWidget(b)
        form = QGridLayout()
        self.amount = QSpinBox()
        self.blind = QSpinBox()
        for i, (box, key) in enumerate(((self.amount, "antes_amount"), (self.blind, "antes_blind"))):
            box.setRange(0, 2_000_000_000)
            box.setFont(font(16))
            form.addWidget(QLabel(t(key, lang)), i, 0)
            form.addWidget(box, i, 1)
        lay.addLayout(form)
        current = current or {}
        if "each" in current:
            self.each.setChecked(True)
            self.amount.setValue(int(current["each"]))
        elif "big_blind" in current:
            self.big_blind.setChecked(True)
            self.amount.setValue(int(current["big_blind"]))
            self.blind.setValue(int(current.get("blind") or 0))
        else:
            self.none.setChecked(True)
        low = QHBoxLayout()
        self.set_button = QPushButton(t("antes_set", lang))
        self.set_button.setFont(font(13, True))
        self.set_button.clicked.connect(self.submit)
        cancel = QPushButton(t("picker_cancel", lang))
        cancel.setFont(font(13))
        cancel.clicked.connect(self.reject)
        low.addStretch(1)
        low.addWidget(self.set_button)
        low.addWidget(cancel)
        lay.addLayout(low)

    def action(self) -> dict:
        """The dealer action the dialog's choice makes."""
        amount = self.amount.value()
        if self.each.isChecked() and amount:
            return {"type": "antes", "each": amount}
        if self.big_blind.isChecked() and amount:
            out = {"type": "antes", "big_blind": amount}
            if self.blind.value():
                out["blind"] = self.blind.value()
            return out
        return {"type": "antes"}

    def submit(self) -> None:
        self.chosen.emit(self.action())
        self.accept()


__all__ = ["CardTile", "FitLabel", "VideoView", "BoardPanel", "SeatPanel", "RulingPanel", "AlertBanner",
           "EventLog", "CardPicker", "CorrectionConfirm", "AnteDialog", "PotView", "alert_title", "antes_text"]
