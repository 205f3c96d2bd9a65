// The page's WebAssembly core loaded in node, without a browser (for tests and benchmarks).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const wasmDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'wasm');

/// A fresh instance of the core (scripts/web.sh --build-only makes it).
export async function loadCore() {
  // Emscripten 3.1.6's ES module looks for CommonJS names when it runs in node.
  globalThis.require = createRequire(import.meta.url);
  globalThis.__dirname = wasmDir;
  const { default: createModule } = await import(path.join(wasmDir, 'isoterra.mjs'));
  return createModule({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'isoterra.wasm')) });
}
