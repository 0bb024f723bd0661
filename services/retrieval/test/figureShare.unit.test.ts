import { describe, expect, it } from 'vitest';
import { asksForPictures, figuresAfterText, limitFigures } from '../src/figures/figureShare.js';

const item = (id: string, content_type = 'text') => ({ id, content_type });
const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

describe('limitFigures', () => {
  it("keeps at most a third of the top k as figures, after the text; the best text takes the others' places", () => {
    const ranked = [
      item('f1', 'figure'),
      item('f2', 'figure'),
      item('f3', 'figure'),
      item('t1'),
      item('f4', 'figure'),
      item('t2', 'table'),
      item('t3'),
      item('t4'),
      item('t5'),
    ];
    const out = limitFigures(ranked, 6, 'How big is the larger barn?');
    expect(ids(out.slice(0, 6))).toEqual(['t1', 't2', 't3', 't4', 'f1', 'f2']);
    // Nothing is dropped: the held figures follow the top k, in their order, before the rest.
    expect(ids(out)).toEqual(['t1', 't2', 't3', 't4', 'f1', 'f2', 'f3', 'f4', 't5']);
  });

  it('lets figures fill the top k when the query asks for pictures', () => {
    const ranked = [item('f1', 'figure'), item('f2', 'figure'), item('f3', 'figure'), item('t1')];
    expect(ids(limitFigures(ranked, 3, 'Show me photos of the barn'))).toEqual([
      'f1',
      'f2',
      'f3',
      't1',
    ]);
  });

  it('leaves the figures in place when too few other chunks are there to replace them', () => {
    const ranked = [item('f1', 'figure'), item('f2', 'figure'), item('f3', 'figure'), item('t1')];
    expect(ids(limitFigures(ranked, 6, 'barn size'))).toEqual(['t1', 'f1', 'f2', 'f3']);
  });

  it('allows one figure in a small top k', () => {
    const ranked = [item('f1', 'figure'), item('f2', 'figure'), item('t1'), item('t2')];
    expect(ids(limitFigures(ranked, 2, 'barn'))).toEqual(['t1', 'f1', 'f2', 't2']);
  });
});

describe('figuresAfterText', () => {
  it("puts a selection's figures after its text, each in its order", () => {
    const selected = [item('f1', 'figure'), item('t1'), item('f2', 'figure'), item('t2', 'table')];
    expect(ids(figuresAfterText(selected, 'barn size'))).toEqual(['t1', 't2', 'f1', 'f2']);
    expect(ids(figuresAfterText(selected, 'photos of the barn'))).toEqual(['f1', 't1', 'f2', 't2']);
  });
});

describe('asksForPictures', () => {
  it.each([
    ['Are there photos of the roof?', true],
    ['What does the kitchen look like?', true],
    ['Show me the water heater', true],
    ['How big is the larger barn?', false],
    ['Who owns the property?', false],
  ])('%s -> %s', (query, expected) => {
    expect(asksForPictures(query)).toBe(expected);
  });
});
