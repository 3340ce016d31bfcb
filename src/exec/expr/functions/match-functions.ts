/**
 * The full-text MATCH predicates evaluated row by row, and TOKENIZE.
 *
 * `col MATCH_ANY 'q'` parses to match_any(col, 'q'). The binder (sql/bind-match.ts) checks the operands as
 * Doris does and adds a third, constant argument: the analyzer of the column's INVERTED index as JSON
 * (matchAnalyzerArgument: the index name and its PROPERTIES; `{}` without an index, which matches whole
 * values as parser none does). The kernel tokenizes each value with that analyzer and decides the row
 * with storage/inverted/match-semantics.ts, the rules the index reader also uses, so a scan and an index
 * give the same rows. An inverted-index scan (slice C's rule) replaces the call by a per-segment index
 * lookup; this kernel is the path for segments without an index file and the oracle index tests compare
 * against.
 *
 * Doris behaviour copied (be/src/vec/functions/match.cpp): NULL values (and NULL ARRAY elements) never
 * match; a query that analyzes to no terms matches no row; an ARRAY<STRING> value is its elements' tokens
 * in order; MATCH_REGEXP searches each term with the pattern (unanchored).
 */
import type { ArrayVector, RawValue, Vector } from '../../../common/column';
import { GaleneError } from '../../../common/errors';
import { elementType, isArrayType, isStringType, Types, type DataType } from '../../../common/types';
import type { IndexSchema } from '../../../meta/schema';
import {
  analyzeElements,
  analyzerFor,
  analyzeTerms,
  isTokenized,
  KEYWORD_ANALYZER,
  matchesTokens,
  matchQuery,
  parseInvertedProperties,
  PHRASE_OPS,
  type AnalyzerConfig,
  type MatchOp,
  type MatchQuery,
} from '../../../storage/inverted';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { arg, defineFunction } from '../signature';
import { fixedVector, outputU8, toJsStrings, vectorFromValues } from '../vector-ops';

/** SQL operator name (upper case, as MATCH_OPERATORS spells it) -> function. `MATCH` is MATCH_ANY. */
export const MATCH_FUNCTION_OF: Readonly<Record<string, MatchOp>> = {
  match: 'match_any',
  match_any: 'match_any',
  match_all: 'match_all',
  match_phrase: 'match_phrase',
  match_phrase_prefix: 'match_phrase_prefix',
  match_regexp: 'match_regexp',
  match_phrase_edge: 'match_phrase_edge',
};

/** What the binder's third argument holds. */
export interface MatchAnalyzerSpec {
  /** The INVERTED index on the column; absent without one. */
  readonly index?: string;
  readonly properties?: Readonly<Record<string, string>>;
}

/** Whether a column of this type can be matched: a string, or an ARRAY of strings (Doris: "Not supported input column types"). */
export function isMatchableType(type: DataType): boolean {
  return isStringType(type) || (isArrayType(type) && isStringType(elementType(type)));
}

/**
 * The binder's third argument for `op` on a column with INVERTED index `index` (undefined: none). Throws
 * Doris's error for a phrase query on a tokenized index without positions.
 */
export function matchAnalyzerArgument(op: MatchOp, index: IndexSchema | undefined): string {
  if (index === undefined) return '{}';
  const config = analyzerFor(index);
  if (PHRASE_OPS.has(op) && isTokenized(config) && !config.supportPhrase) {
    throw new GaleneError('INVALID_ARGUMENT', ['phrase queries require setting support_phrase = true']);
  }
  return JSON.stringify({ index: index.name, properties: index.properties } satisfies MatchAnalyzerSpec);
}

/** The analyzer a call site's third argument names (parsed once per call site). */
function siteAnalyzer(site: CallSite, specVector: Vector): AnalyzerConfig {
  let config = site.cache.get('match.analyzer') as AnalyzerConfig | undefined;
  if (config === undefined) {
    const text = toJsStrings(specVector)[0] ?? '{}';
    const spec = JSON.parse(text === '' ? '{}' : text) as MatchAnalyzerSpec;
    config = spec.properties === undefined || Object.keys(spec.properties).length === 0 ? KEYWORD_ANALYZER : parseInvertedProperties(spec.properties);
    site.cache.set('match.analyzer', config);
  }
  return config;
}

/** The prepared query of a constant query argument (once per call site) or of one row's text. */
function queryFor(op: MatchOp, site: CallSite, text: string, config: AnalyzerConfig): MatchQuery {
  const key = `match.query:${text}`;
  let query = site.cache.get(key) as MatchQuery | undefined;
  if (query === undefined) {
    query = matchQuery(op, text, config);
    if (site.cache.size > 1000) site.cache.clear();
    site.cache.set(key, query);
  }
  return query;
}

/** The values of a string or ARRAY<STRING> vector as lists of element strings (null: NULL row). */
function valueElements(column: Vector): ((rowIdx: number) => readonly (string | null)[] | null) {
  if (column.kind === 'array') {
    const list = column as ArrayVector;
    const elements = toJsStrings(list.child);
    return (rowIdx) => (list.nulls !== null && list.nulls[rowIdx] ? null : elements.slice(list.offsets[rowIdx], list.offsets[rowIdx + 1]));
  }
  const strings = toJsStrings(column);
  return (rowIdx) => {
    const value = strings[rowIdx];
    return value === null ? null : [value];
  };
}

