/**
 * Functions that read the session: version(), database(), user(), current_user(), connection_id(),
 * last_query_id().
 * They are constant within a statement (volatility 'statement'): evaluated once per batch.
 */
import { constantVector } from '../../../common/column';
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';

function sessionFunction(name: string, aliases: string[], type: typeof Types.STRING, read: (ctx: Parameters<FunctionDef['kernel']>[3]) => string | number | null, description: string): FunctionDef {
  return {
    name,
    aliases,
    family: 'session',
    signature: `${name}() -> ${type.name}`,
    minArgs: 0,
    maxArgs: 0,
    resolve: () => ({ argTypes: [], returnType: type }),
    nulls: 'custom',
    volatility: 'statement',
    kernel: (_args, rowCount, site, ctx) => {
      const value = read(ctx);
      return constantVector(site.returnType, type.name === 'BIGINT' && value !== null ? BigInt(value) : value, rowCount);
    },
    description,
    example: `SELECT ${name}()`,
  };
}

export const SESSION_FUNCTIONS: readonly FunctionDef[] = [
  sessionFunction('version', [], Types.STRING, (ctx) => ctx.sessionInfo.version, 'The server version string (MySQL-compatible form).'),
  sessionFunction('database', ['schema'], Types.STRING, (ctx) => ctx.sessionInfo.database, 'The current database, NULL when none is selected.'),
  // MySQL's forms (https://dev.mysql.com/doc/refman/8.0/en/information-functions.html#function_user):
  // USER() is the client's user@host, CURRENT_USER() the account it matched, user@host-pattern; no quotes.
  sessionFunction('user', ['session_user', 'system_user'], Types.STRING, (ctx) => `${ctx.sessionInfo.user}@${ctx.sessionInfo.host}`, 'The connected user and the host it connected from, as user@host (e.g. root@127.0.0.1).'),
  sessionFunction('current_user', [], Types.STRING, (ctx) => `${ctx.sessionInfo.user}@${ctx.sessionInfo.accountHost ?? '%'}`, "The account the session authenticated as, user@host-pattern (e.g. root@%)."),
  sessionFunction('connection_id', [], Types.BIGINT, (ctx) => ctx.sessionInfo.connectionId, 'The id of this connection.'),
  sessionFunction('last_query_id', [], Types.STRING, (ctx) => ctx.sessionInfo.lastQueryId ?? null, "The query id of this session's previous statement (as SHOW QUERY PROFILE and the audit log show it); NULL when there is none."),
  sessionFunction('current_catalog', [], Types.STRING, () => 'internal', "The current catalog (always 'internal')."),
];
