/**
 * `watch ID --serve`: the live report page on 127.0.0.1 under a token. Opened in headless
 * Chromium before the campaign is launched, it shows a call within 2 seconds of the
 * service having it finished; any address without the token is 404; Ctrl-C stops it.
 */
import { execa } from 'execa';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, harness, type Harness } from '../helpers/cli.js';
import { needs, which } from '../helpers/requires.js';
import { clientFor } from '../helpers/given.js';

let h: Harness;

/** The sandbox's JSON answer through the factory's client; a refusal fails the test. */
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await clientFor(h.sandbox)(method, path, body);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  h = await harness({ timeScale: 60, seed: 5 });
});
afterAll(async () => h?.close());

describe('voicectl watch --serve', () => {
  it('serves the live page under a token, shows a finished call within 2 s, 404 without the token, stops on Ctrl-C', async (ctx) => {
    needs(ctx, 'chromium');
    const agent = await api('POST', '/agents', { name: 'Live desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'x', prompt: 'x', tools: [] });
    const campaign = await api('POST', '/campaigns/json', {
      name: 'Live', agent_id: agent.id,
      contacts: Array.from({ length: 4 }, (_, i) => ({ phone_number: `+9195${String(7000 + i).padStart(8, '0')}`, name: `Live ${i}` })),
    });
    const child = execa(process.execPath, [BIN, 'watch', campaign.id, '--serve'], { env: h.env, extendEnv: false, reject: false });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /^(http:\/\/127\.0\.0\.1:\d+\/[\w-]{20,}\/)$/m.exec(out);
          if (m) resolve(m[1]!);
        });
        void child.then((r) => reject(new Error(`watch --serve exited ${r.exitCode}: ${r.stderr}`)));
      });
      const { origin, pathname } = new URL(url);
      expect((await fetch(`${origin}/`)).status).toBe(404);
      expect((await fetch(`${origin}/events`)).status).toBe(404);
      expect((await fetch(`${origin}/${'x'.repeat(32)}/`)).status).toBe(404);
      expect((await fetch(`${origin}${pathname}`)).status).toBe(200);

      const browser = await chromium.launch({
        executablePath: which('chromium'),
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(url);
        expect(await page.locator('tr.call').count()).toBe(0);
        await api('POST', `/campaigns/${campaign.id}/launch`);
        let finished: any;
        while (!finished) {
          finished = (await api('GET', `/calls?campaign_id=${campaign.id}`)).calls.find((c: any) => c.end_time);
          if (!finished) await new Promise((r) => setTimeout(r, 50));
        }
        await page.locator(`tr.call[data-call="${finished.call_id}"]`).waitFor({ timeout: 2000 });
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
