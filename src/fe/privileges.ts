/**
 * Doris's privilege model: privileges granted at a level (global `*.*.*`, catalog `ctl.*.*`, database
 * `ctl.db.*`, table `ctl.db.tbl`, or a named resource / compute group / workload group) to an account or a
 * role; an account holds its own grants and those of its roles. ADMIN_PRIV holds every privilege but
 * NODE_PRIV. https://doris.apache.org/docs/admin-manual/auth/authorization/internal
 *
 * Pure data and checks: the UserManager (users.ts) keeps and persists the grants; the statement check
 * (statements/statement-privileges.ts), SHOW and information_schema read them through these functions.
 */

/** Doris's privilege names, in the order SHOW GRANTS lists them. */
export type Privilege = 'NODE_PRIV' | 'ADMIN_PRIV' | 'GRANT_PRIV' | 'SELECT_PRIV' | 'LOAD_PRIV' | 'ALTER_PRIV' | 'CREATE_PRIV' | 'DROP_PRIV' | 'USAGE_PRIV';

export const PRIVILEGE_ORDER: readonly Privilege[] = ['NODE_PRIV', 'ADMIN_PRIV', 'GRANT_PRIV', 'SELECT_PRIV', 'LOAD_PRIV', 'ALTER_PRIV', 'CREATE_PRIV', 'DROP_PRIV', 'USAGE_PRIV'];

/** Privileges that can be granted on tables and databases (the rest are global or resource-only). */
const TABLE_PRIVILEGES: ReadonlySet<Privilege> = new Set(['GRANT_PRIV', 'SELECT_PRIV', 'LOAD_PRIV', 'ALTER_PRIV', 'CREATE_PRIV', 'DROP_PRIV']);

/** The internal catalog, the only one Galene has. */
export const INTERNAL_CATALOG = 'internal';

/** One grant: privileges at a level. `*` is a wildcard part; a resource grant names its resource. */
export interface GrantEntry {
  readonly level: 'global' | 'catalog' | 'database' | 'table' | 'resource';
  readonly catalog: string;
  readonly database: string;
  readonly table: string;
  /** For level 'resource': e.g. `COMPUTE GROUP default_compute_group`. */
  readonly resource: string;
  readonly privileges: readonly Privilege[];
}

/** SHOW GRANTS spelling: Select_priv. */
export const privilegeLabel = (privilege: Privilege): string => privilege[0] + privilege.slice(1).toLowerCase();

const sameName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The level of `ctl.db.tbl` (validated: `*` parts only on the right). */
export function grantLevel(catalog: string, database: string, table: string): GrantEntry['level'] {
  if (catalog === '*') return 'global';
  if (database === '*') return 'catalog';
  if (table === '*') return 'database';
  return 'table';
}

/**
 * Why the privileges cannot be granted at that level (Doris GrantStmt's checks), or null.
 */
export function grantProblem(level: GrantEntry['level'], privileges: readonly Privilege[]): string | null {
  if (level === 'resource') return privileges.every((privilege) => privilege === 'USAGE_PRIV') ? null : 'Only USAGE_PRIV can be granted on a resource, compute group, workload group or storage vault';
  if (privileges.includes('USAGE_PRIV')) return 'USAGE_PRIV can only be granted on a resource, compute group, workload group or storage vault';
  if (level !== 'global' && (privileges.includes('ADMIN_PRIV') || privileges.includes('NODE_PRIV'))) return 'ADMIN_PRIV and NODE_PRIV can only be granted/revoke on/from *.*.*';
  if (level !== 'global' && privileges.some((privilege) => !TABLE_PRIVILEGES.has(privilege))) return 'invalid privilege for this level';
  return null;
}

/** Whether grant `entry` covers the table (or, with table null, the database; with database null, the catalog). */
function covers(entry: GrantEntry, database: string | null, table: string | null): boolean {
  switch (entry.level) {
    case 'global':
      return true;
    case 'catalog':
      return sameName(entry.catalog, INTERNAL_CATALOG);
    case 'database':
      return database !== null && sameName(entry.catalog, INTERNAL_CATALOG) && entry.database === database;
    case 'table':
      return database !== null && table !== null && sameName(entry.catalog, INTERNAL_CATALOG) && entry.database === database && sameName(entry.table, table);
    case 'resource':
      return false;
  }
}

