"""Trainer mode for new dealers (issue 23): drills the rules engine makes and checks.

* :mod:`dealer_assist.trainer.drills`: seeded, reproducible drills by topic and level, each a
  table the engine rules on, a question and the engine's own answer; :func:`check` compares a
  trainee's answer with it and names what differs.
* :mod:`dealer_assist.trainer.store`: trainees, their answers and their progress, in SQLite.

Must not import Qt, the camera or the live pipeline: the trainer runs on a laptop with the
runtime install only.
"""
from __future__ import annotations

from dealer_assist.trainer.drills import (LEVELS, TOPICS, Drill, Topic, check, check_json, drill_from_json,
                                          generate, make_drill)

__all__ = ["LEVELS", "TOPICS", "Drill", "Topic", "check", "check_json", "drill_from_json", "generate",
           "make_drill"]
