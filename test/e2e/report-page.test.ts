/**
 * The `campaign report --html` page as people see it: opened in headless Chromium at a
 * phone's width (390 px), a laptop's (1280) and a wide screen's (1920), in the light and the
 * dark scheme. Measured in the page: no label or cell overflows its box; axe-core finds no
 * serious or critical violation; the page asks for nothing but itself (and, with
 * --recordings, the recording links); the funnel and the charts hold the campaign's numbers;
 * the table sorts, filters, and opens a transcript from the keyboard.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { allCalls as allCallsOf, type Client } from '../helpers/given.js';
import { finishedCampaigns } from '../helpers/finished-campaign.js';
import { needs, which } from '../helpers/requires.js';
import { requestedTime } from '../../src/reports/requested-time.js';
import { clockWithZone, formatDateTime } from '../../src/util/time.js';

// The page's globals, in functions that run in the browser (the tests' types have no DOM).
declare const document: any, window: any, getComputedStyle: any;
type HTMLElement = any;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let h: Harness;
const ids: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'voicectl-report-page-'));
const LONG = 'Shri Venkataraghavan Subramaniam Iyer-Ramakrishnan of Thiruvananthapuram';

let api: Client;

async function allCalls(id: string): Promise<any[]> {
  return allCallsOf(api, `campaign_id=${id}`);
}

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 24 });
  const world = await finishedCampaigns(h.sandbox, [
    { name: 'Diwali offer north', contacts: 50, first: 1000, prefix: '9197', name_of: (i) => (i === 0 ? LONG : `Contact ${1000 + i}`) },
    { name: 'Diwali offer south', contacts: 25, first: 5000, prefix: '9197', name_of: (i) => (i === 0 ? LONG : `Contact ${5000 + i}`) },
  ], { recordings: true });
  api = world.api;
  ids.push(...world.campaigns.map((c) => c.id));
}, 90_000);
afterAll(async () => h?.close());

async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: which('chromium'),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Every box in the page whose content is wider than the box, and whether the page scrolls sideways. */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const sel = 'h1,h2,h3,p,th,td,label,button,select,figcaption,.bl,.bv,.badge,.kpis div,.legend li,.turn';
    for (const el of Array.from(document.querySelectorAll(sel)) as HTMLElement[]) {
      if (el.offsetParent === null) continue; // not shown
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth} "${(el.textContent ?? '').slice(0, 40)}"`);
      const fs = parseFloat(getComputedStyle(el).fontSize);
      if (fs < 12) out.push(`${el.tagName.toLowerCase()}.${el.className}: font ${fs}px`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth) out.push(`page: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
    return out;
  });
}

async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: any) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')).join(', ')}`);
  });
}

