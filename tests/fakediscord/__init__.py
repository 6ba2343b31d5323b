"""A wire-level fake Discord for end-to-end tests of discord.py bots.

The real discord.py client logs in, connects to the gateway, syncs commands and answers
interactions against a local aiohttp server on 127.0.0.1; the test plays the users::

    async def test_hello(fake_discord):          # fixture: started + discord.py patched
        ann = fake_discord.add_user("ann")
        async with fake_discord.running(make_bot()):
            inter = await fake_discord.slash(ann, fake_discord.channel, "sw conquer",
                                             options={"region": 14})
            reply = await fake_discord.wait_for_reply(inter)
            assert "region 14" in reply.content and not reply.ephemeral

World: `guild`, `channel` (defaults), `add_guild`, `add_channel`, `add_role`, `add_user`
(returns a user dict; pass it, or its id, wherever a user is wanted), `join`,
`close_dms` / `open_dms`, `dm_channel`.
Client: `running(client)` (start, wait connected, drain, close), `patch_discord()`,
`wait_for_client`, `gateway_sync` (barrier), `drain`, `disconnect_clients` (forces a
RESUME; `resume_policy = "invalidate"` answers INVALID_SESSION instead), `dispatch`.
Users: `slash`, `autocomplete`, `click`, `select`, `submit_modal`, `say`.
Waiting: `wait_for_reply`, `wait_for_ack`, `wait_for_modal`, `wait_for_message`,
`wait_for_dm`, `wait_for_sync`, `wait_until`.
Records: `messages_in`, `dms_to`, `ephemerals_for`, `last_message`, `command`,
`messages`, `interactions`, `attachments`, `syncs`, `sessions`, `requests`,
`unanswered()`, `unhandled`, `errors` (bugs of the fake), `client_errors` (discord.py
ERROR logs). Times are `time.perf_counter()` values; `Interaction.ack_latency` and
`reply_latency` give dispatch -> callback and dispatch -> first visible reply.

Pass `guild_ready_timeout=0.1` to the bot's constructor: discord.py otherwise waits 2 s
after the last GUILD_CREATE before `on_ready` (and `running()` waits for it on exit).
"""

from .commands import CommandError
from .common import ADMINISTRATOR, ALL_PERMISSIONS, MANAGE_GUILD, DiscordAPIError, FakeDiscordError
from .gateway import Session
from .models import EPHEMERAL, Attachment, Interaction, Message
from .rest import RequestRecord
from .server import FakeDiscord

__all__ = [
    "ADMINISTRATOR",
    "ALL_PERMISSIONS",
    "EPHEMERAL",
    "MANAGE_GUILD",
    "Attachment",
    "CommandError",
    "DiscordAPIError",
    "FakeDiscord",
    "FakeDiscordError",
    "Interaction",
    "Message",
    "RequestRecord",
    "Session",
]
