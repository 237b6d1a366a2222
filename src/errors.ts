/**
 * Errors a command can throw. Commands and the api layer throw; only main.ts turns
 * an error into an exit code and a message (see exitCodeFor there).
 */
import type { CommanderError } from '@commander-js/extra-typings';

/** The exit codes of CLI.md. */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, AUTH: 3, NOT_FOUND: 4, PLAN_LIMIT: 5, CHANGES_PENDING: 6, GUARDRAIL: 7, INTERRUPTED: 130 } as const;

/** commander's own errors: help shown (exit 0) or a bad command line (exit 2). It has already printed them. */
export function isCommanderError(err: unknown): err is CommanderError {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('commander.');
}

export function commanderExitCode(err: CommanderError): number {
  return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? EXIT.OK : EXIT.USAGE;
}

export interface CliErrorOptions {
  hint?: string;
  cause?: unknown;
  /** A stable machine word for scripts (`invalid_rows`), when the class's own is too broad (docs/errors.md). */
  code?: string;
  /** What a script needs to act on the error (the invalid rows with their row numbers). */
  details?: unknown;
}

export class CliError extends Error {
  /** A line or two telling the user what to do next. */
  hint?: string;
  code?: string;
  details?: unknown;
  constructor(message: string, options?: CliErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options?.hint;
    this.code = options?.code;
    this.details = options?.details;
  }
}

/** Bad flags, bad input files, missing input under --no-input: exit 2. */
export class UsageError extends CliError {}

/** No API key, or a key the service refused before any request (exit 3). */
export class AuthError extends CliError {}

/** Something the user asked for does not exist locally or remotely (exit 4). */
export class NotFoundError extends CliError {}

/** A local operation failed (a file could not be written, a watch timed out): exit 1. */
export class FailureError extends CliError {}

/** `plan --check` found the account differs from the files (exit 6): the plan is already printed. */
export class ChangesPendingError extends CliError {}

/** A guardrail stopped a run (the answer-rate breaker): exit 7. The journal holds why; --resume continues after a person looks. */
export class GuardrailError extends CliError {}

/** Ctrl-C, or a prompt closed by the user: exit 130. */
export class InterruptedError extends CliError {
  constructor(message = 'Interrupted') {
    super(message);
  }
}

/** The command ran and already reported its failure (for example `contacts validate` with bad rows). */
export class SilentExit extends Error {
  /**
   * `error`: what errors as JSON say (docs/errors.md) for a failure the command has
   * already shown in its own output; nothing is printed for a person.
   */
  constructor(readonly exitCode: number, readonly error?: { code: string; message: string; hint?: string; details?: unknown }) {
    super(`exit ${exitCode}`);
    this.name = 'SilentExit';
  }
}
