"""`python -m bot demo`: watch a whole game of AI players without Discord.

The game runs through the same parts the bot uses — the game service, the SQLite store (a
temporary file), the AI player loop and the picture workers — and the result is one
self-contained HTML page: each turn's summary with the map after it (PNG data URIs, so the
page works offline and can be mailed around), then the final reveal.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import html
import itertools
import random
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import engine
from bot import pictures, text
from bot.archive.stories import Stories
from bot.clock import ClockRules
from bot.game.autoplay import AutoPlayer
from bot.game.results import Event, Outcome
from bot.game.service import GameService
from bot.seats import AI_LEVELS, MAX_PLAYERS, MIN_PLAYERS
from bot.store import open_store

DEMO_CHANNEL = 1
DEMO_USER = 1
PAGE = "smallworld-demo.html"


@dataclass
class Entry:
    title: str
    lines: list[str]
    png: bytes | None


@dataclass
class Demo:
    players: list[str] = field(default_factory=list)
    board: str = ""
    entries: list[Entry] = field(default_factory=list)
    final_lines: list[str] = field(default_factory=list)
    final_png: bytes | None = None
    actions: int = 0


def _levels(players: int, level: str) -> list[str]:
    if level == "mixed":
        return list(itertools.islice(itertools.cycle(("easy", "normal", "hard")), players))
    return [level] * players


async def play(players: int = 3, level: str = "mixed", seed: int | None = None) -> Demo:
    """Play one AI game to the end and return what the page shows."""
    seed = random.SystemRandom().randrange(1, 2**31) if seed is None else seed
    demo = Demo()
    with tempfile.TemporaryDirectory(prefix="smallworld-demo-") as tmp:
        store = await open_store(str(Path(tmp) / "demo.db"))
        try:
            service = GameService(store, rng=random.Random(seed), clock=ClockRules(ai_delay=0))

            async def post(outcome: Outcome) -> None:  # what the bot would post in the channel
                state = outcome.state
                turn = next((e for e in outcome.events if e.get("type") == "turn_ended"), None)
                who = turn.get("player") if turn else outcome.events[0].get("player", "")
                title = f"Round {_round_of(outcome.events, state)} — {who}"
                png = await pictures.map_png(state, outcome.highlight)
                demo.entries.append(Entry(title, list(outcome.public), png))
                if outcome.finished:
                    obs = engine.observe(state, None, reveal_all=True)
                    demo.final_lines = text.ranking_lines(obs.get("ranking"),
                                                          obs.get("players", {}))
                    demo.final_png = await pictures.end_card_png(
                        await stories.of(outcome.game))

            stories = Stories(store)
            player = AutoPlayer(service, post)
            await service.open_lobby(guild_id=None, channel_id=DEMO_CHANNEL, user_id=DEMO_USER,
                                     name="demo", players=players, seed=seed, seated=False)
            for lvl in _levels(players, level):
                await service.add_ai(DEMO_CHANNEL, DEMO_USER, lvl, is_mod=True)
            start = await service.start(DEMO_CHANNEL, DEMO_USER, is_mod=True)
            demo.players = [s.name for s in start.game.players]
            demo.board = start.game.board or ""
            demo.entries.append(Entry("The start", list(start.public),
                                      await pictures.map_png(start.state)))
            while True:
                loaded = await service.last_view(DEMO_CHANNEL)
                if loaded.state.finished:
                    break
                done = await player.play(DEMO_CHANNEL, loaded.state.actor)
                if done is None:
                    raise RuntimeError(f"the AI did not move for {loaded.state.actor}")
            demo.actions = (await service.last_view(DEMO_CHANNEL)).version
        finally:
            await store.close()
    return demo


def _round_of(events: Sequence[Event], state: engine.GameState) -> int:
    for e in events:
        if isinstance(e.get("round"), int):
            return int(e["round"])
    return int(getattr(state, "round", 0))


_BOLD = re.compile(r"\*\*(.+?)\*\*")


def _line(line: str) -> str:
    """A summary line (Discord markdown) as HTML."""
    return _BOLD.sub(r"<b>\1</b>", html.escape(line, quote=False))


def _img(png: bytes | None, alt: str) -> str:
    if not png:
        return "<p><i>(no picture)</i></p>"
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'


def page(demo: Demo) -> str:
    """The whole game as one HTML page with the pictures inside."""
    parts = [
        "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
        "<title>Small World — an AI game</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem;background:#f7f4ec;color:#222}section{background:#fff;"
        "border-radius:8px;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px #0002}"
        "img{max-width:100%;height:auto}h2{margin-top:0}ul{padding-left:1.2rem}</style>",
        "</head><body>",
        "<h1>Small World — a game of AI players</h1>",
        f"<p>Board {html.escape(demo.board)}; players in turn order: "
        f"{', '.join(html.escape(p) for p in demo.players)}; {demo.actions} actions. "
        "Played by <code>python -m bot demo</code> through the bot's own game service, "
        "store and pictures.</p>",
    ]
    for entry in demo.entries:
        items = "".join(f"<li>{_line(x)}</li>" for x in entry.lines)
        parts.append(f"<section><h2>{html.escape(entry.title)}</h2><ul>{items}</ul>"
                     f"{_img(entry.png, 'The map after ' + entry.title)}</section>")
    if demo.final_lines:
        items = "".join(f"<li>{_line(x)}</li>" for x in demo.final_lines)
        parts.append(f"<section><h2>Final reveal</h2><ul>{items}</ul>"
                     f"{_img(demo.final_png, 'Final scores')}</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


DESCRIPTION = "Play a whole game of AI players without Discord and write it as one HTML page."


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The demo's options (also used by the `demo` subcommand of `python -m bot`)."""
    ap.add_argument("--players", type=int, default=3, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
                    metavar="N", help=f"number of AI players, {MIN_PLAYERS}-{MAX_PLAYERS} "
                                      "(default 3)")
    ap.add_argument("--level", default="mixed", choices=[*AI_LEVELS, "mixed"],
                    help="AI level of every player, or mixed (default)")
    ap.add_argument("--out", default="demo", metavar="DIR",
                    help="directory for the page (default ./demo)")
    ap.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m bot demo", description=DESCRIPTION)
    add_arguments(ap)
    return ap


def run(args: argparse.Namespace) -> int:
    """Play the game, write the page, say where it is; returns the exit code."""
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"python -m bot demo: cannot create {out}: {exc.strerror}", file=sys.stderr)
        return 1
    demo = asyncio.run(play(args.players, args.level, args.seed))
    target = out / PAGE
    target.write_text(page(demo), encoding="utf-8")
    winner = _BOLD.sub(r"\1", next((x for x in demo.final_lines if x.startswith("1.")), ""))
    print(f"{len(demo.entries) - 1} turns, {demo.actions} actions; winner: {winner[3:]}")
    print(f"open {target.resolve()} in a browser")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(parser().parse_args(argv))
