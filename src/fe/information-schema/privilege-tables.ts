/**
 * information_schema.USER_PRIVILEGES, SCHEMA_PRIVILEGES and TABLE_PRIVILEGES with MySQL's columns, one row
 * per account and privilege, from the grants the accounts hold, their roles' included (so root shows
 * NODE and ADMIN). GRANTEE is `'user'@'host'`; PRIVILEGE_TYPE MySQL's word for Doris's privilege (SELECT,
 * LOAD, ALTER, CREATE, DROP, ADMIN, NODE, USAGE; GRANT_PRIV as IS_GRANTABLE = 'YES'). An account without
 * GRANT_PRIV sees only its own rows (MySQL's rule).
 */
import type { RawValue } from '../../common/column';
import type { DataType } from '../../common/types';
import type { GrantEntry } from '../privileges';
import type { Account } from '../users';

/** What the privilege tables read of the user store and the reading session. */
export interface PrivilegeFacts {
  /** Every account with the grants it holds (its own and its roles'). */
  accounts(): readonly { readonly account: Account; readonly grants: readonly GrantEntry[] }[];
  /** The reading account, and whether it may see every account's rows. */
  readonly reader: Account;
  readonly readerSeesAll: boolean;
}

const typeWord = (privilege: string): string => privilege.replace(/_PRIV$/, '');

function rows(facts: PrivilegeFacts, levels: readonly GrantEntry['level'][], shape: (grantee: string, entry: GrantEntry, privilege: string, grantable: string) => RawValue[]): RawValue[][] {
  const out: RawValue[][] = [];
  for (const { account, grants } of facts.accounts()) {
    if (!facts.readerSeesAll && (account.user !== facts.reader.user || account.host !== facts.reader.host)) continue;
    const grantee = `'${account.user}'@'${account.host}'`;
    for (const entry of grants) {
      if (!levels.includes(entry.level)) continue;
      const grantable = entry.privileges.includes('GRANT_PRIV') ? 'YES' : 'NO';
      for (const privilege of entry.privileges) if (privilege !== 'GRANT_PRIV') out.push(shape(grantee, entry, typeWord(privilege), grantable));
    }
  }
  return out;
}

/** The three tables, in index.ts's VirtualTable shape (columns; rows from the facts). */
export function privilegeTables(S: DataType): Record<string, { readonly columns: readonly (readonly [string, DataType])[]; readonly rows: (facts: PrivilegeFacts) => RawValue[][] }> {
  const cols = (...names: string[]): [string, DataType][] => names.map((name) => [name, S]);
  return {
    user_privileges: {
      columns: cols('GRANTEE', 'TABLE_CATALOG', 'PRIVILEGE_TYPE', 'IS_GRANTABLE'),
      rows: (facts) => rows(facts, ['global', 'catalog'], (grantee, _entry, privilege, grantable) => [grantee, 'def', privilege, grantable]),
    },
    schema_privileges: {
      columns: cols('GRANTEE', 'TABLE_CATALOG', 'TABLE_SCHEMA', 'PRIVILEGE_TYPE', 'IS_GRANTABLE'),
      rows: (facts) => rows(facts, ['database'], (grantee, entry, privilege, grantable) => [grantee, entry.catalog, entry.database, privilege, grantable]),
    },
    table_privileges: {
      columns: cols('GRANTEE', 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'PRIVILEGE_TYPE', 'IS_GRANTABLE'),
      rows: (facts) => rows(facts, ['table'], (grantee, entry, privilege, grantable) => [grantee, entry.catalog, entry.database, entry.table, privilege, grantable]),
    },
  };
}
