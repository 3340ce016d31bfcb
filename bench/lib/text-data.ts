/**
 * A seeded corpus of short documents for full-text benchmarks and tests (issue 12): a Zipf-distributed
 * vocabulary of pronounceable words, plus planted terms and phrases at known document frequencies, so a
 * benchmark can pick a term by the fraction of documents it matches and know the exact answer without
 * reading the corpus back.
 *
 * - Vocabulary words are built from consonant-vowel syllables that never contain the letter `q`; every
 *   planted word starts with `q`. So a planted word is never a substring of a vocabulary word, stems to
 *   nothing a vocabulary word stems to, and `text LIKE '%word%'`, `MATCH_ANY 'word'` (index or row by row)
 *   all match exactly the documents it was planted in.
 * - Whether a document holds a planted term is a hash of its id and the term's salt (`hasPlanted`), so the
 *   set of documents of a term is known for any id range, chunk by chunk, with no state.
 * - A planted phrase (`w1 w2`) is written as the two words next to each other; its decoys (other
 *   documents) get the same words in the other order with a word between, so MATCH_PHRASE and
 *   MATCH_ALL on the same words differ, and `LIKE '%w1 w2%'` matches exactly the phrase documents.
 * - Each document is generated from its own id (`document(id)`): chunks can be produced in any order and
 *   never as a whole corpus of JS objects.
 *
 * Used by the `text` benchmark (bench/text.ts) and test/bm25/.
 */
import { mulberry32 } from '../../src/common/prng';

/** A term planted in a known fraction of the documents. */
export interface PlantedTerm {
  readonly word: string;
  /** Fraction of documents holding it (0..1). */
  readonly rate: number;
  /** Hash salt: which documents (independent of the other terms). */
  readonly salt: number;
}

/** A two-word phrase planted in `rate` of the documents, with decoys (the words apart) in `decoyRate`. */
export interface PlantedPhrase {
  readonly words: readonly [string, string];
  readonly rate: number;
  readonly decoyRate: number;
  readonly salt: number;
}

/** Single planted terms, by the fraction of documents they match. */
export const PLANTED_TERMS: readonly PlantedTerm[] = [
  { word: 'qirrafen', rate: 0.0001, salt: 0x1f3a },
  { word: 'qolvarin', rate: 0.001, salt: 0x2c51 },
  { word: 'qemtuvo', rate: 0.01, salt: 0x3d77 },
  { word: 'qandoril', rate: 0.1, salt: 0x4e93 },
  { word: 'qesolta', rate: 0.3, salt: 0x5fb9 },
];

/** Planted phrases, by the fraction of documents holding the phrase. */
export const PLANTED_PHRASES: readonly PlantedPhrase[] = [
  { words: ['qumbra', 'qestile'], rate: 0.0001, decoyRate: 0.0001, salt: 0x6a15 },
  { words: ['qorvath', 'qindelo'], rate: 0.01, decoyRate: 0.01, salt: 0x7b2d },
  { words: ['qelmira', 'qustovan'], rate: 0.1, decoyRate: 0.05, salt: 0x8c4f },
];

/** The planted term of `word` (throws for a word that was not planted). */
export function plantedTerm(word: string): PlantedTerm {
  const term = PLANTED_TERMS.find((candidate) => candidate.word === word);
  if (!term) throw new Error(`${word} is not a planted term`);
  return term;
}

