import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { configurationMarkdown, functionsMarkdown } from '../../src/cli/config-docs';
import { PROJECT_ROOT } from '../helpers/galene-process';

test('docs/configuration.md is generated from the registries and up to date', () => {
  const onDisk = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'configuration.md'), 'utf8');
  assert.equal(onDisk, configurationMarkdown(), 'run: node bin/galene.js config-docs > docs/configuration.md');
});

test('docs/functions.md is generated from the function registry and up to date', () => {
  const onDisk = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'functions.md'), 'utf8');
  assert.equal(onDisk, functionsMarkdown(), 'run: node bin/galene.js functions-docs > docs/functions.md');
});
