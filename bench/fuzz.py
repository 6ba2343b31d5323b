"""Interaction fuzz: the real bot (in this process) against the fake Discord, fed a stream of
interactions people and broken clients send — wrong users, players out of turn, stale panels,
unknown custom ids, garbage and oversized options, malformed menu values, autocomplete
junk, and the same action clicked twice at once — mixed with real moves that keep the games
going.

python bench/fuzz.py [--interactions 10000] [--games 4] [--seed 1] [--db sqlite|postgresql]

Checks, and prints: crashes (an apology reply, an error logged by the bot, an internal error
of the fake), interactions left unanswered, and state changes caused by refused
interactions (every game's version, status and seats are compared before and after each
refused one; concurrent duplicates must move a game by exactly one action). Exit 1 when any
is not 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from driver import GameDriver, StateReader  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.commands import CommandError  # noqa: E402
from fakediscord.models import MESSAGE_COMPONENT  # noqa: E402

import engine  # noqa: E402
from bot.app import SmallWorldBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.ui import APOLOGY  # noqa: E402

KINDS = ("move", "outsider", "out_of_turn", "stale_panel", "unknown_id", "garbage_option",
         "bad_menu_value", "autocomplete_junk", "duplicate")
WEIGHTS = (30, 10, 10, 10, 10, 12, 6, 6, 6)


@dataclass
class Report:
    sent: int = 0
    by_kind: Counter = field(default_factory=Counter)
    refused: int = 0
    accepted: int = 0
    crashes: list[str] = field(default_factory=list)
    unanswered: int = 0
    changed_by_refusal: list[str] = field(default_factory=list)
    duplicates_applied_twice: int = 0
    games_finished: int = 0
    seconds: float = 0.0
    slowest: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.crashes or self.unanswered or self.changed_by_refusal
                    or self.duplicates_applied_twice)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("bot"):
            self.records.append(f"{record.name}: {record.getMessage()}")


async def _fingerprint(reader: StateReader) -> list[tuple]:
    assert reader.store is not None
    rows = await reader.store.fetchall("SELECT id, version, status, players FROM games ORDER BY id")
    return [tuple(r) for r in rows]


GARBAGE_IDS = ("sw:b:999999:1:end", "sw:b:1:999:end", "sw:b:1:1:explode", "sw:s:1:1:zz",
               "sw:l:424242:join", "sw:l:1:nuke", "", "x" * 100, "sw:b:-1:-1:end", "sw:s::::",
               "sw:b:1e9:1:roll", "\u0000\u202e")


def _garbage_slash(rng: random.Random) -> tuple[str, dict[str, Any]]:
    big = rng.choice([10**12, -(10**12), 2**63, -1, 0, 999999])
    junk = rng.choice(["", " ", "x" * 6000, "\u202e" * 50, "'; DROP TABLE games; --",
                       "<@&1> @everyone", "{\"do\": \"end\"}", "\x00"])
    return rng.choice([
        ("sw conquer", {"region": big}),
        ("sw conquer", {"region": junk}),
        ("sw deploy", {"region": big, "count": big}),
        ("sw deploy", {"region": 1, "count": 0}),
        ("sw move", {"from": big, "to": junk, "count": -3}),
        ("sw pick", {"slot": big}),
        ("sw pick", {"slot": junk}),
        ("sw abandon", {"region": junk}),
        ("sw rules", {"race": junk}),
        ("sw rules", {"power": junk}),
        ("sw new", {"players": big, "seed": big}),
        ("sw new", {"board": junk}),
        ("sw power place", {"piece": junk, "region": big}),
        ("sw power ally", {"target": junk}),
        ("sw-game log", {"count": big}),
        ("sw reinforce", {"region": big}),
    ])


async def fuzz(n: int, *, games: int = 4, seed: int = 1, db_url: str | None = None,
               workdir: Path | None = None, quiet: bool = False) -> Report:
    rng = random.Random(seed)
    report = Report()
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    tmp = tempfile.TemporaryDirectory() if workdir is None else contextlib.nullcontext(workdir)
    try:
        with tmp as where, fake.patch_discord():
            url = db_url or str(Path(where) / "fuzz.db")
            settings = Settings(_env_file=None, discord_token=fake.token, database_url=url)
            bot = SmallWorldBot(settings, guild_ready_timeout=0.1)
            outsider = fake.add_user("outsider")
            async with fake.running(bot, drain=False), StateReader(url) as reader:
                await bot.wait_until_ready()
                drivers: list[GameDriver] = []
                for i in range(games):
                    ch = fake.add_channel(f"fuzz-{i}") if i else fake.channel
                    users = [fake.add_user(f"f{i}p{k}") for k in range(2 + i % 3)]
                    d = GameDriver(fake, ch, users, reader, seed=seed * 100 + i, mode="slash",
                                   check_coins=False, check_secrets=False, autocomplete=0.0)
                    await d.open_game(timeout=30)
                    drivers.append(d)
                t0 = time.perf_counter()
                for _ in range(n):
                    kind = rng.choices(KINDS, WEIGHTS)[0]
                    d = rng.choice(drivers)
                    await _one(kind, d, fake, reader, rng, outsider, report)
                report.seconds = time.perf_counter() - t0
                await fake.drain(timeout=30)
                report.unanswered = len(fake.unanswered())
                for d in drivers:
                    if (await d.loaded()).state.finished:
                        report.games_finished += 1
        report.crashes += errors.records + [f"fake: {e}" for e in fake.errors]
    finally:
        logging.getLogger().removeHandler(errors)
        await fake.stop()
    if not quiet:
        print_report(report, n)
    return report


async def _answer(fake: FakeDiscord, inter: Any, report: Report) -> Any:
    """Wait for the answer; a reply that is the apology counts as a crash."""
    try:
        await fake.wait_until(lambda: inter.acknowledged, 20, what="an answer")
    except TimeoutError:
        return None  # counted by fake.unanswered() at the end
    if inter.callback_type in (5, 6):  # deferred: wait for the followup or edit
        with contextlib.suppress(TimeoutError):
            await fake.wait_until(lambda: inter.reply is not None, 20, what="a followup")
    reply = inter.reply
    if reply is not None and APOLOGY in (reply.content or ""):
        report.crashes.append(f"apology for {inter.payload.get('data')!r}"[:300])
    return reply


async def _one(kind: str, d: GameDriver, fake: FakeDiscord, reader: StateReader,
               rng: random.Random, outsider: dict, report: Report) -> None:
    loaded = await d.loaded()
    state = loaded.state
    if state.finished:
        kind = rng.choice(("unknown_id", "garbage_option", "stale_panel", "outsider"))
    legal = [] if state.finished else [a.model_dump(mode="json")
                                        for a in engine.legal_actions(state)]
    actor = d.user_of(loaded, state.actor) if not state.finished else d.users[0]
    before = await _fingerprint(reader)
    report.by_kind[kind] += 1
    if kind == "duplicate" and legal:
        # a double click: the same panel component (it carries the game version) twice at once
        panel = d.panel_message(loaded)
        ids = [c for c in (panel.custom_ids() if panel else [])
               if c.startswith(("sw:s:", "sw:b:")) and not c.endswith(":map")]
        if not ids:
            kind = "move"
        else:
            cid = rng.choice(ids)
            comp = panel.component(cid)
            data = {"custom_id": cid, "component_type": comp.get("type", 2)}
            if comp.get("options"):
                data["values"] = [rng.choice(comp["options"])["value"]]
            report.sent += 2
            a, b = await asyncio.gather(*(
                fake._send_interaction(MESSAGE_COMPONENT, actor, d.channel, dict(data),
                                       message=panel) for _ in range(2)))
            replies = [await _answer(fake, x, report) for x in (a, b)]
            # applied twice = two new log rows by this player (the bot's own follow-ups,
            # such as placing a vacant seat's survivors, carry no actor)
            assert reader.store is not None
            mine = [r for r in await reader.store.actions(loaded.game.id, after=loaded.version)
                    if r.actor_id == int(actor["id"])]
            if len(mine) > 1:
                report.duplicates_applied_twice += 1
            accepted = sum(1 for r in replies if r is not None and not r.ephemeral)
            report.accepted += accepted
            report.refused += 2 - accepted
            return
    report.sent += 1
    if kind in ("move", "duplicate") and legal:
        inter = await d._slash(actor, d.choose(state, legal))
        await _answer(fake, inter, report)
        if (await d.loaded()).version > loaded.version:
            report.accepted += 1
            return
        report.refused += 1  # e.g. a decline that asks to confirm first
        return
    if kind == "outsider" and legal:
        inter = await d._slash(outsider, rng.choice(legal))
    elif kind == "out_of_turn" and legal:
        others = [u for u in d.users if u is not actor]
        inter = await d._slash(rng.choice(others), rng.choice(legal))
    elif kind == "stale_panel":
        old = [m for m in fake.messages_in(d.channel) if m.custom_ids()]
        msg = rng.choice(old[:-1] or old) if old else None
        if msg is None:
            return
        cid = rng.choice(msg.custom_ids())
        comp = msg.component(cid)
        data: dict[str, Any] = {"custom_id": cid, "component_type": comp.get("type", 2)}
        if comp.get("options"):
            data["values"] = [rng.choice(comp["options"])["value"]]
        inter = await fake._send_interaction(MESSAGE_COMPONENT, rng.choice(d.users + [outsider]),
                                             d.channel, data, message=msg)
    elif kind == "unknown_id":
        msgs = [m for m in fake.messages_in(d.channel) if m.custom_ids()] or \
            fake.messages_in(d.channel)
        data = {"custom_id": rng.choice(GARBAGE_IDS), "component_type": rng.choice((2, 3))}
        if data["component_type"] == 3:
            data["values"] = ["{}"]
        inter = await fake._send_interaction(MESSAGE_COMPONENT, rng.choice(d.users),
                                             d.channel, data, message=msgs[-1])
    elif kind == "garbage_option":
        command, options = _garbage_slash(rng)
        try:
            inter = await fake.slash(rng.choice(d.users + [outsider]), d.channel, command,
                                     options=options, force=True)
        except CommandError:  # Discord itself refuses it (wrong type, out of range)
            report.by_kind["stopped_by_discord"] += 1
            report.sent -= 1
            return
    elif kind == "bad_menu_value":
        panel = d.panel_message(loaded)
        selects = [c for c in (panel.custom_ids() if panel else []) if c.startswith("sw:s:")]
        if not selects:
            return
        data = {"custom_id": rng.choice(selects), "component_type": 3,
                "values": [rng.choice(["{not json", "[]", "null", json.dumps({"do": "end"}),
                                       json.dumps({"do": "conquer", "region": 10**9}),
                                       "x" * 5000])]}
        inter = await fake._send_interaction(MESSAGE_COMPONENT, actor, d.channel, data,
                                             message=panel)
    elif kind == "autocomplete_junk":
        command, focused = rng.choice([("sw conquer", "region"), ("sw pick", "slot"),
                                       ("sw deploy", "region"), ("sw rules", "race"),
                                       ("sw move", "to")])
        value = rng.choice(["", "x" * 3000, "-1", "99999999999", "\u202e"])
        try:
            await fake.autocomplete(rng.choice(d.users + [outsider]), d.channel, command,
                                    focused=focused, value=value, timeout=20)
        except Exception as exc:  # noqa: BLE001 - a fuzz run reports
            report.crashes.append(f"autocomplete {command} {focused}: {exc}"[:300])
        report.refused += 1
        if await _fingerprint(reader) != before:
            report.changed_by_refusal.append(f"autocomplete {command}")
        return
    else:
        return
    t = time.perf_counter()
    reply = await _answer(fake, inter, report)
    report.slowest.append((time.perf_counter() - t, kind))
    public = reply is not None and not reply.ephemeral
    if public:
        report.accepted += 1  # e.g. /sw rules with odd text, /sw log, the current panel
    else:
        report.refused += 1
    if await _fingerprint(reader) == before:
        return
    # the state changed: only what the actor may do may do that
    data = inter.payload.get("data") or {}
    cid = str(data.get("custom_id", ""))
    parts = cid.split(":")
    current_panel = (kind == "stale_panel" and len(parts) == 5 and parts[1] in ("b", "s")
                     and parts[3] == str(loaded.version)
                     and inter.user.get("id") == actor.get("id"))
    legit = public and (kind in ("bad_menu_value", "garbage_option") or current_panel)
    if not legit:
        report.changed_by_refusal.append(f"{kind}: {data!r} -> "
                                         f"{(reply.content if reply else None)!r}"[:300])


def print_report(r: Report, n: int) -> None:
    print(f"interaction fuzz: {r.sent} interactions ({n} draws) in {r.seconds:.1f} s: "
          f"{r.accepted} accepted, {r.refused} refused; kinds "
          + ", ".join(f"{k} {v}" for k, v in sorted(r.by_kind.items())))
    print(f"  crashes: {len(r.crashes)}   unanswered: {r.unanswered}   state changes from "
          f"refused: {len(r.changed_by_refusal)}   duplicates applied twice: "
          f"{r.duplicates_applied_twice}   games finished: {r.games_finished}")
    for line in (r.crashes + r.changed_by_refusal)[:10]:
        print("   ", line)
    slow = sorted(r.slowest, reverse=True)[:5]
    print("  slowest answers: " + ", ".join(f"{k} {t:.2f} s" for t, k in slow))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interactions", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if args.db == "postgresql":
        from pgserver import TempPostgres

        server = TempPostgres().start()
        try:
            url = asyncio.run(server.create_database("fuzz"))
            report = asyncio.run(fuzz(args.interactions, games=args.games, seed=args.seed,
                                      db_url=url))
        finally:
            server.stop()
    else:
        report = asyncio.run(fuzz(args.interactions, games=args.games, seed=args.seed))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
