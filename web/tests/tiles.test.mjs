// A baked tileset in a real 3D Tiles client: three.js with the npm 3d-tiles-renderer in
// headless Chromium. The terrain shows (sky above, ground below in more than one colour),
// near tiles come from finer levels than far ones, nothing fails to load, and no request
// leaves 127.0.0.1 (launch() records those and console errors; both must stay empty).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, launch, isoterra, outputDir, canvasPixels } from './browser.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kSky = [168, 189, 214];

async function show(context, base, query) {
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(`${base}viewer/${query}`);
  await page.waitForFunction(() => window.tilesView && window.tilesView.settled(), null, { timeout: 180000, polling: 200 });
  const stats = await page.evaluate(() => window.tilesView.stats());
  const shot = await page.screenshot();
  const { width, height, data } = await canvasPixels(page);
  return { page, stats, shot, width, height, data };
}

test('a baked tileset loads in three.js with 3d-tiles-renderer and shows the terrain', async () => {
  const dir = path.join(outputDir(), 'tiles-bake');
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(isoterra(), ['bake', '--preset', 'tutorial', '--from', '0,0', '--to', '512,512', '--levels', '5', '--quiet', '--out', dir]);
  const server = await serve(web, 0, { '/viewer/': path.join(web, 'tiles'), '/tileset/': dir });
  const browser = await launch();
  try {
    // Low over the south-west corner, looking across the region.
    const near = await show(browser.context, server.url, '?eye=30,70,480&target=350,0,150');
    fs.writeFileSync(path.join(outputDir(), 'tiles-near.png'), near.shot);
    const s = near.stats;
    assert.equal(s.failed, 0);
    assert.ok(s.shown >= 8, `tiles shown: ${JSON.stringify(s)}`);
    assert.ok(s.triangles > 20000, `triangles: ${s.triangles}`);
    const levels = Object.keys(s.levels).map(Number).filter((l) => l >= 0);
    assert.ok(levels.includes(0), `near the eye the finest tiles: ${JSON.stringify(s.levels)}`);
    assert.ok(Math.max(...levels) >= 2, `far away coarser ones: ${JSON.stringify(s.levels)}`);
    const at = (p, x, y) => p.data.slice(4 * (y * p.width + x), 4 * (y * p.width + x) + 3);
    const isSky = ([r, g, b], tol) => Math.abs(r - kSky[0]) <= tol && Math.abs(g - kSky[1]) <= tol && Math.abs(b - kSky[2]) <= tol;
    let sky = 0, skyCount = 0;
    for (let y = 0; y < near.height * 0.08; ++y)
      for (let x = 0; x < near.width; x += 4) { skyCount++; if (isSky(at(near, x, y), 6)) sky++; }
    assert.ok(sky / skyCount > 0.9, `sky at the top: ${sky} of ${skyCount}`);
    let ground = 0, count = 0;
    const colours = new Set();
    for (let y = Math.floor(near.height * 0.7); y < near.height; y += 3)
      for (let x = 0; x < near.width; x += 3) {
        const c = at(near, x, y);
        count++;
        if (!isSky(c, 12)) ground++;
        colours.add(c.map((v) => v >> 4).join(','));
      }
    assert.ok(ground / count > 0.95, `ground in the bottom rows: ${ground} of ${count}`);
    assert.ok(colours.size > 20, `shades of ground: ${colours.size}`);
    // High above: the whole region from coarse tiles only.
    const far = await show(browser.context, server.url, '?eye=256,1100,1000&target=256,0,256');
    fs.writeFileSync(path.join(outputDir(), 'tiles-far.png'), far.shot);
    const farLevels = Object.keys(far.stats.levels).map(Number).filter((l) => l >= 0);
    assert.ok(Math.min(...farLevels) >= 2, `from far away no fine tiles: ${JSON.stringify(far.stats.levels)}`);
    assert.equal(far.stats.failed, 0);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a compressed bake (--compress: quantized, meshopt) loads and shows the same tiles', async () => {
  const plainDir = path.join(outputDir(), 'tiles-bake-small'), packedDir = path.join(outputDir(), 'tiles-bake-compressed');
  for (const [dir, extra] of [[plainDir, []], [packedDir, ['--compress']]]) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync(isoterra(), ['bake', '--preset', 'alpine', '--from', '0,0', '--to', '512,512', '--levels', '4', '--quiet', '--out', dir, ...extra]);
  }
  const bytes = (dir) => fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.glb'))
    .reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
  assert.ok(bytes(packedDir) < 0.4 * bytes(plainDir), `compressed ${bytes(packedDir)} bytes against ${bytes(plainDir)}`);
  const results = [];
  const browser = await launch();
  try {
    for (const dir of [plainDir, packedDir]) {
      const server = await serve(web, 0, { '/viewer/': path.join(web, 'tiles'), '/tileset/': dir });
      try {
        const view = await show(browser.context, server.url, '?eye=-40,1500,560&target=300,1100,200');
        results.push(view.stats);
        if (dir === packedDir) fs.writeFileSync(path.join(outputDir(), 'tiles-compressed.png'), view.shot);
      } finally {
        await server.close();
      }
    }
    const [plain, packed] = results;
    assert.equal(packed.failed, 0);
    assert.ok(packed.triangles > 20000, `triangles: ${JSON.stringify(packed)}`);
    // The same tiles from the same eye: the same levels and triangles (the error is the same).
    assert.deepEqual(packed.levels, plain.levels);
    assert.equal(packed.triangles, plain.triangles);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
  }
});
