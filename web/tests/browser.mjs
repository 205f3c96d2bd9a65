// What the page's tests share: the built page served on 127.0.0.1 (../serve.mjs), headless
// Chromium from Debian driven by playwright-core, and a record of every request the page
// makes off 127.0.0.1 and every error it logs, which the tests require to be empty.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
export { serve } from '../serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/// The built page (scripts/web.sh --build-only makes it).
export function builtPage() {
  const dir = path.join(root, 'build', 'web');
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${dir}: no built page; run bash scripts/web.sh --build-only`);
  return dir;
}

/// The native program the page is compared with ($ISOTERRA, else build/isoterra).
export const isoterra = () => process.env.ISOTERRA ?? path.join(root, 'build', 'isoterra');

/// A folder for what a test leaves to look at (screenshots, world files).
export function outputDir() {
  const dir = process.env.ISOTERRA_WEB_OUT ?? path.join(root, 'build', 'web-tests');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/// Starts Chromium with a fresh profile. `problems` collects off-host requests and console
/// errors of every page it opens.
export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'isoterra-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 960, height: 600 },
    args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-default-apps', '--disable-extensions'],
  });
  const problems = [];
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (!['blob:', 'data:'].includes(u.protocol) && u.hostname !== '127.0.0.1') problems.push(`request off 127.0.0.1: ${r.url()}`);
  });
  const watch = (page) => {
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  };
  context.on('page', watch);
  for (const p of context.pages()) watch(p);
  return {
    context,
    problems,
    close: async () => { await context.close(); fs.rmSync(profile, { recursive: true, force: true }); },
  };
}

/// Opens the page at `query` and waits until the isoterra interface is ready and, unless
/// `settle` is false, every chunk in view is shown.
export async function openPage(context, base, query, { settle = true, timeoutMs = 120000 } = {}) {
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(`${base}${query}`);
  await page.waitForFunction(() => window.isoterra && window.isoterra.stats, null, { timeout: 60000 });
  await page.evaluate(() => window.isoterra.ready);
  if (settle) await page.waitForFunction(() => window.isoterra.settled(), null, { timeout: timeoutMs, polling: 100 });
  return page;
}

/// The canvas as drawn by a frame finished after the call: { width, height, data } (RGBA).
export async function pixels(page) {
  await page.evaluate(() => window.isoterra.frame());
  return canvasPixels(page);
}

/// The page's canvas `#view` as it is: { width, height, data } (RGBA). The bytes cross as
/// base64, where an array of numbers took seconds to cross.
export async function canvasPixels(page) {
  const { width, height, base64 } = await page.evaluate(() => {
    const c = document.getElementById('view');
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d');
    g.drawImage(c, 0, 0);
    const bytes = g.getImageData(0, 0, c.width, c.height).data;
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, base64: btoa(text) };
  });
  return { width, height, data: new Uint8Array(Buffer.from(base64, 'base64')) };
}

/// The mean absolute difference per channel between two pictures within a box.
export function difference(a, b, x0 = 0, y0 = 0, x1 = a.width, y1 = a.height) {
  let sum = 0, n = 0;
  for (let y = y0; y < y1; ++y)
    for (let x = x0; x < x1; ++x)
      for (let c = 0; c < 3; ++c) {
        const i = 4 * (y * a.width + x) + c;
        sum += Math.abs(a.data[i] - b.data[i]);
        n++;
      }
  return sum / n;
}

/// Waits until edits are saved, every chunk is rebuilt and shown, and a frame is drawn.
export async function settleAgain(page) {
  await page.evaluate(() => window.isoterra.idle());
  await page.waitForFunction(() => window.isoterra.settled(), null, { timeout: 120000, polling: 100 });
}
