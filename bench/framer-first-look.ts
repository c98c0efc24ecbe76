// A first, rough look at the stdio framing cost (issue 2's closing figure).
// The full harness (every workload, SSE, end to end, SVG chart) is issue 4.
// Every figure is a ratio against the bytes floor measured in the same run:
// Buffer.toString + JSON.parse over lines that were split beforehand.
// Run: node --import tsx bench/framer-first-look.ts

import os from 'node:os';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { createLineFramer } from '../src/jsonrpc/line-framer.js';

function smallMessages(count: number): Buffer[] {
  const lines: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const m = i % 3 === 0
      ? { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { message: `hello ${i}` } } }
      : i % 3 === 1
        ? { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `Echo: hello ${i} ${'x'.repeat(i % 120)}` }] } }
        : { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: i, progress: i % 10, total: 10 } };
    lines.push(Buffer.from(`${JSON.stringify(m)}\n`));
  }
  return lines;
}

function bigMessage(bytes: number): Buffer[] {
  const text = 'y'.repeat(bytes - 80);
  return [Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } })}\n`)];
}

function chunked(lines: Buffer[], size: number): Buffer[] {
  const all = Buffer.concat(lines);
  const chunks: Buffer[] = [];
  for (let i = 0; i < all.length; i += size) chunks.push(all.subarray(i, i + size));
  return chunks;
}

type Run = () => number;

function contenders(lines: Buffer[], chunks: Buffer[]): Record<string, Run> {
  return {
    'floor-bytes': () => {
      let n = 0;
      for (const line of lines) if (JSON.parse(line.toString('utf8', 0, line.length - 1))) n++;
      return n;
    },
    mcpwire: () => {
      let n = 0;
      const framer = createLineFramer({ onMessage: () => void n++ });
      for (const chunk of chunks) framer.push(chunk);
      return n;
    },
    sdk: () => {
      let n = 0;
      const buffer = new ReadBuffer();
      // The SDK refuses messages over 10 MiB; a big one counts as 0 and is reported as refused.
      try {
        for (const chunk of chunks) {
          buffer.append(chunk);
          while (buffer.readMessage()) n++;
        }
      } catch {
        return -1;
      }
      return n;
    },
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function measure(name: string, lines: Buffer[], chunkSize: number, rounds: number): void {
  const chunks = chunked(lines, chunkSize);
  const runs = contenders(lines, chunks);
  const times: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [contender, run] of Object.entries(runs)) {
      const start = process.hrtime.bigint();
      const n = run();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      (times[contender] ??= []).push(n < 0 ? Number.NaN : ms);
    }
  }
  const floor = median(times['floor-bytes']!);
  const cells = Object.entries(times).map(([c, t]) => `${c} ${Number.isNaN(median(t)) ? 'refused' : `${median(t).toFixed(1)} ms (${(median(t) / floor).toFixed(2)}x)`}`);
  console.log(`${name.padEnd(28)} ${cells.join(' | ')}`);
}

console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu?'} x${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(2)}`);
const small = smallMessages(100_000);
measure('100k small, 64 KiB reads', small, 64 * 1024, 9);
measure('100k small, 64 B reads', small, 64, 5);
for (const mib of [1, 16]) measure(`one ${mib} MiB, 64 KiB reads`, bigMessage(mib * 1024 * 1024), 64 * 1024, 7);
