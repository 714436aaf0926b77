"""Clocks and abandonment: a room's time control, each match's clocks (reserves, timeouts,
deadline), and how a match ended other than by its score (``abandoned``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every room made before has no clock, as it had none.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("ended", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("ended")
        batch.drop_column("clock")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("clock")
