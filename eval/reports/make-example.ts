/* eslint-disable no-console -- a command-line helper. */
// Writes the generated example report that eval/reports/example.questions.json asks about:
// `node --import tsx eval/reports/make-example.ts DIR`, then
// `npm run eval -- reports DIR eval/reports/example.questions.json`.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildPdf, type ReportSpec } from '@reports/test-support';

export const EXAMPLE_FILE = 'generated-inspection.pdf';

export const EXAMPLE_SPEC: ReportSpec = {
  title: 'Generated home inspection',
  sections: [
    {
      heading: 'Electrical',
      paragraphs: [
        'Service size: 200 Amps (240 Volts). Distribution panel type and location: breakers in the basement.',
        'Some receptacles in the kitchen have no ground fault protection and should be upgraded.',
      ],
    },
    {
      heading: 'Heating',
      paragraphs: [
        'Furnace manufacturer: Lennox. Approximate age: 13 years. Fuel: natural gas, forced air.',
        'The furnace filter is dirty and should be replaced.',
      ],
    },
    {
      heading: 'Insulation',
      paragraphs: ['Attic insulation amount: R-38, loose fill fibreglass, about 12 inches deep.'],
    },
    {
      heading: 'Appliances',
      paragraphs: ['The dishwasher leaks at the door seal during the rinse cycle.'],
    },
  ],
};

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --import tsx eval/reports/make-example.ts DIR');
  process.exit(2);
}
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, EXAMPLE_FILE), await buildPdf(EXAMPLE_SPEC));
console.log(`wrote ${path.join(dir, EXAMPLE_FILE)}`);
