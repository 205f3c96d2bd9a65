// The page's WebAssembly core in node: a world's first view (tutorial, 256 m, eight columns
// a ring, one level) with its jobs run in one instance, as BM_world_jobs runs them natively.
// Prints {"wasm_chunk_ms", "chunks", "wasm_first_view_ms"}: medians of ROUNDS runs.
//   node web/bench/world-jobs.mjs [ROUNDS]
import { loadCore } from '../tests/wasm_core.mjs';

const core = await loadCore();

const rounds = Number(process.argv[2] ?? 3);
const { text } = JSON.parse(core.builtin_terrain_text('tutorial', 20261114));
core.FS.mkdir('/worlds');
const opened = JSON.parse(core.open_world(text, '/worlds/bench.db'));
if (opened.error) throw new Error(opened.error);
const bad = core.worker_open(opened.terrain, '[]', 0);
if (bad) throw new Error(bad);

const perChunk = [], firstView = [];
let chunks = 0;
for (let r = 0; r < rounds; ++r) {
  JSON.parse(core.start_world(256, 8, 'marching-cubes'));
  let ms = 0;
  chunks = 0;
  const start = performance.now();
  for (;;) {
    core.set_focus(0, 60, 0);
    for (let job = core.take_job(); job; job = core.take_job()) {
      const t0 = performance.now();
      const result = core.worker_run(job);
      if (!job.survey && result.built) {
        ms += performance.now() - t0;
        chunks++;
      }
      core.finish_job(job, result, core.worker_mesh_bytes().slice());
    }
    core.deliver(1e9);
    if (JSON.parse(core.world_counts()).settled) break;
  }
  firstView.push(performance.now() - start);
  perChunk.push(ms / chunks);
}
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(JSON.stringify({ wasm_chunk_ms: median(perChunk), chunks, wasm_first_view_ms: median(firstView) }));
