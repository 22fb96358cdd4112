"""Hostile input to the rule commands (issue 21): any JSON gets an answer or a clear one-line
error (exit 0 or 2), never a traceback; numbers, nesting and input size are bounded."""
from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dealer_assist.cards import CardError
from dealer_assist.errors import UserError
from dealer_assist.rules.betting import bet_from_json
from dealer_assist.rules.daifugo import check_json, payout_from_json
from dealer_assist.rules.settle import settle, settle_batch

ROOT = pathlib.Path(__file__).resolve().parent.parent


def doc_examples(name: str) -> list:
    text = (ROOT / "docs" / name).read_text("utf-8")
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]


EXAMPLES = {
    "settle": [json.loads((ROOT / "examples" / "showdown.json").read_text("utf-8"))]
    + doc_examples("showdown-games.md") + doc_examples("antes.md"),
    "bet": [o for o in doc_examples("betting.md") if "to_call" not in o],
    "daifugo check": [o for o in doc_examples("daifugo.md") if "state" in o],
    "daifugo payout": [o for o in doc_examples("daifugo.md") if "seats" in o and "state" not in o
                       and ("cards_left" in o or "hands" in o)],
}
CALLS = {
    "settle": lambda obj: settle_batch(obj) if isinstance(obj, list) else settle(obj),
    "bet": bet_from_json,
    "daifugo check": check_json,
    "daifugo payout": payout_from_json,
}

json_leaf = (st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
             | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12)
             | st.sampled_from(["As", "JK", "??", "10h", "holdem", "joker-holdem", "stud7", "fold",
                                "raise", "no-limit", "", "seat"]))
any_json = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8) | st.sampled_from(
                            ["game", "seats", "seat", "hole", "committed", "ante", "board", "button",
                             "stack", "actions", "state", "play", "hands"]), inner, max_size=5),
                        max_leaves=20)


def answers_or_refuses(command: str, obj) -> None:
    try:
        CALLS[command](obj)
    except (UserError, CardError) as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= 600


def mutate(obj, path_choice: int, value):
    """``obj`` with one of its nodes (the ``path_choice``-th, depth first) replaced by ``value``."""
    nodes = []

    def walk(node, parent, key):
        nodes.append((parent, key))
        if isinstance(node, dict):
            for k in list(node):
                walk(node[k], node, k)
        elif isinstance(node, list):
            for i in range(len(node)):
                walk(node[i], node, i)

    obj = json.loads(json.dumps(obj))
    walk(obj, None, None)
    parent, key = nodes[path_choice % len(nodes)]
    if parent is None:
        return value
    parent[key] = value
    return obj


@pytest.mark.parametrize("command", sorted(CALLS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=any_json)
def test_arbitrary_json_is_answered_or_refused_in_one_line(command, obj):
    answers_or_refuses(command, obj)


@pytest.mark.parametrize("command", sorted(CALLS))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_valid_input_with_any_one_field_spoiled_is_answered_or_refused(command, data):
    assert EXAMPLES[command], f"no documented example for {command}"
    base = data.draw(st.sampled_from(EXAMPLES[command]))
    spoiled = mutate(base, data.draw(st.integers(0, 400)), data.draw(any_json))
    answers_or_refuses(command, spoiled)


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dealer_assist", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("command", [["settle"], ["bet"], ["daifugo", "check"], ["daifugo", "payout"]])
def test_huge_numbers_deep_nesting_and_huge_strings_are_clear_errors(command):
    for text, why in (("[" * 100_000 + "]" * 100_000, "nested"),
                      ('{"game": "holdem", "button": ' + "9" * 5000 + "}", "digits"),
                      (json.dumps({"game": "x" * 10_000_000}), None)):
        done = run_cli(*command, "--lang", "en", stdin=text)
        assert done.returncode == 2, (command, done.stderr[-500:])
        assert "Traceback" not in done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and len(lines[0]) <= 600, lines[0][:200]
        if why:
            assert why in lines[0]


def test_a_game_that_is_not_a_string_spoils_its_table_not_the_batch():
    good = next(t for t in EXAMPLES["settle"] if isinstance(t, dict))
    out, code = settle_batch([{"game": ["holdem"]}, good, {"game": {"a": 1}}])
    assert code == 2
    assert out[0]["error"].startswith("game: ") and "payouts" in out[1] and "error" in out[2]


def test_chips_beyond_the_bound_are_refused_naming_the_field():
    table = json.loads(json.dumps(next(t for t in EXAMPLES["settle"] if isinstance(t, dict))))
    table["seats"][0]["committed"] = 10**18
    with pytest.raises(UserError, match=r"committed: .*at most"):
        settle(table)
