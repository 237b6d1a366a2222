/**
 * A vitest reporter: after the run, one plain line per program from outside npm that
 * some tests needed and did not find (see requires.ts), with how many tests it cost and
 * the command that installs it:
 *
 *   zsh not found: 2 tests skipped; install it with: sudo apt-get install zsh
 *
 * Under CI=true those tests failed instead, and the line says so.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { MISSING, PROGRAMS, SKIP_NOTE, type Program } from './requires.js';

export function missingSummary(testModules: ReadonlyArray<TestModule>): string[] {
  const skipped = new Map<Program, number>();
  const failed = new Map<Program, number>();
  const add = (map: Map<Program, number>, name: string) => {
    if (name in PROGRAMS) map.set(name as Program, (map.get(name as Program) ?? 0) + 1);
  };
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'skipped') {
        const note = result.note ? SKIP_NOTE.exec(result.note) : null;
        for (const name of note?.[1]?.split(', ') ?? []) add(skipped, name);
      } else if (result.state === 'failed') {
        const names = new Set<string>();
        for (const error of result.errors ?? []) {
          for (const line of String(error.message ?? '').split('\n')) {
            const m = MISSING.exec(line);
            if (m) names.add(m[1]!);
          }
        }
        for (const name of names) add(failed, name);
      }
    }
  }
  const lines: string[] = [];
  const tests = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
  for (const program of Object.keys(PROGRAMS) as Program[]) {
    const install = `install it with: ${PROGRAMS[program].install}`;
    if (failed.has(program)) lines.push(`${program} not found: ${tests(failed.get(program)!)} failed (CI=true runs them all); ${install}`);
    if (skipped.has(program)) lines.push(`${program} not found: ${tests(skipped.get(program)!)} skipped; ${install}`);
  }
  return lines;
}

export default class MissingPrograms implements Reporter {
  private readonly others: Array<Promise<unknown>> = [];

  onInit(vitest: Vitest): void {
    // vitest ends the reporters side by side; these lines wait for the others' last words
    // (the JSON report's "written to …"), so they are the last lines of the run.
    // (`reporters` is vitest's own list, not in its typings)
    for (const reporter of (vitest as unknown as { reporters: Reporter[] }).reporters) {
      const end = reporter.onTestRunEnd;
      if (reporter === this || !end) continue;
      reporter.onTestRunEnd = (...args: Parameters<typeof end>) => {
        const done = Promise.resolve(end.apply(reporter, args));
        this.others.push(done.catch(() => undefined));
        return done;
      };
    }
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    await Promise.all(this.others.splice(0));
    const lines = missingSummary(testModules);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
