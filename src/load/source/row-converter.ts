/**
 * Source rows (CSV fields or JSON values) -> batches of the table's columns, with Doris's Stream Load
 * rules: the `columns` mapping (reorder, skip, derived `v = expr`), the `where` filter, conversion to the
 * column types, and row filtering with a reason for every row that does not fit. The mapping and the
 * filter come planned and bound from the FE (src/load/load-plan.ts); this file only compiles the bound
 * expressions and runs them.
 *
 * Rows are converted as they arrive into one VectorBuilder per source column, then once per input block
 * `finishBlock` turns them into a batch in table-schema order: derived columns are evaluated with the
 * vectorized expression engine over the block's source columns, then `where` over the table columns.
 *
 * Conversion follows Doris's strict_mode: a value that does not convert becomes NULL when strict_mode is
 * false (the row is filtered only if the column is NOT NULL) and filters the row when it is true. A string
 * longer than its column and a wrong field count always filter the row. `\N` is NULL in CSV.
 */
import { QueryTask } from '../../exec/query-task';
import { Batch, constantVector, decodeUtf8, RawValue, takeRows, Vector, VectorBuilder } from '../../common/column';
import { parseValue } from '../../common/convert';
import { GaleneError } from '../../common/errors';
import { jsCharCount, utf8CharCount } from '../../common/utf8';
import { QueryProfile } from '../../common/profile';
import { isStringType, Types, typeToSql, type DataType } from '../../common/types';
import type { TaskContext } from '../../exec/context';
import { castVector, compileExpr, selectTrue } from '../../exec/expr';
import type { CompiledExpr } from '../../exec/expr-api';
import { loadAcceptsNull, loadDefaultValue, partitionInfoOf, type ColumnSchema, type TableSchema } from '../../meta/schema';
import { rowsWithoutPartition } from '../partition-check';
import { hasBatchStage, type LoadPlan } from '../load-plan';
import type { LoadErrorLog } from './load-error-log';
import { spanParserFor, type SpanParser } from './span-parse';
import { annVectorChecks, badRowReason, type AnnVectorCheck } from '../ann-vector-check';

const NULL_MARKER_0 = 0x5c; // '\'
const NULL_MARKER_1 = 0x4e; // 'N'

/** How one source column is taken: straight into a table column, kept as text for expressions, or dropped. */
interface SourceSlot {
  readonly name: string;
  readonly mode: 'direct' | 'scratch' | 'skip';
  /** The table column a direct slot fills. */
  readonly column: ColumnSchema | null;
  readonly type: DataType;
  readonly isString: boolean;
  /** Character limit for strings (Infinity for STRING and scratch text). */
  readonly charLimit: number;
  /** The type's fast text shape (span-parse.ts), tried before parseValue; null for strings and types without one. */
  readonly fast: SpanParser | null;
}

interface DerivedColumn {
  readonly column: ColumnSchema;
  readonly colIdx: number;
  readonly eval: CompiledExpr;
}

/**
 * The task context a load's compiled expressions run with: its profile, its database and user for
 * DATABASE() / USER(), no parameters. The expressions were bound on the FE, so nothing reads tables here.
 */
function loadTaskContext(database: string): TaskContext {
  return {
    profile: new QueryProfile('stream-load', '', 'load', database),
    parameters: [],
    task: QueryTask.unlimited(),
    sessionInfo: { user: 'load', host: '', connectionId: 0, version: '', database, statementStartMillis: Date.now() },
    openTable: () => {
      throw new GaleneError('UNSUPPORTED', ['table references in Stream Load expressions']);
    },
  };
}

const invalid = (message: string): GaleneError => new GaleneError('LOAD_INVALID_ARGUMENT', [message]);

/**
 * Converts one load's rows. Readers call `addFields` / `addValues` per row and `finishBlock` after each
 * input block; the counters say how many rows were read, filtered (bad data) and unselected (`where`).
 */
