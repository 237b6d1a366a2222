/**
 * What this agent's past calls say about a run: how long a wave lasts (the 90th
 * percentile of call durations plus ringing), the connect rate and the talk time. Read
 * from the account's most recent calls (GET /calls has no agent filter).
 */
import type { ApiClient } from '../../api/client.js';
import { allCalls } from '../../api/calls.js';

/** Added to the longest usual call: the service dials, it rings. */
export const RINGING_MS = 45_000;
/** A wave's expected length when the agent has no finished call to learn from. */
export const DEFAULT_WAVE_LENGTH_MS = 6 * 60_000;
const LOOK_BACK_MS = 30 * 86_400_000;
const MAX_CALLS = 2_000;

export interface AgentHistory {
  /** Finished calls of this agent read. */
  calls: number;
  /** Connected (status completed) of finished. */
  connect_rate?: number;
  /** Failed (status failed) of finished. */
  failed_rate?: number;
  /** Mean length of a connected call, seconds. */
  mean_talk_seconds?: number;
  p90_seconds?: number;
  wave_length_ms: number;
}

export async function agentHistory(api: ApiClient, agentId: string, now: number, signal?: AbortSignal): Promise<AgentHistory> {
  const durations: number[] = [];
  let connected = 0;
  let failed = 0;
  let talk = 0;
  for await (const call of allCalls(api, { since: new Date(now - LOOK_BACK_MS).toISOString() }, { max: MAX_CALLS, signal })) {
    if (call.agent_id !== agentId || typeof call.duration_seconds !== 'number' || !call.end_time) continue;
    durations.push(call.duration_seconds);
    if (call.status === 'failed') failed++;
    if (call.status === 'completed') {
      connected++;
      talk += call.duration_seconds;
    }
  }
  if (durations.length === 0) return { calls: 0, wave_length_ms: DEFAULT_WAVE_LENGTH_MS };
  durations.sort((a, b) => a - b);
  const p90 = durations[Math.min(durations.length - 1, Math.ceil(durations.length * 0.9) - 1)]!;
  const out: AgentHistory = {
    calls: durations.length,
    connect_rate: connected / durations.length,
    failed_rate: failed / durations.length,
    p90_seconds: p90,
    wave_length_ms: Math.ceil((p90 * 1000 + RINGING_MS) / 60_000) * 60_000,
  };
  if (connected > 0) out.mean_talk_seconds = talk / connected;
  return out;
}
