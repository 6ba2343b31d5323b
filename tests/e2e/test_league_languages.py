"""League texts in the readers' languages through the fake Discord: a Hungarian moderator and
a Thai member each get their refusals and private answers in their own language, while the
league's public posts speak the server's language (Hungarian once a moderator sets it)."""

from __future__ import annotations

from pathlib import Path

from fakediscord import MANAGE_GUILD, FakeDiscord
from setups import make_bot, speaker

import i18n


async def test_hungarian_moderator_and_thai_member_read_their_languages(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    somchai, eszter = fake.add_user("somchai"), fake.add_user("eszter",
                                                              permissions=MANAGE_GUILD)
    fake.set_locale(somchai, "th")
    fake.set_locale(eszter, "hu")
    ch = fake.channel

    say = speaker(fake, ch, timeout=10, force_prefix="league-mod")

    async with fake.running(make_bot(fake, tmp_path / "league.db")) as bot:
        await bot.wait_until_ready()
        # a member may not create a league: told so in Thai
        refused = await say(somchai, "league-mod create", name="Liga")
        assert refused.ephemeral
        assert refused.content.startswith("เฉพาะผู้ดูแลเท่านั้นที่สร้างลีกได้")
        assert "Only moderators" not in refused.content
        # the Hungarian moderator sets the server's language; the league's posts follow it
        done = await say(eszter, "sw-language", language="hu", server=True)
        assert done.content == i18n.t("lang.set_server", "hu")
        created = await say(eszter, "league-mod create", name="Péntek Liga")
        assert not created.ephemeral
        assert created.content.startswith("Létrejött a(z) **Péntek Liga** liga.")
        started = await say(eszter, "league-mod season start", name="Tavasz", rounds=3)
        assert "Elindult a(z) Péntek Liga liga **Tavasz** szezonja (3 forduló)!" in (
            started.content)
        # a refusal raised deep in the league service reaches each reader in their language
        nope = await say(somchai, "league game")
        assert nope.ephemeral and "คุณไม่ได้ลงทะเบียน Tavasz" in nope.content
        dup = await say(eszter, "league-mod season start", name="Nyár")
        assert dup.ephemeral and dup.content.startswith("A(z) Tavasz még tart")
        joined = await say(somchai, "league join")
        assert not joined.ephemeral and "jelentkezett" in joined.content  # public: Hungarian
        again = await say(somchai, "league join")
        assert again.ephemeral and "คุณลงทะเบียน Tavasz แล้ว" in again.content
        days = await say(somchai, "league availability", days="mon sat")
        assert days.ephemeral and "จ., ส." in days.content and "Péntek Liga" in days.content
        bad_day = await say(eszter, "league availability", days="someday")
        assert bad_day.ephemeral and bad_day.content.startswith("Nem jelentkeztél erre: Tavasz")
        settings = await say(somchai, "league-mod settings")
        assert settings.ephemeral and "การตั้งค่า Péntek Liga" in settings.content
        helped = await say(eszter, "league help")
        assert helped.ephemeral and helped.content.startswith("**Ligák — egy szezon öt lépésben**")
        card = await say(somchai, "league rating")
        assert card.ephemeral and "เรตติ้ง **Péntek Liga** ของ" in card.content
        table = await say(somchai, "league standings")
        assert not table.ephemeral and "standings.png" in table.files
        embed = table.embeds[0]
        assert embed["title"] == "Péntek Liga — Tavasz tabella (folyamatban)"
        assert "Játékos" in embed["description"] and "Player" not in embed["description"]
    assert not fake.client_errors
