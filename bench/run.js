#!/usr/bin/env node
// npm run bench -- NAME [--quick] [--json FILE]: runs bench/NAME.ts (compiled to dist/bench/NAME.js).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const [name, ...args] = process.argv.slice(2);
const available = fs.readdirSync(path.join(__dirname, '..', 'dist', 'bench')).filter((file) => file.endsWith('.js')).map((file) => file.slice(0, -3));
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- NAME [--quick] [--json FILE]\nbenchmarks: ${available.join(', ')}`);
  process.exit(2);
}
require(path.join(__dirname, '..', 'dist', 'bench', name + '.js'))
  .main(args)
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
