// Encoding: message object → the bytes written to the server's stdin, for
// 100k small messages. Baseline: the bytes floor,
// Buffer.from(JSON.stringify(message)).
//
// Every stdio client here (mcpwire's StdioTransport, the SDK's
// StdioClientTransport, a piped ndjson.stringify) hands stdin.write() a
// string. A child's stdin is a net.Socket over a pipe: it never makes a
// Buffer of a string (decodeStrings is off); its handle's writeUtf8String
// (StreamBase::WriteString in Node's C++) encodes the string once, into a
// 16 KiB stack buffer when 3 bytes per UTF-16 unit fit there (no byte count
// first, no allocation), else into storage of that bound (an exact count
// first above 65,535 units), and hands that to the OS. The contenders do
// that step here (streamBytes below), so what is measured is each stack's
// real work per message up to the write syscall (#20 item 2).

import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import ndjson from 'ndjson';
import { encodeLine } from '../../src/jsonrpc/message.js';
import { smallMessages } from '../data.js';
import { timed, type Prepared, type Workload } from '../harness.js';

/** Node's stack buffer for a string write (StreamBase::WriteString). */
const STACK_BYTES = 16 * 1024;
const stack = Buffer.allocUnsafeSlow(STACK_BYTES);

/**
 * Encodes `text` as Node's stream does when a pipe's socket is handed it
 * (StreamBase::WriteString: storage of StringBytes::StorageSize, 3 bytes per
 * unit, or above 65,535 units StringBytes::Size, the exact count), through
 * Buffer#write, whose argument checks the native path does not pay. Returns
 * the bytes written, which are the text's UTF-8 (bench/encode.test.ts).
 */
export function streamBytes(text: string, into?: (bytes: Buffer, length: number) => void): number {
  const storage = text.length * 3 <= STACK_BYTES ? stack : Buffer.allocUnsafeSlow(text.length > 65_535 ? Buffer.byteLength(text) : text.length * 3);
  const length = storage.write(text, 0, 'utf8');
  into?.(storage, length);
  return length;
}

export const encodeWorkloads: Workload[] = [
  {
    id: 'encode-small',
    title: '100k small messages (150–300 B) encoded to bytes for the pipe',
    baseline: 'floor-bytes',
    async prepare({ quick }): Promise<Prepared> {
      const messages = smallMessages(quick ? 5_000 : 100_000);
      const n = messages.length;
      const perUnit = n / 1e6;
      // Each run returns how many messages it encoded; the byte total is summed so the work cannot be optimised away.
      // One loop per contender, written out: a shared loop calling an `encode` callback would share one call
      // site (and its type feedback) between contenders, and whichever ran first would shape the others' speed.
      let sink = 0;
      return {
        contenders: [
          timed('floor-bytes', 'ns/msg', perUnit, n, () => {
            let count = 0;
            for (const m of messages) {
              sink += Buffer.from(JSON.stringify(m)).length;
              count++;
            }
            return count;
          }),
          // The string floor: JSON.stringify alone, no bytes.
          timed('floor-string', 'ns/msg', perUnit, n, () => {
            let count = 0;
            for (const m of messages) {
              sink += JSON.stringify(m).length;
              count++;
            }
            return count;
          }),
          timed('mcpwire', 'ns/msg', perUnit, n, () => {
            let count = 0;
            for (const m of messages) {
              sink += streamBytes(encodeLine(m));
              count++;
            }
            return count;
          }),
          timed('sdk', 'ns/msg', perUnit, n, () => {
            let count = 0;
            for (const m of messages) {
              sink += streamBytes(serializeMessage(m as Parameters<typeof serializeMessage>[0]));
              count++;
            }
            return count;
          }),
          // ndjson.stringify: an object-mode Transform (json-stringify-safe + EOL) whose string output, piped to stdin, the stream encodes.
          timed('ndjson', 'ns/msg', perUnit, n, () => new Promise<number>((resolve, reject) => {
            let count = 0;
            const stream = ndjson.stringify();
            stream.on('data', (line: string) => {
              sink += streamBytes(line);
              count++;
            });
            stream.on('end', () => resolve(count));
            stream.on('error', reject);
            for (const m of messages) stream.write(m);
            stream.end();
          })),
        ],
        // More rounds, as the other rows with a tight ratio target (ndjson.ts, sse.ts): a sample is cheap, and in
        // five rounds the SDK's encoder, the same JSON.stringify and newline as encodeLine, came out 0.81× to
        // mcpwire's 0.91× in one full run: the spread between identical work was the size of the margin.
        plan: quick ? {} : { rounds: 9 },
        notes: [...(quick ? [`--quick: ${n} messages`] : []), 'sdk-novalidate: not applicable (the SDK validates nothing when it encodes)'],
        dispose: async () => void sink,
      };
    },
  },
];
