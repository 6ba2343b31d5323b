"""Plays Small World games through the fake Discord the way people would.

A `GameDriver` reads the game state from the SQLite file on its own connection (a spectator
with database access: `StateReader`), chooses the actor's next action from
`engine.legal_actions` with a seeded policy, and then *sends it through Discord*: the turn
panel's menus and buttons, or a slash command whose region comes from the command's
autocomplete. It never asks the bot's service to act. Every accepted action is checked
(public reply, version + 1); every end of turn is checked for the map picture and, for the
player who scored, a DM (or ephemeral fallback) with their exact coins.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, Interaction, Message

import engine
from bot.game.results import Loaded
from bot.game.service import GameService
from bot.store import Store, open_store

BUTTON_LABELS = {"end": "End turn", "roll": "Roll (Berserk)", "decline": "Decline…"}
PANEL_WAIT = 10.0  # seconds a member waits for the panel of the position she acts on
CONFIRM_LABELS = ("Yes, decline", "Yes, end turn")
CONQUEST_VERBS = ("conquer", "dragon", "enchant")
# a number followed by "coin(s)" — allowed in public only as the coins lying on a combo, and
# as a rule's bonus ("+1 coin" in a power's description on the panel: no one's coins)
COIN_NUMBER = re.compile(r"(?<![+\d])\d+\**\s*coins?\b(?! on it)", re.IGNORECASE)
# the private note of a command the bot deferred privately (bot.answering: it was held up
# past its guard) whose answer was public: the answer itself went to the channel
POSTED = "the answer is posted in the channel"
SECRET_WORDS = ("you now have", "income")


def strip(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "player"}


class StateReader:
    """Reads a channel's game from the bot's SQLite file on a separate connection."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.store: Store | None = None
        self.service: GameService | None = None

    async def __aenter__(self) -> StateReader:
        self.store = await open_store(str(self.db))
        self.service = GameService(self.store)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.store is not None:
            await self.store.close()

    async def loaded(self, channel_id: int) -> Loaded:
        assert self.service is not None
        return await self.service.last_view(channel_id)

    async def last_events(self, game_id: int) -> list[dict[str, Any]]:
        assert self.store is not None
        rows = await self.store.recent_actions(game_id, 1)
        return list(rows[-1].events) if rows else []

    async def first_events(self, game_id: int, seq: int) -> list[dict[str, Any]]:
        """Events of action `seq` and of the bot's own actions after it."""
        assert self.store is not None
        rows = await self.store.actions(game_id, after=seq - 1)
        return [e for r in rows for e in r.events]

    async def n_turns(self, game_id: int) -> int:
        """Turns that ended so far (a turn_ended event each)."""
        assert self.store is not None
        rows = await self.store.actions(game_id)
        return sum(e.get("type") == "turn_ended" for r in rows for e in r.events)

    async def events_at(self, game_id: int, seq: int) -> list[dict[str, Any]]:
        """The events of action number `seq` (later ones may be the AI's)."""
        assert self.store is not None
        rows = await self.store.actions(game_id, after=seq - 1, upto=seq)
        return list(rows[-1].events) if rows else []


@dataclass
class TurnRecord:
    """What one player's turn took: gestures (clicks, selects, slash commands) and the
    autocomplete look-ups typed along the way."""

    player: str
    round: int
    verbs: list[str] = field(default_factory=list)
    gestures: int = 0
    autocompletes: int = 0
    panel_only: bool = True
    defender_gestures: int = 0  # opponents placing survivors during this turn

    @property
    def conquests(self) -> int:
        return sum(v in (*CONQUEST_VERBS, "reinforce") for v in self.verbs)

    @property
    def redeploys(self) -> int:
        return sum(v in ("deploy", "move") for v in self.verbs)


@dataclass
class Sent:
    interaction: Interaction
    reply: Message
    action: dict[str, Any]
    route: str  # panel | slash


class DriverError(AssertionError):
    pass


