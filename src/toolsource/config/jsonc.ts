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

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
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

/**
 * An open object or array. `onTarget`: its path is the first `depth` keys of
 * the path being located, so its members are candidates; `memberOnTarget`:
 * the member being read is the next key of that path.
 */
type Frame =
  | { kind: 'object'; out: Record<string, unknown>; key: string; onTarget: boolean; memberOnTarget: boolean }
  | { kind: 'array'; out: unknown[]; onTarget: boolean; memberOnTarget: boolean };

/**
 * Parses `text`. Iterative, with an explicit stack of open containers, so
 * time is linear in the length and depth is bounded by MAX_JSONC_DEPTH, not
 * by the call stack. Throws JsoncSyntaxError. Positions are not kept while
 * parsing (a 10 MB array would cost a record per element): locate() scans
 * the text again, once per call, which only errors do.
 */
export function parseJsonc(text: string): JsoncDocument {
  const value = scan(text, undefined).value;
  return {
    value,
    locate: (path) => {
      if (path.length === 0) return undefined;
      const offsets = scan(text, path).offsets;
      const deepest = offsets.length === 0 ? undefined : offsets[offsets.length - 1];
      return deepest === undefined ? undefined : position(text, deepest);
    },
  };
}

/** Parses `text`; with a `target` path, also the offset of each of its keys present, outermost first, until the first one missing. */
function scan(text: string, target: KeyPath | undefined): { value: unknown; offsets: number[] } {
  // A byte order mark is not JSON, but editors write one and read past it.
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const offsets: number[] = [];

  const fail = (reason: string, at = i): never => {
    const { line, column } = position(text, at);
    throw new JsoncSyntaxError(reason, line, column);
  };

  const skip = () => {
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) i++;
      else if (code !== 0x2f) return;
      else if (text[i + 1] === '/') {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        if (end < 0) fail('unterminated /* comment');
        i = end + 2;
      } else return;
    }
  };

  const string = (): string => {
    const start = i++;
    let escaped = false;
    for (;;) {
      const code = text.charCodeAt(i);
      if (code === 0x22 || Number.isNaN(code)) break; // the closing quote, or the end of the text
      if (code < 0x20) fail('a line break or control character inside a string (escape it)');
      if (code === 0x5c) {
        escaped = true;
        i += 2;
      } else i++;
    }
    if (i >= text.length) fail('unterminated string', start);
    i++;
    // Most strings hold no escape: sliced as they are, which is what JSON.parse would give.
    if (!escaped) return text.slice(start + 1, i - 1);
    try {
      return JSON.parse(text.slice(start, i)) as string; // escapes decoded exactly as JSON does
    } catch {
      return fail('invalid escape sequence in a string', start);
    }
  };

  /** RFC 8259 §6: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, scanned by hand (a regex match allocates per number). Undefined when none starts here. */
  const numberAt = (): number | undefined => {
    const start = i;
    let j = i;
    if (text.charCodeAt(j) === 0x2d) j++;
    const first = text.charCodeAt(j);
    if (first === 0x30) j++;
    else if (first >= 0x31 && first <= 0x39) while (isDigit(text.charCodeAt(j))) j++;
    else return undefined;
    if (text.charCodeAt(j) === 0x2e && isDigit(text.charCodeAt(j + 1))) for (j += 1; isDigit(text.charCodeAt(j)); ) j++;
    const e = text.charCodeAt(j);
    if (e === 0x65 || e === 0x45) {
      let k = j + 1;
      const sign = text.charCodeAt(k);
      if (sign === 0x2b || sign === 0x2d) k++;
      if (isDigit(text.charCodeAt(k))) for (j = k; isDigit(text.charCodeAt(j)); ) j++;
    }
    i = j;
    return Number(text.slice(start, j));
  };

  const scalar = (): unknown => {
    const c = text[i];
    if (c === '"') return string();
    const number = numberAt();
    if (number !== undefined) return number;
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return literal;
      }
    }
    return fail(c === undefined ? 'unexpected end of the file; expected a value' : 'expected a value (a string, number, object, array, true, false or null)');
  };

  /** Marks the member at `offset` as the next key of the target path, when it is. */
  const member = (frame: Frame, key: string | number, offset: number) => {
    const depth = stack.length - 1;
    frame.memberOnTarget = frame.onTarget && target![depth] === key;
    if (frame.memberOnTarget) offsets[depth] = offset;
  };

  /** Moves to the container's next member: true when the container closed instead (also after a trailing comma), false when a value is expected. */
  const nextMember = (frame: Frame): boolean => {
    skip();
    if (text[i] === (frame.kind === 'object' ? '}' : ']')) {
      i++;
      return true;
    }
    if (frame.kind === 'array') {
      if (frame.onTarget) member(frame, frame.out.length, i);
      return false;
    }
    if (text[i] !== '"') fail('expected a "quoted" key or }');
    const at = i;
    frame.key = string();
    if (frame.onTarget) member(frame, frame.key, at);
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
      const parent = stack.at(-1);
      const onTarget = target !== undefined && (parent === undefined || parent.memberOnTarget) && stack.length < target.length;
      const frame: Frame = c === '{' ? { kind: 'object', out: {}, key: '', onTarget, memberOnTarget: false } : { kind: 'array', out: [], onTarget, memberOnTarget: false };
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
      else if (top.key === '__proto__') Object.defineProperty(top.out, top.key, { value, enumerable: true, writable: true, configurable: true });
      else top.out[top.key] = value;
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
  // A key found at one depth after a miss at a shallower one is not on the path (a later duplicate); keep the unbroken prefix.
  const unbroken: number[] = [];
  for (let d = 0; d < offsets.length && offsets[d] !== undefined; d++) unbroken.push(offsets[d]!);
  return { value: result, offsets: unbroken };
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
