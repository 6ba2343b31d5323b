-- The one public message a game keeps current (its lobby, then its turn panel), so that an
-- older one can be retired after a restart too; and per-member settings (turn DMs).

CREATE TABLE game_messages (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    summary    TEXT    NOT NULL DEFAULT '',      -- what the message keeps when it is retired
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;

CREATE TABLE user_settings (
    user_id    INTEGER PRIMARY KEY,
    turn_dm    INTEGER NOT NULL DEFAULT 0 CHECK (turn_dm IN (0, 1)), -- DM me when I must act
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;
