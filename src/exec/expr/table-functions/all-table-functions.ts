/** Registers every table-function family once (the registry is filled lazily, like the scalar one). */
import { ARRAY_TABLE_FUNCTIONS } from './array-generators';
import { JSON_TABLE_FUNCTIONS } from './json-generators';
import { SCALAR_TABLE_FUNCTIONS } from './string-generators';
import { lookupTableFunction as lookup, listTableFunctions as list, registerTableFunctions, type TableFunctionDef } from './table-function-registry';

let registered = false;

function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  registerTableFunctions(ARRAY_TABLE_FUNCTIONS);
  registerTableFunctions(SCALAR_TABLE_FUNCTIONS);
  registerTableFunctions(JSON_TABLE_FUNCTIONS);
}

/** A table function by name (case-insensitive), or undefined. */
export function lookupTableFunction(name: string): TableFunctionDef | undefined {
  ensureRegistered();
  return lookup(name);
}

/** Every table function, for SHOW FUNCTIONS and the generated docs. */
export function listTableFunctions(): readonly TableFunctionDef[] {
  ensureRegistered();
  return list();
}
