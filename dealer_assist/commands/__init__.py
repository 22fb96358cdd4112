"""Sub-commands of ``dealer-assist``: one module each, with ``register(subparsers)``."""
from __future__ import annotations

import argparse
import os

from dealer_assist.i18n import Text, _, _p, render

#: The environment variable that sets every command's language where its ``--lang`` is not given
#: (``ja`` or ``en``; Japanese when it is unset): one setting for a floor manager who reads
#: English, instead of ``--lang en`` on every command.
LANG_ENV = "DEALER_ASSIST_LANG"

#: The language of the help pages (``--help``): :func:`dealer_assist.cli.build_parser` sets it from
#: the command line's ``--lang`` before the commands register their arguments.
HELP_LANG = "ja"


def default_lang() -> str:
    """The language of a command not told ``--lang``: :data:`LANG_ENV`'s where it is ``ja`` or
    ``en`` (a locale's name such as ``en_US.UTF-8`` too), else Japanese
    (:func:`dealer_assist.cli.main` says when the variable holds anything else).

    >>> os.environ[LANG_ENV] = "en"; default_lang()
    'en'
    >>> os.environ[LANG_ENV] = "en_GB.UTF-8"; default_lang()
    'en'
    >>> os.environ[LANG_ENV] = "fr"; default_lang()
    'ja'
    >>> del os.environ[LANG_ENV]; default_lang()
    'ja'
    """
    return told_lang(os.environ.get(LANG_ENV, "")) or "ja"


def told_lang(value: str) -> str | None:
    """``ja`` or ``en`` from a language setting (``en``, ``ja_JP.UTF-8``); None: neither."""
    value = value.strip().lower().split(".")[0].split("_")[0].split("-")[0]
    return value if value in ("ja", "en") else None


def h(text: Text) -> str:
    """A help text (``help=``, ``description=``) in the help pages' language: ``h(_("..."))``.
    argparse formats it with ``%``: ``%(default)s`` stays as it is, a percent sign is ``%%``."""
    return render(text, HELP_LANG)


def add_json_io(parser: argparse.ArgumentParser, lang_default: object = None) -> None:
    """The JSON-in, JSON-out arguments the rule commands share: FILE (or stdin), --compact and
    --lang (``lang_default=argparse.SUPPRESS`` for a sub-command's, where the command's own --lang
    stands unless this one is given)."""
    parser.add_argument("file", nargs="?", default="-", help=h(_("JSON file; '-' or nothing reads stdin")))
    parser.add_argument("--compact", action="store_true", help=h(_("one line of JSON instead of indented")))
    add_lang(parser, _("language of the errors (default Japanese; the JSON holds both languages)"),
             default=lang_default)


def add_lang(parser: argparse.ArgumentParser, help: Text = None, default: object = None) -> None:
    """``--lang ja|en``: the language of what the command says, its errors and its help page too
    (Japanese unless told: :func:`default_lang` where ``default`` is None)."""
    told = h(help or _("language of the text, the errors and this help (default Japanese)"))
    # where a person looks for the language: the setting that gives every command its language
    given = told_lang(os.environ.get(LANG_ENV, ""))
    if given is None:
        told = h(_("{help}; {var}=en sets English for every command", help=told, var=LANG_ENV))
    else:           # the default above is not this shell's: say which language it gets, and why
        language = _p("language", "English") if given == "en" else _p("language", "Japanese")
        told = h(_("{help}; here {language}, as {var}={value} says", help=told, var=LANG_ENV,
                   value=os.environ[LANG_ENV], language=language))
    parser.add_argument("--lang", choices=("ja", "en"), default=default_lang() if default is None else default,
                        help=told)


def given_paths(args: argparse.Namespace, *names: str) -> dict[str, str]:
    """The options of ``names`` that ``args`` gives as a path (a string), by name: the files a
    command reads, which :func:`refuse_overwrite` keeps its outputs off."""
    return {n: getattr(args, n) for n in names if isinstance(getattr(args, n, None), str)}


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:                     # one of them is not there (yet): not the same file
        return False


def _is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def refuse_overwrite(output: "str | os.PathLike | None", option: str, **reads: "str | os.PathLike | None") -> None:
    """Refuse (:class:`UserError`, before anything is written) an ``output`` that is a file this
    command reads (``reads``: option name -> path, ``db="x.sqlite"``), or any SQLite database, a
    hand log above all: one mistyped option must not turn a night's hand log into a screenshot
    or a JSON file. ``-`` (stdout) and None are no file.

    >>> import tempfile
    >>> log = os.path.join(tempfile.mkdtemp(), "hands.sqlite")
    >>> with open(log, "wb") as fh:
    ...     _ = fh.write(b"SQLite format 3\\x00" + bytes(100))
    >>> refuse_overwrite(log + ".json", "--export", db=log)      # another file: fine
    >>> try:
    ...     refuse_overwrite(log, "--export", db=log)
    ... except Exception as exc:
    ...     print(type(exc).__name__, str(exc).split(" (")[0])
    UserError --export names the file that --db reads
    """
    from dealer_assist.errors import UserError

    if output is None or os.fspath(output) in ("", "-"):
        return
    out = os.fspath(output)
    for name, path in reads.items():
        if path is not None and os.fspath(path) not in ("", "-") and same_file(out, os.fspath(path)):
            raise UserError(_("{option} names the file that --{other} reads ({path}): writing it would destroy "
                              "it; give another file", option=option, other=name.replace("_", "-"), path=out))
    if _is_sqlite(out):
        raise UserError(_("{option} {path} is a database (a hand log?): it is not written over; give another file",
                          option=option, path=out))
