/**
 * Starts a real Galene server process (bin/galene.js) on free ports with its own data directory, for
 * integration tests. Waits for the ready line; `kill('SIGKILL')` simulates a crash.
 *
 * The storage matrix (storage-matrix.ts): with GALENE_TEST_STORAGE=s3 every server started here gets,
 * right after start, a default S3 storage vault on the test process's s3rver behind the fault proxy, so
 * every table of the test lives in S3; `storage: 'local'` keeps a server on the local directory.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as mysql from 'mysql2/promise';
import { killOnExit } from './child-reaper';
import { TEST_STORAGE, useTestVault } from './storage-matrix';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface GalenePorts {
  query_port: number;
  http_port: number;
  webserver_port: number;
  brpc_port: number;
}

export interface GaleneProcess {
  readonly ports: GalenePorts;
  readonly dataDir: string;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** Send a signal (SIGKILL to simulate a crash) and wait for exit. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

export function makeDataDir(prefix = 'galene-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Create (if missing) and set the matrix's default S3 vault on a running server. */
async function withTestVault(port: number, dataDir: string): Promise<void> {
  const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: '' });
  try {
    await useTestVault(conn, dataDir);
  } finally {
    await conn.end();
  }
}

/** `script`: another entry point taking the same arguments (bench/lib/galene-over-s3.js); default bin/galene.js. */
export async function startGalene(options: { dataDir?: string; args?: string[]; env?: NodeJS.ProcessEnv; storage?: 'local' | 's3'; script?: string } = {}): Promise<GaleneProcess> {
  const dataDir = options.dataDir ?? makeDataDir();
  fs.mkdirSync(dataDir, { recursive: true });
  const args = [options.script ?? path.join(PROJECT_ROOT, 'bin', 'galene.js'), 'start', '--query_port', '0', '--http_port', '0', '--webserver_port', '0', '--brpc_port', '0', '--data_dir', dataDir, ...(options.args ?? [])];
  const child = spawn(process.execPath, args, { cwd: dataDir, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  let stderrText = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderrText += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = await new Promise<GalenePorts>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`galene did not start in 30 s: ${stderrText}`)), 30_000);
    lines.on('line', (line) => {
      try {
        const event = JSON.parse(line) as { event?: string } & GalenePorts;
        if (event.event === 'ready') {
          clearTimeout(timer);
          resolve({ query_port: event.query_port, http_port: event.http_port, webserver_port: event.webserver_port, brpc_port: event.brpc_port });
        }
      } catch {
        // not a JSON line
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`galene exited with ${code} before ready: ${stderrText}`));
    });
  });
  if ((options.storage ?? TEST_STORAGE) === 's3') {
    try {
      await withTestVault(ports.query_port, dataDir);
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  }
  return {
    ports,
    dataDir,
    child,
    stderr: () => stderrText,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    async kill(signal) {
      child.kill(signal);
      return exited;
    },
  };
}

/**
 * Lines of the server's audit log (`<data_dir>/log/fe.audit.log`) that contain `contains`, once at least
 * `atLeast` are there or 5 s have passed (the log is written asynchronously, within ~100 ms).
 */
export async function auditLines(dataDir: string, contains: string, atLeast: number): Promise<string[]> {
  const file = path.join(dataDir, 'log', 'fe.audit.log');
  const deadline = Date.now() + 5000;
  for (;;) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.includes(contains)) : [];
    if (lines.length >= atLeast || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Index files (`*.idx`) under a directory, full paths, sorted. */
export function indexFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.idx')) out.push(full);
    }
  };
  walk(dir);
  return out.sort();
}

/** Change a mutable BE setting at run time through the BE's /api/update_config (as root); its JSON answer. */
export async function updateBackendConfig(webserverPort: number, query: string): Promise<{ status: string; msg: string }> {
  const response = await fetch(`http://127.0.0.1:${webserverPort}/api/update_config?${query}`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('root:').toString('base64')}` } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`update_config ${query} answered ${response.status}: ${body}`);
  return JSON.parse(body) as { status: string; msg: string };
}
