-- The living message of a game and per-member settings (PostgreSQL twin of
-- ../0003_panels_settings.sql).

CREATE TABLE game_messages (
    game_id    BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    message_id BIGINT  NOT NULL,
    summary    TEXT    NOT NULL DEFAULT '',
    updated_at TEXT    NOT NULL DEFAULT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);

CREATE TABLE user_settings (
    user_id    BIGINT  PRIMARY KEY,
    turn_dm    INTEGER NOT NULL DEFAULT 0 CHECK (turn_dm IN (0, 1)),
    updated_at TEXT    NOT NULL DEFAULT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);
