#!/usr/bin/env node
// Re-records the project's own transcript corpus (conformance/recorded/) from
// the real servers installed as devDependencies, through `mcpwire record`.
// Each case is an ops list driven by mcpwire's client (--ops), except one
// recorded through --proxy with the official SDK's client. Whatever would
// differ between two recordings is avoided or normalised (see
// conformance/RECORDING.md): the servers' Math.random is seeded, fixture
// paths and the clock times a server prints are replaced by fixed text.
//
//   node scripts/record-corpus.mjs [--out DIR] [--only NAME,NAME...]
//   (npm run record:corpus)

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'mcpwire.js');
const MODULES = path.join(ROOT, 'node_modules', '@modelcontextprotocol');
const EVERYTHING = path.join(MODULES, 'server-everything', 'dist', 'index.js');
const FILESYSTEM = path.join(MODULES, 'server-filesystem', 'dist', 'index.js');
const MEMORY = path.join(MODULES, 'server-memory', 'dist', 'index.js');
const SDK_EXAMPLES = path.join(MODULES, 'sdk', 'dist', 'esm', 'examples', 'server');
const SEEDED = path.join(ROOT, 'scripts', 'corpus', 'seeded-random.mjs');
const FIXTURES = path.join(ROOT, 'spec-tests', 'fixtures');
const BIND_LOOPBACK = path.join(FIXTURES, 'bind-loopback.mjs');
/** The official SDK v2 server (@modelcontextprotocol/server), the real 2026-07-28 peer (#17). */
const V2_SERVER = path.join(FIXTURES, 'v2-server.mjs');
/** What a fixture folder's real path is replaced by in the transcripts. */
const FIXTURE_PLACEHOLDER = '/corpus-fixture';
/** server-everything prints toLocaleTimeString() in its dynamic resources. */
const CLOCK_PATTERN = 'created at \\d{1,2}:\\d{2}:\\d{2}(\\s?[AP]M)?=created at 00:00:00';
/** v2-tasks.mjs names its tasks after its pid and stamps them with the clock. */
const TASK_PATTERNS = ['task-\\d+-=task-0-', '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z=2026-01-01T00:00:00.000Z'];

const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } });
const OUT = path.resolve(values.out ?? path.join(ROOT, 'conformance', 'recorded'));
const ONLY = values.only?.split(',');

/** `node --import seeded-random.mjs SCRIPT ARGS`: the server's argv. */
const seeded = (script, ...args) => [process.execPath, '--import', SEEDED, script, ...args];

const op = {
  connect: { op: 'connect' },
  close: { op: 'close' },
  call: (name, args = {}, more = {}) => ({ op: 'callTool', name, arguments: args, ...more }),
};

