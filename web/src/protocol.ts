// The page's side of docs/web.md: board data, the snapshot and the socket's messages.
// Types only; the server has the final say on every value.

export type Point = [number, number];

/** One region's drawing data (GET /api/board/{key}); coordinates are layer pixels. */
export interface RegionGeo {
  id: number;
  terrain: string;
  path: string;
  marker: Point;
  label: Point;
  pieces: Point[];
  neighbours: number[];
  entry: boolean;
  symbols: string[];
}

export interface BoardData {
  key: string;
  width: number;
  height: number;
  layer: string;
  regions: RegionGeo[];
}

/** An action in the engine's protocol (`player` is filled in by the server). */
export interface Act {
  do: string;
  [field: string]: unknown;
}

export interface Game {
  id: number;
  channel: string;
  board: string;
  status: string;
  lang: string;
  hints: boolean;
}

export interface Me {
  id: string;
  name: string;
  seat: string | null;
  /** Present only for the viewer's own seat. */
  coins?: number;
  acts: boolean;
  lang: string;
}

export interface RaceHold {
  race: string;
  power?: string | null;
  tokens_on_board?: number;
}

export interface Player {
  name: string;
  display: string;
  colour: string;
  ai: string | null;
  away?: boolean;
  hand?: number;
  regions?: number;
  active?: RaceHold | null;
  decline?: RaceHold[];
  /** Everybody's, but only once the game is over. */
  coins?: number;
}

export interface Combo {
  slot: number;
  race: string;
  power: string;
  tokens: number;
  cost: number;
  coins_on_combo: number;
}

export interface RegionState {
  owner?: string | null;
  race?: string | null;
  tokens?: number;
  decline?: boolean;
  pieces?: string[];
  lost_tribe?: boolean;
}

export interface Turn {
  conquests: number;
  conquests_over: boolean;
  roll: number | null;
  picked: boolean;
  dragon_used: boolean;
}

export type Verb = 'conquer' | 'reinforce' | 'dragon' | 'enchant' | 'conquer_decline';

export interface Target {
  region: number;
  verb: Verb;
  /** Tokens it takes; null: a die decides. */
  cost: number | null;
  a: Act;
}

export interface Placement {
  piece: string;
  region: number;
  a: Act;
}

export interface Moves {
  pick: boolean;
  targets: Target[];
  deploy: Record<string, number>;
  move: Record<string, Record<string, number>>;
  abandon: number[];
  place: Placement[];
  ally: string[];
  roll: boolean;
  decline: boolean;
  end: boolean;
  end_asks: boolean;
  undo: boolean;
  defender: boolean;
  hand: number;
}

export interface RankEntry {
  player: string;
  total: number;
  tokens: number;
  rank: number;
}

export interface Story {
  card?: string;
  replay?: string;
}

export interface Snapshot {
  game: Game;
  me: Me;
  round: number;
  rounds: number;
  current: string | null;
  actor: string | null;
  stage: string;
  finished: boolean;
  players: Player[];
  row: Combo[];
  regions: Record<string, RegionState>;
  pending: unknown[];
  turn: Turn | null;
  clock: { deadline: number | null };
  changed: number[];
  lines: string[];
  moves: Moves | null;
  ranking: RankEntry[] | null;
  story?: Story | null;
}

// ---------------------------------------------------------------- the socket

export type ClientMsg =
  | { t: 'hello'; session: string; channel: string; v: number }
  | { t: 'act'; id: string; g: number; v: number; a: Act }
  | { t: 'undo'; id: string; g: number; v: number }
  | { t: 'hint'; id: string }
  | { t: 'ping' };

export type ByeCode = 'session_expired' | 'not_allowed' | 'no_game';

export type ServerMsg =
  | { t: 'snap'; v: number; d: Snapshot }
  | { t: 'ack'; id: string; v: number }
  | { t: 'err'; id: string; code: string; text: string }
  | { t: 'hint'; id: string; text: string; action?: Act | null }
  | { t: 'pong' }
  | { t: 'bye'; code: ByeCode | string; text: string };

/** GET /api/i18n/{lang}. */
export interface WordsAnswer {
  lang: string;
  words: Record<string, string>;
  races?: Record<string, string>;
  abbr?: Record<string, string>;
  powers?: Record<string, string>;
  terrain?: Record<string, string>;
  pieces?: Record<string, string>;
}

/** Sign-in's outcome, from either path. */
export interface Signed {
  session: string;
  channel: string;
  user: { id: string; name: string };
  /** The board key of the channel's game, when the server says it with the session: its
   * drawing data is fetched while the socket connects. */
  board?: string;
}

/** Every HTTP error (docs/web.md). */
export interface ErrorBody {
  error: { code: string; text: string };
}
