"""Settings read from the environment and `.env` (see .env.example for every key)."""

from __future__ import annotations

import logging

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    render_processes: int = Field(2, ge=1, le=8)
    discord_api_base: str | None = None
    discord_gateway: str | None = None

    @field_validator("discord_token")
    @classmethod
    def _token_present(cls, v: SecretStr) -> SecretStr:
        if not v.get_secret_value().strip():
            raise ValueError("DISCORD_TOKEN is empty")
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
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v
