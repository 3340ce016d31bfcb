/**
 * Doris's JSON functions (json_extract and its typed forms, get_json_*, json_object / json_array,
 * json_insert / json_replace / json_set, json_parse, json_valid, json_contains, json_keys, ...). They take
 * JSON values or JSON text in strings: a JSON argument gives a JSON result where Doris's does, a VARCHAR
 * one a VARCHAR result (Doris: "JSON_EXTRACT returns the VARCHAR type for a json string of the VARCHAR
 * type"). Documents parse once per dictionary entry and a constant path parses once per call site
 * (cached in site.cache); invalid JSON text reads as NULL, an invalid path is Doris's "Json path error".
 */
import { formatValue } from '../../../common/convert';
import { galeneError } from '../../../common/errors';
import {
  jsonContains,
  jsonExtractPath,
  jsonModify,
  JsonObject,
  JsonPath,
  JsonSyntaxError,
  jsonPathMatches,
  jsonRemove,
  jsonSearchPaths,
  jsonToText,
  jsonTypeName,
  JsonValue,
  parseJson,
  parseJsonPath,
  quoteJsonString,
  sortJsonKeys,
  tryParseJson,
} from '../../../common/json-value';
import { DataType, isIntegerType, isStringType, Types, typeToSql } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { valuesOrNulls } from '../kernels';
import { likePredicate } from './like-functions';
import { arg, defineFunction, FunctionDecl, opt, rest } from '../signature';
import { fixedVector, rawReader, StringOut, toJsStrings, vectorFromValues } from '../vector-ops';
import type { Vector } from '../../../common/column';

function json(name: string, decl: Omit<FunctionDecl, 'name' | 'family'>): FunctionDef {
  return defineFunction({ name, family: 'json', ...decl });
}

/** A JSON document argument: JSON stays JSON, strings stay strings, anything else is cast to STRING. */
function docType(t: DataType): DataType {
  return t.name === 'JSON' || isStringType(t) || t.name === 'NULL' ? t : Types.STRING;
}

/** The result type of a function returning JSON: JSON for a JSON document, VARCHAR for JSON text. */
function jsonResult(doc: DataType): DataType {
  return doc.name === 'JSON' ? Types.JSON : Types.STRING;
}

/** Resolver: argument 0 a document, the rest strings (paths); the result fixed or following the document. */
function docResolve(returns: DataType | 'json'): (argTypes: readonly DataType[]) => Resolution {
  return (types) => {
    const argTypes = types.map((t, argIdx) => (argIdx === 0 ? docType(t) : isStringType(t) ? t : Types.STRING));
    return { argTypes, returnType: returns === 'json' ? jsonResult(argTypes[0]) : returns };
  };
}

/** The parsed document of each row (undefined for NULL or invalid text); each dictionary entry parses once. */
function parseDocs(vec: Vector, rowCount: number): (JsonValue | undefined)[] {
  const out = new Array<JsonValue | undefined>(rowCount);
  const nulls = vec.nulls;
  if (vec.kind === 'dict') {
    const parsed = vec.dict.map((entry) => tryParseJson(entry));
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = nulls !== null && nulls[rowIdx] ? undefined : parsed[vec.codes[rowIdx]];
    return out;
  }
  const texts = toJsStrings(vec);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = texts[rowIdx];
    out[rowIdx] = text === null ? undefined : tryParseJson(text);
  }
  return out;
}

/** The path of each row: a constant path parses once per call site; others once per distinct text. */
function parsePaths(vec: Vector, rowCount: number, site: CallSite, argIdx: number, lenient = false): (JsonPath | null)[] {
  const texts = toJsStrings(vec);
  const key = `json-path-${argIdx}`;
  let cache = site.cache.get(key) as Map<string, JsonPath> | undefined;
  if (cache === undefined) {
    cache = new Map();
    site.cache.set(key, cache);
  }
  const out = new Array<JsonPath | null>(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = texts[rowIdx];
    if (text === null) {
      out[rowIdx] = null;
      continue;
    }
    let path = cache.get(text);
    if (path === undefined) {
      const parsed = parseJsonPath(text);
      if (parsed === null) {
        if (!lenient) throw galeneError('JSON_PATH_INVALID', text);
        out[rowIdx] = null;
        continue;
      }
      path = parsed;
      if (cache.size < 1024) cache.set(text, path);
    }
    out[rowIdx] = path;
  }
  return out;
}

