import { describe, expect, it } from 'vitest';
import { localAnnotation } from '../src/annotate/localAnnotation.js';

const facts = {
  mime_type: 'image/png',
  width: 800,
  height: 600,
  ocr_text: null,
  section_name: 'Roof',
};

describe('localAnnotation', () => {
  it('calls a picture without text a photo and says no text was recognised', () => {
    const a = localAnnotation(facts);
    expect(a.annotation_json).toMatchObject({ image_type: 'photo', entities: [], heuristic: true });
    expect(a.annotation_json.summary).toBe('800x600 photo in section "Roof"; no text recognised');
    expect(a.annotation_quality_score).toBeLessThan(0.5);
  });

  it('calls a text-heavy image a document scan and quotes its text', () => {
    const a = localAnnotation({
      ...facts,
      ocr_text: 'Energy performance certificate. '.repeat(10),
    });
    expect(a.annotation_json.image_type).toBe('document_scan');
    expect(a.annotation_json.summary).toContain('Energy performance certificate');
  });

  it('invents no entities', () => {
    expect(
      localAnnotation({ ...facts, ocr_text: 'Boiler: Worcester 30i, installed 2019' })
        .annotation_json.entities,
    ).toEqual([]);
  });

  it('recognises a banner by its shape', () => {
    expect(localAnnotation({ ...facts, width: 1200, height: 200 }).annotation_json.image_type).toBe(
      'banner',
    );
  });
});
