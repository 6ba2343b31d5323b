"""Races and special powers as hooks: the base classes, the registry and `Reach`.

Each of the 14 races (engine/races.py) and 20 powers (engine/powers.py) is one class that
overrides the hooks its rule needs; everything here does nothing by default, and the turn,
the checks and the legal-move listing call the hooks unconditionally (python-chess's shape:
`Board.push` calls a no-op `_push_capture` that a variant overrides). An ability's facts
about the current turn are its own `Part`s of the `Turn` (engine/state.py).

A new race or power is a subclass registered with `@register_race` / `@register_power`; no
engine module needs an edit (tests/engine/test_custom_power.py plays one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, NamedTuple, TypeVar

from . import data
from . import errors as E
from .actions import Action
from .events import EventLog
from .geo import Geo, Income
from .state import Area, GameState, Hold, Turn


class Conquest(NamedTuple):
    """A legal conquest with the tokens it takes, as `legal_actions` lists it.

    `cost` is what the region needs from hand now (after a Berserk roll); a `Reinforce`
    needs the die to make up `short` = cost - hand (1-3); `Dragon` takes 1 token and
    `Enchant` takes none from hand (its token comes from the tray).
    """

    action: Action
    region: int
    cost: int
    short: int = 0
    in_decline: bool = False


class Reach:
    """Where one race may attack now, worked out once for a whole listing of targets.

    `checks.reach` fills it from the board and asks the race and the power to widen it,
    then `settle` works out what the checks read per region; `checks.target_code` and
    `checks.cost_at` read it (one definition of conquest legality, used by `apply` and
    `legal_actions` alike).
    """

    __slots__ = ("me", "hold", "active", "held", "held_set", "race", "power", "anywhere",
                 "enter_anywhere", "links", "sea", "peace", "base", "race_cut", "name",
                 "water", "free", "own_free")

    def __init__(self, me: int, hold: Hold, active: bool, held: tuple[int, ...], race: Race,
                 power: Power | None, peace: frozenset[int], base: tuple[int, ...],
                 race_cut: bool) -> None:
        self.me = me
        self.hold = hold
        self.active = active  # the Active race (False: an In Decline race that conquers)
        self.held = held  # the race's regions
        self.held_set = frozenset(held)
        self.race = race
        self.power = power  # None for an In Decline race: its power no longer works
        self.anywhere = False  # any land region, no adjacency or border needed (Flying)
        self.enter_anywhere = False  # the first conquest may be in any region (Halflings)
        self.links: frozenset[int] = frozenset()  # also counted as adjacent (Underworld)
        self.sea = False  # seas and the lake may be conquered (Seafaring)
        self.peace = peace  # seats whose Active race this race may not attack (Diplomat)
        # per region: 2, +1 on a mountain, less the power's reduction (engine/checks.py)
        self.base = base
        self.race_cut = race_cut  # the race's reduction depends on what it holds: ask it
        # worked out by `settle`, once the race and the power have widened the reach:
        self.name = hold.race
        self.water: tuple[bool, ...] = ()  # per region: water it may not enter
        self.free = False  # no adjacency or entry needed (Flying; Halflings' first conquest)
        self.own_free = False  # its own In Decline tokens add nothing to a cost (§16 #9)

    def settle(self, geo: Geo, own_decline_counts: bool) -> None:
        """The race and the power have widened the reach: the facts the checks read."""
        self.water = _dry(geo.n) if self.sea else geo.water
        self.free = self.anywhere or (self.enter_anywhere and not self.held)
        self.own_free = not own_decline_counts


_DRY: dict[int, tuple[bool, ...]] = {}


def _dry(n: int) -> tuple[bool, ...]:
    got = _DRY.get(n)
    if got is None:
        got = _DRY[n] = (False,) * n
    return got


class Ability:
    """What races and powers share: the extra verbs and pieces they bring, and the hooks."""

    name: ClassVar[str] = ""
    verbs: ClassVar[frozenset[str]] = frozenset()  # extra actions it allows (`roll`, ...)
    piece: ClassVar[str | None] = None  # the piece its player places with `place`
    # when its verbs may be used: "conquest" (the conquest phase) or "active" (any time the
    # Active race may act: conquests or redeployment)
    verb_stage: ClassVar[str] = "conquest"

    # ------------------------------------------------------------ legality

    def reach(self, geo: Geo, r: Reach) -> None:
        """Widen where the race may attack (Flying, Seafaring, Underworld, Halflings)."""

    def refuse_other(self, h: Hold) -> E.RulesViolation:
        """The refusal for a player without this ability who uses its verb or piece."""
        return E.NoSuchPower.refuse("lairs_automatic")

    # ------------------------------------------------------------ its own verbs and piece

    def act(self, s: GameState, me: int, h: Hold, action: Action, events: EventLog) -> None:
        """Carry out one of this ability's verbs for its holder (called once it is theirs)."""
        raise NotImplementedError(f"{self.name} has no verb {action.do}")

    def place_error(self, s: GameState, me: int, rid: int) -> E.RulesViolation | None:
        """Why this ability's piece may not go on region `rid` now (None: it may)."""
        return None

    def place(self, s: GameState, me: int, rid: int, events: EventLog) -> None:
        """Put this ability's piece on `rid` (the checks have passed)."""

    # ------------------------------------------------------------ what legal_actions lists

    def before_conquests(self, s: GameState, me: int, h: Hold) -> Sequence[Action]:
        """Actions listed before the conquests (the Berserk roll)."""
        return ()

    def conquests(self, s: GameState, me: int, h: Hold, r: Reach) -> Sequence[Conquest]:
        """Conquests by this ability's own verbs (enchant, dragon)."""
        return ()

    def redeploy_actions(self, s: GameState, me: int, h: Hold,
                         held: tuple[int, ...]) -> Sequence[Action]:
        """Actions of the redeployment (place a piece, choose an ally)."""
        return ()

    # ------------------------------------------------------------ the turn

    def on_conquer(self, s: GameState, me: int, rid: int, hold: Hold, how: str) -> None:
        """The Active race took region `rid` (`how`: conquer, reinforce, dragon, enchant)."""

    def on_conquests_end(self, s: GameState, me: int, events: EventLog) -> None:
        """The conquests are over; redeployment begins."""

    def on_turn_end(self, s: GameState, me: int, events: EventLog) -> None:
        """End of the turn, before scoring (tokens left in hand are deployed already)."""

    def on_pieces_lost(self, s: GameState, seat: int, pieces: tuple[str, ...]) -> None:
        """Pieces of the holder (`seat`) were swept off a region another race took."""

    def pieces_to_replace(self, s: GameState, seat: int) -> int:
        """Pieces the holder puts back at the end of someone else's turn (encampments)."""
        return 0


