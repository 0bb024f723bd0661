import { describe, expect, it } from 'vitest';
import { inflectionPrefix, keywordQuery } from '../src/index.js';

describe('keywordQuery', () => {
  it('searches the words a question asks, not its function words', () => {
    expect(keywordQuery('When was the inspection carried out?')).toBe(
      'when inspection carried carr',
    );
    expect(keywordQuery('What is the hotspot temperature in thermal image RB02380X?')).toBe(
      'hotspot temperature thermal image RB02380X?',
    );
  });

  it('leaves codes, dates and "make" as asked', () => {
    expect(keywordQuery('Was it inspected on 27.09.2022?')).toBe('inspected inspect 27.09.2022?');
    expect(keywordQuery('What make is the furnace?')).toBe('make furnace');
  });

  it('searches an inflected word as asked and by what all its forms start with', () => {
    // "zoned" finds "Zoning", "flooded" finds "flooding", "restrooms" finds "restroom".
    expect(keywordQuery('How is the property zoned?')).toBe('property zoned zon');
    expect(keywordQuery('Has the building ever flooded?')).toBe(
      'building build ever flooded flood',
    );
    expect(keywordQuery('How many restrooms are there?')).toBe('restrooms restroom');
  });

  it('searches a question of function words only as it is', () => {
    expect(keywordQuery('Who is it?')).toBe('Who is it?');
    expect(keywordQuery('   ')).toBe('   ');
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
