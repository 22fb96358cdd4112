"""``dealer-assist daifugo check|payout [FILE]``: daifugo rulings, JSON in and out (docs/daifugo.md).

``check`` reads a game state and a proposed play (or pass) and answers whether it is
legal, why (English and Japanese) and the state after it; an illegal play is a normal
answer (exit 0).  ``payout`` settles a finished game.  Malformed input: exit 2 and
one line on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys

from dealer_assist.commands import add_json_io, add_lang, h
from dealer_assist.commands.settle import read_json
from dealer_assist.i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "daifugo",
        help=h(_("daifugo (大富豪): check a play, settle a game")),
        description=h(_("Daifugo rulings as JSON (see docs/daifugo.md).")),
    )
    add_lang(p)        # also after "check" or "payout"
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    c = actions.add_parser(
        "check",
        help=h(_("is this play legal? why, and the state after it")),
        description=h(_("Read {\"state\": ..., \"play\": ...} (or \"plays\": [...]) from FILE or stdin "
                        "and write {\"legal\", \"reason\", \"reason_ja\", \"state\", ...}. "
                        "An illegal play is a normal answer (exit 0).")),
    )
    add_json_io(c, lang_default=argparse.SUPPRESS)
    c.set_defaults(func=run_check)
    q = actions.add_parser(
        "payout",
        help=h(_("the money at the end of a game, the next leader and the dead button")),
        description=h(_("Read {\"seats\", \"winner\", \"cards_left\" or \"hands\", \"leaving\", \"chips\"} "
                        "from FILE or stdin and write the antes, card payments, rake, payouts (signed "
                        "change per seat) and the next game's leader.")),
    )
    add_json_io(q, lang_default=argparse.SUPPRESS)
    q.set_defaults(func=run_payout)


def _write(out: dict, compact: bool) -> None:
    json.dump(out, sys.stdout, ensure_ascii=False, indent=None if compact else 1)
    sys.stdout.write("\n")


def run_check(args: argparse.Namespace) -> int:
    from dealer_assist.rules.daifugo import check_json

    _write(check_json(read_json(args.file)), args.compact)
    return 0


def run_payout(args: argparse.Namespace) -> int:
    from dealer_assist.rules.daifugo import payout_from_json

    _write(payout_from_json(read_json(args.file)).to_json(), args.compact)
    return 0
