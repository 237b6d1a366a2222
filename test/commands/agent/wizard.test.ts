/**
 * The agent wizard, driven in process: run(argv, ctx) with a stdin that claims to be a
 * terminal and fake TTY output streams; keystrokes are written once each question shows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { start, type Running } from '../../helpers/run.js';
import { startSandbox, type Plan, type Sandbox } from '../../../src/sandbox/index.js';

const ENTER = '\r';
const DOWN = '\u001b[B';
const UP = '\u001b[A';
const CTRL_C = '\u0003';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'voicectl-wizard-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});

async function sandbox(plan?: Partial<Plan>): Promise<Sandbox> {
  const s = await startSandbox({ port: 0, timeScale: 600, seed: 3, plan });
  sandboxes.push(s);
  return s;
}

/** A terminal session with the CLI: what it printed on stderr (where prompts go), and a keyboard. */
class Session {
  private readonly running: Running;
  /** Where the next wait starts looking: each question appears after the previous one. */
  private cursor = 0;
  readonly done: Promise<number>;

  constructor(sb: Sandbox, argv: string[], env: Record<string, string> = {}) {
    this.running = start(argv, {
      env: { VOICECTL_BASE_URL: sb.url, VOICECTL_API_KEY: sb.apiKey, VOICECTL_CONFIG_DIR: dir, ...env },
      tty: { stdin: true, stdout: true, stderr: true, columns: 120, rows: 40 },
      openStdin: true,
    });
    this.done = this.running.done;
  }

  get out(): string {
    return this.running.stdout();
  }

  private get err(): string {
    return this.running.stderr();
  }

  get screen(): string {
    return stripVTControlCharacters(this.err);
  }

