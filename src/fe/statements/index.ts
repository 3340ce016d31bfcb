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
import * as admin from './admin';
import * as adminOps from './admin-ops';
import * as ddl from './ddl';
import * as dml from './dml';
import * as query from './query';
import * as show from './show';

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
  createUser: admin.createUser,
  dropUser: admin.dropUser,
  setPassword: admin.setPassword,
  transaction: admin.transaction,
  prepare: admin.prepare,
  execute: admin.execute,
  deallocate: admin.deallocate,
  kill: admin.kill,
  sync: admin.sync,
  adminSetConfig: adminOps.adminSetConfig,
  cancelLoad: adminOps.cancelLoad,
  help: adminOps.help,
};
