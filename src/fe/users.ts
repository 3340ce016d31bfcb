/**
 * Users and their mysql_native_password credentials. The stored form is SHA1(SHA1(password)), as MySQL's
 * authentication_string, so the clear password is never kept. `root` with an empty password exists on a
 * fresh server (as in Doris).
 */
import { GaleneError } from '../common/errors';
import type { MetaStore, UserRecord } from '../meta/meta-store';
import type { UserAuthInfo } from '../protocol/backend';
import { nativePasswordDoubleSha1 } from '../protocol/native-password';

/**
 * Users that hold the ADMIN (and so GRANT) privilege. Until the privilege model lands (a later issue) these
 * are the two built-in users, as in Doris where `root` and `admin` have the operator/admin roles.
 */
const ADMIN_USERS: ReadonlySet<string> = new Set(['root', 'admin']);

/** Whether `user` may run administrative operations (user management, SET GLOBAL, DROP DATABASE, admin HTTP APIs). */
export function isAdminUser(user: string): boolean {
  return ADMIN_USERS.has(user);
}

/**
 * Throw Doris's ERR_SPECIFIC_ACCESS_DENIED_ERROR (errno 1227) unless `user` is an admin. `privilege` is the
 * name Doris's check reports: GRANT for user management, ADMIN for SET GLOBAL and configuration.
 */
export function requireAdminUser(user: string, privilege: 'ADMIN' | 'GRANT'): void {
  if (!isAdminUser(user)) throw new GaleneError('SPECIFIC_ACCESS_DENIED', [privilege]);
}

function doubleSha1Hex(password: string): string {
  return nativePasswordDoubleSha1(password)?.toString('hex') ?? '';
}

export class UserManager {
  private users: UserRecord[];

  constructor(private readonly meta: MetaStore) {
    this.users = meta.listUsers();
    if (this.users.length === 0) {
      meta.putUser({ user: 'root', host: '%', passwordHash: '' });
      meta.putUser({ user: 'admin', host: '%', passwordHash: '' });
      this.users = meta.listUsers();
    }
  }

  private find(user: string, host: string): UserRecord | undefined {
    return this.users.find((record) => record.user === user && (record.host === host || record.host === '%'));
  }

  lookup(user: string, host: string): UserAuthInfo | null {
    const record = this.find(user, host);
    if (!record) return null;
    return { passwordDoubleSha1: record.passwordHash === '' ? null : Buffer.from(record.passwordHash, 'hex') };
  }

  list(): readonly UserRecord[] {
    return this.users;
  }

  create(user: string, host: string, password: string | null, ifNotExists: boolean): void {
    if (this.users.some((record) => record.user === user && record.host === host)) {
      if (ifNotExists) return;
      throw new GaleneError('USER_EXISTS', [user, host]);
    }
    this.meta.putUser({ user, host, passwordHash: doubleSha1Hex(password ?? '') });
    this.users = this.meta.listUsers();
  }

  drop(user: string, host: string, ifExists: boolean): void {
    if (user === 'root' || user === 'admin') throw new GaleneError('USER_NOT_EXISTS', ['DROP USER', user, host]);
    if (!this.meta.deleteUser(user, host) && !ifExists) throw new GaleneError('USER_NOT_EXISTS', ['DROP USER', user, host]);
    this.users = this.meta.listUsers();
  }

  setPassword(user: string, host: string, password: string): void {
    const record = this.users.find((candidate) => candidate.user === user && candidate.host === host) ?? this.find(user, host);
    if (!record) throw new GaleneError('USER_NOT_EXISTS', ['SET PASSWORD', user, host]);
    this.meta.putUser({ user: record.user, host: record.host, passwordHash: doubleSha1Hex(password) });
    this.users = this.meta.listUsers();
  }
}
