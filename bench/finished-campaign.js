// One finished 10,000-contact campaign in a sandbox of its own process on loopback, for the
// benches that read a campaign's results (report, followups), and a timer that runs their
// cases interleaved, whole process each time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, forkedSandbox } from './lib.js';

/**
 * The sandbox, a config folder, the environment that points voicectl at both, and the campaign's id.
 * `blankCallbackSummaries`: callbacks without a summary, so followups reads their transcripts.
 */
export async function finishedCampaign(name, o = {}) {
  const { url, apiKey, close } = await forkedSandbox([1, 10_000, ...(o.blankCallbackSummaries ? ['blank-callback-summaries'] : [])]);
  const dir = mkdtempSync(join(tmpdir(), `voicectl-bench-${name}-`));
  const env = { ...process.env, VOICECTL_BASE_URL: url, VOICECTL_API_KEY: apiKey, VOICECTL_CONFIG_DIR: dir };
  delete env.NODE_EXTRA_CA_CERTS;
  const list = spawnSync(process.execPath, [BIN, 'campaign', 'list', '--json'], { env, encoding: 'utf8' });
  return {
    id: JSON.parse(list.stdout)[0].id,
    dir,
    env,
    close() {
      close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Each case `runs` times, interleaved; `seen(j, result)` gets each finished run. Milliseconds per case. */
export function timeCases(cases, runs, env, seen = () => {}) {
  const times = cases.map(() => []);
  for (let i = 0; i < runs; i++) {
    cases.forEach(([, args], j) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
      times[j].push(Number(process.hrtime.bigint() - t0) / 1e6);
      seen(j, r);
    });
  }
  return times;
}
