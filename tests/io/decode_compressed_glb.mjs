// Decodes a compressed glb (KHR_mesh_quantization + EXT_meshopt_compression) with a real
// client, three.js's GLTFLoader and its meshopt decoder, and compares it with the plain glb
// of the same meshes: the same vertex and triangle counts per mesh, every coordinate within
// half a quantization step plus float rounding (each axis's values compared sorted), and
// the same materials. Prints one JSON line; exits 1 on a difference.
// Usage: node tests/io/decode_compressed_glb.mjs PLAIN.glb COMPRESSED.glb (binary files: the loader
// fetches a .gltf's data URI, which Node's three.js cannot)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const three = (p) => import(pathToFileURL(join(root, 'web', 'node_modules', 'three', p)).href);
const THREE = await three('build/three.module.js');
const { GLTFLoader } = await three('examples/jsm/loaders/GLTFLoader.js');
const { MeshoptDecoder } = await three('examples/jsm/libs/meshopt_decoder.module.js');

async function load(path) {
  const bytes = readFileSync(path);
  const loader = new GLTFLoader();
  loader.setMeshoptDecoder(MeshoptDecoder);
  const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '');
  gltf.scene.updateMatrixWorld(true);
  const meshes = [];
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    const g = o.geometry;
    const p = g.attributes.position;
    const v = new THREE.Vector3();
    const world = [[], [], []];
    for (let i = 0; i < p.count; ++i) {
      v.fromBufferAttribute(p, i).applyMatrix4(o.matrixWorld);
      world[0].push(v.x), world[1].push(v.y), world[2].push(v.z);
    }
    meshes.push({ name: o.name, vertices: p.count, triangles: g.index.count / 3, world, material: o.material.name, normals: g.attributes.normal });
  });
  return { meshes, extensions: gltf.parser.json.extensionsRequired ?? [] };
}

const [plain, packed] = [await load(process.argv[2]), await load(process.argv[3])];
let worst = 0, worstNormal = 0, failures = [];
if (plain.meshes.length !== packed.meshes.length) failures.push(`meshes ${plain.meshes.length} != ${packed.meshes.length}`);
for (let m = 0; m < Math.min(plain.meshes.length, packed.meshes.length); ++m) {
  const a = plain.meshes[m], b = packed.meshes[m];
  if (a.vertices !== b.vertices || a.triangles !== b.triangles) failures.push(`${a.name}: ${a.vertices}/${a.triangles} != ${b.vertices}/${b.triangles}`);
  if (a.material !== b.material) failures.push(`${a.name}: material ${a.material} != ${b.material}`);
  let extent = 0;
  for (let axis = 0; axis < 3; ++axis) extent = Math.max(extent, a.world[axis].reduce((m, x) => Math.max(m, x), -Infinity) - a.world[axis].reduce((m, x) => Math.min(m, x), Infinity));
  const allowed = extent / 131070 + 1e-5 * (1 + extent) + 1e-3;
  for (let axis = 0; axis < 3; ++axis) {
    const x = Float64Array.from(a.world[axis]).sort(), y = Float64Array.from(b.world[axis]).sort();
    for (let i = 0; i < x.length; ++i) {
      const d = Math.abs(x[i] - y[i]);
      worst = Math.max(worst, d);
      if (d > allowed) { failures.push(`${a.name}: axis ${axis} differs by ${d} > ${allowed}`); break; }
    }
  }
  // Decoded normals are normalised bytes: unit length within their rounding.
  for (let i = 0; i < b.vertices; ++i) {
    const n = new THREE.Vector3().fromBufferAttribute(b.normals, i);
    worstNormal = Math.max(worstNormal, Math.abs(n.length() - 1));
  }
}
if (worstNormal > 0.02) failures.push(`a decoded normal is ${worstNormal} off unit length`);
if (!packed.extensions.includes('EXT_meshopt_compression')) failures.push('the compressed file does not require EXT_meshopt_compression');
console.log(JSON.stringify({ meshes: packed.meshes.length, vertices: packed.meshes.reduce((s, m) => s + m.vertices, 0),
  worst_position_m: worst, worst_normal: worstNormal, failures }));
process.exit(failures.length ? 1 : 0);
