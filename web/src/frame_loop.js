// Every frame: the flight moves the camera, the streamer asks for what it sees, the meshes the
// core delivered go to the GPU, and the picture is drawn when something changed; the page's
// figures (stats()) and the line that shows them.
import { $ } from './dom.js';

const kUploadBudgetMs = 6;  // per frame, for handing meshes to the GPU

export class FrameLoop {
  constructor(page) {
    this.page = page;
    // The picture is drawn again only when something changed, once the GPU has finished the
    // last one, and with the GPU busy at most a quarter of the time: with a software renderer
    // (no GPU) a frame of millions of triangles costs the same cores the workers need.
    this.lastFrame = performance.now();
    this.lastDraw = 0;
    this.dirty = true;
    this.frameWaiters = [];  // frame(): resolved once a frame drawn after the call is finished
    this.drawnWaiters = [];
    this.lastEye = '';
    this.frameTimes = [];
    page.view.engine.runRenderLoop(() => this.step());
    window.addEventListener('resize', () => page.view.engine.resize());
  }

  // Resolves once a frame drawn after the call has finished.
  frame() {
    return new Promise((resolve) => this.frameWaiters.push(resolve));
  }

  step() {
    const { view, flight, streamer, state } = this.page;
    const now = performance.now();
    flight.step(Math.min(0.1, (now - this.lastFrame) / 1000));
    this.lastFrame = now;
    const p = view.camera.position, t = view.camera.getTarget();
    const eyeNow = `${p.x},${p.y},${p.z},${t.x},${t.y},${t.z}`;
    if (eyeNow !== this.lastEye) { this.lastEye = eyeNow; this.dirty = true; }
    streamer.pump(view.camera.position);
    if (this.page.rivers.update(p.x, p.z)) this.dirty = true;
    if (this.upload()) this.dirty = true;
    const idle = view.gpuIdle();
    if (idle && this.drawnWaiters.length) {
      for (const resolve of this.drawnWaiters) resolve();
      this.drawnWaiters = [];
    }
    if (this.frameWaiters.length || view.isFading()) this.dirty = true;  // a cross-fade draws every frame it may
    // While the first view fills, the GPU gets a tenth of the time (a software renderer's
    // frames then take less from the workers' cores); after that a quarter.
    const share = state.firstViewMs === null ? 9 : 3;
    if (this.dirty && idle && now - this.lastDraw >= share * view.gpuMs) {
      view.render();
      this.lastDraw = now;
      this.dirty = false;
      this.drawnWaiters = this.frameWaiters;
      this.frameWaiters = [];
    }
    this.timeFrame(now);
  }

  // Hands what the core delivered within the budget to the view; returns whether it was anything.
  upload() {
    const { core, view } = this.page;
    const updates = JSON.parse(core.deliver(kUploadBudgetMs));
    const copy = (i) => {
      const arrays = {};
      for (const k of ['vertices', 'normals', 'indices', 'step', 'origin']) arrays[k] = core.drawn_array(i, k).slice();
      return arrays;
    };
    for (const u of updates) view.apply(u, u.draw >= 0 ? copy(u.draw) : null, u.water >= 0 ? copy(u.water) : null);
    return updates.length > 0;
  }

  // The page's own time this frame, and the first picture's and view's times once they come.
  timeFrame(now) {
    const { state } = this.page;
    const frameTimes = this.frameTimes;
    frameTimes.push(performance.now() - now);
    if (frameTimes.length > 60) frameTimes.shift();
    state.frameMs = [...frameTimes].sort((a, b) => a - b)[frameTimes.length >> 1];
    // The core's session notes both times as it delivers (seconds since the World started).
    if (state.firstPictureMs === null || state.firstViewMs === null) {
      const c = this.counts();
      if (state.firstPictureMs === null && c.first_picture_s >= 0) state.firstPictureMs = c.first_picture_s * 1000;
      if (state.firstViewMs === null && c.first_view_s >= 0) {
        state.firstViewMs = c.first_view_s * 1000;
        this.dirty = true;
      }
    }
    if (frameTimes.length % 15 === 0) $('stats').textContent = this.statsLine();
  }

  counts() {
    return JSON.parse(this.page.core.world_counts());
  }

  settled() {
    return Boolean(this.counts().settled) && this.page.state.firstViewMs !== null && !this.page.view.isFading();
  }

  stats() {
    const { view, state, streamer } = this.page;
    return {
      chunks: view.shownChunks(),
      triangles: view.triangles,
      mesh_bytes: view.meshBytes,       // the vertex and index arrays of the chunks held (12 bytes a vertex and the indices)
      mesh_vertices: view.meshVertices,
      mesh_indices: view.meshIndices,
      first_picture_ms: state.firstPictureMs,  // the whole view shown at some level (coarse first)
      first_view_ms: state.firstViewMs,        // every column at its target level
      frame_ms: state.frameMs,          // the page's own work a frame (median of the last 60)
      gpu_ms: view.gpuMs,               // the last frame drawn, from its commands to the GPU done
      job_ms: streamer.medianJobMs(),   // a worker's median job (surveys and chunks)
      workers: this.page.workers,
      world: `${state.name}@${state.seed}`,
      sea_level: state.seaLevel,        // metres; very low (-1e9) for none
      load_ms: this.page.loadMs,
    };
  }

  statsLine() {
    const { state, workers } = this.page;
    const s = this.stats();
    const picture = s.first_picture_ms === null ? '' : `first picture ${(s.first_picture_ms / 1000).toFixed(2)} s · `;
    const first = picture + (s.first_view_ms === null ? 'filling…' : `first view ${(s.first_view_ms / 1000).toFixed(2)} s`);
    return `${state.name} · seed ${state.seed} · ${s.chunks} chunks · ${(s.triangles / 1e6).toFixed(2)} M triangles · ` +
      `frame ${s.frame_ms.toFixed(1)} ms + GPU ${s.gpu_ms.toFixed(0)} ms · ${first} · ${workers} worker${workers > 1 ? 's' : ''}`;
  }
}
