/**
 * One handler per command byte of the command phase, in a Record: adding a command (the prepared statement
 * family next) means adding its handler here, nothing else. A handler reads its arguments from the packet
 * and writes its whole reply into `ctx.sink.writer`; the connection sets the sequence id before, and
 * sends, uncorks and turns a thrown error into an ERR packet after. A command with no entry gets
 * 1047 Unknown command.
 */
import { GaleneError } from '../common/errors';
import type { SessionHandler } from './backend';
import { writeColumnDefinition } from './column-definition';
import { CommandCode } from './constants';
import { PacketReader } from './packet-reader';
import { writeEndOfRows, writeErr, writeOk } from './reply-packets';
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

function preparedStatementsUnsupported(ctx: CommandContext): void {
  writeErr(ctx.sink.writer, PROTOCOL_ERRORS.PS_UNSUPPORTED);
}

/** Commands that MySQL answers with nothing at all. */
function noReply(): void {}

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
    ok(ctx);
  },

  [CommandCode.SET_OPTION]: (ctx, reader) => {
    const option = reader.int2();
    if (option === MYSQL_OPTION_MULTI_STATEMENTS_ON) ctx.session.multiStatements = true;
    else if (option === MYSQL_OPTION_MULTI_STATEMENTS_OFF) ctx.session.multiStatements = false;
    else throw new GaleneError('UNKNOWN_COMMAND');
    writeEndOfRows(ctx.sink.writer, ctx.sink.deprecateEof, ctx.sink.statusFlags());
  },

  // The binary protocol arrives in a later step; until then every statement id is unknown.
  [CommandCode.STMT_PREPARE]: preparedStatementsUnsupported,
  [CommandCode.STMT_EXECUTE]: preparedStatementsUnsupported,
  [CommandCode.STMT_RESET]: preparedStatementsUnsupported,
  [CommandCode.STMT_FETCH]: preparedStatementsUnsupported,
  [CommandCode.STMT_CLOSE]: noReply,
  [CommandCode.STMT_SEND_LONG_DATA]: noReply,
};
