/**
 * Statement handlers, one per AST statement kind. The Record type makes the build fail until a new
 * statement kind has a handler. A handler gets the connection's session and may import what fe/ may
 * (DESIGN §6: sql/, exec/, load/, storage/, meta/, common/, and the FE's own session-side files); it does
 * not reach the server or other sessions except through the session.
 */
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import type { Statement } from '../../sql/ast';
import type { StatementSession } from './statement-session';
import * as account from './account';
import * as admin from './admin';
import * as adminOps from './admin-ops';
import * as buildIndex from './build-index';
import { runAlterSystem, runSetProperty } from './cluster-admin';
import * as ddl from './ddl';
import * as dml from './dml';
import * as query from './query';
import * as show from './show';
import { checkStatement } from './statement-privileges';
import { runStatsStatement } from './stats';
import { runStorageVault } from './storage-vault';
import * as toolCompat from './tool-compat';
import { runViewStatement } from './view-ddl';

export type StatementHandler<S extends Statement = Statement> = (session: StatementSession, statement: S, sqlText: string, profile: QueryProfile) => Promise<StatementResult>;

type HandlerTable = { [K in Statement['kind']]: StatementHandler<Extract<Statement, { kind: K }>> };

export const STATEMENT_HANDLERS: HandlerTable = {
  query: query.runQueryStatement,
  explain: query.runExplain,
  insert: dml.runInsert,
  delete: dml.runDelete,
  update: dml.runUpdate,
  createDatabase: ddl.createDatabase,
  dropDatabase: ddl.dropDatabase,
  use: admin.use,
  createTable: ddl.createTable,
  dropTable: ddl.dropTable,
  alterTable: ddl.alterTable,
  truncateTable: ddl.truncateTable,
  show: show.runShow,
  describe: show.runDescribe,
  set: admin.set,
  createUser: account.createUser,
  dropUser: account.dropUser,
  setPassword: account.setPassword,
  transaction: admin.transaction,
  prepare: admin.prepare,
  execute: admin.execute,
  deallocate: admin.deallocate,
  kill: admin.kill,
  sync: admin.sync,
  grant: account.grant,
  createRole: account.createRole,
  dropRole: account.dropRole,
  alterUser: account.alterUser,
  lockTables: toolCompat.lockTables,
  adminSetConfig: adminOps.adminSetConfig,
  cancelLoad: adminOps.cancelLoad,
  help: adminOps.help,
  buildIndex: buildIndex.buildIndex,
  cancelBuildIndex: buildIndex.cancelBuildIndex,
  storageVault: runStorageVault,
  alterSystem: runAlterSystem,
  setProperty: runSetProperty,
  view: runViewStatement,
  stats: runStatsStatement,
};

/** Check the statement's privileges (statement-privileges.ts), then run its handler: the one way in. */
export function runStatement(session: StatementSession, statement: Statement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  checkStatement(session, statement);
  return STATEMENT_HANDLERS[statement.kind](session, statement as never, sqlText, profile);
}
