"""Errors a user can act on.  The CLI prints them as one line; never a traceback."""
from __future__ import annotations


class UserError(Exception):
    """Bad input from a person or a file: printed as one line, exit code 2."""

    exit_code = 2
