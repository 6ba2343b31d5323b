-- Direct messages owed to players (their coins after a turn). Each is written in the same
-- transaction as the action that owes it and sent after the commit; whatever a crash left
-- unsent is sent after the restart (with a Discord nonce, so a resend is not a second DM).

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,               -- the action that owes it
    user_id    INTEGER NOT NULL,
    lines      TEXT    NOT NULL,               -- JSON list of the message's lines
    created_at TEXT    NOT NULL,
    claimed_at TEXT,                           -- a sender is on it (taken over when stale)
    attempts   INTEGER NOT NULL DEFAULT 0,
    sent_at    TEXT,                           -- delivered, or given up: see result
    result     TEXT                            -- 'sent', 'dm_closed', 'failed'
);
CREATE INDEX outbox_unsent ON outbox (game_id) WHERE sent_at IS NULL;
