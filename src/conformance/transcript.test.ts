// Transcript parsing and validation: what the format allows is read, and
// anything else is a clear error (so a typo cannot make a case pass).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { caseBudgetMs, parseTranscript, protocolEraOf, TranscriptError } from './transcript.js';

const header = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ mcpTranscript: 1, name: 't', transport: 'stdio', protocolVersion: '2025-11-25', ...extra });
const parse = (...lines: string[]) => parseTranscript(lines.join('\n'));
const rejects = (pattern: RegExp, ...lines: string[]) => assert.throws(() => parse(...lines), (e: unknown) => e instanceof TranscriptError && pattern.test(e.message));

describe('parseTranscript', () => {
  test('reads the header and events; blank and # lines are comments', () => {
    const t = parse(
      header({ source: 'hand-written', description: 'd', formatExtensions: ['s2c.close'], sdkExpectedToFail: true, client: { timeoutMs: 500 } }),
      '',
      '   # a comment',
      '{"op":"connect"}',
      '{"dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"}}',
      '{"dir":"s2c","raw":"{\\"id\\":{{id:0}}}\\n","delayMs":10}',
      '{"op":"callTool","name":"x","arguments":{},"timeoutMs":200,"expect":{"error":"timeout"}}',
      '{"dir":"s2c","close":true}',
    );
    assert.equal(t.header.client?.timeoutMs, 500);
    assert.deepEqual(
      t.events.map((e) => [e.kind, e.line]),
      [['op', 4], ['c2s', 5], ['s2c', 6], ['op', 7], ['s2c', 8]],
    );
  });

  test('an unknown header key fails', () => rejects(/unknown header key "bogus"/, header({ bogus: 1 })));
  test('an unknown key in client fails', () => rejects(/unknown key "client.retries"/, header({ client: { retries: 3 } })));
  test('mcpTranscript must be 1', () => rejects(/"mcpTranscript" must be 1/, header({ mcpTranscript: 2 })));
  test('an unknown transport fails', () => rejects(/"transport" must be one of/, header({ transport: 'websocket' })));
  test('an unknown op fails', () => rejects(/unknown op "listThings"/, header(), '{"op":"listThings"}'));
  test('a misspelt key on an op fails', () => rejects(/unknown key "expected"/, header(), '{"op":"ping","expected":{"ok":true}}'));
  test('expect must have one known key', () => rejects(/exactly one of/, header(), '{"op":"ping","expect":{}}'));
  test('expect.error must be a code or a known kind', () => rejects(/"expect.error" must be/, header(), '{"op":"ping","expect":{"error":"boom"}}'));
  test('callTool needs a name', () => rejects(/callTool needs "name"/, header(), '{"op":"callTool"}'));
  test('an s2c line needs exactly one action', () => rejects(/exactly one of/, header(), '{"dir":"s2c","raw":"x","close":true}'));
  test('a line with neither op nor dir fails', () => rejects(/must have "op", or "dir"/, header(), '{"msg":{}}'));
  test('a line that is not JSON names its line number', () => rejects(/:3: not JSON/, header(), '{"op":"connect"}', '{oops'));
  test('{{id:N}} must refer to an earlier c2s request', () => rejects(/\{\{id:4\}\} refers to request id 4/, header(), '{"dir":"s2c","raw":"{{id:4}}"}'));

  test('client.protocolEra and client.elicitation are read (#17)', () => {
    const t = parse(header({ client: { protocolEra: 'auto', elicitation: { action: 'accept', content: { answer: 'x' } } } }));
    assert.equal(t.header.client?.protocolEra, 'auto');
    assert.deepEqual(t.header.client?.elicitation, { action: 'accept', content: { answer: 'x' } });
    assert.equal(protocolEraOf(t.header.client), 'auto');
    assert.deepEqual(protocolEraOf({ protocolEra: '2026-07-28' }), { version: '2026-07-28' });
    assert.equal(protocolEraOf(undefined), undefined, 'absent: no era configured, the client\'s default');
  });
  test('client.protocolEra must be an era word or a version', () => rejects(/"client.protocolEra" must be/, header({ client: { protocolEra: 'newest' } })));
  test('client.elicitation must be a result with an action', () => rejects(/"client.elicitation" must be/, header({ client: { elicitation: { content: {} } } })));

  test('the header name must match the file name', () => {
    assert.throws(() => parseTranscript(header(), '/x/other.jsonl'), /the file is named other\.jsonl/);
    assert.equal(parseTranscript(header(), '/x/t.jsonl').header.name, 't');
  });
});

describe('caseBudgetMs', () => {
  test('twice the sum of the ops\' timeouts; an op without one counts client.timeoutMs', () => {
    const t = parse(header({ client: { timeoutMs: 1000 } }), '{"op":"connect"}', '{"op":"ping","timeoutMs":300}', '{"op":"close"}');
    assert.equal(caseBudgetMs(t), 2 * (1000 + 300 + 1000));
  });

  test('without client.timeoutMs an op counts 30 s', () => {
    assert.equal(caseBudgetMs(parse(header(), '{"op":"connect"}')), 60_000);
  });
});
