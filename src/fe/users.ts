/**
 * Accounts, roles and grants, kept in the meta store (users: credentials; account_info: grants, roles,
 * password policy and lock-out state; roles: each role's grants) and held in memory for the checks.
 *
 * - Credentials are mysql_native_password's SHA1(SHA1(password)), as MySQL's authentication_string, so the
 *   clear password is never kept.
 * - Built-ins as in Doris: `root` (role `operator`: NODE_PRIV and ADMIN_PRIV) and `admin` (role `admin`:
 *   ADMIN_PRIV), both with an empty password on a fresh server; neither can be dropped.
 * - An account is `'user'@'host'`; a login from host H matches the accounts of that user whose host pattern
 *   (`%` and `_` wildcards) matches H, the most specific pattern winning (MySQL's order: no wildcard first,
 *   then longer literal prefixes, `%` last).
 * - Password policy (Doris PasswordPolicy): PASSWORD_EXPIRE, FAILED_LOGIN_ATTEMPTS with PASSWORD_LOCK_TIME;
 *   lock-out state is persisted, so a restart does not unlock an account. Besides, consecutive failed logins
 *   of one user from one host are answered ever later (1 s more per failure after the third, at most 10 s),
 *   so a client cannot try hundreds of passwords a second (MySQL's connection_control behaviour).
 */
import { GaleneError } from '../common/errors';
import type { MetaStore, UserRecord } from '../meta/meta-store';
import type { UserAuthInfo } from '../protocol/backend';
import { nativePasswordDoubleSha1 } from '../protocol/native-password';
import { addGrant, GrantEntry, Privilege, PrivilegeSet, removeGrant } from './privileges';

/** An account: user name and host pattern. */
export interface Account {
  readonly user: string;
  readonly host: string;
}

/** Password options as CREATE / ALTER USER give them (see ast PasswordOptions). */
export interface PasswordPolicyOptions {
  readonly expireSeconds?: number;
  readonly failedLoginAttempts?: number;
  readonly lockSeconds?: number;
  readonly accountUnlock?: boolean;
}

/** What account_info keeps per account (JSON). */
interface AccountInfo {
  grants: GrantEntry[];
  roles: string[];
  /** 0 never, -1 the global default_password_lifetime, else seconds. */
  expireSeconds: number;
  passwordChangedAt: number;
  failedLoginAttempts: number;
  /** 0 disabled, -1 unbounded. */
  lockSeconds: number;
  failedLogins: number;
  lockedAt: number;
}

export interface RoleInfo {
  readonly name: string;
  readonly comment: string;
  readonly grants: readonly GrantEntry[];
}

/** The outcome of a login's password check: the error to refuse it with and how long to hold the answer. */
export interface LoginOutcome {
  readonly refuse: GaleneError | null;
  readonly delayMs: number;
}

const GLOBAL_GRANT = (privileges: Privilege[]): GrantEntry => ({ level: 'global', catalog: '*', database: '*', table: '*', resource: '', privileges });

/** Doris's built-in roles. */
export const OPERATOR_ROLE = 'operator';
export const ADMIN_ROLE = 'admin';
const BUILTIN_ROLES: readonly RoleInfo[] = [
  { name: OPERATOR_ROLE, comment: 'built-in role: all privileges', grants: [GLOBAL_GRANT(['NODE_PRIV', 'ADMIN_PRIV'])] },
  { name: ADMIN_ROLE, comment: 'built-in role: ADMIN_PRIV', grants: [GLOBAL_GRANT(['ADMIN_PRIV'])] },
];
const BUILTIN_USERS: ReadonlyMap<string, string> = new Map([
  ['root', OPERATOR_ROLE],
  ['admin', ADMIN_ROLE],
]);

/** Failed logins of one user from one host before answers are held back, and the step and cap of the delay. */
const THROTTLE_AFTER = 3;
const THROTTLE_STEP_MS = 1000;
const THROTTLE_MAX_MS = 10_000;

