// The import-graph check `npm test` runs (`depcruise src`, configured by .dependency-cruiser.cjs) must fail
// on an upward import between the folders of src/ and on any import cycle between files (a type-only one
// too), and must let downward imports through. Each case cruises a tiny fixture tree with the project's config.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/galene-process';

const DEPCRUISE = path.join(PROJECT_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = path.join(PROJECT_ROOT, '.dependency-cruiser.cjs');

/** Writes `files` (path under the fixture root -> text) and runs depcruise on its src/; exit code and output. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-depcruise-'));
  try {
    fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true } }));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), text);
    }
    const result = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG], { cwd: root, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('an import that points up a layer fails the check (common -> sql)', () => {
  const { status, output } = cruise({
    'src/common/types.ts': "import { parse } from '../sql/parser';\nexport const parsed = parse();\n",
    'src/sql/parser.ts': 'export function parse(): number { return 1; }\n',
  });
  assert.notEqual(status, 0, output);
  assert.match(output, /layer-common/);
});

test('a sideways import between folders the table does not connect fails (storage -> exec)', () => {
  const { status, output } = cruise({
    'src/storage/segment.ts': "import type { Batch } from '../exec/batch';\nexport type Page = Batch;\n",
    'src/exec/batch.ts': 'export interface Batch { rows: number }\n',
  });
  assert.notEqual(status, 0, output);
  assert.match(output, /layer-storage/);
});

test('a runtime import cycle between files fails the check', () => {
  const { status, output } = cruise({
    'src/exec/a.ts': "import { b } from './b';\nexport function a(): number { return b() + 1; }\n",
    'src/exec/b.ts': "import { a } from './a';\nexport function b(): number { return a() - 1; }\n",
  });
  assert.notEqual(status, 0, output);
  assert.match(output, /no-cycle/);
});

test('a cycle closed by a type-only import fails the check', () => {
  const { status, output } = cruise({
    'src/exec/a.ts': "import { b } from './b';\nexport interface A { n: number }\nexport const a = b + 1;\n",
    'src/exec/b.ts': "import type { A } from './a';\nexport const b = 1;\nexport type B = A;\n",
  });
  assert.notEqual(status, 0, output);
  assert.match(output, /no-cycle/);
});

test('downward imports and type-only imports without a cycle pass', () => {
  const { status, output } = cruise({
    'src/exec/a.ts': "import { b } from './b';\nexport interface A { n: number }\nexport const a = b + 1;\n",
    'src/exec/b.ts': "import type { Shared } from './shared';\nexport const b = 1;\nexport type B = Shared;\n",
    'src/exec/shared.ts': 'export interface Shared { n: number }\n',
    'src/sql/binder.ts': "import { a } from '../exec/a';\nimport type { A } from '../exec/a';\nexport const bound: A = { n: a };\n",
  });
  assert.equal(status, 0, output);
});

test('a folder that DESIGN §6 does not name fails the check', () => {
  const { status, output } = cruise({
    'src/extra/thing.ts': "import { x } from '../common/x';\nexport const thing = x;\n",
    'src/common/x.ts': 'export const x = 1;\n',
  });
  assert.notEqual(status, 0, output);
  assert.match(output, /folder-not-in-design/);
});
