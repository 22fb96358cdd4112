"""``dealer-assist desk``: the dealer's screen (PySide6) for live play, corrections and disputes.

``dealer-assist desk [--source SRC] [--calibration FILE] [--game joker-holdem] [--lang ja|en]
[--db FILE] [--actions FILE] [--screenshot OUT.png] [--stop-at FRAME] [--size WxH]``

With no ``--source`` it plays the bundled sample clip (as ``run`` does). ``--review [DB]`` opens
dispute mode on a hand log instead (``--hand ID`` for one hand). ``--screenshot OUT.png`` plays
the source to its end (or to ``--stop-at``) as fast as it can, saves the window and exits: it
needs no display.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from dealer_assist.commands import add_lang, given_paths, h, refuse_overwrite
from dealer_assist.commands.run import add_live_arguments
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, typed

#: CJK families tried first, in order (a dealer's laptop has one of these; Debian: fonts-noto-cjk)
CJK_FAMILIES = ("Noto Sans CJK JP", "Noto Sans JP", "Source Han Sans JP", "Yu Gothic UI", "Yu Gothic",
                "Meiryo UI", "Meiryo", "Hiragino Sans", "Hiragino Kaku Gothic ProN", "IPAexGothic",
                "IPAGothic", "TakaoPGothic", "VL PGothic")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "desk",
        help=h(_("the dealer's screen: live table, rulings, alerts, corrections, disputes (PySide6)")),
        description=h(_("The desk display: the live frame with every card outlined and named, the board, "
                         "a panel per seat, the ruling and payouts per pot, and alerts that need the "
                         "dealer's hands. Click a card to correct it. With no --source, plays the "
                         "bundled sample clip.")),
    )
    add_live_arguments(p)
    add_lang(p, _("language (default Japanese; L switches)"))
    p.add_argument("--fast", action="store_true",
                   help=h(_("play a file as fast as the machine can instead of at its own speed")))
    p.add_argument("--screenshot", metavar="OUT.png",
                   help=h(_("play the source to its end (or --stop-at), save the window as a PNG and exit")))
    p.add_argument("--stop-at", type=int, metavar="FRAME", default=None,
                   help=h(_("pause at this frame (with --screenshot: take it there)")))
    p.add_argument("--size", metavar="WxH", default=None,
                   help=h(_("window size (default: the screen's available size; 1280x800 with --screenshot)")))
    p.add_argument("--review", metavar="DB", nargs="?", const="hand-log.sqlite", default=None,
                   help=h(_("dispute mode: open this hand log (default hand-log.sqlite) instead of a live table")))
    p.add_argument("--hand", metavar="SESSION:HAND", default=None,
                   help=h(_("with --review: the hand to open, as dealer-assist review names it (2:3 = "
                             "session 2, hand 3), or its row id")))
    p.add_argument("--trainer", metavar="NAME", default=None,
                   help=h(_("trainer mode: drills from the rules engine for this trainee, answered at the "
                             "keyboard, with a progress chart (docs/trainer.md)")))
    p.add_argument("--trainees", metavar="FILE", default="trainees.sqlite",
                   help=h(_("with --trainer: the trainee store (default trainees.sqlite)")))
    p.add_argument("--seed", type=int, default=None, help=h(_("with --trainer: the drills' seed (default random)")))
    p.add_argument("--from-log", metavar="FILE", default=None,
                   help=h(_("with --trainer: drills from the hands of this hand log, disputed first "
                             "(docs/trainer.md)")))
    p.add_argument("--shadow", action="store_true",
                   help=h(_("with --trainer: shadow the live table: the trainee rules on each showdown in a "
                             "window of their own before seeing the ruling; the dealer's screen is not held "
                             "up (docs/trainer.md)")))
    p.set_defaults(func=run)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> ``(1280, 800)``.

    >>> parse_size("1920x1080")
    (1920, 1080)
    >>> parse_size("big")
    Traceback (most recent call last):
    ...
    dealer_assist.errors.UserError: --size must be WIDTHxHEIGHT such as 1280x800, got 'big'
    """
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(_("--size must be WIDTHxHEIGHT such as 1280x800, got {got}", got=typed(text))) from None
    if not (640 <= w <= 7680 and 480 <= h <= 4320):
        raise UserError(_("--size {w}x{h} is outside 640x480 .. 7680x4320", w=w, h=h))
    return w, h


