/**
 * Peer Read, experiment 1 of seed 000 (issue 16) on real processes: s3rver behind the fault proxy with
 * anchors.md's small-GET latency (lognormal p50 25 ms / p99 150 ms) and 100 MB/s per stream; 1 `galene fe`,
 * 1 `galene be` in g_write and 1 in g_read, a merge-on-write UNIQUE KEY table in the S3 vault with one
 * primary-key lookup key per tablet (keys chosen by the bucket hash, so every lookup reads another tablet).
 *
 * The write group runs the lookups first (its BE cache is then warm: loads run on the FE's own BE, so the
 * write group's cache is warmed by reading, not by ingesting as in Doris). Then the read group's BE is
 * restarted with `--clear_file_cache true` (empty cache, no candidates) before each cold run:
 *   - Peer Read off: every miss reads object storage (the peer of this benchmark: Doris without Peer Read);
 *   - Peer Read on, race (default) and sequential: misses ask the write BE, the FE naming it lazily;
 *   - warm: the same lookups again, local hits (the reference).
 * Per run: average / p99 latency, object-store requests and bytes (the fault proxy's counts) and the read
 * BE's doris_be_* peer metrics. Fault runs (experiment 3, smaller), Peer Read on, every answer checked:
 *   - slow peer: the write BE behind a TCP proxy adding 300 ms, set as manual candidate (/api/peer_cache);
 *   - out-of-range answers: a PeerService in this process answering other ranges / lengths, as candidate;
 *   - the write BE SIGKILLed halfway through the lookups.
 *
 *   npm run bench -- peerread [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mysql from 'mysql2/promise';
import { computeBuckets } from '../src/common/bucket-hash';
import { vectorFromRaw } from '../src/common/column';
import { Types } from '../src/common/types';
import { peerService, type PeerFetchResponse } from '../src/io/peer/peer-protocol';
import { RpcServer } from '../src/io/rpc';
import { startBackend, startFrontend, waitFor, type RoleProcess } from '../test/helpers/cluster-process';
import { startS3BehindProxy } from '../test/helpers/s3-behind-proxy';
import { TcpFaultProxy } from '../test/helpers/tcp-fault-proxy';
import { parseBenchArgs, report, type Row } from './lib/report';
import { streamLoad } from './streamload';

const HEARTBEAT = ['--heartbeat_interval_ms', '200', '--max_backend_heartbeat_failure_times', '15'];
/** anchors.md: small GETs p50 ~25 ms, p99 ~150 ms; size / 100 MB/s per stream. */
const S3_LATENCY = { latency: { p50Ms: 25, p99Ms: 150 }, bytesPerSecond: 100_000_000, seed: 7 };
const PEER_METRICS = ['cached_remote_reader_peer_read', 'cached_remote_reader_s3_read', 'peer_race_peer_win', 'peer_race_s3_win', 'peer_cross_compute_group_read', 'peer_lazy_fetch_triggered', 'peer_cache_reader_peer_latency'] as const;
const SLOW_PEER_MS = 300;

/** Row `k` as the table holds it (deterministic): k, v, name, pad. */
function rowOf(k: number): [string, string, string, string] {
  const pad = `r${k}-`.repeat(40).slice(0, 160);
  return [String(k), String((k * 7919) % 1_000_003), `n${k % 97}`, pad];
}

async function metrics(be: RoleProcess): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${be.ready['webserver_port']}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^doris_be_(\w+) (\S+)$/.exec(line);
    if (match !== null) out.set(match[1]!, Number(match[2]));
  }
  return out;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

/** The smallest key of each bucket among 1..rows (by the table's bucket hash): one lookup per tablet. */
function keyPerBucket(rows: number, buckets: number): number[] {
  const keys = Array.from({ length: rows }, (_, idx) => BigInt(idx + 1));
  const bucketOf = computeBuckets([vectorFromRaw(Types.BIGINT, keys)], rows, buckets);
  const first = new Map<number, number>();
  for (let idx = 0; idx < rows; idx++) if (!first.has(bucketOf[idx]!)) first.set(bucketOf[idx]!, idx + 1);
  return [...first.entries()].sort((a, b) => a[0] - b[0]).map(([, key]) => key);
}

