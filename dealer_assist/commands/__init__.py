"""Sub-commands of ``dealer-assist``: one module each, with ``register(subparsers)``."""
from __future__ import annotations

import argparse

from dealer_assist.i18n import Text, _, render

#: The language of the help pages (``--help``): :func:`dealer_assist.cli.build_parser` sets it from
#: the command line's ``--lang`` before the commands register their arguments.
HELP_LANG = "ja"


def h(text: Text) -> str:
    """A help text (``help=``, ``description=``) in the help pages' language: ``h(_("..."))``.
    argparse formats it with ``%``: ``%(default)s`` stays as it is, a percent sign is ``%%``."""
    return render(text, HELP_LANG)


def add_json_io(parser: argparse.ArgumentParser, lang_default: object = "ja") -> None:
    """The JSON-in, JSON-out arguments the rule commands share: FILE (or stdin), --compact and
    --lang (``lang_default=argparse.SUPPRESS`` for a sub-command's, where the command's own --lang
    stands unless this one is given)."""
    parser.add_argument("file", nargs="?", default="-", help=h(_("JSON file; '-' or nothing reads stdin")))
    parser.add_argument("--compact", action="store_true", help=h(_("one line of JSON instead of indented")))
    add_lang(parser, _("language of the errors (default Japanese; the JSON holds both languages)"),
             default=lang_default)


def add_lang(parser: argparse.ArgumentParser, help: Text = None, default: object = "ja") -> None:
    """``--lang ja|en``: the language of what the command says, its errors and its help page too
    (Japanese unless told)."""
    parser.add_argument("--lang", choices=("ja", "en"), default=default,
                        help=h(help or _("language of the text, the errors and this help (default Japanese)")))
