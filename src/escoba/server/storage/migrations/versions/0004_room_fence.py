"""Each room's fence: the fencing token of its owner, when several processes serve the site.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every room starts unclaimed (0): the first owner's token, 1 or more, goes above it.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("fence", sa.BigInteger(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("fence")