  /** Waits until `text` is on screen past the last thing waited for. */
  async waitFor(text: string, ms = 10_000): Promise<void> {
    const until = Date.now() + ms;
    for (;;) {
      const at = this.screen.indexOf(text, this.cursor);
      if (at >= 0) {
        this.cursor = at + text.length;
        return;
      }
      if (Date.now() > until) throw new Error(`"${text}" never appeared; the screen was:\n${this.screen.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  press(keys: string): void {
    this.running.stdin.write(keys);
  }

  /** Ctrl-C as a signal (SIGINT), not a key read by a question: the run's signal is aborted. */
  interrupt(): Promise<number> {
    return this.running.interrupt();
  }

  async answer(question: string, text: string): Promise<void> {
    await this.waitFor(question);
    this.press(text + ENTER);
  }

  /** The choices of the question as last drawn: its lines up to the blank line under the list. */
  private choices(question: string): string[] {
    const screen = this.screen;
    const at = screen.lastIndexOf(question);
    const lines = screen.slice(at).split('\n').slice(1);
    const end = lines.findIndex((l) => l.trim() === '');
    return lines.slice(0, end < 0 ? lines.length : end);
  }

  private async moveTo(question: string, label: string, from: number): Promise<number> {
    const lines = this.choices(question);
    const target = lines.findIndex((l) => l.includes(label));
    if (target < 0) throw new Error(`no choice "${label}" in:\n${lines.join('\n')}`);
    const selectable = (i: number) => !lines[i]!.startsWith('- ');
    let keys = '';
    for (let i = Math.min(from, target); i < Math.max(from, target); i++) {
      if (selectable(target > from ? i + 1 : i)) keys += target > from ? DOWN : UP;
    }
    this.press(keys);
    return target;
  }

  /** Picks the choice whose line contains `label` in a select question. */
  async choose(question: string, label: string): Promise<void> {
    await this.waitFor(question);
    await this.waitFor('⏎');
    const from = this.choices(question).findIndex((l) => l.startsWith('❯'));
    await this.moveTo(question, label, from);
    this.press(ENTER);
  }

  /** Ticks the choices containing each label in a checkbox question, then submits. */
  async tick(question: string, labels: string[]): Promise<void> {
    await this.waitFor(question);
    await this.waitFor('⏎');
    let at = this.choices(question).findIndex((l) => l.startsWith('❯'));
    for (const label of labels) {
      at = await this.moveTo(question, label, at);
      this.press(' ');
    }
    this.press(ENTER);
  }
}

const agentPosts = (sb: Sandbox) => sb.requests.filter((r) => r.method === 'POST' && r.path === '/agents');

describe('agent create wizard', () => {
  it('asks every question, uploads documents first when asked, reviews, and creates the agent with the answers', async () => {
    const sb = await sandbox();
    writeFileSync(join(dir, 'menu.md'), '# Menu\nWe serve idli, dosa and filter coffee.');
    const s = new Session(sb, ['agent', 'create']);
    await s.choose('Language of the calls', 'Tamil');
    await s.choose('Voice for Tamil', 'Karthik');
    // Voices are marked when they handle mixed-language speech, with their demo link.
    expect(s.screen).toMatch(/Meera\s+female · ⇄ code-switching/);
    expect(s.screen).toMatch(/Listen: http:\/\/127\.0\.0\.1:\d+\/voices\/[0-9a-f-]+\/demo\.wav/);
    await s.answer('Name of the agent', 'Survey desk');
    await s.answer('Greeting', 'Vanakkam!');
    await s.answer('Call purpose', 'Short customer survey');
    await s.choose('how will you write it?', 'Type or paste it here');
    await s.waitFor('End with a line holding only "."');
    s.press(`Ask three short questions.${ENTER}${ENTER}Thank them by name.${ENTER}.${ENTER}`);
    await s.tick('Tools the agent may use', ['take_message', 'summarize_call']);
    await s.choose('Knowledge-base documents', 'Upload files or folders now');
    await s.answer('File or folder to upload', join(dir, 'menu.md'));
    await s.answer('Another file or folder', '');
    await s.answer('Folder in the knowledge base', 'restaurant');
    await s.waitFor('Documents');
    await s.waitFor('◉ restaurant/menu.md');
    s.press(ENTER);
    await s.choose('Direction', 'inbound');
    await s.choose('Create this agent?', 'Create the agent');
    expect(await s.done).toBe(0);
    const review = s.screen.slice(s.screen.lastIndexOf('Review the new agent'));
    expect(review).toMatch(/Language\s+Tamil · ta-IN/);
    expect(review).toMatch(/Voice\s+Karthik/);
    expect(review).toMatch(/Prompt\s+Ask three short questions\.\n\s*\n\s+Thank them by name\./);
    expect(review).toMatch(/Documents\s+restaurant\/menu\.md/);

    const upload = sb.requests.find((r) => r.method === 'POST' && r.path === '/kb/items');
    expect(upload).toBeDefined();
    const posts = agentPosts(sb);
    expect(posts).toHaveLength(1);
    const docId = Object.values(sb.world.org('org_sandbox').kb.items).find((i) => i.name === 'menu.md')?.id;
    expect(posts[0]!.body).toEqual({
      language: 'ta-IN', voice_name: 'Karthik', name: 'Survey desk', greeting: 'Vanakkam!', call_purpose: 'Short customer survey',
      prompt: 'Ask three short questions.\n\nThank them by name.', tools: ['take_message', 'summarize_call'], kb_item_ids: [docId], direction: 'inbound',
    });
    const id = JSON.parse(JSON.stringify(Object.values(sb.world.org('org_sandbox').agents)[0])).id as string;
    expect(s.out).toContain(id);
    expect(s.screen).toContain(`Next: voicectl campaign create --agent ${id}`);
  });

  it('skips the questions the flags answer, and lets the review change a field', async () => {
    const sb = await sandbox();
    const s = new Session(sb, ['agent', 'create', '--name', 'Delivery desk', '--voice', 'Priya', '--greeting', 'Namaste!',
      '--prompt', 'Confirm the slot.', '--tools', 'schedule_callback']);
    await s.waitFor('From your flags: voice (--voice), name (--name), greeting (--greeting), prompt (--prompt), tools (--tools)');
    await s.answer('Call purpose', 'Confirm delivery slots');
    await s.choose('Knowledge-base documents', 'No documents');
    await s.choose('Direction', 'outbound');
    await s.choose('Create this agent?', 'Go back and change a field');
    await s.choose('Which field?', 'Greeting');
    await s.answer('Greeting (what the agent says first)', 'Namaste! Main Priya bol rahi hoon.');
    await s.choose('Create this agent?', 'Create the agent');
    expect(await s.done).toBe(0);
    const firstPass = s.screen.slice(0, s.screen.indexOf('Review the new agent'));
    for (const asked of ['Language of the calls', 'Voice for', 'Name of the agent', 'Greeting (', 'how will you write it?', 'Tools the agent may use']) {
      expect(firstPass).not.toContain(asked);
    }
    expect(agentPosts(sb)[0]!.body).toEqual({
      name: 'Delivery desk', voice_name: 'Priya', greeting: 'Namaste! Main Priya bol rahi hoon.', call_purpose: 'Confirm delivery slots',
      prompt: 'Confirm the slot.', tools: ['schedule_callback'], kb_item_ids: [], direction: 'outbound',
    });
  });

  const allButVoice = ['--name', 'Polyglot', '--greeting', 'Hello!', '--call-purpose', 'Say hello', '--prompt', 'Be kind.', '--tools', 'summarize_call', '--kb', '', '--direction', 'outbound'];
  const allButGreeting = ['--name', 'Polyglot', '--voice', 'Ananya', '--call-purpose', 'Say hello', '--prompt', 'Be kind.', '--tools', '', '--kb', '', '--direction', 'outbound'];

  it('a language the plan lacks (402) is explained, and the wizard goes back to pick another language and voice', async () => {
    const sb = await sandbox({ languages: ['en-IN', 'hi-IN'] });
    const s = new Session(sb, ['agent', 'create', ...allButVoice]);
    await s.choose('Language of the calls', 'Tamil');
    await s.choose('Voice for Tamil', 'Meera');
    await s.choose('Create this agent?', 'Create the agent');
    await s.waitFor('Your plan does not include the language ta-IN');
    await s.choose('What now?', 'Pick another language and voice');
    await s.choose('Language of the calls', 'Hindi');
    expect(s.screen).toMatch(/- Tamil · ta-IN · 2 voices not in your plan/);
    await s.choose('Voice for Hindi', 'Kabir');
    await s.choose('Create this agent?', 'Create the agent');
    expect(await s.done).toBe(0);
    const posts = agentPosts(sb);
    expect(posts.map((p) => [(p.body as { language: string }).language, (p.body as { voice_name: string }).voice_name])).toEqual([['ta-IN', 'Meera'], ['hi-IN', 'Kabir']]);
    expect(posts[1]!.body).toMatchObject({ name: 'Polyglot', greeting: 'Hello!', tools: ['summarize_call'], kb_item_ids: [] });
  });

  it('the agent limit (402) is explained; after an agent is deleted elsewhere, trying again creates it', async () => {
    const sb = await sandbox({ agent_limit: 1 });
    const org = sb.world.org('org_sandbox');
    org.agents.x = { id: 'x', name: 'Old', status: 'active', language: 'en-IN', voice_name: 'Ananya', greeting: '', call_purpose: '', prompt: '', tools: [], kb_item_ids: [], direction: 'outbound', phone_number: null, created_at: '', updated_at: '' };
    const promptFile = join(dir, 'prompt.txt');
    writeFileSync(promptFile, 'Collect the order number.\nThen read it back.\n');
    const s = new Session(sb, ['agent', 'create', '--name', 'Orders', '--voice', 'Aarav', '--greeting', 'Hi', '--call-purpose', 'Orders', '--tools', '', '--kb', '', '--direction', 'outbound']);
    await s.choose('how will you write it?', 'Read it from a file');
    await s.answer('Path of the prompt file', promptFile);
    await s.choose('Create this agent?', 'Create the agent');
    await s.waitFor('Your plan allows no more agents');
    delete org.agents.x;
    await s.choose('What now?', 'Try again');
    expect(await s.done).toBe(0);
    expect(agentPosts(sb)).toHaveLength(2);
    expect(agentPosts(sb)[1]!.body).toMatchObject({ prompt: 'Collect the order number.\nThen read it back.' });
  });

  it('quitting after a 402 creates nothing and exits 5', async () => {
    const sb = await sandbox({ agent_limit: 0 });
    const s = new Session(sb, ['agent', 'create', ...allButGreeting]);
    await s.answer('Greeting', 'Hi');
    await s.choose('Create this agent?', 'Create the agent');
    await s.choose('What now?', 'Quit without creating');
    expect(await s.done).toBe(5);
    expect(s.screen).toContain('No agent was created.');
    expect(Object.keys(sb.world.org('org_sandbox').agents)).toHaveLength(0);
  });

  it('Ctrl-C at a question creates nothing (exit 130)', async () => {
    const sb = await sandbox();
    const s = new Session(sb, ['agent', 'create']);
    await s.choose('Language of the calls', 'Hindi');
    await s.waitFor('Voice for Hindi');
    s.press(CTRL_C);
    expect(await s.done).toBe(130);
    expect(s.screen).toContain('Cancelled: no agent was created.');
    expect(agentPosts(sb)).toHaveLength(0);
  });

  it('Ctrl-C while typing the prompt, or Cancel on the review, creates nothing (exit 130)', async () => {
    const sb = await sandbox();
    const typing = new Session(sb, ['agent', 'create', '--name', 'A', '--voice', 'Priya', '--greeting', 'G', '--call-purpose', 'P']);
    await typing.choose('how will you write it?', 'Type or paste it here');
    await typing.waitFor('End with a line');
    typing.press(`First line${ENTER}${CTRL_C}`);
    expect(await typing.done).toBe(130);

    const review = new Session(sb, ['agent', 'create', ...allButGreeting]);
    await review.answer('Greeting', 'Hi');
    await review.choose('Create this agent?', 'Cancel');
    expect(await review.done).toBe(130);
    expect(agentPosts(sb)).toHaveLength(0);
  });

  it('without a terminal (--no-input) the missing fields are exit 2 naming the flags, and nothing is asked', async () => {
    const sb = await sandbox();
    const s = new Session(sb, ['agent', 'create', '--name', 'A', '--no-input']);
    expect(await s.done).toBe(2);
    expect(s.screen).toContain('Missing --voice, --greeting, --call-purpose, --prompt or --prompt-file');
    expect(s.screen).not.toContain('Language of the calls');
  });
});

describe('files uploaded from the wizard, when it ends without an agent', () => {
  // Greeting and documents are asked (a missing greeting is what starts the wizard).
  const allButKb = ['--name', 'Menu desk', '--voice', 'Priya', '--call-purpose', 'Menus', '--prompt', 'Read the menu.', '--tools', '', '--direction', 'outbound'];
  const items = (sb: Sandbox) => Object.values(sb.world.org('org_sandbox').kb.items);

  async function uploadThenStop(sb: Sandbox, files: string[]): Promise<Session> {
    const s = new Session(sb, ['agent', 'create', ...allButKb]);
    await s.answer('Greeting', 'Hi');
    await s.choose('Knowledge-base documents', 'Upload files');
    for (const [i, f] of files.entries()) await s.answer(i === 0 ? 'File or folder to upload' : 'Another file or folder', f);
    await s.answer('Another file or folder', '');
    await s.answer('Folder in the knowledge base', 'restaurant');
    await s.waitFor('Documents');
    await s.waitFor('◉ restaurant/');
    return s;
  }

  it('after Ctrl-C, names the files already uploaded and deletes them when asked to', async () => {
    const sb = await sandbox();
    writeFileSync(join(dir, 'menu.md'), '# Menu\nIdli and dosa.');
    writeFileSync(join(dir, 'hours.md'), '# Hours\nOpen 8 to 10.');
    const s = await uploadThenStop(sb, [join(dir, 'menu.md'), join(dir, 'hours.md')]);
    expect(items(sb).filter((i) => i.type !== 'folder')).toHaveLength(2);
    const ids = items(sb).filter((i) => i.type !== 'folder').map((i) => i.id);
    s.press(CTRL_C);
    await s.waitFor('the wizard had uploaded these 2 files to the knowledge base');
    await s.waitFor('Delete these 2 files from the knowledge base?');
    s.press(`y${ENTER}`);
    expect(await s.done).toBe(130);
    expect(s.screen).toContain('deleted restaurant/menu.md');
    expect(s.screen).toContain('deleted restaurant/hours.md');
    expect(s.screen).toContain('Cancelled: no agent was created.');
    for (const id of ids) expect(sb.requests.some((r) => r.method === 'DELETE' && r.path === `/kb/items/${id}`)).toBe(true);
    expect(items(sb).filter((i) => ids.includes(i.id))).toHaveLength(0);
    expect(agentPosts(sb)).toHaveLength(0);
  });

  it('kept when the answer is no, with the command that deletes each', async () => {
    const sb = await sandbox();
    writeFileSync(join(dir, 'menu.md'), '# Menu\nIdli and dosa.');
    const s = await uploadThenStop(sb, [join(dir, 'menu.md')]);
    const id = items(sb).find((i) => i.name === 'menu.md')!.id;
    s.press(CTRL_C);
    await s.waitFor('Delete it from the knowledge base?');
    s.press(ENTER);
    expect(await s.done).toBe(130);
    expect(s.screen).toContain(`restaurant/menu.md  ${id}`);
    expect(s.screen).toContain(`voicectl kb delete ${id} --yes`);
    expect(sb.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('when the run itself is interrupted, asks nothing and prints the ids and the delete commands', async () => {
    const sb = await sandbox();
    writeFileSync(join(dir, 'menu.md'), '# Menu\nIdli and dosa.');
    const s = await uploadThenStop(sb, [join(dir, 'menu.md')]);
    const id = items(sb).find((i) => i.name === 'menu.md')!.id;
    expect(await s.interrupt()).toBe(130);
    expect(s.screen).toContain(`restaurant/menu.md  ${id}`);
    expect(s.screen).toContain(`voicectl kb delete ${id} --yes`);
    expect(s.screen).not.toContain('Delete it from the knowledge base?');
    expect(sb.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('quitting after a plan limit offers the same clean-up', async () => {
    const sb = await sandbox({ agent_limit: 0 });
    writeFileSync(join(dir, 'menu.md'), '# Menu\nIdli and dosa.');
    const s = await uploadThenStop(sb, [join(dir, 'menu.md')]);
    s.press(ENTER);
    await s.choose('Create this agent?', 'Create the agent');
    await s.choose('What now?', 'Quit without creating');
    await s.waitFor('Delete it from the knowledge base?');
    s.press(`y${ENTER}`);
    expect(await s.done).toBe(5);
    expect(s.screen).toContain('deleted restaurant/menu.md');
    expect(items(sb).filter((i) => i.name === 'menu.md')).toHaveLength(0);
  });

  it('a file that replaced a document of the same name is named, never offered for deletion', async () => {
    const sb = await sandbox();
    writeFileSync(join(dir, 'menu.md'), '# Menu\nIdli and dosa.');
    const first = await uploadThenStop(sb, [join(dir, 'menu.md')]);
    first.press(CTRL_C);
    await first.waitFor('Delete it from the knowledge base?');
    first.press(ENTER);
    expect(await first.done).toBe(130);
    const id = items(sb).find((i) => i.name === 'menu.md')!.id;
    const again = await uploadThenStop(sb, [join(dir, 'menu.md')]);
    again.press(CTRL_C);
    expect(await again.done).toBe(130);
    const tail = again.screen.slice(again.screen.lastIndexOf('Documents'));
    expect(tail).toMatch(/replaced a document of the same name, keeping its id/);
    expect(tail).toContain(`restaurant/menu.md  ${id}`);
    expect(tail).not.toContain('Delete it');
    expect(tail).not.toContain('kb delete');
    expect(sb.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });
});
