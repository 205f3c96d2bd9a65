// Bad input gets a visible one-line error and a working page, never a blank one: URL
// parameters, and dropped files that are no world file, no preset and no graph. A good
// graph file opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, openPage, builtPage, outputDir, settleAgain, isoterra } from './browser.mjs';

const errorLine = (page) => page.evaluate(() => {
  const e = document.getElementById('error');
  return e.hidden ? null : e.textContent;
});

test('bad URL parameters and files are reported in one line and change nothing', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  const out = outputDir();
  try {
    const page = await openPage(browser.context, server.url, '?preset=nowhere&seed=-3&view=abc&eye=1,2&mesher=x&zoom=2',
      { settle: false });
    const line = await errorLine(page);
    assert.ok(line, 'an error line is shown');
    assert.ok(!line.includes('\n'));
    for (const part of ['preset=nowhere', 'seed=-3', 'view=abc', 'eye=1,2', 'mesher=x', "'zoom'"]) assert.ok(line.includes(part), `${line}: names ${part}`);
    // The page still works: the default world, streamed and drawn.
    await page.waitForFunction(() => window.isoterra.stats().chunks > 0, null, { timeout: 60000 });
    assert.equal((await page.evaluate(() => window.isoterra.stats())).world, 'tutorial@20261114');

    const good = await openPage(browser.context, server.url, '?preset=tutorial&seed=5&view=64');
    assert.equal(await errorLine(good), null);
    await good.evaluate(() => window.isoterra.edit({ at: [0, 0, 0], radius: 3 }));
    const history = await good.evaluate(() => window.isoterra.history());
    const files = [
      ['broken.db', Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4000, 7)]), /^broken\.db: not an isoterra world file/],
      ['broken.toml', Buffer.from('[terrain]\nfrequency = "high"\n'), /broken\.toml:\d+/],
      ['graph.toml', Buffer.from('[node.a]\ntype = "nonsense"\n'), /graph\.toml/],
      ['picture.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), /picture\.png: neither a world file/],
    ];
    for (const [name, bytes, pattern] of files) {
      const file = path.join(out, name);
      fs.writeFileSync(file, bytes);
      await good.setInputFiles('#open-file', file);
      await good.waitForFunction(() => !document.getElementById('error').hidden, null, { timeout: 30000 });
      const message = await errorLine(good);
      console.log(`${name}: ${message}`);
      assert.match(message, pattern);
      assert.ok(!message.includes('\n') && message.length < 400, `one short line: ${message}`);
      // What was open stays open, with its edit.
      await settleAgain(good);
      assert.deepEqual(await good.evaluate(() => window.isoterra.history()), history, `after ${name}`);
      assert.equal((await good.evaluate(() => window.isoterra.stats())).world, 'tutorial@5');
      await good.evaluate(() => { document.getElementById('error').hidden = true; });
    }
    // A good graph file opens as a world of its own, with the seed in the panel.
    const graph = path.join(path.dirname(builtPage()), '..', 'presets', 'canyons.toml');
    await good.setInputFiles('#open-file', graph);
    await good.waitForFunction(() => window.isoterra.stats().world === 'canyons@5', null, { timeout: 30000 });
    assert.equal(await errorLine(good), null);
    assert.deepEqual(await good.evaluate(() => window.isoterra.history()), { ops: [], applied: 0 });
    const p = [12.5, 40.25, -7.75];
    const native = Number(execFileSync(isoterra(), ['sample', '--config', graph, '--seed', '5'], { input: `${p.join(' ')}\n` }).toString());
    assert.ok(Object.is(await good.evaluate((q) => window.isoterra.sample(...q), p), native));

    // A bad edit through the interface is refused the same way.
    await assert.rejects(good.evaluate(() => window.isoterra.edit({ at: [0, 0, 0], radius: 500 })), /radius 500/);
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

// The panel's fields (panel.js): a new seed opens that world, a mesher and a view distance
// restart the World with them; a value out of range is one line and changes nothing.
test('the panel opens a seed, takes a mesher and a view distance, and refuses bad values', async () => {
  const server = await serve(builtPage());
  const browser = await launch();
  const set = async (page, id, value) => {
    await page.evaluate(([i, v]) => {
      const e = document.getElementById(i);
      e.value = v;
      e.dispatchEvent(new Event('change'));
    }, [id, value]);
  };
  try {
    const page = await openPage(browser.context, server.url, '?preset=tutorial&seed=5&view=64');
    await set(page, 'seed', '7');
    await page.waitForFunction(() => window.isoterra.stats().world === 'tutorial@7', null, { timeout: 30000 });
    await settleAgain(page);
    await set(page, 'view-distance', '10');
    assert.equal(await errorLine(page), 'view distance 10 must be from 32 to 65536 m');
    await set(page, 'mesher', 'surface-nets');
    assert.equal(await errorLine(page), null);
    await set(page, 'view-distance', '96');
    await settleAgain(page);
    assert.equal(await errorLine(page), null);
    assert.ok((await page.evaluate(() => window.isoterra.stats())).chunks > 0);
    const exported = await page.evaluate(() => window.isoterra.exportGlb().length);
    assert.ok(exported > 1000, `the settled view exports (${exported} bytes)`);
    assert.equal((await page.evaluate(() => window.isoterra.stats())).world, 'tutorial@7');
    assert.deepEqual(browser.problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
