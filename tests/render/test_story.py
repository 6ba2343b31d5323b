"""The story of a game (story.tell): its turn maps, rounds and combos, told from the log the
bot stores; coins and the ranking only once the game is over."""

from __future__ import annotations

import json
import pickle

import pytest

import ai
import engine
import render
import story
from story import SecretUntilOver, StoryError, conquered_in_turn

BOUNDARY = {"turn_ended", "turn_started", "game_over"}


def bots_turn_conquests(events_by_action: list[list[dict]]) -> set[int]:
    """The rule bot/service.py `_turn_conquests` applies to the stored rows, as the bot
    stores them (ends_turn: a turn boundary event), written out again to compare."""
    regions: list[int] = []
    for i, events in enumerate(reversed(events_by_action)):
        ends_turn = any(e.get("type") in BOUNDARY for e in events)
        if i > 0 and ends_turn and any(e.get("type") == "turn_ended" for e in events):
            break
        regions += [e["region"] for e in events
                    if e.get("type") == "conquered" and isinstance(e.get("region"), int)]
    return set(regions)


@pytest.mark.parametrize("board_id", engine.data.BOARD_IDS)
def test_a_frame_per_posted_map_with_its_observation_and_highlight(board_id, game_log) -> None:
    start, actions, events = game_log(board_id)
    tale = story.tell(start, actions, events)
    posted = [seq for seq, evs in enumerate(events, start=1)
              if any(e["type"] in ("turn_ended", "game_over") for e in evs)]
    assert [f.seq for f in tale.frames] == posted
    state = start
    states = {}
    for seq, action in enumerate(actions, start=1):
        state = engine.apply(state, engine.parse_action(action)).state
        states[seq] = state
    turns = 0
    for frame in tale.frames:
        assert frame.observation == engine.observe(states[frame.seq], None)
        assert set(frame.highlight) == bots_turn_conquests(events[:frame.seq])
        assert len(set(frame.highlight)) == len(frame.highlight)
        if frame.player is not None:
            turns += 1
            ended = [e for e in events[frame.seq - 1] if e["type"] == "turn_ended"]
            assert ended and (ended[0]["player"], ended[0]["round"]) == (frame.player,
                                                                         frame.round)
        else:  # the game ended when the last turn's survivors were placed
            assert frame is tale.frames[-1] and frame.deeds == (story.Deed("game_over"),)
    assert turns == len(start.players) * start.board.rounds
    assert tale.finished and tale.rounds_played == start.board.rounds


def test_deeds_tell_the_turn(game_log) -> None:
    start, actions, events = game_log("official-3p")
    tale = story.tell(start, actions, events)
    previous = 0
    for frame in tale.frames:
        turn = [e for evs in events[previous:frame.seq] for e in evs]
        previous = frame.seq
        if frame.player is None:
            continue
        mine = [e for e in turn if e.get("player") == frame.player]
        picked = [(e["race"], e["power"]) for e in mine if e["type"] == "picked"]
        declined = [(e["race"], e["power"]) for e in mine if e["type"] == "declined"]
        conquered = sum(1 for e in mine if e["type"] == "conquered")
        kinds = {d.kind: d for d in frame.deeds}
        assert [(d.race, d.power) for d in frame.deeds if d.kind == "picked"] == picked
        assert [(d.race, d.power) for d in frame.deeds if d.kind == "declined"] == declined
        assert (kinds["conquered"].n if "conquered" in kinds else 0) == conquered
        assert ("held" in kinds) == (not picked and not declined and not conquered)


def test_rounds_regions_coins_and_combos(game_log) -> None:
    start, actions, events = game_log("official-4p", seed=5)
    tale = story.tell(start, actions, events)
    rounds = start.board.rounds
    # each player's coins and regions as the state holds them when each round is over
    state, coins, held = start, {p: [] for p in start.players}, {p: [] for p in start.players}
    for action in actions:
        step = engine.apply(state, engine.parse_action(action))
        state = step.state
        if any(e["type"] in ("round_started", "game_over") for e in step.events):
            for i, p in enumerate(state.players):
                coins[p].append(state.seats[i].coins)
                held[p].append(sum(1 for a in state.areas if a.owner == i and a.race))
    assert {p: list(v) for p, v in tale.coins.items()} == coins
    assert {p: list(v) for p, v in tale.regions.items()} == held
    assert all(len(v) == rounds for v in tale.coins.values())
    assert [(p.player, p.coins, p.rank) for p in tale.ranking] == [
        (r["player"], r["total"], r["rank"]) for r in state.ranking]
    assert {p.player: p.coins for p in tale.ranking} == {p: v[-1] for p, v in coins.items()}
    assert tale.winners == tuple(state.winners)
    assert tale.start_coins == engine.data.components().start_coins
    for name in start.players:
        stints = tale.stints[name]
        picks = [e for evs in events for e in evs
                 if e["type"] == "picked" and e["player"] == name]
        assert [(s.race, s.power) for s in stints] == [(e["race"], e["power"]) for e in picks]
        for s, nxt in zip(stints, stints[1:], strict=False):
            assert s.declined is not None and s.picked <= s.declined <= nxt.picked
        assert stints[-1].active_rounds(rounds)[-1] == (stints[-1].declined or rounds)


