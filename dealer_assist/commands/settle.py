"""``dealer-assist settle [FILE]``: rulings for showdowns given as JSON (see README)."""
from __future__ import annotations

import argparse
import json
import sys

from dealer_assist.commands import add_json_io, h
from dealer_assist.errors import UserError, says
from dealer_assist.i18n import _, json_reason, message_of, os_reason, unique_keys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "settle",
        help=h(_("rule on showdowns: JSON table(s) in, ruling(s) out")),
        description=h(_("Read one JSON table or an array of them from FILE (or stdin) and write the "
                        "ruling(s) as JSON: payouts, pots, hands, showdown order and the explanation "
                        "in English and Japanese.")),
    )
    add_json_io(p)
    p.set_defaults(func=run)


#: The largest input a rule command reads (a batch of thousands of tables is a few MB).
MAX_INPUT_BYTES = 32 * 1024 * 1024
#: The deepest nesting of arrays and objects in an input (a table is 4 deep).
MAX_DEPTH = 32
#: The most digits of a number in an input: chips are bounded far below (rules.errors.MAX_CHIPS).
MAX_DIGITS = 18


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise UserError(_("a number of {n} digits: numbers in the input have at most {top} digits",
                          n=len(text.lstrip("-")), top=MAX_DIGITS))
    return int(text)


def _check_depth(data) -> None:
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UserError(_("the input is nested more than {depth} deep", depth=MAX_DEPTH))
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)


def read_json(path: str):
    """The JSON in ``path`` (``-``: stdin), bounded in size, nesting and digits: a UserError if not."""
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)   # a text-only stdin (a test's) has none
            raw = (stream.read(MAX_INPUT_BYTES + 1) if stream is not None
                   else sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8"))
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise UserError(_("cannot read {path}: {why}", path=path, why=os_reason(exc))) from None
    where = path if path != "-" else _("stdin")
    if len(raw) > MAX_INPUT_BYTES:
        raise UserError(_("{where}: the input is larger than {mb} MB", where=where,
                          mb=MAX_INPUT_BYTES // (1024 * 1024)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(_("{where} is not UTF-8 text", where=where)) from None
    try:
        data = json.loads(text, parse_int=_bounded_int, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise UserError(_("{where}: not valid JSON: {why} at line {line} column {column}", where=where,
                          why=json_reason(exc.msg), line=exc.lineno, column=exc.colno)) from None
    except RecursionError:
        raise UserError(_("{where}: the input is nested more than {depth} deep", where=where,
                          depth=MAX_DEPTH)) from None
    except UserError as exc:
        raise UserError(_("{where}: {why}", where=where, why=message_of(exc))) from None
    _check_depth(data)
    return data


def run(args: argparse.Namespace) -> int:
    from dealer_assist.rules.settle import settle, settle_batch

    data = read_json(args.file)
    indent = None if args.compact else 1
    if isinstance(data, list):
        refused: list = []
        out, code = settle_batch(data, refused)
        for exc in refused:       # each refused table also said on stderr, in the command's language
            print(f"dealer-assist settle: {says(exc, args.lang)}", file=sys.stderr)
    else:
        out, code = settle(data), 0
    json.dump(out, sys.stdout, ensure_ascii=False, indent=indent)
    sys.stdout.write("\n")
    return code
