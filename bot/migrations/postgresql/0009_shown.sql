-- The game version a game's living message shows: a post the channel is owed (the bot died
-- between an action's commit and its post or edit) is a game whose version is ahead of it.
-- -1: the living message is still the lobby. Existing messages show their game's version.

ALTER TABLE game_messages ADD COLUMN shown BIGINT NOT NULL DEFAULT -1;
UPDATE game_messages SET shown = (SELECT games.version FROM games
                                  WHERE games.id = game_messages.game_id);
