/**
 * JSON values for the JSON (JSONB) type and Doris's JSON functions: a parser that keeps what JSON.parse
 * loses (object key order including integer-like keys, integers beyond 2^53), the canonical text Galene
 * stores and sends (Doris's compact form: no spaces, `{"k":1,"a":[1,2]}`), and JSON paths (`$.a.b`,
 * `$.a[0]`, `$[*]`, `$.*`, `$."quoted key"`, `$[last]`, `$[last-1]`).
 *
 * Storage choice: a JSON column is a string column holding the canonical text. The text is parsed and
 * normalised once, when a value is loaded (INSERT, Stream Load, CAST); queries re-parse the canonical form,
 * which is valid by construction. Imports nothing outside common/.
 */

/** An object keeps its keys in document order (duplicates: the first one wins on lookup, as in Doris). */
export class JsonObject {
  constructor(readonly keys: string[], readonly values: JsonValue[]) {}
  get(key: string): JsonValue | undefined {
    const idx = this.keys.indexOf(key);
    return idx < 0 ? undefined : this.values[idx];
  }
  set(key: string, value: JsonValue): void {
    const idx = this.keys.indexOf(key);
    if (idx < 0) {
      this.keys.push(key);
      this.values.push(value);
    } else this.values[idx] = value;
  }
}

/** A JSON number that is an integer beyond 2^53 (or written as an integer too big for a double exactly). */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;

/** Thrown by parseJson; `message` says what and where, as Doris's JSON parse errors do. */
export class JsonSyntaxError extends Error {}

const WS = new Uint8Array(128);
WS[0x20] = WS[0x09] = WS[0x0a] = WS[0x0d] = 1;

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new JsonSyntaxError(`${what} at offset ${this.pos}`);
  }

  skipWs(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const code = text.charCodeAt(this.pos);
      if (code < 128 && WS[code] === 1) this.pos++;
      else break;
    }
  }

  value(depth: number): JsonValue {
    if (depth > 512) this.fail('nesting too deep');
    this.skipWs();
    const text = this.text;
    const code = text.charCodeAt(this.pos);
    switch (code) {
      case 0x7b /* { */: {
        this.pos++;
        const keys: string[] = [];
        const values: JsonValue[] = [];
        this.skipWs();
        if (text.charCodeAt(this.pos) === 0x7d) {
          this.pos++;
          return new JsonObject(keys, values);
        }
        for (;;) {
          this.skipWs();
          if (text.charCodeAt(this.pos) !== 0x22) this.fail('Missing a name for object member');
          keys.push(this.string());
          this.skipWs();
          if (text.charCodeAt(this.pos) !== 0x3a) this.fail('Missing a colon after a name of object member');
          this.pos++;
          values.push(this.value(depth + 1));
          this.skipWs();
          const next = text.charCodeAt(this.pos++);
          if (next === 0x7d) return new JsonObject(keys, values);
          if (next !== 0x2c) {
            this.pos--;
            this.fail('Missing a comma or \'}\' after an object member');
          }
        }
      }
      case 0x5b /* [ */: {
        this.pos++;
        const items: JsonValue[] = [];
        this.skipWs();
        if (text.charCodeAt(this.pos) === 0x5d) {
          this.pos++;
          return items;
        }
        for (;;) {
          items.push(this.value(depth + 1));
          this.skipWs();
          const next = text.charCodeAt(this.pos++);
          if (next === 0x5d) return items;
          if (next !== 0x2c) {
            this.pos--;
            this.fail("Missing a comma or ']' after an array element");
          }
        }
      }
      case 0x22:
        return this.string();
      case 0x74:
        return this.word('true', true);
      case 0x66:
        return this.word('false', false);
      case 0x6e:
        return this.word('null', null);
      default:
        if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.number();
        if (this.pos >= text.length) this.fail('The document is empty');
        return this.fail('Invalid value');
    }
  }

  word<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('Invalid value');
    this.pos += word.length;
    return value;
  }

  number(): number | bigint {
    const text = this.text;
    const start = this.pos;
    let isInt = true;
    if (text.charCodeAt(this.pos) === 0x2d) this.pos++;
    const digitsStart = this.pos;
    while (isDigit(text.charCodeAt(this.pos))) this.pos++;
    if (this.pos === digitsStart) this.fail('Invalid value');
    if (text.charCodeAt(digitsStart) === 0x30 && this.pos - digitsStart > 1) this.fail('Invalid value');
    if (text.charCodeAt(this.pos) === 0x2e) {
      isInt = false;
      this.pos++;
      const fracStart = this.pos;
      while (isDigit(text.charCodeAt(this.pos))) this.pos++;
      if (this.pos === fracStart) this.fail('Miss fraction part in number');
    }
    const e = text.charCodeAt(this.pos);
    if (e === 0x65 || e === 0x45) {
      isInt = false;
      this.pos++;
      const sign = text.charCodeAt(this.pos);
      if (sign === 0x2b || sign === 0x2d) this.pos++;
      const expStart = this.pos;
      while (isDigit(text.charCodeAt(this.pos))) this.pos++;
      if (this.pos === expStart) this.fail('Miss exponent in number');
    }
    const literal = text.slice(start, this.pos);
    if (isInt) {
      const num = Number(literal);
      if (Number.isSafeInteger(num)) return num;
      const big = BigInt(literal);
      // Doris's JSONB holds integers up to 128 bits; beyond that the number is a double.
      return big >= -(2n ** 127n) && big < 2n ** 127n ? big : num;
    }
    return Number(literal);
  }

  string(): string {
    const text = this.text;
    this.pos++; // opening quote
    let out = '';
    let runStart = this.pos;
    for (;;) {
      if (this.pos >= text.length) this.fail('Missing a closing quotation mark in string');
      const code = text.charCodeAt(this.pos);
      if (code === 0x22) {
        out += text.slice(runStart, this.pos);
        this.pos++;
        return out;
      }
      if (code < 0x20) this.fail('Invalid encoding in string');
      if (code !== 0x5c) {
        this.pos++;
        continue;
      }
      out += text.slice(runStart, this.pos);
      const esc = text.charCodeAt(this.pos + 1);
      this.pos += 2;
      switch (esc) {
        case 0x22: out += '"'; break;
        case 0x5c: out += '\\'; break;
        case 0x2f: out += '/'; break;
        case 0x62: out += '\b'; break;
        case 0x66: out += '\f'; break;
        case 0x6e: out += '\n'; break;
        case 0x72: out += '\r'; break;
        case 0x74: out += '\t'; break;
        case 0x75: {
          const hex = text.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Incorrect hex digit after \\u escape in string');
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.pos -= 2;
          this.fail('Invalid escape character in string');
      }
      runStart = this.pos;
    }
  }
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Parse JSON text; throws JsonSyntaxError (with the offset) for invalid text or trailing characters. */
export function parseJson(text: string): JsonValue {
  const parser = new Parser(text);
  const value = parser.value(0);
  parser.skipWs();
  if (parser.pos < text.length) parser.fail('The document root must not be followed by other values');
  return value;
}

/** parseJson, or undefined for invalid text. */
export function tryParseJson(text: string): JsonValue | undefined {
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return undefined;
    throw err;
  }
}