/** A 32-bit hash of an id under a salt (murmur3's finaliser). */
function mix(id: number, salt: number): number {
  let h = Math.imul(id ^ Math.imul(salt, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether document `id` holds something planted at `rate` under `salt`. */
export function hasPlanted(id: number, rate: number, salt: number): boolean {
  return mix(id, salt) < rate * 4294967296;
}

/** Whether document `id` holds the phrase (adjacent, in order). */
export function hasPhrase(phrase: PlantedPhrase, id: number): boolean {
  return hasPlanted(id, phrase.rate, phrase.salt);
}

/** Whether document `id` holds the phrase's words apart (in the other order), and not the phrase. */
export function hasPhraseDecoy(phrase: PlantedPhrase, id: number): boolean {
  return !hasPhrase(phrase, id) && hasPlanted(id, phrase.decoyRate, phrase.salt ^ 0x55aa55aa);
}

const TAGS = ['news', 'blog', 'forum', 'review', 'ticket', 'log', 'mail', 'wiki'];

export interface CorpusOptions {
  readonly vocabulary?: number;
  /** Zipf exponent of the vocabulary's frequencies. */
  readonly zipf?: number;
  readonly minWords?: number;
  readonly maxWords?: number;
}

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'ch', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'sh', 'st', 'th', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'nd', 'st'];

/** The generated documents: `document(id)` is the text of one, `tag(id)` its tag. */
export class TextCorpus {
  /** Vocabulary words, most frequent first. */
  readonly vocabulary: readonly string[];
  /** Cumulative Zipf probabilities of the vocabulary (last = 1). */
  private readonly cumulative: Float64Array;
  private readonly minWords: number;
  private readonly maxWords: number;

  constructor(readonly seed: number, options: CorpusOptions = {}) {
    const size = options.vocabulary ?? 50_000;
    const exponent = options.zipf ?? 1.0;
    this.minWords = options.minWords ?? 6;
    this.maxWords = options.maxWords ?? 24;
    const random = mulberry32(seed);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    const words = new Set<string>();
    // Frequent words are short, as in natural language: the syllable count grows with the rank.
    while (words.size < size) {
      const syllables = 1 + Math.min(3, Math.floor(Math.log10(1 + words.size) * random() * 1.4));
      let word = '';
      for (let syllable = 0; syllable < syllables; syllable++) word += pick(ONSETS) + pick(VOWELS);
      word += pick(CODAS);
      if (word.length >= 2) words.add(word);
    }
    this.vocabulary = [...words];
    this.cumulative = new Float64Array(size);
    let total = 0;
    for (let rank = 0; rank < size; rank++) total += 1 / Math.pow(rank + 1, exponent);
    let running = 0;
    for (let rank = 0; rank < size; rank++) {
      running += 1 / Math.pow(rank + 1, exponent) / total;
      this.cumulative[rank] = running;
    }
    this.cumulative[size - 1] = 1;
  }

  /** A vocabulary word by Zipf rank for a uniform `u` in [0, 1). */
  private zipfWord(u: number): string {
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return this.vocabulary[lo];
  }

  tag(id: number): string {
    return TAGS[mix(id, 0x7a6) % TAGS.length];
  }

  /**
   * The text of document `id`: a capitalised sentence of Zipf words with the odd comma and a final
   * period, with the planted terms and phrases of this id inserted between words (never inside another
   * planted unit, never with punctuation inside a phrase).
   */
  document(id: number): string {
    const random = mulberry32(mix(id, this.seed));
    const count = this.minWords + Math.floor(random() * (this.maxWords - this.minWords + 1));
    const units: string[] = [];
    for (let wordIdx = 0; wordIdx < count; wordIdx++) units.push(this.zipfWord(random()) + (wordIdx > 0 && wordIdx < count - 1 && random() < 0.08 ? ',' : ''));
    const insert = (unit: string): void => {
      // After the first word: the capitalised first word is always a vocabulary word.
      units.splice(1 + Math.floor(random() * units.length), 0, unit);
    };
    for (const term of PLANTED_TERMS) if (hasPlanted(id, term.rate, term.salt)) insert(term.word);
    for (const phrase of PLANTED_PHRASES) {
      if (hasPhrase(phrase, id)) insert(`${phrase.words[0]} ${phrase.words[1]}`);
      else if (hasPhraseDecoy(phrase, id)) insert(`${phrase.words[1]} ${this.zipfWord(random())} ${phrase.words[0]}`);
    }
    const text = units.join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1) + '.';
  }
}
