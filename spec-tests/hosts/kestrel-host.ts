// A Kestrel host as a host author writes one from mcpwire's README and its
// .d.ts alone (#16, Tests): the plugin's config object with two reference
// servers, the agent's tools, a real call, a server killed in the middle of
// a call, the events, lifecycle control and close. It prints one JSON line
// per step, which spec-tests/H.host-authors.test.ts asserts on; it imports
// only 'mcpwire'.
//
// Environment: HOST_WORK (an empty folder), HOST_SERVERS (the folder holding
// @modelcontextprotocol/server-*).

import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isMcpClientError, openKestrelMcp, type KestrelLogger, type KestrelTool, type KestrelToolsChange, type ServerStatus } from 'mcpwire';

const work = realpathSync(need('HOST_WORK'));
const servers = need('HOST_SERVERS');

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

function say(step: string, data: Record<string, unknown>): void {
  console.log(JSON.stringify({ step, ...data }));
}

function describe(error: unknown): Record<string, unknown> {
  if (isMcpClientError(error)) return { name: error.name, code: error.code, server: error.server, message: error.message };
  return { name: error instanceof Error ? error.name : typeof error, message: String(error instanceof Error ? error.message : error) };
}

async function step(name: string, run: () => Promise<Record<string, unknown>>): Promise<void> {
  try {
    say(name, await run());
  } catch (error) {
    say(name, { failed: describe(error) });
  }
}