/** A JSON string literal for `text` (quotes and escapes as JSON.stringify writes them). */
export function quoteJsonString(text: string): string {
  return JSON.stringify(text);
}

/** Canonical text of a number: integers as digits, doubles in shortest round-trip form. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  return String(value);
}

/** Doris's compact text of a JSON value: `{"a":1,"b":[true,null],"c":"x"}`. */
export function jsonToText(value: JsonValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return numberText(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return quoteJsonString(value);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let idx = 0; idx < value.length; idx++) out += (idx === 0 ? '' : ',') + jsonToText(value[idx]);
    return out + ']';
  }
  let out = '{';
  for (let idx = 0; idx < value.keys.length; idx++) out += (idx === 0 ? '' : ',') + quoteJsonString(value.keys[idx]) + ':' + jsonToText(value.values[idx]);
  return out + '}';
}

/** Canonical text of JSON text, or null when the text is not valid JSON (load and CAST call this). */
export function canonicalJsonText(text: string): string | null {
  const value = tryParseJson(text);
  return value === undefined ? null : jsonToText(value);
}

/** Doris's json_type names: object, array, null, bool, int, bigint, largeint, double, string. */
export function jsonTypeName(value: JsonValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
      if (!Number.isInteger(value) || Object.is(value, -0)) return 'double';
      return value >= -2147483648 && value <= 2147483647 ? 'int' : 'bigint';
    case 'bigint':
      return value >= -(2n ** 63n) && value < 2n ** 63n ? 'bigint' : 'largeint';
    case 'string':
      return 'string';
  }
  return Array.isArray(value) ? 'array' : 'object';
}

// ---------------------------------------------------------------- paths

/** One step of a JSON path: a member, an array index (from the end when fromEnd), or a wildcard. */
export type JsonPathLeg =
  | { readonly kind: 'member'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number; readonly fromEnd: boolean }
  | { readonly kind: 'anyMember' }
  | { readonly kind: 'anyIndex' };

