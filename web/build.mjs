// Builds the page of `sable serve` into crates/cli/src/serve/assets/, where the binary
// embeds it: app.js (src/main.js with chessground and chessops, minified), app.css
// (chessground's board, brown squares and cburnett pieces as data URIs, then ours),
// index.html, and THIRD-PARTY.md naming every bundled package with its version and
// licence. The same package-lock.json gives the same files.
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'crates', 'cli', 'src', 'serve', 'assets');
mkdirSync(out, { recursive: true });

const result = await esbuild.build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  legalComments: 'none',
  metafile: true,
  write: false,
  absWorkingDir: here,
});
writeFileSync(join(out, 'app.js'), result.outputFiles[0].contents);

const cg = join(here, 'node_modules', 'chessground', 'assets');
const css = ['chessground.base.css', 'chessground.brown.css', 'chessground.cburnett.css']
  .map((f) => `/* chessground/assets/${f} (GPL-3.0-or-later) */\n` + readFileSync(join(cg, f), 'utf8'))
  .concat(['/* Sable */\n' + readFileSync(join(here, 'src', 'style.css'), 'utf8')])
  .join('\n');
writeFileSync(join(out, 'app.css'), css);
writeFileSync(join(out, 'index.html'), readFileSync(join(here, 'src', 'index.html')));

// The packages whose code is in the bundle, from esbuild's own list of inputs.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) packages.set(m[1], true);
}
packages.set('chessground', true); // its CSS and piece images too
const notices = [];
const rows = [...packages.keys()].sort().map((name) => {
  const dir = join(here, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url ?? '';
  // GPL-3.0 is Sable's own licence (LICENSE at the root); any other licence's text
  // travels with the bundle, as licences such as MIT ask.
  if (!pkg.license.startsWith('GPL-3.0')) {
    const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    notices.push(`## ${name} ${pkg.version} (${pkg.license})`, '', '```', readFileSync(join(dir, file), 'utf8').trim(), '```', '');
  }
  return `| ${name} | ${pkg.version} | ${pkg.license} | ${repo.replace(/^git\+/, '').replace(/\.git$/, '')} |`;
});
writeFileSync(
  join(out, 'THIRD-PARTY.md'),
  [
    '# Third-party code in the page of `sable serve`',
    '',
    'Written by `web/build.mjs`: every npm package whose code is bundled into `app.js` or',
    '`app.css` (chessground\'s board CSS with the cburnett pieces as data URIs). The page',
    'serves this file at `/third-party`. Sable itself is GPL-3.0-or-later (LICENSE at the',
    'root of the repository); the texts of the other licences follow the table.',
    '',
    '| package | version | licence | source |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    ...notices,
  ].join('\n'),
);
for (const f of ['app.js', 'app.css', 'index.html']) {
  console.log(`${f}: ${readFileSync(join(out, f)).length} bytes`);
}
