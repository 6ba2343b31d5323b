"""The service's sentences in other languages, piece by piece: refusals by key, malformed
input (engine and bot), moderation lines, /sw log and /sw board, alt text, long-menu notes."""

from __future__ import annotations

import random
from pathlib import Path

import game_setup
import pytest

import engine
import i18n
from bot import sentences, text
from bot.errors import LobbyError, NotAllowed, RuleBroken
from bot.game.service import GameService
from bot.store import open_store
from bot.ui import refusal_text
from engine.errors import MESSAGES

CH = 5151
ANN, BOB = 1, 2


@pytest.fixture
async def service(tmp_path: Path):
    store = await open_store(str(tmp_path / "svc.db"))
    yield GameService(store, rng=random.Random(0))
    await store.close()


async def _started(service: GameService, lang: str = "en"):
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=2,
                             seed=5, options={"language": lang})
    await service.join(CH, BOB, "bob")
    return await service.start(CH, ANN)


async def test_service_refusals_are_worded_in_the_readers_language(
        service: GameService) -> None:
    with pytest.raises(LobbyError) as err:
        await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=9)
    assert err.value.key == "svc.lobby_size"
    assert refusal_text(err.value, "en") == err.value.message == (
        "Small World is for 2 to 5 players; you asked for 9.")
    hu = refusal_text(err.value, "hu")
    assert hu == "A Small World 2–5 játékosnak szól; te 9 játékost kértél."
    th = refusal_text(err.value, "th")
    assert th == i18n.t("svc.lobby_size", "th", least=2, most=5, n=9) and "9" in th
    assert "players" not in hu + th

    out = await _started(service)
    with pytest.raises(NotAllowed) as err:  # the coins stay secret while the game runs
        await service.final(CH)
    assert refusal_text(err.value, "th") == "จำนวนเหรียญเป็นความลับจนกว่าเกมจะจบ"
    with pytest.raises(RuleBroken) as err:
        await service.act(CH, out.actor_id, 42)
    assert refusal_text(err.value, "hu") == i18n.t("svc.unknown_action", "hu")
    assert err.value.message.startswith("That is not an action I know.")


async def test_malformed_fields_name_field_and_problem_in_the_language(
        service: GameService) -> None:
    out = await _started(service)
    with pytest.raises(RuleBroken) as err:
        await service.act(CH, out.actor_id, {"do": "pick", "slot": -1})
    assert refusal_text(err.value, "hu") == (
        "Ez így nem megy: kombináció: legalább 1 legyen (ezt adtad meg: `0`). "
        "A `/sw status` megmutatja, mit tehetsz.")
    with pytest.raises(RuleBroken) as err:  # a field of the player's making is echoed, cut
        await service.act(CH, out.actor_id, {"do": "end", "z" * 500: 1})
    worded = refusal_text(err.value, "th")
    assert "z" * 21 not in worded and i18n.t("svc.problem.extra_forbidden", "th") in worded


def test_engine_malformed_input_carries_keys() -> None:
    for raw, key in (("{nope", "not_json"), ("[1, 2]", "not_an_object"),
                     ({"do": "conquer", "player": "a", "region": "x"}, "malformed")):
        with pytest.raises(engine.InvalidAction) as err:
            engine.parse_action(raw)
        assert err.value.key == key and key in MESSAGES
        assert err.value.message == engine.InvalidAction.refuse(key, **err.value.params).message
        assert sentences.refusal(key, err.value.params, "fi")
    assert str(err.value).startswith("Malformed action (conquer.region): Input should be")


def test_an_echoed_input_stays_short_in_every_language() -> None:
    params = {"player": "x" * 5000}
    for lang in i18n.LANGUAGES:
        worded = sentences.refusal("unknown_player", params, lang)
        assert worded and "x" * (sentences.ECHO_LIMIT + 1) not in worded
        assert len(worded) < 400


def test_moderation_and_undo_lines_in_the_game_language() -> None:
    actions = [{"do": "conquer", "region": 4, "race": "decline", "player": "ann"},
               {"do": "move", "from": 1, "to": 2, "count": 3, "player": "ann"},
               {"do": "roll", "player": "ann"}]
    assert text.undo_line("ann", actions) == (
        "ann took back: conquer region 4 with In Decline Ghouls; move 3 tokens from region 1 "
        "to region 2; roll the Berserk die.")
    hu = text.undo_line(None, actions, "hu")
    assert hu.startswith("Egy moderátor visszavonta: a(z) 4. régió meghódítása (hanyatló "
                         "Élőhalottak); 3 lapka áthelyezése a(z) 1. régióból a(z) 2. régióba")
    assert "Rettenthetetlen" in hu  # the Berserk power by its Hungarian name
    th = text.undo_line("ann", actions[:1], "th")
    assert th == "ann ยกเลิก: ยึดพื้นที่ 4 ด้วยปอบที่ถูกทอดทิ้ง"
    assert text.skipped_line("bob", "sv") == "En moderator hoppade över **bob**s tur."
    assert text.skipped_line(None) == "A moderator skipped a turn."
    assert text.replaced_line("bob", 77, "fi") == "<@77> pelaa nyt paikkaa **bob**."
    assert "**bob**" in text.vacated_line("bob", "is") and "leiknum" in text.vacated_line(
        "bob", "is")
    place = {"do": "place", "piece": "troll_lair", "region": 3}
    assert text.action_phrase(place, "da") == "placér Troldehule på region 3"
    assert text.log_line(7, {**place, "player": "cid"}, ["x."], "nl") == (
        "`#7` **cid**: plaats trollenhol op regio 3 — x.")


