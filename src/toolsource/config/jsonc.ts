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

export function parseJsonc(text: string): JsoncDocument {
  // A byte order mark is not JSON, but editors write one and read past it.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const keys = new Map<string, number>(); // JSON.stringify(path) → offset of the key's opening quote

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

  const value = (path: (string | number)[]): unknown => {
    skip();
    const c = text[i];
    if (c === '{') return object(path);
    if (c === '[') return array(path);
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

  const object = (path: (string | number)[]): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      skip();
      if (text[i] === '}') break; // also after a trailing comma
      if (text[i] !== '"') fail('expected a "quoted" key or }');
      const at = i;
      const key = string();
      keys.set(JSON.stringify([...path, key]), at);
      skip();
      if (text[i] !== ':') fail('expected : after the key');
      i++;
      // defineProperty: a "__proto__" key is data, as JSON.parse makes it, not the object's prototype.
      Object.defineProperty(out, key, { value: value([...path, key]), enumerable: true, writable: true, configurable: true });
      skip();
      if (text[i] === ',') i++;
      else if (text[i] !== '}') fail('expected , or } after the value');
    }
    i++;
    return out;
  };

  const array = (path: (string | number)[]): unknown[] => {
    i++;
    const out: unknown[] = [];
    for (;;) {
      skip();
      if (text[i] === ']') break;
      keys.set(JSON.stringify([...path, out.length]), i);
      out.push(value([...path, out.length]));
      skip();
      if (text[i] === ',') i++;
      else if (text[i] !== ']') fail('expected , or ] after the element');
    }
    i++;
    return out;
  };

  const result = value([]);
  skip();
  if (i < text.length) fail('unexpected text after the end of the document');
  return {
    value: result,
    locate: (path) => {
      for (let depth = path.length; depth > 0; depth--) {
        const at = keys.get(JSON.stringify(path.slice(0, depth)));
        if (at !== undefined) return position(text, at);
      }
      return undefined;
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
