"""Player-facing sentences: event summaries, labels, status. Pure functions, no discord.

Public lines are built only from `engine.public_events` output and the public observation,
and never mention a coin total or a turn's income.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import i18n
from bot import sentences
from bot.language import of_game
from engine import data as engine_data
from engine import public_events as engine_public
from engine.events import EVENT_KINDS

PRIVATE_WORDS = ("coin", "income", "score")
VERBS = ("pick", "abandon", "conquer", "reinforce", "roll", "decline", "deploy", "move",
         "enchant", "dragon", "place", "ally", "end")


def combo_label(race: str, power: str, tokens: int, cost: int, coins: int,
                lang: str = "en") -> str:
    """A combo in a menu or autocomplete list: names, tokens, cost, coins lying on it."""
    return i18n.t("label.combo", lang, combo=i18n.t("combo", lang, race=race, power=power),
                  tokens=tokens, cost=cost, coins=coins)


def target_label(region: int, verb: str, cost: int | None, terrain: str, holder: str,
                 lang: str = "en") -> str:
    """A region one may attack now, with what stands on it and the tokens it takes."""
    label = i18n.t("label.target", lang, verb=verb.split(" ")[0], region=region,
                   terrain=terrain, holder=holder, ghouls="decline" in verb)
    return i18n.t("label.price", lang, label=label, n=cost) if cost is not None else label


def action_label(action: dict[str, Any], lang: str = "en") -> str:
    """A menu entry for an abandon, deploy, place or ally action."""
    verb = action.get("do")
    if i18n.has(f"choice.{verb}"):
        return i18n.t(f"choice.{verb}", lang, **{k: v for k, v in action.items() if k != "do"})
    return action_phrase(action)


def holder(region: dict[str, Any] | None, lang: str = "en") -> str:
    """Who stands on a region, from its public observation entry."""
    if not region or (region.get("owner") is None and not region.get("lost_tribe")):
        return i18n.t("holder.empty", lang)
    if region.get("lost_tribe"):
        return i18n.t("holder.tribe", lang)
    return i18n.t("holder.race", lang, owner=region["owner"], race=region.get("race", "?"),
                  decline=bool(region.get("decline")), tokens=region.get("tokens", 0))


VIOLATION_LIMIT = 300  # an engine sentence is only longer when it quotes a player's input


def violation(message: str) -> str:
    # a long quoted input is cut to its first characters, the sentence around it stays
    message = re.sub(r"""(['"])([^'"]{""" + str(ECHO_LIMIT) + r""",})\1""",
                     lambda m: echo(m.group(2)), message.strip())
    message = clip(message, VIOLATION_LIMIT)
    if not message.endswith((".", "!", "?")):
        message += "."
    return f"{message} Use `/sw status` to see what you can do now."


def started_line(board: str, players: Sequence[str], lang: str = "en") -> str:
    order = i18n.t("list.sep", lang).join(f"**{p}**" for p in players)
    return i18n.t("game.started", lang, board=board_label(board, lang), order=order,
                  first=f"**{players[0]}**")


def undo_line(who: str | None, actions: Sequence[dict[str, Any]], lang: str = "en") -> str:
    """Who took back which actions (`who` None: a moderator)."""
    what = "; ".join(action_phrase(a, lang) for a in actions) or i18n.t("svc.nothing", lang)
    return i18n.t("svc.undo", lang, who=who or "", mod=who is None, what=what)


def skipped_line(who: str | None, lang: str = "en") -> str:
    return i18n.t("svc.skipped", lang, who=who or "", known=bool(who))


def replaced_line(seat: str, new_user_id: int, lang: str = "en") -> str:
    return i18n.t("svc.replaced", lang, user=new_user_id, seat=seat)


def vacated_line(seat: str, lang: str = "en") -> str:
    return i18n.t("svc.vacated", lang, seat=seat)


def action_phrase(action: dict[str, Any], lang: str = "en") -> str:
    """A short phrase for one action (log and undo lines)."""
    a = action
    verb = a.get("do")
    if not isinstance(verb, str) or not i18n.has(f"svc.do.{verb}"):
        return str(verb)
    slot = a.get("slot")
    return i18n.t(f"svc.do.{verb}", lang, slot=slot + 1 if isinstance(slot, int) else "?",
                  region=a.get("region"), ghouls=a.get("race") == "decline",
                  count=a.get("count", 0) if isinstance(a.get("count", 0), int) else 0,
                  src=a.get("from"), dst=a.get("to"), piece=a.get("piece", "?"),
                  target=a.get("target"), ghoul_race="Ghouls", berserk="Berserk")


def hint_lines(told: dict[str, Any], lang: str = "en") -> list[str]:
    """The AI coach's suggestion (bot.game.ai_worker.hint's answer) in `lang`: what to do,
    then why."""
    return [i18n.t("coach.head", lang, action=action_phrase(told["action"], lang)),
            i18n.t(f"hint.{told['reason']}", lang, **told["params"])]


def log_line(seq: int, action: dict[str, Any], summary: Sequence[str], lang: str = "en") -> str:
    who = action.get("player", "?")
    tail = f" — {' '.join(summary)}" if summary else ""
    return f"`#{seq}` **{who}**: {action_phrase(action, lang)}{tail}"


def _safe_fields(ev: dict[str, Any]) -> str:
    parts = []
    for k, v in ev.items():
        if k in ("type", "private") or any(w in k for w in PRIVATE_WORDS):
            continue
        if isinstance(v, dict | list):
            continue
        parts.append(f"{k.replace('_', ' ')} {v}")
    return ", ".join(parts)


def describe_event(ev: dict[str, Any], lang: str = "en") -> str | None:
    """One public sentence for one public event (None: not worth a line), in `lang`.

    Every engine event kind has a catalog sentence (bot.sentences); an event of a kind the
    engine does not emit gets a neutral line without coin fields rather than a crash."""
    t = ev.get("type")
    if not t:
        return None
    if t in EVENT_KINDS:
        return sentences.event_line(ev, lang)
    fields = _safe_fields(ev)
    return f"{str(t).replace('_', ' ').capitalize()}{': ' + fields if fields else ''}."


def public_events(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events everyone may read (engine.public_events: private kinds keep only their type
    and player), as the dicts the bot stores."""
    return [e if isinstance(e, dict) else e.as_dict() for e in engine_public(events)]


def describe_events(events: Iterable[dict[str, Any]], lang: str = "en") -> list[str]:
    """Public summary lines for already public events."""
    out = []
    for ev in events:
        if ev.get("private"):
            continue
        line = describe_event(ev, lang)
        if line:
            out.append(line)
    return out


def describe_private(ev: dict[str, Any], lang: str = "en") -> str:
    """A line for the owner of a private event (their coins)."""
    line = sentences.private_line(ev, lang)
    if line is not None:
        parts = income_parts(ev.get("breakdown"), lang)
        return f"{line}\n{parts}" if parts else line
    fields = ", ".join(f"{k} {v}" for k, v in ev.items() if k not in ("type", "private"))
    return f"{str(ev.get('type', 'event')).replace('_', ' ').capitalize()}: {fields}."


def lobby_lines(game: Any, lang: str | None = None) -> list[str]:
    lang = lang or of_game(game)
    limit = game.opts.max_players
    seats = (i18n.t("list.sep", lang).join(f"**{s.name}**" if s.ai else f"<@{s.user_id}>"
                                           for s in game.players)
             or i18n.t("lobby.nobody", lang))
    size = f"{len(game.players)}/{limit}" if limit else f"{len(game.players)}"
    board = (board_label(game.board, lang, short=True) if game.board
             else i18n.t("lobby.board_auto", lang))
    lines = [
        i18n.t("lobby.head", lang, board=board, size=size, seats=seats),
        i18n.t("lobby.hint", lang),
    ]
    opts = game.opts
    if opts.clock is not None:
        lines.insert(1, i18n.t("svc.lobby.clock", lang, clock=opts.turn_clock.describe(lang)))
    tag = opts.league
    if tag is not None:  # kept on every redraw of the lobby (joins, leaves)
        lines.insert(0, i18n.t("svc.lobby.league", lang,
                               league=tag.league or i18n.Msg("svc.lobby.the_league"),
                               season=tag.season or i18n.Msg("svc.lobby.this_season")))
        if tag.round and tag.table is not None:
            lines.insert(1, i18n.t("svc.lobby.table", lang, round=tag.round,
                                   table=tag.table_no if tag.table_no is not None else "?",
                                   members=i18n.t("list.sep", lang).join(
                                       f"<@{u}>" for u in tag.table),
                                   time=(tag.start_by or "")[11:16]))
    return lines


def legal_summary(legal: Sequence[dict[str, Any]], lang: str = "en") -> str:
    verbs = []
    for a in legal:
        v = a.get("do")
        if v not in verbs:
            verbs.append(v)
    return i18n.t("list.sep", lang).join(
        i18n.t(f"verb.{v}", lang) if i18n.has(f"verb.{v}") else f"`{v}`" for v in verbs
    ) or i18n.t("verb.nothing", lang)


def status_lines(game: Any, obs: Mapping[str, Any], legal: Sequence[dict[str, Any]],
                 lang: str | None = None) -> list[str]:
    """Public status: round, whose turn and stage, every player's races, what is legal."""
    lang = lang or of_game(game)
    lines = []
    if obs.get("finished"):
        lines.append(i18n.t("status.over", lang, game=game.id))
    else:
        actor = None
        pending = obs.get("pending") or []
        if pending:
            actor = pending[0].get("player")
        actor = actor or obs.get("current")
        seat = game.seat_named(actor) if actor else None
        who = f"<@{seat.user_id}>" if seat and seat.user_id else f"**{actor}**"
        stage = str(obs.get("stage"))
        lines.append(i18n.t("status.head", lang, game=game.id, round=obs.get("round"),
                            rounds=obs.get("rounds"), who=who,
                            stage=i18n.t(f"stage.{stage}", lang) if i18n.has(f"stage.{stage}")
                            else stage))
    sep = i18n.t("list.sep", lang)
    for name, p in (obs.get("players") or {}).items():
        act = p.get("active")
        active = (i18n.t("status.active", lang, n=act.get("tokens_on_board", 0),
                         combo=i18n.t("combo", lang, power=act.get("power"), race=act.get("race")))
                  if act else i18n.t("status.no_active", lang))
        declines = sep.join(i18n.name("race", d.get("race"), lang) for d in p.get("decline") or [])
        lines.append(i18n.t("status.player", lang, player=f"**{name}**", active=active,
                            declines=declines or "none", hand=p.get("hand") or 0))
    if legal and not obs.get("finished"):
        lines.append(i18n.t("status.can", lang, list=legal_summary(legal, lang)))
    return lines


def ranking_lines(ranking: Sequence[dict[str, Any]] | None, players: dict[str, Any],
                  lang: str = "en") -> list[str]:
    """The end-of-game reveal: every coin total, the ranking and the tie-break."""
    lines = [i18n.t("final.scores", lang)]
    if ranking:
        def total(r: dict[str, Any]) -> Any:
            return r.get("total", r.get("coins", players.get(str(r.get("player")), {}).get(
                "coins")))

        totals = [total(r) for r in ranking]
        for r, coins in zip(ranking, totals, strict=True):
            name = r.get("player", "?")
            tokens = r.get("tokens")
            tied = totals.count(coins) > 1
            lines.append(i18n.t("final.rank", lang, rank=r.get("rank", "?"), player=f"**{name}**",
                                coins=coins or 0, tie=tied and tokens is not None,
                                tokens=tokens or 0))
    else:
        for name, p in sorted(players.items(), key=lambda kv: -(kv[1].get("coins") or 0)):
            lines.append(i18n.t("final.rank_plain", lang, player=f"**{name}**",
                                coins=p.get("coins") or 0))
    lines.append(i18n.t("final.tie_chat", lang))
    return lines


# -- UX additions: caps, labels, help, confirmations, alt text ------------------------------

ECHO_LIMIT = 80  # characters of a player's own input quoted back to them
MESSAGE_LIMIT = 2000  # Discord's limit for a message's content
ALT_LIMIT = 1000  # picture descriptions (Discord allows 1024)


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """A player's input quoted back, cut short and without markdown or mentions."""
    text = " ".join(str(value).split())
    text = text.replace("`", "'").replace("@", "@\u200b")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Any message content cut to Discord's limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_lines(lines: Sequence[str], limit: int, *, newest: bool = False,
               lang: str = "en") -> list[str]:
    """As many whole lines as fit in `limit` characters: the first ones, or the last ones
    (`newest`), with a line saying how many were left out."""
    order = list(reversed(lines)) if newest else list(lines)
    room = limit - 40  # for the line that says how many were left out
    out: list[str] = []
    size = 0
    for line in order:
        line = clip(line, room)
        if size + len(line) + 1 > room:
            break
        out.append(line)
        size += len(line) + 1
    left = len(order) - len(out)
    if left:
        out.append(i18n.t("svc.lines_earlier" if newest else "svc.lines_more", lang, n=left))
    return list(reversed(out)) if newest else out


def board_label(board_id: str | None, lang: str = "en", *, short: bool = False) -> str:
    """A board as players know it: "the board for 3 players" rather than its id."""
    if not board_id:
        return "?"
    try:
        n = engine_data.board(board_id).players
    except Exception:  # noqa: BLE001 - an unknown id is shown as it is
        return str(board_id)
    return i18n.t("board.short" if short else "board.label", lang, n=n)


def board_choice(n_players: int, lang: str = "en") -> str:
    return i18n.t("svc.choice.board", lang, n=n_players)


def over_line(game_id: int, finished_at: str | None, lang: str = "en") -> str:
    when = finished_at[:16].replace("T", " ") if finished_at else ""
    return i18n.t("svc.over", lang, game=game_id, when=when, known=bool(when))


def income_parts(breakdown: Any, lang: str = "en") -> str:
    """The private income breakdown of one turn: regions, race, power, In Decline races."""
    if not isinstance(breakdown, dict):
        return ""
    parts = [i18n.t(f"income.{key}", lang,
                    n=f"{breakdown[key]:+d}" if key != "regions" else str(breakdown[key]))
             for key in ("regions", "race", "power", "decline")
             if isinstance(breakdown.get(key), int) and (breakdown[key] or key == "regions")]
    return i18n.t("income.head", lang, parts=" · ".join(parts)) if parts else ""


LOBBY_STARTED = "**Small World game #{game}** — started with {players}."


def menu_more(shown: int, total: int, command: str, lang: str = "en") -> str:
    """A long menu's note: how many options it shows, and the command that reaches the rest."""
    return i18n.t("svc.menu_more", lang, shown=shown, total=total, command=command)


def map_alt(obs: Mapping[str, Any], lang: str = "en") -> str:
    """Alt text of a map: round, whose turn, who holds how many regions. Never coins."""
    regions = obs.get("regions") or {}
    held: dict[str, int] = {}
    tribes = 0
    for r in regions.values():
        if r.get("lost_tribe"):
            tribes += 1
        elif r.get("owner"):
            held[r["owner"]] = held.get(r["owner"], 0) + 1
    parts = [i18n.t("svc.alt.map", lang, round=obs.get("round"), rounds=obs.get("rounds"))]
    if obs.get("finished"):
        parts.append(i18n.t("svc.alt.over", lang))
    elif obs.get("actor"):
        parts.append(i18n.t("svc.alt.to_play", lang, player=obs.get("actor")))
    holders = i18n.t("list.sep", lang).join(
        i18n.t("svc.alt.holder", lang, player=name, n=n)
        for name, n in sorted(held.items(), key=lambda kv: (-kv[1], kv[0])))
    if holders:
        parts.append(i18n.t("svc.alt.held", lang, holders=holders))
    if tribes:
        parts.append(i18n.t("svc.alt.tribes", lang, n=tribes))
    return clip(". ".join(parts) + ".", ALT_LIMIT)


def row_alt(obs: Mapping[str, Any], lang: str = "en") -> str:
    """Alt text of the combo row: each slot numbered 1-6 as on the picture."""
    items = [i18n.t("svc.alt.combo", lang, slot=i + 1, cost=i,
                    combo=i18n.t("combo", lang, race=c.get("race"), power=c.get("power")),
                    coins=c.get("coins_on_combo") or 0)
             for i, c in enumerate(obs.get("row") or [])]
    return clip(i18n.t("svc.alt.row", lang, items="; ".join(items)), ALT_LIMIT)


def final_alt(obs: Mapping[str, Any], lang: str = "en") -> str:
    """Alt text of the final reveal (coins are public once the game is over)."""
    items = [i18n.t("svc.alt.rank", lang, rank=r.get("rank"), player=r.get("player"),
                    coins=r.get("total") or 0)
             for r in obs.get("ranking") or []]
    return clip(i18n.t("svc.alt.final", lang, items="; ".join(items)), ALT_LIMIT)


def board_lines(obs: Mapping[str, Any], terrains: Sequence[str], lang: str = "en") -> list[str]:
    """The map as text: every region by holder (the same public view as the picture)."""
    regions = obs.get("regions") or {}
    sep = i18n.t("list.sep", lang)
    by: dict[str, list[str]] = {}
    tribes, empty = [], []
    for rid in range(len(terrains)):
        r = regions.get(str(rid)) or {}
        what = [i18n.name("terrain", terrains[rid], lang),
                *(i18n.name("piece", p, lang) for p in r.get("pieces") or [])]
        tag = f"{rid} ({sep.join(what)})"
        if r.get("lost_tribe"):
            tribes.append(tag)
        elif r.get("owner"):
            key = i18n.t("svc.board.holder", lang, owner=f"**{r['owner']}**",
                         race=r.get("race"), decline=bool(r.get("decline")))
            by.setdefault(key, []).append(f"{tag} ×{r.get('tokens', 0)}")
        else:
            empty.append(tag)
    lines = [i18n.t("svc.board.head", lang, round=obs.get("round"), rounds=obs.get("rounds"))]
    for key, items in by.items():
        lines.append(f"{key} ({len(items)}): " + "; ".join(items))
    if tribes:
        lines.append(i18n.t("svc.board.tribes", lang, n=len(tribes), items="; ".join(tribes)))
    if empty:
        lines.append(i18n.t("svc.board.empty", lang, n=len(empty), items="; ".join(empty)))
    return lines


# pydantic's error types we word ourselves (svc.problem.<type>); others are "not valid"
FIELD_PROBLEMS = ("greater_than_equal", "less_than_equal", "greater_than", "less_than",
                  "int_type", "int_parsing", "string_type", "missing", "extra_forbidden",
                  "literal_error", "union_tag_invalid", "union_tag_not_found")


def invalid_field(field: str, kind: str, ctx: dict[str, Any] | None,
                  value: Any) -> i18n.Msg:
    """One malformed field in player words: "region must be 0 or more (you gave -3)", as a
    message any language words (field names and problems come from the catalogs)."""
    ctx = dict(ctx or {})
    problem = f"svc.problem.{kind}" if kind in FIELD_PROBLEMS else "svc.problem.invalid"
    if not set(i18n.placeholders(i18n.template(problem))) <= set(ctx):
        problem, ctx = "svc.problem.invalid", {}
    name = (i18n.Msg(f"svc.field.{field}") if i18n.has(f"svc.field.{field}")
            else echo(field.replace("_", " "), 20))
    gave = (i18n.Msg("svc.gave", value=echo(value, 20))
            if value is not None and kind != "missing" else "")
    return i18n.Msg("svc.field", field=name, problem=i18n.Msg(problem, **ctx), gave=gave)
