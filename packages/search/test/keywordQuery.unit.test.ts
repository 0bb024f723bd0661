import { describe, expect, it } from 'vitest';
import { inflectionPrefix, keywordQuery } from '../src/index.js';

describe('keywordQuery', () => {
  it('searches the words a question asks, not its function words', () => {
    expect(keywordQuery('When was the inspection carried out?')).toBe(
      'When date inspection carried',
    );
    expect(keywordQuery('When was the garage built?')).toBe('When year garage built?');
    // Only the question's own "when": inside a question it is a word asked.
    expect(keywordQuery('What happens when it rains?')).toBe('happens when rains?');
    expect(keywordQuery('What is the hotspot temperature in thermal image RB02380X?')).toBe(
      'hotspot temperature thermal image RB02380X?',
    );
  });

  it('leaves each kept word as written, and "make" a word asked', () => {
    expect(keywordQuery('Was it inspected on 27.09.2022?')).toBe('inspected 27.09.2022?');
    expect(keywordQuery('What make is the furnace?')).toBe('make furnace?');
  });

  it('with word families, searches an inflected word as asked and by what its forms start with', () => {
    // "zoned" finds "Zoning", "flooded" finds "flooding", "restrooms" finds "restroom".
    expect(keywordQuery('How is the property zoned?', true)).toBe('property zoned? zon zoning');
    expect(keywordQuery('Has the building ever flooded?', true)).toBe(
      'building build ever flooded? flood',
    );
    expect(keywordQuery('How many restrooms are there?', true)).toBe('restrooms restroom');
    // Codes, dates and uninflected words as without.
    expect(keywordQuery('Was it inspected on 27.09.2022?', true)).toBe(
      'inspected inspect 27.09.2022?',
    );
    expect(keywordQuery('What make is the furnace?', true)).toBe('make furnace?');
  });

  it('searches a "Where" also by "location" and a "How old" by "age" and "year"', () => {
    // Reports label a place "Location" and an age "Age" or a year ("Year installed").
    expect(keywordQuery('Where is the electrical panel?')).toBe('Where location electrical panel?');
    expect(keywordQuery('How old is the roof?')).toBe('old age year roof?');
    // Only as the question opens.
    expect(keywordQuery('What is the old barn used for?')).toBe('old barn used');
    expect(keywordQuery('Is the shed old?')).toBe('shed old?');
  });

  it('leaves out "does", "not" and "will", and the measure a "How" asks', () => {
    // Function words the stopword list lacks: "not" is the start of "note" and "notice".
    expect(keywordQuery('Does the building have fire sprinklers?')).toBe(
      'building fire sprinklers?',
    );
    expect(keywordQuery('Why was the attic not inspected?')).toBe('Why attic inspected?');
    expect(keywordQuery('How much will the repairs cost?')).toBe('repairs cost?');
    // A report gives a size or a time as a figure, not as "big" or "long".
    expect(keywordQuery('How big is the lot?')).toBe('lot?');
    expect(keywordQuery('How large is the garage?')).toBe('garage?');
    expect(keywordQuery('How long would the house take to sell?')).toBe('house sell?');
    expect(keywordQuery('How far is the nearest fire station?')).toBe('nearest fire station?');
    // Only as the measure a "How" asks.
    expect(keywordQuery('Is there a long crack in the wall?')).toBe('long crack wall?');
    expect(keywordQuery('How many large trees are near the house?')).toBe(
      'large trees near house?',
    );
  });

  it('searches the participle that ends a "How is" also by its "-ing" noun', () => {
    // Reports label the way a thing is zoned or heated so ("Zoning: R-1", "Heating: gas").
    expect(keywordQuery('How is the property zoned?')).toBe('property zoned? zoning');
    expect(keywordQuery('How are the units heated?')).toBe('units heated? heating');
    // Only a "How is" or "How are" that the participle ends.
    expect(keywordQuery('How many rooms were inspected?')).toBe('rooms inspected?');
    expect(keywordQuery('How is the heated garage used?')).toBe('heated garage used?');
    expect(keywordQuery('Is the property zoned?')).toBe('property zoned?');
  });

  it('searches the "for" that ends a "Who … for?" as "client"', () => {
    // A report names the party it was made for its client ("the appraiser's client: …").
    expect(keywordQuery('Who is the appraisal for?')).toBe('appraisal client');
    expect(keywordQuery('who was the inspection done for')).toBe('inspection done client');
    // Only a "Who" question that "for" ends.
    expect(keywordQuery('What did it sell for?')).toBe('sell');
    expect(keywordQuery('Who is the report prepared for by?')).toBe('report prepared');
  });

  it('searches the "long" of a "How long has …" as "since"', () => {
    // A report gives a span up to now by its start ("… in this market since 2002").
    expect(keywordQuery('How long has the appraiser worked in this market?')).toBe(
      'since appraiser worked market?',
    );
    expect(keywordQuery('How many years have they owned it?')).toBe('since years owned');
    // A length is asked by other words: "long" is not searched.
    expect(keywordQuery('How long is the roof warranty?')).toBe('roof warranty?');
  });

  it('searches the participle of a "how much" question also by its "-age" noun', () => {
    // A report labels the share of a lot that buildings may cover "Lot Coverage: 75%".
    expect(keywordQuery('How much of the lot can be covered by buildings?')).toBe(
      'lot covered coverage buildings?',
    );
    // Not in another question, nor a word that is no participle.
    expect(keywordQuery('Is the lot covered by buildings?')).toBe('lot covered buildings?');
    expect(keywordQuery('How much does the shed cost?')).toBe('shed cost?');
  });

  it('searches the verb a "Who" asks also by the noun of its doer', () => {
    // A report names the appraiser under that noun ("Appraiser: …"), not the verb.
    expect(keywordQuery('Who appraised the property?')).toBe(
      'appraised appraiser appraisor property?',
    );
    expect(keywordQuery('Who owns the building?')).toBe('owns owner ownor building?');
    expect(keywordQuery('Who owns the building?', true)).toBe('owns owner ownor building? build');
    // Not a verb of two words, a noun, or a verb another question asks.
    expect(keywordQuery('Who carried out the survey?')).toBe('carried survey?');
    expect(keywordQuery('Who is the appraiser?')).toBe('appraiser?');
    expect(keywordQuery('When was it appraised?')).toBe('When date appraised?');
  });

  it('searches a question of function words only as it is', () => {
    expect(keywordQuery('Who is it?')).toBe('Who is it?');
    expect(keywordQuery('   ', true)).toBe('   ');
  });
});

describe('inflectionPrefix', () => {
  it('cuts an inflected word to the start its forms share', () => {
    expect(inflectionPrefix('zoning')).toBe('zon');
    expect(inflectionPrefix('properties')).toBe('propert');
    expect(inflectionPrefix('sprinklers')).toBe('sprinkler');
    expect(inflectionPrefix('heated')).toBe('heat');
  });

  it('leaves short, uninflected and non-word tokens as they are', () => {
    for (const w of ['used', 'roof', 'furnace', 'status', 'glass', 'business', 'RB02380X', 'beds'])
      expect(inflectionPrefix(w)).toBe(w);
  });
});
