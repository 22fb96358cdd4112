"""The desk screenshots of a doubt (docs/img/desk-provisional-ja.png and
docs/img/desk-doubt-final-ja.png): the sample clip on the desk, as ``dealer-assist desk --stop-at
FRAME --screenshot OUT.png`` shows it, with the cards named here reported NOT sure by the reader,
each with the other name it offers (``DetectorSettings.doubt``). The shipped reader is sure of
every card of the clip's two showdowns, so the doubt a real table brings is put on them by hand,
and the rest (the marks, the "or" name, the ruling held or final, the banner) is the product's own.

    .venv/bin/python scripts/doubt_screenshots.py FRAME OUT.png CARD=OTHER ... [--lang en]

    FRAME 160 Qs=Qc Kc=Ks    hand 2: the winners' cards in doubt, the ruling held (provisional)
    FRAME 84 Ks=Kc           hand 1: a loser's card in doubt, the ruling final all the same
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"     # rendered off screen, as desk --screenshot renders

from dealer_assist.cli import build_parser  # noqa: E402
from dealer_assist.commands.desk import _qt_app, _save, _wait, pick_font  # noqa: E402
from dealer_assist.commands.run import LiveParts  # noqa: E402
from dealer_assist.desk.session import LiveSession  # noqa: E402
from dealer_assist.desk.window import DeskWindow  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("frame", type=int)
    ap.add_argument("out")
    ap.add_argument("doubt", nargs="+", metavar="CARD=OTHER")
    ap.add_argument("--lang", default="ja", choices=("ja", "en"))
    args = ap.parse_args(argv)
    doubt = dict(d.split("=", 1) for d in args.doubt)
    app = _qt_app()
    pick_font(app)
    db = Path(tempfile.mkdtemp()) / "hands.sqlite"
    desk = build_parser().parse_args(["desk", "--fast", "--db", str(db), "--stop-at", str(args.frame)])
    desk.realtime = False
    parts = LiveParts(desk, lambda ev: None, log_thread_free=True)
    detector = parts.pipeline.detector
    detector.settings = dataclasses.replace(detector.settings, doubt=tuple(doubt.items()))
    window = DeskWindow(LiveSession(parts.pipeline, parts.source, stop_at=args.frame), calibration=parts.calibration,
                        lang=args.lang, db=str(db), source_name="sample clip")
    window.resize(1280, 800)
    window.show()
    window.start()
    try:
        if not _wait(app, window, until=lambda: window.is_paused or window.ended, timeout_s=600):
            print("the clip did not reach the frame", file=sys.stderr)
            return 1
        _save(window, args.out)
    finally:
        window.shutdown()
        window.close()
        parts.close_forwarder()
    return 0


if __name__ == "__main__":
    sys.exit(main())
