/**
 * Starts `galene fe` and `galene be` as real processes (bin/galene.js) on free ports, for cluster tests.
 * Each waits for the process's ready line; a BE also collects its `registered` lines. Every child is
 * reaped when the test file's process exits (child-reaper.ts); `kill('SIGKILL')` simulates a crash.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { killOnExit } from './child-reaper';
import { PROJECT_ROOT } from './galene-process';

export interface RoleProcess {
  readonly child: ChildProcess;
  /** The ready line's fields (the ports). */
  readonly ready: Record<string, number | string>;
  /** backend ids of the `registered` lines so far (BE only). */
  readonly registrations: number[];
  stderr(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

async function startRole(args: string[], cwd: string): Promise<RoleProcess> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'galene.js'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  killOnExit(child);
  let stderrText = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderrText += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const registrations: number[] = [];
  const ready = await new Promise<Record<string, number | string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`galene ${args[0]} did not start in 30 s: ${stderrText}`)), 30_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      let event: Record<string, number | string>;
      try {
        event = JSON.parse(line) as Record<string, number | string>;
      } catch {
        return;
      }
      if (event['event'] === 'registered') registrations.push(Number(event['backend_id']));
      if (event['event'] === 'ready') {
        clearTimeout(timer);
        resolve(event);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`galene ${args[0]} exited with ${code} before ready: ${stderrText}`));
    });
  });
  return {
    child,
    ready,
    registrations,
    stderr: () => stderrText,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** An FE on free ports; `ports` pins them (a restart on the same ports). */
export function startFrontend(dataDir: string, extra: string[] = [], ports?: { query_port: number; http_port: number; rpc_port: number }): Promise<RoleProcess> {
  const p = ports ?? { query_port: 0, http_port: 0, rpc_port: 0 };
  return startRole(['fe', '--query_port', String(p.query_port), '--http_port', String(p.http_port), '--rpc_port', String(p.rpc_port), '--webserver_port', '0', '--brpc_port', '0', '--data_dir', dataDir, ...extra], dataDir);
}

/** A BE on free ports registering with the FE at `fe` (its rpc_port) in `group`. */
export function startBackend(dataDir: string, fe: string | null, group: string, extra: string[] = []): Promise<RoleProcess> {
  return startRole(['be', ...(fe !== null ? ['--fe', fe] : []), '--compute_group', group, '--heartbeat_service_port', '0', '--brpc_port', '0', '--webserver_port', '0', '--data_dir', dataDir, ...extra], dataDir);
}

/** Poll `check` every 50 ms until it returns a value other than undefined, or fail after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
