"""Initial schema: guild settings, price reports, feedback, conversations.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("currency", sa.String(3)),
        sa.Column("electricity_micros", sa.BigInteger()),
        sa.Column("locale", sa.String(8)),
        sa.Column("advice_channel_id", sa.BigInteger()),
        sa.Column("use_community_prices", sa.Boolean()),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("updated_by", sa.BigInteger()),
        sa.PrimaryKeyConstraint("guild_id", name="pk_guild_settings"),
    )
    op.create_table(
        "price_reports",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("guild_id", sa.BigInteger()),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("gpu_id", sa.String(64), nullable=False),
        sa.Column("amount_hundredths", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("condition", sa.String(4), nullable=False),
        sa.Column("place", sa.String(200), nullable=False),
        sa.Column("reported_at", sa.DateTime(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("removed_at", sa.DateTime()),
        sa.Column("removed_by", sa.BigInteger()),
        sa.PrimaryKeyConstraint("id", name="pk_price_reports"),
        sa.CheckConstraint("amount_hundredths > 0", name="ck_price_reports_amount_positive"),
        sa.CheckConstraint("condition IN ('new', 'used')", name="ck_price_reports_condition"),
    )
    op.create_index("ix_price_reports_gpu_reported", "price_reports", ["gpu_id", "reported_at"])
    op.create_index("ix_price_reports_user_gpu_reported", "price_reports", ["user_id", "gpu_id", "reported_at"])
    op.create_table(
        "feedback",
        sa.Column("answer_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("vote", sa.SmallInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger()),
        sa.Column("channel_id", sa.BigInteger()),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("task", sa.String(32)),
        sa.Column("query_json", sa.Text(), nullable=False),
        sa.Column("headline", sa.String(500), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("answer_id", "user_id", name="pk_feedback"),
        sa.CheckConstraint("vote IN (-1, 1)", name="ck_feedback_vote"),
    )
    op.create_index("ix_feedback_updated_at", "feedback", ["updated_at"])
    op.create_table(
        "conversations",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("query_json", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "channel_id", name="pk_conversations"),
    )


def downgrade() -> None:
    op.drop_table("conversations")
    op.drop_index("ix_feedback_updated_at", table_name="feedback")
    op.drop_table("feedback")
    op.drop_index("ix_price_reports_user_gpu_reported", table_name="price_reports")
    op.drop_index("ix_price_reports_gpu_reported", table_name="price_reports")
    op.drop_table("price_reports")
    op.drop_table("guild_settings")
