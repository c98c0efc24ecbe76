// The client that the official MCP conformance suite runs (X3):
// `mcpwire conformance-client <url>`. The suite starts a mock server, runs
// this command with the server's URL as the last argument and the scenario's
// name in MCP_CONFORMANCE_SCENARIO, and judges what reached its server. We do
// what the scenario needs with McpClient over Streamable HTTP and nothing
// else. stdout gets one result line; errors and diagnostics go to stderr.
// Exit status: 0 the scenario's steps succeeded, 1 they did not.

import { McpClient } from '../client/client.js';
import type { RequestHandler } from '../client/connection.js';
import type { ProtocolEra } from '../client/era.js';
import { MODERN_PROTOCOL_VERSIONS } from '../client/request-meta.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JsonObject, type Tool } from '../client/results.js';
import { isObject } from '../jsonrpc/message.js';
import { headlessAuthorizer } from '../auth/headless.js';
import { OAuthProvider } from '../auth/oauth-provider.js';
import type { SigningAlgorithm } from '../auth/jwt.js';
import type { MachineGrant } from '../auth/machine.js';
import { MemoryCredentialStore } from '../auth/store.js';
import { StreamableHttpTransport } from '../transport/streamable-http.js';
import { describeDiagnostic, errorText, firstLine } from '../util/text.js';

export const SCENARIO_ENV = 'MCP_CONFORMANCE_SCENARIO';
/** The protocol version the suite runs the scenario at (suite 0.2: always set; 0.1.x: never). */
export const PROTOCOL_VERSION_ENV = 'MCP_CONFORMANCE_PROTOCOL_VERSION';
/** JSON the scenario hands the client ({name, ...}); suite 0.2 sets it only for scenarios with data to give (tool calls, OAuth credentials). */
export const CONTEXT_ENV = 'MCP_CONFORMANCE_CONTEXT';

/**
 * Each request (and the handshake) gets less than the suite's 30 s per
 * scenario, so a hang ends with our own error on stderr instead of the
 * suite's kill.
 */
const REQUEST_TIMEOUT_MS = 20_000;

/** What the client does for a scenario. */
export interface ScenarioPlan {
  /** After connecting: list the tools. */
  listTools: boolean;
  /**
   * After listing: call every listed tool with arguments made from its
   * inputSchema, or, when the scenario's context names `toolCalls`, exactly
   * those calls with exactly their arguments.
   */
  callTools: boolean;
  /** Install an elicitation handler (which advertises the capability) that accepts with the schema's defaults. */
  elicitation: boolean;
  /** Also list resources and read each, and list prompts and get each (where the server declares them). */
  everyFeature?: boolean;
  /** Instead of calling tools: pass the inputSchema of tool `from`, as listed, as argument `schema` to tool `to`. */
  echoSchema?: { from: string; to: string };
}

/**
 * The scenarios we know, and what each expects of a client (read from the
 * suites' mock servers, 0.1.16 and 0.2.0-alpha.12). An unknown scenario gets
 * connect, tools/list, close: enough to show the client works without
 * guessing at more.
 */
export function planFor(scenario: string | undefined): ScenarioPlan {
  switch (scenario) {
    case 'initialize':
      return { listTools: false, callTools: false, elicitation: false };
    case 'tools_call':
    case 'sse-retry': // the tool's answer arrives only after the client resumes the dropped stream
    case 'http-custom-headers': // the context's toolCalls: Mcp-Param-* mirrored and encoded
    case 'http-invalid-tool-headers': // the valid tool is called, the ones with invalid x-mcp-header never listed
      return { listTools: true, callTools: true, elicitation: false };
    case 'elicitation-sep1034-client-defaults': // the tool elicits; the answer must carry the schema's defaults
    case 'sep-2322-client-request-state': // input_required rounds answered by elicitation, requestState echoed
      return { listTools: true, callTools: true, elicitation: true };
    case 'http-standard-headers': // Mcp-Method on each method, Mcp-Name on tools/call, resources/read, prompts/get
      return { listTools: true, callTools: true, elicitation: false, everyFeature: true };
    case 'json-schema-2020-12-preservation': // the focal tool's inputSchema round-tripped, keywords intact
      return { listTools: true, callTools: false, elicitation: false, echoSchema: { from: 'json_schema_2020_12_tool', to: 'json_schema_echo' } };
    default:
      // auth/*: list and call, so that a scope a tool call needs (step-up, retry limits) is met too.
      return { listTools: true, callTools: scenario?.startsWith('auth/') === true, elicitation: false };
  }
}

/**
 * The Client ID Metadata Document URL the conformance client offers (used
 * where the AS says it takes one: auth/basic-cimd): the URL the suite expects of a conformance client. Its mock does not
 * fetch it; a real host serves its own.
 */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** Where the conformance client says the browser comes back to; the suite's mocks redirect there at once, and nothing listens. */
export const CONFORMANCE_REDIRECT_URI = 'http://127.0.0.1:3333/callback';

