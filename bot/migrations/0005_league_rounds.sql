-- Leagues run by the bot: settings and organiser role, table channels, rounds, player
-- availability / sit-out / substitutes, voided and awarded games, races per result, and the
-- audit log of every organiser change. Ratings are not stored: they are recomputed (OpenSkill)
-- from league_results, so the results recorded before this migration rate as they are.

ALTER TABLE seasons ADD COLUMN rounds INTEGER;            -- planned rounds, NULL = open-ended

ALTER TABLE registrations ADD COLUMN days TEXT NOT NULL DEFAULT 'any';  -- weekdays free
ALTER TABLE registrations ADD COLUMN sit_out INTEGER NOT NULL DEFAULT 0; -- skip next round
ALTER TABLE registrations ADD COLUMN substitute INTEGER NOT NULL DEFAULT 0;

CREATE TABLE league_settings (
    league_id         INTEGER PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    organiser_role_id INTEGER,
    allow_ai          INTEGER NOT NULL DEFAULT 0,
    table_size        INTEGER NOT NULL DEFAULT 4 CHECK (table_size BETWEEN 3 AND 5),
    start_minutes     INTEGER NOT NULL DEFAULT 30 CHECK (start_minutes >= 0),
    round_days        INTEGER NOT NULL DEFAULT 7 CHECK (round_days BETWEEN 1 AND 60),
    summary_channel   INTEGER,
    summary_at        TEXT                              -- last weekly summary posted
);

CREATE TABLE league_channels (
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (league_id, channel_id)
);

CREATE TABLE league_rounds (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id  INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_by INTEGER,
    started_at TEXT    NOT NULL,
    start_by   TEXT    NOT NULL,                       -- end of the start window
    deadline   TEXT    NOT NULL,                       -- every game's clock deadline
    begun_at   TEXT,                                   -- no-shows handled, games started
    UNIQUE (season_id, number)
);

ALTER TABLE league_games ADD COLUMN round_id INTEGER REFERENCES league_rounds (id);
ALTER TABLE league_games ADD COLUMN table_no INTEGER;
ALTER TABLE league_games ADD COLUMN voided_at TEXT;
ALTER TABLE league_games ADD COLUMN awarded INTEGER NOT NULL DEFAULT 0;

ALTER TABLE league_results ADD COLUMN races TEXT NOT NULL DEFAULT '';  -- space separated

CREATE TABLE league_audit (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season_id INTEGER,
    game_id   INTEGER,
    actor_id  INTEGER,                                 -- NULL = the bot itself
    action    TEXT    NOT NULL,
    reason    TEXT    NOT NULL DEFAULT '',
    detail    TEXT    NOT NULL DEFAULT '',
    at        TEXT    NOT NULL
);
CREATE INDEX league_audit_league ON league_audit (league_id, id);
