/**
 * Storage vault grammar (Doris): `CREATE STORAGE VAULT [IF NOT EXISTS] v [PROPERTIES (...)]`,
 * `ALTER STORAGE VAULT v PROPERTIES (...)`, `SET v AS DEFAULT STORAGE VAULT`, `UNSET DEFAULT STORAGE
 * VAULT`. `SHOW STORAGE VAULT[S]` is a SHOW_SPECS entry (parser.ts). Doris has no DROP STORAGE VAULT:
 * it is refused by name. parser.ts dispatches here after the statement's first word.
 */
import type { StorageVaultStatement } from './ast';
import type { Token } from './lexer';
import { BuildIndexParser } from './parse-build-index';

export abstract class StorageVaultParser extends BuildIndexParser {
  /** At STORAGE after CREATE / ALTER / DROP (the caller checked `isStorageVault()`). */
  protected isStorageVault(): boolean {
    return this.isWord('STORAGE') && this.isWordAt(1, 'VAULT');
  }

  /** After CREATE: STORAGE VAULT [IF NOT EXISTS] name [PROPERTIES (...)]. */
  protected parseCreateStorageVault(start: Token): StorageVaultStatement {
    this.expectWord('STORAGE');
    this.expectWord('VAULT');
    const ifNotExists = this.acceptWords('IF', 'NOT', 'EXISTS');
    const name = this.parseIdentOrString();
    const properties = this.acceptWord('PROPERTIES') ? this.parseProperties() : {};
    return { kind: 'storageVault', action: { op: 'create', name, ifNotExists, properties }, pos: start.pos, end: this.lastEnd };
  }

  /** After ALTER: STORAGE VAULT name PROPERTIES (...). */
  protected parseAlterStorageVault(start: Token): StorageVaultStatement {
    this.expectWord('STORAGE');
    this.expectWord('VAULT');
    const name = this.parseIdentOrString();
    this.expectWord('PROPERTIES');
    return { kind: 'storageVault', action: { op: 'alter', name, properties: this.parseProperties() }, pos: start.pos, end: this.lastEnd };
  }

  /** After DROP, at STORAGE VAULT. */
  protected refuseDropStorageVault(): never {
    throw this.unsupported('DROP STORAGE VAULT (Doris has no such statement: tables keep their vault for life)');
  }

  /** At SET: whether this is `SET name AS DEFAULT STORAGE VAULT`. */
  protected isSetDefaultStorageVault(): boolean {
    return this.isWordAt(2, 'AS') && this.isWordAt(3, 'DEFAULT') && this.isWordAt(4, 'STORAGE');
  }

  /** At SET: SET name AS DEFAULT STORAGE VAULT. */
  protected parseSetDefaultStorageVault(): StorageVaultStatement {
    const start = this.advance();
    const name = this.parseIdentOrString();
    this.expectWord('AS');
    this.expectWord('DEFAULT');
    this.expectWord('STORAGE');
    this.expectWord('VAULT');
    return { kind: 'storageVault', action: { op: 'setDefault', name }, pos: start.pos, end: this.lastEnd };
  }

  /** At UNSET: UNSET DEFAULT STORAGE VAULT. */
  protected parseUnsetDefaultStorageVault(): StorageVaultStatement {
    const start = this.advance();
    this.expectWord('DEFAULT');
    this.expectWord('STORAGE');
    this.expectWord('VAULT');
    return { kind: 'storageVault', action: { op: 'unsetDefault' }, pos: start.pos, end: this.lastEnd };
  }
}
