"""Languages through the real client and the fake Discord: each player's ephemeral replies in
their own language, a server's games in the server's language (posts and pictures), and
/sw-language taking effect on the very next reply."""

from __future__ import annotations

import re
from pathlib import Path

from driver import StateReader
from fakediscord import MANAGE_GUILD, FakeDiscord, Message
from setups import make_bot

import i18n
import render
from bot.app import SmallWorldBot
from bot.settings import Settings

SEED_AI_FIRST = 4  # with this seed the AI, not ann, takes the first seat



async def _start(fake: FakeDiscord, opener, other, **options) -> Message:
    ch = fake.channel
    inter = await fake.slash(opener, ch, "sw new", options={"players": 2, "seed": 4, **options})
    lobby = await fake.wait_for_reply(inter)
    ids = {c.rsplit(":", 1)[1]: c for c in lobby.custom_ids()}  # labels are in its language
    await fake.wait_for_reply(await fake.click(other, lobby, ids["join"]))
    await fake.wait_for_ack(await fake.click(opener, lobby, ids["start"]))
    return await fake.wait_for_message(ch, lambda m: bool(m.files), timeout=10)


def _first(panel: Message, users: list[dict]) -> tuple[dict, dict]:
    first_id = re.search(r"<@(\d+)>", panel.content).group(1)
    first = next(u for u in users if u["id"] == first_id)
    return first, next(u for u in users if u["id"] != first_id)


async def test_thai_and_hungarian_players_each_read_their_own_language(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    somchai, eszter = fake.add_user("somchai"), fake.add_user("eszter")
    fake.set_locale(somchai, "th")
    fake.set_locale(eszter, "hu")
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "lang.db")) as bot:
        await bot.wait_until_ready()
        panel = await _start(fake, somchai, eszter)
        first, second = _first(panel, [somchai, eszter])
        lang = {somchai["id"]: "th", eszter["id"]: "hu"}

        # a rule break (conquering before picking a combo) in the actor's own language
        inter = await fake.slash(first, ch, "sw conquer", options={"region": 1})
        refusal = await fake.wait_for_reply(inter)
        expected = i18n.t("refusal.hint", lang[first["id"]],
                          reason=i18n.t("refusal.pick_first", lang[first["id"]]))
        assert refusal.ephemeral and refusal.content == expected
        assert "Pick a race" not in refusal.content

        # autocomplete speaks the typist's language: the combos, then the conquest targets
        mine = lang[first["id"]]
        combos = await fake.autocomplete(first, ch, "sw pick", focused="slot", value="")
        tokens = {"th": "โทเคน", "hu": "lapka"}[mine]
        assert combos and all(tokens in c["name"] for c in combos), combos[:2]
        ack = await fake.wait_for_reply(await fake.slash(first, ch, "sw pick",
                                                         options={"slot": 1}))
        assert ack.ephemeral and ack.content.startswith(i18n.t("ack.done", mine)), ack.content
        targets = await fake.autocomplete(first, ch, "sw conquer", focused="region", value="")
        verb = {"th": "ยึดพื้นที่", "hu": "régió meghódítása"}[mine]
        assert targets and all(verb in c["name"] for c in targets), targets[:2]
        assert not any("Conquer" in c["name"] for c in targets)

        # the other player is told it is not their turn, in their own language
        inter = await fake.slash(second, ch, "sw conquer", options={"region": 1})
        wait = await fake.wait_for_reply(inter)
        assert wait.ephemeral and wait.content == i18n.t(
            "svc.not_your_turn", lang[second["id"]], who=f"<@{first['id']}>")

        # both ask for their coins in the same game: each answer in its reader's language
        for user in (somchai, eszter):
            reply = await fake.wait_for_reply(await fake.slash(user, ch, "sw score"))
            assert reply.ephemeral
            if lang[user["id"]] == "th":
                assert "เหรียญ" in reply.content and "รอบ" in reply.content
            else:
                assert "érme" in reply.content and "forduló" in reply.content
            assert "coins" not in reply.content and "round" not in reply.content