export interface JsonPath {
  readonly text: string;
  readonly legs: readonly JsonPathLeg[];
  /** Has a wildcard: the result of extraction is an array of every match. */
  readonly wildcard: boolean;
}

/** Parse a JSON path (`$`, `.key`, `."key"`, `.*`, `[n]`, `[*]`, `[last]`, `[last-n]`); null if invalid. */
export function parseJsonPath(text: string): JsonPath | null {
  const legs: JsonPathLeg[] = [];
  let pos = 0;
  const skipWs = () => {
    while (text.charCodeAt(pos) === 0x20) pos++;
  };
  skipWs();
  if (text[pos] !== '$') return null;
  pos++;
  let wildcard = false;
  for (;;) {
    skipWs();
    if (pos >= text.length) break;
    const ch = text[pos];
    if (ch === '.') {
      pos++;
      if (text[pos] === '*') {
        pos++;
        legs.push({ kind: 'anyMember' });
        wildcard = true;
      } else if (text[pos] === '"') {
        let end = pos + 1;
        let key = '';
        while (end < text.length && text[end] !== '"') {
          if (text[end] === '\\' && end + 1 < text.length) end++;
          key += text[end];
          end++;
        }
        if (end >= text.length) return null;
        legs.push({ kind: 'member', key });
        pos = end + 1;
      } else {
        let end = pos;
        while (end < text.length && text[end] !== '.' && text[end] !== '[' && text[end] !== ' ') end++;
        if (end === pos) return null;
        legs.push({ kind: 'member', key: text.slice(pos, end) });
        pos = end;
      }
    } else if (ch === '[') {
      const close = text.indexOf(']', pos);
      if (close < 0) return null;
      const inner = text.slice(pos + 1, close).trim();
      pos = close + 1;
      if (inner === '*') {
        legs.push({ kind: 'anyIndex' });
        wildcard = true;
        continue;
      }
      const last = /^last(?:\s*-\s*(\d+))?$/.exec(inner);
      if (last !== null) {
        legs.push({ kind: 'index', index: last[1] === undefined ? 0 : Number(last[1]), fromEnd: true });
        continue;
      }
      if (!/^\d+$/.test(inner)) return null;
      legs.push({ kind: 'index', index: Number(inner), fromEnd: false });
    } else return null;
  }
  return { text, legs, wildcard };
}

