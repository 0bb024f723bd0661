import { describe, expect, it } from 'vitest';
import {
  LocalExtractiveModel,
  cleanText,
  definedAcronyms,
  factsOf,
  focusTerms,
  labelPairs,
  localAnswer,
  queryTerms,
  shown,
  streamPieces,
  type ChatStreamEvent,
  type ContextDocument,
} from '../src/index.js';

/** The first line of the local answer: what it states first. */
const lead = (q: string, docs: ContextDocument[]): string =>
  localAnswer(docs, q).split('\n')[0] ?? '';
import { scoreFacts, tidySubject } from '../src/text/localAnswer.js';

const DOCS: ContextDocument[] = [
  {
    ref: 'C1',
    title: 'Roof',
    citation: 'Inspection.pdf p. 4',
    text: '## Roof\n\nThe roof covering is natural slate laid on battens. Some slates are slipped.',
  },
  {
    ref: 'C2',
    title: 'Drainage',
    citation: 'Inspection.pdf p. 6',
    text: 'The gutters are cast iron and leak at the joints.\n\n| Item | State |\n|---|---|\n| Downpipe | cracked |',
  },
  {
    ref: 'C3',
    title: 'Heating',
    citation: 'Inspection.pdf p. 9',
    text: 'A gas boiler installed in 2015 heats the house.',
  },
];

/** The shapes real inspection reports take (issue: label/value grids, rating grids, boilerplate). */
const REPORT: ContextDocument[] = [
  {
    ref: 'C1',
    title: 'Plumbing > Water Heater',
    citation: 'Inspection.pdf p. 12',
    text:
      'The inspection is a visual inspection only and is not a warranty of the water heater.\n\n' +
      'Water heater approximate age: 11 years\n\nCapacity: 50 gallons\n\nEnergy source: Gas',
  },
  {
    ref: 'C2',
    title: 'Electrical',
    citation: 'Inspection.pdf p. 14',
    text: 'Main panel capacity: 200 AMP\n\nBranch wiring: Copper\n\nMain panel capacity: 200 AMP',
  },
  {
    ref: 'C3',
    title: 'Interiors',
    citation: 'Inspection.pdf p. 20',
    text: '| Item | S | R | NI |\n|---|---|---|---|\n| 1.4 Window & Frames |  | • |  |\n| 1.5 Doors | • |  |  |',
  },
  {
    ref: 'C4',
    title: 'Roof (attachment roofer-quote.pdf)',
    citation: 'roofer-quote.pdf p. 1',
    attachment: 'roofer-quote.pdf',
    text: 'Replacement of the asphalt shingles is quoted at \\$12,400 including removal.',
  },
];

describe('the local answerer', () => {
  it('states the fact that answers first, whole, with the file and page', () => {
    expect(localAnswer(REPORT, 'How old is the water heater?')).toMatch(
      /^Water heater approximate age: 11 years\. \[Inspection\.pdf p\. 12\]/,
    );
    expect(localAnswer(DOCS, 'What is the roof covering made of?')).toMatch(
      /^The roof covering is natural slate laid on battens\. \[Inspection\.pdf p\. 4\]/,
    );
  });

  it('gives a labelled value its subject when the label alone does not say it', () => {
    expect(localAnswer(REPORT, 'What size is the water heater?')).toMatch(
      /^Water Heater – capacity: 50 gallons\. \[Inspection\.pdf p\. 12\]/,
    );
  });

  it('never opens with boilerplate, and says a repeated fact once', () => {
    const water = localAnswer(REPORT, 'Is the water heater gas or electric?');
    expect(water).not.toMatch(/^The inspection is a visual inspection/);
    const panel = localAnswer(REPORT, 'What is the main panel capacity?');
    expect(panel.match(/200 AMP/g)).toHaveLength(1);
  });

  it('reads a rating grid row against its header: which column the mark is in', () => {
    expect(factsOf(REPORT[2]!.text).map((f) => f.text)).toEqual([
      '1.4 Window & Frames: R',
      '1.5 Doors: S',
    ]);
  });

  it('names the attachment a fact comes from, and renders clean text', () => {
    const answer = localAnswer(REPORT, 'How much does the roof replacement cost?');
    expect(answer).toMatch(
      /^From the attachment roofer-quote\.pdf: Replacement of the asphalt shingles is quoted at \$12,400 including removal\. \[roofer-quote\.pdf p\. 1\]/,
    );
    expect(answer).not.toContain('\\');
  });

  it('states further facts that answer as well after the first, each cited', () => {
    const answer = localAnswer(
      DOCS,
      'Is the boiler from 2015, are the gutters leaking, are slates slipped?',
    );
    const lines = answer.split('\n').filter((l) => l.startsWith('- ') || /^\S/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines.filter((l) => l !== 'The report also says:'))
      expect(l).toMatch(/\[Inspection\.pdf p\. \d+\]$/);
  });

  it('says plainly when the report does not say, and when there is no text yet', () => {
    expect(localAnswer(DOCS, 'Is there a swimming pool?')).toMatch(/^The report does not say\./);
    expect(localAnswer([], 'roof')).toMatch(/no report text to answer from yet/);
  });

  it('gives the same answer every time', () => {
    const q = 'gutters downpipe boiler';
    expect(localAnswer(DOCS, q)).toBe(localAnswer(DOCS, q));
  });

  it('cites by ref when a document has no citation', () => {
    expect(localAnswer([{ ref: 'S1', title: 'Snapshot', text: 'Roof: slate' }], 'roof')).toMatch(
      /\[S1\]$/,
    );
  });

  it('ignores words that say nothing about the question', () => {
    expect(queryTerms('What is the age of the boiler, please?')).toEqual(['age', 'boiler']);
  });

  it('cleans markdown marks, escapes and links out of a line', () => {
    expect(cleanText('## **Roof** \\- see [photo 3](#p3) \\*approx.\\* 11 years')).toBe(
      'Roof - see photo 3 *approx.* 11 years',
    );
  });

  it('shows a sentence too long to show around its matched words, never cutting them', () => {
    const long = `${'Some words before the point, '.repeat(12)}the furnace is 13 years old, ${'and then more words after it, '.repeat(12)}end.`;
    const out = shown(long, ['furnace']);
    expect(out).toContain('the furnace is 13 years old,');
    expect(out.length).toBeLessThan(long.length);
    expect(out).toMatch(/^… .* …$/);
  });

  it('streams the answer in pieces that join back to it, then says it is done', async () => {
    const model = new LocalExtractiveModel();
    const events: ChatStreamEvent[] = [];
    for await (const e of model.stream({
      messages: [],
      documents: DOCS,
      query: 'gutters',
      maxTokens: 100,
    }))
      events.push(e);
    const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
    expect(text).toBe(localAnswer(DOCS, 'gutters'));
    expect(events.at(-1)).toEqual({
      type: 'done',
      finishReason: 'stop',
      usage: null,
      model: 'local-extractive',
    });
    expect(model.writer).toBeNull();
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const events: ChatStreamEvent[] = [];
    for await (const e of new LocalExtractiveModel().stream({
      messages: [],
      documents: DOCS,
      query: 'gutters',
      maxTokens: 100,
      signal: controller.signal,
    }))
      events.push(e);
    expect(events).toEqual([]);
  });

  it('cuts text at spaces into pieces of about the asked size', () => {
    const pieces = streamPieces('one two three four five six seven', 8);
    expect(pieces.join('')).toBe('one two three four five six seven');
    expect(pieces.every((p) => p.length <= 14)).toBe(true);
  });
});

describe('what a question asks about', () => {
  it('is the head of the noun phrase, or what "how old" and "where" ask for', () => {
    expect(focusTerms('What is the distribution panel rating?')[0]).toBe('rating');
    expect(focusTerms("What is the furnace's heating capacity?")[0]).toBe('capacity');
    expect(focusTerms('What brand is the cooktop?')[0]).toBe('brand');
    expect(focusTerms('What is the amperage of the electrical service?')[0]).toBe('amperage');
    expect(focusTerms('How old is the furnace?')).toContain('age');
    expect(focusTerms('Where is the electrical panel?')).toContain('location');
    expect(focusTerms('What kind of heating system does the unit have?')).toEqual([]);
  });
});

describe('label/value grids read as one line', () => {
  it('split into pairs at the capitalised word that starts each label', () => {
    expect(
      labelPairs(
        'Service entrance cable and location: Not visible Service size: 100 Amps (240 Volts) Main disconnect/service box rating: 125 Amps',
      ),
    ).toEqual({
      subject: null,
      pairs: [
        'Service entrance cable and location: Not visible',
        'Service size: 100 Amps (240 Volts)',
        'Main disconnect/service box rating: 125 Amps',
      ],
    });
  });

  it('keep a finding with its details, and its subject apart', () => {
    expect(
      labelPairs(
        'APPLIANCES \\ Range 11. Condition: hot surface light always on Location: First Floor Kitchen Task: Further evaluation',
      ),
    ).toEqual({
      subject: 'APPLIANCES \\ Range',
      pairs: [
        'Condition: hot surface light always on; Location: First Floor Kitchen; Task: Further evaluation',
      ],
    });
  });

  it('read a share of something as one label, from its sign on', () => {
    expect(labelPairs('% of Building Cost: 61.4%')).toEqual({
      subject: null,
      pairs: ['% of Building Cost: 61.4%'],
    });
    expect(
      factsOf('Fit-out: 7 year: $41,200.00\n\n% of Building Cost: 12.5%').map((f) => f.text),
    ).toEqual(['7 year: $41,200.00', '% of Building Cost: 12.5%']);
  });

  it('start a label after a bracket it follows, never inside it', () => {
    expect(labelPairs('Sample East (Town C & Town D) Summary: Quiet towns; low prices.')).toEqual({
      subject: 'Sample East (Town C & Town D)',
      pairs: ['Summary: Quiet towns; low prices.'],
    });
    // A sentence that ends in a colon over a table is no label.
    expect(
      factsOf('Board DB-2 (Unit 4, east wall) showed a hot joint:\n\nJoint Phase L1 41 deg C').map(
        (f) => [f.text, f.labelled, f.subject],
      ),
    ).toEqual([
      ['Board DB-2 (Unit 4, east wall) showed a hot joint: Joint Phase L1 41 deg C', false, null],
    ]);
  });

  it('pair a label line with the value on the line below it', () => {
    expect(
      factsOf('AFUE Rating\n\n96.7\n\nThe furnace was serviced in 2021.').map((f) => f.text),
    ).toEqual(['AFUE Rating: 96.7', 'The furnace was serviced in 2021.']);
  });
});

/** An inspection app's items: name and rating on a line, then a label alone over its text. */
const ITEMS = [
  '## Plumbing',
  'Water Supply Service Satisfactory',
  'Observations:',
  'Half inch copper line from the street.Meter in the hall.',
  'Photos:',
  'Water Heater Needs Evaluation',
  'Observations:',
  'Rust at the base of the tank',
  'Recommendations:',
  'Have a plumber replace the tank within a year.',
  'Photos:',
  'Sump Pump (if present) Not Rated',
  'Observations:',
  'No sump pump',
  'Photos:',
  'Smoke Alarms Satisfactory',
  'Observations:',
  'All alarms tested. The alarms are interconnected.',
].join('\n\n');

describe('items of inspection apps', () => {
  it('say each label-alone text as its item, the rating as the item value', () => {
    expect(factsOf(ITEMS).map((f) => f.text)).toEqual([
      'Water Supply Service: Satisfactory',
      'Water Supply Service: Half inch copper line from the street. Meter in the hall.',
      'Water Heater: Needs Evaluation',
      'Water Heater: Rust at the base of the tank',
      'Water Heater (recommendation): Have a plumber replace the tank within a year.',
      'Sump Pump (if present): Not Rated',
      'Sump Pump (if present): No sump pump',
      'Smoke Alarms: Satisfactory',
      'Smoke Alarms: All alarms tested. The alarms are interconnected.',
    ]);
  });

  it('leave a sentence that ends in a rating word a sentence', () => {
    expect(factsOf('The roof was found sound and needs maintenance').map((f) => f.text)).toEqual([
      'The roof was found sound and needs maintenance',
    ]);
  });

  it('answer with what was observed rather than the rating, unless the condition is asked', () => {
    const docs: ContextDocument[] = [
      { ref: 'C1', title: 'Plumbing', citation: 'App.pdf p. 34', text: ITEMS },
    ];
    const first = (q: string) => localAnswer(docs, q).split('\n')[0];
    expect(first('What size is the water supply line?')).toBe(
      'Plumbing – Water Supply Service: Half inch copper line from the street. Meter in the hall. [App.pdf p. 34]',
    );
    expect(first('Is there a sump pump?')).toContain('No sump pump');
    expect(first('Are the smoke alarms linked?')).toContain('interconnected');
    expect(first('How should the water heater be fixed?')).toContain('replace the tank');
    // Asked for its condition, the rating is said too.
    expect(localAnswer(docs, 'What condition is the water heater in?')).toContain(
      'Water Heater: Needs Evaluation',
    );
  });

  it('read bullets run together on a line, under a heading in capitals', () => {
    const text =
      'SHORT SUMMARY OF FINDINGS\n\nSTRUCTURE: FOUNDATION SETTLEMENT: ●\u200b The Issue: Hairline crack (1/4") in the cellar wall. ● Recommendation: Seal with epoxy. ● Cost Estimate: $300 - $500.';
    expect(factsOf(text).map((f) => [f.text, f.subject])).toEqual([
      ['SHORT SUMMARY OF FINDINGS', null],
      ['The Issue: Hairline crack (1/4") in the cellar wall.', 'STRUCTURE: FOUNDATION SETTLEMENT'],
      ['Recommendation: Seal with epoxy.', 'STRUCTURE: FOUNDATION SETTLEMENT'],
      ['Cost Estimate: $300 - $500.', 'STRUCTURE: FOUNDATION SETTLEMENT'],
    ]);
    const docs: ContextDocument[] = [{ ref: 'C1', title: 'Summary', citation: 'S.pdf p. 2', text }];
    expect(lead('How wide is the foundation crack?', docs)).toContain('1/4"');
    expect(lead('How much will the repair cost?', docs)).toContain('$300');
  });
});

describe('questions that frame what they ask', () => {
  const text =
    '## Findings\n\nLOCATION PRIORITY OBSERVATION\n\nGarage — Door Medium The opener reverses late.\n\n' +
    'Hall — Ceiling High Water stain near the light.\n\nUtility — Electrical Medium One breaker trips on load.\n\n' +
    'Recommendations\n\n• Adjust the opener force. • Find the leak above the hall before repainting. • Have an electrician check the breaker.';
  const docs: ContextDocument[] = [{ ref: 'C1', title: 'Findings', citation: 'F.pdf p. 2', text }];
  const first = (q: string, texts?: string[]) =>
    localAnswer(
      texts ? texts.map((t, i) => ({ ref: `C${i + 1}`, title: 'Findings', text: t })) : docs,
      q,
    ).split('\n')[0];

  it('ask with the report words when a question says nothing else', () => {
    expect(
      first('What type of inspection was this?', [
        'Client: A. Buyer\n\nInspection Type: Pre-Purchase',
      ]),
    ).toContain('Pre-Purchase');
  });

  it('find the finding about the place asked of, whatever word the finding is said in', () => {
    expect(first('What is the issue in the utility room?')).toContain('breaker trips');
  });

  it('answer how to fix something with what the report recommends for it', () => {
    expect(first('How should the hall ceiling stain be fixed?')).toContain('Find the leak');
    // The recommendation does not name the hall again: it still answers.
    expect(
      first('How should the bedroom wall crack be repaired?', [
        'Bedroom — Walls Medium Hairline crack by the window.\n\nRecommendations\n\n• Seal the crack and repaint.',
      ]),
    ).toContain('Seal the crack');
    expect(first('What is wrong with the garage door?')).toContain('reverses late');
  });
});

describe('local answerer: forms, cards and tables of report apps', () => {
  const first = (q: string, texts: string[]) =>
    localAnswer(
      texts.map((t, i) => ({
        ref: `C${i + 1}`,
        title: 'Report',
        citation: `R.pdf p. ${i + 1}`,
        text: t,
      })),
      q,
    ).split('\n')[0];

  it('reads a row of a two-column table as the label and its value', () => {
    const table = '| Field | Details |\n|---|---|\n| Facing | North |\n| Bathrooms | 4 |';
    expect(first('How many bathrooms does it have?', [table])).toContain('Bathrooms: 4');
    // "face" asks for what is said as "facing".
    expect(first('Which way does the property face?', [table])).toContain('Facing: North');
  });

  it('says a card’s note as the item’s, the item named on the line above it', () => {
    const cards =
      'KITCHEN\n\nFridge NO CHANGE\n\nAppliances Check-in: Good → Check-out: Good\n\n' +
      'Microwave NEW DAMAGE\n\nAppliances Check-in: Good → Check-out: Damaged\n\nCHECK-IN CHECK-OUT\n\n' +
      'Check-out note: Not working anymore';
    expect(first('What is wrong with the microwave?', [cards])).toContain('Not working anymore');
  });

  it('answers when with a date, and how much with an amount of money', () => {
    expect(
      first('When was the check-out inspection done?', [
        'Date of inspection: 19 July 2026\n\nProperty type: Apartment',
        'Check-out: the keys were handed back at the office.',
      ]),
    ).toContain('19 July 2026');
    // A date under the label asked of, not the date of something else.
    expect(
      first('When does the contract end?', [
        'Date of inspection: 19 July 2026\n\nContract start: 20 April 2026\n\nContract end: 19 April 2027',
      ]),
    ).toContain('Contract end: 19 April 2027');
    expect(
      first('How long is the valuation valid?', [
        'Final Valuation: Rs. 1,75,93,200',
        'The validity of this Desktop Valuation Report is 45 days from the date of generation.',
      ]),
    ).toContain('45 days');
    expect(
      first('How much does the verification cost?', [
        'Verification Type: $99 Simple Verification - One reported issue',
        'The owner asked for a second look before approving the replacement cost.',
      ]),
    ).toContain('$99');
  });

  it('matches a word every report says only as itself, and a related word below a word asked', () => {
    // "reported" is asked: "This report documents …" does not say it.
    expect(
      first('What issue was reported?', [
        'This report documents visible conditions observed during a limited site visit.',
        'The reported hot tub cover concern was verified during the visit.',
      ]),
    ).toContain('hot tub cover');
    // "make" is related to brand, but "make up any shortfall" says no brand.
    expect(
      first('What brand is the cooktop?', [
        'Owners may be expected to pay a Special Assessment to make up any shortfall.',
        'Refrigerator: Sub-Zero\n\nCooktop: Dacor',
      ]),
    ).toContain('Dacor');
    // A year answers when.
    expect(
      first('When was the basement work done?', [
        'The basement development consists of a room under the kitchen.',
        'The basement work was carried out prior to 1991 by a previous owner.',
      ]),
    ).toContain('prior to 1991');
  });

  it('keeps a sentence that introduces a list with the list’s first item, and a colon inside a sentence in it', () => {
    expect(
      first('What is the decking made of?', [
        'The timber deck has been constructed from the following materials:\n\nDecking ex 100x25mm kwila hardwood\n\nThe deck is about 4500mm wide.',
      ]),
    ).toContain('kwila hardwood');
    const summary =
      'Check-out inspection of the unit conducted 19 July 2026 with five rooms and ten photos. New damage since check-in is present in 3 rooms: Bathroom 1 shows worsened stains.';
    expect(factsOf(summary).map((f) => f.labelled)).toEqual([false, false]);
  });

  it('answers who with the person under the label of their role', () => {
    expect(
      first('Who did the thermal scan?', [
        'Thermal Scan Date: March 10, 2025\n\nThermographer: Sample Person | Level II\n\nEquipment: FLIR E86 Thermal Camera',
        'The thermal scan was conducted at midday for contrast.',
      ]),
    ).toContain('Thermographer: Sample Person');
  });

  it('answers about the thing a code names, and how much of something with a share', () => {
    expect(
      first('What did the scan find at the office O-3 window seal?', [
        '- Office O-7 window seal: scan inconclusive due to external glare.',
        '| Location | Issue |\n|---|---|\n| Office O-3 Window Seal | Cold infiltration / seal failure |',
      ]),
    ).toContain('Cold infiltration');
    expect(
      first('How much of the terrace waterproofing is damaged?', [
        'Fig 4.1 - Waterproofing membrane bubbling, Roof Terrace Zone R2',
        '- Waterproofing membrane bubbling and cracked across approximately 40% of terrace area.',
      ]),
    ).toContain('40%');
    // The same share, asked for as a portion.
    expect(
      first('What portion of the terrace waterproofing is damaged?', [
        'Fig 4.1 - Waterproofing membrane bubbling, Roof Terrace Zone R2',
        '- Waterproofing membrane bubbling and cracked across approximately 40% of terrace area.',
      ]),
    ).toContain('40%');
  });

  it('does not answer with a blank of a form template', () => {
    expect(
      first('What is the guest impact?', [
        '| Field | Fill-In Value |\n|---|---|\n| Guest Impact | [Low / Moderate / High] |',
        'Guest Impact: MODERATE-HIGH',
      ]),
    ).toContain('MODERATE-HIGH');
  });

  it('matches a word and its -ies plural, and an acronym of the words asked', () => {
    expect(
      first('What is the maximum liability?', [
        'The Service Provider accepts no responsibility or liability for costs arising from errors.',
        'The maximum aggregate amount payable in respect of claims, damages, liabilities or expenses shall be five times the fee, with a maximum limit of $500,000.',
      ]),
    ).toContain('$500,000');
    expect(
      first('What is the air quality index?', [
        'Air quality is acceptable; sensitive groups may notice minor effects.',
        'Dining / retail: 77 | Parks: 16 | 51 Moderate US AQI',
      ]),
    ).toContain('51 Moderate US AQI');
  });

  it('answers with the section the question names', () => {
    const docs = [
      {
        ref: 'C1',
        title: 'Recommendation',
        text: 'Proceed with Conditions. Further due diligence on tenant renewal is advised.',
      },
      { ref: 'C2', title: 'Market Context', text: 'Office vacancy is running 22-26%.' },
    ];
    const answer = localAnswer(docs, 'What is the recommendation?');
    expect(answer).not.toContain('does not say');
    expect(answer).toContain('Proceed with Conditions');
  });

  it('answers a score with a figure', () => {
    expect(
      first('What compliance score did the site get?', [
        'Business Unit: Demo Logistics | Site / Area: Central Warehouse',
        'Inspection completed with 70% compliance (needs improvement), 12 findings, and 13 actions.',
        'Checklist purpose, progress, score and findings are summarised below.',
      ]),
    ).toContain('70% compliance');
  });

  it('does not answer what kind with a value that says nothing is there', () => {
    const docs: ContextDocument[] = [
      {
        ref: 'C1',
        title: 'Hot Water System',
        text: 'We have inspected the hot water system for visible issues only.\n\nType of hot water system: Electric cylinder, Mains pressure, 180\n\nLocation: Laundry\n\nOther Systems\n\nThese systems have not been tested for their operation.\n\nsystems\n\nSolar heating: N/A\n\nShading systems: N/A\n\nOther systems: None noted',
      },
      {
        ref: 'C2',
        title: 'Plumbing',
        text: 'Hot and cold water pressure was adequate at the taps.',
      },
      {
        ref: 'C3',
        title: 'Bathroom',
        text: 'Hot water reached the shower quickly.\n\nHot tap drips.',
      },
      { ref: 'C4', title: 'Kitchen', text: 'Hot water at the sink.\n\nWater filter fitted.' },
    ];
    const answer = localAnswer(docs, 'What kind of hot water system is there?');
    expect(answer.split('\n')[0]).toContain('Electric cylinder');
    expect(answer).not.toContain('N/A');
    // Whether there is one is answered by it.
    expect(
      first('Is there a sump pump?', ['Sump pump: None', 'The basement floor is dry.']),
    ).toContain('Sump pump: None');
  });
});