/** A string result, `fn` returning null for NULL rows. */
function textResult(type: DataType, rowCount: number, fn: (rowIdx: number) => string | null): Vector {
  const out = new StringOut(type, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const value = fn(rowIdx);
    if (value === null) out.pushNull();
    else out.push(value);
  }
  return out.finish();
}

/** The value at arg 1's path in each row's document (undefined: NULL document, invalid text, no match). */
function extractAt(args: readonly Vector[], rowCount: number, site: CallSite): (JsonValue | undefined)[] {
  // get_json_*: a malformed path gives NULL (Doris's documented behaviour); json_* functions reject it.
  return targetAt(args, rowCount, site, 1, site.name.startsWith('get_json_'));
}

function extractKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  if (args.length === 2) {
    const found = extractAt(args, rowCount, site);
    return textResult(site.returnType, rowCount, (rowIdx) => (found[rowIdx] === undefined ? null : jsonToText(found[rowIdx]!)));
  }
  // Several paths: an array of what each path finds (null where it finds nothing).
  const docs = parseDocs(args[0], rowCount);
  const paths = args.slice(1).map((vec, idx) => parsePaths(vec, rowCount, site, idx + 1));
  return textResult(site.returnType, rowCount, (rowIdx) => {
    const doc = docs[rowIdx];
    if (doc === undefined) return null;
    const items = paths.map((rowPaths) => {
      const path = rowPaths[rowIdx];
      return path === null ? null : jsonExtractPath(doc, path) ?? null;
    });
    return jsonToText(items);
  });
}

/** A JSON value as the text json_extract_string gives: strings unquoted, everything else as JSON text. */
function stringOf(value: JsonValue): string {
  return typeof value === 'string' ? value : jsonToText(value);
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function intOf(value: JsonValue | undefined): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? value : null;
}

function doubleOf(value: JsonValue | undefined): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return null;
}

function bigintResult(rowCount: number, value: (rowIdx: number) => bigint | null): Vector {
  const out = new BigInt64Array(rowCount);
  let nulls: Uint8Array | null = null;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const result = value(rowIdx);
    if (result === null) (nulls ??= new Uint8Array(rowCount))[rowIdx] = 1;
    else out[rowIdx] = result;
  }
  return fixedVector(Types.BIGINT, out, nulls);
}

function bigintOf(value: JsonValue | undefined): bigint | null {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'bigint' && value >= -(2n ** 63n) && value < 2n ** 63n) return value;
  return null;
}

function largeintOf(value: JsonValue | undefined): bigint | null {
  // Integer text beyond 2^53 parses as a bigint; a number here beyond that was written as a double.
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'bigint' && value >= -(2n ** 127n) && value < 2n ** 127n) return value;
  return null;
}

/** The typed extractors: json_extract_<type> and get_json_<type> share them. */
const typedExtract = {
  string: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return textResult(Types.STRING, rowCount, (rowIdx) => (found[rowIdx] === undefined ? null : stringOf(found[rowIdx]!)));
  },
  int: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return valuesOrNulls(Types.INT, new Int32Array(rowCount), rowCount, (rowIdx) => intOf(found[rowIdx]));
  },
  bigint: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return bigintResult(rowCount, (rowIdx) => bigintOf(found[rowIdx]));
  },
  largeint: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return vectorFromValues(Types.LARGEINT, Array.from({ length: rowCount }, (_v, rowIdx) => largeintOf(found[rowIdx])));
  },
  double: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return valuesOrNulls(Types.DOUBLE, new Float64Array(rowCount), rowCount, (rowIdx) => doubleOf(found[rowIdx]));
  },
  bool: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return valuesOrNulls(Types.BOOLEAN, new Uint8Array(rowCount), rowCount, (rowIdx) => {
      const value = found[rowIdx];
      return typeof value === 'boolean' ? (value ? 1 : 0) : null;
    });
  },
  isnull: (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const found = extractAt(args, rowCount, site);
    return valuesOrNulls(Types.BOOLEAN, new Uint8Array(rowCount), rowCount, (rowIdx) => (found[rowIdx] === undefined ? null : found[rowIdx] === null ? 1 : 0));
  },
};

