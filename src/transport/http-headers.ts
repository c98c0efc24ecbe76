// Headers and auth for the HTTP transports (T4, the header part): static
// headers, `bearer` and `header` auth with a value the caller hands in (the
// config layer resolves secret_ref into it), `${NAME}` from the environment.
// A header that resolves to empty is dropped, never sent empty; CR or LF in a
// value is refused. Which values are secret is recorded so that error text
// can be scrubbed of them.

import { ConfigError } from '../errors.js';

export type HttpAuth =
  | { type: 'none' }
  /** `Authorization: Bearer <value>`. */
  | { type: 'bearer'; value: string }
  /** `<headerName>: <value>`; headerName defaults to Authorization. */
  | { type: 'header'; headerName?: string; value: string };

export interface HttpHeaderOptions {
  /** Sent on every request. `${NAME}` in a value is replaced from the environment. */
  headers?: Readonly<Record<string, string>>;
  auth?: HttpAuth;
  /** Where `${NAME}` is looked up. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Headers that can change during a connection (an OAuth access token that is
 * refreshed): the HTTP transports ask for them before every request, and
 * treat each value as a secret.
 */
export interface HeaderProvider {
  headers(request: { url: URL; method: string }): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /**
   * The server answered 401 or 403 (its WWW-Authenticate header, if any, is
   * passed on). Return true to send the request once more with fresh
   * headers(); false, or no handler, fails it with an AuthError.
   */
  onChallenge?(challenge: { status: number; wwwAuthenticate: string | undefined; url: URL }): boolean | Promise<boolean>;
}

export interface ResolvedHeaders {
  headers: Record<string, string>;
  /** Values that must never appear in a log, an error or a diagnostic. */
  secrets: string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/; // RFC 9110 §5.6.2 field-name
const SECRET_NAME = /auth|token|key|secret|cookie|session|password/i;
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Resolves configured headers and auth into what is sent. Throws ConfigError naming the server and header (never the value).
 * A header is dropped when its value resolves to empty, or when a `${NAME}` in it resolves to empty: Kestrel's
 * `"Authorization": "Bearer ${DOCS_MCP_TOKEN}"` with the variable unset must not go out as `Authorization: Bearer`.
 */
export function resolveHeaders(server: string, options: HttpHeaderOptions): ResolvedHeaders {
  const env = options.env ?? process.env;
  const headers: Record<string, string> = {};
  const secrets: string[] = [];

  /** `raw` with each `${NAME}` replaced; `missing` when one of them resolved to empty. Substituted values are secrets. */
  const substitute = (raw: string) => {
    let missing = false;
    const value = raw.replace(PLACEHOLDER, (_, variable: string) => {
      const found = env[variable] ?? '';
      if (found.trim() === '') missing = true;
      else secrets.push(found);
      return found;
    });
    return { value, missing, fromEnv: value !== raw };
  };

  const put = (name: string, raw: string, path: (string | number)[], secret: boolean) => {
    const { value, missing, fromEnv } = substitute(raw);
    checkHeader(server, name, value, path);
    if (missing || value.trim() === '') return; // dropped, so an unset token fails loudly at the server instead of sending "Authorization:"
    headers[name.toLowerCase()] = value;
    if (secret || fromEnv || SECRET_NAME.test(name)) secrets.push(value);
  };

  for (const [name, value] of Object.entries(options.headers ?? {})) put(name, value, ['headers', name], false);
  const auth = options.auth;
  if (auth && auth.type !== 'none') {
    const name = auth.type === 'header' ? (auth.headerName ?? 'Authorization') : 'Authorization';
    // The credential itself is a secret on its own (a server may echo it without the "Bearer " before it).
    // (Values taken from ${NAME} are recorded by substitute(); a literal credential is recorded here.)
    if (auth.value.trim() !== '' && !auth.value.includes('${')) secrets.push(auth.value);
    const value = auth.type === 'bearer' ? (auth.value.trim() === '' ? '' : `Bearer ${auth.value}`) : auth.value;
    put(name, value, ['auth'], true);
  }
  return { headers, secrets };
}

/** Throws a ConfigError naming the header (never its value) when the name or the value cannot be sent. */
export function checkHeader(server: string, name: string, value: string, path: (string | number)[]): void {
  if (!TOKEN.test(name)) throw new ConfigError(undefined, path, `"${name}" is not a valid HTTP header name`, { server });
  // A value with CR or LF would let one header smuggle another (header injection).
  if (/[\r\n\0]/.test(value)) throw new ConfigError(undefined, path, `the value of header "${name}" contains a line break or NUL, which HTTP forbids`, { server });
}

export { redact } from './redact.js';
