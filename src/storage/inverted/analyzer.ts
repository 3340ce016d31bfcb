/**
 * The text analyzers of inverted indexes: a value (or a MATCH query string) becomes a list of terms with
 * positions. The same function serves the index writer, the index reader's query side and the row-by-row
 * match_* functions, so an index and a scan agree by construction.
 *
 * Doris's parsers (be/src/olap/rowset/segment_v2/inverted_index/analyzer/analyzer.cpp, docs
 * "inverted-index"):
 * - none: the whole value is one term (an exact-match index); lower_case does not apply.
 * - english: CLucene's SimpleAnalyzer over bytes: a term is a run of ASCII letters and digits, anything
 *   else separates terms; lower-cased when lower_case is true. Doris's english parser neither stems nor
 *   drops stopwords.
 * - unicode (and its alias standard): Lucene's StandardAnalyzer: Unicode word boundaries (UAX #29, here
 *   Node's built-in `Intl.Segmenter`), every Han ideograph and Hiragana character a term of its own,
 *   lower-cased when lower_case is true, then Lucene's English stopwords removed unless
 *   stopwords = "none". A removed stopword still takes its position (Lucene's StopFilter), so a phrase
 *   does not match across it.
 * - chinese: jieba word segmentation (cppjieba in Doris, the `@node-rs/jieba` port here):
 *   coarse_grained is jieba's accurate mode (with HMM for unknown words), fine_grained its full mode (every
 *   dictionary word of two or more characters, overlapping; cppjieba FullSegment);
 *   tokens without a letter or digit (spaces, punctuation) are dropped; lower-cased when lower_case is true.
 * Terms longer than 255 characters are cut into 255-character pieces (CLucene's LUCENE_MAX_WORD_LEN).
 *
 * Positions count tokens from 0 (after a char filter), so phrase queries compare positions.
 * Knows no SQL; imports only common/ (DESIGN §6).
 */
import { GaleneError } from '../../common/errors';

export interface AnalyzerConfig {
  readonly parser: 'none' | 'english' | 'unicode' | 'chinese';
  readonly parserMode: 'fine_grained' | 'coarse_grained';
  readonly lowerCase: boolean;
  readonly stopwords: 'default' | 'none';
  readonly supportPhrase: boolean;
  /**
   * Doris's char_replace char filter (char_filter_type = char_replace): every character of `pattern` is
   * replaced by `replacement` before tokenizing. Absent when the index has no char filter.
   */
  readonly charReplace?: { readonly pattern: string; readonly replacement: string };
}

export interface Token {
  readonly term: string;
  readonly position: number;
}

/** The analyzer of an index without PROPERTIES: parser none. */
export const KEYWORD_ANALYZER: AnalyzerConfig = Object.freeze({
  parser: 'none',
  parserMode: 'coarse_grained',
  lowerCase: false,
  stopwords: 'default',
  supportPhrase: false,
});

/** Lucene's English stop set (StandardAnalyzer.ENGLISH_STOP_WORDS_SET), the one Doris's unicode parser drops. */
export const DEFAULT_STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);

/** CLucene's LUCENE_MAX_WORD_LEN: longer runs are emitted in pieces of this many characters. */
export const MAX_TERM_LENGTH = 255;

/** The terms of `text` under `config`, in order, with their positions. */
export function analyze(text: string, config: AnalyzerConfig): Token[] {
  if (config.parser === 'none') return [{ term: text, position: 0 }];
  const filtered = config.charReplace === undefined ? text : replaceChars(text, config.charReplace.pattern, config.charReplace.replacement);
  const words = WORD_SPLITTERS[config.parser](filtered, config);
  const out: Token[] = [];
  const stopwords = config.parser === 'unicode' && config.stopwords === 'default' ? DEFAULT_STOPWORDS : undefined;
  let position = 0;
  for (const word of words) {
    const cased = config.lowerCase ? word.toLowerCase() : word;
    for (let start = 0; start < cased.length; start += MAX_TERM_LENGTH) {
      const term = cased.length <= MAX_TERM_LENGTH ? cased : cased.slice(start, start + MAX_TERM_LENGTH);
      if (stopwords === undefined || !stopwords.has(term)) out.push({ term, position });
      position++;
    }
  }
  return out;
}

