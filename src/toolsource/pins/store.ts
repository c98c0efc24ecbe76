// Where approved tool definitions are kept (SPEC G2): a small synchronous
// interface a host may implement (its own database, a settings service), and
// the default, a JSON file written atomically with mode 0600. Synchronous on
// purpose: a listing is reviewed against the pins before any tool of it is
// registered, in the same turn, so no agent can list a tool in between.
//
// Which file: $MCPWIRE_PINS if set; else the project's `.mcpwire/pins.json`
// beside the config file if it exists (it can be committed, and CI checks
// it); else the user's `$XDG_CONFIG_HOME/mcpwire/pins/<hash of the config
// path>.json` (default ~/.config) if that exists; else the project's path,
// which `mcpwire pin` creates (`--user`: the user's). The project's wins.

import { existsSync, readFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { withFileLock, type FileLockOptions } from '../../util/file-lock.js';
import { fingerprintSet, sha256, type CoveredDefinition } from './canonical.js';

/** One approved tool: its fingerprints and the definition they were taken of (what a diff is against). */
export interface PinnedTool {
  fingerprint: string;
  body: string;
  definition: CoveredDefinition;
}

/** One server's approved tools, by the tool's own name (not the canonical `mcp.<key>.<tool>`). */
export interface PinnedServer {
  tools: Record<string, PinnedTool>;
  /** When it was last written (ISO 8601); informational. */
  pinnedAt?: string;
  /** fingerprintSet(tools): the whole set in one value; informational, recomputed on write. */
  set?: string;
}

/** What a pin store keeps: one record per server key. */
export interface PinStore {
  /** The server's record; undefined when nothing was ever pinned for it. */
  get(server: string): PinnedServer | undefined;
  /** Replaces the server's record. */
  set(server: string, pinned: PinnedServer): void;
  /**
   * Optional: replaces the server's record with `change(current)`, reading
   * the current one and writing the new one as one step no other writer can
   * come between (the file store holds a lock across processes). A store
   * without it is updated by get and set (updatePins).
   */
  update?(server: string, change: (current: PinnedServer | undefined) => PinnedServer): void;
  /** Where the pins live, for messages ("approve with mcpwire trust"); a file path for the file store. */
  readonly location: string;
}

export class MemoryPinStore implements PinStore {
  private readonly servers = new Map<string, PinnedServer>();
  readonly location = 'memory';
  get(server: string): PinnedServer | undefined {
    const found = this.servers.get(server);
    return found === undefined ? undefined : structuredClone(found);
  }
  set(server: string, pinned: PinnedServer): void {
    this.servers.set(server, structuredClone(pinned));
  }
  update(server: string, change: (current: PinnedServer | undefined) => PinnedServer): void {
    this.set(server, change(this.get(server)));
  }
}

/** Sets the server's record to `change(current)`: as one step where the store can (update), else by get and set. */
export function updatePins(store: PinStore, server: string, change: (current: PinnedServer | undefined) => PinnedServer): void {
  if (store.update) store.update(server, change);
  else store.set(server, change(store.get(server)));
}

interface PinFile {
  version: 1;
  servers: Record<string, PinnedServer>;
}

export const PIN_FILE_VERSION = 1;

/**
 * The default store: one JSON file. Read again only when its modification
 * time or size changed, so a host reviewing every listing reads the disk once
 * per change, and a `mcpwire trust` run elsewhere is seen at the next review.
 * Every write reads the file again and renames the new one over it while
 * holding `<file>.lock` (util/file-lock.ts): two `mcpwire trust` runs at the
 * same instant each keep their change (#21 item 2); without the lock the
 * second rename dropped the first one's.
 */
export class FilePinStore implements PinStore {
  private cache: { stamp: string; file: PinFile } | undefined;

  constructor(
    readonly file: string,
    private readonly lockOptions: FileLockOptions = {},
  ) {}

  get location(): string {
    return this.file;
  }

  get(server: string): PinnedServer | undefined {
    // Own records only: a server keyed "constructor" or "toString" must not find Object.prototype's members.
    const { servers } = this.read();
    return Object.hasOwn(servers, server) ? structuredClone(servers[server]) : undefined;
  }

  set(server: string, pinned: PinnedServer): void {
    this.update(server, () => pinned);
  }

  update(server: string, change: (current: PinnedServer | undefined) => PinnedServer): void {
    withFileLock(
      this.file,
      () => {
        // Read under the lock: what another process wrote a moment ago is kept.
        const all = this.read();
        const pinned = change(Object.hasOwn(all.servers, server) ? structuredClone(all.servers[server]) : undefined);
        const record: PinnedServer = { pinnedAt: new Date().toISOString(), set: fingerprintSet(pinned.tools), tools: sortedTools(pinned.tools) };
        const next: PinFile = { version: PIN_FILE_VERSION, servers: { ...all.servers, [server]: record } };
        next.servers = Object.fromEntries(Object.entries(next.servers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
        writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
        this.cache = undefined;
      },
      this.lockOptions,
    );
  }

  /** Every server key with a record. */
  servers(): string[] {
    return Object.keys(this.read().servers);
  }

  private read(): PinFile {
    let stamp: string;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
      stamp = sha256(text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: PIN_FILE_VERSION, servers: {} };
      throw new ConfigError(this.file, [], `the pin file cannot be read (${(error as Error).message}); fix its permissions or remove it`);
    }
    if (this.cache?.stamp === stamp) return this.cache.file;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Not replaced silently with an empty one (which would drop every approval): kept aside, and said.
      const aside = `${this.file}.unreadable-${Date.now()}`;
      renameSync(this.file, aside);
      throw new ConfigError(this.file, [], `the pin file is not JSON; it was moved to ${aside}. Run mcpwire pin to record the tools again`);
    }
    const file = checkPinFile(this.file, value);
    this.cache = { stamp, file };
    return file;
  }
}

function sortedTools(tools: Record<string, PinnedTool>): Record<string, PinnedTool> {
  return Object.fromEntries(Object.entries(tools).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's shape, checked: a hand-edited file that is wrong fails with where, never half-applies. */
function checkPinFile(file: string, value: unknown): PinFile {
  if (!isObject(value) || value.version !== PIN_FILE_VERSION || !isObject(value.servers)) {
    throw new ConfigError(file, [], `expected {"version": ${PIN_FILE_VERSION}, "servers": {...}} as mcpwire pin writes it`);
  }
  for (const [server, record] of Object.entries(value.servers)) {
    if (!isObject(record) || !isObject(record.tools)) throw new ConfigError(file, ['servers', server], 'expected {"tools": {...}}');
    for (const [tool, pinned] of Object.entries(record.tools)) {
      if (!isObject(pinned) || typeof pinned.fingerprint !== 'string' || typeof pinned.body !== 'string' || !isObject(pinned.definition) || pinned.definition.name !== tool) {
        throw new ConfigError(file, ['servers', server, 'tools', tool], 'expected {"fingerprint", "body", "definition"} with the definition\'s name equal to the key');
      }
    }
  }
  return value as unknown as PinFile;
}

/** The project's pin file for a config file: `.mcpwire/pins.json` in its folder. */
export function projectPinFile(configFile: string): string {
  return path.join(path.dirname(path.resolve(configFile)), '.mcpwire', 'pins.json');
}

/** The user's pin file for a config file: one per config, named by a hash of its absolute path. */
export function userPinFile(configFile: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'mcpwire', 'pins', `${sha256(path.resolve(configFile)).slice('sha256:'.length, 'sha256:'.length + 16)}.json`);
}

/**
 * The pin file for a config (see the file header for the order): $MCPWIRE_PINS,
 * the project's if it exists, the user's if it exists, else the project's.
 * `prefer: 'user'` picks the user's when neither exists (mcpwire pin --user).
 */
export function pinFileFor(configFile: string, options: { env?: NodeJS.ProcessEnv; prefer?: 'project' | 'user' } = {}): string {
  const env = options.env ?? process.env;
  if (env.MCPWIRE_PINS) return env.MCPWIRE_PINS;
  const project = projectPinFile(configFile);
  const user = userPinFile(configFile, env);
  if (options.prefer === 'user') return user;
  if (existsSync(project)) return project;
  if (existsSync(user)) return user;
  return project;
}
