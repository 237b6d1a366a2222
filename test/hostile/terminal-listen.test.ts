/**
 * `voicectl listen` prints a line per event for a person: an event whose type, id and
 * data carry escape sequences (anyone can post to a --skip-verify listener) shows them
 * escaped, while the --log line keeps the event exactly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv } from '../helpers/cli.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { eventually, freePort, spawnListen } from '../e2e/listen-helpers.js';

const EVIL = '\x1b]0;pwned\x07\x1b[2J';
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let dir: TempDir;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.remove());

describe('listen with a hostile sender', () => {
  it('shows the event escaped and logs it exactly', async () => {
    const log = join(dir.dir, 'events.ndjson');
    const port = await freePort();
    const listen = await spawnListen(['--port', String(port), '--skip-verify', '--log', log], baseEnv(dir.dir));
    try {
      const event = {
        id: 'evt_hostile_1', type: 'call.ended', created_at: new Date().toISOString(),
        data: { call_id: `call_${EVIL}`, campaign_id: 'c1', phone_number: '+919876543210', status: 'completed', outcome: `won\u009b2J`, duration_seconds: 12 },
      };
      const res = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-event-id': event.id, 'service-event-type': event.type },
        body: JSON.stringify(event),
      });
      expect(res.status).toBe(200);
      const line = await eventually(() => listen.stdout().split('\n').find((l) => l.includes('evt_hostile_1')));
      expect(line).toContain('call_\\x1b]0;pwned\\x07\\x1b[2J');
      expect(line).toContain('won\\x9b2J');
      expect(listen.stdout() + listen.stderr()).not.toMatch(RAW_CONTROL);
      const logged = JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!);
      expect(logged.data.call_id).toBe(`call_${EVIL}`);
    } finally {
      expect(await listen.stop()).toBe(130);
    }
  });
});
