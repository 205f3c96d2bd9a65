// Times the seed's JavaScript terrain on the same 33^3 chunk `isoterra bench` samples,
// column by column as the tutorial's grid asks, and prints the median ms per chunk (wall
// clock, and the process's CPU time, which leaves out what a busy machine's scheduler gives to
// others).
// Run: node bench/js/tutorial-chunk.mjs [repeats]   (after `npm ci` in tools/reference)
import FastNoiseLite from '../../tools/reference/node_modules/fastnoise-lite/FastNoiseLite.js';
import { makeTerrain } from '../../tools/reference/tutorial-terrain.mjs';

const repeats = Number(process.argv[2] ?? 15);
const t = makeTerrain(20261114);
const x0 = 10, z0 = 10, y0 = Math.floor(t.surfaceHeight(26, 26)) - 16, n = 33;
const out = new Float32Array(n * n * n);
const sampleChunk = () => {
  for (let k = 0; k < n; k += 1)
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) out[(k * n + j) * n + i] = -t.density(x0 + i, y0 + j, z0 + k);
};
for (let w = 0; w < 3; w += 1) sampleChunk(); // let the JIT settle
const runs = [], cpu = [];
for (let r = 0; r < repeats; r += 1) {
  const start = process.hrtime.bigint(), cpu0 = process.cpuUsage();
  sampleChunk();
  const used = process.cpuUsage(cpu0);
  runs.push(Number(process.hrtime.bigint() - start) / 1e6);
  cpu.push((used.user + used.system) / 1e3);
}
runs.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);

// The median ns a sample of `noise(x, y, z)` over the lattice `isoterra bench` times as
// noise3_lattice_ns.
let sink = 0;
const latticeNs = (noise) => {
  const pass = () => {
    for (let k = 0; k < n; k += 1)
      for (let j = 0; j < n; j += 1)
        for (let i = 0; i < n; i += 1) sink += noise((10 + i) / 50, (-20 + j) / 35, (10 + k) / 50);
  };
  for (let w = 0; w < 3; w += 1) pass();
  const times = [];
  for (let r = 0; r < repeats; r += 1) {
    const start = process.hrtime.bigint();
    pass();
    times.push(Number(process.hrtime.bigint() - start) / (n * n * n));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
};
// simplex-noise's noise3, and fastnoise-lite's 3D noise (OpenSimplex2, one octave).
const simplexNs = latticeNs(t.noise3);
const fnl = new FastNoiseLite(20261114);
fnl.SetNoiseType(FastNoiseLite.NoiseType.OpenSimplex2);
fnl.SetFrequency(1.0);
const fastnoiseNs = latticeNs((x, y, z) => fnl.GetNoise(x, y, z));
console.log(JSON.stringify({
  js_fastnoise_lite_noise3_lattice_ns: fastnoiseNs,
  js_tutorial_chunk_sample_ms: runs[Math.floor(runs.length / 2)],
  js_tutorial_chunk_sample_cpu_ms: cpu[Math.floor(cpu.length / 2)],
  js_noise3_lattice_ns: simplexNs,
  repeats,
  sink: sink > 1e300 ? 1 : 0,
}));
