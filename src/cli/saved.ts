// The files `mcpwire add`, `remove`, `list` and `import` edit (#18 item 12):
// the project's ./mcpwire.json and the user's own, both `mcpServers` JSON as
// every client writes it (src/toolsource/config/mcp-servers-json.ts reads
// them). An edit changes one entry and keeps the rest of the file as it was
// (other keys, their order, the indent), and lands whole or not at all: a
// temporary file beside it, then a rename. The user's file is 0600 in a 0700
// folder: it is the one a person's credentials are closest to. No value of a
// secret is ever written: what looks like one must be a `${VAR}` reference
// (see secretProblem).

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isSecretHeader, isSecretVariable } from '../util/secret-names.js';
import { UsageError } from './usage.js';

export const PROJECT_FILE = 'mcpwire.json';

/**
 * The user's file: $MCPWIRE_USER_CONFIG (a file path: tests point it into a
 * temporary folder), else $XDG_CONFIG_HOME/mcpwire/mcpwire.json, else
 * ~/.config/mcpwire/mcpwire.json (on every platform: one place to look).
 */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPWIRE_USER_CONFIG) return path.resolve(env.MCPWIRE_USER_CONFIG);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(os.homedir(), '.config');
  return path.join(base, 'mcpwire', 'mcpwire.json');
}

/** One saved server as the file holds it: the client format's keys, values as written (`${VAR}` unresolved). */
export type SavedEntry = Record<string, unknown>;

export interface SavedFile {
  file: string;
  /** The whole document; `mcpServers` is an object in it (created when the file had none). */
  document: Record<string, unknown>;
  servers: Record<string, SavedEntry>;
  indent: string;
  existed: boolean;
}

/**
 * Reads `file` for editing. A missing file is an empty one. A file with
 * comments or trailing commas is refused: rewriting it would drop them; so
 * is one in another form, unless only `read` (its mcpServers are none).
 */
