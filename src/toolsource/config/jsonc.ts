// Parses JSON with comments (`//`, `/* */`) and trailing commas, the dialect
// VS Code and Cursor accept in their MCP configs (C5), and remembers where
// each key is so that a later error can name its line and column. Does NOT
// accept anything else JSON5 allows (single quotes, bare keys, hex numbers).
//
// Hand-written rather than JSON.parse over a stripped copy: V8's message for
// some syntax errors quotes the text around them, and a config line may hold
// a token; here a syntax error says what was expected and where, never the text.

export type KeyPath = readonly (string | number)[];

/** A syntax error: 1-based line and column of the offending character in the original text. */
export class JsoncSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} at ${line}:${column}`);
  }
}

export interface JsoncDocument {
  value: unknown;
  /** 1-based line and column of the deepest key of `path` present in the text; undefined when not even the first is. */
  locate(path: KeyPath): { line: number; column: number } | undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = [
  ['true', true],
  ['false', false],
  ['null', null],
] as const;

/**
 * How deep objects and arrays may nest. A config needs a handful of levels;
 * the bound keeps a hostile file from costing more than its length (no
 * recursion here, but every reader that walks the value afterwards is spared too).
 */
export const MAX_JSONC_DEPTH = 100;

/** Where a key (or array element) starts, and the keys inside its value: a tree, so recording a key costs O(1). */
interface KeyNode {
  offset: number;
  children: Map<string | number, KeyNode> | undefined;
}

type Frame =
  | { kind: 'object'; out: Record<string, unknown>; node: KeyNode; key: string; member: KeyNode | undefined }
  | { kind: 'array'; out: unknown[]; node: KeyNode; member: KeyNode | undefined };

/**
 * Parses `text`. Iterative, with an explicit stack of open containers, so
 * time is linear in the length and depth is bounded by MAX_JSONC_DEPTH, not
 * by the call stack. Throws JsoncSyntaxError.
 */
export function parseJsonc(text: string): JsoncDocument {
  // A byte order mark is not JSON, but editors write one and read past it.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const root: KeyNode = { offset: i, children: undefined };

  const fail = (reason: string, at = i): never => {
    const { line, column } = position(text, at);
    throw new JsoncSyntaxError(reason, line, column);
  };

  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && text[i + 1] === '/') {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('unterminated /* comment');
        i = end + 2;
      } else return;
    }
  };

  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') {
      const code = text.charCodeAt(i);
      if (code < 0x20) fail('a line break or control character inside a string (escape it)');
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail('unterminated string', start);
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string; // escapes decoded exactly as JSON does
    } catch {
      return fail('invalid escape sequence in a string', start);
    }
  };

  const scalar = (): unknown => {
    const c = text[i];
    if (c === '"') return string();
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      i += number[0].length;
      return Number(number[0]);
    }
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return literal;
      }
    }
    return fail(c === undefined ? 'unexpected end of the file; expected a value' : 'expected a value (a string, number, object, array, true, false or null)');
  };

  const child = (parent: KeyNode, key: string | number, offset: number): KeyNode => {
    const node: KeyNode = { offset, children: undefined };
    (parent.children ??= new Map()).set(key, node);
    return node;
  };

  /** Moves to the container's next member: true when the container closed instead (also after a trailing comma), false when a value is expected. */
  const nextMember = (frame: Frame): boolean => {
    skip();
    if (text[i] === (frame.kind === 'object' ? '}' : ']')) {
      i++;
      return true;
    }
    if (frame.kind === 'array') {
      frame.member = child(frame.node, frame.out.length, i);
      return false;
    }
    if (text[i] !== '"') fail('expected a "quoted" key or }');
    const at = i;
    frame.key = string();
    frame.member = child(frame.node, frame.key, at);
    skip();
    if (text[i] !== ':') fail('expected : after the key');
    i++;
    return false;
  };

  const stack: Frame[] = [];
  let result: unknown;
  parse: for (;;) {
    // A value is expected here: the document's, an element's or a key's.
    skip();
    let value: unknown;
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= MAX_JSONC_DEPTH) fail(`objects and arrays nested deeper than ${MAX_JSONC_DEPTH} levels; a config needs far fewer`);
      i++;
      const node = stack.at(-1)?.member ?? root;
      const frame: Frame = c === '{' ? { kind: 'object', out: {}, node, key: '', member: undefined } : { kind: 'array', out: [], node, member: undefined };
      stack.push(frame);
      if (!nextMember(frame)) continue parse;
      value = frame.out;
      stack.pop();
    } else {
      value = scalar();
    }
    // The value is complete: it goes into the container it belongs to, which may be complete too.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) {
        result = value;
        break parse;
      }
      if (top.kind === 'array') top.out.push(value);
      // defineProperty: a "__proto__" key is data, as JSON.parse makes it, not the object's prototype.
      else Object.defineProperty(top.out, top.key, { value, enumerable: true, writable: true, configurable: true });
      skip();
      const closer = top.kind === 'object' ? '}' : ']';
      if (text[i] === ',') {
        i++;
        if (!nextMember(top)) continue parse;
      } else if (text[i] === closer) {
        i++;
      } else {
        fail(top.kind === 'object' ? 'expected , or } after the value' : 'expected , or ] after the element');
      }
      value = top.out;
      stack.pop();
    }
  }
  skip();
  if (i < text.length) fail('unexpected text after the end of the document');
  return {
    value: result,
    locate: (path) => {
      let node = root;
      let found: KeyNode | undefined;
      for (const segment of path) {
        const next = node.children?.get(segment);
        if (next === undefined) break;
        found = node = next;
      }
      return found === undefined ? undefined : position(text, found.offset);
    },
  };
}

/** 1-based line and column (in UTF-16 code units, as editors count) of `offset`. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let j = text.indexOf('\n'); j >= 0 && j < offset; j = text.indexOf('\n', j + 1)) {
    line++;
    start = j + 1;
  }
  return { line, column: offset - start + 1 };
}
