"""Buttons and menus. Every component is a DynamicItem whose custom_id carries the game id
(and for turn panels the state version), so clicks work after a restart and stale ones bounce.

Callbacks only parse the custom_id and hand over to the bot's component handlers
(`interaction.client.components`, bot.chat.flow.Flow). An End or Decline button that must ask
first says so in its id (verb `endask`/`declineask`, with who may answer and what to ask),
so a click asks its question without loading the game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

import i18n
from bot import rules_text, text
from bot.game.panel import Panel
from bot.language import of_game
from bot.store import GameRow
from engine import data as engine_data

MAX_OPTIONS = 25


class Components(Protocol):
    """What a click is handed to (bot.chat.flow.Flow)."""

    async def lobby_click(self, interaction: discord.Interaction, game_id: int, op: str,
                          value: str = "") -> None: ...

    async def button_click(self, interaction: discord.Interaction, game_id: int,
                           version: int, verb: str, arg: str = "") -> None: ...

    async def select_click(self, interaction: discord.Interaction, game_id: int,
                           version: int, action: dict[str, Any]) -> None: ...

    async def history_click(self, interaction: discord.Interaction, member_id: int,
                            page: int) -> None: ...

    async def replay_pick(self, interaction: discord.Interaction, game_id: int) -> None: ...


class _HasComponents(Protocol):
    components: Components


def handlers(interaction: discord.Interaction) -> Components:
    return cast(_HasComponents, interaction.client).components


def _action_value(action: dict[str, Any]) -> str:
    value = json.dumps({k: v for k, v in action.items() if k != "player"},
                       separators=(",", ":"))
    if len(value) > 100:
        raise ValueError(f"action too long for a select value: {value}")
    return value


# -- lobby ----------------------------------------------------------------------------------


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sw:l:(?P<game>\d+):(?P<op>join|leave|start|noai)",
):
    """Join / Leave / Start (and Remove AI) on a lobby message."""

    LOOK = {
        "join": ("Join", discord.ButtonStyle.primary),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.success),
        "noai": ("Remove AI", discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, op: str, lang: str = "en") -> None:
        label, style = self.LOOK[op]
        if i18n.has(f"ui.{op}"):
            label = i18n.t(f"ui.{op}", lang)
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"sw:l:{game_id}:{op}"))
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).lobby_click(interaction, self.game_id, self.op)


AI_CHOICES = ("easy", "normal", "hard", "expert")  # labels: svc.ai_choice.<level>
CLOCK_CHOICES = ("off", "10m", "1h", "12h", "1d", "2d")  # labels: svc.clock_choice.<limit>


class LobbySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"sw:l(?P<kind>[ac]):(?P<game>\d+)",
):
    """The lobby's menus: add an AI player of a level (`a`), choose the turn limit (`c`)."""

    def __init__(self, game_id: int, kind: str, lang: str = "en") -> None:
        if kind == "a":
            options = [discord.SelectOption(label=i18n.t(f"svc.ai_choice.{value}", lang),
                                            value=value) for value in AI_CHOICES]
            placeholder = i18n.t("svc.menu.add_ai", lang)
        else:
            options = [discord.SelectOption(label=i18n.t(f"svc.clock_choice.{value}", lang),
                                            value=value) for value in CLOCK_CHOICES]
            placeholder = i18n.t("svc.menu.clock", lang)
        super().__init__(discord.ui.Select(custom_id=f"sw:l{kind}:{game_id}", options=options,
                                           placeholder=placeholder))
        self.game_id = game_id
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> LobbySelect:
        return cls(int(match["game"]), match["kind"])

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        op = "ai" if self.kind == "a" else "clock"
        await handlers(interaction).lobby_click(interaction, self.game_id, op, value)


def lobby_view(game: GameRow) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start"):
        view.add_item(LobbyButton(game.id, op, of_game(game)))
    if any(s.ai for s in game.players):
        view.add_item(LobbyButton(game.id, "noai", of_game(game)))
    if game.opts.league is None:
        view.add_item(LobbySelect(game.id, "a", of_game(game)))
    view.add_item(LobbySelect(game.id, "c", of_game(game)))
    return view


# -- turn panel -----------------------------------------------------------------------------


def ask_arg(panel: Panel, verb: str) -> str:
    """What an asking End or Decline button carries: who may answer, and what to ask (the
    tokens in hand; the Active race and power, as their places in the box's lists)."""
    who = panel.actor_id or 0
    if verb == "end":
        return f"{who}.{panel.hand}"
    race, power = panel.combo or ("", "")
    r = engine_data.RACES.index(race) if race in engine_data.RACES else 99
    p = engine_data.POWERS.index(power) if power in engine_data.POWERS else 99
    return f"{who}.{r}.{p}"


