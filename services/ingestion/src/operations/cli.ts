// `npm run events -- <command>`: operator commands over the REPORTS stream.
//   tail      follow events (filters: --tenant, --report, --type, --since; --json; --no-follow)
//   replay    rebuild the status projection from the stream (--tenant, --report to narrow it)
//   pipeline  per stage: pending, in-flight, redelivered and failed work (--window hours; --json)
//   verify    compare every report's rows with its events; exit 1 on any disagreement (--json)
import { parseArgs } from 'node:util';
import { connectNats, createPool, loadConfig, type Nats, type Pool } from '@reports/platform';
import { parseSince, parseTypes } from './format.js';
import { formatPipeline, pipelineView } from './pipeline.js';
import { replayProjection, statusCounts } from './replay.js';
import { tailEvents } from './tail.js';
import { formatVerify, verifyOutputs } from './verify.js';

const USAGE = `usage: npm run events -- <command> [options]

  tail       follow the REPORTS stream, one line per event
             --tenant <id>  --report <id>  --type <Type[,Type]>
             --since <15m|2h|7d|ISO time>  (default: only new events)
             --json  (one JSON object per line)   --no-follow  (print history, then exit)
  replay     rebuild the status projection from the stream
             --tenant <id>  --report <id>  (default: everything)
  pipeline   per stage: pending, in-flight, redelivered and failed work
             --window <hours>  (attempt counts and p95 over this window, default 24)   --json
  verify     compare every report's rows (sections, tables, figures, chunks, embeddings,
             status) with its events; lists each disagreement, exits 1 if there is any
             --tenant <id>  --report <id>  --json

Reads NATS_URL and DATABASE_URL like the services.`;

const out = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    out(USAGE);
    return command ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      tenant: { type: 'string' },
      report: { type: 'string' },
      type: { type: 'string' },
      since: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-follow': { type: 'boolean', default: false },
      window: { type: 'string', default: '24' },
    },
    strict: true,
  });
  const config = loadConfig();
  let nats: Nats | undefined;
  let pool: Pool | undefined;
  try {
    nats = await connectNats(config.NATS_URL, `events-${command}`);
    switch (command) {
      case 'tail': {
        const abort = new AbortController();
        process.once('SIGINT', () => abort.abort());
        process.once('SIGTERM', () => abort.abort());
        await tailEvents(
          nats,
          {
            tenant: values.tenant,
            report: values.report,
            types: values.type ? parseTypes(values.type) : undefined,
            since: values.since ? parseSince(values.since) : undefined,
            json: values.json,
            follow: !values['no-follow'],
            signal: abort.signal,
          },
          out,
        );
        return 0;
      }
      case 'replay': {
        pool = createPool(config.DATABASE_URL, 2);
        const scope = { tenant: values.tenant, report: values.report };
        const started = performance.now();
        const result = await replayProjection(nats, pool, scope, (line) =>
          process.stderr.write(`${line}\n`),
        );
        const counts = await statusCounts(pool, scope);
        out(
          `replayed ${result.events} events (stream seq ${result.firstSeq ?? '-'}..${result.lastSeq ?? '-'}) ` +
            `onto ${result.reset.report} reports and ${result.reset.attachment} attachments in ${Math.round(performance.now() - started)} ms: ` +
            `${result.applied} applied, ${result.missing} of deleted targets, ${result.unreadable} unreadable`,
        );
        out(
          `status now: ${
            Object.entries(counts)
              .sort()
              .map(([s, n]) => `${s}=${n}`)
              .join(' ') || 'no targets'
          }`,
        );
        return 0;
      }
      case 'pipeline': {
        pool = createPool(config.DATABASE_URL, 2);
        const hours = Number(values.window);
        if (!Number.isFinite(hours) || hours <= 0) throw new Error('--window: a number of hours');
        const rows = await pipelineView(nats, pool, hours);
        if (values.json) out(JSON.stringify(rows));
        else for (const line of formatPipeline(rows, hours)) out(line);
        return 0;
      }
      case 'verify': {
        pool = createPool(config.DATABASE_URL, 2);
        const result = await verifyOutputs(nats, pool, {
          tenant: values.tenant,
          report: values.report,
        });
        if (values.json) out(JSON.stringify(result));
        else for (const line of formatVerify(result)) out(line);
        return result.disagreements.length > 0 ? 1 : 0;
      }
      default:
        process.stderr.write(`unknown command ${command}\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await nats?.nc.drain().catch(() => undefined);
    await pool?.end().catch(() => undefined);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`events: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
