// The page opened on each preset with no eye starts where the viewer does (the core's
// starting_view: 40 m above the ground, looking down at ground in sight) and shows terrain,
// not the sky or the fog inside a mountain; choosing another terrain in the menu moves the
// eye above that terrain's ground. Pictures: ISOTERRA_WEB_OUT/first-view-NAME.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openPage, builtPage, pixels, outputDir, settleAgain } from './browser.mjs';

const kSky = [168, 189, 214];  // the clear colour, which the fog fades to
// Metres of view (the fog full there): the ground looked at (420 m out) well inside it; the
// islands' land lies a kilometre out over the sea, clear of the fog (from 30 % of the view).
const viewOf = (name) => (name === 'islands' ? 3000 : 800);

// The picture's lower half is terrain: not the sky's (the fog's) colour, and shaded, not one
// flat tone (gentle grassland varies least: rivers' by 5.5 in 0-255); and land is in sight,
// not only the sea.
async function assertShowsTerrain(page, name) {
  const p = await pixels(page);
  await page.screenshot({ path: path.join(outputDir(), `first-view-${name}.png`) });
  const rgb = (x, y) => p.data.subarray(4 * (y * p.width + x), 4 * (y * p.width + x) + 3);
  let ground = 0, count = 0;
  const luminance = [];
  for (let y = Math.floor(p.height * 0.5); y < p.height; y += 2)
    for (let x = Math.floor(p.width * 0.3); x < p.width; x += 2) {  // right of the panel
      const [r, g, b] = rgb(x, y);
      count++;
      if (!(Math.abs(r - kSky[0]) <= 12 && Math.abs(g - kSky[1]) <= 12 && Math.abs(b - kSky[2]) <= 12)) ground++;
      luminance.push(0.3 * r + 0.59 * g + 0.11 * b);
    }
  // Land, not only water: grass, or warm rock, soil and sand, below the top 30 % (clear of the panel).
  let land = 0, below = 0;
  for (let y = Math.floor(p.height * 0.3); y < p.height; y += 2)
    for (let x = Math.floor(p.width * 0.38); x < p.width; x += 2) {
      const [r, g, b] = rgb(x, y);
      below++;
      if ((g > r + 10 && g > b + 10) || r >= b) land++;
    }
  const mean = luminance.reduce((a, v) => a + v, 0) / luminance.length;
  const sd = Math.sqrt(luminance.reduce((a, v) => a + (v - mean) ** 2, 0) / luminance.length);
  console.log(`${name}: ground ${(ground / count).toFixed(3)} of the lower half, land ${(land / below).toFixed(3)}, brightness sd ${sd.toFixed(1)}`);
  assert.ok(ground / count > 0.9, `${name}: ground in ${ground} of ${count} pixels of the lower half`);
  assert.ok(land / below > 0.02, `${name}: land (not water) in ${land} of ${below} pixels`);
  assert.ok(sd > 3, `${name}: the lower half's brightness varies by ${sd.toFixed(1)} only`);
}

// The eye is in the air, with the ground (or the sea) within 60 m below it.
async function assertAboveGround(page, name) {
  const { eye } = await page.evaluate(() => window.isoterra.camera());
  const below = await page.evaluate(([x, y, z]) => {
    const values = [];
    for (let d = 0; d <= 60; d += 1) values.push(window.isoterra.sample(x, y - d, z));
    return values;
  }, eye);
  assert.ok(below[0] > 0, `${name}: the eye ${eye.map((v) => v.toFixed(0))} is in the ground`);
  const sea = await page.evaluate(() => window.isoterra.stats().sea_level);
  assert.ok(below.some((v) => v < 0) || eye[1] - sea <= 60, `${name}: nothing within 60 m below the eye ${eye.map((v) => v.toFixed(0))}`);
  return eye;
}

test('each preset opened with no eye, or chosen in the Terrain menu, shows terrain from above its ground', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  try {
    let page = await openPage(browser.context, server.url, `?preset=tutorial&view=${viewOf('tutorial')}`);
    const presets = await page.evaluate(() => [...document.getElementById('preset').options].map((o) => o.value));
    assert.ok(presets.includes('alpine') && presets.length >= 5, `presets: ${presets}`);
    const tutorial = await assertAboveGround(page, 'tutorial');
    await assertShowsTerrain(page, 'tutorial');
    // The menu: the eye rises onto alpine's mountain (a fixed eye at 120 m was inside it).
    await page.selectOption('#preset', 'alpine');
    await page.waitForFunction(() => window.isoterra.stats().world.startsWith('alpine@'), null, { timeout: 30000 });
    await settleAgain(page);
    const alpine = await assertAboveGround(page, 'alpine from the menu');
    assert.ok(alpine[1] > tutorial[1] + 300, `the eye rose from ${tutorial[1].toFixed(0)} to ${alpine[1].toFixed(0)} m only`);
    await assertShowsTerrain(page, 'alpine');
    assert.equal(await page.evaluate(() => document.getElementById('error').hidden), true, 'the error line is hidden');
    for (const name of presets.filter((p) => p !== 'tutorial' && p !== 'alpine')) {
      page = await openPage(browser.context, server.url, `?preset=${name}&view=${viewOf(name)}`);
      await assertAboveGround(page, name);
      await assertShowsTerrain(page, name);
    }
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
