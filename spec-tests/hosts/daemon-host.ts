// A daemon host as a host author writes one from mcpwire's README and its
// .d.ts alone (#16, Tests): a kaged project with three local reference
// servers, a remote one whose secret comes from the host, and one that never
// answers; per-agent dispatch, metrics, lifecycle control and a reload after
// the project file is edited. It prints one JSON line per step, which
// spec-tests/H.host-authors.test.ts asserts on; it imports only 'mcpwire'.
//
// Environment: HOST_WORK (an empty folder for the project), HOST_SERVERS (the
// folder holding @modelcontextprotocol/server-*), HOST_REMOTE_URL (a
// Streamable HTTP MCP server), HOST_CANARY (the remote server's token).

import { mkdirSync, writeFileSync, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import {
  loadKagedProject,
  openToolSource,
  UnknownToolError,
  isMcpClientError,
  type ServerStatus,
  type ToolCallEvent,
  type ToolCallResult,
  type ToolSource,
  type ToolsChange,
} from 'mcpwire';

const work = realpathSync(need('HOST_WORK'));
const servers = need('HOST_SERVERS');
const remoteUrl = need('HOST_REMOTE_URL');
const canary = need('HOST_CANARY');

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

function say(step: string, data: Record<string, unknown>): void {
  console.log(JSON.stringify({ step, ...data }));
}

/** What a host logs about an error: its class and code, never more than the message. */
function describe(error: unknown): Record<string, unknown> {
  if (error instanceof UnknownToolError) return { name: error.name, code: error.code, missing: error.missing, suggestions: error.suggestions, unavailable: error.unavailable, message: error.message };
  if (isMcpClientError(error)) return { name: error.name, code: error.code, server: error.server, message: error.message, ...('reason' in error ? { reason: error.reason } : {}) };
  return { name: error instanceof Error ? error.name : typeof error, message: String(error instanceof Error ? error.message : error) };
}

/** Each step reports what it saw, or the error it hit, and the host goes on to the next. */
async function step(name: string, run: () => Promise<Record<string, unknown>>): Promise<void> {
  try {
    say(name, await run());
  } catch (error) {
    say(name, { failed: describe(error) });
  }
}

function textOf(call: ToolCallResult): string {
  return call.result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

async function failure(run: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await run();
    return { failed: false };
  } catch (error) {
    return describe(error);
  }
}

function node(script: string): string[] {
  return [process.execPath, path.join(servers, script)];
}

// The project: kaged.yaml with local.toml and config.toml beside it.
const project = path.join(work, 'project');
const workspace = path.join(project, 'workspace');
mkdirSync(workspace, { recursive: true });
writeFileSync(path.join(workspace, 'hello.txt'), 'hello from the workspace\n');
writeFileSync(path.join(workspace, 'big.txt'), 'x'.repeat(5_000));
const memoryFile = (n: number) => path.join(work, `memory-${n}.jsonl`);
const kagedYaml = path.join(project, 'kaged.yaml');

function writeProject(generation: 1 | 2): void {
  const q = JSON.stringify;
  const slow =
    generation === 1
      ? `
  slow:
    transport: stdio
    command: ${q([process.execPath, '-e', 'setInterval(() => {}, 1000)'])}
`
      : '';
  writeFileSync(
    kagedYaml,
    `name: host-author-daemon
mcp:
  everything:
    transport: stdio
    command: ${q([...node('server-everything/dist/index.js'), 'stdio'])}
    tools:
      allow: ["echo", "get-sum", "trigger-long-running-operation"]
  files:
    transport: stdio
    command: ${q([...node('server-filesystem/dist/index.js'), './workspace'])}
  memory:
    transport: stdio
    command: ${q(node('server-memory/dist/index.js'))}
    env:
      MEMORY_FILE_PATH: ${q(memoryFile(generation))}
  remote:
    transport: streamable-http
    url: ${q(remoteUrl)}
    headers:
      X-Client: host-author
    auth:
      type: bearer
      secret_ref: vault.remote_token
    tools:
      allow: ["echo"]
${slow}
primary:
  tools:
    "mcp": { enabled: true }
subagents:
  reader:
    tools:
      "mcp.files.read_*": { enabled: true }
      "mcp.files.list_directory": { enabled: true }
`,
  );
}
writeProject(1);
writeFileSync(path.join(project, 'local.toml'), '[mcp.files]\ntimeout_ms = 10000\n');
writeFileSync(path.join(project, 'config.toml'), '[mcp]\nresult_cap_bytes = 2048\n');

// What the host watches: every settled call, every secret asked for, every event.
const calls: ToolCallEvent[] = [];
const secretsAsked: { ref: string; server: string }[] = [];
const states: Record<string, string[]> = {};
const changes: ToolsChange[] = [];
const pids = new Set<number>();

const source: ToolSource = await openToolSource({
  project: kagedYaml,
  startupTimeoutMs: 6_000,
  restart: { maxFailures: 1 },
  resolveSecret: async (ref, { server }) => {
    secretsAsked.push({ ref, server });
    return ref === 'vault.remote_token' ? canary : undefined;
  },
  onCall: (event) => calls.push(event),
});
source.on('server-state', (status: ServerStatus) => {
  const seen = (states[status.key] ??= []);
  if (seen.at(-1) !== status.state) seen.push(status.state);
  if (status.pid !== undefined) pids.add(status.pid);
});
source.on('tools-changed', (change) => changes.push(change));

const statusOf = (key: string): ServerStatus | undefined => source.status().find((s) => s.key === key);
const primary = source.forAgent('primary');
const reader = source.forAgent('reader');

try {
  say('loaded', { format: source.config.format, servers: source.config.servers.map((s) => s.key), cap: source.config.resultCapBytes, states: Object.fromEntries(source.status().map((s) => [s.key, s.state])) });

  await step('deadline', async () => {
    const started = Date.now();
    const tools = await primary.tools({ deadlineMs: 4_000 });
    return {
      waitedMs: Date.now() - started,
      servers: [...new Set(tools.map((t) => t.mcp_server))].sort(),
      slow: statusOf('slow')?.state,
      names: tools.map((t) => t.name),
    };
  });

  await step('echo', async () => ({ text: textOf(await primary.call('mcp.everything.echo', { message: 'hi' })) }));

  await step('alias', async () => {
    // What is registered already: slow is still starting, and a second deadline would wait for it again.
    const sum = (await primary.tools({ discover: false })).find((t) => t.name === 'mcp.everything.get-sum');
    if (!sum) return { alias: undefined };
    const call = await primary.call(sum.alias, { a: 2, b: 3 });
    return { alias: sum.alias, name: call.name, text: textOf(call) };
  });

  await step('remote', async () => ({ text: textOf(await primary.call('mcp.remote.echo', { message: 'over http' })) }));

  await step('memory', async () => {
    await primary.call('mcp.memory.create_entities', { entities: [{ name: 'mcpwire', entityType: 'library', observations: ['generation 1'] }] });
    return { graph: textOf(await primary.call('mcp.memory.read_graph', {})), file: existsSync(memoryFile(1)) };
  });

  await step('reader', async () => ({ text: textOf(await reader.call('mcp.files.read_text_file', { path: path.join(workspace, 'hello.txt') })) }));

  await step('truncated', async () => {
    const call = await reader.call('mcp.files.read_text_file', { path: path.join(workspace, 'big.txt') });
    const text = textOf(call);
    return { truncated: call.truncated, sizeBytes: call.sizeBytes, textBytes: Buffer.byteLength(text), tail: text.slice(-40) };
  });

  await step('refused', async () => {
    const before = calls.length;
    const viaView = await failure(() => reader.call('mcp.everything.echo', { message: 'not for you' }));
    const viaOption = await failure(() => source.call('mcp.everything.echo', { message: 'not for you' }, { agent: 'reader' }));
    return { viaView, viaOption, onCallFired: calls.length - before };
  });

  await step('typo', async () => failure(() => primary.call('mcp.everything.ecko', { message: 'x' })));

  await step('timeout', async () => ({
    error: await failure(() => primary.call('mcp.everything.trigger-long-running-operation', { duration: 3, steps: 3 }, { timeoutMs: 300 })),
    afterwards: textOf(await primary.call('mcp.everything.echo', { message: 'still up' })),
  }));

  await step('counts', async () => {
    const byServer: Record<string, { onCall: Record<string, number>; status: Record<string, number> | undefined }> = {};
    for (const key of ['everything', 'files', 'memory', 'remote']) {
      const mine = calls.filter((c) => c.server === key);
      const s = statusOf(key);
      byServer[key] = {
        onCall: {
          calls: mine.length,
          errors: mine.filter((c) => c.error !== undefined).length,
          bytes: mine.reduce((n, c) => n + c.bytes, 0),
          truncated: mine.filter((c) => c.truncated).length,
          timeouts: mine.filter((c) => isMcpClientError(c.error) && c.error.code === 'timeout').length,
          ms: mine.reduce((n, c) => n + c.ms, 0),
        },
        status: s && { calls: s.calls, errors: s.errors, bytes: s.stats.bytes, truncated: s.stats.truncated, timeouts: s.stats.timeouts, totalMs: s.stats.totalMs, maxMs: s.stats.maxMs },
      };
    }
    return { byServer, eras: [...new Set(calls.map((c) => c.era))], protocolVersions: [...new Set(calls.map((c) => c.protocolVersion))] };
  });

  await step('disable', async () => {
    const mark = changes.length;
    await source.disable('memory');
    const listed = await primary.tools({ discover: false });
    return {
      state: statusOf('memory')?.state,
      registered: statusOf('memory')?.tools,
      listedMemory: listed.filter((t) => t.mcp_server === 'memory').length,
      removed: changes.slice(mark).filter((c) => c.server === 'memory').flatMap((c) => c.removed).length,
      call: await failure(() => primary.call('mcp.memory.read_graph', {})),
    };
  });

  await step('enable', async () => {
    const mark = changes.length;
    source.enable('memory');
    const stateAfterEnable = statusOf('memory')?.state;
    const graph = textOf(await primary.call('mcp.memory.read_graph', {}));
    return { stateAfterEnable, state: statusOf('memory')?.state, graph, added: changes.slice(mark).filter((c) => c.server === 'memory').flatMap((c) => c.added).length };
  });

  await step('restart', async () => {
    const before = statusOf('everything')?.pid;
    const mark = changes.length;
    await source.restart('everything');
    const after = statusOf('everything');
    return { before, after: after?.pid, state: after?.state, restarts: after?.restarts, text: textOf(await primary.call('mcp.everything.echo', { message: 'after restart' })), changes: changes.slice(mark).filter((c) => c.server === 'everything').map((c) => ({ added: c.added.length, removed: c.removed.length })) };
  });

  // The server that never answers: past the host's startupTimeoutMs it is killed, and with maxFailures 1 it is failed.
  await step('slow', async () => {
    const pid = statusOf('slow')?.pid;
    const sawFailed = statusOf('slow')?.state === 'failed' || (await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => (off(), resolve(false)), 15_000);
      const off = source.on('server-state', (s) => {
        if (s.key !== 'slow' || s.state !== 'failed') return;
        clearTimeout(timer);
        off();
        resolve(true);
      });
    }));
    const s = statusOf('slow');
    return { sawFailed, state: s?.state, lastErrorCode: s?.lastErrorCode, lastError: s?.lastError, pid, alive: pid !== undefined && isAlive(pid), tools: s?.tools };
  });

  await step('reload', async () => {
    const pidsBefore = Object.fromEntries(source.status().map((s) => [s.key, s.pid]));
    // The operator edits the project: memory writes elsewhere now, and the server that never answered is gone.
    writeProject(2);
    const next = await loadKagedProject({ project: kagedYaml, deferSecrets: true });
    const report = await source.reload(next);
    await primary.call('mcp.memory.create_entities', { entities: [{ name: 'reloaded', entityType: 'event', observations: ['generation 2'] }] });
    const pidsAfter = Object.fromEntries(source.status().map((s) => [s.key, s.pid]));
    return { report, pidsBefore, pidsAfter, keys: source.status().map((s) => s.key), newFile: existsSync(memoryFile(2)), remoteEcho: textOf(await primary.call('mcp.remote.echo', { message: 'after reload' })) };
  });

  await step('secrets', async () => ({ asked: secretsAsked, canaryInStatus: JSON.stringify(source.status()).includes(canary), canaryInCalls: calls.some((c) => String(c.error?.message).includes(canary)) }));

  await step('status', async () => ({
    servers: source.status().map((s) => ({ key: s.key, state: s.state, transport: s.transport, tools: s.tools, protocolVersion: s.protocolVersion, restarts: s.restarts, reason: s.reason })),
  }));
} finally {
  for (const s of source.status()) if (s.pid !== undefined) pids.add(s.pid);
  const mark = { changes: changes.length, states: Object.values(states).flat().length };
  await source.close();
  const closedStates = source.status().map((s) => s.state);
  // Anything the close itself announced, then anything after it.
  const duringClose = { changes: changes.length - mark.changes, states: Object.values(states).flat().length - mark.states };
  await new Promise((resolve) => setTimeout(resolve, 300));
  say('events', { states, changes: changes.map((c) => ({ server: c.server, added: c.added.length, removed: c.removed.length, changed: c.changed.length })) });
  say('close', { closedStates, duringClose, pids: [...pids], alive: [...pids].filter(isAlive) });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
