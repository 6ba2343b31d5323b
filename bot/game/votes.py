"""Seat votes: the table decides without a moderator.

A seated member calls a vote — pause the game's clock (and later resume it), add time to the
turn going on, hand an absent member's seat to the AI, or end the game now and score it as
it stands. One vote is open per game at a time; each seated member has one ballot (a second
click changes it); a majority of the seated members decides, and a vote nobody can win any
more fails at once; a vote that is not decided by its expiry (a `vote` deadline on the one
clock) expires. A moderator decides alone: her ballot, or her call, settles it.

Settling is a compare-and-swap on the vote in the same transaction as what it decided (the
store's `settle`), under the channel's lock, so the effect happens once; its outcome is
posted once (the vote row remembers it was posted; the bot posts what it owed after a
restart), and the game's history (`/sw-game log`) lists it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.errors import NoGameHere, NotSeated, ServiceError
from bot.game.core import GameCore
from bot.game.results import Outcome
from bot.store import GameRow, GameStatus, Vote, VoteOpen

KINDS = ("pause", "resume", "time", "ai", "end")
VOTE_FOR = 24 * 3600.0  # seconds a vote stays open


class VoteError(ServiceError):
    code = "vote"


@dataclass(slots=True)
class VoteNews:
    """A vote as it stands after a call or a ballot, and, once settled, the game after it
    (`outcome`: what the Announcer posts when the vote changed the game's turn)."""

    vote: Vote
    game: GameRow
    settled: bool = False
    outcome: Outcome | None = None
    ranking: list[dict[str, Any]] | None = None  # an ended game's ranking as it stood


def voters(game: GameRow) -> list[int]:
    """The seated members (their seats not AI nor vacant)."""
    return [s.user_id for s in game.players if s.user_id and not s.ai]


def decided(vote: Vote) -> str | None:
    """passed / failed once a majority of the seated members is reached (or out of reach)."""
    if len(vote.yes) >= vote.needed:
        return "passed"
    if vote.voters - len(vote.no) < vote.needed:
        return "failed"
    return None


def ranking_now(state: engine.GameState) -> list[dict[str, Any]]:
    """The ranking if the game ended now: most coins, ties broken by race tokens on the
    board, still tied shared (the rule of the game's end)."""
    obs = engine.observe(state, None, reveal_all=True)
    regions = obs.get("regions", {})
    tokens = {p: 0 for p in state.players}
    for r in regions.values():
        owner = r.get("owner")
        if owner is not None and owner in tokens:
            tokens[owner] += int(r.get("tokens") or 0)
    keys = {p: (int(obs["players"][p].get("coins") or 0), tokens[p]) for p in state.players}
    order = sorted(state.players, key=lambda p: (-keys[p][0], -keys[p][1],
                                                 state.players.index(p)))
    return [{"player": p, "total": keys[p][0], "tokens": keys[p][1],
             "rank": 1 + sum(1 for q in state.players if keys[q] > keys[p])} for p in order]


class Votes(GameCore):
    """The table's votes on the game of a channel."""

    vote_for = VOTE_FOR

    async def call_vote(self, channel_id: int, user_id: int, kind: str, *,
                        member: int | None = None, seconds: int | None = None,
                        is_mod: bool = False) -> VoteNews:
        """Open a vote (its caller's yes counted); a moderator's call settles it at once."""
        if kind not in KINDS:
            raise VoteError.said("vote.unknown", kind=kind[:20])
        async with self.session(channel_id) as s:
            game = s.game
            if s.active.finished:
                raise NoGameHere.said("svc.game_over")
            seated = game.seat_of(user_id) is not None
            if not seated and not is_mod:
                raise NotSeated.said("vote.not_seated")
            seat_name = self._check(game, kind, member, seconds)
            members = voters(game)
            try:
                vote = await self.store.open_vote(
                    game.id, kind, caller_id=user_id, voters=max(1, len(members)),
                    expires_at=self.now() + self.vote_for, seat=seat_name, seconds=seconds)
            except VoteOpen:
                raise VoteError.said("vote.one_open") from None
            if self.deadlines_changed is not None:
                self.deadlines_changed()  # its expiry
            if is_mod:
                return await self._settle(s, vote, "passed")
            found = decided(vote)
            if found is not None:  # a table of one
                return await self._settle(s, vote, found)
            return VoteNews(vote, game)

    def _check(self, game: GameRow, kind: str, member: int | None,
               seconds: int | None) -> str | None:
        """What a vote of `kind` needs of the game; the seat it names ("ai")."""
        paused = game.opts.paused
        if kind == "pause" and paused:
            raise VoteError.said("vote.already_paused")
        if kind == "resume" and not paused:
            raise VoteError.said("vote.not_paused")
        if kind == "time":
            if not game.opts.turn_clock.limit:
                raise VoteError.said("vote.no_clock")
            if paused:
                raise VoteError.said("vote.paused_no_time")
            if not seconds:
                raise VoteError.said("vote.time_needed")
        if kind == "end" and game.opts.league is not None:
            raise VoteError.said("vote.league_end")
        if kind != "ai":
            return None
        seat = game.seat_of(member or 0)
        if seat is None:
            raise VoteError.said("vote.ai_whom")
        if seat.away:
            raise VoteError.said("vote.ai_already", seat=seat.name)
        return seat.name

    async def ballot(self, channel_id: int, vote_id: int, user_id: int, yes: bool, *,
                     is_mod: bool = False) -> VoteNews:
        """A member's ballot; a moderator's decides the vote."""
        async with self.session(channel_id) as s:
            vote = await self.store.vote(vote_id)
            if vote is None or vote.game_id != s.game.id:
                raise VoteError.said("vote.gone")
            if not vote.is_open:
                raise VoteError.said("vote.closed")
            if is_mod:
                await self.store.cast(vote_id, user_id, yes)
                vote = await self.store.vote(vote_id)
                assert vote is not None
                return await self._settle(s, vote, "passed" if yes else "failed")
            if s.game.seat_of(user_id) is None:
                raise NotSeated.said("vote.not_seated")
            if not await self.store.cast(vote_id, user_id, yes):
                raise VoteError.said("vote.closed")
            vote = await self.store.vote(vote_id)
            assert vote is not None
            found = decided(vote)
            if found is not None:
                return await self._settle(s, vote, found)
            return VoteNews(vote, s.game)

    async def expire(self, game_id: int, vote_id: int) -> VoteNews | None:
        """The vote's time is up: it expires unless it was settled (None then)."""
        game = await self.store.get_game(game_id)
        if game is None:
            return None
        vote = await self.store.vote(vote_id)
        if vote is None or not vote.is_open:
            return None
        if game.status is not GameStatus.ACTIVE:
            await self.store.settle(vote, "expired", game.version)
            return None
        async with self.session(game.channel_id, game_id=game_id) as s:
            return await self._settle(s, vote, "expired")

    async def _settle(self, s: Any, vote: Vote, outcome: str) -> VoteNews:
        """Close the vote and make what it decided, in one transaction, in the session."""
        game = s.game
        changes: dict[str, Any] = {}
        ranking = None
        if outcome == "passed":
            if vote.kind in ("pause", "resume"):
                changes["options"] = {**game.options, "paused": vote.kind == "pause"}
            elif vote.kind == "time":
                changes["add_time"] = vote.seconds
            elif vote.kind == "ai" and vote.seat:
                changes["players"] = game.reseated(vote.seat, away=True)
            elif vote.kind == "end":
                ranking = ranking_now(s.active)
                changes["options"] = {**game.options, "ended": {
                    "by": "vote", "vote": vote.id, "round": s.active.round,
                    "ranking": ranking}}
                changes["status"] = GameStatus.ENDED
        if not await self.store.settle(vote, outcome, game.version, **changes):
            raise VoteError.said("vote.closed")
        if changes.get("add_time") and self.deadlines_changed is not None:
            self.deadlines_changed()
        settled = await self.store.vote(vote.id)
        assert settled is not None
        after = await self.store.get_game(game.id)
        assert after is not None
        s.game = after
        s.changed = True
        news = VoteNews(settled, after, settled=True, ranking=ranking)
        if outcome == "passed" and vote.kind in ("ai", "pause", "resume", "time") and \
                after.status is GameStatus.ACTIVE:
            if vote.kind == "ai":
                await s.autoplay_vacant()
            news.outcome = await self.finish(s.outcome(None))
        return news

    async def open_vote(self, channel_id: int) -> Vote | None:
        game = await self.store.open_game(channel_id)
        return None if game is None else await self.store.open_vote_of(game.id)

    async def vote_posted(self, vote: Vote) -> None:
        await self.store.vote_posted(vote.id)

    async def game_votes(self, game_id: int) -> list[Vote]:
        return await self.store.votes_of(game_id)

