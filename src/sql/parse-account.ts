/**
 * Account grammar (Doris): CREATE / ALTER / DROP USER with password options, CREATE / DROP ROLE,
 * GRANT / REVOKE of privileges on `ctl.db.tbl` (or a resource) and of roles.
 *
 * Privileges take Doris's names (SELECT_PRIV, LOAD_PRIV, ALTER_PRIV, CREATE_PRIV, DROP_PRIV, ADMIN_PRIV,
 * GRANT_PRIV, USAGE_PRIV, NODE_PRIV) and the MySQL spellings Doris accepts (SELECT, INSERT -> LOAD_PRIV,
 * ALTER, CREATE, DROP, ALL [PRIVILEGES]). https://doris.apache.org/docs/sql-manual/sql-statements/account-management/GRANT-TO
 */
import type { AlterUserStatement, CreateRoleStatement, CreateUserStatement, DropRoleStatement, GrantStatement, Grantee, PasswordOptions, PrivilegeTarget, Statement, UserIdentity } from './ast';
import { Token, TokenKind } from './lexer';
import { DdlParser } from './parse-ddl';

/** Doris's privilege names. */
export const DORIS_PRIVILEGES = ['NODE_PRIV', 'ADMIN_PRIV', 'GRANT_PRIV', 'SELECT_PRIV', 'LOAD_PRIV', 'ALTER_PRIV', 'CREATE_PRIV', 'DROP_PRIV', 'USAGE_PRIV'] as const;

/** MySQL spellings Doris accepts, by the Doris privileges they stand for (Doris AccessPrivilege). */
const PRIVILEGE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  SELECT: ['SELECT_PRIV'],
  INSERT: ['LOAD_PRIV'],
  LOAD: ['LOAD_PRIV'],
  ALTER: ['ALTER_PRIV'],
  CREATE: ['CREATE_PRIV'],
  DROP: ['DROP_PRIV'],
  ALL: ['SELECT_PRIV', 'LOAD_PRIV', 'ALTER_PRIV', 'CREATE_PRIV', 'DROP_PRIV'],
  READ_ONLY: ['SELECT_PRIV'],
  READ_WRITE: ['SELECT_PRIV', 'LOAD_PRIV'],
};

const SECONDS_PER_UNIT: Readonly<Record<string, number>> = { SECOND: 1, HOUR: 3600, DAY: 86400 };

export abstract class AccountParser extends DdlParser {
  /** 'user'[@'host'] | user[@host]; host defaults to '%'. */
  protected parseUserIdentity(): UserIdentity {
    const user = this.parseIdentOrString();
    let host = '%';
    if (this.tok.kind === TokenKind.UserVar) {
      host = this.advance().text;
    } else if (this.acceptOp('@')) {
      host = this.parseIdentOrString();
    }
    return { user, host };
  }

  /** After CREATE: USER or ROLE; null for anything else. */
  protected parseCreateAccount(start: Token): Statement | null {
    if (this.isWord('USER')) return this.parseCreateUser(start);
    if (this.isWord('ROLE')) {
      this.advance();
      const ifNotExists = this.acceptWords('IF', 'NOT', 'EXISTS');
      const role = this.parseIdentOrString();
      const comment = this.acceptWord('COMMENT') ? this.parseStringLiteral() : '';
      const stmt: CreateRoleStatement = { kind: 'createRole', role, ifNotExists, comment, pos: start.pos, end: this.lastEnd };
      return stmt;
    }
    return null;
  }

  /** After DROP: USER or ROLE; null for anything else. */
  protected parseDropAccount(start: Token): Statement | null {
    if (this.isWord('USER')) {
      this.advance();
      const ifExists = this.acceptWords('IF', 'EXISTS');
      const user = this.parseUserIdentity();
      return { kind: 'dropUser', user, ifExists, pos: start.pos, end: this.lastEnd };
    }
    if (this.isWord('ROLE')) {
      this.advance();
      const ifExists = this.acceptWords('IF', 'EXISTS');
      const stmt: DropRoleStatement = { kind: 'dropRole', role: this.parseIdentOrString(), ifExists, pos: start.pos, end: this.lastEnd };
      return stmt;
    }
    return null;
  }

  private parseCreateUser(start: Token): Statement {
    this.advance();
    const ifNotExists = this.acceptWords('IF', 'NOT', 'EXISTS');
    const user = this.parseUserIdentity();
    const password = this.parseIdentifiedBy();
    const defaultRole = this.acceptWords('DEFAULT', 'ROLE') ? this.parseIdentOrString() : null;
    const passwordOptions = this.parsePasswordOptions(false);
    const comment = this.acceptWord('COMMENT');
    if (comment) this.parseStringLiteral();
    const stmt: CreateUserStatement = { kind: 'createUser', user, password, ifNotExists, defaultRole, passwordOptions, pos: start.pos, end: this.lastEnd };
    return stmt;
  }

  /** `ALTER USER [IF EXISTS] u [IDENTIFIED BY 'p'] [options]`; the caller consumed ALTER. */
  protected parseAlterUser(start: Token): Statement {
    this.expectWord('USER');
    const ifExists = this.acceptWords('IF', 'EXISTS');
    const user = this.parseUserIdentity();
    const password = this.parseIdentifiedBy();
    const passwordOptions = this.parsePasswordOptions(true);
    if (password === null && Object.keys(passwordOptions).length === 0) throw this.error('expected IDENTIFIED BY or a password option');
    const stmt: AlterUserStatement = { kind: 'alterUser', user, ifExists, password, passwordOptions, pos: start.pos, end: this.lastEnd };
    return stmt;
  }

