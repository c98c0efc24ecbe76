// Test support for SPEC A3 (mTLS): certificates made with openssl in a temp
// folder (a CA, a server certificate for 127.0.0.1, a client certificate from
// that CA, the same key encrypted, and a client certificate from another CA),
// and a node:https MCP endpoint on 127.0.0.1 that requires a client
// certificate issued by the CA. The endpoint answers initialize, tools/list
// (one tool, echo) and tools/call (echo <text>): enough for the client, the
// tool source and the CLI to list and call through it.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const OPENSSL = '/usr/bin/openssl';
/** A describe()'s skip option: false, or why the suite cannot run here (visible in the report). */
export const MTLS_SKIP: false | string = existsSync(OPENSSL) ? false : `openssl not found at ${OPENSSL}`;
/** The encrypted key's passphrase: a canary, never to appear in any output. */
export const MTLS_PASSPHRASE = 'canary-passphrase-7f3a91';

export interface MtlsWorld {
  dir: string;
  /** The path of a file in `dir`: ca.crt, other-ca.crt, client.crt, client.key, client-enc.key, stranger.crt, stranger.key. */
  file(name: string): string;
  /** The MCP endpoint: https://127.0.0.1:PORT/mcp. */
  url: string;
  /** Stops the server (every connection cut) and removes the folder. */
  close(): void;
}

export async function startMtlsWorld(): Promise<MtlsWorld> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-a3-'));
  const file = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const issue = (name: string, ca: string, subject: string, ext?: string) => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-out', `${name}.crt`, ...(ext === undefined ? [] : ['-extfile', ext]));
  };
  for (const ca of ['ca', 'other-ca']) ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.crt`, '-days', '2', '-subj', `/CN=${ca}`);
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  issue('server', 'ca', '/CN=127.0.0.1', 'san.ext');
  issue('client', 'ca', '/CN=client');
  issue('stranger', 'other-ca', '/CN=stranger');
  ssl('pkey', '-in', 'client.key', '-aes256', '-passout', `pass:${MTLS_PASSPHRASE}`, '-out', 'client-enc.key');

  const server = https.createServer({ key: readFileSync(file('server.key')), cert: readFileSync(file('server.crt')), ca: readFileSync(file('ca.crt')), requestCert: true, rejectUnauthorized: true }, (req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(text) as { id?: number; method: string; params?: { arguments?: { text?: string } } };
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'mtls', version: '1.0.0' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { content: [{ type: 'text', text: `echo ${message.params?.arguments?.text ?? ''}` }] }
              : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    dir,
    file,
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close() {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
