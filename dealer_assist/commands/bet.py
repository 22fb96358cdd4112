"""``dealer-assist bet [FILE]``: the legal actions of a betting round (see docs/betting.md)."""
from __future__ import annotations

import argparse
import json
import sys

from dealer_assist.commands import add_json_io, h
from dealer_assist.i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bet",
        help=h(_("legal actions and amounts for a betting round: JSON state in, JSON answer out")),
        description=h(_("Read a betting round as JSON from FILE (or stdin): the structure (fixed-limit, "
                        "spread-limit, pot-limit, no-limit), blinds or limits, stacks, and the actions so "
                        "far or the current state. Write the seat to act, its legal actions with minimum "
                        "and maximum amounts, and why, in English and Japanese. With \"first_dealer\" "
                        "(seat -> card dealt), name the first dealer instead. See docs/betting.md.")),
    )
    add_json_io(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_assist.commands.settle import read_json
    from dealer_assist.rules.betting import bet_from_json

    data = read_json(args.file)
    out = bet_from_json(data)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=None if args.compact else 1)
    sys.stdout.write("\n")
    return 0
