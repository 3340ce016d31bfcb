/**
 * A real S3-protocol server for tests and benchmarks: s3rver in its own process on loopback
 * (s3-server-main.ts), its objects in a temporary directory. Put the fault proxy (fault-proxy.ts) in front
 * of it to add latency and errors.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { killOnExit } from './child-reaper';

export interface S3Server {
  /** `http://127.0.0.1:<port>` (path-style addressing). */
  readonly endpoint: string;
  readonly port: number;
  readonly bucket: string;
  /** s3rver's fixed credentials. */
  readonly accessKey: string;
  readonly secretKey: string;
  readonly dir: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startS3Server(options: { bucket?: string; dir?: string } = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'galene';
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'galene-s3-'));
  const child = spawn(process.execPath, [path.join(__dirname, 's3-server-main.js'), dir, bucket], { stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start in 20 s: ${stderr}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}: ${stderr}`)));
    readline.createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    bucket,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    dir,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
