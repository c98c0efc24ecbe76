// `mcpwire serve --listen`: the Streamable HTTP side (MCP transports,
// "Streamable HTTP"), one endpoint per agent view (`/mcp`, `/mcp/<agent>`).
//   legacy: POST `initialize` opens a session (Mcp-Session-Id); later POSTs
//     carry it; a POST of requests is answered with JSON, or with an SSE
//     stream when it runs a tool (progress and forwarded requests ride on it);
//     GET opens the session's stream for list_changed; DELETE ends it; an
//     idle session expires and its id then gets 404, so the client starts
//     again (T3).
//   modern (2026-07-28): stateless; each POST is one request with its
//     _meta envelope and the standard headers, which must be there and
//     match the body (modern-headers.ts; -32020 otherwise).
// Before any of that, every request passes the guard (util/http-guard.ts:
// Host and Origin against DNS rebinding, as the transport spec requires of
// servers, the Origin to this listener's own port; origin-form target;
// bounded body) and, when a token is set, the bearer check. A client that
// goes away mid-call cancels the call upstream; one that stops reading its
// stream loses it (sse-stream.ts). Sessions are capped (maxSessions), and
// close() answers everything still open before it closes the sockets.

import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import { ErrorCodes } from '../jsonrpc/codes.js';
import { isId, isObject, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/message.js';
import { createRequestGuard, GUARD_HEADERS_TIMEOUT_MS, GUARD_REQUEST_TIMEOUT_MS, readBoundedBody } from '../util/http-guard.js';
import { isWildcardAddress } from '../util/addresses.js';
import { checkModernPost } from './modern-headers.js';
import { ServeSession, type ServeSessionOptions } from './protocol.js';
import { DEFAULT_MAX_UNREAD_BYTES, SseStream } from './sse-stream.js';
import { DEFAULT_SESSION_IDLE_MS } from './defaults.js';

export { DEFAULT_SESSION_IDLE_MS }; // in defaults.ts so the package entry needs no HTTP server for it (#20)
/** Live sessions at most (legacy clients; a 2026-07-28 request has none). */
export const DEFAULT_MAX_SESSIONS = 256;
/** At close(), how long answered streams get to reach their clients before every socket is closed. */
const CLOSE_GRACE_MS = 1_000;
/** The JSON-RPC error of a request refused for this server's state (shutting down, full): JSON-RPC 2.0 §5.1 leaves -32000 to -32099 to servers. */
const SERVER_ERROR = -32000;

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
  /** Default DEFAULT_MAX_SESSIONS; an initialize over it is answered 503. */
  maxSessions?: number;
  /** Bytes an SSE stream may hold unread before it is closed. Default DEFAULT_MAX_UNREAD_BYTES. */
  maxUnreadBytes?: number;
}

export interface HttpServe {
  /** The `/mcp` endpoint's URL. */
  url: string;
  /** Open sessions (legacy clients). */
  sessionCount(): number;
  close(): Promise<void>;
}

/** One POST waiting for its answers. */
interface Exchange {
  write(message: JsonRpcMessage): void;
  /** Answers every request still waiting with this error (close()). */
  abandon(code: number, why: string): void;
}

