/**
 * Where launch plans wait for a person, and where a person's approval waits for the
 * launch: files in the config folder (VOICECTL_CONFIG_DIR), so the MCP server and
 * `voicectl approve`, two processes, meet there. An approval is used by removing it: of
 * two launches racing for it, one removes the file and the other finds nothing.
 */
import { mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-file.js';
import { configDir } from '../config/profiles.js';
import type { Env } from '../context.js';
import { planHash, type PlanRecord } from './plan.js';

/** An approval not used within this time lapses: a person approves a launch about to happen. */
export const APPROVAL_TTL_MS = 60 * 60 * 1000;

const HASH = /^[0-9a-f]{32}$/;

export function isPlanHash(text: string): boolean {
  return HASH.test(text);
}

export class ApprovalStore {
  private readonly dir: string;
  constructor(env: Env) {
    this.dir = join(configDir(env), 'approvals');
  }

  private path(kind: 'pending' | 'approved', hash: string): string {
    if (!isPlanHash(hash)) throw new Error(`not a plan hash: ${hash}`);
    return join(this.dir, kind, `${hash}.json`);
  }

  private write(kind: 'pending' | 'approved', hash: string, value: unknown): void {
    const file = this.path(kind, hash);
    mkdirSync(join(this.dir, kind), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  }

  /** Keeps the plan for `voicectl approve` to show. */
  savePending(record: PlanRecord): void {
    this.write('pending', record.hash, record);
  }

  /** The plan waiting under this hash, if its content still hashes to it. */
  pending(hash: string): PlanRecord | undefined {
    let record: PlanRecord;
    try {
      record = JSON.parse(readFileSync(this.path('pending', hash), 'utf8')) as PlanRecord;
    } catch {
      return undefined;
    }
    return record && record.plan && planHash(record.plan) === hash ? record : undefined;
  }

  /** A person approved this plan: the next launch of exactly this plan may go ahead, once. */
  approve(hash: string, at: Date): void {
    this.write('approved', hash, { hash, approved_at: at.toISOString() });
  }

  /**
   * Uses the approval of this plan, if there is one and it has not lapsed: true once,
   * then false. The plan waiting for it is removed too.
   */
  consume(hash: string, now: Date): boolean {
    const file = this.path('approved', hash);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
      unlinkSync(file);
    } catch {
      return false;
    }
    try {
      unlinkSync(this.path('pending', hash));
    } catch {
      // already gone: nothing to tidy
    }
    let at = Number.NaN;
    try {
      at = Date.parse((JSON.parse(text) as { approved_at?: string }).approved_at ?? '');
    } catch {
      return false;
    }
    return Number.isFinite(at) && now.getTime() - at <= APPROVAL_TTL_MS && now.getTime() >= at - 60_000;
  }
}
