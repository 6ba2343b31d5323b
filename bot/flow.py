"""What the bot posts after the service accepted something: summaries, the map, the next
player's panel, coin DMs, the final reveal. Shared by slash commands and components."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot import text
from bot.pictures import draw_ahead, final_file, map_file, row_file
from bot.service import GameService, Outcome, ServiceError, StaleVersion
from bot.store import GameRow, GameStatus
from bot.ui import NO_MENTIONS, display_name, report_error, send
from bot.views import lobby_view, panel_prompt, turn_view

log = logging.getLogger(__name__)

DM_CLOSED = 50007
DEFER_AFTER = 1.0  # seconds to wait for pictures before deferring the interaction
CONTENT_LIMIT = 1900


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


def _clip(lines: list[str]) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > CONTENT_LIMIT:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


# -- lobby ----------------------------------------------------------------------------------


def lobby_content(game: GameRow, note: str | None = None) -> str:
    lines = text.lobby_lines(game)
    if note:
        lines.insert(0, note)
    return "\n".join(lines)


async def lobby_click(interaction: discord.Interaction, game_id: int, op: str) -> None:
    service = service_of(interaction)
    channel_id = interaction.channel_id or 0
    user = interaction.user
    try:
        game = await service.lobby(channel_id)
        if game.id != game_id or game.status is not GameStatus.LOBBY:
            raise StaleVersion("This lobby is closed. Use `/sw status` to see the game here.")
        if op == "join":
            game = await service.join(channel_id, user.id, display_name(user))
        elif op == "leave":
            game = await service.leave(channel_id, user.id)
        else:
            await start_game(interaction, component=True)
            return
    except Exception as exc:  # noqa: BLE001 - refusals and bugs both end in report_error
        await report_error(interaction, exc)
        return
    if game.status is GameStatus.LOBBY:
        await interaction.response.edit_message(content=lobby_content(game), view=lobby_view(game),
                                                allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.edit_message(content="The lobby was closed.", view=None)


async def start_game(interaction: discord.Interaction, *, component: bool = False) -> None:
    from bot.ui import is_moderator

    service = service_of(interaction)
    settings = interaction.client.settings  # type: ignore[attr-defined]
    outcome = await service.start(
        interaction.channel_id or 0,
        interaction.user.id,
        is_mod=is_moderator(interaction, settings.mod_role_id),
    )
    if component:
        await interaction.response.edit_message(view=None)
    await announce(interaction, outcome, picture=True)


# -- actions --------------------------------------------------------------------------------


async def run_action(
    interaction: discord.Interaction,
    action: dict[str, Any],
    *,
    game_id: int | None = None,
    version: int | None = None,
    component: bool = False,
) -> None:
    """Apply one action for the interaction's user and announce what happened."""
    outcome = await service_of(interaction).act(
        interaction.channel_id or 0, interaction.user.id, action, game_id=game_id,
        version=version,
    )
    await announce(interaction, outcome, retire=component)


async def run_undo(
    interaction: discord.Interaction, *, version: int | None = None, component: bool = False
) -> None:
    outcome = await service_of(interaction).undo(
        interaction.channel_id or 0, interaction.user.id, version=version
    )
    await announce(interaction, outcome, retire=component)


async def button_click(
    interaction: discord.Interaction, game_id: int, version: int, verb: str
) -> None:
    try:
        if verb == "map":
            await show_map(interaction, ephemeral=True)
        elif verb == "undo":
            await run_undo(interaction, version=version, component=True)
        elif verb in ("roll", "decline", "end"):
            await run_action(interaction, {"do": verb}, game_id=game_id, version=version,
                             component=True)
        else:
            raise StaleVersion("This button is no longer in use. Use `/sw status`.")
    except Exception as exc:  # noqa: BLE001 - everything ends in report_error
        await report_error(interaction, exc)


async def select_click(
    interaction: discord.Interaction, game_id: int, version: int, action: dict[str, Any]
) -> None:
    try:
        await run_action(interaction, action, game_id=game_id, version=version, component=True)
    except Exception as exc:  # noqa: BLE001
        await report_error(interaction, exc)


