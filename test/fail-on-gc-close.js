// Preloaded into every test process by run-all.js (NODE_OPTIONS=--require): a FileHandle that was never
// closed and got closed by the garbage collector ("Closing file descriptor N on garbage collection") is
// a leak, so the test process fails. A forced GC before exit makes such a leak show up even in a short
// test that never filled the heap.
'use strict';
const v8 = require('node:v8');
const vm = require('node:vm');

const GC_CLOSE = /Closing file descriptor \d+ on garbage collection|closed on garbage collection/i;
let leaks = 0;
process.on('warning', (warning) => {
  if (!GC_CLOSE.test(String(warning && warning.message))) return;
  leaks++;
  process.exitCode = 1;
  process.stderr.write(`\nrun-all: a FileHandle was closed by garbage collection (a leak; close it explicitly): ${warning.stack || warning.message}\n`);
});
let collected = false;
process.on('beforeExit', () => {
  if (collected) return;
  collected = true;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  gc();
  // Give the close-on-GC warnings (emitted from the next ticks) a chance to arrive before exiting.
  setTimeout(() => {
    gc();
    setTimeout(() => {
      if (leaks > 0) process.exitCode = 1;
    }, 20);
  }, 20);
});
