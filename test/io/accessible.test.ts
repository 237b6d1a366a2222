/**
 * Accessible mode (--accessible, VOICECTL_ACCESSIBLE=1) at a terminal: the agent wizard
 * and `watch` write plain lines, with no carriage-return redraws and no escape sequences,
 * and questions are numbered choices answered by typing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { start, type Running } from '../helpers/run.js';
import { tempDir } from '../helpers/temp.js';
import { clientFor, givenAgent, givenCampaign } from '../helpers/given.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandbox(): Promise<Sandbox> {
  const s = await startSandbox({ port: 0, timeScale: 600, seed: 3 });
  sandboxes.push(s);
  return s;
}

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

function expectPlain(text: string): void {
  expect(text).not.toContain('\r');
  expect(text).not.toContain('\u001b');
}

describe('accessible mode', () => {
  it('the agent wizard asks numbered questions, answered by typing, with no redraw and no escape sequence', async () => {
    const sb = await sandbox();
    const dir = tempDir();
    try {
      const running = start(['agent', 'create', '--accessible', '--name', 'Survey desk', '--greeting', 'Vanakkam!', '--call-purpose', 'Survey', '--kb', '', '--direction', 'outbound'], {
        env: envFor(sb, dir.dir), tty: TTY, openStdin: true,
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
    } finally {
      dir.remove();
    }
  });

  it('watch prints its progress as lines, with no redraw and no escape sequence (VOICECTL_ACCESSIBLE=1)', async () => {
    const sb = await sandbox();
    const api = clientFor(sb);
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 3);
    expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBeLessThan(300);
    const dir = tempDir();
    try {
      const running = start(['watch', campaign.id, '--interval', '1'], {
        env: envFor(sb, dir.dir, { VOICECTL_ACCESSIBLE: '1' }), tty: TTY, realTime: true,
      });
      expect(await running.done).toBe(0);
      const all = running.stdout() + running.stderr();
      expect(all).toMatch(/completed/i);
      expectPlain(all);
    } finally {
      dir.remove();
    }
  }, 60_000);

  it('without accessible mode the same terminal gets a redrawn watch (so the test above can tell)', async () => {
    const sb = await sandbox();
    const api = clientFor(sb);
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 2);
    expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBeLessThan(300);
    const dir = tempDir();
    try {
      const running = start(['watch', campaign.id, '--interval', '1'], { env: envFor(sb, dir.dir), tty: TTY, realTime: true });
      expect(await running.done).toBe(0);
      expect(running.stdout() + running.stderr()).toContain('\u001b');
    } finally {
      dir.remove();
    }
  }, 60_000);

  it('TERM=dumb and NO_COLOR: no escape sequences from watch either', async () => {
    const sb = await sandbox();
    const api = clientFor(sb);
    const agent = await givenAgent(api);
    const campaign = await givenCampaign(api, agent.id, 2);
    expect((await api('POST', `/campaigns/${campaign.id}/launch`)).status).toBeLessThan(300);
    const dir = tempDir();
    try {
      for (const extra of [{ TERM: 'dumb' }, { NO_COLOR: '1' }]) {
        const running = start(['watch', campaign.id, '--interval', '1'], { env: envFor(sb, dir.dir, extra), tty: TTY, realTime: true });
        expect(await running.done).toBe(0);
        const all = running.stdout() + running.stderr();
        if (extra.TERM === 'dumb') expectPlain(all);
        else expect(all).not.toMatch(/\u001b\[\d+m/);
      }
    } finally {
      dir.remove();
    }
  }, 60_000);
});