def test_an_unfinished_game_has_no_coins_at_all(game_log) -> None:
    start, actions, events = game_log("official-2p", stop=60)
    tale = story.tell(start, actions, events)
    assert not tale.finished and tale.frames
    for ask in (lambda: tale.coins, lambda: tale.ranking, lambda: tale.winners):
        with pytest.raises(SecretUntilOver, match="secret until the game is over"):
            ask()
    assert tale._coins is None and tale._ranking is None  # not kept, not only hidden
    for frame in tale.frames:
        assert all("coins" not in p for p in frame.observation["players"].values())


def test_a_scenario_start_and_its_secret_coins(scenario_of) -> None:
    spec = scenario_of("official-3p")
    for i, seat in enumerate(spec["seats"].values()):
        seat["coins"] = 4321 + 111 * i
    start = state = engine.load_scenario(spec)
    actions = []
    while len(actions) < 40:
        action = ai.choose(state, "easy", len(actions))
        state = engine.apply(state, action).state
        actions.append(action)  # engine Actions are taken as well as protocol dicts
    tale = story.tell(start, actions)
    assert tale.frames and not tale.finished
    told = repr(tale) + json.dumps([f.observation for f in tale.frames])
    assert not any(str(4321 + 111 * i + d) in told for i in range(3) for d in range(-5, 30))


def test_a_log_that_does_not_replay_is_refused(game_log) -> None:
    start, actions, events = game_log("official-2p")
    with pytest.raises(StoryError, match="action 3 of the log does not replay"):
        story.tell(start, actions, [*events[:2], [{"type": "picked"}], *events[3:]])
    with pytest.raises(StoryError, match="action 5 of the log has no recorded events"):
        story.tell(start, actions, events[:4])
    bad = [*actions[:7], {"do": "conquer", "region": 999}]
    with pytest.raises(StoryError, match="action 8 of the log cannot be replayed"):
        story.tell(start, bad)
    with pytest.raises(StoryError, match="action 1 of the log cannot be replayed"):
        story.tell(start, [{"do": "fly"}])
    with pytest.raises(StoryError, match="action 2 of the log is not an action"):
        story.tell(start, [actions[0], ["not", "a", "dict"]])  # type: ignore[list-item]
    after_end = [*actions, actions[-1]]
    with pytest.raises(StoryError, match=f"action {len(after_end)} of the log cannot be"):
        story.tell(start, after_end)


def test_conquered_in_turn_is_the_bots_rule() -> None:
    def conquer(*regions: int) -> list[dict]:
        return [{"type": "conquered", "region": r} for r in regions]

    ended = [{"type": "turn_ended"}, {"type": "turn_started"}]
    assert conquered_in_turn([]) == ()
    assert conquered_in_turn([conquer(4, 5), conquer(6)]) == (4, 5, 6)
    # the newest action's own end of turn counts for the turn it ends
    assert conquered_in_turn([conquer(1), ended, conquer(4), conquer(5) + ended]) == (4, 5)
    # mid-turn: the conquests so far
    assert conquered_in_turn([conquer(1) + ended, conquer(7), [{"type": "deployed"}]]) == (7,)
    # a boundary that only starts a turn (survivors placed) does not end one
    assert conquered_in_turn([conquer(2) + ended, [{"type": "turn_started"}], conquer(3),
                              ended]) == (3,)
    # each region once, in the order first conquered; no region that is not a number
    assert conquered_in_turn([conquer(9, 3), conquer(9) + [
        {"type": "conquered", "region": True}, {"type": "conquered", "region": "2"},
        {"type": "conquered"}]]) == (9, 3)


def test_a_story_travels_to_a_drawing_worker(game_log) -> None:
    """The bot draws in worker processes: a story pickles, coins and all, and comes back
    the same; the package-level entry points draw it as render.<name>(story, ...)."""
    tale = story.tell(*game_log("official-2p"))
    back = pickle.loads(pickle.dumps(tale))
    assert back == tale and back.coins == tale.coins and back.ranking == tale.ranking
    assert render.end_card_png(back, lang="hu")[:8] == b"\x89PNG\r\n\x1a\n"
    assert render.end_card_alt(back, "hu") and render.replay_alt(back, "hu")
