// The page at a given eye and target settles and shows sky above and varied terrain below,
// with no console error and no request off 127.0.0.1; the screenshot is the README's. Then
// the keys fly the eye. A graph's water, sand and scree are drawn as the native renderer does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, builtPage, pixels, outputDir, settleAgain } from './browser.mjs';

const kSky = [168, 189, 214];  // the clear colour (0.66, 0.74, 0.84)

test('a settled view shows sky above and varied terrain below', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  try {
    const page = await openPage(browser.context, server.url, '?preset=tutorial&seed=20261114&view=384&eye=0,110,0&target=300,50,-300');
    const stats = await page.evaluate(() => window.isoterra.stats());
    assert.ok(stats.chunks > 50, `chunks shown: ${stats.chunks}`);
    assert.ok(stats.triangles > 50000, `triangles: ${stats.triangles}`);
    assert.ok(stats.first_view_ms > 0);
    // Coarse first: the whole view was on screen, at some level, no later than all of it at its own.
    assert.ok(stats.first_picture_ms > 0 && stats.first_picture_ms <= stats.first_view_ms,
      `first picture ${stats.first_picture_ms} ms, first view ${stats.first_view_ms} ms`);
    const p = await pixels(page);
    await page.screenshot({ path: path.join(outputDir(), 'page.png') });
    const at = (x, y) => Array.from(p.data.subarray(4 * (y * p.width + x), 4 * (y * p.width + x) + 3));
    // Sky: the top rows right of the panel are the sky colour.
    let sky = 0, skyCount = 0;
    for (let y = 0; y < p.height * 0.08; ++y)
      for (let x = Math.floor(p.width * 0.45); x < p.width; x += 3) {
        skyCount++;
        if (at(x, y).every((v, c) => Math.abs(v - kSky[c]) <= 6)) sky++;
      }
    assert.ok(sky / skyCount > 0.95, `sky pixels at the top: ${sky} of ${skyCount}`);
    // Terrain: the bottom third is ground, of more than one material, not sky or one colour.
    let ground = 0, grass = 0, grey = 0, count = 0;
    const luminance = [];
    for (let y = Math.floor(p.height * 0.67); y < p.height; y += 2)
      for (let x = 0; x < p.width; x += 2) {
        const [r, g, b] = at(x, y);
        count++;
        if (!(Math.abs(r - kSky[0]) <= 10 && Math.abs(g - kSky[1]) <= 10 && Math.abs(b - kSky[2]) <= 10)) ground++;
        if (g > r + 15 && g > b + 15) grass++;
        if (Math.abs(r - g) < 14 && Math.abs(g - b) < 18 && !(b > r + 20)) grey++;
        luminance.push(0.3 * r + 0.59 * g + 0.11 * b);
      }
    const mean = luminance.reduce((a, b) => a + b, 0) / luminance.length;
    const sd = Math.sqrt(luminance.reduce((a, b) => a + (b - mean) ** 2, 0) / luminance.length);
    assert.ok(ground / count > 0.97, `ground pixels at the bottom: ${ground} of ${count}`);
    assert.ok(grass / count > 0.03 && grey / count > 0.03, `grass ${grass}, rock or soil ${grey} of ${count}`);
    assert.ok(sd > 8, `the ground's brightness varies by ${sd.toFixed(1)} only`);
    // W flies along the view, eight times as fast with Shift.
    const before = await page.evaluate(() => window.isoterra.camera());
    const fly = async (keys, ms) => {
      const start = await page.evaluate(() => window.isoterra.camera().eye);
      await page.locator('#view').focus();
      for (const k of keys) await page.keyboard.down(k);
      await page.waitForTimeout(ms);
      for (const k of [...keys].reverse()) await page.keyboard.up(k);
      const end = await page.evaluate(() => window.isoterra.camera().eye);
      return end.map((v, i) => v - start[i]);
    };
    const along = (d) => d.reduce((a, v, i) => a + v * before.direction[i], 0);
    const walked = await fly(['KeyW'], 500);
    assert.ok(along(walked) > 5, `W moved ${along(walked).toFixed(1)} m along the view`);
    const rushed = await fly(['ShiftLeft', 'KeyW'], 500);
    assert.ok(along(rushed) > 3 * along(walked), `Shift+W moved ${along(rushed).toFixed(1)} m, W ${along(walked).toFixed(1)} m`);
    const error = await page.evaluate(() => document.getElementById('error').hidden);
    assert.equal(error, true, 'the error line is hidden');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

// Flat ground at 0.5 m; water 1 m above it west of x = 0 (sand under it: sand_height_m), grass
// east of the shore, scree from x = 9 m on.
const kWaterGraph = `format = 1
name = "water"
[node]
ground = { type = "const", value = 0.5 }
out = { type = "plane", height = "ground" }
east = { type = "x" }
fall = { type = "mul", a = "east", b = -1000.0 }
water = { type = "min", a = 1.5, b = "fall" }
scree = { type = "smoothstep", in = "east", from = 8.0, to = 9.0 }
[output]
sdf = "out"
ground = "ground"
water = "water"
scree = "scree"
[material]
sand_height_m = 2.0
`;

test('a graph\'s water, sand and scree are drawn', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  try {
    const page = await openPage(browser.context, server.url, '?preset=tutorial&seed=1&view=96');
    const file = path.join(outputDir(), 'water.toml');
    fs.writeFileSync(file, kWaterGraph);
    await page.setInputFiles('#open-file', file);
    await page.waitForFunction(() => window.isoterra.stats().world === 'water@1', null, { timeout: 30000 });
    // From 30 m up and 30 m south of (5, 0, 0): the water left, grass in the middle, scree right.
    await page.evaluate(() => window.isoterra.look([5, 30, 30], [5, 0, 0]));
    await settleAgain(page);
    const p = await pixels(page);
    await page.screenshot({ path: path.join(outputDir(), 'water.png') });
    const at = (x, y) => Array.from(p.data.subarray(4 * (y * p.width + x), 4 * (y * p.width + x) + 3));
    // Across the middle rows the picture spans x from about -34 to 44 m around x = 5 m in the
    // centre: the left 15 % is water, the centre grass (x 2 to 8), the right 10 % scree.
    let water = 0, waterCount = 0, scree = 0, screeCount = 0, grass = 0, grassCount = 0;
    for (let y = Math.floor(p.height * 0.4); y < p.height * 0.6; y += 2) {
      for (let x = 0; x < p.width * 0.15; x += 2) {
        const [r, g, b] = at(x, y);
        waterCount++;
        if (b > r + 30) water++;
      }
      for (let x = Math.floor(p.width * 0.9); x < p.width; x += 2) {
        const [r, g, b] = at(x, y);
        screeCount++;
        if (Math.abs(r - g) < 24 && Math.abs(g - b) < 20 && !(b > r + 20)) scree++;  // grey stones, warm-lit
      }
      for (let x = Math.floor(p.width * 0.47); x < p.width * 0.53; x += 2) {
        const [r, g, b] = at(x, y);
        grassCount++;
        if (g > r + 15 && g > b + 15) grass++;
      }
    }
    console.log(`water ${water}/${waterCount}, grass ${grass}/${grassCount}, scree ${scree}/${screeCount}`);
    assert.ok(water / waterCount > 0.9, `water pixels on the left: ${water} of ${waterCount}`);
    assert.ok(grass / grassCount > 0.9, `grass pixels in the middle: ${grass} of ${grassCount}`);
    assert.ok(scree / screeCount > 0.9, `scree pixels on the right: ${scree} of ${screeCount}`);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
