/**
 * Errors a command can throw. Commands and the api layer throw; only main.ts turns
 * an error into an exit code and a message (see exitCodeFor there).
 */
export class CliError extends Error {
    /** A line or two telling the user what to do next. */
    hint;
    constructor(message, options) {
        super(message, options?.cause === undefined ? undefined : { cause: options.cause });
        this.name = new.target.name;
        this.hint = options?.hint;
    }
}
/** Bad flags, bad input files, missing input under --no-input: exit 2. */
export class UsageError extends CliError {
}
/** No API key, or a key the service refused before any request (exit 3). */
export class AuthError extends CliError {
}
/** Something the user asked for does not exist locally or remotely (exit 4). */
export class NotFoundError extends CliError {
}
/** A local operation failed (a file could not be written, a watch timed out): exit 1. */
export class FailureError extends CliError {
}
/** Ctrl-C, or a prompt closed by the user: exit 130. */
export class InterruptedError extends CliError {
    constructor(message = 'Interrupted') {
        super(message);
    }
}
/** The command ran and already reported its failure (for example `contacts validate` with bad rows). */
export class SilentExit extends Error {
    exitCode;
    constructor(exitCode) {
        super(`exit ${exitCode}`);
        this.exitCode = exitCode;
        this.name = 'SilentExit';
    }
}