async def test_a_server_set_to_icelandic_posts_and_draws_in_icelandic(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    mod = fake.add_user("modda", permissions=MANAGE_GUILD)
    ann, bob = fake.add_user("ann"), fake.add_user("bob")
    ch = fake.channel
    db = tmp_path / "is.db"
    async with fake.running(make_bot(fake, db)) as bot:
        await bot.wait_until_ready()
        # only a moderator may set the server's language
        nope = await fake.wait_for_reply(await fake.slash(
            ann, ch, "sw-language", options={"language": "is", "server": True}))
        assert nope.ephemeral and nope.content == i18n.t("lang.need_mod", "en")
        done = await fake.wait_for_reply(await fake.slash(
            mod, ch, "sw-language", options={"language": "is", "server": True}))
        assert done.ephemeral and done.content == i18n.t("lang.set_server", "is")

        panel = await _start(fake, ann, bob)
        first, _ = _first(panel, [ann, bob])
        assert "Leikurinn hefst (kort fyrir 2 leikmenn)" in panel.content  # the start line
        assert "þú átt leik (umferð 1)" in panel.content  # the panel's prompt
        map_button = next(c for c in panel.custom_ids() if c.endswith(":map"))
        assert panel.component(map_button)["label"] == i18n.t("ui.map", "is")
        pick_menu = next(c for c in panel.custom_ids() if c.endswith(":p"))
        assert panel.component(pick_menu)["placeholder"] == i18n.t("menu.pick", "is")
        status = await fake.wait_for_reply(await fake.slash(ann, ch, "sw status",
                                                            options={"public": True}))
        assert not status.ephemeral and "umferð 1/" in status.content
        assert "round" not in status.content
        async with StateReader(db) as reader:
            loaded = await reader.loaded(ch["id"])
            assert loaded.game.options["language"] == "is"
            # the pictures posted are the Icelandic drawing of that very position
            assert panel.files["map.png"] == render.map_png(loaded.state, lang="is")
            assert panel.files["map.png"] != render.map_png(loaded.state, lang="en")
            assert panel.files["combos.png"] == render.row_png(loaded.state, lang="is")

        inter = await fake.slash(first, ch, "sw pick", options={"slot": 1})
        await fake.wait_for_reply(inter)
        # the game's living message (the one with the map) now tells the pick in Icelandic
        await fake.wait_until(lambda: " velur " in panel.content, 5, what="the pick line")
        picked = panel
        async with StateReader(db) as reader:
            loaded = await reader.loaded(ch["id"])
            seat = loaded.state.seats[loaded.state.players.index(
                next(s.name for s in loaded.game.players if s.user_id == int(first["id"])))]
        race = i18n.name("race", seat.active.race, "is")
        assert " velur " in picked.content and race in picked.content
        assert "picks the" not in picked.content


async def test_switching_language_changes_the_next_reply(fake_discord: FakeDiscord,
                                                        tmp_path: Path) -> None:
    fake = fake_discord
    kim = fake.add_user("kim")  # an English client
    ch = fake.channel
    async with fake.running(make_bot(fake, tmp_path / "switch.db")) as bot:
        await bot.wait_until_ready()
        before = await fake.wait_for_reply(await fake.slash(kim, ch, "sw score"))
        assert before.content == i18n.t("score.none", "en")

        chosen = await fake.wait_for_reply(await fake.slash(
            kim, ch, "sw-language", options={"language": "hu"}))
        assert chosen.ephemeral and chosen.content == i18n.t("lang.set_user", "hu")
        after = await fake.wait_for_reply(await fake.slash(kim, ch, "sw score"))
        assert after.content == i18n.t("score.none", "hu")

        shown = await fake.wait_for_reply(await fake.slash(kim, ch, "sw-language"))
        assert "Magyar" in shown.content

        back = await fake.wait_for_reply(await fake.slash(
            kim, ch, "sw-language", options={"language": "discord"}))
        assert back.content == i18n.t("lang.reset_user", "en")
        again = await fake.wait_for_reply(await fake.slash(kim, ch, "sw score"))
        assert again.content == i18n.t("score.none", "en")

    # the choice is kept in the database: a restarted bot still answers in Hungarian
    fake.set_locale(kim, "da")
    async with fake.running(make_bot(fake, tmp_path / "switch.db")) as bot:
        await bot.wait_until_ready()
        danish = await fake.wait_for_reply(await fake.slash(kim, ch, "sw score"))
        assert danish.content == i18n.t("score.none", "da")
        await fake.wait_for_reply(await fake.slash(kim, ch, "sw-language",
                                                   options={"language": "hu"}))
    async with fake.running(make_bot(fake, tmp_path / "switch.db")) as bot:
        await bot.wait_until_ready()
        kept = await fake.wait_for_reply(await fake.slash(kim, ch, "sw score"))
        assert kept.content == i18n.t("score.none", "hu")


async def test_an_ai_turn_in_an_icelandic_game_is_posted_in_icelandic(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The AI's turn posts (made by the bot on its own, not as a reply) use the game's
    language too: its summary, the next member's prompt and the map."""
    fake = fake_discord
    mod = fake.add_user("modda", permissions=MANAGE_GUILD)
    ann = fake.add_user("ann")
    ch = fake.channel
    db = tmp_path / "is-ai.db"
    settings = Settings(_env_file=None, discord_token=fake.token, database_url=str(db),
                        ai_turn_delay=0)
    async with fake.running(SmallWorldBot(settings, guild_ready_timeout=0.1)) as bot:
        await bot.wait_until_ready()
        await fake.wait_for_reply(await fake.slash(
            mod, ch, "sw-language", options={"language": "is", "server": True}))
        lobby = await fake.wait_for_reply(await fake.slash(
            ann, ch, "sw new", options={"players": 2, "seed": SEED_AI_FIRST}))
        await fake.wait_for_reply(await fake.slash(ann, ch, "sw-table ai-add",
                                                   options={"level": "easy"}))
        start = next(c for c in lobby.custom_ids() if c.endswith(":start"))
        await fake.wait_for_ack(await fake.click(ann, lobby, start))
        # the AI opens the game (this seed seats it first); its turn is the bot's own post
        post = await fake.wait_for_message(
            ch, lambda m: m.source == "channel" and bool(m.files), timeout=30)
        async with StateReader(db) as reader:
            loaded = await reader.loaded(ch["id"])
        ai = next(s.name for s in loaded.game.players if s.ai)
        assert i18n.t("event.turn_ended", "is", player=f"**{ai}**") in post.content
        assert i18n.t("event.turn_ended", "en", player=f"**{ai}**") not in post.content
        assert "þú átt leik" in post.content  # ann's prompt, in Icelandic
        assert "map.png" in post.files
    assert not fake.client_errors
