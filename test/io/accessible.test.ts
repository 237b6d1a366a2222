/**
 * Accessible mode (--accessible, VOICECTL_ACCESSIBLE=1) at a terminal: the agent wizard
 * and `watch` write plain lines, with no carriage-return redraws and no escape sequences,
 * and questions are numbered choices answered by typing.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { start, type Running } from '../helpers/run.js';
import { scratch } from '../helpers/scratch.js';
import { clientFor, givenAgent, givenCampaign } from '../helpers/given.js';

const { dir, closing } = scratch('voicectl-accessible-');
const sandbox = () => closing(startSandbox({ port: 0, timeScale: 600, seed: 3 }));

const TTY = { stdin: true, stdout: true, stderr: true, columns: 100, rows: 40 };
// Colour would be on at this terminal: FORCE_COLOR=0 of the harness is taken away.
const envFor = (sb: Sandbox, dir: string, extra: Record<string, string | undefined> = {}) => ({
  VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey, VOICECTL_CONFIG_DIR: dir, FORCE_COLOR: undefined, TERM: 'xterm-256color', ...extra,
});

/** A person typing answers: waits for each question, finds the number of the choice by its label. */
class Typist {
  private cursor = 0;
  constructor(private readonly running: Running) {}

  private async waitFor(text: string): Promise<number> {
    for (let i = 0; i < 1000; i++) {
      const at = this.running.stderr().indexOf(text, this.cursor);
      if (at >= 0) {
        this.cursor = at + text.length;
        return at;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`"${text}" never appeared:\n${this.running.stderr().slice(-2000)}`);
  }

  async type(question: string, line: string): Promise<void> {
    await this.waitFor(question);
    this.running.stdin.write(`${line}\n`);
  }

  /** Picks the numbered choices whose lines hold the labels. */
  async pick(question: string, labels: string[], prompt = 'Type a number'): Promise<void> {
    const at = await this.waitFor(question);
    await this.waitFor(prompt);
    const listed = this.running.stderr().slice(at, this.cursor).split('\n');
    const numbers = labels.map((label) => {
      const line = listed.find((l) => /^\s+\d+\. /.test(l) && l.includes(label));
      if (!line) throw new Error(`no choice "${label}" in:\n${listed.join('\n')}`);
      return /^\s+(\d+)\./.exec(line)![1];
    });
    this.running.stdin.write(`${numbers.join(',')}\n`);
  }
}

interface Launched {
  sb: Sandbox;
  id: string;
}

/** A campaign of `n` contacts, launched in a sandbox of its own. */
async function launched(n: number): Promise<Launched> {
  const sb = await sandbox();
  const api = clientFor(sb);
  const campaign = await givenCampaign(api, (await givenAgent(api)).id, n);
  expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBeLessThan(300);
  return { sb, id: campaign.id };
}

/** `watch` of the campaign at the terminal, to its end (exit 0): all it wrote. */
async function watched({ sb, id }: Launched, extra: Record<string, string> = {}): Promise<string> {
  const running = start(['watch', id, '--interval', '1'], { env: envFor(sb, dir(), extra), tty: TTY, realTime: true });
  expect(await running.done).toBe(0);
  return running.stdout() + running.stderr();
}

function expectPlain(text: string): void {
  expect(text).not.toContain('\r');
  expect(text).not.toContain('\u001b');
}

describe('accessible mode', () => {
  it('the agent wizard asks numbered questions, answered by typing, with no redraw and no escape sequence', async () => {
    const sb = await sandbox();
    const running = start(['agent', 'create', '--accessible', '--name', 'Survey desk', '--greeting', 'Vanakkam!', '--call-purpose', 'Survey', '--kb', '', '--direction', 'outbound'], {
      env: envFor(sb, dir()), tty: TTY, openStdin: true,
    });
    const t = new Typist(running);
    await t.pick('Language of the calls', ['Tamil']);
    await t.pick('Voice for Tamil', ['Karthik']);
    await t.pick('how will you write it?', ['Type or paste it here']);
    await t.type('a line holding only a full stop', 'Ask three short questions.\n\nThank them by name.\n.');
    await t.pick('Tools the agent may use', ['take_message', 'summarize_call'], 'Type the numbers');
    await t.pick('Create this agent?', ['Create the agent']);
    expect(await running.done).toBe(0);
    const post = sb.requests.find((r) => r.method === 'POST' && r.path === '/agents');
    expect(post?.body).toMatchObject({
      language: 'ta-IN', voice_name: 'Karthik', name: 'Survey desk', prompt: 'Ask three short questions.\n\nThank them by name.', tools: ['take_message', 'summarize_call'],
    });
    expectPlain(running.stderr());
    expectPlain(running.stdout());
    expect(running.stderr()).toMatch(/\n {2}1\. /);
  });

  it('watch prints its progress as lines, with no redraw and no escape sequence (VOICECTL_ACCESSIBLE=1)', async () => {
    const all = await watched(await launched(3), { VOICECTL_ACCESSIBLE: '1' });
    expect(all).toMatch(/completed/i);
    expectPlain(all);
  }, 60_000);

  it('without accessible mode the same terminal gets a redrawn watch (so the test above can tell)', async () => {
    expect(await watched(await launched(2))).toContain('\u001b');
  }, 60_000);

  it('TERM=dumb and NO_COLOR: no escape sequences from watch either', async () => {
    const campaign = await launched(2);
    expectPlain(await watched(campaign, { TERM: 'dumb' }));
    expect(await watched(campaign, { NO_COLOR: '1' })).not.toMatch(/\u001b\[\d+m/);
  }, 60_000);
});
