"""The turn panel: what the player who must act can do now, labelled for menus and buttons.

Pure: built from a game row, its engine state, the public observation and the legal actions
(the service computes those once per reply and passes them in). Labels are worded lazily in
the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
import i18n
from bot import text
from bot.seats import auto_level, user_of
from bot.store import GameRow
from engine import data as engine_data

Act = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ComboChoice:
    slot: int
    race: str
    power: str
    tokens: int
    cost: int
    coins: int
    can_pick: bool

    def label(self, lang: str = "en") -> str:
        return text.combo_label(self.race, self.power, self.tokens, self.cost, self.coins, lang)

    def pick_label(self, lang: str = "en") -> str:
        """The label, noting when the player cannot pay for it."""
        label = self.label(lang)
        return label if self.can_pick else i18n.t("label.cannot_pick", lang, label=label)


@dataclass(frozen=True, slots=True)
class Target:
    """A region the actor may attack now; `cost` is the tokens it takes (None: unknown)."""

    region: int
    verb: str  # conquer | reinforce | dragon | enchant
    cost: int | None
    terrain: str
    holder: str  # "empty", "lost tribe", or "<player>'s <Race>"
    action: Act
    where: dict[str, Any] | None = None  # the region's public entry (words it in any language)
    # the label by language: a game's targets are kept per log (GameService.targets_at), and
    # every menu and autocomplete of that position words all of them again
    _labels: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def label(self, lang: str = "en") -> str:
        found = self._labels.get(lang)
        if found is None:
            holder = self.holder if lang == "en" else text.holder(self.where, lang)
            found = self._labels[lang] = text.target_label(self.region, self.verb, self.cost,
                                                           self.terrain, holder, lang)
        return found


@dataclass(frozen=True, slots=True)
class Choice:
    """Any other legal action, labelled for a menu or button."""

    label: str
    action: Act

    def label_in(self, lang: str = "en") -> str:
        """The label in `lang`, worded from the action (the English one is `label`)."""
        return self.label if lang == "en" else text.action_label(self.action, lang)


@dataclass(frozen=True, slots=True)
class Panel:
    """The actor's options right now, for the turn panel view."""

    game_id: int
    version: int
    actor: str | None
    actor_id: int | None
    stage: str
    picks: tuple[ComboChoice, ...]
    targets: tuple[Target, ...]
    deploys: tuple[Choice, ...]
    powers: tuple[Choice, ...]
    abandons: tuple[Choice, ...]
    can_roll: bool
    can_decline: bool
    can_end: bool
    can_undo: bool
    is_defender: bool
    hand: int = 0  # tokens the actor holds (End asks first when some are left)
    round: int = 0
    next_id: int | None = None  # while survivors are placed: who plays next (pinged too)
    combo: tuple[str, str] | None = None  # the actor's Active race and power (Decline asks)
    auto: str | None = None  # the AI level playing the actor's seat now (no buttons then)

    @property
    def end_asks(self) -> bool:
        """End asks first while tokens are still in hand (they would be placed for you)."""
        return self.can_end and not self.is_defender and self.hand > 0 and not self.picks

    @property
    def active(self) -> i18n.Msg | str:
        """The actor's Active combo, named in whichever language a message words it."""
        if self.combo is None:
            return ""
        return i18n.Msg("combo", race=self.combo[0], power=self.combo[1])


def finished_panel(game: GameRow, version: int, round_: int) -> Panel:
    return Panel(game.id, version, None, None, "finished", (), (), (), (), (), False, False,
                 False, False, False, round=round_)


