// The recorder as an HTTP MCP server (X2, proxy mode): it listens on a local
// address, and every request a client makes there goes to the real server's
// origin with the same method, path, headers and body bytes; the answer comes
// back the same way, streamed chunk by chunk (an SSE stream stays a stream).
// A copy of each POST body and each answer is read for the record: JSON
// bodies and the data of SSE `message` events. Streamable HTTP and legacy
// HTTP+SSE both work this way. The session ends when the client DELETEs it
// (Streamable HTTP) or closes its event stream (legacy SSE).
//
// It is not a forward proxy (#18 item 21): every request goes to the one
// configured upstream, whatever its request-target says (an absolute-form or
// `//host` target is refused, never followed), so the client's Authorization
// and Cookie reach that origin alone. A browser page must not be able to use
// it either (DNS rebinding): the Host must name the proxy itself (a loopback
// name or the listen address, or one allowed with --allow-host) and an Origin,
// when sent, must be of such a host or allowed with --allow-origin. Bodies are
// bounded by the client's own message limit and headers must arrive in time.

import { request as httpRequest, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../jsonrpc/line-framer.js';
import { preloadSseParser, readSse } from '../transport/sse-stream.js';
import { isWildcardAddress } from '../util/addresses.js';
import { createRequestGuard, GUARD_HEADERS_TIMEOUT_MS, GUARD_REQUEST_TIMEOUT_MS, readBoundedBody } from '../util/http-guard.js';
import { isSecretHeader } from '../util/secret-names.js';
import type { OpInference } from './op-inference.js';

/** Headers about one hop of the connection, not the message (RFC 9110 §7.6.1): each side sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/** An SSE event the record reads may be this large; the stream itself is forwarded whatever its size. */
const MAX_RECORDED_EVENT_BYTES = 64 * 1024 * 1024;
/** How long a client has for its request's headers and for the whole request (util/http-guard.ts says why). */
export const PROXY_HEADERS_TIMEOUT_MS = GUARD_HEADERS_TIMEOUT_MS;
export const PROXY_REQUEST_TIMEOUT_MS = GUARD_REQUEST_TIMEOUT_MS;


export interface HttpProxyOptions {
  /** The real server's URL: requests go to its origin, with the client's path. */
  upstream: URL;
  host: string;
  /** 0: any free port. */
  port: number;
  inference: OpInference;
  /** The server speaks legacy HTTP+SSE: the session lasts as long as the client's GET event stream. */
  legacy: boolean;
  /** Host names a request's Host may carry besides loopback names and the listen address (--allow-host). */
  allowHosts?: readonly string[];
  /** Origins a browser's request may come from besides those of accepted hosts (--allow-origin). */
  allowOrigins?: readonly string[];
  /** The largest request body accepted, bytes. Default: the client's message limit (32 MiB, W2). */
  maxBodyBytes?: number;
  /** A value to keep out of the record (a credential the client sent). */
  addSecret(value: string): void;
  onProblem(text: string): void;
}

export interface HttpProxy {
  /** Where clients connect: the proxy's origin with the real server's path. */
  url: string;
  /** Settles when the client has ended its session. */
  sessionEnded: Promise<void>;
  close(): Promise<void>;
}

export async function startHttpProxy(options: HttpProxyOptions): Promise<HttpProxy> {
  const { upstream, inference } = options;
  // Loaded before the first answer: otherwise the first SSE answer is recorded only after the module load, and a
  // client message that follows it (notifications/initialized) lands before it in the transcript.
  await preloadSseParser();
  let endSession!: () => void;
  const sessionEnded = new Promise<void>((resolve) => (endSession = resolve));

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  // The same checks `mcpwire serve` makes (one home: util/http-guard.ts).
  const guard = createRequestGuard({ host: options.host, maxBodyBytes, hints: { host: '--allow-host', origin: '--allow-origin' }, ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}), ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}) });

  const server = createServer({ headersTimeout: PROXY_HEADERS_TIMEOUT_MS, requestTimeout: PROXY_REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    const refusal = guard.refuse(req);
    if (refusal) {
      options.onProblem(`refused ${req.method} request: ${refusal.why}`);
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`mcpwire record: ${refusal.why}\n`);
      req.resume();
      return;
    }
    // One turn later: an SSE answer's copy is parsed in promise jobs after its bytes reach the client, so a client that
    // answers fast (notifications/initialized right after the initialize answer) must not be recorded before it.
    void readBoundedBody(req, maxBodyBytes).then((body) => {
      if (body !== undefined) {
        setImmediate(() => forward(req, res, body));
        return;
      }
      if (!res.headersSent) {
        options.onProblem(`refused a ${req.method} body over ${maxBodyBytes} bytes`);
        res.writeHead(413, { connection: 'close' }).end();
      }
      req.destroy();
    });
  });

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    noteSecrets(req.headers, options.addSecret);
    if (req.method === 'POST' && body.length > 0) {
      try {
        inference.clientMessage(JSON.parse(body.toString('utf8')));
      } catch {
        options.onProblem(`a POST body that is not JSON went through unrecorded (${body.length} bytes)`);
      }
    }
    // The configured origin and the client's path: the destination comes from the configuration alone.
    const target = new URL(`${upstream.origin}${req.url ?? '/'}`);
    if (target.origin !== upstream.origin) {
      res.writeHead(400, { connection: 'close' }).end();
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    // The client's Host names this proxy (checked above); the upstream is sent its own authority, as a direct client would send it.
    const out = send(target, { method: req.method, headers: { ...withoutHopByHop(req.headers), host: upstream.host } }, (answer) => relayAnswer(req, res, answer));
    out.on('error', (error) => {
      options.onProblem(`${req.method} ${target.pathname}: ${error.message}`);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    // The client went away first (it closed an event stream): so does the request to the server.
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    out.end(body);
  }

  function relayAnswer(req: IncomingMessage, res: ServerResponse, answer: IncomingMessage): void {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.headers));
    const type = String(answer.headers['content-type'] ?? '');
    const copy = type.includes('text/event-stream') ? sseCopy(inference, options.onProblem) : type.includes('json') ? jsonCopy(inference) : undefined;
    answer.on('data', (chunk: Buffer) => {
      res.write(chunk);
      copy?.push(chunk);
    });
    answer.on('end', () => {
      res.end();
      copy?.end();
      if (req.method === 'DELETE' && (answer.statusCode ?? 500) < 300) finish();
      if (options.legacy && req.method === 'GET' && type.includes('text/event-stream')) finish();
    });
    answer.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) {
        answer.destroy();
        copy?.end();
        if (options.legacy && req.method === 'GET' && type.includes('text/event-stream')) finish();
      }
    });
  }

  let finished = false;
  function finish(): void {
    if (finished) return;
    finished = true;
    inference.clientClosed();
    endSession();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // A wildcard bind is reached on loopback from here; the Host a client sends must be a name it accepts.
  const shown = isWildcardAddress(options.host) ? (options.host.includes(':') ? '::1' : '127.0.0.1') : options.host;
  const host = shown.includes(':') ? `[${shown}]` : shown;
  return {
    url: `http://${host}:${port}${upstream.pathname}${upstream.search}`,
    sessionEnded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function withoutHopByHop(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

/**
 * The client's credentials, kept out of the record wherever the server echoes them (T4): the values of headers the
 * config layer calls secret (one rule, #18 items 18 and 22). The session id is not one: the transcript needs it nowhere,
 * and replacing it would hide nothing.
 */
function noteSecrets(headers: IncomingHttpHeaders, addSecret: (value: string) => void): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name) || value === undefined || name === 'mcp-session-id') continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      addSecret(one);
      // "Bearer abc": the server may echo the credential without its scheme.
      const credential = /^\S+\s+(.+)$/.exec(one)?.[1];
      if (credential) addSecret(credential);
    }
  }
}