/**
 * The machine grant an auth extension scenario calls for (#19, SPEC A1), made
 * from what its context hands over, as a host's config would give it: a
 * client secret (client-credentials-basic), a private key
 * (client-credentials-jwt), the enterprise IdP's ID token and endpoint
 * (enterprise-managed-authorization, 0.1.16's cross-app-access-complete-flow),
 * or a workload's JWT (wif-jwt-bearer). Undefined for the user's flow.
 */
export function machineGrantFor(scenario: string | undefined, context: JsonObject | undefined): MachineGrant | undefined {
  const str = (key: string) => (typeof context?.[key] === 'string' ? (context[key] as string) : undefined);
  const clientId = str('client_id');
  const id = clientId ? { clientId } : {};
  switch (scenario) {
    case 'auth/client-credentials-basic': {
      const secret = str('client_secret');
      return { grant: 'client_credentials', ...id, ...(secret ? { clientSecret: secret } : {}) };
    }
    case 'auth/client-credentials-jwt': {
      const key = str('private_key_pem');
      const alg = str('signing_algorithm') as SigningAlgorithm | undefined;
      return { grant: 'client_credentials', ...id, ...(key ? { privateKey: key } : {}), ...(alg ? { signingAlgorithm: alg } : {}) };
    }
    case 'auth/enterprise-managed-authorization':
    case 'auth/cross-app-access-complete-flow': {
      const [tokenEndpoint, idpClientId, idToken, secret] = [str('idp_token_endpoint'), str('idp_client_id'), str('idp_id_token'), str('client_secret')];
      if (!tokenEndpoint || !idpClientId || !idToken) return { grant: 'jwt_bearer', ...id };
      return { grant: 'jwt_bearer', ...id, ...(secret ? { clientSecret: secret } : {}), idp: { tokenEndpoint, clientId: idpClientId, idToken } };
    }
    case 'auth/wif-jwt-bearer': {
      // The valid token; the scenario also hands over a wrong-audience and an expired one, which a workload would never be given.
      const jwt = str('valid_jwt');
      return { grant: 'jwt_bearer', ...id, ...(jwt ? { assertion: jwt } : {}) };
    }
    default:
      return undefined;
  }
}

/** The context keys the client uses, for the stderr line that names the unused ones. */
const USED_CONTEXT_KEYS = new Set(['toolCalls', 'client_id', 'client_secret', 'private_key_pem', 'signing_algorithm', 'idp_client_id', 'idp_id_token', 'idp_token_endpoint', 'valid_jwt']);

/** Credentials an auth scenario hands over (`client_id`, `client_secret`): a pre-registered client. */
function preRegisteredFrom(context: JsonObject | undefined): { preRegistered?: { client_id: string; client_secret?: string } } {
  if (typeof context?.client_id !== 'string') return {};
  return { preRegistered: { client_id: context.client_id, ...(typeof context.client_secret === 'string' ? { client_secret: context.client_secret } : {}) } };
}

/** One tool call a scenario's context asks for: `{name, arguments}`. */
export interface ContextToolCall {
  name: string;
  arguments: JsonObject;
}

/** The `toolCalls` a scenario's context lists (http-custom-headers does), or undefined; malformed entries are an error. */
export function contextToolCalls(context: JsonObject | undefined): ContextToolCall[] | undefined {
  const calls = context?.toolCalls;
  if (calls === undefined) return undefined;
  if (!Array.isArray(calls)) throw new TypeError(`${CONTEXT_ENV}: toolCalls is not an array`);
  return calls.map((call, i) => {
    if (!isObject(call) || typeof call.name !== 'string' || (call.arguments !== undefined && !isObject(call.arguments))) throw new TypeError(`${CONTEXT_ENV}: toolCalls[${i}] is not {name, arguments}`);
    return { name: call.name, arguments: (call.arguments as JsonObject | undefined) ?? {} };
  });
}

/**
 * The era the suite asks for: the version in MCP_CONFORMANCE_PROTOCOL_VERSION,
 * pinned (suite 0.2 runs each scenario at one revision's wire, and its mock
 * speaks only that one). Unset (suite 0.1.x), the client's own default.
 * A version mcpwire does not speak is an error, not a silent fallback.
 */
export function eraFor(env: NodeJS.ProcessEnv): { era?: ProtocolEra; error?: string } {
  const version = env[PROTOCOL_VERSION_ENV];
  if (version === undefined || version === '') return {};
  const known: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];
  if (!known.includes(version)) return { error: `${PROTOCOL_VERSION_ENV}=${version} is not a protocol version mcpwire speaks (${known.join(', ')})` };
  return { era: { version } };
}

/**
 * The scenario's context (MCP_CONFORMANCE_CONTEXT), parsed: a JSON object
 * whose `name` is the scenario's. http-custom-headers hands over the tool
 * calls to make (`toolCalls`, see contextToolCalls); the OAuth scenarios hand
 * over credentials, unused until mcpwire does OAuth (#19). The client names
 * the keys on stderr, never their values.
 */