describe('local answerer: word families, lists, places, counts and times', () => {
  const answer = (q: string, texts: string[], titles: string[] = []) =>
    localAnswer(
      texts.map((t, i) => ({
        ref: `C${i + 1}`,
        title: titles[i] ?? 'Report',
        citation: `R.pdf p. ${i + 1}`,
        text: t,
      })),
      q,
    );
  const first = (q: string, texts: string[], titles?: string[]) =>
    answer(q, texts, titles).split('\n')[0];

  it('matches two endings of one word and a noun made of it, but not a noun of its own', () => {
    expect(
      first('Are the gutters blocked?', [
        'Gutters are fixed and free of visible blockages.',
        'The fence is timber.',
      ]),
    ).toContain('free of visible blockages');
    expect(
      first('Which road does the lot front onto?', [
        'The lot has frontage on Hill Road.',
        'The lot is flat.',
      ]),
    ).toContain('Hill Road');
    expect(
      first('What is the roof covered with?', ['Covering: Clay tile', 'Gutters: Plastic']),
    ).toContain('Clay tile');
    // "Conditioning" is no form of "condition".
    expect(
      first('What problem was found with the air conditioning?', [
        'Condition: Damp is often caused by conditions outside.',
        'AIR CONDITIONING \\ Coil Condition: Frost on the coil',
      ]),
    ).toContain('Frost');
  });

  it('answers who with a person named in a sentence, not a firm', () => {
    expect(
      first('Who carried out the survey?', [
        'The survey was commissioned by Sample Holdings Ltd. and carried out on 2 May.',
        'This survey was carried out by Ms. Sample Surveyor (Reg. No. AB-12), a chartered surveyor.',
      ]),
    ).toContain('Sample Surveyor');
  });

  it('answers with the items of a list set under the line that the question names', () => {
    const text =
      '4.1 Immediate Actions — Within 48 Hours\n\n1\\. Fence off the damaged stair.\n\n2\\. Isolate the leaking valve.\n\n4.2 Short Term Actions — Within 7 Days\n\n3\\. Reseal the window frames.';
    const said = answer('What must be done within 48 hours?', [text]);
    expect(said.split('\n')[0]).toContain('Fence off the damaged stair');
    expect(said).toContain('Isolate the leaking valve');
    expect(said).not.toContain('Reseal the window');
  });

  it('says the sentences before one that leads into what follows as facts of their own', () => {
    expect(
      first('How thick is the floor slab?', [
        'The floor slab is a 150mm thick concrete slab. The following defects were recorded:\n\nThe map cracking across 40% of the floor is from shrinkage.',
        'The dock wall is a 300mm thick retaining wall.',
      ]),
    ).toContain('150mm thick');
  });

  it('answers how far with a distance and how many with a count of the thing asked', () => {
    expect(
      first('How far is the nearest hospital?', [
        'Nearest town: Millbrook',
        'City hospital: 868 meters away',
      ]),
    ).toContain('868 meters');
    expect(
      first('How many anomalies were found in Block B?', [
        'Block C showed the most severe anomalies, across 40 images.',
        'Block B showed many anomalies: 12 anomalies were found across 80 images.',
        'Contents 6.1 East Wall Anomaly 6.2 Roof Anomalies 6.3 Block B Anomalies 6.4 Floor',
      ]),
    ).toContain('12 anomalies');
    // "2 miles" counts miles, not schools; "zone is" names no zone.
    expect(
      first('How many schools are within 2 miles?', [
        'Access within 2 miles: mapped schools give access.',
        'Schools within 2 miles: 34 schools mapped.',
      ]),
    ).toContain('34 schools');
    expect(
      first('What flood zone is the lot in?', [
        'Tsunami zone is inside the mapped hazard area for flood planning.',
        'Flood zone: Zone X, minimal flood hazard.',
      ]),
    ).toContain('Zone X');
  });

  it('answers about the block the question names, not one that names another', () => {
    expect(
      first(
        'How old are the roof sheets on Block C?',
        ['Block A roof sheets are 5 years old.', 'Roof sheets are 15 years old, with pitting.'],
        ['Overview', 'Block C — Findings'],
      ),
    ).toContain('15 years old');
  });

  it('answers when with the date of the event asked, and a time from now', () => {
    expect(
      first('When was the warehouse built?', [
        'Inspection Date: 15 March 2024',
        'The warehouse was originally constructed in 2009.',
      ]),
    ).toContain('2009');
    expect(
      first('When should the roof be looked at again?', [
        'Date: 14 June 2026',
        'The roof should be looked at by drone in 12 months.',
      ]),
    ).toContain('in 12 months');
  });

  it('answers how old with a number, how soon with a time, and the noun asked before "during"', () => {
    expect(
      first('How old is the roof?', [
        'The roof is in good condition for its age. The roof is pitched. The roof has no leaks.',
        'Roof covering: Concrete tile\n\nRoof vents: Two\n\nApprox. age: Approx. 25 years',
      ]),
    ).toContain('25 years');
    expect(
      first('How soon can the work start?', [
        'The work is covered by the Health and Safety at Work Act 2015 and its rules.',
        'We can commence work within 3 working days of receiving the signed proposal.',
      ]),
    ).toContain('3 working days');
    expect(
      first('What was the relative humidity during the survey?', [
        'Survey Date: 16 March 2024',
        'Relative Humidity: 68%',
      ]),
    ).toContain('68%');
  });

  it('does not answer with the legend of a rating scale', () => {
    expect(
      first('What is the condition of the chimney flashing?', [
        'Overall Roof Condition: Poor Fair Moderate Good Excellent',
        'Chimney flashing shows minor hairline cracking.',
      ]),
    ).toContain('hairline cracking');
  });

  it('answers from a row named by its code, a count in brackets, and a bullet’s first sentence', () => {
    expect(
      first('When must the emergency lighting be fixed?', [
        '| # | Item | Remarks |\n|---|---|---|\n| 9 | HVAC filter | Replace within 2 weeks |',
        '| ID | Description | Action | Due Date |\n|---|---|---|---|\n| DEF-001 | Emergency lighting – 3 fixtures out | Replace lamps | May 10, 2026 |',
      ]),
    ).toContain('May 10, 2026');
    expect(
      first('How many gable vents need to be covered?', [
        'Install cover hardware on long sides for each gable vent.',
        'Comments, questions, concerns: Tear off and replace. Cover gable vents (2).',
      ]),
    ).toContain('gable vents (2)');
    expect(
      first('How much should be budgeted for capital expenditures?', [
        '- Budget for capital expenditures. Systems replacement can run $360,000 in total.',
        '- Budget aggressively for roof work.',
      ]),
    ).toContain('$360,000');
  });

  it('answers a count alone, a word in its -ed and -ing forms, and a comparison', () => {
    expect(
      answer('How many playgrounds are nearby?', [
        '33 mi mapped bike routes · 10 playgrounds',
        'Parks are mapped from open data.',
      ]),
    ).toContain('10 playgrounds');
    expect(first('How is the lot zoned?', ['Zoning: MF-2(A)', 'Lot size: 0.78 acres'])).toContain(
      'MF-2(A)',
    );
    expect(
      first('How does property crime compare with the US average?', [
        'How this compares: each rate is shown above or below the U.S. average on one scale.',
        '| Metric | Value | VS U.S. average |\n|---|---|---|\n| Property crime rate | 5,007 / 100k | 156% above average |',
      ]),
    ).toContain('156% above average');
  });

  it('answers with a value under an acronym of the words asked, and never with a form’s question', () => {
    expect(
      first('What is the air quality index?', [
        'The Air Quality Index (AQI) runs 0 to 500; the lower the number, the cleaner the air.',
        'AQI: 124',
      ]),
    ).toContain('AQI: 124');
    expect(
      first('What is the deck thickness?', [
        'OSB Plywood Boards What is the deck thickness?',
        'Deck: 7/16 inch plywood, thickness checked at the eaves.',
      ]),
    ).toContain('7/16 inch');
  });

  it('answers who with the person under a role said in other words, and keeps "property" before a noun', () => {
    expect(
      answer('Who inspected the facility?', [
        'Inspector: Sample Person',
        'The facility is in satisfactory condition with minor actions required.',
      ]).split('\n')[0],
    ).toContain('Inspector: Sample Person');
    expect(
      first('How does property crime compare with the US average?', [
        'How this compares: each rate above or below the U.S. average, on one scale.',
        '| Metric | Value | VS U.S. average |\n|---|---|---|\n| Violent crime rate | 775 / 100k | 104% above average |\n| Property crime rate | 5,007 / 100k | 156% above average |',
      ]),
    ).toContain('156% above average');
  });

  it('answers with a fact that stands far above every other, though it misses a word asked', () => {
    expect(
      first('What size is the water supply line?', [
        'Water Supply Service: 3/4 in connection PVC plastic to brass fitting',
        'Moisture & Water Intrusion: Not Rated',
        'Electrical Service: 200 amp',
      ]),
    ).toContain('3/4 in connection');
  });

  it('does not answer with the opposite of what is asked', () => {
    expect(
      first("What is the furnace's heating capacity?", [
        'Heat pump cooling capacity: 36,000 BTU/hr',
        'Furnace: Gas forced air\n\nApproximate capacity: 90,000 BTU/hr',
      ]),
    ).toContain('90,000 BTU/hr');
  });

  it('answers a price with an amount of money, and a condition with an app’s status in capitals', () => {
    expect(
      first('What is the asking price?', [
        'DETAILS $865,000',
        'Modern living with a bright open kitchen and a large backyard.',
      ]),
    ).toContain('$865,000');
    expect(
      first('Is the HVAC working?', [
        'HVAC filter is due for replacement within the next 60 days.',
        'HVAC Check RUNNING NORMALLY',
      ]),
    ).toContain('RUNNING NORMALLY');
    expect(
      answer('Who checked the property?', [
        'Property specialist: Sample Specialist',
        'Visit type: One-time check',
      ]).split('\n')[0],
    ).toContain('Sample Specialist');
  });

  it('answers what type of property with the label that names it, and keeps "Date and Time" one label', () => {
    const form = [
      'Property Type: Flat\n\nFloors: 11\n\nInspection Date and Time: 27.09.2022 14:28 IST Inspected By: Sample Inspector',
    ];
    expect(first('What type of property was inspected?', form)).toContain('Type: Flat');
    expect(first('When was the inspection carried out?', form)).toContain(
      'Inspection Date and Time: 27.09.2022',
    );
    expect(
      labelPairs('Inspection Date and Time: 27.09.2022 Inspected By: Sample Inspector'),
    ).toEqual({
      subject: null,
      pairs: ['Inspection Date and Time: 27.09.2022', 'Inspected By: Sample Inspector'],
    });
    // A finding's title before a dash is its subject, the dash not kept twice when shown.
    expect(labelPairs('Uneven Pavers — Trip Hazard: safety-hazard / warning')).toEqual({
      subject: 'Uneven Pavers',
      pairs: ['Trip Hazard: safety-hazard / warning'],
    });
  });

  it('reads "No." before a figure as a number, and the reading under the image the question names', () => {
    expect(
      first('Which flat number was inspected?', [
        'Inspected By: Sample Inspector',
        'Observed dampness at the skirting level of the Hall of Flat No. 103',
      ]),
    ).toContain('Flat No. 103');
    const images = [
      [
        'Thermal image: IR0101.JPG Device: Sample Camera 400',
        'Hotspot: 28.8 °C\n\nColdspot: 23.4 °C\n\nReflected temperature: 23 °C',
        'Thermal image: IR0102.JPG Device: Sample Camera 400',
        'Hotspot: 27.4 °C\n\nColdspot: 22.4 °C\n\nReflected temperature: 23 °C',
      ].join('\n\n'),
    ];
    expect(first('What is the hotspot temperature in thermal image IR0102?', images)).toContain(
      'Hotspot: 27.4 °C',
    );
    expect(first('What is the hotspot temperature in thermal image IR0101?', images)).toContain(
      'Hotspot: 28.8 °C',
    );
    expect(
      first('Which camera was used?', [
        'Emissivity: 0.94\n\nDevice: Sample Camera 400\n\nReflected temperature: 23 °C',
      ]),
    ).toContain('Sample Camera 400');
  });

  it('answers in the words a report uses for a smell and for getting worse, and when with a season', () => {
    const notes = [
      '1. Damp patches observed on the bedroom wall.\n\n2. Slight musty odor present in the bedroom.',
      '- Dampness increases during monsoon.\n\n- Ventilation in the bedroom is poor.',
    ];
    expect(first('Is there any smell in the bedroom?', notes)).toContain('musty odor');
    expect(first('When does the dampness get worse?', notes)).toContain('during monsoon');
  });

  it('answers with the finding a label was printed over when the finding says every word asked', () => {
    expect(
      first('What is the condition of the cracks on the RCC columns and beams?', [
        'Structural Condition of RCC Members: Condition of cracks observed on RCC Column and Beam Moderate\n\nCondition of rust marks observed in RCC Beam and Column N/A',
      ]),
    ).toContain('Condition of cracks observed on RCC Column and Beam Moderate');
  });

  it('answers how long with a figure and its unit, under a note’s label, and never with a heading that repeats the question', () => {
    expect(
      first(
        'How long is the new crack in bedroom 1?',
        [
          'New Damp · Living Room · Crack · Bedroom 1 · Stain · Bedroom 1',
          'Check-out note: NEW crack on wall upper left ~30cm · NEW stain on wall lower left ~10cm',
        ],
        ['Room comparison', 'Bedroom 1'],
      ),
    ).toContain('~30cm');
    expect(
      first('Is there any damage in the kitchen?', [
        'KITCHEN.',
        'The kitchen scratch to the wall surface is unchanged from check-in.',
      ]),
    ).toContain('scratch');
  });

  it('keeps a label that names its own subject a fact of its own, and answers a score with a figure under a name', () => {
    expect(
      first('How long does permitting take in West Texas?', [
        'Crime Rate: 46 incidents/1,000 residents\n\nPermitting Time: 1-2 months',
      ]),
    ).toContain('1-2 months');
    expect(
      first('What is the overall suitability score of Texas West?', [
        'Risks & Rewards: bureaucracy favors US (9/10 score). Overall suitability averages 7.5/10.',
        'Flipping Suitability Scores (1–10, Higher Better)\n\nMontana West: 8.1\n\nTexas West: 8.9\n\nWyoming North: 8.4',
      ]),
    ).toContain('Texas West: 8.9');
  });

  it('says an item with the rating set on the line under it', () => {
    const facts = factsOf(
      'Ref 2.1 Ridge tiles, bay window\n\nRepair Required\n\nObservation: Mortar has failed.',
    );
    expect(facts.map((f) => f.text)).toContain('Ref 2.1 Ridge tiles, bay window: Repair Required');
  });

  it('answers a value with an amount of money, a rate with a figure, and keeps a label in capitals whole', () => {
    expect(
      first('What is the final market value of the property?', [
        'The final step in the appraisal process involves correlating the valuation techniques into an indication of final market value.',
        'Indicated Property Value via\n\nSales Comparison Approach: $368,000\n\nFinal Value (Fee Simple Estate): $368,000',
      ]),
    ).toContain('$368,000');
    expect(
      first('What capitalization rate was used?', [
        'The sales utilized in the Sales Comparison Analysis were analyzed in abstracting an overall capitalization rate.',
        'Net Operating Income: $182,804.99\n\nCapitalization Rate: 10.61%',
      ]),
    ).toContain('10.61%');
    expect(labelPairs('COST APPROACH TO VALUE: $ 3,640,000')).toEqual({
      subject: null,
      pairs: ['COST APPROACH TO VALUE: $ 3,640,000'],
    });
  });

  it('answers how much of a thing with that thing, why with a reason, and the kind asked over another', () => {
    expect(focusTerms('How much weight was the cost approach given?')).toEqual([]);
    expect(
      first('How much weight was the cost approach given?', [
        'COST APPROACH TO VALUE: $ 3,640,000\n\nSALES COMPARISON APPROACH: $ 2,400,000\n\nINCOME CAPITALIZATION APPROACH: $ 2,600,000',
        'The Cost Approach to Value is not typically relative to properties that are older like the subject. Depreciation is also difficult to ascertain for older properties. Therefore, this approach to value will not be given any weight in the final valuation.',
        'The Cost Approach is based upon the Principle of Substitution.',
      ]),
    ).toContain('not be given any weight');
    expect(
      first('Why was the cost approach not used?', [
        'The Cost Approach to value is typically used for new construction and properties which don’t have decades of depreciation.',
        'The Cost Approach was not utilized due to the age of the subject, and lack of recent updates.',
      ]),
    ).toContain('due to the age');
    expect(
      first('How much weight was given to the sales comparison approach?', [
        'Since the purpose is to find a market value to sell the property, the income approach is given 25% weight in the final value indication.',
        'The Sales Comparison Approach is deemed the most reliable indicator, so the sales comparison approach is given the most weight (65%) in the final analysis.',
      ]),
    ).toContain('65%');
  });

  it('answers from the report before an ordinance printed after it as an attachment', () => {
    const answer = localAnswer(
      [
        {
          ref: 'C1',
          title: 'Attachments',
          citation: 'Zoning.pdf pp. 10–84',
          text: 'Sec. 206-5. R-1 district.\n\nRear yard setback: 25 feet minimum.',
        },
        {
          ref: 'C2',
          title: 'Development Standards',
          citation: 'Zoning.pdf p. 6',
          text: 'Front Yard Setback: 25 ft.\n\nRear Yard Setback: 35 ft.',
        },
      ],
      'What is the rear yard setback?',
    );
    expect(answer.split('\n')[0]).toContain('35 ft');
  });

  it('reads an acronym the report defines as the words it stands for', () => {
    expect(
      definedAcronyms(
        'divide the NOI by an overall capitalization rate (OAR) to derive a value; net operating income (NOI); the Appraisal Institute (AI); Texas (TX)',
      ),
    ).toEqual(
      new Map([
        ['oar', ['overall', 'capitalization', 'rate']],
        ['noi', ['net', 'operating', 'income']],
        ['ai', ['appraisal', 'institute']],
      ]),
    );
    const answer = localAnswer(
      [
        {
          ref: 'C1',
          title: 'Income Approach',
          citation: 'Appraisal.pdf p. 15',
          text:
            'The next step is to divide the NOI by an overall capitalization rate (OAR) to derive an overall value.\n\n' +
            'The sales indicated a range of OARs from 7.9% to 10.8%. Based on these indications, an OAR of 9.2% was chosen for the subject.',
        },
      ],
      'What capitalization rate was chosen?',
    );
    expect(answer.split('\n')[0]).toContain('9.2%');
  });

  it('keeps a word that says which one with its label: "Effective Age" is one label', () => {
    expect(labelPairs('Effective Age: 30 YRS')).toEqual({
      subject: null,
      pairs: ['Effective Age: 30 YRS'],
    });
    // A thing's name before a label of its kind is still its subject.
    expect(labelPairs('Water Heater Age: 11 years')).toEqual({
      subject: 'Water Heater',
      pairs: ['Age: 11 years'],
    });
  });
});

