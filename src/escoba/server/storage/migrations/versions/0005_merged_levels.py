"""The levels ``expert`` and ``master`` merged into ``hard``: seats that name them now name it.

No measurement told the three apart (docs/ai.md, "The ladder"); the seats of stored rooms keep
playing at the strongest level under its one name.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

MERGED = ("expert", "master")


def upgrade() -> None:
    seats = sa.table("seats", sa.column("level", sa.String(16)))
    op.execute(seats.update().where(seats.c.level.in_(MERGED)).values(level="hard"))


def downgrade() -> None:
    # Which seat was which of the merged levels is not kept: the seats stay ``hard``.
    pass
