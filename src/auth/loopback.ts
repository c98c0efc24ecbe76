// The default way a person authorizes (#19 item 2): the authorization URL is
// printed and opened in the browser, and the browser's return is received by
// a listener on 127.0.0.1 (RFC 8252 §7.3). The port is picked by the OS and
// held from before registration (the redirect URI names it) until the one
// valid callback, or the deadline; only GET on the exact path is answered.
// The browser is opened without a shell, and only for an https URL (or http
// to loopback) with nothing in it a shell or an OS handler could misread: a
// server-supplied `javascript:` or `file:` URL is printed as refused, never
// opened.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthError } from '../errors.js';
import { nodeChildProcess, nodeHttp } from '../util/node-builtins.js';
import type { Authorizer } from './oauth-provider.js';

export interface LoopbackReceiver {
  /** http://127.0.0.1:<port><path>: what the client registers and sends as redirect_uri. */
  redirectUri: string;
  /** The callback URL the browser came back with; rejects after `timeoutMs`. Resolves once. */
  wait(timeoutMs: number): Promise<URL>;
  close(): Promise<void>;
}

/** Default deadline for a person to log in. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

const DONE_PAGE = '<!doctype html><meta charset="utf-8"><title>mcpwire</title><p>Authorization received. You can close this window and return to the terminal.</p>';

/** Listens on 127.0.0.1 for GET `path`: on `port`, or one from the OS (0). */
export async function startLoopbackReceiver(path = '/callback', port = 0): Promise<LoopbackReceiver> {
  let deliver: ((url: URL) => void) | undefined;
  let received: URL | undefined;
  const server: Server = nodeHttp().createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET', 'content-type': 'text/plain' }).end('method not allowed');
    if (received) return void res.writeHead(409, { 'content-type': 'text/plain' }).end('already received');
    received = new URL(`${redirectUri}${url.search}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(DONE_PAGE);
    deliver?.(received);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    redirectUri,
    close,
    wait: (timeoutMs) =>
      new Promise<URL>((resolve, reject) => {
        if (received) return resolve(received);
        const timer = setTimeout(() => {
          void close();
          reject(new OAuthError({ server: '' }, 'authorization', `no authorization came back to ${redirectUri} within ${Math.round(timeoutMs / 1000)} s; run the login again`));
        }, timeoutMs);
        deliver = (url) => {
          clearTimeout(timer);
          void close();
          resolve(url);
        };
      }),
  };
}

/** Why `url` must not be opened in a browser, or undefined when it may. */
export function refusedToOpen(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL';
  }
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i.test(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) return `it is a ${parsed.protocol} URL; only https (or http to this machine) is opened`;
  // No shell runs it, but nothing that a shell, `cmd /c start` or a desktop handler could take for more than a
  // URL is let through either: a query's & and = are fine; quotes, spaces, ; | ` $ < > \\ ^ and controls are not.
  if (/[\s"'`$;|<>\\^{}\x00-\x1f\x7f]/.test(url)) return 'it holds characters a command line could misread';
  return undefined;
}

/** Opens `url` in the default browser without a shell; false when no opener could be started. */
export function openInBrowser(url: string): boolean {
  if (refusedToOpen(url)) return false;
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  try {
    const child = nodeChildProcess().spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

export interface BrowserAuthorizerOptions {
  receiver: LoopbackReceiver;
  /** Where the URL and what to do are said. Default: stderr. */
  print?: (line: string) => void;
  /** Opens the URL. Default openInBrowser; `false` only prints (a machine without a browser). */
  open?: ((url: string) => boolean) | false;
  timeoutMs?: number;
}

/** The Authorizer a CLI uses: print, open (checked), wait for the loopback callback. */
export function browserAuthorizer(options: BrowserAuthorizerOptions): Authorizer {
  const print = options.print ?? ((line: string) => void process.stderr.write(`${line}\n`));
  return async ({ url, server }) => {
    const href = url.href;
    const refused = refusedToOpen(href);
    if (refused) throw new OAuthError({ server }, 'authorization', `the authorization URL is not opened: ${refused}`);
    print(`To authorize ${server}, open this URL in a browser:\n  ${href}`);
    const opener = options.open === undefined ? openInBrowser : options.open;
    if (opener && !opener(href)) print('(no browser could be started: open the URL yourself)');
    return options.receiver.wait(options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
  };
}
