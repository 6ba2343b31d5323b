-- A counter of the writes to a game's action log (append, undo), moved in the same
-- transaction as the version: (version, revision) names one log exactly, also after an undo
-- and new actions brought the version back (a cache of the latest actions compares it).

ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
