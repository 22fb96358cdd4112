"""The table's zone names, read in one place: ``board1`` to ``board5`` (the board's slots, in the
order the cards are dealt), ``burn``, ``muck``, and ``seat1``, ``seat2``, ... (each seat's cards).

The calibration (:mod:`dealer_assist.live.calibration`) names the zones; the hand flow, the rules'
doubt check, the hand log's replay, the central log's privacy filter and the words on the desk all
ask which seat or which board slot a zone is. Anything else, a number in another script
(``seat٣``), a seat or slot 0, or not a string at all, is neither.

>>> seat_of_zone("seat3"), seat_of_zone("seat12"), board_slot("board1"), board_slot("board5")
(3, 12, 0, 4)
>>> [seat_of_zone(z) for z in ("board2", "seat", "seat0", "seat٣", "seat 3", None, 3)]
[None, None, None, None, None, None, None]
>>> [board_slot(z) for z in ("seat1", "board0", "board", "burn", None)]
[None, None, None, None, None]
"""
from __future__ import annotations

import re
from typing import Any, Optional

__all__ = ["board_slot", "seat_of_zone"]

_NUMBERED = re.compile(r"(seat|board)([1-9][0-9]*)")


def _numbered(zone: Any, kind: str) -> Optional[int]:
    m = _NUMBERED.fullmatch(zone) if isinstance(zone, str) else None
    return int(m.group(2)) if m is not None and m.group(1) == kind else None


def seat_of_zone(zone: Any) -> Optional[int]:
    """The seat a zone holds the cards of (``"seat3"`` -> 3), None for any other zone."""
    return _numbered(zone, "seat")


def board_slot(zone: Any) -> Optional[int]:
    """The index on the board (from 0) of a board slot's zone (``"board1"`` -> 0), None for any
    other zone."""
    n = _numbered(zone, "board")
    return None if n is None else n - 1