class DeclineRule:
    """What an In Decline race still does on its holder's turn (Ghouls: engine/ghouls.py).
    The turn calls these for every In Decline race whose `Race.in_decline` is set."""

    def on_turn_start(self, s: GameState, me: int, h: Hold) -> None:
        """The holder's turn begins."""

    def before_active_action(self, s: GameState, me: int, events: EventLog) -> None:
        """The Active race is about to act: the In Decline race's part of the turn is over."""

    def on_decline_turn(self, s: GameState, me: int) -> None:
        """The holder declines their Active race instead of expanding."""


class Race(Ability):
    """Default race: no special rule."""

    reserve: ClassVar[int] = 0  # tokens kept off the board between turns, for attack only
    in_decline: ClassVar[DeclineRule | None] = None  # what it still does In Decline (Ghouls)

    @property
    def tokens(self) -> int:
        return data.races()[self.name].tokens

    @property
    def box(self) -> int:
        return data.races()[self.name].box

    def cost_reduction(self, geo: Geo, held: frozenset[int], rid: int) -> int:
        """Tokens taken off the cost of conquering region `rid`."""
        return 0

    def losses(self, decline: bool) -> int:
        """Tokens lost for good when a region of this race is conquered."""
        return 1

    def income(self, ctx: Income) -> int:
        """Bonus coins at the end of a turn while Active."""
        return 0

    def decline_income(self, ctx: Income) -> int:
        """Bonus coins while In Decline."""
        return 0

    def redeploy_bonus(self, n_nonempty: int) -> int:
        """Extra tokens from the tray when the conquests end."""
        return 0

    def tokens_in_decline(self, tokens: int) -> int:
        """Tokens a region keeps when the race goes into decline (one by default)."""
        return 1

    def on_scenario(self, h: Hold, held: list[Area]) -> None:
        """A scenario put the race on the map: settle what it has used up already."""


class Power(Ability):
    """Default power: no special rule."""

    @property
    def tokens(self) -> int:
        return data.powers()[self.name].tokens

    def cost_reduction(self, geo: Geo, rid: int) -> int:
        """Tokens taken off the cost of conquering region `rid`."""
        return 0

    def income(self, ctx: Income) -> int:
        """Bonus coins at the end of a turn while Active."""
        return 0

    def adjust_cost(self, t: Turn, cost: int) -> int:
        """The cost after the turn's own modifiers (the Berserk roll); at least 1."""
        return cost

    def short_error(self, t: Turn, rid: int, cost: int, hand: int) -> E.RulesViolation:
        """The refusal when `cost` is more than the `hand`."""
        return E.NotEnoughTokens.refuse("not_enough_tokens", region=rid, cost=cost, hand=hand)

    def reinforce_error(self) -> E.RulesViolation | None:
        """Why the final conquest with the die is not for this power (None: it is)."""
        return None

    def conquering_begun(self, t: Turn) -> bool:
        """The conquests have begun without a conquest yet (a Berserk roll): no abandoning."""
        return False

    def declines_after_expanding(self) -> bool:
        """May go into decline at the end of an expansion turn, after scoring (Stout)."""
        return False

    def extra_decline(self) -> bool:
        """In Decline beside another race: no one-decline limit, badge kept (Spirit)."""
        return False


