-- Each seat's result in every finished game (any game, not only league games): the member
-- who played it (0: an AI or a vacant seat), rank and coins. Written when a game finishes;
-- /sw-me history reads it.

CREATE TABLE game_results (
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    guild_id    BIGINT,
    board       TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    coins       INTEGER NOT NULL,
    finished_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_member ON game_results (guild_id, user_id, finished_at, game_id);

-- What a member's results add up to in a server, kept as each game is recorded (in the order
-- games finish), so that /sw-me stats reads a row and a few combos, not every game:
-- games, wins, the sums behind the averages, the current and the longest run of wins.
CREATE TABLE member_records (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    rank_sum    INTEGER NOT NULL,
    players_sum INTEGER NOT NULL,
    run         INTEGER NOT NULL,
    best_run    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- Per member and combo: the games it was picked in, the picks, and the final coins summed.
CREATE TABLE member_combos (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    race        TEXT    NOT NULL,
    power       TEXT    NOT NULL,
    games       INTEGER NOT NULL,
    picks       INTEGER NOT NULL,
    coins_sum   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, race, power)
);

-- A server's choices for its games (moderators, /sw-mod server): the animated replay posted
-- with a finished game's reveal (1: yes), and the AI level that plays a member's turn when
-- its time runs out.
ALTER TABLE guild_settings ADD COLUMN replays INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN takeover TEXT;
