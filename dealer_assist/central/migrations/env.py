"""Alembic's environment for the central event log: run with the connection the caller gives
(``config.attributes["connection"]``, see :func:`dealer_assist.central.schema.upgrade`)."""
from alembic import context

try:
    config = context.config
except AttributeError:          # imported outside a migration (pytest's doctest collection): nothing to do
    config = None

if config is not None:
    context.configure(connection=config.attributes["connection"], target_metadata=None,
                      version_table="central_schema_version")
    with context.begin_transaction():
        context.run_migrations()