/** A SQL value as a JSON value: JSON parses, strings and temporals are JSON strings, numbers stay numbers. */
function jsonReader(vec: Vector): (rowIdx: number) => JsonValue {
  const type = vec.type;
  const read = rawReader(vec);
  if (type.name === 'JSON') {
    return (rowIdx) => {
      const raw = read(rowIdx);
      return raw === null ? null : parseJson(raw as string);
    };
  }
  if (type.name === 'BOOLEAN') return (rowIdx) => (read(rowIdx) === null ? null : read(rowIdx) !== 0);
  const numeric = isIntegerType(type) || type.name === 'FLOAT' || type.name === 'DOUBLE' || type.name === 'DECIMAL';
  return (rowIdx) => {
    const raw = read(rowIdx);
    if (raw === null) return null;
    if (isStringType(type)) return raw as string;
    const text = formatValue(type, raw) ?? '';
    if (!numeric) return text;
    return tryParseJson(text) ?? text;
  };
}

/** Arguments passed as they are (json_object / json_array values): only ARRAY is refused for now. */
function valuesResolve(returns: DataType, keysAt: 'even' | 'none'): (argTypes: readonly DataType[]) => Resolution {
  return (types) => {
    const argTypes = types.map((t, argIdx) => {
      if (keysAt === 'even' && argIdx % 2 === 0) return isStringType(t) ? t : Types.STRING;
      if (t.name === 'ARRAY') throw galeneError('TYPE_MISMATCH', `doesn't yet support ${typeToSql(t)} values in JSON functions`);
      return t;
    });
    return { argTypes, returnType: returns };
  };
}

function objectKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  if (args.length % 2 !== 0) throw galeneError('TYPE_MISMATCH', 'json_object need even args');
  const keys = args.filter((_, idx) => idx % 2 === 0).map(rawReader);
  const values = args.filter((_, idx) => idx % 2 === 1).map(jsonReader);
  return textResult(site.returnType, rowCount, (rowIdx) => {
    const object = new JsonObject([], []);
    for (let pairIdx = 0; pairIdx < keys.length; pairIdx++) {
      const key = keys[pairIdx](rowIdx);
      if (key === null) throw galeneError('TYPE_MISMATCH', "json_object key can't be NULL");
      object.keys.push(String(key));
      object.values.push(values[pairIdx](rowIdx));
    }
    return jsonToText(object);
  });
}

function arrayKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const values = args.map(jsonReader);
  return textResult(site.returnType, rowCount, (rowIdx) => jsonToText(values.map((read) => read(rowIdx))));
}

/** json_array_ignore_null: SQL NULL arguments are left out (a JSON null value stays). */
function arrayIgnoreNullKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const values = args.map(jsonReader);
  return textResult(site.returnType, rowCount, (rowIdx) => {
    const items: JsonValue[] = [];
    args.forEach((vec, argIdx) => {
      if (vec.type.name === 'NULL' || (vec.nulls !== null && vec.nulls[rowIdx])) return;
      items.push(values[argIdx](rowIdx));
    });
    return jsonToText(items);
  });
}

/** A document function mapping each parsed document to a new value (undefined gives NULL). */
function mapDocs(fn: (doc: JsonValue) => JsonValue | undefined) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const docs = parseDocs(args[0], rowCount);
    return textResult(site.returnType, rowCount, (rowIdx) => {
      const doc = docs[rowIdx];
      const result = doc === undefined ? undefined : fn(doc);
      return result === undefined ? null : jsonToText(result);
    });
  };
}

/** json_object_flatten: {"a": {"b": 1}} -> {"a.b": 1}; an empty nested object stays a leaf. */
function flattenObject(doc: JsonValue): JsonValue {
  if (!(doc instanceof JsonObject)) return doc;
  const out = new JsonObject([], []);
  const walk = (obj: JsonObject, prefix: string): void => {
    obj.keys.forEach((key, idx) => {
      const value = obj.values[idx];
      if (value instanceof JsonObject && value.keys.length > 0) walk(value, `${prefix}${key}.`);
      else out.set(prefix + key, value);
    });
  };
  walk(doc, '');
  return out;
}

function numbersToDouble(doc: JsonValue): JsonValue {
  if (typeof doc === 'bigint') return Number(doc);
  if (Array.isArray(doc)) return doc.map(numbersToDouble);
  if (doc instanceof JsonObject) return new JsonObject([...doc.keys], doc.values.map(numbersToDouble));
  return doc;
}

