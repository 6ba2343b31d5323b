-- Language settings (PostgreSQL twin of ../0006_languages.sql): a user's own language for
-- replies and DMs, a server's default for its games' public posts and pictures.

CREATE TABLE language_settings (
    scope      TEXT    NOT NULL CHECK (scope IN ('user', 'guild')),
    target_id  BIGINT  NOT NULL,
    language   TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
               DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    PRIMARY KEY (scope, target_id)
);
