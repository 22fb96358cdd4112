"""Who on the floor: ``checks.staff`` and ``disputes.staff`` keep the name a floor manager gave on
the floor page when they marked a hand's cards checked or recorded a dispute (the page asks for it;
the shared access token says only that someone on the floor did). Records made before this
revision keep no name (NULL).

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("checks", sa.Column("staff", sa.Text, nullable=True))
    op.add_column("disputes", sa.Column("staff", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("disputes", "staff")
    op.drop_column("checks", "staff")
