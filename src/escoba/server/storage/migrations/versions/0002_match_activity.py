"""Each match's last activity, and an index that finds the unfinished matches by it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
    matches = sa.table("matches", sa.column("id"), sa.column("created_at"), sa.column("active_at"))
    moves = sa.table("moves", sa.column("match_id"), sa.column("played_at"))
    # The newest of the match's creation and its moves: a move played after the creation,
    # if any, is the newer one.
    latest_move = (
        sa.select(sa.func.max(moves.c.played_at))
        .where(moves.c.match_id == matches.c.id, moves.c.played_at > matches.c.created_at)
        .scalar_subquery()
    )
    op.execute(
        sa.update(matches).values(active_at=sa.func.coalesce(latest_move, matches.c.created_at))
    )
    with op.batch_alter_table("matches") as batch:
        batch.alter_column("active_at", existing_type=sa.DateTime(timezone=True), nullable=False)
    op.create_index("ix_matches_live", "matches", ["finished_at", "active_at", "room_id"])


def downgrade() -> None:
    op.drop_index("ix_matches_live", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("active_at")
