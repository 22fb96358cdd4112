"""Trainer drills (issue 23): ``dealer-assist drill`` and ``drill check``.

Every expected answer here comes from the rules engine run on the drill's own table (``settle``,
``daifugo check``, the stub deal); nothing is written by hand.  A "changed" answer is the engine's
answer with one thing moved (a chip, a winner, a seat of the order), and the check must name it.
"""
from __future__ import annotations

import copy
import io
import json

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.cli import main
from dealer_assist.rules.daifugo import check_json as daifugo_check
from dealer_assist.rules.holdem import deal_board
from dealer_assist.rules.settle import settle
from dealer_assist.trainer.drills import LEVELS, TOPICS, check, drill_from_json, generate, make_drill

from test_japanese import english_words


def run(argv, capsys, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def five_hundred():
    """``drill --json --n 500 --seed 1``, as the contract says, read back line by line."""
    import contextlib

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["drill", "--json", "--n", "500", "--seed", "1"]) == 0
    lines = buf.getvalue().splitlines()
    return [json.loads(x) for x in lines]


def _check(drill: dict, answer) -> dict:
    return check(drill_from_json(drill), answer).to_json()


# ------------------------------------------------------------------------ the --json contract

def test_500_drills_cover_every_topic_at_every_level(five_hundred):
    assert len(five_hundred) == 500
    seen = {(d["topic"], d["level"]) for d in five_hundred}
    assert seen == {(t, lv) for t in TOPICS for lv in LEVELS}
    for d in five_hundred:
        assert set(d) == {"id", "topic", "level", "game", "table", "question", "question_ja", "answer"}
        assert d["question"] and d["question_ja"] and d["question"] != d["question_ja"]
    assert len({d["id"] for d in five_hundred}) == 500


def test_every_answer_is_the_engines_answer_on_the_drills_table(five_hundred):
    for d in five_hundred:
        t, a = d["table"], d["answer"]
        if TOPICS[d["topic"]].settles:
            assert a == settle(t), d["id"]
        elif d["topic"] == "stud":
            ruling = settle(t)
            assert a["payouts"] == ruling["payouts"] and a["showdown_order"] == ruling["showdown_order"]
        elif d["topic"] == "daifugo":
            assert a == daifugo_check(t)
        else:
            assert a == deal_board([parse_card(c) for c in t["stub"]]).to_json()
        if "payouts" in a and a["payouts"]:
            committed = sum(s["committed"] for s in t["seats"])
            assert sum(a["payouts"].values()) == committed


def test_the_same_seed_gives_the_same_drills_and_another_seed_others(capsys):
    first = run(["drill", "--json", "--n", "20", "--seed", "7"], capsys)[1]
    again = run(["drill", "--json", "--n", "20", "--seed", "7"], capsys)[1]
    other = run(["drill", "--json", "--n", "20", "--seed", "8"], capsys)[1]
    assert first == again and first != other


def test_topic_and_level_choose_the_drills(capsys):
    code, out, _ = run(["drill", "--json", "--topic", "stud", "--level", "3", "--n", "4", "--seed", "2"], capsys)
    drills = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(drills) == 4
    assert {(d["topic"], d["level"]) for d in drills} == {("stud", 3)}
    assert all(6 <= len(d["table"]["seats"]) <= 7 for d in drills)


def test_levels_grow_from_two_seats_and_one_pot_to_nine_seats_four_all_ins_and_a_joker():
    one = [make_drill("side-pots", 1, 3, i) for i in range(30)]
    three = [make_drill("side-pots", 3, 3, i) for i in range(60)]
    assert all(len(d.table["seats"]) == 2 and len(d.answer["pots"]) == 1 for d in one)
    assert all(7 <= len(d.table["seats"]) <= 9 for d in three)
    assert all(any(s["hole"] and "JK" in s["hole"] for s in d.table["seats"]) for d in three)
    assert max(len(d.table["seats"]) for d in three) == 9
    assert max(len(d.answer["pots"]) for d in three) >= 4
    for d in three:      # the shorter stacks are all in: as many pots beyond the main as short stacks
        live = [s["committed"] for s in d.table["seats"] if not s.get("folded")]
        assert len(set(live)) - 1 <= 4


