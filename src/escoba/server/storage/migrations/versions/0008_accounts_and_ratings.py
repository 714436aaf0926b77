"""Accounts and ratings: accounts with their passkeys, sessions and passkey ceremonies, failed
sign-ins, each match's players with an account, ratings and their history, fair-play flags;
a room may be rated, a seat names its account, a match says what it did to ratings.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _moment(name: str, *, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(64), nullable=True),
        sa.Column("username_key", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        _moment("created_at"),
        sa.Column("disabled", sa.Boolean(), nullable=False, server_default=sa.false()),
        _moment("deleted_at", nullable=True),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(1024), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        _moment("created_at"),
        _moment("used_at", nullable=True),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        _moment("created_at"),
        _moment("seen_at"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "passkey_flows",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("username", sa.String(64), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        _moment("expires_at"),
    )
    op.create_index("ix_passkey_flows_expires_at", "passkey_flows", ["expires_at"])
    op.create_index("ix_passkey_flows_address", "passkey_flows", ["address"])
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(128), nullable=False),
        _moment("at"),
    )
    op.create_index("ix_sign_in_failures_key_at", "sign_in_failures", ["key", "at"])
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_match_players_account_id", "match_players", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        _moment("played_at"),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        _moment("at"),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
    op.create_table(
        "fair_play_flags",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("accounts", sa.JSON(), nullable=False),
        _moment("at"),
    )
    op.create_index("ix_fair_play_flags_match_id", "fair_play_flags", ["match_id"])
    # Every room made before is casual, every seat anonymous, as they were.
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_seats_account_id", "accounts", ["account_id"], ["id"])
        batch.create_index("ix_seats_account_id", ["account_id"])
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("rating", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rating")
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_constraint("fk_seats_account_id", type_="foreignkey")
        batch.drop_column("account_id")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
    for table in (
        "fair_play_flags",
        "rating_changes",
        "ratings",
        "match_players",
        "sign_in_failures",
        "passkey_flows",
        "sessions",
        "passkeys",
        "accounts",
    ):
        op.drop_table(table)
