// `voicectl mcp`: from starting the process to the answer of the first tools/list (after
// initialize, as every client does), beside `node -e 0`, interleaved; and one read
// tool's round trip (agent_list against a loopback sandbox) on a running server.
// Budget: the first tools/list within 3x `node -e 0` (issue 27). BENCH_RUNS sets the runs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, forkedSandbox, median } from './lib.js';

const bin = process.env.BIN ?? BIN;
const runs = Number(process.env.BENCH_RUNS ?? 15);
const BUDGET = 3;
const config = mkdtempSync(join(tmpdir(), 'voicectl-bench-mcp-'));
const env = { PATH: process.env.PATH, HOME: config, VOICECTL_CONFIG_DIR: config };

const rpc = (id, method, params) => `${JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params ? { params } : {}) })}\n`;
const INIT = rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });

/** A server process answering JSON-RPC lines; `ask` resolves with the answer to one request. */
function server(serviceEnv) {
  const child = spawn(process.execPath, [bin, 'mcp'], { env: serviceEnv, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  let next = 10;
  return {
    child,
    ask(method, params) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(rpc(id, method, params));
      });
    },
    async start() {
      await new Promise((resolve) => {
        waiting.set(1, resolve);
        child.stdin.write(INIT);
      });
      child.stdin.write(rpc(undefined, 'notifications/initialized'));
    },
    stop: () => new Promise((resolve) => { child.on('exit', resolve); child.stdin.end(); }),
  };
}

async function firstList() {
  const t0 = process.hrtime.bigint();
  const s = server(env);
  await s.start();
  const list = await s.ask('tools/list');
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!list.result?.tools?.length) throw new Error(`tools/list answered ${JSON.stringify(list)}`);
  await s.stop();
  return ms;
}

function nodeBaseline() {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function roundTrip() {
  const sb = await forkedSandbox([1, 0]);
  const s = server({ ...env, VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey });
  try {
    await s.start();
    const times = [];
    for (let i = 0; i < runs * 2 + 5; i++) {
      const t0 = process.hrtime.bigint();
      const r = await s.ask('tools/call', { name: 'agent_list', arguments: { limit: 20 } });
      if (r.result?.isError) throw new Error(JSON.stringify(r.result));
      if (i >= 5) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return median(times);
  } finally {
    await s.stop();
    sb.close();
  }
}

try {
  for (let i = 0; i < 2; i++) { nodeBaseline(); await firstList(); }
  const base = [];
  const list = [];
  for (let i = 0; i < runs; i++) {
    base.push(nodeBaseline());
    list.push(await firstList());
  }
  const b = median(base);
  const l = median(list);
  const ratio = l / b;
  console.log(`voicectl mcp (${runs} interleaved runs, median):`);
  console.log(`  node -e 0                  ${b.toFixed(1).padStart(7)} ms`);
  console.log(`  start to first tools/list  ${l.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x  budget ${BUDGET}x ${ratio <= BUDGET ? 'OK' : 'OVER'}`);
  console.log(`  agent_list round trip      ${(await roundTrip()).toFixed(1).padStart(7)} ms  (running server, loopback sandbox)`);
  if (ratio > BUDGET) process.exitCode = 1;
} finally {
  rmSync(config, { recursive: true, force: true });
}
