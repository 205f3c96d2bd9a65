// Editing in the page: a click carves a hole where it was made, undo puts the picture back,
// a reload keeps the edit, the exported world file is one `isoterra history` reads, and a
// world file made by `isoterra edit` opens in the page with its edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, builtPage, isoterra, outputDir, pixels, difference, settleAgain } from './browser.mjs';

const kSeed = 20261114;

// The first ground below (x, top, z) in the page's field.
async function groundBelow(page, x, z) {
  return page.evaluate(([x, z]) => {
    for (let y = 300; y > -200; y -= 0.25) if (window.isoterra.sample(x, y, z) <= 0) return y;
    return null;
  }, [x, z]);
}

const sampleNative = (world, p) =>
  Number(execFileSync(isoterra(), ['sample', '--world', world], { input: `${p.join(' ')}\n` }).toString().trim());

// Export: the file isoterra reads, with the same edit and the same field. Returns the edit's centre.
async function exportIsWhatIsoterraReads(page, out, history) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const exported = path.join(out, 'exported.db');
  await download.saveAs(exported);
  const listed = execFileSync(isoterra(), ['history', '--world', exported]).toString();
  assert.match(listed, /sphere carve at .* radius 6 m/);
  const centre = history.ops[0].match(/at (\S+),(\S+),(\S+) /).slice(1, 4).map(Number);
  const probe = [centre[0] + 1.25, centre[1] - 0.5, centre[2] + 0.75];
  const inPage = await page.evaluate((p) => window.isoterra.sample(...p), probe);
  assert.ok(Object.is(inPage, sampleNative(exported, probe)), 'the exported world samples as the page does');
  return centre;
}

// Import: a world file made by isoterra edit (a sphere added at `at`) shows its edit in the page.
async function importShowsTheEdit(page, out, at) {
  const made = path.join(out, 'made.db');
  fs.rmSync(made, { force: true });
  execFileSync(isoterra(), ['edit', '--world', made, '--preset', 'tutorial', '--seed', String(kSeed),
    'sphere', '--at', at.join(','), '--radius', '5', '--mode', 'add']);
  await page.setInputFiles('#open-file', made);
  // Opening a file is asynchronous (the file is read, then the world restarts): wait for the
  // imported history before waiting for the picture, or the old world may still answer.
  await page.waitForFunction(() => {
    try { return window.isoterra.history().ops[0]?.startsWith('sphere add'); } catch { return false; }
  }, null, { timeout: 120000, polling: 100 });
  await settleAgain(page);
  const imported = await page.evaluate(() => window.isoterra.history());
  assert.equal(imported.ops.length, 1);
  assert.match(imported.ops[0], /^sphere add at .* radius 5 m$/);
  const probe2 = [at[0] + 0.5, at[1] + 2.25, at[2] - 0.75];
  assert.ok(Object.is(await page.evaluate((p) => window.isoterra.sample(...p), probe2), sampleNative(made, probe2)),
    'the imported world samples as isoterra does');
}

test('click, undo, redo, reload, export and import', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  const out = outputDir();
  try {
    // Find the ground in front of the eye first, then look down at it.
    let page = await openPage(browser.context, server.url, `?preset=tutorial&seed=${kSeed}&view=64`, { settle: false });
    const ground = await groundBelow(page, 0, -20);
    assert.ok(ground !== null, 'ground below (0, -20)');
    const query = `?preset=tutorial&seed=${kSeed}&view=96&eye=0,${ground + 22},6&target=0,${ground},-20`;
    page = await openPage(browser.context, server.url, query);
    const before = await pixels(page);
    const box = await page.locator('#view').boundingBox();
    const cx = Math.round(box.width * 0.6), cy = Math.round(box.height * 0.6);  // clear of the panel

    // Carve with a left click of radius 6 m.
    await page.fill('#radius', '6');
    await page.mouse.click(box.x + cx, box.y + cy);
    await settleAgain(page);
    const history = await page.evaluate(() => window.isoterra.history());
    assert.equal(history.ops.length, 1);
    assert.equal(history.applied, 1);
    assert.match(history.ops[0], /^sphere carve at .* radius 6 m$/);
    const carved = await pixels(page);
    const near = (a, b) => difference(a, b, cx - 40, cy - 40, cx + 40, cy + 40);
    const far = (a, b) => difference(a, b, 0, Math.round(box.height * 0.9), 200, Math.round(box.height));
    assert.ok(near(before, carved) > 8, `the picture changed by ${near(before, carved).toFixed(2)} where clicked`);
    assert.ok(far(before, carved) < 1, `and by ${far(before, carved).toFixed(2)} far from it`);

    // Ctrl+Z takes it back, Ctrl+Y does it again.
    await page.locator('#view').focus();
    await page.keyboard.press('Control+z');
    await settleAgain(page);
    assert.equal((await page.evaluate(() => window.isoterra.history())).applied, 0);
    const undone = await pixels(page);
    assert.ok(difference(before, undone) < 0.5, `after undo the picture differs by ${difference(before, undone).toFixed(3)}`);
    await page.keyboard.press('Control+y');
    await settleAgain(page);
    assert.equal((await page.evaluate(() => window.isoterra.history())).applied, 1);

    // A reload keeps the edit (the browser kept the world file).
    await page.reload();
    await page.waitForFunction(() => window.isoterra && window.isoterra.stats, null, { timeout: 60000 });
    await page.evaluate(() => window.isoterra.ready);
    await settleAgain(page);
    assert.deepEqual(await page.evaluate(() => window.isoterra.history()), history);
    const reloaded = await pixels(page);
    assert.ok(difference(carved, reloaded) < 0.5, `after the reload the picture differs by ${difference(carved, reloaded).toFixed(3)}`);

    const centre = await exportIsWhatIsoterraReads(page, out, history);
    await importShowsTheEdit(page, out, [centre[0] + 20, ground, centre[2] - 10]);
    assert.equal(await page.evaluate(() => document.getElementById('error').hidden), true);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
