// Refreshes the pictures of the campaign report page in docs/reports.md: a campaign run to
// the end in a sandbox on loopback (fixed seed), its page made by the built voicectl, and
// screenshots taken in headless Chromium at 1280 px, light and dark.
//
//   npm run build && node scripts/report-screenshots.js [chromium path]
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startSandbox } from '../dist/sandbox/index.js';

const BIN = fileURLToPath(new URL('../bin/voicectl.js', import.meta.url));
const OUT = fileURLToPath(new URL('../docs/img/', import.meta.url));
const executablePath = process.argv[2] ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => spawnSync(p, ['--version']).status === 0);

const sb = await startSandbox({ port: 0, timeScale: 600, seed: 24 });
const dir = mkdtempSync(join(tmpdir(), 'voicectl-screens-'));
const api = async (method, path, body) => {
  const res = await fetch(`${sb.url}${path}`, { method, headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  return res.json();
};
try {
  const agent = await api('POST', '/agents', { name: 'Renewals desk', voice_name: 'Priya', greeting: 'Namaste', call_purpose: 'renewals', prompt: 'x', tools: ['schedule_callback', 'take_message'] });
  const names = ['Asha Verma', 'Rohan Mehta', 'Priya Nair', 'Vikram Singh', 'Meera Iyer', 'Arjun Rao', 'Kavya Das', 'Farhan Ali'];
  const c = await api('POST', '/campaigns/json', {
    name: 'Renewals, November', agent_id: agent.id,
    contacts: Array.from({ length: 120 }, (_, i) => ({ phone_number: `+9198${String(20000 + i).padStart(8, '0')}`, name: `${names[i % names.length]} ${i + 1}` })),
  });
  await api('POST', `/campaigns/${c.id}/launch`);
  while ((await api('GET', `/campaigns/${c.id}`)).status !== 'completed') await new Promise((r) => setTimeout(r, 200));
  const file = join(dir, 'report.html');
  const env = { ...process.env, VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey, VOICECTL_CONFIG_DIR: dir, VOICECTL_TZ: 'Asia/Kolkata' };
  // Not spawnSync: the sandbox answers from this process.
  await promisify(execFile)(process.execPath, [BIN, 'campaign', 'report', c.id, '--html', file], { env });
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    for (const colorScheme of ['light', 'dark']) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1800 }, colorScheme });
      await page.goto(pathToFileURL(file).href);
      await page.screenshot({ path: join(OUT, `report-${colorScheme}.png`) });
      console.log(`wrote docs/img/report-${colorScheme}.png`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
}
