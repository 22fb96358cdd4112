"""Every text a person reads, from one gettext catalogue per language.

The code says a message once, in English, with its placeholders by name::

    _("seat {seat} wins {amount}", seat=2, amount=450)

and gets a :class:`Msg`: the message id and its fields, not yet words.  :meth:`Msg.render`
looks the id up in the language's catalogue (``dealer_assist/locale/<lang>/LC_MESSAGES/
dealer_assist.mo``, read by the standard library's :mod:`gettext`) and fills the fields, each of
which may itself be a :class:`Msg` (a hand's name inside a pot line is translated too).  So no
Japanese line is ever assembled from English pieces: the Japanese catalogue holds whole sentences.

>>> m = _("fold: seat {seat} is the last seat in the hand; it cannot fold", seat=3)
>>> m.render("en")
'fold: seat 3 is the last seat in the hand; it cannot fold'
>>> m.render("ja")
'フォールド: シート3はハンドに残った最後のシートです。フォールドできません'
>>> both(_("the joker has left {zone}; the slot waits for the stub's top card", zone=zone("board4")))[1]
'JOKERはボード4から外れました。スタブの一番上のカードを置いてください'
>>> both(seat_list([2, 4]))
('seats 2 and 4', 'シート2・シート4')
>>> _n("{n} face-down card", "{n} face-down cards", 3, n=3).render("en")
'3 face-down cards'

The catalogues' sources (``.po``) sit beside the compiled ``.mo`` files; Babel extracts the
messages from the code and compiles the catalogues (``scripts/i18n.sh``).  The runtime needs
nothing but the standard library.  ``tests/test_i18n.py`` checks that the ``.mo`` files are what
the ``.po`` files compile to and that every message of the code is in both catalogues.
"""
from __future__ import annotations

import functools
import gettext
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

from dealer_assist.errors import UserError
from dealer_assist.zones import board_slot, seat_of_zone

__all__ = ["LANGS", "DOMAIN", "LOCALE_DIR", "Msg", "Text", "_", "_n", "_p", "N_", "text", "both",
           "render", "capitalized", "seat", "seat_list", "zone", "street", "join", "lines", "message_of",
           "Said", "typed", "json_reason", "os_reason"]