export class RowConverter {
  totalRows = 0;
  filteredRows = 0;
  unselectedRows = 0;
  /** Names of the source columns in input order (what CSV fields / JSON values are matched to). */
  readonly sourceNames: readonly string[];

  private readonly schema: TableSchema;
  private readonly slots: SourceSlot[];
  private builders: (VectorBuilder | null)[];
  private readonly derived: DerivedColumn[] = [];
  private readonly where: CompiledExpr | null = null;
  /** Rows for which it is true delete their keys (merge_type DELETE / MERGE, a loaded delete sign). */
  private readonly deleteSign: CompiledExpr | null = null;
  /** The rows of the last finished block that delete their keys. */
  private deletes: Batch | null = null;
  /** Table column -> source slot that fills it directly (-1 none). */
  private readonly directSlotOf: Int32Array;
  private batchStage: boolean;
  /** Vectors of the loaded columns with an ANN index: a wrong length or a NULL element filters the row. */
  private readonly annChecks: readonly AnnVectorCheck[];
  /** The target table (a partitioned one's rows need a partition). */
  private readonly table: LoadPlan['table'];
  private readonly ctx: TaskContext;
  private readonly strict: boolean;
  // The row being converted: per slot 0 = NULL, 1 = raw value, 2 = byte range of `rowBuf`, 3 = JS string.
  private readonly pendingState: Uint8Array;
  private readonly pendingRaw: RawValue[];
  private readonly pendingStart: Int32Array;
  private readonly pendingEnd: Int32Array;
  private rowBuf: Uint8Array = new Uint8Array(0);
  // Rows of the current block, for reasons found at batch stage (derived columns, NOT NULL, where).
  private blockRows = 0;
  private blockLines: number[] = [];
  /** Per row of the block: its raw text, or null when it is the byte range blockRawStart/End of blockBuf. */
  private blockRawText: (string | null)[] = [];
  private blockRawStart: number[] = [];
  private blockRawEnd: number[] = [];
  private blockBuf: Uint8Array = new Uint8Array(0);
  /** `blockBuf` as a one-byte string when it is ASCII (offsets are the same), for the slots' fast parsers; else null. */
  private blockText: string | null = null;

  constructor(
    plan: LoadPlan,
    private readonly errors: LoadErrorLog,
  ) {
    const schema = plan.table.schema;
    this.schema = schema;
    this.strict = plan.options.strictMode;
    this.ctx = loadTaskContext(schema.databaseName);
    this.batchStage = hasBatchStage(plan);
    this.slots = plan.sourceColumns.map((source): SourceSlot => {
      if (source.mode !== 'direct') return { name: source.name, mode: source.mode, column: null, type: source.type, isString: true, charLimit: Infinity, fast: null };
      const column = schema.columns[source.colIdx];
      const charLimit = column.type.name === 'STRING' ? Infinity : column.type.length ?? 65533;
      const isString = isStringType(column.type);
      return { name: source.name, mode: 'direct', column, type: source.type, isString, charLimit, fast: isString ? null : spanParserFor(source.type) };
    });
    this.sourceNames = this.slots.map((slot) => slot.name);
    this.directSlotOf = new Int32Array(schema.columns.length).fill(-1);
    plan.sourceColumns.forEach((source, slotIdx) => {
      if (source.mode === 'direct') this.directSlotOf[source.colIdx] = slotIdx;
    });
    for (const derived of plan.derivedColumns) {
      this.derived.push({ column: schema.columns[derived.colIdx], colIdx: derived.colIdx, eval: compileExpr(derived.expr) });
    }
    if (plan.filter !== null) {
      try {
        this.where = compileExpr(plan.filter.expr);
      } catch (err) {
        throw invalid(`Invalid where '${plan.filter.text}': ${(err as Error).message}`);
      }
    }
    if (plan.deleteSign !== null) {
      try {
        this.deleteSign = compileExpr(plan.deleteSign.expr);
      } catch (err) {
        throw invalid(`Invalid delete '${plan.deleteSign.text}': ${(err as Error).message}`);
      }
    }
    this.annChecks = annVectorChecks(schema, this.givenColumns());
    this.table = plan.table;
    // The batch stage keeps each row's line and text, which a bad vector's (or a row without a partition's) reason needs.
    this.batchStage = this.batchStage || this.annChecks.length > 0 || partitionInfoOf(schema) !== null;
    this.builders = this.newBuilders();
    const slotCount = this.slots.length;
    this.pendingState = new Uint8Array(slotCount);
    this.pendingRaw = new Array<RawValue>(slotCount).fill(null);
    this.pendingStart = new Int32Array(slotCount);
    this.pendingEnd = new Int32Array(slotCount);
  }

