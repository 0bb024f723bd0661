import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runFuzz } from './run.js';

// `npm run fuzz -- [--seed N] [--per-operation N] [--deadline-ms N]`: starts the built services,
// drives every route of openapi.json with hostile values and exits 1 on any 5xx, hang or orphan.
const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    'per-operation': { type: 'string', default: '40' },
    'deadline-ms': { type: 'string', default: '30000' },
    concurrency: { type: 'string', default: '4' },
  },
});
const seed = Number(values.seed);
const report = await runFuzz({
  seed,
  perOperation: Number(values['per-operation']),
  deadlineMs: Number(values['deadline-ms']),
  concurrency: Number(values.concurrency),
  onProgress: (done, total) => {
    if (done % 100 === 0 || done === total) process.stderr.write(`[fuzz] ${done}/${total}\n`);
  },
});
const findings = [...report.findings, ...report.orphans];
for (const f of findings)
  process.stdout.write(`${f.kind}\t${f.operation}\t${f.case}\t${f.detail}\n`);
const summary = {
  seed,
  operations: report.operations,
  requests: report.requests,
  statuses: report.statuses,
  five_xx: report.fiveXX,
  hangs: report.hangs,
  orphans: report.orphans.length,
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../bench/results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'fuzz-latest.json'),
  `${JSON.stringify({ ...summary, findings }, null, 2)}\n`,
);
if (findings.length > 0) {
  console.error(`[fuzz] ${findings.length} finding(s); replay with --seed ${seed}`);
  process.exit(1);
}
