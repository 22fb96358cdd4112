"""Errors of the rules engine: they say which field and which seat, and why."""
from __future__ import annotations

from typing import Optional

from dealer_assist.errors import UserError
from dealer_assist.i18n import _


#: The most chips any amount may be (a bet, a stack, an ante): far above any table's, far below
#: the 10**18 where other tools' 64-bit integers end.
MAX_CHIPS = 10**15
#: The highest seat number: far above any table's.
MAX_SEAT = 1000


class RuleError(UserError):
    """Input that no table could produce, or an action the rules forbid.

    ``field`` names the input field (``'board'``, ``'hole'``, ``'committed'``),
    ``seat`` the seat number where one is concerned; both are in the message. The message is a
    message of the catalogues (:func:`dealer_assist.i18n._`), so the error says it in Japanese too
    (:meth:`says`); ``reason`` is that message without the seat and the field.

    >>> e = RuleError(_("expected {n} cards, got {got}", n=2, got=3), field="hole", seat=4)
    >>> str(e)
    'seat 4: hole: expected 2 cards, got 3'
    """

    def __init__(self, message: object, *, field: Optional[str] = None, seat: Optional[int] = None):
        self.reason = message
        self.field = field
        self.seat = seat
        if field is not None and seat is not None:
            said = _("seat {seat}: {field}: {why}", seat=seat, field=field, why=message)
        elif seat is not None:
            said = _("seat {seat}: {why}", seat=seat, why=message)
        elif field is not None:
            said = _("{field}: {why}", field=field, why=message)
        else:
            said = message
        super().__init__(said)
