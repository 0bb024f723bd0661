import { describe, expect, it } from 'vitest';
import {
  AnnotationJson,
  MIN_RICH_SUMMARY_CHARS,
  annotationQualityScore,
  isThinAnnotation,
} from '../src/index.js';

const rich = {
  image_type: 'photo',
  summary: 'Rear elevation of the house showing a cracked render panel below the kitchen window.',
  entities: ['render', 'crack', 'kitchen window'],
};

describe('the thin-annotation rule', () => {
  it('calls a missing annotation thin', () => {
    expect(isThinAnnotation(null)).toBe(true);
    expect(isThinAnnotation(undefined)).toBe(true);
    expect(isThinAnnotation('a photo')).toBe(true);
    expect(isThinAnnotation([rich])).toBe(true);
  });

  it('calls an annotation without image_type thin', () => {
    expect(isThinAnnotation({ ...rich, image_type: undefined })).toBe(true);
    expect(isThinAnnotation({ ...rich, image_type: '   ' })).toBe(true);
    expect(isThinAnnotation({ ...rich, image_type: 7 })).toBe(true);
  });

  it(`calls a summary under ${MIN_RICH_SUMMARY_CHARS} characters thin, and one of exactly that length rich`, () => {
    expect(isThinAnnotation({ ...rich, summary: 'x'.repeat(MIN_RICH_SUMMARY_CHARS - 1) })).toBe(
      true,
    );
    expect(isThinAnnotation({ ...rich, summary: `  ${'x'.repeat(39)}  ` })).toBe(true);
    expect(isThinAnnotation({ ...rich, summary: 'x'.repeat(MIN_RICH_SUMMARY_CHARS) })).toBe(false);
    expect(isThinAnnotation({ ...rich, summary: undefined })).toBe(true);
  });

  it('calls a typed annotation with a real summary rich, entities or not', () => {
    expect(isThinAnnotation(rich)).toBe(false);
    expect(isThinAnnotation({ ...rich, entities: [] })).toBe(false);
  });
});

describe('annotationQualityScore', () => {
  it('scores a missing annotation 0', () => {
    expect(annotationQualityScore(null)).toBe(0);
    expect(annotationQualityScore('text')).toBe(0);
  });

  it('gives full marks to a known type, a 200-character summary and five entities', () => {
    expect(
      annotationQualityScore({
        image_type: 'floor_plan',
        summary: 'y'.repeat(250),
        entities: ['kitchen', 'lounge', 'bedroom 1', 'bedroom 2', 'bathroom', 'hall'],
      }),
    ).toBe(1);
  });

  it('adds the three parts: type, summary length, distinct entities', () => {
    // known type 0.3 + 100/200 * 0.5 + 2/5 * 0.2
    expect(
      annotationQualityScore({
        image_type: 'Photo',
        summary: 'z'.repeat(100),
        entities: ['roof', 'Roof', 'gutter', ''],
      }),
    ).toBe(0.63);
  });

  it('scores an unknown image type lower than a known one', () => {
    const known = annotationQualityScore({ ...rich, image_type: 'photo' });
    const unknown = annotationQualityScore({ ...rich, image_type: 'selfie' });
    expect(known - unknown).toBeCloseTo(0.15, 5);
  });

  it('stays within [0, 1]', () => {
    for (const a of [rich, {}, { image_type: '', summary: '', entities: 'x' }]) {
      const s = annotationQualityScore(a);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });
});

describe('AnnotationJson', () => {
  it('keeps extra keys and object entities', () => {
    const parsed = AnnotationJson.parse({
      ...rich,
      entities: ['roof', { name: 'boiler', condition: 'poor' }],
      condition: 'fair',
    });
    expect(parsed.condition).toBe('fair');
    expect(parsed.entities[1]).toEqual({ name: 'boiler', condition: 'poor' });
  });

  it('refuses an answer without image_type or with entities that are not a list', () => {
    expect(AnnotationJson.safeParse({ summary: 'x', entities: [] }).success).toBe(false);
    expect(AnnotationJson.safeParse({ ...rich, entities: 'roof' }).success).toBe(false);
  });
});
