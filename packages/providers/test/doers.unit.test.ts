import { describe, expect, it } from 'vitest';
import {
  amountAsked,
  clientAsked,
  doerAsked,
  doersOf,
  holdsArea,
  holdsShare,
  holdsSpan,
  ingForm,
  mannerAsked,
  muchOf,
  shareAsked,
  spaceAsked,
  spanAsked,
  wholeOf,
} from '../src/index.js';

const FUNCTION_WORDS = new Set(['is', 'the', 'of', 'was', 'did', 'out']);

describe('doersOf', () => {
  it('names the one who does what a verb form says, in each likely spelling', () => {
    expect(doersOf('appraised')).toContain('appraiser');
    expect(doersOf('inspected')).toContain('inspector');
    expect(doersOf('owns')).toContain('owner');
    expect(doersOf('owned')).toContain('owner');
    expect(doersOf('supplies')).toEqual(['supplier']);
    expect(doersOf('provides')).toEqual(['provider']);
    expect(doersOf('buying')).toContain('buyer');
    expect(doersOf('Manufactured')).toContain('manufacturer');
  });

  it('names none for a word that is no inflected verb form, or a doer already', () => {
    for (const word of ['buyer', 'thermal', 'made', 'status', 'borrowers', 'users', 'own', '2x6s'])
      expect(doersOf(word), word).toEqual([]);
  });
});

describe('doerAsked', () => {
  it('finds the first word a "who" question asks, past function words', () => {
    expect(doerAsked('Who appraised the property?', FUNCTION_WORDS)).toEqual({
      index: 1,
      word: 'appraised',
      doers: doersOf('appraised'),
    });
    expect(doerAsked('Who is buying the property?', FUNCTION_WORDS)?.word).toBe('buying');
  });

  it('asks for no doer of another question, a verb of two words, or a noun', () => {
    expect(doerAsked('When was the property appraised?', FUNCTION_WORDS)).toBeNull();
    // "carried out" is done by someone, not by a carrier.
    expect(doerAsked('Who carried out the inspection?', FUNCTION_WORDS)).toBeNull();
    expect(doerAsked('Who is the appraiser?', FUNCTION_WORDS)).toBeNull();
    expect(doerAsked('Who?', FUNCTION_WORDS)).toBeNull();
  });
});

describe('ingForm', () => {
  it('gives the "-ing" noun of a participle', () => {
    expect(ingForm('zoned')).toBe('zoning');
    expect(ingForm('heated')).toBe('heating');
    expect(ingForm('supplied')).toBe('supplying');
    expect(ingForm('agreed')).toBe('agreeing');
  });
});

describe('mannerAsked', () => {
  it('finds the participle that ends a "How is" or "How are" question, and its noun', () => {
    expect(mannerAsked('How is the property zoned?')).toEqual({
      index: 4,
      word: 'zoned',
      noun: 'zoning',
    });
    expect(mannerAsked('how are the units heated')?.noun).toBe('heating');
  });

  it('asks no manner of another question', () => {
    // A count, a participle not at the end, no "How is", a word that is no participle.
    expect(mannerAsked('How many rooms were inspected?')).toBeNull();
    expect(mannerAsked('How is the heated garage used for storage?')).toBeNull();
    expect(mannerAsked('Is the property zoned?')).toBeNull();
    expect(mannerAsked('How is the shed?')).toBeNull();
    expect(mannerAsked('How is it red?')).toBeNull();
  });
});

describe('clientAsked', () => {
  it('finds the "for" that ends a "Who" question, and the noun "client"', () => {
    expect(clientAsked('Who is the appraisal for?')).toEqual({ index: 4, noun: 'client' });
    expect(clientAsked('who was the inspection done for')?.index).toBe(5);
  });

  it('asks no client of another question', () => {
    // A price, a "for" not at the end, a "Who" of two words, a question that says "client".
    expect(clientAsked('What did it sell for?')).toBeNull();
    expect(clientAsked('Who is the report for by?')).toBeNull();
    expect(clientAsked('Who for?')).toBeNull();
    expect(clientAsked('Who is the client?')).toBeNull();
  });
});

describe('spanAsked', () => {
  it('finds a "How long has …" question', () => {
    expect(spanAsked('How long has the appraiser worked in this market?')).toBe(true);
    expect(spanAsked('how long have the sellers owned it')).toBe(true);
    expect(spanAsked('How many years has the roof been leaking?')).toBe(true);
  });

  it('asks no span of another question', () => {
    // A length, a time ago, a count of other things.
    expect(spanAsked('How long is the warranty?')).toBe(false);
    expect(spanAsked('How long ago was the roof replaced?')).toBe(false);
    expect(spanAsked('How many rooms have been updated?')).toBe(false);
  });
});

