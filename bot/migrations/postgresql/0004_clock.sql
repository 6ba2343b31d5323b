-- The play-by-post clock (PostgreSQL twin of ../0004_clock.sql): deadlines of every game
-- (turn limits, reminders, survivor placement, AI seats to move) and per-server defaults.
-- Times are unix seconds in DOUBLE PRECISION (PostgreSQL's REAL is only 4 bytes).

CREATE TABLE deadlines (
    game_id    BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT             NOT NULL CHECK (kind IN ('turn', 'half', 'near', 'survivors', 'ai')),
    seat       TEXT             NOT NULL,
    key        TEXT             NOT NULL,
    due_at     DOUBLE PRECISION NOT NULL,
    claimed_at DOUBLE PRECISION,
    fired      INTEGER          NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, kind)
);
CREATE INDEX deadlines_due ON deadlines (fired, due_at);

CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    clock    TEXT
);

ALTER TABLE seasons ADD COLUMN turn_limit INTEGER;
