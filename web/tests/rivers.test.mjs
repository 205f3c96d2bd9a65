// The river overlay: the panel's `rivers` box draws the open terrain's river network, the very
// network `isoterra landform --rivers` writes for the same square, step and channel area, as
// lines at the water's level (lifted half a metre) over the picture; unticking it takes them
// away, and a terrain without a ground says so in the error line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, builtPage, pixels, difference, isoterra, outputDir } from './browser.mjs';

const kSeed = 20261114;
const kEye = [-448, 560, -48];       // by a junction of the `rivers` preset (water at about 335 m)
const kTarget = [-520, 330, 160];

const kNoGround = `format = 1
name = "no-ground"
[node]
out = { type = "plane", height = 0.0 }
[output]
sdf = "out"
`;

// The network the program writes for the page's square.
function nativeNetwork(shown) {
  const file = path.join(outputDir(), 'rivers-native.geojson');
  execFileSync(isoterra(), ['landform', '--preset', 'rivers', '--seed', String(kSeed), `--from=${shown.lo.join(',')}`,
    `--to=${shown.hi.join(',')}`, '--step', String(shown.step_m), '--river-area', String(shown.min_area_km2), '--rivers', file, '--quiet']);
  return JSON.parse(fs.readFileSync(file, 'utf8')).features;
}

// Pixels that changed between two pictures, and how many of them are a river's blue.
function changedPixels(a, b) {
  let changed = 0, blue = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]);
    if (d < 60) continue;
    changed++;
    if (b.data[i + 2] > b.data[i] + 60) blue++;
  }
  return { changed, blue };
}

test('the rivers box draws the network landform --rivers writes, at the water level, and takes it away', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  try {
    const page = await openPage(browser.context, server.url,
      `?preset=rivers&seed=${kSeed}&view=512&eye=${kEye.join(',')}&target=${kTarget.join(',')}`);
    const before = await pixels(page);
    await page.check('#rivers');
    const shown = await page.evaluate(() => window.isoterra.rivers());
    assert.equal(shown.shown, true);
    assert.deepEqual([shown.lo, shown.hi], [[-960, -560], [64, 464]], 'the square around the eye, out to the view distance');
    assert.ok(shown.reaches >= 3 && shown.max_order >= 2, `${shown.reaches} reaches, highest order ${shown.max_order}`);

    // The same reaches, orders and points as the program's file (which keeps millimetres).
    const reaches = await page.evaluate(() => window.isoterra.riverReaches());
    const native = nativeNetwork(shown);
    assert.equal(reaches.length, native.length);
    let low = Infinity, high = -Infinity;
    reaches.forEach((r, i) => {
      const line = native[i].geometry.coordinates;
      assert.equal(r.order, native[i].properties.order, `reach ${i}'s order`);
      assert.equal(r.points.length, 3 * line.length, `reach ${i}'s points`);
      line.forEach((p, j) => p.forEach((v, k) => assert.ok(Math.abs(r.points[3 * j + k] - v) <= 0.0006, `reach ${i} point ${j}: ${r.points[3 * j + k]} against ${v}`)));
      for (let j = 2; j < r.points.length; j += 3) low = Math.min(low, r.points[j]), high = Math.max(high, r.points[j]);
    });
    // Drawn in the world's metres with y up: x and z as the network's, y its level lifted.
    assert.equal(shown.lift_m, 0.5);
    assert.ok(Math.abs(shown.box.min[1] - (low + 0.5)) < 1e-3 && Math.abs(shown.box.max[1] - (high + 0.5)) < 1e-3,
      `drawn from y ${shown.box.min[1]} to ${shown.box.max[1]}, levels ${low} to ${high}`);

    // On the picture: new pixels, nearly all of them blue; unticked, the picture as before.
    await page.waitForFunction(() => window.isoterra.rivers().ready, null, { timeout: 30000, polling: 100 });
    const withRivers = await pixels(page);
    await page.screenshot({ path: path.join(outputDir(), 'page-rivers.png') });
    const { changed, blue } = changedPixels(before, withRivers);
    assert.ok(changed > 150 && blue > 0.8 * changed, `${changed} pixels changed, ${blue} of them blue`);
    await page.uncheck('#rivers');
    assert.equal((await page.evaluate(() => window.isoterra.rivers())).shown, false);
    const after = await pixels(page);
    assert.ok(difference(before, after) < 0.5, `unticked, the picture differs by ${difference(before, after).toFixed(2)}`);

    // A graph without a ground output has no rivers: the error line says why, the box unticks.
    const file = path.join(outputDir(), 'no-ground.toml');
    fs.writeFileSync(file, kNoGround);
    await page.setInputFiles('#open-file', file);
    await page.waitForFunction(() => window.isoterra.stats().world.startsWith('no-ground@'), null, { timeout: 30000 });
    await page.click('#rivers');
    const error = await page.evaluate(() => document.getElementById('error').textContent);
    assert.match(error, /rivers: the field has no ground height/);
    assert.equal(await page.isChecked('#rivers'), false);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
