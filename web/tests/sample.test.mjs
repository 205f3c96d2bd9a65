// The page's field equals the program's: window.isoterra.sample at a thousand points is
// `isoterra sample` on the same points, bit for bit, for a preset and a field graph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, builtPage, isoterra } from './browser.mjs';

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
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
