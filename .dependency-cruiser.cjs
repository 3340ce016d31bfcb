// The import-graph check `npm test` runs (`depcruise src`): DESIGN §6's layer order between the folders
// of src/ and no import cycle between files, type-only imports included. The same table as /shared/hooks/layers.mjs's ALLOWED;
// change both together. test/layers/import-graph.test.ts proves a violation fails the check.
'use strict';

/** Which top-level folders of src/ each folder may import (besides itself). DESIGN §6, exactly. */
const ALLOWED = {
  cli: '*',
  fe: ['sql', 'be', 'exec', 'load', 'storage', 'io', 'meta', 'protocol', 'web', 'common'],
  sql: ['exec', 'meta', 'common'],
  be: ['exec', 'load', 'storage', 'io', 'meta', 'common'],
  load: ['exec', 'storage', 'io', 'meta', 'common'],
  exec: ['storage', 'io', 'meta', 'common'],
  storage: ['io', 'meta', 'common'],
  protocol: ['common'],
  web: ['common'],
  io: ['common'],
  meta: ['common'],
  common: [],
};

const FOLDERS = Object.keys(ALLOWED);

const layerRules = FOLDERS.filter((folder) => ALLOWED[folder] !== '*').map((folder) => {
  const forbidden = FOLDERS.filter((other) => other !== folder && !ALLOWED[folder].includes(other));
  const from = { path: `^src/${folder}/` };
  return {
    name: `layer-${folder}`,
    comment: `DESIGN §6: src/${folder} may import only ${ALLOWED[folder].length ? ALLOWED[folder].map((f) => `src/${f}`).join(', ') : 'nothing outside itself'}`,
    severity: 'error',
    from,
    to: { path: `^src/(${forbidden.join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'folder-not-in-design',
      comment: 'every folder of src/ has a place in DESIGN §6 (add it there, to ALLOWED here and to layers.mjs)',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${FOLDERS.join('|')})/` },
      to: {},
    },
    {
      name: 'no-cycle',
      comment:
        'an import cycle between files: at run time it works only by function hoisting and breaks on reordering; ' +
        'through `import type` it is a seam not cut (move the shared types to a leaf file both sides import)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
