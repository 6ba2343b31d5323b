"""The service's own sentences through the real client and the fake Discord: lobby, undo and
input refusals reach a Hungarian and a Thai reader in their languages, and a Thai game's
public log, board and undo line are Thai (the ephemeral ones follow the reader)."""

from __future__ import annotations

import re
from pathlib import Path

from driver import StateReader
from fakediscord import FakeDiscord
from setups import make_bot

import engine
import i18n
from bot.text import echo

ENGLISH = re.compile(r"\b(the|you|your|game|region|round|players?|board|took back|nothing)\b",
                     re.I)



def _no_english(content: str) -> None:
    # commands (`/sw ...`) and mentions are the same in every language
    words = re.sub(r"`[^`]*`|<[@#]\d+>", "", content)
    assert not ENGLISH.search(words), content


async def test_refusals_log_board_and_undo_in_each_readers_language(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    somchai, eszter = fake.add_user("somchai"), fake.add_user("eszter")
    fake.set_locale(somchai, "th")
    fake.set_locale(eszter, "hu")
    lang = {somchai["id"]: "th", eszter["id"]: "hu"}
    ch = fake.channel
    db = tmp_path / "svc.db"
    async with fake.running(make_bot(fake, db)) as bot:
        await bot.wait_until_ready()

        # a board for 2 players asked for 3: refused in the Hungarian's words
        bad = await fake.wait_for_reply(await fake.slash(
            eszter, ch, "sw new", options={"players": 3, "board": "official-2p"}))
        assert bad.ephemeral and bad.content == i18n.t(
            "svc.board_size", "hu", board="official-2p", n=2, asked=3)
        _no_english(bad.content)

        # somchai opens a game that speaks Thai in public
        lobby = await fake.wait_for_reply(await fake.slash(
            somchai, ch, "sw new", options={"players": 2, "seed": 4, "language": "th"}))
        assert i18n.t("svc.lobby.clock", "th", clock="")[:8] in lobby.content
        ai_menu = next(c for c in lobby.custom_ids() if c.startswith("sw:la:"))
        assert lobby.component(ai_menu)["placeholder"] == i18n.t("svc.menu.add_ai", "th")

        # a second lobby in the same channel; an AI to remove where there is none
        busy = await fake.wait_for_reply(await fake.slash(eszter, ch, "sw new"))
        assert busy.ephemeral and busy.content == i18n.t("svc.channel_busy", "hu")
        none = await fake.wait_for_reply(await fake.slash(somchai, ch, "sw-table ai-remove"))
        assert none.ephemeral and none.content == i18n.t("svc.no_ai_seat", "th")
        _no_english(none.content)

        await fake.wait_for_reply(await fake.slash(eszter, ch, "sw join"))
        twice = await fake.wait_for_reply(await fake.slash(eszter, ch, "sw join"))
        assert twice.ephemeral and twice.content == i18n.t("svc.already_in", "hu")
        _no_english(twice.content)

        ids = {c.rsplit(":", 1)[1]: c for c in lobby.custom_ids()}
        await fake.wait_for_ack(await fake.click(somchai, lobby, ids["start"]))
        panel = await fake.wait_for_message(ch, lambda m: bool(m.files), timeout=10)
        first_id = re.search(r"<@(\d+)>", panel.content).group(1)
        first = somchai if somchai["id"] == first_id else eszter
        other = eszter if first is somchai else somchai
        mine, theirs = lang[first["id"]], lang[other["id"]]

        # malformed input, worded with the field and the echo in the actor's language
        said = await fake.wait_for_reply(await fake.slash(first, ch, "sw conquer",
                                                          options={"region": -3}))
        field = i18n.Msg("svc.field", field=i18n.Msg("svc.field.region"),
                         problem=i18n.Msg("svc.problem.greater_than_equal", ge=0),
                         gave=i18n.Msg("svc.gave", value=echo(-3, 20)))
        assert said.ephemeral and said.content == i18n.t("svc.bad_action", mine, said=field)
        assert "`-3`" in said.content
        _no_english(said.content)

        # nothing to undo yet (the turn just began)
        nothing = await fake.wait_for_reply(await fake.slash(first, ch, "sw undo"))
        assert nothing.ephemeral and nothing.content == i18n.t("svc.nothing_to_undo", mine)
        _no_english(nothing.content)

        await fake.wait_for_reply(await fake.slash(first, ch, "sw pick", options={"slot": 1}))
        async with StateReader(db) as reader:
            loaded = await reader.loaded(ch["id"])
        seat = next(s.name for s in loaded.game.players if s.user_id == int(first["id"]))
        picked = i18n.t("svc.do.pick", "th", slot=1)
        # a conquest (no die, no draw) is what can be undone
        targets = await fake.autocomplete(first, ch, "sw conquer", focused="region", value="")
        region = targets[0]["value"]
        await fake.wait_for_reply(await fake.slash(first, ch, "sw conquer",
                                                   options={"region": region}))
        conquered = i18n.t("svc.do.conquer", "th", region=region, ghouls=False,
                           ghoul_race="Ghouls")

        # the public log is Thai (the game's language); the Hungarian's own copy Hungarian
        log = await fake.wait_for_reply(await fake.slash(other, ch, "sw-game log",
                                                         options={"public": True}))
        assert not log.ephemeral and f"**{seat}**: {picked}" in log.content
        assert f"**{seat}**: {conquered}" in log.content
        mine_log = await fake.wait_for_reply(await fake.slash(eszter, ch, "sw-game log"))
        assert mine_log.ephemeral
        assert i18n.t("svc.do.pick", "hu", slot=1) in mine_log.content
        _no_english(mine_log.content)

        # /sw board: public in Thai, ephemeral in the reader's language, names theirs
        rounds = engine.observe(loaded.state, None)["rounds"]
        board = await fake.wait_for_reply(await fake.slash(other, ch, "sw-game board",
                                                           options={"public": True}))
        assert not board.ephemeral
        assert board.content.startswith(i18n.t("svc.board.head", "th", round=1, rounds=rounds))
        assert i18n.t("svc.board.empty", "th", n=0, items="").split("(")[0] in board.content
        assert i18n.name("terrain", "forest", "th") in board.content
        own = await fake.wait_for_reply(await fake.slash(eszter, ch, "sw-game board"))
        assert own.ephemeral and own.content.startswith(f"**Tábla, 1/{rounds}. forduló**")
        assert i18n.name("terrain", "forest", "hu") in own.content
        _no_english(own.content)

        # undo: the living message tells it in Thai; the refusal after it in the actor's
        await fake.wait_for_reply(await fake.slash(first, ch, "sw undo"))
        undo_line = i18n.t("svc.undo", "th", who=seat, mod=False, what=conquered)
        await fake.wait_until(lambda: undo_line in panel.content, 5, what="the undo line")
        assert "took back" not in panel.content

        # the other player may not undo: not their turn, in their language
        wait = await fake.wait_for_reply(await fake.slash(other, ch, "sw undo"))
        assert wait.ephemeral and wait.content == i18n.t(
            "svc.not_your_turn", theirs, who=f"<@{first['id']}>")
