-- Each finished game's key-moments review (issue 21): the AI's win chances after every turn,
-- the three biggest swings and each player's better turn, as JSON (ai.moments.GameReview).
-- Written by a worker after the game ends; /sw-game review and the end card read it.

CREATE TABLE game_reviews (
    game_id INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    review  TEXT    NOT NULL,
    created TEXT    NOT NULL
);
