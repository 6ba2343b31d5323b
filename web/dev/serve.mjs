// npm run dev: a small static server for the dev harness (not shipped). It serves the built
// style, the harness script (bundled on each request), the fixtures, and the pictures and words
// made by dev/assets.py, at the paths the real server uses (docs/web.md).
//
//   python web/dev/assets.py && npm run build && npm run dev   ->  http://localhost:8765/

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

function route(url) {
  const path = url.pathname;
  let m;
  if (path === '/' || path.startsWith('/c/')) return ['.html', page()];
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

createServer(async (req, res) => {
  const [ext, body] = route(new URL(req.url ?? '/', 'http://localhost'));
  const data = await body;
  if (data === null) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"error":{"code":"not_found","text":"not found"}}');
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[ext] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
  res.end(data);
}).listen(port, () => console.log(`dev harness on http://localhost:${port}/`));