describe('holdsSpan', () => {
  it('reads a span up to now by its start or its length', () => {
    expect(holdsSpan('Appraising in this market since 2002.')).toBe(true);
    expect(holdsSpan('Vacant since May 2024')).toBe(true);
    expect(holdsSpan('Owned by the sellers for over 12 years')).toBe(true);
    // A year alone, "since" with no year, a length of something else.
    expect(holdsSpan('Roof replaced in 2002')).toBe(false);
    expect(holdsSpan('Vacant since the sellers moved out')).toBe(false);
    expect(holdsSpan('A 12 year warranty')).toBe(false);
  });
});

describe('shareAsked', () => {
  it('finds a question that asks for a part of a whole', () => {
    expect(shareAsked('What share of the units is expected to presell?')).toBe(true);
    expect(shareAsked('Which portion of the roof covering is original?')).toBe(true);
    expect(shareAsked('How much of the lot can be covered by buildings?')).toBe(true);
    expect(shareAsked('What percent is owner occupied?')).toBe(true);
    expect(shareAsked('How built up is the neighborhood?')).toBe(true);
  });

  it('asks no share of another question', () => {
    // An amount, a place, a count.
    expect(shareAsked('How much does the roof cost to replace?')).toBe(false);
    expect(shareAsked('What part of the roof leaks?')).toBe(false);
    expect(shareAsked('How many units are there?')).toBe(false);
  });
});

describe('wholeOf', () => {
  it('reads the whole a share question asks a part of', () => {
    expect(wholeOf('How much of the lot can be covered by buildings?')).toBe('lot');
    expect(wholeOf('What share of the tenant improvement cost is 5-year property?')).toBe('cost');
    expect(wholeOf('What percentage of the units are rented?')).toBe('units');
    expect(wholeOf('How much of it is leased?')).toBeNull();
    expect(wholeOf('How much does the roof cost?')).toBeNull();
  });
});

describe('holdsShare', () => {
  it('reads a percentage, by its sign or in words', () => {
    expect(holdsShare('Approximately 50% presales')).toBe(true);
    expect(holdsShare('Damaged: 40 %')).toBe(true);
    expect(holdsShare('75 percent lot coverage shall be permitted')).toBe(true);
    expect(holdsShare('12.5 per cent of the cost')).toBe(true);
    // "percent" with no figure, a figure of something else.
    expect(holdsShare('The percentage is not known')).toBe(false);
    expect(holdsShare('Built in 1975, 3 units')).toBe(false);
  });
});

describe('muchOf and spaceAsked', () => {
  it('reads the noun "how much" asks an amount of, and whether it is an area', () => {
    expect(muchOf('How much excess land is there?')).toBe('land');
    expect(muchOf('How much weight was given to the sales approach?')).toBe('weight');
    expect(muchOf('How much does the roof cost?')).toBeNull();
    expect(spaceAsked('How much office space does the building have?')).toBe(true);
    expect(spaceAsked('How much finished area is above grade?')).toBe(true);
    expect(spaceAsked('How much weight was given to the sales approach?')).toBe(false);
    expect(spaceAsked('How much of the land is wooded?')).toBe(false);
  });
});

describe('amountAsked', () => {
  it('reads the "-age" noun of each participle a "how much" question asks an amount by', () => {
    // A zoning report labels the share of a lot that buildings may cover "Lot Coverage".
    expect(amountAsked('How much of the lot can be covered by buildings?')).toEqual([
      { index: 7, noun: 'coverage' },
    ]);
    expect(amountAsked('how much water was stored or drained')).toEqual([
      { index: 4, noun: 'storage' },
      { index: 6, noun: 'drainage' },
    ]);
    // Only a noun of an amount ("adjustage" is none), only after "how much", not in another
    // question.
    expect(amountAsked('How much was each garage space adjusted?')).toEqual([]);
    expect(amountAsked('Covered: how much of the lot?')).toEqual([]);
    expect(amountAsked('Is the lot covered by buildings?')).toEqual([]);
    expect(amountAsked('How many lots are covered?')).toEqual([]);
  });
});

describe('holdsArea', () => {
  it('reads a figure with a unit of area', () => {
    expect(holdsArea('Office: 1,750 sf')).toBe(true);
    expect(holdsArea('Excess Land: 5.5 Acres')).toBe(true);
    expect(holdsArea('5.5 AC @ $70,000/AC')).toBe(true);
    expect(holdsArea('Site area 0.4 ha')).toBe(true);
    expect(holdsArea('Floor area 120 m²')).toBe(true);
    // A rate per unit, a length, a unit with no figure.
    expect(holdsArea('Rent: $5.00/sf')).toBe(false);
    expect(holdsArea('Frontage: 140 ft')).toBe(false);
    expect(holdsArea('Land area not given in acres')).toBe(false);
  });
});
