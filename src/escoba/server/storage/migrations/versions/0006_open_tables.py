"""Open tables: a room may be listed in the lobby, watched from it, and says its creator's
language.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every room made before is private, found by its link only, as it was.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("watchable", sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch.add_column(sa.Column("language", sa.String(8), nullable=False, server_default="en"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("language")
        batch.drop_column("watchable")
        batch.drop_column("listed")
