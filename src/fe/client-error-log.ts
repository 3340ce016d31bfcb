/**
 * Every error a client sees goes to the server log from here, and from nowhere else:
 * - MySQL ERR packets (login refusals, statement errors, protocol errors, a full server): the protocol
 *   layer reports each one it sends (ProtocolBackend.errorSent) and the Frontend hands it to
 *   `logMysqlError`, to fe.log with the statement's query id when a statement failed;
 * - HTTP answers (FE and BE ports): `watchHttpErrors` sees every response an HTTP server ends, and logs
 *   those with a status of 400 or more and the JSON answers that report a failure (a Stream Load's
 *   `"Status": "Fail"`, `"status": "FAILED"` / `"BAD"`), with the load's label and transaction id, to
 *   fe.log (FE port) or be.log (BE ports).
 * A statement's query id reaches the protocol's report through `markStatementError`, which the session
 * calls when the statement ends in an error (the error object carries no id of its own).
 */
import type * as http from 'node:http';
import type { ServerLog } from '../common/server-log';
import type { ClientErrorEvent } from '../protocol/backend';

interface StatementContext {
  readonly queryId: string;
  readonly statement: string;
}

const statementOf = new WeakMap<object, StatementContext>();

/** Statement text kept in a log line. */
const STATEMENT_CHARS = 200;
/** Largest JSON answer read back for a failure status (Stream Load answers are far smaller). */
const MAX_INSPECTED_BODY = 64 * 1024;

/** A statement ended with `err`: its ERR packet is logged with this query id and (redacted) text. */
export function markStatementError(err: unknown, queryId: string, statement: string): void {
  if (typeof err === 'object' && err !== null) statementOf.set(err, { queryId, statement });
}

/** One ERR packet sent to a MySQL client. */
export function logMysqlError(log: ServerLog, event: ClientErrorEvent): void {
  const context = typeof event.cause === 'object' && event.cause !== null ? statementOf.get(event.cause) : undefined;
  const who = event.user === null ? event.host : `${event.user}@${event.host}`;
  const statement = context ? ` (statement: ${context.statement.slice(0, STATEMENT_CHARS)})` : '';
  log.log('WARN', event.connectionId === 0 ? 'mysql' : `mysql-${event.connectionId}`, `${who} error ${event.errno}: ${event.message}${statement}`, context?.queryId);
}

/** What a failed JSON answer says, or null when it reports no failure. */
function failureOf(status: number, text: string): string | null {
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    body = null;
  }
  if (body === null) return status >= 400 ? text.slice(0, STATEMENT_CHARS) : null;
  const failed = status >= 400 || body.Status === 'Fail' || body.status === 'FAILED' || body.status === 'BAD' || (typeof body.code === 'number' && body.code !== 0);
  if (!failed) return null;
  const ids = [body.Label !== undefined ? `label=${String(body.Label)}` : '', body.TxnId !== undefined ? `txn_id=${String(body.TxnId)}` : ''].filter((part) => part !== '').join(' ');
  const message = body.Message ?? body.msg ?? body.message ?? text.slice(0, STATEMENT_CHARS);
  return `${ids === '' ? '' : `${ids} `}${String(message)}`;
}

/**
 * Log the failure `res` answers, if it does, when the response ends: the one hook every HTTP answer of a
 * Galene server passes (createHttpServer calls it for each request before any route runs).
 */
export function watchHttpErrors(log: ServerLog, thread: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  const client = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  res.end = ((...args: unknown[]) => {
    const chunk = args[0];
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) && chunk.length <= MAX_INSPECTED_BODY ? chunk.toString('utf8') : '';
    // Headers given to writeHead are not readable back (getHeader): a JSON answer is known by its text.
    if (res.statusCode >= 400 || text.trimStart().startsWith('{')) {
      const failure = failureOf(res.statusCode, text);
      if (failure !== null) log.log('WARN', thread, `${client} ${req.method} ${(req.url ?? '').split('?')[0]} answered ${res.statusCode}: ${failure}`);
    }
    return end(...args);
  }) as typeof res.end;
}
