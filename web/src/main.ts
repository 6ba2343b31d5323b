// Boot: inside Discord (the SDK's `frame_id` in the query) sign in through the SDK; in a plain
// browser use the session cookie of /c/{channel}. Then one socket feeds the app.

import { App, type Loaders } from './app';
import { browserSignIn, channelFromPath, loginHref } from './auth';
import { forgetWidths } from './board/tag';
import { json, post } from './http';
import { normalize, type Words } from './i18n';
import { Net, type Clock } from './net';
import type { Config } from './discord';
import type { BoardData, Signed, WordsAnswer } from './protocol';

const loaders: Loaders = {
  board: (key) => json<BoardData>(`/api/board/${encodeURIComponent(key)}`),
  words: (lang) => json<WordsAnswer>(`/api/i18n/${encodeURIComponent(normalize(lang))}`),
};

const clock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (h) => window.clearTimeout(h as number),
  setInterval: (fn, ms) => window.setInterval(fn, ms),
  clearInterval: (h) => window.clearInterval(h as number),
  random: () => Math.random(),
};

/** The SDK's chunk: built on its own (build.mjs names it), loaded only inside Discord. */
declare const DISCORD_CHUNK: string;

function loadDiscord(): Promise<typeof import('./discord')> {
  return import(/* @vite-ignore */ DISCORD_CHUNK) as Promise<typeof import('./discord')>;
}

function pageId(): string {
  const b = new Uint32Array(2);
  crypto.getRandomValues(b);
  return Array.from(b, (n) => n.toString(36)).join('');
}

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

function connect(app: App, signed: Signed, renew: (() => Promise<Signed>) | null,
  early: WebSocket | null = null): void {
  const w = (): Words => app.words;
  app.prefetchBoard(signed.board);
  let first = early;
  const net: Net = new Net({
    url: socketUrl(), session: signed.session, channel: signed.channel, pageId: pageId(),
    open: (url) => {
      const s = first ?? new WebSocket(url);
      first = null;
      return s;
    },
    clock,
    on: {
      snap: (v, d) => app.snap(v, d),
      ack: (id, v) => app.ack(id, v),
      err: (id, code, text) => app.err(id, code, text),
      hint: (id, text, action) => app.gotHint(id, text, action),
      state: (live) => app.conn(live ? 'live' : 'connecting'),
      bye: (code, text) => {
        if (code !== 'session_expired') {
          app.notice('closed', text || w().t('web.failed'));
          return;
        }
        const signOut = (): void => app.notice('signed-out', w().t('web.session_expired'),
          renew ? undefined : { href: loginHref(signed.channel), text: w().t('web.signin') },
          renew ? () => location.reload() : undefined);
        if (!renew) {
          signOut();
          return;
        }
        renew().then((s) => net.restart(s.session), signOut);
      },
    },
  });
  app.setTransport(net);
  net.start();
  window.addEventListener('online', () => net.nudge());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') net.nudge();
  });
}

async function boot(): Promise<void> {
  const app = new App(loaders);
  document.fonts?.addEventListener?.('loadingdone', () => {
    forgetWidths();
    app.refreshAll();
  });
  const early = app.loadWords(normalize(navigator.language)); // before the snapshot says
  // the server names the channel's board in the page's head (a preload): the map is drawn
  // while the page signs in and connects, not after the first snapshot
  const named = document.querySelector('link[rel="preload"][href^="/api/board/"]');
  const key = named?.getAttribute('href')?.slice('/api/board/'.length);
  if (key) app.prefetchBoard(decodeURIComponent(key));
  const fail = (): void => app.notice('closed', app.words.t('web.failed'), undefined, () => location.reload());
  try {
    const query = new URLSearchParams(location.search);
    if (query.has('frame_id')) {
      const config = json<Config>('/api/config'); // while the SDK's chunk loads
      config.catch(() => undefined); // (a failure is met below, when awaited)
      // the socket's handshake runs while the SDK signs in (hello waits for the session)
      const socket = query.get('channel_id') ? new WebSocket(socketUrl()) : null;
      const { discordSignIn, NoChannel } = await loadDiscord();
      try {
        const d = await discordSignIn(await config, { post });
        document.body.dataset.platform = d.platform;
        connect(app, d.signed, d.renew, socket);
      } catch (e) {
        socket?.close();
        await early;
        if (e instanceof NoChannel) app.notice('closed', app.words.t('web.no_channel'));
        else fail();
      }
      return;
    }
    // the socket's handshake runs while the session is fetched (hello waits for the session)
    const socket = channelFromPath(location.pathname) ? new WebSocket(socketUrl()) : null;
    const r = await browserSignIn(location.pathname);
    if (r.ok) {
      connect(app, r.signed, null, socket);
      return;
    }
    socket?.close();
    await early;
    if (r.why === 'no_channel') app.notice('closed', app.words.t('web.no_channel'));
    else {
      app.notice('signed-out', app.words.t('web.signin_why'),
        { href: loginHref(r.channel ?? ''), text: app.words.t('web.signin') });
    }
  } catch {
    fail();
  }
}

void boot();
