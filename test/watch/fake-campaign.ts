/**
 * A campaign simulated one step per campaign read, for the poller's unit tests and the
 * node:http fake server: contacts are dialed a few per step (or all at once, with one
 * shared start time, as the sandbox does), and each call ends a few steps later.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CallsPage, CallsQuery, WatchSource } from '../../src/watch/poller.js';
import { listenOnLoopback } from '../helpers/loopback.js';

export interface FakeOptions {
  contacts: number;
  /** Contacts dialed per step; default all at once. */
  dialPerStep?: number;
  /** Every call gets the same start time (a whole campaign dialed in one instant). */
  sameStart?: boolean;
  order?: 'asc' | 'desc';
  /** Reads of the campaign that still find it a draft. */
  draftReads?: number;
  /** Leave contacts_by_status out of the campaign. */
  omitCounts?: boolean;
  /** Steps from dialing to the end of call i. */
  callSteps?: (i: number) => number;
}

const T0 = Date.parse('2025-03-01T10:00:00.000Z');

interface FakeCall {
  i: number;
  dialStep: number;
  endStep: number;
}

export class FakeCampaign {
  readonly id = '0b6f9f43-5a0e-4c53-9d7e-1f1f7f0c0a01';
  readonly name = 'Spring renewals';
  step = 0;
  reads = 0;
  callRequests = 0;
  private calls: FakeCall[] = [];
  private dialed = 0;

  constructor(readonly opts: FakeOptions) {}

  /** One step of the simulation: dial the next contacts. */
  advance(): void {
    this.reads++;
    if (this.reads <= (this.opts.draftReads ?? 0)) return;
    this.step++;
    const n = Math.min(this.opts.contacts - this.dialed, this.opts.dialPerStep ?? this.opts.contacts);
    for (let k = 0; k < n; k++) {
      const i = this.dialed++;
      this.calls.push({ i, dialStep: this.step, endStep: this.step + (this.opts.callSteps?.(i) ?? ((i * 7) % 5) + 1) });
    }
  }

  get draft(): boolean {
    return this.reads <= (this.opts.draftReads ?? 0);
  }

  counts(): Record<string, number> {
    const c = { pending: this.opts.contacts - this.dialed, initiated: 0, completed: 0, no_answer: 0, failed: 0 };
    for (const call of this.calls) {
      if (call.endStep > this.step) c.initiated++;
      else c[kind(call.i)]++;
    }
    return c;
  }

  get completed(): boolean {
    return this.dialed === this.opts.contacts && this.calls.every((c) => c.endStep <= this.step);
  }

