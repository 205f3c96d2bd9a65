// The world streamed by a pool of Web Workers: the page's World (in the page's
// WebAssembly instance) chooses the columns and levels around the camera and hands out
// jobs, nearest first; the workers survey columns and sample and mesh chunks; their results
// go back to the World, which hands the meshes to draw within a per-frame time budget.
import { checked } from './core.js';

const kJobsPerWorker = 2;  // one running, one waiting: a worker never idles between messages

export class Streamer {
  constructor(core, workerCount) {
    this.core = core;
    this.generation = 0;  // a new world or terrain: results of older jobs are dropped
    this.workers = [];
    this.jobMs = [];
    this.ready = Promise.all(Array.from({ length: workerCount }, () => this.#spawn()));
  }

  #spawn() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const entry = { worker, inFlight: 0, opened: 0 };
    this.workers.push(entry);
    return new Promise((resolve, reject) => {
      worker.onerror = (e) => reject(new Error(`a worker failed to start: ${e.message}`));
      worker.onmessage = (event) => {
        const m = event.data;
        if (m.type === 'ready') resolve();
        else if (m.type === 'done') this.#finished(entry, m);
        else if (m.type === 'opened') entry.opened = m.generation;
        else if (m.type === 'error') console.error(`worker: ${m.error}`);
      };
    });
  }

  #finished(entry, m) {
    if (m.generation !== this.generation) return;  // counted out when the world restarted
    entry.inFlight--;
    this.jobMs.push(m.ms);
    if (this.jobMs.length > 256) this.jobMs.shift();
    this.core.finish_job(m.job, m.result, m.mesh);
    this.#feed(entry);  // at once, not at the next frame: a slow frame must not idle the workers
  }

  #feed(entry) {
    while (entry.inFlight < kJobsPerWorker) {
      const job = this.core.take_job();
      if (!job) return false;
      entry.inFlight++;
      entry.worker.postMessage({ type: 'job', generation: this.generation, job });
    }
    return true;
  }

  /// Gives the workers a terrain and its edits (the world file's op log up to `applied`).
  open(terrain, ops, applied) {
    this.generation++;
    for (const w of this.workers) w.inFlight = 0;
    for (const { worker } of this.workers) worker.postMessage({ type: 'open', generation: this.generation, terrain, ops, applied });
  }

  /// Starts the page's World anew (view distance, mesher): jobs in flight are dropped.
  start(viewDistance, radius, mesher) {
    this.generation++;
    for (const w of this.workers) w.inFlight = 0;
    return checked(this.core.start_world(viewDistance, radius, mesher));
  }

  /// Mirrors an edit, an undo or a redo to every worker, before any job that follows it.
  edit(op) { for (const { worker } of this.workers) worker.postMessage({ type: 'edit', op }); }
  walk(forward) { for (const { worker } of this.workers) worker.postMessage({ type: 'walk', forward }); }

  /// Once a frame: follows the camera and keeps every worker busy.
  pump(eye) {
    this.core.set_focus(eye.x, eye.y, eye.z);
    for (const entry of this.workers) if (!this.#feed(entry)) return;
  }

  /// The median milliseconds of the recent jobs that built a chunk.
  medianJobMs() {
    if (this.jobMs.length === 0) return 0;
    const s = [...this.jobMs].sort((a, b) => a - b);
    return s[s.length >> 1];
  }
}
