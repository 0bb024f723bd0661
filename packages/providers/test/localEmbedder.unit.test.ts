import { describe, expect, it } from 'vitest';
import { EMBEDDING_DIMENSIONS, LocalEmbedder, answerKinds, foldWords } from '../src/index.js';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe('LocalEmbedder', () => {
  const embedder = new LocalEmbedder();

  it('returns unit vectors of 1536 dimensions', async () => {
    const [v] = await embedder.embed(['The roof covering is in poor condition']);
    expect(v).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(Math.sqrt(cosine(v!, v!))).toBeCloseTo(1, 6);
  });

  it('is deterministic', async () => {
    const [a] = await embedder.embed(['damp in the cellar walls']);
    const [b] = await embedder.embed(['damp in the cellar walls']);
    expect(a).toEqual(b);
  });

  it('places related texts closer than unrelated ones', async () => {
    const [q, near, far] = await embedder.embed([
      'roof slates missing',
      'several slates are missing from the main roof',
      'the boiler was serviced last year',
    ]);
    expect(cosine(q!, near!)).toBeGreaterThan(cosine(q!, far!) + 0.1);
  });

  it('brings a question closer to a report line that says the same thing in other words', async () => {
    const [q, site, other] = await embedder.embed([
      'How big is the lot?',
      'Site Area: 6,219 sf Shape: Rectangular',
      'Exterior Walls: Wood/Stucco Shape: Rectangular',
    ]);
    expect(cosine(q!, site!)).toBeGreaterThan(cosine(q!, other!) + 0.05);
    const [asked, vacant, listed] = await embedder.embed([
      'Is the house occupied?',
      'Property Occupancy Status: Vacant',
      'Property Listing Status: Pending',
    ]);
    expect(cosine(asked!, vacant!)).toBeGreaterThan(cosine(asked!, listed!) + 0.05);
    // A size asked of an area; a foundation asked of the basement or slab that is one.
    const [big, living, style] = await embedder.embed([
      'How big is the house?',
      'Living Area: 1,050 Style: Ranch',
      'Year Built: 1930 Style: Ranch',
    ]);
    expect(cosine(big!, living!)).toBeGreaterThan(cosine(big!, style!) + 0.05);
    const [footing, basement, roof] = await embedder.embed([
      'What kind of foundation does the house have?',
      'Basement: full, poured concrete walls',
      'Roof: full, asphalt shingle cover',
    ]);
    expect(cosine(footing!, basement!)).toBeGreaterThan(cosine(footing!, roof!) + 0.05);
    // How long a house takes to sell, asked of its marketing or exposure time.
    const [sell, exposure, listing] = await embedder.embed([
      'How long would the house take to sell?',
      'Exposure time: 30 to 90 days',
      'Listing time: 30 to 90 days',
    ]);
    expect(cosine(sell!, exposure!)).toBeGreaterThan(cosine(sell!, listing!) + 0.05);
    // How much of a lot may be covered, asked of the coverage a zoning code allows.
    const [covered, coverage, height] = await embedder.embed([
      'How much of the lot can be covered by buildings?',
      'Maximum coverage: 40 percent',
      'Maximum height: 40 feet',
    ]);
    expect(cosine(covered!, coverage!)).toBeGreaterThan(cosine(covered!, height!) + 0.05);
  });

  it('brings a question nearer the line that holds the kind of answer it asks for', async () => {
    const pairs: [string, string, string][] = [
      [
        'When was the property inspected?',
        'Property inspected: 03/14/2024, weather clear',
        'Property inspected: visually, weather clear',
      ],
      [
        'How much will the roof repairs cost?',
        'Roof repairs: about $4,500 for the flashing',
        'Roof repairs: reseal all of the flashing',
      ],
      [
        'Who carried out the structural inspection?',
        'Structural inspection carried out by a chartered engineer',
        'Structural inspection carried out over two days',
      ],
      [
        'How much office space is there?',
        'Office space: 1,750 sf on the main floor',
        'Office space: carpet on the main floor',
      ],
      [
        'What condition is the water heater in?',
        'Water heater: 50 gallon, gas, condition fair',
        'Water heater: 50 gallon, gas, condition noted',
      ],
      [
        'What share of the units is expected to presell?',
        'Units expected to presell: about 50% of them',
        'Units expected to presell: about half of them',
      ],
      [
        'How long has the appraiser worked in this market?',
        'The appraiser has appraised homes in this market since 2004.',
        'The appraiser has appraised homes in this market and in others.',
      ],
    ];
    for (const [question, holds, other] of pairs) {
      const [q, a, b] = await embedder.embed([question, holds, other]);
      expect(cosine(q!, a!), question).toBeGreaterThan(cosine(q!, b!) + 0.05);
    }
  });

  it('brings a "who" question nearer the line that names the doer of what it asks', async () => {
    // The line that answers names the owner; the other says "property", as the question does.
    const [q, doer, other] = await embedder.embed([
      'Who owns the property?',
      'Owner: Dana Example',
      'Property: 12 Example Road',
    ]);
    expect(cosine(q!, doer!)).toBeGreaterThan(cosine(q!, other!) + 0.05);
  });

  it('brings a "How is … zoned?" question nearer the line labelled by the "-ing" noun', async () => {
    // The line that answers is labelled "Zoning"; the other says "property", as the question does.
    const [q, label, other] = await embedder.embed([
      'How is the property zoned?',
      'Zoning: R-1 Single Family',
      'Property: 12 Example Road',
    ]);
    expect(cosine(q!, label!)).toBeGreaterThan(cosine(q!, other!) + 0.05);
  });

  it('brings a "Who … for?" question nearer the line that names the client', async () => {
    // Both lines say "appraisal", as the question does; the one that answers names the client.
    const [q, client, other] = await embedder.embed([
      'Who is the appraisal for?',
      'Appraisal client: Example Savings Bank',
      'Appraisal scope: Example Savings Bank',
    ]);
    expect(cosine(q!, client!)).toBeGreaterThan(cosine(q!, other!) + 0.05);
  });

  it('reads the kind a question asks for, and the kinds a text holds', () => {
    expect(answerKinds('When was the house inspected?')).toEqual(['date']);
    expect(answerKinds('when was the inspection done')).toEqual(['date']);
    // A year, not a date: "Year Built: 1930" holds no date.
    expect(answerKinds('When was the house built?')).toEqual([]);
    expect(answerKinds('What did comparable 2 sell for?')).toEqual(['sum']);
    // An adjustment asked "how much" of is an amount; a part adjusted is asked of no amount.
    expect(answerKinds('How much was each garage space adjusted?')).toEqual(['sum']);
    expect(answerKinds('Was the burner adjusted?')).toEqual([]);
    expect(answerKinds('Who appraised the property?')).toEqual(['person']);
    // A lender or a client may be a bank.
    expect(answerKinds('Who is the lender?')).toEqual([]);
    expect(answerKinds('What condition rating did the appraiser give?')).toEqual(['condition']);
    expect(answerKinds('Inspected by a licensed inspector on May 3, 2025 for $450')).toEqual([
      'date',
      'sum',
      'person',
    ]);
    expect(answerKinds('How much living area does the house have?')).toEqual(['measure']);
    expect(answerKinds('Site: 2.5 acres, level')).toEqual(['measure']);
    expect(answerKinds('Excess land: 5.5 Ac, rear of the site')).toEqual(['measure']);
    expect(answerKinds('How much land is there in total?')).toEqual(['measure']);
    expect(answerKinds('How much office space was let?')).toEqual(['measure']);
    // An amount of space said in words holds no figure.
    expect(answerKinds('Office space: ample')).toEqual([]);
    expect(answerKinds('Roof covering: asphalt shingles, two layers')).toEqual([]);
    // A span up to now, given by its start or its length.
    expect(answerKinds('How long has the appraiser worked in this market?')).toEqual(['span']);
    expect(answerKinds('How many years have the owners lived there?')).toEqual(['span']);
    expect(answerKinds('Appraising in this market since 2002.')).toEqual(['span']);
    expect(answerKinds('Owned by the sellers for over 12 years')).toEqual(['span']);
    // A part of a whole, given as a percentage.
    expect(answerKinds('What share of the units is expected to presell?')).toEqual(['share']);
    expect(answerKinds('How much of the lot can be covered by buildings?')).toEqual(['share']);
    expect(answerKinds('How built up is the neighborhood?')).toEqual(['share']);
    expect(answerKinds('Built-Up: Over 75%')).toEqual(['share']);
    expect(answerKinds('75 percent lot coverage shall be permitted')).toEqual(['share']);
    // A share said in words holds no percentage ("How much office space …", of no whole, asks
    // an amount: above).
    expect(answerKinds('About half of the units presold')).toEqual([]);
    // A length is no span up to now; a year alone, or "since" with no year, says no start.
    expect(answerKinds('How long is the roof warranty?')).toEqual([]);
    expect(answerKinds('Roof replaced in 2002')).toEqual([]);
    expect(answerKinds('Vacant since the sellers moved out')).toEqual([]);
  });

  it('folds accents like the keyword leg', () => {
    expect(foldWords('Façade ÉLÉVATION')).toEqual(['facade', 'elevation']);
  });

  it('gives the empty text the zero vector', async () => {
    const [v] = await embedder.embed(['']);
    expect(v!.every((x) => x === 0)).toBe(true);
  });
});

describe('LocalEmbedder and function words', () => {
  it('ignores English stopwords, which carry no topic without corpus statistics', async () => {
    const embedder = new LocalEmbedder();
    const [a, b] = await embedder.embed([
      'the condition of the roof is poor',
      'condition roof poor',
    ]);
    expect(a).toEqual(b);
  });
});
