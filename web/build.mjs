// SPDX-License-Identifier: AGPL-3.0-or-later
// Builds web/dist: index.html, app.js, app.css, favicon.svg and pieces/*.svg.
// The output is deterministic so that the committed dist changes only when the sources do.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync, rmSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const cg = join(root, 'node_modules/@lichess-org/chessground/assets');

rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'pieces'), { recursive: true });

// The cburnett set ships as data: URIs inside chessground.cburnett.css. A strict CSP
// (img-src 'self') forbids data: images, so write each piece to its own file.
const cburnett = readFileSync(join(cg, 'chessground.cburnett.css'), 'utf8');
const rule = /\.cg-wrap piece\.(\w+)\.(white|black)\s*\{\s*background-image:\s*url\('data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'\);?\s*\}/g;
const roles = { pawn: 'P', knight: 'N', bishop: 'B', rook: 'R', queen: 'Q', king: 'K' };
let piecesCss = '/* cburnett pieces by Colin M.L. Burnett, GPL-2.0-or-later (see web/README.md) */\n';
let count = 0;
for (const [, role, color, b64] of cburnett.matchAll(rule)) {
  const name = `${color[0]}${roles[role]}`;
  writeFileSync(join(dist, 'pieces', `${name}.svg`), Buffer.from(b64, 'base64'));
  piecesCss += `.piece-${name},.cg-wrap piece.${role}.${color}{background-image:url(/pieces/${name}.svg)}\n`;
  count++;
}
if (count !== 12) throw new Error(`expected 12 cburnett pieces, found ${count}`);
mkdirSync(join(root, 'build'), { recursive: true });
writeFileSync(join(root, 'build', 'pieces.css'), piecesCss);

const banner = '/*! Arbiter web app. AGPL-3.0-or-later. Includes chessground (GPL-3.0-or-later) and the cburnett pieces (GPL-2.0-or-later). Source: web/ */';

await build({
  entryPoints: [join(root, 'src/main.ts')],
  outfile: join(dist, 'app.js'),
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  legalComments: 'none',
  banner: { js: banner },
  logLevel: 'warning',
});

await build({
  entryPoints: [join(root, 'src/styles/app.css')],
  outfile: join(dist, 'app.css'),
  bundle: true,
  minify: true,
  external: ['/pieces/*'],
  legalComments: 'none',
  banner: { css: banner },
  logLevel: 'warning',
});

copyFileSync(join(root, 'src/index.html'), join(dist, 'index.html'));
copyFileSync(join(root, 'src/favicon.svg'), join(dist, 'favicon.svg'));
console.log('built web/dist');
