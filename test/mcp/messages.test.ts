/**
 * What a client should never send to `voicectl mcp`: a line that is not JSON gets the
 * JSON-RPC parse error, a JSON line that is no JSON-RPC message an invalid request, and a
 * message over 10 MB an error for that message; the server keeps serving after each.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp.js';

const folder = tempDirs('voicectl-mcp-messages-');

describe('messages a client should never send', () => {
  it('answers -32700 for a line that is not JSON, an error for one over 10 MB, and goes on serving', async () => {
    const dir = folder();
    const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: dir, env: { ...baseEnv(dir), VOICECTL_BASE_URL: 'http://127.0.0.1:9', VOICECTL_API_KEY: 'vk_test' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const answers = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: unknown });
    const until = async (n: number) => {
      while (answers().length < n && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    };

    child.stdin.write('this is not json\n');
    await until(1);
    child.stdin.write('{"jsonrpc": "2.0", "id": 7, "method": 12}\n');
    await until(2);
    child.stdin.write(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
    await until(3);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    await until(4);
    child.stdin.end();
    const code = await exited;

    const [parse, invalid, big, init] = answers();
    expect(parse, err).toMatchObject({ id: null, error: { code: -32700 } });
    expect(invalid).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(big).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('over 10 MB') } });
    expect(init).toMatchObject({ id: 9, result: { serverInfo: { name: 'voicectl' } } });
    expect(code, err).toBe(0);
  }, 90_000);
});
