// The client that the official MCP conformance suite runs (X3):
// `mcpwire conformance-client <url>`. The suite starts a mock server, runs
// this command with the server's URL as the last argument and the scenario's
// name in MCP_CONFORMANCE_SCENARIO, and judges what reached its server. We do
// what the scenario needs with McpClient over Streamable HTTP and nothing
// else. stdout gets one result line; errors and diagnostics go to stderr.
// Exit status: 0 the scenario's steps succeeded, 1 they did not.

import { McpClient } from '../client/client.js';
import type { RequestHandler } from '../client/connection.js';
import type { JsonObject, Tool } from '../client/results.js';
import { isObject } from '../jsonrpc/message.js';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import { describeDiagnostic, errorText, firstLine } from '../util/text.js';

export const SCENARIO_ENV = 'MCP_CONFORMANCE_SCENARIO';

/**
 * Each request (and the handshake) gets less than the suite's 30 s per
 * scenario, so a hang ends with our own error on stderr instead of the
 * suite's kill.
 */
const REQUEST_TIMEOUT_MS = 20_000;

/** What the client does for a scenario. */
export interface ScenarioPlan {
  /** After initialize: list the tools. */
  listTools: boolean;
  /** After listing: call every listed tool with arguments made from its inputSchema. */
  callTools: boolean;
  /** Install an elicitation handler (which advertises the capability) that accepts with the schema's defaults. */
  elicitation: boolean;
}

/**
 * The scenarios we know, and what each expects of a client (read from the
 * suite's mock servers). An unknown scenario gets initialize, tools/list,
 * close: enough to show the client works without guessing at more.
 */
export function planFor(scenario: string | undefined): ScenarioPlan {
  switch (scenario) {
    case 'initialize':
      return { listTools: false, callTools: false, elicitation: false };
    case 'tools_call':
    case 'sse-retry': // the tool's answer arrives only after the client resumes the dropped stream
      return { listTools: true, callTools: true, elicitation: false };
    case 'elicitation-sep1034-client-defaults': // the tool elicits; the answer must carry the schema's defaults
      return { listTools: true, callTools: true, elicitation: true };
    default:
      return { listTools: true, callTools: false, elicitation: false };
  }
}

/** Runs the scenario against the URL given as the last argument. Resolves the exit status. */
export async function runOfficialClient(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const scenario = env[SCENARIO_ENV];
  const label = scenario ?? '(no scenario)';
  const url = args.at(-1);
  if (url === undefined || !URL.canParse(url)) {
    process.stderr.write(`mcpwire conformance-client: give the server's URL as the last argument (got ${url === undefined ? 'nothing' : JSON.stringify(url)})\n`);
    process.stdout.write(`FAIL ${label}: no server URL\n`);
    return 1;
  }
  if (scenario?.startsWith('auth/')) {
    // mcpwire implements no OAuth flow (T4): the run goes ahead and fails at the server's 401, which says so.
    process.stderr.write(`mcpwire conformance-client: scenario ${scenario} needs OAuth, which mcpwire does not implement yet\n`);
  }

  const plan = planFor(scenario);
  const transport = new StreamableHttpTransport({ url, server: 'conformance' });
  const client = new McpClient(transport, {
    timeoutMs: REQUEST_TIMEOUT_MS,
    connectTimeoutMs: REQUEST_TIMEOUT_MS,
    handlers: plan.elicitation ? { elicitation: acceptWithDefaults } : {},
    onDiagnostic: (d) => process.stderr.write(`diagnostic: ${describeDiagnostic(d)}\n`),
  });
  const done: string[] = [];
  try {
    const init = await client.connect();
    done.push(`initialized with ${init.serverInfo.name} (protocol ${init.protocolVersion})`);
    if (plan.listTools) {
      const { tools } = await client.listTools();
      done.push(`${tools.length} tool${tools.length === 1 ? '' : 's'}`);
      if (plan.callTools) {
        if (tools.length === 0) throw new Error('the scenario needs a tool call, but the server lists no tools');
        for (const tool of tools) {
          const result = await client.callTool(tool.name, argumentsFor(tool));
          if (result.isError) throw new Error(`tool ${tool.name} answered with isError: ${JSON.stringify(result.content).slice(0, 300)}`);
          done.push(`called ${tool.name}`);
        }
      }
    }
    await client.close();
    process.stdout.write(`ok ${label}: ${done.join(', ')}\n`);
    return 0;
  } catch (error) {
    await client.close().catch(() => {});
    process.stderr.write(`mcpwire conformance-client: ${errorText(error, true)}\n`);
    process.stdout.write(`FAIL ${label}: ${done.length ? `after ${done.join(', ')}, ` : ''}${firstLine(errorText(error, true))}\n`);
    return 1;
  }
}

/**
 * Arguments for a tool the suite offers, made from its inputSchema: each
 * required property (and each with a default) gets its default, else its
 * first enum value, else a plain value of its type. Numbers count up from 1
 * so that two of them (add_numbers' a and b) differ.
 */
export function argumentsFor(tool: Pick<Tool, 'inputSchema'>): JsonObject {
  let counter = 0;
  const valueFor = (schema: unknown): unknown => {
    const s = isObject(schema) ? schema : {};
    if ('default' in s) return s.default;
    if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
    if ('const' in s) return s.const;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'number':
      case 'integer':
        return ++counter;
      case 'boolean':
        return true;
      case 'array':
        return [];
      case 'object':
        return objectFor(s);
      case 'null':
        return null;
      default:
        return 'mcpwire';
    }
  };
  const objectFor = (schema: Record<string, unknown>): JsonObject => {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const out: JsonObject = {};
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name) || (isObject(property) && 'default' in property)) out[name] = valueFor(property);
    }
    return out;
  };
  return objectFor(isObject(tool.inputSchema) ? tool.inputSchema : {});
}

/**
 * The elicitation handler of a client with nobody to ask (SEP-1034): a form
 * request is accepted with every default its requestedSchema declares. A
 * required field without a default cannot be answered honestly, so such a
 * request is declined; so is URL-mode elicitation.
 */
export const acceptWithDefaults: RequestHandler = (params) => {
  const mode = params?.mode;
  if (mode !== undefined && mode !== 'form') return { action: 'decline' };
  const schema = isObject(params?.requestedSchema) ? params.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const content: JsonObject = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isObject(property) && 'default' in property) content[name] = property.default;
  }
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (required.some((name) => typeof name !== 'string' || !(name in content))) return { action: 'decline' };
  return { action: 'accept', content };
};
