// A Web Worker: its own WebAssembly instance with the world's terrain and a mirror of its
// edits, running the jobs the page's World hands out (surveys and chunk meshes).
import { loadCore } from './core.js';

const core = await loadCore();
let failed = '';

self.onmessage = (event) => {
  const m = event.data;
  if (m.type === 'open') {
    failed = core.worker_open(m.terrain, JSON.stringify(m.ops), m.applied);
    self.postMessage({ type: 'opened', generation: m.generation, error: failed });
  } else if (m.type === 'edit') {
    const bad = core.worker_edit(JSON.stringify(m.op));
    if (bad) self.postMessage({ type: 'error', error: bad });
  } else if (m.type === 'walk') {
    core.worker_walk(m.forward);
  } else if (m.type === 'job') {
    const start = performance.now();
    const result = failed ? { bottom: 0, top: -1, ground_lo: 0, ground_hi: 0, built: false } : core.worker_run(m.job);
    const mesh = core.worker_mesh_bytes().slice();
    self.postMessage({ type: 'done', generation: m.generation, job: m.job, result, mesh, ms: performance.now() - start },
      [mesh.buffer]);
  }
};
self.postMessage({ type: 'ready' });
