// The page's figures in headless Chromium: for each preset, the first view settled at the
// native default view distance (8 km, every level), chunks, triangles, the frame time's
// median, the median job in a worker; and what the page downloads, raw and compressed.
//   node web/bench/first-view.mjs [PRESET...]      (after bash scripts/web.sh --build-only)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, openPage, builtPage } from '../tests/browser.mjs';

const presets = process.argv.slice(2).length ? process.argv.slice(2) : ['tutorial', 'alpine'];
const root = builtPage();
const server = await serve(root);
const results = { presets: {} };
try {
  for (const preset of presets) {
    const browser = await launch();
    const files = new Set();
    browser.context.on('request', (r) => files.add(new URL(r.url()).pathname));
    try {
      const page = await openPage(browser.context, server.url, `?preset=${preset}`, { timeoutMs: 600000 });
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
