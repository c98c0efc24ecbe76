// The Streamable HTTP ServerSide (MCP 2025-11-25 "Transports"): one MCP
// endpoint on 127.0.0.1. Every client POST is one c2s message. A request
// is answered with an SSE stream that carries the s2c lines for it (server
// requests and notifications first, then the response, which ends the
// stream); notifications and responses the client POSTs get 202; s2c
// messages when no request is open go on the client's GET stream, queued
// until it opens. The session id is issued with the initialize answer and
// checked, with MCP-Protocol-Version, on every later request. Events carry
// no id: this server does not offer resumption, so a cut stream is final.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import type { Transport } from '../transport/transport.js';
import { accepts, describeMessage, HttpServerSide, rawBytesSkipReason, silentProbeSkipReason, sseEvent } from './http-server-side.js';
import { show } from './json-diff.js';
import type { ServerSideFactory } from './server-side.js';
import { isId, isObject } from '../jsonrpc/message.js';
import { PROTOCOL_VERSION_META_KEY } from '../client/request-meta.js';
import type { RecordedId } from './transcript.js';

export const streamableHttpServerSides: ServerSideFactory = {
  transport: 'streamable-http',
  skipReason: (transcript) => rawBytesSkipReason(transcript) ?? silentProbeSkipReason(transcript),
  create: (caseName) => new StreamableHttpServerSide(caseName),
};

const MCP_PATH = '/mcp';

/** The SSE stream answering one client request (a POST still open). */
interface RequestStream {
  id: RecordedId;
  /** params._meta.progressToken of the request: notifications/progress for it belong on this stream. */
  progressToken: unknown;
  res: ServerResponse;
}

class StreamableHttpServerSide extends HttpServerSide {
  private sessionId: string | undefined;
  /** Set by the client's DELETE: the session is over and later requests get 404. */
  private sessionEnded = false;
  private initializeId: RecordedId | undefined;
  /** The protocolVersion of the initialize result this server sent. */
  private negotiatedVersion: string | undefined;
  /** The client has sent notifications/initialized: from then on it knows the version and MUST send it. */
  private initialized = false;
  /** The initialize request's stream until its first event: its headers (and session id) are not sent yet. */
  private readonly unopened = new Set<ServerResponse>();
  /** Open request streams, oldest first. */
  private readonly open: RequestStream[] = [];
  private getStream: ServerResponse | undefined;
  /** s2c messages for the GET stream, waiting for the client to open it. */
  private readonly queued: unknown[] = [];

  get url(): string {
    return `${this.origin}${this.base}${MCP_PATH}`;
  }

  createTransport(): Transport {
    return new StreamableHttpTransport({ url: this.url, server: `replay:${this.caseName}` });
  }

  /**
   * Where an s2c message goes:
   * 1. a response to an open request: on that request's stream, which then
   *    ends ("After the JSON-RPC response has been sent, the server SHOULD
   *    terminate the SSE stream");
   * 2. any other response (unknown id, null id): on the newest open request
   *    stream; with none open it is dropped, because the server "MUST NOT send
   *    a JSON-RPC response" on the GET stream (and offers no resumption);
   * 3. a request or notification: notifications/progress on the stream of the
   *    request that issued its token; anything else on the newest open request
   *    stream (messages sent while a request is open "SHOULD relate to the
   *    originating client request"); with none open, on the GET stream, or
   *    queued until the client opens one.
   */
  sendMessage(msg: unknown): void {
    if (this.closedByServer || this.disposed) return;
    const items = Array.isArray(msg) ? msg : [msg];
    const responseIds = items.filter(isResponse).map((item) => item.id);
    this.learnVersion(items);

    const answered = this.open.find((stream) => responseIds.includes(stream.id));
    if (answered) {
      this.write(answered.res, msg, `s2c ${describeMessage(msg)} on the stream of request ${show(answered.id)}, which then ends`);
      this.closeStream(answered);
      return;
    }
    const newest = this.open.at(-1);
    if (responseIds.length) {
      if (newest) this.write(newest.res, msg, `s2c ${describeMessage(msg)} (no open request has that id) on the stream of request ${show(newest.id)}`);
      else this.note(`s2c ${describeMessage(msg)} dropped: no request stream is open, and a response may not go on the GET stream`);
      return;
    }
    const token = progressTokenOf(items);
    const stream = (token !== undefined && this.open.find((s) => s.progressToken === token)) || newest;
    if (stream) this.write(stream.res, msg, `s2c ${describeMessage(msg)} on the stream of request ${show(stream.id)}`);
    else if (this.getStream) this.write(this.getStream, msg, `s2c ${describeMessage(msg)} on the GET stream`);
    else {
      this.queued.push(msg);
      this.note(`s2c ${describeMessage(msg)} queued for the GET stream`);
    }
  }

