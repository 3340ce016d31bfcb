/**
 * A small ProtocolBackend for the wire tests: one session type answering a few fixed SQL texts with real
 * column Batches (built with vectorFromRaw), GaleneErrors for everything else, and two users
 * (root without a password, alice with 'secret').
 */
import { Batch, RawValue, vectorFromRaw } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import type { ResultColumn, RowsResult, StatementResult } from '../../src/common/result';
import { DataType, Types } from '../../src/common/types';
import { daysFromCivil } from '../../src/common/datetime';
import type { ProtocolBackend, SessionHandler, SessionInfo, UserAuthInfo } from '../../src/protocol/backend';
import { nativePasswordDoubleSha1 } from '../../src/protocol/native-password';

export const INSERT_INFO = "{'label':'label_7a1b', 'status':'VISIBLE', 'txnId':'1001'}";
export const DATABASES = new Set(['db1', 'information_schema']);

const microsOf = (year: number, month: number, day: number, h: number, m: number, s: number, micros = 0): number =>
  daysFromCivil(year, month, day) * 86_400_000_000 + ((h * 60 + m) * 60 + s) * 1_000_000 + micros;

/** Every column type, two rows of values and a row of NULLs. */
export const ALL_TYPES: readonly { name: string; type: DataType; values: RawValue[] }[] = [
  { name: 'c_bool', type: Types.BOOLEAN, values: [1, 0, null] },
  { name: 'c_tinyint', type: Types.TINYINT, values: [-128, 127, null] },
  { name: 'c_smallint', type: Types.SMALLINT, values: [-32768, 12345, null] },
  { name: 'c_int', type: Types.INT, values: [-2147483648, 2147483647, null] },
  { name: 'c_bigint', type: Types.BIGINT, values: [-9223372036854775808n, 9007199254740993n, null] },
  { name: 'c_largeint', type: Types.LARGEINT, values: [-(2n ** 127n), 170141183460469231731687303715884105727n, null] },
  { name: 'c_float', type: Types.FLOAT, values: [1.5, -0.25, null] },
  { name: 'c_double', type: Types.DOUBLE, values: [3.141592653589793, -1e-3, null] },
  { name: 'c_decimal', type: Types.decimal(10, 2), values: [12345, -5, null] },
  { name: 'c_decimal_wide', type: Types.decimal(27, 9), values: [123456789012345678123456789n, -1n, null] },
  { name: 'c_date', type: Types.DATE, values: [daysFromCivil(2024, 2, 29), daysFromCivil(1970, 1, 1), null] },
  { name: 'c_datetime', type: Types.DATETIME, values: [microsOf(2024, 2, 29, 13, 14, 15), microsOf(1999, 12, 31, 23, 59, 59), null] },
  { name: 'c_datetime3', type: Types.datetime(3), values: [microsOf(2024, 1, 2, 3, 4, 5, 678000), microsOf(2000, 1, 1, 0, 0, 0), null] },
  { name: 'c_char', type: Types.char(5), values: ['ab', 'xyz', null] },
  { name: 'c_varchar', type: Types.varchar(20), values: ['héllo wörld', '', null] },
  { name: 'c_string', type: Types.STRING, values: ['日本語 ✓', 'tab\there', null] },
  { name: 'c_null', type: Types.NULL, values: [null, null, null] },
];

function rows(columns: { name: string; type: DataType; nullable?: boolean }[], valueColumns: RawValue[][]): RowsResult {
  const length = valueColumns[0]?.length ?? 0;
  const batch: Batch = { length, columns: columns.map((column, colIdx) => vectorFromRaw(column.type, valueColumns[colIdx])) };
  return { kind: 'rows', columns: columns.map((c): ResultColumn => ({ name: c.name, type: c.type, nullable: c.nullable })), batches: [batch] };
}

function oneValue(name: string, type: DataType, value: RawValue): RowsResult {
  return rows([{ name, type }], [[value]]);
}

export class TestSession implements SessionHandler {
  multiStatements = false;
  inTransaction = false;
  closed = false;
  database: string | null;
  readonly executed: string[] = [];

  constructor(readonly info: SessionInfo) {
    this.database = info.database;
  }

