// `mcpwire add`, `remove`, `list` and `import` (#18 item 12): servers saved
// in the project's ./mcpwire.json (or, with --user, the user's file), in the
// `mcpServers` form every client reads, so that `mcpwire call NAME.tool` and
// `mcpwire tools NAME` need no flags afterwards. Values are written as given
// except secrets, which are written only as `${VAR}` references: `add`
// refuses a literal one (saying how to write the reference, never quoting
// it), and `import` replaces each by a reference and names the variables to
// set.

import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isObject } from '../../jsonrpc/message.js';
import { parseProtocolEra } from '../../toolsource/config/era.js';
import { unknownServerError } from '../../toolsource/unknown-tool.js';
import { describeArgError } from '../arg-errors.js';
import { out, err } from '../process.js';
import { argsProblem, isSecretFlag, PROJECT_FILE, safeDecode, readSavedFile, secretProblem, urlProblem, userConfigPath, writeSavedFile, type SavedEntry } from '../saved.js';
import { headerParts, ordinal } from '../target.js';
import { commandHelp, HelpShown, UsageError } from '../usage.js';

const KEY = /^[A-Za-z0-9_-]+$/;

function parse(command: string, args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  const split = args.indexOf('--');
  const own = split === -1 ? args : args.slice(0, split);
  let parsed;
  try {
    parsed = parseArgs({ args: own, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeArgError(error, options as never, command) ?? `the options could not be read; see mcpwire ${command} --help`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(commandHelp(command));
    throw new HelpShown();
  }
  return { values: parsed.values as Record<string, string | boolean | string[] | undefined>, positionals: parsed.positionals, serverCommand: split === -1 ? undefined : args.slice(split + 1) };
}

function target(user: boolean): { file: string; user: boolean } {
  return { file: user ? userConfigPath() : path.resolve(PROJECT_FILE), user };
}

function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

const TLS_FLAGS = ['cert', 'key', 'ca', 'key-passphrase-env'] as const;

/**
 * A saved server's mcpwire `tls` key (#19 item 4, SPEC A3): the certificate,
 * key and CA files as absolute paths (a saved server is used from any
 * folder), and an encrypted key's passphrase only as a \${VAR} reference,
 * like every secret this command writes.
 */
function savedTls(values: Record<string, unknown>, url: URL): Record<string, string> | undefined {
  if (!TLS_FLAGS.some((flag) => values[flag] !== undefined)) return undefined;
  if (url.protocol !== 'https:') throw new UsageError('--cert, --key and --ca need an https: --url');
  const [cert, key, ca, passphraseEnv] = TLS_FLAGS.map((flag) => values[flag] as string | undefined);
  if ((cert === undefined) !== (key === undefined)) throw new UsageError(`a client certificate needs both --cert and --key; --${cert === undefined ? 'cert' : 'key'} is missing`);
  if (passphraseEnv !== undefined && key === undefined) throw new UsageError('--key-passphrase-env is for an encrypted --key: give --cert and --key too');
  if (passphraseEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(passphraseEnv)) throw new UsageError('--key-passphrase-env takes the name of an environment variable, e.g. --key-passphrase-env MCP_KEY_PASSPHRASE');
  for (const [flag, value] of [['cert', cert], ['key', key], ['ca', ca]] as const) if (value === '') throw new UsageError(`--${flag} needs the path of a PEM file`);
  return {
    ...(cert !== undefined && key !== undefined ? { cert: path.resolve(cert), key: path.resolve(key) } : {}),
    ...(ca !== undefined ? { ca: path.resolve(ca) } : {}),
    ...(passphraseEnv !== undefined ? { passphrase: `\${${passphraseEnv}}` } : {}),
  };
}

export function add(args: string[]): number {
  const { values, positionals, serverCommand } = parse('add', args, {
    user: { type: 'boolean' },
    force: { type: 'boolean' },
    url: { type: 'string' },
    transport: { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    'header-env': { type: 'string', multiple: true, default: [] },
    'bearer-env': { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
    ca: { type: 'string' },
    'key-passphrase-env': { type: 'string' },
    env: { type: 'string', short: 'e', multiple: true, default: [] },
    cwd: { type: 'string' },
    era: { type: 'string' },
  });
  const [name, ...extra] = positionals;
  if (name === undefined) throw new UsageError('add needs a name: mcpwire add NAME -- COMMAND ARGS… or mcpwire add NAME --url URL (see mcpwire add --help)');
  if (extra.length > 0) throw new UsageError(`add takes one name; the server's command goes after --: mcpwire add ${name} -- COMMAND ARGS…`);
  if (!KEY.test(name)) throw new UsageError('a saved server\'s name takes letters, digits, _ and - (it is the <key> of mcp.<key>.<tool>)');
  const url = values.url as string | undefined;
  const headers = values.header as string[];
  const headerEnv = values['header-env'] as string[];
  const bearer = values['bearer-env'] as string | undefined;
  const env = values.env as string[];
  if ((serverCommand === undefined) === (url === undefined)) throw new UsageError(`give the server either as a command after -- or with --url, e.g. mcpwire add ${name} -- npx -y @modelcontextprotocol/server-everything`);
  if (serverCommand !== undefined && serverCommand.length === 0) throw new UsageError('nothing after --: give the server\'s command');

  const entry: SavedEntry = {};
  if (url !== undefined) {
    if (env.length > 0 || values.cwd !== undefined) throw new UsageError('-e and --cwd apply to a stdio server (-- COMMAND), not to --url');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError('--url is not a URL; write it whole, e.g. https://example.com/mcp');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url takes an http: or https: URL, got ${parsed.protocol}`);
    const problem = urlProblem(parsed);
    if (problem !== undefined) throw new UsageError(problem);
    const transport = values.transport as string | undefined;
    if (transport !== undefined && transport !== 'http' && transport !== 'sse') throw new UsageError(`--transport takes http or sse, got "${transport}"`);
    if (transport !== undefined) entry.type = transport;
    // As typed: new URL() would percent-encode a ${VAR} in the path.
    entry.url = url;
    const written: Record<string, string> = {};
    headers.forEach((header, index) => {
      const [headerName, value] = headerParts(header, index);
      const why = secretProblem('header', headerName, value);
      if (why !== undefined) throw new UsageError(why);
      written[headerName] = value;
    });
    for (const pair of headerEnv) {
      const eq = pair.indexOf('=');
      const [headerName, variable] = [pair.slice(0, eq), pair.slice(eq + 1)];
      if (eq <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(headerName) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new UsageError('--header-env takes HEADER=VARIABLE, e.g. --header-env X-Api-Key=EXAMPLE_API_KEY');
      written[headerName] = `\${${variable}}`;
    }
    if (bearer !== undefined) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(bearer)) throw new UsageError('--bearer-env takes the name of an environment variable, e.g. --bearer-env GITHUB_TOKEN');
      written.Authorization = `Bearer \${${bearer}}`;
    }
    if (Object.keys(written).length > 0) entry.headers = written;
    const tls = savedTls(values, parsed);
    if (tls !== undefined) entry.tls = tls;
  } else {
    if (headers.length > 0 || headerEnv.length > 0 || bearer !== undefined || values.transport !== undefined) throw new UsageError('--header, --header-env, --bearer-env and --transport apply to --url, not to a stdio server');
    if (TLS_FLAGS.some((flag) => values[flag] !== undefined)) throw new UsageError('--cert, --key, --ca and --key-passphrase-env apply to --url (an HTTPS server), not to a stdio server');
    const problem = argsProblem(serverCommand!);
    if (problem !== undefined) throw new UsageError(problem);
    entry.command = serverCommand![0];
    if (serverCommand!.length > 1) entry.args = serverCommand!.slice(1);
    const vars: Record<string, string> = {};
    env.forEach((pair, index) => {
      const eq = pair.indexOf('=');
      // -e NAME: passed through from the environment the server starts in.
      const variable = eq === -1 ? pair : pair.slice(0, eq);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new UsageError(`the ${ordinal(index + 1)} -e is not NAME=value or NAME; write -e NAME=value, or -e NAME to pass it through`);
      const value = eq === -1 ? `\${${variable}}` : pair.slice(eq + 1);
      const why = secretProblem('env', variable, value);
      if (why !== undefined) throw new UsageError(why);
      vars[variable] = value;
    });
    if (Object.keys(vars).length > 0) entry.env = vars;
    if (values.cwd !== undefined) entry.cwd = values.cwd as string;
  }
  if (values.era !== undefined) {
    const era = parseProtocolEra(values.era);
    if (!era.ok) throw new UsageError(`--era: ${era.detail}`);
    entry.protocolEra = values.era;
  }
  const { file, user } = target(values.user === true);
  const saved = readSavedFile(file);
  const replaced = Object.hasOwn(saved.servers, name);
  if (replaced && values.force !== true) throw new UsageError(`${shown(file)} already has a server "${name}"; --force replaces it, mcpwire remove ${name}${user ? ' --user' : ''} removes it`);
  // A replaced entry keeps its place in the file.
  saved.servers[name] = entry;
  writeSavedFile(saved, user);
  out(`${replaced ? 'replaced' : 'added'} ${name} in ${shown(file)}; try: mcpwire tools ${name}\n`);
  return 0;
}

export function remove(args: string[]): number {
  const { values, positionals } = parse('remove', args, { user: { type: 'boolean' } });
  if (positionals.length !== 1) throw new UsageError('remove takes one name: mcpwire remove NAME [--user]');
  const name = positionals[0]!;
  const { file, user } = target(values.user === true);
  const saved = readSavedFile(file);
  if (!Object.hasOwn(saved.servers, name)) throw unknownServerError(name, Object.keys(saved.servers), `in ${shown(file)}; mcpwire list shows the saved servers`);
  delete saved.servers[name];
  writeSavedFile(saved, user);
  out(`removed ${name} from ${shown(file)}\n`);
  return 0;
}

interface Listed {
  name: string;
  scope: 'project' | 'user';
  file: string;
  transport: 'stdio' | 'http' | 'sse';
  command?: string[];
  url?: string;
  /** Names only: a value may be a literal someone wrote by hand. */
  env: string[];
  headers: string[];
  disabled: boolean;
  shadowed: boolean;
}

export function list(args: string[]): number {
  const { values, positionals } = parse('list', args, { user: { type: 'boolean' }, json: { type: 'boolean' } });
  if (positionals.length > 0) throw new UsageError('list takes no names; mcpwire tools NAME shows one server\'s tools');
  const files = values.user === true ? [target(true)] : [target(false), target(true)];
  const rows: Listed[] = [];
  for (const { file, user } of files) {
    const saved = readSavedFile(file, 'read');
    for (const [name, entry] of Object.entries(saved.servers)) {
      if (!isObject(entry)) continue;
      const url = typeof entry.url === 'string' ? entry.url : typeof entry.serverUrl === 'string' ? entry.serverUrl : undefined;
      const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter((w): w is string => typeof w === 'string');
      rows.push({
        name,
        scope: user ? 'user' : 'project',
        file,
        transport: url === undefined ? 'stdio' : entry.type === 'sse' ? 'sse' : 'http',
        ...(url === undefined ? { command: words.map((w) => (argsProblem([w]) === undefined ? w : '***')) } : { url: maskedUrl(url) }),
        env: isObject(entry.env) ? Object.keys(entry.env) : [],
        headers: isObject(entry.headers) ? Object.keys(entry.headers) : [],
        disabled: entry.disabled === true,
        // The folder's file wins a name both have (target.ts): the user's is not used here.
        shadowed: user && rows.some((r) => r.scope === 'project' && r.name === name),
      });
    }
  }
  if (values.json === true) {
    out(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    out(`no saved servers in ${files.map((f) => shown(f.file)).join(' or ')}; mcpwire add NAME -- COMMAND… saves one, mcpwire import --from claude copies a client's\n`);
    return 0;
  }
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const row of rows) {
    const what = row.url !== undefined ? `${row.transport} ${row.url}` : `stdio ${row.command!.join(' ')}`;
    const names = [row.env.length ? `env ${row.env.join(', ')}` : '', row.headers.length ? `headers ${row.headers.join(', ')}` : '', row.disabled ? 'disabled' : '', row.shadowed ? 'shadowed by the project\'s' : ''].filter(Boolean);
    out(`${row.name.padEnd(width)}  ${row.scope.padEnd(7)}  ${what}${names.length ? `  (${names.join('; ')})` : ''}\n`);
  }
  return 0;
}

/** A URL for a listing: a query value that is not a reference, and a path part shaped like a token, are masked. */
function maskedUrl(written: string): string {
  // A key in the path (written by hand: add refuses one) is masked too.
  const url = written
    .split(/(?=[?#])/)
    .map((part, i) => (i === 0 ? part.split('/').map((segment, j) => (j > 2 && secretProblem('arg', '', safeDecode(segment)) !== undefined ? '***' : segment)).join('/') : part))
    .join('');
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq === -1 || pair.slice(eq + 1).includes('${') ? pair : `${pair.slice(0, eq)}=***`;
  });
  return `${url.slice(0, q)}?${query.join('&')}`;
}

const IMPORT_FROM = ['claude', 'claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf', 'codex'] as const;

/** The keys of a `mcpServers` entry mcpwire's reader understands (src/toolsource/config/mcp-servers-json.ts); a client's own keys are left behind. */
const JSON_KEYS = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'disabled', 'disabledTools', 'protocolEra'];

export async function importServers(args: string[]): Promise<number> {
  const { values, positionals } = parse('import', args, { from: { type: 'string' }, user: { type: 'boolean' }, force: { type: 'boolean' }, config: { type: 'string' } });
  const from = values.from as string | undefined;
  if (from === undefined || !(IMPORT_FROM as readonly string[]).includes(from)) throw new UsageError(`import needs --from CLIENT, one of ${IMPORT_FROM.join(', ')} (mcpwire config sources shows which files exist)`);
  const { resolveClientConfig } = await import('../../toolsource/config/client-locations.js');
  // --config FILE: that file of the client's format instead of where the client keeps it.
  const source = (values.config as string | undefined) ?? resolveClientConfig(from as (typeof IMPORT_FROM)[number]);
  const entries = source.endsWith('.toml') ? await codexEntries(source) : await jsonEntries(source);
  const wanted = positionals;
  for (const name of wanted) if (!entries.has(name)) throw unknownServerError(name, [...entries.keys()], `in ${source}`);
  const { file, user } = target(values.user === true);
  const saved = readSavedFile(file);
  const variables = new Set<string>();
  let count = 0;
  for (const [name, raw] of entries) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    if (!KEY.test(name)) {
      err(`skipped "${name.replace(/[^\x20-\x7e]/g, '?').slice(0, 60)}": a saved server's name takes letters, digits, _ and -\n`);
      continue;
    }
    if (Object.hasOwn(saved.servers, name) && values.force !== true) {
      err(`skipped ${name}: ${shown(file)} already has it (--force replaces it)\n`);
      continue;
    }
    const converted = referencesForSecrets(name, raw);
    if (typeof converted === 'string') {
      err(`skipped ${name}: ${converted}\n`);
      continue;
    }
    for (const v of converted.variables) variables.add(v);
    saved.servers[name] = converted.entry;
    out(`imported ${name}\n`);
    count++;
  }
  if (count > 0) writeSavedFile(saved, user);
  out(`${count} server${count === 1 ? '' : 's'} from ${source} into ${shown(file)}\n`);
  if (variables.size > 0) out(`secrets were not copied; set these variables where mcpwire runs: ${[...variables].join(', ')}\n`);
  return 0;
}

async function jsonEntries(file: string): Promise<Map<string, SavedEntry>> {
  const { findServerBlocks, readJsoncFile } = await import('../../toolsource/config/mcp-servers-json.js');
  const found = findServerBlocks(readJsoncFile(file).value, process.cwd());
  if (!found) throw new UsageError(`${file} has no servers ({"mcpServers": …} or {"servers": …})`);
  const entries = new Map<string, SavedEntry>();
  for (const block of found.blocks) {
    if (!isObject(block.servers)) continue;
    for (const [name, entry] of Object.entries(block.servers)) {
      if (!isObject(entry)) continue;
      const kept: SavedEntry = {};
      // Windsurf's serverUrl is url everywhere else.
      const withUrl = entry.serverUrl !== undefined && entry.url === undefined ? { ...entry, url: entry.serverUrl } : entry;
      for (const key of JSON_KEYS) if (withUrl[key] !== undefined) kept[key] = withUrl[key];
      // VS Code's envFile is loaded by the editor: without it the server would start short of its variables, silently.
      if (entry.envFile !== undefined) err(`note: ${name}: "envFile" is not copied (mcpwire does not read it); put its variables in "env", as \${VAR} references\n`);
      entries.delete(name);
      entries.set(name, kept);
    }
  }
  return entries;
}

/** Codex's [mcp_servers.NAME] tables as `mcpServers` entries; its *_env_var keys become `${VAR}` references. */
async function codexEntries(file: string): Promise<Map<string, SavedEntry>> {
  const { readTomlFile } = await import('../../toolsource/config/toml-source.js');
  const servers = readTomlFile(file).value.mcp_servers;
  if (!isObject(servers)) throw new UsageError(`${file} has no [mcp_servers.NAME] tables`);
  const entries = new Map<string, SavedEntry>();
  for (const [name, e] of Object.entries(servers)) {
    if (!isObject(e)) continue;
    const entry: SavedEntry = {};
    if (e.url !== undefined) {
      entry.type = 'http';
      entry.url = e.url;
      const headers: Record<string, unknown> = isObject(e.http_headers) ? { ...e.http_headers } : {};
      if (isObject(e.env_http_headers)) for (const [h, v] of Object.entries(e.env_http_headers)) headers[h] = `\${${String(v)}}`;
      if (typeof e.bearer_token_env_var === 'string') headers.Authorization = `Bearer \${${e.bearer_token_env_var}}`;
      if (Object.keys(headers).length > 0) entry.headers = headers;
    } else {
      for (const key of ['command', 'args', 'env', 'cwd']) if (e[key] !== undefined) entry[key] = e[key];
    }
    if (e.enabled === false) entry.disabled = true;
    if (e.disabled_tools !== undefined) entry.disabledTools = e.disabled_tools;
    if (e.protocol_era !== undefined) entry.protocolEra = e.protocol_era;
    const dropped = ['enabled_tools', 'startup_timeout_sec', 'startup_timeout_ms', 'tool_timeout_sec'].filter((key) => e[key] !== undefined);
    if (dropped.length > 0) err(`note: ${name}: ${dropped.join(', ')} not copied (an mcpServers file has no such keys)\n`);
    entries.set(name, entry);
  }
  return entries;
}

/** A variable's name from words: `github` and `Authorization` → GITHUB_AUTHORIZATION. */
function variableName(...words: string[]): string {
  const name = words.join('_').toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[0-9]/.test(name) ? `_${name}` : name || 'SECRET';
}

/**
 * The entry with every literal secret replaced by a `${VAR}` reference (and
 * the variables named), or why it cannot be imported. A header's scheme is
 * kept: `Bearer sk-…` becomes `Bearer ${SERVER_TOKEN}`.
 */
function referencesForSecrets(name: string, raw: SavedEntry): { entry: SavedEntry; variables: string[] } | string {
  const entry: SavedEntry = { ...raw };
  const variables: string[] = [];
  const reference = (variable: string) => {
    variables.push(variable);
    return `\${${variable}}`;
  };
  if (isObject(raw.env)) {
    entry.env = Object.fromEntries(Object.entries(raw.env).map(([k, v]) => [k, typeof v === 'string' && secretProblem('env', k, v) !== undefined ? reference(k) : v]));
  }
  if (isObject(raw.headers)) {
    entry.headers = Object.fromEntries(
      Object.entries(raw.headers).map(([k, v]) => {
        if (typeof v !== 'string' || secretProblem('header', k, v) === undefined) return [k, v];
        const scheme = /^(Bearer|Basic|Token)\s+/i.exec(v)?.[0];
        return [k, `${scheme ?? ''}${reference(variableName(name, scheme !== undefined && /^authorization$/i.test(k) ? 'TOKEN' : k))}`];
      }),
    );
  }
  if (Array.isArray(raw.args)) {
    const args = [...(raw.args as unknown[])];
    for (let i = 0; i < args.length; i++) {
      const word = args[i];
      if (typeof word !== 'string') continue;
      const eq = word.indexOf('=');
      if (word.startsWith('-') && eq > 0 && argsProblem([word]) !== undefined) args[i] = `${word.slice(0, eq + 1)}${reference(variableName(name, word.slice(0, eq)))}`;
      else {
        const before = typeof args[i - 1] === 'string' ? (args[i - 1] as string) : '';
        // The value of `--api-key VALUE`, whatever it looks like; or any word shaped like a token.
        const flagged = isSecretFlag(before) && !word.startsWith('-') && secretProblem('env', 'KEY', word) !== undefined;
        if (flagged || argsProblem([word]) !== undefined) args[i] = reference(variableName(name, flagged ? before : 'SECRET'));
      }
    }
    entry.args = args;
  }
  if (typeof raw.url === 'string' && URL.canParse(raw.url)) {
    const url = new URL(raw.url);
    if (url.username !== '' || url.password !== '') return 'its URL carries credentials (user:password@); add it with mcpwire add and a header instead';
    if (urlProblem(url) !== undefined) {
      // A key in the path (…/mcp/sk-ak-…/sse) first, then in the query.
      const start = raw.url.indexOf('/', url.protocol.length + 2);
      const end = raw.url.search(/[?#]/);
      if (start !== -1) {
        const stop = end === -1 ? raw.url.length : end;
        const segments = raw.url.slice(start, stop).split('/').map((segment) => (secretProblem('arg', '', safeDecode(segment)) === undefined ? segment : reference(variableName(name, 'KEY'))));
        entry.url = `${raw.url.slice(0, start)}${segments.join('/')}${raw.url.slice(stop)}`;
      }
    }
    if (typeof entry.url === 'string' && urlProblem(new URL((entry.url as string).replace(/\$\{[^{}]+\}/g, 'x'))) !== undefined) {
      const current = entry.url as string;
      const q = current.indexOf('?');
      const query = current
        .slice(q + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          if (eq === -1) return pair;
          const [k, v] = [pair.slice(0, eq), safeDecode(pair.slice(eq + 1))];
          return secretProblem('header', k, v) === undefined ? pair : `${k}=${reference(variableName(name, k))}`;
        });
      entry.url = `${current.slice(0, q)}?${query.join('&')}`;
    }
  }
  // What is left unresolvable (a VS Code ${input:…}) is the reader's to report when the server is used.
  return { entry, variables: [...new Set(variables)] };
}
