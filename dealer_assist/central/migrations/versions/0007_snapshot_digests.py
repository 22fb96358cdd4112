"""Each snapshot's digest: ``snapshots.sha256`` keeps the SHA-256 (hex) the table's own hand log
wrote beside the image (hand-log schema 3), so the central log refuses bytes changed since, on
the table's disk before they were sent or here after. NULL where ``same_as`` holds the image, and
in the rows of snapshots sent before this revision or from a hand log older than schema 3 (no
digest to check).

Revision ID: 0007
Revises: 0006
"""
from alembic import op
import sqlalchemy as sa

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("snapshots", sa.Column("sha256", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("snapshots", "sha256")
