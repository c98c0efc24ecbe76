// The SSE contenders: each reads one response body to its end and returns
// how many JSON-RPC messages it delivered, doing per event what its own
// Streamable HTTP client does. mcpwire is read through the transport's own
// request paths (#20 item 2): on Node by default the node:http path
// (node-http.ts's body object over a real http.IncomingMessage), and the
// fetch path (http-client.ts's wrapper over a web ReadableStream), which
// other runtimes and a host that passes its own fetch take.

import http from 'node:http';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isJSONRPCResultResponse, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EventSourceParserStream as ParserStream } from 'eventsource-parser/stream';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../src/jsonrpc/line-framer.js';
import { fetchClient, type HttpBody, type HttpClient } from '../src/transport/http-client.js';
import { nodeHttpClient } from '../src/transport/node-http.js';
import { readSse } from '../src/transport/sse-stream.js';

/**
 * The SDK ships its own eventsource-parser (3.x, nested under the SDK), not
 * the 4.x mcpwire uses: load the SDK's copy, by the ESM entry the SDK's
 * `import 'eventsource-parser/stream'` resolves to, so its pipeline is the
 * one it really runs.
 */
async function loadSdkParserStream(): Promise<typeof ParserStream> {
  const sdkRequire = createRequire(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/client/streamableHttp.js'));
  const packageJson = sdkRequire.resolve('eventsource-parser/package.json');
  const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as { exports: Record<string, { import: string }> };
  const entry = path.join(path.dirname(packageJson), manifest.exports['./stream']!.import);
  return ((await import(pathToFileURL(entry).href)) as { EventSourceParserStream: typeof ParserStream }).EventSourceParserStream;
}

const SdkParserStream = await loadSdkParserStream();

/** A response body that hands out the given reads one by one, as fetch's body does; the same for every web-stream contender. */
export function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

const URL_OF_BENCH = new URL('http://127.0.0.1:9/mcp');
const SSE_HEADERS = { 'content-type': 'text/event-stream' };

/**
 * A request path of the transport, answering every request with an SSE
 * response whose body brings the given reads. Both paths are the
 * transport's own HttpClient (the one StreamableHttpTransport makes for
 * `httpClient: 'node'` or `'fetch'`); only what lies under them is
 * stood in for: the socket and HTTP parser under node:http, the network
 * under fetch.
 */
export interface SsePath {
  /** One GET, answered; its body is what the transport hands readSse. */
  open(chunks: readonly Buffer[]): Promise<HttpBody>;
  close(): void;
}

/**
 * The node:http path (node-http.ts), the default on Node. http.request is
 * replaced for the one synchronous call that nodeHttpClient() makes inside
 * request(), by a request that answers with a real http.IncomingMessage.
 * The reads reach that message as Node's HTTP parser hands them over
 * (parserOnBody: push() per body chunk, outside _read; push() returning
 * false stops the socket until _read asks again, which comes back in a later
 * turn of the event loop, as a socket read does), and the end as the
 * parser marks it (complete, then push(null)). node-http.ts's body object
 * reads that message exactly as it does a real one.
 */
export function nodeSsePath(): SsePath {
  const client: HttpClient = nodeHttpClient();
  return {
    open(chunks) {
      const real = http.request;
      (http as { request: unknown }).request = () => answeringRequest(chunks);
      let answer;
      try {
        answer = client.request(URL_OF_BENCH, { method: 'GET', headers: { accept: 'text/event-stream' }, signal: new AbortController().signal });
      } finally {
        http.request = real;
      }
      return answer.then(bodyOfAnswer);
    },
    close: () => client.close(),
  };
}

/** What node-http.ts uses of a ClientRequest: its events, end() and destroy(); on end() it answers. */
function answeringRequest(chunks: readonly Buffer[]): EventEmitter {
  const request = Object.assign(new EventEmitter(), {
    reusedSocket: false,
    end() {
      const response = incomingMessage(chunks);
      process.nextTick(() => request.emit('response', response));
    },
    destroy() {},
  });
  return request;
}

function incomingMessage(chunks: readonly Buffer[]): http.IncomingMessage {
  const response = new http.IncomingMessage(new Socket());
  response.statusCode = 200;
  response.headers = { ...SSE_HEADERS };
  let i = 0;
  let pumping = false;
  // The parser's side: push until the stream says stop (it is paused, and its buffer is full), or the body ends.
  const pump = () => {
    pumping = false;
    while (i < chunks.length) if (!response.push(chunks[i++])) return;
    if (i === chunks.length) {
      i++;
      response.complete = true;
      response.push(null);
    }
  };
  // The socket's side: reading again comes in a later turn of the loop.
  response._read = () => {
    if (pumping || i > chunks.length) return;
    pumping = true;
    setImmediate(pump);
  };
  return response;
}

/**
 * The fetch path (http-client.ts's fetchClient), taken on Bun and Deno,
 * for a host that passes its own fetch, and with `httpClient: 'fetch'`:
 * the fetch answers with a Response over a web ReadableStream of the reads.
 */
export function fetchSsePath(): SsePath {
  let pending: readonly Buffer[] = [];
  const fakeFetch = (async () => new Response(bodyOf(pending), { status: 200, headers: SSE_HEADERS })) as unknown as typeof fetch;
  const client = fetchClient(fakeFetch);
  return {
    open(chunks) {
      pending = chunks;
      return client.request(URL_OF_BENCH, { method: 'GET', headers: { accept: 'text/event-stream' }, signal: new AbortController().signal }).then(bodyOfAnswer);
    },
    close: () => client.close(),
  };
}

function bodyOfAnswer(answer: { status: number; body: HttpBody | null }): HttpBody {
  if (answer.status !== 200 || !answer.body) throw new Error(`the bench's SSE answer came back as ${answer.status}${answer.body ? '' : ' without a body'}`);
  return answer.body;
}

/**
 * mcpwire's SSE path as StreamableHttpTransport.consume() runs it: readSse
 * (sse-parser.ts over the byte reads, with a size cap), then for each
 * `message` event with data, JSON.parse (non-JSON data would be reported as
 * noise). The envelope check that follows belongs to the connection, not the
 * transport, and is left out as it is for the SDK-novalidate contender.
 */
export async function mcpwireSse(body: HttpBody): Promise<number> {
  let n = 0;
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  await readSse(body, DEFAULT_MAX_MESSAGE_BYTES, {
    onId(id) {
      lastEventId = id;
    },
    onRetry(ms) {
      retryMs = ms;
    },
    onEvent(event) {
      if ((event.event !== undefined && event.event !== 'message') || event.data === '') return;
      let value: unknown;
      try {
        value = JSON.parse(event.data);
      } catch {
        return;
      }
      if (value !== undefined) n++;
    },
  });
  void lastEventId;
  void retryMs;
  return n;
}

/**
 * The SDK's Streamable HTTP read loop (StreamableHTTPClientTransport
 * `_handleSseStream` in sdk 1.32.2): body → TextDecoderStream →
 * EventSourceParserStream → per event: track the id, skip empty data, and
 * for `message` events JSON.parse then JSONRPCMessageSchema.parse (zod),
 * then isJSONRPCResultResponse (a zod safeParse) to note that a response
 * arrived. With `validate: false` both zod steps are left out: its pipeline
 * without validation.
 */
export async function sdkSse(body: ReadableStream<Uint8Array>, validate: boolean): Promise<number> {
  let n = 0;
  let lastEventId: string | undefined;
  let receivedResponse = false;
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new SdkParserStream({ onRetry: () => {} }))
    .getReader();
  for (;;) {
    const { value: event, done } = await reader.read();
    if (done) break;
    if (event.id) lastEventId = event.id;
    if (!event.data) continue;
    if (!event.event || event.event === 'message') {
      if (validate) {
        const message = JSONRPCMessageSchema.parse(JSON.parse(event.data));
        if (isJSONRPCResultResponse(message)) receivedResponse = true;
      } else {
        JSON.parse(event.data);
      }
      n++;
    }
  }
  void lastEventId;
  void receivedResponse;
  return n;
}
