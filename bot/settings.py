"""Settings read from the environment and `.env` (see .env.example for every key)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.clock import ClockRules, Duration
from bot.store import Shards, database_path, dialect_of


class Settings(BaseSettings):
    """Every knob of the bot; names match the environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr
    database_url: str = "sqlite:///smallworld.db"
    mod_role_id: int | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    render_processes: int = Field(0, ge=0, le=8)  # 0: sized from the host (bot.workers)
    discord_api_base: str | None = None
    discord_gateway: str | None = None
    # read by engine/ and render/ themselves (they take no Settings); `export()` hands them on
    smallworld_data_dir: Path | None = None
    smallworld_render_cache: str | None = None
    # AI players and the turn clock
    ai_processes: int = Field(1, ge=1, le=8)
    ai_turn_delay: float = Field(3.0, ge=0, le=600)
    # a finished game's key-moments review: playouts per assessment and the AI level whose
    # turns are set beside the ones played (bench/review.py prints the CPU per game)
    review_work: int = Field(32, ge=1, le=256)
    review_level: Literal["easy", "normal", "hard", "expert"] = "hard"
    clock_survivor_limit: Duration = 300
    clock_away_after: int = Field(2, ge=1, le=50)
    clock_min_limit: Duration = 60

    @field_validator("clock_survivor_limit", "clock_min_limit")
    @classmethod
    def _not_off(cls, v: int | None) -> int:
        if v is None:
            raise ValueError("must be a duration like 90s or 5m, not off")
        return v

    def clock_rules(self) -> ClockRules:
        return ClockRules(survivor_limit=float(self.clock_survivor_limit or 300),
                          away_after=self.clock_away_after, ai_delay=self.ai_turn_delay,
                          min_limit=int(self.clock_min_limit or 60))
    shard_count: int | None = Field(None, ge=1)
    shard_ids: str | None = None  # "0,1,2" or "0-3"; see shard_id_list()
    # the board page (bot/web; docs/web.md): off unless WEB_PORT is set
    web_port: int | None = Field(None, ge=0, le=65535)  # 0: any free port (tests)
    web_host: str = "127.0.0.1"
    web_public_url: str | None = None  # https://board.example.org (what members open)
    discord_client_secret: SecretStr | None = None  # OAuth2: the application's client secret
    discord_activity: bool = False  # the application has Activities on (Developer Portal)
    web_session_hours: float = Field(12.0, gt=0, le=24 * 30)

    @property
    def web_on(self) -> bool:
        return self.web_port is not None

    def shard_id_list(self) -> list[int] | None:
        """The shards this process runs (None: all of them)."""
        if self.shard_ids is None:
            return None
        out: list[int] = []
        for part in self.shard_ids.split(","):
            part = part.strip()
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                out.extend(range(lo, hi + 1))
            elif part:
                out.append(int(part))
        return out

    def shards(self) -> Shards | None:
        """The shards of this process when other processes serve the rest (their games'
        deadlines are theirs to claim); None when this process runs every shard."""
        ids = self.shard_id_list()
        if self.shard_count is None or ids is None or len(ids) >= self.shard_count:
            return None
        return Shards(self.shard_count, tuple(ids))

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            try:
                ids = self.shard_id_list() or []
            except ValueError:
                raise ValueError(f"SHARD_IDS must look like 0,1,2 or 0-3, got {self.shard_ids!r}"
                                 ) from None
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the total over all processes)")
            bad = [i for i in ids if not 0 <= i < self.shard_count]
            if not ids or bad or len(set(ids)) != len(ids):
                raise ValueError(f"SHARD_IDS must be distinct numbers from 0 to "
                                 f"{self.shard_count - 1}, got {self.shard_ids!r}")
            if (len(ids) < self.shard_count
                    and dialect_of(self.database_url) == "sqlite"):
                raise ValueError(
                    "SHARD_IDS splits the shards over several processes, but SQLite serves "
                    "one process only: run every shard in one process (leave SHARD_IDS "
                    "empty) or use PostgreSQL (DATABASE_URL=postgresql://...)")
        return self

    @model_validator(mode="after")
    def _web_complete(self) -> Settings:
        if self.web_port is None:
            if self.discord_activity:
                raise ValueError("DISCORD_ACTIVITY needs the board page: set WEB_PORT, "
                                 "WEB_PUBLIC_URL and DISCORD_CLIENT_SECRET")
            return self
        missing = []
        if not (self.web_public_url or "").strip():
            missing.append("WEB_PUBLIC_URL")
        secret = self.discord_client_secret
        if secret is None or not secret.get_secret_value().strip():
            missing.append("DISCORD_CLIENT_SECRET")
        if missing:
            raise ValueError(f"WEB_PORT turns the board page on, which also needs "
                             f"{' and '.join(missing)} (see .env.example)")
        url = str(self.web_public_url)
        if not url.startswith(("https://", "http://")):
            raise ValueError(f"WEB_PUBLIC_URL must start with https:// (got {url!r})")
        self.web_public_url = url.rstrip("/")
        return self

    @field_validator("discord_token")
    @classmethod
    def _token_present(cls, v: SecretStr) -> SecretStr:
        if not v.get_secret_value().strip():
            raise ValueError("DISCORD_TOKEN is empty")
        return v

    @field_validator("database_url")
    @classmethod
    def _usable_database(cls, v: str) -> str:
        """Refuse a URL the store cannot open now, not after logging in to Discord."""
        if dialect_of(v) == "postgresql":
            return v  # reachable or not is known only when connecting
        path = database_path(v)  # ValueError names the accepted forms
        if path != ":memory:":
            for parent in Path(path).expanduser().absolute().parents:
                if parent.exists():
                    if not parent.is_dir():
                        raise ValueError(f"{parent} is a file, not a folder")
                    break
        return v

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, v: str) -> str:
        level = v.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown LOG_LEVEL {v!r}")
        return level

    @field_validator(
        "mod_role_id", "dev_guild_id", "discord_api_base", "discord_gateway",
        "smallworld_data_dir", "smallworld_render_cache", "shard_count", "shard_ids",
        "web_port", "web_public_url", "discord_client_secret", mode="before",
    )
    @classmethod
    def _blank_is_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    @field_validator("smallworld_data_dir")
    @classmethod
    def _has_boards(cls, v: Path | None) -> Path | None:
        if v is not None and not (v.expanduser() / "boards").is_dir():
            raise ValueError(f"{v} is not a data folder (it has no boards/); leave it blank")
        return v

    def export(self) -> None:
        """Put the settings that engine/ and render/ read from the environment there (a value
        from .env reaches them, and the drawing worker processes, too). Call before the
        engine is imported: it reads SMALLWORLD_DATA_DIR once."""
        for key, value in (("SMALLWORLD_DATA_DIR", self.smallworld_data_dir),
                           ("SMALLWORLD_RENDER_CACHE", self.smallworld_render_cache)):
            if value is not None:
                os.environ[key] = str(value)
