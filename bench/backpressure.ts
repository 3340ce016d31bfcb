/**
 * Load backpressure (seed 002, apache/doris #66847): Stream Load throughput and server memory with the old
 * policy (writers wait while memtable flushes — flush + upload — reach memtable_flush_running_count_limit,
 * 4 as in the PR's baseline) against the new one (loads into a remote store wait only while the upload
 * pool's queue is above its busy threshold), with the BE's data in S3 (s3rver in its own process) behind
 * the fault proxy's simulated request latency:
 *   - upload-bound: every request waits ~4 s (p50; p99 6 s: slow enough that the uploads, not this 2-core
 *     machine's CSV parsing, are the bottleneck of the old policy), flushes are cheap — the PR's workload;
 *   - flush-bound: no added latency — what the PR warns about (more queued memtables, no gain).
 * Each with the table's row binlog off and on ("binlog.enable": a change-log memtable per tablet, flushed
 * with the data memtable as one GROUP request).
 * Prints MiB/s of CSV loaded, the ratio new/old, steady (median of samples) and peak RSS of the server
 * process, the load memory peak against its hard limit, the time writers waited and the uploads made.
 *
 *   npm run bench -- backpressure [--quick] [--json FILE]
 *
 * The peer is the old policy, measured in the same run on the same machine and data.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { FaultProxy, type FaultSettings } from '../test/helpers/fault-proxy';
import { startGalene, type GaleneProcess } from '../test/helpers/galene-process';
import { connect } from '../test/helpers/mysql-client';
import { startS3Server } from '../test/helpers/s3-server';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { logRecords, makeBodies, streamLoad } from './streamload';

const MIB = 1024 * 1024;
/** The server's memory settings: load memory hard limit = 50% of mem_limit. */
const MEM_LIMIT_MIB = 1536;
const LOAD_LIMIT_PERCENT = 50;
const WRITE_BUFFER_BYTES = MIB / 4;
const CLIENTS = 2;
const BUCKETS = 1;

interface Scenario {
  readonly name: string;
  readonly faults: FaultSettings;
}

interface Policy {
  readonly name: string;
  readonly args: readonly string[];
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'upload-bound', faults: { latency: { p50Ms: 4000, p99Ms: 6000 }, seed: 2 } },
  { name: 'flush-bound', faults: {} },
];

const POLICIES: readonly Policy[] = [
  { name: 'old: flush count (limit 4)', args: ['--enable_s3_upload_queue_backpressure', 'false', '--memtable_flush_running_count_limit', '4'] },
  { name: 'new: upload queue (> 100)', args: ['--enable_s3_upload_queue_backpressure', 'true'] },
];

function vmRssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** The BE's /metrics as name{labels} -> value. */
function scrape(port: number): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const values = new Map<string, number>();
          for (const line of text.split('\n')) {
            const match = /^([a-z0-9_]+(?:\{[^}]*\})?) ([0-9.e+-]+)$/.exec(line);
            if (match) values.set(match[1], Number(match[2]));
          }
          resolve(values);
        });
      })
      .on('error', reject);
  });
}

