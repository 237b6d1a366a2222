/**
 * What every step of a run is handed: the context, the client, the journal file, the
 * view that tells a person what happens, and the command that resumes the run.
 */
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { Journal, JournalFile, Wave } from './journal.js';
import type { Planner } from './plan.js';

export interface RunView {
  /** One thing happened (a wave released, finished, a wait begun). */
  event(line: string): void;
  /** The live state changed (redrawn on a terminal, silent elsewhere); `what` names a wait other than for the next wave. */
  refresh(journal: Journal, waitingFor?: { until: number; planner: Planner; what?: string }): void;
  close(): void;
}

export interface RunDeps {
  ctx: Context;
  api: ApiClient;
  file: JournalFile;
  view: RunView;
  /** The command that resumes this run, for messages. */
  resume: string;
  /** How often a running wave is read (ms on the context's clock). */
  pollMs?: number;
}

/** Calls not yet finished in each wave on the service, as of its last read (for the pause message). */
export const inFlight = new WeakMap<Wave, number>();

export function waveName(j: Journal, n: number): string {
  return `${j.name} (wave ${n}, run ${j.run_id})`;
}

export function countStates(j: Journal): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of j.contacts) counts[c.state] = (counts[c.state] ?? 0) + 1;
  return counts;
}

/** Sleeps on the run's clock until `at`; on a terminal the status line counts down each second. */
export async function waitUntil(d: RunDeps, at: number, planner: Planner, what?: string): Promise<void> {
  for (;;) {
    const left = at - d.ctx.now().getTime();
    if (left <= 0) return;
    d.view.refresh(d.file.journal, { until: at, planner, ...(what ? { what } : {}) });
    // A terminal's view is redrawn each second; elsewhere one sleep does.
    await d.ctx.sleep(d.ctx.io.interactiveStderr ? Math.min(left, 1000) : left, d.ctx.signal);
  }
}