def test_topics_are_listed(capsys):
    code, out, _ = run(["drill", "--topics"], capsys)
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == list(TOPICS)
    assert all(len(line.split("\t")) == 2 for line in out.splitlines())


# ------------------------------------------------------------------------ drill check

def test_check_marks_each_drills_own_answer_right(five_hundred, tmp_path, capsys):
    items = [{"drill": d, "answer": d["answer"]} for d in five_hundred[:120]]
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    code, out, err = run(["drill", "check", str(path), "--compact"], capsys)
    assert code == 0, err
    results = json.loads(out)
    assert len(results) == 120
    for d, r in zip(five_hundred, results):
        assert r["right"] is True and r["wrong"] == [], (d["id"], r["wrong"])
        assert r["expected"] == d["answer"]
        assert r["explanation"] and r["explanation_ja"]


def _payout_drills(drills):
    return [d for d in drills if "payouts" in TOPICS[d["topic"]].asks]


def test_a_chip_moved_is_wrong_and_both_seats_are_named(five_hundred):
    for d in _payout_drills(five_hundred):
        pay = dict(d["answer"]["payouts"])
        rich = max(pay, key=lambda s: pay[s])
        poor = next(s for s in pay if s != rich)
        pay[rich] -= 1
        pay[poor] += 1
        r = _check(d, {"payouts": pay, **{k: d["answer"][k] for k in TOPICS[d["topic"]].asks if k != "payouts"}})
        assert r["right"] is False
        assert {w["field"] for w in r["wrong"]} == {f"payouts.{rich}", f"payouts.{poor}"}
        moved = {w["field"]: (w["given"], w["expected"]) for w in r["wrong"]}
        assert moved[f"payouts.{rich}"] == (d["answer"]["payouts"][rich] - 1, d["answer"]["payouts"][rich])
        assert r["explanation"][0].startswith("Wrong")


def test_another_winner_is_wrong(five_hundred):
    for d in _payout_drills(five_hundred):
        pay = d["answer"]["payouts"]
        total = sum(pay.values())
        loser = next((s for s in pay if pay[s] == 0 and not any(
            x["seat"] == int(s) and x.get("folded") for x in d["table"]["seats"])), None)
        if loser is None:
            continue
        other = {s: (total if s == loser else 0) for s in pay}
        r = _check(d, {"payouts": other, "pots": [dict(p, winners=[int(loser)]) for p in d["answer"]["pots"]]})
        assert r["right"] is False
        fields = {w["field"] for w in r["wrong"]}
        assert f"payouts.{loser}" in fields
        assert any(f.startswith("pots[") and f.endswith(".winners") for f in fields)


def test_a_wrong_answer_is_explained_in_both_languages(capsys, tmp_path):
    d = make_drill("odd-chips", 2, 5, 0).to_json()
    pay = dict(d["answer"]["payouts"])
    lucky = next(s for p in d["answer"]["pots"] for s in map(str, p["odd_chips"]))
    other = next(s for p in d["answer"]["pots"] if p["odd_chips"] for s in map(str, p["winners"]) if s != lucky)
    pay[lucky] -= 1
    pay[other] += 1
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"drill": d, "answer": {"payouts": pay}}), encoding="utf-8")
    code, out, _ = run(["drill", "check", str(path)], capsys)
    r = json.loads(out)
    assert code == 0 and r["right"] is False
    assert {w["field"] for w in r["wrong"]} == {f"payouts.{lucky}", f"payouts.{other}"}
    assert all(w["text"] and w["text_ja"] for w in r["wrong"])
    assert r["explanation"][1:] == d["answer"]["explanation"]      # the engine's own lines
    for line in r["explanation_ja"] + [w["text_ja"] for w in r["wrong"]]:
        assert not english_words(line), line


def test_an_edited_answer_in_the_drill_is_not_believed():
    d = make_drill("showdown-holdem", 1, 9, 0).to_json()
    forged = copy.deepcopy(d)
    seats = list(forged["answer"]["payouts"])
    forged["answer"]["payouts"] = {s: (sum(d["answer"]["payouts"].values()) if s == seats[0] else 0)
                                   for s in seats}
    r = _check(forged, forged["answer"])
    assert r["expected"]["payouts"] == d["answer"]["payouts"]
    assert r["right"] is (forged["answer"]["payouts"] == d["answer"]["payouts"])