interface RunResult {
  readonly times: number[];
  readonly failed: number;
  readonly requests: number;
  readonly bytes: number;
  readonly reader: Map<string, number>;
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const buckets = options.quick ? 20 : 100;
  const rowCount = options.quick ? 20_000 : 200_000;
  const loads = options.quick ? 2 : 4;
  const faultLookups = options.quick ? 10 : 30;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-peerread-'));
  const dir = (name: string): string => {
    const full = path.join(workDir, name);
    fs.mkdirSync(full, { recursive: true });
    return full;
  };
  const s3 = await startS3BehindProxy();
  const proxy = s3.proxy;
  const children: RoleProcess[] = [];
  let conn: mysql.Connection | null = null;
  let slowProxy: TcpFaultProxy | null = null;
  let liar: RpcServer | null = null;
  try {
    const fe = await startFrontend(dir('fe'), HEARTBEAT);
    children.push(fe);
    const feEndpoint = `127.0.0.1:${fe.ready['rpc_port']}`;
    let writer = await startBackend(dir('be_w'), feEndpoint, 'g_write', ['--enable_cache_read_from_peer', 'true']);
    children.push(writer);
    let reader: RoleProcess | null = null;
    conn = await mysql.createConnection({ host: '127.0.0.1', port: Number(fe.ready['query_port']), user: 'root', password: '' });
    const sql = conn;
    const records = async (text: string): Promise<Record<string, string>[]> => (await sql.query(text))[0] as Record<string, string>[];
    /** Start (or restart, cache cleared) the read BE with `flags`, and wait until the FE sees it alive on its new ports. */
    const startReader = async (flags: string[]): Promise<RoleProcess> => {
      if (reader !== null) await reader.kill('SIGKILL');
      reader = await startBackend(dir('be_r'), feEndpoint, 'g_read', ['--clear_file_cache', 'true', ...flags]);
      children.push(reader);
      const port = String(reader.ready['heartbeat_service_port']);
      await waitFor('the read BE alive', async () => ((await records('SHOW BACKENDS')).some((row) => String(row['HeartbeatPort']) === port && String(row['Alive']) === 'true') ? true : undefined));
      return reader;
    };
    const startWriter = async (): Promise<void> => {
      writer = await startBackend(dir('be_w'), feEndpoint, 'g_write', ['--enable_cache_read_from_peer', 'true']);
      children.push(writer);
      const port = String(writer.ready['heartbeat_service_port']);
      await waitFor('the write BE alive', async () => ((await records('SHOW BACKENDS')).some((row) => String(row['HeartbeatPort']) === port && String(row['Alive']) === 'true') ? true : undefined));
    };
    await startReader(['--enable_cache_read_from_peer', 'false']);
    await waitFor('both BEs alive', async () => ((await records('SHOW BACKENDS')).filter((row) => String(row['Alive']) === 'true').length === 2 ? true : undefined));

    await s3.createVault(sql, 'pb_vault', 'peerread');
    await sql.query('CREATE DATABASE pb');
    await sql.query(`CREATE TABLE pb.t (k BIGINT, v BIGINT, name VARCHAR(32), pad VARCHAR(200)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS ${buckets} PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true", "storage_vault_name" = "pb_vault")`);
    const perLoad = Math.ceil(rowCount / loads);
    for (let load = 0; load < loads; load++) {
      const lines: string[] = [];
      for (let k = load * perLoad + 1; k <= Math.min(rowCount, (load + 1) * perLoad); k++) lines.push(rowOf(k).join('\t'));
      const result = await streamLoad(Number(fe.ready['webserver_port']), 'pb', 't', Buffer.from(lines.join('\n') + '\n'), 'csv');
      if (result.Status !== 'Success') throw new Error(`stream load: ${result.Message ?? result.Status}`);
    }
    const keys = keyPerBucket(rowCount, buckets);
    const tablets = (await records('SHOW TABLETS FROM pb.t')).map((row) => Number(row['TabletId']));
    proxy.configure(S3_LATENCY);

    /** The lookups in `group`, sequentially, each answer checked; `during(idx)` runs before lookup idx. */
    const lookups = async (group: string, which: readonly number[], during?: (idx: number) => Promise<void>): Promise<RunResult> => {
      const lookupConn = await mysql.createConnection({ host: '127.0.0.1', port: Number(fe.ready['query_port']), user: 'root', password: '' });
      const metricsBefore = reader === null ? new Map<string, number>() : await metrics(reader);
      const requestsBefore = proxy.stats.requests;
      const bytesBefore = proxy.stats.bytes;
      const times: number[] = [];
      let failed = 0;
      try {
        await lookupConn.query(`USE @${group}`);
        for (let idx = 0; idx < which.length; idx++) {
          await during?.(idx);
          const key = which[idx]!;
          const start = performance.now();
          try {
            const [rows] = await lookupConn.query({ sql: `SELECT k, v, name, pad FROM pb.t WHERE k = ${key}`, rowsAsArray: true });
            times.push(performance.now() - start);
            const got = (rows as unknown[][]).map((row) => row.map(String));
            if (JSON.stringify(got) !== JSON.stringify([rowOf(key)])) failed++;
          } catch {
            times.push(performance.now() - start);
            failed++;
          }
        }
      } finally {
        await lookupConn.end();
      }
      const requests = proxy.stats.requests - requestsBefore;
      const bytes = proxy.stats.bytes - bytesBefore;
      // The read BE's counters of this run (a killed-and-restarted BE starts from 0).
      const metricsAfter = reader === null ? new Map<string, number>() : await metrics(reader);
      const delta = new Map([...metricsAfter].map(([name, value]) => [name, value - (metricsBefore.get(name) ?? 0)] as [string, number]));
      return { times, failed, requests, bytes, reader: delta };
    };
    const rowOfRun = (run: string, result: RunResult, base?: RunResult): Row => {
      const sorted = [...result.times].sort((a, b) => a - b);
      const avg = sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length);
      const baseAvg = base === undefined ? NaN : base.times.reduce((sum, ms) => sum + ms, 0) / base.times.length;
      const perLookup = (of: RunResult): number => of.requests / Math.max(1, of.times.length);
      const row: Row = {
        run,
        lookups: sorted.length,
        failed: result.failed,
        avg_ms: avg,
        p99_ms: percentile(sorted, 0.99),
        s3_requests: result.requests,
        s3_kib: Math.round(result.bytes / 1024),
        // Per lookup, so the fault runs (fewer lookups) compare too.
        vs_off: base === undefined || base === result ? '' : `${(baseAvg / avg).toFixed(2)}x faster, ${(100 * (1 - perLookup(result) / Math.max(1e-9, perLookup(base)))).toFixed(1)}% fewer requests`,
      };
      for (const name of PEER_METRICS) row[name] = result.reader.get(name) ?? 0;
      return row;
    };

