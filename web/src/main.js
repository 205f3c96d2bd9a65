// The isoterra page: the C++ core in WebAssembly streams the world around the camera in Web
// Workers, Babylon.js draws it, clicks edit it, and the edits are kept in the browser as a
// world file that `isoterra --world` reads. `window.isoterra` is the interface tests use.
// The parts: worlds.js (open, keep, import, export), editing.js, panel.js (the controls and
// the input), frame_loop.js (every frame and the figures), dom.js (the error line).
import { loadCore, checked } from './core.js';
import { Streamer } from './streaming.js';
import { TerrainView } from './terrain_view.js';
import { Flight } from './fly.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { readParams } from './url_params.js';
import { $, showError } from './dom.js';
import { Worlds } from './worlds.js';
import { Editing } from './editing.js';
import { wirePanel } from './panel.js';
import { FrameLoop } from './frame_loop.js';
import { RiverOverlay } from './rivers_overlay.js';

const kDefaults = { preset: 'tutorial', seed: 20261114, view: 8000, radius: 8 };

let resolveReady, rejectReady;
const api = {
  ready: new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; }),
};
window.isoterra = api;

// The first world: the URL's, else what was open last, else the default.
async function openFirstWorld(worlds, params) {
  worlds.firstLook = params.eye && { eye: params.eye, target: params.target ?? [params.eye[0] + 300, params.eye[1] - 60, params.eye[2] - 300] };
  const last = await worlds.loadLast();
  try {
    if (params.preset || params.seed !== undefined || !last) {
      await worlds.openBuiltin(params.preset ?? kDefaults.preset, params.seed ?? kDefaults.seed);
    } else if (last.terrain) {
      await worlds.openDroppedTerrain(last.terrain, last.name);
    } else {
      await worlds.openBuiltin(last.name, last.seed);
    }
  } catch (e) {
    showError(e.message);
    await worlds.openBuiltin(kDefaults.preset, kDefaults.seed);
  }
}

// What tests and scripts call (`window.isoterra`).
function apiOf(page, worlds, editing, loop) {
  const { core, view, flight } = page;
  return {
    settled: () => loop.settled(),
    stats: () => loop.stats(),
    sample: (x, y, z) => core.sample(x, y, z),
    edit: ({ brush = 'sphere', at, radius = 4, mode = 'carve', strength }) => editing.edit({ brush, mode, at, radius, strength }),
    undo: () => editing.walk(false),
    redo: () => editing.walk(true),
    history: () => checked(core.history()),
    counts: () => loop.counts(),
    exportWorld: () => worlds.exportWorld(),
    exportGlb: ({ compress = false } = {}) => worlds.exportGlb(compress),
    importWorld: (bytes) => worlds.importWorldFile(new Uint8Array(bytes)),
    look: (eye, target) => { view.look(eye, target); flight.syncAngles(); },
    camera: () => {
      const p = view.camera.position, d = view.camera.getDirection(new Vector3(0, 0, -1));
      return { eye: [p.x, p.y, p.z], direction: [d.x, d.y, d.z] };
    },
    frame: () => loop.frame(),
    // true: the river overlay around the eye; false: none; left out: what it shows.
    riverReaches: () => page.rivers.reaches,
    rivers: (on) => {
      if (on === true) return page.rivers.show(view.camera.position.x, view.camera.position.z);
      if (on === false) page.rivers.hide();
      return page.rivers.summary();
    },
    idle: () => editing.idle(),
  };
}

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
  const rivers = new RiverOverlay(core, view);
  const page = { core, streamer, view, flight, rivers, state, presets, meshers, workers, loadMs: null };
  const worlds = new Worlds(page, kDefaults.radius);
  const editing = new Editing(page, worlds);
  wirePanel(page, worlds, editing);
  await openFirstWorld(worlds, params);
  const loop = new FrameLoop(page);
  page.loadMs = performance.now() - started;
  Object.assign(api, apiOf(page, worlds, editing, loop));
  resolveReady(api);
}

main().catch((e) => {
  showError(e.message);
  rejectReady(e);
});
