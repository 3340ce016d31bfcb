/**
 * Cluster membership statements (Doris): ALTER SYSTEM ADD / DROP / DECOMMISSION BACKEND 'host:port'
 * (the BE's heartbeat_service_port) and ALTER SYSTEM RENAME COMPUTE GROUP (NODE_PRIV, checked in
 * statement-privileges.ts), and SHOW COMPUTE GROUPS. Every endpoint of a statement is checked before
 * anything changes, so a statement with one bad or unknown endpoint changes nothing. Also a user's
 * `default_compute_group` (SET PROPERTY / SHOW PROPERTY): the group of a session that did not USE @cg.
 */
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import { DEFAULT_COMPUTE_GROUP, parseHostPort } from '../../meta/cluster-membership';
import type { AlterSystemStatement, SetPropertyStatement, ShowStatement } from '../../sql/ast';
import { filterRows } from './show-filter';
import { privilegesOf, requireGlobal } from './statement-privileges';
import { COMPUTE_GROUP_COLUMNS, computeGroupRows } from '../cluster-facts';
import type { ComputeGroupAccess } from '../cluster-scan-route';
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

const USER_PROPERTY = 'default_compute_group';

/** The compute group the session chose: USE @cg (the `compute_group` variable), else the user's default_compute_group; null: neither. */
export function chosenComputeGroup(session: Pick<StatementSession, 'variables' | 'fe' | 'user'>): string | null {
  const chosen = session.variables.get('compute_group');
  if (typeof chosen === 'string' && chosen !== '') return chosen;
  return session.fe.catalog.meta.getUserProperty(session.user, USER_PROPERTY) ?? null;
}

/** Whether the session's account holds USAGE_PRIV on the compute group (ADMIN_PRIV holds it too). */
export function mayUseComputeGroup(session: StatementSession, group: string): boolean {
  return privilegesOf(session).hasResource(`COMPUTE GROUP ${group}`);
}

/** The session's access to compute groups, for the scan route's choice. */
export function computeGroupAccess(session: StatementSession): ComputeGroupAccess {
  return { mayUse: (group) => mayUseComputeGroup(session, group), denied: (group) => new GaleneError('COMPUTE_GROUP_USAGE_DENIED', [session.user, session.host, group]) };
}

/** USE @cg and SET PROPERTY 'default_compute_group' for oneself need USAGE_PRIV on the group (Doris). */
export function requireComputeGroupUsage(session: StatementSession, group: string): void {
  if (!mayUseComputeGroup(session, group)) throw computeGroupAccess(session).denied(group);
}

/** The session's compute group: the one it chose, else Doris's default group. */
export function sessionComputeGroup(session: StatementSession): string {
  return chosenComputeGroup(session) ?? DEFAULT_COMPUTE_GROUP;
}

/** FOR another user needs GRANT_PRIV (Doris SetUserPropertyCommand); the user must exist. */
function propertyUser(session: StatementSession, user: string | null): string {
  if (user === null || user === session.user) return session.user;
  requireGlobal(session, 'GRANT_PRIV');
  if (!session.fe.users.list().some((record) => record.user === user)) throw new GaleneError('UNKNOWN_USER_PROPERTY_TARGET', [user]);
  return user;
}

/** SET PROPERTY [FOR 'user'] 'default_compute_group' = 'cg' ('' unsets it): every key and group checked first. */
export async function runSetProperty(session: StatementSession, statement: SetPropertyStatement): Promise<StatementResult> {
  const user = propertyUser(session, statement.user);
  for (const [key, value] of statement.properties) {
    if (key.toLowerCase() !== USER_PROPERTY) throw new GaleneError('UNKNOWN_USER_PROPERTY', [key]);
    if (value !== '' && !session.fe.cluster.groups().some((group) => group.name === value)) throw new GaleneError('COMPUTE_GROUP_NOT_EXISTS', [value]);
    if (value !== '' && user === session.user) requireComputeGroupUsage(session, value);
  }
  for (const [, value] of statement.properties) session.fe.catalog.meta.setUserProperty(user, USER_PROPERTY, value);
  return okResult();
}

/** SHOW PROPERTY [FOR user] [LIKE 'pattern']: Doris's Key / Value columns, the properties Galene honours. */
export function showProperty(session: StatementSession, statement: ShowStatement): StatementResult {
  const user = propertyUser(session, statement.target?.name ?? null);
  const columns: [string][] = [['Key'], ['Value']];
  return rowsResult(columns, filterRows(statement, columns, [[USER_PROPERTY, session.fe.catalog.meta.getUserProperty(user, USER_PROPERTY) ?? '']]));
}

export function showComputeGroups(session: StatementSession, _statement: ShowStatement): StatementResult {
  // Only the groups the account may use (all of them for an admin), as Doris.
  return rowsResult(COMPUTE_GROUP_COLUMNS, computeGroupRows(session.fe, sessionComputeGroup(session)).filter((row) => mayUseComputeGroup(session, String(row[0]))));
}