/** Resolves with the first event `accept` takes, or undefined after `ms`. */
function next<T>(subscribe: (listener: (event: T) => void) => () => void, accept: (event: T) => boolean, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(undefined);
    }, ms);
    const off = subscribe((event) => {
      if (!accept(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

const logged: { level: string; message: string; data?: Record<string, unknown> }[] = [];
const logger: KestrelLogger = {
  info: (message, data) => logged.push({ level: 'info', message, ...(data ? { data } : {}) }),
  warn: (message, data) => logged.push({ level: 'warn', message, ...(data ? { data } : {}) }),
  error: (message, data) => logged.push({ level: 'error', message, ...(data ? { data } : {}) }),
};
const node = (script: string): string => path.join(servers, script);

const mcp = await openKestrelMcp({
  // What Kestrel's plugin host hands the plugin: plugins.config['@kestrel/plugin-mcp'].
  config: {
    plugin: {
      servers: {
        everything: { command: process.execPath, args: [node('server-everything/dist/index.js'), 'stdio'], approval: 'auto' },
        memory: { command: process.execPath, args: [node('server-memory/dist/index.js')], env: { MEMORY_FILE_PATH: path.join(work, 'kestrel-memory.jsonl') }, timeoutMs: 20_000 },
      },
    },
    root: work,
  },
  logger,
});

const states: Record<string, string[]> = {};
const changes: KestrelToolsChange[] = [];
const pids = new Set<number>();
/** Events once close() was called: while it ran, and after it resolved. */
const closeEvents = { during: 0, after: 0 };
let phase: 'open' | 'during' | 'after' = 'open';
const countClose = (): void => {
  if (phase !== 'open') closeEvents[phase]++;
};
mcp.on('server-state', (status: ServerStatus) => {
  countClose();
  const seen = (states[status.key] ??= []);
  if (seen.at(-1) !== status.state) seen.push(status.state);
  if (status.pid !== undefined) pids.add(status.pid);
});
mcp.on('tools-changed', (change) => {
  countClose();
  changes.push(change);
});

const statusOf = (key: string): ServerStatus | undefined => mcp.status().find((s) => s.key === key);
const tool = (name: string): KestrelTool | undefined => mcp.agentTools().find((t) => t.name === name);
const serverOf = (names: string[], server: string) => names.filter((n) => n.startsWith(`mcp__${server}__`)).length;
for (const s of mcp.status()) if (s.pid !== undefined) pids.add(s.pid);

try {
  await step('tools', async () => {
    const tools = mcp.agentTools();
    const echo = tools.find((t) => t.name === 'mcp__everything__echo');
    return {
      servers: mcp.servers().sort(),
      names: tools.map((t) => t.name),
      echo: echo && { description: echo.description, category: echo.category, permission: echo.permission, server: echo.server, tool: echo.tool, hasSchema: typeof echo.parameters === 'object' },
      memoryPermission: tools.find((t) => t.server === 'memory')?.permission,
      service: mcp.tools().filter((t) => t.server === 'everything').length,
      connected: logged.filter((l) => l.message === 'mcp server connected').map((l) => l.data?.server).sort(),
    };
  });

  await step('execute', async () => {
    const echo = tool('mcp__everything__echo');
    if (!echo) return { missing: 'mcp__everything__echo' };
    const result = await echo.execute({ message: 'hi from kestrel' });
    const service = await mcp.call('memory', 'read_graph', {});
    return { content: result.content, isError: result.isError, serviceIsError: service.isError === true };
  });

  // The server dies in the middle of a call: the model gets a result saying so; the host, the typed error.
  const echo = tool('mcp__everything__echo');
  await step('killed', async () => {
    const long = tool('mcp__everything__trigger-long-running-operation');
    const pid = statusOf('everything')?.pid;
    if (!long || pid === undefined) return { missing: { long: !long, pid } };
    const mark = changes.length;
    const ready = next<ServerStatus>((l) => mcp.on('server-state', l), (s) => s.key === 'everything' && s.state === 'ready', 20_000);
    const pending = long.execute({ duration: 10, steps: 10 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(pid, 'SIGKILL');
    const result = await pending;
    const back = await ready;
    const again = echo ? await echo.execute({ message: 'back again' }) : undefined;
    return {
      isError: result.isError,
      content: result.content,
      error: result.error && { name: result.error.name, code: result.error.code },
      back: back?.state,
      newPid: statusOf('everything')?.pid !== pid,
      changes: changes.slice(mark).map((c) => ({ added: serverOf(c.added, 'everything'), removed: serverOf(c.removed, 'everything') })),
      disconnected: logged.some((l) => l.message === 'mcp server disconnected' && l.data?.server === 'everything'),
      keptToolAgain: again && { isError: again.isError, content: again.content },
    };
  });

  await step('disable', async () => {
    const kept = tool('mcp__memory__read_graph');
    const mark = changes.length;
    await mcp.disable('memory');
    const result = kept ? await kept.execute({}) : undefined;
    return {
      state: statusOf('memory')?.state,
      offered: mcp.agentTools().filter((t) => t.server === 'memory').length,
      servers: mcp.servers().sort(),
      removed: changes.slice(mark).reduce((n, c) => n + serverOf(c.removed, 'memory'), 0),
      keptTool: result && { isError: result.isError, content: result.content, error: result.error?.name },
    };
  });

  await step('enable', async () => {
    const mark = changes.length;
    await mcp.enable('memory');
    const readGraph = tool('mcp__memory__read_graph');
    const result = readGraph ? await readGraph.execute({}) : undefined;
    return { state: statusOf('memory')?.state, offered: mcp.agentTools().filter((t) => t.server === 'memory').length, added: changes.slice(mark).reduce((n, c) => n + serverOf(c.added, 'memory'), 0), isError: result?.isError };
  });

  await step('restart', async () => {
    const before = statusOf('everything')?.pid;
    await mcp.restart('everything');
    const after = statusOf('everything');
    const result = await tool('mcp__everything__echo')?.execute({ message: 'after restart' });
    return { newPid: after?.pid !== undefined && after.pid !== before, state: after?.state, content: result?.content };
  });

  await step('status', async () => ({ servers: mcp.status().map((s) => ({ key: s.key, state: s.state, transport: s.transport, restarts: s.restarts, calls: s.calls, errors: s.errors, tools: s.tools })) }));
} finally {
  for (const s of mcp.status()) if (s.pid !== undefined) pids.add(s.pid);
  phase = 'during';
  await mcp.close();
  phase = 'after';
  await new Promise((resolve) => setTimeout(resolve, 300));
  say('events', { states, changes: changes.map((c) => ({ added: c.added.length, removed: c.removed.length })), logged: logged.map((l) => `${l.level} ${l.message} ${String(l.data?.server ?? '')}`) });
  say('close', { closeEvents, pids: [...pids], alive: [...pids].filter(isAlive), states: mcp.status().map((s) => s.state) });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
