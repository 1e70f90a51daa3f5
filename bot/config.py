"""Settings from the environment or ``.env`` (pydantic-settings). Every setting is in .env.example.

The token is a ``SecretStr`` so it never appears in a repr, a log line or an error message.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr | None = None
    discord_api_base: str = DISCORD_API_BASE
    discord_gateway_url: str = DISCORD_GATEWAY_URL
    database_url: str | None = Field(default=None, description="unset: SQLite under data_dir")
    data_dir: Path = Field(default=Path("var"), description="where the SQLite file lives")
    community_price_cache_seconds: float = Field(default=300, ge=0)
    settings_cache_seconds: float = Field(default=30, ge=0)
    shard_count: int | None = Field(default=None, ge=1, description="unset: Discord's recommendation")
    shard_ids: list[int] | None = Field(default=None, description="this process's shards, e.g. [0,1]")
    sync_commands: bool = Field(default=True, description="only one process should sync application commands")
    message_content: bool = Field(default=False, description="privileged intent: read advice channels")
    advice_channel_ids: list[int] = Field(default_factory=list)
    default_currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$")
    electricity_usd_per_kwh: Decimal = Field(default=Decimal("0.12"), ge=0, le=100)
    chat_cooldown_seconds: float = Field(default=3.0, ge=0)
    command_cooldown_seconds: float = Field(default=2.0, ge=0)
    guild_ready_timeout: float = Field(default=2.0, ge=0)
    log_level: str = "INFO"
    log_json: bool | None = Field(default=None, description="unset: JSON when stderr is not a terminal")
    log_excerpts: bool = Field(
        default=False, description="chat log lines carry a scrubbed 40-character excerpt (default: no user text)"
    )
    log_discord_debug: bool = Field(
        default=False,
        description="let discord.py's gateway/http/client loggers go below INFO: their DEBUG lines hold message "
        "contents and interaction tokens (debugging against a test server only)",
    )
    health_port: int | None = Field(default=None, ge=1, le=65535, description="unset: no /healthz, /metrics")
    health_host: str = "127.0.0.1"
    shutdown_grace_seconds: float = Field(default=8.0, ge=0, le=60)
    database_timeout_seconds: float = Field(
        default=0.75,
        gt=0,
        le=2.5,
        description="a look-up (settings, language, prices, conversation) waits at most this long for the "
        "database, then answers with the last known value or the defaults",
    )
    database_connect_timeout_seconds: float = Field(
        default=2.0, gt=0, le=60, description="getting a database connection; longer counts as the database down"
    )
    database_start_timeout_seconds: float = Field(
        default=30.0, ge=0, le=600, description="at start-up, how long to retry a database that is not reachable yet"
    )
    reply_retry_seconds: float = Field(
        default=30.0, ge=0, le=600, description="how long a chat reply or a follow-up is retried after a 429 or 5xx"
    )
    defer_after_seconds: float = Field(
        default=1.5, gt=0, le=2.5, description="a slash answer not sent by then is acknowledged with 'thinking…'"
    )
    charts_warm_up: bool = Field(
        default=False,
        description="load matplotlib and fonts right after READY "
        "(≈55 MB more from the start, first chart as fast as the rest); false: "
        "they load with the first chart asked for",
    )

    @field_validator("shard_ids", "advice_channel_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        """Accept "0,1" and a single "0" as well as JSON "[0, 1]" from the environment."""
        if isinstance(value, int):
            return [value]
        if isinstance(value, str) and not value.strip().startswith("["):
            return [int(part) for part in value.split(",") if part.strip()]
        return value
