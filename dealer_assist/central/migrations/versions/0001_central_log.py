"""The central event log: sessions, hands, events, corrections and snapshots of every table.

Each row keeps the ids the table's own SQLite log gave it (``seq``, ``local_id``) under a unique
key, so a table that sends a row twice (it lost the answer to a commit in an outage) changes
nothing. ``arrival`` numbers the events in the order the central log received them.

Revision ID: 0001
Revises:
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("table_name", sa.Text, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),          # as the table's review lists it
        sa.Column("origin", sa.Text, nullable=False, unique=True),  # host|log file|local session|start
        sa.Column("started", sa.Float, nullable=False),           # unix time
        sa.Column("ended", sa.Float),
        sa.Column("source", sa.Text, nullable=False, server_default=""),
        sa.Column("game", sa.Text, nullable=False, server_default=""),
        sa.Column("calibration", sa.Text),
        sa.Column("models", sa.Text, nullable=False, server_default="{}"),
        sa.Column("app_version", sa.Text, nullable=False, server_default=""),
        sa.UniqueConstraint("table_name", "number"),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("session_id", sa.BigInteger, sa.ForeignKey("sessions.id"), nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("local_id", sa.Integer),                        # hands.id in the table's log
        sa.Column("started_t", sa.Float), sa.Column("ended_t", sa.Float),
        sa.Column("started_frame", sa.Integer), sa.Column("ended_frame", sa.Integer),
        sa.Column("started_wall", sa.Float, nullable=False), sa.Column("ended_wall", sa.Float),
        sa.Column("status", sa.Text, nullable=False, server_default="open"),
        sa.Column("street", sa.Text, nullable=False, server_default="preflop"),
        sa.Column("seats", sa.Text), sa.Column("button", sa.Integer),
        sa.Column("ruling", sa.Text),
        sa.Column("board", sa.Text, nullable=False, server_default="[]"),
        sa.Column("won_without_showdown", sa.Integer),
        sa.Column("revealed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("session_id", "hand"),
        sa.CheckConstraint("status IN ('open', 'ended')", name="hands_status"),
    )
    op.create_table(
        "events",
        sa.Column("arrival", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("session_id", sa.BigInteger, sa.ForeignKey("sessions.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("hand_id", sa.BigInteger, sa.ForeignKey("hands.id")),
        sa.Column("t", sa.Float), sa.Column("frame", sa.Integer),
        sa.Column("type", sa.Text, nullable=False),
        sa.Column("wall", sa.Float, nullable=False),
        sa.Column("json", sa.Text, nullable=False),               # the event as the floor may see it
        sa.Column("withheld", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("received", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.UniqueConstraint("session_id", "seq"),
    )
    op.create_index("events_by_hand", "events", ["hand_id", "seq"])
    op.create_table(
        "corrections",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("session_id", sa.BigInteger, sa.ForeignKey("sessions.id"), nullable=False),
        sa.Column("local_id", sa.Integer, nullable=False),
        sa.Column("hand_id", sa.BigInteger, sa.ForeignKey("hands.id")),
        sa.Column("t", sa.Float), sa.Column("frame", sa.Integer),
        sa.Column("zone", sa.Text), sa.Column("card", sa.Text), sa.Column("to_card", sa.Text),
        sa.Column("after_seq", sa.Integer, nullable=False),
        sa.Column("wall", sa.Float, nullable=False),
        sa.Column("json", sa.Text, nullable=False),
        sa.Column("withheld", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("session_id", "local_id"),
    )
    op.create_table(
        "snapshots",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("session_id", sa.BigInteger, sa.ForeignKey("sessions.id"), nullable=False),
        sa.Column("local_id", sa.Integer, nullable=False),
        sa.Column("event_seq", sa.Integer, nullable=False),
        sa.Column("frame", sa.Integer), sa.Column("t", sa.Float),
        sa.Column("jpeg", sa.LargeBinary),
        sa.Column("same_as", sa.Integer),                          # local_id of the snapshot holding the image
        sa.UniqueConstraint("session_id", "local_id"),
    )


def downgrade() -> None:
    for name in ("snapshots", "corrections", "events", "hands", "sessions"):
        op.drop_table(name)
