"""The gauntlet: independent of the levels, blind to secrets, legal, rated like openskill."""

from __future__ import annotations

import ast
import io
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import engine
from ai.arena import play
from ai.gauntlet import PLAYERS, STYLES
from ai.gauntlet import rating as R
from ai.gauntlet.ismcts import Ismcts
from ai.gauntlet.run import OPPONENTS, run

ROOT = Path(__file__).resolve().parents[2]
AI = ROOT / "ai"


def _imports_of(path: Path) -> set[str]:
    """Modules a file of the ai package imports, as dotted names (relative ones resolved)."""
    pkg = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}
    return out


def _module_file(name: str) -> Path | None:
    p = ROOT.joinpath(*name.split("."))
    if p.with_suffix(".py").exists():
        return p.with_suffix(".py")
    if (p / "__init__.py").exists():
        return p / "__init__.py"
    return None


def _reachable(start: str) -> set[str]:
    """Modules of the ai package reachable by imports from `start` (packages included:
    importing ai.x runs ai/__init__.py)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        m = todo.pop()
        if m in seen or not m.startswith("ai"):
            continue
        f = _module_file(m)
        if f is None:
            continue
        seen.add(m)
        parts = m.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        todo += [x for x in _imports_of(f) if x.startswith("ai")]
    return seen


def test_nothing_choose_imports_reaches_the_gauntlet():
    reach = _reachable("ai.player") | _reachable("ai")
    assert "ai.search" in reach and "ai.value" in reach  # the walk does find the levels
    assert not {m for m in reach if m.startswith(("ai.gauntlet", "ai.arena", "ai.match"))}


def test_choosing_at_every_level_loads_no_gauntlet_module():
    code = ("import sys, engine, ai\n"
            "s = engine.new_game('official-2p', ['a', 'b'], 1)\n"
            "for level in ai.LEVELS:\n"
            "    ai.choose(s, level, 1)\n"
            "ai.hint(s, 1)\n"
            "print(sorted(m for m in sys.modules if m.startswith(('ai.gauntlet', 'ai.arena',"
            " 'ai.match'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=300, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", ["base", "lore", "styles", "strategist", "ismcts", "players",
                                  "rating"])
def test_gauntlet_players_are_not_built_from_the_levels(name):
    """The players read the rules through the engine only: no ai.policy, ai.search, ai.plan,
    ai.value, ai.traits, ai.player, nor the value tables."""
    allowed = set(sys.stdlib_module_names) | {"engine", "ai.gauntlet"}
    for mod in _imports_of(AI / "gauntlet" / f"{name}.py"):
        top = mod.split(".")[0]
        assert top in allowed or mod.startswith(("ai.gauntlet", "engine")), (name, mod)
    text = (AI / "gauntlet" / f"{name}.py").read_text(encoding="utf-8")
    assert "POWER_VALUE" not in text and "RACE_VALUE" not in text


def _alter(s: engine.GameState, rnd: random.Random) -> engine.GameState:
    me = s.players.index(s.actor)
    t = s.fork()
    for i in range(len(t.seats)):
        if i != me:
            t.seat_w(i).coins = rnd.randrange(0, 90)
    banners, badges = list(t.banners), list(t.badges)
    rnd.shuffle(banners)
    rnd.shuffle(badges)
    t.banners, t.badges = tuple(banners), tuple(badges)
    t.rng = random.Random(rnd.random())
    t.dice = tuple(rnd.randrange(4) for _ in range(3))
    return t.seal()


class _QuickIsmcts(Ismcts):
    K = {**Ismcts.K, "pick": 4, "decline": 3}  # few iterations: a whole game, twice a move


@pytest.mark.parametrize("style", sorted(PLAYERS))
def test_gauntlet_players_never_peek(style):
    rnd = random.Random(3)
    player = _QuickIsmcts() if style == "ismcts" else PLAYERS[style]()
    s = engine.new_game("official-3p", ["a", "b", "c"], 8)
    n = 0
    while not s.finished:
        a = player.act(s, n)
        assert player.act(_alter(s, rnd), n) == a, (style, s.version)
        s = engine.apply(s, a).state
        n += 1
    assert player.strays == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_gauntlet_games_are_legal_to_the_end(players):
    styles = sorted(STYLES)
    for seed in range(2):
        specs = [styles[(seed + i) % len(styles)] for i in range(players)]
        res = play(specs, f"official-{players}p", seed)
        assert sum(r.share for r in res) == pytest.approx(1)
        assert all(r.strays == 0 for r in res), [(r.spec, r.strays) for r in res]


def test_the_styles_play_differently():
    """Over the same 4-player games: the decliner declines most, the aggressor hits Active
    races most, the turtle takes defensive combos most."""
    from ai.gauntlet import lore

    decl, hits, shield = Counter(), Counter(), Counter()
    for seed in range(6):
        specs = sorted(STYLES)
        specs = specs[seed % 4:] + specs[: seed % 4]
        players = [STYLES[x]() for x in specs]
        s = engine.new_game("official-4p", specs, 100 + seed)
        n = 0
        while not s.finished:
            i = s.players.index(s.actor)
            a = players[i].act(s, n)
            if a.do == "decline":
                decl[specs[i]] += 1
            if a.do == "pick":
                c = s.row[a.slot]
                shield[specs[i]] += c.race in lore.SHIELD_RACES or c.power in lore.SHIELD_POWERS
            if a.do == "conquer":
                t = s.areas[a.region]
                if t.owner >= 0 and t.owner != i and not t.decline:
                    hits[specs[i]] += 1
            s = engine.apply(s, a).state
            n += 1
    assert decl["decliner"] == max(decl.values()), decl
    assert hits["aggressor"] == max(hits.values()), hits
    assert shield["turtle"] == max(shield.values()), shield


def test_rating_matches_the_openskill_package():
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rnd = random.Random(5)
    for _ in range(100):
        n = rnd.randint(2, 5)
        mus = [rnd.uniform(10, 40) for _ in range(n)]
        sigmas = [rnd.uniform(0.5, 9) for _ in range(n)]
        ranks = [rnd.randint(1, n) for _ in range(n)]
        want = model.rate([[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas,
                                                                           strict=True)],
                          ranks=ranks)
        got = R.rate([R.Rating(m, s) for m, s in zip(mus, sigmas, strict=True)], ranks)
        for w, g in zip(want, got, strict=True):
            assert g.mu == pytest.approx(w[0].mu, abs=1e-9)
            assert g.sigma == pytest.approx(w[0].sigma, abs=1e-9)


def test_ratings_order_a_clear_winner_first():
    games = [[("a", 1), ("b", 2)] for _ in range(30)]
    table = R.rate_specs(games)
    assert table["a"].ordinal > table["b"].ordinal
    with pytest.raises(ValueError):
        R.rate([R.Rating()], [1])


def test_gauntlet_run_prints_a_table_per_level():
    out = io.StringIO()
    table = run("easy", ["random", "decliner"], 2, "official-4p", 7, procs=1, out=out,
                progress=None)
    text = out.getvalue()
    assert "easy on official-4p" in text and "3x random" in text and "OpenSkill" in text
    assert table["rows"]["random"]["games"] == 2
    assert set(table["ratings"]) == {"easy", "random", "decliner"}
    lo, hi = table["rows"]["decliner"]["ci"]
    assert 0 <= lo <= table["rows"]["decliner"]["win_share"] <= hi <= 1


def test_gauntlet_cli_refuses_bad_arguments_in_one_line():
    for args in (["--level", "godlike"], ["--board", "6p"], ["--opponents", "nobody"],
                 ["--games", "0"], ["--targets", "--only", "nobody"]):
        proc = subprocess.run([sys.executable, "-m", "ai", "gauntlet", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr and "error:" in proc.stderr, args


def test_gauntlet_lists_every_opponent():
    assert set(OPPONENTS) == set(PLAYERS) | {"random", "easy", "normal"}
    assert len(STYLES) >= 4 and len(PLAYERS) >= 6
