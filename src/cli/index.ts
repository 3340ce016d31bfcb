/**
 * cli/: the `galene` command (bin/galene.js calls main): `start` (one FE and one BE in one process),
 * `fe` / `be` roles, `config-docs` / `functions-docs` (the generated references) and bench helpers. The top
 * of the layer order (DESIGN §6): it may import any folder of src/; nothing imports it.
 */
export { main } from './main';
export { configurationMarkdown, functionsMarkdown } from './config-docs';
