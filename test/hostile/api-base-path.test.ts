/**
 * `voicectl api METHOD PATH` sends the key with every request, so the path must stay under
 * the base URL's path: `/../../steal` against `http://host/v1` would reach `/steal`,
 * another service behind the same host. Every spelling of ".." is refused with exit 2, and
 * nothing reaches the server.
 */
import { describe, expect, it } from 'vitest';
import { eachHostile, sendJson } from './client-harness.js';

const { start } = eachHostile();

describe('api: a path that leaves the base URL', () => {
  it.each([
    ['/../../steal'],
    ['../steal'],
    ['/%2e%2e/%2e%2e/steal'],
    ['/%2E%2e/steal'],
    ['/agents/%2e%2E/%2E%2E/steal'],
    ['/agents/..%2f..%2fsteal'],
    ['/agents/..%5c..%5csteal'],
    ['/agents/%252e%252e/%252e%252e/steal'],
    ['/a\\..\\..\\steal'],
  ])('%s is refused (exit 2) and nothing is sent', async (path) => {
    const h = await start((_req, res) => sendJson(res, 200, { stolen: true }));
    for (const method of ['GET', 'DELETE']) {
      const r = await h.run(['api', method, path, '--yes'], { VOICECTL_BASE_URL: `${h.url}/v1` });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/leaves the base URL's path \/v1|a server would read as "\.\."/);
      expect(r.stdout).not.toContain('stolen');
    }
    expect(h.seen).toEqual([]);
  });

  it('a path that stays under the base path, ".." inside it included, is sent as resolved', async () => {
    const h = await start((_req, res) => sendJson(res, 200, { ok: true }));
    for (const path of ['/agents', 'agents', '/agents/../calls', '/v1-like/x']) {
      const r = await h.run(['api', 'GET', path], { VOICECTL_BASE_URL: `${h.url}/v1` });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    expect(h.seen).toEqual(['GET /v1/agents', 'GET /v1/agents', 'GET /v1/calls', 'GET /v1/v1-like/x']);
  });
});
