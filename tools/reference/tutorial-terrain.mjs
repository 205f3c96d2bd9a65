// The terrain function of seed 000, written as a JavaScript client would run it: the
// reference the C++ `tutorial` preset must reproduce, and the peer `isoterra bench` races.
// Density convention here is the tutorial's (positive in rock); isoterra's field is minus it.
import { createNoise2D, createNoise3D } from 'simplex-noise';

export function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function makeTerrain(seed) {
  const random = mulberry32(seed);
  const noise2 = createNoise2D(random);
  const noise3 = createNoise3D(random);

  const octaves2 = (x, z, count) => {
    let sum = 0;
    let amplitude = 0.5;
    for (let i = 0; i < count; i += 1) {
      sum += noise2(x, z) * amplitude;
      x *= 2;
      z *= 2;
      amplitude /= 2;
    }
    return sum;
  };
  const smoothstep = (lo, hi, v) => {
    const t = Math.min(Math.max((v - lo) / (hi - lo), 0), 1);
    return t * t * (3 - 2 * t);
  };

  let lastX = NaN;
  let lastZ = NaN;
  let height = 0;
  let mountain = 0;
  const column = (x, z) => {
    if (x === lastX && z === lastZ) return;
    lastX = x;
    lastZ = z;
    mountain = smoothstep(-0.1, 0.4, noise2(x / 1500 + 40, z / 1500 - 70));
    const hills = octaves2(x / 400, z / 400, 5) * 40;
    const ridge = Math.max(1 - Math.hypot(octaves2(x / 500 - 20, z / 500 + 90, 4) * 1.6, 0.15), 0);
    height = 12 + hills + mountain * ridge ** 3 * 150;
  };
  const MOST_BEND = 10;

  const surfaceHeight = (x, z) => {
    column(x, z);
    return height;
  };
  const density = (x, y, z) => {
    column(x, z);
    let d = height - y;
    d += noise3(x / 50, y / 35, z / 50) * (1 + (MOST_BEND - 1) * mountain);
    const a = noise3(x / 100, y / 50, z / 100);
    const b = noise3(x / 100 + 43.7, y / 50 - 11.3, z / 100 + 7.9);
    const cave = (Math.hypot(a, b) - 0.09) * 50 + Math.max(4 - d, 0) * 0.6;
    return Math.min(d, cave);
  };
  const highestGround = (x, z, size) => {
    let top = -Infinity;
    for (let i = 0; i <= 4; i += 1) {
      for (let j = 0; j <= 4; j += 1) top = Math.max(top, surfaceHeight(x + (i * size) / 4, z + (j * size) / 4));
    }
    return top + MOST_BEND + 16;
  };
  return { noise2, noise3, density, surfaceHeight, highestGround };
}
