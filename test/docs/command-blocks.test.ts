/**
 * The README's and docs' command blocks run, in order, as a person would paste them: one
 * bash session per document, against a sandbox, so they cannot drift from what voicectl
 * does. The README's shell starts without `voicectl` on the PATH: its own set-up step
 * (`npm link`, into a global folder of the test's) puts it there; the other pages, which
 * come after it, start with it on the PATH. The README runs at three hours of the day
 * (23:00, 11:00 and 19:00 UTC): at night in India a launch is refused, and the reader adds
 * what the refusal's last line names, as the README says; a launch that waits for calling
 * hours is stopped once it says how long it waits.
 *
 * What stands in for the person and their machine:
 * - `voicectl sandbox` and the export line it prints: one sandbox per page, started in the
 *   page's shell (on a free port, 300x from the page's moment, allowing local webhooks) and its export line run;
 * - a placeholder (`<id>`, `<campaign_id>`, `<call_id>`, `<endpoint-id>`, `3f1c…`,
 *   `whsec_…`) is filled from what earlier commands created: the newest campaign, a call of
 *   it with a recording, the newest endpoint, the app's secret;
 * - addresses of the service (`https://api.example.com/v1` …) are the sandbox; of the
 *   reader's app (`http://localhost:3000/…`) a small app that answers 200; `listen` gets a
 *   free port instead of 4242; `/var/lib/voicectl/` is a folder of the test;
 * - the files a reader has (leads.csv, do-not-call.csv, ~/lists/dnc.csv, app-secret.txt,
 *   my-campaign.json) and the account a page starts from (a finished campaign, an agent);
 * - a prompt a person answers at a terminal: `--yes` (the test has no terminal); `$EDITOR`
 *   makes the edit the text describes;
 * - the clock (other pages): 11:00 in India today for every voicectl process of the page (libfaketime,
 *   one offset, so the sandbox's signatures and listen's clock agree), inside any calling
 *   hours the pages set: a launch does not depend on when CI runs. Pages that launch need
 *   faketime (test/helpers/requires.ts), the others run on the machine's clock without it;
 * - `npm install` is the test run's own (another would rebuild dist/ under other tests).
 * A command passes when it exits 0; one left running (listen, call tail) is stopped with
 * Ctrl-C once the block's campaigns have finished, and passes on 0 or 130.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientFor, givenAgent, givenFinishedCampaign, type Client } from '../helpers/given.js';
import { tempDir } from '../helpers/temp.js';
import { code, shellBlocks, type Block } from './blocks.js';
import { Shell, type Outcome } from './shell.js';
import { APP_SECRET, clockOffset, freePort, programsFor, readerEnv, ROOT, setUpFolder, startApp } from './reader.js';
import { has, libfaketime, needs } from '../helpers/requires.js';

/** What a block marked not run would have left behind, for the blocks after it. */
const GIVEN_SHELL: Record<string, string> = {
  'docs/profiles-and-completion.md': 'printf \'%s\' "$KEY" | voicectl login --with-key-stdin --base-url "$VOICECTL_BASE_URL"',
};

/** The account each page starts from, beyond what its own blocks create. */
const GIVEN: Record<string, (api: Client) => Promise<unknown>> = {
  'docs/contacts.md': (api) => givenAgent(api, { name: 'Renewals desk' }),
  'docs/campaign-run.md': (api) => givenAgent(api, { name: 'Sales desk' }),
  'docs/campaign-operations.md': (api) => givenFinishedCampaign(api, { contacts: 30, name: 'Diwali offer' }),
  'docs/export.md': (api) => givenFinishedCampaign(api),
  'docs/requests.md': (api) => givenFinishedCampaign(api),
  'docs/tail.md': (api) => givenFinishedCampaign(api),
  'docs/quality.md': (api) => givenFinishedCampaign(api, { name: 'Quality check' }),
  'docs/reports.md': async (api) => {
    await givenFinishedCampaign(api, { name: 'Renewals March' });
    await givenFinishedCampaign(api, { name: 'Renewals April' });
  },
};

// docs/reference.md is written from the help, whose examples help-examples.test.ts runs
const PAGES = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'reference.md').sort().map((f) => `docs/${f}`)
  .filter((f) => shellBlocks(f, readFileSync(join(ROOT, f), 'utf8')).length > 0);

interface Page {
  shell: Shell;
  sandbox: { url: string; apiKey: string };
  api: Client;
  app: { url: string; server: Server; received: string[] };
  listenPort: number;
  memo: Map<string, string>;
}

