// Workload data: realistic MCP messages, generated from a fixed seed so every
// run frames the same bytes, and the chunkers that cut them the way a pipe
// or a socket delivers them. Nothing here is timed.

import type { JsonRpcMessage } from '../src/jsonrpc/message.js';
import { seededRandom } from '../src/testing/prng.js';

export const KIB = 1024;
export const MIB = 1024 * 1024;
export const READ_64K = 64 * KIB;


/**
 * The same JSON texts in every form a contender needs: the byte stream with a
 * '\n' after each text, the lines pre-split as byte views (the bytes floor
 * starts from these), and as strings (the JSON.parse floor).
 */
export interface Corpus {
  texts: string[];
  bytes: Buffer;
  lines: Buffer[];
  count: number;
}

export function corpus(jsonTexts: string[]): Corpus {
  const bytes = Buffer.from(jsonTexts.map((t) => `${t}\n`).join(''));
  const lines: Buffer[] = [];
  let start = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  // The string floor starts from lines decoded off the wire: flat strings. JSON.stringify's own
  // output is a rope (cons string) that JSON.parse would first have to flatten, a cost no reader pays.
  const texts = lines.map((line) => line.toString('utf8'));
  return { texts, bytes, lines, count: texts.length };
}

/** Fixed-size reads, as a pipe delivers a fast writer's output (64 KiB is Node's pipe read size). */
export function chunksOf(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

/** Random 1–100 byte reads: the worst case a slow or trickling writer produces; cuts lines and UTF-8 characters everywhere. */
export function tinyChunksOf(bytes: Buffer, seed = 0x5eed): Buffer[] {
  const random = seededRandom(seed);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; ) {
    const size = 1 + Math.floor(random() * 100);
    chunks.push(bytes.subarray(i, i + size));
    i += size;
  }
  return chunks;
}

const WORDS = 'the server returned a list of files in the project directory with their sizes and modification times for review'.split(' ');

function words(random: () => number, chars: number): string {
  let out = '';
  while (out.length < chars) out += `${WORDS[Math.floor(random() * WORDS.length)]} `;
  return out.slice(0, Math.max(0, chars));
}

/** Pads `build(filler)` with a filler of the length that makes its JSON `target` bytes long (ASCII filler, so chars = bytes). */
function sized(target: number, build: (filler: string) => JsonRpcMessage, random: () => number): JsonRpcMessage {
  const base = JSON.stringify(build('')).length;
  return build(words(random, target - base));
}

/**
 * 150–300 B messages in the mix a busy client sees: tool calls and other
 * requests it sends, their results, and the server's progress and log
 * notifications. Sizes are uniform in 150–300 bytes.
 */
export function smallMessages(count: number, seed = 1): JsonRpcMessage[] {
  const random = seededRandom(seed);
  const messages: JsonRpcMessage[] = [];
  for (let i = 0; i < count; i++) {
    const target = 150 + Math.floor(random() * 151);
    const pick = random();
    let message: JsonRpcMessage;
    if (pick < 0.3) {
      message = sized(target, (f) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_files', arguments: { query: f, limit: 20 } } }), random);
    } else if (pick < 0.4) {
      message = sized(target, (f) => ({ jsonrpc: '2.0', id: i, method: 'resources/read', params: { uri: `file:///project/src/${f.replaceAll(' ', '-')}.ts` } }), random);
    } else if (pick < 0.7) {
      message = sized(target, (f) => ({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: f }], isError: false } }), random);
    } else if (pick < 0.75) {
      message = sized(target, (f) => ({ jsonrpc: '2.0', id: i, error: { code: -32602, message: `Invalid params: ${f}` } }), random);
    } else if (pick < 0.9) {
      message = sized(target, (f) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: `tok-${i % 97}`, progress: i % 100, total: 100, message: f } }), random);
    } else {
      message = sized(target, (f) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'indexer', data: f } }), random);
    }
    messages.push(message);
  }
  return messages;
}

/** ~4 KiB tools/call results: multi-line text (so the JSON has \n and \" escapes, as real file contents and listings do). */
export function toolResults(count: number, seed = 2): JsonRpcMessage[] {
  const random = seededRandom(seed);
  const messages: JsonRpcMessage[] = [];
  for (let i = 0; i < count; i++) {
    const target = 4096 - 256 + Math.floor(random() * 513);
    let text = '';
    while (text.length < target - 200) {
      text += `-rw-r--r--  1 dev  staff  ${Math.floor(random() * 99999)}  "src/${words(random, 8 + Math.floor(random() * 20)).trim().replaceAll(' ', '_')}.ts"\n`;
    }
    messages.push({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }], structuredContent: { files: Math.floor(text.length / 60) }, isError: false } });
  }
  return messages;
}

const UTF8_PHRASES = ['Grüße aus Köln — naïve café, ', '東京の天気は晴れです。', 'Привет, мир! ', '你好，世界。', 'emoji 🎉🚀👍🏽 ', 'Ελληνικά κείμενα ', 'عربي نص ', '한국어 텍스트 '];

/** Tool results of ~8 KiB whose text is mostly 2-, 3- and 4-byte UTF-8 characters, so 64 KiB reads cut characters in half. */
export function utf8Messages(count: number, seed = 3): JsonRpcMessage[] {
  const random = seededRandom(seed);
  const messages: JsonRpcMessage[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    while (Buffer.byteLength(text) < 8 * KIB - 120) text += UTF8_PHRASES[Math.floor(random() * UTF8_PHRASES.length)];
    messages.push({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }] } });
  }
  return messages;
}

/**
 * One tools/call result whose line (JSON + '\n') is exactly `totalBytes`
 * long: a large log file read back, with escaped newlines, like the big
 * answers that motivate the size cap (W2).
 */
export function bigMessageText(totalBytes: number): string {
  const wrap = (text: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], isError: false } });
  const line = '2025-06-18T12:00:00.000Z INFO worker[3] processed item 0042 of batch 17 in 4 ms\n';
  const escapedLine = JSON.stringify(line).length - 2;
  const room = totalBytes - 1 - wrap('').length;
  const lines = Math.floor(room / escapedLine);
  const text = line.repeat(lines) + 'x'.repeat(room - lines * escapedLine);
  const json = wrap(text);
  if (json.length + 1 !== totalBytes) throw new Error(`bigMessageText: built ${json.length + 1} bytes, wanted ${totalBytes}`);
  return json;
}
