/**
 * One handler per command byte of the command phase, in a Record: adding a command means adding its
 * handler here, nothing else. A handler reads its arguments from the packet
 * and writes its whole reply into `ctx.sink.writer`; the connection sets the sequence id before, and
 * sends, uncorks and turns a thrown error into an ERR packet after. A command with no entry gets
 * 1047 Unknown command.
 */
import { GaleneError } from '../common/errors';
import { Types } from '../common/types';
import type { SessionHandler } from './backend';
import { readExecuteParams, type StatementWireState } from './binary-params';
import { writeBinaryResult } from './binary-result';
import { writeColumnDefinition } from './column-definition';
import { CommandCode } from './constants';
import { PacketReader } from './packet-reader';
import { writeEndOfRows, writeOk } from './reply-packets';
import { ResultSink, writeStatementResults } from './result-encoder';
import { PROTOCOL_ERRORS } from './wire-error';

/** Counters the server keeps for COM_STATISTICS. */
export interface ServerStats {
  readonly startedAtMs: number;
  questions: number;
  readonly connectionCount: number;
}

/** What a command handler may use of its connection. */
export interface CommandContext {
  readonly connectionId: number;
  readonly session: SessionHandler;
  readonly sink: ResultSink;
  readonly stats: ServerStats;
  /** This connection's prepared statements as the wire sees them (parameter count, types, long data). */
  readonly preparedStatements: Map<number, StatementWireState>;
  /** End the connection after this command (COM_QUIT); no reply is sent. */
  quit(): void;
}

export type CommandHandler = (ctx: CommandContext, reader: PacketReader) => Promise<void> | void;

/** COM_SET_OPTION values. */
const MYSQL_OPTION_MULTI_STATEMENTS_ON = 0;
const MYSQL_OPTION_MULTI_STATEMENTS_OFF = 1;

function ok(ctx: CommandContext): void {
  writeOk(ctx.sink.writer, { statusFlags: ctx.sink.statusFlags() });
}

/** Thrown, so the connection writes (and reports) the ERR packet like any other command error. */
function preparedStatementsUnsupported(): never {
  throw PROTOCOL_ERRORS.PS_UNSUPPORTED;
}

/** The wire state of a statement handle, or MySQL's ER_UNKNOWN_STMT_HANDLER naming the command. */
function statementState(ctx: CommandContext, statementId: number, command: string): StatementWireState {
  const state = ctx.preparedStatements.get(statementId);
  if (state === undefined) throw new GaleneError('UNKNOWN_STMT_HANDLER', [statementId, command]);
  return state;
}

/** The '?' entries of a COM_STMT_PREPARE reply (MySQL 5.7 sends them untyped, as strings). */
const PARAM_DEFINITION = Object.freeze({ name: '?', type: Types.STRING });

