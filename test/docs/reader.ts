/**
 * What a reader of voicectl's pages and help has at hand, for the tests that run them:
 * voicectl on the PATH, the files the examples name, an app of theirs that answers 200,
 * and a clock inside calling hours (libfaketime: 11:00 in India today, one offset for
 * every voicectl process, so signatures made by one and checked by another agree). Only
 * the examples that launch a campaign depend on that clock; they need faketime (see
 * test/helpers/requires.ts), the others run on the machine's clock when it is missing.
 *
 * The clock is preloaded into voicectl alone (the `voicectl` on the PATH), not into the
 * shell: libfaketime keeps shared memory that a forked subshell would tear down when it
 * exits, leaving the next process unable to start.
 */
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { has, libfaketime, type Program } from '../helpers/requires.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin/voicectl.js');
/**
 * The offset (libfaketime's FAKETIME) that makes it the given time of day, UTC, today: by
 * default 05:30 UTC, 11:00 in India, the clock of every process a page starts (the sandbox
 * too, so signatures agree).
 */
export function clockOffset(utcHour = 5, utcMinute = 30): string {
  const target = new Date();
  target.setUTCHours(utcHour, utcMinute, 0, 0);
  const seconds = Math.round((target.getTime() - Date.now()) / 1000);
  return seconds >= 0 ? `+${seconds}` : String(seconds);
}
export const APP_SECRET = 'whsec_docs_app_0123456789abcdef';

/**
 * The programs from outside npm that these commands need: jq where they pipe into it, and
 * faketime where they launch a campaign (calling hours are checked on voicectl's clock).
 */
export function programsFor(commands: string[]): Program[] {
  const out: Program[] = [];
  if (commands.some((c) => /^voicectl campaign launch\b|--launch\b/m.test(c))) out.push('faketime');
  if (commands.some((c) => /(^|[|;&(]\s*)jq\b/m.test(c))) out.push('jq');
  return out;
}

export async function startApp(): Promise<{ url: string; server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, received };
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The files a reader of the pages has at hand, and a git repository to commit in. */
export function setUpFolder(dir: string): void {
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  // the reader's own leads: numbers in India as a CRM exports them (not the fixtures the
  // pages' first campaigns call), one of them on the do-not-call list
  copyFileSync(join(ROOT, 'fixtures/contacts/indian-crm-50.csv'), join(dir, 'leads.csv'));
  writeFileSync(join(dir, 'do-not-call.csv'), `phone\n${readFileSync(join(ROOT, 'fixtures/contacts/indian-crm-50.csv'), 'utf8').split('\n')[1]!.split(',')[1]}\n`);
  mkdirSync(join(dir, 'home/lists'), { recursive: true });
  writeFileSync(join(dir, 'home/lists/dnc.csv'), 'phone\n+919988776655\n');
  writeFileSync(join(dir, 'app-secret.txt'), `${APP_SECRET}\n`);
  writeFileSync(join(dir, 'my-campaign.json'), JSON.stringify({ id: 'c_docs', name: 'My campaign', status: 'completed', contacts_by_status: { completed: 3 } }));
  mkdirSync(join(dir, 'state'));
  mkdirSync(join(dir, 'bin'));
  // node and npm where the PATH below can find them even when their folder, left out of
  // it for holding a voicectl (an earlier `npm link`), is not on it
  mkdirSync(join(dir, 'node-bin'));
  symlinkSync(process.execPath, join(dir, 'node-bin/node'));
  for (const tool of ['npm', 'npx']) {
    const beside = join(dirname(process.execPath), tool);
    if (existsSync(beside)) symlinkSync(beside, join(dir, 'node-bin', tool));
  }
  // without libfaketime, voicectl runs on the machine's clock (the tests that need the
  // pinned clock ask for faketime and are skipped without it)
  const lib = has('faketime') ? libfaketime() : undefined;
  writeFileSync(join(dir, 'bin/voicectl'), `#!/bin/sh\n${lib ? `LD_PRELOAD='${lib}' ` : ''}exec '${process.execPath}' '${BIN}' "$@"\n`);
  // What the person at the keyboard does where the pages say $EDITOR: a friendlier greeting
  // for the first agent in voicectl.yaml, one more line in a prompt file.
  writeFileSync(join(dir, 'bin/editor'), `#!/bin/sh
for f; do
  case "$f" in
    *.yaml) sed -i '0,/Namaste!/s//Namaste! How can I help?/' "$f" ;;
    *) printf '%s\\n' 'Offer a callback when the customer is busy.' >> "$f" ;;
  esac
done
`);
  chmodSync(join(dir, 'bin/voicectl'), 0o755);
  chmodSync(join(dir, 'bin/editor'), 0o755);
}

/**
 * The environment of the reader's shell: voicectl first on the PATH (or, for a page whose
 * set-up puts it there, no voicectl on the PATH at all), a home of its own, no terminal.
 */
export function readerEnv(dir: string, options: { voicectlOnPath?: boolean; clock?: string } = {}): Record<string, string> {
  const machine = (process.env.PATH ?? '').split(delimiter).filter((d) => d && !existsSync(join(d, 'voicectl')));
  return {
    PATH: [...(options.voicectlOnPath === false ? [] : [join(dir, 'bin')]), ...machine, join(dir, 'node-bin')].join(delimiter),
    HOME: join(dir, 'home'),
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    FORCE_COLOR: '0',
    CI: 'true',
    APP_SECRET,
    S: APP_SECRET,
    GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
    EDITOR: join(dir, 'bin/editor'),
    GIT_AUTHOR_NAME: 'Docs Test',
    GIT_AUTHOR_EMAIL: 'docs@example.com',
    GIT_COMMITTER_NAME: 'Docs Test',
    GIT_COMMITTER_EMAIL: 'docs@example.com',
    FAKETIME: options.clock ?? clockOffset(),
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}