  // --- HTTP ----------------------------------------------------------------------

  protected handle(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (path !== MCP_PATH) {
      this.note(`${req.method} ${path}: 404`);
      this.answer(res, 404);
      return;
    }
    switch (req.method) {
      case 'POST':
        void this.onPost(req, res);
        return;
      case 'GET':
        return this.onGet(req, res);
      case 'DELETE':
        return this.onDelete(req, res);
      default:
        this.note(`${req.method}: 405`);
        this.answer(res, 405, { allow: 'GET, POST, DELETE' });
    }
  }

  private async onPost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // "The client MUST include an Accept header, listing both application/json and text/event-stream."
    const accept = req.headers.accept;
    if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) {
      return this.refuse(res, 406, `the client POSTed with Accept ${show(accept ?? null)}; Streamable HTTP requires both application/json and text/event-stream`);
    }
    const type = req.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('application/json')) return this.refuse(res, 415, `the client POSTed a body with Content-Type ${show(type)}, not application/json`);
    const body = await this.readBody(req);
    if (this.closedByServer || this.disposed) return;
    if (!body.ok) return this.refuse(res, 400, body.detail);
    const value = body.value;
    const method = isObject(value) && typeof value.method === 'string' ? value.method : undefined;
    const isRequest = method !== undefined && isObject(value) && 'id' in value;
    const what = method ?? (isObject(value) && 'id' in value ? `response to ${show(value.id)}` : show(value));

    // 2026-07-28: a modern message names its version in _meta, and its MCP-Protocol-Version header must say the same.
    const metaVersion = isObject(value) && isObject(value.params) && isObject(value.params._meta) ? value.params._meta[PROTOCOL_VERSION_META_KEY] : undefined;
    if (typeof metaVersion === 'string' && req.headers['mcp-protocol-version'] !== metaVersion) {
      return this.refuse(res, 400, `POST ${what}: MCP-Protocol-Version is ${show(req.headers['mcp-protocol-version'] ?? null)}, but the message's _meta names ${show(metaVersion)}`);
    }

    if (method === 'initialize' && isRequest) {
      // "A server … MAY assign a session ID at initialization time, by including it in an MCP-Session-Id header
      // on the HTTP response containing the InitializeResult."
      this.sessionId = randomUUID();
      this.sessionEnded = false;
      this.initializeId = isId(value.id) ? value.id : undefined;
    } else {
      if (method === 'notifications/initialized') this.initialized = true;
      if (!this.checkSession(req, res, `POST ${what}`)) return;
    }

    if (isRequest) {
      const stream: RequestStream = { id: isId(value.id) ? value.id : String(value.id), progressToken: progressTokenOfRequest(value), res };
      // initialize's stream opens with its first event: the session id goes only on an InitializeResult's response.
      if (method === 'initialize') this.unopened.add(res);
      else this.openSse(res);
      this.open.push(stream);
      res.on('close', () => this.forget(stream));
      res.on('error', () => {}); // 'close' reports it
      this.note(`POST ${what} → 200 SSE`);
    } else {
      // "If the input is a JSON-RPC response or notification: … the server MUST return HTTP status code 202 Accepted with no body."
      this.note(`POST ${what} → 202`);
      this.answer(res, 202);
    }
    this.deliver(value);
  }

  private onGet(req: IncomingMessage, res: ServerResponse): void {
    // "The client MUST include an Accept header, listing text/event-stream as a supported content type."
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      return this.refuse(res, 406, `the client opened the GET stream with Accept ${show(req.headers.accept ?? null)}, which does not list text/event-stream`);
    }
    if (!this.checkSession(req, res, 'GET')) return;
    if (this.getStream) {
      this.note('GET: a new GET stream replaces the open one');
      this.getStream.end();
    }
    this.openSse(res);
    this.getStream = res;
    res.on('close', () => {
      if (this.getStream === res) this.getStream = undefined;
    });
    res.on('error', () => {});
    const lastEventId = req.headers['last-event-id'];
    this.note(`GET → 200 SSE${lastEventId ? ` (Last-Event-ID ${show(lastEventId)}, which this server never issued)` : ''}`);
    for (const msg of this.queued.splice(0)) this.write(res, msg, `queued s2c ${describeMessage(msg)} on the GET stream`);
  }

  private onDelete(req: IncomingMessage, res: ServerResponse): void {
    if (!this.checkSession(req, res, 'DELETE')) return;
    // "Clients that no longer need a particular session … SHOULD send an HTTP DELETE"; afterwards the session is gone.
    this.sessionEnded = true;
    this.note('DELETE → 200, session ended');
    this.answer(res, 200);
    this.getStream?.end();
    for (const stream of [...this.open]) this.closeStream(stream);
    this.markGone('the client ended the session (HTTP DELETE)');
  }

  /**
   * Session management: once the server has issued an MCP-Session-Id, the
   * client "MUST include it … on all of their subsequent HTTP requests"; after
   * initialization it MUST also send the negotiated MCP-Protocol-Version.
   * A request that breaks either fails the case.
   */
  private checkSession(req: IncomingMessage, res: ServerResponse, what: string): boolean {
    if (this.sessionId === undefined) return true; // no session issued yet: the runner judges the message itself
    const sent = req.headers['mcp-session-id'];
    if (sent === undefined) {
      this.refuse(res, 400, `${what}: the client sent no Mcp-Session-Id, but the server issued one with the initialize answer`);
      return false;
    }
    if (sent !== this.sessionId || this.sessionEnded) {
      this.refuse(res, 404, `${what}: the client sent Mcp-Session-Id ${show(sent)}, ${this.sessionEnded ? 'a session it had already ended with DELETE' : `not the issued ${show(this.sessionId)}`}`);
      return false;
    }
    if (this.initialized && this.negotiatedVersion !== undefined) {
      const version = req.headers['mcp-protocol-version'];
      if (version !== this.negotiatedVersion) {
        this.refuse(res, 400, `${what}: MCP-Protocol-Version is ${show(version ?? null)}; after initialization the client must send the negotiated ${show(this.negotiatedVersion)}`);
        return false;
      }
    }
    return true;
  }

  // --- streams -------------------------------------------------------------------

  private write(res: ServerResponse, msg: unknown, what: string): void {
    if (res.writableEnded || res.destroyed) {
      this.note(`${what}: dropped, the client had already closed that stream`);
      return;
    }
    if (this.unopened.delete(res)) {
      // "MAY assign a session ID … on the HTTP response containing the InitializeResult": a refused initialize gets none.
      const refused = (Array.isArray(msg) ? msg : [msg]).some((item) => isResponse(item) && item.id === this.initializeId && 'error' in item);
      if (refused) {
        this.sessionId = undefined;
        this.note('initialize refused: no session issued');
      }
      this.openSse(res, this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId });
    }
    this.note(what);
    res.write(sseEvent(msg));
  }

  private closeStream(stream: RequestStream): void {
    if (this.unopened.delete(stream.res)) this.openSse(stream.res);
    this.forget(stream);
    stream.res.end();
  }

  private forget(stream: RequestStream): void {
    const index = this.open.indexOf(stream);
    if (index !== -1) this.open.splice(index, 1);
    this.unopened.delete(stream.res);
  }

  /** The version this server agreed to: the protocolVersion of its answer to initialize. */
  private learnVersion(items: unknown[]): void {
    for (const item of items) {
      if (isResponse(item) && item.id === this.initializeId && isObject(item.result) && typeof item.result.protocolVersion === 'string') {
        this.negotiatedVersion = item.result.protocolVersion;
      }
    }
  }
}

function isResponse(value: unknown): value is Record<string, unknown> & { id: unknown } {
  return isObject(value) && !('method' in value) && 'id' in value;
}

function progressTokenOfRequest(request: unknown): unknown {
  if (!isObject(request) || !isObject(request.params) || !isObject(request.params._meta)) return undefined;
  return request.params._meta.progressToken;
}

function progressTokenOf(items: unknown[]): unknown {
  for (const item of items) {
    if (isObject(item) && item.method === 'notifications/progress' && isObject(item.params) && isId(item.params.progressToken)) return item.params.progressToken;
  }
  return undefined;
}
