/**
 * Calls: the paginated list (campaign, status and start-time filters over the sorted
 * indexes, pages assembled from cached JSON), one call with its transcript, and signed
 * recording links that expire after one simulated hour.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError, type Route } from '../router.js';
import type { JsonReply } from '../server.js';
import { callDetail, callView } from '../views.js';
import { notFound, pageParams, timeParam } from '../validate.js';
import { recordingWav } from '../wav.js';
import type { Call, OrgState, World } from '../world.js';

export const RECORDING_LINK_MS = 3_600_000;

function findCall(org: OrgState, id: string): Call {
  const c = Object.hasOwn(org.calls, id) ? org.calls[id] : undefined;
  if (!c) throw notFound('call', id);
  return c;
}

function list(world: World, org: OrgState, query: URLSearchParams): JsonReply {
  const p = pageParams(query);
  const since = timeParam(query, 'since');
  const until = timeParam(query, 'until');
  const campaignId = query.get('campaign_id') || undefined;
  const status = query.get('status') || undefined;
  const index = world.calls(org);
  const range = index.query({ campaignId, status, since, until });
  const total = range.to - range.from;
  const start = Math.min(range.from + p.offset, range.to);
  const end = Math.min(start + p.limit, range.to);
  const parts: string[] = new Array(end - start);
  for (let i = start; i < end; i++) parts[i - start] = index.jsonOf(range.items[i]!, callView);
  return { status: 200, json: `{"calls":[${parts.join(',')}],"total":${total},"limit":${p.limit},"offset":${p.offset}}` };
}

function sign(world: World, orgId: string, callId: string, expires: number): string {
  return createHmac('sha256', world.secret).update(`${orgId}\n${callId}\n${expires}`).digest('hex').slice(0, 40);
}

function recordingLink(world: World, org: OrgState, call: Call, baseUrl: string) {
  if (!call.has_recording) {
    throw new HttpError(404, `call ${call.call_id} has no recording yet (has_recording is false)`, { code: 'recording_not_ready' });
  }
  const expires = world.clock.now() + RECORDING_LINK_MS;
  const q = new URLSearchParams({ org: org.id, expires: String(expires), sig: sign(world, org.id, call.call_id, expires) });
  return {
    url: `${baseUrl}/recordings/${encodeURIComponent(call.call_id)}.wav?${q}`,
    expires_at: new Date(expires).toISOString(),
    content_type: 'audio/wav',
  };
}

/** The link itself is the credential: no key, but a valid signature and an unexpired time. */
function serveRecording(world: World, file: string, query: URLSearchParams): JsonReply {
  const callId = file.replace(/\.wav$/, '');
  const orgId = query.get('org') ?? '';
  const expires = Number(query.get('expires'));
  const sig = query.get('sig') ?? '';
  const expected = sign(world, orgId, callId, expires);
  const valid = Number.isFinite(expires) && sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  if (!valid) throw new HttpError(403, 'invalid recording link signature; request a fresh link from GET /calls/{call_id}/recording-url', { code: 'invalid_signature' });
  if (world.clock.now() > expires) {
    throw new HttpError(410, 'this recording link has expired; request a fresh one from GET /calls/{call_id}/recording-url', { code: 'link_expired', expired_at: new Date(expires).toISOString() });
  }
  const org = world.orgs.get(orgId);
  const call = org && Object.hasOwn(org.calls, callId) ? org.calls[callId] : undefined;
  if (!call || !call.has_recording) throw notFound('recording', callId);
  const wav = recordingWav(call._seed);
  return {
    status: 200,
    body: wav,
    headers: { 'content-type': 'audio/wav', 'content-disposition': `attachment; filename="${callId}.wav"`, 'cache-control': 'private, no-store' },
  };
}

export const callRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/calls',
    scope: 'calls:read',
    handle: (req, world) => list(world, req.org, req.query),
  },
  {
    method: 'GET',
    pattern: '/calls/:id',
    scope: 'calls:read',
    handle: (req, world) => ({ status: 200, body: callDetail(world, req.org, findCall(req.org, req.params.id!)) }),
  },
  {
    method: 'GET',
    pattern: '/calls/:id/recording-url',
    scope: 'calls:read',
    handle: (req, world) => ({ status: 200, body: recordingLink(world, req.org, findCall(req.org, req.params.id!), req.baseUrl) }),
  },
  {
    method: 'GET',
    pattern: '/recordings/:file',
    scope: null,
    handle: (req, world) => serveRecording(world, req.params.file!, req.query),
  },
];
