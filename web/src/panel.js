// The panel (terrain, seed, mesher, view distance, undo and redo, open and export) and the
// input on the picture: clicks dig and build, Ctrl+Z and Ctrl+Y undo and redo, F flies.
import { $, guarded, download } from './dom.js';

// The terrain's and the World's settings.
function wireSettings(page, worlds) {
  const { core, state, presets, meshers } = page;
  const presetSelect = $('preset');
  for (const p of presets) presetSelect.add(new Option(p, p));
  for (const m of meshers) $('mesher').add(new Option(m.label, m.name));
  $('view-distance').value = state.view;
  $('mesher').value = state.mesher;
  presetSelect.addEventListener('change', guarded(() => worlds.openBuiltin(presetSelect.value, Number($('seed').value))));
  $('seed').addEventListener('change', guarded(async () => {
    const s = $('seed').value;
    if (!/^\d+$/.test(s) || Number(s) > 4294967295) throw new Error(`seed '${s}' must be a whole number from 0 to 4294967295`);
    const last = await worlds.loadLast();
    if (last?.terrain && last.name === presetSelect.value) await worlds.openDroppedTerrain(last.terrain, last.name);
    else await worlds.openBuiltin(presetSelect.value, Number(s));
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
    worlds.restartWorld();
  }));
}

// Undo and redo, the river overlay, files in and out.
function wireFiles(page, worlds, editing) {
  const { state, view, rivers } = page;
  $('rivers').addEventListener('change', guarded(() => {
    if (!$('rivers').checked) rivers.hide();
    else rivers.show(view.camera.position.x, view.camera.position.z);
  }));
  $('undo').addEventListener('click', guarded(() => editing.walk(false)));
  $('redo').addEventListener('click', guarded(() => editing.walk(true)));
  $('export').addEventListener('click', guarded(() => {
    download(worlds.exportWorld(), 'application/vnd.sqlite3', `${state.name}-${state.seed}.db`);
  }));
  $('export-glb').addEventListener('click', guarded(() => {
    const compress = $('compress').checked;
    download(worlds.exportGlb(compress), 'model/gltf-binary', `${state.name}-${state.seed}${compress ? '-meshopt' : ''}.glb`);
  }));
  $('open-file').addEventListener('change', guarded(async () => {
    const file = $('open-file').files[0];
    $('open-file').value = '';
    if (file) await worlds.openFile(file);
  }));
  document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', guarded(async (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    const file = e.dataTransfer?.files?.[0];
    if (file) await worlds.openFile(file);
  }));
}

// The picture: the left button digs, the right one builds (at the centre while flying).
function wirePointer(editing) {
  const canvas = $('view');
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.button !== 2) return;
    const mode = e.button === 2 ? 'add' : 'carve';
    if (document.pointerLockElement === canvas) editing.brushAt(canvas.clientWidth / 2, canvas.clientHeight / 2, mode);
    else editing.brushAt(e.offsetX, e.offsetY, mode);
  });
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.ctrlKey && (e.code === 'KeyZ' || e.code === 'KeyY')) {
      e.preventDefault();
      guarded(() => editing.walk(e.code === 'KeyY' || e.shiftKey))();
    } else if (e.code === 'KeyF') {
      if (document.pointerLockElement === canvas) document.exitPointerLock();
      else canvas.requestPointerLock();
    }
  });
  document.addEventListener('pointerlockchange', () => {
    document.body.classList.toggle('flying', document.pointerLockElement === canvas);
  });
}

export function wirePanel(page, worlds, editing) {
  wireSettings(page, worlds);
  wireFiles(page, worlds, editing);
  wirePointer(editing);
}
