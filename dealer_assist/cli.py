"""The ``dealer-assist`` command: one sub-command per module in ``dealer_assist.commands``.

Each command module defines ``register(subparsers)``, which adds its parser and
sets ``func`` (``args -> int exit code``).  Command modules import heavy
libraries (OpenCV, ONNX Runtime, Qt) inside their handlers, so that
``dealer-assist settle`` starts fast on a machine without them.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from dealer_assist.cards import CardError
from dealer_assist.errors import UserError

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealer-assist",
        description="Live dealer assistant: card recognition, rulings and the desk display.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"dealer_assist.commands.{name}").register(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UserError, CardError) as exc:
        print(f"dealer-assist {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"dealer-assist {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
