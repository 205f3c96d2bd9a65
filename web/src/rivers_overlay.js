// The river overlay: the open terrain's river network (the core's rivers(): the network
// `isoterra landform --rivers` writes and Python's Field.rivers gives) over a square around the
// eye (out to the view distance, at most 2 km), drawn as a Babylon line system at the water's
// level, lifted a little so that the lines do not fight the water surface or the ground for
// depth. Moving far from the square's centre takes the network anew around the eye. The
// network is found on the page's thread: about a second for the whole square.
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js';
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Color4 } from '@babylonjs/core/Maths/math.color.js';
import { checked } from './core.js';
import { $, showError } from './dom.js';

const kHalfM = 2048;       // the square's half side, at most
const kStepM = 16;         // between the samples the network is found on
const kMinAreaKm2 = 0.25;  // where a channel starts
const kLiftM = 0.5;        // above the water's level
// Strahler order 1 pale, higher orders deeper blue.
const kColours = [[0.55, 0.9, 1.0], [0.2, 0.7, 1.0], [0.1, 0.45, 1.0], [0.15, 0.25, 0.95]];

function colourOf(order) {
  const [r, g, b] = kColours[Math.min(Math.max(order, 1), kColours.length) - 1];
  return new Color4(r, g, b, 1);
}

export class RiverOverlay {
  // `view`: the TerrainView (its scene and view distance).
  constructor(core, view) {
    this.core = core;
    this.view = view;
    this.half = kHalfM;
    this.mesh = null;
    this.centre = null;  // [x, z] of the square shown, or null when off
    this.reaches = [];
    this.stale = false;    // a new terrain: take the network anew
    this.changed = false;  // drawn or hidden since the last update()
  }

  get shown() { return this.centre !== null; }

  /// Finds the network around (x, z) and draws it; returns what is drawn ({reaches, points,
  /// orders}). Throws the core's one-line error (a terrain without a ground) and stays off.
  show(x, z) {
    const cx = Math.round(x / kStepM) * kStepM, cz = Math.round(z / kStepM) * kStepM;
    const h = Math.min(kHalfM, Math.max(256, Math.ceil(this.view.viewDistance / kStepM) * kStepM));
    let reaches;
    try {
      ({ reaches } = checked(this.core.rivers(cx - h, cz - h, cx + h, cz + h, kStepM, kMinAreaKm2)));
    } catch (e) {
      $('rivers').checked = this.shown;
      throw e;
    }
    this.hide();
    const lines = [], colors = [];
    for (const r of reaches) {
      const line = [];
      for (let i = 0; i + 2 < r.points.length; i += 3) line.push(new Vector3(r.points[i], r.points[i + 2] + kLiftM, r.points[i + 1]));
      if (line.length < 2) continue;
      lines.push(line);
      const c = colourOf(r.order);
      colors.push(line.map(() => c));
    }
    if (lines.length) {
      this.mesh = CreateLineSystem('rivers', { lines, colors, useVertexAlpha: false }, this.view.scene);
      this.mesh.isPickable = false;
    }
    this.centre = [cx, cz];
    this.half = h;
    this.reaches = reaches;
    this.changed = true;
    $('rivers').checked = true;
    return this.summary();
  }

  /// What is drawn: reaches, points, the highest order, the square (lo, hi: x, z), the step,
  /// the channels' area, the lift and the drawn lines' box (min, max: x, y, z).
  summary() {
    if (!this.shown) return { shown: false, reaches: 0, points: 0, max_order: 0 };
    const [cx, cz] = this.centre, h = this.half;
    const box = this.mesh?.getBoundingInfo().boundingBox;
    return {
      shown: true,
      ready: this.mesh === null || this.mesh.isReady(true),  // the lines' shader compiled: they show
      reaches: this.reaches.length,
      points: this.reaches.reduce((n, r) => n + r.points.length / 3, 0),
      max_order: this.reaches.reduce((m, r) => Math.max(m, r.order), 0),
      lo: [cx - h, cz - h],
      hi: [cx + h, cz + h],
      step_m: kStepM,
      min_area_km2: kMinAreaKm2,
      lift_m: kLiftM,
      box: box ? { min: box.minimum.asArray(), max: box.maximum.asArray() } : null,
    };
  }

  /// A new terrain is open: the next update() takes its network.
  refresh() {
    this.stale = this.shown;
  }

  /// Once a frame, with the eye: takes the network anew for a new terrain or when the eye has
  /// left the square's middle half. Returns whether the drawing changed since the last call.
  update(x, z) {
    const far = this.shown && (Math.abs(x - this.centre[0]) >= this.half / 2 || Math.abs(z - this.centre[1]) >= this.half / 2);
    if (this.stale || far) {
      this.stale = false;
      try {
        this.show(x, z);
      } catch (e) {
        this.hide();
        showError(e.message);
      }
    }
    // Babylon compiles the lines' shader on their first frames: drawn again until they show.
    const changed = this.changed || (this.mesh !== null && !this.mesh.isReady(true));
    this.changed = false;
    return changed;
  }

  hide() {
    if (this.mesh) this.mesh.dispose();
    this.mesh = null;
    this.centre = null;
    this.reaches = [];
    this.changed = true;
    $('rivers').checked = false;
  }
}
