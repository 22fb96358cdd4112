"""Errors of the rules engine: they say which field and which seat, and why."""
from __future__ import annotations

from typing import Optional

from dealer_assist.errors import UserError


#: The most chips any amount may be (a bet, a stack, an ante): far above any table's, far below
#: the 10**18 where other tools' 64-bit integers end.
MAX_CHIPS = 10**15
#: The highest seat number: far above any table's.
MAX_SEAT = 1000


class RuleError(UserError):
    """Input that no table could produce, or an action the rules forbid.

    ``field`` names the input field (``'board'``, ``'hole'``, ``'committed'``),
    ``seat`` the seat number where one is concerned; both are in the message.

    >>> str(RuleError("expected 2 cards, got 3", field="hole", seat=4))
    'seat 4: hole: expected 2 cards, got 3'
    """

    def __init__(self, message: str, *, field: Optional[str] = None, seat: Optional[int] = None):
        self.reason = message
        self.field = field
        self.seat = seat
        prefix = ""
        if seat is not None:
            prefix += f"seat {seat}: "
        if field is not None:
            prefix += f"{field}: "
        super().__init__(prefix + message)
