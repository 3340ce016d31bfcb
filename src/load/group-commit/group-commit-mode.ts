/**
 * Which Group Commit mode a load runs in, by Doris's precedence
 * (https://doris.apache.org/docs/data-operate/import/group-commit-manual):
 * - INSERT INTO VALUES: the session variable `group_commit` when the session (or SET GLOBAL) set it,
 *   else the table property `group_commit_mode`;
 * - Stream Load: the HTTP header `group_commit`, else the table property.
 * and the loads that never use Group Commit even when it is on (they take the normal one-transaction path).
 */
import { GaleneError } from '../../common/errors';
import type { TableSchema } from '../../meta/schema';

export type GroupCommitMode = 'off_mode' | 'sync_mode' | 'async_mode';

/** A mode name (any case); anything else is Doris's "group_commit can only be [...]" error. */
export function parseGroupCommitMode(text: string): GroupCommitMode {
  const lower = text.trim().toLowerCase();
  if (lower === 'off_mode' || lower === 'sync_mode' || lower === 'async_mode') return lower;
  throw new GaleneError('GROUP_COMMIT_INVALID_MODE');
}

/** The table property `group_commit_mode` (off_mode when absent). */
export function tableGroupCommitMode(schema: TableSchema): GroupCommitMode {
  const value = schema.properties['group_commit_mode'];
  return value === undefined ? 'off_mode' : parseGroupCommitMode(value);
}

/** Doris: a table with light_schema_change = false cannot take Group Commit loads. */
export function supportsGroupCommit(schema: TableSchema): boolean {
  return (schema.properties['light_schema_change'] ?? 'true').toLowerCase() !== 'false';
}

/** What an INSERT brings to the decision. */
export interface InsertGroupCommitFacts {
  /** The session's `group_commit` if SET (session or global), else null: the table property decides. */
  readonly sessionMode: string | null;
  /** INSERT ... WITH LABEL. */
  readonly label: string | null;
  /** Every VALUES cell a literal, NULL or DEFAULT (no expression), and the source is VALUES (not SELECT). */
  readonly literalValues: boolean;
  /** A partial-column update of a merge-on-write UNIQUE KEY table. */
  readonly partialUpdate?: boolean;
}

/**
 * The mode of an INSERT outside an explicit transaction (the caller handles BEGIN ... COMMIT, which never
 * group-commits). off_mode when one of Doris's exclusions applies.
 */
export function insertGroupCommitMode(schema: TableSchema, facts: InsertGroupCommitFacts): GroupCommitMode {
  const mode = facts.sessionMode !== null ? parseGroupCommitMode(facts.sessionMode) : tableGroupCommitMode(schema);
  if (mode === 'off_mode') return mode;
  if (facts.label !== null || !facts.literalValues || facts.partialUpdate === true || !supportsGroupCommit(schema)) return 'off_mode';
  return mode;
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  const text = (Array.isArray(value) ? value[value.length - 1] : value).trim();
  return text === '' ? null : text;
}

/** What a Stream Load brings to the decision beyond its headers. */
export interface StreamLoadGroupCommitFacts {
  readonly label: string | null;
  readonly twoPhaseCommit: boolean;
  readonly partialColumns: boolean;
}

/**
 * The mode of a Stream Load: header > table property; off_mode for two-phase commit, a `label` header,
 * partial columns, `partitions` / `temporary_partitions`, a merge_type other than APPEND, a column update
 * mode, an empty body that is not chunked, or a table without light schema change. Throws on a bad header.
 */
export function streamLoadGroupCommitMode(schema: TableSchema, headers: Record<string, string | string[] | undefined>, facts: StreamLoadGroupCommitFacts): GroupCommitMode {
  const header = headerValue(headers, 'group_commit');
  const mode = header !== null ? parseGroupCommitMode(header) : tableGroupCommitMode(schema);
  if (mode === 'off_mode') return mode;
  if (facts.label !== null || facts.twoPhaseCommit || facts.partialColumns || !supportsGroupCommit(schema)) return 'off_mode';
  if (headerValue(headers, 'partitions') !== null || headerValue(headers, 'temporary_partitions') !== null) return 'off_mode';
  const mergeType = headerValue(headers, 'merge_type');
  if (mergeType !== null && mergeType.toUpperCase() !== 'APPEND') return 'off_mode';
  if (headerValue(headers, 'unique_key_update_mode') !== null) return 'off_mode';
  if (headerValue(headers, 'content-length') === '0') return 'off_mode';
  return mode;
}

/** A chunked body whose size is not known up front (Doris runs those as sync_mode). */
export function isChunkedUnknownSize(headers: Record<string, string | string[] | undefined>): boolean {
  return headerValue(headers, 'content-length') === null;
}
