"""The ``dealer-assist`` command: one sub-command per module in ``dealer_assist.commands``.

Each command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` (``args -> int exit code``).  Every command takes ``--lang ja|en`` (Japanese unless
told): its words, its errors, which :func:`main` prints as one line in that language, and its help
page (``help=h(_("..."))``, :func:`dealer_assist.commands.h`).  Command modules import heavy
libraries (OpenCV, ONNX Runtime, Qt) inside their handlers, so that
``dealer-assist settle`` starts fast on a machine without them.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import unicodedata
from typing import Optional, Sequence

from dealer_assist import commands
from dealer_assist.cards import CardError
from dealer_assist.commands import h
from dealer_assist.errors import UserError, says
from dealer_assist.i18n import _, join

# Sub-command modules under dealer_assist/commands/, in the order of --help.
COMMANDS = [
    "settle",
    "synth",
    "bet",
    "daifugo",
    "drill",
    "detect",
    "enroll_deck",
    "run",
    "calibrate",
    "review",
    "desk",
    "floor",
]


def _typed(text: str) -> str:
    """Values argparse quotes as Python does (``'x'``, ``'a', 'b'``), in Japanese quotes: 「x」,
    「a」「b」 (these lines are said only in Japanese: in English argparse's own words stand).

    >>> _typed("'photos'"), _typed("'base', 'joker-rich'"), _typed("COMMAND")
    ('「photos」', '「base」「joker-rich」', 'COMMAND')
    """
    values = re.findall(r"'([^']*)'", text)
    return "".join(f"「{v}」" for v in values) if values else text


#: argparse's own complaints (Python 3.11-3.13), each with its words in the catalogues.
_ARGPARSE = [
    (re.compile(r"the following arguments are required: (?P<args>.+)"),
     lambda m: _("these arguments are needed: {args}", args=m["args"])),
    (re.compile(r"unrecognized arguments: (?P<args>.+)"),
     lambda m: _("arguments this command does not know: {args}", args=m["args"])),
    (re.compile(r"argument (?P<arg>\S+): invalid choice: (?P<got>.+?) \(choose from (?P<choices>.+)\)"),
     lambda m: _("{arg}: {got} is not one of the choices ({choices})", arg=m["arg"], got=_typed(m["got"]),
                 choices=_typed(m["choices"]))),
    (re.compile(r"argument (?P<arg>\S+): expected one argument"),
     lambda m: _("{arg} needs a value", arg=m["arg"])),
    (re.compile(r"argument (?P<arg>\S+): expected (?:at least )?one argument.*"),
     lambda m: _("{arg} needs a value", arg=m["arg"])),
    (re.compile(r"argument (?P<arg>\S+): invalid (?P<kind>int|float) value: (?P<got>.+)"),
     lambda m: (_("{arg}: {got} is not a whole number", arg=m["arg"], got=_typed(m["got"])) if m["kind"] == "int"
                else _("{arg}: {got} is not a number", arg=m["arg"], got=_typed(m["got"])))),
    (re.compile(r"argument (?P<arg>\S+): not allowed with argument (?P<other>\S+)"),
     lambda m: _("{arg} cannot be given with {other}", arg=m["arg"], other=m["other"])),
    (re.compile(r"one of the arguments (?P<args>.+) is required"),
     lambda m: _("one of {args} is needed", args=m["args"])),
]


def _lang_of(argv: Sequence[str]) -> str:
    """The ``--lang`` of a command line not parsed yet (an argument error comes before it); where
    it has none, :func:`dealer_assist.commands.default_lang`."""
    argv = list(argv)
    for i, a in enumerate(argv):
        if a == "--lang" and i + 1 < len(argv) and argv[i + 1] in ("ja", "en"):
            return argv[i + 1]
        if a in ("--lang=ja", "--lang=en"):
            return a.split("=", 1)[1]
    return commands.default_lang()


def command_first(argv: Sequence[str]) -> list[str]:
    """``argv`` with a ``--lang`` given before the command moved after it: ``dealer-assist --lang
    en run`` means ``dealer-assist run --lang en``, as a person who tells the language first
    expects (every command takes its own ``--lang``).

    >>> command_first(["--lang", "en", "detect", "x.jpg"])
    ['detect', '--lang', 'en', 'x.jpg']
    >>> command_first(["--lang=ja", "--help"]), command_first(["review", "--lang", "en"])
    (['--help', '--lang=ja'], ['review', '--lang', 'en'])
    """
    argv = list(argv)
    lang: list[str] = []
    while argv and argv[0].startswith("--lang"):
        if argv[0] == "--lang" and len(argv) >= 2:
            lang, argv = lang + argv[:2], argv[2:]
        elif argv[0].startswith("--lang="):
            lang, argv = lang + argv[:1], argv[1:]
        else:
            break
    if not lang:
        return argv
    return argv[:1] + lang + argv[1:] if argv and not argv[0].startswith("-") else argv + lang


def _cells(text: str) -> int:
    """How many terminal columns ``text`` takes: a CJK character two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns: a Japanese line may break between any
    two of its characters (it has no spaces), a run of Latin letters or figures stays whole.

    >>> wrap_cells("ボードのカードの幅は約110 pxです", 16)
    ['ボードのカードの', '幅は約110 pxです']
    >>> wrap_cells("one line of JSON", 9)
    ['one line', 'of JSON']
    >>> wrap_cells("既定で有効（ボード）。", 10)      # no line starts with 。 nor ends with （
    ['既定で有効', '（ボード）。']
    >>> wrap_cells("データセットを作ります", 20)     # not 作りま / す
    ['データセットを作', 'ります']
    """
    tokens = re.findall(r"[\x21-\x7e]+|\s+|.", " ".join(text.split()))
    lines, line = [], ""
    for tok in tokens:
        if tok.isspace():
            tok = " "
        if line and _cells(line + tok) > width and tok[0] not in _NO_LINE_START:
            carried = ""
            while line and line[-1] in _NO_LINE_END:        # an opening bracket goes with what it opens
                carried, line = line[-1] + carried, line[:-1]
            lines.append(line.rstrip())
            line = carried + ("" if tok == " " else tok)
        else:
            line += tok
    if line.strip():
        lines.append(line.rstrip())
    lines = [x for x in lines if x]
    # a last line of a character or two (作りま / す): it takes the word's start with it
    while (len(lines) >= 2 and len(lines[-1]) < 3 and len(lines[-2]) > 3
           and ord(lines[-2][-1]) > 0x7f and lines[-2][-1] not in _NO_LINE_START):
        lines[-2], lines[-1] = lines[-2][:-1], lines[-2][-1] + lines[-1]
    return lines


#: Japanese line breaking (禁則): what no line starts with, and what no line ends with
_NO_LINE_START = set("、。，．・：；？！）」』】〉》ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ:;,.)!?")
_NO_LINE_END = set("（「『【〈《")


class _Formatter(argparse.HelpFormatter):
    """argparse's help page in the help pages' language: its "usage:", and Japanese lines wrapped by
    the columns they take (argparse counts characters and breaks only at spaces)."""

    def add_usage(self, usage, actions, groups, prefix=None):
        if prefix is None and commands.HELP_LANG != "en":
            prefix = _("usage: ").render(commands.HELP_LANG)
        super().add_usage(usage, actions, groups, prefix)

    def _split_lines(self, text, width):
        if commands.HELP_LANG == "en":
            return super()._split_lines(text, width)
        return wrap_cells(text, width)

    def _fill_text(self, text, width, indent):
        if commands.HELP_LANG == "en":
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap_cells(text, width - len(indent)))


class _Parser(argparse.ArgumentParser):
    """argparse in the command's language: its help pages (``--help``, in the language of the
    command line's ``--lang``, Japanese unless told: :data:`dealer_assist.commands.HELP_LANG`) and
    its complaints about a command line: the usage, then ``dealer-assist run: error: ...``
    (argparse's own words with ``--lang en``), exit code 2."""

    argv: Sequence[str] = ()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        lang = commands.HELP_LANG
        if lang != "en":
            self._positionals.title = _("positional arguments").render(lang)
            self._optionals.title = _("options").render(lang)
            for action in self._actions:
                if isinstance(action, argparse._HelpAction):
                    action.help = _("show this help message and exit").render(lang)

    def error(self, message: str):
        lang = _lang_of(self.argv)
        said = next((say(m) for pattern, say in _ARGPARSE if (m := pattern.fullmatch(message))), None)
        refused = sys.exc_info()[1]         # argparse calls this while it handles the ArgumentError
        why = getattr(getattr(refused, "__context__", None), "msg", None)   # a value's own refusal
        if isinstance(refused, argparse.ArgumentError) and hasattr(why, "render"):
            said = join([f"{refused.argument_name}: ", why])
        text = said.render(lang) if said is not None and lang != "en" else message   # English: argparse's own
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {why}", prog=self.prog, why=text).render(lang) + "\n")


def build_parser(argv: Optional[Sequence[str]] = None) -> argparse.ArgumentParser:
    """The parser of every command; its help pages in the language of ``argv``'s ``--lang``."""
    _Parser.argv = command_first(sys.argv[1:] if argv is None else argv)
    commands.HELP_LANG = _lang_of(_Parser.argv)
    parser = _Parser(
        prog="dealer-assist",
        description=h(_("Live dealer assistant: card recognition, rulings and the desk display.")),
    )
    # told before a command, --lang is moved after it (command_first); here it serves a line with none
    commands.add_lang(parser, default=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"dealer_assist.commands.{name}").register(sub)
    return parser


#: What the program writes that an encoding must hold for nothing to be lost: Japanese, the suits,
#: the full-width brackets and dashes of its lines.
_OUR_TEXT = "シート3の手札（♠♥♦♣）—「JOKER」×"


def readable_streams(streams: Sequence = ()) -> None:
    r"""Where stdout or stderr cannot encode what the program writes (``PYTHONIOENCODING=ascii``, a
    terminal in Latin-1), each character it cannot write is written as its escape (``\u30b7``)
    instead of ending the command with UnicodeEncodeError halfway through its output.

    >>> import io
    >>> out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    >>> readable_streams([out]); print("シート 3", file=out); out.flush(); out.buffer.getvalue()
    b'\\u30b7\\u30fc\\u30c8 3\n'
    """
    for stream in streams or (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        try:
            _OUR_TEXT.encode(encoding or "utf-8", errors=getattr(stream, "errors", None) or "strict")
            continue
        except (LookupError, UnicodeError, TypeError):
            pass
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):     # not a text stream that can be told
            pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    readable_streams()
    argv = command_first(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    told = os.environ.get(commands.LANG_ENV, "").strip()
    if told and commands.told_lang(told) is None:
        print(_("{var}={value}: the language is ja or en; Japanese is used", var=commands.LANG_ENV,
                value=told).render("en" if told.lower().startswith("en") else "ja"), file=sys.stderr)
    args = parser.parse_args(argv)
    lang = getattr(args, "lang", None) or commands.default_lang()
    try:
        return int(args.func(args) or 0)
    except (UserError, CardError) as exc:
        print(f"dealer-assist {args.command}: {says(exc, lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"dealer-assist {args.command}: {_('interrupted').render(lang)}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
