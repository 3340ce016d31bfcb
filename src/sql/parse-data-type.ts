/**
 * Data type syntax (column definitions and CAST targets) mapped onto the engine's DataType values.
 *
 * Doris spellings and MySQL synonyms are accepted: INT(11) display widths are ignored; UNSIGNED widens to
 * the next signed type that holds every value (TINYINT UNSIGNED -> SMALLINT, ..., BIGINT UNSIGNED ->
 * LARGEINT) because Galene has no unsigned types; ZEROFILL is ignored; TEXT variants become STRING;
 * TIMESTAMP is DATETIME; DECIMALV2/V3 are DECIMAL. Out-of-range precision/scale/length is
 * INVALID_TABLE_DEFINITION with Doris's wording.
 */
import { GaleneError } from '../common/errors';
import { DataType, Types, VARCHAR_MAX_LENGTH } from '../common/types';
import { TokenKind } from './lexer';
import { ParserBase } from './parse-base';

/** Doris's limits. */
const DECIMAL_MAX_PRECISION = 38;
const DECIMAL_DEFAULT_PRECISION = 9;
const CHAR_MAX_LENGTH = 255;
const DATETIME_MAX_SCALE = 6;

const INTEGER_WIDENING: Record<string, DataType> = {
  TINYINT: Types.SMALLINT,
  SMALLINT: Types.INT,
  INT: Types.BIGINT,
  BIGINT: Types.LARGEINT,
  LARGEINT: Types.LARGEINT,
};

/** Types that exist in Doris but not (yet) in Galene's type system. */
const UNSUPPORTED_TYPES: ReadonlySet<string> = new Set([
  'VARIANT', 'AGG_STATE',
  'IPV4', 'IPV6', 'TIME', 'BLOB', 'TINYBLOB', 'MEDIUMBLOB', 'LONGBLOB', 'VARBINARY', 'ENUM', 'SET', 'YEAR',
]);

function invalidDefinition(message: string, pos: number, end: number): GaleneError {
  return new GaleneError('INVALID_TABLE_DEFINITION', [message], { span: { offset: pos, length: end - pos } });
}

export class DataTypeParser extends ParserBase {
  /**
   * A data type. `forCast` enables the CAST-only spellings (SIGNED, UNSIGNED, BINARY) and makes CHAR
   * without a length a STRING (MySQL's CAST(x AS CHAR) has no length limit).
   */
  protected parseDataTypeSyntax(forCast = false): DataType {
    const start = this.tok;
    if (start.kind !== TokenKind.Word) throw this.error('expected a data type');
    const word = start.upper;
    this.advance();
    switch (word) {
      case 'BOOLEAN':
      case 'BOOL':
        return Types.BOOLEAN;
      case 'TINYINT':
      case 'SMALLINT':
      case 'MEDIUMINT':
      case 'INT':
      case 'INTEGER':
      case 'BIGINT':
      case 'LARGEINT': {
        const base = word === 'INTEGER' || word === 'MEDIUMINT' ? 'INT' : word;
        if (this.isOp('(')) this.parseTypeArgs(1); // display width, ignored
        const unsigned = this.parseSignedness();
        return unsigned ? INTEGER_WIDENING[base] : (Types as unknown as Record<string, DataType>)[base];
      }
      case 'SIGNED':
      case 'UNSIGNED':
        if (!forCast) throw this.error('expected a data type', start);
        if (this.tok.upper === 'INT' || this.tok.upper === 'INTEGER') this.advance();
        return word === 'SIGNED' ? Types.BIGINT : Types.LARGEINT;
      case 'FLOAT': {
        // MySQL: FLOAT(p) with one argument p in 25..53 is a DOUBLE (SQLAlchemy's MySQL DDL writes FLOAT(53)).
        const args = this.isOp('(') ? this.parseTypeArgs(2) : [];
        this.parseSignedness();
        return args.length === 1 && args[0] > 24 ? Types.DOUBLE : Types.FLOAT;
      }
      case 'DOUBLE':
      case 'REAL':
        this.acceptWord('PRECISION');
        if (this.isOp('(')) this.parseTypeArgs(2);
        this.parseSignedness();
        return Types.DOUBLE;
      case 'DECIMAL':
      case 'DECIMALV2':
      case 'DECIMALV3':
      case 'DEC':
      case 'NUMERIC':
      case 'FIXED': {
        let precision = DECIMAL_DEFAULT_PRECISION;
        let scale = 0;
        if (this.isOp('(')) {
          const args = this.parseTypeArgs(2);
          precision = args[0];
          scale = args.length > 1 ? args[1] : 0;
        }
        this.parseSignedness();
        if (precision < 1 || precision > DECIMAL_MAX_PRECISION) {
          throw invalidDefinition(`Precision of decimal must between 1 and ${DECIMAL_MAX_PRECISION}. Precision was set to: ${precision}.`, start.pos, this.lastEnd);
        }
        if (scale < 0 || scale > precision) {
          throw invalidDefinition(`Scale of decimal must between 0 and precision. Scale was set to: ${scale}.`, start.pos, this.lastEnd);
        }
        return Types.decimal(precision, scale);
      }
      case 'DATE':
      case 'DATEV2':
        return Types.DATE;
      case 'DATETIME':
      case 'DATETIMEV2':
      case 'TIMESTAMP': {
        let scale = 0;
        if (this.isOp('(')) scale = this.parseTypeArgs(1)[0];
        if (scale < 0 || scale > DATETIME_MAX_SCALE) {
          throw invalidDefinition(`Scale of Datetime must between 0 and ${DATETIME_MAX_SCALE}. Scale was set to: ${scale}.`, start.pos, this.lastEnd);
        }
        return Types.datetime(scale);
      }
      case 'CHAR':
      case 'CHARACTER':
      case 'NCHAR': {
        if (word === 'CHARACTER' && this.acceptWord('VARYING')) return this.finishVarchar(start.pos, forCast);
        if (!this.isOp('(')) {
          this.skipCharset();
          return forCast ? Types.STRING : Types.char(1);
        }
        const length = this.parseTypeArgs(1)[0];
        if (length < 1 || length > CHAR_MAX_LENGTH) {
          throw invalidDefinition(`Char size must between 1 and ${CHAR_MAX_LENGTH}. Size was set to: ${length}.`, start.pos, this.lastEnd);
        }
        this.skipCharset();
        return forCast ? Types.varchar(length) : Types.char(length);
      }
      case 'VARCHAR':
      case 'NVARCHAR':
        return this.finishVarchar(start.pos, forCast);
      case 'STRING':
      case 'TEXT':
      case 'TINYTEXT':
      case 'MEDIUMTEXT':
      case 'LONGTEXT':
        this.skipCharset();
        return Types.STRING;
      case 'ARRAY': {
        // ARRAY<T>: elements are nullable (Doris); nested arrays close with `>>`, split here.
        if (!this.isOp('<')) throw this.error("expected '<' after ARRAY");
        this.advance();
        const element = this.parseDataTypeSyntax(false);
        this.expectCloseAngle();
        return Types.array(element);
      }
      case 'MAP': {
        // MAP<K, V>: keys and values nullable, as in Doris.
        if (!this.isOp('<')) throw this.error("expected '<' after MAP");
        this.advance();
        const key = this.parseDataTypeSyntax(false);
        this.expectOp(',');
        const value = this.parseDataTypeSyntax(false);
        this.expectCloseAngle();
        return Types.map(key, value);
      }
      case 'STRUCT': {
        // STRUCT<name:T [COMMENT '...'], ...>: field names are unique (case-insensitive, as Doris).
        if (!this.isOp('<')) throw this.error("expected '<' after STRUCT");
        this.advance();
        const fields: { name: string; type: DataType }[] = [];
        do {
          const nameTok = this.tok;
          const name = this.parseIdent();
          if (fields.some((field) => field.name.toLowerCase() === name.toLowerCase())) {
            throw invalidDefinition(`Duplicate field name ${name} in struct`, nameTok.pos, nameTok.end);
          }
          this.expectOp(':');
          fields.push({ name, type: this.parseDataTypeSyntax(false) });
          if (this.tok.kind === TokenKind.Word && this.tok.upper === 'COMMENT') {
            this.advance();
            this.advance();
          }
        } while (this.acceptOp(','));
        this.expectCloseAngle();
        return Types.struct(fields);
      }
      case 'JSON':
      case 'JSONB':
        return Types.JSON;
      case 'BITMAP':
        return Types.BITMAP;
      case 'HLL':
        return Types.HLL;
      case 'QUANTILE_STATE':
        return Types.QUANTILE_STATE;
      case 'IPV4':
        return Types.IPV4;
      case 'IPV6':
        return Types.IPV6;
      case 'BINARY':
        if (!forCast) break;
        if (this.isOp('(')) this.parseTypeArgs(1);
        return Types.STRING;
      default:
        break;
    }
    if (UNSUPPORTED_TYPES.has(word)) throw this.unsupported(`data type ${word}`, start);
    throw this.error('unknown data type', start);
  }

