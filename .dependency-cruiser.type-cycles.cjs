// Lists the import cycles that close only through type-only imports (harmless at run time, erased by tsc,
// but each one is a seam still to cut): `npx depcruise src --config .dependency-cruiser.type-cycles.cjs`.
// Informational, not part of `npm test`; the runtime-cycle and layer rules live in .dependency-cruiser.cjs.
'use strict';

module.exports = {
  extends: './.dependency-cruiser.cjs',
  forbidden: [
    {
      name: 'type-only-cycle',
      comment: 'a cycle that closes only through type-only imports (runtime cycles are errors in the main config)',
      severity: 'info',
      from: {},
      to: { circular: true },
    },
  ],
};
