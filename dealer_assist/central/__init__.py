"""The central event log of a casino event: every table's hand log in one PostgreSQL database.

Each table keeps its own SQLite hand log (:mod:`dealer_assist.live.handlog`) and goes on without
the network; :mod:`~dealer_assist.central.forward` sends what it records to PostgreSQL in order,
each row under the ids the table's log gave it, so a resend changes nothing and an outage is
caught up from the local log. Hole cards are withheld at the table until the hand's showdown or
end (:mod:`~dealer_assist.central.privacy`). :mod:`~dealer_assist.central.reader` reads the
central log back in the shapes ``review`` reads a local one; :mod:`~dealer_assist.central.floor`
is the floor view in the browser. The schema is Alembic's (``migrations/``).

Needs the ``central`` extra (psycopg 3, Alembic); the floor view the ``floor`` extra. Nothing
here is imported unless ``--central`` is given. Must not import Qt, OpenCV or the vision code.
"""
