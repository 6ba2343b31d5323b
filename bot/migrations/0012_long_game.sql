-- The long game (issue 20): what a member sets once for all her games, vacations and the
-- away-day bank, reliability, seat votes, and two more deadline kinds.
-- (Written as 0011 beside the league timers' 0011; numbered after them.)

-- A member's settings that span games: quiet hours (local "HH:MM-HH:MM" in an IANA zone:
-- no reminder or turn DM then, and a deadline that would run out in them moves to their
-- end) and standing orders for her survivors when she is attacked.
ALTER TABLE user_settings ADD COLUMN quiet TEXT;
ALTER TABLE user_settings ADD COLUMN zone TEXT;
ALTER TABLE user_settings ADD COLUMN orders TEXT NOT NULL DEFAULT 'ask';

-- The away-day bank: days per 30 days a member may spend away (NULL: the bot's default, 7);
-- a league may set its own cap for the members of its running games.
ALTER TABLE guild_settings ADD COLUMN away_days INTEGER;
ALTER TABLE league_settings ADD COLUMN away_days INTEGER;
-- a league may require a reliability to join: at most max_missed percent of the member's
-- last over_turns turns missed (NULL: no requirement)
ALTER TABLE league_settings ADD COLUMN max_missed INTEGER;
ALTER TABLE league_settings ADD COLUMN over_turns INTEGER;

-- Vacations: a member away from all her running games of a server until `until` (or until
-- ended_at, when she came back early); `days` is what it spends from her bank. `auto`: a day
-- spent by a turn of hers that ran out. The reason is shown only if she chose to share it.
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    started_at REAL    NOT NULL,
    until      REAL    NOT NULL,
    ended_at   REAL,
    days       INTEGER NOT NULL,
    reason     TEXT    NOT NULL DEFAULT '',
    shared     INTEGER NOT NULL DEFAULT 0,
    auto       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX vacations_member ON vacations (guild_id, user_id, started_at);

-- Reliability: each member's turn as it ended (played by her; missed: her limit ran out, the
-- AI kept her seat or a moderator skipped it; away: played for her while on vacation), with
-- when it started and ended (ISO 8601 UTC).
CREATE TABLE member_turns (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       TEXT    NOT NULL,
    round      INTEGER NOT NULL,
    guild_id   INTEGER,
    user_id    INTEGER NOT NULL,
    started_at TEXT    NOT NULL,
    ended_at   TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('played', 'missed', 'away')),
    PRIMARY KEY (game_id, seat, round)
);
CREATE INDEX member_turns_member ON member_turns (guild_id, user_id, ended_at);

-- Members who left a running game (kicked, or handed their seat on).
CREATE TABLE member_departures (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER,
    at       TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX member_departures_member ON member_departures (guild_id, user_id);

-- Seat votes: one open vote per game (outcome NULL), its ballots, how it ended (passed,
-- failed, expired) at which game version, and whether its outcome was posted yet.
CREATE TABLE votes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('pause', 'resume', 'time', 'ai', 'end')),
    seat       TEXT,
    seconds    INTEGER,
    caller_id  INTEGER NOT NULL,
    voters     INTEGER NOT NULL,
    message_id INTEGER,
    opened_at  TEXT    NOT NULL,
    expires_at REAL    NOT NULL,
    outcome    TEXT CHECK (outcome IN ('passed', 'failed', 'expired')),
    closed_at  TEXT,
    version    INTEGER,
    posted     INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX votes_one_open ON votes (game_id) WHERE outcome IS NULL;
CREATE INDEX votes_game ON votes (game_id, id);

CREATE TABLE ballots (
    vote_id INTEGER NOT NULL REFERENCES votes (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    yes     INTEGER NOT NULL CHECK (yes IN (0, 1)),
    at      TEXT    NOT NULL,
    PRIMARY KEY (vote_id, user_id)
) WITHOUT ROWID;

-- Two more deadline kinds on the one clock: 'vote' (a vote expires) and 'wake' (the turn DM
-- held through the actor's quiet hours). SQLite cannot change a CHECK in place: the table
-- is copied into a new one.
CREATE TABLE deadlines_new (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('turn', 'half', 'near', 'survivors', 'ai',
                                                'vote', 'wake')),
    seat       TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    due_at     REAL    NOT NULL,
    claimed_at REAL,
    fired      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
INSERT INTO deadlines_new (game_id, kind, seat, key, due_at, claimed_at, fired)
    SELECT game_id, kind, seat, key, due_at, claimed_at, fired FROM deadlines;
DROP TABLE deadlines;
ALTER TABLE deadlines_new RENAME TO deadlines;
CREATE INDEX deadlines_due ON deadlines (fired, due_at);