export function contextFor(env: NodeJS.ProcessEnv): { context?: JsonObject; error?: string } {
  const text = env[CONTEXT_ENV];
  if (text === undefined || text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: `${CONTEXT_ENV} is not JSON` };
  }
  if (!isObject(value)) return { error: `${CONTEXT_ENV} is not a JSON object` };
  const scenario = env[SCENARIO_ENV];
  if (scenario !== undefined && value.name !== undefined && value.name !== scenario) return { error: `${CONTEXT_ENV} is for scenario ${JSON.stringify(value.name)}, not ${scenario}` };
  return { context: value };
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

  const era = eraFor(env);
  const context = contextFor(env);
  const setupError = era.error ?? context.error;
  if (setupError) {
    process.stderr.write(`mcpwire conformance-client: ${setupError}\n`);
    process.stdout.write(`FAIL ${label}: ${setupError}\n`);
    return 1;
  }
  if (context.context) {
    const keys = Object.keys(context.context).filter((k) => k !== 'name');
    const unused = keys.filter((k) => !USED_CONTEXT_KEYS.has(k));
    process.stderr.write(`mcpwire conformance-client: the scenario handed over context with ${keys.length ? keys.join(', ') : 'no keys'}${unused.length ? ` (unused: ${unused.join(', ')})` : ''}\n`);
  }

  const plan = planFor(scenario);
  let machine: MachineGrant | undefined;
  try {
    machine = machineGrantFor(scenario, context.context);
  } catch (error) {
    process.stdout.write(`FAIL ${label}: ${firstLine(errorText(error, true))}\n`);
    return 1;
  }
  // #19: the OAuth flow, headless (the suite's /authorize redirects straight back), credentials kept in memory for this run;
  // a machine grant where the scenario is an extension's; DPoP when the server challenges with it (auth/dpop*).
  const headerProvider = new OAuthProvider({
    ...(machine ? { machine } : {}),
    serverUrl: url,
    server: 'conformance',
    store: new MemoryCredentialStore(),
    authorize: headlessAuthorizer(),
    redirectUri: CONFORMANCE_REDIRECT_URI,
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
    ...preRegisteredFrom(context.context),
    ...(era.era && typeof era.era === 'object' ? { protocolVersion: era.era.version } : {}),
  });
  const transport = new StreamableHttpTransport({ url, server: 'conformance', headerProvider });
  const client = new McpClient(transport, {
    ...(era.era ? { protocolEra: era.era } : {}),
    timeoutMs: REQUEST_TIMEOUT_MS,
    connectTimeoutMs: REQUEST_TIMEOUT_MS,
    handlers: plan.elicitation ? { elicitation: acceptWithDefaults } : {},
    onDiagnostic: (d) => process.stderr.write(`diagnostic: ${describeDiagnostic(d)}\n`),
  });
  const done: string[] = [];
  try {
    const calls = contextToolCalls(context.context);
    const init = await client.connect();
    done.push(`connected to ${init.serverInfo.name} (protocol ${init.protocolVersion}, ${client.era})`);
    if (plan.listTools) {
      const { tools } = await client.listTools();
      done.push(`${tools.length} tool${tools.length === 1 ? '' : 's'}`);
      const call = async (name: string, args: JsonObject) => {
        const result = await client.callTool(name, args);
        if (result.isError) throw new Error(`tool ${name} answered with isError: ${JSON.stringify(result.content).slice(0, 300)}`);
        done.push(`called ${name}`);
      };
      if (plan.echoSchema) {
        const { from, to } = plan.echoSchema;
        const focal = tools.find((t) => t.name === from);
        if (!focal) throw new Error(`the scenario needs tool ${from}, but the server lists ${tools.map((t) => t.name).join(', ') || 'none'}`);
        // The schema as listed, untouched: the scenario checks which keywords survived the client.
        await call(to, { schema: focal.inputSchema });
      } else if (plan.callTools && calls) {
        for (const c of calls) {
          if (!tools.some((t) => t.name === c.name)) throw new Error(`the scenario's context calls tool ${c.name}, which the client did not list`);
          await call(c.name, c.arguments);
        }
      } else if (plan.callTools) {
        if (tools.length === 0) throw new Error('the scenario needs a tool call, but the server lists no tools');
        for (const tool of tools) await call(tool.name, argumentsFor(tool));
      }
    }
    if (plan.everyFeature) {
      const capabilities = init.capabilities;
      if (capabilities.resources) {
        const { resources } = await client.listResources();
        for (const resource of resources) await client.readResource(resource.uri);
        done.push(`read ${resources.length} resource${resources.length === 1 ? '' : 's'}`);
      }
      if (capabilities.prompts) {
        const { prompts } = await client.listPrompts();
        for (const prompt of prompts) await client.getPrompt(prompt.name, promptArgumentsFor(prompt));
        done.push(`got ${prompts.length} prompt${prompts.length === 1 ? '' : 's'}`);
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

/** A value for each required prompt argument (prompts take strings). */
export function promptArgumentsFor(prompt: { arguments?: { name: string; required?: boolean }[] }): Record<string, string> {
  const args: Record<string, string> = {};
  for (const a of prompt.arguments ?? []) if (a.required) args[a.name] = 'mcpwire';
  return args;
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