async def show_map(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    loaded = await service_of(interaction).last_view(interaction.channel_id or 0)
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    picture = await map_file(loaded.state)
    obs_round = getattr(loaded.state, "round", "?")
    caption = f"Game #{loaded.game.id} — round {obs_round}."
    if picture is None:
        caption += " (The map picture is not available right now.)"
    await interaction.followup.send(caption, file=picture or discord.utils.MISSING,
                                    ephemeral=ephemeral)


def _highlight(events: list[dict[str, Any]]) -> tuple[int, ...]:
    regions = [e["region"] for e in events
               if e.get("type") == "conquered" and isinstance(e.get("region"), int)]
    return tuple(dict.fromkeys(regions))


async def announce(
    interaction: discord.Interaction,
    outcome: Outcome,
    *,
    picture: bool = False,
    retire: bool = False,
) -> None:
    """Post the public summary (+ map after a turn), the next panel, then the private DMs."""
    service = service_of(interaction)
    lines = list(outcome.public)
    needs_picture = picture or outcome.turn_ended or outcome.turn_started or outcome.finished
    # pictures are drawn in a worker while the panel is worked out here
    map_task = (asyncio.ensure_future(
        map_file(outcome.state, outcome.highlight or _highlight(outcome.events)))
        if needs_picture else None)
    final_task = asyncio.ensure_future(final_file(outcome.state)) if outcome.finished else None
    row_task = None
    try:
        view = None
        panel = outcome.panel
        ping: list[discord.Object] = []
        if panel is None and not outcome.finished:
            try:
                panel = await service.panel(outcome.game.channel_id)
            except ServiceError:
                panel = None
        if panel is not None and panel.actor is not None:
            if outcome.turn_started and panel.actor_id and not panel.is_defender:
                lines.append(f"<@{panel.actor_id}>, it is your turn.")
            lines.append(panel_prompt(panel))
            view = turn_view(panel)
            if panel.actor_id and panel.actor_id != interaction.user.id:
                ping.append(discord.Object(id=panel.actor_id))
        if needs_picture and panel is not None and panel.picks:
            row_task = asyncio.ensure_future(row_file(outcome.state))
        tasks = [t for t in (map_task, row_task, final_task) if t is not None]
        files: list[discord.File] = []
        if tasks:
            # most pictures are ready at once (drawn ahead, or quick): answer with them in
            # one message; only a slow one makes the bot defer ("thinking…") first
            _, pending = await asyncio.wait(tasks, timeout=DEFER_AFTER)
            if pending and not interaction.response.is_done():
                await interaction.response.defer(thinking=not retire)
            files = [f for f in [await t for t in tasks] if f is not None]
    finally:
        for task in (map_task, row_task, final_task):
            if task is not None and not task.done():
                task.cancel()
    if outcome.finished:
        lines.extend(_final_lines(outcome))
    content = _clip(lines) or "Done."
    await send(interaction, content, files=files or None, view=view,
               allowed_mentions=discord.AllowedMentions(users=ping, everyone=False, roles=False))
    for notice in outcome.notices:  # e.g. the league result, after the final reveal
        try:
            await interaction.followup.send(notice, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("could not post a notice for game %s: %s", outcome.game.id, exc)
    if (panel is not None and panel.can_end and not panel.is_defender
            and (panel.stage == "redeploy" or not panel.targets)):
        # little else to do but end: draw the map (and row) that `end` would post. Guessing
        # after every conquest too was measured worse (bench/bot.py): twice the CPU, and the
        # right guesses waited behind the wrong ones.
        draw_ahead(service, outcome)
    elif any(e.get("type") == "picked" for e in outcome.events):
        draw_ahead(service, outcome, "row")  # shown again when someone next must pick
    elif panel is not None and panel.can_end and not panel.is_defender:
        draw_ahead(service, outcome, "maybe")
    if retire and interaction.message is not None:
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException:
            log.debug("could not retire panel %s", interaction.message.id)
    await deliver_private(interaction, outcome)


def _final_lines(outcome: Outcome) -> list[str]:
    import engine

    obs = engine.observe(outcome.state, None, reveal_all=True)
    return text.ranking_lines(obs.get("ranking"), obs.get("players", {}))


async def deliver_private(interaction: discord.Interaction, outcome: Outcome) -> None:
    """DM each player their own coin lines; closed DMs fall back to an ephemeral followup."""
    if outcome.finished:
        return  # the totals were just revealed in the channel
    client = interaction.client
    channel = f"<#{outcome.game.channel_id}>"
    for user_id, lines in outcome.private.items():
        body = f"Small World game #{outcome.game.id} in {channel}:\n" + "\n".join(lines)
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(body)
        except discord.Forbidden as exc:
            if exc.code == DM_CLOSED and user_id == interaction.user.id:
                await interaction.followup.send(
                    body + "\n(Your DMs are closed, so here it is privately.)", ephemeral=True
                )
            else:
                log.info("cannot DM coins to %s (code %s)", user_id, exc.code)
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", user_id, exc)