  /** Lower-case names of the table columns this load gives values for (partial column updates fill the rest). */
  givenColumns(): Set<string> {
    const out = new Set<string>();
    this.schema.columns.forEach((column, colIdx) => {
      if (this.directSlotOf[colIdx] >= 0 || this.derived.some((entry) => entry.colIdx === colIdx)) out.add(column.name.toLowerCase());
    });
    return out;
  }

  private newBuilders(): (VectorBuilder | null)[] {
    // Small to start: a load of a few KB (Group Commit) should not zero-fill 4096-row builders; they double as needed.
    return this.slots.map((slot) => (slot.mode === 'skip' ? null : new VectorBuilder(slot.type, 256)));
  }

  /**
   * Every source row the load reads is counted here, once (NumberTotalRows): the one place a progress
   * hook (rows scanned so far) belongs.
   */
  private countRow(): void {
    this.totalRows++;
  }

  /** Count a row that failed before conversion (bad field count, invalid UTF-8, unparsable JSON). */
  rejectRow(line: number, reason: string, raw: string): void {
    this.countRow();
    this.filteredRows++;
    this.errors.add(line, reason, raw);
  }

  /**
   * The buffer that `addFields` byte offsets point into, for the rest of this block; `asciiText`: the same
   * bytes as a string, when the reader knows them to be ASCII and unchanged until the block is finished.
   */
  setBlockBuffer(buf: Uint8Array, asciiText: string | null = null): void {
    this.blockBuf = buf;
    this.blockText = asciiText;
  }

  /** Convert one text value into slot `slotIdx` of the pending row; a reason when the row must be filtered. */
  private convertText(slotIdx: number, text: string | null): string | null {
    const slot = this.slots[slotIdx];
    if (slot.mode === 'skip') return null;
    if (text === null) return this.setNull(slotIdx, null);
    if (slot.isString) {
      if (slot.charLimit !== Infinity && text.length > slot.charLimit) {
        const chars = jsCharCount(text);
        if (chars > slot.charLimit) return `column_name[${slot.name}], the length of input is longer than schema. first 32 bytes of input str: [${text.slice(0, 32)}] schema length: ${slot.charLimit}; actual length: ${chars};`;
      }
      this.pendingState[slotIdx] = 3;
      this.pendingRaw[slotIdx] = text;
      return null;
    }
    if (slot.fast !== null) {
      const value = slot.fast(text, 0, text.length);
      if (value === value) {
        this.pendingState[slotIdx] = 1;
        this.pendingRaw[slotIdx] = value;
        return null;
      }
    }
    const parsed = parseValue(slot.type, text);
    if (parsed.failure !== null) {
      // A malformed array or JSON text is never silently NULL: the row is filtered with the reason (max_filter_ratio applies).
      if (slot.type.name === 'ARRAY' || slot.type.name === 'MAP' || slot.type.name === 'STRUCT' || slot.type.name === 'JSON') return `column(${slot.name}) value is not a valid ${typeToSql(slot.type).toLowerCase()}, src value is ${text.slice(0, 100)}`;
      if (this.strict) return `column(${slot.name}) value is incorrect while strict mode is true, src value is ${text.slice(0, 100)}`;
      return this.setNull(slotIdx, text);
    }
    this.pendingState[slotIdx] = 1;
    this.pendingRaw[slotIdx] = parsed.value;
    return null;
  }

