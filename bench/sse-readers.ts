// The SSE contenders: each reads one response body (a ReadableStream of
// byte chunks) to its end and returns how many JSON-RPC messages it
// delivered, doing per event what its own Streamable HTTP client does.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isJSONRPCResultResponse, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EventSourceParserStream as ParserStream } from 'eventsource-parser/stream';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../src/jsonrpc/line-framer.js';
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

/** A response body that hands out the given reads one by one, as fetch's body does; the same for every contender. */
export function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

/**
 * mcpwire's SSE path as StreamableHttpTransport.consume() runs it: readSse
 * (sse-parser.ts over the byte reads, with a size cap), then for each
 * `message` event with data, JSON.parse (non-JSON data would be reported as
 * noise). The envelope check that follows belongs to the connection, not the
 * transport, and is left out as it is for the SDK-novalidate contender.
 */
export async function mcpwireSse(body: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  await readSse(body, DEFAULT_MAX_MESSAGE_BYTES, {
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