describe('local answerer: a valuer’s figures', () => {
  const doc = (title: string, text: string, page = 1): ContextDocument => ({
    ref: `C${page}`,
    title,
    citation: `Appraisal.pdf p. ${page}`,
    text,
  });

  const INCOME = doc(
    'Income Approach',
    'The subject is being purchased for owner occupancy, therefore, there is no rental history or lease agreement to help guide an estimate of market rent.\n\n' +
      'Estimate of Market Rent: The rental rates for these properties range from $8.91 to $12.89 psf (NNN).\n\n' +
      'Giving this information, I have estimated market rent for the subject to be $11.50 psf.\n\n' +
      'There is very little vacancy among good quality buildings. I have estimated the vacancy rate to be 5.0%, which is a typical rate for this market.\n\n' +
      'In order to convert the net operating income into a value estimate, it is necessary to divide it by the proper capitalization rate. ' +
      'The cap rates exhibited by the sales are as follows: 6.18%, 6.54% and 6.03%, with an overall average of 6.35%.',
    39,
  );
  const COMPARABLE = doc(
    'Comparable 1',
    'Overall Rate: $58,412 (implied): 6.18%\n\nVacancy & Credit Loss: (2,291)',
    70,
  );

  it('answers a rate with its percentage, the one asked over another of its kind', () => {
    expect(lead('What vacancy rate was used?', [COMPARABLE, INCOME])).toContain('5.0%');
    // "Cap rate" is the capitalization rate; a sentence about it without a figure is no answer.
    expect(lead('What capitalization rate was used?', [INCOME])).toContain('6.35%');
  });

  it("answers which rate was applied with the valuer's conclusion, not a comparable's sheet", () => {
    // The second half of a comparable's sheet, cut from its name: how the sale was verified
    // says whose it is.
    const sheet = doc(
      'Sales Comparison Approach',
      'Year Built: 2012\n\nCondition: Good\n\nEstimated Net Income: $120,000\n\n' +
        'Overall Sale Price/SF: $150.00\n\nOverall Capitalization Rate: 7.9%\n\n' +
        'Comments: Cash sale to a local investor; no vacancy rate applied to its pro forma. ' +
        'Verified by the listing broker.',
      12,
    );
    const conclusion = doc(
      'Capitalization Rates',
      'The sales show rates from 6.5% up. Therefore, with the leases weighed, a capitalization ' +
        'rate of 8.5% is selected for the subject.',
      20,
    );
    expect(lead('What capitalization rate was applied?', [sheet, conclusion])).toContain('8.5%');
    // Asked of the sale, its sheet answers.
    expect(lead('What capitalization rate did the sales show?', [sheet, conclusion])).toContain(
      '7.9%',
    );
    // "Verified by" with no sale named is no comparable's: an inspector's check.
    const alarm = 'Smoke alarms: working in every bedroom.';
    const rated = (note: string): number =>
      scoreFacts([doc('Safety', `${alarm}\n\n${note}`)], 'Do the smoke alarms work?').find(
        (f) => f.text === alarm,
      )!.score;
    const checked = rated('Operation checked by the inspector.');
    expect(rated('Operation verified by the inspector.')).toBeCloseTo(checked);
    expect(rated('Operation verified by the inspector before the sale.')).toBeCloseTo(
      rated('Operation checked by the inspector before the sale.') * 0.6,
    );
  });

  it('answers who owns a property with its owner now, not the one before', () => {
    const history = doc(
      'Ownership History',
      'Until this sale, the property was owned by Sample Farms LLP, for ten years.',
      9,
    );
    const record = doc(
      'County Record',
      'Primary Owner: SAMPLE HOLDINGS LLC\n\nOwner Phone: 555-0100\n\nMailing Address: 12 Sample Road',
      30,
    );
    expect(lead('Who owns the property?', [history, record])).toContain('SAMPLE HOLDINGS LLC');
    // The owner's phone names no owner.
    expect(lead('Who owns the property?', [history, record])).not.toContain('555-0100');
    // Asked of the one before, the history answers.
    expect(lead('Who owned the property before this sale?', [history, record])).toContain(
      'Sample Farms LLP',
    );
  });

  it('answers how many acres with a count of acres, not a price per acre', () => {
    const land = doc(
      'Land Valuation',
      'Given these sales, I have concluded to a value of $14,800 per acre for the subject.',
      18,
    );
    const site = doc(
      'Site',
      'Site: The parcel is irregular in shape and has a total area of 52.40 acres.',
      6,
    );
    expect(lead('How many acres is the property?', [land, site])).toContain('52.40 acres');
    // Asked of the price, the price per acre answers.
    expect(lead('What value per acre was concluded?', [land, site])).toContain('$14,800');
  });

  it('answers who supplies a utility with the supplier, not a person of another role', () => {
    const credentials = doc(
      'Qualifications',
      'Appraiser Course: Sample State Trainee Course\n\nAppraiser License: Certified General',
      40,
    );
    const utilities = doc(
      'Site',
      'Electricity: Sample Power Co\n\nNatural Gas: supplied by Sample Energy Co\n\nWater: City of Sample',
      8,
    );
    // Gas is named all over the economy's page; who supplies it, once.
    const economy = doc(
      'Area Analysis',
      'The local economy is driven by oil and natural gas production. Natural gas prices rose ' +
        'this year. New natural gas pipelines are planned west of town.',
      12,
    );
    const docs = [credentials, economy, utilities];
    const answer = localAnswer(docs, 'Who supplies natural gas?');
    expect(answer.split('\n')[0]).toContain('Sample Energy Co');
    expect(answer).not.toContain('Trainee Course');
    // Asked of the role, its line answers.
    expect(lead('Who is the appraiser?', docs)).toContain('Appraiser');
  });

  it('answers why a report was ordered with its purpose, not a sentence "in order to" do', () => {
    const income = doc(
      'Income Approach',
      'Expenses are subtracted in order to reach a net income for each year.',
      30,
    );
    const purpose = doc(
      'Scope of Work',
      'The appraisal is for the client, who is buying out a partner in the property.',
      3,
    );
    expect(lead('Why was the appraisal ordered?', [income, purpose])).toContain(
      'buying out a partner',
    );
  });

  it('answers how old a thing is with its age, not a condition "for its age"', () => {
    const docs = [
      doc(
        'Slope, rear elevation',
        'Element: Main roof slope; Observation: Tiles are secure, with no more moss than is ' +
          'normal for the roof’s age.',
        9,
      ),
      doc('Introduction', 'Property type: Detached house\n\nApprox. age: 18 years', 1),
    ];
    const answer = localAnswer(docs, 'How old is the roof?');
    expect(answer.split('\n')[0]).toContain('18 years');
    expect(answer).not.toContain('moss');
  });

  it('answers how much weight an approach was given with its weight, not its value', () => {
    const docs = [
      doc(
        'Reconciliation',
        'Sales Comparison Approach: $512,000\n\nCost Approach: $498,000\n\n' +
          'Income Approach: $505,000\n\nThe sales comparison approach is the most reliable. ' +
          'Hence 70% of the weight is given to it in the reconciliation.',
        50,
      ),
    ];
    expect(lead('How much weight was given to the sales comparison approach?', docs)).toContain(
      '70%',
    );
    // A size is given by its unit, without the word asked: another area's figure takes nothing
    // from it.
    const finished = 'Finished Above Grade: 2,400 Sq. Ft.';
    const rated = (other: string): number =>
      scoreFacts(
        [doc('Dwelling', `${finished}\n\n${other}`)],
        'How much living area does the house have?',
      ).find((f) => f.text === finished)!.score;
    expect(rated('Basement Area: 800 Sq. Ft.')).toBeCloseTo(rated('Basement Area: none, Sq. Ft.'));
  });

  it('answers how many bathrooms with the count under its part of a grid label', () => {
    // A price opinion's grid: the subject's cell first, then its comparables'.
    const grid = doc(
      'Comparable Grid',
      '| | Subject | Sold Comp 1 | Sold Comp 2 |\n| --- | --- | --- | --- |\n' +
        '| Rooms/Beds/Baths | 7 / 3 / 2.5 | 6 / 3 / 2 | 8 / 4 / 3 |\n' +
        '| Year Built | 1971 | 1968 | 1975 |',
      2,
    );
    // A listing's remark about a comparable, which counts bathrooms in words.
    const remark = doc(
      'Listing Remarks',
      'Lovely ranch with three bedrooms and 2 full bathrooms, close to the park.',
      3,
    );
    expect(lead('How many bathrooms does the house have?', [remark, grid])).toMatch(
      /^2\.5 bathrooms \(.*Rooms\/Beds\/Baths: Subject: 7 \/ 3 \/ 2\.5\)/,
    );
    expect(lead('How many bedrooms and bathrooms are there?', [remark, grid])).toMatch(
      /^3 bedrooms and 2\.5 bathrooms \(/,
    );
    // Figures that do not fall one under each part of the label count nothing.
    const uneven = doc('Summary', 'Beds/Baths: 3 / 1 / 2', 4);
    expect(lead('How many bathrooms does the house have?', [uneven, remark])).toContain(
      '2 full bathrooms',
    );
  });

  it('reads a table of parties side by side column by column', () => {
    // A form's signature block: one column per party, each cell a field of that party's.
    const block = doc(
      'Certification',
      '| APPRAISER | SUPERVISORY APPRAISER (ONLY IF REQUIRED) |\n| --- | --- |\n' +
        '| Signature | Signature |\n' +
        '| Name Dana Example | Name |\n' +
        '| Company Name Example Valuations | Company Name |',
      8,
    );
    const subject = doc(
      'Subject',
      'Lender/client: Name Sample Savings Bank\n\nAddress: 12 Example Road',
      1,
    );
    expect(lead('Who appraised the property?', [subject, block])).toMatch(
      /^Certification – APPRAISER: Name Dana Example\./,
    );
    // Fields left empty on both sides, or on one, say nothing.
    const all = localAnswer([block], 'Who signed as supervisory appraiser?');
    expect(all).not.toMatch(/APPRAISER\): (Signature|Name)\b/);
  });

  it('reads the name a purchase agreement gives its buyer, "… and/or assigns"', () => {
    // A buy-sell agreement whose form labels were lost: the buyer's name line stays.
    const agreement = doc(
      'Buy-Sell Agreement',
      'March 3, 2026\n\nDana Example and/or assigns\n\n' +
        '12 Example Road, Sample Town\n\n' +
        'Buyer has been preapproved by their bank and will provide a letter within 2 business days.\n\n' +
        '/ Buyers initials Sellers initials 10 Days from full contingency release',
      9,
    );
    const comments = doc(
      'Comments',
      'Comments: The seller is a local builder who built the warehouse for owner occupancy; it is being purchased for the same use.',
      4,
    );
    expect(lead('Who is buying the property?', [comments, agreement])).toMatch(
      /^[^.]*Dana Example and\/or assigns\b/,
    );
    // Only the buyer is named so: asked for another party, the line names no one asked.
    expect(lead('Who is the lender?', [comments, agreement])).not.toContain('and/or assigns');
  });

  it('answers an amount asked for with the figure the valuer settled on', () => {
    expect(lead('What is the estimated market rent?', [INCOME])).toContain('$11.50 psf');
  });

  it('answers what was paid or asked for a property with the amount, not a definition', () => {
    const docs = [
      doc(
        'Purpose of the Appraisal',
        'Implicit in this definition is the consummation of a sale as of a specified date and the passing of title from seller to buyer.',
        7,
      ),
      doc(
        'Property Ownership',
        'Kootenai Creek LLC purchased the property via Notice of Purchaser’s Interest #750394 recorded on October 16, 2020. ' +
          'The purchase price associated with this transaction is $885,000. ' +
          'The property was actively listed for sale on 3/10/20 by a local broker for $895,000.',
        21,
      ),
    ];
    expect(lead('What did the buyer pay for the property?', docs)).toContain('$885,000');
    expect(lead('What was it listed for?', docs)).toContain('$895,000');
  });

  it('answers from the subject’s own analyses, not the limiting conditions or a comparable', () => {
    const site = doc(
      'Site Analysis',
      'Shape: Irregular – see plat map in addenda\n\n' +
        'Flood Hazard: The subject is not located in an identified flood hazard area.\n\n' +
        'Site: The subject is irregular in shape and has a total area of 68.56 acres.\n\n' +
        'North Kootenai Creek Road is a graveled county roadway. The primary entrance is a gated entrance from North Kootenai Creek Road.',
      15,
    );
    const limits = doc(
      'Assumptions and Limiting Conditions',
      'The appraiser assumes no responsibility for any costs or consequences arising from the need or lack of need for flood hazard insurance.',
      35,
    );
    expect(lead('Is the property in a flood zone?', [limits, site])).toContain(
      'not located in an identified flood hazard area',
    );
    const built = doc(
      'Improvement Analysis',
      'Stories: 1 (with mezzanine)\n\nYear Built: 2023',
      13,
    );
    const comparable = doc(
      'Sales Comparison Approach',
      'Sale 2: The building was built in 2014 of steel.',
      30,
    );
    expect(lead('When was the building built?', [comparable, built])).toContain('2023');
    expect(lead('What kind of road is North Kootenai Creek Road?', [site])).toContain(
      'graveled county roadway',
    );
  });

  it('answers how long a sale takes with a time, and what land is worth with its value', () => {
    const docs = [
      doc('As Completed', 'The drain field will have (5) 92’ long trenches that are 36’ wide.', 33),
      doc(
        'Correlation Analysis',
        'A reasonable exposure time for the subject is estimated to be less than 12 months.\n\n' +
          'The market value of the land in this report is $324,135, substantially higher than the assessed land value.',
        32,
      ),
    ];
    expect(lead('How long would it take to sell?', docs)).toContain('less than 12 months');
    expect(lead('What is the land worth?', docs)).toContain('$324,135');
  });

  it('reads a sentence’s colon after its verb as no label', () => {
    const letter = doc(
      'Letter of Transmittal',
      'As a result of my investigation, the final estimated “As Completed” market value of the fee simple estate, as of the date of completion of construction, estimated to be December 31, 2023, is: $1,305,000.',
      2,
    );
    expect(lead('As of what date is the as-completed value?', [letter])).toContain(
      'December 31, 2023',
    );
  });

  it('answers who by the one named with what is asked, not anyone named', () => {
    const docs = [
      doc(
        'Property Ownership',
        'The property was actively listed for sale on 3/10/20 by Judith Porter with TouchPoint Properties for $895,000.\n\n' +
          'The subject is under the ownership of the Nalls Living Trust, with Kootenai Creek LLC (Gary Peterson Member) as the contract buyer.',
        21,
      ),
    ];
    expect(lead('Who is the contract buyer?', docs)).toContain('Kootenai Creek LLC');
    const cost = doc(
      'Cost Approach',
      'I have used a recent cost estimate of a light industrial property that is similar to the subject in the following analysis. ' +
        'This cost estimate has been completed by Eggart Engineering and Construction (EEC) and is dated May 2, 2023.',
      29,
    );
    expect(lead('Whose cost estimate was used for the building?', [cost])).toContain('Eggart');
  });

  it('takes a label for another of the kind only by a word of its own, not one asked', () => {
    const plumbing = doc(
      'Plumbing Description',
      'Water supply source: Public\n\nSupply piping in building: Copper PEX (cross-linked Polyethylene)\n\nWater heater type: Supplied by building',
      9,
    );
    expect(lead('What is the water supply piping in the building made of?', [plumbing])).toContain(
      'Copper PEX',
    );
  });

  it('says a sum with its rounding', () => {
    const cost = doc(
      'Cost Approach',
      'Plus Estimated Land Value: 324,135\nTotal Estimated Value via Cost Approach: $1,754,088\nRounded to: $1,755,000',
      32,
    );
    expect(lead('What value did the cost approach give?', [cost])).toContain(
      '$1,754,088, rounded to $1,755,000',
    );
  });

  it('reads a form’s dot leader to its figure as its label', () => {
    const form = doc(
      'Uniform Residential Appraisal Report',
      'Lender/Client: Shoreham Bank\n\nAddress: One Home Loan Plaza, Suite 3\n\n' +
        'ESTIMATED REPLACEMENT COST NEW OPINION OF SITE VALUE ........................ =$ 425000\n\n' +
        'Source of cost data DwellingCost',
      1,
    );
    expect(lead('What is the opinion of site value?', [form])).toContain('SITE VALUE: $425000');
  });

  it('reads a line of a hundred thousand dots without hanging (its leader is taken whole)', () => {
    const line = `Cost Approach ${'.'.repeat(100_000)} 23`;
    expect(cleanText(line)).toBe(line);
  });

  it('answers when with a time back from now as a form puts it', () => {
    const form = doc(
      'Uniform Residential Appraisal Report',
      'Describe the condition of the property (including needed repairs, deterioration, renovations, remodeling, etc.).\n\n' +
        'C3;Kitchen-updated-one to five years ago;Bathrooms-updated-one to five years ago;Improvements consist of updated cabinets.\n\n' +
        'UADDEF 9-2011 (Updated 1/2014) UAD Version 1/2014.',
      1,
    );
    expect(lead('When was the kitchen updated?', [form])).toContain('one to five years ago');
  });

  it('reads a table whose first row is label/value pairs as pairs, a wrapped value with its label', () => {
    const form = doc(
      'Summary',
      '| Effective Date of Appraisal | 09/20/2019 | Property Valuation Method | Traditional Appraisal |\n' +
        '| --- | --- | --- | --- |\n' +
        '| Borrower Name | Betty Borrower | Appraiser Name | Agatha Appraiser |\n' +
        '|     | Bob Borrower |     |     |\n' +
        '| Assignment Reason | Purchase |     |     |',
      1,
    );
    const facts = factsOf(form.text).map((f) => f.text);
    expect(facts).toContain('Effective Date of Appraisal: 09/20/2019');
    expect(facts).toContain('Borrower Name: Betty Borrower Bob Borrower');
    expect(facts.join(' ')).not.toContain('Borrower Name: 09/20/2019');
    expect(lead('Who are the borrowers?', [form])).toContain('Betty Borrower Bob Borrower');
  });

  it('takes the noun of the question, not the verb after it or the count before it', () => {
    expect(focusTerms('What lodging taxes apply?')).toContain('taxes');
    expect(focusTerms('What is the maximum number of occupants?')).toContain('occupants');
    expect(focusTerms('What is the serial number of the thermal camera?')).toContain('number');
    const rules = doc(
      'Key Regulations and Requirements',
      'Occupancy Limits: Generally, two guests per bedroom, plus two additional guests, with a maximum of 10 occupants.\n\n' +
        'Taxes: Owners must collect and remit 13% in total state and county lodging taxes.\n\n' +
        'Some requirements applicable to appraisals do not apply here.\n\n' +
        'Loan Number: 2000075939',
      3,
    );
    expect(lead('What is the maximum number of occupants?', [rules])).toContain('10 occupants');
    expect(lead('What lodging taxes apply?', [rules])).toContain('13%');
  });

  it('reads a first row that repeats a cell or holds a figure as a row, not as titles', () => {
    const grid = factsOf(
      '| Year Built | 1956 | Similar | Similar |\n| --- | --- | --- | --- |\n' +
        '| Design/Appeal | Bungalow | Bungalow | Bungalow |\n| Cleaning Fees |     | $200 | $190 |',
    ).map((f) => f.text);
    expect(grid).toEqual([
      'Year Built: 1956; Similar; Similar',
      'Design/Appeal: Bungalow; Bungalow; Bungalow',
      'Cleaning Fees: $200; $190',
    ]);
    const pairs = factsOf(
      '| Population Density | Suburban | Price Range | $160,000 to $286,000 | The area around |\n' +
        '| --- | --- | --- | --- | --- |\n' +
        '| Market Values | Stable | Median Price | $220,000 | the subject is residential. |',
    ).map((f) => f.text);
    expect(pairs).toContain('Median Price: $220,000');
    expect(pairs).toContain('The area around the subject is residential.');
  });

  it('does not take "who" in a sentence for a person named', () => {
    const report = doc(
      'Disclosure',
      'Please refer to a qualified real estate appraiser who has inspected the property.\n\n' +
        'Completed by: Douglas Reid',
      4,
    );
    expect(lead('Who completed the report?', [report])).toContain('Douglas Reid');
    const [sentence, named] = scoreFacts([report], 'Who completed the report?');
    expect(sentence?.matched).not.toContain('who');
    expect(named?.matched).toContain('who');
  });

  it('keeps a form prompt with the answer typed after it', () => {
    const form = doc(
      'IMPROVEMENTS',
      'Additional features (special energy efficient items, etc.). Central A/C, newer windows, updated baths.',
      3,
    );
    expect(factsOf(form.text).map((f) => f.text)).toContain(
      'Additional features (special energy efficient items, etc.): Central A/C, newer windows, updated baths.',
    );
    expect(lead('What additional features does the house have?', [form])).toContain(
      'newer windows',
    );
  });

  it('prefers the figure said once over the same label in a series of like records', () => {
    const comp = (noi: string, k: number): ContextDocument =>
      doc(
        'cwu 1 - 4',
        `| Potential Gross Income: | $5${k},412 |\n| --- | --- |\n| Net Operating Income: | ${noi} |`,
        70 + k,
      );
    const subject = doc(
      'INCOME APPROACH',
      'Effective Gross Income: $111,435\n\nNet Operating Income: $108,649\n\nDirect Capitalization: 6.35%',
      40,
    );
    const docs = [comp('$51,329', 1), comp('$50,721', 2), comp('$49,453', 3), subject];
    expect(lead('What is the net operating income?', docs)).toContain('$108,649');
  });

  it('answers when with a date, not a sentence that says the word "date"', () => {
    const form = doc(
      'CONTRACT',
      'The copy furnished to appraiser has not been fully executed as the seller did not date the contract, but did sign it.\n\n' +
        'Date of Contract: 10/04/2025',
      2,
    );
    expect(lead('When was the purchase contract signed?', [form])).toContain('10/04/2025');
    const [undated, dated] = scoreFacts([form], 'When was the purchase contract signed?');
    expect(undated?.matched).not.toContain('date');
    expect(dated?.matched).toContain('date');
  });

  it('answers a question of choices with the one the report says', () => {
    const bpo = doc(
      'Neighborhood',
      'Data Source - ID County MLS Records\n\nLocation Type: Rural\n\nMarket Type: Remain Stable',
      3,
    );
    expect(lead('Is the area urban, suburban or rural?', [bpo])).toContain('Rural');
    const repairs = doc('Repairs', 'All Repairs: No Repairs Required', 9);
    expect(lead('Does the house need repairs?', [repairs])).toContain('No Repairs Required');
    const trends = doc(
      'Housing Trends',
      'The appraiser considered the market value of the property in its market.\n\n' +
        'Property values in the market are analysed from sales of property in the market area.\n\n' +
        'Property Value Trend: Stable\n\nDemand/Supply: Shortage',
      11,
    );
    // Whichever way the trend goes, it answers whether values are rising.
    const trend = scoreFacts([trends], 'Are property values rising in the market?').find((f) =>
      f.text.startsWith('Property Value Trend'),
    );
    expect(trend?.matched).toContain('rising');
  });

  it('takes a section named after a comparable sale for the comparable, not the subject', () => {
    const docs = [
      doc('COMPARABLE SALE NO. 5', 'Sale Price: $620,000\n\nNet Operating Income: $57,127', 58),
      doc(
        'INCOME APPROACH',
        'Effective Gross Income: $60,100\n\nNet Operating Income: $56,933',
        79,
      ),
    ];
    expect(lead('What is the net operating income?', docs)).toContain('$56,933');
  });

  it('says the first row of a one-row table as a row too, not a sentence cut into cells', () => {
    const systems = doc(
      'Mechanical System Details',
      '| Heating | Forced Warm Air | Natural Gas |\n| --- | --- | --- |\n| Cooling | Centralized |     |',
      6,
    );
    expect(lead('How is the house heated?', [systems])).toContain('Forced Warm Air');
    const cut = factsOf(
      '| Roof | definition | of | an | unsafe |\n| --- | --- | --- | --- | --- |\n| Concrete Tiles Roofing | under the Act |     |     |     |',
    ).map((f) => f.text);
    expect(cut.join(' ')).not.toContain('Roof: definition; of');
  });

  it('answers a question about condition with the finding, not a sentence that points back to it', () => {
    const finding = doc(
      'BROKEN ROOF SHINGLES',
      'recommendation / deficiency\n\nThree shingles on the south roof slope are broken. ' +
        'This condition lets rain reach the roof deck and should be repaired by a roofer soon.',
      12,
    );
    const other = doc(
      'ROOF COVERING',
      'A roof of this kind does best with a yearly evaluation and repairs made early.',
      15,
    );
    expect(lead('What condition are the roof shingles in?', [finding, other])).toMatch(
      /^Three shingles on the south roof slope are broken\./,
    );
  });

  it('answers what the report recommends about a thing with the advice about it, not any recommendation', () => {
    const subfloor = doc(
      '8. Building Foundation and Structural Components',
      'Subflooring\n\nRecommendation: pro\n\nRecommendation: structural\n\n' +
        'Comment: It is advised to have a licensed pest control firm treat the ' +
        'wood-destroying insects in the sill plate.\n\nRecommendation: pest',
      15,
    );
    expect(
      lead('What does the report recommend about wood-destroying insects?', [subfloor]),
    ).toMatch(/pest control firm/);
  });

  it('answers with what was found, not with a label that has nothing after it', () => {
    const item = doc(
      'K. Microwave Oven',
      'K. Microwave Oven:\nComments:\n\nlocation:Kitchen\n\n' +
        'The microwave oven did not heat a cup of water in two minutes.',
      18,
    );
    expect(lead('Does the microwave work?', [item])).toMatch(/^The microwave oven did not heat/);
    const subfloor = doc(
      'A. Subflooring',
      'Water damage was seen on the subflooring under the hall bathroom.',
      23,
    );
    expect(lead('Was water damage found on the subfloor?', [subfloor])).toMatch(
      /^Water damage was seen on the subflooring/,
    );
  });

  it('finds two words asked one after the other in the one word a report writes', () => {
    const pavers = doc(
      '4. Ground-Level Exterior Structures',
      'Comment: Several paving stones in the backyard sit proud of the rest and are a trip ' +
        'hazard for anyone walking there.',
      5,
    );
    const others = doc(
      'Interior',
      [
        'The loose stair tread is a trip risk.',
        'Loose tiles in the shower are a safety hazard.',
        'The missing vent cover is a safety hazard.',
        'Exposed wiring in the garage is a hazard.',
        'The primary facade faces the front yard.',
        'The hose bib was missing.',
        'One gutter was hanging.',
      ]
        .map((t) => `Comment: ${t}`)
        .join('\n\n'),
      6,
    );
    expect(lead('Is there a trip hazard in the back yard?', [pavers, others])).toMatch(
      /paving stones in the backyard/,
    );
  });

  it('reads "per year" as how often, not what is asked about', () => {
    expect(focusTerms('What are the operating expenses per year?')).toContain('expenses');
  });

  it('answers with the list a numbered title heads, not the title alone', () => {
    const report = doc(
      '2. AREA-WISE OBSERVATIONS',
      '2.1 Basement / Parking Level\n\n' +
        '\\- Active water seepage observed along the north and east retaining walls.\n\n' +
        '\\- Concrete spalling detected near column B-4 with exposed rebar.\n\n' +
        '2.2 Ground Floor - Lobby\n\n' +
        '\\- Ceiling tiles showing water stains.',
      2,
    );
    expect(factsOf(report.text).map((f) => f.text)).not.toContain('2.1 Basement / Parking Level');
    const answer = lead('What is wrong with the basement?', [report]);
    expect(answer).toMatch(/seepage|spalling/);
    expect(answer).not.toMatch(/^2\.1 Basement \/ Parking Level\.?\s*\[/);
  });
});

describe('local answerer: labels that answer, and who did a thing', () => {
  /** A document of the context: a chunk's section title, its citation and its text. */
  const page = (title: string, citation: string, text: string): ContextDocument => ({
    ref: 'C1',
    title,
    citation,
    text,
  });
  /** Documents numbered as the chat numbers the chunks it gives the model. */
  const numbered = (docs: ContextDocument[]): ContextDocument[] =>
    docs.map((d, i) => ({ ...d, ref: `C${i + 1}` }));
  const first = (q: string, texts: string[], titles: string[] = []) =>
    localAnswer(
      texts.map((t, i) => ({
        ref: `C${i + 1}`,
        title: titles[i] ?? 'Report',
        citation: `R.pdf p. ${i + 1}`,
        text: t,
      })),
      q,
    ).split('\n')[0];

  it('answers with a label that names what is asked, though the question says more words', () => {
    // Each image's readings repeat the label, so it is common; "set" and "camera" are nowhere.
    const image = (n: number) =>
      `Thermal image : IMG-0${n}.JPG Device : Model T-100\n\nSerial Number : 0012345\n\n` +
      `2${n}.4 °C Hotspot : 2${n}.4 °C\n\nColdspot : 1${n}.2 °C\n\nEmissivity : 0.95\n\n` +
      'Reflected temperature : 22 °C';
    const pages = [
      [1, 2, 3],
      [4, 5, 6],
      [7, 8],
    ].map((ns) => ns.map(image).join('\n\n'));
    expect(
      first(
        'What emissivity was set on the thermal camera?',
        pages,
        Array(3).fill('Thermal Images'),
      ),
    ).toMatch(/^Emissivity: 0\.95\./);
    // A label with nothing said after it does not answer.
    expect(first('What emissivity was set on the thermal camera?', ['Emissivity: N/A'])).toMatch(
      /^The report does not say\./,
    );
  });

  it('answers who did a thing by what was done, whatever verb the report says it with', () => {
    expect(
      first('Who carried out the structural inspection?', [
        'The inspection was carried out together with a drainage survey (Drainage surveyor: Mr. Sample Drainer).',
        'This inspection was conducted on 3 April 2025 by Mr. Sample Engineer, a structural engineer with 12 years of practice.',
        'Structural members were checked where they could be seen.',
        'No structural movement was found in the north wall.',
      ]),
    ).toContain('Sample Engineer');
  });

  it('answers a question about condition with what was found, not with what to do about it', () => {
    // Other items of the roof, each with its comment and recommendation.
    const other = (n: number) =>
      [
        `Roof Vents ${n} Comment: A vent pipe ends too close to the balcony above the shingles.`,
        `Roof Covering ${n} Comment: Some roof shingles are cracked and brittle.\n\nRecommendation: roof`,
        'Comment: Loose shingles were seen in places on the roof. A roofer should fix the shingles.',
      ].join('\n\n');
    const item = [
      'Overall Roof Condition Comment: Several roof shingles were seen to be split along their edges. This condition may let water in and should be seen to soon.',
      'Comment: The roof is past the service life of its shingles; ask a roofer about replacing it.',
      'Recommendation: roof Garden Walls and Steps',
      'Roof Flashing Comment: The flashing at the chimney is loose. This condition can let water in.',
    ].join('\n\n');
    const docs = [other(1), item, other(2), other(3)].map((text, i) => ({
      ref: `C${i + 1}`,
      title: '5. Roofing',
      text,
    }));
    const scored = scoreFacts(docs, 'What condition are the roof shingles in?');
    const score = (start: string) => scored.find((f) => f.text.startsWith(start))!.score;
    expect(score('Recommendation: roof Garden')).toBeLessThan(
      0.75 * score('Comment: Several roof'),
    );
    // Asked what to do, the recommendation counts in full.
    const advice = scoreFacts(docs, 'What does the report recommend for the roof shingles?');
    expect(
      advice.find((f) => f.text.startsWith('Recommendation: roof Garden'))!.score,
    ).toBeGreaterThan(advice.find((f) => f.text.startsWith('Comment: Several roof'))!.score);
  });

  it('answers a brand with a name under its label, not a type under a label that says brand', () => {
    const heating = page(
      'Heating',
      'R.pdf p. 1',
      'Location of unit: Basement\n\nHeating System Type/Brand: Forced air high efficiency gas\n\nEnergy Source: Natural gas\n\nBrand: Lennox\n\nAge: 9 years',
    );
    const kitchen = { ref: 'C2', title: 'Kitchen', text: 'Brand: BOSCH\n\nBrand: WHIRLPOOL' };
    expect(localAnswer([heating, kitchen], 'What brand is the furnace?').split('\n')[0]).toBe(
      'Heating – brand: Lennox. [R.pdf p. 1]',
    );
  });

  it('says what was seen with a rating under the same label, in one answer', () => {
    const kitchen = page(
      'Appliances',
      'R.pdf p. 9',
      'Dishwasher: Needs Repair\n\nDishwasher: The door seal is torn and water runs out at the front\n\nRange: Satisfactory',
    );
    expect(localAnswer([kitchen], 'Is there a problem with the dishwasher?').split('\n')[0]).toBe(
      'Appliances – dishwasher: Needs Repair. The door seal is torn and water runs out at the front. [R.pdf p. 9]',
    );
  });

  it('answers with the table a sentence points to, not with the pointer', () => {
    const docs = numbered([
      page(
        'Reconciliation',
        'R.pdf p. 40',
        'Having weighed the approaches, the market value of the subject is concluded as follows: MARKET VALUE CONCLUSION.\n\n| Valuation | Interest | Date | Value Conclusion |\n| --- | --- | --- | --- |\n| As Is | Fee Simple | May 2, 2025 | $2,450,000 |',
      ),
      page(
        'Letter',
        'R.pdf p. 2',
        'Based on the analysis in the following report, the market value of the subject is concluded as follows: MARKET VALUE CONCLUSION.',
      ),
    ]);
    expect(lead('What is the concluded market value?', docs)).toContain(
      'Value Conclusion: $2,450,000',
    );
    // A pointer followed by what it points to is an answer of its own.
    const stated = [
      {
        ref: 'C1',
        title: 'Site',
        text: 'The construction class is as follows: B - concrete frame with masonry floors and roof.',
      },
    ];
    expect(localAnswer(stated, 'What is the construction class?')).toContain('B - concrete frame');
  });

  it('says a label and its value with one colon, and no markdown escape', () => {
    expect(cleanText('Value of Site Improvements \\=$ 25,000 \\~ \\@ 3')).toBe(
      'Value of Site Improvements =$ 25,000 ~ @ 3',
    );
    const bpo = page(
      'Repairs',
      'B.pdf p. 4',
      '| Repair Total: | $1,250 |\n| --- | --- |\n| Roof Repair: | $900 |',
    );
    const said = localAnswer([bpo], 'What is the repair total?').split('\n')[0];
    expect(said).toContain('Repair Total: $1,250');
    expect(said).not.toContain('::');
  });

  it('answers when a thing was inspected with the date its label names, in a word every report says', () => {
    const docs = numbered([
      page(
        '12 Elm Row',
        'B.pdf p. 1',
        'Order Date: 03/02/2025\n\nInspection Date: 03/06/2025\n\nDue Date: 03/09/2025',
      ),
      page(
        'Market Data',
        'B.pdf p. 9',
        'Value As Of: 02/28/2025 (an automated estimate, not an appraisal).\n\nData compiled from public records. Generated on: 03/07/25',
      ),
    ]);
    expect(lead('When was the property inspected?', docs)).toBe(
      '12 Elm Row – Inspection Date: 03/06/2025. [B.pdf p. 1]',
    );
  });

  it("answers what needs repair with the item rated so, not with the key to the report's ratings", () => {
    const docs = numbered([
      page(
        'Rating Key',
        'S.pdf p. 5',
        'Satisfactory - No immediate action required.\n\nRepair Required - A defect requiring remedial action.\n\nUrgent - A defect needing repair within days.',
      ),
      page(
        '3.1 Chimneys & Leadwork',
        'S.pdf p. 8',
        'Ref 3.2.1 Hip tiles, rear slope: Repair Required\n\nRef 3.2.2 Valley, front: Satisfactory',
      ),
    ]);
    expect(lead('What on the roof needs repair?', docs)).toContain(
      'hip tiles, rear slope: Repair Required',
    );
  });

  it('answers why a thing could not be seen with what prevented it, said without "because"', () => {
    const docs = numbered([
      page(
        'Standards',
        'T.pdf p. 1',
        'The inspector shall inspect only those parts that are present, visible and accessible on the day.\n\nThe inspector shall report whether each item was inspected or not inspected.',
      ),
      page(
        'Crawlspace',
        'T.pdf p. 12',
        'Crawlspace Hatch Door: Repair\n\nThe floor of the crawlspace was covered with standing water, which prevented a full look at the piers.',
      ),
    ]);
    expect(lead('Why could the crawlspace not be fully inspected?', docs)).toBe(
      'The floor of the crawlspace was covered with standing water, which prevented a full look at the piers. [T.pdf p. 12]',
    );
  });

  it("answers with what was found, not with the finding's category", () => {
    const docs = numbered([
      page(
        'HVAC Status',
        'T.pdf p. 30',
        'Air Handler Status\n\nUpstairs Guest Bedroom: other / info\n\nThe air handler serving the upstairs guest bedroom was observed to be running normally.',
      ),
      page(
        'Floors',
        'T.pdf p. 22',
        'Subfloor Rot: recommendation / defect\n\nRot was found in the subfloor under the hall bath.',
      ),
    ]);
    const first = (q: string) => localAnswer(docs, q).split('\n')[0];
    expect(first('Is the air handler serving the upstairs guest bedroom working?')).toContain(
      'was observed to be running normally',
    );
    expect(first('Was rot found in the subfloor?')).toBe(
      'Rot was found in the subfloor under the hall bath. [T.pdf p. 22]',
    );
  });

  it("answers with the subject's own fact before a comparable's labelled one", () => {
    const docs = numbered([
      page(
        'Improvements',
        'A.pdf p. 30',
        'The building is a single storey office of masonry. The structure was built in 1985, giving it an age of 40 years.',
      ),
      page(
        'COMPARABLE SALE NO. 6',
        'A.pdf p. 56',
        'Property Information\n\nYear Built: 1960\n\nBuilding Size: 2,100 SF',
      ),
    ]);
    expect(lead('When was the building built?', docs)).toContain('built in 1985');
  });

  it('takes a section of comparables, named without a number, for other properties', () => {
    const docs = numbered([
      page(
        'Comparable Leases',
        'A.pdf p. 70',
        'Rental Data\n\nYear Built: 1964\n\nRentable Area: 9,800 SF',
      ),
      page(
        'Improvements',
        'A.pdf p. 41',
        'The shop is a steel frame building on a slab. This building was built in 2011.',
      ),
    ]);
    expect(lead('When was the shop built?', docs)).toContain('built in 2011');
  });

  it('counts for "how many", not a figure with a unit under the same word', () => {
    const docs = numbered([
      page(
        'Improvements',
        'B.pdf p. 41',
        "Height per\n\nFloor: 12'\n\nNumber of Floors: 6\n\nParapet: 3'",
      ),
    ]);
    expect(lead('How many floors does the building have?', docs)).toContain('number of Floors: 6');
  });

  it('answers "is it in …?" with the value, not the date the value was recorded', () => {
    const docs = numbered([
      page(
        'Site Data',
        'P.pdf p. 19',
        'Hazard Map\n\nFlood Zone Date: 03/14/2011\n\nFlood Zone Code: AE\n\nFlood Zone Panel: 12086C0331L',
      ),
    ]);
    expect(lead('Is the house in a flood zone?', docs)).toContain('Flood Zone Code: AE');
  });

  it('answers what kind of thing with its kind, not with a cost or a form placeholder', () => {
    const docs = numbered([
      page(
        'Repairs',
        'P.pdf p. 6',
        'Estimated Repairs\n\nCarport: Total: $0\n\nFence: Total: $350',
      ),
      page('Photos', 'P.pdf p. 9', 'Carport: This is where the carport picture would display.'),
      page(
        'Subject',
        'P.pdf p. 1',
        'Property Features\n\nCarport: 1 Covered, open sides\n\nPool: None',
      ),
    ]);
    expect(lead('What kind of carport does it have?', docs)).toContain(
      'carport: 1 Covered, open sides',
    );
  });

  it('reads what a scan found in what it detected, and when a thing happens in "during"', () => {
    const docs = numbered([
      page(
        'Thermal Findings',
        'S.pdf p. 2',
        'Damp detected in the kitchen ceiling near the flue.\n\nAmbient temperature 21 °C at the time of the survey.',
      ),
      page(
        'Leak Record',
        'F.pdf p. 4',
        'Condition of seepage below basin\n\nSeepage during: Rainy season',
      ),
    ]);
    const first = (q: string) => localAnswer(docs, q).split('\n')[0];
    expect(first('What did the infrared survey find in the kitchen ceiling?')).toContain(
      'Damp detected in the kitchen ceiling near the flue',
    );
    expect(first('When does the seepage happen?')).toContain('seepage during: Rainy season');
  });

  it('names who holds a role from the sentence that says so, not from a label that opens a list', () => {
    const docs = numbered([
      page(
        'Scope',
        'R.pdf p. 11',
        'For this assignment the appraiser: - Walked the parcel and both outbuildings, measured the barns and photographed the yard on the day of the visit.',
      ),
      page(
        'Sale History',
        'R.pdf p. 22',
        'A purchase contract for $640,000 was signed on 04/02/21.\n\nThe buyer of the east parcel paid $210,000.',
      ),
      page(
        'Ownership',
        'R.pdf p. 21',
        'Title rests with the Marsh Family Trust, and Alder Ridge LLC holds the parcel as the contract buyer.',
      ),
    ]);
    expect(lead('Who is the contract buyer?', docs)).toContain(
      'Alder Ridge LLC holds the parcel as the contract buyer',
    );
  });

  it('takes a word of money that names a method for the method, not for an amount', () => {
    const docs = numbered([
      page(
        'Sales Comparison Approach',
        'V.pdf p. 35',
        'Market Value: $912,400, rounded to $910,000',
      ),
    ]);
    const matched = (q: string) => scoreFacts(docs, q)[0]!.matched;
    expect(matched('What value did the cost approach give?')).not.toContain('cost');
    expect(matched('What value did the rent comparison give?')).not.toContain('rent');
    expect(matched('What would it cost?')).toContain('cost');
  });

  it("answers how big the lot is with the site's area, not with a comparable's adjustment", () => {
    const docs = numbered([
      page(
        'Sales Comparison',
        'U.pdf p. 5',
        'Comparable 3 received a downward adjustment for its larger lot.\n\nSite size differences above 2,000 sf were adjusted at $8/sf.',
      ),
      page('SITE', 'U.pdf p. 3', 'Dimensions: 70x120\n\nArea: 8,400 sf\n\nShape: Rectangular'),
    ]);
    expect(lead('How big is the lot?', docs)).toContain('area: 8,400 sf');
  });

  it('answers which lender with the party named under that role, as it answers who', () => {
    const docs = numbered([
      page(
        'Certification',
        'L.pdf p. 7',
        'Sharing this appraisal report beyond the lender/client is limited by law.',
      ),
      page(
        'Subject',
        'L.pdf p. 1',
        'Assignment Type: Purchase\n\nLender/Client: Harbor Savings Bank',
      ),
    ]);
    expect(lead('Which lender is the appraisal for?', docs)).toContain('Harbor Savings Bank');
  });

  it('answers "is it a …?" with the sentence that says it is or is not one', () => {
    const docs = numbered([
      page(
        'Disclosure',
        'D.pdf p. 4',
        'Its methods follow the standards of appraisal practice where they apply to this analysis.\n\nThis rental analysis is not an appraisal.',
      ),
    ]);
    expect(lead('Is this analysis an appraisal?', docs)).toContain('is not an appraisal');
  });

  it('answers the final value with the concluded amount, not a share of weight or a step before it', () => {
    const docs = numbered([
      page(
        'Reconciliation',
        'F.pdf p. 80',
        'The final value indication gives the income approach a weight of 30%, as offices of this size rarely sell to investors.',
      ),
      page(
        'RECONCILIATION AND FINAL VALUE ESTIMATE',
        'F.pdf p. 81',
        '| Value Indication | After weighting the three approaches | $1,264,350 |\n| --- | --- | --- |\n| Concluded Value |     | $1,264,000 |',
      ),
    ]);
    expect(lead('What is the final market value of the property?', docs)).toMatch(
      /concluded value: \$1,264,000/i,
    );
  });

  it('reads a sum under a label in capitals without a colon, as a form read as one run gives it', () => {
    const docs = numbered([
      page(
        'Definitions',
        'V.pdf p. 12',
        'Market value is the most probable price a property should bring when it is appraised in a competitive and open market.',
      ),
      page(
        'Subject',
        'V.pdf p. 2',
        'Inspected the interior and exterior of the property SUBJECT ADDRESS 12 Sample Road APPRAISED VALUE OF SUBJECT PROPERTY $ 318,500 Effective Date of Appraisal',
      ),
    ]);
    expect(lead('What is the appraised value of the house?', docs)).toMatch(
      /APPRAISED VALUE OF SUBJECT PROPERTY: \$318,500/,
    );
  });

  it('reads a sum under a Title Case label without a colon, but not a row of sums as one pair', () => {
    const docs = numbered([
      page(
        'Certificate',
        'C.pdf p. 19',
        'Total Building Cost: Depreciable Cost: $912,400.10; Current Replacement Cost: $912,400.10\n\n12 Sample Avenue Sampletown North Wing Total Building Cost $2,480,115.40 of which 5-year property is 2.5 percent',
      ),
      page(
        'Taxes',
        'C.pdf p. 28',
        'The estimated tax burden is shown as well. TAX INFORMATION General Tax Rate (per $100 A.V.) 2.1804 2.1633 2.1633 Total Taxes $120,410 $131,005 $139,880 Source: Assessor',
      ),
    ]);
    expect(lead('What is the total building cost of the North Wing?', docs)).toContain(
      '$2,480,115.40',
    );
    expect(lead('What are the total property taxes?', docs)).toContain('$131,005');
  });

  it('answers whether a house is lived in from its occupant or its occupancy', () => {
    const docs = numbered([
      page('Subject', 'B.pdf p. 1', 'Property Type: Single family\n\nProperty Occupant: Vacant'),
    ]);
    expect(lead('Is the house occupied?', docs)).toContain('Property Occupant: Vacant');
  });

  it("names who holds a role from a two-column signature block, not from the role's qualifier", () => {
    const docs = numbered([
      page(
        'Signatures',
        'S.pdf p. 19',
        'APPRAISER: SUPERVISORY APPRAISER: (only if required)\n\nSignature: Signature:\n\nName: Sample Q Person: Name:\n\nDate Signed: 03/04/2026: Date Signed:',
      ),
      page(
        'Certification',
        'S.pdf p. 18',
        "SUPERVISORY APPRAISER'S CERTIFICATION: The Supervisory Appraiser certifies and agrees that the appraiser is qualified.",
      ),
    ]);
    expect(lead('Who is the appraiser?', docs)).toMatch(/name: Sample Q Person/i);
  });

  it('answers what vacancy was applied with its rate, not with the step that applies it', () => {
    const docs = numbered([
      page(
        'Income Approach',
        'I.pdf p. 21',
        'The next step is to apply an allowance for vacancy and collection loss. Several tenants would likely lease the building, so turnover is expected. An 8% allowance for vacancy and collection loss is considered reasonable.',
      ),
    ]);
    expect(lead('What vacancy and collection loss was applied?', docs)).toContain('8%');
  });

  it('answers what the land alone is worth with its price, and a rent per month with the rent, not a price per foot', () => {
    const docs = numbered([
      page(
        'Comments',
        'P.pdf p. 3',
        "Comparable 2 supports the subject's value most because of its lot size and age.",
      ),
      page(
        'Price Opinion',
        'P.pdf p. 1',
        '| | As-Is Price Estimate | Land Only Price | Marketing Time |\n| --- | --- | --- | --- |\n| Anticipated Sale Price | $71000 | $18000 | 60 Days |',
      ),
      page(
        'Subject',
        'P.pdf p. 1',
        'Price Per Sq.Ft.: 01/02/2025: $52; 04/02/2025: $61\n\nSecure? yes: Yearly Taxes $ 1640: Est. Mo. Rent $ 1150: Sold in the last 12 Months? no',
      ),
    ]);
    expect(lead('What is the land alone worth?', docs)).toContain('Land Only Price: $18000');
    expect(lead('What would the house rent for per month?', docs)).toContain('Rent $1150');
  });

  it('takes an adjective asked for its noun in a label ("urgent" for "Urgency")', () => {
    const docs = numbered([
      page(
        'Summary',
        'C.pdf p. 1',
        'On what could be seen, the inspector recommends an immediate review of the spa cover.\n\nRecommended Action: Replace\n\nUrgency: Within 14 days',
      ),
    ]);
    expect(lead('How urgent is it?', docs)).toContain('Within 14 days');
  });

  it("answers when a thing was done with a sentence naming the date of it, not a letter's date", () => {
    const docs = numbered([
      page(
        'Engagement Letter',
        'E.pdf p. 80',
        'Date: 3/02/2026\n\nAppraisal Company: Sample Valuations',
      ),
      page(
        'Summary',
        'E.pdf p. 3',
        'In my opinion the market value of the fee simple estate, as of the date of last inspection, March 11, 2026, is $640,000.',
      ),
    ]);
    expect(lead('When was the property inspected?', docs)).toContain('March 11, 2026');
  });

  it('reads a blank field before a date under its own label ("Borrower: Inspection Date: …")', () => {
    const docs = numbered([
      page(
        'Price Opinion',
        'B.pdf p. 1',
        'Interior Inspection Client Sample Lender BPO Status Final Borrower: Inspection Date: 04/02/2026 Loan Number: APN: 12-34-567',
      ),
    ]);
    expect(lead('When was the house inspected?', docs)).toContain('Inspection Date: 04/02/2026');
  });

  it('takes "before" for what was so previously, and a sale for when it was sold', () => {
    const docs = numbered([
      page(
        'Site',
        'Z.pdf p. 8',
        'Legally Permissible: The subject site lies in a BP (Business Park) zoned area. New residential building is not allowed under the present zoning.',
      ),
      page(
        'Zoning',
        'Z.pdf p. 9',
        'There are signs the property was previously zoned R-2 (two-family residential), and the zoning may have changed since 2019.',
      ),
      page(
        'Transfer History',
        'Z.pdf p. 13',
        'Prior Sales or Transfers: None\n\nData Source: MLS\n\nThe only earlier sale of the subject was when it was new construction in 2006.',
      ),
    ]);
    expect(lead('How was the property zoned before?', docs)).toContain('previously zoned R-2');
    expect(lead('When was the house sold before?', docs)).toContain('2006');
  });

  it('answers which neighborhood with its name, not with a description under the same word', () => {
    const docs = numbered([
      page(
        'Uniform Residential Appraisal Report',
        'N.pdf p. 2',
        'Neighborhood Description: Subject in area of Sampletown with a mix of homes.\n\nNeighborhood Name: Sample Heights',
      ),
    ]);
    expect(lead('What neighborhood is the house in?', docs)).toContain('Sample Heights');
  });

  it('answers "is it in a … zone?" with the sentence that says it is in one or not, and a kind with the thing named', () => {
    const docs = numbered([
      page(
        'Report Summary',
        'R.pdf p. 2',
        'Map layers shown: Flood Zones - Landslide Zones - Fault Lines - Fire Hazard Severity (state map)',
      ),
      page(
        'Hazards',
        'R.pdf p. 3',
        'Fire Hazard Severity Zone Not in a designated Fire Hazard Severity Zone at this location.',
      ),
      page(
        'Site',
        'R.pdf p. 15',
        'The main entrance is a gated drive along the south side of the site from Sample Creek Road.\n\nSample Creek Road is a graveled county roadway.',
      ),
    ]);
    expect(lead('Is the home in a fire hazard severity zone?', docs)).toContain(
      'Not in a designated',
    );
    expect(lead('What kind of road is Sample Creek Road?', docs)).toContain('graveled county');
  });

  it('reads a row of figures under titles as each title with its figure', () => {
    const docs = numbered([
      page(
        'Section scores',
        'S.pdf p. 3',
        '| Roof | Walls | Drainage |\n| --- | --- | --- |\n| 5.2 | 6.4 | 8.1 |\n| Fair | Fair | Good |',
      ),
    ]);
    expect(lead('What is the roof score?', docs)).toMatch(/roof: 5\.2/i);
  });

  it('counts bedrooms from a listing\'s "BEDS" tile', () => {
    const docs = numbered([
      page(
        'Listing',
        'F.pdf p. 1',
        'PROPERTY 12 Sample Lane – a bright open kitchen and a large yard.\n\nBEDS: 4\n\nBATHS: 2',
      ),
    ]);
    expect(lead('How many bedrooms does the home have?', docs)).toContain('BEDS: 4');
  });
  it('asks an amount of money of "how much" insurance, not a period of cover', () => {
    const docs = numbered([
      page(
        'Terms',
        'T.pdf p. 3',
        'The Provider shall use reasonable endeavours to maintain professional indemnity insurance for a period of 6 years after the work.\n\nProfessional indemnity insurance of $2,000,000 for any one claim.',
      ),
    ]);
    expect(
      lead('How much professional indemnity insurance does the provider hold?', docs),
    ).toContain('$2,000,000');
  });

  it('answers what kind a thing is with what it is made of, not a finding about it', () => {
    const docs = numbered([
      page('Summary', 'S.pdf p. 2', 'Foundation: Foundation Cracks - Minor'),
      page(
        'Structure',
        'S.pdf p. 9',
        'The house stands on a poured concrete foundation with timber walls, timber floor joists and a trussed roof.',
      ),
    ]);
    expect(lead('What kind of foundation does the house have?', docs)).toContain('poured concrete');
  });

  it("names a standard by its code, and reads a law's year as no date", () => {
    const docs = numbered([
      page(
        'Terms',
        'T.pdf p. 1',
        'Our standard delivery of a pre-purchase report is 5 working days after the site visit.\n\nThe pre-purchase inspection is carried out to NZS4306:2005.',
      ),
      page(
        'Findings',
        'T.pdf p. 4',
        'The work was assessed under Section 64 of the Sample Building Act 1991.\n\nWe could not find when the work was done, but in our opinion it was done before 1985.',
      ),
    ]);
    expect(lead('Which standard does the pre-purchase inspection follow?', docs)).toContain(
      'NZS4306',
    );
    expect(lead('When was the work done?', docs)).toContain('before 1985');
  });

  it('reads "deg C" as a temperature and answers the hottest with a figure', () => {
    const docs = numbered([
      page(
        'Summary',
        'H.pdf p. 1',
        'THERMAL SUMMARY: Thermal imaging was carried out with the visual inspection. The scan found heat anomalies in the plant room, damp in the cellar and missing insulation in the attic. All temperature readings are in degrees Celsius.\n\nAmbient temperature during scan: 21 deg C.',
      ),
      page('Plant room', 'H.pdf p. 4', 'Plant Room: Critical hotspot at breaker B-2 (61.4 deg C)'),
    ]);
    expect(lead('What is the hottest temperature in the plant room?', docs)).toContain('61.4');
  });

  it('answers "planned nearby" with future development within a distance', () => {
    const docs = numbered([
      page(
        'Neighbourhood',
        'N.pdf p. 7',
        'Parks: 3 parks within ~1 mi.\n\nFuture Development: No active construction mapped within ~1 mi.',
      ),
    ]);
    expect(lead('Is there any construction planned nearby?', docs)).toContain(
      'No active construction',
    );
  });

  it('answers "when … again" with a time from now, not the report\'s date', () => {
    const docs = numbered([
      page('Details', 'R.pdf p. 1', 'Inspection Date: 3 March 2026'),
      page(
        'Next steps',
        'R.pdf p. 6',
        'Repoint the chimney within the next 3 months.\n\nA further roof inspection is recommended in 12 months.',
      ),
    ]);
    expect(lead('When should the roof be inspected again?', docs)).toContain('in 12 months');
  });

  it("takes a firm's card for the company asked", () => {
    const docs = numbered([
      page(
        'Cover',
        'F.pdf p. 1',
        '12 Sample Road, Sampletown: May 15, 2026 10/20 Tasks Completed\n\nSample Roof Inspections: 4 Mill Road, Sampletown office@sample-roof.example 5550100',
      ),
    ]);
    expect(lead('Which company did the inspection?', docs)).toContain('Sample Roof Inspections');
  });

  it("takes a firm's name printed over its contact line as the firm's card", () => {
    const docs = numbered([
      page(
        'Assessment',
        'F.pdf p. 1',
        'Sample Owner\n\n12 Sample Road, Sampletown May 15, 2026 10/20 Tasks Completed\n\n10 items need retrofit\n\nSample Roof Inspections\n\n4 Mill Road, Sampletown office@sample-roof.example 5550100',
      ),
    ]);
    expect(lead('Which company did the inspection?', docs)).toContain('Sample Roof Inspections');
  });

  it('answers whom an appraisal is for with its client, not a course the appraiser took', () => {
    const docs = numbered([
      page(
        'Qualifications',
        'A.pdf p. 46',
        '2021 – Supervisory Appraiser/Trainee Appraiser Course: Sample Institute\n\n2016 – General Appraiser Sales Comparison Approach: Sample Institute\n\n2014 – General Appraiser Market Analysis and Highest & Best Use: Sample Institute',
      ),
      page(
        'Scope',
        'A.pdf p. 6',
        'Intended Users: This appraisal report is prepared for the sole and exclusive use of the appraiser’s client: Sample Savings Bank of Sampletown. There are no additional intended users.',
      ),
    ]);
    expect(lead('Who is the appraisal for?', docs)).toContain('Sample Savings Bank');
  });

  it('answers what a room is like from what says it, "like" framing the question', () => {
    const docs = numbered([
      page(
        'Listing',
        'L.pdf p. 1',
        'Modern living with a bright open kitchen, oversized slider doors, and a large backyard.',
      ),
      page('Photos', 'L.pdf p. 2', 'Figure, page 2: kitchen, oversized slider doors'),
      page('Photos', 'L.pdf p. 3', 'Figure, page 3: kitchen and dining area'),
      page('Details', 'L.pdf p. 4', 'Beds: 4\n\nBaths: 3\n\nSqft: 2620'),
    ]);
    expect(lead('What is the kitchen like?', docs)).toContain('bright open kitchen');
  });

  it('answers when the property was visited with the site visit, not any date', () => {
    const docs = numbered([
      page(
        'Rules',
        'S.pdf p. 7',
        'The final regulations (Decision 1234) were issued on September 17, 2013.',
      ),
      page('Cover', 'S.pdf p. 1', 'December 09, 2024'),
      page(
        'Taxpayer',
        'S.pdf p. 3',
        'Site Visit: The property was visited September 30, 2024. The construction was complete and the company was using the property. The visual inspection of the site did not vary from the drawings.',
      ),
    ]);
    expect(lead('When was the property visited?', docs)).toContain('September 30, 2024');
  });

  it("reads a labelled cell under a blank label as its own fact, not as the blank one's value", () => {
    const docs = numbered([
      page(
        'County Detail',
        'A.pdf p. 58',
        '| Levy District: 03-1981 | Location: |\n| --- | --- |\n| Parking type: | Parking Prox: |\n| Utilities: | Access: |\n| Lot Size: 1.534 Acres | Topography: |',
      ),
      page('Tax Detail', 'A.pdf p. 59', 'Lot: 6\n\nBlock: 5'),
    ]);
    const answer = lead('How big is the lot?', docs);
    expect(answer).toContain('Lot Size: 1.534 Acres');
    expect(answer).not.toContain('Utilities');
  });

  it('answers "were any … found?" with what says found, and reads a bulletin\'s year as no date', () => {
    const docs = numbered([
      page(
        'Checks',
        'C.pdf p. 2',
        'No signs of leaks, pests, or damage.\n\nNo active leaks found.\n\nAll taps and drains checked.',
      ),
      page(
        'Site',
        'C.pdf p. 3',
        'Site Conditions TB FH 2021-02: Distance to the sea decides whether stainless fasteners are required (TB FH 2021-02).\n\nUse stainless fasteners if within 3000 ft of the sea.',
      ),
    ]);
    expect(lead('Were any leaks found?', docs)).toContain('No active leaks found');
    expect(lead('When are stainless fasteners needed?', docs)).toContain('3000 ft');
  });
  it('answers the rent a valuation used with a rent per unit, not a sentence about rents', () => {
    const docs = numbered([
      page(
        'Reconciliation',
        'V.pdf p. 80',
        'Using the market rent calculated, the Sales Comparison Approach and the Income Approach to value are close.\n\nThe range of value would be between $410,000 and $450,000 as shown by the two approaches.',
      ),
      page(
        'Income Approach',
        'V.pdf p. 74',
        'With the property variables considered, the potential gross income for the subject is well supported at $11.20/SF/YR on a triple net lease.',
      ),
    ]);
    expect(lead('What market rent was used in the income approach?', docs)).toContain(
      '$11.20/SF/YR',
    );
  });

  it('counts rooms from a count, not from two captions or a caption naming them', () => {
    const docs = numbered([
      page('Subject photos', 'V.pdf p. 12', 'Restroom 1: Restroom 2'),
      page(
        'Subject photos',
        'V.pdf p. 13',
        'Figure, page 13: Street view of the overhead door and the restrooms',
      ),
      page(
        'Improvements',
        'V.pdf p. 40',
        'Plumbing: Public water and sewer, two restrooms with sinks',
      ),
    ]);
    expect(lead('How many restrooms are there?', docs)).toContain('two restrooms');
  });

  it('answers "when is it required?" with the threshold of the rule, not the date of its ordinance', () => {
    const docs = numbered([
      page(
        'Parking',
        'Z.pdf p. 170',
        'No. 0-2011-12, §§ 1—3, 10-14-2011)\n\nSec. 12-40. Bicycle parking.\n\n(a) Bicycle parking spaces (racks or lockers) must be provided for any use that is required to provide more than 80 parking spaces.\n\n(b) Required bicycle parking spaces shall be no more than 100 feet from the main entrance.',
      ),
    ]);
    expect(lead('When is bicycle parking required?', docs)).toContain(
      'more than 80 parking spaces',
    );
  });

  it('answers "what is the maximum number" with a figure, not a row of column titles', () => {
    const docs = numbered([
      page(
        'Parking Regulations',
        'Z.pdf p. 8',
        '| Min. Vehicle Stalls Required | Max. Vehicle Stalls Allowed | Bike Stalls Required |\n| --- | --- | --- |\n| 3 with 1,000 sq.ft of GFA | 125% of the min stalls required |     |',
      ),
    ]);
    expect(lead('What is the maximum number of parking stalls allowed?', docs)).toContain('125%');
  });

  it('reads "currently" for "current"', () => {
    const docs = numbered([
      page(
        'Market',
        'V.pdf p. 30',
        'Comparable properties were surveyed to find the current occupancy of the competitive market.',
      ),
      page(
        'Lease-up',
        'V.pdf p. 61',
        'Subject stabilized occupancy: 92.0%\n\nAs the subject is currently vacant, it needs a deduction for lease-up to stabilization.',
      ),
    ]);
    expect(localAnswer(docs, 'What is the current occupancy?')).toContain('currently vacant');
  });
  it('reads "sf/GLA" as square feet of gross living area', () => {
    const docs = numbered([
      page('Floor plan', 'A.pdf p. 30', "Bedroom Bedroom Living Area: 44'"),
      page('Adjustments', 'A.pdf p. 12', '$60 sf/GLA. $12,000/full bathroom. $6000/half bathroom.'),
    ]);
    expect(lead('How much per square foot was living area adjusted?', docs)).toContain(
      '$60 sf/GLA',
    );
  });

  it("names a lender by its card's company name", () => {
    const docs = numbered([
      page(
        'Contact Information',
        'A.pdf p. 2',
        'Appraiser Name Sample Appraiser Credentials: Scope of Inspection by Appraiser Subject Property Inspection',
      ),
      page('Client/Lender', 'A.pdf p. 2', 'Company Name: Sample Savings Bank'),
    ]);
    expect(lead('Who is the lender?', docs)).toContain('Sample Savings Bank');
  });

  it('names who assisted from "Assistance Name …", a buyer from "(purchaser)" and an owner from "ownership of"', () => {
    const docs = numbered([
      page(
        'Signature',
        'A.pdf p. 21',
        'Sample Appraiser: 09/20/2024\n\nAppraiser Name: Sample Appraiser',
      ),
      page(
        'Assistance',
        'A.pdf p. 9',
        'Significant Real Property Appraisal Assistance Name Sample Trainee Credentials Level None Description Sample Trainee, a trainee appraiser, assisted in measuring the property.',
      ),
      page('Owner', 'A.pdf p. 58', 'Owner Information Primary Owner: SAMPLE DEVELOPMENT LLC'),
      page(
        'Contract',
        'A.pdf p. 60',
        'Contact information: Sample Buyer (purchaser) 555 0100 buyer@sample.example',
      ),
      page(
        'History',
        'A.pdf p. 24',
        'The property was listed for sale on 3/10/20 by Sample Agent with Sample Realty for $895,000.\n\nThe subject is under the ownership of Sample Family Living Trust, with Sample Creek LLC as the contract buyer.',
      ),
    ]);
    expect(lead('Who assisted the appraiser?', docs)).toContain('Sample Trainee');
    expect(localAnswer(docs, 'Who is buying the property?')).toContain('Sample Buyer (purchaser)');
    expect(lead('Who owns the property?', docs)).toContain('Sample Family Living Trust');
  });

  it("answers a size with the figure under the thing's own label, not a form's prompt read across", () => {
    const docs = numbered([
      page(
        'Cost Approach',
        'A.pdf p. 6',
        'The calculated square footage (SF) of the gross living area (GLA) is: Garage/Carport; 400 Sq.Ft. @ $; 40.00; =$; 16,000',
      ),
      page('Sales Comparison', 'A.pdf p. 3', 'Gross Living Area: 1,250\n\nLot Acres: 0.18'),
    ]);
    expect(lead('How big is the gross living area?', docs)).toContain('1,250');
  });

  it('says a column title once after a label that ends in it', () => {
    const docs = numbered([
      page(
        'Repairs',
        'B.pdf p. 4',
        '| Item | Comment | Total |\n| --- | --- | --- |\n| Roof |     | $0 |\n|     | Repair Total: | $0 |',
      ),
    ]);
    expect(localAnswer(docs, 'How much would the recommended repairs cost?')).toMatch(
      /Repair Total: \$0/,
    );
  });
  it('answers "does it conform to the zoning?" with what says it is nonconforming', () => {
    const docs = numbered([
      page(
        'Neighborhood',
        'A.pdf p. 2',
        'Does the property generally conform to the neighborhood (style, condition, use)? Yes',
      ),
      page('Flood', 'A.pdf p. 3', 'Flood Zone: X'),
      page(
        'Site',
        'A.pdf p. 9',
        'The subject is legal, nonconforming due to the current minimum lot size of the zoning.',
      ),
    ]);
    expect(lead('Does the house conform to the zoning?', docs)).toContain('legal, nonconforming');
  });
  it("answers the subject's zoning, not a comparable sheet's", () => {
    const docs = numbered([
      page('Sale Land - Retail/Commercial No. 1', 'A.pdf p. 67', 'County: Travis\n\nZoning: GR-CO'),
      page('Zoning', 'A.pdf p. 27', 'Current Zoning: CS-MU General Commercial Services'),
    ]);
    expect(lead('What is the zoning?', docs)).toContain('CS-MU');
  });

  it('answers "how much living area" with an area, and "non-living area" is none', () => {
    const docs = numbered([
      page('Bedroom Bedroom Living Area', 'A.pdf p. 30', "Bedroom Bedroom Living Area: 40'"),
      page(
        'First Floor',
        'A.pdf p. 31',
        'Area Calculations Summary\n\nLiving Area: Calculation Details\n\nNon-living Area Deck 64 Sq ft 8 × 8 = 64',
      ),
      page(
        'First Floor',
        'A.pdf p. 31',
        '| First Floor | 1380 Sq ft | 40 × 30= 1200 12 × 15= 180 |\n| --- | --- | --- |\n| Total Living Area (Rounded): | 1380 Sq ft |     |',
      ),
    ]);
    expect(lead('How much living area does the house have?', docs)).toContain('1380 Sq ft');
  });
  it("passes over a drawing's labels run together for the sentence that says it", () => {
    const docs = numbered([
      page(
        'Site plan',
        'A.pdf p. 40',
        "PROPOSED OWNER'S CABIN PROPOSED SEPTIC TANK CISTERN'S OVERFLOW DRAINAGE SUMP STAFF BATHROOM & SHOWERS PROPOSED 10,000-GALLON WATER STORAGE CISTERN W/ BAFFLE WALL EV6 EV7",
      ),
      page(
        'Utilities',
        'A.pdf p. 12',
        'The septic system is to have (1) 1,500 gallon septic tank and (1) 1,000 gallon dosing tank.',
      ),
    ]);
    expect(lead('How big is the septic tank?', docs)).toContain('1,500 gallon septic tank');
  });
  it('files pairs under the title in capitals right above them, not the card before', () => {
    const docs = numbered([
      page(
        'Listing',
        'B.pdf p. 19',
        'LISTING INFORMATION\n\nMLS Listing Price: $189,000\n\nMLS Status: Canceled\n\nMLS Orig. List Price: $240,000\n\nLAST MARKET SALE & SALES HISTORY\n\nDeed Type: Warranty Deed\n\nSale Price: $152,000\n\nSale Date: 10/12/2020',
      ),
      page(
        'Summary',
        'B.pdf p. 1',
        'If yes, please explain: Sale Date Sale Price List Date List Price Data Source No events found from last three years.',
      ),
    ]);
    expect(lead('What did the house last sell for?', docs)).toContain('$152,000');
  });
  it('answers from a table row whose column title names what is asked, not a line that only says the word', () => {
    // Retrieved in this order; the row's label ("Land") names nothing asked, its column does.
    const docs = numbered([
      page(
        'Real Estate Taxes',
        'A.pdf p. 21',
        '|     | 2022 Assessed Value | 2022 Taxes |\n| --- | --- | --- |\n| Land: | $1,606 | $292.18 |\n| Imprvment: | - |     |\n| Total: | $ 1,606 |     |',
      ),
      page(
        'Tax record',
        'A.pdf p. 60',
        'SAMPLE SUBDIVISION 2ND FILING (16), $24, Sample County Treasurer Itemized Property Tax Detail',
      ),
    ]);
    expect(lead('How much were the property taxes?', docs)).toContain('$292.18');
  });
  it('answers "in total" with the row of totals, not the first row under the same column titles', () => {
    const docs = numbered([
      page(
        'Defect Count Summary',
        'A.pdf p. 3',
        '| Block | HIGH Severity | MEDIUM Severity | LOW Severity | Total Defects |\n| --- | --- | --- | --- | --- |\n| Block A | 0 | 2 | 3 | 5 |\n| Block B | 2 | 3 | 2 | 7 |\n| TOTAL | 4 | 8 | 8 | 20 |',
      ),
    ]);
    expect(lead('How many defects were found in total?', docs)).toContain('Total Defects: 20');
  });
  it('reads a number set with a leading zero as a code, not the size it is asked for', () => {
    const docs = numbered([
      page('Property Information', 'A.pdf p. 55', 'APN: 2900\n\nLOT: 014\n\nBLOCK: 1'),
      page('Land', 'A.pdf p. 7', '| Land |     |\n| --- | --- |\n| Size (AC): | 0.5 |'),
    ]);
    expect(lead('How big is the lot?', docs)).toContain('0.5');
  });
  it("pairs a table's label cell with the value cells after it, each label a fact of its own", () => {
    const docs = numbered([
      page(
        'Marketing',
        'A.pdf p. 2',
        '| Recommended Sales Strategy: | × As - Is | Repaired | Market Time: | 90-120 days |\n| --- | --- | --- | --- | --- |\n| Address | City | BR BA Lot Size | Sale Date |     |',
      ),
    ]);
    const said = lead('What is the market time?', docs);
    expect(said).toContain('Market Time: 90-120 days.');
    expect(said).not.toContain('Repaired');
  });
  it("answers a lot's size with its area, not the minimum its zoning sets", () => {
    const docs = numbered([
      page(
        'Site',
        'A.pdf p. 2',
        'Zoning Description: Residential Single Family 40,000 sf, 140 ft frontage minimum\n\nArea: 10197 sf',
      ),
    ]);
    expect(lead('How big is the lot?', docs)).toContain('area: 10197 sf');
    expect(lead('What is the minimum lot size?', docs)).toContain('40,000 sf');
    // How much cover a policy holds is its minimum: a limit answers how much.
    const policy = numbered([
      page(
        'Terms',
        'B.pdf p. 3',
        'Professional Indemnity insurance for a minimum of $1,000,000 for any one claim: 3.5.2\n\nThe provider is to keep its professional indemnity insurance for a period of 6 years after the work is done.',
      ),
    ]);
    expect(
      lead('How much professional indemnity insurance does the provider hold?', policy),
    ).toContain('$1,000,000');
  });
  it('names a buyer from a contact given with the role in brackets, not a comment on the seller', () => {
    const docs = numbered([
      page(
        'Sale 1',
        'A.pdf p. 70',
        '| Adjusted Price: | $1,750,000 |\n| --- | --- |\n| Comments: | The seller is a builder who first put up the building to use it himself, then chose to offer it for sale when it was nearly finished. The property was listed by Sample Agent with a brokerage. The buyer bought the building to use it himself. |',
      ),
      page(
        'Additional',
        'A.pdf p. 80',
        'Additional Contact information: Sample Person (purchaser) 555-0100 person@sample.example Interest in the Property to be',
      ),
    ]);
    expect(lead('Who is buying the property?', docs)).toContain('Sample Person (purchaser)');
  });
  it("names an agent from a card's name over the role under it", () => {
    const docs = numbered([
      page(
        'Home Worth a Look',
        'Flyer.pdf p. 1',
        'A bright open kitchen and a backyard made for guests.\n\nListing snapshot: 12 Sample Lane, Springfield $500,000\n\nSample Person\n\nListing Specialist Sample Realty\n\n+15550100100 agent@sample.example\n\nOpen the listing, chat with the home, or request a showing from the listing page.',
      ),
    ]);
    expect(lead('Who is the listing agent?', docs)).toContain('Sample Person');
    // A sentence under a title is no card's line, though it opens with a role.
    const form = numbered([
      page('Appraisal', 'A.pdf p. 1', 'Prepared By: Sample Person, Sample Appraisals'),
      page(
        'Certification',
        'A.pdf p. 6',
        'Certification Statement: The appraiser certifies and agrees that this appraisal report was prepared in accordance with the requirements of the act in effect at the time the appraiser signs the appraisal certification.',
      ),
    ]);
    expect(localAnswer(form, 'Who prepared the appraisal?')).not.toContain('certifies');
  });
  it('names who carried out an inspection, not the client it was done for', () => {
    const docs = numbered([
      page(
        'STRUCTURAL INSPECTION REPORT',
        'S.pdf p. 1',
        'Report Reference: INS-0001\n\nClient: Sample Industrial Ltd.\n\nInspected By: Er. Sample Engineer, B.E. Civil\n\nInspection Firm: Sample Consultants Ltd.',
      ),
    ]);
    expect(lead('Who carried out the structural inspection?', docs)).toContain('Sample Engineer');
    // Asked about the party, the party answers.
    expect(lead('Who is the client?', docs)).toContain('Sample Industrial');
    expect(lead('Who was the inspection carried out for?', docs)).toContain('Sample Industrial');
  });
  it('answers "when" with the time of what is asked, not with a date that names nothing asked', () => {
    const docs = numbered([
      page(
        'Short Term Rental Feasibility Report',
        'R.pdf p. 1',
        '| Source | Proj. Annual Revenue | Occupancy Rate | Average Daily Rental Rate | High Season / Low Season | Operating Expenses (yr) |\n| --- | --- | --- | --- | --- | --- |\n| Source One | $76,200 | 65% | $321 | March/September | $27,400 |\n| Source Two | $31,799 | 55% | $159 | March/September | $9,060 |',
      ),
      page(
        'Standards Compliance Commentary',
        'R.pdf p. 4',
        'This work is an analysis, not an appraisal, so the standards for appraisal reports do not apply to it. The distinction matters for the services provided.\n\nCompleted by\n\nSample Person\n\n4/27/2026',
      ),
    ]);
    expect(lead('When is the high season?', docs)).toContain('March/September');
    // Asked of the date itself, the date answers.
    expect(lead('When was the analysis completed?', docs)).toContain('4/27/2026');
  });
  it("answers what the land is worth with the appraiser's land value, not the assessor's", () => {
    const docs = numbered([
      page(
        'Real Estate Taxes',
        'A.pdf p. 21',
        '|     | 2022 Assessed Value | 2022 Taxes |\n| --- | --- | --- |\n| Land: | $1,606 | $292.18 |',
      ),
      page('Sales Comparison Approach', 'A.pdf p. 35', 'Plus Land Value: 324,135'),
    ]);
    expect(lead('What is the land worth?', docs)).toContain('324,135');
    expect(lead('What is the assessed value of the land?', docs)).toContain('$1,606');
  });
  it('answers what was paid from the sentence a following "this" sentence names the thing of', () => {
    const docs = numbered([
      page(
        'PROPERTY OWNERSHIP',
        'A.pdf p. 22',
        'The current owner of record is Sample Development LLC. The purchase price associated with this transaction was $240,595. This purchase was for the land only.',
      ),
      page(
        'Improved Sale 1',
        'A.pdf p. 70',
        'Sales Price: $1,750,000\n\nEst. Land Value: $657,912 @ $3.72/sf',
      ),
    ]);
    expect(lead('What did the owner pay for the land?', docs)).toContain('$240,595');
    // A pronoun's sentence that says something new ("It was last serviced …") is its own fact,
    // not context of the sentence before.
    const boiler = numbered([
      page(
        'Heating',
        'S.html',
        'A gas boiler installed in 2015 heats the house. It was last serviced in 2023.',
      ),
    ]);
    expect(lead('When was the boiler serviced?', boiler)).toMatch(/^It was last serviced in 2023/);
    // What the land is estimated to be worth is asked in other words.
    expect(lead('What is the estimated land value of the sale?', docs)).toContain('$657,912');
  });
  it('reads the subject of a pronoun after a connective ("Therefore, it …") in the sentence before', () => {
    const docs = numbered([
      page(
        'Reconciliation',
        'A.pdf p. 40',
        'The cost approach is hard to apply to an older building. Therefore, it was given little weight (10%) in the final value. The sales comparison approach is the most reliable indicator for this property. Therefore, it is given the most weight (70%) in the final value.',
      ),
    ]);
    expect(lead('How much weight was given to the sales comparison approach?', docs)).toContain(
      '70%',
    );
  });
  it('does not take "once" for a word asked', () => {
    const docs = numbered([
      page(
        'Final Value Estimate',
        'A.pdf p. 32',
        'In regard to the septic system, I have once again referenced my interview with a local installer, who reports that septic system costs are typically $25,000.',
      ),
      page(
        'Real Estate Taxes',
        'A.pdf p. 20',
        'Based on a tax rate of 0.90%, the estimated annual tax liability for this lot is $11,745.',
      ),
    ]);
    expect(lead('What would the annual taxes be once completed?', docs)).toContain('$11,745');
  });
  it('answers "what is the address" with a street address, not a web address that spells one', () => {
    const docs = numbered([
      page(
        'Property Report',
        'L.pdf p. 1',
        'The floor plan balances everyday comfort with a polished showing https://listing.example/l/demo. 124-oak-street-sampletown\n\nListing snapshot: 124 Oak Street, Sampletown, TX 00000 $865,000',
      ),
    ]);
    expect(lead('What is the address?', docs)).toContain('124 Oak Street, Sampletown');
  });
  it("does not answer with a grid row whose subject's cell is empty", () => {
    const docs = numbered([
      page(
        'Sales Comparison Approach',
        'A.pdf p. 24',
        '| Zoning: | None | None | None | None | None |\n| --- | --- | --- | --- | --- | --- |\n| Sales Price: | N/A | $650,000 | $1,270,000 | $560,000 | $690,000 |\n| Size/Acres: | 68.565 | 50.15 | 65.00 | 80.00 | 41.25 |\n| Price/Acre: | N/A | $12,961 | $19,538 | $7,000 | $16,727 |',
      ),
      page(
        'Land Valuation',
        'A.pdf p. 28',
        'Given this information, I have concluded to a market value of $15,200 per acre for the subject.',
      ),
    ]);
    expect(lead('What price per acre was the land valued at?', docs)).toContain('$15,200');
    // The same row with the subject's own figure in its first cell answers as well as any.
    const rowScore = (first: string): number =>
      scoreFacts(
        numbered([
          page(
            'Sales Comparison Approach',
            'A.pdf p. 24',
            `| Zoning: | None | None | None | None |\n| --- | --- | --- | --- | --- |\n| Price/Acre: | ${first} | $12,961 | $19,538 | $7,000 |`,
          ),
        ]),
        'What price per acre was the land valued at?',
      ).find((f) => f.text.startsWith('Price/Acre'))!.score;
    expect(rowScore('N/A')).toBeLessThan(rowScore('$15,200') * 0.8);
  });
  it('answers a yes-or-no question with the sentence that denies what is asked', () => {
    const docs = numbered([
      page(
        'Zoning',
        'Z.pdf p. 6',
        "The subject property's determined zoning designation and overlay district regulations were used to establish the above information.",
      ),
      page(
        'Summary',
        'Z.pdf p. 2',
        'At the time of this report there are no applicable overlay or historic districts.',
      ),
    ]);
    expect(lead('Is the property in an overlay district?', docs)).toContain(
      'no applicable overlay',
    );
  });
  it('does not read a clause that leads into a list as a label', () => {
    const docs = numbered([
      page(
        'Scope of Work',
        'U.pdf p. 19',
        'The scope of work includes the intended use, the effective date, the subject property and its relevant characteristics. The appraiser must, at a minimum: (1) obtain and review adequate and reliable information for the subject property; (2) research, verify, and analyze adequate and reliable data for the subject market area; and (3) report the analyses.',
      ),
      page('Housing Trends', 'U.pdf p. 11', 'Property Value Trend: Stable'),
    ]);
    expect(lead('Are property values rising in the market?', docs)).toContain('Stable');
  });
  it("does not read a licence number's letters as the question's initials", () => {
    const docs = numbered([
      page(
        'Appraiser Certification',
        'U.pdf p. 12',
        'Signature\n\nName: Sample Appraiser\n\nCRA.0X00001: State Certification #',
      ),
      page(
        'Improvements',
        'U.pdf p. 2',
        'The subject is a raised ranch in average condition; the appraiser gave it a C4 rating.',
      ),
    ]);
    expect(lead('What condition rating did the appraiser give?', docs)).toContain('C4 rating');
  });
  it("reads a tax liability as an amount of tax, not as a disclaimer's liability", () => {
    const docs = numbered([
      page(
        'Real Estate Taxes',
        'A.pdf p. 20',
        'The subject is assessed and taxed by the county. Based on a tax rate of 0.90%, the estimated annual tax liability for this lot is $11,745. Additionally, the concluded "As Completed" market value is $1,305,000.',
      ),
    ]);
    expect(lead('What would the annual taxes be once completed?', docs)).toContain('$11,745');
  });
  it('keeps a finding that ends by referring to a contractor, unlike boilerplate', () => {
    const docs = numbered([
      page('Roofing', 'R.pdf p. 6', 'Chimney: Stucco over masonry, one flue'),
      page(
        'Chimney Systems',
        'R.pdf p. 7',
        'Comment: Stucco on the chimney is peeling and exhibiting deterioration. It should be evaluated and repaired by a qualified contractor.',
      ),
    ]);
    expect(lead('What condition is the stucco on the chimney in?', docs)).toContain('peeling');
    // Advice alone, with nothing observed, is still boilerplate.
    expect(
      localAnswer(
        numbered([
          page('Roofing', 'R.pdf p. 6', 'Chimney: Stucco over masonry, one flue'),
          page(
            'Limitations',
            'R.pdf p. 2',
            'Any chimney concern should be evaluated by a qualified contractor.',
          ),
        ]),
        'What is the chimney made of?',
      ),
    ).not.toContain('qualified contractor');
  });
  it('answers the final value from a sum written out in words under the sentence that names it', () => {
    const docs = numbered([
      page(
        'Reconciliation and Final Value Estimate',
        'A.pdf p. 110',
        [
          'Cost Approach Indicated Value: $1,783,000.00',
          'Sales Approach Indicated Value: $880,000.00',
          "Based on the data used, the appraiser's opinion of the final value is considered credible and reasonable for the current market.",
          'ONE MILLION ONE HUNDRED EIGHTY-TWO THOUSAND DOLLARS ($1,182,000 R)',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('What is the final market value of the property?', docs)).toContain('$1,182,000');
  });
  it("reads a sentence in a table row's first cell as a remark, not as the label of the row's pair", () => {
    const facts = factsOf(
      [
        '| Adjusted Mean $ / SF | | $13.78 |',
        '| --- | --- | --- |',
        '| A value in line with both the mean and median is well supported. | Concluded Lease Rate | $13.30 |',
      ].join('\n'),
    ).map((f) => f.text);
    expect(facts).toContain('Concluded Lease Rate: $13.30');
    expect(facts).toContain('A value in line with both the mean and median is well supported.');
  });
  it('answers which places are nearby with the places listed with their distances', () => {
    const docs = numbered([
      page(
        'Schools',
        'S.pdf p. 4',
        'Schools are rated by the state each year.\n\nSchools: Sample Elementary (0.4 mi), Sample Middle (1.2 mi)',
      ),
    ]);
    expect(lead('Which schools are nearby?', docs)).toContain('Sample Elementary');
  });
  it("does not answer with a sentence on how the report's figures are made", () => {
    const docs = numbered([
      page(
        'Crime Statistics',
        'N.pdf p. 3',
        [
          'Crime rates are shown per 100,000 residents so cities of different sizes compare on the same scale.',
          'D Above-average city crime rate · reporting year 2024',
        ].join('\n\n'),
      ),
      page(
        'Environmental Hazards',
        'N.pdf p. 6',
        [
          'Counts tracked Superfund and hazardous-waste facilities within about 3 miles of the address, because these sites are sparse.',
          'Superfund (2): Sample Yard (2.1 mi), Sample Works (2.3 mi)',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('How does the crime rate compare?', docs)).toContain(
      'Above-average city crime rate',
    );
    expect(lead('Which Superfund sites are nearby?', docs)).toContain('Sample Yard');
  });
  it('answers how long a marketing time is with the time, not a price column the time titles', () => {
    const docs = numbered([
      page(
        'Price Opinion',
        'B.pdf p. 2',
        [
          '|     | As-Is Price Estimate | Land Only Price | 30-Day Quick Sale Price |',
          '| --- | --- | --- | --- |',
          '| 90-Day Marketing Time | $225,000 | $4,290 | $215,000 |',
          '| Recommended List Price | $240,000 |     |     |',
        ].join('\n'),
      ),
      page(
        'Price Opinion',
        'B.pdf p. 2',
        [
          '| Recommended Sales Strategy: | × As - Is | Repaired | Market Time: | 90-120 days |',
          '| --- | --- | --- | --- | --- |',
        ].join('\n'),
      ),
    ]);
    expect(lead('How long is the expected marketing time?', docs)).toContain('90-120 days');
  });
  it("answers the zoning with the district's code, not a description of the district", () => {
    const docs = numbered([
      page(
        'Site',
        'U.pdf p. 2',
        [
          'Zoning Description: Residential Single Family 40,000 sf, 140 ft frontage minimum',
          'Specific Zoning Classification: R40',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('What is the zoning?', docs)).toContain('R40');
  });
  it('answers how large a site is with its area, not with the width of its lots', () => {
    const docs = numbered([
      page(
        'Site Description',
        'A.pdf p. 13',
        'The subject property consists of three 25-foot-wide downtown lots along with 5 feet of the northernmost lot. The lot is 140 feet deep, and totals 11,200 sf or about 0.257 acre.',
      ),
    ]);
    expect(lead('How large is the site?', docs)).toContain('11,200 sf');
  });
  it("reads every sentence of a comparable's long write-up as the comparable's", () => {
    const writeUp =
      'Sale 4: Sale 4 is located on the west side of Sample Lane, south of Sample Road, in a small town about five miles north of the subject. ' +
      'The site features mostly level topography with a lightly wooded ravine along the south side and is accessed from a graveled county road. ' +
      'It was used as grazing land at the time of the sale and has access to electricity. ' +
      'This is a mostly square shaped parcel with an access finger located at the southeast corner that provides access from Sample Lane.';
    const docs = numbered([
      page('Sales Comparison Approach', 'A.pdf p. 26', writeUp),
      page(
        'Site Analysis',
        'A.pdf p. 15',
        'Site: The subject is irregular in shape and has a total area of 68.56 acres.',
      ),
    ]);
    const facts = scoreFacts(docs, 'What shape is the parcel?');
    const square = facts.find((f) => f.text.startsWith('This is a mostly square'))!;
    expect(square.subject).toBe('Sale 4');
    expect(localAnswer(docs, 'What shape is the parcel?')).toContain('irregular in shape');
  });
  it('answers the value on the premise asked, as is or as completed', () => {
    const docs = numbered([
      page(
        'Letter of Transmittal',
        'A.pdf p. 2',
        [
          'As a result of my investigation, the final estimated "As Completed" market value of the fee simple estate, as of the date of completion of construction, is: $1,305,000.',
          'I further certify that the final estimated "As Is" market value of the fee simple estate, as of the date of last inspection, is: $1,110,000.',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('What is the property worth as is?', docs)).toContain('$1,110,000');
    expect(lead('What will the property be worth once construction is completed?', docs)).toContain(
      '$1,305,000',
    );
  });
  it("keeps a two-column table's header when it names the figures, not when it says 'value'", () => {
    const scores = factsOf(
      [
        '| Location | Overall Score |',
        '| --- | --- |',
        '| Sample North | 8.4 |',
        '| Sample West | 8.9 |',
      ].join('\n'),
    ).map((f) => f.text);
    expect(scores).toContain('Sample West: Overall Score: 8.9');
    const fields = factsOf(
      ['| Field | Value |', '| --- | --- |', '| Carpet Area | 4860 |'].join('\n'),
    ).map((f) => f.text);
    expect(fields).toContain('Carpet Area: 4860');
  });
  it('answers how built up a neighborhood is with its share developed', () => {
    const docs = numbered([
      page(
        'Neighborhood',
        'A.pdf p. 9',
        'For the purposes of this report, the subject neighborhood is considered to be the commercially developed areas bounded by a frontage road to the north. The neighborhood is approximately 75% developed with light industrial properties.',
      ),
    ]);
    expect(lead('How built up is the neighborhood?', docs)).toContain('75% developed');
  });
  it("does not answer what a thing is with a photo caption's street address", () => {
    const docs = numbered([
      page('Repairs', 'B.pdf p. 4', 'Garage: 124 Sample Ave'),
      page('Subject', 'B.pdf p. 2', 'Garage: 2 Detached; 2 Attached; 1 Attached'),
    ]);
    expect(lead('What kind of garage does it have?', docs)).toContain('2 Detached');
    expect(lead('Where is the garage?', docs)).toContain('124 Sample Ave');
  });
  it('answers the range of sale prices with what sold, not with what is offered for sale', () => {
    const docs = numbered([
      page(
        'Sales Comparison Approach',
        'U.pdf p. 4',
        [
          'There are: comparable properties currently offered for sale in the subject neighborhood ranging in price from $ 485,000 to $ 624,900: .',
          'There are: comparable sales in the subject neighborhood within the past twelve months ranging in sale price from $ 410,000 to $ 573,000: .',
        ].join('\n\n'),
      ),
    ]);
    expect(
      lead('What is the range of comparable sale prices in the neighborhood?', docs),
    ).toContain('410,000');
    expect(lead('What is the range of listing prices in the neighborhood?', docs)).toContain(
      '485,000',
    );
  });
  it('answers the hottest reading with the hotspot, not the ambient air', () => {
    const docs = numbered([
      page(
        'THERMAL IMAGING INSPECTION REPORT',
        'T.pdf p. 1',
        [
          'Property: Sample Commercial Complex, Block B',
          'Thermographer: Sample Person | Level II Thermographer',
          'Equipment: Sample Thermal Camera | Emissivity: 0.95',
          '1. THERMAL SCAN SUMMARY: The scan identified significant heat anomalies in the electrical panel room. Ambient temperature during scan: 27 deg C.',
        ].join('\n\n'),
      ),
      page(
        '2.1 Electrical Panel Room - Critical Anomalies',
        'T.pdf p. 1',
        [
          'Thermal Image T1.1 - Electrical Panel Room: Critical hotspot at EP-3 (52.3 deg C)',
          '\\- Circuit EP-3 shows highest anomaly (Delta T = +25.3 C) - immediate shutdown recommended.',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('What is the hottest temperature in the panel room?', docs)).toContain('52.3');
  });
  it("names who owns a property from the owner's line, not whom to contact or how", () => {
    const docs = numbered([
      page(
        'Engagement Letter',
        'A.pdf p. 80',
        'Property Owner Contact Name: Sample Agent − Realtor\n\nProperty Owner Phone: 4065550100',
      ),
      page('Tax Record', 'A.pdf p. 60', 'Owner Information Primary Owner: SAMPLE DEVELOPMENT LLC'),
    ]);
    expect(lead('Who owns the property?', docs)).toContain('SAMPLE DEVELOPMENT LLC');
    expect(lead('Who is the contact for the property owner?', docs)).toContain('Sample Agent');
  });
  it("weighs a site described under an appraisal's improved or land sales as a comparable's", () => {
    const text =
      'Description of Site: Size 0.643 acre or 28,000 sf; dimensions of 140 ft x 200 ft.';
    const score = (title: string): number =>
      scoreFacts([{ ref: 'C1', title, text }], 'How large is the site?')[0]!.score;
    const own = score('Site Data');
    expect(score('Improved Sales and Listing Data')).toBeCloseTo(own * 0.6);
    expect(score('Land Sales')).toBeCloseTo(own * 0.6);
    expect(score('Sales History')).toBeCloseTo(own);
  });
  it('answers a score asked by its name with its figure, not a word or how it is scored', () => {
    const docs = numbered([
      page(
        'Section scores',
        'R.pdf p. 3',
        'Medium score: Health: Medium score; Livability: High score\n\nProperty: 5.2; Health: 6.2; Livability: 8.1',
      ),
      page(
        'LIVABILITY',
        'R.pdf p. 8',
        'LIVABILITY: within ~1 mi. Scored by the health weighting model.; within ~1 mi. Scored by the property value weighting model.',
      ),
    ]);
    expect(lead('What is the property section score?', docs)).toContain('5.2');
    expect(lead('What is the livability score?', docs)).toContain('8.1');
  });
  it('answers where the water comes from with its supply', () => {
    const docs = numbered([
      page(
        'Reconciliation',
        'A.pdf p. 53',
        'The property has been adequately maintained and benefits from public water and electrical utilities, while utilizing two septic systems for sewage and a private water well.',
      ),
      page(
        'Improvements',
        'A.pdf p. 12',
        [
          'Water Heater: 50 gallon, electric',
          'No water intrusion was noted in the shop.',
          'Water damage: none observed',
          'Roof drains carry water to the street.',
        ].join('\n\n'),
      ),
    ]);
    const answer = lead('Where does the water come from?', docs);
    expect(answer).not.toContain('does not say');
    expect(answer).toContain('private water well');
  });
  it('answers how far the nearest shopping is with the nearest retail', () => {
    const docs = numbered([
      page(
        'Best Suited For',
        'S.pdf p. 2',
        [
          'EVIDENCE: Existing student accommodation confirms an active rental market, with the nearest university, Sample School of Business, 112 meters away',
          'Nearest retail, Sample Business Arcade, is 423 meters away and the nearest gated community is 1.8 kilometers away',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('How far is the nearest shopping?', docs)).toContain('423 meters');
  });

  it('answers which road a property fronts onto with the road named by its kind', () => {
    const docs = numbered([
      page(
        'Location',
        'S.pdf p. 1',
        '✓ Sample Bank – Market Road Branch: 1.2 kilometers away\n\n✓ Sample Mart: 903 meters away',
      ),
      page(
        'Location',
        'S.pdf p. 2',
        [
          'NEAREST TOWN DISTANCE TO FRONTAGE COUNTY SAMPLE TOWN',
          'Set 5 km from Sample Town, a short drive away, with its frontage on Sample Drive, the plot is easy to reach for most uses.',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('Which road does the property front onto?', docs)).toContain('Sample Drive');
  });

  it('answers what the land is worth without the barns with the land, not the barns', () => {
    const docs = numbered([
      page(
        'Cost Approach',
        'A.pdf p. 24',
        [
          'From the costs above, the two barns contribute a value of $50,000 in total.',
          'At $10,000 per acre, the market value of the land is found as follows: 80 acres x $10,000/acre = $800,000',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('What is the land worth without the barns?', docs)).toContain('$800,000');
  });

  it('reads the living area of a house as its size, the subject first in a grid of comparables', () => {
    const grid = [
      '| Style / Quality | Ranch | Ranch | Q4 | Split level | Q4 |',
      '| --- | --- | --- | --- | --- | --- |',
      '| Living Area | 1050 | 1020 |     | 1197 |     |',
      '| Bsmnt | 600 | 600 |     | 550 |     |',
    ].join('\n');
    const docs = numbered([
      page('Comparables', 'B.pdf p. 1', 'Lot Size : Guidelines for lot size exceeded over 50%.'),
      page('Broker Price Opinion', 'B.pdf p. 2', grid),
    ]);
    const living = (q: string) =>
      scoreFacts(docs, q).find((f) => f.text.startsWith('Living Area'))?.matched ?? [];
    expect(living('How big is the house?')).toEqual(['big']);
    // The lot's size is not the house's.
    expect(living('How big is the lot?')).not.toContain('big');
  });

  it('answers whether a house is occupied with who lives there, not whether its owner does', () => {
    const docs = numbered([
      page('Owner Information', 'B.pdf p. 20', 'Owner Occupied: No\n\nOwner Name: Sample Owner'),
      page('Subject', 'B.pdf p. 1', 'Property Occupant: Vacant\n\nProperty Type: SFR'),
    ]);
    expect(lead('Is the house occupied?', docs)).toContain('Vacant');
  });

  it('answers who the intended users are with the users, not the intended use', () => {
    const docs = numbered([
      page(
        'Intended Use and Intended Users',
        'S.pdf p. 3',
        [
          'This analysis was written for the intended use of guiding the market study and the lending decisions on the sale of the subject units.',
          'Intended users are the owner, the developer, prospective investors and lenders.',
          'No other use is intended.',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('Who are the intended users of the analysis?', docs)).toContain('developer');
  });

  it('answers whether a property is on city water and sewer with its septic system', () => {
    const docs = numbered([
      page(
        'Site Analysis',
        'A.pdf p. 20',
        [
          'Site: The site measures 2 acres and is square. It lies outside the city limits of Sample Town.',
          'The City of Sample Town is the county seat of Sample County, in the south of the state.',
          'Being outside the city limits, it is served by a shared septic system and a cistern.',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('Is the property on city water and sewer?', docs)).toContain('septic');
  });

  it('names a subject with the bracket it opens, and joins the line it cut', () => {
    const text = [
      'Threats: Zoning inconsistencies.',
      'Sample West (Town A & Town B County) Summary: Quiet rural towns; low entry prices. Few rules on renovation.',
      'Strengths: Affordable; open zoning.',
      'Threats: Water scarcity.',
    ].join('\n\n');
    const docs = numbered([page('Regions', 'R.pdf p. 4', text)]);
    expect(lead('What are the threats to Sample West?', docs)).toBe(
      'Sample West (Town A & Town B County) – threats: Water scarcity. [R.pdf p. 4]',
    );
    expect(lead('What is the summary of Sample West?', docs)).toMatch(
      /^Sample West \(Town A & Town B County\) – summary: Quiet/,
    );
    // "15 - Year Real Property: …": the number before the dash is the label's own.
    const classes = numbered([
      page(
        'Cost Segregation',
        'C.pdf p. 1',
        '5 - Year Personal Property: $100,000.00\n\n15 - Year Real Property: $200,000.00\n\n39 - Year Real Property: $700,000.00',
      ),
    ]);
    expect(lead('How much was classified as 15-year real property?', classes)).toMatch(
      /^15 Year Real Property: \$200,000\.00/,
    );
    expect(tidySubject('Roof Type /')).toBe('Roof Type');
    expect(tidySubject('Description of the')).toBe('Description');
    expect(tidySubject('Best Suited For')).toBe('Best Suited For');
  });

  it("says a form's sentence without the blank after its last figure, each amount as one", () => {
    const docs = numbered([
      page(
        'Neighborhood',
        'U.pdf p. 3',
        'There are 12 comparable sales in the subject neighborhood within the past twelve months ranging in sale price from $ 300,000 to $ 410,000: .',
      ),
    ]);
    expect(lead('What is the range of comparable sale prices?', docs)).toBe(
      'There are 12 comparable sales in the subject neighborhood within the past twelve months ranging in sale price from $300,000 to $410,000. [U.pdf p. 3]',
    );
  });

  it('answers how many with the fact that counts them when another only holds a number', () => {
    const docs = numbered([
      page(
        'Report Summary',
        'R.pdf p. 2',
        [
          'HIGH-RISK FACTORS AND MODERATE-RISK FACTORS: Fault within 5 Weak transit',
          '100 Sample Street, Sample Town, Sample County, 94000: ZIP 94000 - 37.48, -122.22 - 8/2/2026 - 31 factors',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('How many factors does the report cover?', docs)).toContain('31 factors');
  });

  it('answers how long a sale would take with the exposure period, not a contract deadline', () => {
    const docs = numbered([
      page(
        'Buy-Sell Signed 3-4-2026',
        'W.pdf p. 61',
        [
          '45 Days from Execution of Buy Sell unless stated below',
          'Closing within 15 days of full contingency release',
        ].join('\n\n'),
      ),
      page(
        'Reconciliation',
        'W.pdf p. 40',
        'For this analysis, a reasonable exposure period is estimated at less than 9 months.',
      ),
    ]);
    expect(lead('How long would it take to sell the warehouse?', docs)).toContain('9 months');
  });

  it('answers what a building was used for before a year with the use that ended then', () => {
    const docs = numbered([
      page(
        'History of the Property',
        'M.pdf p. 8',
        [
          'The building has housed the county library since 1988.',
          'The building is a two-storey brick structure on a corner lot.',
          'The subject property was occupied as a hardware store from 1950 to 1988.',
        ].join('\n\n'),
      ),
    ]);
    expect(lead('What was the building used for before 1988?', docs)).toContain('hardware');
  });

  it('reads a two-column table whose value column counts per 1,000 with that title', () => {
    const docs = numbered([
      page(
        'Scores',
        'F.pdf p. 10',
        [
          'Suitability Metrics (1–10) Metric Northvale Southmere Eastfield',
          '',
          '| Affordability | 5 | 9 | 6 |',
          '| --- | --- | --- | --- |',
          '| Crime Rate (Inverted) | 2 | 9 | 2 |',
        ].join('\n'),
      ),
      page(
        'Comparative Tables',
        'F.pdf p. 7',
        [
          '| Location | Crime Rate per 1,000 |',
          '| --- | --- |',
          '| Northvale | 31.0 |',
          '| Southmere | 54.5 |',
        ].join('\n'),
      ),
    ]);
    expect(lead('What is the crime rate in Southmere?', docs)).toContain('54.5');
  });

  it('answers the shape of a parcel with the site of the subject, not a comparable parcel', () => {
    const docs = numbered([
      page(
        'Sales Comparison Approach',
        'R.pdf p. 26',
        'Sale 2: Sale 2 is located on the east side of Sample Lane, north of the river. This is a mostly rectangular shaped parcel with a narrow access strip along its north line.',
      ),
      page(
        'Summary of Appraisal',
        'R.pdf p. 5',
        'Site: The subject is irregular in shape and has a total area of 40.2 acres.',
      ),
    ]);
    expect(lead('What shape is the parcel?', docs)).toContain('irregular');
  });

  it('reads a table whose first row is a label and its value as rows, not titles', () => {
    const text = [
      '| Property Type | Retail | (Single Tenant) |',
      '| --- | --- | --- |',
      '| Number of Stories | 2 |     |',
      '| Gross Building Area | 18,400 SF |     |',
      '| Effective Age | 12 Years |     |',
    ].join('\n');
    expect(factsOf(text).map((f) => f.text)).toEqual([
      'Property Type: Retail; (Single Tenant)',
      'Number of Stories: 2',
      'Gross Building Area: 18,400 SF',
      'Effective Age: 12 Years',
    ]);
    const docs = numbered([page('Improvements Summary', 'A.pdf p. 8', text)]);
    expect(lead('How many stories does the building have?', docs)).toContain('Stories: 2.');
    // A header of titles over the same rows stays titles.
    expect(
      factsOf(
        [
          '| Location | Defect | Severity |',
          '| --- | --- | --- |',
          '| Grid A1, north slope | Sheet rusted through, hole 30 mm wide |     |',
          '| Grid A3, ridge | Sealant at ridge cap failed | Medium |',
        ].join('\n'),
      ).map((f) => f.text),
    ).toEqual([
      'Grid A1, north slope: Defect: Sheet rusted through, hole 30 mm wide',
      'Grid A3, ridge: Defect: Sealant at ridge cap failed; Severity: Medium',
    ]);
  });

  it('reads "type of well" and "active leaks" as no other kind of what is asked', () => {
    const docs = numbered([
      // Wells said often elsewhere: "well" weighs little, and the 0.7 had put the septic first.
      page(
        'Site Improvements',
        'V.pdf p. 12',
        'Two wells are planned for the site. Each well will be drilled to about 300 feet. The wells will need treatment and testing. Well permits are pending.',
      ),
      page(
        'Cost Approach',
        'V.pdf p. 31',
        [
          'A septic system here typically costs $20,000 to install, the engineer says.',
          'The engineer adds that for this type of well the cost typically runs from $40,000 to $60,000 per well.',
        ].join(' '),
      ),
    ]);
    expect(lead('What does a commercial well typically cost?', docs)).toContain('$40,000');
    const check = numbered([
      page(
        'Property Status Checklist',
        'C.pdf p. 2',
        'Water Leak Check: CLEAR\n\nAll visible plumbing was checked. No active leaks found.',
      ),
    ]);
    expect(lead('Were any water leaks found?', check)).toContain('No active leaks');
  });

  it('answers property taxes with the real estate taxes, not a sentence about taxes', () => {
    const docs = numbered([
      page(
        'Tax Analysis',
        'T.pdf p. 54',
        'Our figure rests on our pro forma estimate and the tax rate.',
      ),
      page(
        'Direct Capitalization',
        'T.pdf p. 58',
        'Real Estate Taxes: $1.95; $98,400\n\nInsurance: $0.30; $15,100',
      ),
    ]);
    expect(lead('What are the total property taxes?', docs)).toContain('$98,400');
  });

  it('answers what comparable 1 sold for from the grid of comparables 1 to 3', () => {
    const docs = numbered([
      page(
        'Neighborhood',
        'U.pdf p. 2',
        'There are 38 comparable sales in the subject neighborhood within the past twelve months ranging in sale price from $310,000 to $455,000.',
      ),
      page(
        'Sales Comparison Approach',
        'U.pdf p. 5',
        'FEATURE SUBJECT COMPARABLE SALE # 4 COMPARABLE SALE # 5 COMPARABLE SALE # 6\n\nSale Price $ $398,000 $421,000 $377,000',
      ),
      page(
        'Sales Comparison Approach',
        'U.pdf p. 4',
        'FEATURE SUBJECT COMPARABLE SALE # 1 COMPARABLE SALE # 2 COMPARABLE SALE # 3\n\nSale Price $ $402,000 $389,500 $415,000\n\nGross Living Area 1,450 sq.ft. 1,390 sq.ft. 1,520 sq.ft.',
      ),
    ]);
    const answer = lead('What did comparable sale 1 sell for?', docs);
    expect(answer).toContain('$402,000');
    expect(answer).toContain('U.pdf p. 4');
  });

  it('reads hollow tiles and damp walls as what is wrong, like cracks and leaks', () => {
    const answer = first(
      'What is wrong with the tiles in the common bathroom?',
      [
        '1 Observed damp patches along the hall skirting 2 Observed slight damp on the common bathroom ceiling',
        'Photo 4: Wet area Description Common bathroom floor tile hollowness near the drain',
      ],
      ['Summary of Findings', 'Site Form'],
    );
    expect(answer).toContain('tile hollowness');
  });

  it('does not read a parking lot as the lot the land is', () => {
    const answer = first('How big is the lot?', [
      'Features: Three offices, a kitchenette, a shed (80 SF) and a gravel parking lot at the back',
      'The subject sits on a single parcel with one building of 2,900 square feet on it.',
    ]);
    expect(answer).not.toContain('parking');
    expect(answer).toContain('single parcel');
  });

  it('answers how tall walls are with the label naming the wall and its height', () => {
    const answer = first('How tall are the shop walls?', [
      'Walls: Insulation is left bare in the shop. A 4’ high plastic panel runs round the washroom, painted board above it. Office walls are painted board.',
      'Shop Doors: Two overhead doors\n\nSidewall Height: 18’ (24’ at the ridge)\n\nFloor: Concrete slab',
      'Building: The building has two shop suites of 4,800 square feet in all. The shop area has concrete floors.',
      'The site is level and paved. Zoning is light industrial. Access is from a county road. Utilities are electricity and propane. The roof is standing seam metal. Parking is gravel. The building was finished in 2020. Heating is by forced air furnace. The doors are hollow metal.',
    ]);
    expect(answer).toContain('Sidewall Height: 18’');
  });

  it('answers what a concession was for with what it went towards', () => {
    const texts = [
      'Known Sales Concessions: Yes\n\nTotal Sales Concessions: $3,000',
      'Sales Concessions: Money the seller pays on the buyer’s behalf at closing',
      'The seller gave a $3,000 concession towards replacement of the rear gutters.',
    ];
    expect(first('What was the sales concession for?', texts)).toContain(
      'towards replacement of the rear gutters',
    );
    // A price asked with "for" is still a price.
    expect(
      first('What was it listed for?', ['List Price: $415,000', ...texts], ['Listing']),
    ).toContain('$415,000');
  });

  it('answers the capitalization rate applied with the rate concluded, not the range it came from', () => {
    expect(
      first('What capitalization rate was applied?', [
        'The comparable sales show capitalization rates from 7.5% - 11.8%, a narrow spread.',
        'Investor surveys say a higher capitalization rate is rarely asked of a building on a long lease.',
        'Therefore, weighing the cap rates of the sales and the rents the area supports, an overall rate of approximately 9.5% suits the subject.',
        'Adjustments were applied for location and size. A further adjustment was applied for age.',
      ]),
    ).toContain('approximately 9.5%');
  });

  it('answers the as-is estimate from the row whose column names it, not a list price row', () => {
    const table =
      '| | As-Is Price Estimate | As-Repaired Price Estimate | Quick Sale Price |\n' +
      '| --- | --- | --- | --- |\n' +
      '| 90-Day Marketing Time | $181,000 | $188,000 | $172,000 |\n' +
      '| Recommended List Price | $195,000 | $199,000 | |';
    expect(first('What is the as-is price estimate?', [table], ['Price Opinion'])).toContain(
      'As-Is Price Estimate: $181,000',
    );
    // The list price is still the row that names it.
    expect(first('What is the recommended list price?', [table], ['Price Opinion'])).toContain(
      'Recommended List Price',
    );
  });

  it('counts the images of the whole survey, not of one block, and reads radiometric as thermal', () => {
    const texts = [
      'Thermal Findings: Block 2 had the warmest spots of the whole site. Damp shows along its parapet. A total of 52 images were captured across Block 2.',
      'Thermal Findings: Block 3 had the most hot spots, 9 of them in 61 images. They agree with the cracks the structural survey found.',
      '9. Image Archive: All 175 radiometric JPEG images are kept in the archive on the memory stick handed over with this report. Each image keeps its temperature data. The folders of the archive are listed below:',
    ];
    expect(first('How many thermal images were taken?', texts)).toContain('All 175 radiometric');
    // A label with an abbreviation ("No. of Units:") and nothing after it still says nothing.
    expect(
      first('How many units are there?', ['No. of Units:', 'Rent roll attached for all units.']),
    ).toContain('Rent roll attached');
  });

  it('answers how many of two things with both counts of one grid, in words', () => {
    const grid =
      'Subject Front:\n\n21 Sample Dr Sales Price 310,000 Gross Living Area 1,260\n\nTotal Rooms: 6\n\n' +
      'Total Bedrooms: 4\n\nTotal Bathrooms: 2.0\n\nLocation: N;Res;\n\nView: N;Res;\n\nAge: 38';
    const asked = 'How many bedrooms and bathrooms are there?';
    expect(first(asked, [grid], ['Subject Photos'])).toBe(
      '4 bedrooms and 2.0 bathrooms (Subject Photos – Total Bedrooms: 4; Total Bathrooms: 2.0). [R.pdf p. 1]',
    );
    // A listing's "Beds" and "Baths" count them too, and the other count is not said again
    // below (both labels weigh the same there); an attachment's answer keeps its file.
    const listing = localAnswer([page('Listing', 'L.pdf p. 1', 'Beds: 3\n\nBaths: 2')], asked);
    expect(listing).toBe('3 bedrooms and 2 bathrooms (Listing – Beds: 3; Baths: 2). [L.pdf p. 1]');
    expect(
      localAnswer([{ ...page('Subject Photos', 'S.pdf p. 2', grid), attachment: 'S.pdf' }], asked),
    ).toMatch(/^From the attachment S\.pdf: 4 bedrooms and 2\.0 bathrooms/);
    // One thing asked, or a grid that counts only one of the two: the fact as it is said.
    expect(first('How many bedrooms are there?', [grid], ['Subject Photos'])).toContain(
      'Total Bedrooms: 4.',
    );
    const bedroomsOnly = 'Total Rooms: 6\n\nTotal Bedrooms: 4\n\nView: N;Res;';
    expect(first(asked, [bedroomsOnly], ['Subject Photos'])).toContain(
      'Subject Photos – Total Bedrooms: 4.',
    );
  });

  it('keeps a unit beside its figure when a form prints it in the next cell', () => {
    const form =
      '| Gross Living Area (GLA) | 1,480 | s.f. |\n| --- | --- | --- |\n| Site Area | 7,200 | s.f. |';
    expect(first('What is the gross living area?', [form], ['Dimension List'])).toContain(
      'Gross Living Area (GLA): 1,480 s.f.',
    );
    // A grid across the subject and its sales: each figure with its own unit.
    const grid =
      '| Room Count | 5 | 2 | 1.0 | 6 | 3 | 1.0 |\n| --- | --- | --- | --- | --- | --- | --- |\n' +
      '| Gross Living Area | 1480 |   | sq.ft. 1320 |   |   | sq.ft. |';
    expect(first('What is the gross living area of the sales?', [grid], ['Sales Grid'])).toContain(
      'Gross Living Area: 1480 sq.ft.; 1320 sq.ft.',
    );
    // A cell that only starts with the letters of a unit keeps them: a single-family residence.
    const texts = factsOf(
      '| Units | 1 | SF Residence |\n| --- | --- | --- |\n| Site | 0.25 | acres |',
    ).map((f) => f.text);
    expect(texts).toContain('Units: 1; SF Residence');
    expect(texts.some((t) => t.endsWith('0.25 acres'))).toBe(true);
  });

  it('answers the most common of a list of counts with the name counted most', () => {
    const tallies =
      'Deck Condition Index: 61\n\nBlistering: 3\n\nLoose Boards: 11\n\nDrainage Photo Set\n\n' +
      'Rusted Fixings: 4\n\nDefective Rails: 2\n\nTotal findings: 20';
    const asked = 'What is the most common defect?';
    expect(first(asked, [tallies], ['Deck Survey'])).toBe(
      'Most common: Loose Boards (11), then Rusted Fixings (4), Blistering (3) and Defective Rails (2). [R.pdf p. 1]',
    );
    expect(first('What is the most common type of defect?', [tallies], ['Deck Survey'])).toContain(
      'Most common: Loose Boards (11)',
    );
    // A list that says nothing of the thing asked, or two names counted as often, answer as before.
    const plants = 'Lavender: 6\n\nRosemary: 2\n\nThyme: 1';
    expect(first(asked, [plants], ['Planting Plan'])).not.toContain('Most common');
    const even = 'Defective Caps: 4\n\nStanding Water: 4\n\nLoose Laps: 1';
    expect(first(asked, [even], ['Roof Survey'])).not.toContain('Most common');
  });

  it('reads a calculation under the sentence that says what it comes to as one fact, to its total', () => {
    const text =
      'I estimate the new roof to add $22,000. The value once the works are done is their cost ' +
      'added to the value as is. This is calculated as follows:\n\n' +
      'As Is: $410,000\n\nNew Roof: 22,000\n\nProposed Decks:\n\n2 @ $4,000/deck: 8,000\n\nTotal: $440,000';
    expect(first('What will it be worth once the roof and decks are done?', [text])).toBe(
      'The value once the works are done is their cost added to the value as is: ' +
        'As Is: $410,000; New Roof: 22,000; Proposed Decks: 2 @ $4,000/deck: 8,000; ' +
        'Total: $440,000. [R.pdf p. 1]',
    );
    // Lines that are not a calculation's (a sentence, a label without a figure) stay as they are.
    for (const line of ['The roofer quoted in May.', 'Roofer: Sample Roofing']) {
      const other = text.replace('New Roof: 22,000', line);
      expect(factsOf(other).some((f) => f.text.includes('; Total: $440,000'))).toBe(false);
    }
    expect(factsOf(text).some((f) => f.text.includes('; Total: $440,000'))).toBe(true);
  });

  it('names the person an engagement letter engages for the work asked who did', () => {
    const letter =
      'Dear: Sample Q. Person This letter confirms your engagement to prepare an appraisal of the property described below.';
    const summary =
      'Improvements: The site is improved with one workshop that is to be occupied by Sample Tools.';
    expect(first('Who appraised the property?', [summary, letter], ['Summary', 'Letter'])).toBe(
      'Sample Q. Person, to whom the letter is addressed: This letter confirms your engagement to ' +
        'prepare an appraisal of the property described below. [R.pdf p. 2]',
    );
    // A letter that engages for other work says nothing of who appraised it.
    const other = letter.replace('prepare an appraisal', 'carry out a survey');
    expect(first('Who appraised the property?', [summary, other])).not.toContain('to whom');
  });

  it('reads a temperature differential as overheating, and a distribution board as a panel', () => {
    const [fact] = scoreFacts(
      [
        page(
          'Electrical',
          'R.pdf p. 4',
          'Board DB-2 showed a temperature differential of 14 deg C.',
        ),
      ],
      'Which electrical panel is overheating?',
    );
    expect(fact!.matched).toEqual(expect.arrayContaining(['panel', 'overheating']));
  });

  it('leads a question of the larger of two things with the text that compares their sizes', () => {
    const leanTo = 'The lean-to of this shed measures 4’ x 3’ (12 sf).';
    const measured = 'My measurements give the sheds 180 sf and 96 sf.';
    expect(first('How big is the larger shed?', [leanTo, measured])).toBe(
      `${measured} [R.pdf p. 2]`,
    );
    // Two lists of the same sheds: the one with the largest size goes first.
    const county = 'The county records list the two sheds at 150 sf and 96 sf.';
    expect(first('How big is the larger shed?', [`${county} ${measured}`])).toBe(
      `${measured} [R.pdf p. 1]`,
    );
    // Asked of one shed, the comparison is no better than any other size.
    expect(first('How big is the shed lean-to?', [leanTo, measured])).toContain('(12 sf)');
    // "older than" compares nothing the report lists: weighed as the same words otherwise asked.
    const furnace = [
      page('Heating', 'R.pdf p. 3', 'The furnace is older than the 2010 boiler and the 2012 tank.'),
    ];
    const [than] = scoreFacts(furnace, 'Is the furnace older than 20 years?');
    const [plain] = scoreFacts(furnace, 'Is the furnace 20 years older?');
    expect(than!.score).toBeCloseTo(plain!.score);
  });

  it('says what was observed of a rated item with its rating, from the lines under it', () => {
    const docs = numbered([
      page(
        '4 Rainwater Goods',
        'R.pdf p. 9',
        'Ref 4.1 Gutter, front elevation\n\nSatisfactory\n\nPriority: N/A\n\n' +
          'Ref 4.2 Downpipe, side elevation\n\nSatisfactory\n\n[ photo to follow ]: placeholder\n\nObservation: Downpipe is firm and discharges into the gully.\n\nPriority: N/A',
      ),
    ]);
    const answer = lead('Is the side downpipe in good order?', docs);
    expect(answer).toContain('Downpipe, side elevation: Satisfactory');
    expect(answer).toContain('firm and discharges into the gully');
    // An item with no observation of its own is not given the next item's.
    const gutter = lead('Is the front gutter in good order?', docs);
    expect(gutter).toContain('Gutter, front elevation: Satisfactory');
    expect(gutter).not.toContain('gully');
  });

  it('answers whether the inspector went on the roof with how the roof was viewed', () => {
    const covering = 'Roof Covering: Asphalt shingles, about 12 years old';
    const viewed = 'Roof Viewed From: Ground, ladder at the eaves, binoculars';
    expect(first('Did the inspector go on the roof?', [covering, viewed])).toBe(
      `${viewed}. [R.pdf p. 2]`,
    );
    expect(first('Was the roof walked?', [covering, viewed])).toContain(viewed);
    // A question of the roof itself is not one of how it was seen.
    expect(first('What is the roof covering?', [covering, viewed])).toContain(covering);
  });

  it('reads the rows of a table under the line above it that names what they are about', () => {
    const harbour =
      'Harbour East (Port Town) Summary: A small coastal town; homes about $200K.\n\n' +
      '| Aspect | Details |\n| --- | --- |\n| Strengths | Ferry links. |\n' +
      '| Weaknesses | Storm damage; fog. |';
    const inland =
      'Inland East (Hill Town) Summary: A farm town; homes about $150K.\n\n' +
      'Aspect: Strengths\n\nDetails: Low taxes.\n\nWeaknesses: Long commute.';
    expect(first('What are the weaknesses of Harbour East?', [harbour, inland])).toContain(
      'Storm damage; fog',
    );
    const subjectOf = (text: string, row: string): string | null | undefined =>
      factsOf(text).find((f) => f.text.startsWith(row))?.subject;
    expect(subjectOf(harbour, 'Weaknesses')).toBe('Harbour East (Port Town)');
    // A line between the name and the table, or a label's first word, names no table.
    const apart = harbour.replace('\n\n|', '\n\nThe town is growing fast.\n\n|');
    expect(subjectOf(apart, 'Weaknesses')).toBeNull();
    const roofing =
      'Roofing Type: Long run steel\n\n| Component | Material |\n| --- | --- |\n' +
      '| Roof flashings | Painted steel |';
    expect(subjectOf(roofing, 'Roof flashings')).toBeNull();
  });

  it('reads a comparable’s sheet, led by its name on a line of its own, as about that property', () => {
    const sheet =
      'Improved Sale 2\n\nType: Warehouse\n\nSale Price: $500,000\n\n' +
      'The building is on city water and sewer.';
    const site =
      'The site is served by a private well and septic system; city water and sewer are not available.';
    expect(first('Is the property on city water and sewer?', [sheet, site])).toBe(
      `${site} [R.pdf p. 2]`,
    );
    // A comparable asked about is answered from its sheet.
    expect(first('Is sale 2 on city water and sewer?', [sheet, site])).toContain(
      'The building is on city water and sewer.',
    );
  });

  it('answers what is wrong with a thing with a finding about it, not an action or a thing beside it', () => {
    const actions =
      'Actions: Keep the area below Beams 2, 3 and 4 clear; prepare to replace Beam 3.';
    const beside = 'D-07: Light fitting at Beam 3 loose bracket; Low';
    const finding = 'D-02: Beam 3 split along its lower face; High';
    expect(first('What is wrong with beam 3?', [actions, beside, finding])).toBe(
      `${finding}. [R.pdf p. 3]`,
    );
    // What to do about it says nothing of what is wrong.
    const plan = 'A-02: Prepare to replace Beam 3; High';
    expect(first('What is wrong with beam 3?', [plan, finding])).toBe(`${finding}. [R.pdf p. 2]`);
    // Asked what was found at it, what stands there is asked.
    expect(first('What was found at beam 3?', [plan, beside])).toBe(`${beside}. [R.pdf p. 2]`);
    // What stands there is the finding when it is a defect: "Leak at" the thing asked.
    const leak = 'D-09: Leak at Beam 3 seating; Medium';
    const worn = 'D-04: Beam 3 paint worn; Low';
    expect(first('What is wrong with beam 3?', [leak, worn])).toBe(`${leak}. [R.pdf p. 1]`);
  });

  it('answers "How is it heated?" with the line a report labels "Heating", not a line of options', () => {
    const docs = numbered([
      page('Site', 'A.pdf p. 1', 'Basement Full Heating Forced Air Boiler Radiant Fuel'),
      page('Site', 'A.pdf p. 1', 'Finished Heated Area Individual ✘'),
      page(
        'Sales Comparison',
        'A.pdf p. 2',
        '| Feature | Subject | Sale 1 | Sale 2 |\n| --- | --- | --- | --- |\n| Heating/Cooling | Heat pump | FWA/CAC | FWA/CAC |',
      ),
    ]);
    expect(lead('How is the house heated?', docs)).toContain('Heat pump');
  });

  it('reads a label and its value apart from the paragraph run on after it', () => {
    const site = page(
      'Site Analysis',
      'A.pdf p. 15',
      'Zoning: M-1 – Light Industrial The light industrial zone is meant for workshops, ' +
        'warehouses and small plants that serve the trades of the county, with offices beside ' +
        'them where the work needs it. Low intensity uses can sit next to commercial districts. ' +
        'M-1 zoning should be near arterial roads and other routes that can serve the business ' +
        'centres of the town and its freight without crossing quiet residential streets. The ' +
        'existing building is a permitted use of the site.',
    );
    const sale = page('cwu 1 - 4', 'A.pdf p. 70', 'Zoning: None\nUtilities: All public');
    const answer = lead('How is the property zoned?', numbered([site, sale]));
    expect(answer).toContain('M-1 – Light Industrial.');
    expect(answer).not.toContain('Light Industrial The light');
  });

  it('counts bedrooms from a count, not from a price per bedroom or a photo caption', () => {
    const docs = numbered([
      page('Adjustments', 'A.pdf p. 9', 'Bedrooms: $6,000 per'),
      page('Photos', 'A.pdf p. 20', 'Bedroom\nGuest House\n\nBedroom\nBelow Grade'),
      page(
        'Improvements',
        'A.pdf p. 2',
        'Finished area above grade contains: 5 Rooms 3 Bedrooms 2.0 Bath(s) 1,200 Square Feet',
      ),
    ]);
    expect(lead('How many bedrooms does the main house have?', docs)).toContain('3 Bedrooms');
  });

  it('reads a time written in words as a time, for "How long would it take to sell?"', () => {
    const docs = numbered([
      page(
        'Purchase Contract',
        'A.pdf p. 60',
        'Buyers initials Sellers initials 10 Days from acceptance of the offer.\n\n' +
          '30 Days from signing of the Buy Sell unless noted below.',
      ),
      page(
        'Letter of Transmittal',
        'A.pdf p. 2',
        'The exposure time for the subject property is estimated to be less than six months.',
      ),
    ]);
    expect(lead('How long would it take to sell the property?', docs)).toContain(
      'less than six months',
    );
  });

  it('reads the year a span began as the answer to "How long has …?"', () => {
    const question = 'How long has the appraiser worked in this market?';
    const rentals = page(
      'Rent Schedule',
      'A.pdf p. 13',
      'Due to the limited number of rentals in the market, the appraiser expanded the search ' +
        'area, with one rental located nearly five miles away.',
    );
    const competency = page(
      'Text Addendum',
      'A.pdf p. 9',
      'GEOGRAPHIC COMPETENCY\n\nThe appraiser has been appraising homes within this market ' +
        'since 2004.',
    );
    // "since 2004" answers "long", as "five miles" does not.
    expect(lead(question, numbered([rentals, competency]))).toContain('since 2004');
    // Beside a time that is no span up to now, the year it began is still a time.
    const basement = page(
      'Basement',
      'A.pdf p. 11',
      'No sales with a finished basement were found in the market over the past two years, ' +
        'so the appraiser cannot measure its effect on value.',
    );
    expect(localAnswer(numbered([rentals, basement, competency]), question)).toContain(
      'since 2004',
    );
  });

  it('answers "How much of …?" with an area of it when no share is given', () => {
    const docs = numbered([
      page(
        'Income Approach',
        'A.pdf p. 20',
        'A portion of the basement level is leased to Example Bank at a rate of $4.74/sf.',
      ),
      page(
        'Property Description',
        'A.pdf p. 10',
        'The building is fully occupied by its owner except for 3,740 sf of the basement that ' +
          'is leased to Example Bank.',
      ),
    ]);
    expect(lead('How much of the basement is leased to the bank?', docs)).toContain('3,740 sf');
  });

  it('answers a share of a whole with a share that names that whole', () => {
    const docs = numbered([
      page(
        'Signs',
        'A.pdf p. 40',
        'Window signs per building elevation: 25% coverage of the window area at most.',
      ),
      page(
        'Development Standards',
        'A.pdf p. 6',
        'Minimum Lot Width: 100 ft\n\nMaximum Lot Coverage: 60%\n\nMinimum Lot Area: 15,000 sf',
      ),
    ]);
    // Both give a share of what is covered; the lot is the whole asked of.
    expect(lead('How much of the lot can be covered by buildings?', docs)).toContain('60%');
  });

  it('answers the report number from the cover, and does not read it as a date', () => {
    const docs = numbered([
      page(
        'SITE SURVEY REPORT',
        'A.pdf p. 1',
        'REPORT NO:2019-0042\n\nMARCH 3,2019\n\nPREPARED FOR:\n\nExample Holdings',
      ),
      page('Parking', 'A.pdf p. 9', 'The number of parking spaces shall be at least 12.'),
    ]);
    // "No:" says "number"; a line "Report No: …" is no page furniture when it is asked.
    expect(lead('What is the report number?', docs)).toContain('2019-0042');
    // "2019-0042" is a record's number, not a year.
    expect(lead('When was the report prepared?', docs)).toContain('MARCH 3,2019');
  });

  it('reads an automated valuation under a product name that ends in "AVM™"', () => {
    const docs = numbered([
      page(
        'Rental Trends',
        'A.pdf p. 19',
        'ESTIMATED RENT\n\nEstimated Value: 2010\n\nEstimated Value High: 2300',
      ),
      page(
        'Property Details',
        'A.pdf p. 20',
        'ESTIMATED VALUE\n\nExampleAVM™: $212,400\n\nConfidence Score: 88',
      ),
    ]);
    expect(lead('What is the automated valuation estimate?', docs)).toContain('$212,400');
    // A label may end in the sign: it is a pair, read under the heading above it.
    expect(labelPairs('ExampleAVM™: $212,400')?.pairs).toEqual(['ExampleAVM™: $212,400']);
  });
});