  private setNull(slotIdx: number, srcText: string | null): string | null {
    const slot = this.slots[slotIdx];
    if (slot.column !== null && !loadAcceptsNull(slot.column)) {
      return srcText === null ? `column(${slot.name}) values is null while columns is not nullable` : `column(${slot.name}) value is incorrect (src value is ${srcText.slice(0, 100)}) and the column is not nullable`;
    }
    this.pendingState[slotIdx] = 0;
    return null;
  }

  private commitRow(line: number, rawStart: number, rawEnd: number, rawText: string | null): void {
    for (let slotIdx = 0; slotIdx < this.slots.length; slotIdx++) {
      const builder = this.builders[slotIdx];
      if (builder === null) continue;
      switch (this.pendingState[slotIdx]) {
        case 0:
          builder.append(null);
          break;
        case 2:
          builder.appendBytes(this.rowBuf, this.pendingStart[slotIdx], this.pendingEnd[slotIdx]);
          break;
        default:
          builder.append(this.pendingRaw[slotIdx]);
      }
    }
    this.blockRows++;
    if (this.batchStage) {
      this.blockLines.push(line);
      this.blockRawText.push(rawText);
      this.blockRawStart.push(rawStart);
      this.blockRawEnd.push(rawEnd);
    }
  }

  /**
   * One CSV row: fields `[starts[i], ends[i])` of `buf` (fieldCount of them), from line `line` which spans
   * `[lineStart, lineEnd)`. `rawText`: the line as read, when the fields were unescaped in place (enclose).
   */
  addFields(buf: Uint8Array, starts: Int32Array, ends: Int32Array, fieldCount: number, line: number, lineStart: number, lineEnd: number, describeSeparators: () => string, rawText: string | null = null): void {
    const slotCount = this.slots.length;
    const raw = (): string => rawText ?? decodeUtf8(buf, lineStart, lineEnd);
    if (fieldCount !== slotCount) {
      const relation = fieldCount < slotCount ? 'less' : 'more';
      this.rejectRow(line, `actual column number in csv file is ${relation} than schema column number. actual number: ${fieldCount}, ${describeSeparators()}, schema column number: ${slotCount}`, raw());
      return;
    }
    this.addSpans(buf, starts, ends, line, lineStart, lineEnd, rawText);
  }

  /**
   * One row given as a byte span of `buf` per source column (`[starts[i], ends[i])`; a negative start or
   * the text `\N` is NULL), from the row text at `[lineStart, lineEnd)` (or `rawText` when the spans were
   * unescaped in place): CSV fields, and the values of a flat JSON object read by JsonReader's byte scanner.
   */
  addSpans(buf: Uint8Array, starts: Int32Array, ends: Int32Array, line: number, lineStart: number, lineEnd: number, rawText: string | null = null): void {
    const slotCount = this.slots.length;
    this.countRow();
    this.rowBuf = buf;
    const blockText = buf === this.blockBuf ? this.blockText : null;
    for (let slotIdx = 0; slotIdx < slotCount; slotIdx++) {
      const slot = this.slots[slotIdx];
      if (slot.mode === 'skip') continue;
      const start = starts[slotIdx];
      const end = ends[slotIdx];
      let reason: string | null = null;
      if (start < 0 || (end - start === 2 && buf[start] === NULL_MARKER_0 && buf[start + 1] === NULL_MARKER_1)) reason = this.setNull(slotIdx, null);
      else if (slot.isString) {
        if (end - start > slot.charLimit) {
          const chars = utf8CharCount(buf, start, end);
          if (chars > slot.charLimit) reason = `column_name[${slot.name}], the length of input is longer than schema. first 32 bytes of input str: [${decodeUtf8(buf, start, Math.min(end, start + 32))}] schema length: ${slot.charLimit}; actual length: ${chars};`;
        }
        this.pendingState[slotIdx] = 2;
        this.pendingStart[slotIdx] = start;
        this.pendingEnd[slotIdx] = end;
      } else {
        const value = slot.fast !== null && blockText !== null ? slot.fast(blockText, start, end) : NaN;
        if (value === value) {
          this.pendingState[slotIdx] = 1;
          this.pendingRaw[slotIdx] = value;
        } else reason = this.convertText(slotIdx, decodeUtf8(buf, start, end));
      }
      if (reason !== null) {
        this.filteredRows++;
        this.errors.add(line, reason, rawText ?? decodeUtf8(buf, lineStart, lineEnd));
        return;
      }
    }
    this.commitRow(line, lineStart, lineEnd, rawText);
  }

