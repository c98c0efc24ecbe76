// Where OAuth credentials live between runs (#19 item 2): a small interface
// a host may implement (a keychain, a vault), and the default, a JSON file
// under the user's config directory with mode 0600, written atomically (a
// temp file renamed over it), entries keyed by the resource and the issuer
// (2026-07-28: credentials are per issuer). Values are never logged.

import { readFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RegisteredClient } from './registration.js';
import type { TokenSet } from './tokens.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { withFileLock } from '../util/file-lock.js';

export interface StoredCredentials {
  issuer: string;
  client?: RegisteredClient;
  tokens?: TokenSet;
}

export interface CredentialStore {
  get(key: string): Promise<StoredCredentials | undefined> | StoredCredentials | undefined;
  set(key: string, value: StoredCredentials): Promise<void> | void;
  delete(key: string): Promise<void> | void;
  /** Every key held (for `mcpwire auth status` and `logout`); a store that cannot list may leave it out. */
  keys?(): Promise<string[]> | string[];
}

/** The resource a key was made for (credentialKey's first half). */
export function resourceOfKey(key: string): string {
  const space = key.lastIndexOf(' ');
  return space === -1 ? key : key.slice(0, space);
}

/** The store key: one entry per resource (the MCP server's URL) and issuer. */
export function credentialKey(resource: string, issuer: string): string {
  return `${resource} ${issuer}`;
}

export class MemoryCredentialStore implements CredentialStore {
  private readonly entries = new Map<string, StoredCredentials>();
  get(key: string): StoredCredentials | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: StoredCredentials): void {
    this.entries.set(key, structuredClone(value));
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
  keys(): string[] {
    return [...this.entries.keys()];
  }
}

/** $MCPWIRE_CREDENTIALS, else $XDG_CONFIG_HOME/mcpwire/credentials.json, else ~/.config/mcpwire/credentials.json. */
export function defaultCredentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPWIRE_CREDENTIALS) return env.MCPWIRE_CREDENTIALS;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'mcpwire', 'credentials.json');
}

export class FileCredentialStore implements CredentialStore {
  constructor(readonly file: string = defaultCredentialsFile()) {}

  get(key: string): StoredCredentials | undefined {
    return this.read()[key];
  }

  // Read, change and write under the file's lock: two processes refreshing tokens at once (each rotated refresh
  // token is stored before use) must not drop each other's entry, or the next run has to log in again.
  set(key: string, value: StoredCredentials): void {
    withFileLock(this.file, () => this.write({ ...this.read(), [key]: value }));
  }

  delete(key: string): void {
    withFileLock(this.file, () => {
      const all = this.read();
      if (!(key in all)) return;
      delete all[key];
      this.write(all);
    });
  }

  keys(): string[] {
    return Object.keys(this.read());
  }

  private read(): Record<string, StoredCredentials> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const value: unknown = JSON.parse(text);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, StoredCredentials>) : {};
    } catch {
      // A file that is not JSON is not silently replaced with an empty one below: its contents are kept aside.
      renameSync(this.file, `${this.file}.unreadable-${Date.now()}`);
      return {};
    }
  }

  /** Written to a temp file in the same folder with mode 0600, then renamed over: a reader never sees half a file. */
  private write(all: Record<string, StoredCredentials>): void {
    writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`);
  }
}
