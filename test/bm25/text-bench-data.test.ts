// The text benchmark's corpus (bench/lib/text-data.ts): documents are a pure function of their id, planted
// terms and phrases appear in exactly the documents hasPlanted / hasPhrase name, at about their rates, and
// a planted word never occurs inside another word — so LIKE '%word%' and MATCH on the word have one answer
// the bench knows without reading the corpus back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasPhrase, hasPhraseDecoy, hasPlanted, PLANTED_PHRASES, PLANTED_TERMS, TextCorpus } from '../../bench/lib/text-data';

const DOCS = 40_000;

test('documents are a function of the id, with a Zipf vocabulary', () => {
  const corpus = new TextCorpus(12);
  const again = new TextCorpus(12);
  for (const id of [0, 1, 17, 39_999]) assert.equal(corpus.document(id), again.document(id));
  assert.notEqual(new TextCorpus(13).document(5), corpus.document(5));
  assert.equal(corpus.vocabulary.length, 50_000);
  assert.ok(corpus.vocabulary.every((word) => /^[a-pr-z]+$/.test(word)), 'vocabulary words never hold a q');
  const counts = new Map<string, number>();
  for (let id = 0; id < 5000; id++) {
    const text = corpus.document(id);
    assert.match(text, /^[A-Z][a-z]*( [a-z]+,?)* [a-z]+\.$/);
    for (const word of text.toLowerCase().split(/[^a-z]+/).filter(Boolean)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const top = counts.get(corpus.vocabulary[0]) ?? 0;
  const tenth = counts.get(corpus.vocabulary[9]) ?? 0;
  assert.ok(top > 5 * tenth && tenth > 0, `Zipf: rank 1 ${top} vs rank 10 ${tenth}`);
});

test('planted terms and phrases are exactly where the hashes say, at their rates', () => {
  const corpus = new TextCorpus(12);
  const termCounts = PLANTED_TERMS.map(() => 0);
  const phraseCounts = PLANTED_PHRASES.map(() => 0);
  for (let id = 0; id < DOCS; id++) {
    const text = corpus.document(id);
    const words = text.toLowerCase().split(/[^a-z]+/);
    PLANTED_TERMS.forEach((term, termIdx) => {
      const planted = hasPlanted(id, term.rate, term.salt);
      assert.equal(text.includes(term.word), planted, `doc ${id} ${term.word}: ${text}`);
      assert.equal(words.includes(term.word), planted);
      if (planted) termCounts[termIdx]++;
    });
    PLANTED_PHRASES.forEach((phrase, phraseIdx) => {
      const [first, second] = phrase.words;
      const holds = hasPhrase(phrase, id);
      assert.equal(text.includes(`${first} ${second}`), holds, `doc ${id}: ${text}`);
      if (holds) phraseCounts[phraseIdx]++;
      // A decoy holds both words, never next to each other in order.
      const both = words.includes(first) && words.includes(second);
      assert.equal(both, holds || hasPhraseDecoy(phrase, id));
    });
  }
  PLANTED_TERMS.forEach((term, termIdx) => {
    const expected = term.rate * DOCS;
    assert.ok(Math.abs(termCounts[termIdx] - expected) <= 4 * Math.sqrt(expected) + 2, `${term.word}: ${termCounts[termIdx]} of ${DOCS}, rate ${term.rate}`);
  });
  PLANTED_PHRASES.forEach((phrase, phraseIdx) => {
    const expected = phrase.rate * DOCS;
    assert.ok(Math.abs(phraseCounts[phraseIdx] - expected) <= 4 * Math.sqrt(expected) + 2, `${phrase.words.join(' ')}: ${phraseCounts[phraseIdx]}`);
  });
});