    /** Manual candidates (/api/peer_cache op=set) for every tablet: the BE at `port` only. */
    const setCandidates = async (port: number): Promise<void> => {
      for (const tabletId of tablets) {
        const response = await fetch(`http://127.0.0.1:${reader!.ready['webserver_port']}/api/peer_cache?op=set&tablet_id=${tabletId}`, { method: 'POST', body: JSON.stringify([{ host: '127.0.0.1', brpc_port: port, compute_group_id: 'g_write' }]) });
        if (response.status !== 200) throw new Error(`op=set: ${await response.text()}`);
      }
    };

    // The write group's BE reads the lookups' blocks (its cache warm, as after ingest in Doris).
    const writeGroup = await lookups('g_write', keys);
    const off = await lookups('g_read', keys);
    await startReader(['--enable_cache_read_from_peer', 'true']);
    const race = await lookups('g_read', keys);
    const warm = await lookups('g_read', keys);
    await startReader(['--enable_cache_read_from_peer', 'true', '--enable_peer_s3_race', 'false']);
    const sequential = await lookups('g_read', keys);
    // Candidates known before the first miss (the FE's answer of an earlier query; here op=set): no storage read to learn them.
    await startReader(['--enable_cache_read_from_peer', 'true']);
    await setCandidates(Number(writer.ready['brpc_port']));
    const known = await lookups('g_read', keys);
    const rows = [
      rowOfRun('g_write, cold (warms the peer)', writeGroup),
      rowOfRun('g_read, Peer Read off (peer: storage only)', off, off),
      rowOfRun('g_read, Peer Read on, race', race, off),
      rowOfRun('g_read, Peer Read on, sequential', sequential, off),
      rowOfRun('g_read, Peer Read on, race, candidates known', known, off),
      rowOfRun('g_read, warm (local hits)', warm, off),
    ];

