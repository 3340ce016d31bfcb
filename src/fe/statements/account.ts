/**
 * Users, roles and grants: CREATE / ALTER / DROP USER, SET PASSWORD, CREATE / DROP ROLE, GRANT / REVOKE,
 * and SHOW GRANTS / SHOW ALL GRANTS / SHOW ROLES in Doris's shape. The privilege each needs is checked by
 * statement-privileges.ts, except GRANT / REVOKE, whose need depends on the level granted (here).
 */
import type { RawValue } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import type { AlterUserStatement, CreateRoleStatement, CreateUserStatement, DropRoleStatement, DropUserStatement, GrantStatement, SetPasswordStatement, ShowStatement } from '../../sql/ast';
import { INFORMATION_SCHEMA } from '../../meta/catalog';
import { informationSchemaTableNames } from '../information-schema';
import { GrantEntry, grantLevel, grantProblem, grantTargetText, Privilege, PRIVILEGE_ORDER, privilegeLabel } from '../privileges';
import { Account, UserManager } from '../users';
import { okResult, rowsResult } from './result-rows';
import type { StatementSession } from './statement-session';
import { privilegesOf, requireGlobal } from './statement-privileges';

export async function createUser(session: StatementSession, statement: CreateUserStatement): Promise<StatementResult> {
  const { user, host } = statement.user;
  session.fe.users.create(user, host, statement.password, statement.ifNotExists, statement.defaultRole, statement.passwordOptions);
  return okResult();
}

export async function dropUser(session: StatementSession, statement: DropUserStatement): Promise<StatementResult> {
  session.fe.users.drop(statement.user.user, statement.user.host, statement.ifExists);
  return okResult();
}

export async function alterUser(session: StatementSession, statement: AlterUserStatement): Promise<StatementResult> {
  session.fe.users.alter(statement.user.user, statement.user.host, statement.ifExists, statement.password, statement.passwordOptions);
  return okResult();
}

export async function setPassword(session: StatementSession, statement: SetPasswordStatement): Promise<StatementResult> {
  const target = statement.user ?? session.account;
  session.fe.users.setPassword(target.user, target.host, statement.password, statement.hashed);
  return okResult();
}

export async function createRole(session: StatementSession, statement: CreateRoleStatement): Promise<StatementResult> {
  session.fe.users.createRole(statement.role, statement.ifNotExists, statement.comment);
  return okResult();
}

export async function dropRole(session: StatementSession, statement: DropRoleStatement): Promise<StatementResult> {
  session.fe.users.dropRole(statement.role, statement.ifExists);
  return okResult();
}

/** The grant a GRANT / REVOKE names, validated as Doris's GrantStmt does. */
function grantEntry(statement: GrantStatement): GrantEntry {
  const target = statement.target!;
  const privileges = statement.privileges as Privilege[];
  let entry: GrantEntry;
  if (target.kind === 'resource') entry = { level: 'resource', catalog: '', database: '', table: '', resource: `${target.resourceType} ${target.name}`, privileges };
  else entry = { level: grantLevel(target.catalog, target.database, target.table), catalog: target.catalog, database: target.database, table: target.table, resource: '', privileges };
  const problem = grantProblem(entry.level, privileges);
  if (problem !== null) throw new GaleneError('GRANT_ERROR', [problem]);
  if (entry.level !== 'global' && entry.level !== 'resource' && entry.catalog.toLowerCase() !== 'internal') throw new GaleneError('GRANT_ERROR', [`Unknown catalog '${entry.catalog}'`]);
  return entry;
}

/**
 * Doris Auth.checkTablePatternExist: a GRANT on a database or table of the internal catalog needs it to exist,
 * unless it grants CREATE_PRIV (which is how one lets an account create it); REVOKE does not check.
 */
function requireGrantTargetExists(session: StatementSession, entry: GrantEntry): void {
  if (entry.privileges.includes('CREATE_PRIV') || (entry.level !== 'database' && entry.level !== 'table')) return;
  const informationSchema = entry.database.toLowerCase() === INFORMATION_SCHEMA;
  const catalog = session.fe.catalog;
  if (!informationSchema && !catalog.hasDatabase(entry.database)) throw new GaleneError('GRANT_ERROR', [`database:${entry.database} does not exist`]);
  if (entry.level === 'database') return;
  const exists = informationSchema ? informationSchemaTableNames().some((name) => name.toLowerCase() === entry.table.toLowerCase()) : catalog.findTable(entry.database, entry.table) !== undefined;
  if (!exists) throw new GaleneError('GRANT_ERROR', [`table:${entry.table} does not exist`]);
}

/**
 * GRANT / REVOKE. Roles and global or resource privileges need GRANT_PRIV globally; a database or table
 * privilege needs GRANT_PRIV at that level or above (Doris). root and the operator role are fixed.
 */
