/**
 * One runner per journal: a run holds the journal's lock from its first write to its end;
 * a second runner is refused (exit 1) naming the journal; a lock whose process is gone
 * (on this machine) is taken over, and when several runners find the same stale lock
 * exactly one goes on. The journal is readable by its owner only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { FailureError } from '../../../src/errors.js';
import { lockJournal } from '../../../src/campaigns/run/lock.js';
import { tempDir } from '../../helpers/temp.js';
import { placedCalls, simWorldForFile, writeContacts } from './sim.js';

const CHILD = fileURLToPath(new URL('./child.cjs', import.meta.url));

/** The pid of a process of this machine that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  return r.pid;
}

function staleLock(journal: string, owner: Record<string, unknown>): void {
  mkdirSync(`${journal}.lock`);
  writeFileSync(join(`${journal}.lock`, 'owner.json'), JSON.stringify({ since: '2026-01-15T02:00:00.000Z', ...owner }));
}

const refusal = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FailureError);
    return (err as Error).message;
  }
  throw new Error('the lock was taken');
};

describe('lockJournal', () => {
  const tmp = tempDir('voicectl-run-lock-');

  it('refuses a second holder naming the journal, and is free again once released', async () => {
    const journal = join(tmp.dir, 'a.run.json');
    const first = await lockJournal(journal);
    expect(await refusal(lockJournal(journal))).toContain(`another run is using ${journal}`);
    await first.release();
    expect(existsSync(`${journal}.lock`)).toBe(false);
    const again = await lockJournal(journal);
    await again.release();
  });

  it('takes over a lock whose process is gone: of twenty runners that find it at once, exactly one', async () => {
    const journal = join(tmp.dir, 'b.run.json');
    staleLock(journal, { pid: deadPid(), host: hostname(), token: 'aaaaaaaaaaaaaaaa' });
    // All twenty judge it stale first; then they go on one at a time, each once the one
    // before has taken the lock or been refused (a runner that judged it stale earlier must
    // not take a lock another runner holds by now).
    const N = 20;
    const turns = Array.from({ length: N }, () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    });
    let arrived = 0;
    const stale = async (i: number) => {
      if (++arrived === N) turns[0]!.resolve();
      await turns[i]!.promise;
    };
    const attempts = Array.from({ length: N }, (_, i) => lockJournal(journal, { onStale: () => stale(i) }));
    attempts.forEach((p, i) => void p.finally(() => turns[i + 1]?.resolve()).catch(() => {}));
    const tries = await Promise.allSettled(attempts);
    const won = tries.filter((t) => t.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const t of tries) if (t.status === 'rejected') expect(String(t.reason.message)).toContain(`another run is using ${journal}`);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof lockJournal>>>).value.release();
    // Nothing of the takeover is left beside the journal.
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith('b.run.json'))).toEqual([]);
  });

  it('never takes over a lock of a process that runs, or of another machine', async () => {
    const live = join(tmp.dir, 'c.run.json');
    staleLock(live, { pid: process.ppid, host: hostname(), token: 'bbbbbbbbbbbbbbbb' });
    expect(await refusal(lockJournal(live))).toContain(`another run is using ${live} (process ${process.ppid} on this machine`);
    const remote = join(tmp.dir, 'd.run.json');
    staleLock(remote, { pid: deadPid(), host: 'elsewhere.example', token: 'cccccccccccccccc' });
    const message = await refusal(lockJournal(remote));
    expect(message).toContain('on elsewhere.example');
  });
});

// 02:00 UTC: India's 09:00-21:00 window opens at 03:30 UTC, an hour and a half away.
const w = simWorldForFile('voicectl-run-lock-e2e-', { startAt: '2026-01-15T02:00:00Z', timeScale: 2000 });

function india(n: number): Array<{ phone_number: string; name: string }> {
  return Array.from({ length: n }, (_, i) => ({ phone_number: `+9198765${String(40_000 + i)}`, name: `India ${i}` }));
}

function child(args: string[]) {
  const clock = w.sandbox.world.clock.anchors();
  return execa(process.execPath, [CHILD, ...args], {
    env: {
      ...w.env, PATH: process.env.PATH ?? '', HOME: w.dir, FORCE_COLOR: '0', CI: 'true',
      SIM_START: String(clock.simStart), SIM_REAL_START: String(clock.realStart), SIM_SCALE: String(clock.scale),
    },
    extendEnv: false, reject: false,
  });
}

describe('two runners on one journal', () => {
  it('two resumes at once, after the first run was killed: one runs, everyone is dialed once, the other exits 1 naming the journal', async () => {
    const file = writeContacts(w.dir, 'pair.json', india(12));
    const journal = join(w.dir, 'pair.run.json');
    const first = child(['campaign', 'run', '--name', 'Pair', '--agent', w.agentId, '--contacts', file, '--wave-size', '5', '--yes']);
    // Killed while it waits for the window: its lock stays behind, its process gone.
    const deadline = Date.now() + 30_000;
    while (!existsSync(journal)) {
      if (Date.now() > deadline) throw new Error('the run never wrote its journal');
      await new Promise((r) => setTimeout(r, 5));
    }
    first.kill('SIGKILL');
    await first;
    expect(existsSync(`${journal}.lock`)).toBe(true);
    expect(statSync(journal).mode & 0o777, 'the journal holds numbers and names').toBe(0o600);

    const [a, b] = await Promise.all([
      child(['campaign', 'run', '--resume', journal, '--yes', '--json']),
      child(['campaign', 'run', '--resume', journal, '--yes', '--json']),
    ]);
    const codes = [a.exitCode, b.exitCode].sort();
    expect(codes, `${a.stderr}\n---\n${b.stderr}`).toEqual([0, 1]);
    const loser = a.exitCode === 1 ? a : b;
    expect(loser.stderr).toContain(`another run is using ${journal}`);
    const calls = placedCalls(w.sandbox).filter((c) => c.phone.startsWith('+91987654'));
    expect(calls.map((c) => c.phone).sort()).toEqual(india(12).map((c) => c.phone_number).sort());
    expect(existsSync(`${journal}.lock`), 'the lock is released at the end').toBe(false);
    expect(statSync(journal).mode & 0o777).toBe(0o600);
  }, 60_000);
});
