"""Seat votes in chat: the vote's one message (who called it, what it decides, the tally, Yes
and No buttons), the clicks on it, and the outcome, posted once.

The buttons are DynamicItems whose custom_id carries the vote's id, so a vote keeps counting
across a restart; a vote settled while the bot could not post (it stopped in between) is
posted at the next start (`recover`). The outcome line goes to the channel once; the vote's
message keeps the final tally without buttons.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol, cast

import discord

import i18n
from bot import answering, text
from bot.chat.announce import Announcer
from bot.clock import Deadline, format_duration
from bot.game.results import Outcome, make_outcome
from bot.game.service import GameService
from bot.game.votes import VoteNews
from bot.language import Languages, of_game
from bot.store import GameRow, GameStatus, Shards, Vote
from bot.ui import NO_MENTIONS, report_error, send

log = logging.getLogger(__name__)

BALLOT = "🗳️ "
IsMod = Any  # (interaction) -> bool


def what(vote: Vote, lang: str) -> str:
    """What the vote decides, in `lang`."""
    return i18n.t(f"vote.what.{vote.kind}", lang, seat=vote.seat or "?",
                  time=format_duration(vote.seconds or 0))


def vote_text(vote: Vote, lang: str) -> str:
    """The vote's message: open (the tally, what a majority is, when it closes) or closed."""
    if vote.is_open:
        return BALLOT + i18n.t("vote.open", lang, caller=vote.caller_id, what=what(vote, lang),
                               yes=len(vote.yes), no=len(vote.no), voters=vote.voters,
                               needed=vote.needed, until=int(vote.expires_at))
    return BALLOT + i18n.t(f"vote.closed.{vote.outcome}", lang, what=what(vote, lang),
                           yes=len(vote.yes), no=len(vote.no), voters=vote.voters)


def outcome_lines(news: VoteNews, lang: str) -> list[str]:
    """The channel's one post about how the vote ended (an ended game's ranking with it)."""
    vote = news.vote
    if vote.outcome != "passed":
        return [BALLOT + i18n.t(f"vote.result.{vote.outcome}", lang, what=what(vote, lang),
                                yes=len(vote.yes), no=len(vote.no))]
    lines = [BALLOT + i18n.t(f"vote.passed.{vote.kind}", lang, seat=vote.seat or "?",
                             time=format_duration(vote.seconds or 0), yes=len(vote.yes),
                             voters=vote.voters)]
    if vote.kind == "end":
        ranking = news.ranking or (news.game.opts.ended or {}).get("ranking")
        lines += text.ranking_lines(ranking, {}, lang)
    return lines


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sw:v:(?P<vote>\d+):(?P<yes>[yn])",
):
    """Yes or No on a vote (any seated member; a moderator's decides)."""

    def __init__(self, vote_id: int, yes: bool, lang: str = "en") -> None:
        super().__init__(discord.ui.Button(
            label=i18n.t("vote.ui.yes" if yes else "vote.ui.no", lang),
            style=discord.ButtonStyle.success if yes else discord.ButtonStyle.danger,
            custom_id=f"sw:v:{vote_id}:{'y' if yes else 'n'}"))
        self.vote_id, self.yes = vote_id, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]) -> VoteButton:
        return cls(int(match["vote"]), match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction) -> None:
        await cast(_HasVotes, interaction.client).votes.click(interaction, self.vote_id,
                                                              self.yes)


VOTE_ITEMS = (VoteButton,)


def vote_view(vote: Vote, lang: str) -> discord.ui.View | None:
    if not vote.is_open:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(VoteButton(vote.id, True, lang))
    view.add_item(VoteButton(vote.id, False, lang))
    return view


class VoteFlow:
    """Calls, ballots, expiries and outcomes of the tables' votes."""

    def __init__(self, service: GameService, announcer: Announcer, languages: Languages,
                 is_mod: IsMod) -> None:
        self.service = service
        self.announcer = announcer
        self.languages = languages
        self.is_mod = is_mod

    async def call(self, interaction: discord.Interaction, kind: str, *,
                   member: int | None = None, seconds: int | None = None) -> None:
        """`/sw-table vote`: the vote's message is the command's public answer."""
        news = await self.service.call_vote(interaction.channel_id or 0, interaction.user.id,
                                            kind, member=member, seconds=seconds,
                                            is_mod=self.is_mod(interaction))
        lang = of_game(news.game)
        message_id = await send(interaction, vote_text(news.vote, lang),
                                view=vote_view(news.vote, lang), allowed_mentions=NO_MENTIONS)
        if message_id:
            await self.service.store.set_vote_message(news.vote.id, message_id)
        if news.settled:
            await self.settled(news)

    async def click(self, interaction: discord.Interaction, vote_id: int, yes: bool) -> None:
        try:
            news = await self.service.ballot(interaction.channel_id or 0, vote_id,
                                             interaction.user.id, yes,
                                             is_mod=self.is_mod(interaction))
        except Exception as exc:  # noqa: BLE001 - refusals and bugs end in report_error
            await report_error(interaction, exc)
            return
        lang = of_game(news.game)
        await answering.edit_clicked(interaction, content=vote_text(news.vote, lang),
                                     view=vote_view(news.vote, lang),
                                     allowed_mentions=NO_MENTIONS)
        if news.settled:
            await self.settled(news, edited=True)

    async def expired(self, row: Deadline) -> None:
        """The dispatch's handler of `vote` deadlines: an open vote's time is up."""
        vote_id = int(row.key.split(":", 1)[1]) if row.key.startswith("vote:") else 0
        news = await self.service.expire(row.game_id, vote_id)
        if news is not None:
            await self.settled(news)

    async def settled(self, news: VoteNews, *, edited: bool = False) -> None:
        """Tell the channel how the vote ended (once), and show the game after it."""
        vote, game = news.vote, news.game
        lang = of_game(game)
        if not edited and vote.message_id:
            await self.announcer.edit(game.channel_id, vote.message_id,
                                      content=vote_text(vote, lang), view=None,
                                      allowed_mentions=NO_MENTIONS)
        if not vote.posted and await self.announcer.say(
                game, text.clip("\n".join(outcome_lines(news, lang)))) is not None:
            await self.service.vote_posted(vote)
        if news.outcome is not None:
            await self.announcer.announce(news.outcome, fresh=False)
        elif vote.kind == "end" and vote.outcome == "passed":
            await self.announcer.retire(game, i18n.t("vote.ended_here", lang, game=game.id))

    async def recover(self, shards: Shards | None = None) -> int:
        """At start: the outcomes of votes settled while the bot could not post them."""
        done = 0
        for vote, game in await self.service.store.unposted_votes(shards):
            try:
                await self.settled(VoteNews(vote, game, settled=True,
                                            outcome=await self._outcome_of(game)))
                done += 1
            except Exception:  # noqa: BLE001 - one vote must not keep the others waiting
                log.exception("could not post the outcome of vote %s", vote.id)
        return done

    async def _outcome_of(self, game: GameRow) -> Outcome | None:
        """The game as it stands, for its living message (None: it is over)."""
        if game.status is not GameStatus.ACTIVE:
            return None
        loaded = await self.service.loaded(game)
        return await self.service.finish(make_outcome(loaded.game, loaded.state, [], None))


class _HasVotes(Protocol):
    votes: VoteFlow