  private parseIdentifiedBy(): string | null {
    if (!this.acceptWords('IDENTIFIED', 'BY')) return null;
    if (this.acceptWord('PASSWORD')) throw this.unsupported('IDENTIFIED BY PASSWORD (hashed password)');
    return this.parseStringLiteral();
  }

  /** PASSWORD_EXPIRE [DEFAULT | NEVER | INTERVAL n DAY|HOUR|SECOND], FAILED_LOGIN_ATTEMPTS n, PASSWORD_LOCK_TIME n unit | UNBOUNDED, ACCOUNT_UNLOCK. */
  private parsePasswordOptions(alter: boolean): PasswordOptions {
    const options: { -readonly [K in keyof PasswordOptions]: PasswordOptions[K] } = {};
    while (true) {
      if (this.acceptWord('PASSWORD_EXPIRE')) {
        if (this.acceptWord('DEFAULT')) options.expireSeconds = -1;
        else if (this.acceptWord('NEVER')) options.expireSeconds = 0;
        else {
          this.expectWord('INTERVAL');
          options.expireSeconds = this.parseDuration();
        }
      } else if (this.acceptWord('FAILED_LOGIN_ATTEMPTS')) {
        options.failedLoginAttempts = this.parseUnsignedInt();
      } else if (this.acceptWord('PASSWORD_LOCK_TIME')) {
        options.lockSeconds = this.acceptWord('UNBOUNDED') ? -1 : this.parseDuration();
      } else if (alter && this.acceptWord('ACCOUNT_UNLOCK')) {
        options.accountUnlock = true;
      } else if (this.isWord('ACCOUNT_LOCK')) {
        // Doris: "Not support lock account now".
        throw this.unsupported('ACCOUNT_LOCK');
      } else if (this.isWord('PASSWORD_HISTORY') || this.isWord('PASSWORD_REUSE')) {
        throw this.unsupported(this.tok.upper);
      } else {
        return options;
      }
    }
  }

  private parseDuration(): number {
    const count = this.parseUnsignedInt();
    const unit = this.tok.upper;
    const seconds = SECONDS_PER_UNIT[unit];
    if (seconds === undefined) throw this.error('expected DAY, HOUR or SECOND');
    this.advance();
    return count * seconds;
  }

  /** GRANT ... TO / REVOKE ... FROM; the current token is GRANT or REVOKE. */
  protected parseGrant(): Statement {
    const start = this.advance();
    const revoke = start.upper === 'REVOKE';
    const roles: string[] = [];
    const privileges: string[] = [];
    let target: PrivilegeTarget | null = null;
    if (this.tok.kind === TokenKind.String) {
      do roles.push(this.parseStringLiteral());
      while (this.acceptOp(','));
    } else {
      do this.parsePrivilege(privileges);
      while (this.acceptOp(','));
      this.expectWord('ON');
      target = this.parsePrivilegeTarget();
    }
    this.expectWord(revoke ? 'FROM' : 'TO');
    let grantee: Grantee;
    if (this.acceptWord('ROLE')) {
      if (roles.length > 0) throw this.error('roles are granted to users, not to roles');
      grantee = { kind: 'role', role: this.parseIdentOrString() };
    } else {
      grantee = { kind: 'user', user: this.parseUserIdentity() };
    }
    const stmt: GrantStatement = { kind: 'grant', revoke, privileges: [...new Set(privileges)], target, roles, grantee, pos: start.pos, end: this.lastEnd };
    return stmt;
  }

  private parsePrivilege(out: string[]): void {
    const word = this.tok;
    if (word.kind !== TokenKind.Word) throw this.error('expected a privilege');
    this.advance();
    const name = word.upper;
    if ((DORIS_PRIVILEGES as readonly string[]).includes(name)) {
      out.push(name);
      return;
    }
    const mapped = PRIVILEGE_ALIASES[name];
    if (!mapped) throw this.error(`unknown privilege ${word.text}`, word);
    if (name === 'ALL') this.acceptWord('PRIVILEGES');
    out.push(...mapped);
  }

  /** `*.*.*`, `ctl.db.tbl`, `db.tbl`, `db.*`, `*.*`, or RESOURCE / COMPUTE GROUP / WORKLOAD GROUP / STORAGE VAULT 'name'. */
  private parsePrivilegeTarget(): PrivilegeTarget {
    if (this.acceptWord('RESOURCE')) return { kind: 'resource', resourceType: 'RESOURCE', name: this.parseIdentOrString() };
    if (this.isWord('STORAGE') && this.isWordAt(1, 'VAULT')) {
      this.advance();
      this.advance();
      return { kind: 'resource', resourceType: 'STORAGE VAULT', name: this.parseIdentOrString() };
    }
    for (const kind of ['COMPUTE', 'WORKLOAD'] as const) {
      if (this.isWord(kind) && this.isWordAt(1, 'GROUP')) {
        this.advance();
        this.advance();
        return { kind: 'resource', resourceType: kind === 'COMPUTE' ? 'COMPUTE GROUP' : 'WORKLOAD GROUP', name: this.parseIdentOrString() };
      }
    }
    const parts: string[] = [this.parsePatternPart()];
    while (parts.length < 3 && this.acceptOp('.')) parts.push(this.parsePatternPart());
    if (parts.length === 1) throw this.error('expected db.tbl, db.* or ctl.db.tbl');
    const [catalog, database, table] = parts.length === 3 ? parts : ['internal', parts[0], parts[1]];
    if (database === '*' && table !== '*') throw this.error('a table name needs a database name');
    if (catalog === '*' && database !== '*') throw this.error('a database name needs a catalog name');
    return { kind: 'table', catalog, database, table };
  }

  private parsePatternPart(): string {
    if (this.acceptOp('*')) return '*';
    if (this.tok.kind === TokenKind.String) return this.parseStringLiteral();
    return this.parseAnyName();
  }
}