  private finishVarchar(startPos: number, forCast: boolean): DataType {
    let length = VARCHAR_MAX_LENGTH;
    if (this.isOp('(')) {
      length = this.parseTypeArgs(1)[0];
      if (length < 1 || length > VARCHAR_MAX_LENGTH) {
        throw invalidDefinition(`Varchar size must between 1 and ${VARCHAR_MAX_LENGTH}. Size was set to: ${length}.`, startPos, this.lastEnd);
      }
    } else if (forCast) {
      this.skipCharset();
      return Types.STRING;
    }
    this.skipCharset();
    return Types.varchar(length);
  }

  /** The `>` closing a type argument list; the first half of a `>>` (or `>=`) token. */
  private expectCloseAngle(): void {
    const token = this.tok;
    if (token.kind === TokenKind.Op && token.text.length === 2 && token.text[0] === '>') {
      this.skipScanned({ ...token, end: token.pos + 1, text: '>' });
      return;
    }
    this.expectOp('>');
  }

  /** `(n)` or `(n, m)` with at most `max` integers. */
  private parseTypeArgs(max: number): number[] {
    this.expectOp('(');
    const args: number[] = [this.parseUnsignedInt()];
    while (args.length < max && this.acceptOp(',')) args.push(this.parseUnsignedInt());
    this.expectOp(')');
    return args;
  }

  /** [SIGNED|UNSIGNED] [ZEROFILL]; returns true for UNSIGNED (ZEROFILL implies UNSIGNED in MySQL). */
  private parseSignedness(): boolean {
    let unsigned = false;
    if (this.acceptWord('UNSIGNED')) unsigned = true;
    else this.acceptWord('SIGNED');
    if (this.acceptWord('ZEROFILL')) unsigned = true;
    return unsigned;
  }

  /** `CHARACTER SET x` / `CHARSET x` / `COLLATE x` after a string type: accepted and ignored (all text is UTF-8). */
  protected skipCharset(): void {
    while (true) {
      if (this.isWord('CHARACTER') && this.isWordAt(1, 'SET')) {
        this.advance();
        this.advance();
        this.parseIdentOrString();
      } else if (this.isWord('CHARSET') || this.isWord('COLLATE')) {
        this.advance();
        this.parseIdentOrString();
      } else {
        return;
      }
    }
  }
}
