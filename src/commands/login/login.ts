import type { Context } from '../../context.js';
import { listAgents } from '../../api/agents.js';
import { ApiError } from '../../api/errors.js';
import { maskKey } from '../../config/profiles.js';
import { checkApiKey, checkBaseUrl, checkProfileName, openStore } from '../../config/store.js';
import { AuthError, FailureError, NotFoundError, UsageError } from '../../errors.js';
import { input, password } from '../../io/prompter.js';
import { withSpinner } from '../../io/progress.js';
import { render } from '../../io/render.js';
import type { LoginFlags } from './definition.js';
import { isTerminal } from '../../io/terminal.js';

export type LoginOptions = LoginFlags;

export default async function login(ctx: Context, opts: LoginOptions): Promise<void> {
  const profile = checkProfileName(ctx.settings().profileName);
  const interactive = !opts.withKeyStdin && ctx.io.canPrompt();
  const baseUrl = await chooseBaseUrl(ctx, interactive);
  const apiKey = await chooseKey(ctx, opts, interactive);

  const canReadAgents = await verify(ctx, baseUrl, apiKey);

  const store = await openStore(ctx.env);
  await store.update(profile, { base_url: baseUrl, api_key: apiKey });

  if (!canReadAgents) {
    ctx.warn('the key works but lacks the "agents:read" scope, so agent commands will answer 403. Saved anyway.');
  }
  await render(ctx, {
    json: { profile, base_url: ctx.redact(baseUrl), api_key: maskKey(apiKey), path: store.path, agents_read: canReadAgents },
    layout: 'pretty',
    human: () => {
      ctx.info(ctx.errColor.green(`Logged in to ${ctx.redact(baseUrl)} with key ${maskKey(apiKey)}.`));
      ctx.info(`Saved to profile "${profile}" in ${store.path}`);
    },
  });
  // The environment beats the profile (CLI.md precedence): say so, or the next command surprises.
  const shadowing = [ctx.env.VOICECTL_API_KEY ? 'VOICECTL_API_KEY' : '', ctx.env.VOICECTL_BASE_URL ? 'VOICECTL_BASE_URL' : ''].filter(Boolean);
  if (shadowing.length > 0) {
    ctx.warn(`${shadowing.join(' and ')} ${shadowing.length > 1 ? 'are' : 'is'} set in this environment and take${shadowing.length > 1 ? '' : 's'} precedence over the saved profile.`);
  }
}

async function chooseBaseUrl(ctx: Context, interactive: boolean): Promise<string> {
  // An explicit flag is an answer: do not ask again.
  if (ctx.opts.baseUrl !== undefined) return checkBaseUrl(ctx.opts.baseUrl);
  const current = ctx.settings().baseUrl;
  if (interactive) {
    const answer = await input(ctx, 'Base URL of the service', {
      default: current,
      required: true,
      validate: (v) => {
        try {
          checkBaseUrl(v);
          return true;
        } catch (err) {
          return (err as Error).message;
        }
      },
    });
    return checkBaseUrl(answer);
  }
  if (!current) {
    throw new UsageError('No base URL to log in to.', {
      hint: 'Pass --base-url (or set VOICECTL_BASE_URL), for example: voicectl login --with-key-stdin --base-url https://api.example.com/v1',
    });
  }
  return checkBaseUrl(current);
}

async function chooseKey(ctx: Context, opts: LoginOptions, interactive: boolean): Promise<string> {
  if (opts.withKeyStdin) {
    if (ctx.opts.apiKey !== undefined) throw new UsageError('Pass --api-key or --with-key-stdin, not both.');
    const key = (await readAll(ctx)).trim();
    if (key === '') {
      throw new UsageError('No API key on stdin.', { hint: 'Pipe the key in, for example: printf \'%s\' "$KEY" | voicectl login --with-key-stdin' });
    }
    return checkApiKey(key);
  }
  if (ctx.opts.apiKey !== undefined) return checkApiKey(ctx.opts.apiKey);
  if (interactive) {
    const key = (await password(ctx, 'API key (input is hidden)')).trim();
    if (key === '') throw new UsageError('No API key entered: nothing saved.');
    return checkApiKey(key);
  }
  const fromEnv = ctx.env.VOICECTL_API_KEY;
  if (fromEnv) return checkApiKey(fromEnv);
  throw new UsageError('No API key given, and no one is at a terminal to type it.', {
    hint: 'Pipe it in with --with-key-stdin, for example: printf \'%s\' "$KEY" | voicectl login --with-key-stdin --base-url URL',
  });
}

async function readAll(ctx: Context): Promise<string> {
  const stdin = ctx.io.stdin;
  if (isTerminal(ctx, 'stdin')) ctx.info(ctx.errColor.dim('Reading the API key from stdin; end with Ctrl-D.'));
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One cheap read with the new credentials. True when it worked, false when the key is
 * valid but may not read agents (403); anything else is an error and nothing is saved.
 */
async function verify(ctx: Context, baseUrl: string, apiKey: string): Promise<boolean> {
  const api = await ctx.apiWith({ baseUrl, apiKey });
  try {
    await withSpinner(ctx, 'Checking the key', () => listAgents(api, { limit: 1 }));
    return true;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 403) return false;
    // A server could echo the key it refused; it must not reach the terminal or a CI log.
    const reason = err.message.split(apiKey).join(maskKey(apiKey)).replace(/\.$/, '');
    if (err.status === 401) {
      throw new AuthError(`The service refused the key ${maskKey(apiKey)} (401): ${reason}. Nothing was saved.`, {
        hint: 'Check that you copied the whole key, and that it belongs to the service at this base URL.',
      });
    }
    if (err.status === 404) {
      throw new NotFoundError(`${baseUrl} has no /agents endpoint (404). Nothing was saved.`, {
        hint: 'Check the base URL: it usually includes the API\'s path prefix, for example https://api.example.com/v1.',
      });
    }
    if (err.kind === 'network' || err.kind === 'timeout') {
      throw new FailureError(`Could not reach ${baseUrl}: ${reason}. Nothing was saved.`, {
        hint: 'Check the base URL and the network (behind a proxy, set HTTPS_PROXY).',
      });
    }
    throw new FailureError(`Could not check the key: ${reason}. Nothing was saved.`);
  }
}
