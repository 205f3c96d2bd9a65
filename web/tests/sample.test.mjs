// The page's field equals the program's: window.isoterra.sample at a thousand points is
// `isoterra sample` on the same points, bit for bit, for a preset, a field graph and a world
// file whose graph asks for the fast noise flavour (its WebAssembly SIMD128 path against the
// program's AVX-512 or AVX2 one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, builtPage, isoterra, outputDir, settleAgain } from './browser.mjs';

// mulberry32, so the points are the same every run.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function points(seed, count) {
  const r = generator(seed);
  const out = [];
  for (let i = 0; i < count; ++i) {
    // Most near the origin; one in ten far away (where float coordinates would lose bits).
    const far = i % 10 === 9 ? 1e4 : 1;  // up to 2e7 m
    out.push([(r() - 0.5) * 4000 * far, (r() - 0.3) * 300, (r() - 0.5) * 4000 * far]);
  }
  return out;
}

test('sample in the page is isoterra sample, bit for bit', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  try {
    for (const [preset, seed] of [['tutorial', 20261114], ['canyons', 99]]) {
      const pts = points(seed, 1000);
      const page = await openPage(browser.context, server.url, `?preset=${preset}&seed=${seed}&view=64`, { settle: false });
      const inPage = await page.evaluate((p) => p.map(([x, y, z]) => window.isoterra.sample(x, y, z)), pts);
      const text = execFileSync(isoterra(), ['sample', '--preset', preset, '--seed', String(seed)],
        { input: pts.map((p) => p.join(' ')).join('\n') + '\n' }).toString();
      const native = text.trim().split('\n').map(Number);
      assert.equal(native.length, 1000);
      let same = 0;
      for (let i = 0; i < 1000; ++i) {
        assert.ok(Object.is(inPage[i], native[i]), `${preset}@${seed} at ${pts[i].join(',')}: page ${inPage[i]}, isoterra ${native[i]}`);
        same++;
      }
      assert.equal(same, 1000);
      // The values are the field's, not a constant: both signs occur.
      assert.ok(native.some((v) => v < 0) && native.some((v) => v > 0), `${preset}: values of one sign only`);
    }
    // A world of the fast flavour, made by the program and opened in the page.
    const out = outputDir();
    const graph = path.join(out, 'fast.toml'), world = path.join(out, 'fast.db');
    fs.writeFileSync(graph, [
      'format = 1', 'seed = 77', 'noise = "fast"', '[node]',
      'hills = { type = "fbm2", scale_m = 400.0, octaves = 4 }',
      'ground = { type = "remap", in = "hills", from = [-1.0, 1.0], to = [0.0, 120.0] }',
      'land = { type = "plane", height = "ground" }',
      'rock = { type = "fbm3", scale_m = 60.0, vertical_scale_m = 30.0, octaves = 4 }',
      'bumps = { type = "simplex3", scale_m = 9.0, offset = [3.5, -1.25, 8.0] }',
      'caves = { type = "add", a = "rock", b = "bumps" }',
      'scaled = { type = "mul", a = "caves", b = 25.0 }',
      'out = { type = "add", a = "land", b = "scaled" }',
      '[output]', 'sdf = "out"', 'ground = "ground"', ''].join('\n'));
    fs.rmSync(world, { force: true });
    execFileSync(isoterra(), ['edit', '--world', world, '--config', graph, 'sphere', '--at', '5000,60,5000', '--radius', '3']);
    const page = await openPage(browser.context, server.url, '?preset=tutorial&view=64');
    await page.setInputFiles('#open-file', world);
    // The file opens asynchronously: wait for its one edit before sampling.
    await page.waitForFunction(() => {
      try { return window.isoterra.history().ops.length === 1; } catch { return false; }
    }, null, { timeout: 120000, polling: 100 });
    await settleAgain(page);
    const pts = points(77, 1000);
    const inPage = await page.evaluate((p) => p.map(([x, y, z]) => window.isoterra.sample(x, y, z)), pts);
    const native = execFileSync(isoterra(), ['sample', '--world', world], { input: pts.map((p) => p.join(' ')).join('\n') + '\n' })
      .toString().trim().split('\n').map(Number);
    assert.equal(native.length, 1000);
    for (let i = 0; i < 1000; ++i)
      assert.ok(Object.is(inPage[i], native[i]), `fast flavour at ${pts[i].join(',')}: page ${inPage[i]}, isoterra ${native[i]}`);
    assert.ok(native.some((v) => v < 0) && native.some((v) => v > 0), 'fast flavour: values of one sign only');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
