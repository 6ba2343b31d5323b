// The plain browser: the channel from the path /c/{id}; the session from the sw_session cookie
// (GET /api/session); without one, a link to sign in with Discord.

import { HttpError, json } from './http';
import type { Signed } from './protocol';

/** The channel id of a /c/{id} path (null: none). */
export function channelFromPath(path: string): string | null {
  const m = /^\/c\/(\d{1,25})\/?$/.exec(path);
  return m ? m[1] ?? null : null;
}

export function loginHref(channel: string): string {
  return `/auth/login?channel=${encodeURIComponent(channel)}`;
}

export type BrowserSignIn =
  | { ok: true; signed: Signed }
  | { ok: false; why: 'no_channel' | 'signed_out'; channel: string | null };

export async function browserSignIn(path: string): Promise<BrowserSignIn> {
  const channel = channelFromPath(path);
  if (!channel) return { ok: false, why: 'no_channel', channel: null };
  try {
    const s = await json<{ session: string; user: Signed['user']; board?: string }>('/api/session');
    return { ok: true, signed: { session: s.session, user: s.user, channel, board: s.board } };
  } catch (e) {
    if (e instanceof HttpError && e.status === 401) return { ok: false, why: 'signed_out', channel };
    throw e;
  }
}
