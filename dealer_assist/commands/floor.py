"""``dealer-assist floor --central URL [--token T] [--host 127.0.0.1] [--port 8700]``: the floor view.

Serves the page of :mod:`dealer_assist.central.floor` (every table of the event, live) until
interrupted. Every request needs the access token: ``--token`` (or ``DEALER_ASSIST_FLOOR_TOKEN``),
else a new random one, printed with the address to open. Listens on 127.0.0.1 unless ``--host``
says otherwise. Needs the ``floor`` and ``central`` extras.

``dealer-assist floor-staff --central URL add NAME | revoke NAME | list``: each person on the floor
gets an address of their own (:mod:`dealer_assist.central.staff`); their checks and disputes are
then recorded in their name, and the event's shared token only views.
"""
from __future__ import annotations

import argparse
import os
import secrets
from datetime import timezone

from dealer_assist.commands import add_lang, h
from dealer_assist.errors import UserError
from dealer_assist.i18n import _, os_reason


def register(sub: argparse._SubParsersAction) -> None:
    from dealer_assist.commands.run import _arg_check

    p = sub.add_parser(
        "floor",
        help=h(_("the floor view in a browser: every table of the event, live, from the central log")),
        description=h(_("Serve the floor view: every table's game, hand, street, alerts (red and amber "
                         "first), corrections and disputes, pushed live from the central log; a click "
                         "opens a hand. Every request needs the access token.")),
    )
    p.add_argument("--central", metavar="URL", required=True, type=_arg_check("check_url"),
                   help=h(_("the central log (postgresql://...)")))
    p.add_argument("--token", metavar="T", default=os.environ.get("DEALER_ASSIST_FLOOR_TOKEN"),
                   help=h(_("the event's access token (default: $DEALER_ASSIST_FLOOR_TOKEN, else a new random one)")))
    p.add_argument("--host", default="127.0.0.1",
                   help=h(_("address to listen on (default 127.0.0.1: this machine only)")))
    p.add_argument("--port", type=int, default=8700, help=h(_("port (default 8700)")))
    add_lang(p, _("language of the terminal lines"))
    p.set_defaults(func=run)

    s = sub.add_parser(
        "floor-staff",
        help=h(_("give each person on the floor an address of their own, so that their checks and "
                  "disputes are recorded in their name")),
        description=h(_("Floor staff accounts in the central log: 'add NAME' makes a person's own token "
                         "and prints their address (shown once, kept nowhere); 'revoke NAME' ends it; "
                         "'list' shows every account. Once the event has one, the shared token only views.")),
    )
    s.add_argument("--central", metavar="URL", required=True, type=_arg_check("check_url"),
                   help=h(_("the central log (postgresql://..., the owner's role)")))
    s.add_argument("--address", default="http://127.0.0.1:8700",
                   help=h(_("the floor view's address, to print each person's link (default http://127.0.0.1:8700)")))
    add_lang(s, _("language of the terminal lines"))
    s.add_argument("action", choices=("add", "revoke", "list"))
    s.add_argument("name", nargs="?", help=h(_("the person's name (add, revoke)")))
    s.set_defaults(func=run_staff)


def run_staff(args) -> int:
    from dealer_assist.central.floor import ready_schema
    from dealer_assist.central.schema import connect, describe_error
    from dealer_assist.central.staff import add_staff, list_staff, revoke_staff

    if args.action != "list" and args.name is None:
        raise UserError(_("floor-staff {action} wants the person's name", action=args.action))
    from dealer_assist.central.reader import CentralLog

    CentralLog(args.central).close()          # out of reach or no log yet: one line, the password hidden
    try:
        ready_schema(args.central)            # a log from an older release: upgraded, or one line why not
        with connect(args.central) as con:
            if args.action == "add":
                token = add_staff(con, args.name)
                con.commit()
                said = _("{staff}'s own floor address (shown once; give it to them alone; "
                         "'floor-staff revoke' ends it): {address}/?token={token}",
                         staff=args.name.strip(), address=args.address.rstrip("/"), token=token)
            elif args.action == "revoke":
                if not revoke_staff(con, args.name):
                    raise UserError(_("no floor address for {staff} (dealer-assist floor-staff list)",
                                      staff=args.name.strip()))
                con.commit()
                said = _("{staff}'s floor address no longer opens the floor view", staff=args.name.strip())
            else:
                utc = lambda t: t.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")  # noqa: E731
                lines = [_("{staff}: since {created}{revoked}", staff=r["name"], created=utc(r["created"]),
                           revoked=_(", revoked {when}", when=utc(r["revoked"])) if r["revoked"] else "").render(args.lang)
                         for r in list_staff(con)]
                print("\n".join(lines) if lines else _("no floor addresses: every check and dispute takes "
                                                       "the name typed on the page").render(args.lang))
                return 0
    except UserError:
        raise
    except Exception as exc:      # psycopg's errors: the log out of reach, a role without the grant
        raise UserError(_("cannot reach the floor's accounts in the central log: {why}",
                          why=describe_error(exc))) from None
    print(said.render(args.lang), flush=True)
    return 0


def run(args) -> int:
    try:
        import uvicorn
        from dealer_assist.central.floor import create_app
    except ImportError as exc:
        raise UserError(_("the floor view needs the floor extra ({command}): {why}",
                          command="pip install -e '.[floor]'", why=str(exc))) from None
    if not 0 < args.port < 65536:
        raise UserError(_("--port wants 1-65535, not {port}", port=args.port))
    token = args.token or secrets.token_urlsafe(16)
    if len(token) < 8:
        raise UserError(_("--token wants at least 8 characters"))
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
        raise UserError(_("cannot listen on {host}:{port}: {why}", host=args.host, port=args.port,
                          why=os_reason(exc))) from None
    if not server.started:
        raise UserError(_("cannot listen on {host}:{port} (in use?)", host=args.host, port=args.port))
    return 0
