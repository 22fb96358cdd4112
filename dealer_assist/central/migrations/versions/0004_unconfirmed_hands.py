"""Hands paid on a provisional ruling: ``hands.unconfirmed`` marks a hand that ended with doubtful
cards the dealer never confirmed (its ruling still ``"provisional": true``), so the floor view can
count each table's such hands without reading every ruling. Existing hands are marked from their
stored ruling. ``checks`` records each time the floor marks such a hand's cards checked (from the
snapshots or the table itself): the hand then leaves the count. Like the disputes, the checks are
the floor's: a table's role has no grant on them.

Revision ID: 0004
Revises: 0003
"""
import json

from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("unconfirmed", sa.Boolean, nullable=False, server_default=sa.false()))
    con = op.get_bind()
    marked = []
    for hid, text in con.execute(sa.text(
            "SELECT id, ruling FROM hands WHERE status = 'ended' AND strpos(ruling, '\"provisional\"') > 0")):
        try:
            ruling = json.loads(text)
        except ValueError:              # not a ruling that can be read: not marked
            continue
        if isinstance(ruling, dict) and ruling.get("provisional") is True:
            marked.append(hid)
    if marked:
        con.execute(sa.text("UPDATE hands SET unconfirmed = TRUE WHERE id = ANY(:ids)"), {"ids": marked})
    op.create_index("hands_unconfirmed", "hands", ["session_id"], postgresql_where=sa.text("unconfirmed"))
    op.create_table(
        "checks",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("hand_id", sa.BigInteger, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("checked", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("checks_by_hand", "checks", ["hand_id"])


def downgrade() -> None:
    op.drop_table("checks")
    op.drop_index("hands_unconfirmed", table_name="hands")
    op.drop_column("hands", "unconfirmed")
