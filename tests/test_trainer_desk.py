"""The desk's trainer screen (issue 23), driven off screen with pytest-qt: three drills answered at
the keyboard, one wrong; the verdicts, the SQLite record and the progress chart follow."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqlite3  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402

from dealer_assist.desk.trainer import WRONG, TrainerWindow  # noqa: E402
from dealer_assist.desk.widgets import DECIDING, WIN  # noqa: E402
from dealer_assist.i18n import render  # noqa: E402
from dealer_assist.trainer.drills import TOPICS  # noqa: E402
from dealer_assist.trainer.store import Store  # noqa: E402
from dealer_assist.trainer.typed import reply_text  # noqa: E402


def wrong_text(drill) -> str:
    """The engine's answer with one thing changed, as typed."""
    if drill.topic == "daifugo":
        return "n" if drill.answer["legal"] else "y"
    order = drill.answer["showdown_order"]
    return " ".join(map(str, order[1:] + order[:1]))


def colours_in(image) -> set[str]:
    return {QColor(image.pixel(x, y)).name() for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)}


def test_three_drills_one_wrong_are_judged_recorded_and_charted(qtbot, tmp_path):
    db = tmp_path / "trainees.sqlite"
    now = [100.0]
    window = TrainerWindow("佐藤", Store(str(db)), lang="ja", seed=5, topics=["daifugo", "showing-order"],
                           clock=lambda: now[0])
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    drills, typed_seconds = [], [4.0, 9.5, 2.0]
    for i, seconds in enumerate(typed_seconds):
        d = window.drill
        drills.append(d)
        assert window.question.text() == render(d.question, "ja")
        assert len(window.tiles) >= 2                       # the table's cards are drawn
        now[0] += seconds
        text = wrong_text(d) if i == 1 else reply_text(d)
        qtbot.keyClicks(window.entry, text)
        qtbot.keyClick(window.entry, Qt.Key.Key_Return)
        assert window.result is not None
        assert window.verdict.text().startswith("正解" if i != 1 else "不正解")
        lines = [window.explanation.item(k).text() for k in range(window.explanation.count())]
        assert lines == list(window.result.explanation_ja)
        highlighted = [k for k in range(window.explanation.count())
                       if window.explanation.item(k).background().color().name() == QColor(DECIDING).name()]
        assert len(highlighted) == 1
        qtbot.keyClick(window.entry, Qt.Key.Key_Return)     # Enter again: the next drill
        assert window.result is None and window.drill is not d
    rows = sqlite3.connect(db).execute(
        "SELECT t.name, a.drill, a.topic, a.right, a.seconds FROM answers a JOIN trainees t ON t.id = a.trainee "
        "ORDER BY a.id").fetchall()
    assert rows == [("佐藤", d.id, d.topic, int(i != 1), s) for i, (d, s) in enumerate(zip(drills, typed_seconds))]
    # the chart: one row per topic answered, its accuracy, and the wrong topic named as weakest
    chart = window.chart
    wrong_topic = drills[1].topic
    done = {d.topic for d in drills}
    assert set(chart.rows) == done
    for topic in done:
        mine = [i != 1 for i, d in enumerate(drills) if d.topic == topic]
        assert chart.rows[topic].answers == len(mine) and chart.rows[topic].right == sum(mine)
    assert chart.weakest[0] == wrong_topic
    assert {t: h for t, h in chart.history.items()} == {
        t: [i != 1 for i, d in enumerate(drills) if d.topic == t] for t in done}
    assert render(TOPICS[wrong_topic].title, "ja") in chart.title()
    seen = colours_in(chart.grab().toImage())
    for topic in done:
        acc = chart.rows[topic].accuracy
        want = WIN if acc >= 0.8 else DECIDING if acc >= 0.5 else WRONG
        assert QColor(want).name() in seen, topic


def test_an_unreadable_answer_is_refused_in_japanese_and_not_recorded(qtbot, tmp_path):
    db = tmp_path / "t.sqlite"
    window = TrainerWindow("Ken", Store(str(db)), lang="ja", seed=1, topics=["daifugo"])
    qtbot.addWidget(window)
    qtbot.keyClicks(window.entry, "maybe")
    qtbot.keyClick(window.entry, Qt.Key.Key_Return)
    assert window.result is None and "読めません" in window.verdict.text()
    assert Store(str(db)).answers("Ken") == []


def test_desk_trainer_command_opens_the_screen_and_saves_it(qtbot, tmp_path):
    from PySide6.QtGui import QImage

    from dealer_assist.cli import main

    db, png = tmp_path / "t.sqlite", tmp_path / "trainer.png"
    assert main(["desk", "--trainer", "Ken", "--trainees", str(db), "--seed", "2", "--screenshot", str(png)]) == 0
    image = QImage(str(png))
    assert image.width() == 1280 and image.height() == 800
    assert Store(str(db)).trainees() == []          # nothing answered, nothing recorded