async function newestCampaign(api: Client): Promise<any> {
  const all: any[] = [];
  for (let offset = 0; ; offset += 200) {
    const res = await api('GET', `/campaigns?limit=200&offset=${offset}`);
    all.push(...res.body.campaigns);
    if (offset + 200 >= res.body.total) break;
  }
  all.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  if (all.length === 0) throw new Error('a page names a campaign before any exists');
  return all;
}

/** Fills a command's placeholders and addresses; see the header of this file. */
async function fill(page: Page, command: string): Promise<string> {
  let text = command;
  const campaigns = /<id>|<campaign_id>|3f1c…|<call_id>/.test(text) ? await newestCampaign(page.api) : [];
  let ids = 0;
  text = text.replace(/<id>/g, () => campaigns[Math.min(ids++, campaigns.length - 1)].id);
  text = text.replace(/<campaign_id>/g, () => campaigns[0].id);
  if (text.includes('3f1c…')) {
    // the same campaign all through a page: the one the page starts from, not its redials
    if (!page.memo.has('3f1c…')) page.memo.set('3f1c…', campaigns[0].id);
    text = text.replaceAll('3f1c…', page.memo.get('3f1c…')!);
  }
  if (text.includes('<call_id>')) {
    const calls = (await page.api('GET', `/calls?campaign_id=${campaigns[0].id}&limit=200`)).body.calls as any[];
    const call = calls.find((c) => c.has_recording) ?? calls[0];
    text = text.replaceAll('<call_id>', call.call_id ?? call.id);
  }
  if (text.includes('<endpoint-id>')) {
    const endpoints = (await page.api('GET', '/webhooks/endpoints')).body;
    const list: any[] = Array.isArray(endpoints) ? endpoints : endpoints.endpoints ?? endpoints.items ?? [];
    text = text.replaceAll('<endpoint-id>', list[list.length - 1].id);
  }
  text = text.replaceAll('whsec_…', APP_SECRET);
  text = text.replace(/https:\/\/[^\s"']*example\.com\/v1/g, page.sandbox.url);
  text = text.replace(/https?:\/\/(localhost:3000|staging\.example\.com)/g, page.app.url);
  text = text.replaceAll('127.0.0.1:4242', `127.0.0.1:${page.listenPort}`);
  text = text.replaceAll('/var/lib/voicectl/', 'state/');
  // the set-up step, in the clone (this checkout), not in the reader's working folder
  if (/^npm link$/.test(text)) text = `(cd '${ROOT}' && npm link)`;
  if (/^voicectl listen\b/.test(text) && !/--port\b/.test(text)) text = text.replace(/^voicectl listen/, `voicectl listen --port ${page.listenPort}`);
  text = text.replace(/--port 4242\b/, `--port ${page.listenPort}`);
  // A person at a terminal answers the confirmation; the test has no terminal.
  if (/^voicectl (campaign launch|apply)\b/.test(text) && !/--yes\b/.test(text)) text += ' --yes';
  return text;
}

/** Lines the test's own sandbox stands in for. */
function standsIn(command: string): boolean {
  // `npm install`: the test run has done it (another would rebuild dist/ under the other tests)
  return /^npm install$/.test(command) || /^voicectl sandbox\b/.test(command) || /^export VOICECTL_BASE_URL=http:\/\/127\.0\.0\.1:4010\b/.test(command);
}

/** Commands that run until Ctrl-C. */
function runsUntilStopped(command: string): boolean {
  return (/^voicectl listen\b/.test(command) && !/--replay\b/.test(command)) || /^voicectl call tail\b/.test(command);
}

function describeFailure(block: Block, line: number, command: string, o: Outcome): string {
  return `${block.file}:${line}: ${command}\nexit ${o.code}\n--- stdout\n${o.stdout.slice(-3000)}\n--- stderr\n${o.stderr.slice(-3000)}`;
}

/** Waits for the block's campaigns to finish and their events to reach a listening log. */
async function settle(page: Page, logs: string[]): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const res = await page.api('GET', '/campaigns?limit=200');
    if (!(res.body.campaigns as any[]).some((c) => c.status === 'running')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const log of logs) {
    const path = join(page.shell.directory, log);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !(existsSync(path) && readFileSync(path, 'utf8').includes('campaign.completed'))) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
}, 60_000);

/** Pages whose own set-up step puts voicectl on the PATH: their shell starts without it. */
const SETS_UP = new Set(['README.md']);

/** The line a launch refused for calling hours ends with, naming what to add. */
const REFUSED = /outside calling hours[^]*\n(.*--ignore-calling-hours.*)\s*$/;

/**
 * Runs the blocks in one shell against one sandbox, at the given clock; how many commands
 * ran, and how many calling-hours refusals were followed as the page says.
 */