const emptyInfo = (): AccountInfo => ({ grants: [], roles: [], expireSeconds: 0, passwordChangedAt: Date.now(), failedLoginAttempts: 0, lockSeconds: 0, failedLogins: 0, lockedAt: 0 });

const key = (user: string, host: string): string => `${user}\u0000${host}`;

function doubleSha1Hex(password: string): string {
  return nativePasswordDoubleSha1(password)?.toString('hex') ?? '';
}

/** A host pattern as a regular expression (`%` any run, `_` one character; case-insensitive as hostnames). */
function hostPattern(pattern: string): RegExp {
  const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

/** MySQL's host ordering: patterns without wildcards first, then by the length of the literal prefix. */
function hostSpecificity(pattern: string): number {
  const wildcard = pattern.search(/[%_]/);
  return wildcard < 0 ? Number.MAX_SAFE_INTEGER : wildcard;
}

export class UserManager {
  private users: UserRecord[];
  private readonly infos = new Map<string, AccountInfo>();
  private readonly roles = new Map<string, RoleInfo>();
  /** Consecutive failed logins by `user@client host` (in memory: the brute-force throttle). */
  private readonly recentFailures = new Map<string, number>();

  /** `defaultPasswordLifetimeDays`: the global default_password_lifetime (PASSWORD_EXPIRE DEFAULT). */
  constructor(
    private readonly meta: MetaStore,
    private readonly defaultPasswordLifetimeDays: () => number = () => 0,
  ) {
    if (meta.listUsers().length === 0) {
      meta.putUser({ user: 'root', host: '%', passwordHash: '' });
      meta.putUser({ user: 'admin', host: '%', passwordHash: '' });
    }
    this.users = meta.listUsers();
    for (const row of meta.listAccountInfo()) this.infos.set(key(row.user, row.host), { ...emptyInfo(), ...(JSON.parse(row.info) as Partial<AccountInfo>) });
    for (const row of meta.listRoles()) {
      const info = JSON.parse(row.info) as { comment: string; grants: GrantEntry[] };
      this.roles.set(row.name, { name: row.name, comment: info.comment, grants: info.grants });
    }
    // Built-ins on a fresh server and on a data directory from before roles existed.
    for (const role of BUILTIN_ROLES) if (!this.roles.has(role.name)) this.saveRole(role);
    for (const [user, role] of BUILTIN_USERS) {
      const record = this.users.find((candidate) => candidate.user === user && candidate.host === '%');
      if (record && !this.infos.has(key(user, '%'))) this.saveInfo(record, { ...emptyInfo(), roles: [role] });
    }
  }

  // ------------------------------------------------------------ accounts

  /** The account a login of `user` from `clientHost` uses (the most specific matching host), if any. */
  matchAccount(user: string, clientHost: string): UserRecord | undefined {
    let best: UserRecord | undefined;
    for (const record of this.users) {
      if (record.user !== user || !(record.host === clientHost || hostPattern(record.host).test(clientHost))) continue;
      if (!best || hostSpecificity(record.host) > hostSpecificity(best.host)) best = record;
    }
    return best;
  }

  private exact(user: string, host: string): UserRecord | undefined {
    return this.users.find((record) => record.user === user && record.host === host);
  }

  private requireExact(user: string, host: string, operation: string): UserRecord {
    const record = this.exact(user, host);
    if (!record) throw new GaleneError('USER_NOT_EXISTS', [operation, user, host]);
    return record;
  }

  lookup(user: string, host: string): UserAuthInfo | null {
    const record = this.matchAccount(user, host);
    if (!record) return null;
    return { passwordDoubleSha1: record.passwordHash === '' ? null : Buffer.from(record.passwordHash, 'hex') };
  }

  list(): readonly UserRecord[] {
    return this.users;
  }

  /** The roles an account holds. */
  rolesOf(account: Account): readonly string[] {
    return this.infos.get(key(account.user, account.host))?.roles ?? [];
  }

  /** The grants an account holds itself (not through roles). */
  grantsOf(account: Account): readonly GrantEntry[] {
    return this.infos.get(key(account.user, account.host))?.grants ?? [];
  }

  /**
   * The privileges of an account now: its own grants and its roles'. An account that no longer exists
   * (DROP USER while its sessions are open) holds none, so its sessions lose their rights at once.
   */
  privilegesOf(account: Account): PrivilegeSet {
    if (!this.exact(account.user, account.host)) return new PrivilegeSet([]);
    const info = this.infos.get(key(account.user, account.host));
    if (!info) return new PrivilegeSet([]);
    return new PrivilegeSet([...info.grants, ...info.roles.flatMap((role) => this.roles.get(role)?.grants ?? [])]);
  }

  private info(account: Account): AccountInfo {
    return this.infos.get(key(account.user, account.host)) ?? emptyInfo();
  }

  private saveInfo(account: Account, info: AccountInfo): void {
    this.meta.putAccountInfo(account.user, account.host, JSON.stringify(info));
    this.infos.set(key(account.user, account.host), info);
  }

  create(user: string, host: string, password: string | null, ifNotExists: boolean, defaultRole: string | null = null, options: PasswordPolicyOptions = {}): void {
    if (this.exact(user, host)) {
      if (ifNotExists) return;
      throw new GaleneError('USER_EXISTS', [user, host]);
    }
    if (defaultRole !== null && !this.roles.has(defaultRole)) throw new GaleneError('ROLE_NOT_EXISTS', [defaultRole]);
    const info = this.applyOptions({ ...emptyInfo(), roles: defaultRole === null ? [] : [defaultRole] }, options);
    this.meta.transaction(() => {
      this.meta.putUser({ user, host, passwordHash: doubleSha1Hex(password ?? '') });
      this.saveInfo({ user, host }, info);
    });
    this.users = this.meta.listUsers();
  }

  drop(user: string, host: string, ifExists: boolean): void {
    if (BUILTIN_USERS.has(user)) throw new GaleneError('USER_NOT_EXISTS', ['DROP USER', user, host]);
    if (!this.meta.deleteUser(user, host) && !ifExists) throw new GaleneError('USER_NOT_EXISTS', ['DROP USER', user, host]);
    this.infos.delete(key(user, host));
    this.users = this.meta.listUsers();
  }

  /** ALTER USER: a new password and/or password options (ACCOUNT_UNLOCK clears a lock-out). */
  alter(user: string, host: string, ifExists: boolean, password: string | null, options: PasswordPolicyOptions): void {
    const record = this.exact(user, host);
    if (!record) {
      if (ifExists) return;
      throw new GaleneError('USER_NOT_EXISTS', ['ALTER USER', user, host]);
    }
    const info = this.applyOptions({ ...this.info(record) }, options);
    this.meta.transaction(() => {
      if (password !== null) {
        this.meta.putUser({ user, host, passwordHash: doubleSha1Hex(password) });
        info.passwordChangedAt = Date.now();
      }
      this.saveInfo(record, info);
    });
    this.users = this.meta.listUsers();
  }

  private applyOptions(info: AccountInfo, options: PasswordPolicyOptions): AccountInfo {
    if (options.expireSeconds !== undefined) {
      info.expireSeconds = options.expireSeconds;
      info.passwordChangedAt = Date.now();
    }
    if (options.failedLoginAttempts !== undefined) info.failedLoginAttempts = options.failedLoginAttempts;
    if (options.lockSeconds !== undefined) info.lockSeconds = options.lockSeconds;
    if (options.accountUnlock) {
      info.failedLogins = 0;
      info.lockedAt = 0;
    }
    return info;
  }

  /**
   * SET PASSWORD: `password` clear, or (hashed) the stored form `*<40 hex>` / '' as SHOW GRANTS and
   * mysqldump give it. The account is the exact one named, else the one a login would match.
   */
  setPassword(user: string, host: string, password: string, hashed = false): void {
    const record = this.exact(user, host) ?? this.matchAccount(user, host);
    if (!record) throw new GaleneError('USER_NOT_EXISTS', ['SET PASSWORD', user, host]);
    let passwordHash: string;
    if (!hashed) passwordHash = doubleSha1Hex(password);
    else if (password === '') passwordHash = '';
    else if (/^\*[0-9a-fA-F]{40}$/.test(password)) passwordHash = password.slice(1).toLowerCase();
    else throw new GaleneError('GRANT_ERROR', ['Password hash should be a 41-digit hexadecimal number']);
    const info = { ...this.info(record), passwordChangedAt: Date.now() };
    this.meta.transaction(() => {
      this.meta.putUser({ user: record.user, host: record.host, passwordHash });
      this.saveInfo(record, info);
    });
    this.users = this.meta.listUsers();
  }

  /** `*HEX` as SHOW GRANTS / mysql.user print a mysql_native_password hash; '' for no password. */
  static passwordText(record: UserRecord): string {
    return record.passwordHash === '' ? '' : `*${record.passwordHash.toUpperCase()}`;
  }

  // ------------------------------------------------------------ grants and roles

  /** GRANT privileges ON target TO account | ROLE r. */
  grant(grantee: { user: Account } | { role: string }, entry: GrantEntry): void {
    if ('role' in grantee) {
      const role = this.requireRole(grantee.role);
      this.saveRole({ ...role, grants: addGrant(role.grants, entry) });
      return;
    }
    const record = this.requireExact(grantee.user.user, grantee.user.host, 'GRANT');
    const info = this.info(record);
    this.saveInfo(record, { ...info, grants: addGrant(info.grants, entry) });
  }

  /** REVOKE privileges ON target FROM account | ROLE r; Doris's 1141 when nothing of it was granted. */
  revoke(grantee: { user: Account } | { role: string }, entry: GrantEntry): void {
    if ('role' in grantee) {
      const role = this.requireRole(grantee.role);
      const grants = removeGrant(role.grants, entry);
      if (grants === null) throw new GaleneError('GRANT_ERROR', [`Role ${grantee.role} does not have the privileges to revoke`]);
      this.saveRole({ ...role, grants });
      return;
    }
    const record = this.requireExact(grantee.user.user, grantee.user.host, 'REVOKE');
    const info = this.info(record);
    const grants = removeGrant(info.grants, entry);
    if (grants === null) throw new GaleneError('NONEXISTING_GRANT', [record.user, record.host]);
    this.saveInfo(record, { ...info, grants });
  }

  /** GRANT 'r', ... TO account (revoke = REVOKE 'r' FROM account). */
  grantRoles(account: Account, roles: readonly string[], revoke: boolean): void {
    const record = this.requireExact(account.user, account.host, revoke ? 'REVOKE' : 'GRANT');
    for (const role of roles) this.requireRole(role);
    const info = this.info(record);
    if (revoke) {
      const missing = roles.find((role) => !info.roles.includes(role));
      if (missing !== undefined) throw new GaleneError('GRANT_ERROR', [`User '${record.user}'@'${record.host}' does not have role ${missing}`]);
    }
    const next = revoke ? info.roles.filter((role) => !roles.includes(role)) : [...new Set([...info.roles, ...roles])];
    this.saveInfo(record, { ...info, roles: next });
  }

  listRoles(): RoleInfo[] {
    return [...this.roles.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** The accounts holding a role (SHOW ROLES's Users). */
  roleMembers(role: string): Account[] {
    return this.users.filter((record) => this.info(record).roles.includes(role));
  }

  createRole(name: string, ifNotExists: boolean, comment: string): void {
    if (this.roles.has(name)) {
      if (ifNotExists) return;
      throw new GaleneError('ROLE_EXISTS', [name]);
    }
    this.saveRole({ name, comment, grants: [] });
  }

  dropRole(name: string, ifExists: boolean): void {
    if (BUILTIN_ROLES.some((role) => role.name === name)) throw new GaleneError('GRANT_ERROR', [`Can not drop role: ${name}`]);
    if (!this.roles.has(name)) {
      if (ifExists) return;
      throw new GaleneError('ROLE_NOT_EXISTS', [name]);
    }
    this.meta.transaction(() => {
      this.meta.deleteRole(name);
      for (const record of this.users) {
        const info = this.info(record);
        if (info.roles.includes(name)) this.saveInfo(record, { ...info, roles: info.roles.filter((role) => role !== name) });
      }
    });
    this.roles.delete(name);
  }

  private requireRole(name: string): RoleInfo {
    const role = this.roles.get(name);
    if (!role) throw new GaleneError('ROLE_NOT_EXISTS', [name]);
    return role;
  }

  private saveRole(role: RoleInfo): void {
    this.meta.putRole(role.name, JSON.stringify({ comment: role.comment, grants: role.grants }));
    this.roles.set(role.name, role);
  }

  /** Whether the account or role is one whose privileges are fixed (root, the operator role). */
  static isFixedGrantee(grantee: { user: Account } | { role: string }): boolean {
    return 'role' in grantee ? grantee.role === OPERATOR_ROLE : grantee.user.user === 'root';
  }

  // ------------------------------------------------------------ login policy

  /**
   * Account lock-out, password expiry and the throttle, after the password was checked (`passwordOk`) for
   * the account a login of `user` from `clientHost` matched (none: an unknown user, throttled all the same).
   */
  checkLogin(user: string, clientHost: string, passwordOk: boolean): LoginOutcome {
    const throttleKey = `${user}@${clientHost}`;
    const failures = this.recentFailures.get(throttleKey) ?? 0;
    const delayMs = failures >= THROTTLE_AFTER ? Math.min(THROTTLE_MAX_MS, (failures - THROTTLE_AFTER + 1) * THROTTLE_STEP_MS) : 0;
    const record = this.matchAccount(user, clientHost);
    const refuse = record ? this.policyRefusal(record, passwordOk) : null;
    if (passwordOk && refuse === null) this.recentFailures.delete(throttleKey);
    else {
      if (this.recentFailures.size > 10_000) this.recentFailures.clear();
      this.recentFailures.set(throttleKey, failures + 1);
    }
    return { refuse, delayMs };
  }

  private policyRefusal(record: UserRecord, passwordOk: boolean): GaleneError | null {
    const info = this.info(record);
    const now = Date.now();
    const lockEnabled = info.failedLoginAttempts > 0 && info.lockSeconds !== 0;
    const lockedError = (): GaleneError => {
      const remaining = info.lockSeconds < 0 ? -1 : Math.max(0, info.lockSeconds - Math.floor((now - info.lockedAt) / 1000));
      return new GaleneError('ACCOUNT_LOCKED', [record.user, record.host, info.lockSeconds, remaining, info.failedLogins]);
    };
    if (lockEnabled && info.lockedAt > 0) {
      if (info.lockSeconds < 0 || now - info.lockedAt < info.lockSeconds * 1000) return lockedError();
      // The lock time is over: start counting again.
      info.lockedAt = 0;
      info.failedLogins = 0;
      this.saveInfo(record, info);
    }
    if (!passwordOk) {
      if (!lockEnabled) return null;
      info.failedLogins++;
      if (info.failedLogins >= info.failedLoginAttempts) info.lockedAt = now;
      this.saveInfo(record, info);
      return info.lockedAt > 0 ? lockedError() : null;
    }
    if (info.failedLogins > 0) this.saveInfo(record, { ...info, failedLogins: 0 });
    const lifetime = info.expireSeconds < 0 ? this.defaultPasswordLifetimeDays() * 86400 : info.expireSeconds;
    if (lifetime > 0 && now - info.passwordChangedAt >= lifetime * 1000) return new GaleneError('PASSWORD_EXPIRED');
    return null;
  }
}
