-- League timers (PostgreSQL twin of ../0010_league_timers.sql): a round's start window
-- closing and the weekly summary, claimed by the scheduler with the games' deadlines.
-- Times are unix seconds in DOUBLE PRECISION (PostgreSQL's REAL is only 4 bytes).

CREATE TABLE league_timers (
    league_id  BIGINT           NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    kind       TEXT             NOT NULL CHECK (kind IN ('round', 'summary')),
    key        TEXT             NOT NULL,
    due_at     DOUBLE PRECISION NOT NULL,
    claimed_at DOUBLE PRECISION,
    fired      INTEGER          NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, kind)
);
CREATE INDEX league_timers_due ON league_timers (fired, due_at);
