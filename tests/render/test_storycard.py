"""The end card: the ranking, the coin race round by round, each player's combos and regions,
an optional win-chance curve; in the game's language; with alt text telling each player's
game in one sentence. Only for a finished game."""

from __future__ import annotations

import io
import math
import re

import pytest
from PIL import Image

import i18n
import story
from engine import data
from render import storycard, text


@pytest.fixture
def tale(game_log) -> story.Story:
    return story.tell(*game_log("official-4p", seed=5))


def _chances(tale: story.Story) -> list[dict[str, float]]:
    n = len(tale.frames)
    out = []
    for k in range(n):
        row = {p: (1 - k / n) / len(tale.players) for p in tale.players}
        row[tale.winners[0]] += k / n
        out.append(row)
    return out


def test_the_card_tells_the_game(tale, drawn_strings) -> None:
    im = storycard.draw_end_card(tale)
    assert im.width >= 1000
    drawn = set(drawn_strings)
    joined = " ".join(drawn_strings)
    assert "Game over" in drawn and f"Winner: {tale.winners[0]}" in drawn
    assert "Coins after each round" in drawn
    assert "Races and powers, round by round (numbers: regions held)" in drawn
    for placing in tale.ranking:
        assert i18n.t("final.coins", "en", n=placing.coins) in drawn  # the ranking's bar
        assert str(placing.coins) in drawn  # the value at the end of their coin line
        assert placing.player in drawn
    for name in tale.players:  # every combo is named in its bar, whole or short
        for stint in tale.stints[name]:
            names = {i18n.t("combo", "en", power=stint.power, race=stint.race),
                     i18n.name("race", stint.race), i18n.t(f"abbr.{stint.race}")}
            assert names & drawn, stint
    assert "Chance to win" not in joined  # no evaluation given, no chart
    png = storycard.end_card_png(tale)
    assert Image.open(io.BytesIO(png)).size == im.size


def test_the_card_draws_win_chances_when_given(tale, drawn_strings) -> None:
    plain = storycard.draw_end_card(tale)
    drawn_strings.clear()
    im = storycard.draw_end_card(tale, chances=_chances(tale))
    assert "Chance to win, turn by turn" in drawn_strings
    assert "100%" in drawn_strings and "0%" in drawn_strings
    assert im.height == plain.height + storycard.CHANCES_H


@pytest.mark.parametrize("bad, said", [
    ([], "one entry per turn"),
    ("0.5", "one entry per turn"),
    ([{"nobody": 0.5}], "turn 1: give one value for each player"),
    ([{}], "give one value for each player"),
    (["x"], "give one value for each player"),
])
def test_bad_win_chances_are_refused(tale, bad, said) -> None:
    with pytest.raises(ValueError, match=said):
        storycard.draw_end_card(tale, chances=bad)


@pytest.mark.parametrize("value", [1.5, -0.1, math.nan, math.inf, True, "0.5", None])
def test_a_win_chance_is_a_number_from_0_to_1(tale, value) -> None:
    chances = _chances(tale)
    chances[2] = dict(chances[2], **{tale.players[1]: value})
    with pytest.raises(ValueError, match=f"turn 3: {tale.players[1]}'s chance must be a number"):
        storycard.draw_end_card(tale, chances=chances)


def test_no_card_and_no_story_before_the_end(game_log) -> None:
    unfinished = story.tell(*game_log("official-4p", seed=5, stop=120))
    assert not unfinished.finished
    for make in (storycard.draw_end_card, storycard.end_card_png, storycard.end_card_alt):
        with pytest.raises(story.SecretUntilOver):
            make(unfinished)


def test_the_alt_text_is_a_sentence_per_player(tale) -> None:
    alt = storycard.end_card_alt(tale)
    sentences = re.split(r"(?<=\.) (?=\S)", alt)
    assert len(sentences) == len(tale.players)
    for placing, sentence in zip(tale.ranking, sentences, strict=True):
        assert sentence.startswith(placing.player + " ")
        assert f"{placing.coins} coins" in sentence
        assert ("won with" in sentence) == (placing.rank == 1)
        held = tale.regions[placing.player]
        assert f"held up to {max(held)} region" in sentence
        assert f"(round {held.index(max(held)) + 1})" in sentence
        for stint in tale.stints[placing.player]:
            combo = i18n.t("combo", "en", power=stint.power, race=stint.race)
            last = stint.declined or tale.rounds
            span = (f"round {stint.picked}" if last == stint.picked
                    else f"rounds {stint.picked}–{last}")
            assert f"{combo} ({span})" in sentence


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_card_in_every_language(lang, tale, drawn_strings) -> None:
    storycard.draw_end_card(tale, lang, chances=_chances(tale))
    drawn = "".join(drawn_strings)
    for key in ("story.coins", "story.races", "story.chances", "final.title"):
        assert i18n.t(key, lang) in drawn, key
    for s in drawn_strings:
        assert text.has_glyphs(s, "bold") or text.has_glyphs(s, "narrow"), (lang, s)
    alt = storycard.end_card_alt(tale, lang)
    assert "{" not in alt and all(p in alt for p in tale.players)
    if lang != "en":
        assert "Coins after each round" not in drawn and " won with " not in alt


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_combos_label_fits_its_bar_or_is_left_out(lang) -> None:
    for room in (storycard.LEAST * 2, 70, 150):
        for race in data.RACES:
            for power in data.POWERS[::3]:
                label, size = storycard._stint_label(story.Stint(race, power, 1), room, lang)
                if label:
                    assert size >= storycard.LEAST
                    assert text.width(label, size, "narrow") <= room, (lang, label, room)
