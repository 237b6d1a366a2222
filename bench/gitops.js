// `plan` budget (issue 15): an account of 200 agents and 100 knowledge-base documents
// (in 5 folders, 2 attached to each agent), the files written by `apply`, then `voicectl
// plan` as a whole process against an in-process sandbox on loopback: requests made and
// wall time, median of several runs, under 3 s. Side by side, interleaved: `agent list
// --all --json` over the same agents (the floor: one process, one list), and a plan
// with 20 prompts edited (the diff rendering).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, loadText, median, seededSandbox, voicectlTimed } from './lib.js';

const AGENTS = Number(process.env.BENCH_GITOPS_AGENTS ?? 200);
const DOCS = Number(process.env.BENCH_GITOPS_DOCS ?? 100);
const RUNS = Number(process.env.BENCH_GITOPS_RUNS ?? 5);
const BUDGET_MS = 3000;

async function run(sb, args, allowed = [0]) {
  const before = sb.requests.length;
  const { ms, code, out } = await voicectlTimed(args, { env: cliEnv(sb), allowed });
  const reqs = sb.requests.slice(before);
  return { ms, code, out, requests: reqs.length, writes: reqs.filter((r) => r.method !== 'GET').length };
}

function files(dir) {
  const lines = ['version: 1', 'agents:'];
  for (let i = 0; i < AGENTS; i++) {
    const n = String(i).padStart(3, '0');
    writeFileSync(join(dir, 'prompts', `agent-${n}.md`), `You are agent ${n}.\nConfirm the delivery slot.\nNever promise a refund.\n`);
    lines.push(
      `  agent-${n}:`,
      `    name: Agent ${n}`,
      '    voice_name: Priya',
      `    greeting: Namaste, this is agent ${n}.`,
      '    call_purpose: Confirm delivery slots',
      `    prompt: !file prompts/agent-${n}.md`,
      '    tools: [schedule_callback]',
      `    documents: [kb/f${i % 5}/doc-${String(i % DOCS).padStart(3, '0')}.md, kb/f${(i + 1) % 5}/doc-${String((i + 1) % DOCS).padStart(3, '0')}.md]`,
    );
  }
  lines.push('documents:');
  for (let d = 0; d < DOCS; d++) {
    const name = `doc-${String(d).padStart(3, '0')}.md`;
    // Documents are spread so that agent i's documents (i % 5 folder) exist: folder = d % 5.
    const folder = `f${d % 5}`;
    writeFileSync(join(dir, 'kb', folder, name), `# Document ${d}\n${'Policy text. '.repeat(50)}\n`);
    lines.push(`  kb/${folder}/${name}: {folder: policies/${folder}}`);
  }
  writeFileSync(join(dir, 'voicectl.yaml'), `${lines.join('\n')}\n`);
}

export async function benchGitops() {
  const dir = mkdtempSync(join(tmpdir(), 'voicectl-bench-gitops-'));
  const sb = await seededSandbox(0, { seed: 3, plan: { agent_limit: AGENTS + 10 } });
  try {
    mkdirSync(join(dir, 'prompts'));
    for (let f = 0; f < 5; f++) mkdirSync(join(dir, 'kb', `f${f}`), { recursive: true });
    files(dir);
    const applied = await run(sb, ['apply', dir, '--yes']);
    const plans = [];
    const lists = [];
    const edited = [];
    // The edited copy: 20 prompts changed by one line each.
    const editDir = `${dir}-edited`;
    rmSync(editDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.cp(dir, editDir, { recursive: true }));
    for (let i = 0; i < 20; i++) {
      const p = join(editDir, 'prompts', `agent-${String(i * 10).padStart(3, '0')}.md`);
      writeFileSync(p, readFileSync(p, 'utf8').replace('Confirm the delivery slot.', 'Confirm the delivery slot and the address.'));
    }
    await run(sb, ['plan', dir, '--check']); // warm the file cache
    for (let i = 0; i < RUNS; i++) {
      plans.push(await run(sb, ['plan', dir, '--check']));
      lists.push(await run(sb, ['agent', 'list', '--all', '--json']));
      edited.push(await run(sb, ['plan', editDir, '--check'], [6]));
    }
    rmSync(editDir, { recursive: true, force: true });
    const planMs = median(plans.map((r) => r.ms));
    return {
      agents: AGENTS, docs: DOCS, runs: RUNS,
      apply: { ms: applied.ms, requests: applied.requests, writes: applied.writes },
      planMs, planRequests: plans[0].requests, planWrites: Math.max(...plans.map((r) => r.writes)),
      listMs: median(lists.map((r) => r.ms)), listRequests: lists[0].requests,
      editedMs: median(edited.map((r) => r.ms)), editedChanges: (edited[0].out.match(/^~ update agent/gm) ?? []).length,
      ok: planMs < BUDGET_MS && plans.every((r) => r.out.includes('No changes')),
    };
  } finally {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchGitops();
  console.log(`account as code: ${r.agents} agents, ${r.docs} documents in 5 folders, loopback, median of ${r.runs} interleaved runs:`);
  console.log(`  apply from nothing          ${(r.apply.ms / 1000).toFixed(2)} s   ${r.apply.requests} requests (${r.apply.writes} writes), once`);
  console.log(`  plan, no changes            ${(r.planMs / 1000).toFixed(2)} s   ${r.planRequests} requests (${r.planWrites} writes)   budget < ${BUDGET_MS / 1000} s   ${r.ok ? 'OK' : 'OVER BUDGET'}`);
  console.log(`  plan, 20 prompts edited     ${(r.editedMs / 1000).toFixed(2)} s   ${r.editedChanges} agents to update`);
  console.log(`  agent list --all --json     ${(r.listMs / 1000).toFixed(2)} s   ${r.listRequests} request(s)   (floor: one process, one list; plan is ${(r.planMs / r.listMs).toFixed(2)}x)`);
  console.log(`  (load average during the run: ${loadText()})`);
  process.exitCode = r.ok ? 0 : 1;
}