interface HttpSession {
  id: string;
  session: ServeSession;
  /** The POSTs waiting on request ids of this session. */
  streams: Map<JsonRpcId, Exchange>;
  /** The GET stream, when the client opened one. */
  standalone: SseStream | undefined;
  lastActive: number;
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpServe> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxUnreadBytes = options.maxUnreadBytes ?? DEFAULT_MAX_UNREAD_BYTES;
  const ownPort = () => (server.address() as AddressInfo | null)?.port;
  const guard = createRequestGuard({ host: options.host, maxBodyBytes, ownPort, hints: { host: '--allow-host', origin: '--allow-origin' }, ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}), ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}) });
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  const sessions = new Map<string, HttpSession>();
  /** Every POST still waiting for answers, of sessions and stateless ones alike: close() answers them. */
  const exchanges = new Set<Exchange>();
  /** Every response not yet finished: close() waits (a little) for the answered ones to reach their clients. */
  const responses = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;
  const problem = (text: string) => options.onProblem?.(text);

  const server = createServer({ headersTimeout: GUARD_HEADERS_TIMEOUT_MS, requestTimeout: GUARD_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    responses.add(res);
    res.on('close', () => responses.delete(res));
    void route(req, res).catch((error: unknown) => {
      problem(`${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) plain(res, 500, 'internal error');
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A request on a kept-alive connection after close() began.
    if (closing) return stopping(req, res);
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
    if (closing) return stopping(req, res);
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
      if (sessions.size >= maxSessions) sweepIdle();
      if (sessions.size >= maxSessions) {
        // Refused, not made room for by evicting the session idle longest: eviction would let whoever opens sessions
        // fastest (a client in a loop) end every other client's session, while a refusal keeps the working clients
        // working and leaves the leaked sessions to expire. Retry-After: when the idlest session will have expired.
        problem(`refused a new session: ${sessions.size} are open, the limit`);
        res.setHeader('retry-after', String(Math.ceil(untilFirstExpiry() / 1000)));
        return rpcError(res, 503, SERVER_ERROR, `mcpwire serve has ${sessions.size} sessions open, its limit: end sessions you no longer use (HTTP DELETE with their Mcp-Session-Id) or retry after the idle ones expire`, idOf(messages, 'initialize'));
      }
      open = newSession(agent);
      res.setHeader('mcp-session-id', open.id);
    } else {
      const modern = checkModernPost(req, messages);
      if (modern.ok === false) return rpcError(res, 400, modern.code, modern.why, modern.id);
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
    /** Why the stream went, when this side closed it. */
    let lost: string | undefined;
    const finish = () => {
      finished = true;
      exchanges.delete(exchange);
      for (const id of ids) open.streams.delete(id);
      open.lastActive = Date.now();
      if (stateless) open.session.close(lost ?? 'the request ended');
    };
    if (sse) res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...(stateless ? {} : { 'mcp-session-id': open.id }) });
    const stream = sse
      ? new SseStream(res, maxUnreadBytes, (why) => {
          lost = `the stream was closed: ${why}`;
          problem(`closed the stream of request ${ids.map((id) => JSON.stringify(id)).join(', ')}: ${why}`);
        })
      : undefined;
    const exchange: Exchange = {
      write(message) {
        if (finished) return;
        const answered = !('method' in message) && 'id' in message && message.id !== null && waiting.delete(message.id);
        if (stream) stream.send(message);
        else if (answered) answers.push(message);
        if (answered && waiting.size === 0 && !finished) {
          finish();
          if (stream) stream.end();
          else {
            const text = JSON.stringify(batch ? answers : answers[0]);
            res.writeHead(200, { 'content-type': 'application/json', ...(stateless ? {} : { 'mcp-session-id': open.id }) }).end(text);
          }
        }
      },
      abandon(code, why) {
        // The connection goes after this answer: close() is closing every socket.
        if (!res.headersSent) res.shouldKeepAlive = false;
        for (const id of [...waiting]) exchange.write({ jsonrpc: '2.0', id, error: { code, message: why } });
      },
    };
    exchanges.add(exchange);
    for (const id of ids) open.streams.set(id, exchange);
    // The client went away before its answers (or stopped reading them): its requests are cancelled, and so their upstream calls.
    res.on('close', () => {
      if (finished) return;
      finish();
      const reason = lost ?? 'the client closed its connection';
      if (!stateless) for (const id of waiting) open.session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
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
    open.standalone?.send(message);
  }

  function openStream(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined): void {
    const open = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!(header(req, 'accept') ?? '').includes('text/event-stream')) return void res.writeHead(405, { allow: 'POST, DELETE' }).end();
    if (!open) return plain(res, sessionId === undefined ? 400 : 404, sessionId === undefined ? 'a GET stream belongs to a session: send Mcp-Session-Id' : 'no such session');
    // Transports: "The server MUST either return Content-Type: text/event-stream ... or else return HTTP 405"; one stream per session here.
    if (open.standalone?.open) return plain(res, 409, 'this session has a stream open already');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': open.id });
    res.flushHeaders();
    const stream = new SseStream(res, maxUnreadBytes, (why) => problem(`closed the GET stream of a session: ${why}`));
    open.standalone = stream;
    res.on('close', () => {
      if (open.standalone === stream) open.standalone = undefined;
      open.lastActive = Date.now();
    });
  }

  function end(open: HttpSession, why: string): void {
    sessions.delete(open.id);
    open.session.close(why);
    open.standalone?.end();
  }

  /** Whether a session may expire: no call in flight, no stream open. */
  const idle = (open: HttpSession) => open.session.peer.busy === 0 && !open.standalone?.open;

  function sweepIdle(): void {
    const now = Date.now();
    for (const open of sessions.values()) if (idle(open) && now - open.lastActive > idleMs) end(open, 'the session expired');
  }

  /** Milliseconds until the first idle session expires (the whole idle time when none is idle now). */
  function untilFirstExpiry(): number {
    const oldest = Math.min(...[...sessions.values()].filter(idle).map((open) => open.lastActive));
    return Number.isFinite(oldest) ? Math.max(1_000, oldest + idleMs - Date.now()) : idleMs;
  }

  const sweep = setInterval(sweepIdle, Math.max(50, Math.min(idleMs / 2, 30_000)));
  sweep.unref();

  /** A request that came while close() runs. */
  function stopping(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    res.shouldKeepAlive = false;
    rpcError(res, 503, SERVER_ERROR, 'mcpwire serve is shutting down');
  }

  /**
   * Stops serving: a new request is answered 503; every request still waiting is
   * answered (-32000), every stream ended, every session closed (their
   * upstream calls cancelled); then, once those answers are out (or after
   * CLOSE_GRACE_MS, for a client that does not read), every socket is
   * closed. Nothing of this server keeps the process alive afterwards.
   */
  async function shutdown(): Promise<void> {
    clearInterval(sweep);
    // server.close() comes last: it destroys at once every connection whose response has ended, bytes not yet sent
    // included; until then a new request is answered 503 (route()).
    for (const exchange of [...exchanges]) exchange.abandon(SERVER_ERROR, 'mcpwire serve is shutting down');
    for (const open of [...sessions.values()]) end(open, 'mcpwire serve is stopping');
    // Answered ones are on their way; one still being read (its body) is not waited for: its socket just closes.
    const outgoing = [...responses].filter((res) => res.headersSent && !res.writableFinished);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(outgoing.map((res) => new Promise<void>((resolve) => (res.writableFinished || res.destroyed ? resolve() : res.once('finish', resolve).once('close', resolve))))),
      new Promise<void>((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS))),
    ]);
    clearTimeout(grace);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = isWildcardAddress(options.host) ? (options.host.includes(':') ? '::1' : '127.0.0.1') : options.host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/mcp`,
    sessionCount: () => sessions.size,
    close: () => (closing ??= shutdown()),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`mcpwire serve: ${text}\n`);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, id: JsonRpcId | null = null): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
}

/** The id of the request of this method in a POST's messages (null without one). */
function idOf(messages: unknown[], method: string): JsonRpcId | null {
  const found = messages.find((m) => isObject(m) && m.method === method && isId(m.id));
  return found ? (found as { id: JsonRpcId }).id : null;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compared as digests, in constant time: the comparison says nothing of how much of a guess was right. */
function bearerMatches(authorization: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}
