-- Games, their append-only action logs and turn-boundary snapshots.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'ended')),
    board       TEXT,                         -- board id; NULL = chosen from the player count
    seed        INTEGER NOT NULL,
    players     TEXT    NOT NULL DEFAULT '[]', -- JSON [{"id": user id, "name": engine name}], seat order
    options     TEXT    NOT NULL DEFAULT '{}', -- JSON engine options + lobby settings
    opener_id   INTEGER,
    version     INTEGER NOT NULL DEFAULT 0,   -- number of actions in the log
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    started_at  TEXT,
    finished_at TEXT
);

-- One open game (lobby or active) per channel.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_status ON games (status);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1), -- the game version after this action
    action     TEXT    NOT NULL,                 -- JSON protocol line
    actor_id   INTEGER,                          -- Discord user id (NULL for moderator/system)
    player     TEXT,                             -- engine name of the acting seat
    events     TEXT    NOT NULL DEFAULT '[]',    -- JSON events of the step (private ones too)
    reveals    INTEGER NOT NULL DEFAULT 0,       -- the step rolled a die or drew: undo stops
    ends_turn  INTEGER NOT NULL DEFAULT 0,       -- a turn_ended event was emitted
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE snapshots (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0), -- the state after `seq` actions
    state      TEXT    NOT NULL,                 -- JSON engine.dump_state
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
