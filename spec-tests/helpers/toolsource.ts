// Test support for the tool source: configs over the toolsource fixture
// server, a clock the test moves by hand, and waits on server states.

import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { SourceServer, ToolSourceConfig } from '../../src/toolsource/config/types.js';
import type { Clock, ServerState } from '../../src/toolsource/supervisor.js';
import { openToolSource, type ToolSource, type ToolSourceOptions } from '../../src/toolsource/tool-source.js';

export const TOOLSOURCE_FIXTURE = fileURLToPath(new URL('../fixtures/toolsource-server.mjs', import.meta.url));

/** A stdio server entry running the toolsource fixture with `env`. */
export function fixtureServer(key: string, env: Record<string, string> = {}, overrides: Partial<SourceServer> = {}): SourceServer {
  return {
    key,
    params: { transport: 'stdio', command: [process.execPath, TOOLSOURCE_FIXTURE], env, server: key },
    tools: { enabled: true, allow: undefined, deny: [] },
    disabled: false,
    timeoutMs: undefined,
    unsupported: undefined,
    ...overrides,
  };
}

export function configOf(servers: SourceServer[], overrides: Partial<ToolSourceConfig> = {}): ToolSourceConfig {
  return { file: 'test-config', format: 'kaged', projectRoot: process.cwd(), servers, resultCapBytes: 65_536, defaultTimeoutMs: 30_000, agents: {}, secrets: [], ...overrides };
}

/** Opens a tool source closed after the test. */
export async function openForTest(t: TestContext, options: ToolSourceOptions): Promise<ToolSource> {
  const source = await openToolSource(options);
  t.after(() => source.close());
  return source;
}

/** Resolves when `key` reaches `state` (now or later); rejects after `ms`. */
export function stateOf(source: ToolSource, key: string, state: ServerState, ms = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const now = source.status().find((s) => s.key === key);
    if (now?.state === state) return resolve();
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${key} did not reach ${state} within ${ms} ms; it is ${source.status().find((s) => s.key === key)?.state}`));
    }, ms);
    const off = source.on('server-state', (status) => {
      if (status.key !== key || status.state !== state) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** A clock that only moves when the test says so. */
export class ManualClock implements Clock {
  private time = 1_000_000;
  private timers: { at: number; callback: () => void; handle: number }[] = [];
  private nextHandle = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.push({ at: this.time + ms, callback, handle });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.handle !== handle);
  }

  /** Timers due within the next `ms`, from now. */
  pending(): number[] {
    return this.timers.map((timer) => timer.at - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward, running the timers that fall due, in order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = until;
  }
}
