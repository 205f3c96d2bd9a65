// Edits, undo and redo, one at a time: each applied by the core, mirrored to the workers and
// kept in the browser before the next starts.
import { checked } from './core.js';
import { $, showError } from './dom.js';

export class Editing {
  constructor(page, worlds) {
    this.page = page;
    this.worlds = worlds;
    this.last = Promise.resolve();  // the edit or step that runs last
  }

  // Runs `action` after the edits before it, whether they failed or not.
  queue(action) {
    this.last = this.last.then(action, action);
    return this.last;
  }

  edit(op) {
    const { core, streamer } = this.page;
    return this.queue(async () => {
      const result = checked(core.edit(JSON.stringify(op)));
      streamer.edit(op);
      await this.worlds.persist();
      return result;
    });
  }

  // Redo (forward) or undo; resolves to whether anything changed.
  walk(forward) {
    const { core, streamer } = this.page;
    return this.queue(async () => {
      const result = checked(forward ? core.redo() : core.undo());
      if (result.changed) {
        streamer.walk(forward);
        await this.worlds.persist();
      }
      return result.changed;
    });
  }

  // The panel's brush where the ray through pixel (x, y) meets the ground.
  brushAt(x, y, mode) {
    const { core, view, state } = this.page;
    const { origin, direction } = view.rayThrough(x, y);
    const hit = core.cast_ray(origin.x, origin.y, origin.z, direction.x, direction.y, direction.z, state.view);
    if (!hit) return null;
    const radius = Number($('radius').value);
    return this.edit({ brush: $('brush').value, mode, at: hit, radius }).catch((e) => showError(e.message));
  }

  // Resolves once every edit asked for so far has run, failed or not.
  idle() {
    return this.last.then(() => undefined, () => undefined);
  }
}