LANGS = ("en", "ja")
DOMAIN = "dealer_assist"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_FIELD = re.compile(r"\{(\w+)\}")


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` ("en" or "ja")."""
    if lang not in LANGS:
        raise ValueError(f"no catalogue for language {lang!r}; the languages are {', '.join(LANGS)}")
    return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang])


class _Renderable:
    """What every renderable has: its words in each language, English as ``str``, ``+`` to join."""

    __slots__ = ()

    def render(self, lang: str) -> str:  # pragma: no cover - each subclass renders
        raise NotImplementedError

    @property
    def en(self) -> str:
        return self.render("en")

    @property
    def ja(self) -> str:
        return self.render("ja")

    def __str__(self) -> str:
        return self.render("en")

    def __add__(self, other: "Text") -> "_Joined":
        return _Joined((self, other), "")


@dataclass(frozen=True, slots=True)
class Msg(_Renderable):
    """One message: its English id (``plural`` and ``n`` for a count), optional ``context``, and
    its fields by name.  A field's value is a number, a language-free string (a card code, a
    seat number, a path) or a renderable (a :class:`Msg`, :func:`join` of them)."""

    msgid: str
    fields: tuple[tuple[str, Any], ...] = ()
    plural: Optional[str] = None
    n: Optional[int] = None
    context: Optional[str] = None

    def render(self, lang: str) -> str:
        t = translations(lang)
        if self.plural is not None:
            n = int(self.n or 0)
            got = (t.npgettext(self.context, self.msgid, self.plural, n) if self.context
                   else t.ngettext(self.msgid, self.plural, n))
        else:
            got = t.pgettext(self.context, self.msgid) if self.context else t.gettext(self.msgid)
        if not self.fields:
            return got
        values = {k: render(v, lang) for k, v in self.fields}
        return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), got)



@dataclass(frozen=True, slots=True)
class _Joined(_Renderable):
    """Renderables side by side, separated by a language's ``sep`` (a :class:`Msg` or "")."""

    items: tuple[Any, ...]
    sep: Any = ""
    last: Any = None

    def render(self, lang: str) -> str:
        parts = [render(i, lang) for i in self.items]
        sep = render(self.sep, lang)
        if self.last is not None and len(parts) > 1:
            return sep.join(parts[:-1]) + render(self.last, lang) + parts[-1]
        return sep.join(parts)



#: Anything :func:`render` takes: a message, a join of messages, or language-free text.
Text = Union[Msg, _Joined, str, int]


def _(msgid: str, /, **fields: Any) -> Msg:
    """A message (gettext's keyword): ``_("Main pot")``, ``_("seat {seat}", seat=2)``."""
    return Msg(msgid, tuple(fields.items()))


def _n(singular: str, plural: str, count: int, /, **fields: Any) -> Msg:
    """A message with a count (ngettext): ``_n("{n} odd chip", "{n} odd chips", n, n=n)``."""
    return Msg(singular, tuple(fields.items()), plural, count)


def _p(context: str, msgid: str, /, **fields: Any) -> Msg:
    """A message whose id alone is ambiguous (pgettext): ``_p("seat list", ", ")``."""
    return Msg(msgid, tuple(fields.items()), context=context)


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalogue without making a message (a table of ids)."""
    return msgid


def render(value: Any, lang: str) -> str:
    """``value`` in ``lang``: a renderable rendered, ``None`` as "", anything else as ``str``."""
    if value is None:
        return ""
    r = getattr(value, "render", None)
    return r(lang) if r is not None else str(value)


def text(value: Any, lang: str) -> str:
    """Alias of :func:`render` for call sites that read better with it."""
    return render(value, lang)


def both(value: Any) -> tuple[str, str]:
    """``(English, Japanese)``: for the JSON edge, where each field comes in both languages."""
    return render(value, "en"), render(value, "ja")


def lines(values: Iterable[Any], lang: str) -> list[str]:
    """Each of ``values`` rendered in ``lang`` (an explanation's lines)."""
    return [render(v, lang) for v in values]


def join(items: Sequence[Any], sep: Any = "", last: Any = None) -> _Joined:
    """``items`` rendered side by side with ``sep`` (and ``last`` before the last one)."""
    return _Joined(tuple(items), sep, last)


@dataclass(frozen=True, slots=True)
class _Capitalized:
    """A renderable with its first letter in capitals (a sentence's start; Japanese has no case)."""

    inner: Any

    def render(self, lang: str) -> str:
        text = render(self.inner, lang)
        return text[:1].upper() + text[1:]


def capitalized(value: Any) -> _Capitalized:
    """``value`` rendered with a capital first letter: ``seats 1 and 2`` -> ``Seats 1 and 2``."""
    return _Capitalized(value)


# ----------------------------------------------------------------------------- common words

def seat(number: Any) -> Msg:
    """``seat 2`` / ``シート2``."""
    return _("seat {seat}", seat=number)


def seat_list(seats: Sequence[Any]) -> Text:
    """``seat 2`` / ``seats 2, 3 and 4``; ``シート2・シート3・シート4``."""
    seats = list(seats)
    if len(seats) == 1:
        return seat(seats[0])
    items = [_p("seat list", "{seat}", seat=s) for s in seats]
    return _p("seat list", "seats {seats}", seats=join(items, _p("seat list", ", "), _p("seat list", " and ")))


_ZONE_WORDS = {"burn": _("burn"), "muck": _("muck"),
               # Daifugo's: where each play is laid (dealer_assist.live.daifugo.PLAY_ZONE)
               "play": _p("zone", "play")}


def zone(name: Optional[str]) -> Text:
    """A table zone in words: ``board4`` -> ``board 4`` / ``ボード4``; ``seat2`` -> ``seat 2`` /
    ``シート2``; ``burn`` -> ``バーン``; ``muck`` -> ``マック``; ``play`` -> ``場``; anything else as it
    is.

    >>> zone("play").render("ja"), zone("play").render("en"), zone("rail")
    ('場', 'play', 'rail')
    """
    if not name:
        return "-"
    if (slot := board_slot(name)) is not None:
        return _("board {n}", n=slot + 1)
    if (n := seat_of_zone(name)) is not None:
        return seat(n)
    return _ZONE_WORDS.get(name, name)


_STREETS = {"preflop": _p("street", "preflop"), "flop": _p("street", "flop"),
            "turn": _p("street", "turn"), "river": _p("street", "river"),
            # seven-card stud (seed 003): the two deals
            "dealing": _p("street", "dealing"), "deal1": _p("street", "deal 1"),
            "deal2": _p("street", "deal 2")}


def street(name: str) -> Text:
    """A street in words: ``turn`` -> ``turn`` / ``ターン``."""
    return _STREETS.get(name, name)


@dataclass(frozen=True)
class Said:
    """Words already said: in English as they were said (a library's message, a ruling's reason), in
    another language what they mean (a message of the catalogues, or that language's own text).

    >>> both(Said("Expecting value", _("Expecting value")))
    ('Expecting value', '値がありません')
    >>> Said("it is seat 1's turn", "シート1の番です").render("ja")
    'シート1の番です'
    """

    words: str
    meaning: Any

    def render(self, lang: str) -> str:
        return self.words if lang == "en" else render(self.meaning, lang)

    def __str__(self) -> str:
        return self.words


def typed(value: Any, *, limit: Optional[int] = None) -> Said:
    """What a person typed (or a file gave), echoed in a message: in English as Python writes it
    (``'Zz'``), in Japanese as typed, for the catalogue's own quotes (「Zz」); a character that
    does not print (a terminal's escape sequence in hostile JSON) shown escaped in both.  A value
    that is no text reads the same in both (``7``, ``['As', 7]``).  ``limit`` cuts each to that
    many characters (a long value in a one-line error).

    >>> both(_("{token} is not a card: it is too short. {help}", token=typed("Z"), help=""))
    ("'Z' is not a card: it is too short. ", '「Z」はカードではありません（短すぎます）。')
    >>> typed("\x1b[2J").render("ja")
    '\\\\x1b[2J'
    >>> both(typed(7)), both(typed(["As", 7])), both(typed(None))
    (('7', '7'), ("['As', 7]", "['As', 7]"), ('None', 'None'))
    >>> both(typed("go-fish" * 3, limit=8))
    ("'go-fish", 'go-fishg')
    """
    shown = str(value)
    said = Said(repr(value), shown if shown.isprintable() else repr(shown)[1:-1])
    return said if limit is None else Said(said.words[:limit], said.meaning[:limit])


#: What Python's JSON reader says is wrong (``JSONDecodeError.msg``), each in the catalogues; the
#: English is the reader's own words.
_JSON_REASONS = {N_("Expecting value"), N_("Expecting property name enclosed in double quotes"),
                 N_("Expecting ':' delimiter"), N_("Expecting ',' delimiter"), N_("Extra data"),
                 N_("Unterminated string starting at"), N_("Invalid control character at"),
                 N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"),
                 N_("Illegal trailing comma before end of object"),
                 N_("Illegal trailing comma before end of array")}


def unique_keys(pairs: list) -> dict:
    """A JSON object's keys, each given once (``json.loads``'s ``object_pairs_hook``): with a key
    given twice, JSON keeps the last in silence, and ``"committed": 100, "committed": 5`` would
    be paid on 5.

    >>> import json; json.loads('{"a": 1, "b": 2}', object_pairs_hook=unique_keys)
    {'a': 1, 'b': 2}
    >>> json.loads('{"a": 1, "a": 2}', object_pairs_hook=unique_keys)
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: the key "a" is given twice in one object
    """
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise UserError(_("the key \"{key}\" is given twice in one object", key=key))
        out[key] = value
    return out


def json_reason(msg: str) -> Text:
    """What Python's JSON reader says is wrong (``JSONDecodeError.msg``), in words of the catalogues
    where they have it (its own English otherwise).

    >>> both(json_reason("Expecting value")), json_reason("Something new")
    (('Expecting value', '値がありません'), 'Something new')
    """
    return _(msg) if msg in _JSON_REASONS else msg


def os_reason(exc: BaseException) -> Text:
    """Why the system refused a file or a device (an :class:`OSError`), in both languages where it
    is one a user meets; in English the system's own words (``strerror``), as before.

    >>> both(os_reason(FileNotFoundError(2, "No such file or directory")))
    ('No such file or directory', 'ファイルまたはフォルダがありません')
    >>> render(os_reason(OSError("odd")), "ja")
    'odd'
    """
    import errno

    words = {
        errno.ENOENT: _("No such file or directory"),
        errno.EACCES: _("Permission denied"),
        errno.EPERM: _("Operation not permitted"),
        errno.EISDIR: _("Is a directory"),
        errno.ENOTDIR: _("Not a directory"),
        errno.ENOSPC: _("No space left on device"),
        errno.EROFS: _("Read-only file system"),
        errno.EEXIST: _("File exists"),
        errno.EBUSY: _("Device or resource busy"),
        errno.EIO: _("Input/output error"),
        errno.ENAMETOOLONG: _("File name too long"),
    }
    code = getattr(exc, "errno", None)
    if code in words and getattr(exc, "strerror", None) == words[code].render("en"):
        return words[code]
    return getattr(exc, "strerror", None) or str(exc)


def message_of(exc: BaseException) -> Text:
    """What an error says, as a renderable: its :class:`Msg` where it was raised with one."""
    m = getattr(exc, "msg", None)
    return m if m is not None else str(exc)


# ----------------------------------------------------------------------------- extraction

#: The message functions and where their ids are: (context arg, singular arg, plural arg), 0-based.
KEYWORDS = {"_": (None, 0, None), "_n": (None, 0, 1), "_p": (0, 1, None), "N_": (None, 0, None)}


def extract_messages(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for this package (``babel.cfg``; registered as the
    ``babel.extractors`` entry point ``dealer_assist``): the :data:`KEYWORDS` calls whose ids are
    string literals, found by Python's own parser (Babel's token-based extractor loses calls
    nested in another call's arguments).  Yields ``(line, function, message, comments)``."""
    import ast

    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in KEYWORDS):
            continue
        ctx, single, plural = KEYWORDS[node.func.id]

        def lit(i):
            if i is None:
                return None
            a = node.args[i] if i < len(node.args) else None
            return a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else False

        got = [lit(single), lit(plural), lit(ctx)]
        if False in got:
            continue      # an id that is not a literal is not a catalogue entry
        msg, pl, context = got
        if context is not None:
            yield node.lineno, "pgettext", (context, msg), []
        elif pl is not None:
            yield node.lineno, "ngettext", (msg, pl), []
        else:
            yield node.lineno, "gettext", msg, []


def messages_in(paths: Iterable[Path]) -> set[tuple[Optional[str], str, Optional[str]]]:
    """Every ``(context, msgid, plural)`` the code at ``paths`` uses (for the catalogue test)."""
    out = set()
    for path in paths:
        with open(path, "rb") as fh:
            for _line, func, msg, _c in extract_messages(fh, None, None, None):
                if func == "pgettext":
                    out.add((msg[0], msg[1], None))
                elif func == "ngettext":
                    out.add((None, msg[0], msg[1]))
                else:
                    out.add((None, msg, None))
    return out
