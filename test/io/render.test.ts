/** src/io's choices: the one CSV escaper, CSV names, columns left out on a narrow terminal, and render's forms. */
import { describe, expect, it } from 'vitest';
import { testContext } from '../../src/context-test.js';
import { csvCell, csvLine } from '../../src/io/csv.js';
import { csvName, keptColumns, printList, printObject, type Column } from '../../src/io/output.js';
import { ownFormat, render } from '../../src/io/render.js';

function context(output?: 'table' | 'json' | 'jsonl' | 'csv', tty?: { columns: number }) {
  const ctx = testContext({ env: { NO_COLOR: '1' }, opts: output ? { output } : {} });
  if (tty) Object.assign(ctx.io.stdout, { isTTY: true, columns: tty.columns });
  return { ctx, out: () => ctx.stdoutText(), err: () => ctx.stderrText() };
}

describe('csvCell', () => {
  it('escapes what a spreadsheet would run as a formula', () => {
    for (const s of ['=HYPERLINK("http://x")', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(s).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('=1+1')).toBe("'=1+1");
  });

  it('leaves plain numbers as numbers, unless asked to keep them as text', () => {
    expect(csvCell('+919876543210')).toBe('+919876543210');
    expect(csvCell('-3.5')).toBe('-3.5');
    expect(csvCell('+919876543210', { escapeNumbers: true })).toBe("'+919876543210");
  });

  it('quotes by RFC 4180, for any delimiter', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 1, true, null])).toBe('"a,b","say ""hi""","two\nlines",1,true,');
    expect(csvLine(['a;b', 'a,b'], { delimiter: ';' })).toBe('"a;b";a,b');
    expect(csvCell({ k: 1 })).toBe('"{""k"":1}"');
  });
});

describe('csvName', () => {
  it('is the field name, or the header in snake_case', () => {
    expect(csvName({ header: 'CALL ID', key: 'call_id' })).toBe('call_id');
    expect(csvName({ header: 'LAST CODE' })).toBe('last_code');
    expect(csvName({ header: 'Contacts (total)' })).toBe('contacts_total');
    expect(csvName({ header: 'AGENT', csv: 'agent_name' })).toBe('agent_name');
  });
});

describe('one row source for the table and -o csv', () => {
  interface Row { id: string; seconds: number; agent: string }
  const rows: Row[] = [{ id: 'a1', seconds: 125, agent: 'ag_1' }];
  const columns: Column<Row>[] = [
    { header: 'ID', key: 'id' },
    { header: 'DURATION', get: (r) => `${Math.floor(r.seconds / 60)}m ${String(r.seconds % 60).padStart(2, '0')}s`, csv: { name: 'duration_seconds', get: (r) => r.seconds } },
    { header: 'AGENT', key: 'agent', csv: 'agent_id', table: false },
    { header: 'NOTE', get: () => 'for people', csv: false },
  ];

  it('the table shows its columns and cells', async () => {
    const { ctx, out } = context();
    await printList(ctx, rows, columns);
    expect(out()).toBe('ID  DURATION  NOTE\na1  2m 05s    for people\n');
  });

  it('CSV writes each column as it says: its own value, CSV-only columns, table-only ones left out', async () => {
    const { ctx, out } = context('csv');
    await printList(ctx, rows, columns);
    expect(out()).toBe('id,duration_seconds,agent_id\na1,125,ag_1\n');
  });

  it('one object: the same rules', async () => {
    const { ctx, out } = context('csv');
    await printObject(ctx, rows[0]!, columns);
    expect(out()).toBe('id,duration_seconds,agent_id\na1,125,ag_1\n');
    const table = context();
    await printObject(table.ctx, rows[0]!, columns);
    expect(table.out()).toBe('ID        a1\nDURATION  2m 05s\nNOTE      for people\n');
  });

  it('render\'s CSV form too', async () => {
    const { ctx, out } = context('csv');
    await render(ctx, { json: rows, csv: { columns, rows } });
    expect(out()).toBe('id,duration_seconds,agent_id\na1,125,ag_1\n');
  });
});

describe('ownFormat: a verb with formats of its own', () => {
  const formats = { extensions: { '.jsonl': 'jsonl', '.xlsx': 'xlsx' } as const, json: 'jsonl' as const, otherwise: 'csv' as const };

  it('its flag wins, then the file\'s extension, then the run\'s format', () => {
    expect(ownFormat(context('json').ctx, { ...formats, flag: 'xlsx', file: 'a.jsonl' })).toBe('xlsx');
    expect(ownFormat(context('csv').ctx, { ...formats, file: 'calls.XLSX' })).toBe('xlsx');
    expect(ownFormat(context('jsonl').ctx, { ...formats, file: 'calls.txt' })).toBe('jsonl');
    expect(ownFormat(context('json').ctx, formats)).toBe('jsonl');
    expect(ownFormat(context().ctx, formats)).toBe('csv');
    expect(ownFormat(context('csv').ctx, formats)).toBe('csv');
  });
});

