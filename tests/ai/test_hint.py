"""ai.hint: the suggestion is choose's action, legal, blind to secrets, worded everywhere."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from aihelp import alter_secrets as _alter_secrets
from aihelp import scenario

import engine
import i18n
from ai import REASONS, choose, hint

ROOT = Path(__file__).resolve().parents[2]


def _positions(seed: int, players: int = 3, every: int = 2):
    """Positions of a self-play game of normal players (every `every`-th decision)."""
    names = ["ann", "bob", "cid", "dee", "eve"][:players]
    s = engine.new_game(f"official-{players}p", names, seed)
    n = 0
    while not s.finished:
        if n % every == 0:
            yield s
        s = engine.apply(s, choose(s, "normal", seed * 1000 + n)).state
        n += 1


def test_every_reason_code_has_a_text_in_every_language():
    hint_dir = i18n.CATALOG_DIR / "hint"
    for lang in i18n.LANGUAGES:
        keys = set(json.loads((hint_dir / f"{lang}.json").read_text(encoding="utf-8")))
        for code in REASONS:
            assert f"hint.{code}" in keys, (lang, code)
        extra = {k for k in keys if not k.startswith("_")} - {f"hint.{c}" for c in REASONS}
        assert not extra, (lang, extra)


def test_hint_is_the_ai_action_and_is_legal_and_worded():
    seen: set[str] = set()
    for seed in range(3):
        for s in _positions(seed):
            h = hint(s, seed=seed)
            assert h.action == choose(s, "normal", seed)
            legal = [x.model_dump(mode="json") for x in engine.legal_actions(s)]
            assert h.action.model_dump(mode="json") in legal
            assert h.reason in REASONS and h.plan and h.plan[0] == h.action
            for lang in i18n.LANGUAGES:
                text = i18n.t(f"hint.{h.reason}", lang, **h.params)
                assert "{" not in text and text.strip(), (lang, h.reason, text)
            seen.add(h.reason)
    # the common situations of a game all come up
    assert {"pick_tokens", "conquer_chain", "end"} <= seen, seen
    assert any(r.startswith("decline") for r in seen), seen
    assert seen & {"deploy", "deploy_guard", "move"}, seen


def test_hints_ignore_hidden_information():
    rnd = random.Random(4)
    n = 0
    for s in _positions(11, every=3):
        h = hint(s, seed=5)
        t = _alter_secrets(s, rnd)
        h2 = hint(t, seed=5)
        assert (h2.action, h2.reason, h2.params) == (h.action, h.reason, h.params), s.version
        n += 1
    assert n > 20


def test_hint_explains_a_spent_race_declining():
    s = scenario("Ratmen", "Hill", hand=0, round_=3)
    h = hint(s, seed=1)
    assert h.action.do == "decline" and h.reason == "decline_spent"
    assert h.params["race"] == "Ratmen" and h.params["regions"] <= 1
    text = i18n.t("hint.decline_spent", "en", **h.params)
    assert "Ratmen" in text and "Decline now" in text


def test_hint_of_a_conquest_names_the_chain_and_its_cost():
    s = scenario("Ratmen", "Hill", hand=8, round_=3)
    h = hint(s, seed=2)
    if h.action.do == "conquer":
        assert h.reason in ("conquer_chain", "conquer_enemy")
        assert str(h.action.region) in h.params["chain"].split(", ")
        assert h.params["cost"] >= 1
    else:
        assert h.reason in REASONS


def test_hint_params_name_no_coin_total_of_anyone_else():
    for s in _positions(21, every=4):
        h = hint(s, seed=1)
        for k, v in h.params.items():
            assert k not in ("total", "income", "score"), (k, v)


def test_hint_of_a_finished_game_is_refused():
    s = engine.new_game("official-2p", ["a", "b"], 1)
    while not s.finished:
        s = engine.apply(s, choose(s, "easy", s.version)).state
    with pytest.raises(ValueError, match="game is over"):
        hint(s)
