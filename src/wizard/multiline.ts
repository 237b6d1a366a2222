/**
 * Multi-line text typed or pasted at the terminal, for when no $EDITOR is set. inquirer's
 * input takes one line; here one readline session takes a whole paste, blank lines and
 * all, until a line holding only "." or Ctrl-D.
 */
import { createInterface } from 'node:readline';
import type { Context } from '../context.js';
import { InterruptedError } from '../errors.js';
import { promptStreams } from '../io/prompter.js';

export async function multiline(ctx: Context, message: string, options: { current?: string } = {}): Promise<string> {
  if (ctx.io.accessible) return (await import('../io/plain-prompt.js')).plainMultiline(ctx, message, options.current);
  const c = ctx.errColor;
  const { input, output } = promptStreams(ctx);
  const keep = options.current ? ' An empty answer keeps the current text.' : '';
  output.write(`${c.green('?')} ${c.bold(message)}\n${c.dim(`  Type or paste the text. End with a line holding only "." (or press Ctrl-D).${keep}`)}\n`);
  const rl = createInterface({ input, output, terminal: true, prompt: c.dim('│ ') });
  const lines: string[] = [];
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      rl.close();
      fn();
    };
    const done = () => finish(() => {
      const text = lines.join('\n').replace(/\s+$/, '').replace(/^\n+/, '');
      resolve(text === '' && options.current ? options.current : text);
    });
    const onAbort = () => finish(() => reject(new InterruptedError('Cancelled')));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    rl.on('line', (line) => {
      if (line.trim() === '.') return done();
      lines.push(line);
      rl.prompt();
    });
    rl.on('SIGINT', () => finish(() => reject(new InterruptedError('Cancelled'))));
    rl.on('close', done);
    rl.prompt();
  });
}
