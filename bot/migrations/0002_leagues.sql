-- Community leagues: seasons, registrations, the games played for a season and their results.

CREATE TABLE leagues (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    name       TEXT    NOT NULL COLLATE NOCASE,
    created_by INTEGER,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (guild_id, name)
);

CREATE TABLE seasons (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL COLLATE NOCASE,
    started_by INTEGER,
    started_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_by   INTEGER,
    ended_at   TEXT,                             -- NULL while the season is open
    UNIQUE (league_id, name)
);

-- One open season per league.
CREATE UNIQUE INDEX seasons_open ON seasons (league_id) WHERE ended_at IS NULL;

CREATE TABLE registrations (
    season_id  INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,                 -- display name when they (re)joined
    joined_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    left_at    TEXT,                             -- NULL while registered; results stay
    PRIMARY KEY (season_id, user_id)
) WITHOUT ROWID;

-- A game opened with /league game belongs to one season.
CREATE TABLE league_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    season_id   INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    opened_by   INTEGER,
    recorded_at TEXT                             -- set once, when the result was recorded
);
CREATE INDEX league_games_season ON league_games (season_id);

-- The final ranking of a finished league game (only seats held by a member).
CREATE TABLE league_results (
    game_id INTEGER NOT NULL REFERENCES league_games (game_id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    seat    TEXT    NOT NULL,                    -- engine name of the seat
    rank    INTEGER NOT NULL CHECK (rank >= 1),  -- as announced: ties share the better rank
    coins   INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
