"""Disputes: each time a floor manager opens a hand from the floor view.

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "disputes",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("hand_id", sa.BigInteger, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("opened", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("disputes_by_hand", "disputes", ["hand_id"])


def downgrade() -> None:
    op.drop_table("disputes")