def build_panel(game: GameRow, version: int, state: engine.GameState, obs: Mapping[str, Any],
                legal: Sequence[Act], targets: tuple[Target, ...], n_undo: int) -> Panel:
    """The panel of `state`, whose public observation is `obs` and legal actions `legal`."""
    if state.finished:
        return finished_panel(game, version, int(state.round))
    verbs = {a["do"] for a in legal}
    # every slot is offered: which ones the actor can afford would hint at their coins
    everyone = [{"do": "pick", "slot": i} for i in range(len(obs.get("row", [])))]
    current = obs.get("current")
    return Panel(
        game_id=game.id,
        version=version,
        actor=state.actor,
        actor_id=user_of(game, state.actor),
        stage=str(obs.get("stage", "")),
        picks=tuple(combos(obs, everyone)) if "pick" in verbs else (),
        targets=targets,
        deploys=tuple(deploy_choices(legal)),
        powers=tuple(power_choices(legal)),
        abandons=tuple(Choice(text.action_label(a), a) for a in legal if a["do"] == "abandon"),
        can_roll="roll" in verbs,
        can_decline="decline" in verbs,
        can_end="end" in verbs,
        can_undo=n_undo > 0,
        is_defender=current is not None and current != state.actor,
        hand=int((obs.get("players", {}).get(state.actor) or {}).get("hand") or 0),
        round=int(obs.get("round") or 0),
        next_id=next_after(game, obs) if current != state.actor else None,
        combo=active_combo(obs, state.actor),
        auto=auto_level(game, state.actor) if state.actor else None,
    )


def next_after(game: GameRow, obs: Mapping[str, Any]) -> int | None:
    """Who plays after the current player (survivors are placed in between)."""
    names = list(obs.get("players") or {})
    current = obs.get("current")
    if current not in names or obs.get("round", 0) >= obs.get("rounds", 0) and \
            names.index(current) == len(names) - 1:
        return None
    return user_of(game, names[(names.index(current) + 1) % len(names)])


def active_combo(obs: Mapping[str, Any], name: str | None) -> tuple[str, str] | None:
    act = ((obs.get("players") or {}).get(name) or {}).get("active") or {}
    if not act.get("race"):
        return None
    return str(act["race"]), str(act.get("power") or "")


def combos(obs: Mapping[str, Any], legal: Sequence[Act]) -> list[ComboChoice]:
    """The visible combo row; `can_pick` for the slots `legal` offers."""
    pickable = {a["slot"] for a in legal if a["do"] == "pick"}
    races, powers = engine_data.races(), engine_data.powers()
    out = []
    for slot, combo in enumerate(obs.get("row", [])):
        race, power = combo.get("race", "?"), combo.get("power", "?")
        tokens = combo.get("tokens")
        if tokens is None:
            tokens = (races[race].tokens if race in races else 0) + (
                powers[power].tokens if power in powers else 0)
        coins = combo.get("coins_on_combo", combo.get("coins", 0))
        out.append(ComboChoice(slot, race, power, int(tokens), int(combo.get("cost", slot)),
                               int(coins), slot in pickable))
    return out


def targets(state: engine.GameState, legal: Sequence[Act],
            obs: Mapping[str, Any]) -> tuple[Target, ...]:
    """The regions the actor may attack now, cheapest conquests first."""
    regions = obs.get("regions", {})
    board = state.board
    costs = {(c.action.do, c.region, c.in_decline): c.cost
             for c in engine.legal_conquests(state)}
    out = []
    for a in legal:
        if a["do"] not in ("conquer", "reinforce", "dragon", "enchant"):
            continue
        rid = a["region"]
        cost = None
        if a["do"] == "conquer":
            cost = costs.get(("conquer", rid, a.get("race") == "decline"))
        out.append(Target(
            region=rid,
            verb=a["do"] if a.get("race") != "decline" else f"{a['do']} (in decline)",
            cost=cost,
            terrain=board.regions[rid].terrain if rid < len(board.regions) else "?",
            holder=text.holder(regions.get(str(rid))),
            action={k: v for k, v in a.items() if k != "player"},
            where=regions.get(str(rid)),
        ))
    out.sort(key=lambda t: (t.verb != "conquer", t.cost if t.cost is not None else 99, t.region))
    return tuple(out)


def deploy_choices(legal: Sequence[Act]) -> list[Choice]:
    """One "put N on region R" per region: the largest count offered there."""
    best: dict[int, Act] = {}
    for a in legal:
        if a["do"] == "deploy" and a["count"] > best.get(a["region"], {"count": 0})["count"]:
            best[a["region"]] = a
    out = []
    for _, a in sorted(best.items()):
        clean = {k: v for k, v in a.items() if k != "player"}
        out.append(Choice(text.action_label(clean), clean))
    return out


def power_choices(legal: Sequence[Act]) -> list[Choice]:
    out = []
    for a in legal:
        if a["do"] in ("place", "ally"):
            clean = {k: v for k, v in a.items() if k != "player"}
            out.append(Choice(text.action_label(clean), clean))
    return out