export async function grant(session: StatementSession, statement: GrantStatement): Promise<StatementResult> {
  const users = session.fe.users;
  const grantee = statement.grantee.kind === 'role' ? { role: statement.grantee.role } : { user: statement.grantee.user };
  if (UserManager.isFixedGrantee(grantee)) throw new GaleneError('GRANT_ERROR', ['Can not grant/revoke privileges to/from root or the operator role']);
  if (statement.roles.length > 0) {
    requireGlobal(session, 'GRANT_PRIV');
    users.grantRoles(statement.grantee.kind === 'user' ? statement.grantee.user : session.account, statement.roles, statement.revoke);
    return okResult();
  }
  const entry = grantEntry(statement);
  const privileges = privilegesOf(session);
  const allowed =
    entry.level === 'database' ? privileges.hasDatabase('GRANT_PRIV', entry.database) : entry.level === 'table' ? privileges.hasTable('GRANT_PRIV', entry.database, entry.table) : privileges.hasGlobal('GRANT_PRIV');
  if (!allowed) throw new GaleneError('SPECIFIC_ACCESS_DENIED', ['GRANT']);
  if (!statement.revoke) requireGrantTargetExists(session, entry);
  if (statement.revoke) users.revoke(grantee, entry);
  else users.grant(grantee, entry);
  return okResult();
}

// ------------------------------------------------------------ SHOW GRANTS / SHOW ROLES

const privilegeList = (privileges: readonly Privilege[]): string => PRIVILEGE_ORDER.filter((privilege) => privileges.includes(privilege)).map(privilegeLabel).join(',');

/** Doris's grant columns: GlobalPrivs, CatalogPrivs, DatabasePrivs, TablePrivs, ResourcePrivs (`target: privs; ...`, NULL when none). */
function grantColumns(grants: readonly GrantEntry[]): RawValue[] {
  const byLevel = (levels: readonly GrantEntry['level'][]): string | null => {
    const parts = grants.filter((entry) => levels.includes(entry.level) && entry.privileges.length > 0).map((entry) => `${grantTargetText(entry)}: ${privilegeList(entry.privileges)}`);
    return parts.length ? parts.join('; ') : null;
  };
  const global = grants.filter((entry) => entry.level === 'global').flatMap((entry) => entry.privileges);
  return [global.length ? privilegeList(global) : null, byLevel(['catalog']), byLevel(['database']), byLevel(['table']), byLevel(['resource'])];
}

const GRANTS_COLUMNS: [string][] = [['UserIdentity'], ['Comment'], ['Password'], ['Roles'], ['GlobalPrivs'], ['CatalogPrivs'], ['DatabasePrivs'], ['TablePrivs'], ['ColPrivs'], ['ResourcePrivs'], ['WorkloadGroupPrivs'], ['ComputeGroupPrivs'], ['StorageVaultPrivs']];

function grantsRow(users: UserManager, account: Account): RawValue[] {
  const record = users.list().find((candidate) => candidate.user === account.user && candidate.host === account.host);
  const roles = users.rolesOf(account);
  const effective = users.privilegesOf(account).grants;
  const [global, catalog, database, table] = grantColumns(effective);
  const resources = effective.filter((entry) => entry.level === 'resource');
  const ofType = (prefix: string): string | null => {
    const parts = resources.filter((entry) => entry.resource.startsWith(prefix)).map((entry) => `${entry.resource.slice(prefix.length)}: ${privilegeList(entry.privileges)}`);
    return parts.length ? parts.join('; ') : null;
  };
  return [`'${account.user}'@'${account.host}'`, '', record && record.passwordHash !== '' ? 'Yes' : 'No', roles.join(','), global, catalog, database, table, null, ofType('RESOURCE '), ofType('WORKLOAD GROUP '), ofType('COMPUTE GROUP '), ofType('STORAGE VAULT ')];
}

/** SHOW GRANTS [FOR u]: one account (the session's own by default); SHOW ALL GRANTS: every account. */
export function showGrants(session: StatementSession, statement: ShowStatement): StatementResult {
  const users = session.fe.users;
  if (statement.what === 'all grants') return rowsResult(GRANTS_COLUMNS, users.list().map((record) => grantsRow(users, record)));
  const account = statement.forUser ?? session.account;
  if (!users.list().some((record) => record.user === account.user && record.host === account.host)) throw new GaleneError('NONEXISTING_GRANT', [account.user, account.host]);
  return rowsResult(GRANTS_COLUMNS, [grantsRow(users, account)]);
}

/** SHOW ROLES: Doris's columns. */
export function showRoles(session: StatementSession): StatementResult {
  const users = session.fe.users;
  const rows = users.listRoles().map((role) => {
    const [global, catalog, database, table, resource] = grantColumns(role.grants);
    const members = users.roleMembers(role.name).map((account) => `${account.user}@${account.host}`).join(', ');
    return [role.name, role.comment, members, global, catalog, database, table, resource, null];
  });
  return rowsResult([['Name'], ['Comment'], ['Users'], ['GlobalPrivs'], ['CatalogPrivs'], ['DatabasePrivs'], ['TablePrivs'], ['ResourcePrivs'], ['WorkloadGroupPrivs']], rows);
}

/** The SHOW forms of this module, spread into SHOW_HANDLERS (show.ts). */
export const ACCOUNT_SHOW_HANDLERS = {
  grants: showGrants,
  'all grants': showGrants,
  roles: showRoles,
};