/** json_remove(doc, path[, path...]): each path's member or element removed, in order. */
function removeKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const docs = toJsStrings(args[0]);
  const paths = args.slice(1).map((vec, idx) => parsePaths(vec, rowCount, site, idx + 1));
  for (const rowPaths of paths) for (const path of rowPaths) if (path !== null && (path.wildcard || path.legs.length === 0)) throw galeneError('JSON_PATH_INVALID', path.text);
  return textResult(site.returnType, rowCount, (rowIdx) => {
    const text = docs[rowIdx];
    let doc = text === null ? undefined : tryParseJson(text); // parsed per row: modified in place
    if (doc === undefined) return null;
    for (const rowPaths of paths) doc = jsonRemove(doc, rowPaths[rowIdx]!);
    return jsonToText(doc);
  });
}

/** json_search(doc, 'one' | 'all', search_str[, escape]): the path(s) of string values matching a LIKE pattern. */
function searchKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const docs = parseDocs(args[0], rowCount);
  const modes = toJsStrings(args[1]);
  const patterns = toJsStrings(args[2]);
  const escapes = args.length > 3 ? toJsStrings(args[3]) : null;
  let cached: { key: string; test: (value: string) => boolean } | null = null;
  return textResult(site.returnType, rowCount, (rowIdx) => {
    const doc = docs[rowIdx];
    const mode = modes[rowIdx]!.toLowerCase();
    if (mode !== 'one' && mode !== 'all') throw galeneError('TYPE_MISMATCH', `the one_or_all argument ${modes[rowIdx]} is not 'one' not 'all'`);
    if (doc === undefined) return null;
    const escape = escapes === null ? '\\' : escapes[rowIdx] || '\\';
    const key = escape + '\u0000' + patterns[rowIdx];
    if (cached === null || cached.key !== key) cached = { key, test: likePredicate(patterns[rowIdx]!, escape) };
    const found = jsonSearchPaths(doc, cached.test, mode === 'one');
    if (found.length === 0) return null;
    return jsonToText(found.length === 1 ? found[0] : found);
  });
}

/** json_insert / json_replace / json_set(doc, path, value[, path, value...]). */
function modifyKernel(mode: 'insert' | 'replace' | 'set') {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    if (args.length % 2 !== 1) throw galeneError('WRONG_ARG_COUNT', site.name);
    const docs = toJsStrings(args[0]);
    const pairs: { paths: (JsonPath | null)[]; values: (rowIdx: number) => JsonValue }[] = [];
    for (let argIdx = 1; argIdx < args.length; argIdx += 2) {
      const paths = parsePaths(args[argIdx], rowCount, site, argIdx);
      for (const path of paths) if (path !== null && path.wildcard) throw galeneError('JSON_PATH_INVALID', path.text);
      pairs.push({ paths, values: jsonReader(args[argIdx + 1]) });
    }
    return textResult(site.returnType, rowCount, (rowIdx) => {
      const text = docs[rowIdx];
      if (text === null) return null;
      let doc = tryParseJson(text); // parsed per row: the tree is modified in place
      if (doc === undefined) return null;
      for (const pair of pairs) {
        const path = pair.paths[rowIdx];
        if (path === null) return null;
        doc = jsonModify(doc, path, pair.values(rowIdx), mode);
      }
      return jsonToText(doc);
    });
  };
}

function modifyResolve(types: readonly DataType[]): Resolution {
  const argTypes = types.map((t, argIdx) => {
    if (argIdx === 0) return docType(t);
    if (argIdx % 2 === 1) return isStringType(t) ? t : Types.STRING;
    if (t.name === 'ARRAY') throw galeneError('TYPE_MISMATCH', `doesn't yet support ${typeToSql(t)} values in JSON functions`);
    return t;
  });
  return { argTypes, returnType: jsonResult(argTypes[0]) };
}

/** The document, or the value at the optional path argument (argument 1 or 2). */
function targetAt(args: readonly Vector[], rowCount: number, site: CallSite, pathArg: number, lenient = false): (JsonValue | undefined)[] {
  if (args.length <= pathArg) return parseDocs(args[0], rowCount);
  const docs = parseDocs(args[0], rowCount);
  const paths = parsePaths(args[pathArg], rowCount, site, pathArg, lenient);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const doc = docs[rowIdx];
    const path = paths[rowIdx];
    docs[rowIdx] = doc === undefined || path === null ? undefined : jsonExtractPath(doc, path);
  }
  return docs;
}

