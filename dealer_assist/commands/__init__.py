"""Sub-commands of ``dealer-assist``: one module each, with ``register(subparsers)``."""
from __future__ import annotations

import argparse


def add_json_io(parser: argparse.ArgumentParser) -> None:
    """The JSON-in, JSON-out arguments the rule commands share: FILE (or stdin) and --compact."""
    parser.add_argument("file", nargs="?", default="-", help="JSON file; '-' or nothing reads stdin")
    parser.add_argument("--compact", action="store_true", help="one line of JSON instead of indented")
