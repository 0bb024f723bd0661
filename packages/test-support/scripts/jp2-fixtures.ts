// Regenerates src/fixtures/jp2.ts: three generated photos encoded as JPEG 2000 by OpenJPEG's
// command-line encoder (Debian package libopenjp2-tools, `opj_compress`). Only needed to change
// those fixtures; tests read the committed bytes. Run: npx tsx scripts/jp2-fixtures.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { buildPhoto } from '../src/fixtures/scan.js';

const SEEDS = [11, 12, 13];
const WIDTH = 200;
const HEIGHT = 150;
const target = fileURLToPath(new URL('../src/fixtures/jp2.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'jp2-'));
try {
  const encoded: string[] = [];
  for (const seed of SEEDS) {
    const png = path.join(dir, `${seed}.png`);
    const jp2 = path.join(dir, `${seed}.jp2`);
    const rgb = await sharp(await buildPhoto(WIDTH, HEIGHT, seed))
      .removeAlpha()
      .png()
      .toBuffer();
    writeFileSync(png, rgb);
    execFileSync('opj_compress', ['-i', png, '-o', jp2, '-r', '30'], { stdio: 'ignore' });
    encoded.push(readFileSync(jp2).toString('base64'));
  }
  const chunks = (b64: string): string =>
    (b64.match(/.{1,96}/g) ?? []).map((c) => `    '${c}',`).join('\n');
  writeFileSync(
    target,
    `// Three small JPEG 2000 photos (${WIDTH}x${HEIGHT}, RGB), for PDFs whose photos are JPXDecode
// images. Generated, not third-party: buildPhoto(${WIDTH}, ${HEIGHT}, seed) for seeds ${SEEDS.join(', ')}
// (scan.ts), encoded by OpenJPEG (opj_compress -r 30). Kept as bytes so that tests need no
// JPEG 2000 encoder (docs/adr/072). Regenerate: npx tsx scripts/jp2-fixtures.ts

const JP2_BASE64: readonly string[] = [
${encoded.map((b) => `  [\n${chunks(b)}\n  ].join(''),`).join('\n')}
];

/** The JPEG 2000 photos (JP2 files): ${WIDTH}x${HEIGHT} RGB, distinct pixels each. */
export const JP2_PHOTOS: readonly { bytes: Buffer; width: number; height: number }[] =
  JP2_BASE64.map((b64) => ({ bytes: Buffer.from(b64, 'base64'), width: ${WIDTH}, height: ${HEIGHT} }));
`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
