"""bot.league.standings and bot.league.export: points/wins/ranks by hand, AI and voided games
left out, and the CSV/JSON export rebuilds the bot's standings with nothing but csv +
openskill."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict

from openskill.models import PlackettLuce
from PIL import Image

from bot.league.export import COLUMNS, FORMAT, game_rows, to_csv, to_json
from bot.league.standings import Placing, PlayedGame, build_table, placement_points, win_shares
from render.standings import StandingsLine, standings_png

ANN, BOB, CID, DAN = 1, 2, 3, 4
NAMES = {ANN: "ann", BOB: "bob", CID: "cid", DAN: "dan"}


def g(gid: int, *placings: tuple[int, int, int], voided: bool = False, rnd: int | None = 1
      ) -> PlayedGame:
    return PlayedGame(gid, 1, f"2026-11-0{gid}T10:00:00Z",
                      tuple(Placing(u, NAMES.get(u, "AI"), r, c, ("Elves", "Orcs") if u == ANN
                                    else ("Trolls",)) for u, r, c in placings),
                      round_no=rnd, voided=voided)


GAMES = [
    g(1, (ANN, 1, 40), (BOB, 2, 30), (CID, 3, 20)),
    g(2, (BOB, 1, 50), (CID, 1, 50), (DAN, 3, 10)),  # shared win
    g(3, (0, 1, 60), (DAN, 2, 40), (ANN, 3, 30)),  # an AI seat won: members re-ranked
    g(4, (CID, 1, 70), (ANN, 2, 10), (BOB, 3, 5), voided=True),
]


def test_points_and_wins_by_hand() -> None:
    assert placement_points([1, 2, 3]) == [12, 6, 0]
    assert placement_points([1, 1, 3]) == [9, 9, 0]
    assert placement_points([1, 2, 3, 4, 5]) == [12, 9, 6, 3, 0]
    assert win_shares([1, 1, 3]) == [0.5, 0.5, 0]


def test_table_by_hand_ai_and_voided_left_out() -> None:
    rows = {r.name: r for r in build_table(GAMES, NAMES, [ANN, BOB, CID, DAN],
                                           remaining_rounds=2, in_play={BOB: 1})}
    # ann: 12 (1st of 3) + 0 (2nd of 2 members) ; bob: 6 + 9 ; cid: 0 + 9 ; dan: 0 + 12
    assert {n: r.points for n, r in rows.items()} == {"ann": 12, "bob": 15, "cid": 9,
                                                       "dan": 12}
    assert {n: r.wins for n, r in rows.items()} == {"ann": 1, "bob": 0.5, "cid": 0.5,
                                                     "dan": 1}
    assert rows["ann"].ranks == [1, 2] and rows["ann"].avg_rank == 1.5
    assert rows["dan"].ranks == [3, 1]
    assert rows["bob"].played == 2 and rows["bob"].left == 3 and rows["ann"].left == 2
    assert rows["ann"].favourite_races() == [("Elves", 2), ("Orcs", 2)]
    order = [r.name for r in build_table(GAMES, NAMES)]
    assert order[0] == "bob" and order[-1] == "cid"
    # ann and dan tie on points and wins: the rating decides
    assert order.index("ann") < order.index("dan") if rows["ann"].rating > rows["dan"].rating \
        else order.index("dan") < order.index("ann")
    assert rows["ann"].history[-1] == rows["ann"].rating
    assert abs(rows["ann"].trend - (rows["ann"].history[1] - rows["ann"].history[0])) < 1e-12


def rebuild(csv_text: str) -> dict[str, dict[str, float]]:
    """Standings from the CSV alone, the way a spreadsheet or another tool would."""
    reader = list(csv.DictReader(io.StringIO(csv_text)))
    m = PlackettLuce()
    table: dict[str, dict[str, float]] = defaultdict(lambda: {"points": 0.0, "wins": 0.0,
                                                               "played": 0, "rank_total": 0})
    ratings: dict[str, object] = {}
    games: dict[str, list[dict[str, str]]] = {}
    for row in reader:
        games.setdefault(row["game_id"], []).append(row)
    for rows in games.values():
        if rows[0]["status"] == "voided":
            continue
        winners = sum(1 for r in rows if r["counted_rank"] == "1")
        for r in rows:
            t = table[r["user_id"]]
            t["points"] += float(r["points"])
            t["wins"] += 1 / winners if r["counted_rank"] == "1" else 0
            t["played"] += 1
            t["rank_total"] += int(r["counted_rank"])
        if len(rows) > 1:
            out = m.rate([[ratings.get(r["user_id"]) or m.rating()] for r in rows],
                         ranks=[int(r["counted_rank"]) for r in rows])
            for r, team in zip(rows, out, strict=True):
                ratings[r["user_id"]] = team[0]
    for uid, t in table.items():
        t["ordinal"] = ratings[uid].ordinal() if uid in ratings else m.rating().ordinal()
    return dict(table)


def test_csv_export_rebuilds_the_standings() -> None:
    text = to_csv(game_rows("Friday", "Spring", GAMES, NAMES))
    header = text.splitlines()[0].split(",")
    assert tuple(header) == COLUMNS
    rebuilt = rebuild(text)
    ours = build_table(GAMES, NAMES)
    assert set(rebuilt) == {str(r.user_id) for r in ours}
    for r in ours:
        b = rebuilt[str(r.user_id)]
        assert abs(b["points"] - r.points) < 1e-9 and abs(b["wins"] - r.wins) < 1e-9
        assert b["played"] == r.played and b["rank_total"] == r.rank_total
        assert abs(b["ordinal"] - r.rating) < 1e-9
    voided = [row for row in csv.DictReader(io.StringIO(text)) if row["game_id"] == "4"]
    assert {row["status"] for row in voided} == {"voided"}
    assert {row["points"] for row in voided} == {"0.0"}
    assert "0" not in {row["user_id"] for row in csv.DictReader(io.StringIO(text))}


def test_json_export_has_games_and_standings() -> None:
    table = build_table(GAMES, NAMES)
    doc = json.loads(to_json("Friday", "Spring", GAMES, NAMES, table))
    assert doc["format"] == FORMAT and doc["columns"] == list(COLUMNS)
    assert [x["game_id"] for x in doc["games"]] == [1, 2, 3, 4]
    assert doc["games"][3]["status"] == "voided"
    assert doc["games"][0]["placings"][0]["races"] == ["Elves", "Orcs"]
    assert [s["name"] for s in doc["standings"]] == [r.name for r in table]
    assert abs(doc["standings"][0]["ordinal"] - table[0].rating) < 1e-5


def test_standings_picture_is_a_png_with_a_row_per_player() -> None:
    table = build_table(GAMES, NAMES, [ANN], remaining_rounds=1)
    lines = [StandingsLine(i, r.name, r.played, r.left, f"{r.wins:g}", r.avg_rank,
                           f"{r.points:g}", r.rating, r.trend, tuple(r.history))
             for i, r in enumerate(table, 1)]
    png = standings_png("Friday — Spring", "2 rounds", lines, "footer")
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG" and im.width == 1028
    empty = Image.open(io.BytesIO(standings_png("x", "y", [])))
    assert im.height - empty.height == 56 * (len(lines) - 1)
