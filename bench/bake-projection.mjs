// Projects a whole bake from the measured tiles of each level: runs BM_bake_tile (one thread,
// alpine, 32 columns a level across a 64 km square), then multiplies each level's median
// time and size a tile by its tiles in a 65,536 m square at twelve levels (4^(11 - L) at level
// L) and divides the time by the cores. Usage: node bench/bake-projection.mjs [CORES=1024]
// [REPETITIONS=3]; needs build/bench/isoterra_bench.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cores = Number(process.argv[2] ?? 1024), repetitions = Number(process.argv[3] ?? 3);
const bench = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'bench', 'isoterra_bench');
const out = execFileSync(bench, ['--benchmark_filter=BM_bake_tile', '--benchmark_format=json',
  `--benchmark_repetitions=${repetitions}`, '--benchmark_report_aggregates_only=true'], { maxBuffer: 1 << 26 });
const rows = JSON.parse(out).benchmarks.filter((b) => b.aggregate_name === 'median');
let seconds = 0, bytes = 0, tiles = 0, triangles = 0;
console.log('level  tiles in 64 km   ms a tile   triangles a tile   KB a tile');
for (const r of rows) {
  const level = Number(/BM_bake_tile\/(\d+)/.exec(r.name)[1]);
  const n = 4 ** (11 - level);
  const ms = r.real_time;  // reported in milliseconds
  seconds += n * ms / 1000, bytes += n * r.kb * 1024, tiles += n, triangles += n * r.triangles;
  console.log(`${String(level).padStart(5)}  ${String(n).padStart(14)}  ${ms.toFixed(2).padStart(10)}  ${r.triangles.toFixed(0).padStart(17)}  ${r.kb.toFixed(1).padStart(10)}`);
}
console.log(`all levels: ${tiles} tiles, ${(triangles / 1e9).toFixed(2)} G triangles, ${(bytes / 1e12).toFixed(2)} TB of glb`);
console.log(`one core: ${(seconds / 3600).toFixed(1)} core-hours; ${cores} cores: ${(seconds / cores / 60).toFixed(1)} min (tiles only: no I/O, no start-up)`);
