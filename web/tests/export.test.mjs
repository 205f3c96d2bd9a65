// The page's glb export: what it shows, as `isoterra mesh --around` writes it for the same
// eye and settings, byte for byte, plain and compressed (the same meshoptimizer in the
// WebAssembly build as in the program); the button downloads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, builtPage, isoterra, outputDir } from './browser.mjs';

// A river in view, so the export holds the ground and the water.
const kSeed = 20261114;
const kEye = [-400, 80, -200];
const kView = 64;

// The glb's JSON chunk, checked against the container's own lengths.
function gltfJson(bytes) {
  const b = Buffer.from(bytes);
  assert.equal(b.toString('latin1', 0, 4), 'glTF');
  assert.equal(b.readUInt32LE(4), 2);
  assert.equal(b.readUInt32LE(8), b.length);
  const length = b.readUInt32LE(12);
  assert.equal(b.toString('latin1', 16, 20), 'JSON');
  return JSON.parse(b.toString('utf8', 20, 20 + length));
}

test('the page exports what it shows as the program writes it', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  const out = outputDir();
  try {
    const target = [kEye[0] + 100, 0, kEye[2] - 100];
    const page = await openPage(browser.context, server.url,
      `?preset=rivers&seed=${kSeed}&view=${kView}&eye=${kEye.join(',')}&target=${target.join(',')}`);
    for (const compress of [false, true]) {
      const fromPage = Buffer.from(await page.evaluate((c) => Array.from(window.isoterra.exportGlb({ compress: c })), compress));
      const file = path.join(out, compress ? 'native-meshopt.glb' : 'native.glb');
      execFileSync(isoterra(), ['mesh', '--preset', 'rivers', '--seed', String(kSeed), '--around', kEye.join(','),
        '--view-distance', String(kView), '--quiet', '-o', file, ...(compress ? ['--compress'] : [])]);
      const native = fs.readFileSync(file);
      fs.writeFileSync(file.replace('native', 'page'), fromPage);
      const json = gltfJson(fromPage);
      assert.deepEqual(json.meshes.map((m) => m.name), ['terrain', 'water'], 'the ground and the river');
      assert.equal(Boolean(json.extensionsRequired?.includes('EXT_meshopt_compression')), compress);
      assert.ok(fromPage.length > 50000, `${fromPage.length} bytes`);
      assert.ok(fromPage.equals(native), `compress=${compress}: the page's ${fromPage.length} bytes differ from the program's ${native.length}`);
    }

    // The button downloads the file the checkbox asks for.
    await page.check('#compress');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-glb')]);
    assert.equal(download.suggestedFilename(), `rivers-${kSeed}-meshopt.glb`);
    const saved = path.join(out, 'downloaded.glb');
    await download.saveAs(saved);
    assert.ok(fs.readFileSync(saved).equals(fs.readFileSync(path.join(out, 'native-meshopt.glb'))));
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    server.close();
  }
});
