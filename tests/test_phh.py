"""``review --export-phh DIR``: the sample clip's hands as Poker Hand History files that pokerkit
reads, with the joker and the house rules in user-defined fields."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory

from dealer_assist.cli import main
from dealer_assist.live.handlog import HandLog

ROOT = Path(__file__).resolve().parent.parent
#: the events of one ``dealer-assist run`` of the sample clip (recorded)
EVENTS = [json.loads(x) for x in (ROOT / "tests" / "data" / "clip-run-events.jsonl").read_text().splitlines()
          if x.strip()]


@pytest.fixture
def clip_log(tmp_path):
    db = tmp_path / "t7.sqlite"
    with HandLog(db, source="camera", game="joker-holdem") as log:
        for ev in EVENTS:
            log.record(ev)
    return db


def load(path: Path) -> HandHistory:
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # pokerkit warns of a field it does not know
        with open(path, "rb") as fh:
            return HandHistory.load(fh)


def test_the_clips_hands_load_in_pokerkit(clip_log, tmp_path, capsys):
    out = tmp_path / "phh"
    assert main(["review", "--db", str(clip_log), "--export-phh", str(out), "--lang", "en"]) == 0
    assert "wrote 3 hand histories" in capsys.readouterr().out
    files = sorted(out.glob("*.phh"))
    assert [f.name for f in files] == ["t7-1-1.phh", "t7-1-2.phh", "t7-1-3.phh"]
    hands = [load(f) for f in files]
    assert all(h.variant == "NT" for h in hands)

    side_pot = hands[1]                 # hand 2: the joker holder loses the side-pot tie
    assert side_pot.players == ["seat 2", "seat 3", "seat 4", "seat 6"]      # from the seat left of the button
    assert side_pot.starting_stacks == [100, 300, 300, 20]
    assert side_pot.winnings == [320, 0, 400, 0]
    assert "d db QdJcTh" in side_pot.actions and "d db 5h" in side_pot.actions
    assert "d dh p2 ??Kh" in side_pot.actions            # PHH has no joker card ...
    udf = side_pot.user_defined_fields
    assert udf["_joker_seats"] == [3] and udf["_joker_as"] == ["seat 3: As"]   # ... these fields say it
    assert "joker" in udf["_house_rules"] and udf["_game"] == "joker-holdem"
    assert any("joker holder loses ties" in line for line in udf["_explanation"])

    no_showdown = hands[2]
    assert no_showdown.user_defined_fields["_won_without_showdown"] == 1
    assert not any(" sm " in a for a in no_showdown.actions)
    assert sum(no_showdown.winnings) == 100


def test_one_hand_and_a_bad_folder(clip_log, tmp_path, capsys):
    out = tmp_path / "one"
    assert main(["review", "1:1", "--db", str(clip_log), "--export-phh", str(out)]) == 0
    assert [f.name for f in out.glob("*.phh")] == ["t7-1-1.phh"]
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["review", "--db", str(clip_log), "--export-phh", str(blocker / "sub"), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "cannot write hand histories" in err and len(err.strip().splitlines()) == 1


def test_a_game_phh_cannot_hold_is_left_out_and_said(tmp_path, capsys):
    db = tmp_path / "stud.sqlite"
    with HandLog(db, source="camera", game="stud7") as log:
        log.record({"t": 0.1, "frame": 1, "type": "hand_start", "hand": 1, "seats": [1, 2], "button": 1})
        log.record({"t": 9.0, "frame": 90, "type": "hand_end", "hand": 1, "ruling": {"payouts": {"1": 10, "2": 0}}})
    out = tmp_path / "phh"
    assert main(["review", "--db", str(db), "--export-phh", str(out), "--lang", "en"]) == 0
    captured = capsys.readouterr()
    assert "1 hand of stud7 left out" in captured.err and "no hands to write" in captured.out
    assert not list(out.glob("*.phh"))
