/**
 * Secrets kept out of the process list, a rotation that asks first, and senders that
 * trickle their request cut off at the time the docs state.
 */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../src/webhooks/receiver.js';
import { harness, sharedHarness } from '../helpers/cli.js';
import { start } from '../helpers/run.js';
import { LISTEN, SECRET, sendEvent, startListen, tempDir, type Running } from '../webhooks/receiver-harness.js';

let tmp: ReturnType<typeof tempDir>;
let running: Running | undefined;
beforeEach(() => {
  tmp = tempDir();
  running = undefined;
});
afterEach(async () => {
  await running?.interrupt();
  tmp.remove();
});

describe('the signing secret on the command line', () => {
  it('listen --secret works but warns that it shows in the process list', async () => {
    running = await startListen(['--secret', SECRET], { VOICECTL_CONFIG_DIR: tmp.dir });
    expect(running.stderr()).toMatch(/--secret is visible to other users of this machine in the process list/);
    expect((await sendEvent(running.port)).status).toBe(200);
  });

  it('listen --secret-file and trigger --secret-stdin keep it out of the process list, and agree', async () => {
    const file = join(tmp.dir, 'secret.txt');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    running = await startListen(['--secret-file', file], { VOICECTL_CONFIG_DIR: tmp.dir });
    expect(running.stderr()).not.toMatch(/process list/);
    const t = start(['trigger', 'ping', '--to', `http://127.0.0.1:${running.port}/`, '--secret-stdin'], { ...LISTEN, env: { VOICECTL_CONFIG_DIR: tmp.dir }, stdin: `${SECRET}\n` });
    expect(await t.done).toBe(0);
    expect(t.stderr()).not.toMatch(/process list/);
    await running.waitForOutput('ping', 'stdout');
  });

  it('names a secret file it cannot read, and refuses two sources at once (exit 2)', async () => {
    const missing = start(['listen', '--port', '0', '--secret-file', join(tmp.dir, 'nope.txt')], { ...LISTEN, env: { VOICECTL_CONFIG_DIR: tmp.dir } });
    expect(await missing.done).toBe(2);
    expect(missing.stderr()).toContain('nope.txt: no such file');
    const both = start(['trigger', 'ping', '--to', 'http://127.0.0.1:9/', '--secret', 'a', '--secret-stdin'], { ...LISTEN, env: { VOICECTL_CONFIG_DIR: tmp.dir }, stdin: 'b' });
    expect(await both.done).toBe(2);
  });
});

describe('webhook rotate-secret', () => {
  const h = sharedHarness();

  it('asks first: under CI without --yes it rotates nothing, names --yes and says receivers need the new secret', async () => {
    const created = await h.run(['webhook', 'create', '--url', 'https://hooks.example.com/voice', '--json']);
    const id = (JSON.parse(created.stdout) as { id: string }).id;
    const before = h.sandbox.requests.filter((r) => r.path?.endsWith('/rotate-secret')).length;
    const r = await h.run(['webhook', 'rotate-secret', id]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(r.stderr).toMatch(/every receiver .*needs it/);
    expect(h.sandbox.requests.filter((q) => q.path?.endsWith('/rotate-secret')).length).toBe(before);
    const yes = await h.run(['webhook', 'rotate-secret', id, '--yes', '--json']);
    expect(yes.exitCode).toBe(0);
    expect(h.sandbox.requests.filter((q) => q.path?.endsWith('/rotate-secret')).length).toBe(before + 1);
  });
});

describe('a sender that trickles its request', () => {
  it('is cut off once the request timeout passes, and the receiver goes on', async () => {
    const receiver = new Receiver({ port: 0, secrets: [SECRET], requestTimeoutMs: 600 });
    const { port } = await receiver.start();
    try {
      const started = Date.now();
      const closedAfter = await new Promise<number>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
          const drip = setInterval(() => socket.write(' '), 100);
          socket.on('close', () => {
            clearInterval(drip);
            resolve(Date.now() - started);
          });
        });
        socket.on('error', () => {});
      });
      expect(closedAfter).toBeGreaterThanOrEqual(500);
      expect(closedAfter).toBeLessThan(5_000);
      expect((await sendEvent(port)).status).toBe(200);
    } finally {
      await receiver.close();
    }
  });
});
