// The legacy HTTP+SSE ServerSide (MCP 2024-11-05 "HTTP with SSE"; T2): the
// client's GET opens the stream, whose first event is `endpoint` with the
// URI to POST to; every client POST there is one c2s message, answered
// 202; every s2c message is one `message` event on the stream, queued
// until the stream is open.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SseTransport } from '../transport/sse.js';
import type { Transport } from '../transport/transport.js';
import { accepts, describeMessage, HttpServerSide, rawBytesSkipReason, modernEraSkipReason, sseEvent } from './http-server-side.js';
import { show } from './json-diff.js';
import type { ServerSideFactory } from './server-side.js';

export const sseServerSides: ServerSideFactory = {
  transport: 'sse',
  skipReason: (transcript) => rawBytesSkipReason(transcript) ?? modernEraSkipReason(transcript),
  create: (caseName) => new SseServerSide(caseName),
};

const SSE_PATH = '/sse';
const MESSAGES_PATH = '/messages';

class SseServerSide extends HttpServerSide {
  private stream: ServerResponse | undefined;
  /** The session of the current stream; POSTs name it in the endpoint's query. */
  private sessionId: string | undefined;
  private readonly queued: unknown[] = [];

  get url(): string {
    return `${this.origin}${this.base}${SSE_PATH}`;
  }

  createTransport(): Transport {
    return new SseTransport({ url: this.url, server: `replay:${this.caseName}` });
  }

  sendMessage(msg: unknown): void {
    if (this.closedByServer || this.disposed) return;
    if (this.stream) this.write(this.stream, msg);
    else {
      this.queued.push(msg);
      this.note(`s2c ${describeMessage(msg)} queued until the SSE stream opens`);
    }
  }

  protected handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): void {
    if (path === SSE_PATH && req.method === 'GET') return this.onGet(req, res);
    if (path === MESSAGES_PATH && req.method === 'POST') {
      void this.onPost(req, res, query);
      return;
    }
    this.note(`${req.method} ${path}: ${path === SSE_PATH || path === MESSAGES_PATH ? 405 : 404}`);
    if (path === SSE_PATH || path === MESSAGES_PATH) this.answer(res, 405, { allow: path === SSE_PATH ? 'GET' : 'POST' });
    else this.answer(res, 404);
  }

  /** MCP 2024-11-05: "When a client connects, the server MUST send an endpoint event containing a URI for the client to use for sending messages." */
  private onGet(req: IncomingMessage, res: ServerResponse): void {
    // T2: "GET with Accept: text/event-stream".
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      return this.refuse(res, 406, `the client opened the SSE stream with Accept ${show(req.headers.accept ?? null)}, which does not list text/event-stream`);
    }
    if (this.stream) {
      // Only a reconnecting client opens a second stream; the transcript's session is the first one.
      this.note('GET: a second SSE stream replaces the open one (a new session)');
      this.stream.end();
    }
    this.sessionId = randomUUID();
    this.openSse(res);
    this.stream = res;
    res.on('close', () => {
      if (this.stream !== res) return;
      this.stream = undefined;
      if (!this.closedByServer && !this.disposed) this.markGone('the client closed its SSE stream');
    });
    res.on('error', () => {}); // 'close' reports it
    const endpoint = `${this.base}${MESSAGES_PATH}?sessionId=${this.sessionId}`;
    this.note(`GET → 200 SSE, endpoint ${endpoint}`);
    res.write(`event: endpoint\ndata: ${endpoint}\n\n`);
    for (const msg of this.queued.splice(0)) this.write(res, msg);
  }

  private async onPost(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const session = query.get('sessionId');
    if (this.sessionId === undefined || session !== this.sessionId) {
      return this.refuse(res, 404, `the client POSTed to session ${show(session)}, not to the endpoint of its SSE stream (session ${show(this.sessionId ?? null)})`);
    }
    const type = req.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('application/json')) return this.refuse(res, 415, `the client POSTed a body with Content-Type ${show(type)}, not application/json`);
    const body = await this.readBody(req);
    if (this.closedByServer || this.disposed) return;
    if (!body.ok) return this.refuse(res, 400, body.detail);
    // The answer, if any, comes down the stream; the POST only says the message was taken.
    this.note(`POST ${describeMessage(body.value)} → 202`);
    this.answer(res, 202);
    this.deliver(body.value);
  }

  private write(res: ServerResponse, msg: unknown): void {
    if (res.writableEnded || res.destroyed) {
      this.note(`s2c ${describeMessage(msg)} dropped: the client had already closed the SSE stream`);
      return;
    }
    this.note(`s2c ${describeMessage(msg)} as a message event`);
    res.write(sseEvent(msg, 'message'));
  }
}
