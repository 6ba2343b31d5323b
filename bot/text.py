"""Player-facing sentences: event summaries, labels, status. Pure functions, no discord.

Public lines are built only from `engine.public_events` output and the public observation,
and never mention a coin total or a turn's income.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

PRIVATE_WORDS = ("coin", "income", "score")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def combo_label(race: str, power: str, tokens: int, cost: int, coins: int) -> str:
    parts = [f"{power} {race}", _plural(tokens, "token")]
    parts.append("free" if cost == 0 else f"costs {cost}")
    if coins:
        parts.append(f"{_plural(coins, 'coin')} on it")
    return " · ".join(parts)


def target_label(region: int, verb: str, cost: int | None, terrain: str, holder: str) -> str:
    head = {
        "conquer": "Conquer",
        "reinforce": "Die roll on",
        "dragon": "Dragon on",
        "enchant": "Enchant",
    }.get(verb.split(" ")[0], verb.capitalize())
    extra = " with In Decline Ghouls" if "decline" in verb else ""
    price = f" · {_plural(cost, 'token')}" if cost is not None else ""
    return f"{head} region {region} ({terrain}, {holder}){extra}{price}"


def holder(region: dict[str, Any] | None) -> str:
    """Who stands on a region, from its public observation entry."""
    if not region:
        return "empty"
    if region.get("lost_tribe"):
        return "lost tribe"
    owner = region.get("owner")
    if owner is None:
        return "empty"
    race = region.get("race", "?")
    state = " in decline" if region.get("decline") else ""
    return f"{owner}'s {race}{state} ×{region.get('tokens', 0)}"


def violation(message: str) -> str:
    message = message.strip()
    if not message.endswith((".", "!", "?")):
        message += "."
    return f"{message} Use `/sw status` to see what you can do now."


def started_line(board: str, players: Sequence[str]) -> str:
    order = ", ".join(f"**{p}**" for p in players)
    return (f"The game starts on board {board}. Turn order (drawn at random): {order}. "
            f"**{players[0]}** plays first.")


def undo_line(who: str, actions: Sequence[dict[str, Any]]) -> str:
    what = "; ".join(action_phrase(a) for a in actions) or "nothing"
    return f"{who} took back: {what}."


def skipped_line(who: str | None) -> str:
    return f"A moderator skipped **{who}**'s turn." if who else "A moderator skipped a turn."


def replaced_line(seat: str, new_user_id: int) -> str:
    return f"<@{new_user_id}> now plays the seat **{seat}**."


def vacated_line(seat: str) -> str:
    return f"**{seat}** was removed from the game; that seat's turns are skipped from now on."


def action_phrase(action: dict[str, Any]) -> str:
    """A short phrase for one action (log and undo lines)."""
    a = action
    match a.get("do"):
        case "pick":
            return f"pick combo {a.get('slot', '?') + 1 if isinstance(a.get('slot'), int) else '?'}"
        case "abandon":
            return f"abandon region {a.get('region')}"
        case "conquer":
            ghouls = " with In Decline Ghouls" if a.get("race") == "decline" else ""
            return f"conquer region {a.get('region')}{ghouls}"
        case "reinforce":
            return f"final conquest of region {a.get('region')} with the die"
        case "roll":
            return "roll the Berserk die"
        case "decline":
            return "go into decline"
        case "deploy":
            return f"put {_plural(a.get('count', 0), 'token')} on region {a.get('region')}"
        case "move":
            return (f"move {_plural(a.get('count', 0), 'token')} from region {a.get('from')} "
                    f"to region {a.get('to')}")
        case "enchant":
            return f"enchant region {a.get('region')}"
        case "dragon":
            return f"dragon attack on region {a.get('region')}"
        case "place":
            return f"place {str(a.get('piece', '?')).replace('_', ' ')} on region {a.get('region')}"
        case "ally":
            return f"make peace with {a.get('target')}"
        case "end":
            return "end the turn"
        case other:
            return str(other)


def log_line(seq: int, action: dict[str, Any], summary: Sequence[str]) -> str:
    who = action.get("player", "?")
    tail = f" — {' '.join(summary)}" if summary else ""
    return f"`#{seq}` **{who}**: {action_phrase(action)}{tail}"


def _safe_fields(ev: dict[str, Any]) -> str:
    parts = []
    for k, v in ev.items():
        if k in ("type", "private") or any(w in k for w in PRIVATE_WORDS):
            continue
        if isinstance(v, dict | list):
            continue
        parts.append(f"{k.replace('_', ' ')} {v}")
    return ", ".join(parts)


def _piece(name: Any) -> str:
    return str(name).replace("_", " ")


def describe_event(ev: dict[str, Any]) -> str | None:
    """One public sentence for one public event (None: not worth a line)."""
    t = ev.get("type")
    p = f"**{ev.get('player', '?')}**"
    match t:
        case "picked":
            n = ev.get("tokens")
            tokens = f" ({_plural(n, 'token')})" if isinstance(n, int) else ""
            return f"{p} picks the {ev.get('power', '?')} {ev.get('race', '?')}{tokens}."
        case "conquered":
            return _conquered(ev, p)
        case "rolled":
            why = ev.get("for")
            return f"{p} rolls the die{f' for {why}' if why else ''}: **{ev.get('value')}**."
        case "reinforce_failed":
            return (f"{p}'s final conquest of region {ev.get('region')} fails "
                    f"(needed {ev.get('needed')}, had {ev.get('had')} + {ev.get('rolled')}).")
        case "declined":
            return f"{p}'s {ev.get('power', '')} {ev.get('race', 'race')} go into decline."
        case "abandoned":
            forced = " (no token left for it)" if ev.get("forced") else ""
            return f"{p} abandons region {ev.get('region')}{forced}."
        case "deployed":
            who = " survivors" if ev.get("survivors") else ""
            return f"{p} puts {_plural(ev.get('count', 0), 'token')}{who} on region " \
                   f"{ev.get('region')}."
        case "moved":
            return f"{p} moves {_plural(ev.get('count', 0), 'token')} from region " \
                   f"{ev.get('from')} to region {ev.get('to')}."
        case "placed":
            return f"{p} places the {_piece(ev.get('piece'))} on region {ev.get('region')}."
        case "allied":
            return f"{p} makes peace with **{ev.get('target')}** until their next turn."
        case "bonus_tokens":
            return f"{p}'s {ev.get('race')} gain {_plural(ev.get('tokens', 0), 'token')}."
        case "reserve":
            return f"{p}'s {ev.get('race')} keep {_plural(ev.get('tokens', 0), 'token')} " \
                   "in reserve."
        case "vanished":
            return f"The {ev.get('race')} have left the map."
        case "must_place":
            if "tokens" in ev:
                return f"{p} must place {_plural(ev.get('tokens', 0), 'surviving token')}."
            return f"{p} must re-place {_plural(ev.get('encampments', 0), 'encampment')}."
        case "scored":
            return f"{p} scores (coins are sent privately)."
        case "turn_ended":
            return f"{p}'s turn ends."
        case "turn_started":
            return None
        case "round_started":
            return f"— Round {ev.get('round')} begins —"
        case "survivors_done" | "drew" | "reshuffled":
            return None
        case "game_over":
            winners = ev.get("winners") or []
            return f"The game is over. Winner{'s' if len(winners) != 1 else ''}: " + ", ".join(
                f"**{w}**" for w in winners) + "."
        case _:
            if not t:
                return None
            fields = _safe_fields(ev)
            return f"{str(t).replace('_', ' ').capitalize()}{': ' + fields if fields else ''}."


def _conquered(ev: dict[str, Any], p: str) -> str:
    race = ev.get("race", "")
    decline = " In Decline" if ev.get("in_decline") else ""
    by = ev.get("by")
    how = {"dragon": " with the Dragon", "enchant": " by sorcery",
           "reinforce": " with the die's help"}.get(by, "")
    d, dr = ev.get("defender"), ev.get("defender_race")
    if dr in ("lost_tribe", "Lost Tribe") or d in ("lost_tribe", "Lost Tribe"):
        against = " from a Lost Tribe"
    elif d:
        against = f" from **{d}**'s {dr}" if dr else f" from **{d}**"
    else:
        against = ""
    lost = ev.get("lost")
    loss = f", who lose{'' if lost != 1 else 's'} {_plural(lost, 'token')}" \
        if d and isinstance(lost, int) and lost else ""
    n = ev.get("tokens")
    using = f" using {_plural(n, 'token')}" if isinstance(n, int) else ""
    return f"{p}'s{decline} {race} conquer region {ev.get('region')}{against}{how}{using}{loss}."


def describe_events(events: Iterable[dict[str, Any]]) -> list[str]:
    """Public summary lines for already public events."""
    out = []
    for ev in events:
        if ev.get("private"):
            continue
        line = describe_event(ev)
        if line:
            out.append(line)
    return out


def describe_private(ev: dict[str, Any]) -> str:
    """A line for the owner of a private event (their coins)."""
    if ev.get("type") == "scored":
        income, coins = ev.get("income"), ev.get("coins")
        return f"This turn you scored **{income}** coin{'s' if income != 1 else ''}; " \
               f"you now have **{coins}**."
    fields = ", ".join(f"{k} {v}" for k, v in ev.items() if k not in ("type", "private"))
    return f"{str(ev.get('type', 'event')).replace('_', ' ').capitalize()}: {fields}."


def lobby_lines(game: Any) -> list[str]:
    limit = game.options.get("max_players")
    seats = ", ".join(f"<@{s.user_id}>" for s in game.players) or "nobody yet"
    size = f"{len(game.players)}/{limit}" if limit else f"{len(game.players)}"
    board = game.board or "chosen by the number of players"
    lines = [
        f"**Small World lobby** — board: {board} — players ({size}): {seats}",
        "Join with the button or `/sw join`; the opener starts with `/sw start`.",
    ]
    tag = game.options.get("league")
    if isinstance(tag, dict):  # kept on every redraw of the lobby (joins, leaves)
        lines.insert(0, f"A **league game** of {tag.get('league', 'the league')}, "
                        f"{tag.get('season', 'this season')}! Only registered players can join "
                        "(`/league join`); the result counts when the game is finished.")
    return lines


_VERB_HELP = {
    "pick": "`/sw pick` a combo",
    "conquer": "`/sw conquer` a region",
    "reinforce": "`/sw reinforce` (final conquest with the die)",
    "roll": "`/sw roll` (Berserk)",
    "abandon": "`/sw abandon` a region",
    "decline": "`/sw decline`",
    "deploy": "`/sw deploy` tokens",
    "move": "`/sw move` tokens",
    "enchant": "`/sw power enchant`",
    "dragon": "`/sw power dragon`",
    "place": "`/sw power place`",
    "ally": "`/sw power ally`",
    "end": "`/sw end` the turn",
}


def legal_summary(legal: Sequence[dict[str, Any]]) -> str:
    verbs = []
    for a in legal:
        v = a.get("do")
        if v not in verbs:
            verbs.append(v)
    return ", ".join(_VERB_HELP.get(v, f"`{v}`") for v in verbs) or "nothing"


def status_lines(game: Any, obs: dict[str, Any], legal: Sequence[dict[str, Any]]) -> list[str]:
    """Public status: round, whose turn and stage, every player's races, what is legal."""
    lines = []
    if obs.get("finished"):
        lines.append(f"Game #{game.id} is over.")
    else:
        actor = None
        pending = obs.get("pending") or []
        if pending:
            actor = pending[0].get("player")
        actor = actor or obs.get("current")
        seat = game.seat_named(actor) if actor else None
        who = f"<@{seat.user_id}>" if seat and seat.user_id else f"**{actor}**"
        lines.append(f"Game #{game.id} — round {obs.get('round')}/{obs.get('rounds')} — "
                     f"{who} to act ({obs.get('stage')}).")
    for name, p in (obs.get("players") or {}).items():
        act = p.get("active")
        active = (f"{act.get('power')} {act.get('race')} ({act.get('tokens_on_board', 0)} on "
                  f"the map)") if act else "no active race"
        declines = ", ".join(d.get("race", "?") for d in p.get("decline") or [])
        hand = p.get("hand")
        extra = f"; in decline: {declines}" if declines else ""
        in_hand = f"; {hand} in hand" if hand else ""
        lines.append(f"• **{name}**: {active}{extra}{in_hand}")
    if legal and not obs.get("finished"):
        lines.append(f"Can do now: {legal_summary(legal)}.")
    return lines


def ranking_lines(ranking: Sequence[dict[str, Any]] | None, players: dict[str, Any]) -> list[str]:
    """The end-of-game reveal: every coin total, the ranking and the tie-break."""
    lines = ["**Final scores**"]
    if ranking:
        for r in ranking:
            name = r.get("player", "?")
            coins = r.get("total", r.get("coins", players.get(name, {}).get("coins")))
            tokens = r.get("tokens")
            tb = f" · {_plural(tokens, 'token')} on the map (tie-break)" if tokens is not None else ""
            lines.append(f"{r.get('rank', '?')}. **{name}** — {_plural(coins or 0, 'coin')}{tb}")
    else:
        for name, p in sorted(players.items(), key=lambda kv: -(kv[1].get("coins") or 0)):
            lines.append(f"• **{name}** — {_plural(p.get('coins') or 0, 'coin')}")
    lines.append("Ties on coins are broken by the most race tokens on the map "
                 "(Active and In Decline); a remaining tie is a shared victory.")
    return lines