def pick_font(app) -> bool:
    """Use a Japanese-capable font for the whole display; False if the machine has none."""
    from PySide6.QtGui import QFont, QFontDatabase

    families = QFontDatabase.families(QFontDatabase.WritingSystem.Japanese)
    chosen = next((f for f in CJK_FAMILIES if f in families), None)
    if chosen is None:
        chosen = next((f for f in families if "mono" not in f.lower()), None)
    if chosen is None:
        return False
    f = QFont(chosen)
    f.setPointSize(12)
    app.setFont(f)
    return True


def _need_display(args) -> None:
    if args.screenshot:
        # no window is shown to anybody: render off screen, display or not
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        return
    if (sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("QT_QPA_PLATFORM")):
        raise UserError(_("no display to open the desk on (DISPLAY is not set); run it on the desk's screen, "
                          "or use --screenshot OUT.png to render it without one"))
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if (sys.platform.startswith("linux") and os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
            and platform in ("", "xcb")):
        missing = missing_xcb_libraries()
        if missing:
            # Qt aborts the whole process without them ("Could not load the Qt platform plugin xcb")
            raise UserError(_("the desk's X11 window needs system libraries this machine lacks ({libraries}): "
                              "on Debian/Ubuntu {install}; or use --screenshot OUT.png",
                              libraries=", ".join(missing), install=f"apt-get install {XCB_PACKAGES}"))


#: the Debian packages of the libraries Qt's X11 plugin loads beyond a desktop's usual ones
XCB_PACKAGES = ("libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 "
                "libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxkbcommon-x11-0")


