import { describe, expect, it } from 'vitest';
import { extraOf, mapColumns, nameOf, normalizeHeader } from '../../src/contacts/columns.js';
import { UsageError } from '../../src/errors.js';

const phoneHeader = (headers: string[], opts = {}) => {
  const m = mapColumns(headers, opts, 'f.csv');
  return m.headers[m.phone];
};

describe('phone column', () => {
  it.each([
    'phone', 'Phone', 'PHONE NUMBER', 'phone_number', 'Phone Number', 'Mobile', 'mobile number', 'Mobile_Number',
    'number', 'Contact', 'MSISDN', 'WhatsApp', 'Whats App', ' phone ',
  ])('finds %j', (h) => {
    expect(phoneHeader(['Name', h, 'City'])).toBe(h.trim());
  });

  it('prefers the most specific header when several match', () => {
    expect(phoneHeader(['WhatsApp', 'Name', 'Mobile', 'Phone'])).toBe('Phone');
    expect(phoneHeader(['Contact', 'Mobile Number'])).toBe('Mobile Number');
  });

  it('does not take look-alike headers', () => {
    expect(() => mapColumns(['Contact Name', 'Phone Type', 'Email'], {}, 'leads.csv')).toThrow(UsageError);
  });

  it('names the file and lists the headers found when there is none', () => {
    expect(() => mapColumns(['Name', 'Email', 'City'], {}, 'leads.csv')).toThrow(
      'leads.csv has no phone column. Headers found: "Name", "Email", "City".',
    );
  });

  it('--phone-column: exact header, or the same header up to case and spaces', () => {
    expect(phoneHeader(['Client', 'Primary Contact No'], { phoneColumn: 'Primary Contact No' })).toBe('Primary Contact No');
    expect(phoneHeader(['Client', 'Primary Contact No'], { phoneColumn: 'primary_contact_no' })).toBe('Primary Contact No');
    // The flag wins over a header that would be found on its own.
    expect(phoneHeader(['Phone', 'Alt Mobile'], { phoneColumn: 'Alt Mobile' })).toBe('Alt Mobile');
    expect(() => mapColumns(['Client', 'Tel'], { phoneColumn: 'Phone 2' }, 'a.csv')).toThrow(
      'a.csv has no column "Phone 2" (from --phone-column). Headers found: "Client", "Tel".',
    );
  });
});

describe('name and extra', () => {
  it('a name column', () => {
    const m = mapColumns(['Full Name', 'phone', 'city'], {}, 'f');
    expect(nameOf(m, ['  Priya Sharma ', '9876543210', 'Pune'])).toBe('Priya Sharma');
    expect(nameOf(m, ['', '9876543210', 'Pune'])).toBeUndefined();
    expect(extraOf(m, ['Priya', '9876543210', 'Pune'])).toEqual({ city: 'Pune' });
  });

  it('first name + last name, joined; either may be missing', () => {
    const m = mapColumns(['First Name', 'last_name', 'Mobile'], {}, 'f');
    expect(nameOf(m, ['Priya', 'Sharma', '1'])).toBe('Priya Sharma');
    expect(nameOf(m, ['', 'Kapoor', '1'])).toBe('Kapoor');
    expect(nameOf(m, ['Arjun', '', '1'])).toBe('Arjun');
    expect(extraOf(m, ['Priya', 'Sharma', '1'])).toEqual({});
  });

  it('--name-column picks the column; first/last then go to extra', () => {
    const m = mapColumns(['Client', 'First Name', 'phone'], { nameColumn: 'client' }, 'f');
    expect(nameOf(m, ['Acme Traders', 'Rohit', '1'])).toBe('Acme Traders');
    expect(extraOf(m, ['Acme Traders', 'Rohit', '1'])).toEqual({ 'First Name': 'Rohit' });
    expect(() => mapColumns(['Client', 'phone'], { nameColumn: 'Owner' }, 'f')).toThrow(/no column "Owner" \(from --name-column\)/);
  });

  it('extra: strings as written, empty cells left out, unique keys', () => {
    const m = mapColumns(['name', 'phone', 'customer_id', 'Pincode', '', 'City', 'City'], {}, 'f');
    expect(extraOf(m, ['A', '1', '007', '', 'x', 'Bengaluru', 'Bangalore'])).toEqual({
      customer_id: '007', column_5: 'x', City: 'Bengaluru', City_2: 'Bangalore',
    });
    expect(extraOf(m, ['A', '1'])).toEqual({});
  });

  it('normalizes headers', () => {
    expect(normalizeHeader(' Mobile_Number ')).toBe('mobilenumber');
    expect(normalizeHeader('Phone-No.')).toBe('phoneno');
  });
});

describe('name column under the headers CRMs write', () => {
  const nameHeaders = (headers: string[]) => {
    const m = mapColumns(headers, {}, 'crm.csv');
    return [m.name, m.firstName, m.lastName].filter((i) => i !== undefined).map((i) => m.headers[i!]);
  };

  it.each(['Customer Name', 'Customer', 'Contact Name', 'Lead Name', 'Full Name', 'Client Name', 'customer_name'])('finds %j', (h) => {
    expect(nameHeaders(['Mobile', h, 'City'])).toEqual([h]);
  });

  it('joins "First Name" and "Last Name", also as Given Name / Surname', () => {
    const m = mapColumns(['First Name', 'Last Name', 'Phone'], {}, 'crm.csv');
    expect(nameOf(m, ['Asha', 'Rao', '+919876543210'])).toBe('Asha Rao');
    expect(nameHeaders(['Given Name', 'Surname', 'Phone'])).toEqual(['Given Name', 'Surname']);
    // Neither is left in extra.
    expect(extraOf(m, ['Asha', 'Rao', '+919876543210'])).toEqual({});
  });

  it('a whole-name column wins over first and last; "Name" over "Customer"', () => {
    expect(nameHeaders(['First Name', 'Last Name', 'Lead Name', 'Phone'])).toEqual(['Lead Name']);
    expect(nameHeaders(['Customer', 'Name', 'Phone'])).toEqual(['Name']);
  });

  it('finds none in a file without one', () => {
    expect(nameHeaders(['Phone', 'City', 'Customer ID'])).toEqual([]);
  });
});