const holds = (entry: GrantEntry, privilege: Privilege): boolean => entry.privileges.includes(privilege) || (privilege !== 'NODE_PRIV' && entry.level === 'global' && entry.privileges.includes('ADMIN_PRIV'));

/** The privileges of one account at the time of a check (its own grants and its roles'). */
export class PrivilegeSet {
  constructor(readonly grants: readonly GrantEntry[]) {}

  /** A global privilege (ADMIN_PRIV implies all but NODE_PRIV). */
  hasGlobal(privilege: Privilege): boolean {
    return this.grants.some((entry) => entry.level === 'global' && holds(entry, privilege));
  }

  /** `privilege` on the table, from a grant at any covering level. */
  hasTable(privilege: Privilege, database: string, table: string): boolean {
    return this.grants.some((entry) => covers(entry, database, table) && holds(entry, privilege));
  }

  /** `privilege` on the database itself (global, catalog or database grants). */
  hasDatabase(privilege: Privilege, database: string): boolean {
    return this.grants.some((entry) => covers(entry, database, null) && holds(entry, privilege));
  }

  /**
   * Whether the database is visible (SHOW DATABASES, USE): any privilege on it or on a table in it, as
   * Doris's SHOW predicate. information_schema is visible to every account (Doris grants it to all).
   */
  seesDatabase(database: string, informationSchema: boolean): boolean {
    if (informationSchema) return true;
    return this.grants.some((entry) => entry.level !== 'resource' && (covers(entry, database, null) || (entry.level === 'table' && entry.database === database)) && entry.privileges.length > 0);
  }

  /** Whether the table is visible (SHOW TABLES, information_schema): any privilege on it. */
  seesTable(database: string, table: string, informationSchema: boolean): boolean {
    if (informationSchema) return true;
    return this.grants.some((entry) => covers(entry, database, table) && entry.privileges.length > 0);
  }

  /** USAGE_PRIV on a resource (`COMPUTE GROUP name`, ...); ADMIN_PRIV holds it too. */
  hasResource(resource: string): boolean {
    return this.hasGlobal('ADMIN_PRIV') || this.grants.some((entry) => entry.level === 'resource' && entry.resource === resource && entry.privileges.includes('USAGE_PRIV'));
  }
}

/** Grants `next` merged into `grants` (privileges of the same target are unioned). */
export function addGrant(grants: readonly GrantEntry[], next: GrantEntry): GrantEntry[] {
  const out = [...grants];
  const idx = out.findIndex((entry) => sameTarget(entry, next));
  if (idx < 0) out.push({ ...next, privileges: sortPrivileges(next.privileges) });
  else out[idx] = { ...out[idx], privileges: sortPrivileges([...out[idx].privileges, ...next.privileges]) };
  return out;
}

/** Grants with `removed`'s privileges taken off its target; null when the target holds none of them. */
export function removeGrant(grants: readonly GrantEntry[], removed: GrantEntry): GrantEntry[] | null {
  const idx = grants.findIndex((entry) => sameTarget(entry, removed));
  if (idx < 0 || !removed.privileges.some((privilege) => grants[idx].privileges.includes(privilege))) return null;
  const out = [...grants];
  const left = out[idx].privileges.filter((privilege) => !removed.privileges.includes(privilege));
  if (left.length === 0) out.splice(idx, 1);
  else out[idx] = { ...out[idx], privileges: left };
  return out;
}

function sameTarget(a: GrantEntry, b: GrantEntry): boolean {
  return a.level === b.level && sameName(a.catalog, b.catalog) && a.database === b.database && sameName(a.table, b.table) && a.resource === b.resource;
}

function sortPrivileges(privileges: readonly Privilege[]): Privilege[] {
  return PRIVILEGE_ORDER.filter((privilege) => privileges.includes(privilege));
}

/** SHOW GRANTS's text of a grant's target: `internal.db.t`, `internal.db`, `internal`, or the resource. */
export function grantTargetText(entry: GrantEntry): string {
  switch (entry.level) {
    case 'global':
      return '*.*.*';
    case 'catalog':
      return entry.catalog;
    case 'database':
      return `${entry.catalog}.${entry.database}`;
    case 'table':
      return `${entry.catalog}.${entry.database}.${entry.table}`;
    case 'resource':
      return entry.resource;
  }
}
