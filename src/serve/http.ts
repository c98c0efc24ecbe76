// `mcpwire serve --listen`: the Streamable HTTP side (MCP transports,
// "Streamable HTTP"), one endpoint per agent view (`/mcp`, `/mcp/<agent>`).
//   legacy: POST `initialize` opens a session (Mcp-Session-Id); later POSTs
//     carry it; a POST of requests is answered with JSON, or with an SSE
//     stream when it runs a tool (progress and forwarded requests ride on it);
//     GET opens the session's stream for list_changed; DELETE ends it; an
//     idle session expires and its id then gets 404, so the client starts
//     again (T3).
//   modern (2026-07-28): stateless; each POST is one request with its
//     _meta envelope and MCP-Protocol-Version / Mcp-Method headers that must
//     match the body (-32020 otherwise).
// Before any of that, every request passes the guard (util/http-guard.ts:
// Host and Origin against DNS rebinding, as the transport spec requires of
// servers; origin-form target; bounded body) and, when a token is set, the
// bearer check. A client that goes away mid-call cancels the call upstream.

import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { isId, isObject, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/message.js';
import { PROTOCOL_VERSION_META_KEY } from '../client/request-meta.js';
import { createRequestGuard, GUARD_HEADERS_TIMEOUT_MS, GUARD_REQUEST_TIMEOUT_MS, readBoundedBody } from '../util/http-guard.js';
import { isWildcardAddress } from '../util/addresses.js';
import { ServeSession, type ServeSessionOptions } from './protocol.js';

import { DEFAULT_SESSION_IDLE_MS } from './defaults.js';
export { DEFAULT_SESSION_IDLE_MS }; // in defaults.ts so the package entry needs no HTTP server for it (#20)

export interface HttpServeOptions extends Omit<ServeSessionOptions, 'send' | 'agent'> {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Required of every request (`Authorization: Bearer <token>`) when set. */
  token?: string;
  /** The agent of `/mcp` (every tool without one); `/mcp/<agent>` names another. */
  agent?: string;
  /** The agents `/mcp/<agent>` may name. */
  agents: readonly string[];
  allowHosts?: readonly string[];
  allowOrigins?: readonly string[];
  /** Largest request body, bytes. Default 32 MiB (W2's message limit). */
  maxBodyBytes?: number;
  /** Default DEFAULT_SESSION_IDLE_MS. */
  sessionIdleMs?: number;
}

export interface HttpServe {
  /** The `/mcp` endpoint's URL. */
  url: string;
  /** Open sessions (legacy clients). */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Stream {
  write(message: JsonRpcMessage): void;
}

interface HttpSession {
  id: string;
  session: ServeSession;
  /** The POST streams waiting on request ids of this session. */
  streams: Map<JsonRpcId, Stream>;
  /** The GET stream, when the client opened one. */
  standalone: ServerResponse | undefined;
  lastActive: number;
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpServe> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const guard = createRequestGuard({ host: options.host, maxBodyBytes, hints: { host: '--allow-host', origin: '--allow-origin' }, ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}), ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}) });
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  const sessions = new Map<string, HttpSession>();
  const problem = (text: string) => options.onProblem?.(text);

  const server = createServer({ headersTimeout: GUARD_HEADERS_TIMEOUT_MS, requestTimeout: GUARD_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    void route(req, res).catch((error: unknown) => {
      problem(`${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) plain(res, 500, 'internal error');
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refusal = guard.refuse(req);
    if (refusal) {
      problem(`refused ${req.method} request: ${refusal.why}`);
      req.resume();
      return plain(res, refusal.status, refusal.why);
    }
    if (tokenDigest && !bearerMatches(req.headers.authorization, tokenDigest)) {
      req.resume();
      // RFC 6750 §3: a request without (or with a wrong) token is answered 401 with a Bearer challenge.
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcpwire serve"', 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('mcpwire serve: a bearer token is required (Authorization: Bearer <the token serve printed>)\n');
      return;
    }
    const agent = agentOf(new URL(req.url ?? '/', 'http://x').pathname);
    if (agent === false) {
      req.resume();
      return plain(res, 404, `no endpoint here: use /mcp${options.agents.length > 0 ? ` or /mcp/<agent> (${options.agents.join(', ')})` : ''}`);
    }
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'POST') return post(req, res, agent, sessionId);
    req.resume();
    if (req.method === 'GET') return openStream(req, res, sessionId);
    if (req.method === 'DELETE') {
      const open = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (!open) return plain(res, 404, 'no such session');
      end(open, 'the client ended its session');
      res.writeHead(200).end();
      return;
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  }

  /** The agent an endpoint path names: undefined for the default view, false for no endpoint. */
  function agentOf(path: string): string | undefined | false {
    if (path === '/mcp' || path === '/mcp/') return options.agent;
    const match = /^\/mcp\/([^/]+)\/?$/.exec(path);
    if (!match) return false;
    const name = decodeURIComponent(match[1]!);
    return options.agents.includes(name) ? name : false;
  }

  async function post(req: IncomingMessage, res: ServerResponse, agent: string | undefined, sessionId: string | undefined): Promise<void> {
    // A browser sends text/plain (or a form) across origins without a preflight: such a POST from a page on any
    // local port would pass the Origin check (it compares host names) and run a stateless tools/call. JSON only.
    if ((header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') {
      req.resume();
      return plain(res, 415, 'a POST body must be Content-Type: application/json');
    }
    const body = await readBoundedBody(req, maxBodyBytes);
    if (body === undefined) {
      problem(`refused a POST body over ${maxBodyBytes} bytes`);
      res.writeHead(413, { connection: 'close' }).end();
      req.destroy();
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return rpcError(res, 400, ErrorCodes.ParseError, 'the body is not JSON');
    }
    const messages = Array.isArray(value) ? value : [value];
    const requestIds = messages.filter((m) => isObject(m) && typeof m.method === 'string' && isId(m.id)).map((m) => (m as { id: JsonRpcId }).id);
    // Requests whose answer may have messages before it (progress, a forwarded request, list changes) get a stream.
    const calls = messages.some((m) => isObject(m) && (m.method === 'tools/call' || m.method === 'subscriptions/listen'));
    const wantsSse = (header(req, 'accept') ?? '').includes('text/event-stream');

    let open: HttpSession | undefined;
    if (sessionId !== undefined) {
      open = sessions.get(sessionId);
      // Transports "Session Management": a session id the server does not know (ended, expired) is answered 404.
      if (!open) return rpcError(res, 404, ErrorCodes.InvalidRequest, 'no such session (it ended or expired): initialize again');
    } else if (messages.some((m) => isObject(m) && m.method === 'initialize')) {
      open = newSession(agent);
      res.setHeader('mcp-session-id', open.id);
    } else {
      const modern = modernRequest(req, messages);
      if (modern.ok === false) return rpcError(res, 400, modern.code, modern.why);
      // Stateless (2026-07-28): a session for this one POST, ended with it.
      if (requestIds.length === 0) {
        // Notifications only: nothing will answer them, so no exchange waits (it would never end): 202, as a session's are.
        const once = transient(agent);
        for (const m of messages) once.session.receive(m);
        once.session.close('the request ended');
        res.writeHead(202).end();
        return;
      }
      return exchange(res, transient(agent), requestIds, calls && wantsSse, true, messages, Array.isArray(value));
    }
    open.lastActive = Date.now();
    if (requestIds.length === 0) {
      for (const m of messages) open.session.receive(m);
      res.writeHead(202).end();
      return;
    }
    return exchange(res, open, requestIds, calls && wantsSse, false, messages, Array.isArray(value));
  }

  /** Runs a POST's requests on `open` and answers them: one JSON body (a batch when a batch came), or an SSE stream. */
  function exchange(res: ServerResponse, open: HttpSession, ids: JsonRpcId[], sse: boolean, stateless: boolean, messages: unknown[], batch: boolean): void {
    // An id already waiting (on another POST, or twice in this batch) would take over that POST's stream: the first
    // POST would then never hear its answer. Refused here, before the session sees it.
    const clash = ids.find((id, at) => open.streams.has(id) || ids.indexOf(id) !== at);
    if (clash !== undefined) {
      if (stateless) open.session.close('the request ended');
      return rpcError(res, 400, ErrorCodes.InvalidRequest, `request id ${JSON.stringify(clash)} is already in use by a request not yet answered`);
    }
    const waiting = new Set(ids);
    const answers: JsonRpcMessage[] = [];
    let finished = false;
    const finish = () => {
      finished = true;
      for (const id of ids) open.streams.delete(id);
      open.lastActive = Date.now();
      if (stateless) open.session.close('the request ended');
    };
    if (sse) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...(stateless ? {} : { 'mcp-session-id': open.id }) });
    const stream: Stream = {
      write(message) {
        if (finished) return;
        const answered = !('method' in message) && 'id' in message && message.id !== null && waiting.delete(message.id);
        if (sse) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
        else if (answered) answers.push(message);
        if (answered && waiting.size === 0) {
          finish();
          if (sse) res.end();
          else {
            const text = JSON.stringify(batch ? answers : answers[0]);
            res.writeHead(200, { 'content-type': 'application/json', ...(stateless ? {} : { 'mcp-session-id': open.id }) }).end(text);
          }
        }
      },
    };
    for (const id of ids) open.streams.set(id, stream);
    // The client went away before its answers: its requests are cancelled (and so their upstream calls).
    res.on('close', () => {
      if (finished) return;
      finish();
      if (!stateless) for (const id of waiting) open.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the client closed its connection' } });
    });
    // Received once the streams are in place, so the first answer (it may come at once) finds its way.
    for (const m of messages) open.session.receive(m);
  }

  function newSession(agent: string | undefined): HttpSession {
    const id = randomUUID();
    const open: HttpSession = { id, streams: new Map(), standalone: undefined, lastActive: Date.now(), session: undefined as unknown as ServeSession };
    open.session = new ServeSession({ ...options, ...(agent === undefined ? {} : { agent }), send: (message, relatedTo) => deliver(open, message, relatedTo) });
    sessions.set(id, open);
    return open;
  }

  function transient(agent: string | undefined): HttpSession {
    const open: HttpSession = { id: '', streams: new Map(), standalone: undefined, lastActive: Date.now(), session: undefined as unknown as ServeSession };
    open.session = new ServeSession({ ...options, ...(agent === undefined ? {} : { agent }), send: (message, relatedTo) => deliver(open, message, relatedTo) });
    return open;
  }

  function deliver(open: HttpSession, message: JsonRpcMessage, relatedTo: JsonRpcId | undefined): void {
    const stream = relatedTo === undefined ? undefined : open.streams.get(relatedTo);
    if (stream) return stream.write(message);
    // Not about a request (list_changed), or about one answered as JSON: the GET stream, when there is one.
    if (open.standalone && !open.standalone.writableEnded) open.standalone.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  function openStream(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): void {
    const open = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!(header(req, 'accept') ?? '').includes('text/event-stream')) return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    if (!open) return plain(res, sessionId === undefined ? 400 : 404, sessionId === undefined ? 'a GET stream belongs to a session: send Mcp-Session-Id' : 'no such session');
    // Transports: "The server MUST either return Content-Type: text/event-stream ... or else return HTTP 405"; one stream per session here.
    if (open.standalone && !open.standalone.writableEnded) return plain(res, 409, 'this session has a stream open already');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': open.id });
    res.flushHeaders();
    open.standalone = res;
    res.on('close', () => {
      if (open.standalone === res) open.standalone = undefined;
      open.lastActive = Date.now();
    });
  }

  function end(open: HttpSession, why: string): void {
    sessions.delete(open.id);
    open.session.close(why);
    open.standalone?.end();
  }

  // Idle sessions are swept: none with a call in flight or a stream open.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const open of sessions.values()) {
      if (open.session.peer.busy === 0 && (!open.standalone || open.standalone.writableEnded) && now - open.lastActive > idleMs) end(open, 'the session expired');
    }
  }, Math.max(50, Math.min(idleMs / 2, 30_000)));
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = isWildcardAddress(options.host) ? (options.host.includes(':') ? '::1' : '127.0.0.1') : options.host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/mcp`,
    sessionCount: () => sessions.size,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        for (const open of [...sessions.values()]) end(open, 'mcpwire serve is stopping');
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A POST without a session must be a 2026-07-28 request: one request whose
 * _meta names its protocol version, with headers that agree with the body
 * (2026-07-28 transports: MCP-Protocol-Version and Mcp-Method mirror it; a
 * mismatch is -32020 HeaderMismatch).
 */
function modernRequest(req: IncomingMessage, messages: unknown[]): { ok: true } | { ok: false; code: number; why: string } {
  const only = messages.length === 1 && isObject(messages[0]) ? messages[0] : undefined;
  const params = only && isObject(only.params) ? only.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== 'string' || typeof only!.method !== 'string') {
    return { ok: false, code: ErrorCodes.InvalidRequest, why: 'no session: a 2025 client starts with initialize; a 2026-07-28 request carries _meta["io.modelcontextprotocol/protocolVersion"]' };
  }
  const headerVersion = header(req, 'mcp-protocol-version');
  if (headerVersion !== undefined && headerVersion !== version) return { ok: false, code: ErrorCodes.HeaderMismatch, why: `MCP-Protocol-Version ${headerVersion} does not match the body's ${version}` };
  const method = header(req, 'mcp-method');
  if (method !== undefined && method !== only!.method) return { ok: false, code: ErrorCodes.HeaderMismatch, why: `Mcp-Method ${method} does not match the body's ${String(only!.method)}` };
  return { ok: true };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`mcpwire serve: ${text}\n`);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compared as digests, in constant time: the comparison says nothing of how much of a guess was right. */
function bearerMatches(authorization: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}