/** The terms only (TOKENIZE's answer, and a set-valued query's terms). */
export function analyzeTerms(text: string, config: AnalyzerConfig): string[] {
  return analyze(text, config).map((token) => token.term);
}

function replaceChars(text: string, pattern: string, replacement: string): string {
  const set = new Set(pattern);
  let out = '';
  for (const char of text) out += set.has(char) ? replacement : char;
  return out;
}

type WordSplitter = (text: string, config: AnalyzerConfig) => string[];

const WORD_SPLITTERS: Record<Exclude<AnalyzerConfig['parser'], 'none'>, WordSplitter> = {
  english: englishWords,
  unicode: unicodeWords,
  chinese: chineseWords,
};

/** Runs of ASCII letters and digits (CLucene SimpleTokenizer<char>: isalnum on bytes, C locale). */
function englishWords(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 0;
    const isWordChar = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    if (isWordChar) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      out.push(text.slice(start, index));
      start = -1;
    }
  }
  return out;
}

let wordSegmenter: Intl.Segmenter | undefined;
/** Characters Lucene's StandardTokenizer emits one by one (UAX #29 gives them no word boundaries). */
const SINGLE_CHAR_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * UAX #29 words (Intl.Segmenter, locale-independent rules), Han and Hiragana split per character. A
 * segment without a letter or digit (`___`) is no term, as in Lucene. ASCII-only text takes asciiWords,
 * which gives the same words ~25x faster (Intl.Segmenter costs ~5 µs a segment; tested against it).
 */
function unicodeWords(text: string): string[] {
  if (!NON_ASCII.test(text)) return asciiWords(text);
  wordSegmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  const out: string[] = [];
  for (const piece of wordSegmenter.segment(text)) {
    if (!piece.isWordLike) continue;
    const word = piece.segment;
    if (!SINGLE_CHAR_SCRIPT.test(word)) {
      if (HAS_LETTER_OR_DIGIT.test(word)) out.push(word);
      continue;
    }
    let run = '';
    for (const char of word) {
      if (SINGLE_CHAR_SCRIPT.test(char)) {
        if (HAS_LETTER_OR_DIGIT.test(run)) out.push(run);
        run = '';
        out.push(char);
      } else {
        run += char;
      }
    }
    if (HAS_LETTER_OR_DIGIT.test(run)) out.push(run);
  }
  return out;
}

// UAX #29 word-break classes of ASCII characters (0: none)
const LETTER = 1;
const DIGIT = 2;
const EXTEND_NUM_LET = 3; // _
const MID_LETTER = 4; // :
const MID_NUM_LET = 5; // . and ' (Single_Quote behaves the same here)
const MID_NUM = 6; // , ;
const ASCII_CLASS = new Uint8Array(128);
for (let code = 65; code <= 90; code++) ASCII_CLASS[code] = ASCII_CLASS[code + 32] = LETTER;
for (let code = 48; code <= 57; code++) ASCII_CLASS[code] = DIGIT;
ASCII_CLASS[95] = EXTEND_NUM_LET;
ASCII_CLASS[58] = MID_LETTER;
ASCII_CLASS[46] = ASCII_CLASS[39] = MID_NUM_LET;
ASCII_CLASS[44] = ASCII_CLASS[59] = MID_NUM;

/**
 * UAX #29 word boundaries over ASCII: letters, digits and `_` join (WB5, WB8-WB10, WB13a/b); `:` joins
 * letters (WB6/7), `,` `;` join digits (WB11/12), `.` and `'` join either; words without a letter or digit
 * are dropped.
 */