  async execute(sql: string): Promise<StatementResult[]> {
    this.executed.push(sql.length > 200 ? sql.slice(0, 200) : sql);
    const text = sql.trim().replace(/;\s*$/, '');
    const lower = text.toLowerCase();
    if (text.includes(';')) {
      if (!this.multiStatements) throw new GaleneError('MULTI_STATEMENT_OFF');
      const parts = text.split(';').map((part) => part.trim()).filter((part) => part.length > 0);
      const out: StatementResult[] = [];
      for (const part of parts) out.push(...(await this.execute(part)));
      return out;
    }
    if (lower === 'select @@version_comment limit 1') return [oneValue('@@version_comment', Types.varchar(64), 'Galene test server')];
    if (lower === 'select 1') return [oneValue('1', Types.TINYINT, 1)];
    if (lower === 'select all_types') {
      return [rows(ALL_TYPES.map((c) => ({ name: c.name, type: c.type, nullable: c.name === 'c_int' ? false : undefined })), ALL_TYPES.map((c) => c.values))];
    }
    if (lower === 'select database()') return [oneValue('database()', Types.varchar(64), this.database)];
    if (lower === 'select connection_id()') return [oneValue('connection_id()', Types.BIGINT, BigInt(this.info.connectionId))];
    if (lower === 'select dict') {
      const codes = new Int32Array([0, 1, 0, 2]);
      const batch: Batch = { length: 4, columns: [{ kind: 'dict', type: Types.STRING, length: 4, codes, dict: ['red', 'grün', 'blue'], nulls: new Uint8Array([0, 0, 0, 1]) }] };
      return [{ kind: 'rows', columns: [{ name: 'color', type: Types.STRING }], batches: [batch] }];
    }
    if (lower === 'select many') {
      // 3 batches, ~300 KiB in all: exercises the periodic flush between rows.
      const out: Batch[] = [];
      for (let batchIdx = 0; batchIdx < 3; batchIdx++) {
        const ids: RawValue[] = [];
        const names: RawValue[] = [];
        for (let rowIdx = 0; rowIdx < 4000; rowIdx++) {
          ids.push(batchIdx * 4000 + rowIdx);
          names.push(`name-${batchIdx * 4000 + rowIdx}`);
        }
        out.push({ length: 4000, columns: [vectorFromRaw(Types.INT, ids), vectorFromRaw(Types.STRING, names)] });
      }
      return [{ kind: 'rows', columns: [{ name: 'id', type: Types.INT }, { name: 'name', type: Types.STRING }], batches: out }];
    }
    if (lower === 'select big') return [oneValue('big', Types.STRING, 'x'.repeat(17 * 1024 * 1024 + 5))];
    if (lower.startsWith("select length('")) return [oneValue('length', Types.BIGINT, BigInt(text.length - "select length('".length - 2))];
    if (lower.startsWith('select sleep ')) {
      const ms = Number(lower.slice('select sleep '.length));
      await new Promise((resolve) => setTimeout(resolve, ms));
      return [oneValue('slept', Types.INT, ms)];
    }
    if (lower === 'insert ok') return [{ kind: 'ok', affectedRows: 2, lastInsertId: 0, info: INSERT_INFO, warnings: 1 }];
    if (lower === 'begin') {
      this.inTransaction = true;
      return [{ kind: 'ok', affectedRows: 0 }];
    }
    if (lower === 'commit') {
      this.inTransaction = false;
      return [{ kind: 'ok', affectedRows: 0 }];
    }
    if (lower === 'throw plain') throw new Error('plain failure');
    if (lower === 'select * from nope') throw new GaleneError('UNKNOWN_TABLE', ['db1.nope']);
    throw new GaleneError('SYNTAX_ERROR', [`near '${text.slice(0, 20)}'`]);
  }

  async useDatabase(database: string): Promise<void> {
    if (!DATABASES.has(database)) throw new GaleneError('UNKNOWN_DATABASE', [database]);
    this.database = database;
  }

  async fieldList(table: string): Promise<ResultColumn[]> {
    if (table !== 't1') throw new GaleneError('UNKNOWN_TABLE', [table]);
    return [
      { name: 'id', type: Types.INT, table: 't1', orgTable: 't1', orgName: 'id', database: this.database ?? '', nullable: false },
      { name: 'name', type: Types.varchar(32), table: 't1', orgTable: 't1', orgName: 'name', database: this.database ?? '' },
    ];
  }

  close(): void {
    this.closed = true;
  }
}

export class TestBackend implements ProtocolBackend {
  readonly serverVersion = '5.7.99';
  readonly sessions: TestSession[] = [];
  private readonly users = new Map<string, UserAuthInfo>([
    ['root', { passwordDoubleSha1: null }],
    ['alice', { passwordDoubleSha1: nativePasswordDoubleSha1('secret') }],
  ]);

  lookupUser(user: string): UserAuthInfo | null {
    return this.users.get(user) ?? null;
  }

  async openSession(info: SessionInfo): Promise<SessionHandler> {
    if (info.database !== null && !DATABASES.has(info.database)) throw new GaleneError('UNKNOWN_DATABASE', [info.database]);
    const session = new TestSession(info);
    this.sessions.push(session);
    return session;
  }
}
