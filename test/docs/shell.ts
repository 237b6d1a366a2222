/**
 * One bash session for one document, as a person at a terminal keeps one open: what a
 * command exports or writes is there for the next. Each command's output goes to its own
 * files; `start` leaves a command running in the background (its own process group,
 * so Ctrl-C reaches the whole pipeline) until `interrupt`.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

export class Shell {
  private readonly proc: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiters = new Map<string, (value: string) => void>();
  private count = 0;
  private readonly background = new Map<number, { n: number; pid: number }>();

  constructor(private readonly cwd: string, private readonly outDir: string, env: Record<string, string>) {
    // A session of its own: whatever it leaves running (a command that timed out) is ended with it.
    this.proc = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const m = /^::(\w+ \d+) (.*)$/.exec(line);
        if (m) this.waiters.get(m[1]!)?.(m[2]!);
      }
    });
    this.proc.stderr.resume();
    // job control: every background command leads its own process group
    this.proc.stdin.write('set -m\n');
  }

  private answer(key: string, ms: number, what: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
      this.waiters.set(key, (v) => {
        clearTimeout(timer);
        this.waiters.delete(key);
        resolve(v);
      });
    });
  }

  private files(n: number): { out: string; err: string } {
    return { out: join(this.outDir, `${n}.stdout`), err: join(this.outDir, `${n}.stderr`) };
  }

  output(n: number): Omit<Outcome, 'code'> {
    const f = this.files(n);
    const read = (p: string) => {
      try {
        return readFileSync(p, 'utf8');
      } catch {
        return '';
      }
    };
    return { stdout: read(f.out), stderr: read(f.err) };
  }

  /** Runs one command to its end (stdin is empty, as for a command pasted alone). */
  async run(command: string, ms = 90_000): Promise<Outcome> {
    const n = ++this.count;
    const f = this.files(n);
    const done = this.answer(`done ${n}`, ms, command);
    this.proc.stdin.write(`{ ${command}\n} > '${f.out}' 2> '${f.err}' < /dev/null\necho "::done ${n} $?"\n`);
    const code = Number(await done);
    return { code, ...this.output(n) };
  }

  /** Starts a command in the background; resolves with its number once it runs. */
  async start(command: string): Promise<number> {
    const n = ++this.count;
    const f = this.files(n);
    const started = this.answer(`bg ${n}`, 10_000, command);
    this.proc.stdin.write(`{ ${command}\n} > '${f.out}' 2> '${f.err}' < /dev/null &\necho "::bg ${n} $!"\n`);
    const pid = Number(await started);
    this.background.set(n, { n, pid });
    return n;
  }

  /**
   * Waits until a background command's output satisfies `seen` (true) or the command has
   * ended (false), for at most `ms` (false).
   */
  async until(n: number, seen: (o: Omit<Outcome, 'code'>) => boolean, ms: number): Promise<boolean> {
    const job = this.background.get(n);
    if (!job) throw new Error(`no background command ${n}`);
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      if (seen(this.output(n))) return true;
      try {
        process.kill(job.pid, 0);
      } catch {
        return seen(this.output(n)); // ended (bash has collected it)
      }
    }
    return false;
  }

  running(): number[] {
    return [...this.background.keys()];
  }

  /** Ctrl-C to a background command's whole process group; its exit code and output. */
  async interrupt(n: number): Promise<Outcome> {
    const job = this.background.get(n);
    if (!job) throw new Error(`no background command ${n}`);
    this.background.delete(n);
    const done = this.answer(`done ${n}`, 20_000, `stopping command ${n}`);
    this.proc.stdin.write(`wait ${job.pid}; echo "::done ${n} $?"\n`);
    // the waiter is written first, so the exit is collected however fast it comes
    await new Promise((r) => setTimeout(r, 50));
    try {
      process.kill(-job.pid, 'SIGINT');
    } catch {
      // already ended on its own
    }
    const code = Number(await done);
    return { code, ...this.output(n) };
  }

  async close(): Promise<void> {
    for (const n of this.running()) await this.interrupt(n).catch(() => undefined);
    this.proc.stdin.end('exit 0\n');
    const exited = new Promise<void>((r) => {
      if (this.proc.exitCode !== null) r();
      else this.proc.once('exit', () => r());
    });
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
    spawnSync('pkill', ['-KILL', '-s', String(this.proc.pid)], { stdio: 'ignore' });
    await exited;
  }

  get directory(): string {
    return this.cwd;
  }
}
