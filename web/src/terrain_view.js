// The Babylon.js side: a right-handed scene in the world's own metres (y up), one mesh per
// shown chunk (and one for its water surface), and the native renderer's look: grass, soil,
// rock, snow, sand and scree painted by triplanar detail noise, lit by a low sun and a sky
// light, fading into the sky with fog; the sea and the chunks' water translucent over them.
import { Engine } from '@babylonjs/core/Engines/engine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js';
import { Vector3, Matrix } from '@babylonjs/core/Maths/math.vector.js';
import { Color4 } from '@babylonjs/core/Maths/math.color.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { Buffer, VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial.js';
import { Effect } from '@babylonjs/core/Materials/effect.js';
import '@babylonjs/core/Culling/ray.js';  // scene.createPickingRay
import compactVertex from '../../shaders/compact_vertex.glsl?raw';
import terrainShading from '../../shaders/terrain_shading.glsl?raw';

const kSky = [0.66, 0.74, 0.84];
const kFadeMs = 300;  // a swap of levels cross-fades this long, as in the native viewer
const kSun = new Vector3(-0.5, 0.45, 0.55).normalize();  // low, warm, from the south-west

// The compact vertex (web/core/mesh_bytes.hpp): a grid point that the world matrix scales and
// places, the material pair and blend in one word, and an octahedral normal, decoded as the
// native renderer does (shaders/compact_vertex.glsl).
Effect.ShadersStore.terrainVertexShader = `
precision highp float;
attribute vec3 position;     // grid point
attribute float materialWord;  // blend | primary << 8 | secondary << 11
attribute vec2 octNormal;    // octahedral, snorm16
uniform mat4 world;
uniform mat4 viewProjection;
uniform vec3 eye;
varying vec3 vFromEye;
varying vec3 vWorld;
varying vec3 vNormal;
varying vec4 vMaterial;
varying vec2 vMore;
${compactVertex}
void main() {
  vec4 w = world * vec4(position, 1.0);
  vFromEye = w.xyz - eye;
  vWorld = w.xyz;
  vNormal = octahedral_normal(octNormal);
  material_weights(mod(floor(materialWord / 256.0), 8.0), floor(materialWord / 2048.0), mod(materialWord, 256.0) / 255.0, vMaterial,
                   vMore);
  gl_Position = viewProjection * w;
}`;

// What the ground's and the sea's fragment shaders share: the vertex shader's outputs, the
// light and fog, and the native renderer's look (shaders/terrain_shading.glsl).
const kFragmentPrologue = `
precision highp float;
varying vec3 vFromEye;
varying vec3 vWorld;
varying vec3 vNormal;
varying vec4 vMaterial;
varying vec2 vMore;
uniform vec3 skyColour;
uniform vec3 sunDirection;
uniform float fogStart;
uniform float fogEnd;
uniform float fadeSide;   // 0 none, 1 appearing, 2 going (a swap of levels)
uniform float fadeAlpha;  // how far the fade has come, 0..1
${terrainShading}
`;
const kShaderOptions = {
  attributes: ['position', 'materialWord', 'octNormal'],
  uniforms: ['world', 'viewProjection', 'eye', 'skyColour', 'sunDirection', 'fogStart', 'fogEnd', 'fadeSide', 'fadeAlpha'],
};

Effect.ShadersStore.terrainFragmentShader = `${kFragmentPrologue}void main() {
  if (fadeSide != 0.0 && fade_hides(fadeSide, fadeAlpha)) discard;
  vec3 n = normalize(vNormal);
  vec3 albedo = terrain_albedo(mod(vWorld, 1000.0), n, vMaterial, vMore);  // the detail repeats every 1000 m
  float fog = fog_amount(length(vFromEye), fogStart, fogEnd);
  gl_FragColor = vec4(mix(terrain_lit(albedo, n, sunDirection), skyColour, fog), 1.0);
}`;

// The sea (a square at sea level around the eye) and the chunks' water, blended over the ground.
Effect.ShadersStore.seaFragmentShader = `${kFragmentPrologue}void main() {
  if (fadeSide != 0.0 && fade_hides(fadeSide, fadeAlpha)) discard;
  gl_FragColor = sea_colour(vFromEye, sunDirection, skyColour, fog_amount(length(vFromEye), fogStart, fogEnd));
}`;

