/**
 * Lists for scripts are written a piece at a time (src/io/output.ts with drain.ts's
 * PacedWriter): `call list --all --json` of two million calls once built one string
 * past V8's limit and failed with "Invalid string length". The bytes stay those of
 * JSON.stringify(list, null, 2), and no single write holds the whole list.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../src/context-test.js';
import { csvLine } from '../../src/io/csv.js';
import { PacedWriter } from '../../src/io/drain.js';
import { printList, printListing, type Column } from '../../src/io/output.js';

/** A stdout that records each write, and takes them slowly (a pipe to a slow reader). */
function recordingStdout(opts: { slow?: boolean } = {}) {
  const writes: string[] = [];
  let most = 0;
  let taken = 0;
  const stdout = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, done) {
      writes.push(chunk.toString());
      taken += chunk.length;
      if (opts.slow) setImmediate(done);
      else done();
    },
  });
  const realWrite = stdout.write.bind(stdout);
  stdout.write = ((chunk: string, ...rest: never[]) => {
    most = Math.max(most, stdout.writableLength + Buffer.byteLength(chunk));
    return realWrite(chunk, ...rest);
  }) as typeof stdout.write;
  return { stdout, text: () => writes.join(''), writes, mostHeld: () => most, taken: () => taken };
}

function context(output: 'json' | 'jsonl' | 'csv' | 'table', stdout: Writable) {
  return testContext({ io: { stdin: process.stdin, stdout, stderr: new Writable({ write: (_c, _e, d) => d() }) }, env: { NO_COLOR: '1' }, opts: { output } });
}

const call = (i: number) => ({
  call_id: `call_${i}`,
  status: i % 3 ? 'completed' : 'failed',
  summary: i % 7 ? `Call ${i}: "fine",\nsaid\tmore` : null,
  contact: { name: `Lead ${i} ✓`, extra: { tags: ['a', 'b'], nested: { empty: {}, none: [] } } },
  duration_seconds: i * 1.5,
});
const columns: Column<Record<string, unknown>>[] = [
  { header: 'CALL ID', key: 'call_id' },
  { header: 'STATUS', key: 'status' },
  { header: 'SUMMARY', key: 'summary' },
];

describe('printList for scripts', () => {
  for (const n of [0, 1, 2, 5000]) {
    it(`--json of ${n} calls: byte for byte JSON.stringify(list, null, 2)`, async () => {
      const rows = Array.from({ length: n }, (_, i) => call(i));
      const s = recordingStdout();
      await printList(context('json', s.stdout), rows, columns);
      expect(s.text()).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    });
  }

  it('--json of lists in memory written a slice at a time: the bytes of JSON.stringify at every slice boundary and for any item', async () => {
    const odd = (i: number): unknown => [call(i), undefined, null, i, `line\n${i}`, [], {}, { toJSON: () => undefined }, { toJSON: () => ({ at: i }) }, [undefined, () => 1]][i % 10];
    for (const n of [63, 64, 65, 127, 128, 129, 300]) {
      const rows = Array.from({ length: n }, (_, i) => odd(i));
      const s = recordingStdout();
      await printList(context('json', s.stdout), rows as Record<string, unknown>[], columns);
      expect(s.text(), `${n} items`).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    }
  });

  it('-o jsonl and -o csv: the same lines as before', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => call(i));
    const jsonl = recordingStdout();
    await printList(context('jsonl', jsonl.stdout), rows, columns);
    expect(jsonl.text()).toBe(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const csv = recordingStdout();
    await printList(context('csv', csv.stdout), rows, columns);
    expect(csv.text()).toBe([csvLine(['call_id', 'status', 'summary']), ...rows.map((r) => csvLine([r.call_id, r.status, r.summary ?? '']))].map((l) => `${l}\n`).join(''));
  });

  it('a long list is never one write, and waits for a slow reader instead of piling up', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => call(i));
    const s = recordingStdout({ slow: true });
    await printList(context('json', s.stdout), rows, columns);
    const whole = JSON.stringify(rows, null, 2).length;
    expect(whole).toBeGreaterThan(5_000_000);
    expect(s.writes.length).toBeGreaterThan(50);
    expect(Math.max(...s.writes.map((w) => w.length))).toBeLessThan(70_000);
    // Held in the stream at any moment: about one piece beyond its high-water mark, not the list.
    expect(s.mostHeld()).toBeLessThan(200_000);
    await new Promise<void>((r) => s.stdout.end(r));
    expect(s.text()).toBe(`${JSON.stringify(rows, null, 2)}\n`);
  });
});

async function* listing<T>(rows: T[], failAt?: number): AsyncGenerator<T> {
  for (let i = 0; i < rows.length; i++) {
    if (i === failAt) throw new Error('GET /calls failed (HTTP 500)');
    if (i % 200 === 0) await new Promise((r) => setImmediate(r));
    yield rows[i]!;
  }
}

describe('printListing (call list --all): printed while the pages arrive', () => {
  for (const format of ['json', 'jsonl', 'csv', 'table'] as const) {
    for (const n of [0, 1, 450]) {
      it(`${format}, ${n} calls: the bytes printList prints`, async () => {
        const rows = Array.from({ length: n }, (_, i) => call(i));
        const whole = recordingStdout();
        await printList(context(format, whole.stdout), rows, columns, { csv: columns.slice(0, 2) });
        const streamed = recordingStdout();
        await printListing(context(format, streamed.stdout), listing(rows), columns, { csv: columns.slice(0, 2), spinner: 'Fetching calls' });
        expect(streamed.text()).toBe(whole.text());
      });
    }
  }

  it('reads the listing no faster than the reader takes the output', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => call(i));
    const s = recordingStdout({ slow: true });
    let produced = 0;
    let mostAhead = 0;
    async function* watched(): AsyncGenerator<Record<string, unknown>> {
      for await (const r of listing(rows)) {
        mostAhead = Math.max(mostAhead, produced - s.taken());
        produced += Buffer.byteLength(JSON.stringify(r, null, 2)) + 4;
        yield r;
      }
    }
    await printListing(context('json', s.stdout), watched(), columns, { spinner: 'Fetching calls' });
    await new Promise<void>((r) => s.stdout.end(r));
    expect(s.text()).toBe(`${JSON.stringify(rows, null, 2)}\n`);
    expect(mostAhead).toBeLessThan(300_000);
  });

  it('a listing that fails part-way leaves the JSON array unclosed, and the failure passes', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => call(i));
    const s = recordingStdout();
    await expect(printListing(context('json', s.stdout), listing(rows, 1500), columns, { spinner: 'Fetching calls' })).rejects.toThrow('HTTP 500');
    expect(s.text().startsWith('[\n  {')).toBe(true);
    expect(() => JSON.parse(s.text())).toThrow();
  });
});

describe('PacedWriter', () => {
  it('does not wait for a stream that has gone', async () => {
    const stdout = new Writable({ write: (_c, _e, done) => done(new Error('EIO')) });
    stdout.on('error', () => {});
    const w = new PacedWriter(stdout, 4);
    await w.add('hello');
    await w.add('world');
    await w.flush();
    expect(stdout.destroyed).toBe(true);
  });
});
