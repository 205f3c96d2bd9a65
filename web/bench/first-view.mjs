// The page's figures in headless Chromium: for each preset, the first view settled at the
// native default view distance (8 km, every level), chunks, triangles, the frame time's
// median, the median job in a worker; and what the page downloads, raw and compressed.
//   node web/bench/first-view.mjs [--view M] [PRESET...]   (after bash scripts/web.sh --build-only)
// --view M: the view distance in metres (the page's view=M; default the page's, 8 km).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, openPage, builtPage } from '../tests/browser.mjs';

const args = process.argv.slice(2);
let view = null;
const at = args.indexOf('--view');
if (at >= 0) {
  view = Number(args[at + 1]);
  if (!Number.isFinite(view) || view < 32 || view > 65536) {
    console.error(`first-view.mjs: --view '${args[at + 1] ?? ''}' must be metres from 32 to 65536`);
    process.exit(2);
  }
  args.splice(at, 2);
}
const presets = args.length ? args : ['tutorial', 'alpine'];
const root = builtPage();
const server = await serve(root);
const results = { presets: {} };
try {
  for (const preset of presets) {
    const browser = await launch();
    const files = new Set();
    browser.context.on('request', (r) => files.add(new URL(r.url()).pathname));
    try {
      const page = await openPage(browser.context, server.url, `?preset=${preset}${view === null ? '' : `&view=${view}`}`, { timeoutMs: 600000 });
      // A few frames after settling, for the frame time of a full view.
      await page.evaluate(() => window.isoterra.frame());
      await page.evaluate(() => window.isoterra.frame());
      results.presets[preset] = await page.evaluate(() => window.isoterra.stats());
      results.presets[preset].problems = browser.problems;
      let raw = 0, gzip = 0;
      for (const f of files) {
        const file = path.join(root, f === '/' ? 'index.html' : f);
        if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) continue;
        const bytes = fs.readFileSync(file);
        raw += bytes.length;
        gzip += zlib.gzipSync(bytes, { level: 9 }).length;
      }
      results.download = { files: files.size, raw_bytes: raw, gzip_bytes: gzip };
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
console.log(JSON.stringify(results, null, 2));
