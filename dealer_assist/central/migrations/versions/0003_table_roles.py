"""Who may write what: a table's database role reads and writes only its own table's rows.

A table's role is a member of ``dealer_assist_table`` and is named in ``table_roles`` with its
table; row-level security then lets it see, insert and update only the sessions of that table
and their hands, events, corrections and snapshots (never another table's, never the disputes).
Any other role with the grants (the floor's, the owner) reads everything as before.

    CREATE ROLE t12 LOGIN PASSWORD '...' IN ROLE dealer_assist_table;
    INSERT INTO table_roles (role_name, table_name) VALUES ('t12', 'T12');

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

GROUP = "dealer_assist_table"
_OWN_SESSION = "session_id IN (SELECT id FROM sessions WHERE table_name = dealer_assist_own_table())"
_LOGGED = ("sessions", "hands", "events", "corrections", "snapshots")


def upgrade() -> None:
    op.create_table(
        "table_roles",
        sa.Column("role_name", sa.Text, primary_key=True),
        sa.Column("table_name", sa.Text, nullable=False),
    )
    # roles belong to the server, not to one database: made once
    op.execute(f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{GROUP}') "
               f"THEN CREATE ROLE {GROUP} NOLOGIN; END IF; END $$")
    op.execute("CREATE FUNCTION dealer_assist_own_table() RETURNS text LANGUAGE sql STABLE "
               "AS $$ SELECT table_name FROM table_roles WHERE role_name = current_user $$")
    op.execute(f"GRANT USAGE ON SCHEMA public TO {GROUP}")
    op.execute(f"GRANT SELECT ON table_roles, central_schema_version TO {GROUP}")
    op.execute(f"GRANT SELECT, INSERT, UPDATE ON {', '.join(_LOGGED)} TO {GROUP}")
    op.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {GROUP}")
    for name in _LOGGED:
        own = "table_name = dealer_assist_own_table()" if name == "sessions" else _OWN_SESSION
        op.execute(f"ALTER TABLE {name} ENABLE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY own_table ON {name} FOR ALL TO {GROUP} USING ({own}) WITH CHECK ({own})")
        op.execute(f"CREATE POLICY readers ON {name} FOR SELECT TO PUBLIC "
                   f"USING (NOT pg_has_role(current_user, '{GROUP}', 'MEMBER'))")


def downgrade() -> None:
    for name in _LOGGED:
        op.execute(f"DROP POLICY IF EXISTS own_table ON {name}")
        op.execute(f"DROP POLICY IF EXISTS readers ON {name}")
        op.execute(f"ALTER TABLE {name} DISABLE ROW LEVEL SECURITY")
    op.execute("DROP FUNCTION IF EXISTS dealer_assist_own_table()")
    op.drop_table("table_roles")
