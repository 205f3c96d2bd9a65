// Meshes the six tutorial chunks `isoterra bench` meshes with the npm package isosurface
// (surface nets and marching cubes), from samples computed beforehand, and prints the
// median ms per chunk (wall clock, and the process's CPU time, which leaves out what a busy
// machine's scheduler gives to others) and million triangles per second.
// Run: node bench/js/mesh-chunks.mjs [repeats]   (after `npm ci` in tools/reference)
import { createRequire } from 'node:module';
import { makeTerrain } from '../../tools/reference/tutorial-terrain.mjs';

const require = createRequire(new URL('../../tools/reference/', import.meta.url));
const isosurface = require('isosurface');
const repeats = Number(process.argv[2] ?? 9);
const t = makeTerrain(20261114);
const chunks = [[0, 0, 0], [1, 0, 0], [0, 0, 1], [9, 0, -2], [-3, 1, 4], [5, 0, 5]];
const n = 33;
// isoterra's sign: negative is solid; isosurface treats negative as inside too.
const samples = chunks.map(([cx, cy, cz]) => {
  const v = new Float64Array(n * n * n);
  for (let k = 0; k < n; k += 1)
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) v[(k * n + j) * n + i] = -t.density(cx * 32 + i, cy * 32 + j, cz * 32 + k);
  return v;
});
const result = {};
for (const [name, fn, perFace] of [['surface-nets', isosurface.surfaceNets, 2], ['marching-cubes', isosurface.marchingCubes, 1]]) {
  const runs = [], cpu = [];
  let triangles = 0;
  for (let r = 0; r < repeats + 2; r += 1) {
    triangles = 0;
    const start = process.hrtime.bigint(), cpu0 = process.cpuUsage();
    for (const v of samples) {
      const mesh = fn([n, n, n], (x, y, z) => v[(Math.round(z) * n + Math.round(y)) * n + Math.round(x)], [[0, 0, 0], [n - 1, n - 1, n - 1]]);
      for (const f of mesh.cells) triangles += f.length === 4 ? 2 : perFace;
    }
    const used = process.cpuUsage(cpu0);
    if (r >= 2) {
      runs.push(Number(process.hrtime.bigint() - start) / 1e6 / samples.length);
      cpu.push((used.user + used.system) / 1e3 / samples.length);
    }
  }
  runs.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const ms = runs[Math.floor(runs.length / 2)];
  result[name] = { ms, cpu_ms: cpu[Math.floor(cpu.length / 2)], mtris_per_s: triangles / samples.length / (ms * 1e3) };
}
console.log(JSON.stringify(result));
