/**
 * An explicit transaction of a session: `BEGIN [WITH LABEL l]; INSERT ...; INSERT ...; COMMIT` as in
 * Doris. Each INSERT writes its segments at once under the transaction's id, but nothing is visible until
 * COMMIT publishes every table's rowsets in one meta-store transaction; ROLLBACK (or the session ending)
 * aborts it and deletes what was written. As in Doris, all tables of one transaction are in one database.
 */
import type { Batch } from '../common/column';
import { GaleneError } from '../common/errors';
import type { LoadTarget } from '../load/load-transaction';
import { writeTableRows } from '../load/table-writer';
import type { TableState } from '../meta/catalog';
import type { NewRowset, SegmentRecord, TransactionRecord } from '../meta/meta-store';
import { loadOp, rowBinlogEnabled } from '../meta/row-binlog';
import { writeBinlogRows, type BinlogPosition } from '../load/row-binlog-writer';
import { fillAutoIncrement } from '../load/auto-increment';

/** Add `rowsets` to the transaction's rowset per tablet (segments appended in write order). */
function mergeRowsets(byTablet: Map<number, NewRowset & { segments: SegmentRecord[] }>, rowsets: readonly NewRowset[]): void {
  for (const rowset of rowsets) {
    const entry = byTablet.get(rowset.tabletId);
    if (entry) {
      entry.segments.push(...rowset.segments);
      byTablet.set(rowset.tabletId, { ...entry, numRows: entry.numRows + rowset.numRows, dataSize: entry.dataSize + rowset.dataSize });
    } else {
      byTablet.set(rowset.tabletId, { ...rowset, segments: [...rowset.segments] });
    }
  }
}

export class ExplicitTransaction {
  private txn: TransactionRecord | null = null;
  private readonly rowsets = new Map<number, NewRowset & { segments: SegmentRecord[] }>();
  private readonly nextSegmentIdx = new Map<number, number>();
  /** The row binlog's change-log rowsets by tablet, and where its next rows go. */
  private readonly binlogRowsets = new Map<number, NewRowset & { segments: SegmentRecord[] }>();
  private readonly binlogPosition: BinlogPosition = { nextSegmentIdx: new Map(), loggedRows: 0 };
  private readonly objectKeys: string[] = [];
  private loadedRows = 0;
  private dbId: number | null = null;

  constructor(
    private readonly target: LoadTarget,
    readonly label: string,
  ) {}

  /** The transaction id once the first INSERT began it (Doris reports it then). */
  get txnId(): number | null {
    return this.txn?.id ?? null;
  }

  /** Write `batch` (a full row set in `table`'s column order and types) into the transaction. */
  async insert(table: TableState, given: Batch): Promise<number> {
    if (this.dbId !== null && this.dbId !== table.dbId) {
      throw new GaleneError('TRANSACTION_ERROR', ['Transaction insert must be in the same database']);
    }
    if (!this.txn) {
      const meta = this.target.catalog.meta;
      if (meta.findTransactionByLabel(table.dbId, this.label)) throw new GaleneError('LABEL_EXISTS', [this.label]);
      this.txn = meta.beginTransaction(table.dbId, this.label, [table.schema.id]);
      this.dbId = table.dbId;
    }
    if (given.length === 0) return 0;
    const batch = fillAutoIncrement(this.target.catalog.meta, table.schema, given);
    const written = await writeTableRows(this.target.store, table, batch, this.txn.id, this.nextSegmentIdx, undefined, this.target.writeOptions);
    this.objectKeys.push(...written.objectKeys);
    mergeRowsets(this.rowsets, written.rowsets);
    if (rowBinlogEnabled(table.schema)) {
      // The row binlog logs the rows too, published with them at COMMIT.
      const logged = await writeBinlogRows(this.target.store, table, batch, loadOp(table.schema), this.txn.id, this.target.writeOptions, this.binlogPosition);
      this.objectKeys.push(...logged.objectKeys);
      mergeRowsets(this.binlogRowsets, logged.rowsets);
    }
    this.loadedRows += batch.length;
    return batch.length;
  }

  /** Publish everything written; returns the transaction (null when nothing was inserted). */
  async commit(): Promise<TransactionRecord | null> {
    if (!this.txn) return null;
    await this.target.catalog.publish(this.txn.id, [...this.rowsets.values(), ...this.binlogRowsets.values()], this.loadedRows);
    return this.txn;
  }

  async rollback(reason: string): Promise<void> {
    if (!this.txn) return;
    this.target.catalog.meta.abortTransaction(this.txn.id, reason);
    await this.target.deleteObjects(this.objectKeys);
  }
}
