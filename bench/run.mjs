// Entry point of `npm run bench`: runs every benchmark (bench/<name>.bench.ts), or only the ones
// named on the command line (`npm run bench -- ingest`), each in a process of its own with tsx.
// It builds nothing: the benchmarks drive the built services, so build first.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(BENCH_DIR);
const SUFFIX = '.bench.ts';
/** Run order when no names are given; benchmarks not listed here run after these, alphabetically. */
const PREFERRED_ORDER = ['ingest', 'retrieve', 'chat'];

/** What the benchmarks need from `npx turbo run build`. */
const BUILT = [
  'services/gateway/dist/main.js',
  'services/ingestion/dist/main.js',
  'services/annotation/dist/main.js',
  'services/embedding/dist/main.js',
  'services/retrieval/dist/main.js',
  'services/chat/dist/main.js',
  'services/web/dist/main.js',
  'packages/documents/dist/index.js',
  'packages/test-support/dist/index.js',
];

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

function available() {
  const names = readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length));
  const rank = (n) => {
    const i = PREFERRED_ORDER.indexOf(n);
    return i === -1 ? PREFERRED_ORDER.length : i;
  };
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function usage(names) {
  return `usage: npm run bench [-- <name>...]\navailable benchmarks: ${names.join(', ') || '(none)'}`;
}

/** Runs one benchmark to completion; resolves with its exit code. */
function runOne(name) {
  const file = path.join(BENCH_DIR, `${name}${SUFFIX}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    // Ctrl-C reaches the whole process group: the benchmark handles it (it tears its system
    // down), so this process only waits for it. A SIGTERM sent to this process alone is passed on.
    const onInt = () => {};
    const onTerm = () => child.kill('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const done = (code) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code);
    };
    child.once('error', (error) => {
      console.error(`bench: could not start ${name}: ${error.message}`);
      done(1);
    });
    child.once('exit', (code, signal) =>
      done(code ?? 128 + ((signal && os.constants.signals[signal]) || 0)),
    );
  });
}

const names = available();
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(usage(names));
  process.exit(0);
}
if (args.includes('--list')) {
  console.log(names.join('\n'));
  process.exit(0);
}
const unknown = args.filter((a) => !names.includes(a));
if (unknown.length > 0) fail(`unknown benchmark ${unknown.join(', ')}\n${usage(names)}`);
const selected = args.length > 0 ? [...new Set(args)] : names;
if (selected.length === 0) fail('no benchmarks found in bench/');

const missing = BUILT.filter((f) => !existsSync(path.join(ROOT, f)));
if (missing.length > 0) {
  fail(
    `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing; run npx turbo run build first`,
  );
}

const failed = [];
for (const name of selected) {
  console.log(`\n=== bench: ${name} ===`);
  const code = await runOne(name);
  if (code !== 0) {
    console.error(`bench: ${name} failed (exit code ${code})`);
    failed.push(name);
  }
}
if (failed.length > 0) {
  console.error(`bench: ${failed.length} of ${selected.length} failed: ${failed.join(', ')}`);
  process.exit(1);
}
