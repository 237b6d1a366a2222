import { describe, expect, it } from 'vitest';
import { tailLine } from '../../src/calls/tail-line.js';

const base = {
  call_id: 'call_1', phone_number: '+919876543210', status: 'completed', outcome: 'requirements_gathered', duration_seconds: 127,
  start_time: '2026-03-02T10:00:00Z', end_time: '2026-03-02T10:02:07Z', contact: { name: 'Asha Rao' },
  summary: 'Asha wants the premium plan and a callback on Monday after 6 pm about the fee structure.',
};

describe('tailLine', () => {
  it('shows time, id, number, contact, status/outcome, duration and the summary', () => {
    const line = tailLine(base);
    expect(line).toMatch(/^10:02:07 UTC  call_1  \+919876543210  Asha Rao  completed\/requirements_gathered  2m 07s  Asha wants the premium plan/);
    expect(line.endsWith('fee structure.')).toBe(true);
  });

  it('cuts the summary to the terminal width, never the rest', () => {
    const line = tailLine(base, 110);
    expect(line.length).toBe(110);
    expect(line.endsWith('…')).toBe(true);
    expect(tailLine(base, 40)).not.toContain('Asha wants');
  });

  it('shows control characters in the service\'s text instead of obeying them, and copes with missing fields', () => {
    const line = tailLine({ ...base, contact: { name: 'Evil\u001b]0;pwned\u0007' }, summary: 'line one\nline two\u009b2J' });
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toContain('Evil\\x1b]0;pwned\\x07');
    expect(line).toContain('line one line two\\x9b2J');
    expect(tailLine({ call_id: 'call_2', status: 'no_answer' })).toBe('--:--:--  call_2  -  -  no_answer  -');
  });

  it('shows the time in the given zone, named', () => {
    expect(tailLine(base, undefined, 'Asia/Kolkata')).toMatch(/^15:32:07 IST  call_1  /);
    expect(tailLine(base, undefined, 'America/New_York')).toMatch(/^05:02:07 EST  call_1  /);
  });

  it('fits an 80-column terminal with a long name and summary: the summary goes first, then the name is cut; id and number stay whole', () => {
    const long = { ...base, contact: { name: 'Srinivasaraghavan Venkataramanan of the Thiruvananthapuram district office' } };
    const line = tailLine(long, 80);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^10:02:07 UTC  call_1  \+919876543210  Srini…  completed\/requirements_gat…  2m 07s$/);
    expect(tailLine(long, 100)).toMatch(/Srinivasaraghavan Ven…  completed\/requirements_gathered  2m 07s$/);
    // Whole in a pipe (no width) and in --json.
    expect(tailLine(long)).toContain('Thiruvananthapuram district office');
    for (const columns of [60, 80, 100, 120, 200]) expect(tailLine(long, columns).length, String(columns)).toBeLessThanOrEqual(columns);
  });
});
