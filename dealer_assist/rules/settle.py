"""``settle``: one table (a mapping) in, one ruling (a JSON-ready dict) out, for every game.

The command ``dealer-assist settle`` is a thin I/O shell around :func:`settle` and
:func:`settle_batch`; other tools may call these directly.

>>> out = settle({"game": "holdem", "board": ["Ks","Js","6s","4d","2c"], "button": 1,
...               "seats": [{"seat": 1, "hole": ["As","Ad"], "committed": 10},
...                         {"seat": 2, "hole": ["Kd","Kc"], "committed": 10}]})
>>> out["payouts"], out["hands"]["2"]["category"]
({'1': 0, '2': 20}, 'three_of_a_kind')
>>> out, code = settle_batch([{"game": "go-fish"}])
>>> code, out[0]["error"].split(";")[0]
(2, "game: unknown game 'go-fish'")
"""
from __future__ import annotations

from typing import Any, Mapping

from dealer_assist.cards import CardError
from dealer_assist.rules.errors import RuleError
from dealer_assist.rules.half_texas import HalfTexas
from dealer_assist.rules.hilo import HoldemHiLo
from dealer_assist.rules.holdem import JokerHoldem
from dealer_assist.rules.lowball import Lowball27, LowballA5
from dealer_assist.rules.stud import Stud7
from dealer_assist.rules.wild import WildHoldem

__all__ = ["GAMES", "settle", "settle_batch", "game_for"]

#: Game name (the input's ``"game"``) -> the object that rules on it.
GAMES: dict[str, Any] = {
    "holdem": WildHoldem(),          # plain hold'em unless the table names "wild" cards
    "joker-holdem": JokerHoldem(),
    "half-texas": HalfTexas(),
    "stud7": Stud7(),
    "holdem-hilo": HoldemHiLo(),
    "lowball-a5": LowballA5(),
    "lowball-27": Lowball27(),
}


def game_for(obj: Any):
    if not isinstance(obj, Mapping):
        raise RuleError(f"a table is a JSON object, not {type(obj).__name__}")
    name = obj.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise RuleError(f"unknown game {name!r}; known games: {', '.join(GAMES)}", field="game")
    return GAMES[name]


def settle(obj: Mapping[str, Any]) -> dict:
    """Rule on one table; raises :class:`RuleError` naming the field and seat."""
    ruling = game_for(obj).settle(obj)
    return ruling if isinstance(ruling, dict) else ruling.to_json()


def settle_batch(objs: list) -> tuple[list, int]:
    """Rule on each table; a bad one gives ``{"error": ...}`` in its place and exit code 2."""
    out: list = []
    code = 0
    for obj in objs:
        try:
            out.append(settle(obj))
        except (RuleError, CardError) as exc:
            out.append({"error": str(exc)})
            code = 2
    return out, code