interface Copy {
  push(chunk: Buffer): void;
  end(): void;
}

/** A JSON answer: one message or a batch, read once the body is complete. */
function jsonCopy(inference: OpInference): Copy {
  const chunks: Buffer[] = [];
  return {
    push: (chunk) => chunks.push(chunk),
    end: () => {
      const text = Buffer.concat(chunks.splice(0)).toString('utf8');
      if (text.trim() === '') return;
      try {
        inference.serverMessage(JSON.parse(text));
      } catch {
        // Not JSON after all (an error page): nothing a transcript holds.
      }
    },
  };
}

/** An SSE answer: the data of each `message` event (the `endpoint` event of legacy SSE is not a message). */
function sseCopy(inference: OpInference, onProblem: (text: string) => void): Copy {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  let open = true;
  void readSse(stream, MAX_RECORDED_EVENT_BYTES, {
    onEvent: (event) => {
      if (event.event !== undefined && event.event !== 'message') return;
      if (event.data.trim() === '') return;
      try {
        inference.serverMessage(JSON.parse(event.data));
      } catch {
        onProblem(`an SSE event whose data is not JSON went through unrecorded: ${event.data.slice(0, 80)}`);
      }
    },
  }).catch(() => {});
  return {
    push: (chunk) => {
      if (open) controller.enqueue(new Uint8Array(chunk));
    },
    end: () => {
      if (!open) return;
      open = false;
      controller.close();
    },
  };
}