# ------------------------------------------------------------------------ a test per topic

def _drills(topic, n=30, seed=11):
    return [make_drill(topic, lv, seed, i) for lv in LEVELS for i in range(n // 3)]


def test_showdown_joker_a_seat_holds_the_joker_and_the_answer_reads_it():
    for d in _drills("showdown-joker"):
        holder = [s["seat"] for s in d.table["seats"] if s["hole"] and "JK" in s["hole"]]
        assert len(holder) == 1
        assert d.answer["hands"][str(holder[0])]["joker_as"] is not None
        assert check(d, {"payouts": d.answer["payouts"]}).right


def test_showdown_holdem_has_no_joker_and_a_wrong_split_is_named():
    for d in _drills("showdown-holdem"):
        assert d.game == "holdem"
        assert not any(s["hole"] and "JK" in s["hole"] for s in d.table["seats"])
        winners = [s for s, v in d.answer["payouts"].items() if v]
        everyone = {s: 0 for s in d.answer["payouts"]}
        r = check(d, {"payouts": everyone})
        assert not r.right and {w.field for w in r.wrong} == {f"payouts.{s}" for s in winners}


def test_side_pots_each_pots_amount_and_who_may_win_it():
    for d in _drills("side-pots"):
        pots = d.answer["pots"]
        assert sum(p["amount"] for p in pots) == sum(s["committed"] for s in d.table["seats"])
        if d.level >= 2:
            assert len(pots) >= 2
        if len(pots) >= 2:
            bad = [dict(p) for p in pots]
            bad[1]["eligible"] = bad[0]["eligible"]
            r = check(d, {"payouts": d.answer["payouts"], "pots": bad})
            assert [w.field for w in r.wrong] == ["pots[1].eligible"]
            amounts = [dict(p, amount=p["amount"] + (5 if i == 0 else 0)) for i, p in enumerate(pots)]
            r = check(d, {"payouts": d.answer["payouts"], "pots": amounts})
            assert [w.field for w in r.wrong] == ["pots[0].amount"]
        r = check(d, {"payouts": d.answer["payouts"]})        # the pots were asked for
        assert not r.right and [w.field for w in r.wrong] == ["pots"]


def test_odd_chips_every_drill_has_an_odd_chip_and_giving_it_elsewhere_is_wrong():
    for d in _drills("odd-chips"):
        pot = next(p for p in d.answer["pots"] if p["odd_chips"])
        assert len(pot["winners"]) >= 2 and pot["amount"] % len(pot["winners"])
        lucky = str(pot["odd_chips"][0])
        other = next(str(s) for s in pot["winners"] if s not in pot["odd_chips"])
        pay = dict(d.answer["payouts"])
        pay[lucky] -= 1
        pay[other] += 1
        assert {w.field for w in check(d, {"payouts": pay}).wrong} == {f"payouts.{lucky}", f"payouts.{other}"}


def test_showing_order_the_engines_order_right_another_wrong():
    for d in _drills("showing-order"):
        order = d.answer["showdown_order"]
        if d.table.get("last_aggressor") in order:
            assert order[0] == d.table["last_aggressor"]
        assert check(d, {"showdown_order": order}).right
        turned = order[1:] + order[:1]
        r = check(d, {"showdown_order": turned})
        assert not r.right and [w.field for w in r.wrong] == ["showdown_order"]


def test_burn_swap_the_joker_leaves_the_board_and_the_later_board_cards_stay():
    for d in _drills("burn-swap"):
        a, stub = d.answer, d.table["stub"]
        assert "JK" not in a["board"] and "JK" in a["burns"] and len(a["board"]) == 5
        slot = a["swap_slot"]
        assert a["board"][slot - 1] == a["replacement"]
        # without the joker the board would be stub[1:4] + stub[5] + stub[7]; after the swapped
        # street the board cards are those
        plain = stub[1:4] + [stub[5], stub[7]]
        street_end = 3 if slot <= 3 else slot
        assert a["board"][street_end:] == plain[street_end:]
        assert check(d, {"burns_after_swap": a["burns_after_swap"], "next_board_card": a["next_board_card"]}).right
        r = check(d, {"burns_after_swap": a["burns_after_swap"] + 1, "next_board_card": a["next_board_card"]})
        assert [w.field for w in r.wrong] == ["burns_after_swap"]


def test_hilo_every_drill_splits_a_pot_in_halves():
    for d in _drills("hilo"):
        names = [p["name"] for p in d.answer["pots"]]
        assert any("(high half)" in n for n in names) and any("(low half)" in n for n in names)
        assert check(d, {"payouts": d.answer["payouts"]}).right


def test_half_texas_points_right_and_wrong():
    for d in _drills("half-texas"):
        points = d.answer["points"]
        assert check(d, {"points": points}).right
        seat = next(iter(points))
        bad = copy.deepcopy(points)
        bad[seat]["bp"] += 1
        r = check(d, {"points": bad})
        assert [w.field for w in r.wrong] == [f"points.{seat}"]


def test_stud_first_to_act_showing_order_and_who_opens():
    for d in _drills("stud"):
        a = d.answer
        seats = {s["seat"] for s in d.table["seats"]}
        assert a["first_to_act"] in seats
        assert set(a["shown"]) <= set(a["showdown_order"])
        assert a["showdown_order"][0] in a["shown"]          # the first to show always opens
        right = {k: a[k] for k in ("first_to_act", "showdown_order", "shown")}
        assert check(d, right).right
        other = next(s for s in seats if s != a["first_to_act"])
        r = check(d, dict(right, first_to_act=other))
        assert [w.field for w in r.wrong] == ["first_to_act"]


def test_daifugo_legal_and_illegal_plays_both_come_and_are_checked():
    drills = _drills("daifugo", n=60)
    answers = {d.answer["legal"] for d in drills}
    assert answers == {True, False}
    for d in drills:
        assert check(d, {"legal": d.answer["legal"]}).right
        r = check(d, {"legal": not d.answer["legal"]})
        assert [w.field for w in r.wrong] == ["legal"]
        assert r.explanation_ja[-1] == d.answer["reason_ja"]


# ------------------------------------------------------------------------ malformed input

MALFORMED = [
    ("not json", "nope"),
    ("an empty array", "[]"),
    ("no drill", '{"answer": {"payouts": {}}}'),
    ("a drill that is no object", '{"drill": 5, "answer": {}}'),
    ("an unknown topic", '{"drill": {"topic": "go-fish", "level": 1, "table": {}}, "answer": {}}'),
    ("a topic that is no name", '{"drill": {"topic": ["hilo"], "level": 1, "table": {}}, "answer": {}}'),
    ("a level out of range", '{"drill": {"topic": "hilo", "level": 7, "table": {}}, "answer": {}}'),
]


@pytest.mark.parametrize("what,text", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_input_exits_2_with_one_line(what, text, tmp_path, capsys):
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(["drill", "check", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.startswith("dealer-assist drill: ") and err.count("\n") == 1 and "Traceback" not in err


def _bad_answers():
    d = make_drill("side-pots", 2, 1, 0).to_json()
    broken_table = copy.deepcopy(d)
    broken_table["table"]["seats"][0]["hole"] = ["Zz", "As"]
    return [
        ("an answer that is no object", {"drill": d, "answer": [1, 2]}),
        ("none of the asked fields", {"drill": d, "answer": {"chips": 5}}),
        ("payouts that are no object", {"drill": d, "answer": {"payouts": [100, 0]}}),
        ("chips that are no number", {"drill": d, "answer": {"payouts": {"1": "lots"}}}),
        ("a pot that is no object", {"drill": d, "answer": {"payouts": d["answer"]["payouts"], "pots": [3]}}),
        ("a table no engine can read", {"drill": broken_table, "answer": {"payouts": {}}}),
        ("a bad item of an array", [{"drill": d, "answer": d["answer"]}, {"drill": d}]),
    ]


@pytest.mark.parametrize("what,obj", _bad_answers(), ids=[b[0] for b in _bad_answers()])
def test_malformed_answers_exit_2_through_stdin(what, obj, capsys, monkeypatch):
    code, out, err = run(["drill", "check"], capsys, stdin=json.dumps(obj), monkeypatch=monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unknown_topic_and_bad_n_exit_2(capsys):
    code, _, err = run(["drill", "--json", "--topic", "poker-dice"], capsys)
    assert code == 2 and "poker-dice" in err
    code, _, err = run(["drill", "--json", "--n", "0"], capsys)
    assert code == 2 and "--n" in err


# ------------------------------------------------------------------------ the terminal drill

def test_the_terminal_drill_speaks_japanese_scores_and_records(capsys, monkeypatch, tmp_path):
    from dealer_assist.trainer.store import Store

    drills = list(generate(3, 21, "daifugo", 2))
    typed = ["はい" if drills[0].answer["legal"] else "いいえ",
             "zz",                                                  # unreadable: asked again
             "いいえ" if drills[1].answer["legal"] else "はい",       # wrong
             "y" if drills[2].answer["legal"] else "n"]
    db = tmp_path / "t.sqlite"
    code, out, _ = run(["drill", "--topic", "daifugo", "--level", "2", "--n", "3", "--seed", "21",
                        "--trainer", "佐藤", "--db", str(db)], capsys, stdin="\n".join(typed) + "\n",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert "3問中2問正解" in out and "「zz」を読めません" in out
    assert out.count("正解です。") == 2 and out.count("不正解") == 1
    for line in out.splitlines():
        assert not english_words(line), line
    rows = Store(str(db)).answers("佐藤")
    assert [r["right"] for r in rows] == [True, False, True]
    assert [r["drill"] for r in rows] == [d.id for d in drills]


def test_the_terminal_drill_in_english(capsys, monkeypatch):
    d = next(generate(1, 4, "showing-order", 1))
    typed = " ".join(map(str, d.answer["showdown_order"]))
    code, out, _ = run(["drill", "--topic", "showing-order", "--level", "1", "--n", "1", "--seed", "4",
                        "--lang", "en"], capsys, stdin=typed + "\n", monkeypatch=monkeypatch)
    assert code == 0 and "Right." in out and "1 of 1 right." in out
    assert "Which seat shows first" in out


def test_every_japanese_text_of_the_drills_is_japanese(five_hundred):
    from dealer_assist.trainer.typed import reply_help, table_lines
    from dealer_assist.i18n import render

    lines = []
    for d in five_hundred[:60]:
        drill = drill_from_json(d)
        lines.append(d["question_ja"])
        lines += table_lines(drill, "ja")
        lines.append(render(reply_help(drill), "ja"))
        lines += check(drill, {k: None for k in TOPICS[d["topic"]].asks[:1]} if d["topic"] == "burn-swap"
                       else {TOPICS[d["topic"]].asks[0]: d["answer"][TOPICS[d["topic"]].asks[0]]}).explanation_ja
    bad = [(x, english_words(x)) for x in lines if english_words(x)]
    assert not bad, bad[:10]


# ------------------------------------------------------------------------ the trainee store

def test_the_store_keeps_answers_and_names_the_weakest_topics(tmp_path):
    from dealer_assist.trainer.store import Store

    db = str(tmp_path / "s.sqlite")
    s = Store(db)
    d1, d2 = make_drill("stud", 1, 0, 0), make_drill("hilo", 1, 0, 0)
    s.record("Ken", d1, True, 5.0)
    s.record("Ken", d2, False, 20.0)
    s.record("Ken", d2, True, 10.0)
    s.record("Mai", d2, False, 3.0)
    s.close()
    s = Store(db)                              # read back from the file
    prog = s.progress("Ken")
    assert (prog["stud"].answers, prog["stud"].right) == (1, 1)
    assert (prog["hilo"].answers, prog["hilo"].right, prog["hilo"].mean_seconds) == (2, 1, 15.0)
    assert s.weakest("Ken", 1) == ["hilo"]
    assert s.weakest("Ken", 2, topics=list(TOPICS))[0] not in ("stud", "hilo")   # never drilled first
    assert s.trainees() == ["Ken", "Mai"]
