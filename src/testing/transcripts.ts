// Hand-written transcripts (the transcript format, version 1) for the
// tests that check the replayer itself: the messages of a passing handshake
// and echo call, and a writer that puts a case in a temp folder (never into
// conformance/, which holds cases that must pass).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
export const INITIALIZE_RESULT = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } };
export const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
export const ECHO_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } };
export const ECHO_RESULT = { content: [{ type: 'text', text: 'Echo: hi' }] };

/** Connect gets its own generous timeout (a relay or an HTTP server side takes a moment to start). */
export const HANDSHAKE = [{ op: 'connect', timeoutMs: 3000 }, { dir: 'c2s', msg: INITIALIZE }, { dir: 's2c', msg: INITIALIZE_RESULT }, { dir: 'c2s', msg: INITIALIZED }];

/** Writes `<dir>/<name>.jsonl`: a header (with `header` merged in) and the events; returns the file. */
export function writeTranscript(dir: string, name: string, events: unknown[], header: Record<string, unknown> = {}): string {
  const lines = [{ mcpTranscript: 1, name, transport: 'stdio', protocolVersion: '2025-11-25', source: 'hand-written test', ...header }, ...events];
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}
