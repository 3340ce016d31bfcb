#!/usr/bin/env node
'use strict';
// The galene command. The TypeScript sources are compiled to dist/ by `npm install` (the prepare script).
require('../dist/src/cli/main.js').main(process.argv.slice(2));
