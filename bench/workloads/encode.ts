// Encoding: message object → the bytes written to the server's stdin, for
// 100k small messages. Both transports hand a string to stdin.write(), which
// encodes it as UTF-8 (Buffer.from); the contenders do that step themselves
// so the cost of the bytes is inside the measurement.
// Baseline: the bytes floor, Buffer.from(JSON.stringify(message)).

import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import ndjson from 'ndjson';
import { encodeLine } from '../../src/jsonrpc/message.js';
import { smallMessages } from '../data.js';
import { timed, type Prepared, type Workload } from '../harness.js';

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
              sink += Buffer.from(encodeLine(m)).length;
              count++;
            }
            return count;
          }),
          timed('sdk', 'ns/msg', perUnit, n, () => {
            let count = 0;
            for (const m of messages) {
              sink += Buffer.from(serializeMessage(m as Parameters<typeof serializeMessage>[0])).length;
              count++;
            }
            return count;
          }),
          // ndjson.stringify: an object-mode Transform (json-stringify-safe + EOL) whose string output the pipe would encode.
          timed('ndjson', 'ns/msg', perUnit, n, () => new Promise<number>((resolve, reject) => {
            let count = 0;
            const stream = ndjson.stringify();
            stream.on('data', (line: string) => {
              sink += Buffer.from(line).length;
              count++;
            });
            stream.on('end', () => resolve(count));
            stream.on('error', reject);
            for (const m of messages) stream.write(m);
            stream.end();
          })),
        ],
        notes: [...(quick ? [`--quick: ${n} messages`] : []), 'sdk-novalidate: not applicable (the SDK validates nothing when it encodes)'],
        dispose: async () => void sink,
      };
    },
  },
];
