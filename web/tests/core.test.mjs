// The page's WebAssembly core in node (no browser): what its World shows of the tutorial
// (3D noise on every sample: the seed flavour's lattice kernel, SIMD128 in the page) is
// what `isoterra mesh --around` writes for the same focus and view, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { isoterra, outputDir } from './browser.mjs';
import { loadCore } from './wasm_core.mjs';

const kSeed = 20261114;

// Runs the core's World to settled around `focus`, its jobs in this one instance.
function settle(core, focus) {
  for (;;) {
    core.set_focus(...focus);
    for (let job = core.take_job(); job; job = core.take_job()) {
      const result = core.worker_run(job);
      core.finish_job(job, result, core.worker_mesh_bytes().slice());
    }
    core.deliver(1e9);
    if (JSON.parse(core.world_counts()).settled) return;
  }
}

test('the core shows the tutorial as the program meshes it, bit for bit', async () => {
  const core = await loadCore();
  const { text } = JSON.parse(core.builtin_terrain_text('tutorial', kSeed));
  core.FS.mkdir('/worlds');
  const opened = JSON.parse(core.open_world(text, '/worlds/core.db'));
  assert.equal(opened.error, undefined);
  assert.ok(!core.worker_open(opened.terrain, '[]', 0));
  // Surface nets too: their vertices and normals have SSE2 paths natively and scalar ones here.
  const cases = [{ focus: [40, 30, -70], view: 64, mesher: 'marching-cubes' }, { focus: [-300, 60, 500], view: 128, mesher: 'marching-cubes' },
    { focus: [40, 30, -70], view: 64, mesher: 'surface-nets' }];
  for (const { focus, view, mesher } of cases) {
    assert.equal(JSON.parse(core.start_world(view, 8, mesher)).error, undefined);
    settle(core, focus);
    const fromCore = Buffer.from(core.shown_glb(false));
    const file = path.join(outputDir(), `core-tutorial-${view}-${mesher}.glb`);
    execFileSync(isoterra(), ['mesh', '--preset', 'tutorial', '--seed', String(kSeed), '--around', focus.join(','),
      '--view-distance', String(view), '--mesher', mesher, '--quiet', '-o', file]);
    const native = fs.readFileSync(file);
    assert.ok(fromCore.length > 100000, `${fromCore.length} bytes`);
    assert.ok(fromCore.equals(native), `${mesher}, view ${view}: the core's ${fromCore.length} bytes differ from the program's ${native.length}`);
  }
});

// With meander_vary the page's samples of canyons differed from the program's in the last bit
// at 2 of the page test's 1000 points (its bends' sin, cos and exp, and its junctions' acos,
// came from emscripten's libm there and glibc's here): the core samples canyons with
// meander_vary = 1 at those two points and a 2 km grid around them as `isoterra sample` does.
test('the core samples canyons with wandering bends as the program does, bit for bit', async () => {
  const core = await loadCore();
  const { text: canyons } = JSON.parse(core.builtin_terrain_text('canyons', 99));
  const text = canyons.replace(/, meander_vary = [0-9.]+/, '').replace(/(drain = \{ type = "drainage",[^\n]*) \}/, '$1, meander_vary = 1.0 }');
  assert.match(text, /meander_vary = 1\.0 \}/);
  core.FS.mkdir('/worlds');
  const opened = JSON.parse(core.open_world(text, '/worlds/vary.db'));
  assert.equal(opened.error, undefined);
  const pts = [[1297.8154858574271, -58.65778332576156, -435.2570120245218], [430.556770414114, 66.37795112561435, 684.3864442780614]];
  for (let k = 0; k < 30; ++k) for (let i = 0; i < 30; ++i) pts.push([-1000 + 71.3 * i, 40 - 3 * i + 2 * k, -900 + 67.9 * k]);
  const config = path.join(outputDir(), 'canyons-vary.toml');
  fs.writeFileSync(config, text);
  const native = execFileSync(isoterra(), ['sample', '--config', config], { input: pts.map((p) => p.join(' ')).join('\n') + '\n' })
    .toString().trim().split('\n').map(Number);
  assert.equal(native.length, pts.length);
  const differ = pts.filter((p, i) => !Object.is(core.sample(...p), native[i])).map((p) => p.join(','));
  assert.deepEqual(differ, []);
});