  campaignBody(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      id: this.id,
      name: this.name,
      agent_id: null,
      status: this.draft ? 'draft' : this.completed ? 'completed' : 'running',
    };
    if (!this.opts.omitCounts) body.contacts_by_status = this.counts();
    return body;
  }

  listCalls(q: { since?: string; limit: number; offset: number }): { calls: unknown[]; total: number; limit: number; offset: number } {
    this.callRequests++;
    const since = q.since ? Date.parse(q.since) : undefined;
    let rows = this.calls.filter((c) => since === undefined || startMs(this.opts, c) >= since);
    rows.sort((a, b) => startMs(this.opts, a) - startMs(this.opts, b) || a.i - b.i);
    if (this.opts.order === 'desc') rows = rows.reverse();
    const page = rows.slice(q.offset, q.offset + q.limit).map((c) => this.callJson(c));
    return { calls: page, total: rows.length, limit: q.limit, offset: q.offset };
  }

  callJson(c: FakeCall): Record<string, unknown> {
    const start = startMs(this.opts, c);
    const done = c.endStep <= this.step;
    const k = kind(c.i);
    const duration = k === 'completed' ? 60 + (c.i % 120) : k === 'no_answer' ? 30 : 2;
    return {
      call_id: `call_${String(c.i).padStart(5, '0')}`,
      campaign_id: this.id,
      direction: 'outbound',
      phone_number: `+91987${String(c.i).padStart(7, '0')}`,
      status: done ? k : 'initiated',
      end_reason: done ? (k === 'failed' ? 'number_unreachable' : k === 'no_answer' ? 'no_answer' : 'completed') : null,
      outcome: done && k === 'completed' ? (c.i % 10 < 6 ? 'requirements_gathered' : 'not_interested') : null,
      summary: done ? `Call ${c.i} summary, with a fairly long sentence that will need to be cut on narrow terminals.` : null,
      error: done && k === 'failed' ? 'The number is unreachable.' : null,
      duration_seconds: done ? duration : null,
      start_time: new Date(start).toISOString(),
      end_time: done ? new Date(start + duration * 1000).toISOString() : null,
      has_recording: false,
      contact: { name: `Contact ${c.i}`, extra: { i: c.i } },
    };
  }

  allCallIds(): string[] {
    return this.calls.map((c) => `call_${String(c.i).padStart(5, '0')}`);
  }

  /** The source the poller reads in unit tests: every campaign read is one step. */
  source(): WatchSource & { requests: number } {
    const self = this;
    return {
      requests: 0,
      async campaign() {
        this.requests++;
        self.advance();
        return self.campaignBody() as never;
      },
      async calls(q: CallsQuery): Promise<CallsPage> {
        this.requests++;
        const r = self.listCalls(q);
        return { items: r.calls, total: r.total };
      },
    };
  }
}

/** How call i ends: 8 in 10 answered, 1 not answered, 1 failed. */
export function kind(i: number): 'completed' | 'no_answer' | 'failed' {
  const r = i % 10;
  return r < 8 ? 'completed' : r === 8 ? 'no_answer' : 'failed';
}

function startMs(opts: FakeOptions, c: FakeCall): number {
  return opts.sameStart ? T0 : T0 + c.dialStep * 1000 + (c.i % 50);
}

export interface FakeServer {
  url: string;
  campaign: FakeCampaign;
  requests: Array<{ method: string; path: string; query: URLSearchParams }>;
  /** Answers n requests matching `match`, after `skip` of them, with a status instead (0: never answers). */
  failNext(n: number, status: number, match?: RegExp, skip?: number): void;
  close(): Promise<void>;
}

/** The fake behind node:http: GET /campaigns/{id} (one step per read) and GET /calls. */
export async function fakeServer(campaign: FakeCampaign): Promise<FakeServer> {
  const requests: FakeServer['requests'] = [];
  let failures = { n: 0, status: 500, match: /./, skip: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (failures.n > 0 && failures.match.test(url.pathname) && failures.skip-- <= 0) {
      failures.n--;
      if (failures.status === 0) return;
      return send(failures.status, { error: 'the database is having a moment', status_code: failures.status });
    }
    if (req.headers['x-api-key'] !== 'sk_test') return send(401, { error: 'invalid API key', status_code: 401 });
    if (url.pathname === `/campaigns/${campaign.id}`) {
      campaign.advance();
      return send(200, campaign.campaignBody());
    }
    if (url.pathname.startsWith('/campaigns/')) return send(404, { error: 'campaign not found', status_code: 404 });
    if (url.pathname === '/calls') {
      const q = url.searchParams;
      if (q.get('campaign_id') !== campaign.id) return send(200, { calls: [], total: 0, limit: 50, offset: 0 });
      return send(200, campaign.listCalls({ since: q.get('since') ?? undefined, limit: Number(q.get('limit') ?? 50), offset: Number(q.get('offset') ?? 0) }));
    }
    return send(404, { error: 'no such endpoint', status_code: 404 });
  });
  const { url, close } = await listenOnLoopback(server);
  return {
    url,
    campaign,
    requests,
    failNext(n, status, match = /./, skip = 0) {
      failures = { n, status, match, skip };
    },
    close,
  };
}
