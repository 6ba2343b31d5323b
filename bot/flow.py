"""What the bot posts after the service accepted something: summaries, the map, the next
player's panel, coin DMs, the final reveal. Shared by slash commands and components."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import discord

from bot import text
from bot.service import GameService, Outcome, ServiceError, StaleVersion
from bot.store import GameRow, GameStatus
from bot.ui import NO_MENTIONS, display_name, report_error, send
from bot.views import lobby_view, panel_prompt, turn_view

log = logging.getLogger(__name__)

DM_CLOSED = 50007
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


# -- pictures (rendered off the event loop) -------------------------------------------------


# One drawing thread: several would hold the GIL in turns and starve the event loop (every
# socket read or write of the loop would wait for a switch interval behind each of them).
# `python -m bot` draws in a worker process instead (use_render_process), so the event loop
# keeps the GIL to itself and the drawing uses another core.
_RENDER_POOL: Executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
_rendering = 0  # pictures someone waits for, queued or being drawn
MAX_AHEAD = 2  # end-of-turn maps drawn ahead at once (see prerender_end)


def use_render_process() -> None:
    """Draw pictures in one worker process (started now, its board layers built lazily)."""
    global _RENDER_POOL
    import multiprocessing

    old = _RENDER_POOL
    _RENDER_POOL = ProcessPoolExecutor(max_workers=1,
                                       mp_context=multiprocessing.get_context("spawn"))
    old.shutdown(wait=False)


def stop_rendering() -> None:
    """Release the drawing worker (process pool) at shutdown; threads need nothing."""
    if isinstance(_RENDER_POOL, ProcessPoolExecutor):
        _RENDER_POOL.shutdown(wait=False, cancel_futures=True)


def _draw(name: str, state: Any, kwargs: dict[str, Any]) -> bytes:
    """Runs in the drawing thread or process."""
    import render

    return getattr(render, name)(state, **kwargs)


def render_idle() -> bool:
    """No picture that someone waits for is queued or being drawn."""
    return _rendering == 0


async def _render(name: str, state: Any, *, ahead: bool = False,
                  **kwargs: Any) -> bytes | None:
    """PNG bytes from render.<name>, drawn off the event loop; None if unavailable."""
    try:
        import render
    except ImportError:
        return None
    if getattr(render, name, None) is None:
        return None
    global _rendering
    waited = 0 if ahead else 1
    _rendering += waited
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_RENDER_POOL, _draw, name, state, kwargs)
    except Exception:
        log.exception("render.%s failed", name)
        return None
    finally:
        _rendering -= waited


async def _picture(name: str, state: Any, filename: str, **kwargs: Any) -> discord.File | None:
    png = await _render(name, state, **kwargs)
    return None if png is None else discord.File(io.BytesIO(png), filename=filename)


# Map pictures by what they show (board, public observation, highlight): a picture drawn in
# advance (see prerender_end) or for /sw map is reused instead of drawn again.
_MAP_CACHE: dict[str, asyncio.Future[bytes | None]] = {}
MAP_CACHE_SIZE = 128


def _map_key(state: Any, highlight: tuple[int, ...]) -> str | None:
    try:
        import engine

        obs = engine.observe(state, None)
        return json.dumps([state.board.id, obs, list(highlight)], sort_keys=True, default=str)
    except Exception:  # noqa: BLE001 - no key: just render
        return None


async def map_png(state: Any, highlight: tuple[int, ...] = (), *,
                  ahead: bool = False) -> bytes | None:
    key = _map_key(state, highlight)
    if key is None:
        return await _render("map_png", state, highlight=highlight, ahead=ahead)
    fut = _MAP_CACHE.get(key)
    if fut is None:
        fut = asyncio.ensure_future(_render("map_png", state, highlight=highlight, ahead=ahead))
        if len(_MAP_CACHE) >= MAP_CACHE_SIZE:
            _MAP_CACHE.pop(next(iter(_MAP_CACHE)))
        _MAP_CACHE[key] = fut
    png = await asyncio.shield(fut)
    if png is None:
        _MAP_CACHE.pop(key, None)
    return png


async def map_file(state: Any, highlight: tuple[int, ...] = ()) -> discord.File | None:
    png = await map_png(state, tuple(highlight))
    return None if png is None else discord.File(io.BytesIO(png), filename="map.png")


_ROW_CACHE: dict[str, bytes] = {}
ROW_CACHE_SIZE = 64


def _row_key(state: Any) -> str | None:
    """The combo row picture depends only on the visible row (combos and coins on them)."""
    try:
        import engine

        return json.dumps(engine.observe(state, None).get("row"), sort_keys=True)
    except Exception:  # noqa: BLE001 - no key: just render
        return None


async def row_file(state: Any, *, ahead: bool = False) -> discord.File | None:
    """The combo row picture; the row changes only when someone picks, so it is cached."""
    key = _row_key(state)
    png = _ROW_CACHE.get(key) if key is not None else None
    if png is None:
        picture = await _picture("row_png", state, "combos.png", ahead=ahead)
        if picture is None or key is None:
            return picture
        png = picture.fp.getvalue()  # type: ignore[attr-defined]
        if len(_ROW_CACHE) >= ROW_CACHE_SIZE:
            _ROW_CACHE.pop(next(iter(_ROW_CACHE)))
        _ROW_CACHE[key] = png
    return discord.File(io.BytesIO(png), filename="combos.png")


async def final_file(state: Any) -> discord.File | None:
    return await _picture("final_png", state, "final.png")


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
    # the map is drawn in a worker thread while the panel is worked out here
    map_task = (asyncio.ensure_future(
        map_file(outcome.state, outcome.highlight or _highlight(outcome.events)))
        if needs_picture else None)
    try:
        if needs_picture and not interaction.response.is_done():
            await interaction.response.defer(thinking=not retire)
        view = None
        panel = None
        ping: list[discord.Object] = []
        if not outcome.finished:
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
        files: list[discord.File] = []
        if map_task is not None:
            row_task = (asyncio.ensure_future(row_file(outcome.state))
                        if panel is not None and panel.picks else None)
            pic = await map_task
            if pic is not None:
                files.append(pic)
            if row_task is not None:
                row = await row_task
                if row is not None:
                    files.append(row)
    finally:
        if map_task is not None and not map_task.done():
            map_task.cancel()
    if outcome.finished:
        final = await final_file(outcome.state)
        if final is not None:
            files.append(final)
        lines.extend(_final_lines(outcome))
    content = _clip(lines) or "Done."
    await send(interaction, content, files=files or None, view=view,
               allowed_mentions=discord.AllowedMentions(users=ping, everyone=False, roles=False))
    if (panel is not None and panel.can_end and not panel.is_defender and not needs_picture
            and (panel.stage == "redeploy" or not panel.targets)
            and render_idle() and len(_AHEAD) < MAX_AHEAD):
        ahead = _spawn(prerender_end(service, outcome))
        _AHEAD.add(ahead)
        ahead.add_done_callback(_AHEAD.discard)
    if retire and interaction.message is not None:
        try:
            await interaction.message.edit(view=None)
        except discord.HTTPException:
            log.debug("could not retire panel %s", interaction.message.id)
    await deliver_private(interaction, outcome)


_BACKGROUND: set[asyncio.Task[Any]] = set()
_AHEAD: set[asyncio.Task[Any]] = set()  # prerender_end tasks


def _spawn(coro: Any) -> asyncio.Task[Any]:
    task = asyncio.ensure_future(coro)
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    return task


async def prerender_end(service: GameService, outcome: Outcome) -> None:
    """The player can only redeploy or end now: draw the map their `end` would post (the
    engine is deterministic, so it is the same picture) while they think. Only when the
    drawing thread is idle: under load a wrong guess would delay real pictures."""
    import engine

    state = outcome.state
    try:
        trial = engine.apply(state, engine.parse_action({"do": "end", "player": state.actor}))
        highlight = await service.turn_conquests(outcome.game.id)
        await map_png(trial.state, highlight, ahead=True)
        if render_idle() and any(a.model_dump(mode="json")["do"] == "pick"
                                 for a in engine.legal_actions(trial.state)):
            await row_file(trial.state, ahead=True)
    except Exception:  # noqa: BLE001 - a guess that failed costs nothing
        log.debug("pre-rendering the end of turn failed", exc_info=True)


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
