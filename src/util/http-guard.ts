// The checks a local HTTP server of mcpwire makes before it reads a request
// (the recorder's proxy, `mcpwire serve`): an origin-form target, a Host that
// names this server (DNS rebinding: a page whose name now resolves to
// 127.0.0.1 still sends its own name), an Origin of such a host, and a body
// within a byte limit. It says why a request is refused; what to answer and
// log is the server's.

import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isWildcardAddress } from './addresses.js';

/** A client has this long to send its request's headers, and this long for the whole request (RFC 9110 gives no number; Node's are 60 s and 300 s). */
export const GUARD_HEADERS_TIMEOUT_MS = 10_000;
export const GUARD_REQUEST_TIMEOUT_MS = 60_000;
/** Host names that are this machine whatever the DNS says. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export interface RequestGuardOptions {
  /** The address the server binds: a name or address there is accepted as a Host too (not a wildcard's). */
  host: string;
  /** Host names a request's Host may carry besides loopback names and the listen address. */
  allowHosts?: readonly string[];
  /** Origins a browser's request may come from besides those of accepted hosts. */
  allowOrigins?: readonly string[];
  /**
   * The port this server listens on, once it does. Given, an Origin must be
   * this server's own (http, an accepted host, this port) or an allowed
   * one: a page of another local server (another port of localhost) is
   * another origin. Not given, any port of an accepted host is accepted.
   */
  ownPort?: () => number | undefined;
  /** The largest body accepted, bytes. */
  maxBodyBytes: number;
  /** How the refusals name the options that widen what is accepted, e.g. `{ host: '--allow-host', origin: '--allow-origin' }`. */
  hints: { host: string; origin: string };
}

export interface Refusal {
  status: number;
  why: string;
}

export interface RequestGuard {
  /** Why a request is refused (nothing of it should be read or passed on), or undefined. */
  refuse(req: IncomingMessage): Refusal | undefined;
  readonly maxBodyBytes: number;
}

export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const { maxBodyBytes, hints } = options;
  const hosts = new Set([...LOOPBACK_NAMES, ...(isWildcardAddress(options.host) ? [] : [bareHost(options.host)]), ...(options.allowHosts ?? []).map((h) => bareHost(h.toLowerCase()))]);
  const origins = new Set((options.allowOrigins ?? []).map((o) => o.toLowerCase().replace(/\/+$/, '')));

  function originAccepted(origin: string): boolean {
    const lower = origin.toLowerCase();
    if (origins.has(lower)) return true;
    try {
      const url = new URL(lower);
      if (!hosts.has(bareHost(url.hostname))) return false;
      if (!options.ownPort) return url.protocol === 'http:' || url.protocol === 'https:';
      // RFC 6454 §4: an origin is scheme, host and port; this server speaks plain http (the URL parser drops :80).
      return url.protocol === 'http:' && Number(url.port || 80) === options.ownPort();
    } catch {
      return false; // "null" (a sandboxed or file: page) and anything unparsable
    }
  }

  return {
    maxBodyBytes,
    refuse(req) {
      const target = req.url ?? '';
      // Origin-form only (RFC 9112 §3.2.1): an absolute-form target, `//host/…` or `*` would name another destination.
      if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return { status: 400, why: 'the request-target must be a path (this is not a forward proxy)' };
      const host = req.headers.host;
      if (host === undefined || !hosts.has(hostName(host))) return { status: 421, why: `the Host header does not name this server (allow a name with ${hints.host})` };
      const origin = req.headers.origin;
      if (origin !== undefined && !originAccepted(origin)) return { status: 403, why: `requests from that Origin are not accepted (allow one with ${hints.origin})` };
      const length = Number(req.headers['content-length'] ?? 0);
      if (length > maxBodyBytes) return { status: 413, why: `a body of ${length} bytes is over the limit of ${maxBodyBytes}` };
      return undefined;
    },
  };
}

/**
 * Reads a request's body up to `maxBytes`: resolves with it, or with
 * undefined once it grows past the limit (the request is then destroyed, so
 * the rest is never read).
 */
export function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > maxBytes) {
        over = true;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    req.on('error', () => {
      if (!over) resolve(undefined);
      over = true;
    });
  });
}

/** A host without brackets, lower case. */
export function bareHost(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, '');
}

/** The name in a Host header: without its port, without the brackets of an IPv6 literal, without a final dot. */
export function hostName(header: string): string {
  const text = header.trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (v6) return v6[1]!;
  const name = text.replace(/:\d+$/, '').replace(/\.$/, '');
  return isIP(name) === 6 ? '' : name;
}

/** Whether a bind address is a loopback one (what a bearer token is not required for). */
export function isLoopbackAddress(host: string): boolean {
  const bare = bareHost(host);
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}
