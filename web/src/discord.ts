// Inside Discord: the Embedded App SDK's handshake, then our server trades the code for a
// session (POST /api/token). Console output is not forwarded to Discord
// (disableConsoleLogOverride), and the session and tokens are never logged.

import { DiscordSDK } from '@discord/embedded-app-sdk';
import type { Signed } from './protocol';

/** The page's HTTP helper, handed in (so this lazily loaded chunk shares no code chunk). */
export interface Http {
  post<T>(path: string, body: unknown): Promise<T>;
}

export interface Config {
  client_id: string;
  activity: boolean;
  login: string;
}

interface TokenAnswer {
  access_token: string;
  session: string;
  user: Signed['user'];
  board?: string;
}

export interface DiscordSession {
  signed: Signed;
  platform: string;
  /** Sign in again (the session expired): a new session for the same channel. */
  renew(): Promise<Signed>;
}

export class NoChannel extends Error {}

/** `config`: GET /api/config, fetched by the caller while this chunk loads. */
export async function discordSignIn(config: Config, http: Http): Promise<DiscordSession> {
  performance.mark?.('sw:sdk-loaded'); // (marks: bench/board.py's PAGE_MARKS timeline)
  const sdk = new DiscordSDK(config.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  performance.mark?.('sw:sdk-ready');
  const channel = sdk.channelId;
  if (!channel) throw new NoChannel('no channel');
  const signIn = async (): Promise<Signed> => {
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id, response_type: 'code', state: '', prompt: 'none',
      scope: ['identify'],
    });
    performance.mark?.('sw:authorized');
    const answer = await http.post<TokenAnswer>('/api/token', { code });
    // the board needs only our session: the SDK's authenticate runs beside the socket's hello
    sdk.commands.authenticate({ access_token: answer.access_token }).catch(() => undefined);
    return { session: answer.session, user: answer.user, channel, board: answer.board };
  };
  return { signed: await signIn(), platform: sdk.platform, renew: signIn };
}
