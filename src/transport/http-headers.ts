// Headers and auth for the HTTP transports (T4, the header part): static
// headers and `bearer` / `header` auth with a value the caller hands in.
// Values are literal: `${NAME}` is resolved (once) by the config reader of a
// format that defines it (Kestrel headers, the MCP clients' JSON), never here,
// so a project file that is not supposed to read the environment cannot make
// the transport read it, and a resolved value holding `${` is not expanded
// again. A header whose value is empty is dropped, never sent empty; CR or LF
// in a value is refused. Which values are secret is recorded so that error
// text can be scrubbed of them.

import { ConfigError } from '../errors.js';
import { isSecretHeader } from '../util/secret-names.js';

export type HttpAuth =
  | { type: 'none' }
  /** `Authorization: Bearer <value>`. */
  | { type: 'bearer'; value: string }
  /** `<headerName>: <value>`; headerName defaults to Authorization. */
  | { type: 'header'; headerName?: string; value: string };

export interface HttpHeaderOptions {
  /**
   * Sent on every request, as written: nothing in a value is substituted (a
   * config reader resolves its format's `${NAME}` before this). A header whose
   * value is empty or blank is not sent. A value of a credential-named header
   * (Authorization, *token*, *key*, cookie, …) is treated as a secret.
   */
  headers?: Readonly<Record<string, string>>;
  /** The credential; its value is always treated as a secret. */
  auth?: HttpAuth;
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
  onChallenge?(challenge: {
    status: number;
    wwwAuthenticate: string | undefined;
    url: URL;
    /** The Authorization header the refused request carried, if any. */
    authorization?: string;
    /** The refusal's headers (a DPoP-Nonce the server wants in the next proof, RFC 9449 §9). */
    headers?: ResponseHeaders;
  }): boolean | Promise<boolean>;
  /** The status the request sent again after onChallenge returned true was answered with. */
  onRetried?(result: { status: number; url: URL }): void;
  /** Every answer (redirects aside), before anything else looks at it: a server may hand out a new DPoP nonce on any response. */
  onResponse?(response: { url: URL; status: number; headers: ResponseHeaders }): void;
}

/** What a provider reads of an answer's headers: the one call both request paths (fetch's Headers, node:http's) give. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export interface ResolvedHeaders {
  headers: Record<string, string>;
  /** Values that must never appear in a log, an error or a diagnostic. */
  secrets: string[];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/; // RFC 9110 §5.6.2 field-name
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ +(\S.*)$/;

/**
 * Turns configured headers and auth into what is sent. Throws ConfigError
 * naming the server and header (never the value). A header whose value is
 * empty or blank is dropped, so a credential that resolved to nothing fails
 * loudly at the server instead of going out as `Authorization:`.
 */
export function resolveHeaders(server: string, options: HttpHeaderOptions): ResolvedHeaders {
  const headers: Record<string, string> = {};
  const secrets: string[] = [];

  const put = (name: string, value: string, path: (string | number)[], secret: boolean) => {
    checkHeader(server, name, value, path);
    if (value.trim() === '') return;
    headers[name.toLowerCase()] = value;
    if (!secret && !isSecretHeader(name)) return;
    secrets.push(value);
    // RFC 9110 §11.4: credentials = auth-scheme [ 1*SP token68 ]. The token alone is a secret too: a server may echo or encode it without "Bearer ".
    const credential = AUTH_SCHEME.exec(value)?.[1];
    if (credential !== undefined && /^(proxy-)?authorization$/i.test(name)) secrets.push(credential);
  };

  for (const [name, value] of Object.entries(options.headers ?? {})) put(name, value, ['headers', name], false);
  const auth = options.auth;
  if (auth && auth.type !== 'none') {
    const name = auth.type === 'header' ? (auth.headerName ?? 'Authorization') : 'Authorization';
    // The credential itself is a secret on its own (a server may echo it without the "Bearer " before it).
    if (auth.value.trim() !== '') secrets.push(auth.value);
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
