-- The long game (PostgreSQL twin of ../0012_long_game.sql): members' quiet hours and
-- standing orders, vacations and the away-day bank, reliability, seat votes, and the deadline
-- kinds 'vote' and 'wake'. Times are unix seconds in DOUBLE PRECISION where they are numbers.

ALTER TABLE user_settings ADD COLUMN quiet TEXT;
ALTER TABLE user_settings ADD COLUMN zone TEXT;
ALTER TABLE user_settings ADD COLUMN orders TEXT NOT NULL DEFAULT 'ask';

ALTER TABLE guild_settings ADD COLUMN away_days INTEGER;
ALTER TABLE league_settings ADD COLUMN away_days INTEGER;
ALTER TABLE league_settings ADD COLUMN max_missed INTEGER;
ALTER TABLE league_settings ADD COLUMN over_turns INTEGER;

CREATE TABLE vacations (
    id         BIGSERIAL        PRIMARY KEY,
    guild_id   BIGINT           NOT NULL,
    user_id    BIGINT           NOT NULL,
    started_at DOUBLE PRECISION NOT NULL,
    until      DOUBLE PRECISION NOT NULL,
    ended_at   DOUBLE PRECISION,
    days       INTEGER          NOT NULL,
    reason     TEXT             NOT NULL DEFAULT '',
    shared     INTEGER          NOT NULL DEFAULT 0,
    auto       INTEGER          NOT NULL DEFAULT 0
);
CREATE INDEX vacations_member ON vacations (guild_id, user_id, started_at);

CREATE TABLE member_turns (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    round      INTEGER NOT NULL,
    guild_id   BIGINT,
    user_id    BIGINT  NOT NULL,
    started_at TEXT    NOT NULL,
    ended_at   TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('played', 'missed', 'away')),
    PRIMARY KEY (game_id, seat, round)
);
CREATE INDEX member_turns_member ON member_turns (guild_id, user_id, ended_at);

CREATE TABLE member_departures (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    guild_id BIGINT,
    at       TEXT   NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX member_departures_member ON member_departures (guild_id, user_id);

CREATE TABLE votes (
    id         BIGSERIAL        PRIMARY KEY,
    game_id    BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT             NOT NULL CHECK (kind IN ('pause', 'resume', 'time', 'ai', 'end')),
    seat       TEXT,
    seconds    INTEGER,
    caller_id  BIGINT           NOT NULL,
    voters     INTEGER          NOT NULL,
    message_id BIGINT,
    opened_at  TEXT             NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    outcome    TEXT CHECK (outcome IN ('passed', 'failed', 'expired')),
    closed_at  TEXT,
    version    INTEGER,
    posted     INTEGER          NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX votes_one_open ON votes (game_id) WHERE outcome IS NULL;
CREATE INDEX votes_game ON votes (game_id, id);

CREATE TABLE ballots (
    vote_id BIGINT  NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
    user_id BIGINT  NOT NULL,
    yes     INTEGER NOT NULL CHECK (yes IN (0, 1)),
    at      TEXT    NOT NULL,
    PRIMARY KEY (vote_id, user_id)
);

ALTER TABLE deadlines DROP CONSTRAINT deadlines_kind_check;
ALTER TABLE deadlines ADD CONSTRAINT deadlines_kind_check
    CHECK (kind IN ('turn', 'half', 'near', 'survivors', 'ai', 'vote', 'wake'));
