// The recorder as an HTTP MCP server (X2, proxy mode): it listens on a local
// address, and every request a client makes there goes to the real server's
// origin with the same method, path, headers and body bytes; the answer comes
// back the same way, streamed chunk by chunk (an SSE stream stays a stream).
// A copy of each POST body and each answer is read for the record: JSON
// bodies and the data of SSE `message` events. Streamable HTTP and legacy
// HTTP+SSE both work this way. The session ends when the client DELETEs it
// (Streamable HTTP) or closes its event stream (legacy SSE).

import { request as httpRequest, createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { preloadSseParser, readSse } from '../transport/sse-stream.js';
import type { OpInference } from './op-inference.js';

/** Headers about one hop of the connection, not the message (RFC 9110 §7.6.1): each side sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/** Header names whose values are credentials: kept out of the record wherever the server echoes them (T4). */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password|session/i;
/** An SSE event the record reads may be this large; the stream itself is forwarded whatever its size. */
const MAX_RECORDED_EVENT_BYTES = 64 * 1024 * 1024;

export interface HttpProxyOptions {
  /** The real server's URL: requests go to its origin, with the client's path. */
  upstream: URL;
  host: string;
  /** 0: any free port. */
  port: number;
  inference: OpInference;
  /** The server speaks legacy HTTP+SSE: the session lasts as long as the client's GET event stream. */
  legacy: boolean;
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

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // One turn later: an SSE answer's copy is parsed in promise jobs after its bytes reach the client, so a client that
    // answers fast (notifications/initialized right after the initialize answer) must not be recorded before it.
    req.on('end', () => setImmediate(() => forward(req, res, Buffer.concat(chunks))));
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
    const target = new URL(req.url ?? '/', upstream);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const out = send(target, { method: req.method, headers: { ...withoutHopByHop(req.headers), host: target.host } }, (answer) => relayAnswer(req, res, answer));
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
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
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

function noteSecrets(headers: IncomingHttpHeaders, addSecret: (value: string) => void): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name) || value === undefined || name === 'mcp-session-id') continue;
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