  /** One JSON row: a text value (or null) per source column, and the row's raw text for error reports. */
  addValues(values: readonly (string | null)[], line: number, rawText: string): void {
    this.countRow();
    for (let slotIdx = 0; slotIdx < this.slots.length; slotIdx++) {
      const reason = this.convertText(slotIdx, values[slotIdx] ?? null);
      if (reason !== null) {
        this.filteredRows++;
        this.errors.add(line, reason, rawText);
        return;
      }
    }
    this.commitRow(line, 0, 0, rawText);
  }

  private rawOfBlockRow(rowIdx: number): string {
    return this.blockRawText[rowIdx] ?? decodeUtf8(this.blockBuf, this.blockRawStart[rowIdx], this.blockRawEnd[rowIdx]);
  }

  /** The rows converted since the last call as a batch of the table's columns (null when none survive). */
  finishBlock(): Batch | null {
    const rowCount = this.blockRows;
    if (rowCount === 0) return null;
    const sources = this.builders.map((builder) => builder?.finish() ?? null);
    this.builders = this.newBuilders();
    this.blockRows = 0;
    const lines = this.blockLines;
    this.blockLines = [];
    const columns: Vector[] = this.schema.columns.map((column, colIdx) => {
      const slotIdx = this.directSlotOf[colIdx];
      return slotIdx >= 0 ? sources[slotIdx]! : constantVector(column.type, loadDefaultValue(column), rowCount);
    });
    if (!this.batchStage) return { length: rowCount, columns };

    // Batch stage: derived columns, NOT NULL of derived values, then `where`.
    const alive = new Uint8Array(rowCount).fill(1);
    const reject = (rowIdx: number, reason: string): void => {
      if (alive[rowIdx] === 0) return;
      alive[rowIdx] = 0;
      this.filteredRows++;
      this.errors.add(lines[rowIdx], reason, this.rawOfBlockRow(rowIdx));
    };
    const sourceBatch: Batch = { length: rowCount, columns: sources.map((vec) => vec ?? constantVector(Types.STRING, null, rowCount)) };
    for (const entry of this.derived) {
      const value = entry.eval(sourceBatch, this.ctx);
      const cast = castVector(value, entry.column.type, 'sql', entry.column.name);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (cast.nulls === null || cast.nulls[rowIdx] === 0) continue;
        const sourceNull = value.nulls !== null && value.nulls[rowIdx] === 1;
        if (!sourceNull && this.strict) reject(rowIdx, `column(${entry.column.name}) value is incorrect while strict mode is true`);
        else if (!loadAcceptsNull(entry.column)) reject(rowIdx, `column(${entry.column.name}) values is null while columns is not nullable`);
      }
      columns[entry.colIdx] = cast;
    }
    let keep: Int32Array;
    let keepCount = 0;
    // `where` and the delete sign see the table columns, then the scratch source columns.
    const scratch = this.slots.flatMap((slot, slotIdx) => (slot.mode === 'scratch' ? [sources[slotIdx]!] : []));
    const rowsBatch: Batch = { length: rowCount, columns: [...columns, ...scratch] };
    if (this.where !== null) {
      const selected = selectTrue(this.where(rowsBatch, this.ctx));
      keep = new Int32Array(selected.count);
      for (let selIdx = 0; selIdx < selected.count; selIdx++) {
        const rowIdx = selected.rowIds[selIdx];
        if (alive[rowIdx] === 1) keep[keepCount++] = rowIdx;
      }
      // Rows the filter drops are "unselected", unless already counted as filtered.
      let aliveCount = 0;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) aliveCount += alive[rowIdx];
      this.unselectedRows += aliveCount - keepCount;
    } else {
      keep = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (alive[rowIdx] === 1) keep[keepCount++] = rowIdx;
    }
    if (this.deleteSign !== null && keepCount > 0) {
      const selected = selectTrue(this.deleteSign(rowsBatch, this.ctx));
      const isDelete = new Uint8Array(rowCount);
      for (let selIdx = 0; selIdx < selected.count; selIdx++) isDelete[selected.rowIds[selIdx]] = 1;
      const upserts = new Int32Array(keepCount);
      const deletes = new Int32Array(keepCount);
      let upsertCount = 0;
      let deleteCount = 0;
      for (let keepIdx = 0; keepIdx < keepCount; keepIdx++) {
        const rowIdx = keep[keepIdx];
        if (isDelete[rowIdx] === 1) deletes[deleteCount++] = rowIdx;
        else upserts[upsertCount++] = rowIdx;
      }
      if (deleteCount > 0) this.deletes = { length: deleteCount, columns: columns.map((vec) => takeRows(vec, deletes, deleteCount)) };
      keep = upserts;
      keepCount = upsertCount;
    }
    if (this.annChecks.length > 0 && keepCount > 0) {
      const kept: Batch = { length: rowCount, columns };
      let out = 0;
      for (let keepIdx = 0; keepIdx < keepCount; keepIdx++) {
        const rowIdx = keep[keepIdx];
        const reason = badRowReason(kept, rowIdx, this.annChecks);
        if (reason === null) keep[out++] = rowIdx;
        else {
          this.filteredRows++;
          this.errors.add(lines[rowIdx], reason, this.rawOfBlockRow(rowIdx));
        }
      }
      keepCount = out;
    }
    if (keepCount > 0 && partitionInfoOf(this.schema) !== null) {
      const kept: Batch = keepCount === rowCount ? { length: rowCount, columns } : { length: keepCount, columns: columns.map((vec) => takeRows(vec, keep, keepCount)) };
      const homeless = rowsWithoutPartition(this.table, kept);
      if (homeless.length > 0) {
        let out = 0;
        let badIdx = 0;
        for (let keepIdx = 0; keepIdx < keepCount; keepIdx++) {
          const rowIdx = keep[keepIdx];
          if (badIdx < homeless.length && homeless[badIdx].rowIdx === keepIdx) {
            this.filteredRows++;
            this.errors.add(lines[rowIdx], homeless[badIdx++].reason, this.rawOfBlockRow(rowIdx));
          } else keep[out++] = rowIdx;
        }
        keepCount = out;
      }
    }
    this.blockRawText = [];
    this.blockRawStart = [];
    this.blockRawEnd = [];
    if (keepCount === 0) return null;
    if (keepCount === rowCount) return { length: rowCount, columns };
    return { length: keepCount, columns: columns.map((vec) => takeRows(vec, keep, keepCount)) };
  }

  /** The rows of the block `finishBlock` just finished that delete their keys (null when none); taken once. */
  takeDeletes(): Batch | null {
    const deletes = this.deletes;
    this.deletes = null;
    return deletes;
  }
}
