import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { mapRejection, rejectedIndex } from '../../src/campaigns/rejection.js';
import { UsageError } from '../../src/errors.js';

const sent = ['+919876543210', '+919988776655', '+442079460958', '+14155552671', '+919810012345'].map((p, i) => ({ phone_number: p, row: [2, 3, 5, 6, 9][i]!, name: `N${i}` }));

function err(status: number, body: unknown, message = 'rejected'): ApiError {
  return new ApiError({ kind: 'http', status, method: 'POST', url: 'http://x/campaigns/json', message, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

describe('rejectedIndex', () => {
  it('reads array paths as indexes from 0', () => {
    expect(rejectedIndex(err(422, {}, 'contacts[3].phone_number is not E.164'), sent)).toBe(3);
    expect(rejectedIndex(err(400, { detail: [{ loc: ['body', 'contacts', 2, 'phone_number'], msg: 'bad' }] }), sent)).toBe(2);
    expect(rejectedIndex(err(400, { error: { message: 'bad', field: 'contacts.1.phone_number' } }), sent)).toBe(1);
    expect(rejectedIndex(err(400, { error: { message: 'bad', index: 4 } }), sent)).toBe(4);
  });

  it('reads "row N" as counting from 1 unless the quoted number says otherwise', () => {
    expect(rejectedIndex(err(400, { error: 'invalid phone number in row 2' }), sent)).toBe(1);
    expect(rejectedIndex(err(400, { error: { message: 'invalid', row: 3 } }), sent)).toBe(2);
    expect(rejectedIndex(err(400, { error: 'row 2: +442079460958 is not allowed' }), sent)).toBe(2);
  });

  it('gives nothing for an error that names no contact, or one out of range', () => {
    expect(rejectedIndex(err(400, { error: 'name is required' }), sent)).toBeUndefined();
    expect(rejectedIndex(err(422, {}, 'contacts[99] is bad'), sent)).toBeUndefined();
  });
});

describe('mapRejection', () => {
  it('names the spreadsheet row, the number and the service\'s words', () => {
    const mapped = mapRejection(err(422, {}, 'contacts[3].phone_number is not dialable'), sent, (r) => `row ${r}`, 'leads.csv');
    expect(mapped).toBeInstanceOf(UsageError);
    expect((mapped as Error).message).toContain('row 6 of leads.csv');
    expect((mapped as Error).message).toContain('+14155552671');
    expect((mapped as Error).message).toContain('contacts[3].phone_number is not dialable');
  });

  it('leaves server errors, auth errors and errors without a row alone', () => {
    for (const e of [err(500, {}, 'contacts[1] broke'), err(403, {}, 'contacts[1] forbidden'), err(400, { error: 'name is required' })]) {
      expect(mapRejection(e, sent, (r) => `row ${r}`, 'f.csv')).toBe(e);
    }
  });
});
