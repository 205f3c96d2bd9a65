// A baked tileset (isoterra bake) in a plain 3D Tiles client: three.js with
// 3d-tiles-renderer, which picks each tile's level from its geometric error as any client
// does. URL parameters: tileset (its URL; default /tileset/tileset.json), eye and target
// (world metres x,y,z, y up; default: over the region's south-west, looking at its centre),
// error (the screen-space error target in pixels, default 16). window.tilesView tells
// tests what is loaded and shown.
import * as THREE from 'three';
import { TilesRenderer } from '3d-tiles-renderer/three';
import { GLTFExtensionsPlugin } from '3d-tiles-renderer/plugins';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';

const params = new URLSearchParams(location.search);
const url = params.get('tileset') ?? '/tileset/tileset.json';
const info = document.getElementById('info');
const vec = (name) => {
  const v = params.get(name)?.split(',').map(Number);
  return v && v.length === 3 && v.every(Number.isFinite) ? new THREE.Vector3(...v) : null;
};

const canvas = document.getElementById('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(canvas.clientWidth, canvas.clientHeight, false);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xa8bdd6);
scene.fog = new THREE.Fog(0xa8bdd6, 2000, 8000);
scene.add(new THREE.HemisphereLight(0xdfe9f5, 0x5a4a3a, 1.6));
const sun = new THREE.DirectionalLight(0xfff4e0, 2.2);
sun.position.set(0.4, 1.0, 0.3);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(60, canvas.clientWidth / canvas.clientHeight, 1, 20000);

// The tileset's root transform puts the region's centre at the origin; bake.json beside it
// says where that is, so that eye and target can be given in the world's own metres.
const bake = await (await fetch(new URL('bake.json', new URL(url, location.href)))).json();
const centre = new THREE.Vector3((bake.from_m[0] + bake.to_m[0]) / 2, 0, (bake.from_m[1] + bake.to_m[1]) / 2);
const size = bake.to_m[0] - bake.from_m[0];
const eye = vec('eye') ?? new THREE.Vector3(bake.from_m[0], 0.4 * size, bake.to_m[1] + 0.2 * size);
const target = vec('target') ?? centre.clone();
camera.position.copy(eye.sub(centre));
camera.lookAt(target.sub(centre));

const tiles = new TilesRenderer(url);
// Tiles of `isoterra bake --compress` are quantized and meshopt-compressed.
tiles.registerPlugin(new GLTFExtensionsPlugin({ meshoptDecoder: MeshoptDecoder }));
tiles.errorTarget = Number(params.get('error') ?? 16);
// The tileset is Z up (3D Tiles); three is Y up.
tiles.group.rotation.x = -Math.PI / 2;
tiles.setCamera(camera);
tiles.setResolutionFromRenderer(camera, renderer);
scene.add(tiles.group);
let failed = 0;
tiles.addEventListener('load-error', () => { failed++; });

let frames = 0, quiet = 0;
function frame() {
  camera.updateMatrixWorld();
  tiles.update();
  renderer.render(scene, camera);
  frames++;
  // Settled: nothing queued, downloading or parsing for a few frames in a row.
  const s = tiles.stats;
  quiet = tiles.root && s.queued + s.downloading + s.parsing === 0 && !tiles.isLoading && frames > 2 ? quiet + 1 : 0;
  info.textContent = `${tiles.visibleTiles.size} tiles shown, ${s.loaded} loaded, ${s.downloading + s.queued} loading`;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// The level of a tile from its content's path (content/LEVEL/X/Z.glb).
const levelOf = (tile) => Number(/content\/(\d+)\//.exec(tile.content?.uri ?? '')?.[1] ?? -1);
window.tilesView = {
  settled: () => quiet >= 10,
  stats: () => {
    const shown = [...tiles.visibleTiles];
    const levels = {};
    for (const t of shown) levels[levelOf(t)] = (levels[levelOf(t)] ?? 0) + 1;
    let triangles = 0;
    tiles.group.traverse((o) => { if (o.isMesh && o.visible && o.geometry.index) triangles += o.geometry.index.count / 3; });
    return { shown: shown.length, levels, loaded: tiles.stats.loaded, failed, triangles };
  },
};