async def test_board_log_and_alt_text_in_the_game_language(service: GameService) -> None:
    out = await _started(service, "hu")
    await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    loaded = await service.view(CH)
    obs = engine.observe(loaded.state, None)
    terrains = [r.terrain for r in loaded.state.board.regions]
    hu = text.board_lines(obs, terrains, "hu")
    assert hu[0] == f"**Tábla, 1/{obs['rounds']}. forduló**"
    assert any(line.startswith("Üres (") for line in hu)
    assert any(line.startswith("Elveszett törzsek (") for line in hu)
    assert i18n.name("terrain", "mountain", "hu") in "\n".join(hu)
    log = await service.history(CH)  # the game's language by default
    assert log[-1].endswith(i18n.t("svc.do.pick", "hu", slot=1)) or \
        i18n.t("svc.do.pick", "hu", slot=1) in log[-1]
    assert (await service.history(CH, lang="th"))[-1].count("เลือกคู่ที่ 1") == 1

    alt = text.map_alt(obs, "th")
    assert alt.startswith(f"แผนที่ รอบ 1 จาก {obs['rounds']}")
    row = text.row_alt(obs, "th")
    assert row.startswith("คู่ที่มีให้เลือก: 1. ") and " 5. " in row
    assert "Combos" not in row and "costs" not in row
    for lang in i18n.LANGUAGES:  # never a coin total in the public alt text
        for name, p in engine.observe(loaded.state, None, reveal_all=True)["players"].items():
            assert f"{name} {p['coins']}" not in text.map_alt(obs, lang)


def test_notes_and_lines_left_out_are_worded() -> None:
    lines = [f"line {i} " + "x" * 50 for i in range(40)]
    assert text.clip_lines(lines, 400, lang="fi")[-1].endswith("riviä lisää)")
    assert text.clip_lines(lines, 400, newest=True, lang="th")[0].startswith("… (ละไว้ ")
    assert text.menu_more(25, 30, "conquer", "hu") == (
        "30 közül 25 látszik — a többihez írd be: `/sw conquer`")
    assert text.over_line(3, "2026-11-24T10:00:00", "da") == (
        "Spil #3 er slut (afsluttet 2026-11-24 10:00 UTC). Start et nyt med `/sw new`.")


async def test_the_decline_question_names_the_race_in_the_readers_words(
        service: GameService) -> None:
    out = await _started(service)
    await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    loaded = await service.view(CH)
    active = loaded.state.seats[loaded.state.players.index(loaded.state.actor)].active
    panel = await service.panel(CH)
    for lang in ("th", "hu", "en"):
        asked = i18n.t("confirm.decline", lang, race=panel.active)
        assert i18n.name("race", active.race, lang) in asked
        assert i18n.name("power", active.power, lang) in asked
    assert i18n.name("race", active.race, "th") != active.race


async def test_malformed_input_is_worded_for_players(service: GameService) -> None:
    out = await game_setup.started(service)
    with pytest.raises(RuleBroken) as err:
        await service.act(game_setup.CH, out.actor_id, {"do": "pick", "slot": -1})
    assert "combo must be 1 or more (you gave `0`)" in err.value.message
    assert "Input should" not in err.value.message
    await service.act(game_setup.CH, out.actor_id, {"do": "pick", "slot": 0})
    with pytest.raises(RuleBroken) as err:
        await service.act(game_setup.CH, out.actor_id, {"do": "conquer", "region": -3})
    assert "region must be 0 or more (you gave `-3`)" in err.value.message
    with pytest.raises(RuleBroken) as err:  # a refusal never grows with the input
        await service.act(game_setup.CH, out.actor_id, {"do": "ally", "target": "z" * 5000})
    assert len(err.value.message) < 400 and "/sw status" in err.value.message
    # an engine sentence that quotes a long input keeps its point, with the quote cut
    said = text.violation(f"{'z' * 5000!r} is not one of your opponents.")
    assert "is not one of your opponents" in said and len(said) < 200
