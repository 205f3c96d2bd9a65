// The worlds the page opens: a built-in terrain, a dropped preset or graph, an imported world
// file; each kept in the browser (IndexedDB) with its edits, and exported as a world file or
// as the glb of what is shown.
import { checked } from './core.js';
import { $, showError } from './dom.js';
import * as store from './world_store.js';

export class Worlds {
  // `page`: the core, the streamer, the view, the flight, the state and the built-in names
  // (main.js); `radius`: chunks a ring.
  constructor(page, radius) {
    this.page = page;
    this.radius = radius;
    this.firstLook = null;  // the URL's eye, for the first world only
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
    this.loadWorld = orWarn(store.loadWorld);
    this.saveWorld = orWarn(store.saveWorld);
    this.loadLast = orWarn(store.loadLast);
    this.saveLast = orWarn(store.saveLast);
  }

  async persist() {
    const bytes = this.page.core.world_file_bytes();
    if (!bytes) throw new Error('the world file could not be read back');
    await this.saveWorld(this.page.state.key, bytes.slice());
  }

  // Opens (or makes) the world of a terrain: `terrainText` from builtin_terrain_text or a
  // dropped file; the edits kept for its key come back with it.
  async openTerrain(key, terrainText, droppedText) {
    const { core } = this.page;
    const path = `/worlds/${key.replace(/[^A-Za-z0-9_.@-]/g, '_')}.db`;
    const kept = await this.loadWorld(key);
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
    await this.adopt(key, opened, droppedText);
  }

  // Takes an opened world: workers, World, panel.
  async adopt(key, opened, droppedText) {
    const { state, view, flight, streamer } = this.page;
    state.key = key;
    state.name = opened.name;
    state.seed = opened.seed;
    state.seaLevel = opened.sea_level;
    view.setSea(opened.sea_level);  // a graph's `sea_level` too
    // The URL's eye for the first world, else where the viewer starts: above this terrain's ground.
    const { eye, target } = this.firstLook ?? opened.start;
    this.firstLook = null;
    view.look(eye, target);
    flight.syncAngles();
    streamer.open(opened.terrain, opened.ops, opened.applied);
    this.restartWorld();
    await this.persist();
    await this.saveLast({ key, terrain: droppedText ?? null, name: opened.name, seed: opened.seed });
    const select = $('preset');
    if (![...select.options].some((o) => o.value === opened.name)) select.add(new Option(`${opened.name} (file)`, opened.name));
    select.value = opened.name;
    $('seed').value = opened.seed;
  }

  restartWorld() {
    const { state, view, streamer } = this.page;
    view.clear();
    view.setFog(state.view);
    this.page.rivers.refresh();  // a new terrain or view distance: its network
    checked(JSON.stringify(streamer.start(state.view, this.radius, state.mesher)));
    state.firstPictureMs = null;
    state.firstViewMs = null;
  }

  async openBuiltin(name, seed) {
    const { text } = checked(this.page.core.builtin_terrain_text(name, seed));
    await this.openTerrain(`${name}@${seed}`, text, null);
  }

  async openDroppedTerrain(text, fileName) {
    const { core } = this.page;
    const seedField = Number($('seed').value);
    const t = checked(core.terrain_text_of_file(text, fileName, -1));
    const seed = Number.isInteger(seedField) && seedField >= 0 ? seedField : t.seed;
    const withSeed = checked(core.terrain_text_of_file(text, fileName, seed));
    await this.openTerrain(`file:${withSeed.name}@${seed}`, withSeed.text, text);
  }

  async importWorldFile(bytes, name = 'the world file') {
    const { core, presets } = this.page;
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
    await this.adopt(key, opened, builtin ? null : opened.terrain);
  }

  // A world file (.db) or a preset or graph (.toml) the user chose or dropped.
  async openFile(file) {
    if (file.size > 256 * 1024 * 1024) throw new Error(`${file.name}: larger than 256 MB`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const head = new TextDecoder().decode(bytes.slice(0, 16));
    if (head.startsWith('SQLite format 3')) await this.importWorldFile(bytes, file.name);
    else if (/\.toml$/i.test(file.name)) await this.openDroppedTerrain(new TextDecoder().decode(bytes), file.name);
    else throw new Error(`${file.name}: neither a world file (.db) nor a preset or graph (.toml)`);
  }

  // What the page shows as a glb (the bytes `isoterra mesh --around` writes for the eye).
  exportGlb(compress = false) {
    const bytes = this.page.core.shown_glb(Boolean(compress));
    if (!bytes) throw new Error('nothing is shown to export yet');
    return bytes.slice();
  }

  exportWorld() {
    const bytes = this.page.core.world_file_bytes();
    if (!bytes) throw new Error('no world file is open');
    return bytes.slice();
  }
}