function asciiWords(text: string): string[] {
  const out: string[] = [];
  const length = text.length;
  let index = 0;
  while (index < length) {
    const cls = ASCII_CLASS[text.charCodeAt(index)];
    if (cls < LETTER || cls > EXTEND_NUM_LET) {
      index++;
      continue;
    }
    const start = index;
    let hasWordChar = cls !== EXTEND_NUM_LET;
    index++;
    while (index < length) {
      const next = ASCII_CLASS[text.charCodeAt(index)];
      if (next >= LETTER && next <= EXTEND_NUM_LET) {
        hasWordChar ||= next !== EXTEND_NUM_LET;
        index++;
        continue;
      }
      if (next < MID_LETTER || index + 1 >= length) break;
      const before = ASCII_CLASS[text.charCodeAt(index - 1)];
      const after = ASCII_CLASS[text.charCodeAt(index + 1)];
      const joinsLetters = next !== MID_NUM && before === LETTER && after === LETTER;
      const joinsDigits = next !== MID_LETTER && before === DIGIT && after === DIGIT;
      if (!joinsLetters && !joinsDigits) break;
      index += 2;
    }
    if (hasWordChar) out.push(text.slice(start, index));
  }
  return out;
}

interface JiebaSegmenter {
  cut(text: string, hmm?: boolean): string[];
  cutAll(text: string): string[];
}

let jieba: JiebaSegmenter | null | undefined;
let jiebaLoadError = '';

/**
 * The jieba segmenter, loaded on first use (the dictionary costs ~40 MB and a few hundred ms), or null when
 * the package does not load on this platform.
 */
export function chineseSegmenter(): JiebaSegmenter | null {
  if (jieba !== undefined) return jieba;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(dict: Uint8Array): JiebaSegmenter } };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  } catch (err) {
    jiebaLoadError = err instanceof Error ? err.message : String(err);
    jieba = null;
  }
  return jieba;
}

/** Whether parser "chinese" can run here; index DDL refuses it otherwise. */
export function chineseParserAvailable(): boolean {
  return chineseSegmenter() !== null;
}

/** The error for parser "chinese" when no segmenter loads. */
export function chineseUnavailableError(): GaleneError {
  return new GaleneError('INVALID_TABLE_DEFINITION', [`INVERTED index parser chinese is not available: the jieba segmenter (@node-rs/jieba) does not load on this platform (${jiebaLoadError})`]);
}

function chineseWords(text: string, config: AnalyzerConfig): string[] {
  const segmenter = chineseSegmenter();
  if (segmenter === null) throw chineseUnavailableError();
  const words = config.parserMode === 'fine_grained' ? fullSegment(text, segmenter.cutAll(text)) : segmenter.cut(text, true);
  return words.filter((word) => HAS_LETTER_OR_DIGIT.test(word));
}

const codePoints = (word: string): number => {
  let count = 0;
  for (const _ of word) count++;
  return count;
};

/**
 * cppjieba's FullSegment (Doris's fine_grained) from jieba-rs's cut_all, which lists every dictionary word
 * by start but also every single character, and drops characters missing from the dictionary. FullSegment
 * keeps the words of two or more characters, and a single character only where no word starts with it
 * and no earlier word covers it (武汉长江大桥 -> 武汉, 武汉长江大桥, 长江, 长江大桥, 大桥).
 */
function fullSegment(text: string, allWords: readonly string[]): string[] {
  // Group the words by start offset: within a start they grow longer; the next group starts further on.
  const groups: { start: number; words: string[] }[] = [];
  for (const word of allWords) {
    const group = groups[groups.length - 1];
    const last = group?.words[group.words.length - 1];
    if (group && last !== undefined && word.length > last.length && text.startsWith(word, group.start)) {
      group.words.push(word);
      continue;
    }
    const start = text.indexOf(word, group ? group.start + 1 : 0);
    groups.push({ start: start < 0 ? text.length : start, words: [word] });
  }
  const out: string[] = [];
  let coveredTo = 0;
  let cursor = 0;
  const emitSingles = (end: number): void => {
    // characters cut_all dropped (not in the dictionary): FullSegment keeps each that nothing covers
    for (const char of text.slice(cursor, end)) {
      if (coveredTo <= cursor) out.push(char);
      cursor += char.length;
      coveredTo = Math.max(coveredTo, cursor);
    }
  };
  for (const group of groups) {
    if (group.start > cursor) emitSingles(group.start);
    for (const word of group.words) {
      if (codePoints(word) >= 2 || (group.words.length === 1 && coveredTo <= group.start)) out.push(word);
      coveredTo = Math.max(coveredTo, group.start + word.length);
    }
    cursor = Math.max(cursor, group.start + (group.words[0]?.length ?? 0));
  }
  emitSingles(text.length);
  return out;
}
