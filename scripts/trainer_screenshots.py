"""The trainer screenshots of the README and docs/trainer.md (docs/img/trainer-ja.png and
docs/img/trainer-progress-ja.png): a trainee answers 40 drills on the desk's trainer screen, a few
topics more often wrong than the others, then gives a wrong answer to a side-pots drill; the
window and its progress chart are saved.  Off screen; every answer comes from the engine (its own
answer, or its answer with one thing changed).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/trainer_screenshots.py [ja|en] [OUT.png CHART.png]
"""
from __future__ import annotations

import os
import random
import sys
import tempfile

from PySide6.QtWidgets import QApplication

from dealer_assist.commands.desk import pick_font

#: how often each of these topics is answered wrong (the others: one time in ten)
WEAK = {"side-pots": 0.3, "burn-swap": 0.5, "odd-chips": 0.6}


def spoil(ans: dict) -> dict:
    """The engine's answer with one thing changed."""
    if "payouts" in ans:
        k = list(ans["payouts"])
        ans["payouts"][k[0]] += 5
        ans["payouts"][k[-1]] -= 5
    elif "legal" in ans:
        ans["legal"] = not ans["legal"]
    elif "burns_after_swap" in ans:
        ans["burns_after_swap"] += 1
    elif "showdown_order" in ans:
        ans["showdown_order"] = ans["showdown_order"][::-1]
    elif "points" in ans:
        ans["points"][next(iter(ans["points"]))]["bp"] += 1
    return ans


def main() -> int:
    lang = sys.argv[1] if len(sys.argv) > 1 else "ja"
    out = sys.argv[2] if len(sys.argv) > 2 else f"docs/img/trainer-{lang}.png"
    chart = sys.argv[3] if len(sys.argv) > 3 else f"docs/img/trainer-progress-{lang}.png"
    app = QApplication.instance() or QApplication([])
    pick_font(app)
    from dealer_assist.desk.trainer import TrainerWindow
    from dealer_assist.trainer.store import Store
    from dealer_assist.trainer.typed import read_reply, reply_text

    now = [0.0]
    rng = random.Random(3)
    db = os.path.join(tempfile.mkdtemp(), "trainees.sqlite")
    w = TrainerWindow("佐藤" if lang == "ja" else "Sato", Store(db), lang=lang, seed=12, clock=lambda: now[0])
    w.resize(1280, 800)
    w.show()
    for _ in range(40):
        d = w.drill
        now[0] += rng.uniform(5, 40) * (1.6 if d.topic in WEAK else 1)
        ans = read_reply(d, reply_text(d))
        w.answer(ans if rng.random() > WEAK.get(d.topic, 0.1) else spoil(ans))
        w.next_drill()
    while w.drill.topic != "side-pots" or w.drill.level != 2:
        w.next_drill()
    ans = read_reply(w.drill, reply_text(w.drill))
    pay = ans["payouts"]
    win = max(pay, key=lambda s: pay[s])
    other = next(s for s in pay if s != win)
    pay[win] -= 10
    pay[other] += 10
    typed = reply_text(w.drill).split(" | ")
    typed[0] = " ".join(f"{s}:{v}" for s, v in pay.items())
    w.entry.setText(" | ".join(typed))
    now[0] += 31.2
    w.answer(ans)
    app.processEvents()
    w.grab().save(out, "PNG")
    w.chart.resize(640, 520)
    w.chart.grab().save(chart, "PNG")
    print(f"saved {out} and {chart} ({w.drill.id})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
