/**
 * Doris's hidden column names a load may fill (Stream Load `hidden_columns`, or named in `columns`):
 * `__DORIS_DELETE_SIGN__` (1 deletes the row's key on a merge-on-write UNIQUE KEY table) and
 * `__DORIS_SEQUENCE_COL__` (the value of the table's sequence column, `function_column.sequence_col`).
 * Galene stores neither as a column: the planner maps them (src/fe/load-planner.ts).
 */
export const DELETE_SIGN_COLUMN = '__DORIS_DELETE_SIGN__';
export const SEQUENCE_HIDDEN_COLUMN = '__DORIS_SEQUENCE_COL__';
