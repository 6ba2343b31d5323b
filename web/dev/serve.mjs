// npm run dev: a small server for looking at the page (not shipped), at the paths the real
// server uses (docs/web.md):
//   /?snap=...     the dev harness (dev/harness.ts, bundled on each request) on the fixtures
//   /c/1 /c/2 /c/3 the BUILT page (bot/web/static) on its real boot path: GET /api/session, then
//                  a WebSocket speaking the protocol with the conquest / redeploy / spectator
//                  fixture (acts are acked with a new version); /c/4: conquest, every act refused;
//                  /c/5 pick, /c/6 survivors, /c/7 finished, /c/8 conquest in Thai
//   /c/9           a channel whose session is refused (401): the sign-in link
//   /dev/discord.html  the built page inside a fake Discord parent (the SDK's handshake,
//                  AUTHORIZE, AUTHENTICATE; POST /api/token answers a session for channel 1)
//
//   python web/dev/assets.py && npm run build && npm run dev   ->  http://localhost:8765/

import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '..');
const root = join(web, '..');
const port = Number(process.env.PORT ?? 8765);

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.png': 'image/png', '.webp': 'image/webp', '.ttf': 'font/ttf',
};

function page() {
  const en = JSON.parse(readFileSync(join(root, 'i18n', 'catalogs', 'web', 'en.json'), 'utf8'));
  return readFileSync(join(web, 'src', 'index.html'), 'utf8')
    .replace('{{css}}', '/static/app.css')
    .replace('{{js}}', '/dev/harness.js')
    .replace(/\{\{(\w+)\}\}/g, (_, k) => en[`web.${k}`] ?? k);
}

async function harness() {
  const r = await esbuild.build({ entryPoints: [join(here, 'harness.ts')], bundle: true,
    format: 'esm', write: false, outfile: 'h.js', define: { DISCORD_CHUNK: '""' } });
  return r.outputFiles[0].contents;
}

function file(path) {
  const p = normalize(path);
  return existsSync(p) ? readFileSync(p) : null;
}

const FIXTURE = { 1: 'conquest', 2: 'redeploy', 3: 'spectator', 4: 'conquest', 5: 'pick', 6: 'survivors',
  7: 'finished', 8: 'conquest-th' }; // 4 refuses every act

function route(url, req) {
  const path = url.pathname;
  let m;
  if (path.startsWith('/c/')) return ['.html', readFileSync(join(root, 'bot', 'web', 'static', 'index.html'))];
  if (path === '/api/session') {
    const channel = /\/c\/(\d+)/.exec(req.headers.referer ?? '')?.[1] ?? '1';
    if (!FIXTURE[channel]) return ['.json', null, 401];
    // the optional `board` (docs/web.md): DEV_NO_BOARD=1 leaves it out
    const board = process.env.DEV_NO_BOARD ? undefined : 'official-4p';
    return ['.json', JSON.stringify({ session: `dev-${channel}`, user: { id: '102', name: 'Bob' }, board })];
  }
  if (path === '/' && url.searchParams.has('frame_id')) return ['.html', readFileSync(join(root, 'bot', 'web', 'static', 'index.html'))];
  if (path === '/') return ['.html', page()];
  if (path === '/dev/discord.html') return ['.html', readFileSync(join(here, 'discord.html'))];
  if (path === '/api/config') return ['.json', JSON.stringify({ client_id: '1', activity: true, login: '/auth/login' })];
  if (path === '/api/token' && req.method === 'POST') {
    return ['.json', JSON.stringify({ access_token: 'dev-access', session: 'dev-1', user: { id: '102', name: 'Bob' },
      board: process.env.DEV_NO_BOARD ? undefined : 'official-4p' })];
  }
  if (path === '/dev/harness.js') return ['.js', harness()];
  if ((m = /^\/static\/([\w.-]+)$/.exec(path))) return [m[1].slice(m[1].lastIndexOf('.')), file(join(root, 'bot', 'web', 'static', m[1]))];
  if ((m = /^\/fixtures\/([\w-]+\.json)$/.exec(path))) return ['.json', file(join(web, 'fixtures', m[1]))];
  if ((m = /^\/api\/board\/([\w-]+)$/.exec(path))) return ['.json', file(join(web, 'fixtures', `board-${m[1]}.json`))];
  if ((m = /^\/board\/([\w-]+)\.webp$/.exec(path))) return ['.webp', file(join(here, 'out', `${m[1]}.webp`))];
  if ((m = /^\/sprites\/(\w+)\.png$/.exec(path))) return ['.png', file(join(here, 'out', 'sprites', `${m[1]}.png`))];
  if ((m = /^\/api\/i18n\/(\w+)$/.exec(path))) return ['.json', file(join(here, 'out', 'i18n', `${m[1]}.json`))];
  if ((m = /^\/story\/\d+\/(card|replay)\.png$/.exec(path))) return ['.png', file(join(here, 'out', 'sprites', 'hero.png'))];
  return ['', null];
}

