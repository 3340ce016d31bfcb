/**
 * Cluster membership statements (Doris): ALTER SYSTEM ADD / DROP / DECOMMISSION BACKEND 'host:port'
 * (the BE's heartbeat_service_port) and ALTER SYSTEM RENAME COMPUTE GROUP (NODE_PRIV, checked in
 * statement-privileges.ts), and SHOW COMPUTE GROUPS. Every endpoint of a statement is checked before
 * anything changes, so a statement with one bad or unknown endpoint changes nothing.
 */
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import { DEFAULT_COMPUTE_GROUP, parseHostPort } from '../../meta/cluster-membership';
import type { AlterSystemStatement, ShowStatement } from '../../sql/ast';
import { COMPUTE_GROUP_COLUMNS, computeGroupRows } from '../cluster-facts';
import { okResult, rowsResult } from './result-rows';
import type { StatementSession } from './statement-session';

const GROUP_PROPERTY = 'tag.compute_group_name';

export async function runAlterSystem(session: StatementSession, statement: AlterSystemStatement): Promise<StatementResult> {
  const cluster = session.fe.cluster;
  const action = statement.action;
  if (action.op === 'renameComputeGroup') {
    cluster.renameGroup(action.oldName, action.newName);
    session.fe.placement.renameGroup(action.oldName, action.newName);
    return okResult();
  }
  const endpoints = action.endpoints.map(parseHostPort);
  switch (action.op) {
    case 'addBackend': {
      for (const key of Object.keys(action.properties)) if (key !== GROUP_PROPERTY) throw new GaleneError('INVALID_PROPERTY', [key, `unknown backend property (only ${GROUP_PROPERTY})`]);
      const group = action.properties[GROUP_PROPERTY] ?? DEFAULT_COMPUTE_GROUP;
      // All or nothing: a duplicate among them (or of a known BE) is found before the first is added.
      const seen = new Set<string>();
      for (const { host, port } of endpoints) {
        const key = `${host}:${port}`;
        if (seen.has(key) || cluster.list().some((backend) => !backend.local && backend.host === host && backend.heartbeatPort === port)) throw new GaleneError('BACKEND_EXISTS', [key]);
        seen.add(key);
      }
      for (const { host, port } of endpoints) cluster.add(host, port, group);
      return okResult();
    }
    case 'dropBackend':
      cluster.drop(endpoints);
      return okResult();
    case 'decommissionBackend':
      cluster.decommission(endpoints);
      return okResult();
  }
}

/** The session's compute group: the `compute_group` session variable, else Doris's default group. */
export function sessionComputeGroup(session: StatementSession): string {
  const chosen = session.variables.get('compute_group');
  return typeof chosen === 'string' && chosen !== '' ? chosen : DEFAULT_COMPUTE_GROUP;
}

export function showComputeGroups(session: StatementSession, _statement: ShowStatement): StatementResult {
  return rowsResult(COMPUTE_GROUP_COLUMNS, computeGroupRows(session.fe, sessionComputeGroup(session)));
}
