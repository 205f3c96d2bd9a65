// A static server for the built page (build/web) on 127.0.0.1 only: node's own http, no
// dependency. `node web/serve.mjs [--port N] [--root DIR]`; `--tileset DIR` serves a bake
// (isoterra bake) with its viewer (web/tiles/) instead; tests import serve().
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const kTypes = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png' };

/// Serves `root` on 127.0.0.1 at `port` (0: any free one), and each folder of `mounts`
/// ({ '/prefix/': folder }) under its prefix; resolves to { url, close }.
export function serve(root, port = 0, mounts = {}) {
  const server = http.createServer((req, res) => {
    let file, top = path.resolve(root);
    try {
      let name = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
      const prefix = Object.keys(mounts).find((p) => name.startsWith(p));
      if (prefix) {
        top = path.resolve(mounts[prefix]);
        name = name.slice(prefix.length - 1);
      }
      file = path.resolve(path.join(top, name));
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (file !== top && !file.startsWith(top + path.sep)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': kTypes[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' })
        .end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}/`,
      close: () => new Promise((r) => server.close(r)),
    }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const value = (flag, fallback) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : fallback);
  const port = Number(value('--port', '8080'));
  const here = path.dirname(fileURLToPath(import.meta.url));
  const root = value('--root', path.join(here, '..', 'build', 'web'));
  const tileset = value('--tileset', null);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port ${value('--port')} must be a port number`);
    process.exit(2);
  }
  if (tileset !== null) {
    if (!fs.existsSync(path.join(tileset, 'tileset.json')) || !fs.existsSync(path.join(tileset, 'bake.json'))) {
      console.error(`serve: --tileset ${tileset} holds no bake (tileset.json and bake.json); make one with isoterra bake`);
      process.exit(2);
    }
    if (!fs.existsSync(path.join(here, 'node_modules', '3d-tiles-renderer'))) {
      console.error('serve: web/node_modules lacks 3d-tiles-renderer; run (cd web && npm ci --ignore-scripts)');
      process.exit(2);
    }
    serve(here, port, { '/viewer/': path.join(here, 'tiles'), '/tileset/': tileset }).then(
      ({ url }) => console.log(`isoterra: the tileset is at ${url}viewer/ (three.js + 3d-tiles-renderer; Ctrl+C stops)`), (e) => {
        console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.message}`);
        process.exit(1);
      });
  } else if (!fs.existsSync(path.join(root, 'index.html'))) {
    console.error(`serve: ${root} holds no built page; run bash scripts/web.sh`);
    process.exit(2);
  } else {
    serve(root, port).then(({ url }) => console.log(`isoterra: the page is at ${url} (Ctrl+C stops)`), (e) => {
      console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.message}`);
      process.exit(1);
    });
  }
}
