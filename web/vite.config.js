// The page bundled for serving from any static server: the WebAssembly module is an asset,
// Babylon.js is tree-shaken to the parts the page imports.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: { outDir: '../build/web', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4096 },
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
