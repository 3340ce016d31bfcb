/**
 * PROPERTIES of an INVERTED index: Doris's keys, checks and messages
 * (fe InvertedIndexUtil.checkInvertedIndexProperties), and the AnalyzerConfig they describe. The DDL checks
 * (fe/statements/index-ddl.ts) call parseInvertedProperties before anything changes; the writer, the reader
 * and the match_* functions call analyzerFor on the stored index, so all of them tokenize alike.
 */
import { GaleneError } from '../../common/errors';
import type { IndexSchema } from '../../meta/schema';
import { chineseParserAvailable, chineseUnavailableError, KEYWORD_ANALYZER, type AnalyzerConfig } from './analyzer';

/** Every key Doris accepts in PROPERTIES of an INVERTED index (plus use_stopwords, an alias of stopwords). */
export const INVERTED_PROPERTY_KEYS: readonly string[] = [
  'parser', 'parser_mode', 'support_phrase', 'char_filter_type', 'char_filter_pattern', 'char_filter_replacement',
  'ignore_above', 'lower_case', 'stopwords', 'use_stopwords',
];

const KNOWN_KEYS = new Set(INVERTED_PROPERTY_KEYS);
const PARSERS = new Set(['none', 'english', 'unicode', 'chinese', 'standard']);

const invalid = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

/**
 * The first thing Doris refuses in an INVERTED index's PROPERTIES, as its message
 * (InvertedIndexUtil.checkInvertedIndexProperties), or undefined when they are valid. Values are
 * case-sensitive, as in Doris.
 */
export function invertedPropertiesProblem(properties: Readonly<Record<string, string>>): string | undefined {
  for (const key of Object.keys(properties)) if (!KNOWN_KEYS.has(key)) return `Invalid inverted index property key: ${key}`;
  const { parser, parser_mode: parserMode, support_phrase: supportPhrase, lower_case: lowerCase, ignore_above: ignoreAbove } = properties;
  const stopwords = properties.stopwords ?? properties.use_stopwords;
  if (parser !== undefined && !PARSERS.has(parser)) return `Invalid inverted index 'parser' value: ${parser}, parser must be none, english, unicode or chinese`;
  if (parser !== 'chinese' && parserMode !== undefined) return 'parser_mode is only available for chinese parser';
  if (parserMode !== undefined && parserMode !== 'fine_grained' && parserMode !== 'coarse_grained') {
    return `Invalid inverted index 'parser_mode' value: ${parserMode}, parser_mode must be fine_grained or coarse_grained`;
  }
  if (supportPhrase !== undefined && supportPhrase !== 'true' && supportPhrase !== 'false') {
    return `Invalid inverted index 'support_phrase' value: ${supportPhrase}, support_phrase must be true or false`;
  }
  if (properties.char_filter_type === 'char_replace' && !properties.char_filter_pattern) return "Missing 'char_filter_pattern' for 'char_replace' filter type";
  if (ignoreAbove !== undefined) {
    if (!/^[+-]?\d+$/.test(ignoreAbove) || !Number.isSafeInteger(Number(ignoreAbove))) return "Invalid inverted index 'ignore_above' value, ignore_above must be integer";
    if (Number(ignoreAbove) <= 0) return `Invalid inverted index 'ignore_above' value: ${Number(ignoreAbove)}, ignore_above must be positive`;
  }
  if (lowerCase !== undefined && lowerCase !== 'true' && lowerCase !== 'false') return `Invalid inverted index 'lower_case' value: ${lowerCase}, lower_case must be true or false`;
  if (stopwords !== undefined && stopwords !== 'none') return `Invalid inverted index 'stopWords' value: ${stopwords}, stopWords must be none`;
  return undefined;
}

/**
 * The analyzer an INVERTED index's PROPERTIES describe, or a GaleneError with Doris's message for the
 * first bad key or value. Defaults: parser none; parser_mode coarse_grained; lower_case true (Doris 2.1+;
 * never applied by parser none, whose term is the exact value); stopwords the default list;
 * support_phrase true when a parser is set (Doris 2.1+ Index). Parser chinese is refused when the jieba
 * segmenter does not load here.
 */
export function parseInvertedProperties(properties: Readonly<Record<string, string>>): AnalyzerConfig {
  const problem = invertedPropertiesProblem(properties);
  if (problem !== undefined) throw invalid(problem);
  const { parser, parser_mode: parserMode, support_phrase: supportPhrase, lower_case: lowerCase, char_filter_type: charFilterType } = properties;
  const stopwords = properties.stopwords ?? properties.use_stopwords;
  if (parser === 'chinese' && !chineseParserAvailable()) throw chineseUnavailableError();

  const parserName: AnalyzerConfig['parser'] = parser === undefined || parser === 'none' ? 'none' : parser === 'standard' ? 'unicode' : (parser as AnalyzerConfig['parser']);
  const charReplace = charFilterType === 'char_replace' ? { pattern: properties.char_filter_pattern!, replacement: properties.char_filter_replacement ?? ' ' } : undefined;
  return {
    parser: parserName,
    parserMode: parserMode === 'fine_grained' ? 'fine_grained' : 'coarse_grained',
    lowerCase: parserName !== 'none' && lowerCase !== 'false',
    stopwords: stopwords === 'none' ? 'none' : 'default',
    supportPhrase: supportPhrase === undefined ? parserName !== 'none' : supportPhrase === 'true',
    ...(charReplace === undefined ? {} : { charReplace }),
  };
}

/**
 * The PROPERTIES Doris stores for an INVERTED index created with `properties` (fe catalog Index): when any
 * property is given, lower_case defaults to "true"; when a parser is set, support_phrase defaults to
 * "true". SHOW CREATE TABLE and SHOW INDEX show these.
 */
export function storedInvertedProperties(properties: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...properties };
  if (Object.keys(out).length === 0) return out;
  if (out.lower_case === undefined) out.lower_case = 'true';
  if (out.parser !== undefined && out.support_phrase === undefined) out.support_phrase = 'true';
  return out;
}

/** The analyzer of a stored INVERTED index (its PROPERTIES were checked when it was created). */
export function analyzerFor(index: IndexSchema): AnalyzerConfig {
  if (Object.keys(index.properties).length === 0) return KEYWORD_ANALYZER;
  return parseInvertedProperties(index.properties);
}

/** Whether `config` tokenizes (any parser but none): MATCH then compares terms, not whole values. */
export function isTokenized(config: AnalyzerConfig): boolean {
  return config.parser !== 'none';
}
