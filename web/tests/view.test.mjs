// The page at a given eye and target settles and shows sky above and varied terrain below,
// with no console error and no request off 127.0.0.1; the screenshot is the README's. Then
// the keys fly the eye.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openPage, builtPage, pixels, outputDir } from './browser.mjs';

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
