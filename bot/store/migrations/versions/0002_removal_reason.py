"""A moderator's reason for removing a price report; indexes for per-server summaries and expiry.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A nullable column with no default: a plain ALTER TABLE ... ADD COLUMN on both backends.
    op.add_column("price_reports", sa.Column("removal_reason", sa.String(200)))
    op.create_index("ix_price_reports_guild_gpu_reported", "price_reports", ["guild_id", "gpu_id", "reported_at"])
    op.create_index("ix_conversations_expires_at", "conversations", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_conversations_expires_at", table_name="conversations")
    op.drop_index("ix_price_reports_guild_gpu_reported", table_name="price_reports")
    with op.batch_alter_table("price_reports") as batch:
        batch.drop_column("removal_reason")