const server = createServer(async (req, res) => {
  const [ext, body, status] = route(new URL(req.url ?? '/', 'http://localhost'), req);
  const data = await body;
  if (data === null) {
    res.writeHead(status ?? 404, { 'Content-Type': 'application/json' });
    res.end(`{"error":{"code":"${status === 401 ? 'signed_out' : 'not_found'}","text":"no"}}`);
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[ext] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
  res.end(data);
});

// ---------------------------------------------------------------- a minimal WebSocket (RFC 6455)

function frame(text) {
  const body = Buffer.from(text);
  const n = body.length;
  const head = n < 126 ? Buffer.from([0x81, n])
    : n < 65536 ? Buffer.from([0x81, 126, n >> 8, n & 255])
      : Buffer.concat([Buffer.from([0x81, 127, 0, 0, 0, 0]), Buffer.from([(n >>> 24) & 255, (n >> 16) & 255, (n >> 8) & 255, n & 255])]);
  return Buffer.concat([head, body]);
}

/** Complete client frames in `buf`: [messages, rest]. Text frames only; close ends. */
function unframe(buf) {
  const out = [];
  for (;;) {
    if (buf.length < 2) break;
    const op = buf[0] & 15;
    let n = buf[1] & 127;
    let at = 2;
    if (n === 126) { n = buf.readUInt16BE(2); at = 4; } else if (n === 127) { n = Number(buf.readBigUInt64BE(2)); at = 10; }
    if (buf.length < at + 4 + n) break;
    const mask = buf.subarray(at, at + 4);
    const data = Buffer.from(buf.subarray(at + 4, at + 4 + n));
    for (let i = 0; i < n; i++) data[i] ^= mask[i & 3];
    buf = buf.subarray(at + 4 + n);
    if (op === 8) { out.push(null); break; }
    if (op === 1) out.push(data.toString());
  }
  return [out, buf];
}

server.on('upgrade', (req, socket) => {
  const key = req.headers['sec-websocket-key'];
  const accept = createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const send = (msg) => socket.write(frame(JSON.stringify(msg)));
  let buf = Buffer.alloc(0);
  let snap = null;
  let refuse = false;
  socket.on('data', (chunk) => {
    let msgs;
    [msgs, buf] = unframe(Buffer.concat([buf, chunk]));
    for (const text of msgs) {
      if (text === null) { socket.end(); return; }
      const m = JSON.parse(text);
      if (m.t === 'hello') {
        const channel = m.session.replace('dev-', '');
        refuse = channel === '4';
        snap = snap ?? JSON.parse(readFileSync(join(web, 'fixtures', `snap-${FIXTURE[channel] ?? 'conquest'}.json`), 'utf8'));
        send(snap);
      } else if (m.t === 'ping') send({ t: 'pong' });
      else if (m.t === 'act' && snap) {
        if (refuse) { send({ t: 'err', id: m.id, code: 'not_adjacent', text: 'Region 14 is not next to your Trolls.' }); continue; }
        snap = { ...snap, v: snap.v + 1, d: { ...snap.d, changed: typeof m.a.region === 'number' ? [m.a.region] : [] } };
        send({ t: 'ack', id: m.id, v: snap.v });
        send(snap);
      } else if (m.t === 'undo' && snap) send({ t: 'ack', id: m.id, v: snap.v });
      else if (m.t === 'hint') send({ t: 'hint', id: m.id, text: 'Conquer region 16.', action: null });
    }
  });
  socket.on('error', () => socket.destroy());
});

server.listen(port, () => console.log(`dev harness on http://localhost:${port}/`));
