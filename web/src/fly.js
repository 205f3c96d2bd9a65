// Flying: WASD (and Q/E or Space/C down and up) along where the eye looks, the mouse turns
// it while the pointer is locked, Shift is eight times faster.
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js';

export class Flight {
  constructor(canvas, camera) {
    this.canvas = canvas;
    this.camera = camera;
    this.keys = new Set();
    this.speed = 40;  // metres a second
    this.syncAngles();
    window.addEventListener('keydown', (e) => { if (!isTyping(e)) this.keys.add(e.code); });
    window.addEventListener('keyup', (e) => this.keys.delete(e.code));
    window.addEventListener('blur', () => this.keys.clear());
    document.addEventListener('mousemove', (e) => {
      if (document.pointerLockElement !== canvas) return;
      this.yaw -= e.movementX * 0.0025;
      this.pitch = Math.max(-1.55, Math.min(1.55, this.pitch - e.movementY * 0.0025));
      this.#aim();
    });
  }

  /// Takes the camera's present direction as the flight's (after the page placed it).
  syncAngles() {
    const d = this.camera.getDirection(Vector3.Forward(true));
    this.yaw = Math.atan2(d.x, -d.z);
    this.pitch = Math.asin(Math.max(-1, Math.min(1, d.y)));
  }

  #direction() {
    return new Vector3(Math.sin(this.yaw) * Math.cos(this.pitch), Math.sin(this.pitch), -Math.cos(this.yaw) * Math.cos(this.pitch));
  }

  #aim() { this.camera.setTarget(this.camera.position.add(this.#direction())); }

  /// Moves the eye for `seconds` of the keys held.
  step(seconds) {
    const k = this.keys;
    const forward = (k.has('KeyW') ? 1 : 0) - (k.has('KeyS') ? 1 : 0);
    const right = (k.has('KeyD') ? 1 : 0) - (k.has('KeyA') ? 1 : 0);
    const up = (k.has('KeyE') || k.has('Space') ? 1 : 0) - (k.has('KeyQ') || k.has('KeyC') ? 1 : 0);
    if (!forward && !right && !up) return;
    const d = this.#direction();
    const side = new Vector3(-Math.cos(this.yaw), 0, -Math.sin(this.yaw)).scale(-1);
    const fast = k.has('ShiftLeft') || k.has('ShiftRight') ? 8 : 1;
    const move = d.scale(forward).add(side.scale(right)).add(new Vector3(0, up, 0));
    this.camera.position.addInPlace(move.scale(this.speed * fast * seconds));
    this.#aim();
  }
}

function isTyping(e) {
  const t = e.target;
  return t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement;
}
