/**
 * The one way voicectl hides secrets in text meant for people: traces, error messages,
 * `config list`. It masks the credentials of any URL in the text (`https://user:pass@host`),
 * the values of query parameters whose names say they are secret (`?api_key=…`, `&token=…`),
 * and every exact occurrence of the secrets the run knows (the API key, webhook secrets),
 * wherever a server or a proxy may have echoed them.
 */

const MASK = '***';

/**
 * Query parameter names treated as secret, matched case-insensitively against the whole
 * name or its last `_`/`-` separated part (`x_api_key`, `client-secret`, `X-Amz-Signature`).
 */
const SECRET_PARAMS = [
  'key', 'apikey', 'api_key', 'token', 'access_token', 'refresh_token', 'id_token', 'auth', 'authorization',
  'secret', 'client_secret', 'signature', 'sig', 'password', 'passwd', 'pwd', 'pass', 'credential', 'credentials',
  'session', 'sessionid', 'jwt', 'bearer',
];
const SECRET_PARAM_SET = new Set(SECRET_PARAMS);

/** Secrets shorter than this are not searched for: masking "ab" everywhere would garble text and hide nothing. */
const MIN_SECRET_LENGTH = 6;

// scheme://userinfo@ : userinfo runs up to the last @ before the host, without / ? # or space.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]*(?::[^\s/?#@]*)?)@/gi;
// ?name=value or &name=value (also ;name=value), value up to the next separator, quote or space.
const QUERY_PARAM = /([?&;])([^=&#?\s;"'<>]+)=([^&#\s;"'<>]*)/g;

export function isSecretParam(name: string): boolean {
  let n: string;
  try {
    n = decodeURIComponent(name).toLowerCase();
  } catch {
    n = name.toLowerCase();
  }
  if (SECRET_PARAM_SET.has(n) || SECRET_PARAM_SET.has(n.replace(/-/g, '_'))) return true;
  const parts = n.split(/[_-]/);
  const last = parts[parts.length - 1] ?? '';
  // `x_api_key`, `client-secret`, `X-Amz-Signature`, `user_password`: the last word decides.
  return parts.length > 1 && SECRET_PARAM_SET.has(last);
}

/** The proxy variables a run may take credentials from (see src/api/dispatcher.ts). */
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];

/**
 * The secrets in the proxy URLs of an environment: each password, raw and decoded, and
 * the Basic token the client sends in Proxy-Authorization, which a careless proxy may
 * repeat in an error page (decoded or not).
 */
export function proxySecrets(env: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    let u: URL;
    try {
      u = new URL(value.includes('://') ? value : `http://${value}`);
    } catch {
      continue;
    }
    if (!u.password) continue;
    const user = safeDecode(u.username);
    const password = safeDecode(u.password);
    out.push(u.password, password, `${user}:${password}`, Buffer.from(`${user}:${password}`).toString('base64'));
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * `text` with URL credentials, secret-looking query values and the given secret values
 * replaced by ***. Safe on any string: a URL, an error message, a trace line, a stack.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  // Longest first, so a secret that contains another is masked whole.
  const values = [...new Set([...secrets].map((s) => s?.trim()).filter((s): s is string => !!s && s.length >= MIN_SECRET_LENGTH))]
    .sort((a, b) => b.length - a.length);
  for (const v of values) {
    if (out.includes(v)) out = out.split(v).join(MASK);
    // A secret may also appear percent-encoded inside a URL.
    const encoded = encodeURIComponent(v);
    if (encoded !== v && out.includes(encoded)) out = out.split(encoded).join(MASK);
  }
  out = out.replace(USERINFO, (_m, scheme: string) => `${scheme}${MASK}@`);
  out = out.replace(QUERY_PARAM, (m, sep: string, name: string, value: string) =>
    value !== '' && value !== MASK && isSecretParam(name) ? `${sep}${name}=${MASK}` : m);
  return out;
}

/**
 * `value` with every string in it (object values and keys' values, array items, nested)
 * passed through `mask`: for the details of an error as JSON, which carry paths, URLs and
 * what servers said, as the message does.
 */
export function redactDeep(value: unknown, mask: (s: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return mask(value);
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, mask, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, mask, depth + 1);
  return out;
}