    // Fault runs: manual candidates for every tablet at a bad peer; the FE would name the real one otherwise.
    const faultKeys = keys.slice(0, faultLookups);
    slowProxy = await TcpFaultProxy.start('127.0.0.1', Number(writer.ready['brpc_port']));
    slowProxy.delayMs = SLOW_PEER_MS;
    await startReader(['--enable_cache_read_from_peer', 'true']);
    await setCandidates(slowProxy.port);
    rows.push(rowOfRun(`fault: slow peer (+${SLOW_PEER_MS} ms), race`, await lookups('g_read', faultKeys), off));
    let liarCalls = 0;
    const lies: ((request: { cache_req: { block_offset: number; block_size: number }[] }) => PeerFetchResponse)[] = [
      (request) => ({ status: 'OK', error_msg: '', datas: request.cache_req.map((range) => ({ ...range, data: Buffer.alloc(Math.max(0, range.block_size - 1)) })) }),
      (request) => ({ status: 'OK', error_msg: '', datas: request.cache_req.map((range) => ({ block_offset: range.block_offset + range.block_size, block_size: range.block_size, data: Buffer.alloc(range.block_size) })) }),
    ];
    liar = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [{ service: peerService(), handlers: { FetchPeerData: (request: never) => lies[liarCalls++ % lies.length]!(request) } }] });
    await startReader(['--enable_cache_read_from_peer', 'true', '--enable_peer_s3_race', 'false']);
    await setCandidates(liar.port);
    const liarRun = await lookups('g_read', faultKeys);
    rows.push(rowOfRun(`fault: out-of-range answers (${liarCalls} lies), sequential`, liarRun, off));
    await startReader(['--enable_cache_read_from_peer', 'true']);
    const half = Math.floor(faultKeys.length / 2);
    rows.push(rowOfRun('fault: write BE SIGKILLed halfway, race', await lookups('g_read', faultKeys, async (idx) => {
      if (idx === half) await writer.kill('SIGKILL');
    }), off));
    await startWriter();

    const [load] = os.loadavg();
    const avg = (result: RunResult): number => result.times.reduce((sum, ms) => sum + ms, 0) / result.times.length;
    report(
      `peerread: ${rowCount} rows in ${buckets} tablets (${loads} Stream Loads) of an S3 vault behind p50 25 / p99 150 ms and 100 MB/s; ${keys.length} lookups, one key per bucket by the bucket hash (${race.reader.get('peer_lazy_fetch_triggered') ?? 0} distinct tablets asked of the FE in the race run); load average ${load!.toFixed(2)}. Peer Read race vs off: ${(avg(off) / avg(race)).toFixed(2)}x faster average, ${(100 * (1 - race.requests / Math.max(1, off.requests))).toFixed(1)}% fewer object-store requests`,
      rows,
      options,
    );
  } finally {
    await conn?.end().catch(() => undefined);
    await Promise.all(children.map((child) => child.kill('SIGKILL')));
    await slowProxy?.close();
    await liar?.close(0);
    await s3.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
