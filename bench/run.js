// `npm run bench`: every budget of the issues, measured side by side on this machine.
// Each script prints its own figures; medians, never single times.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const only = process.argv.slice(2);
const scripts = ['startup', 'sandbox', 'import', 'export', 'listen', 'gitops', 'campaign-ops', 'campaign-run', 'report', 'followups', 'tail', 'reconcile', 'mcp', 'calls-check', 'jq', 'warehouse', 'rehearse'].filter((s) => only.length === 0 || only.includes(s));
let failed = 0;
for (const name of scripts) {
  const file = fileURLToPath(new URL(`./${name}.js`, import.meta.url));
  if (!existsSync(file)) continue;
  console.log(`\n== ${name} ==`);
  const r = spawnSync(process.execPath, [file], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(${name} benchmark exited ${r.status})`);
  }
}
process.exitCode = failed ? 1 : 0;
