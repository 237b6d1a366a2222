import { describe, expect, it } from 'vitest';
import { addCall, callCost, emptySpend, forecastCost, money, parseRateCard, spendJson } from '../../src/reports/rate-card.js';

const CARD = `
currency: INR
rates:
  IN: {per_minute: 1.20, connection: 0.10, min_seconds: 30}
  US: {per_minute: 7.45}
`;

describe('the rate card', () => {
  it('prices a 100-call fixture to the paisa, as computed by hand', () => {
    const card = parseRateCard(CARD, 'rates.yaml');
    const spend = emptySpend(card);
    // 40 Indian calls answered for 61 s: 2 minutes each at 1.20 plus 0.10 = 2.50 -> 100.00
    for (let i = 0; i < 40; i++) addCall(spend, card, 'IN', 61, true);
    // 20 Indian calls answered for 10 s: the 30 s minimum, one minute: 1.30 each -> 26.00
    for (let i = 0; i < 20; i++) addCall(spend, card, 'IN', 10, true);
    // 15 Indian calls not answered: nothing (charge_unanswered is false by default)
    for (let i = 0; i < 15; i++) addCall(spend, card, 'IN', 30, false);
    // 20 US calls answered for 125 s: 3 minutes at 7.45 = 22.35 each -> 447.00
    for (let i = 0; i < 20; i++) addCall(spend, card, 'US', 125, true);
    // 5 calls to the UAE, which the card does not price
    for (let i = 0; i < 5; i++) addCall(spend, card, 'AE', 90, true);
    expect(spend.minor).toBe(10_000 + 2_600 + 0 + 44_700);
    expect(money(spend.minor, spend.currency, spend.exponent)).toBe('INR 573.00');
    expect(spend.unpriced).toEqual({ AE: 5 });
    expect(spendJson(spend)).toEqual({ currency: 'INR', minor_units: 57_300, amount: '573.00', priced_calls: 95, unpriced: { AE: 5 } });
  });

  it('rounds a per-second card half up once per call, in integers', () => {
    const card = parseRateCard('currency: USD\nbilling_increment_seconds: 1\nrates: {US: {per_minute: 0.0125}}\n', 'r.yaml');
    // 0.0125 x 100 / 60 = 0.020833... dollars -> 2 cents; 0.0125 x 132 / 60 = 0.0275 -> 3 cents (half up)
    expect(callCost(card, 'US', 100, true)).toBe(2);
    expect(callCost(card, 'US', 132, true)).toBe(3);
    expect(callCost(card, 'GB', 100, true)).toBeUndefined();
    const yen = parseRateCard('currency: JPY\nrates: {JP: {per_minute: 12}}\n', 'r.yaml');
    expect(yen.exponent).toBe(0);
    expect(callCost(yen, 'JP', 59, true)).toBe(12);
    expect(money(1234, 'JPY', 0)).toBe('JPY 1,234');
  });

  it('charges unanswered calls when the card says so', () => {
    const card = parseRateCard('currency: INR\ncharge_unanswered: true\nrates: {IN: {per_minute: 1, connection: 0.5}}\n', 'r.yaml');
    expect(callCost(card, 'IN', 30, false)).toBe(150);
  });

  it('gives a forecast range and names what it cannot price', () => {
    const card = parseRateCard(CARD, 'rates.yaml');
    const f = forecastCost(card, { IN: { calls: 100, connect_rate: 0.5, talk_seconds: 90 }, AE: { calls: 10, connect_rate: 0.5, talk_seconds: 90 } });
    // low: 50 connected x (2 min x 1.20 + 0.10 = 2.50); high: 100 x (3 min x 1.20 + 0.10 = 3.70)
    expect(f.low).toBe(12_500);
    expect(f.high).toBe(37_000);
    expect(f.unpriced).toEqual({ AE: 10 });
  });

  it.each([
    ['currency: RUPEES\nrates: {IN: {per_minute: 1}}', /ISO 4217/],
    ['currency: XYZ\nrates: {IN: {per_minute: 1}}', /not an ISO 4217 code/],
    ['currency: INR\nrates: {India: {per_minute: 1}}', /two-letter country code/],
    ['currency: INR\nrates: {IN: {connection: 1}}', /per_minute is required/],
    ['currency: INR\nrates: {IN: {per_minute: -1}}', /0 or more/],
    ['currency: INR\nrates: {IN: {per_minute: 0.0000001}}', /6 decimal places/],
    ['currency: INR\nrates: {IN: {per_minute: 1, setup: 2}}', /unknown field "setup"/],
    ['currency: INR\nrates: {}', /rates is empty/],
    ['currency: INR\nrate: {}', /unknown field "rate"/],
    ['[1, 2', /not valid YAML/],
  ])('refuses %j with a message that names the file', (text, why) => {
    expect(() => parseRateCard(text, 'rates.yaml')).toThrow(why);
    expect(() => parseRateCard(text, 'rates.yaml')).toThrow(/^rates.yaml: /);
  });
});
