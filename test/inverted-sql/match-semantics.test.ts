/**
 * Unit tests of the analyzers, the INVERTED index PROPERTIES checks and the MATCH rules
 * (src/storage/inverted). The phrase rules are checked against a brute-force evaluation that enumerates
 * every assignment of row positions to query slots, on random documents over a small vocabulary.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneError } from '../../src/common/errors';
import { bruteForceMatch, seeded } from './brute-force';
import {
  analyze,
  analyzeElements,
  analyzeTerms,
  matchesTokens,
  matchQuery,
  parseInvertedProperties,
  parseSlop,
  storedInvertedProperties,
  type MatchOp,
} from '../../src/storage/inverted';

const english = parseInvertedProperties({ parser: 'english' });
const unicode = parseInvertedProperties({ parser: 'unicode' });
const none = parseInvertedProperties({});

test('english: runs of ASCII letters and digits, lower-cased, no stopwords, no stemming', () => {
  assert.deepEqual(analyzeTerms('I love Doris', english), ['i', 'love', 'doris']);
  assert.deepEqual(analyzeTerms("The quick-brown fox's 2nd jump, e-mail: a@b.com!", english), ['the', 'quick', 'brown', 'fox', 's', '2nd', 'jump', 'e', 'mail', 'a', 'b', 'com']);
  assert.deepEqual(analyzeTerms('Running runs ran', english), ['running', 'runs', 'ran']);
  assert.deepEqual(analyzeTerms('café 中文 naïve', english), ['caf', 'na', 've']);
  assert.deepEqual(analyzeTerms('Hello World', parseInvertedProperties({ parser: 'english', lower_case: 'false' })), ['Hello', 'World']);
  assert.deepEqual(analyze('a  b', english), [{ term: 'a', position: 0 }, { term: 'b', position: 1 }]);
  assert.deepEqual(analyze('', english), []);
  const long = 'x'.repeat(300);
  assert.deepEqual(analyzeTerms(long, english), ['x'.repeat(255), 'x'.repeat(45)]);
});

test('unicode: word boundaries, CJK one character a term, stopwords dropped but keep their position', () => {
  assert.deepEqual(analyzeTerms('Apache Doris 是一个现代化的MPP数据库', unicode), ['apache', 'doris', '是', '一', '个', '现', '代', '化', '的', 'mpp', '数', '据', '库']);
  assert.deepEqual(analyze('the quick fox is here', unicode), [{ term: 'quick', position: 1 }, { term: 'fox', position: 2 }, { term: 'here', position: 4 }]);
  assert.deepEqual(analyzeTerms('the quick fox', parseInvertedProperties({ parser: 'unicode', stopwords: 'none' })), ['the', 'quick', 'fox']);
  assert.deepEqual(analyzeTerms('the quick fox', parseInvertedProperties({ parser: 'unicode', use_stopwords: 'none' })), ['the', 'quick', 'fox']);
  assert.deepEqual(analyzeTerms("can't stop 3.14 foo@bar.com", unicode), ["can't", 'stop', '3.14', 'foo', 'bar.com']);
  assert.deepEqual(analyzeTerms('Ünïcode ÀB', unicode), ['ünïcode', 'àb']);
  assert.deepEqual(analyzeTerms('A ÀB', parseInvertedProperties({ parser: 'standard', lower_case: 'false' })), ['A', 'ÀB']);
});

test('unicode: the ASCII fast path splits exactly as Intl.Segmenter (UAX #29) does', () => {
  const config = parseInvertedProperties({ parser: 'unicode', lower_case: 'false', stopwords: 'none' });
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  const reference = (text: string): string[] => [...segmenter.segment(text)].filter((piece) => piece.isWordLike && /[A-Za-z0-9]/.test(piece.segment)).map((piece) => piece.segment);
  const random = seeded(7);
  const alphabet = "aZq09_:.',; -\t\n!@#$%&()[]/\\\"+=<>?~`|^*";
  for (let run = 0; run < 20000; run++) {
    const text = Array.from({ length: 1 + Math.floor(random() * 14) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    assert.deepEqual(analyzeTerms(text, config), reference(text), JSON.stringify(text));
  }
  // the same text with one non-ASCII character takes Intl.Segmenter and gives the same ASCII words
  assert.deepEqual(analyzeTerms("can't 3.14 a:b 1,5 x_y __ é", config), ["can't", '3.14', 'a:b', '1,5', 'x_y', 'é']);
  assert.deepEqual(analyzeTerms("can't 3.14 a:b 1,5 x_y __", config), ["can't", '3.14', 'a:b', '1,5', 'x_y']);
});

test('chinese: jieba, coarse_grained accurate mode, fine_grained full mode, punctuation dropped', () => {
  const coarse = parseInvertedProperties({ parser: 'chinese' });
  const fine = parseInvertedProperties({ parser: 'chinese', parser_mode: 'fine_grained' });
  assert.equal(coarse.parserMode, 'coarse_grained');
  assert.deepEqual(analyzeTerms('我来到北京清华大学，Apache Doris 很好!', coarse), ['我', '来到', '北京', '清华大学', 'apache', 'doris', '很', '好']);
  assert.deepEqual(analyzeTerms('武汉长江大桥', fine), ['武汉', '武汉长江大桥', '长江', '长江大桥', '大桥']);
  assert.deepEqual(analyzeTerms('中华人民共和国', fine), ['中华', '中华人民', '中华人民共和国', '华人', '人民', '人民共和国', '共和', '共和国']);
  assert.deepEqual(analyze('清华大学 很好', coarse), [{ term: '清华大学', position: 0 }, { term: '很', position: 1 }, { term: '好', position: 2 }]);
  assert.equal(matchesTokens('match_phrase', matchQuery('match_phrase', '北京清华', coarse), analyze('我来到北京清华大学', coarse)), false);
  assert.equal(matchesTokens('match_phrase', matchQuery('match_phrase', '北京清华大学', coarse), analyze('我来到北京清华大学', coarse)), true);
});

test('parser none: the whole value is one term, never lower-cased', () => {
  assert.deepEqual(analyze('Hello World', none), [{ term: 'Hello World', position: 0 }]);
  assert.deepEqual(analyze('', none), [{ term: '', position: 0 }]);
  assert.deepEqual(analyze('Hello', parseInvertedProperties({ parser: 'none', lower_case: 'true' })), [{ term: 'Hello', position: 0 }]);
});

test('char_replace char filter replaces each pattern character before tokenizing', () => {
  const config = parseInvertedProperties({ parser: 'unicode', char_filter_type: 'char_replace', char_filter_pattern: '._', char_filter_replacement: ' ' });
  assert.deepEqual(analyzeTerms('x.y_z', config), ['x', 'y', 'z']);
  assert.deepEqual(analyzeTerms('x.y_z', unicode), ['x.y_z']);
});

test('properties: defaults and Doris messages', () => {
  assert.deepEqual(english, { parser: 'english', parserMode: 'coarse_grained', lowerCase: true, stopwords: 'default', supportPhrase: true });
  assert.equal(none.supportPhrase, false);
  assert.equal(parseInvertedProperties({ parser: 'english', support_phrase: 'false' }).supportPhrase, false);
  const cases: [Record<string, string>, string][] = [
    [{ parser: 'englis' }, "Invalid inverted index 'parser' value: englis, parser must be none, english, unicode or chinese"],
    [{ parser: 'English' }, "Invalid inverted index 'parser' value: English, parser must be none, english, unicode or chinese"],
    [{ parsr: 'english' }, 'Invalid inverted index property key: parsr'],
    [{ parser: 'english', parser_mode: 'fine_grained' }, 'parser_mode is only available for chinese parser'],
    [{ parser: 'english', support_phrase: 'yes' }, "Invalid inverted index 'support_phrase' value: yes, support_phrase must be true or false"],
    [{ parser: 'english', lower_case: 'True' }, "Invalid inverted index 'lower_case' value: True, lower_case must be true or false"],
    [{ parser: 'english', stopwords: 'default' }, "Invalid inverted index 'stopWords' value: default, stopWords must be none"],
    [{ parser: 'english', ignore_above: '0' }, "Invalid inverted index 'ignore_above' value: 0, ignore_above must be positive"],
    [{ parser: 'english', ignore_above: 'x' }, "Invalid inverted index 'ignore_above' value, ignore_above must be integer"],
    [{ parser: 'english', char_filter_type: 'char_replace' }, "Missing 'char_filter_pattern' for 'char_replace' filter type"],
  ];
  for (const [properties, message] of cases) {
    assert.throws(() => parseInvertedProperties(properties), (err: unknown) => err instanceof GaleneError && err.message.endsWith(message), JSON.stringify(properties));
  }
  assert.deepEqual(storedInvertedProperties({}), {});
  assert.deepEqual(storedInvertedProperties({ parser: 'english' }), { parser: 'english', lower_case: 'true', support_phrase: 'true' });
  assert.deepEqual(storedInvertedProperties({ parser: 'none' }), { parser: 'none', lower_case: 'true', support_phrase: 'true' });
  assert.deepEqual(storedInvertedProperties({ parser: 'english', lower_case: 'false', support_phrase: 'false' }), { parser: 'english', lower_case: 'false', support_phrase: 'false' });
});

test('slop suffix: Doris parser_slop', () => {
  assert.deepEqual(parseSlop('a b ~3'), { text: 'a b', slop: 3, ordered: false });
  assert.deepEqual(parseSlop('a b ~3+'), { text: 'a b', slop: 3, ordered: true });
  assert.deepEqual(parseSlop('a b ~12'), { text: 'a b', slop: 12, ordered: false });
  assert.deepEqual(parseSlop('a b ~'), { text: 'a b ~', slop: 0, ordered: false });
  assert.deepEqual(parseSlop('a b ~+'), { text: 'a b ~+', slop: 0, ordered: false });
  assert.deepEqual(parseSlop('a b ~x'), { text: 'a b ~x', slop: 0, ordered: false });
  assert.deepEqual(parseSlop('a b~3'), { text: 'a b~3', slop: 0, ordered: false });
  assert.deepEqual(parseSlop('~3'), { text: '~3', slop: 0, ordered: false });
});

test('every operator equals the brute-force evaluation on random rows', () => {
  const random = seeded(12);
  const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'alphabet', 'betamax', 'the', 'a', 'gam'];
  const pick = (): string => vocabulary[Math.floor(random() * vocabulary.length)];
  const docs = Array.from({ length: 200 }, () => Array.from({ length: 1 + Math.floor(random() * 9) }, pick).join(random() < 0.5 ? ' ' : ', '));
  const queries: [MatchOp, string][] = [];
  for (let index = 0; index < 60; index++) {
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, pick).join(' ');
    const slop = Math.floor(random() * 4);
    queries.push(['match_any', words], ['match_all', words], ['match_phrase', words], ['match_phrase', `${words} ~${slop}`], ['match_phrase', `${words} ~${slop}+`]);
    queries.push(['match_phrase_prefix', words.slice(0, words.length - 2)], ['match_phrase_edge', words.slice(2, words.length - 1)]);
  }
  queries.push(['match_regexp', '^al.*t$'], ['match_regexp', 'ta'], ['match_any', 'the a'], ['match_phrase', ''], ['match_all', '']);
  let matched = 0;
  for (const config of [english, unicode]) {
    const analyzed = docs.map((doc) => analyze(doc, config));
    for (const [op, text] of queries) {
      const query = matchQuery(op, text, config);
      for (const [docIdx, doc] of docs.entries()) {
        const tokens = analyzed[docIdx];
        const expected = bruteForceMatch(op, text, config, tokens);
        assert.equal(matchesTokens(op, query, tokens), expected, `${config.parser} ${op} '${text}' on '${doc}'`);
        if (expected) matched++;
      }
    }
  }
  assert.ok(matched > 3000, `only ${matched} matches: the test data is too sparse to mean anything`);
});

test('phrase rules on examples', () => {
  const match = (op: MatchOp, text: string, doc: string, config = english): boolean => matchesTokens(op, matchQuery(op, text, config), analyze(doc, config));
  assert.equal(match('match_phrase', 'quick fox', 'the quick fox'), true);
  assert.equal(match('match_phrase', 'quick fox', 'the quick brown fox'), false);
  assert.equal(match('match_phrase', 'quick fox ~1', 'the quick brown fox'), true);
  assert.equal(match('match_phrase', 'fox quick ~1', 'the quick brown fox'), false);
  assert.equal(match('match_phrase', 'fox quick ~3', 'the quick brown fox'), true);
  assert.equal(match('match_phrase', 'fox quick ~3+', 'the quick brown fox'), false);
  assert.equal(match('match_phrase', 'quick fox ~1+', 'the quick brown fox'), true);
  assert.equal(match('match_phrase_prefix', 'quick br', 'the quick brown fox'), true);
  assert.equal(match('match_phrase_prefix', 'quick fo', 'the quick brown fox'), false);
  assert.equal(match('match_phrase_prefix', 'bro', 'the quick brown fox'), true);
  assert.equal(match('match_phrase_edge', 'ick brown f', 'the quick brown fox'), true);
  assert.equal(match('match_phrase_edge', 'uic', 'the quick brown fox'), true);
  assert.equal(match('match_phrase_edge', 'qu brown', 'the quick brown fox'), false);
  assert.equal(match('match_regexp', '^qu', 'the quick brown fox'), true);
  assert.equal(match('match_regexp', 'k b', 'the quick brown fox'), false);
  assert.equal(match('match_any', '...', 'the quick brown fox'), false);
  // a stopword dropped from the query keeps its gap (unicode parser)
  assert.equal(match('match_phrase', 'quick the fox', 'quick the fox', unicode), true);
  assert.equal(match('match_phrase', 'quick the fox', 'quick a fox', unicode), true);
  assert.equal(match('match_phrase', 'quick fox', 'quick the fox', unicode), false);
  // parser none: whole values
  assert.equal(match('match_any', 'quick fox', 'quick fox', none), true);
  assert.equal(match('match_any', 'quick', 'quick fox', none), false);
  assert.equal(match('match_phrase', 'quick fox ~1', 'quick fox', none), false);
  assert.equal(match('match_phrase_prefix', 'qui', 'quick fox', none), true);
  assert.equal(match('match_any', '', '', none), true);
});

test('array values: elements in order, positions continue across elements, NULL elements skipped', () => {
  const tokens = analyzeElements(['big data', null, 'fast query'], english);
  assert.deepEqual(tokens, [{ term: 'big', position: 0 }, { term: 'data', position: 1 }, { term: 'fast', position: 2 }, { term: 'query', position: 3 }]);
  assert.equal(matchesTokens('match_all', matchQuery('match_all', 'big query', english), tokens), true);
  assert.deepEqual(analyzeElements(['a', 'b'], none), [{ term: 'a', position: 0 }, { term: 'b', position: 1 }]);
  assert.throws(() => matchQuery('match_regexp', '(', english), /invalid regular expression/);
});
