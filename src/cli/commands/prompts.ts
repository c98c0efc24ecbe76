// `mcpwire prompts` and `prompt` (K1): the prompts a server offers, and one
// prompt rendered as `[role] text` blocks.

import type { Prompt } from '../../client/results.js';
import { firstLine } from '../../util/text.js';
import { parseCommandLine } from '../options.js';
import { out } from '../process.js';
import { printMessages } from '../render.js';
import { isKeyValue } from '../schema.js';
import { withSession } from '../session.js';
import { UsageError } from '../usage.js';
import { runListing } from './listing.js';

/** `name(a: string, b?: string)`: prompt arguments are strings (MCP prompts, prompts/get). */
function promptSignature(prompt: Prompt): string {
  return `${prompt.name}(${(prompt.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}: string`).join(', ')})`;
}

export function prompts(args: string[]): Promise<number> {
  return runListing(args, {
    command: 'prompts',
    capability: 'prompts',
    list: async (client, session) => (await client.listPrompts(session.requestOptions())).prompts,
    jsonKey: 'prompts',
    noun: 'prompt',
    row: (p: Prompt) => [promptSignature(p), p.description ? firstLine(p.description, 100) : ''],
  });
}

export async function prompt(args: string[]): Promise<number> {
  const line = parseCommandLine('prompt', args);
  const [name, ...words] = line.positionals;
  if (name === undefined) throw new UsageError('prompt needs a prompt name, e.g. mcpwire prompt args-prompt city=Paris (see mcpwire prompts)');
  const promptArgs: Record<string, string> = {};
  for (const word of words) {
    if (!isKeyValue(word)) throw new UsageError(`"${word}" is not an argument: write name=value`);
    const at = word.search(/[=:]/);
    promptArgs[word.slice(0, at)] = word.slice(at + 1);
  }
  return withSession('prompt', line, async (session) => {
    const server = session.oneServer('prompt');
    const result = await session.source.withServer(server, (client) => client.getPrompt(name, promptArgs, session.requestOptions()));
    if (line.values.json) out(`${JSON.stringify(result, null, 2)}\n`);
    else {
      if (result.description) out(`${result.description}\n\n`);
      printMessages(result.messages);
    }
    return 0;
  });
}