async function runPage(file: string, toRun: Block[], clock?: string): Promise<{ ran: number; followed: number; waited: number }> {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const app = await startApp();
  const dir = tempDir('voicectl-docs-');
  cleanups.push(() => dir.remove(), () => new Promise<void>((r) => app.server.close(() => r())));
  setUpFolder(dir.dir);
  const setsUp = SETS_UP.has(file);
  const npmGlobal = join(dir.dir, 'npm-global');
  const env: Record<string, string> = {
    ...readerEnv(dir.dir, { voicectlOnPath: !setsUp, clock }),
    // npm's global folder, where `npm link` puts voicectl, is the reader's own, on their PATH;
    // no network, and no scripts: `npm link` would run `prepare` again, rebuilding dist/
    // under the tests that run it (the test run's own `npm install` built it)
    ...(setsUp ? { npm_config_prefix: npmGlobal, npm_config_offline: 'true', npm_config_ignore_scripts: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } : {}),
  };
  if (setsUp) env.PATH = `${join(npmGlobal, 'bin')}:${env.PATH}`;
  mkdirSync(join(dir.dir, '.out'));
  const shell = new Shell(dir.dir, join(dir.dir, '.out'), env);
  cleanups.push(() => shell.close());
  if (setsUp) expect((await shell.run('command -v voicectl')).code, 'voicectl is on the PATH before the set-up').not.toBe(0);
  // The sandbox, in a shell of its own as the pages say, and the export line it prints, pasted.
  // It starts at the page's moment: voicectl decides calling hours on the sandbox's clock
  // (docs/sandbox.md). At 300x an hour passes in 12 s, so the page's hour holds while it runs.
  const start = new Date(Date.now() + Number(clock ?? clockOffset()) * 1000).toISOString();
  const sb = spawn(join(dir.dir, 'bin/voicectl'), ['sandbox', '--port', '0', '--time-scale', '300', '--start', start, '--seed', '7', '--allow-local-webhooks'], { cwd: dir.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => new Promise<void>((r) => {
    if (sb.exitCode !== null) return r();
    sb.once('exit', () => r());
    sb.kill('SIGINT');
  }));
  let printed = '';
  sb.stdout.on('data', (c: Buffer) => (printed += c.toString()));
  sb.stderr.on('data', (c: Buffer) => (printed += c.toString()));
  let exportLine: string | undefined;
  for (const until = Date.now() + 15_000; !exportLine && Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    exportLine = /^export VOICECTL_BASE_URL=(\S+) VOICECTL_API_KEY=(\S+)(?: VOICECTL_SANDBOX_CLOCK='[^']*')?$/m.exec(printed)?.[0];
  }
  if (!exportLine) throw new Error(`the sandbox printed no export line:\n${printed}`);
  const [, url, apiKey] = /VOICECTL_BASE_URL=(\S+) VOICECTL_API_KEY=(\S+)/.exec(exportLine)!;
  expect((await shell.run(`${exportLine} KEY=${apiKey} VOICE_API_KEY=${apiKey}`)).code).toBe(0);
  const sandbox = { url: url!, apiKey: apiKey! };
  const api = clientFor(sandbox);
  await GIVEN[file]?.(api);
  const page: Page = { shell, sandbox, api, app, listenPort: await freePort(), memo: new Map() };
  await shell.run('git init -q .');
  if (GIVEN_SHELL[file]) expect((await shell.run(GIVEN_SHELL[file])).code).toBe(0);

  let ran = 0;
  let followed = 0;
  let waited = 0;
  for (const block of toRun) {
    const background: Array<{ n: number; line: number; command: string }> = [];
    const logs: string[] = [];
    let launched = false;
    for (const c of block.commands) {
      const written = code(c.text);
      if (written === '' || standsIn(written)) continue;
      let command = await fill(page, written);
      if (runsUntilStopped(command)) {
        const n = await shell.start(command);
        background.push({ n, line: c.line, command });
        const log = /^voicectl listen\b.*--log (\S+)/.exec(command)?.[1];
        if (log) logs.push(log);
        // ready before the next command makes something happen
        const until = Date.now() + 10_000;
        while (Date.now() < until && !/Listening|Following|calls? (finish|as they)|tail/i.test(shell.output(n).stderr)) {
          await new Promise((r) => setTimeout(r, 50));
        }
        continue;
      }
      launched ||= /--launch\b|^voicectl campaign launch\b/.test(command);
      if (/--wait-for-calling-hours\b/.test(command)) {
        // Launches at once inside calling hours; outside them it waits for the window, as
        // the page says, and is stopped with Ctrl-C once it says how long.
        const n = await shell.start(command);
        const waiting = await shell.until(n, (o) => /Waiting for calling hours/.test(o.stderr), 60_000);
        const o = await shell.interrupt(n);
        ran++;
        if (waiting) waited++;
        expect(o.code, describeFailure(block, c.line, command, o)).toBe(waiting ? 130 : 0);
        continue;
      }
      let o = await shell.run(command);
      ran++;
      const refused = o.code === 2 ? REFUSED.exec(o.stderr) : null;
      if (refused && text.replace(/\s+/g, ' ').includes('add `--ignore-calling-hours`')) {
        // Outside calling hours: the last line says what to add, and the page says to add
        // it on the sandbox, as the reader does.
        expect(refused![1], describeFailure(block, c.line, command, o)).toMatch(/^Pass --wait-for-calling-hours .*, or --ignore-calling-hours to launch now\.$/);
        command = `${command} --ignore-calling-hours`;
        o = await shell.run(command);
        followed++;
      }
      expect(o.code, describeFailure(block, c.line, command, o)).toBe(0);
      if (setsUp && /^npm link\b/.test(written)) await afterSetUp(shell, npmGlobal);
    }
    if (!launched) logs.length = 0;
    if (background.length > 0) await settle(page, logs);
    for (const b of background) {
      const o = await shell.interrupt(b.n);
      expect([0, 130], describeFailure(block, b.line, b.command, o)).toContain(o.code);
    }
    for (const log of logs) expect(readFileSync(join(dir.dir, log), 'utf8'), `${block.file}:${block.line}: ${log}`).toContain('"call.ended"');
  }
  return { ran, followed, waited };
}

/**
 * After the page's `npm link`: voicectl is on the PATH, a link to this checkout's
 * bin/voicectl.js. With faketime, it then runs on the page's clock (preloaded into voicectl
 * alone: see reader.ts).
 */
async function afterSetUp(shell: Shell, npmGlobal: string): Promise<void> {
  const where = await shell.run('command -v voicectl && readlink -f "$(command -v voicectl)"');
  expect(where.stdout.trim().split('\n'), where.stderr).toEqual([join(npmGlobal, 'bin/voicectl'), join(ROOT, 'bin/voicectl.js')]);
  const lib = has('faketime') ? libfaketime() : undefined;
  if (lib) expect((await shell.run(`voicectl() { LD_PRELOAD='${lib}' command voicectl "$@"; }; export -f voicectl`)).code).toBe(0);
}

// Each page has its own sandbox, folder and shell, so they run side by side.
describe.concurrent.each(PAGES)('%s', (file) => {
  const blocks = shellBlocks(file, readFileSync(join(ROOT, file), 'utf8'));
  const toRun = blocks.filter((b) => !b.notRun);

  it(`runs its ${toRun.length} block(s) in order${blocks.length > toRun.length ? ` (${blocks.length - toRun.length} marked not run)` : ''}`, async (ctx) => {
    needs(ctx, ...programsFor(toRun.flatMap((b) => b.commands.map((c) => code(c.text)))));
    const { ran } = await runPage(file, toRun);
    expect(ran, 'commands run').toBeGreaterThanOrEqual(toRun.length);
  }, 240_000);
});

// The README works at any hour, as it says: at night in India a launch is refused with a
// last line saying what to add, and the README says to add it on the sandbox; a launch
// that waits for calling hours waits.
describe.concurrent.each([
  { at: '23:00', hour: 23, night: true },
  { at: '11:00', hour: 11, night: false },
  { at: '19:00', hour: 19, night: true },
])('README.md at $at UTC', ({ hour, night }) => {
  const blocks = shellBlocks('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const toRun = blocks.filter((b) => !b.notRun);

  it(`runs its ${toRun.length} block(s) as typed${night ? ', adding what a refusal names' : ''}`, async (ctx) => {
    needs(ctx, 'faketime', ...programsFor(toRun.flatMap((b) => b.commands.map((c) => code(c.text)))));
    const { ran, followed, waited } = await runPage('README.md', toRun, clockOffset(hour, 0));
    expect(ran, 'commands run').toBeGreaterThanOrEqual(toRun.length);
    expect(followed > 0, 'launches refused for calling hours, and run again as the README says').toBe(night);
    expect(waited > 0, 'launches that waited for calling hours').toBe(night);
  }, 240_000);
});

describe('the pages', () => {
  it('never run voicectl with npx: it is not on the npm registry, so npx would fetch nothing or someone else\'s package', () => {
    const offenders = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
      .flatMap((f) => readFileSync(join(ROOT, f), 'utf8').split('\n').map((line, i) => ({ at: `${f}:${i + 1}`, line })))
      .filter(({ line }) => /\bnpx\s+(--\S+\s+)*voicectl\b/.test(line))
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});