async function runOne(scenario: Scenario, binlog: boolean, policy: Policy, proxy: FaultProxy, s3: { bucket: string; accessKey: string; secretKey: string }, bodies: readonly Buffer[], workDir: string, runIdx: number): Promise<Row> {
  proxy.configure(scenario.faults);
  const s3Options = { endpoint: proxy.endpoint, region: 'us-east-1', bucket: s3.bucket, rootPath: `run${runIdx}`, accessKey: s3.accessKey, secretKey: s3.secretKey, usePathStyle: true, maxSockets: 256 };
  const server: GaleneProcess = await startGalene({
    dataDir: path.join(workDir, `galene-${runIdx}`),
    script: path.join(__dirname, 'lib', 'galene-over-s3.js'),
    env: { GALENE_BENCH_S3: JSON.stringify(s3Options) },
    args: ['--disable_auto_compaction', 'true', '--mem_limit', `${MEM_LIMIT_MIB}m`, '--load_process_max_memory_limit_percent', String(LOAD_LIMIT_PERCENT), '--write_buffer_size', String(WRITE_BUFFER_BYTES), ...policy.args],
  });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE bp');
    await conn.query(`CREATE TABLE bp.logs (timestamp DATETIME, clientip VARCHAR(20), request VARCHAR(200), status INT, size INT) DUPLICATE KEY(timestamp) DISTRIBUTED BY HASH(clientip) BUCKETS ${BUCKETS}${binlog ? ' PROPERTIES ("binlog.enable" = "true")' : ''}`);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(vmRssMiB(server.child.pid!)), 250);
    let next = 0;
    let failures = 0;
    let firstError = '';
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < bodies.length) {
          const result = await streamLoad(server.ports.webserver_port, 'bp', 'logs', bodies[next++], 'csv');
          if (result.Status !== 'Success') {
            failures++;
            firstError ||= result.Message ?? result.Status;
          }
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const metrics = await scrape(server.ports.webserver_port);
    const loadedMiB = bodies.reduce((sum, body) => sum + body.length, 0) / MIB;
    const steady = [...samples.slice(Math.floor(samples.length / 2))].sort((a, b) => a - b);
    conn.destroy();
    return {
      workload: scenario.name,
      'row binlog': binlog ? 'on' : 'off',
      policy: policy.name,
      'MiB/s': loadedMiB / seconds,
      'steady RSS MiB': Math.round(steady[steady.length >> 1] ?? NaN),
      'peak RSS MiB': peakRssMiB(server.child.pid!),
      'load mem peak MiB': Math.round((metrics.get('doris_be_memtable_memory_peak_bytes') ?? NaN) / MIB),
      'load limit MiB': Math.round((metrics.get('doris_be_load_memory_limit_bytes{type="hard"}') ?? NaN) / MIB),
      'wait s': (metrics.get('doris_be_load_wait_flush_limit_time_us') ?? 0) / 1e6,
      uploads: metrics.get('doris_be_s3_file_upload_total') ?? 0,
      failed: failures === 0 ? '0' : `${failures}: ${firstError.slice(0, 60)}`,
    };
  } finally {
    await server.stop();
  }
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const totalMiB = options.quick ? 16 : 64;
  const bodyBytes = 4 * MIB;
  // One set of request bodies (~4 MiB of tab-separated httplogs-like rows each), reused by every run.
  const template = makeBodies([...logRecords(Math.ceil((bodyBytes / 95) * 1.05))], 'csv', bodyBytes, 1).bodies[0];
  const bodies = Array.from({ length: Math.ceil((totalMiB * MIB) / template.length) }, () => template);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-backpressure-'));
  const s3 = await startS3Server({ dir: path.join(workDir, 's3') });
  const proxy = await FaultProxy.start({ host: '127.0.0.1', port: s3.port });
  const rows: Row[] = [];
  try {
    let runIdx = 0;
    for (const scenario of SCENARIOS) {
      // Row binlog on: every load also writes a change-log memtable per tablet, flushed with the data
      // memtable as one GROUP request (the old policy's limit doubles for it, as in the seed).
      for (const binlog of [false, true]) {
        const base = rows.length;
        for (const policy of POLICIES) {
          const row = await runOne(scenario, binlog, policy, proxy, s3, bodies, workDir, runIdx++);
          rows.push(row);
          console.error(JSON.stringify(row));
        }
        const old = rows[base]['MiB/s'] as number;
        for (let rowIdx = base; rowIdx < rows.length; rowIdx++) rows[rowIdx] = { ...rows[rowIdx], 'x old': (rows[rowIdx]['MiB/s'] as number) / old };
      }
    }
  } finally {
    await proxy.close();
    await s3.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  report(`Load backpressure over S3 (${(bodies.length * template.length) / MIB | 0} MiB CSV per run, ${CLIENTS} clients, ${BUCKETS} buckets, write_buffer_size ${WRITE_BUFFER_BYTES / 1024} KiB, mem_limit ${MEM_LIMIT_MIB} MiB, load limit ${LOAD_LIMIT_PERCENT}%; ${os.cpus().length} cores)`, rows, options);
}