export function readSavedFile(file: string, purpose: 'edit' | 'read' = 'edit'): SavedFile {
  if (!existsSync(file)) {
    const document: Record<string, unknown> = { mcpServers: {} };
    return { file, document, servers: document.mcpServers as Record<string, SavedEntry>, indent: '  ', existed: false };
  }
  const text = readFileSync(file, 'utf8');
  let document: unknown;
  try {
    document = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not plain JSON (comments or trailing commas, or a syntax error; mcpwire config show --config ${file} says where): rewriting it would lose them, so edit it by hand`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new UsageError(`${file} is not a JSON object; expected {"mcpServers": {...}}`);
  const doc = document as Record<string, unknown>;
  // Another format's file (VS Code's "servers", a Kestrel or kaged config): an mcpServers key beside it would hide its servers.
  const other = ['servers', 'plugins', 'mcp'].find((key) => key in doc);
  if (doc.mcpServers === undefined && other !== undefined) {
    if (purpose === 'read') return { file, document: doc, servers: {}, indent: '  ', existed: true };
    throw new UsageError(`${file} keeps its servers under "${other}", not "mcpServers": mcpwire edits mcpServers files only; edit it by hand`);
  }
  doc.mcpServers ??= {};
  const servers = doc.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new UsageError(`${file}: "mcpServers" is not an object; expected {"mcpServers": {NAME: {...}}}`);
  const indent = /^\{\s*\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  return { file, document: doc, servers: servers as Record<string, SavedEntry>, indent, existed: true };
}

/**
 * Writes the document back, atomically: a temporary file in the same folder
 * (so the rename is one file system's), then renamed over the file. The
 * user's file (`user`) and its folder are the user's only (0600, 0700); a
 * project file keeps the mode it had.
 */
export function writeSavedFile(saved: SavedFile, user: boolean): void {
  const dir = path.dirname(saved.file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = user ? 0o600 : saved.existed ? statSync(saved.file).mode & 0o777 : 0o644;
  const temp = path.join(dir, `.${path.basename(saved.file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, `${JSON.stringify(saved.document, null, saved.indent)}\n`, { mode, flag: 'wx' });
    chmodSync(temp, mode); // the umask may have taken bits off
    renameSync(temp, saved.file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

const REFERENCE = /\$\{[^{}]+\}/;

/** Values that are credentials whatever they are called: known token prefixes, a literal bearer token, a long opaque string. */
function looksLikeToken(value: string): boolean {
  if (REFERENCE.test(value)) return false;
  if (/^(sk|pk|rk)[-_]|^gh[pousr]_|^github_pat_|^xox[abpors]-|^glpat-|^AKIA[0-9A-Z]{12}|^AIza[0-9A-Za-z_-]{20}|^eyJ[A-Za-z0-9_-]{8,}\./.test(value)) return true;
  if (/^(bearer|basic|token)\s+\S/i.test(value)) return true;
  // One unbroken word of 32+ characters, hex, or with upper and lower case letters and digits: a key, not a
  // setting, a path (a / is allowed only in base64, so paths and package names are left alone) or a version.
  if (!/^[A-Za-z0-9+/=_-]{32,}$/.test(value)) return false;
  return /^[0-9a-f]+$/i.test(value) || (/[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value) && !/^[@.]|\/[a-z]/.test(value));
}

/**
 * Why `value` may not be written as it is, or undefined. A value under a
 * credential's name (the one rule of util/secret-names) must hold a `${VAR}`
 * reference; so must one that looks like a token under any name. The
 * answer never contains the value.
 */
export function secretProblem(kind: 'header' | 'env' | 'arg' | 'url', name: string, value: string): string | undefined {
  if (value === '' || REFERENCE.test(value)) return undefined;
  const named = kind === 'header' ? isSecretHeader(name) : kind === 'env' ? isSecretVariable(name) : false;
  if (named || looksLikeToken(value)) {
    const how =
      kind === 'header'
        ? `write it as a reference, e.g. --header '${name}: Bearer \${TOKEN}' or --header-env ${name}=TOKEN (or --bearer-env TOKEN), and set TOKEN in the environment`
        : kind === 'env'
          ? `write -e ${name} to pass it through from the environment (saved as \${${name}}), or -e '${name}=\${OTHER_VAR}'`
          : `write it as a reference, e.g. '\${API_KEY}' in single quotes, and set API_KEY in the environment`;
    return `${kind === 'arg' ? 'an argument of the command' : kind === 'url' ? `the URL's ${name}` : `the value of ${kind === 'env' ? '-e' : '--header'} ${name}`} looks like a secret, and mcpwire never writes a secret's value into a file; ${how}`;
  }
  return undefined;
}

/** Flags whose next word (or `=value`) is a credential: `--api-key sk-…`, `--token=…`. */
const SECRET_FLAG = /^--?[A-Za-z0-9_-]*(key|token|secret|password|passwd|credential|auth)[A-Za-z0-9_-]*$/i;

/** `--api-key`, `--token`: a flag whose value is a credential. */
export function isSecretFlag(word: string): boolean {
  return word.startsWith('-') && !word.includes('=') && SECRET_FLAG.test(word);
}

/** The first problem with a command line to be saved: a credential given to a flag, or a token-shaped word. */
export function argsProblem(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const eq = word.indexOf('=');
    if (word.startsWith('-') && eq > 0 && SECRET_FLAG.test(word.slice(0, eq))) {
      const problem = secretProblem('env', 'KEY', word.slice(eq + 1));
      if (problem !== undefined) return problem.replace('the value of -e KEY', `the value of ${word.slice(0, eq)}`);
    }
    if (word.startsWith('-') && eq === -1 && SECRET_FLAG.test(word) && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) {
      if (secretProblem('env', 'KEY', argv[i + 1]!) !== undefined) return `the value given to ${word} looks like a secret, and mcpwire never writes a secret's value into a file; write it as a reference, e.g. ${word} '\${API_KEY}', and set API_KEY in the environment`;
    }
    const problem = secretProblem('arg', '', word);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A URL's part as text; a malformed %-sequence stays as written. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The problem with a URL to be saved: credentials in it (user:password@, or a secret-named query parameter with a literal value). */
export function urlProblem(url: URL): string | undefined {
  if (url.username !== '' || url.password !== '') return 'the URL carries credentials (user:password@); mcpwire never writes a secret into a file: send it as a header, e.g. --bearer-env TOKEN';
  // Some services put the key in the path (…/mcp/sk-ak-…/sse).
  if (url.pathname.split('/').some((segment) => secretProblem('arg', '', safeDecode(segment)) !== undefined)) {
    return 'a part of the URL\'s path looks like a secret, and mcpwire never writes a secret\'s value into a file; write that part as a reference (https://host/mcp/${API_KEY}/sse, in single quotes) and set the variable';
  }
  for (const [name, value] of url.searchParams) {
    const problem = secretProblem('header', name, value);
    if (problem !== undefined) return `the URL's query parameter ${name} looks like a secret, and mcpwire never writes a secret's value into a file; write it as a reference (?${name}=\${VAR}, in single quotes), or send it as a header`;
  }
  return undefined;
}