export const COMMAND_HANDLERS: Partial<Record<CommandCode, CommandHandler>> = {
  [CommandCode.QUIT]: (ctx) => ctx.quit(),

  [CommandCode.INIT_DB]: async (ctx, reader) => {
    await ctx.session.useDatabase(reader.restString());
    ok(ctx);
  },

  [CommandCode.QUERY]: async (ctx, reader) => {
    const sql = reader.restString();
    ctx.stats.questions++;
    const results = await ctx.session.execute(sql);
    await writeStatementResults(ctx.sink, results);
  },

  [CommandCode.FIELD_LIST]: async (ctx, reader) => {
    const table = reader.stringNulOrRest(); // a wildcard may follow; Galene lists every column
    const columns = await ctx.session.fieldList(table);
    for (const column of columns) writeColumnDefinition(ctx.sink.writer, column, true);
    writeEndOfRows(ctx.sink.writer, ctx.sink.deprecateEof, ctx.sink.statusFlags());
  },

  [CommandCode.STATISTICS]: (ctx) => {
    const uptimeSeconds = Math.max(1, Math.floor((Date.now() - ctx.stats.startedAtMs) / 1000));
    const perSecond = (ctx.stats.questions / uptimeSeconds).toFixed(3);
    const writer = ctx.sink.writer;
    writer.begin();
    writer.string(
      `Uptime: ${uptimeSeconds}  Threads: ${ctx.stats.connectionCount}  Questions: ${ctx.stats.questions}  ` +
        `Slow queries: 0  Opens: 0  Flush tables: 0  Open tables: 0  Queries per second avg: ${perSecond}`,
    );
    writer.end();
  },

  [CommandCode.PING]: ok,

  [CommandCode.RESET_CONNECTION]: async (ctx) => {
    if (ctx.session.resetConnection) await ctx.session.resetConnection();
    for (const statementId of ctx.preparedStatements.keys()) ctx.session.closeStatement?.(statementId);
    ctx.preparedStatements.clear();
    ok(ctx);
  },

  [CommandCode.SET_OPTION]: (ctx, reader) => {
    const option = reader.int2();
    if (option === MYSQL_OPTION_MULTI_STATEMENTS_ON) ctx.session.multiStatements = true;
    else if (option === MYSQL_OPTION_MULTI_STATEMENTS_OFF) ctx.session.multiStatements = false;
    else throw new GaleneError('UNKNOWN_COMMAND');
    writeEndOfRows(ctx.sink.writer, ctx.sink.deprecateEof, ctx.sink.statusFlags());
  },

  // COM_STMT_PREPARE: OK (statement id, column count, parameter count), then the parameter and column
  // definitions, each list followed by EOF unless CLIENT_DEPRECATE_EOF.
  [CommandCode.STMT_PREPARE]: async (ctx, reader) => {
    const session = ctx.session;
    if (session.prepareStatement === undefined) return preparedStatementsUnsupported();
    const sql = reader.restString();
    ctx.stats.questions++;
    const info = await session.prepareStatement(sql);
    ctx.preparedStatements.set(info.statementId, { paramCount: info.paramCount, types: null, longData: new Map() });
    const writer = ctx.sink.writer;
    writer.begin();
    writer.int1(0);
    writer.int4(info.statementId);
    writer.int2(info.columns.length);
    writer.int2(info.paramCount);
    writer.int1(0);
    writer.int2(0);
    writer.end();
    if (info.paramCount > 0) {
      for (let paramIdx = 0; paramIdx < info.paramCount; paramIdx++) writeColumnDefinition(writer, PARAM_DEFINITION);
      if (!ctx.sink.deprecateEof) writeEndOfRows(writer, false, ctx.sink.statusFlags());
    }
    if (info.columns.length > 0) {
      for (const column of info.columns) writeColumnDefinition(writer, column);
      if (!ctx.sink.deprecateEof) writeEndOfRows(writer, false, ctx.sink.statusFlags());
    }
  },

  // COM_STMT_EXECUTE: results go out at once whatever cursor flag the client asks for.
  [CommandCode.STMT_EXECUTE]: async (ctx, reader) => {
    const statementId = reader.int4();
    const state = statementState(ctx, statementId, 'mysqld_stmt_execute');
    const session = ctx.session;
    if (session.executeStatement === undefined) return preparedStatementsUnsupported();
    reader.int1(); // flags (cursor type)
    reader.int4(); // iteration count, always 1
    let params;
    try {
      params = readExecuteParams(reader, state);
    } finally {
      state.longData.clear();
    }
    ctx.stats.questions++;
    const result = await session.executeStatement(statementId, params);
    await writeBinaryResult(ctx.sink, result);
  },

  // COM_STMT_SEND_LONG_DATA: no reply, ever; a bad handle or parameter shows at the next execute (MySQL).
  [CommandCode.STMT_SEND_LONG_DATA]: (ctx, reader) => {
    if (reader.remaining < 6) return;
    const state = ctx.preparedStatements.get(reader.int4());
    const paramIdx = reader.int2();
    if (state === undefined || paramIdx >= state.paramCount) return;
    const chunks = state.longData.get(paramIdx);
    const data = Buffer.from(reader.restBytes());
    if (chunks === undefined) state.longData.set(paramIdx, [data]);
    else chunks.push(data);
  },

  // COM_STMT_CLOSE: no reply; an unknown handle is ignored.
  [CommandCode.STMT_CLOSE]: (ctx, reader) => {
    if (reader.remaining < 4) return;
    const statementId = reader.int4();
    if (!ctx.preparedStatements.delete(statementId)) return;
    try {
      ctx.session.closeStatement?.(statementId);
    } catch {
      // Nothing may be sent for COM_STMT_CLOSE, so a failing close stays silent.
    }
  },

  // COM_STMT_RESET: drop the long data sent so far; OK.
  [CommandCode.STMT_RESET]: (ctx, reader) => {
    const statementId = reader.int4();
    statementState(ctx, statementId, 'mysqld_stmt_reset').longData.clear();
    ok(ctx);
  },

  // Cursors are not opened (COM_STMT_EXECUTE sends every row), so there is never anything to fetch.
  [CommandCode.STMT_FETCH]: (ctx, reader) => {
    statementState(ctx, reader.int4(), 'mysqld_stmt_fetch');
    preparedStatementsUnsupported();
  },
};