/** Builds the cases; `fixture` is a temp folder the filesystem cases serve. */
function cases(fixture) {
  const file = (...parts) => path.join(fixture, ...parts);
  return [
    {
      name: 'everything-tools',
      description: 'server-everything over stdio: tools/list, echo, get-sum, an image, an annotated message, structuredContent, an embedded resource, resource links, an unknown tool (isError), ping',
      server: ['--', ...seeded(EVERYTHING, 'stdio')],
      ops: [
        op.connect,
        { op: 'listTools' },
        op.call('echo', { message: 'héllo — “corpus” ✓' }),
        op.call('get-sum', { a: 40, b: 2.5 }),
        op.call('get-tiny-image'),
        op.call('get-annotated-message', { messageType: 'error', includeImage: true }),
        op.call('get-structured-content', { location: 'New York' }),
        op.call('get-resource-reference', { resourceType: 'Text', resourceId: 3 }),
        op.call('get-resource-links', { count: 2 }),
        op.call('no-such-tool'),
        { op: 'ping' },
        op.close,
      ],
    },
    {
      name: 'everything-resources-prompts',
      description: 'server-everything over stdio: resources/list, a static and a templated resource, resources/templates/list, an unknown resource (JSON-RPC error), prompts/list, prompts/get with and without arguments, an embedded-resource prompt',
      server: ['--', ...seeded(EVERYTHING, 'stdio')],
      ops: [
        op.connect,
        { op: 'listResources' },
        { op: 'readResource', uri: 'demo://resource/static/document/features.md' },
        { op: 'listResourceTemplates' },
        { op: 'readResource', uri: 'demo://resource/dynamic/text/7' },
        { op: 'readResource', uri: 'demo://resource/no/such/thing' },
        { op: 'listPrompts' },
        { op: 'getPrompt', name: 'simple-prompt' },
        { op: 'getPrompt', name: 'args-prompt', arguments: { city: 'Zürich', state: 'ZH' } },
        { op: 'getPrompt', name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '2' } },
        op.close,
      ],
    },
    {
      name: 'everything-progress-and-logging',
      description: 'server-everything over stdio: notifications/progress during a long tool, then simulated logging switched on (a notifications/message) and off',
      server: ['--', ...seeded(EVERYTHING, 'stdio')],
      ops: [op.connect, op.call('trigger-long-running-operation', { duration: 0.5, steps: 5 }), op.call('toggle-simulated-logging'), op.call('toggle-simulated-logging'), op.close],
    },
    {
      name: 'everything-timeout-then-ping',
      description: 'server-everything over stdio: a tool call that outlives its 300 ms timeout (the client cancels it), then a ping still works',
      server: ['--', ...seeded(EVERYTHING, 'stdio')],
      timeoutMs: 5000,
      ops: [op.connect, op.call('trigger-long-running-operation', { duration: 2, steps: 1 }, { timeoutMs: 300 }), { op: 'ping' }, op.close],
    },
    {
      name: 'everything-streamable-http',
      description: 'server-everything over Streamable HTTP: tools/list, echo, progress over an SSE answer, an image, prompts/list',
      http: 'streamableHttp',
      ops: [op.connect, { op: 'listTools' }, op.call('echo', { message: 'over streamable http' }), op.call('trigger-long-running-operation', { duration: 0.3, steps: 3 }), op.call('get-tiny-image'), { op: 'listPrompts' }, op.close],
    },
    {
      name: 'everything-legacy-sse',
      description: 'server-everything over legacy HTTP+SSE: echo, structuredContent, resources/list',
      http: 'sse',
      ops: [op.connect, op.call('echo', { message: 'over legacy sse' }), op.call('get-structured-content', { location: 'Chicago' }), { op: 'listResources' }, op.close],
    },
    {
      name: 'filesystem-files',
      description: 'server-filesystem on a fixture folder: allowed directories, listings, read/write/edit, several files at once, search, audio content, a path outside the allowed folder (isError)',
      server: ['--', ...seeded(FILESYSTEM, fixture)],
      replace: [fixture, realpathSync(fixture)],
      ops: [
        op.connect,
        op.call('list_allowed_directories'),
        op.call('list_directory', { path: fixture }),
        op.call('list_directory_with_sizes', { path: file('data'), sortBy: 'name' }),
        op.call('read_text_file', { path: file('notes.txt') }),
        op.call('read_text_file', { path: file('notes.txt'), head: 2 }),
        op.call('read_multiple_files', { paths: [file('notes.txt'), file('data', 'numbers.csv')] }),
        op.call('write_file', { path: file('written.txt'), content: 'written by the corpus\nline two\n' }),
        op.call('edit_file', { path: file('written.txt'), edits: [{ oldText: 'line two', newText: 'line 2' }], dryRun: true }),
        op.call('search_files', { path: fixture, pattern: '*.csv' }),
        op.call('read_media_file', { path: file('audio', 'beep.wav') }),
        op.call('read_text_file', { path: '/etc/hostname' }),
        op.close,
      ],
    },
    {
      name: 'filesystem-large-result',
      description: 'server-filesystem: read_text_file of a 256 KiB file: an answer of about 0.5 MB on one line (text and structuredContent), past any pipe buffer',
      server: ['--', ...seeded(FILESYSTEM, fixture)],
      replace: [fixture, realpathSync(fixture)],
      ops: [op.connect, op.call('read_text_file', { path: file('data', 'large.txt') }), op.close],
    },
    {
      name: 'memory-graph',
      description: 'server-memory with a fresh graph file: create entities and relations, add observations, search, open, read the graph, delete',
      server: ['--', ...seeded(MEMORY)],
      env: { MEMORY_FILE_PATH: path.join(fixture, 'memory.jsonl') },
      ops: [
        op.connect,
        { op: 'listTools' },
        op.call('create_entities', { entities: [{ name: 'mcpwire', entityType: 'project', observations: ['an MCP client'] }, { name: 'corpus', entityType: 'artifact', observations: ['recorded transcripts'] }] }),
        op.call('create_relations', { relations: [{ from: 'mcpwire', to: 'corpus', relationType: 'records' }] }),
        op.call('add_observations', { observations: [{ entityName: 'corpus', contents: ['replayed in npm test'] }] }),
        op.call('search_nodes', { query: 'transcripts' }),
        op.call('open_nodes', { names: ['mcpwire'] }),
        op.call('read_graph'),
        op.call('delete_entities', { entityNames: ['corpus'] }),
        op.call('read_graph'),
        op.close,
      ],
    },
    {
      name: 'sdk-example-progress',
      description: "the official SDK's progressExample server: progress notifications that carry a message",
      server: ['--', ...seeded(path.join(SDK_EXAMPLES, 'progressExample.js'))],
      ops: [op.connect, { op: 'listTools' }, op.call('count', { n: 3 }), op.close],
    },
    {
      name: 'sdk-example-sampling-refused',
      description: "the official SDK's toolWithSampleServer: a banner on stdout after connecting, then a tool that asks the client for sampling, which a client without the capability refuses (-32601); the tool reports the failure",
      server: ['--', ...seeded(path.join(SDK_EXAMPLES, 'toolWithSampleServer.js'))],
      ops: [op.connect, { op: 'listTools' }, op.call('summarize', { text: 'A long text to summarise.' }), op.close],
    },
    // --- the 2026-07-28 era (#17 items 7, 8): the client's era is in each header's client.protocolEra ---
    {
      name: 'v2-modern-discover',
      description: 'the SDK v2 server, modern only, over stdio, the client pinned modern: server/discover as the handshake, the protocol version, client info and capabilities in every request\'s _meta, then tools, structured output, progress, a resource and a prompt',
      server: ['--', ...seeded(V2_SERVER, '--era', 'modern')],
      era: 'modern',
      ops: [
        op.connect,
        { op: 'listTools' },
        op.call('echo', { text: 'modern ✓' }),
        op.call('add', { a: 40, b: 2 }),
        op.call('count', { steps: 2 }),
        { op: 'readResource', uri: 'v2://greeting' },
        { op: 'listPrompts' },
        { op: 'getPrompt', name: 'greet', arguments: { name: 'Ada' } },
        op.close,
      ],
    },
    {
      name: 'v2-auto-probe-modern',
      description: 'the SDK v2 server speaking both eras, the client on auto: the server/discover probe is answered, so the session is modern (no initialize)',
      server: ['--', ...seeded(V2_SERVER, '--era', 'dual')],
      era: 'auto',
      ops: [op.connect, op.call('echo', { text: 'probed' }), op.close],
    },
    {
      name: 'v2-input-required-elicitation',
      description: 'the SDK v2 server, modern: a tools/call answered input_required (an elicitation input request and requestState); the client\'s elicitation handler answers and the call goes out again with inputResponses and the requestState echoed',
      server: ['--', ...seeded(V2_SERVER, '--era', 'modern')],
      era: 'modern',
      elicit: { action: 'accept', content: { answer: 'teal' } },
      ops: [op.connect, op.call('ask', { question: 'Which colour?' }), op.close],
    },
    {
      name: 'v2-legacy-first-32022-retry',
      description: 'the SDK v2 server, modern only, and the client with no era configured (legacy first): initialize is refused with -32022 naming 2026-07-28, so the client goes modern with server/discover',
      server: ['--', ...seeded(V2_SERVER, '--era', 'modern')],
      ops: [op.connect, op.call('echo', { text: 'after the refusal' }), op.close],
    },
    {
      name: 'everything-auto-probe-method-not-found',
      description: 'server-everything (the SDK v1, 2025 only) and the client on auto: server/discover is answered -32601, so the client falls back to initialize and the session is legacy (no _meta envelope)',
      server: ['--', ...seeded(EVERYTHING, 'stdio')],
      era: 'auto',
      ops: [op.connect, op.call('echo', { message: 'after the probe' }), op.close],
    },
    {
      name: 'auto-probe-silent-fallback',
      description: 'a 2025 fixture that ignores methods it does not know, and the client on auto: the server/discover probe gets no answer, so after the probe timeout (1 s) the client cancels it and falls back to initialize (stdio only)',
      server: ['--', ...seeded(path.join(FIXTURES, 'toolsource-server.mjs'))],
      era: 'auto',
      ops: [op.connect, { op: 'listTools' }, op.call('echo', { text: 'after silence' }), op.close],
    },
    {
      name: 'v2-legacy-task-call',
      description: 'the SDK v2 server speaking both eras (its 2025 task tool served by v2-tasks.mjs), the client pinned legacy: a task-required tool is called as a task (params.task), polled with tasks/get and its result fetched with tasks/result',
      server: ['--', ...seeded(V2_SERVER, '--era', 'dual')],
      era: 'legacy',
      replacePatterns: TASK_PATTERNS,
      ops: [op.connect, { op: 'listTools' }, op.call('slow-task', { ms: 1 }), op.close],
    },
    {
      name: 'modern-task-call-input-required',
      description: 'a 2026-07-28 fixture serving the tasks extension (no real server does yet), the client pinned modern: a tools/call answered with a task, polled with tasks/get, its input_required answered by the elicitation handler through tasks/update, the result inline in the last tasks/get',
      server: ['--', ...seeded(path.join(FIXTURES, 'modern-tasks-server.mjs'))],
      era: 'modern',
      elicit: { action: 'accept', content: { sure: true } },
      ops: [op.connect, { op: 'listTools' }, op.call('confirm', { question: 'Sure?' }), op.close],
    },
    {
      name: 'v2-modern-streamable-http',
      description: 'the SDK v2 server, modern only, over Streamable HTTP, the client pinned modern: server/discover, then tools, progress over an SSE answer and an input_required round, with MCP-Protocol-Version on every POST and no session',
      v2Http: 'modern',
      era: 'modern',
      elicit: { action: 'accept', content: { answer: 'over http' } },
      ops: [op.connect, { op: 'listTools' }, op.call('echo', { text: 'over http' }), op.call('count', { steps: 2 }), op.call('ask', { question: 'Which transport?' }), op.close],
    },
    {
      name: 'proxy-sdk-client-everything',
      description: "recorded through mcpwire record --proxy while the official SDK's Client drove server-everything over stdio: listTools, echo, progress, prompts, a resource",
      proxyWithSdk: true,
    },
  ];
}

