"""``dealer-assist floor --central URL [--token T] [--host 127.0.0.1] [--port 8700]``: the floor view.

Serves the page of :mod:`dealer_assist.central.floor` (every table of the event, live) until
interrupted. Every request needs the access token: ``--token`` (or ``DEALER_ASSIST_FLOOR_TOKEN``),
else a new random one, printed with the address to open. Listens on 127.0.0.1 unless ``--host``
says otherwise. Needs the ``floor`` and ``central`` extras.
"""
from __future__ import annotations

import argparse
import os
import secrets
import sys

from dealer_assist.errors import UserError
from dealer_assist.i18n import _


def register(sub: argparse._SubParsersAction) -> None:
    from dealer_assist.commands.run import _arg_check

    p = sub.add_parser(
        "floor",
        help="the floor view in a browser: every table of the event, live, from the central log",
        description="Serve the floor view: every table's game, hand, street, alerts (red and amber "
                    "first), corrections and disputes, pushed live from the central log; a click "
                    "opens a hand. Every request needs the access token.",
    )
    p.add_argument("--central", metavar="URL", required=True, type=_arg_check("check_url"),
                   help="the central log (postgresql://...)")
    p.add_argument("--token", metavar="T", default=os.environ.get("DEALER_ASSIST_FLOOR_TOKEN"),
                   help="the event's access token (default: $DEALER_ASSIST_FLOOR_TOKEN, else a new random one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8700, help="port (default 8700)")
    p.add_argument("--lang", choices=("ja", "en"), default="ja", help="language of the terminal lines")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        import uvicorn
        from dealer_assist.central.floor import create_app
    except ImportError as exc:
        raise UserError(f"the floor view needs the floor extra (pip install -e '.[floor]'): {exc}") from None
    if not 0 < args.port < 65536:
        raise UserError(f"--port wants 1-65535, not {args.port}")
    token = args.token or secrets.token_urlsafe(16)
    if len(token) < 8:
        raise UserError("--token wants at least 8 characters")
    from dealer_assist.central.reader import CentralLog

    CentralLog(args.central).close()          # out of reach or no log yet: one line now, not a dead page
    from dealer_assist.central.floor import ready_schema

    ready_schema(args.central)                # a log from an older release: upgraded, or one line why not
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(_("floor view on http://{host}:{port}/?token={token} (Ctrl+C stops it)",
            host=host, port=args.port, token=token).render(args.lang), flush=True)
    config = uvicorn.Config(create_app(args.central, token), host=args.host, port=args.port,
                            log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as exc:
        raise UserError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    if not server.started:
        raise UserError(f"cannot listen on {args.host}:{args.port} (in use?)")
    return 0
