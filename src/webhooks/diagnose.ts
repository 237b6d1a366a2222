/**
 * Why a delivery failed verification, in words a developer can act on. A bare "signature
 * mismatch" sends people hunting; the body, the timestamp and a few re-computations
 * usually tell which of the common mistakes it was.
 */
import { createHmac } from 'node:crypto';
import { computeSignature, parseSignatureHeader, type VerifyResult } from './signature.js';

export interface Diagnosis {
  /** HTTP status for the sender: 400 for a request that is not a signed delivery, 401 for one that fails authentication. */
  status: number;
  reason: 'missing_header' | 'malformed_header' | 'timestamp_out_of_range' | 'signature_mismatch';
  /** One line for the sender (the response body) and the terminal. */
  message: string;
  /** What is most likely wrong. */
  likely: string;
}

type Failure = Extract<VerifyResult, { ok: false }>;

export function diagnose(result: Failure, secrets: readonly string[], raw: Buffer, header: string | undefined): Diagnosis {
  switch (result.reason) {
    case 'missing_header':
      return {
        status: 400, reason: result.reason, message: 'no Service-Signature header',
        likely: 'the request did not come from the service (or a proxy dropped the header); send signed events with `voicectl trigger`',
      };
    case 'malformed_header':
      return {
        status: 400, reason: result.reason,
        message: `Service-Signature is not of the form t=<unix seconds>,v1=<hex>: "${clip(header ?? '', 80)}"`,
        likely: 'the header was built by hand or cut short',
      };
    case 'timestamp_out_of_range': {
      const skew = result.skewSec ?? 0;
      const ms = (result.timestamp ?? 0) > 1e12;
      return {
        status: 401, reason: result.reason,
        message: result.message,
        likely: ms
          ? 't looks like milliseconds; the service sends unix seconds'
          : Math.abs(skew) > 86_400
            ? `the signature is ${skew > 0 ? 'days old: an old delivery is being replayed' : 'dated days ahead: the sender\'s clock is wrong'}; re-sign it now (voicectl listen --replay signs afresh)`
            : `a clock is off: this machine's or the sender's (${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead'}); check NTP`,
      };
    }
    case 'signature_mismatch':
      return { status: 401, reason: result.reason, message: result.message, likely: mismatch(secrets, raw, header) };
  }
}

function mismatch(secrets: readonly string[], raw: Buffer, header: string | undefined): string {
  const parsed = header ? parseSignatureHeader(header) : null;
  if (!parsed) return 'the signature does not match';
  const t = parsed.timestamp;
  const given = new Set(parsed.signatures.map((s) => s.toLowerCase()));
  const signedBy = (body: string | Buffer, ts = t) => secrets.some((s) => given.has(computeSignature(s, ts, body)));
  const several = parsed.signatures.length > 1 ? `none of the ${parsed.signatures.length} v1 values match; ` : '';

  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(raw.toString('utf8'));
  } catch {
    return `${several}the body is not valid JSON, so it was changed or cut short on the way (a proxy or body parser rewrote it)`;
  }
  // Same JSON, other bytes: somebody parsed and re-serialized the body after it was signed.
  const variants = [JSON.stringify(parsedBody), JSON.stringify(parsedBody, null, 2), JSON.stringify(parsedBody, null, 4), pythonJson(parsedBody)];
  for (const variant of variants) {
    if (variant !== raw.toString('utf8') && signedBy(variant)) {
      return `${several}the body was re-serialized after signing (the same JSON written differently matches): verify the raw bytes, not JSON.stringify(req.body)`;
    }
  }
  if (signedBy(raw.toString('utf8').trim()) && raw.toString('utf8').trim() !== raw.toString('utf8')) {
    return `${several}the body gained or lost surrounding whitespace on the way: verify the exact bytes received`;
  }
  if (secrets.some((s) => given.has(createHmac('sha256', s).update(raw).digest('hex')))) {
    return `${several}the sender signed the body alone; the service signs "<t>.<body>"`;
  }
  return `${several}the body is well-formed JSON and no re-serialization of it matches, so most likely the secret is wrong (another endpoint's, or rotated: the current one is what \`voicectl webhook rotate-secret\` printed last), or the body's content was altered`;
}

/** json.dumps' default output (", " and ": " separators, non-ASCII escaped): a common re-serializer. */
function pythonJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(v)) return `[${v.map(pythonJson).join(', ')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${pythonJson(k)}: ${pythonJson(x)}`).join(', ')}}`;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
