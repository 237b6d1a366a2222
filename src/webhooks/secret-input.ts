/**
 * The signing secret from the command line of `listen` and `trigger`: `--secret S` is
 * visible to every user of the machine in the process list (`ps`), so it is accepted with
 * a warning, and `--secret-file FILE`, `--secret-stdin` and VOICECTL_WEBHOOK_SECRET keep
 * it out of there, as `--api-key` and VOICECTL_API_KEY do for the key.
 */
import { readUserTextOr } from '../util/user-file.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** A signing secret is a line of text; a file much larger is not one. */
const SECRET_MAX_BYTES = 64 * 1024;

/**
 * Where the user said the secret is, each way named (a verb maps its flags onto these,
 * every key written out, so a flag renamed in its spec fails to compile there).
 */
export interface SecretSource {
  /** --secret: the secret itself. */
  value: string | undefined;
  /** --secret-file: a file holding it. */
  file: string | undefined;
  /** --secret-stdin: read it from standard input. */
  stdin: boolean;
}

export async function secretFromSource(ctx: Context, o: SecretSource): Promise<string | undefined> {
  const given = [o.value !== undefined && '--secret', o.file !== undefined && '--secret-file', o.stdin && '--secret-stdin'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`Give one of ${given.join(', ')}, not several.`);
  if (o.value !== undefined) {
    ctx.warn('--secret is visible to other users of this machine in the process list; prefer VOICECTL_WEBHOOK_SECRET, --secret-file FILE or --secret-stdin.');
    return o.value;
  }
  let text: string;
  if (o.file !== undefined) {
    text = await readUserTextOr(o.file, { signal: ctx.signal, maxBytes: SECRET_MAX_BYTES }, (reason) => new UsageError(`Cannot read the secret from ${o.file}: ${reason}.`));
  } else if (o.stdin) {
    text = await readUserTextOr('-', { stdin: ctx.io.stdin, signal: ctx.signal, maxBytes: SECRET_MAX_BYTES }, (reason) => new UsageError(`Cannot read the secret from standard input: ${reason}.`));
  } else {
    return undefined;
  }
  const secret = text.trim();
  if (secret === '') throw new UsageError(`${o.file !== undefined ? o.file : 'Standard input'} holds no secret.`);
  return secret;
}