export class TerrainView {
  constructor(canvas) {
    this.engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false, antialias: true });
    this.engine.useReverseDepthBuffer = true;  // kilometres of depth without fighting
    this.scene = new Scene(this.engine);
    this.scene.useRightHandedSystem = true;
    this.scene.clearColor = new Color4(kSky[0], kSky[1], kSky[2], 1);
    this.scene.skipPointerMovePicking = true;
    this.camera = new FreeCamera('eye', new Vector3(0, 60, 0), this.scene);
    this.camera.minZ = 0.5;
    this.camera.fov = 60 * Math.PI / 180;
    this.material = new ShaderMaterial('terrain', this.scene, { vertex: 'terrain', fragment: 'terrain' }, kShaderOptions);
    this.material.backFaceCulling = false;  // a cave seen from inside, an edit's far wall
    this.sea = new ShaderMaterial('sea', this.scene, { vertex: 'terrain', fragment: 'sea' }, { ...kShaderOptions, needAlphaBlending: true });
    this.sea.backFaceCulling = false;
    this.sea.disableDepthWrite = true;
    for (const m of [this.material, this.sea]) {
      m.setVector3('skyColour', new Vector3(...kSky));
      m.setVector3('sunDirection', kSun);
      // Each mesh's side of a cross-fade (#fadeStep), set as it is drawn.
      m.onBindObservable.add((mesh) => {
        const effect = m.getEffect();
        effect.setFloat('fadeSide', mesh.fadeSide || 0);
        effect.setFloat('fadeAlpha', mesh.fadeAlpha || 0);
      });
    }
    this.fading = new Set();  // chunk entries in a cross-fade (shown or hidden less than kFadeMs ago)
    this.seaLevel = null;
    this.seaMesh = null;
    this.chunks = new Map();  // key -> { mesh, water, triangles, shown, bytes, vertices, indices }
    this.triangles = 0;
    this.meshBytes = 0;     // the vertex and index arrays of every chunk held (shown or not)
    this.meshVertices = 0;
    this.meshIndices = 0;
    this.gpuMs = 0;
    this.fence = null;
    this.setFog(8000);
  }

  setFog(viewDistance) {
    for (const m of [this.material, this.sea]) {
      m.setFloat('fogStart', viewDistance * 0.3);
      m.setFloat('fogEnd', viewDistance);
    }
    this.camera.maxZ = viewDistance * 2 + 2000;
    this.viewDistance = viewDistance;
    this.setSea(this.seaLevel);
  }

  /// Draws the sea at `level` metres (null: none, as for a graph).
  setSea(level) {
    this.seaLevel = level;
    if (this.seaMesh) this.seaMesh.dispose();
    this.seaMesh = null;
    if (level === null || level < -1e8) return;
    const r = this.viewDistance * 1.5;
    // Corners 0 and 2 on the grid, scaled by r and placed at the eye less r (render()).
    const mesh = this.#packedMesh('sea', new Uint16Array([0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 2, 0, 2, 0, 0, 0]),
      new Int16Array([0, 32767, 0, 32767, 0, 32767, 0, 32767]), new Uint16Array([0, 1, 2, 0, 2, 3]));
    mesh.scaling.set(r, 1, r);
    mesh.material = this.sea;
    mesh.alphaIndex = 1;
    this.seaMesh = mesh;
  }

  /// Places the eye and turns it towards `target`.
  look(eye, target) {
    this.camera.position.set(eye[0], eye[1], eye[2]);
    this.camera.setTarget(new Vector3(target[0], target[1], target[2]));
  }

  /// Applies one update from the World: a drop, a new drawing (the chunk's `arrays` and its
  /// water's, `water`, or null), or shown / hidden.
  apply(update, arrays, water = null) {
    let entry = this.chunks.get(update.key);
    if (update.drop) {
      if (entry) this.#remove(update.key, entry, true);
      return;
    }
    if (arrays) {
      if (entry) this.#remove(update.key, entry);
      entry = undefined;
      // Nothing to draw (air, or hidden by its neighbours) and no water: no entry.
      const mesh = arrays.indices.length ? this.#mesh(update.key, arrays, this.material, null) : null;
      const waterMesh = water && water.indices.length ? this.#mesh(`${update.key} water`, water, this.sea, 2) : null;
      if (!mesh && !waterMesh) return;
      entry = { mesh, water: waterMesh, triangles: mesh ? arrays.indices.length / 3 : 0, shown: false, bytes: 0, vertices: 0, indices: 0 };
      for (const a of [arrays, water]) {
        if (!a) continue;
        entry.bytes += a.vertices.byteLength + a.normals.byteLength + a.indices.byteLength;
        entry.vertices += a.vertices.length / 4;
        entry.indices += a.indices.length;
      }
      this.meshBytes += entry.bytes;
      this.meshVertices += entry.vertices;
      this.meshIndices += entry.indices;
      this.chunks.set(update.key, entry);
    }
    if (!entry) return;
    if (update.visible !== entry.shown) {
      this.triangles += update.visible ? entry.triangles : -entry.triangles;
      entry.shown = update.visible;
      // The two levels of a swap cross-fade: the going one stays drawn until it has faded.
      entry.fadeStart = performance.now();
      this.fading.add(entry);
      this.#fadeStep(entry, entry.fadeStart);
    }
  }

  /// True while a swap of levels is cross-fading.
  isFading() {
    return this.fading.size > 0;
  }

  // An entry's meshes at `now` in its cross-fade: drawn with their side of the dither, or,
  // when it is over, shown plainly or hidden (disposed if its chunk was dropped meanwhile).
  #fadeStep(entry, now) {
    const alpha = (now - entry.fadeStart) / kFadeMs;
    const over = alpha >= 1;
    for (const m of [entry.mesh, entry.water]) {
      if (!m) continue;
      m.setEnabled(entry.shown || !over);
      m.fadeSide = over ? 0 : entry.shown ? 1 : 2;
      m.fadeAlpha = Math.min(alpha, 1);
    }
    if (!over) return;
    this.fading.delete(entry);
    if (entry.dropped) for (const m of [entry.mesh, entry.water]) if (m) m.dispose();
  }

  // A Babylon mesh of compact vertices (four 16-bit words each: the grid point and the
  // material word), octahedral normals (two snorm16) and indices (16- or 32-bit).
  #packedMesh(name, vertices, normals, indices) {
    const mesh = new Mesh(name, this.scene);
    const grid = new Buffer(this.engine, vertices, false, 8, false, false, true);
    const word = { stride: 8, type: VertexBuffer.UNSIGNED_SHORT, useBytes: true };
    mesh.setVerticesBuffer(new VertexBuffer(this.engine, grid, 'position', { ...word, size: 3, offset: 0 }));
    mesh.setVerticesBuffer(new VertexBuffer(this.engine, grid, 'materialWord', { ...word, size: 1, offset: 6 }));
    mesh.setVerticesBuffer(new VertexBuffer(this.engine, normals, 'octNormal', { size: 2, type: VertexBuffer.SHORT, normalized: true }));
    mesh.setIndices(indices, vertices.length / 4);
    mesh.isPickable = false;
    return mesh;
  }

  // A chunk's (or its water's) mesh, placed at its grid's origin and scaled by its step,
  // hidden until shown.
  #mesh(name, arrays, material, alphaIndex) {
    const mesh = this.#packedMesh(name, arrays.vertices, arrays.normals, arrays.indices);
    mesh.position.set(arrays.origin[0], arrays.origin[1], arrays.origin[2]);
    mesh.scaling.set(arrays.step[0], arrays.step[1], arrays.step[2]);
    mesh.material = material;
    if (alphaIndex !== null) mesh.alphaIndex = alphaIndex;  // water: after the sea (1)
    mesh.doNotSyncBoundingInfo = true;
    mesh.setEnabled(false);
    return mesh;
  }

  // (A dropped chunk still fading out, `dropped`, is disposed when its fade is over.)
  #remove(key, entry, dropped = false) {
    if (entry.shown) this.triangles -= entry.triangles;
    this.meshBytes -= entry.bytes;
    this.meshVertices -= entry.vertices;
    this.meshIndices -= entry.indices;
    this.chunks.delete(key);
    if (dropped && this.fading.has(entry) && !entry.shown) {
      entry.dropped = true;
      return;
    }
    this.fading.delete(entry);
    for (const m of [entry.mesh, entry.water]) if (m) m.dispose();
  }

  clear() {
    for (const entry of new Set([...this.chunks.values(), ...this.fading])) for (const m of [entry.mesh, entry.water]) if (m) m.dispose();
    this.chunks.clear();
    this.fading.clear();
    this.triangles = 0;
    this.meshBytes = 0;
    this.meshVertices = 0;
    this.meshIndices = 0;
  }

  shownChunks() {
    let n = 0;
    for (const { mesh, shown } of this.chunks.values()) n += Boolean(mesh && shown);
    return n;
  }

  /// The ray from the eye through a pixel of the canvas (CSS pixels).
  rayThrough(x, y) {
    const ray = this.scene.createPickingRay(x, y, Matrix.Identity(), this.camera);
    return { origin: ray.origin, direction: ray.direction };
  }

  render() {
    const now = performance.now();
    for (const entry of [...this.fading]) this.#fadeStep(entry, now);
    this.material.setVector3('eye', this.camera.position);
    this.sea.setVector3('eye', this.camera.position);
    if (this.seaMesh) {
      const r = this.seaMesh.scaling.x;  // the sea's half width (setSea)
      this.seaMesh.position.set(this.camera.position.x - r, this.seaLevel, this.camera.position.z - r);
    }
    this.scene.render();
    // A fence after the frame tells when the GPU is done with it (WebGL2).
    const gl = this.engine._gl;
    if (gl && gl.fenceSync) {
      this.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
      gl.flush();
      this.fenceSince = performance.now();
    }
  }

  /// True when the last frame is finished; `gpuMs` is then what it took.
  gpuIdle() {
    if (!this.fence) return true;
    const gl = this.engine._gl;
    if (gl.clientWaitSync(this.fence, 0, 0) === gl.TIMEOUT_EXPIRED) return false;
    gl.deleteSync(this.fence);
    this.fence = null;
    this.gpuMs = performance.now() - this.fenceSince;
    return true;
  }
}