describe('keptColumns', () => {
  const columns: Column<never>[] = [
    { header: 'ID' },
    { header: 'NAME', max: 40 },
    { header: 'AGENT', max: 30, drop: 1 },
    { header: 'CREATED', drop: 2 },
  ];
  const texts = [['b5899227-30bc-49b8-b0b6-d8d20a7f3985', 'Renewals', 'Priya - renewals', '2026-11-20T10:00:00Z']];

  it('keeps every column when they fit', () => {
    expect(keptColumns(columns, texts, 120)).toEqual([0, 1, 2, 3]);
    expect(keptColumns(columns, texts, undefined)).toEqual([0, 1, 2, 3]);
  });

  it('leaves out the highest drop rank first, then the next, never a column without one', () => {
    // 36 + 2 + 8 + 2 + 10 + 2 + 20 = 80 fits; 79 does not.
    expect(keptColumns(columns, texts, 80)).toEqual([0, 1, 2, 3]);
    expect(keptColumns(columns, texts, 79)).toEqual([0, 1, 2]);
    expect(keptColumns(columns, texts, 50)).toEqual([0, 1]);
    expect(keptColumns(columns, texts, 20)).toEqual([0, 1]);
  });
});

describe('printList and printObject', () => {
  const rows = [{ id: 'ag_1', name: '=HYPERLINK("http://evil","x")', voice_name: 'Priya' }];
  const columns: Column[] = [{ header: 'ID', key: 'id' }, { header: 'NAME', key: 'name' }, { header: 'VOICE', key: 'voice_name' }];

  it('writes formula-safe CSV under snake_case headers', async () => {
    const { ctx, out } = context('csv');
    await printList(ctx, rows, columns);
    expect(out()).toBe('id,name,voice_name\nag_1,"\'=HYPERLINK(""http://evil"",""x"")",Priya\n');
  });

  it('fits an 80-column terminal by leaving columns out', async () => {
    const { ctx, out } = context(undefined, { columns: 50 });
    const wide: Column[] = [{ header: 'ID', key: 'id' }, { header: 'NAME', key: 'name', max: 20 }, { header: 'VOICE', key: 'voice_name', drop: 1 }];
    await printList(ctx, [{ id: 'b5899227-30bc-49b8-b0b6-d8d20a7f3985', name: 'Renewals', voice_name: 'Priya' }], wide);
    expect(out()).not.toContain('VOICE');
    for (const line of out().trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(50);
  });

  it('keeps a multi-line value lined up under its first line', async () => {
    const { ctx, out } = context();
    await printObject(ctx, { id: 'ag_1', prompt: 'Line one\n  indented\n\nlast' }, [{ header: 'id', key: 'id' }, { header: 'prompt', key: 'prompt' }]);
    expect(out()).toBe('id      ag_1\nprompt  Line one\n          indented\n\n        last\n');
  });
});

describe('render', () => {
  const result = { id: 'wh_1', deleted: true };

  it('prints the JSON for scripts, laid out by format unless told', async () => {
    for (const [format, layout, expected] of [
      ['json', undefined, JSON.stringify(result, null, 2)],
      ['jsonl', undefined, JSON.stringify(result)],
      ['json', 'compact', JSON.stringify(result)],
      ['jsonl', 'pretty', JSON.stringify(result, null, 2)],
    ] as const) {
      const { ctx, out } = context(format);
      await render(ctx, { json: result, layout, human: () => ctx.out('for a person') });
      expect(out()).toBe(`${expected}\n`);
    }
  });

  it('prints the person\'s form for a table, and the CSV form or JSON lines when there is one', async () => {
    const person = context();
    await render(person.ctx, { json: result, human: () => person.ctx.out('Deleted.') });
    expect(person.out()).toBe('Deleted.\n');

    const csv = context('csv');
    await render(csv.ctx, { json: result, csv: { columns: [{ header: 'ID', key: 'id' }, { header: 'deleted', key: 'deleted' }], rows: [result] } });
    expect(csv.out()).toBe('id,deleted\nwh_1,true\n');

    const lines = context('jsonl');
    await render(lines.ctx, { json: [1, 2], lines: [1, 2] });
    expect(lines.out()).toBe('1\n2\n');
  });

  it('gives a pipe the JSON when the person\'s form is for a terminal only', async () => {
    const piped = context();
    await render(piped.ctx, { json: result, terminalOnly: true, human: () => piped.ctx.out('summary') });
    expect(piped.out()).toBe(`${JSON.stringify(result, null, 2)}\n`);
    const terminal = context(undefined, { columns: 80 });
    await render(terminal.ctx, { json: result, terminalOnly: true, human: () => terminal.ctx.out('summary') });
    expect(terminal.out()).toBe('summary\n');
  });
});
