import { describe, expect, it } from 'vitest';
import { splitSentences } from '../src/text/sentences.js';

describe('splitSentences', () => {
  it('keeps abbreviations and decimals inside their sentence', () => {
    expect(
      splitSentences('Water heater approx. 11 years old. The roof, e.g. the ridge, is 3.5 m high!'),
    ).toEqual(['Water heater approx. 11 years old.', 'The roof, e.g. the ridge, is 3.5 m high!']);
  });

  it('splits at question and exclamation marks and drops empty pieces', () => {
    expect(splitSentences('  Is it dry? It is! Good.   ')).toEqual([
      'Is it dry?',
      'It is!',
      'Good.',
    ]);
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

describe('splitSentences: forms', () => {
  it('keeps the answer a form sets after its question with the question', () => {
    expect(
      splitSentences(
        'Algae and moss observed on the external wall? Moderate Bird droppings observed on the sill N/A. Are the sealants intact? N/A Is it safe? No. Any leaks? None were found. Why? Nobody knows.',
      ),
    ).toEqual([
      'Algae and moss observed on the external wall? Moderate',
      'Bird droppings observed on the sill N/A.',
      'Are the sealants intact? N/A',
      'Is it safe? No.',
      'Any leaks?',
      'None were found.',
      'Why?',
      'Nobody knows.',
    ]);
  });
});