class GameDriver:
    """One game in one channel. `users` are fake user dicts; `mode`: "panel" (menus and
    buttons wherever the panel offers the action), "slash" or "mixed" (seeded coin flip)."""

    def __init__(self, fake: FakeDiscord, channel: dict[str, Any], users: list[dict[str, Any]],
                 reader: StateReader, *, seed: int, mode: str = "mixed",
                 check_secrets: bool = True, check_coins: bool = True,
                 conquests: tuple[int, int] = (3, 5), autocomplete: float = 1.0,
                 check_pictures: bool = False, ai: tuple[str, ...] = ()) -> None:
        self.fake = fake
        self.channel = channel
        self.channel_id = int(channel["id"])
        self.users = users
        self.by_id = {int(u["id"]): u for u in users}
        self.reader = reader
        self.rng = random.Random(seed)
        self.seed = seed
        self.mode = mode
        self.check_secrets = check_secrets
        self.check_coins = check_coins
        self.conquest_range = conquests
        self.autocomplete_rate = autocomplete
        self.check_pictures = check_pictures
        self.ai = ai  # levels of the AI players the opener adds in the lobby
        self.ai_waits = 0  # times the driver waited for the AI to play
        self.picture_checks = 0
        self.turns: list[TurnRecord] = []
        self.sent: list[Sent] = []
        self.map_posts = 0
        self.coin_checks = 0
        self.game_id: int | None = None
        self._turn_key: tuple[int, str] | None = None
        self._turn_target = 4
        self._turn_counts: dict[str, int] = defaultdict(int)
        # "action" | "end_turn" | "game_over"
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.confirmations: list[str] = []  # the questions asked before Decline / End
        self.auto_steps = 0  # actions the bot played by itself (survivors with one way to go)
        self.live_checks = 0  # times exactly one public message carried the game's components

    # -- setup --------------------------------------------------------------------------

    async def open_game(self, *, timeout: float = 15.0,
                        new_options: dict[str, Any] | None = None) -> Message:
        """/sw new by the first user, Join buttons for the rest, the Add AI menu for each AI
        level, Start: the first panel (or the first AI's turn)."""
        fake, ch = self.fake, self.channel
        opener, *others = self.users
        inter = await fake.slash(opener, ch, "sw new",
                                 options={"players": len(self.users) + len(self.ai),
                                          "seed": self.seed, **(new_options or {})})
        lobby = await fake.wait_for_reply(inter, timeout=timeout)
        for i, user in enumerate(others):
            if i % 2 == 0:
                join = await fake.click(user, lobby, label="Join")
            else:
                join = await fake.slash(user, ch, "sw join")
            await fake.wait_for_reply(join, timeout=timeout)
        for level in self.ai:
            cid = next(c for c in lobby.custom_ids() if c.startswith("sw:la:"))
            add = await fake.select(opener, lobby, cid, [level])
            await fake.wait_for_reply(add, timeout=timeout)
        start = await fake.click(opener, lobby, label="Start")
        await fake.wait_for_ack(start, timeout=timeout)
        first = await fake.wait_for_message(ch, lambda m: "The game starts" in m.content,
                                            timeout=timeout, after=start.sent_at)
        loaded = await self.reader.loaded(self.channel_id)
        self.game_id = loaded.game.id
        if "map.png" not in first.files:
            raise DriverError("the game start has no map picture")
        return first

    # -- reading --------------------------------------------------------------------------

    async def loaded(self) -> Loaded:
        return await self.reader.loaded(self.channel_id)

    def user_of(self, loaded: Loaded, name: str) -> dict[str, Any]:
        seat = loaded.game.seat_named(name)
        assert seat is not None, name
        return self.by_id[seat.user_id]

    def live_messages(self) -> list[Message]:
        """Public messages in the channel that still carry components."""
        return [m for m in self.fake.messages_in(self.channel) if m.custom_ids()]

    @staticmethod
    def ai_plays(loaded: Loaded) -> bool:
        """The AI must act now (an AI seat, or a member's seat the AI keeps)."""
        return GameService.auto_level(loaded.game, loaded.state.actor) is not None

    async def wait_for_ai(self, loaded: Loaded, *, timeout: float = 120.0) -> Loaded:
        """Wait until the AI has played (the version moved on and a member must act)."""
        self.ai_waits += 1
        end = time.monotonic() + timeout
        while True:
            now = await self.loaded()
            if now.state.finished or (now.version != loaded.version and not self.ai_plays(now)):
                return now
            if time.monotonic() > end:
                raise DriverError(f"the AI did not play {loaded.state.actor} within {timeout} s")
            await asyncio.sleep(0.05)

    def panel_message(self, loaded: Loaded) -> Message | None:
        """The newest public message carrying the panel for the current version."""
        tag = f":{loaded.game.id}:{loaded.version}:"
        for msg in reversed(self.fake.messages_in(self.channel)):
            if any(tag in cid for cid in msg.custom_ids()):
                return msg
        return None

    # -- policy ---------------------------------------------------------------------------

    def _turn(self, state: Any, obs: dict[str, Any]) -> TurnRecord:
        key = (int(obs.get("round", 0)), str(obs.get("current")))
        if key != self._turn_key:
            self._turn_key = key
            self._turn_target = self.rng.randint(*self.conquest_range)
            self._turn_counts = defaultdict(int)
            self.turns.append(TurnRecord(player=key[1], round=key[0]))
        return self.turns[-1]

    def choose(self, state: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
        rng = self.rng
        obs = engine.observe(state, None)
        self._turn(state, obs)
        done = self._turn_counts
        by: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for a in legal:
            by[a["do"]].append(a)
        regions = obs.get("regions", {})

        def hostile(a: dict[str, Any]) -> bool:
            owner = regions.get(str(a.get("region")), {}).get("owner")
            return owner not in (None, state.actor)

        if state.actor != obs.get("current"):  # a defender placing survivors or encampments
            if by["deploy"]:
                return rng.choice(by["deploy"])
            if by["place"] and done["place"] < 2 and rng.random() < 0.5:
                return rng.choice(by["place"])
            if by["end"]:
                return by["end"][0]
            return rng.choice(legal)
        if by["pick"]:
            return rng.choice(by["pick"][:3])
        fresh = not any(done.values())
        if fresh and by["decline"] and obs.get("round", 0) >= 3 and rng.random() < 0.12:
            return by["decline"][0]
        if fresh and by["abandon"] and rng.random() < 0.05:
            return rng.choice(by["abandon"])
        if by["roll"] and rng.random() < 0.5:
            return by["roll"][0]
        attacks = [a for v in CONQUEST_VERBS for a in by[v]]
        if attacks and done["conquest"] < self._turn_target:
            special = [a for a in attacks if a["do"] != "conquer"]
            if special and rng.random() < 0.3:
                return rng.choice(special)
            mean = [a for a in attacks if hostile(a)]
            if mean and rng.random() < 0.5:
                return rng.choice(mean)
            return rng.choice(by["conquer"] or attacks)
        if by["reinforce"] and not done["reinforce"] and rng.random() < 0.3:
            return rng.choice(by["reinforce"])
        if by["deploy"]:
            per_region: dict[int, dict[str, Any]] = {}
            for a in by["deploy"]:
                if a["count"] > per_region.get(a["region"], {"count": 0})["count"]:
                    per_region[a["region"]] = a
            if rng.random() < 0.7:  # everything on one region (the panel's one-click offer)
                return rng.choice(list(per_region.values()))
            return rng.choice(by["deploy"])
        if by["place"] and done["place"] < 2 and rng.random() < 0.5:
            return rng.choice(by["place"])
        if by["ally"] and not done["ally"]:
            return rng.choice(by["ally"])
        if by["move"] and not done["move"] and rng.random() < 0.25:
            return rng.choice(by["move"])
        if by["end"]:
            return by["end"][0]
        if by["decline"]:
            return by["decline"][0]
        calm = [a for a in legal if a["do"] not in ("move", "place")]
        return rng.choice(calm or legal)

    # -- sending --------------------------------------------------------------------------

    async def _autocomplete(self, user: dict[str, Any], command: str, focused: str,
                            value: Any, options: dict[str, Any] | None = None) -> None:
        """Type into the option; the wanted value must be among the bot's choices."""
        if self.rng.random() >= self.autocomplete_rate:
            return
        self.turns[-1].autocompletes += 1
        choices = await self.fake.autocomplete(user, self.channel, command, focused=focused,
                                               value="", options=options)
        if value not in [c["value"] for c in choices]:
            self.turns[-1].autocompletes += 1
            choices = await self.fake.autocomplete(user, self.channel, command, focused=focused,
                                                   value=str(value), options=options)
        if value not in [c["value"] for c in choices]:
            raise DriverError(f"/{command} {focused}: {value!r} is legal but not offered; "
                              f"choices {choices}")

    async def _slash(self, user: dict[str, Any], action: dict[str, Any]) -> Interaction:
        verb = action["do"]
        fake, ch = self.fake, self.channel
        if verb == "pick":
            await self._autocomplete(user, "sw pick", "slot", action["slot"] + 1)
            return await fake.slash(user, ch, "sw pick", options={"slot": action["slot"] + 1})
        if verb in ("conquer", "reinforce", "abandon", "deploy"):
            opts: dict[str, Any] = {"region": action["region"]}
            if action.get("race") == "decline":
                opts["ghouls"] = True
            else:
                await self._autocomplete(user, f"sw {verb}", "region", action["region"])
            if verb == "deploy":
                opts["count"] = action["count"]
            return await fake.slash(user, ch, f"sw {verb}", options=opts)
        if verb == "move":
            await self._autocomplete(user, "sw move", "from", action["from"])
            await self._autocomplete(user, "sw move", "to", action["to"],
                                     options={"from": action["from"]})
            return await fake.slash(user, ch, "sw move", options={
                "from": action["from"], "to": action["to"], "count": action["count"]})
        if verb in ("enchant", "dragon"):
            await self._autocomplete(user, f"sw power {verb}", "region", action["region"])
            return await fake.slash(user, ch, f"sw power {verb}",
                                    options={"region": action["region"]})
        if verb == "place":
            await self._autocomplete(user, "sw power place", "region", action["region"],
                                     options={"piece": action["piece"]})
            return await fake.slash(user, ch, "sw power place",
                                    options={"piece": action["piece"], "region": action["region"]})
        if verb == "ally":
            await self._autocomplete(user, "sw power ally", "target", action["target"])
            return await fake.slash(user, ch, "sw power ally", options={"target": action["target"]})
        if verb in ("end", "roll", "decline"):
            return await fake.slash(user, ch, f"sw {verb}")
        raise DriverError(f"no slash command for {action}")

    async def _panel(self, user: dict[str, Any], loaded: Loaded,
                     action: dict[str, Any]) -> Interaction | None:
        """Use the turn panel if it offers exactly this action (None: it does not). A panel
        not posted yet is waited for (PANEL_WAIT): whether a member finds it must not hang
        on how busy the machine is, or the game played would (a slash command draws from
        the policy's random numbers for its autocomplete, a click does not)."""
        try:
            msg = await self.fake.wait_until(lambda: self.panel_message(loaded),
                                             timeout=PANEL_WAIT, what="the panel")
        except TimeoutError:
            return None
        verb = action["do"]
        if verb in BUTTON_LABELS:
            label = BUTTON_LABELS[verb]
            if verb == "end" and msg.find_component(label) is None:
                label = "Done"
            if msg.find_component(label) is None:
                return None
            return await self.fake.click(user, msg, label=label)
        want = strip(action)
        for cid in msg.custom_ids():
            if not cid.startswith("sw:s:"):
                continue
            for opt in msg.component(cid).get("options", []):
                if json.loads(opt["value"]) == want:
                    return await self.fake.select(user, msg, cid, [opt["value"]])
        return None

    async def send(self, loaded: Loaded, action: dict[str, Any], *,
                   route: str | None = None) -> Sent:
        """Send `action` for whoever must act now; wait for the public reply."""
        user = self.user_of(loaded, loaded.state.actor)
        if route is None:
            route = self.mode if self.mode != "mixed" else self.rng.choice(("panel", "slash"))
        inter = None
        if route == "panel":
            inter = await self._panel(user, loaded, action)
            if inter is None:
                route = "slash"
        if inter is None:
            inter = await self._slash(user, action)
        record = self.turns[-1] if self.turns else None
        defending = loaded.state.actor != engine.observe(loaded.state, None).get("current")
        if record is not None and defending:
            record.defender_gestures += 1
        elif record is not None:
            record.gestures += 1
            record.verbs.append(action["do"])
            record.panel_only &= route == "panel"
        reply = await self.fake.wait_for_reply(inter, timeout=20)
        if reply.ephemeral and POSTED in reply.content:
            reply = self._posted(inter, reply)
        yes = next((reply.find_component(label) for label in CONFIRM_LABELS
                    if reply.ephemeral and reply.find_component(label)), None)
        if yes is not None:  # Decline / End with tokens in hand ask first: say yes
            self.confirmations.append(reply.content)
            inter = await self.fake.click(user, reply, yes["custom_id"])
            await self.fake.wait_until(lambda i=inter: i.followups, timeout=20,
                                       what="the public answer to a confirmation")
            reply = inter.followups[0]
        sent = Sent(inter, reply, action, route)
        self.sent.append(sent)
        return sent

    def _posted(self, inter: Interaction, note: Message) -> Message:
        """The public answer the bot posted in the channel before its note `POSTED`."""
        for msg in reversed(self.fake.messages_in(self.channel)):
            if inter.sent_at < msg.created_at <= note.created_at:
                return msg
        raise DriverError(f"{inter.name}: the note says it was posted, but nothing was")

    # -- playing --------------------------------------------------------------------------

    async def step(self) -> Sent:
        """One action of whoever must act, through Discord, with the checks."""
        before = await self.loaded()
        state = before.state
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
        action = self.choose(state, legal)
        verb = action["do"]
        if verb in CONQUEST_VERBS:
            self._turn_counts["conquest"] += 1
        self._turn_counts[verb] += 1
        sent = await self.send(before, action)
        after = await self.loaded()
        if after.version == before.version:
            raise DriverError(f"{action} was refused: {sent.reply.content!r}")
        if after.version != before.version + 1:  # the bot's own survivor placements (or AIs)
            auto = await self.reader.store.actions(after.game.id, after=before.version + 1)
            if not self.ai and any(r.actor_id is not None or r.action["do"] not in
                                   ("deploy", "end") for r in auto):
                raise DriverError(f"{action}: version {before.version} -> {after.version}")
            self.auto_steps += len(auto)
        if self.ai:  # only this action's events: the AI may have played on already
            events = await self.reader.events_at(after.game.id, before.version + 1)
        else:
            events = await self.reader.first_events(after.game.id, before.version + 1)
        if not after.state.finished and not self.ai:
            # the living message shows the new version at once
            await self.fake.wait_until(lambda: self.panel_message(after) is not None,
                                       timeout=10, what="the living panel of the new version")
            # the message before it was retired (its components edited away) just after
            try:
                await self.fake.wait_until(lambda: len(self.live_messages()) == 1, timeout=10)
            except TimeoutError:
                live = self.live_messages()
                raise DriverError(f"{len(live)} public messages carry components: {live}"
                                  ) from None
            self.live_checks += 1
        ended = any(e.get("type") in ("turn_ended", "game_over") for e in events)
        # the last answer of a game carries the end card (and the replay): timed apart
        over = any(e.get("type") == "game_over" for e in events)
        kind = "game_over" if over else "end_turn" if ended else "action"
        if sent.interaction.reply_latency is not None:
            self.latencies[kind].append(sent.interaction.reply_latency)
        if ended:
            if "map.png" not in sent.reply.files:
                raise DriverError(f"no map picture after the turn ended by {action}")
            self.map_posts += 1
            if self.check_pictures:
                await self._check_pictures(before, after, sent)
        if self.check_coins:
            await self._check_coins(after, events, sent)
        return sent

    async def _check_pictures(self, before: Loaded, after: Loaded, sent: Sent) -> None:
        """The posted map (drawn ahead or cached by the bot) is exactly the picture of the
        state after the action, with the turn's conquests highlighted."""
        import render

        assert self.reader.service is not None
        highlight = await self.reader.service.turn_conquests(after.game.id)
        files = sent.reply.files
        fresh = render.map_png(after.state, highlight=highlight)
        if files["map.png"] != fresh:
            raise DriverError(f"the map after {sent.action} is not the picture of the new state")
        if "combos.png" in files and files["combos.png"] != render.row_png(after.state):
            raise DriverError(f"the combo row after {sent.action} is out of date")
        self.picture_checks += 1

    async def _check_coins(self, after: Loaded, events: list[dict[str, Any]], sent: Sent) -> None:
        """Each player who scored gets their exact coins privately (DM or ephemeral)."""
        if after.state.finished:
            return
        for ev in events:
            if ev.get("type") != "scored":
                continue
            name = ev["player"]
            seat = after.game.seat_named(name)
            if seat is None or not seat.user_id:
                continue  # an AI seat: nobody to tell
            truth = engine.observe(after.state, name)["players"][name]["coins"]
            assert ev["coins"] == truth, (ev, truth)
            user = self.user_of(after, name)
            wanted = f"you now have **{truth}**"
            if str(user["id"]) in self.fake.closed_dms:
                await self.fake.wait_until(
                    lambda u=user, w=wanted: any(
                        w in m.content and m.created_at > sent.interaction.sent_at
                        for m in self.fake.ephemerals_for(u)),
                    timeout=10, what=f"the ephemeral coins for {name}")
            else:
                await self.fake.wait_for_dm(user, lambda m, w=wanted: w in m.content,
                                            timeout=10,
                                            after=sent.interaction.sent_at)
            self.coin_checks += 1

    async def play(self, *, max_actions: int = 5000, until: Any = None, think: float = 0.0,
                   rng: random.Random | None = None, ai_timeout: float = 120.0,
                   finish: bool = True) -> Loaded:
        """Play until the game is over (or `until(loaded)` is true); return the last state.

        With `think` (seconds), each action first waits an exponential random time of that
        mean, drawn from `rng` (players who think: the benches). After `max_actions` the
        game must be over, unless `finish` is False (a bench plays that many and stops)."""
        rng = rng or random.Random()
        for _ in range(max_actions):
            if think > 0:
                await asyncio.sleep(rng.expovariate(1 / think))
            loaded = await self.loaded()
            if loaded.state.finished or (until is not None and until(loaded)):
                return loaded
            if self.ai and self.ai_plays(loaded):
                await self.wait_for_ai(loaded, timeout=ai_timeout)
                continue
            await self.step()
        if finish:
            raise DriverError(f"the game did not end within {max_actions} actions")
        return await self.loaded()

    # -- secrets --------------------------------------------------------------------------

    def public_leaks(self, before: float | None = None) -> list[str]:
        """Coin totals or income in anything public (text, embeds, components, file names
        and descriptions)
        posted before `before` (perf_counter); [] when clean."""
        leaks = []
        for msg in self.fake.messages_in(self.channel):
            if before is not None and msg.created_at >= before:
                continue
            texts = [msg.text, *(a.filename for a in msg.attachments),
                     *(a.description or "" for a in msg.attachments)]  # alt text too
            for revision in msg.history:
                texts.append(str(revision.get("content", "")))
            for comp in _walk(msg.components):
                for key in ("label", "placeholder"):
                    if comp.get(key):
                        texts.append(str(comp[key]))
                for opt in comp.get("options", []):
                    texts += [str(opt.get("label", "")), str(opt.get("description", ""))]
            for t in texts:
                low = t.lower()
                if COIN_NUMBER.search(t) or any(w in low for w in SECRET_WORDS):
                    leaks.append(f"message {msg.id}: {t[:200]!r}")
        return leaks


def _walk(components: list[dict[str, Any]]):
    for comp in components:
        yield comp
        yield from _walk(comp.get("components", []))


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def now() -> float:
    return time.perf_counter()

