/**
 * A Context for tests that hand one to a function directly (a view, a renderer, a workflow)
 * rather than running a whole command: fake streams that keep what was written, an empty
 * environment unless given, and the global options already parsed. Nothing in voicectl
 * imports this file, so it never reaches the bundle; tests that run a whole command use
 * test/helpers/run.ts instead.
 */
import { PassThrough } from 'node:stream';
import { Context, type ContextInit, type GlobalOptions, type Streams } from './context.js';

export interface TestContextInit extends Partial<ContextInit> {
  /** The global options, as if commander had parsed them. */
  opts?: GlobalOptions;
}

export class TestContext extends Context {
  private written = { stdout: '', stderr: '' };

  constructor(init: TestContextInit = {}) {
    const io: Streams = init.io ?? { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
    super({ ...init, io, env: init.env ?? {} });
    for (const name of ['stdout', 'stderr'] as const) {
      (io[name] as NodeJS.WritableStream & NodeJS.EventEmitter).on?.('data', (d: Buffer) => { this.written[name] += d.toString(); });
    }
    if (init.opts) this.opts = init.opts;
  }

  /** Everything written to stdout so far, as text. */
  stdoutText(): string {
    return this.written.stdout;
  }

  /** Everything written to stderr so far, as text. */
  stderrText(): string {
    return this.written.stderr;
  }
}

export function testContext(init: TestContextInit = {}): TestContext {
  return new TestContext(init);
}
