import { describe, expect, it } from 'vitest';
import { evaluateFailIf, FailIfSyntaxError, parseFailIf } from '../../src/watch/fail-if.js';

describe('parseFailIf', () => {
  it('reads statuses and outcomes, counts and percentages, every operator', () => {
    expect(parseFailIf('failed>5%, no_answer>=100,completed<50%,x<=2, Not_Interested=3, y==1')).toEqual([
      { source: 'failed>5%', name: 'failed', op: '>', value: 5, percent: true },
      { source: 'no_answer>=100', name: 'no_answer', op: '>=', value: 100, percent: false },
      { source: 'completed<50%', name: 'completed', op: '<', value: 50, percent: true },
      { source: 'x<=2', name: 'x', op: '<=', value: 2, percent: false },
      { source: 'Not_Interested=3', name: 'not_interested', op: '=', value: 3, percent: false },
      { source: 'y==1', name: 'y', op: '=', value: 1, percent: false },
    ]);
  });

  it('allows spaces around the operator and decimals', () => {
    expect(parseFailIf('failed > 2.5 %')[0]).toMatchObject({ name: 'failed', op: '>', value: 2.5, percent: true });
  });

  it.each([
    ['', /empty/],
    ['failed', /cannot read "failed"/],
    ['failed>', /cannot read/],
    ['>5%', /cannot read/],
    ['failed=>5', /cannot read/],
    ['failed>five', /cannot read/],
    ['failed>-1', /cannot read/],
    ['failed>5%%', /cannot read/],
    ['failed>5,,no_answer>1', /empty condition/],
    ['failed>101%', /above 100/],
  ])('rejects %j', (expr, message) => {
    expect(() => parseFailIf(expr)).toThrow(FailIfSyntaxError);
    expect(() => parseFailIf(expr)).toThrow(message);
  });
});

describe('evaluateFailIf', () => {
  const facts = {
    contactsByStatus: { pending: 0, initiated: 0, completed: 60, no_answer: 30, failed: 10 },
    outcomes: { requirements_gathered: 40, not_interested: 20, no_answer: 30, number_unreachable: 10 },
    totalContacts: 100,
  };
  const crossed = (expr: string) => evaluateFailIf(parseFailIf(expr), facts).map((r) => r.crossed);

  it('compares percentages of all contacts', () => {
    expect(crossed('failed>5%')).toEqual([true]);
    expect(crossed('failed>10%')).toEqual([false]);
    expect(crossed('failed>=10%')).toEqual([true]);
    expect(crossed('completed<50%')).toEqual([false]);
    expect(crossed('completed<=60%')).toEqual([true]);
    expect(crossed('no_answer=30%')).toEqual([true]);
  });

  it('compares absolute counts', () => {
    expect(crossed('no_answer>=30, no_answer>30, failed<11, failed=10')).toEqual([true, false, true, true]);
  });

  it('reads outcomes from the calls, and an outcome that never occurred as 0', () => {
    const r = evaluateFailIf(parseFailIf('not_interested>=20,requirements_gathered<50%,callback_scheduled>0'), facts);
    expect(r.map((x) => [x.source, x.count, x.crossed])).toEqual([
      ['outcome', 20, true],
      ['outcome', 40, true],
      ['outcome', 0, false],
    ]);
  });

  it('takes a contact status over an outcome of the same name', () => {
    const r = evaluateFailIf(parseFailIf('no_answer>0'), { ...facts, outcomes: { no_answer: 999 } });
    expect(r[0]).toMatchObject({ source: 'status', count: 30 });
  });

  it('treats percentages of an empty campaign as 0', () => {
    const r = evaluateFailIf(parseFailIf('failed>0%,failed<1%'), { contactsByStatus: {}, outcomes: {}, totalContacts: 0 });
    expect(r.map((x) => x.crossed)).toEqual([false, true]);
  });

  it('compares computed percentages without floating-point surprises', () => {
    // 7 of 100 is 7% exactly, though 7/100*100 is 7.000000000000001 in floating point;
    // 29/100*100 is 28.999999999999996.
    const r = evaluateFailIf(parseFailIf('failed>7%,failed=7%,completed<29%'), { contactsByStatus: { failed: 7, completed: 29, no_answer: 64 }, outcomes: {}, totalContacts: 100 });
    expect(r.map((x) => x.crossed)).toEqual([false, true, false]);
  });
});
