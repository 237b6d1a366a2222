/**
 * Questions in accessible mode: plain lines a screen reader reads in order, answered by
 * typing a line. Choices are numbered and picked by number; nothing is redrawn, no
 * cursor moves, no colour. (The interactive menus of prompter.ts move a highlight with
 * the arrow keys, which screen readers follow badly.)
 */
import { createInterface, type Interface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import type { IoContext } from './streams.js';
import { InterruptedError } from '../errors.js';

interface Choice<T> {
  value: T;
  name?: string;
  description?: string;
  disabled?: boolean | string;
  checked?: boolean;
}

/** One line reader per run: a question may arrive before the answer is typed, or after (a paste of several answers). */
class Lines {
  private readonly queue: string[] = [];
  private waiter?: (line: string | undefined) => void;
  private ended = false;
  private readonly rl: Interface;

  constructor(ctx: IoContext) {
    this.rl = createInterface({ input: ctx.io.stdin, terminal: false, crlfDelay: Infinity });
    this.rl.on('line', (line) => {
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = undefined;
        w(line);
      } else this.queue.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      this.waiter?.(undefined);
      this.waiter = undefined;
    });
    ctx.onClose(() => this.rl.close());
  }

  next(signal: AbortSignal): Promise<string | undefined> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new InterruptedError('Cancelled'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (line) => {
        signal.removeEventListener('abort', onAbort);
        resolve(line);
      };
    });
  }
}

const readers = new WeakMap<IoContext, Lines>();

async function ask(ctx: IoContext, question: string): Promise<string> {
  let lines = readers.get(ctx);
  if (!lines) readers.set(ctx, (lines = new Lines(ctx)));
  ctx.io.stderr.write(question);
  const line = await lines.next(ctx.signal);
  if (line === undefined) {
    ctx.io.stderr.write('\n');
    throw new InterruptedError('Cancelled: the input ended before an answer.');
  }
  return line.trim();
}

function plain(text: string): string {
  return stripVTControlCharacters(text);
}

export async function plainConfirm(ctx: IoContext, message: string, def: boolean): Promise<boolean> {
  for (;;) {
    const a = (await ask(ctx, `${plain(message)} Type y for yes or n for no${def ? ', Enter for yes' : ', Enter for no'}: `)).toLowerCase();
    if (a === '') return def;
    if (a === 'y' || a === 'yes') return true;
    if (a === 'n' || a === 'no') return false;
    ctx.info('Please type y or n.');
  }
}

export async function plainInput(ctx: IoContext, message: string, options: { default?: string; required?: boolean; validate?: (v: string) => true | string }): Promise<string> {
  for (;;) {
    const typed = await ask(ctx, `${plain(message)}${options.default ? ` (Enter for: ${plain(options.default)})` : ''}: `);
    const value = typed === '' ? options.default ?? '' : typed;
    if (options.required && value.trim() === '') {
      ctx.info('An answer is needed.');
      continue;
    }
    const verdict = options.validate?.(value) ?? true;
    if (verdict === true) return value;
    ctx.info(plain(verdict));
  }
}

/** The choices as a numbered list; disabled ones are listed, unnumbered, with why. */
function listChoices<T>(ctx: IoContext, message: string, choices: Choice<T>[], mark?: (c: Choice<T>) => string): Array<Choice<T>> {
  ctx.info(plain(message));
  const numbered: Array<Choice<T>> = [];
  for (const c of choices) {
    const name = plain(c.name ?? String(c.value)).split('\n').join(' ');
    const desc = c.description ? `: ${plain(c.description).split('\n').join(' ')}` : '';
    if (c.disabled) {
      ctx.info(`  (not available) ${name}${typeof c.disabled === 'string' ? `, ${plain(c.disabled)}` : ''}`);
      continue;
    }
    numbered.push(c);
    ctx.info(`  ${numbered.length}. ${mark ? mark(c) : ''}${name}${desc}`);
  }
  return numbered;
}

export async function plainSelect<T>(ctx: IoContext, message: string, choices: Choice<T>[], def?: T): Promise<T> {
  const numbered = listChoices(ctx, message, choices);
  const defIndex = def === undefined ? -1 : numbered.findIndex((c) => c.value === def);
  for (;;) {
    const a = await ask(ctx, `Type a number from 1 to ${numbered.length}${defIndex >= 0 ? `, Enter for ${defIndex + 1}` : ''}: `);
    if (a === '' && defIndex >= 0) return numbered[defIndex]!.value;
    const n = Number(a);
    if (Number.isInteger(n) && n >= 1 && n <= numbered.length) return numbered[n - 1]!.value;
    ctx.info(`Please type a number from 1 to ${numbered.length}.`);
  }
}

export async function plainCheckbox<T>(ctx: IoContext, message: string, choices: Choice<T>[], required?: boolean): Promise<T[]> {
  const numbered = listChoices(ctx, message.replace(/\s*\(space to tick, enter to go on\)/, ''), choices, (c) => (c.checked ? '(chosen) ' : ''));
  const chosen = numbered.flatMap((c, i) => (c.checked ? [i + 1] : []));
  for (;;) {
    const a = await ask(ctx, `Type the numbers to choose, separated by commas${chosen.length ? `; Enter keeps ${chosen.join(', ')}; 0 for none` : ', or Enter for none'}: `);
    let picked: number[];
    if (a === '') picked = chosen;
    else if (a === '0') picked = [];
    else picked = a.split(/[\s,]+/).filter(Boolean).map(Number);
    if (picked.some((n) => !Number.isInteger(n) || n < 1 || n > numbered.length)) {
      ctx.info(`Please type numbers from 1 to ${numbered.length}.`);
      continue;
    }
    if (required && picked.length === 0) {
      ctx.info('Choose at least one.');
      continue;
    }
    return [...new Set(picked)].sort((x, y) => x - y).map((n) => numbered[n - 1]!.value);
  }
}

/** Several lines of text, until a line holding only "." (or the input's end). */
export async function plainMultiline(ctx: IoContext, message: string, current?: string): Promise<string> {
  ctx.info(plain(message));
  ctx.info(`Type or paste the text, then a line holding only a full stop.${current ? ' A full stop alone keeps the current text.' : ''}`);
  let lines = readers.get(ctx);
  if (!lines) readers.set(ctx, (lines = new Lines(ctx)));
  const out: string[] = [];
  for (;;) {
    const line = await lines.next(ctx.signal);
    if (line === undefined || line.trim() === '.') break;
    out.push(line);
  }
  const text = out.join('\n').replace(/\s+$/, '').replace(/^\n+/, '');
  return text === '' && current ? current : text;
}

/**
 * A secret, typed without echo: the terminal is put in raw mode for the one line, so the
 * key is neither shown nor read aloud. Backspace edits; Ctrl-C cancels.
 */
export async function plainPassword(ctx: IoContext, message: string): Promise<string> {
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  const raw = typeof stdin.setRawMode === 'function' && stdin.isTTY === true;
  if (raw) stdin.setRawMode(true);
  let line: string;
  try {
    line = await ask(ctx, `${plain(message)}. Typing is not shown: `);
  } finally {
    if (raw) stdin.setRawMode(false);
    if (raw) ctx.io.stderr.write('\n');
  }
  if (line.includes('\u0003')) throw new InterruptedError('Cancelled');
  let out = '';
  for (const ch of line) {
    if (ch === '\u007f' || ch === '\b') out = out.slice(0, -1);
    else out += ch;
  }
  return out;
}