/** Every value the path matches, in document order (empty when nothing matches). */
export function jsonPathMatches(root: JsonValue, path: JsonPath): JsonValue[] {
  let current: JsonValue[] = [root];
  for (const leg of path.legs) {
    const next: JsonValue[] = [];
    for (const value of current) {
      switch (leg.kind) {
        case 'member':
          if (value instanceof JsonObject) {
            const found = value.get(leg.key);
            if (found !== undefined) next.push(found);
          }
          break;
        case 'anyMember':
          if (value instanceof JsonObject) next.push(...value.values);
          break;
        case 'index':
          if (Array.isArray(value)) {
            const idx = leg.fromEnd ? value.length - 1 - leg.index : leg.index;
            if (idx >= 0 && idx < value.length) next.push(value[idx]);
          }
          break;
        case 'anyIndex':
          if (Array.isArray(value)) next.push(...value);
          break;
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/**
 * The value at a path: the single match, or for a wildcard path an array of all matches (undefined when
 * nothing matches), as Doris's json_extract returns it.
 */
export function jsonExtractPath(root: JsonValue, path: JsonPath): JsonValue | undefined {
  const matches = jsonPathMatches(root, path);
  if (matches.length === 0) return undefined;
  if (path.wildcard) return matches;
  return matches[0];
}

/** The value the path's last step applies to (every step but the last followed), or undefined. */
function parentOf(root: JsonValue, path: JsonPath): JsonValue | undefined {
  const found = jsonPathMatches(root, { text: path.text, legs: path.legs.slice(0, -1), wildcard: false });
  return found.length === 0 ? undefined : found[0];
}

/**
 * json_insert / json_replace / json_set at one (non-wildcard) path: `mode` says whether an existing value
 * is replaced and whether a missing last step is created. Returns the (possibly new) root.
 */
export function jsonModify(root: JsonValue, path: JsonPath, value: JsonValue, mode: 'insert' | 'replace' | 'set'): JsonValue {
  if (path.legs.length === 0) return mode === 'insert' ? root : value;
  const parent = parentOf(root, path);
  if (parent === undefined) return root;
  const last = path.legs[path.legs.length - 1];
  const replaceOk = mode !== 'insert';
  const insertOk = mode !== 'replace';
  if (last.kind === 'member') {
    if (!(parent instanceof JsonObject)) return root;
    const exists = parent.get(last.key) !== undefined;
    if ((exists && replaceOk) || (!exists && insertOk)) parent.set(last.key, value);
    return root;
  }
  if (last.kind === 'index') {
    if (Array.isArray(parent)) {
      const idx = last.fromEnd ? parent.length - 1 - last.index : last.index;
      if (idx >= 0 && idx < parent.length) {
        if (replaceOk) parent[idx] = value;
      } else if (insertOk && idx >= parent.length) parent.push(value);
      return root;
    }
    // A scalar or object is its own [0]; a later index makes it an array of [it, value] (MySQL auto-wrap).
    const idx = last.fromEnd ? -last.index : last.index;
    if (idx === 0) return replaceOk ? replaceChild(root, parent, value) : root;
    if (insertOk && idx > 0) return replaceChild(root, parent, [parent, value]);
  }
  return root;
}

/** `root` with the node `target` (found by identity) replaced by `replacement`. */
function replaceChild(root: JsonValue, target: JsonValue, replacement: JsonValue): JsonValue {
  if (root === target) return replacement;
  if (Array.isArray(root)) {
    for (let idx = 0; idx < root.length; idx++) root[idx] = replaceChild(root[idx], target, replacement);
  } else if (root instanceof JsonObject) {
    for (let idx = 0; idx < root.values.length; idx++) root.values[idx] = replaceChild(root.values[idx], target, replacement);
  }
  return root;
}

/** MySQL / Doris json_contains: does `target` contain `candidate`? */
export function jsonContains(target: JsonValue, candidate: JsonValue): boolean {
  if (Array.isArray(target)) {
    if (Array.isArray(candidate)) return candidate.every((item) => target.some((elem) => jsonContains(elem, item)));
    return target.some((elem) => jsonContains(elem, candidate));
  }
  if (target instanceof JsonObject) {
    if (!(candidate instanceof JsonObject)) return false;
    return candidate.keys.every((key, idx) => {
      const found = target.get(key);
      return found !== undefined && jsonContains(found, candidate.values[idx]);
    });
  }
  if (Array.isArray(candidate) || candidate instanceof JsonObject) return false;
  return jsonScalarEquals(target, candidate);
}

function jsonScalarEquals(a: JsonValue, b: JsonValue): boolean {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return typeof a === typeof b ? a === b : Number(a) === Number(b);
  return a === b;
}

/** json_remove at one (non-wildcard) path: the root with the matched member or element removed. */
export function jsonRemove(root: JsonValue, path: JsonPath): JsonValue {
  if (path.legs.length === 0) return root;
  const parent = parentOf(root, path);
  if (parent === undefined) return root;
  const last = path.legs[path.legs.length - 1];
  if (last.kind === 'member' && parent instanceof JsonObject) {
    const idx = parent.keys.indexOf(last.key);
    if (idx >= 0) {
      parent.keys.splice(idx, 1);
      parent.values.splice(idx, 1);
    }
  } else if (last.kind === 'index' && Array.isArray(parent)) {
    const idx = last.fromEnd ? parent.length - 1 - last.index : last.index;
    if (idx >= 0 && idx < parent.length) parent.splice(idx, 1);
  }
  return root;
}

/** The value with every object's keys sorted (by UTF-16 code unit, which orders ASCII keys bytewise). */
export function sortJsonKeys(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortJsonKeys);
  if (!(value instanceof JsonObject)) return value;
  const order = value.keys.map((_, idx) => idx).sort((a, b) => (value.keys[a] < value.keys[b] ? -1 : value.keys[a] > value.keys[b] ? 1 : a - b));
  return new JsonObject(order.map((idx) => value.keys[idx]), order.map((idx) => sortJsonKeys(value.values[idx])));
}

/** A path leg as MySQL's json_search prints it: `.key` (quoted when not an identifier) or `[n]`. */
function memberLegText(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `.${quoteJsonString(key)}`;
}

/** The paths of every string value for which `matches` is true, in document order (json_search). */
export function jsonSearchPaths(root: JsonValue, matches: (text: string) => boolean, one: boolean): string[] {
  const out: string[] = [];
  const walk = (value: JsonValue, path: string): boolean => {
    if (typeof value === 'string') {
      if (matches(value)) {
        out.push(path);
        return one;
      }
      return false;
    }
    if (Array.isArray(value)) {
      for (let idx = 0; idx < value.length; idx++) if (walk(value[idx], `${path}[${idx}]`)) return true;
    } else if (value instanceof JsonObject) {
      for (let idx = 0; idx < value.keys.length; idx++) if (walk(value.values[idx], path + memberLegText(value.keys[idx]))) return true;
    }
    return false;
  };
  walk(root, '$');
  return out;
}