/** json_parse and its error variants: 'error' throws Doris's parse error, 'null' gives NULL, 'value' the default. */
function parseKernel(onError: 'error' | 'null' | 'value') {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const texts = toJsStrings(args[0]);
    const defaults = args.length > 1 ? toJsStrings(args[1]) : null;
    return textResult(site.returnType, rowCount, (rowIdx) => {
      const text = texts[rowIdx];
      if (text === null) return null;
      try {
        return jsonToText(parseJson(text));
      } catch (err) {
        if (!(err instanceof JsonSyntaxError)) throw err;
        if (onError === 'null') return null;
        if (onError === 'error') throw galeneError('JSON_PARSE_FAILED', rowIdx, err.message);
        const fallback = defaults === null ? null : defaults[rowIdx];
        if (fallback === null) return null;
        const parsed = tryParseJson(fallback);
        if (parsed === undefined) throw galeneError('JSON_PARSE_FAILED', rowIdx, `Invalid default value: ${fallback}`);
        return jsonToText(parsed);
      }
    });
  };
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const parsed = tryParseJson(text);
    if (typeof parsed === 'string') return parsed;
  }
  return text;
}

const DOC = arg('json_str');
const PATH = arg('json_path', 'STRING');

function typedDecl(name: string, aliases: string[], kernel: (args: readonly Vector[], rowCount: number, site: CallSite) => Vector, returns: DataType, what: string, example: string): FunctionDef {
  return json(name, { aliases, args: [DOC, PATH], returns, resolve: docResolve(returns), kernel, description: what, example });
}

