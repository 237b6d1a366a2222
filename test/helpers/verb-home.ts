/** What every verb's test home (test/commands/<group>/<verb>.test.ts) checks first. */
import { expect, it } from 'vitest';

/** The verb's --help exits 0. `run`: how the file runs voicectl (in process, or the built binary). */
export function itShowsHelp(run: (args: string[]) => Promise<{ exitCode: number | null }>, verb: string[]): void {
  it('--help exits 0', async () => {
    expect((await run([...verb, '--help'])).exitCode).toBe(0);
  });
}
