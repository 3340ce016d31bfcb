// A SIGKILL at any moment of an ANN index build leaves no index file visible: before the library has
// written anything, while its temporary file exists, and (control) after a finished build the file is
// whole and opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalObjectStore, TEMP_MARKER } from '../../src/io/local-object-store';
import { AnnIndexReader } from '../../src/storage/ann';

const CHILD = path.join(__dirname, 'build-child.js');

/** Run the child building `rows` vectors into `key`; `killWhen` decides, polled every 2 ms after "building", when to SIGKILL it. */
async function runChild(root: string, key: string, rows: number, killWhen: ((dir: string) => boolean) | null): Promise<{ killed: boolean; output: string }> {
  const target = path.join(root, key);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const child = spawn(process.execPath, [CHILD, target, String(rows)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  let poll: NodeJS.Timeout | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (killWhen && output.includes('building') && !poll) {
      poll = setInterval(() => {
        if (killWhen(path.dirname(target))) child.kill('SIGKILL');
      }, 2);
    }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  if (poll) clearInterval(poll);
  if (signal === null) assert.equal(code, 0, output);
  return { killed: signal === 'SIGKILL', output };
}

const hasTemp = (dir: string): boolean => fs.readdirSync(dir).some((name) => name.includes(TEMP_MARKER));

test('SIGKILL during an ANN build leaves no visible index file; a rebuild after it succeeds', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-ann-kill-'));
  const store = new LocalObjectStore(root);
  const key = 'data/10001/r1_0.idx_emb.idx';
  const rows = 60_000;

  // 1. killed while the graph is being built (nothing written yet)
  const started = Date.now();
  const early = await runChild(root, key, rows, () => Date.now() - started > 1500);
  assert.ok(early.killed && !early.output.includes('done'), 'the child was killed mid-build');
  assert.deepEqual(await store.list('data/'), []);
  assert.equal(fs.existsSync(path.join(root, key)), false);

  // 2. killed while the library's temporary file exists (between save and rename)
  const late = await runChild(root, key, rows, hasTemp);
  t.diagnostic(`killed while the temporary file existed: ${late.killed}`);
  assert.equal(fs.existsSync(path.join(root, key)), late.killed ? false : true, late.killed ? 'killed with a temporary file: nothing visible' : 'finished before the kill');
  if (late.killed) assert.deepEqual(await store.list('data/'), []);
  assert.ok((await store.removeTempFiles()) >= 0);
  assert.equal(hasTemp(path.join(root, 'data/10001')), false, 'temporary files are swept');

  // 3. a build that finishes leaves one whole, readable file
  const done = await runChild(root, key, 5_000, null);
  assert.ok(!done.killed && done.output.includes('done'));
  assert.deepEqual(await store.list('data/'), [key]);
  const reader = await AnnIndexReader.openFile(path.join(root, key), { verify: true });
  assert.equal(reader.header.vectorCount, 5_000);
  reader.close();
  store.close();
});
