"""Floor staff who sign in: ``floor_staff`` holds one row a person on the floor (their name, the
SHA-256 of their own access token, when it was made and when it was revoked). A check or a dispute
made with a person's own token keeps that row in ``checks.staff_id`` / ``disputes.staff_id``
beside the name: the name then comes from the token, not from what was typed on the page. Records
made before, or with the event's shared token, keep ``staff_id`` NULL. Like the checks and the
disputes, the accounts are the floor's: a table's role has no grant on them.

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "floor_staff",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_sha256", sa.Text, nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("revoked", sa.DateTime(timezone=True), nullable=True),
    )
    # one person of a name at a time: a revoked name may be given again
    op.create_index("floor_staff_active_name", "floor_staff", ["name"], unique=True,
                    postgresql_where=sa.text("revoked IS NULL"))
    op.add_column("checks", sa.Column("staff_id", sa.BigInteger, sa.ForeignKey("floor_staff.id"), nullable=True))
    op.add_column("disputes", sa.Column("staff_id", sa.BigInteger, sa.ForeignKey("floor_staff.id"), nullable=True))


def downgrade() -> None:
    op.drop_column("disputes", "staff_id")
    op.drop_column("checks", "staff_id")
    op.drop_index("floor_staff_active_name", table_name="floor_staff")
    op.drop_table("floor_staff")