def missing_xcb_libraries() -> list[str]:
    """Shared libraries that Qt's X11 platform plugin (and Qt 6.5+'s required xcb-cursor) cannot
    find on this machine; empty when they are all there or when ``ldd`` cannot tell."""
    import ctypes.util
    import shutil
    import subprocess

    try:
        import PySide6
    except ImportError:
        return []
    qt = Path(PySide6.__file__).parent / "Qt"
    missing = [] if ctypes.util.find_library("xcb-cursor") else ["libxcb-cursor.so.0"]
    ldd = shutil.which("ldd")
    if ldd is None:
        return missing
    for lib in (qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6"):
        if not lib.is_file():
            continue
        try:
            out = subprocess.run([ldd, str(lib)], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            if "not found" in line:
                name = line.split("=>")[0].strip()
                if name and name not in missing:
                    missing.append(name)
    return missing


def _quiet_offscreen(mode, context, message) -> None:
    """Qt's messages, less the off-screen platform's notes that it cannot do window-manager things."""
    if "does not support propagateSizeHints" in message or "This plugin does not support" in message:
        return
    print(message, file=sys.stderr)


def _qt_app():
    try:
        from PySide6.QtCore import qInstallMessageHandler
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        raise UserError(_("the desk display needs PySide6 ({why}): {install}", why=str(exc),
                          install="pip install -e '.[desk]'")) from None
    qInstallMessageHandler(_quiet_offscreen)
    return QApplication.instance() or QApplication([sys.argv[0]])


def _save(window, path: str, lang: str = "ja") -> None:
    out = Path(path)
    if out.parent and not out.parent.exists():
        raise UserError(_("cannot save the screenshot: the folder {folder} does not exist", folder=out.parent))
    image = window.grab()
    if not image.save(str(out), "PNG"):
        raise UserError(_("cannot save the screenshot to {path}", path=out))
    print(_("desk: saved {path} ({w}x{h})", path=out, w=image.width(), h=image.height()).render(lang),
          file=sys.stderr)


def wait_until(app, until, timeout_s: float) -> bool:
    """Run the Qt loop until ``until()`` holds or ``timeout_s`` passes; True if it held. The loop
    sleeps until an event comes (a timer wakes it every 10 ms to look), as ``app.exec()`` does: a
    loop that polled took a core from the worker reading the frames. ``benchmarks/bench_desk.py``
    waits with it too."""
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer

    clock = QElapsedTimer()
    clock.start()
    wake = QTimer()
    wake.start(10)
    try:
        while not until():
            if clock.elapsed() > timeout_s * 1000:
                return False
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    finally:
        wake.stop()
    return True


def run(args) -> int:
    if getattr(args, "game", None) == "list":
        from dealer_assist.commands.run import print_games

        return print_games(args.lang)
    refuse_overwrite(args.screenshot, "--screenshot", **given_paths(args, "db", "review", "trainees", "source",
                                                                      "actions", "calibration", "from_log"))
    _need_display(args)
    size = parse_size(args.size) if args.size else ((1280, 800) if args.screenshot else None)
    if args.hand is not None and args.review is None:
        raise UserError(_("--hand needs --review (dispute mode)"))
    if args.from_log is not None and args.trainer is None:
        raise UserError(_("--from-log {path} goes with --trainer NAME", path=args.from_log))
    if args.shadow:
        from dealer_assist.trainer.shadow import shadow_usage
        shadow_usage(args)
    app = _qt_app()
    font_ok = pick_font(app)
    lang = args.lang if font_ok else "en"
    if not font_ok and args.lang == "ja":
        print(_("desk: no Japanese font on this machine (Debian: apt-get install fonts-noto-cjk); "
                "showing English").render(args.lang), file=sys.stderr)
    from dealer_assist.desk.widgets import use_qt_language

    use_qt_language(lang)          # Qt's own words (a text box's menu) in the same language
    if args.review is not None:
        return _review(app, args, size, lang)
    if args.trainer is not None and not args.shadow:
        return _trainer(app, args, size, lang)

    from dealer_assist.desk.session import LiveSession
    from dealer_assist.desk.window import DeskWindow

    from dealer_assist.commands.run import LiveParts

    args.realtime = not (args.fast or args.screenshot)
    parts = LiveParts(args, lambda ev: None, log_thread_free=True)
    session = LiveSession(parts.pipeline, parts.source, stop_at=args.stop_at)
    window = DeskWindow(session, calibration=parts.calibration, lang=lang,
                        db=None if args.no_db else args.db, source_name=parts.source_spec, font_ok=font_ok)
    window.open_on_screen(size)
    shadow = None
    if args.shadow:         # the trainee's own window, fed the same live ticks (docs/trainer.md)
        from dealer_assist.desk.shadow import attach
        shadow = attach(window, args.trainer, args.trainees, lang=lang,
                        session=parts.log.session if parts.log is not None else None)
        shadow.resize(*(size or (900, 760)))
        shadow.show()
    window.start()
    if not args.screenshot:
        code = app.exec()
        window.shutdown()
        if shadow is not None:
            shadow.finish()
        parts.close_forwarder()
        return int(code)
    try:
        done = wait_until(app, lambda: window.ended or (args.stop_at is not None and window.is_paused),
                          timeout_s=900)
        if not done:
            raise UserError(_("the source did not end within 15 minutes; give --stop-at FRAME"))
        app.processEvents()             # the last step drawn before the picture is taken
        _save(window, args.screenshot, args.lang)
    finally:
        window.shutdown()
        if shadow is not None:
            shadow.finish()
            shadow.close()
        window.close()
        parts.close_forwarder()
    return 0


def _run_window(app, window, screenshot, lang: str = "ja") -> int:
    """The shown ``window`` until it is closed; with ``screenshot``, saved there once drawn instead."""
    if screenshot:
        app.processEvents()
        _save(window, screenshot, lang)
        window.close()
        return 0
    return int(app.exec())


def _trainer(app, args, size, lang) -> int:
    from dealer_assist.desk.trainer import TrainerWindow
    from dealer_assist.trainer.store import Store

    drills = None
    if args.from_log is not None:       # the hands of a hand log, disputed first
        from dealer_assist.trainer.fromlog import trainer_drills
        drills = trainer_drills(args.from_log)
    window = TrainerWindow(args.trainer, Store(args.trainees), lang=lang, seed=args.seed, drills=drills)
    window.resize(*(size or (1280, 800)))
    window.show()
    return _run_window(app, window, args.screenshot, args.lang)


def _review(app, args, size, lang) -> int:
    from dealer_assist.desk.dispute import DisputeWindow

    if not Path(args.review).is_file():
        raise UserError(_("no hand log at {path} (dealer-assist run or desk writes one)", path=args.review))
    window = DisputeWindow(args.review, lang=lang, hand_id=args.hand)
    if window.error:
        raise UserError(window.error_words)
    if size is None:
        window.setGeometry(app.primaryScreen().availableGeometry())
        window.showMaximized()
    else:
        window.resize(*size)
        window.show()
    return _run_window(app, window, args.screenshot, args.lang)


__all__ = ["register", "run", "parse_size", "pick_font"]