function run(argv, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited ${code}:\n${stderr}`))));
  });
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything in an HTTP mode on 127.0.0.1; resolves with its URL and a stop function. */
async function startEverythingHttp(mode) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', BIND_LOOPBACK, '--import', SEEDED, EVERYTHING, mode], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (/listening|running/i.test(stderr)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited ${code}: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`;
  return { url, stop: () => child.kill('SIGKILL') };
}

/** v2-server.mjs over HTTP on 127.0.0.1 (it prints its URL as a JSON line); resolves with the URL and a stop function. */
async function startV2Http(era) {
  const child = spawn(process.execPath, ['--import', SEEDED, V2_SERVER, '--transport', 'http', '--era', era], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line).url);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => reject(new Error(`v2-server http exited ${code}: ${stderr}`)));
  });
  return { url, stop: () => child.kill('SIGKILL') };
}

async function recordProxyWithSdk(out) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const description = cases('/').find((c) => c.proxyWithSdk).description;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'record', '--proxy', '--out', out, '--description', description, '--', ...seeded(EVERYTHING, 'stdio')],
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'corpus-sdk-client', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { message: 'through the proxy' } });
  await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: () => {} });
  await client.listPrompts();
  await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lyon' } });
  await client.readResource({ uri: 'demo://resource/static/document/architecture.md' });
  await client.close();
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const fixture = mkdtempSync(path.join(tmpdir(), 'mcpwire-corpus-'));
  try {
    writeFixture(fixture);
    for (const c of cases(fixture)) {
      if (ONLY && !ONLY.includes(c.name)) continue;
      const out = path.join(OUT, `${c.name}.jsonl`);
      if (c.proxyWithSdk) {
        await recordProxyWithSdk(out);
        process.stdout.write(`recorded ${c.name}\n`);
        continue;
      }
      const opsFile = path.join(fixture, `${c.name}.ops.json`);
      writeFileSync(opsFile, JSON.stringify(c.ops));
      const args = [BIN, 'record', '--ops', opsFile, '--out', out, '--description', c.description, '--replace-pattern', CLOCK_PATTERN];
      for (const from of new Set(c.replace ?? [])) args.push('--replace', `${from}=${FIXTURE_PLACEHOLDER}`);
      for (const pattern of c.replacePatterns ?? []) args.push('--replace-pattern', pattern);
      if (c.timeoutMs) args.push('--timeout', String(c.timeoutMs));
      if (c.era) args.push('--era', c.era);
      if (c.elicit) args.push('--elicit', JSON.stringify(c.elicit));
      if (c.v2Http) {
        const server = await startV2Http(c.v2Http);
        try {
          await run([...args, '--url', server.url]);
        } finally {
          server.stop();
        }
      } else if (c.http) {
        const server = await startEverythingHttp(c.http);
        try {
          await run([...args, '--url', server.url, ...(c.http === 'sse' ? ['--transport', 'sse'] : [])]);
        } finally {
          server.stop();
        }
      } else {
        await run([...args, ...c.server], c.env);
      }
      process.stdout.write(`recorded ${c.name}\n`);
    }
  } finally {
    rmSync(fixture, { recursive: true, force: true });
  }
}

/** The filesystem cases' folder: small text files, a CSV, 256 KiB of text and a short WAV, all generated the same way every time. */
function writeFixture(dir) {
  mkdirSync(path.join(dir, 'data'));
  mkdirSync(path.join(dir, 'audio'));
  writeFileSync(path.join(dir, 'notes.txt'), 'First line\nZweite Zeile: ünïcödé ✓\n第三行\nlast line\n');
  writeFileSync(path.join(dir, 'data', 'numbers.csv'), 'n,square\n1,1\n2,4\n3,9\n');
  const line = 'The quick brown fox jumps over the lazy dog. 0123456789\n';
  writeFileSync(path.join(dir, 'data', 'large.txt'), line.repeat(Math.ceil((1 << 18) / line.length)).slice(0, 1 << 18));
  writeFileSync(path.join(dir, 'audio', 'beep.wav'), wav());
}

/** 0.05 s of a 440 Hz tone, 8 kHz mono 8-bit PCM. */
function wav() {
  const rate = 8000;
  const samples = Buffer.alloc(rate / 20);
  for (let i = 0; i < samples.length; i++) samples[i] = 128 + Math.round(100 * Math.sin((2 * Math.PI * 440 * i) / rate));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

await main();
