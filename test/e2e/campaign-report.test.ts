/**
 * `campaign report` end to end: a campaign run to completion in the sandbox, reported in
 * each format; the markdown rendered by a markdown parser, and the HTML page opened in a
 * real headless Chromium (Debian's, driven by playwright-core).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/cli.js';
import { ok } from '../helpers/given.js';
import { needs, which } from '../helpers/requires.js';

let h: Harness;
const ids: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'voicectl-report-'));
const HOSTILE = '<script>window.__pwned = 1</script>Asha | "Q"';

const api = (method: string, path: string, body?: unknown) => ok(h.api, method, path, body);

async function allCalls(id: string): Promise<any[]> {
  const out: any[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api('GET', `/calls?campaign_id=${id}&limit=200&offset=${offset}`);
    out.push(...page.calls);
    if (offset + 200 >= page.total) return out;
  }
}

beforeAll(async () => {
  h = await harness({ timeScale: 600, seed: 21 });
  const agent = await api('POST', '/agents', { name: 'Report desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: [] });
  for (const [name, n, first] of [['Renewals week 1', 60, 1000], ['Renewals week 2', 30, 5000]] as const) {
    const c = await api('POST', '/campaigns/json', {
      name, agent_id: agent.id,
      contacts: Array.from({ length: n }, (_, i) => ({ phone_number: `+9198${String(first + i).padStart(8, '0')}`, name: i === 0 ? HOSTILE : `Contact ${first + i}` })),
    });
    await api('POST', `/campaigns/${c.id}/launch`);
    ids.push(c.id);
  }
  const end = Date.now() + 60_000;
  for (const id of ids) {
    while ((await api('GET', `/campaigns/${id}`)).status !== 'completed') {
      if (Date.now() > end) throw new Error('the campaigns did not complete');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}, 90_000);
afterAll(async () => h.close());

/** The figures, worked out here from GET /calls. */
async function expected(id: string) {
  const calls = await allCalls(id);
  const finished = calls.filter((c) => c.end_time);
  const connected = finished.filter((c) => c.status === 'completed');
  const outcomes: Record<string, number> = {};
  for (const c of finished) outcomes[c.outcome || c.status] = (outcomes[c.outcome || c.status] ?? 0) + 1;
  const avg = connected.reduce((a, c) => a + c.duration_seconds, 0) / connected.length;
  return { calls, finished: finished.length, connected: connected.length, outcomes, avg };
}

describe('voicectl campaign report', () => {
  it('--json: every figure matches the campaign\'s calls', async () => {
    const r = await h.run(['campaign', 'report', ids[0]!, '--json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const [report] = JSON.parse(r.stdout).campaigns;
    const e = await expected(ids[0]!);
    expect(report.contacts).toBe(60);
    expect(report.finished_calls).toBe(e.finished);
    expect(report.connected).toBe(e.connected);
    expect(report.connect_rate).toBeCloseTo(e.connected / e.finished, 10);
    expect(report.outcomes).toEqual(e.outcomes);
    expect(report.duration.average_seconds).toBeCloseTo(e.avg, 6);
    expect(report.duration.histogram.reduce((a: number, b: { calls: number }) => a + b.calls, 0)).toBe(e.connected);
    expect(report.calls_per_hour.reduce((a: number, b: { calls: number }) => a + b.calls, 0)).toBe(e.finished);
    expect(report.call_list).toHaveLength(e.calls.length);
  });

  it('--format md renders in a markdown parser as tables with the same numbers', async () => {
    const r = await h.run(['campaign', 'report', ids[0]!, '--format', 'md']);
    expect(r.exitCode).toBe(0);
    const html = await marked.parse(r.stdout);
    expect((html.match(/<table>/g) ?? []).length).toBeGreaterThanOrEqual(5);
    const e = await expected(ids[0]!);
    for (const [outcome, n] of Object.entries(e.outcomes)) expect(html).toMatch(new RegExp(`<td>${outcome}</td>\\s*<td>${n}</td>`));
    // A pipe in a name does not break its table row; markup in it is text.
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('at a terminal-less default, a readable summary', async () => {
    const r = await h.run(['campaign', 'report', ids[0]!]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('connect rate');
    expect(r.stdout).toContain('outcomes');
  });

  it('--name-prefix puts campaigns side by side', async () => {
    const r = await h.run(['campaign', 'report', '--name-prefix', 'Renewals week', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).campaigns.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    const none = await h.run(['campaign', 'report', '--name-prefix', 'Nothing like this']);
    expect(none.exitCode).toBe(2);
  });

  it('--html: one page that opens in Chromium with no network and no errors; charts, search and transcripts work', async (ctx) => {
    needs(ctx, 'chromium');
    const file = join(dir, 'report.html');
    const r = await h.run(['campaign', 'report', ...ids, '--html', file]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toMatch(/https?:\/\//);
    const json = JSON.parse((await h.run(['campaign', 'report', ...ids, '--json'])).stdout).campaigns;

    const browser = await chromium.launch({
      executablePath: which('chromium'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      let dialogs = 0;
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('request', (q) => requests.push(q.url()));
      page.on('dialog', (d) => { dialogs++; void d.dismiss(); });
      await page.goto(pathToFileURL(file).href);
      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(dialogs).toBe(0);
      expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

      // The charts' numbers are the campaign's.
      const section = page.locator(`section[data-campaign="${ids[0]}"]`);
      const bars = async (chart: string) => Object.fromEntries(await section.locator(`[data-chart="${chart}"] [data-value]`).evaluateAll(
        (rects) => rects.map((r) => [r.getAttribute('data-label'), Number(r.getAttribute('data-value'))])));
      expect(await bars('outcomes')).toEqual(json[0].outcomes);
      expect(await bars('durations')).toEqual(Object.fromEntries(json[0].duration.histogram.map((b: { bucket: string; calls: number }) => [b.bucket, b.calls])));
      const overTime = await bars('calls-over-time');
      expect((Object.values(overTime) as number[]).reduce((a, b) => a + b, 0)).toBe(json[0].finished_calls);
      expect(await section.locator('[data-kpi="connected"]').textContent()).toBe(String(json[0].connected));

      // The hostile name is text.
      await expect.poll(() => section.locator('tr.call', { hasText: '<script>' }).count()).toBe(1);

      // Search narrows the rows; a click shows the transcript.
      const visible = () => section.locator('tr.call:not([hidden])').count();
      expect(await visible()).toBe(60);
      const completed = json[0].call_list.find((c: { status: string }) => c.status === 'completed');
      await section.locator('input.search').fill(completed.phone_number);
      expect(await visible()).toBe(1);
      const row = section.locator(`tr.call[data-call="${completed.call_id}"]`);
      await row.click();
      const transcript = row.locator('xpath=following-sibling::tr[1]');
      expect(await transcript.isVisible()).toBe(true);
      expect(await transcript.locator('.turn').count()).toBeGreaterThan(0);
      await section.locator('input.search').fill('');
      expect(await visible()).toBe(60);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
