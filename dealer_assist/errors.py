"""Errors a user can act on.  The CLI prints them as one line; never a traceback.

Must not import anything of the project: every layer raises these.
"""
from __future__ import annotations

#: An error line is cut to about this many characters: the input it quotes may be megabytes.
MAX_MESSAGE = 400


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line (line breaks shown as ``\\n``), its middle cut when it is too long.

    >>> one_line("a\\nb")
    'a\\\\nb'
    >>> s = one_line("seat 2: hole: " + "x" * 1000 + " is not a card", limit=60)
    >>> len(s) <= 60, s.startswith("seat 2: hole: xxx"), s.endswith("is not a card")
    (True, True, True)
    """
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    if len(text) <= limit:
        return text
    tail = min(80, limit // 3)
    cut = " [...] "
    return text[:limit - tail - len(cut)] + cut + text[-tail:]


class Worded:
    """What an error of the project says, in each language: raised with a message of the catalogues
    (:class:`dealer_assist.i18n.Msg`, anything with ``render(lang)``), ``str(exc)`` is its English
    and :meth:`says` its words in any language; raised with plain text, that text.
    """

    msg: object = None

    def _words(self, message: object) -> str:
        render = getattr(message, "render", None)
        self.msg = message if render is not None else None
        return one_line(render("en") if render is not None else str(message))

    def says(self, lang: str = "ja") -> str:
        """The error in ``lang`` ("ja" or "en"), on one line."""
        if self.msg is not None:
            return one_line(self.msg.render(lang))
        if lang == "ja" and self.__dict__.get("_message_ja"):
            return self.__dict__["_message_ja"]
        return str(self)


def says(exc: BaseException, lang: str = "ja") -> str:
    """What ``exc`` says in ``lang``: its catalogue message where it has one, else its text.

    >>> class Hello:
    ...     def render(self, lang): return "hello" if lang == "en" else "こんにちは"
    >>> says(UserError(Hello())), says(UserError(Hello()), "en"), says(ValueError("plain"))
    ('こんにちは', 'hello', 'plain')
    """
    if isinstance(exc, Worded):
        return exc.says(lang)
    msg = getattr(exc, "msg", None)
    if msg is not None and hasattr(msg, "render"):
        return one_line(msg.render(lang))
    return one_line(str(exc))


class UserError(Worded, Exception):
    """Bad input from a person or a file: printed as one line, exit code 2.

    ``message`` is text, or a message of the catalogues (:class:`dealer_assist.i18n.Msg`, anything
    with ``render(lang)``): then ``str(exc)`` is its English and :attr:`message_ja` its Japanese,
    so a Japanese screen never shows the English words of an error.

    >>> class Hello:
    ...     def render(self, lang): return "hello" if lang == "en" else "こんにちは"
    >>> e = UserError(Hello())
    >>> str(e), e.message_ja, UserError("plain").message_ja
    ('hello', 'こんにちは', None)
    """

    exit_code = 2

    def __init__(self, message: object = "", *args: object):
        super().__init__(self._words(message), *args)

    @property
    def message_ja(self):
        """The error in Japanese, where it was raised with a catalogue message (else ``None``)."""
        if self.msg is None:
            return self.__dict__.get("_message_ja")
        return one_line(self.msg.render("ja"))

    @message_ja.setter
    def message_ja(self, value) -> None:
        self.__dict__["_message_ja"] = value
