// npm run build: the page's files into bot/web/static/ (committed; the bot serves them).
// Deterministic: the same sources give the same bytes. index.html names the script and the
// style with a digest of their content, so a changed file is fetched again.

import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = join(root, 'bot', 'web', 'static');
const URL_BASE = '/static/';
// Browsers of Discord's clients (desktop Electron, iOS and Android web views) and current ones.
const TARGET = ['chrome100', 'safari15', 'firefox100', 'edge100'];

const digest = (data) => createHash('sha256').update(data).digest('hex').slice(0, 12);

/** Files this build owns in the output folder (others are left alone). */
const OWNED = /^(index\.html|app\.js|app\.css|discord-[0-9a-f]+\.js|thai-[0-9a-f]+\.ttf|fonts-OFL\.txt)$/;

function clean() {
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (OWNED.test(name)) rmSync(join(out, name));
}

async function bundle(entry, define = {}) {
  const result = await esbuild.build({
    entryPoints: [entry], bundle: true, minify: true, format: 'esm', target: TARGET,
    write: false, outfile: 'out.js', legalComments: 'eof', charset: 'utf8', sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"', ...define }, logLevel: 'warning',
    external: [`${URL_BASE}*`],
  });
  return result.outputFiles[0].contents;
}

/** The page's script, and the Discord SDK's own chunk (only loaded inside Discord). */
async function script() {
  const discord = await bundle(join(here, 'src', 'discord.ts'));
  const discordName = `discord-${digest(discord)}.js`;
  const app = await bundle(join(here, 'src', 'main.ts'),
    { DISCORD_CHUNK: JSON.stringify(URL_BASE + discordName) });
  return { 'app.js': app, [discordName]: discord };
}

function font() {
  const src = join(root, 'data', 'fonts', 'NotoSansThai-Bold.ttf');
  const bytes = readFileSync(src);
  const name = `thai-${digest(bytes)}.ttf`;
  copyFileSync(src, join(out, name));
  copyFileSync(join(root, 'data', 'fonts', 'OFL-Noto.txt'), join(out, 'fonts-OFL.txt'));
  return URL_BASE + name;
}

async function style(thai) {
  const css = readFileSync(join(here, 'src', 'style', 'app.css'), 'utf8').replace('{{thai}}', thai);
  const result = await esbuild.transform(css, { loader: 'css', minify: true, target: TARGET });
  return result.code;
}

function page(js, css) {
  const en = JSON.parse(readFileSync(join(root, 'i18n', 'catalogs', 'web', 'en.json'), 'utf8'));
  const words = {
    connecting: en['web.connecting'], reconnecting: en['web.reconnecting'], row: en['web.row'],
    players: en['web.players'], lines: en['web.lines'],
  };
  let html = readFileSync(join(here, 'src', 'index.html'), 'utf8')
    .replace('{{js}}', `${URL_BASE}app.js?v=${digest(js)}`)
    .replace('{{css}}', `${URL_BASE}app.css?v=${digest(css)}`);
  for (const [k, v] of Object.entries(words)) {
    html = html.replace(`{{${k}}}`, v.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
  }
  return html.replace(/>\s+</g, '><').trim() + '\n';
}

clean();
const thai = font();
const files = await script();
const css = await style(thai);
for (const [name, bytes] of Object.entries(files)) writeFileSync(join(out, name), bytes);
writeFileSync(join(out, 'app.css'), css);
writeFileSync(join(out, 'index.html'), page(files['app.js'], css));
console.log(`built ${Object.keys(files).length + 4} files into ${out}`);
