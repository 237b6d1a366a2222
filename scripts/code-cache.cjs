// Writes V8's code caches for the start path's files (dist/*.cjs.<V8 version>.cache), each
// after a warm-up, so that what a run needs is compiled into it: help after showing the
// help of voicectl and of every group; undici after a request; the program after commands
// that read from a service (a throwaway one on loopback), read the config and check a
// spreadsheet.
// Run by scripts/build.js with stdout discarded.
'use strict';
const { createServer } = require('node:http');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Writable } = require('node:stream');
const { load, preferBaselineWasm, buildCacheFile, HELP_FILE, MAIN_FILE } = require('../dist/start.cjs');

async function warmHelp() {
  const { exports: helpBundle, script } = load(HELP_FILE, { userCache: false });
  await helpBundle.help(['--help']);
  for (const name of helpBundle.GROUP_NAMES) await helpBundle.help([name, '--help']);
  writeFileSync(buildCacheFile(HELP_FILE), script.createCachedData());
}

/** A throwaway service on loopback that answers every request with an empty list of agents. */
async function withService(run) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ agents: [], total: 0, limit: 50, offset: 0 }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const config = mkdtempSync(join(tmpdir(), 'voicectl-build-'));
  const env = {
    VOICECTL_BASE_URL: `http://127.0.0.1:${server.address().port}`,
    VOICECTL_API_KEY: 'sk_build_warm_up',
    VOICECTL_CONFIG_DIR: config,
    CI: 'true',
    NO_COLOR: '1',
  };
  try {
    await run(env, config);
  } finally {
    server.close();
    rmSync(config, { recursive: true, force: true });
  }
}

/**
 * dist/undici.cjs, after a request, as the program makes one. Written before the program's
 * cache, so that the program's warm-up loads undici from it, as a user's command does.
 */
async function warmUndici(env) {
  const file = join(__dirname, '..', 'dist', 'undici.cjs');
  const { exports: undici, script } = load(file, { userCache: false });
  const dispatcher = new undici.Agent();
  const res = await undici.request(`${env.VOICECTL_BASE_URL}/agents`, { method: 'GET', dispatcher });
  await res.body.text();
  await dispatcher.close();
  writeFileSync(buildCacheFile(file), script.createCachedData());
}

/**
 * The program, after commands that read from the service, read the config, and check a
 * spreadsheet (a list with the shapes Indian lists have, a foreign number and a short one).
 */
async function warmMain(env, config) {
  const list = join(config, 'contacts.csv');
  writeFileSync(list, [
    'name,phone,city',
    'Priya Sharma,98200 12345,Mumbai',
    'Rahul Verma,+91 99201 23456,Pune',
    '"Mehta, Karan",098201 23457,Delhi',
    'Arjun Nair,+91-97201-23458,Kochi',
    'Lakshmi Iyer,0 80 4332 8266,Bengaluru',
    'Imran Qureshi,+44 20 7946 0123,London',
    'Sneha Banerjee,12345,Kolkata',
    '',
  ].join('\n'));
  const commands = [
    { argv: ['agent', 'list', '--json'], exit: 0 },
    { argv: ['api', 'GET', '/agents'], exit: 0 },
    { argv: ['config', 'list', '--json'], exit: 0 },
    // Exit 2: the short number is a row error, as in most real lists.
    { argv: ['contacts', 'validate', list, '--default-country', 'IN', '--json'], exit: 2 },
  ];
  const { exports: program, script } = load(MAIN_FILE, { userCache: false });
  const quiet = () => new Writable({ write: (_chunk, _enc, done) => done() });
  for (const { argv, exit } of commands) {
    const code = await program.main(argv, { env, io: { stdin: process.stdin, stdout: quiet(), stderr: quiet() } });
    if (code !== exit) throw new Error(`warm-up of voicectl ${argv.join(' ')} exited ${code}, not ${exit}`);
  }
  writeFileSync(buildCacheFile(MAIN_FILE), script.createCachedData());
}

/** dist/mcp-sdk.cjs, after a server is made and a tool with schemas registered, as `voicectl mcp` does. */
async function warmMcpSdk() {
  const file = join(__dirname, '..', 'dist', 'mcp-sdk.cjs');
  const { exports: sdk, script } = load(file, { userCache: false });
  const { McpServer, z } = sdk;
  const server = new McpServer({ name: 'voicectl', version: '0' });
  server.registerTool('warm', { description: 'warm-up', inputSchema: { id: z.string().min(1), n: z.number().int().optional() }, outputSchema: z.looseObject({ items: z.array(z.looseObject({})) }), annotations: { readOnlyHint: true } }, async () => ({ content: [] }));
  z.toJSONSchema(z.object({ id: z.string(), list: z.array(z.number()).optional() }));
  z.object({ id: z.string() }).safeParse({ id: 'x' });
  writeFileSync(buildCacheFile(file), script.createCachedData());
}

/**
 * dist/chrono.cjs, after reading callback times as the English reader does
 * (src/reports/requested-time/english.ts): both parsers, the two left-out parsers and
 * refiners removed, over clauses of the kinds agents' summaries hold.
 */
function warmChrono() {
  const file = join(__dirname, '..', 'dist', 'chrono.cjs');
  const { exports: chrono, script } = load(file, { userCache: false });
  const clauses = ['asked to be called back tomorrow at 4 pm.', 'call me on Friday afternoon', 'in two days at 11 am', 'next week', 'this evening after 6', 'between 4 and 5 on 12 March', 'in 2 hours'];
  for (const us of [true, false]) {
    const conf = chrono.configuration.createCasualConfiguration(!us);
    const parser = new chrono.Chrono({
      parsers: conf.parsers.filter((x) => !/^ENTimeUnit(Ago|Later)FormatParser$/.test(x.constructor.name)),
      refiners: conf.refiners.filter((x) => !/Timezone/.test(x.constructor.name)),
    });
    for (const clause of clauses) for (const r of parser.parse(clause, { instant: new Date(Date.UTC(2026, 2, 9, 10)), timezone: 0 })) r.start.date();
  }
  writeFileSync(buildCacheFile(file), script.createCachedData());
}

(async () => {
  await warmHelp();
  // As the start path does before compiling the program: a cache must be made under the V8 flags it is used with.
  preferBaselineWasm();
  await withService(async (env, config) => {
    await warmUndici(env);
    await warmMain(env, config);
  });
  await warmMcpSdk();
  warmChrono();
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
