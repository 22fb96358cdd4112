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

from typing import Any, Mapping, Optional

from dealer_assist.cards import CardError
from dealer_assist.errors import says
from dealer_assist.games import GAMES as _REGISTRY
from dealer_assist.i18n import _, typed
from dealer_assist.rules.errors import RuleError

__all__ = ["GAMES", "settle", "settle_batch", "game_for"]

#: Game name (the input's ``"game"``) -> the object that rules on it: the games of the registry
#: (:mod:`dealer_assist.games`) that ``settle`` rules on.
GAMES: dict[str, Any] = {g.name: g.rules for g in _REGISTRY if g.settles}


def game_for(obj: Any):
    if not isinstance(obj, Mapping):
        raise RuleError(_("a table is a JSON object, not {type}", type=type(obj).__name__))
    name = obj.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise RuleError(_("unknown game {game}; known games: {games}", game=typed(name), games=", ".join(GAMES)),
                        field="game")
    return GAMES[name]


def settle(obj: Mapping[str, Any]) -> dict:
    """Rule on one table; raises :class:`RuleError` naming the field and seat."""
    ruling = game_for(obj).settle(obj)
    return ruling if isinstance(ruling, dict) else ruling.to_json()


def settle_batch(objs: list, refused: Optional[list] = None) -> tuple[list, int]:
    """Rule on each table; a bad one gives ``{"error": ..., "error_ja": ...}`` (what is wrong, in
    English and in Japanese) in its place and exit code 2, and its error goes to ``refused`` where
    one is given (to be said in the command's language).

    >>> out, code = settle_batch([[1]])
    >>> out[0]["error"], out[0]["error_ja"]
    ('a table is a JSON object, not list', 'テーブルはJSONオブジェクトで渡してください（「list」ではありません）')
    """
    out: list = []
    code = 0
    for obj in objs:
        try:
            out.append(settle(obj))
        except (RuleError, CardError) as exc:
            out.append({"error": says(exc, "en"), "error_ja": says(exc, "ja")})
            code = 2
            if refused is not None:
                refused.append(exc)
    return out, code
