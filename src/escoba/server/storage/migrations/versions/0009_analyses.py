"""Match analyses: each finished match's analysis, queued, running (claimed with a lease by one
process) or done, with the moves analysed so far.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(512), nullable=True),
    )
    # The runners' queue: the oldest analysis waiting (or whose lease ran out) first.
    op.create_index("ix_analyses_queue", "analyses", ["status", "requested_at"])


def downgrade() -> None:
    op.drop_index("ix_analyses_queue", table_name="analyses")
    op.drop_table("analyses")
