/**
 * What an information_schema table's rows are built from: the catalog, the server's live facts (sessions,
 * global variables, running loads, settings) and the asking session's variable values. The session
 * builds one per statement (session.ts); the tables never see the Session or the Frontend.
 */
import type { RawValue } from '../../common/column';
import type { DataType } from '../../common/types';
import type { Catalog } from '../../meta/catalog';
import type { ProcessListViewer, ServerFacts } from '../cluster-facts';
import type { PrivilegeFacts } from './privilege-tables';

export interface SchemaFacts {
  readonly catalog: Catalog;
  readonly server: ServerFacts;
  /** The asking session's value of a registered session variable (its SET value, else the global one). */
  sessionVariable(name: string): string | number | boolean;
  /** What the asking account may see; without it every row shows. */
  readonly view?: InformationSchemaView;
}

/**
 * The reading session's view: which databases and tables its account may see (rows of other objects are
 * left out, as Doris does) and the grants the privilege tables list.
 */
export interface InformationSchemaView extends PrivilegeFacts {
  visible(database: string, table: string | null): boolean;
  /** Whose sessions PROCESSLIST lists, as SHOW PROCESSLIST would for this session (with Info in full). */
  readonly processListViewer: ProcessListViewer;
}

/** One virtual table: its columns and a row source over the facts of now. */
export interface VirtualTable {
  readonly columns: readonly (readonly [string, DataType])[];
  rows(facts: SchemaFacts): RawValue[][];
}

/** Column declarations: names with one type, e.g. `columns(S, 'A', 'B')`. */
export const columns = (type: DataType, ...names: string[]): [string, DataType][] => names.map((name) => [name, type]);
