"""Every game's bundled sample clip (the registry's ``clip``, other than Joker NLH's, which
tests/test_run.py plays; one clip may serve two games, which rule its cards differently): ``run --game G`` with no ``--source`` plays it and prints the events
written by hand in its ``expected-events.jsonl``; the hand log it leaves is readable by ``review``;
its labels and calibration agree with its scenario."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from dealer_assist.cli import main
from dealer_assist.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
#: How many frames after the change an event may come (the tracker's stability window; a fold is
#: seen once the seat's cards have been gone for a while)
LATENCY_FRAMES = 8

CLIP_GAMES = [g for g in GAMES if g.clip is not None and g.clip[0] != "clip"]


def clip_dir(game) -> Path:
    return ROOT / "sample_frames" / game.clip[0]


def expected_file(game) -> Path:
    """The clip's expected events: ``expected-events-GAME.jsonl`` where one clip serves two games
    (hold'em and hold'em hi/lo, lowball A-5 and 2-7 rule the same cards), else
    ``expected-events.jsonl``."""
    own = clip_dir(game) / f"expected-events-{game.name}.jsonl"
    return own if own.is_file() else clip_dir(game) / "expected-events.jsonl"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def key(ev: dict) -> tuple:
    """What must match between an expected and an actual event (frames are compared apart; the
    order of the cards within a seat is not significant)."""
    k: tuple = (ev["type"], ev.get("hand"))
    if ev["type"] == "hole":
        k += (ev["seat"], tuple(sorted(ev["cards"])))
    elif ev["type"] == "up":
        k += (ev["street"], ev["acts_first"], tuple((s, tuple(sorted(c))) for s, c in sorted(ev["seats"].items())))
    elif ev["type"] == "draw":
        k += (ev["seat"], ev["cards"], ev["round"])
    elif ev["type"] == "board":
        k += (ev["street"], tuple(ev["cards"]))
    elif ev["type"] == "alert":
        k += (ev["code"], bool(ev.get("cleared", False)))
    elif ev["type"] == "hand_start":
        k += (tuple(ev["seats"]), ev["button"])
    elif ev["type"] == "raise":         # Half Texas: a raise entered and the points' multiplier
        k += (ev["seat"], ev["raises"], ev["multiplier"])
    elif ev["type"] == "ledger":        # Half Texas: the session's points after a game
        k += (ev["games"], json.dumps(ev["seats"], sort_keys=True), tuple(ev["dropouts"]), ev["button"], ev["over"])
    elif ev["type"] == "play":          # Daifugo: a play or a pass and whether it is legal
        k += (ev["seat"], ev["pass"], tuple(sorted(ev["cards"])), tuple(ev["jokers"]), ev["legal"], ev["turn"])
    return k


#: the fields of a Daifugo play's state compared where the expected event gives them
PLAY_STATE = ("direction", "revolution", "lock")


def ruling_key(ruling: dict, want: dict) -> dict:
    """The fields of ``ruling`` that the expected ruling ``want`` gives."""
    out = {}
    for name in want:
        if name == "pots":
            fields = set().union(*(p.keys() for p in want["pots"])) if want["pots"] else set()
            out["pots"] = [{f: sorted(p[f]) if isinstance(p[f], list) else p[f] for f in fields}
                           for p in ruling["pots"]]
        else:
            out[name] = ruling[name]
    return out


@pytest.fixture(scope="module", params=CLIP_GAMES, ids=lambda g: g.name)
def clip_run(request, tmp_path_factory):
    game = request.param
    out = tmp_path_factory.mktemp(game.name)
    events, db = out / "events.jsonl", out / "hands.sqlite"
    code = main(["run", "--game", game.name, "--headless", "--events", str(events), "--db", str(db)])
    lines = read_jsonl(events)
    assert lines and lines[0]["type"] == "session_start" and lines[0]["game"] == game.name
    return game, code, lines[1:], db


def test_there_is_a_clip_beyond_joker_nlh():
    assert [g.name for g in CLIP_GAMES] == ["holdem", "half-texas", "stud7", "holdem-hilo", "lowball-a5", "lowball-27", "daifugo"]
    assert {g.name for g in GAMES if g.live} == {g.name for g in GAMES if g.clip}     # every live game has one


def test_the_clip_gives_the_expected_events(clip_run):
    game, code, got, _ = clip_run
    assert code == 0
    expected = read_jsonl(expected_file(game))
    assert [key(e) for e in got] == [key(e) for e in expected]
    for e, g in zip(expected, got):
        assert e["frame"] <= g["frame"] <= e["frame"] + LATENCY_FRAMES, (e, g)
        if e.get("ruling") is not None:
            assert ruling_key(g["ruling"], e["ruling"]) == e["ruling"], (e, g)
        for name in PLAY_STATE:       # a Daifugo play's state after it, where the expected gives it
            if name in e:
                assert g[name] == e[name], (name, e, g)


def test_review_reads_the_clip_s_hand_log(clip_run, capsys):
    game, _, got, db = clip_run
    capsys.readouterr()
    assert main(["review", "--db", str(db), "--lang", "en"]) == 0
    listing = capsys.readouterr().out
    hands = [e for e in got if e["type"] == "hand_start"]
    assert listing.count("ended") == len(hands), listing
    last = [e for e in got if e["type"] == "hand_end"][-1]
    assert main(["review", "--db", str(db), f"1:{last['hand']}", "--lang", "en"]) == 0
    told = capsys.readouterr().out
    winners = [s for s, v in last["ruling"]["payouts"].items() if v]
    assert all(f"seat {s}" in told for s in winners), told


@pytest.mark.parametrize("game", list({g.clip: g for g in CLIP_GAMES}.values()), ids=lambda g: g.clip[0])
def test_labels_and_calibration_agree_with_the_scenario(game):
    from dealer_assist.live.calibration import load_calibration
    from dealer_assist.vision.synth.clip import ClipRenderer, calibration_dict, load_scenario

    folder = clip_dir(game)
    sc = load_scenario(folder / "scenario.yaml")
    labels = read_jsonl(folder / "labels.jsonl")
    assert len(labels) == len(sc.frames)
    r = ClipRenderer(sc)
    for i in (0, len(labels) // 2):
        assert r.render(i)[1] == labels[i], f"{folder}/labels.jsonl frame {i} is stale: re-render the clip"
    stored = yaml.safe_load((folder / "table.yaml").read_text())
    assert stored == json.loads(json.dumps(calibration_dict(sc)))
    cal = load_calibration(folder / "table.yaml", image_size=(1280, 720), board=game.live_flow().board_slots)
    for lab in labels[::10]:
        for c in lab["cards"] + lab["backs"]:
            centre = np.mean(c["polygon"], axis=0)
            assert cal.zone_at((float(centre[0]), float(centre[1]))) == c["zone"]
