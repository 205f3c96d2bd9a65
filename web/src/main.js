// The isoterra page: the C++ core in WebAssembly streams the world around the camera in Web
// Workers, Babylon.js draws it, clicks edit it, and the edits are kept in the browser as a
// world file that `isoterra --world` reads. `window.isoterra` is the interface tests use.
import { loadCore, checked } from './core.js';
import { Streamer } from './streaming.js';
import { TerrainView } from './terrain_view.js';
import { Flight } from './fly.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { readParams } from './url_params.js';
import * as store from './world_store.js';

const kDefaults = { preset: 'tutorial', seed: 20261114, view: 8000, radius: 8 };
const kUploadBudgetMs = 6;  // per frame, for handing meshes to the GPU
const $ = (id) => document.getElementById(id);

function showError(message) {
  const line = String(message).split('\n')[0];
  $('error').textContent = line;
  $('error').hidden = false;
  console.warn(`isoterra: ${line}`);
}
function clearError() { $('error').hidden = true; }

let resolveReady, rejectReady;
const api = {
  ready: new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; }),
};
window.isoterra = api;

async function main() {
  const started = performance.now();
  const core = await loadCore();
  const presets = JSON.parse(core.builtin_names());
  const meshers = JSON.parse(core.mesher_list());
  const { params, problems } = readParams(location.search, presets, meshers.map((m) => m.name));
  if (problems.length) showError(problems.join('; '));

  const workers = Math.max(1, (navigator.hardwareConcurrency || 2) - 1);
  const streamer = new Streamer(core, workers);
  const view = new TerrainView($('view'));
  const flight = new Flight($('view'), view.camera);
  await streamer.ready;
  try {
    core.FS.mkdir('/worlds');
  } catch { /* there already */ }

  const state = {
    key: '', name: '', seed: params.seed ?? kDefaults.seed, terrain: null, seaLevel: -1e9,
    view: params.view ?? kDefaults.view, mesher: params.mesher ?? meshers[0].name,
    firstPictureMs: null, firstViewMs: null, frameMs: 0,
  };

  // ---- worlds: open, persist, import, export --------------------------------------------
  // A browser that keeps nothing (storage off, a full disk) still gets a page: the edits then
  // last until the page closes, and the error line says so once.
  let storageWarned = false;
  const orWarn = (action) => async (...args) => {
    try {
      return await action(...args);
    } catch (e) {
      if (!storageWarned) showError(`the browser keeps no edits now (${e?.message ?? e}); export the world to keep it`);
      storageWarned = true;
      return undefined;
    }
  };
  const loadWorld = orWarn(store.loadWorld), saveWorld = orWarn(store.saveWorld);
  const loadLast = orWarn(store.loadLast), saveLast = orWarn(store.saveLast);
  const pathOf = (key) => `/worlds/${key.replace(/[^A-Za-z0-9_.@-]/g, '_')}.db`;

  async function persist() {
    const bytes = core.world_file_bytes();
    if (!bytes) throw new Error('the world file could not be read back');
    await saveWorld(state.key, bytes.slice());
  }

  // Opens (or makes) the world of a terrain: `terrainText` from builtin_terrain_text or a
  // dropped file; the edits kept for its key come back with it.
  async function openTerrain(key, terrainText, droppedText) {
    const path = pathOf(key);
    const kept = await loadWorld(key);
    try { core.FS.unlink(path); } catch { /* none */ }
    if (kept) core.FS.writeFile(path, kept);
    let opened;
    try {
      opened = checked(core.open_world(terrainText, path));
    } catch (e) {
      if (!kept) throw e;
      // What the browser kept is no world file any more: start the terrain afresh.
      showError(`the edits kept for ${key} could not be read (${e.message}); starting without them`);
      core.FS.unlink(path);
      opened = checked(core.open_world(terrainText, path));
    }
    await adopt(key, opened, droppedText);
  }

  // Takes an opened world: workers, World, panel.
  async function adopt(key, opened, droppedText) {
    state.key = key;
    state.name = opened.name;
    state.seed = opened.seed;
    state.seaLevel = opened.sea_level;
    view.setSea(opened.sea_level);  // a graph's `sea_level` too
    // The URL's eye for the first world, else where the viewer starts: above this terrain's ground.
    const { eye, target } = firstLook ?? opened.start;
    firstLook = null;
    view.look(eye, target);
    flight.syncAngles();
    streamer.open(opened.terrain, opened.ops, opened.applied);
    restartWorld();
    await persist();
    await saveLast({ key, terrain: droppedText ?? null, name: opened.name, seed: opened.seed });
    const select = $('preset');
    if (![...select.options].some((o) => o.value === opened.name)) select.add(new Option(`${opened.name} (file)`, opened.name));
    select.value = opened.name;
    $('seed').value = opened.seed;
  }

  function restartWorld() {
    view.clear();
    view.setFog(state.view);
    checked(JSON.stringify(streamer.start(state.view, kDefaults.radius, state.mesher)));
    state.firstPictureMs = null;
    state.firstViewMs = null;
  }

  async function openBuiltin(name, seed) {
    const { text } = checked(core.builtin_terrain_text(name, seed));
    await openTerrain(`${name}@${seed}`, text, null);
  }

  async function openDroppedTerrain(text, fileName) {
    const seedField = Number($('seed').value);
    const t = checked(core.terrain_text_of_file(text, fileName, -1));
    const seed = Number.isInteger(seedField) && seedField >= 0 ? seedField : t.seed;
    const withSeed = checked(core.terrain_text_of_file(text, fileName, seed));
    await openTerrain(`file:${withSeed.name}@${seed}`, withSeed.text, text);
  }

  async function importWorldFile(bytes, name = 'the world file') {
    const path = '/worlds/incoming.db';
    try { core.FS.unlink(path); } catch { /* none */ }
    core.FS.writeFile(path, bytes);
    let opened;
    try {
      opened = checked(core.open_world('', path));
    } catch (e) {
      // Nothing changed: the world open before stays open. The message names the user's file.
      throw new Error(e.message.split(path).join(name));
    }
    const builtin = presets.includes(opened.name) && !opened.graph;
    const key = builtin ? `${opened.name}@${opened.seed}` : `file:${opened.name}@${opened.seed}`;
    await adopt(key, opened, builtin ? null : opened.terrain);
  }

  // What the page shows as a glb (the bytes `isoterra mesh --around` writes for the eye).
  function exportGlb(compress = false) {
    const bytes = core.shown_glb(Boolean(compress));
    if (!bytes) throw new Error('nothing is shown to export yet');
    return bytes.slice();
  }
  function download(bytes, type, name) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([bytes], { type }));
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  function exportWorld() {
    const bytes = core.world_file_bytes();
    if (!bytes) throw new Error('no world file is open');
    return bytes.slice();
  }

  // ---- editing ------------------------------------------------------------------------
  let editing = Promise.resolve();
  function edit(op) {
    const run = async () => {
      const result = checked(core.edit(JSON.stringify(op)));
      streamer.edit(op);
      await persist();
      return result;
    };
    editing = editing.then(run, run);
    return editing;
  }
  function walk(forward) {
    const run = async () => {
      const result = checked(forward ? core.redo() : core.undo());
      if (result.changed) {
        streamer.walk(forward);
        await persist();
      }
      return result.changed;
    };
    editing = editing.then(run, run);
    return editing;
  }

  function brushAt(x, y, mode) {
    const { origin, direction } = view.rayThrough(x, y);
    const hit = core.cast_ray(origin.x, origin.y, origin.z, direction.x, direction.y, direction.z, state.view);
    if (!hit) return null;
    const radius = Number($('radius').value);
    return edit({ brush: $('brush').value, mode, at: hit, radius }).catch((e) => showError(e.message));
  }

  // ---- the panel and the input ----------------------------------------------------------
  const presetSelect = $('preset');
  for (const p of presets) presetSelect.add(new Option(p, p));
  for (const m of meshers) $('mesher').add(new Option(m.label, m.name));
  $('view-distance').value = state.view;
  $('mesher').value = state.mesher;
  const guarded = (f) => async (...args) => {
    try {
      clearError();
      await f(...args);
    } catch (e) {
      showError(e.message);
    }
  };
  presetSelect.addEventListener('change', guarded(() => openBuiltin(presetSelect.value, Number($('seed').value))));
  $('seed').addEventListener('change', guarded(async () => {
    const s = $('seed').value;
    if (!/^\d+$/.test(s) || Number(s) > 4294967295) throw new Error(`seed '${s}' must be a whole number from 0 to 4294967295`);
    const last = await loadLast();
    if (last?.terrain && last.name === presetSelect.value) await openDroppedTerrain(last.terrain, last.name);
    else await openBuiltin(presetSelect.value, Number(s));
  }));
  $('mesher').addEventListener('change', guarded(() => {
    state.mesher = $('mesher').value;
    const bad = core.set_mesher(state.mesher);
    if (bad) throw new Error(bad);
  }));
  $('view-distance').addEventListener('change', guarded(() => {
    const v = Number($('view-distance').value);
    if (!(v >= 32 && v <= 65536)) throw new Error(`view distance ${$('view-distance').value} must be from 32 to 65536 m`);
    state.view = v;
    restartWorld();
  }));
  $('undo').addEventListener('click', guarded(() => walk(false)));
  $('redo').addEventListener('click', guarded(() => walk(true)));
  $('export').addEventListener('click', guarded(() => {
    download(exportWorld(), 'application/vnd.sqlite3', `${state.name}-${state.seed}.db`);
  }));
  $('export-glb').addEventListener('click', guarded(() => {
    const compress = $('compress').checked;
    download(exportGlb(compress), 'model/gltf-binary', `${state.name}-${state.seed}${compress ? '-meshopt' : ''}.glb`);
  }));
  async function openFile(file) {
    if (file.size > 256 * 1024 * 1024) throw new Error(`${file.name}: larger than 256 MB`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const head = new TextDecoder().decode(bytes.slice(0, 16));
    if (head.startsWith('SQLite format 3')) await importWorldFile(bytes, file.name);
    else if (/\.toml$/i.test(file.name)) await openDroppedTerrain(new TextDecoder().decode(bytes), file.name);
    else throw new Error(`${file.name}: neither a world file (.db) nor a preset or graph (.toml)`);
  }
  $('open-file').addEventListener('change', guarded(async () => {
    const file = $('open-file').files[0];
    $('open-file').value = '';
    if (file) await openFile(file);
  }));
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', guarded(async (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const file = e.dataTransfer?.files?.[0];
    if (file) await openFile(file);
  }));

  const canvas = $('view');
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.button !== 2) return;
    const mode = e.button === 2 ? 'add' : 'carve';
    if (document.pointerLockElement === canvas) brushAt(canvas.clientWidth / 2, canvas.clientHeight / 2, mode);
    else brushAt(e.offsetX, e.offsetY, mode);
  });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.ctrlKey && (e.code === 'KeyZ' || e.code === 'KeyY')) {
      e.preventDefault();
      guarded(() => walk(e.code === 'KeyY' || e.shiftKey))();
    } else if (e.code === 'KeyF') {
      if (document.pointerLockElement === canvas) document.exitPointerLock();
      else canvas.requestPointerLock();
    }
  });
  document.addEventListener('pointerlockchange', () => {
    document.body.classList.toggle('flying', document.pointerLockElement === canvas);
  });

  // ---- the first world: the URL's, else what was open last, else the default -----------
  let firstLook = params.eye && { eye: params.eye, target: params.target ?? [params.eye[0] + 300, params.eye[1] - 60, params.eye[2] - 300] };
  const last = await loadLast();
  try {
    if (params.preset || params.seed !== undefined || !last) {
      await openBuiltin(params.preset ?? kDefaults.preset, params.seed ?? kDefaults.seed);
    } else if (last.terrain) {
      await openDroppedTerrain(last.terrain, last.name);
    } else {
      await openBuiltin(last.name, last.seed);
    }
  } catch (e) {
    showError(e.message);
    await openBuiltin(kDefaults.preset, kDefaults.seed);
  }

  // ---- every frame ------------------------------------------------------------------------
  // The picture is drawn again only when something changed, once the GPU has finished the
  // last one, and with the GPU busy at most a quarter of the time: with a software renderer
  // (no GPU) a frame of millions of triangles costs the same cores the workers need.
  let lastFrame = performance.now();
  let lastDraw = 0, dirty = true;
  let frameWaiters = [], drawnWaiters = [];  // frame(): resolved once a frame drawn after the call is finished
  let lastEye = '';
  const frameTimes = [];
  view.engine.runRenderLoop(() => {
    const now = performance.now();
    const dt = Math.min(0.1, (now - lastFrame) / 1000);
    lastFrame = now;
    flight.step(dt);
    const p = view.camera.position, t = view.camera.getTarget();
    const eyeNow = `${p.x},${p.y},${p.z},${t.x},${t.y},${t.z}`;
    if (eyeNow !== lastEye) { lastEye = eyeNow; dirty = true; }
    streamer.pump(view.camera.position);
    const updates = JSON.parse(core.deliver(kUploadBudgetMs));
    for (const u of updates) {
      const copy = (i) => {
        const arrays = {};
        for (const k of ['vertices', 'normals', 'indices', 'step', 'origin']) arrays[k] = core.drawn_array(i, k).slice();
        return arrays;
      };
      view.apply(u, u.draw >= 0 ? copy(u.draw) : null, u.water >= 0 ? copy(u.water) : null);
    }
    if (updates.length) dirty = true;
    const idle = view.gpuIdle();
    if (idle && drawnWaiters.length) {
      for (const resolve of drawnWaiters) resolve();
      drawnWaiters = [];
    }
    if (frameWaiters.length || view.isFading()) dirty = true;  // a cross-fade draws every frame it may
    // While the first view fills, the GPU gets a tenth of the time (a software renderer's
    // frames then take less from the workers' cores); after that a quarter.
    const share = state.firstViewMs === null ? 9 : 3;
    if (dirty && idle && now - lastDraw >= share * view.gpuMs) {
      view.render();
      lastDraw = now;
      dirty = false;
      drawnWaiters = frameWaiters;
      frameWaiters = [];
    }
    const spent = performance.now() - now;
    frameTimes.push(spent);
    if (frameTimes.length > 60) frameTimes.shift();
    state.frameMs = [...frameTimes].sort((a, b) => a - b)[frameTimes.length >> 1];
    // The core's session notes both times as it delivers (seconds since the World started).
    if (state.firstPictureMs === null || state.firstViewMs === null) {
      const c = counts();
      if (state.firstPictureMs === null && c.first_picture_s >= 0) state.firstPictureMs = c.first_picture_s * 1000;
      if (state.firstViewMs === null && c.first_view_s >= 0) {
        state.firstViewMs = c.first_view_s * 1000;
        dirty = true;
      }
    }
    if (frameTimes.length % 15 === 0) $('stats').textContent = statsLine();
  });
  window.addEventListener('resize', () => view.engine.resize());

  function counts() {
    return JSON.parse(core.world_counts());
  }
  function settled() {
    return Boolean(counts().settled);
  }
  function stats() {
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
      workers,
      world: `${state.name}@${state.seed}`,
      sea_level: state.seaLevel,        // metres; very low (-1e9) for none
      load_ms: loadMs,
    };
  }
  function statsLine() {
    const s = stats();
    const picture = s.first_picture_ms === null ? '' : `first picture ${(s.first_picture_ms / 1000).toFixed(2)} s · `;
    const first = picture + (s.first_view_ms === null ? 'filling…' : `first view ${(s.first_view_ms / 1000).toFixed(2)} s`);
    return `${state.name} · seed ${state.seed} · ${s.chunks} chunks · ${(s.triangles / 1e6).toFixed(2)} M triangles · ` +
      `frame ${s.frame_ms.toFixed(1)} ms + GPU ${s.gpu_ms.toFixed(0)} ms · ${first} · ${workers} worker${workers > 1 ? 's' : ''}`;
  }
  const loadMs = performance.now() - started;

  Object.assign(api, {
    settled: () => settled() && state.firstViewMs !== null && !view.isFading(),
    stats,
    sample: (x, y, z) => core.sample(x, y, z),
    edit: ({ brush = 'sphere', at, radius = 4, mode = 'carve', strength }) => edit({ brush, mode, at, radius, strength }),
    undo: () => walk(false),
    redo: () => walk(true),
    history: () => checked(core.history()),
    counts: () => JSON.parse(core.world_counts()),
    exportWorld,
    exportGlb: ({ compress = false } = {}) => exportGlb(compress),
    importWorld: (bytes) => importWorldFile(new Uint8Array(bytes)),
    look: (eye, target) => { view.look(eye, target); flight.syncAngles(); },
    camera: () => {
      const p = view.camera.position, d = view.camera.getDirection(new Vector3(0, 0, -1));
      return { eye: [p.x, p.y, p.z], direction: [d.x, d.y, d.z] };
    },
    frame: () => new Promise((resolve) => frameWaiters.push(resolve)),
    idle: () => editing.then(() => undefined, () => undefined),
  });
  resolveReady(api);
}

main().catch((e) => {
  showError(e.message);
  rejectReady(e);
});
