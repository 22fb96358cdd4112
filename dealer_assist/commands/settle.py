"""``dealer-assist settle [FILE]``: rulings for showdowns given as JSON (see README)."""
from __future__ import annotations

import argparse
import json
import sys

from dealer_assist.commands import add_json_io
from dealer_assist.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "settle",
        help="rule on showdowns: JSON table(s) in, ruling(s) out",
        description="Read one JSON table or an array of them from FILE (or stdin) and write the "
                    "ruling(s) as JSON: payouts, pots, hands, showdown order and the explanation "
                    "in English and Japanese.",
    )
    add_json_io(p)
    p.set_defaults(func=run)


def read_json(path: str):
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path if path != '-' else 'stdin'}: not valid JSON: {exc.msg} "
                        f"at line {exc.lineno} column {exc.colno}") from None


def run(args: argparse.Namespace) -> int:
    from dealer_assist.rules.settle import settle, settle_batch

    data = read_json(args.file)
    indent = None if args.compact else 1
    if isinstance(data, list):
        out, code = settle_batch(data)
        for item in out:
            if "error" in item:
                print(f"dealer-assist settle: {item['error']}", file=sys.stderr)
    else:
        out, code = settle(data), 0
    json.dump(out, sys.stdout, ensure_ascii=False, indent=indent)
    sys.stdout.write("\n")
    return code