describe('the campaign report page', () => {
  it('at 390, 1280 and 1920 px, light and dark: nothing overflows, no serious accessibility violation, no request', async (ctx) => {
    needs(ctx, 'chromium');
    const file = join(dir, 'report.html');
    const r = await h.run(['campaign', 'report', ...ids, '--html', file, '--tz', 'Asia/Kolkata']);
    expect(r.exitCode).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('Times are in Asia/Kolkata');
    const browser = await launch();
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [390, 1280, 1920]) {
          const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
          const requests: string[] = [];
          const errors: string[] = [];
          page.on('request', (q) => requests.push(q.url()));
          page.on('pageerror', (e) => errors.push(String(e)));
          await page.goto(pathToFileURL(file).href);
          // A transcript open, so its turns are measured too.
          await page.locator('section.campaign').first().locator('tr.call[data-status="completed"] button.open').first().click();
          expect(await overflows(page), `${width} px, ${colorScheme}`).toEqual([]);
          expect(await axe(page), `${width} px, ${colorScheme}`).toEqual([]);
          expect(errors).toEqual([]);
          expect(requests).toEqual([pathToFileURL(file).href]);
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('the funnel, the classes and the outcome bars hold the campaign\'s numbers; a legend names each class', async (ctx) => {
    needs(ctx, 'chromium');
    const file = join(dir, 'numbers.html');
    expect((await h.run(['campaign', 'report', ...ids, '--html', file])).exitCode).toBe(0);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href);
      expect(await page.locator('.legend li').allTextContents()).toEqual([
        expect.stringMatching(/^Success/), expect.stringMatching(/^Neutral/), expect.stringMatching(/^Failure/), expect.stringMatching(/^No contact/)]);
      for (const [n, id] of ids.entries()) {
        const calls = await allCalls(id);
        const section = page.locator(`section[data-campaign="${id}"]`);
        const bars = async (chart: string) => Object.fromEntries(await section.locator(`[data-chart="${chart}"] [data-value]`).evaluateAll(
          (els) => els.map((e) => [e.getAttribute('data-label'), Number(e.getAttribute('data-value'))])));
        const phones = (list: any[]) => new Set(list.map((c) => c.phone_number)).size;
        const finished = calls.filter((c) => c.end_time);
        const connected = finished.filter((c) => c.status === 'completed');
        const success = connected.filter((c) => ['requirements_gathered', 'information_provided'].includes(c.outcome));
        expect(await bars('funnel')).toEqual({ contacts: n === 0 ? 50 : 25, dialed: phones(calls), connected: phones(connected), 'of interest': phones(success) });
        const by = (f: (c: any) => boolean) => finished.filter(f).length;
        expect(await bars('classes')).toEqual({
          Success: success.length,
          Neutral: by((c) => c.status === 'completed' && ['callback_scheduled', 'message_taken'].includes(c.outcome)),
          Failure: by((c) => c.status === 'completed' && ['not_interested', 'wrong_number', 'do_not_call'].includes(c.outcome)),
          'No contact': by((c) => c.status !== 'completed'),
        });
        const outcomes: Record<string, number> = {};
        for (const c of finished) outcomes[c.outcome || c.status] = (outcomes[c.outcome || c.status] ?? 0) + 1;
        expect(await bars('outcomes')).toEqual(outcomes);
        // Every bar of an outcome has its class's colour, as does its badge in the table.
        const colours = await section.locator('[data-chart="outcomes"] [data-class]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-class'), (globalThis as any).getComputedStyle(e.querySelector('.bf')!).backgroundColor]));
        const byClass = new Map<string, Set<string>>();
        for (const [cls, colour] of colours) byClass.set(cls!, (byClass.get(cls!) ?? new Set()).add(colour));
        for (const set of byClass.values()) expect(set.size).toBe(1);
        expect(new Set([...byClass.values()].map((s) => [...s][0])).size).toBe(byClass.size);
        // The callbacks section lists each callback.
        expect(await section.locator('table.callbacks tbody tr').count()).toBe(by((c) => c.outcome === 'callback_scheduled'));
        // Each with the time asked for, read from its summary in India's zone from the end of the
        // call, shown in the reader's zone (UTC here), named, with the contact's clock beside it.
        for (const c of finished.filter((x) => x.outcome === 'callback_scheduled')) {
          const r = requestedTime(c.summary, Date.parse(c.end_time), 'Asia/Kolkata');
          const shown = await section.locator(`table.callbacks tr[data-call="${c.call_id}"] td`).first().textContent();
          expect(shown).toBe(r.at === undefined ? '' : `${formatDateTime(r.at, 'UTC', { minutes: true })} UTC (${clockWithZone(r.at, 'Asia/Kolkata')} for them)${r.kind === 'day' ? ', day only' : ''}`);
        }
      }
      // Side by side: one column per campaign.
      expect(await page.locator('table.compare thead th').count()).toBe(2);
      // Printed: the controls stay off the paper, the figures and the calls are on it.
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.controls').first().isVisible()).toBe(false);
      expect(await page.locator('table.calls').first().isVisible()).toBe(true);
      expect(await page.locator('[data-chart="funnel"]').first().isVisible()).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('the calls table sorts by a column, filters by outcome class and status, and opens a transcript from the keyboard', async (ctx) => {
    needs(ctx, 'chromium');
    const file = join(dir, 'table.html');
    expect((await h.run(['campaign', 'report', ids[0]!, '--html', file])).exitCode).toBe(0);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href);
      const s = page.locator('section.campaign');
      const column = (i: number) => s.locator('table.calls tbody tr.call:not([hidden])').evaluateAll((rows, i) => rows.map((r) => (r as any).cells[i]!.textContent!), i);
      await s.locator('th button.sort', { hasText: 'phone' }).click();
      const phones = await column(1);
      expect(phones).toEqual([...phones].sort());
      expect(await s.locator('table.calls th', { hasText: 'phone' }).getAttribute('aria-sort')).toBe('ascending');
      await s.locator('th button.sort', { hasText: 'phone' }).click();
      expect(await column(1)).toEqual([...phones].sort().reverse());
      await s.locator('th button.sort', { hasText: 'duration' }).click();
      const durations = await s.locator('table.calls tbody tr.call td.n').evaluateAll((tds) => tds.map((td) => Number((td as any).dataset.v || -1)));
      expect(durations).toEqual([...durations].sort((a, b) => a - b));
      // Each transcript row still follows its call.
      expect(await s.locator('table.calls tbody > tr.transcript').evaluateAll((rows) => rows.every((r) =>
        r.id === r.previousElementSibling.querySelector('button.open')?.getAttribute('aria-controls')))).toBe(true);
      expect(await s.locator('table.calls tbody > tr.transcript').count()).toBe(await s.locator('table.calls button.open').count());

      await s.locator('select.f-outcome').selectOption('class:no_contact');
      const statuses = await column(3);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((st) => st !== 'completed')).toBe(true);
      await s.locator('select.f-outcome').selectOption('');
      await s.locator('select.f-status').selectOption('completed');
      expect((await column(3)).every((st) => st === 'completed')).toBe(true);
      expect(await s.locator('.count').textContent()).toMatch(/^\d+ of 50 calls$/);

      const button = s.locator('tr.call:not([hidden]) button.open').first();
      await button.focus();
      await page.keyboard.press('Enter');
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      const transcript = page.locator(`#${await button.getAttribute('aria-controls')}`);
      expect(await transcript.isVisible()).toBe(true);
      const agent = transcript.locator('.turn.agent').first();
      const user = transcript.locator('.turn.user').first();
      expect(await agent.locator('b').textContent()).toBe('Agent');
      expect(await user.locator('b').textContent()).toBe('Customer');
      const look = (l: typeof agent) => l.evaluate((e) => [(globalThis as any).getComputedStyle(e).backgroundColor, (globalThis as any).getComputedStyle(e).alignSelf]);
      expect(await look(agent)).not.toEqual(await look(user));
      await page.keyboard.press('Enter');
      expect(await transcript.isVisible()).toBe(false);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('--recordings: an audio player per recorded call with the link fetched now, a note that links expire, and no other request', async (ctx) => {
    needs(ctx, 'chromium');
    const file = join(dir, 'recordings.html');
    const r = await h.run(['campaign', 'report', ids[1]!, '--html', file, '--recordings', '--no-transcripts']);
    expect(r.exitCode).toBe(0);
    const recorded = (await allCalls(ids[1]!)).filter((c) => c.has_recording);
    expect(recorded.length).toBeGreaterThan(0);
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (q) => requests.push(q.url()));
      await page.goto(pathToFileURL(file).href);
      expect(await page.getByText('expire after an hour').count()).toBe(1);
      const players = await page.locator('audio').evaluateAll((as) => as.map((a) => a.getAttribute('src')!));
      expect(players).toHaveLength(recorded.length);
      for (const src of players) expect(src.startsWith(h.sandbox.url)).toBe(true);
      // The player loads its recording only when played; whatever it asks for is a recording link.
      await page.locator('tr.call button.open').first().click();
      const asked = page.waitForRequest((q) => q.url() !== pathToFileURL(file).href, { timeout: 5000 }).catch(() => undefined);
      await page.locator('audio').first().evaluate((a: any) => a.play().catch(() => {}));
      await asked;
      const others = requests.filter((u) => u !== pathToFileURL(file).href);
      for (const u of others) expect(players.some((p) => u.startsWith(p.split('?')[0]!))).toBe(true);
    } finally {
      await browser.close();
    }
    const plain = await h.run(['campaign', 'report', ids[1]!, '--recordings']);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain('--html');
  }, 60_000);
});
