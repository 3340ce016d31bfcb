#!/usr/bin/env node
// Runs the whole suite on the compiled tree (npm test compiles first): every dist/test/**/*.test.js,
// two files at a time (the machine has 2 cores). Pass paths to run a subset: node test/run-all.js protocol
// --test-force-exit: a file whose tests are done exits even if a failed test left a server or a socket open
// (test/helpers/child-reaper.ts kills the servers it started). Every test process preloads fail-on-gc-close.js: a FileHandle closed by garbage collection fails it.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', 'dist', 'test');
const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.test.js')) files.push(full);
  }
})(root);
const selected = files.filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter))).sort();
if (selected.length === 0) {
  console.error('no test files found under', root);
  process.exit(1);
}
const preload = `--require ${JSON.stringify(path.join(__dirname, 'fail-on-gc-close.js'))}`;
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' ') };
const result = spawnSync(process.execPath, ['--test', '--test-force-exit', '--test-concurrency=2', '--test-reporter=spec', ...selected], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
