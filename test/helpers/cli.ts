/** Command-line clients for tests: run a command and collect its output; curl an HTTP endpoint. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';

export function run(command: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { timeout: 30_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

/** `curl -s [-u auth] url` -> HTTP status and body. */
export async function curl(url: string, auth: string | null): Promise<{ status: number; body: string }> {
  const out = await run('curl', ['-sS', ...(auth === null ? [] : ['-u', auth]), '-w', '\n%{http_code}', url]);
  assert.equal(out.code, 0, out.stderr);
  const cut = out.stdout.lastIndexOf('\n');
  return { status: Number(out.stdout.slice(cut + 1)), body: out.stdout.slice(0, cut) };
}
