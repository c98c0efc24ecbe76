// The normalized view of a loaded config for `mcpwire config show` (C5),
// with every secret masked as `***` (T4: "Secret values never appear in any
// log, error or diagnostic"): auth values, values that came from the
// environment, and the values of credential-named headers and variables.

import type { ServerParams } from '../../client/connect.js';
import { isSecretHeader, isSecretVariable } from '../../util/secret-names.js';
import { formatProtocolEra } from './era.js';
import type { SourceServer, ToolSourceConfig } from './types.js';

export const MASK = '***';

export interface ShownServer {
  key: string;
  transport: ServerParams['transport'];
  command?: string | readonly string[];
  args?: readonly string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  auth?: { type: string; headerName?: string; value?: string };
  tools: SourceServer['tools'];
  disabled: boolean;
  timeoutMs: number | undefined;
  startupTimeoutMs?: number;
  /** The era the config asks for (#17), as written: auto, legacy, modern or a version; absent: the client's default. */
  protocolEra?: string;
  unsupported: string | undefined;
}

export interface ShownConfig {
  file: string;
  format: ToolSourceConfig['format'];
  projectRoot: string;
  resultCapBytes: number;
  defaultTimeoutMs: number;
  servers: ShownServer[];
  agents: ToolSourceConfig['agents'];
}

export function showConfig(config: ToolSourceConfig): ShownConfig {
  // Longest first, so a secret that contains another is masked whole.
  const secrets = [...new Set(config.secrets)].filter((s) => s !== '').sort((a, b) => b.length - a.length);
  const mask = (value: string): string => {
    if (secrets.includes(value)) return MASK;
    let out = value;
    // Short values (a port, "1") would mask unrelated text; redact() draws the same line at 4 characters.
    for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(MASK);
    return out;
  };
  const maskRecord = (record: Readonly<Record<string, string>> | undefined, secretName: (name: string) => boolean) =>
    record && Object.fromEntries(Object.entries(record).map(([name, value]) => [name, secretName(name) ? MASK : mask(value)]));

  const servers = config.servers.map((server): ShownServer => {
    const p = server.params as ServerParams & Record<string, unknown>;
    const shown: ShownServer = { key: server.key, transport: p.transport, tools: server.tools, disabled: server.disabled, timeoutMs: server.timeoutMs, unsupported: server.unsupported };
    if (server.startupTimeoutMs !== undefined) shown.startupTimeoutMs = server.startupTimeoutMs;
    if (p.protocolEra !== undefined) shown.protocolEra = formatProtocolEra(p.protocolEra);
    if (p.transport === 'stdio') {
      shown.command = typeof p.command === 'string' ? mask(p.command) : p.command.map(mask);
      if (p.args) shown.args = p.args.map(mask);
      if (p.cwd !== undefined) shown.cwd = p.cwd;
      const env = maskRecord(p.env, isSecretVariable);
      if (env) shown.env = env;
    } else {
      shown.url = mask(p.url.toString());
      const headers = maskRecord(p.headers, isSecretHeader);
      if (headers) shown.headers = headers;
      if (p.auth) shown.auth = p.auth.type === 'none' ? { type: 'none' } : { type: p.auth.type, ...(p.auth.type === 'header' && p.auth.headerName ? { headerName: p.auth.headerName } : {}), value: MASK };
    }
    return shown;
  });
  return {
    file: config.file,
    format: config.format,
    projectRoot: config.projectRoot,
    resultCapBytes: config.resultCapBytes,
    defaultTimeoutMs: config.defaultTimeoutMs,
    servers,
    agents: config.agents,
  };
}

/** The same view for a person: one block per server. */
export function formatShownConfig(shown: ShownConfig): string {
  const lines = [`${shown.file} (${shown.format}), ${shown.servers.length} server${shown.servers.length === 1 ? '' : 's'}`];
  for (const s of shown.servers) {
    const state = s.unsupported ? ` (unsupported: ${s.unsupported})` : s.disabled ? ' (disabled)' : '';
    lines.push(`${s.key}  ${s.transport}${state}`);
    if (s.command !== undefined) lines.push(`  command: ${[...(typeof s.command === 'string' ? [s.command] : s.command), ...(s.args ?? [])].map(quote).join(' ')}`);
    if (s.cwd !== undefined) lines.push(`  cwd: ${s.cwd}`);
    if (s.url !== undefined) lines.push(`  url: ${s.url}`);
    for (const [field, record] of [['env', s.env], ['headers', s.headers]] as const) {
      if (record && Object.keys(record).length > 0) lines.push(`  ${field}: ${Object.entries(record).map(([k, v]) => `${k}=${v}`).join(', ')}`);
    }
    if (s.auth) lines.push(`  auth: ${s.auth.type}${s.auth.headerName ? ` ${s.auth.headerName}` : ''}${s.auth.value ? ` ${s.auth.value}` : ''}`);
    const { enabled, allow, deny } = s.tools;
    if (!enabled) lines.push('  tools: none (enabled: false)');
    else if (allow !== undefined || deny.length > 0) lines.push(`  tools: allow ${allow ? allow.join(', ') : 'all'}${deny.length ? `; deny ${deny.join(', ')}` : ''}`);
    if (s.timeoutMs !== undefined) lines.push(`  timeout: ${s.timeoutMs} ms per call`);
    if (s.startupTimeoutMs !== undefined) lines.push(`  startup timeout: ${s.startupTimeoutMs} ms`);
    if (s.protocolEra !== undefined) lines.push(`  protocol era: ${s.protocolEra}`);
  }
  return `${lines.join('\n')}\n`;
}

function quote(word: string): string {
  return /^[\w@%+=:,./*-]+$/.test(word) ? word : JSON.stringify(word);
}
