import { describe, expect, it } from 'vitest';
import { keywordQuery } from '../src/index.js';

describe('keywordQuery', () => {
  it('searches the words a question asks, not its function words', () => {
    expect(keywordQuery('When was the inspection carried out?')).toBe('When inspection carried');
    expect(keywordQuery('What is the hotspot temperature in thermal image RB02380X?')).toBe(
      'hotspot temperature thermal image RB02380X?',
    );
  });

  it('leaves each kept word as written, and "make" a word asked', () => {
    expect(keywordQuery('Was it inspected on 27.09.2022?')).toBe('inspected 27.09.2022?');
    expect(keywordQuery('What make is the furnace?')).toBe('make furnace?');
  });

  it('searches a question of function words only as it is', () => {
    expect(keywordQuery('Who is it?')).toBe('Who is it?');
    expect(keywordQuery('   ')).toBe('   ');
  });
});
