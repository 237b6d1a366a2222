/**
 * The signing secret from the command line of `listen` and `trigger`: `--secret S` is
 * visible to every user of the machine in the process list (`ps`), so it is accepted with
 * a warning, and `--secret-file FILE`, `--secret-stdin` and VOICECTL_WEBHOOK_SECRET keep
 * it out of there, as `--api-key` and VOICECTL_API_KEY do for the key.
 */
import { readUserText, userFileReason } from '../util/user-file.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** A signing secret is a line of text; a file much larger is not one. */
const SECRET_MAX_BYTES = 64 * 1024;

export interface SecretFlags {
  secret?: string;
  secretFile?: string;
  secretStdin?: boolean;
}

export async function secretFromFlags(ctx: Context, o: SecretFlags): Promise<string | undefined> {
  const given = [o.secret !== undefined && '--secret', o.secretFile !== undefined && '--secret-file', o.secretStdin && '--secret-stdin'].filter(Boolean);
  if (given.length > 1) throw new UsageError(`Give one of ${given.join(', ')}, not several.`);
  if (o.secret !== undefined) {
    ctx.warn('--secret is visible to other users of this machine in the process list; prefer VOICECTL_WEBHOOK_SECRET, --secret-file FILE or --secret-stdin.');
    return o.secret;
  }
  let text: string;
  if (o.secretFile !== undefined) {
    try {
      text = await readUserText(o.secretFile, { signal: ctx.signal, maxBytes: SECRET_MAX_BYTES });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new UsageError(`Cannot read the secret from ${o.secretFile}: ${userFileReason(err)}.`);
    }
  } else if (o.secretStdin) {
    try {
      text = await readUserText('-', { stdin: ctx.io.stdin, signal: ctx.signal, maxBytes: SECRET_MAX_BYTES });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw new UsageError(`Cannot read the secret from standard input: ${userFileReason(err)}.`);
    }
  } else {
    return undefined;
  }
  const secret = text.trim();
  if (secret === '') throw new UsageError(`${o.secretFile !== undefined ? o.secretFile : 'Standard input'} holds no secret.`);
  return secret;
}
