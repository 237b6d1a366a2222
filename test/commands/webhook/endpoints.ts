/** The sandbox every `webhook` verb's test runs against, and an endpoint made through the CLI. */
import { expect } from 'vitest';
import { sharedHarness } from '../../helpers/cli.js';

export function webhookHarness() {
  const h = sharedHarness({ allowLocalWebhooks: true });
  /** `webhook create --url URL --json` (loopback URLs with --allow-local): its id and secret. */
  async function endpoint(url = 'https://hooks.example.com/voice'): Promise<{ id: string; secret: string }> {
    const local = url.startsWith('http://127.0.0.1') ? ['--allow-local'] : [];
    const r = await h.run(['webhook', 'create', '--url', url, ...local, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { id: string; secret: string };
  }
  return { h, endpoint };
}