export const JSON_FUNCTIONS: readonly FunctionDef[] = [
  json('json_extract', {
    aliases: ['jsonb_extract'],
    args: [DOC, rest('json_path', 'STRING')],
    returns: 'JSON (VARCHAR for a VARCHAR document)',
    resolve: docResolve('json'),
    kernel: extractKernel,
    description: 'The value at a JSON path (`$.a.b`, `$.a[0]`, `$[*]`, `$."key"`); with several paths an array of each one\'s value. NULL when the path matches nothing or the text is not JSON.',
    example: `SELECT json_extract('{"id":123,"name":"doris"}', '$.name')`,
  }),
  typedDecl('json_extract_string', ['jsonb_extract_string'], typedExtract.string, Types.STRING, 'The value at a path as text: strings without their quotes, other values as JSON text.', `SELECT json_extract_string('{"k":"v"}', '$.k')`),
  typedDecl('json_extract_int', ['jsonb_extract_int'], typedExtract.int, Types.INT, 'The INT at a path; NULL when the value there is not an integer in INT range.', `SELECT json_extract_int('{"k":12}', '$.k')`),
  typedDecl('json_extract_bigint', ['jsonb_extract_bigint'], typedExtract.bigint, Types.BIGINT, 'The BIGINT at a path; NULL when the value there is not an integer in BIGINT range.', `SELECT json_extract_bigint('{"k":12345678901}', '$.k')`),
  typedDecl('json_extract_largeint', ['jsonb_extract_largeint'], typedExtract.largeint, Types.LARGEINT, 'The LARGEINT (128-bit integer) at a path; NULL when the value there is not an integer in LARGEINT range.', `SELECT json_extract_largeint('{"k":170141183460469231731687303715884105727}', '$.k')`),
  typedDecl('json_extract_double', ['jsonb_extract_double'], typedExtract.double, Types.DOUBLE, 'The number at a path as DOUBLE; NULL when the value there is not a number.', `SELECT json_extract_double('{"k":1.5}', '$.k')`),
  typedDecl('json_extract_bool', ['jsonb_extract_bool'], typedExtract.bool, Types.BOOLEAN, 'The boolean at a path; NULL when the value there is not true or false.', `SELECT json_extract_bool('{"k":true}', '$.k')`),
  typedDecl('json_extract_isnull', ['jsonb_extract_isnull'], typedExtract.isnull, Types.BOOLEAN, 'Whether the value at a path is JSON null; NULL when the path matches nothing.', `SELECT json_extract_isnull('{"k":null}', '$.k')`),
  typedDecl('get_json_string', [], typedExtract.string, Types.STRING, 'The value at a path of JSON text as a string (strings unquoted); NULL for invalid JSON or a missing path.', `SELECT get_json_string('{"k1":"v1", "k2":"v2"}', '$.k1')`),
  typedDecl('get_json_int', [], typedExtract.int, Types.INT, 'The INT at a path of JSON text; NULL for invalid JSON, a missing path or a value that is not an INT.', `SELECT get_json_int('{"k1":1, "k2":"2"}', '$.k1')`),
  typedDecl('get_json_bigint', [], typedExtract.bigint, Types.BIGINT, 'The BIGINT at a path of JSON text; NULL for invalid JSON, a missing path or a value that is not an integer.', `SELECT get_json_bigint('{"k1":1678708107000}', '$.k1')`),
  typedDecl('get_json_double', [], typedExtract.double, Types.DOUBLE, 'The number at a path of JSON text as DOUBLE; NULL for invalid JSON, a missing path or a non-number.', `SELECT get_json_double('{"k1":1.3, "k2":"2"}', '$.k1')`),
  json('json_exists_path', {
    aliases: ['jsonb_exists_path'],
    args: [DOC, PATH],
    returns: Types.BOOLEAN,
    resolve: docResolve(Types.BOOLEAN),
    kernel: (args, rowCount, site) => {
      const docs = parseDocs(args[0], rowCount);
      const paths = parsePaths(args[1], rowCount, site, 1);
      return valuesOrNulls(Types.BOOLEAN, new Uint8Array(rowCount), rowCount, (rowIdx) => {
        const doc = docs[rowIdx];
        const path = paths[rowIdx];
        return doc === undefined || path === null ? null : jsonPathMatches(doc, path).length > 0 ? 1 : 0;
      });
    },
    description: 'Whether the path matches a value in the document.',
    example: `SELECT json_exists_path('{"a":1}', '$.a')`,
  }),
  json('json_type', {
    aliases: ['jsonb_type'],
    args: [DOC, opt('json_path', 'STRING')],
    returns: Types.STRING,
    resolve: docResolve(Types.STRING),
    kernel: (args, rowCount, site) => {
      const found = targetAt(args, rowCount, site, 1);
      return textResult(Types.STRING, rowCount, (rowIdx) => (found[rowIdx] === undefined ? null : jsonTypeName(found[rowIdx]!)));
    },
    description: 'The type of the value at a path: object, array, null, bool, int, bigint, largeint, double or string.',
    example: `SELECT json_type('{"k1":"v31","k2":300}', '$.k2')`,
  }),
  json('json_length', {
    aliases: ['jsonb_length'],
    args: [DOC, opt('json_path', 'STRING')],
    returns: Types.INT,
    resolve: docResolve(Types.INT),
    kernel: (args, rowCount, site) => {
      const found = targetAt(args, rowCount, site, 1);
      return valuesOrNulls(Types.INT, new Int32Array(rowCount), rowCount, (rowIdx) => {
        const value = found[rowIdx];
        if (value === undefined) return null;
        if (Array.isArray(value)) return value.length;
        return value instanceof JsonObject ? value.keys.length : 1;
      });
    },
    description: 'The number of elements of an array, members of an object, or 1 for a scalar (at the optional path).',
    example: `SELECT json_length('{"k1":"v31","k2":300}')`,
  }),
  json('json_keys', {
    aliases: ['jsonb_keys'],
    args: [DOC, opt('json_path', 'STRING')],
    returns: Types.JSON,
    resolve: docResolve(Types.JSON),
    kernel: (args, rowCount, site) => {
      const found = targetAt(args, rowCount, site, 1);
      return textResult(Types.JSON, rowCount, (rowIdx) => {
        const value = found[rowIdx];
        return value instanceof JsonObject ? jsonToText(value.keys) : null;
      });
    },
    description: 'The keys of the object (at the optional path) as a JSON array; NULL when it is not an object.',
    example: `SELECT json_keys('{"a": 1, "b": {"c": 30}}')`,
  }),
  json('json_contains', {
    aliases: ['jsonb_contains'],
    args: [DOC, arg('candidate'), opt('json_path', 'STRING')],
    returns: Types.BOOLEAN,
    resolve: (types) => ({ argTypes: types.map((t, argIdx) => (argIdx < 2 ? docType(t) : isStringType(t) ? t : Types.STRING)), returnType: Types.BOOLEAN }),
    kernel: (args, rowCount, site) => {
      const targets = targetAt([args[0], ...args.slice(2)], rowCount, site, 1);
      const candidates = parseDocs(args[1], rowCount);
      return valuesOrNulls(Types.BOOLEAN, new Uint8Array(rowCount), rowCount, (rowIdx) => {
        const target = targets[rowIdx];
        const candidate = candidates[rowIdx];
        return target === undefined || candidate === undefined ? null : jsonContains(target, candidate) ? 1 : 0;
      });
    },
    description: 'Whether the document (or its value at the path) contains the candidate JSON (MySQL semantics: arrays contain elements, objects contain sub-objects).',
    example: `SELECT json_contains('{"a": 1, "b": 2}', '1', '$.a')`,
  }),
  json('json_valid', {
    args: [arg('json_str', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return valuesOrNulls(Types.INT, new Int32Array(rowCount), rowCount, (rowIdx) => (texts[rowIdx] === null ? null : tryParseJson(texts[rowIdx]!) === undefined ? 0 : 1));
    },
    description: 'Whether the text is valid JSON: 1 or 0.',
    example: `SELECT json_valid('{"k1":"v31","k2":300}')`,
  }),
  json('json_quote', {
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return textResult(Types.STRING, rowCount, (rowIdx) => (texts[rowIdx] === null ? null : quoteJsonString(texts[rowIdx]!)));
    },
    description: 'The string as a JSON string literal: in double quotes with `"`, `\\` and control characters escaped.',
    example: `SELECT json_quote('a"b')`,
  }),
  json('json_unquote', {
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return textResult(Types.STRING, rowCount, (rowIdx) => (texts[rowIdx] === null ? null : unquote(texts[rowIdx]!)));
    },
    description: 'A JSON string literal without its quotes and escapes; other text is returned as it is.',
    example: `SELECT json_unquote('"doris"')`,
  }),
  json('json_object', {
    aliases: ['jsonb_object'],
    args: [rest('key, value', undefined, true)],
    returns: Types.JSON,
    resolve: valuesResolve(Types.JSON, 'even'),
    nulls: 'custom',
    kernel: objectKernel,
    description: 'A JSON object of key/value pairs; NULL values become null, a NULL key is an error.',
    example: `SELECT json_object('id', 1, 'name', 'doris')`,
  }),
  json('json_array', {
    aliases: ['jsonb_array'],
    args: [rest('value', undefined, true)],
    returns: Types.JSON,
    resolve: valuesResolve(Types.JSON, 'none'),
    nulls: 'custom',
    kernel: arrayKernel,
    description: 'A JSON array of the values; NULL values become null.',
    example: `SELECT json_array(1, 'abc', NULL, true)`,
  }),
  json('json_array_ignore_null', {
    args: [rest('value', undefined, true)],
    returns: Types.JSON,
    resolve: valuesResolve(Types.JSON, 'none'),
    nulls: 'custom',
    kernel: arrayIgnoreNullKernel,
    description: 'A JSON array of the values that are not NULL.',
    example: `SELECT json_array_ignore_null(1, NULL, 'a')`,
  }),
  json('json_remove', {
    aliases: ['jsonb_remove'],
    args: [DOC, rest('json_path', 'STRING')],
    returns: 'JSON (VARCHAR for a VARCHAR document)',
    resolve: docResolve('json'),
    kernel: removeKernel,
    description: 'The document without the members or elements at the paths (applied in order); paths that match nothing are ignored.',
    example: `SELECT json_remove('{"a": 1, "b": [1, 2]}', '$.b[0]')`,
  }),
  json('json_search', {
    args: [DOC, arg('one_or_all', 'STRING'), arg('search_str', 'STRING'), opt('escape_char', 'STRING')],
    returns: Types.JSON,
    resolve: (types) => ({ argTypes: types.map((t, argIdx) => (argIdx === 0 ? docType(t) : isStringType(t) ? t : Types.STRING)), returnType: Types.JSON }),
    kernel: searchKernel,
    description: "The path of the first ('one') or every ('all', an array when several) string value matching a LIKE pattern (`%`, `_`); NULL when none does.",
    example: `SELECT json_search('{"a": "abc", "b": ["abd", "x"]}', 'all', 'ab%')`,
  }),
  json('sort_json_object_keys', {
    args: [DOC],
    returns: Types.JSON,
    resolve: docResolve(Types.JSON),
    kernel: mapDocs(sortJsonKeys),
    description: 'The JSON value with the keys of every object sorted.',
    example: `SELECT sort_json_object_keys('{"b": 1, "a": {"d": 2, "c": 3}}')`,
  }),
  json('json_object_flatten', {
    args: [DOC],
    returns: Types.JSON,
    resolve: docResolve(Types.JSON),
    kernel: mapDocs(flattenObject),
    description: "Nested objects flattened into one object whose keys are the paths joined by '.' (arrays and scalars are leaves); a non-object value unchanged.",
    example: `SELECT json_object_flatten('{"a": {"b": 1, "c": {"d": [1, 2]}}, "e": "x"}')`,
  }),
  json('normalize_json_numbers_to_double', {
    args: [DOC],
    returns: Types.JSON,
    resolve: docResolve(Types.JSON),
    kernel: mapDocs(numbersToDouble),
    description: 'Every number of the JSON value as a double (integers beyond 2^53 round to the nearest double), so documents that differ only in number types compare equal.',
    example: `SELECT normalize_json_numbers_to_double('{"a": 12345678901234567890, "b": [1, 2.5]}')`,
  }),
  json('strip_null_value', {
    args: [DOC],
    returns: Types.JSON,
    resolve: docResolve(Types.JSON),
    kernel: mapDocs((doc) => (doc === null ? undefined : doc)),
    description: 'SQL NULL for a JSON null value; any other value unchanged.',
    example: `SELECT strip_null_value('null')`,
  }),
  json('to_json', {
    args: [arg('value')],
    returns: Types.JSON,
    resolve: valuesResolve(Types.JSON, 'none'),
    kernel: (args, rowCount, site) => {
      const read = jsonReader(args[0]);
      return textResult(site.returnType, rowCount, (rowIdx) => jsonToText(read(rowIdx)));
    },
    description: 'The value as JSON: numbers and booleans as themselves, strings and dates as JSON strings.',
    example: `SELECT to_json('abc')`,
  }),
  ...(['insert', 'replace', 'set'] as const).map((mode) =>
    json(`json_${mode}`, {
      aliases: [`jsonb_${mode}`],
      args: [DOC, arg('json_path', 'STRING'), rest('value')],
      returns: 'JSON (VARCHAR for a VARCHAR document)',
      resolve: modifyResolve,
      // A NULL document or path gives NULL; a NULL value is written as JSON null.
      nulls: 'custom',
      kernel: modifyKernel(mode),
      description:
        mode === 'insert'
          ? 'Adds values at paths that do not exist yet; existing values stay.'
          : mode === 'replace'
            ? 'Replaces values at paths that exist; missing paths are not added.'
            : 'Sets values at paths: replaced when they exist, added when they do not.',
      example: `SELECT json_${mode}('{"a": 1}', '$.${mode === 'insert' ? 'b' : 'a'}', 2)`,
    }),
  ),
  json('json_parse', {
    aliases: ['jsonb_parse'],
    args: [arg('json_str', 'STRING')],
    returns: Types.JSON,
    kernel: parseKernel('error'),
    description: 'Parses JSON text into a JSON value; invalid text is an error.',
    example: `SELECT json_parse('{"k1":"v31","k2":300}')`,
  }),
  json('json_parse_error_to_null', {
    aliases: ['jsonb_parse_error_to_null'],
    args: [arg('json_str', 'STRING')],
    returns: Types.JSON,
    kernel: parseKernel('null'),
    description: 'Parses JSON text into a JSON value; invalid text gives NULL.',
    example: `SELECT json_parse_error_to_null('invalid')`,
  }),
  json('json_parse_error_to_value', {
    aliases: ['jsonb_parse_error_to_value'],
    args: [arg('json_str', 'STRING'), arg('default_json', 'STRING')],
    returns: Types.JSON,
    nulls: 'custom',
    kernel: parseKernel('value'),
    description: 'Parses JSON text into a JSON value; invalid text gives the (parsed) default.',
    example: `SELECT json_parse_error_to_value('invalid', '{}')`,
  }),
];
