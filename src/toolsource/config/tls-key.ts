// mcpwire's `tls` key beside a remote server in the JSON client configs
// (mcpServers, VS Code's servers, Kestrel's plugin config): a client
// certificate for mutual TLS (#19 item 4, SPEC A3), `{cert, key, ca?,
// passphrase?}`. Each of cert, key and ca is PEM text or a file path
// (relative to the config's folder); the files are read by the transport when
// the server starts, so a missing one is reported then, naming its path.
// The key (when it is PEM text) and the passphrase are secrets to scrub. The
// clients ignore a key they do not know, so the file stays theirs; inside
// `tls` an unknown key is refused, since a misspelt `cert` silently dropped
// would mean connecting without one.

import path from 'node:path';
import { isObject } from '../../jsonrpc/message.js';
import type { HttpTlsOptions } from '../../transport/http-client.js';
import type { OAuthKeyProblem, ResolveValue } from './oauth-key.js';

export const TLS_KEYS = ['cert', 'key', 'ca', 'passphrase'] as const;
const PEM = /-----BEGIN [A-Z0-9 ]+-----/;

/** The entry's `tls`, undefined when it has none, or what is wrong (never quoting a value). */
export function readTlsKey(raw: unknown, resolve: ResolveValue, folder: string): { tls: HttpTlsOptions; secrets: string[] } | OAuthKeyProblem | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) return { field: ['tls'], detail: 'expected an object such as {"cert": "client.crt", "key": "client.key", "ca": "ca.crt"}' };
  const unknown = Object.keys(raw).filter((key) => !(TLS_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) return { field: ['tls', unknown[0]!], detail: `unknown key; "tls" takes ${TLS_KEYS.join(', ')}` };
  const tls: HttpTlsOptions = {};
  const secrets: string[] = [];
  for (const field of TLS_KEYS) {
    const value = raw[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') return { field: ['tls', field], detail: field === 'passphrase' ? 'expected a string (use ${env:VAR} to keep it out of the file)' : 'expected a file path or PEM text' };
    const secret = field === 'key' || field === 'passphrase';
    const got = resolve(value, ['tls', field], secret);
    if (got === '') continue;
    tls[field] = field === 'passphrase' || PEM.test(got) ? got : path.resolve(folder, got);
    if (secret && (field === 'passphrase' || PEM.test(got))) secrets.push(got);
  }
  if ((tls.cert === undefined) !== (tls.key === undefined)) return { field: ['tls', tls.cert === undefined ? 'cert' : 'key'], detail: 'a client certificate needs both "cert" and "key"' };
  if (tls.passphrase !== undefined && tls.key === undefined) return { field: ['tls', 'passphrase'], detail: '"passphrase" is for an encrypted key: give "cert" and "key" too' };
  return { tls, secrets };
}
