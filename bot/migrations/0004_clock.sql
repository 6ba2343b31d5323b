-- The play-by-post clock: deadlines of every game (turn limits, reminders, survivor placement,
-- AI seats to move) and per-server defaults. One scheduler reads the earliest unfired row.

CREATE TABLE deadlines (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('turn', 'half', 'near', 'survivors', 'ai')),
    seat       TEXT    NOT NULL,                 -- engine name of the seat it concerns
    key        TEXT    NOT NULL,                 -- the stint (turn, placement) it belongs to
    due_at     REAL    NOT NULL,                 -- unix time
    claimed_at REAL,                             -- set when a scheduler took it (fires once)
    fired      INTEGER NOT NULL DEFAULT 0,       -- handled; kept so the stint is not re-armed
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
CREATE INDEX deadlines_due ON deadlines (fired, due_at);

-- Per-server settings a moderator chooses (JSON), e.g. the default clock of new lobbies.
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    clock    TEXT                                -- JSON {"limit": seconds | null, "remind": ...}
);

-- A season can require a clock: its league lobbies get this turn limit and cannot switch it off.
ALTER TABLE seasons ADD COLUMN turn_limit INTEGER;  -- seconds; NULL = no clock required
