// `${…}` in the string values of client MCP configs (C5): `${VAR}` and
// `${VAR:-default}` (Claude Code), `${env:VAR}` (VS Code, Cursor, Windsurf),
// and the editor variables `${workspaceFolder}`, `${workspaceFolderBasename}`,
// `${userHome}`, `${pathSeparator}` / `${/}`. Reports what it cannot resolve
// instead of throwing, so the caller can name the file, server and key.

import path from 'node:path';

export interface InterpolationContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The project folder the config belongs to. */
  workspaceFolder: string;
  userHome: string;
}

export type Interpolation =
  /** `fromEnv`: the values taken from the environment, which are secrets as far as anything shown is concerned. */
  | { ok: true; value: string; fromEnv: string[] }
  /** `${VAR}` with VAR unset or empty and no default: the config would otherwise send or pass an empty value. */
  | { ok: false; why: 'unset'; variable: string }
  /** `${input:ID}`: VS Code prompts for it when the server starts; a command line has nobody to ask. */
  | { ok: false; why: 'input'; variable: string }
  /** `${command:…}`, `${config:…}` and other editor variables only the editor can resolve. */
  | { ok: false; why: 'editor'; variable: string };

const PLACEHOLDER = /\$\{([^{}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function interpolate(raw: string, context: InterpolationContext): Interpolation {
  const fromEnv: string[] = [];
  let failure: Exclude<Interpolation, { ok: true }> | undefined;
  const value = raw.replace(PLACEHOLDER, (whole, expression: string) => {
    if (failure) return whole;
    const resolved = resolve(expression, context);
    if (typeof resolved === 'string') return resolved;
    if ('why' in resolved) {
      failure = resolved;
      return whole;
    }
    if (resolved.env) fromEnv.push(resolved.env);
    return resolved.env ?? resolved.literal;
  });
  return failure ?? { ok: true, value, fromEnv };
}

type Resolved = string | { env: string; literal?: undefined } | { env?: undefined; literal: string } | Exclude<Interpolation, { ok: true }>;

function resolve(expression: string, context: InterpolationContext): Resolved {
  switch (expression) {
    case 'workspaceFolder':
      return context.workspaceFolder;
    case 'workspaceFolderBasename':
      return path.basename(context.workspaceFolder);
    case 'userHome':
      return context.userHome;
    case 'pathSeparator':
    case '/':
      return path.sep;
  }
  if (expression.startsWith('input:')) return { ok: false, why: 'input', variable: expression.slice('input:'.length) };
  const variable = expression.startsWith('env:') ? expression.slice('env:'.length) : expression;
  // Shell semantics for ":-": the default applies when the variable is unset or empty.
  const split = variable.indexOf(':-');
  const name = split < 0 ? variable : variable.slice(0, split);
  if (!NAME.test(name)) return { ok: false, why: 'editor', variable: expression };
  const found = context.env[name];
  if (found !== undefined && found !== '') return { env: found };
  if (split >= 0) return { literal: variable.slice(split + 2) };
  return { ok: false, why: 'unset', variable: name };
}

/** What a failed interpolation means, for a ConfigError or an `unsupported` reason. Never includes a value. */
export function describeInterpolation(failure: Exclude<Interpolation, { ok: true }>): string {
  switch (failure.why) {
    case 'unset':
      return `the environment variable ${failure.variable} is not set (or empty) and "\${${failure.variable}}" has no default; set it, or write "\${${failure.variable}:-default}"`;
    case 'input':
      return `"\${input:${failure.variable}}" is a VS Code input, which the editor prompts for; mcpwire cannot ask for it: put the value in an environment variable and write "\${env:NAME}" instead`;
    case 'editor':
      return `"\${${failure.variable}}" is an editor variable mcpwire cannot resolve (supported: \${VAR}, \${VAR:-default}, \${env:VAR}, \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${pathSeparator})`;
  }
}
