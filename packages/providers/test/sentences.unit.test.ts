import { describe, expect, it } from 'vitest';
import { splitSentences } from '../src/text/sentences.js';

describe('splitSentences', () => {
  it('keeps abbreviations and decimals inside their sentence', () => {
    expect(
      splitSentences('Water heater approx. 11 years old. The roof, e.g. the ridge, is 3.5 m high!'),
    ).toEqual(['Water heater approx. 11 years old.', 'The roof, e.g. the ridge, is 3.5 m high!']);
  });

  it('splits at question and exclamation marks and drops empty pieces', () => {
    expect(splitSentences('  Is it dry? Yes.   ')).toEqual(['Is it dry?', 'Yes.']);
    expect(splitSentences('   ')).toEqual([]);
  });
});

describe('splitSentences: titles and numbers', () => {
  it('keeps a title before a name and a number sign before a code inside the sentence', () => {
    expect(
      splitSentences(
        'Prepared by Er. Sample Engineer (Reg. No. SE-44) for Sample Firm Pvt. Ltd. on site. Next.',
      ),
    ).toEqual([
      'Prepared by Er. Sample Engineer (Reg. No. SE-44) for Sample Firm Pvt. Ltd. on site.',
      'Next.',
    ]);
    expect(
      splitSentences('Thermographer: Ms. Sample Person. The answer was no. Then it rained.'),
    ).toEqual(['Thermographer: Ms. Sample Person.', 'The answer was no.', 'Then it rained.']);
  });
});
