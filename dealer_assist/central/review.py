"""``dealer-assist review --central URL [--table NAME] [HAND]``: the central log read as ``review``
reads a table's own log (the same list and the same telling of a hand, by
:mod:`dealer_assist.commands.review`), every table's hands, or one table's."""
from __future__ import annotations

import json

from dealer_assist.errors import UserError
from dealer_assist.i18n import _

__all__ = ["run_central"]


def run_central(args) -> int:
    from dealer_assist.central.reader import CentralLog
    from dealer_assist.commands.review import format_list, show_hand

    if args.salvage:
        raise UserError(_("--salvage works on a table's own log (--db), not on --central"))
    lang = args.lang
    with CentralLog(args.central) as log:
        if args.hand is None:
            if args.export or args.snapshots:
                raise UserError(_("--export and --snapshots need a HAND (SESSION:HAND such as 2:3; "
                                  "dealer-assist review --central URL lists them)"))
            hands = log.list_hands(args.table)
            if args.session is not None:
                hands = [h for h in hands if h["session"] == args.session]
            if args.json:
                print(json.dumps(hands, ensure_ascii=False, indent=2))
                return 0
            if not hands:
                none = (_("the central log has no hands yet") if args.table is None
                        else _("the central log has no hands of table {table} yet", table=args.table))
                print(none.render(lang))
                return 0
            names = [args.table] if args.table is not None else sorted({h["table"] for h in hands})
            blocks = []
            for name in names:
                mine = [h for h in hands if h["table"] == name]
                head = _("table {table} ({n} hands; review --central URL --table {table} HAND tells one)",
                         table=name, n=len(mine)).render(lang)
                blocks.append(head + "\n" + format_list(mine, lang))
            print("\n\n".join(blocks))
            return 0

        hand = log.load_hand(args.hand, args.table)
        try:        # what the floor recorded of it: its check of the cards, its disputes, and who
            hand["floor"] = {"checked": log.checked(hand["central_id"]), "disputes": log.disputes(hand["central_id"])}
        except UserError:       # a table's role may not read the floor's records: the hand as the table logged it
            pass
        show_hand(hand, args, lambda snap_id: log.load_snapshot(hand, snap_id))
    return 0
