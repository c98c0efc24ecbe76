// JSON Schema in listed tools is the server's, untouched (SEP-1613, SEP-2106;
// the official suite's json-schema-2020-12-preservation and
// json-schema-ref-no-deref): a 2020-12 inputSchema comes out of listTools()
// exactly as it went in, $ref included, and nothing it points at is fetched;
// a schema passed back as a tool argument goes out exactly as given. Over
// modern Streamable HTTP, where the client walks each schema for
// x-mcp-header, and in the legacy era; against a real HTTP server on
// 127.0.0.1 that counts requests to the $ref's URL.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import { McpClient } from './client.js';
import type { JsonObject } from './results.js';

const CANARY = '/canary/profile-schema.json';

/** Every 2020-12 keyword the suite checks, plus a same-document and a network $ref. */
function richSchema(canaryUrl: string): JsonObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:mcpwire:test:profile',
    type: 'object',
    $defs: {
      address: { $anchor: 'addr', type: 'object', properties: { street: { type: 'string' } }, required: ['street'] },
      userId: { type: 'string', pattern: '^[a-z0-9-]+$' },
    },
    properties: {
      id: { $ref: '#/$defs/userId' },
      home: { $ref: '#addr' },
      profile: { $ref: canaryUrl },
      region: { type: 'string', 'x-mcp-header': 'Region' },
      kind: { type: 'string', enum: ['a', 'b'] },
      extra: { type: ['string', 'null'], unevaluatedProperties: false, dependentRequired: { a: ['b'] } },
    },
    allOf: [{ anyOf: [{ required: ['id'] }, { required: ['home'] }] }],
    if: { properties: { kind: { const: 'a' } } },
    then: { required: ['region'] },
    else: { not: { required: ['region'] } },
    additionalProperties: false,
    required: ['id'],
  };
}

interface Recorded {
  canary: number;
  calls: JsonObject[];
}

async function readJson(req: IncomingMessage): Promise<JsonObject> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as JsonObject;
}

/** A 2026-07-28 and 2025-11-25 server, stateless: just enough of each to list and call, with the canary beside it. */
function startServer(recorded: Recorded, schema: () => JsonObject): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.url === CANARY) {
      recorded.canary++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":"object"}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const body = await readJson(req);
    const answer = (result: JsonObject) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }));
    if (body.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const modern = req.headers['mcp-protocol-version'] === '2026-07-28';
    const complete = (result: JsonObject) => (modern ? { resultType: 'complete', ...result } : result);
    switch (body.method) {
      case 'server/discover':
        answer({ resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'schema-test', version: '1' } } });
        return;
      case 'initialize':
        answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'schema-test', version: '1' } });
        return;
      case 'tools/list':
        answer(complete({ tools: [{ name: 'profile', inputSchema: schema() }, { name: 'echo', inputSchema: { type: 'object', properties: { schema: { type: 'object' } }, required: ['schema'] } }], ...(modern ? { ttlMs: 0, cacheScope: 'private' } : {}) }));
        return;
      case 'tools/call':
        recorded.calls.push(body.params as JsonObject);
        answer(complete({ content: [{ type: 'text', text: 'ok' }] }));
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } }));
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('JSON Schema in listed tools is kept as the server sent it', () => {
  const recorded: Recorded = { canary: 0, calls: [] };
  let server: Server;
  let url: string;
  let canaryUrl: string;
  before(async () => {
    server = await startServer(recorded, () => richSchema(canaryUrl));
    const { port } = server.address() as AddressInfo;
    url = `http://127.0.0.1:${port}/mcp`;
    canaryUrl = `http://127.0.0.1:${port}${CANARY}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const era of ['modern', 'legacy'] as const) {
    test(`${era}: listTools() gives the inputSchema byte for byte, the network $ref is never fetched, and the schema sent back as an argument arrives unchanged`, async () => {
      recorded.canary = 0;
      recorded.calls.length = 0;
      const client = new McpClient(new StreamableHttpTransport({ url, server: 'schema-test' }), { protocolEra: era, timeoutMs: 20_000 });
      try {
        await client.connect();
        assert.equal(client.era, era);
        const { tools } = await client.listTools();
        const listed = tools.find((t) => t.name === 'profile');
        assert.ok(listed, `profile listed: ${tools.map((t) => t.name).join(', ')}`);
        assert.equal(JSON.stringify(listed.inputSchema), JSON.stringify(richSchema(canaryUrl)), 'same keys, same order, same values');
        await client.callTool('echo', { schema: listed.inputSchema });
        assert.equal(recorded.calls.length, 1);
        assert.equal(JSON.stringify((recorded.calls[0]!.arguments as JsonObject).schema), JSON.stringify(richSchema(canaryUrl)));
        assert.equal(recorded.canary, 0, 'the $ref to a network URI was fetched');
      } finally {
        await client.close();
      }
    });
  }
});