RACE_RULES: dict[str, Race] = {}
POWER_RULES: dict[str, Power] = {}
# the ability that defines each extra verb and piece (for the refusal of everyone else)
VERB_OWNERS: dict[str, Ability] = {}
PIECE_OWNERS: dict[str, Ability] = {}


def _claim(ab: Ability) -> None:
    for verb in ab.verbs:
        VERB_OWNERS.setdefault(verb, ab)
    if ab.piece is not None:
        PIECE_OWNERS.setdefault(ab.piece, ab)


R = TypeVar("R", bound=Race)
P = TypeVar("P", bound=Power)


def register_race(cls: type[R]) -> type[R]:
    """Class decorator: the race's rules, found by its name."""
    if not cls.name or cls.name in RACE_RULES:
        raise ValueError(f"race name {cls.name!r} is empty or taken")
    RACE_RULES[cls.name] = rule = cls()
    _claim(rule)
    _drop_kits()
    return cls


def register_power(cls: type[P]) -> type[P]:
    """Class decorator: the power's rules, found by its name."""
    if not cls.name or cls.name in POWER_RULES:
        raise ValueError(f"power name {cls.name!r} is empty or taken")
    POWER_RULES[cls.name] = rule = cls()
    _claim(rule)
    _drop_kits()
    return cls


def _drop_kits() -> None:
    """A race or power registered: kits are made anew (those kept on holds too)."""
    for kit in _KITS.values():
        kit.stale = True
    _KITS.clear()


def race_rule(name: str) -> Race:
    """The race's rules; an unknown name fails."""
    try:
        return RACE_RULES[name]
    except KeyError:
        raise ValueError(f"unknown race {name!r}") from None


def power_rule(name: str) -> Power:
    """The power's rules; an unknown name fails."""
    try:
        return POWER_RULES[name]
    except KeyError:
        raise ValueError(f"unknown power {name!r}") from None


def _overrides(ab: Ability, hook: str) -> bool:
    """Whether the race or power overrides `hook` (the default does nothing)."""
    base = Race if isinstance(ab, Race) else Power
    return getattr(type(ab), hook) is not getattr(base, hook)


class Kit:
    """The race and power of a hold, and for each hook the ones of them that override it.

    A hook left at its default does nothing, so the turn and the listing call only the
    overriding ones (the same result, without a call per no-op hook on every action)."""

    __slots__ = ("race", "power", "abilities", "before_conquests", "conquests",
                 "redeploy_actions", "on_conquer", "on_conquests_end", "on_turn_end",
                 "scores", "replaces", "redeploy_bonus", "conquering_begun", "declines_late",
                 "pieces", "stale")

    def __init__(self, race: Race, power: Power | None) -> None:
        self.race = race
        self.power = power
        self.stale = False  # a race or power registered since: look it up again
        self.abilities: tuple[Ability, ...] = (race,) if power is None else (race, power)
        mine = self._overriding
        self.before_conquests = mine("before_conquests")
        self.conquests = mine("conquests")
        self.redeploy_actions = mine("redeploy_actions")
        self.on_conquer = mine("on_conquer")
        self.on_conquests_end = mine("on_conquests_end")
        self.on_turn_end = mine("on_turn_end")
        # Race.income / Power.income overridden: a turn's score asks them
        self.scores = bool(mine("income"))
        # the power puts pieces back at the end of others' turns (pieces_to_replace)
        self.replaces = power is not None and _overrides(power, "pieces_to_replace")
        self.redeploy_bonus = _overrides(race, "redeploy_bonus")
        self.conquering_begun = power is not None and _overrides(power, "conquering_begun")
        self.declines_late = power is not None and _overrides(power, "declines_after_expanding")
        # piece -> the one of the two that places it
        self.pieces: dict[str, Ability] = {}
        for ab in reversed(self.abilities):
            if ab.piece is not None:
                self.pieces[ab.piece] = ab

    def _overriding(self, hook: str) -> tuple[Ability, ...]:
        return tuple(ab for ab in self.abilities if _overrides(ab, hook))


def kit_of(h: Hold) -> Kit:
    """The race and power of a hold, with their overriding hooks (see `Kit`); kept on the
    hold (and its copies) once found."""
    got: Kit | None = h.kit  # the state keeps it untyped (see Hold.kit)
    if got is None or got.stale:
        key = (h.race, h.power)
        got = _KITS.get(key)
        if got is None:
            got = _KITS[key] = Kit(race_rule(h.race),
                                   None if h.power is None else power_rule(h.power))
        h.kit = got
    return got


def abilities_of(h: Hold) -> tuple[Ability, ...]:
    """The race and (when it has one) the power of a hold."""
    return kit_of(h).abilities


_KITS: dict[tuple[str, str | None], Kit] = {}
