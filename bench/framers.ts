// The stdio framing contenders: each takes the reads of one stream (or, for
// the floors, the lines already split) and returns how many messages it
// delivered. Each one is used the way its own stack uses it.

import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import ndjson from 'ndjson';
import { createLineFramer } from '../src/jsonrpc/line-framer.js';

/** The bytes floor: decode + JSON.parse of each line, with the splitting done for free beforehand. */
export function floorBytes(lines: readonly Buffer[]): number {
  let n = 0;
  for (const line of lines) if (JSON.parse(line.toString('utf8')) !== undefined) n++;
  return n;
}

/** The JSON.parse floor: the lines already split and decoded. */
export function floorString(texts: readonly string[]): number {
  let n = 0;
  for (const text of texts) if (JSON.parse(text) !== undefined) n++;
  return n;
}

/** mcpwire's framer as the stdio transport drives it: push() per read, end() when stdout ends. */
export function mcpwire(chunks: Iterable<Buffer>): number {
  let n = 0;
  const framer = createLineFramer({ onMessage: () => void n++ });
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  return n;
}

/**
 * The official SDK's stdio path as StdioClientTransport drives it: append()
 * per read, then readMessage() (JSON.parse + zod validation) until null.
 * `maxBufferSize` stays the SDK's 10 MiB default unless a workload needs
 * more (the SDK refuses bigger messages; a raised cap measures its algorithm).
 */
export function sdk(chunks: Iterable<Buffer>, maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE): number {
  let n = 0;
  const buffer = new ReadBuffer({ maxBufferSize });
  for (const chunk of chunks) {
    buffer.append(chunk);
    while (buffer.readMessage() !== null) n++;
  }
  return n;
}

/**
 * The SDK's ReadBuffer algorithm without its validation: a line-for-line copy
 * of `ReadBuffer` from @modelcontextprotocol/sdk 1.32.2
 * (dist/esm/shared/stdio.js) in which `deserializeMessage(line)` (JSON.parse
 * then JSONRPCMessageSchema.parse) became `JSON.parse(line)`. Nothing else
 * differs: the Buffer.concat per read, the indexOf, the toString + \r strip,
 * the subarray. Re-check it when the SDK is upgraded.
 */
export class ReadBufferNoValidate {
  private buffer: Buffer | undefined;

  constructor(private readonly maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE) {}

  append(chunk: Buffer): void {
    const newSize = (this.buffer?.length ?? 0) + chunk.length;
    if (newSize > this.maxBufferSize) {
      this.buffer = undefined;
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): unknown {
    if (!this.buffer) return null;
    const index = this.buffer.indexOf('\n');
    if (index === -1) return null;
    const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
    this.buffer = this.buffer.subarray(index + 1);
    return JSON.parse(line);
  }
}

export function sdkNoValidate(chunks: Iterable<Buffer>, maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE): number {
  let n = 0;
  const buffer = new ReadBufferNoValidate(maxBufferSize);
  for (const chunk of chunks) {
    buffer.append(chunk);
    while (buffer.readMessage() !== null) n++;
  }
  return n;
}

/**
 * The `ndjson` package (split2 underneath): a Node Transform stream, fed the
 * same reads; done when it has emitted its last object. Its strict mode
 * would emit 'error' on a bad line; there are none here.
 */
export function ndjsonParse(chunks: Iterable<Buffer>): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    const parser = ndjson.parse();
    parser.on('data', () => void n++);
    parser.on('end', () => resolve(n));
    parser.on('error', reject);
    for (const chunk of chunks) parser.write(chunk);
    parser.end();
  });
}
