// Writes the reference vectors of tests/reference/ from the npm package simplex-noise 4.0.3
// and the seed-000 terrain. Run: (cd tools/reference && npm ci && node generate.mjs ../../tests/reference)
import { writeFileSync, mkdirSync } from 'node:fs';
import { createNoise2D, createNoise3D } from 'simplex-noise';
import { mulberry32, makeTerrain } from './tutorial-terrain.mjs';

const out = process.argv[2] ?? '.';
mkdirSync(out, { recursive: true });
const fmt = (v) => (Object.is(v, -0) ? '-0' : v.toPrecision(17));

// Points at many scales: near the origin, negative, integers, and out to +-1e6.
function points(count, dims, salt) {
  const rnd = mulberry32(salt);
  const scales = [1, 10, 100, 1000, 1e4, 1e5, 1e6];
  const list = [];
  for (let i = 0; i < count; i += 1) {
    const scale = scales[i % scales.length];
    const p = [];
    for (let d = 0; d < dims; d += 1) {
      let v = (rnd() * 2 - 1) * scale;
      if (i % 5 === 0) v = Math.round(v); // lattice-aligned inputs hit the edge cases
      p.push(v);
    }
    list.push(p);
  }
  return list;
}

const seeds = [20261114, 0, 1, 42, 4294967295, -12345];
let noiseLines = ['seed,dims,x,y,z,value'];
for (const seed of seeds) {
  const random = mulberry32(seed);
  const noise2 = createNoise2D(random);
  const noise3 = createNoise3D(random);
  for (const [x, y] of points(1000, 2, seed ^ 0x2d)) noiseLines.push([seed, 2, fmt(x), fmt(y), 0, fmt(noise2(x, y))].join(','));
  for (const [x, y, z] of points(1000, 3, seed ^ 0x3d)) noiseLines.push([seed, 3, fmt(x), fmt(y), fmt(z), fmt(noise3(x, y, z))].join(','));
}
writeFileSync(`${out}/simplex.csv`, noiseLines.join('\n') + '\n');

// The terrain at integer sample points (as the grid asks) and at fractional ones, near
// the ground where every term matters, for two seeds.
const terrainLines = ['seed,x,y,z,density,surface_height'];
for (const seed of [20261114, 7]) {
  const t = makeTerrain(seed);
  const rnd = mulberry32(seed + 99);
  for (let i = 0; i < 3000; i += 1) {
    const far = i % 3 === 0 ? 1e5 : 3000;
    let x = (rnd() * 2 - 1) * far;
    let z = (rnd() * 2 - 1) * far;
    if (i % 2 === 0) { x = Math.round(x); z = Math.round(z); }
    const h = t.surfaceHeight(x, z);
    let y = h + (rnd() * 2 - 1) * 60;
    if (i % 2 === 0) y = Math.round(y);
    terrainLines.push([seed, fmt(x), fmt(y), fmt(z), fmt(t.density(x, y, z)), fmt(t.surfaceHeight(x, z))].join(','));
  }
}
writeFileSync(`${out}/tutorial.csv`, terrainLines.join('\n') + '\n');

const groundLines = ['seed,x,z,size,highest_ground'];
{
  const t = makeTerrain(20261114);
  for (let cx = -20; cx < 20; cx += 1) for (let cz = -20; cz < 20; cz += 3) groundLines.push([20261114, cx * 32, cz * 32, 32, fmt(t.highestGround(cx * 32, cz * 32, 32))].join(','));
}
writeFileSync(`${out}/highest_ground.csv`, groundLines.join('\n') + '\n');
console.log(`wrote ${noiseLines.length - 1} noise values, ${terrainLines.length - 1} terrain values, ${groundLines.length - 1} highest-ground values to ${out}`);