def read_ask(arg: str) -> tuple[int, list[int]]:
    """(who may answer, the numbers of the question) from an asking button's arg."""
    parts = [int(p) for p in arg.split(".") if p.isdigit()]
    return (parts[0], parts[1:]) if parts else (0, [])


def asked_combo(numbers: list[int]) -> i18n.Msg | str:
    """The Active race and power a Decline button asks about."""
    if len(numbers) < 2 or numbers[0] >= len(engine_data.RACES):
        return ""
    power = engine_data.POWERS[numbers[1]] if numbers[1] < len(engine_data.POWERS) else ""
    return i18n.Msg("combo", race=engine_data.RACES[numbers[0]], power=power)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sw:b:(?P<game>\d+):(?P<version>\d+):(?P<verb>[a-z]+)(?::(?P<arg>[0-9.]{1,40}))?",
):
    """A verb without arguments (roll, decline, end, undo) or a view (map, status)."""

    LOOK = {
        "roll": ("Roll (Berserk)", discord.ButtonStyle.primary),
        "decline": ("Decline…", discord.ButtonStyle.danger),
        "declineask": ("Decline…", discord.ButtonStyle.danger),
        "end": ("End turn", discord.ButtonStyle.success),
        "endask": ("End turn", discord.ButtonStyle.success),
        "undo": ("Undo", discord.ButtonStyle.secondary),
        "map": ("Map", discord.ButtonStyle.secondary),
        "board": ("Open the board", discord.ButtonStyle.primary),
        "declineok": ("Yes, decline", discord.ButtonStyle.danger),
        "endok": ("Yes, end turn", discord.ButtonStyle.success),
        "cancel": ("Cancel", discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, version: int, verb: str, *, label: str | None = None,
                 lang: str = "en", arg: str = "") -> None:
        default_label, style = self.LOOK.get(verb, (verb.capitalize(),
                                                    discord.ButtonStyle.secondary))
        shown = verb.removesuffix("ask")
        if i18n.has(f"ui.{shown}"):
            default_label = i18n.t(f"ui.{shown}", lang)
        custom_id = f"sw:b:{game_id}:{version}:{verb}" + (f":{arg}" if arg else "")
        super().__init__(discord.ui.Button(label=label or default_label, style=style,
                                           custom_id=custom_id, row=4))
        self.game_id = game_id
        self.version = version
        self.verb = verb
        self.arg = arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> ActionButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["game"]), int(match["version"]), match["verb"], label=label,
                   arg=match["arg"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).button_click(interaction, self.game_id, self.version,
                                                 self.verb, self.arg)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"sw:s:(?P<game>\d+):(?P<version>\d+):(?P<kind>[a-z]+)",
):
    """A menu whose option values are protocol actions (without the player)."""

    def __init__(self, game_id: int, version: int, kind: str, *,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"sw:s:{game_id}:{version}:{kind}",
            options=options or [discord.SelectOption(label="-", value="{}")],
            placeholder=placeholder, min_values=1, max_values=1, row=row))
        self.game_id = game_id
        self.version = version
        self.kind = kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> ActionSelect:
        menu = item if isinstance(item, discord.ui.Select) else None
        return cls(int(match["game"]), int(match["version"]), match["kind"],
                   options=list(menu.options) if menu else None,
                   placeholder=menu.placeholder if menu else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            action = json.loads(self.item.values[0])
        except (IndexError, ValueError):
            action = {}
        if not isinstance(action, dict):  # a menu value is always an action object
            action = {}
        await handlers(interaction).select_click(interaction, self.game_id, self.version,
                                                 action)


MORE_COMMAND = {"c": "conquer", "g": "conquer ghouls:True", "r": "reinforce", "d": "deploy",
                "x": "power", "p": "pick"}
Option = tuple[str, dict[str, Any], str | None]


def _select(panel: Panel, kind: str, placeholder: str, choices: list[Option], row: int,
            lang: str = "en") -> ActionSelect | None:
    options = [
        discord.SelectOption(label=label[:100], value=_action_value(action),
                             description=(desc or None) and desc[:100])
        for label, action, desc in choices[:MAX_OPTIONS]
    ]
    if not options:
        return None
    if len(choices) > MAX_OPTIONS:  # Discord shows 25 options at most: say where the rest are
        placeholder = (f"{placeholder} ("
                       + text.menu_more(MAX_OPTIONS, len(choices),
                                        MORE_COMMAND.get(kind, "status"), lang)
                       + ")")[:150]
    return ActionSelect(panel.game_id, panel.version, kind, options=options,
                        placeholder=placeholder, row=row)


@dataclass(frozen=True, slots=True)
class BoardLink:
    """How the living message opens the game's board page (bot/web): `url` for a link to it
    in a browser; None for the button that launches it as the Activity inside Discord."""

    url: str | None = None


def board_item(panel: Panel, link: BoardLink, lang: str = "en") -> discord.ui.Item[Any]:
    if link.url is not None:
        return discord.ui.Button(label=i18n.t("ui.board", lang), url=link.url, row=4)
    return ActionButton(panel.game_id, panel.version, "board", lang=lang)


def turn_view(panel: Panel, lang: str = "en", board: BoardLink | None = None
              ) -> discord.ui.View | None:
    """The current actor's options: up to four menus and a row of buttons. With `board`, the
    row's Map button opens the live board instead (which also shows the AI's turns)."""
    if panel.actor is None:
        return None
    if panel.auto:
        if board is None:
            return None
        watch = discord.ui.View(timeout=None)
        watch.add_item(board_item(panel, board, lang))
        return watch
    menus: list[tuple[str, str, list[Option]]] = []
    if panel.picks:
        menus.append(("p", i18n.t("menu.pick", lang), [
            (f"{c.slot + 1}. {c.label(lang)}", {"do": "pick", "slot": c.slot},
             rules_text.short(c.race, c.power, lang)) for c in panel.picks]))
    by_verb: dict[str, list[Option]] = {}
    for t in panel.targets:
        kind = t.verb.split(" ")[0]
        if kind == "conquer" and t.action.get("race") == "decline":
            kind = "ghouls"  # a menu of their own: each region once per menu
        by_verb.setdefault(kind, []).append((t.label(lang), t.action, None))
    if by_verb.get("ghouls"):
        menus.append(("g", i18n.t("menu.ghouls", lang), by_verb["ghouls"]))
    if by_verb.get("conquer"):
        menus.append(("c", i18n.t("menu.conquer", lang), by_verb["conquer"]))
    if by_verb.get("reinforce"):
        menus.append(("r", i18n.t("menu.reinforce", lang), by_verb["reinforce"]))
    if panel.deploys:
        prompt = i18n.t("menu.survivors" if panel.is_defender else "menu.deploy", lang)
        menus.append(("d", prompt, [(c.label_in(lang), c.action, None) for c in panel.deploys]))
    extras = [*by_verb.get("dragon", []), *by_verb.get("enchant", []),
              *((c.label_in(lang), c.action, None) for c in (*panel.powers, *panel.abandons))]
    if extras:
        menus.append(("x", i18n.t("menu.extras", lang), extras))
    view = discord.ui.View(timeout=None)
    for row, (kind, placeholder, choices) in enumerate(menus[:4]):
        item = _select(panel, kind, placeholder, choices, row, lang)
        if item is not None:
            view.add_item(item)
    for verb, ok in (("roll", panel.can_roll), ("end", panel.can_end),
                     ("decline", panel.can_decline), ("undo", panel.can_undo), ("map", True)):
        if not ok:
            continue
        if verb == "map" and board is not None:
            view.add_item(board_item(panel, board, lang))
            continue
        label = i18n.t("ui.done", lang) if verb == "end" and panel.is_defender else None
        asks = verb == "decline" or (verb == "end" and panel.end_asks)
        view.add_item(ActionButton(panel.game_id, panel.version, f"{verb}ask" if asks else verb,
                                   label=label, lang=lang,
                                   arg=ask_arg(panel, verb) if asks else ""))
    return view


def panel_prompt(panel: Panel, lang: str = "en") -> str:
    if panel.actor is None:
        return ""
    if panel.auto:
        return i18n.t("svc.ai_next", lang, player=panel.actor,
                      level=i18n.Msg(f"svc.ai_level.{panel.auto}")
                      if i18n.has(f"svc.ai_level.{panel.auto}") else panel.auto)
    who = f"<@{panel.actor_id}>" if panel.actor_id else f"**{panel.actor}**"
    if panel.is_defender:
        nxt = (" " + i18n.t("prompt.next", lang, next=f"<@{panel.next_id}>")
               if panel.next_id else "")
        if panel.deploys:
            return i18n.t("prompt.survivors", lang, who=who) + nxt
        return i18n.t("prompt.camps", lang, who=who) + nxt
    if panel.picks:
        return i18n.t("prompt.pick", lang, who=who, round=panel.round)
    stage = i18n.t(f"stage.{panel.stage}", lang) if i18n.has(f"stage.{panel.stage}") \
        else panel.stage
    return i18n.t("prompt.turn", lang, who=who, round=panel.round, stage=stage,
                  hand=panel.hand or 0)


def confirm_view(game_id: int, version: int, verb: str, lang: str = "en") -> discord.ui.View:
    """Yes / Cancel for an irreversible step; Yes carries the version it was asked at."""
    view = discord.ui.View(timeout=None)
    view.add_item(ActionButton(game_id, version, f"{verb}ok", lang=lang))
    view.add_item(ActionButton(game_id, version, "cancel", lang=lang))
    return view


DYNAMIC_ITEMS = (LobbyButton, LobbySelect, ActionButton, ActionSelect)
