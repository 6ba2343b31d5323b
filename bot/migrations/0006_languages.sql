-- Language settings (i18n): a user's own language for replies and DMs (else their Discord
-- locale), and a server's default language for its games' public posts and pictures. A game
-- keeps the language it was opened with in its options ("language").

CREATE TABLE language_settings (
    scope      TEXT    NOT NULL CHECK (scope IN ('user', 'guild')),
    target_id  INTEGER NOT NULL,
    language   TEXT    NOT NULL,
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (scope, target_id)
);
