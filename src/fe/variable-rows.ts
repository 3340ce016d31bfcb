/**
 * The session-variable listing SHOW VARIABLES and information_schema.SESSION_VARIABLES /
 * GLOBAL_VARIABLES share: every registered variable with its live value, its default and whether it
 * differs (Doris's Variable_name, Value, Default_Value, Changed), sorted by name.
 */
import { SESSION_VARIABLES, SessionVariableDef, variableRaw } from './session-variables';

export type VariableRow = [name: string, value: string, defaultValue: string, changed: '0' | '1'];

const text = (def: SessionVariableDef, value: string | number | boolean): string => String(variableRaw(def, value));

/** One row per variable; `valueOf` gives its value in the scope asked for. */
export function variableRows(valueOf: (def: SessionVariableDef) => string | number | boolean): VariableRow[] {
  const rows = SESSION_VARIABLES.map((def): VariableRow => {
    const value = text(def, valueOf(def));
    const defaultValue = text(def, def.defaultValue);
    return [def.name, value, defaultValue, value === defaultValue ? '0' : '1'];
  });
  return rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