function matchKernel(op: MatchOp) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const config = siteAnalyzer(site, args[2]);
    const out = outputU8(site, rowCount);
    out.fill(0);
    const queries = toJsStrings(args[1]);
    const constQuery = site.isConst[1];
    const column = args[0];
    if (column.kind === 'dict' && constQuery && rowCount > 0) {
      // one decision per dictionary entry
      const query = queryFor(op, site, queries[0] ?? '', config);
      const decided = column.dict.map((value) => (matchesTokens(op, query, analyzeElements([value], config)) ? 1 : 0));
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = decided[column.codes[rowIdx]];
      return fixedVector(Types.BOOLEAN, out);
    }
    const elementsOf = valueElements(column);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const elements = elementsOf(rowIdx);
      const text = queries[constQuery ? 0 : rowIdx];
      if (elements === null || text === null) continue;
      const query = queryFor(op, site, text, config);
      out[rowIdx] = matchesTokens(op, query, analyzeElements(elements, config)) ? 1 : 0;
    }
    return fixedVector(Types.BOOLEAN, out);
  };
}

function resolveMatch(name: string) {
  return (argTypes: readonly DataType[]): Resolution => {
    if (argTypes.length !== 3 || !isMatchableType(argTypes[0])) throw badArgs(name, argTypes);
    return { argTypes: [argTypes[0], isStringType(argTypes[1]) ? argTypes[1] : Types.STRING, Types.STRING], returnType: Types.BOOLEAN };
  };
}

const MATCH_DESCRIPTIONS: Record<MatchOp, [string, string]> = {
  match_any: ['col MATCH_ANY query -> BOOLEAN', 'Whether the value has any term of the query, both tokenized with the analyzer of the inverted index on col (the whole value without one). MATCH is the same.'],
  match_all: ['col MATCH_ALL query -> BOOLEAN', 'Whether the value has every term of the query.'],
  match_phrase: ['col MATCH_PHRASE query -> BOOLEAN', "Whether the query's terms appear as a phrase; 'a b ~N' allows N positions of slop in any order, 'a b ~N+' in order."],
  match_phrase_prefix: ['col MATCH_PHRASE_PREFIX query -> BOOLEAN', 'A phrase whose last term matches by prefix.'],
  match_regexp: ['col MATCH_REGEXP pattern -> BOOLEAN', 'Whether some term of the value matches the regular expression (RE2, unanchored).'],
  match_phrase_edge: ['col MATCH_PHRASE_EDGE query -> BOOLEAN', 'A phrase whose first term matches as a suffix and last term as a prefix (one term: as a substring).'],
};

const MATCH_DEFS: readonly FunctionDef[] = (Object.keys(MATCH_DESCRIPTIONS) as MatchOp[]).map((op) =>
  defineFunction({
    name: op,
    ...(op === 'match_any' ? { aliases: ['match'] } : {}),
    family: 'predicate',
    args: [arg('col'), arg('query'), arg('analyzer')],
    returns: Types.BOOLEAN,
    signature: MATCH_DESCRIPTIONS[op][0],
    resolve: resolveMatch(op),
    kernel: matchKernel(op),
    description: MATCH_DESCRIPTIONS[op][1],
    example: `SELECT count(*) FROM t WHERE name ${op.toUpperCase()} '${op === 'match_regexp' ? '^a' : 'a'}'`,
  }),
);

/**
 * TOKENIZE's properties text, Doris's form `"parser"="english","lower_case"="false"` (quotes optional).
 * Throws Doris's message for an unknown key or value.
 */
export function parseTokenizeProperties(text: string): AnalyzerConfig {
  const properties: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) throw new GaleneError('INVALID_ARGUMENT', [`invalid tokenize properties: ${text}`]);
    const unquote = (value: string): string => value.trim().replace(/^"(.*)"$/s, '$1');
    properties[unquote(part.slice(0, eq))] = unquote(part.slice(eq + 1));
  }
  return parseInvertedProperties(properties);
}

function tokenizeKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const texts = toJsStrings(args[0]);
  const propertyTexts = toJsStrings(args[1]);
  const rows: RawValue[] = new Array<RawValue>(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = texts[rowIdx];
    const propertyText = propertyTexts[site.isConst[1] ? 0 : rowIdx];
    if (text === null || propertyText === null) {
      rows[rowIdx] = null;
      continue;
    }
    const key = `tokenize:${propertyText}`;
    let config = site.cache.get(key) as AnalyzerConfig | undefined;
    if (config === undefined) site.cache.set(key, (config = parseTokenizeProperties(propertyText)));
    rows[rowIdx] = analyzeTerms(text, config);
  }
  return vectorFromValues(site.returnType, rows);
}

export const MATCH_FUNCTIONS: readonly FunctionDef[] = [
  ...MATCH_DEFS,
  defineFunction({
    name: 'tokenize',
    family: 'string',
    args: [arg('str', 'STRING'), arg('properties', 'STRING')],
    returns: Types.array(Types.STRING),
    kernel: tokenizeKernel,
    description: 'The terms an inverted index with these PROPERTIES makes of str (e.g. \'"parser"="english"\'), in order.',
    example: 'SELECT tokenize(\'I love Doris\', \'"parser"="english"\')',
  }),
];
