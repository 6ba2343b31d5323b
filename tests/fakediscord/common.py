"""Errors, constants and the JSON reply shared by the fake Discord modules."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

API_VERSION = 10
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

# Permission bits the fake hands out.
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
)
ALL_PERMISSIONS = (1 << 50) - 1

SELECT_TYPES = (3, 5, 6, 7, 8)


class FakeDiscordError(AssertionError):
    """A test used the fake wrongly or the bot did not behave as Discord requires."""


class DiscordAPIError(Exception):
    """Raised inside request handlers; becomes a Discord-shaped JSON error reply."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def json_reply(data: Any, status: int = 200) -> web.Response:
    """A Discord-shaped JSON response."""
    # discord.py only parses JSON when the header is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )
