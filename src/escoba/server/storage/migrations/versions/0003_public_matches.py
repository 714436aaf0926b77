"""A finished match its players made public, and the seats found by their token.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    # The public list is the finished matches whose players opened them, newest first.
    op.create_index("ix_matches_public", "matches", ["public", "finished_at"])
    # "Your matches" finds a browser's seats by the hashes of the tokens it holds.
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])


def downgrade() -> None:
    op.drop_index("ix_seats_token_hash", table_name="seats")
    op.drop_index("ix_matches_public", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("public")
