-- League timers: the league's deadlines on the one clock (bot/clock.py), beside the games'
-- `deadlines`: a round's start window closing ('round': the round begins) and the weekly
-- summary ('summary'). One row per league and kind, re-armed when the league changes (a
-- round started or begun, a season started or ended, the settings) and at every start; the
-- scheduler claims them with the games' deadlines (next_deadline and claim_due read both).

CREATE TABLE league_timers (
    league_id  INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('round', 'summary')),
    key        TEXT    NOT NULL,                 -- what it was armed for: a new key re-arms it
    due_at     REAL    NOT NULL,                 -- unix time
    claimed_at REAL,                             -- set when a scheduler took it (fires once)
    fired      INTEGER NOT NULL DEFAULT 0,       -- handled; kept so the same key is not re-armed
    PRIMARY KEY (league_id, kind)
) WITHOUT ROWID;
CREATE INDEX league_timers_due ON league_timers (fired, due_at);
