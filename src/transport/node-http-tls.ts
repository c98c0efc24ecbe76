// A server's mTLS settings (#19 item 4, SPEC A3) made ready for node:https:
// each of cert, key and ca read from its file when it is a path, then tried
// together once, so that a key that does not match its certificate, an
// encrypted key without its passphrase or a file that is not PEM is a
// ConfigError at start naming the server and the setting, not a handshake
// failure later. No error here quotes a file's contents or the passphrase.

import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { nodeTls } from '../util/node-builtins.js';
import type { HttpTlsOptions } from './http-client.js';

const PEM = /-----BEGIN [A-Z0-9 ]+-----/;

export interface LoadedTls {
  tls: HttpTlsOptions;
  /** The values to scrub from every error and diagnostic: the key's text and the passphrase. */
  secrets: string[];
}

export function loadTls(server: string, options: HttpTlsOptions): LoadedTls {
  if (typeof options !== 'object' || options === null) throw new ConfigError(undefined, ['tls'], 'must be an object: { cert, key, ca?, passphrase? }', { server });
  for (const field of ['cert', 'key', 'ca', 'passphrase', 'servername'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value === '')) throw new ConfigError(undefined, ['tls', field], 'must be a non-empty string (PEM text or the path of a PEM file)', { server });
  }
  if ((options.cert === undefined) !== (options.key === undefined)) {
    const missing = options.cert === undefined ? 'cert' : 'key';
    throw new ConfigError(undefined, ['tls', missing], `a client certificate needs both cert and key; ${missing} is missing`, { server });
  }
  const cert = options.cert === undefined ? undefined : pem(server, 'cert', options.cert);
  const key = options.key === undefined ? undefined : pem(server, 'key', options.key);
  const ca = options.ca === undefined ? undefined : pem(server, 'ca', options.ca);
  const tls: HttpTlsOptions = {
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
    ...(ca === undefined ? {} : { ca }),
    ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    ...(options.servername === undefined ? {} : { servername: options.servername }),
  };
  try {
    nodeTls().createSecureContext(tls);
  } catch (error) {
    throw new ConfigError(undefined, ['tls'], explain(error, options), { server });
  }
  return { tls, secrets: [key, options.passphrase].filter((value): value is string => value !== undefined) };
}

/** The PEM text of a setting: itself, or the contents of the file it names. */
function pem(server: string, field: 'cert' | 'key' | 'ca', value: string): string {
  if (PEM.test(value)) return value;
  let text: string;
  try {
    text = readFileSync(value, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : `it cannot be read (${code ?? 'unknown error'})`;
    throw new ConfigError(undefined, ['tls', field], `${why}: ${value}; give the path of a PEM file, or the PEM text itself`, { server });
  }
  if (!PEM.test(text)) throw new ConfigError(undefined, ['tls', field], `${value} holds no PEM block (-----BEGIN …-----); give a PEM file`, { server });
  return text;
}

/** What OpenSSL's verdict on the settings means, in words that say what to fix (its message names no contents). */
function explain(error: unknown, options: HttpTlsOptions): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/bad decrypt|bad password|interrupted or cancelled|unable to load private key|decode error|no start line|unsupported/i.test(message) && options.key !== undefined) {
    return options.passphrase === undefined
      ? `the key could not be read (${message}); if it is encrypted, give its passphrase; else check that it is a PEM private key`
      : `the key could not be read with the passphrase given (${message}); check the passphrase and the key file`;
  }
  if (/key values mismatch/i.test(message)) return `the key does not belong to the certificate (${message}); give the key the certificate was issued for`;
  return `the certificate, key or CA could not be used (${message}); check that each is PEM`;
}

/** The server's certificate failed our check: what Node calls each way it can fail. */
const UNTRUSTED = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/**
 * What to check after a TLS failure (SPEC A3: "an error naming the server and
 * what to check"), or undefined when the error is not one. The network's own
 * words stay the cause underneath; this only says which setting to look at.
 * `cert`: a client certificate was configured. Under TLS 1.3 a server that
 * refuses our certificate does so after the client has finished its side of
 * the handshake, so all the client sees is a reset; only when a certificate
 * was sent is a reset taken to mean that.
 */
export function tlsHint(error: unknown, cert: boolean): string | undefined {
  const codes: string[] = [];
  const words: string[] = [];
  for (let level: unknown = error, depth = 0; level instanceof Error && depth < 6; level = level.cause, depth++) {
    const code = (level as NodeJS.ErrnoException).code;
    if (typeof code === 'string') codes.push(code);
    words.push(level.message);
  }
  const text = words.join(' ');
  if (codes.some((code) => UNTRUSTED.has(code))) return "the server's certificate is not trusted; check tls.ca (--ca on the command line), the CA bundle that issued the server's certificate, and the certificate's dates";
  if (codes.includes('ERR_TLS_CERT_ALTNAME_INVALID')) return "the server's certificate is not for this host; check the URL's host, or tls.servername";
  if (/certificate required|handshake failure/i.test(text) && !cert) return 'the server requires a client certificate and none was given; set tls.cert and tls.key for this server (the CLI\'s --cert and --key)';
  if (/alert (unknown ca|bad certificate|certificate required|certificate unknown|certificate expired|certificate revoked|access denied|handshake failure)/i.test(text)) {
    return 'the server refused our client certificate; check that tls.cert was issued by a CA the server trusts and has not expired';
  }
  if (cert && codes.includes('ECONNRESET')) return 'the server dropped the connection, which is how a server refuses a client certificate under TLS 1.3; check that tls.cert was issued by a CA the server trusts and has not expired';
  return undefined;
}
