/**
 * The one fast text shape of a column type, read straight from a span of a text (no substring, no
 * regular expression): `[-]digits` for the integer types, `[-]digits[.digits]` for DECIMAL of up to 15
 * digits, exactly `YYYY-MM-DD` for DATE and `YYYY-MM-DD HH:MM:SS` for DATETIME. The parser answers the
 * raw value parseValue would give, or NaN when the text is not of that shape (or out of range), so that
 * the caller takes parseValue's general path for it — the rules (strict mode, NULL on failure, range
 * errors) live only there.
 */
import { parseDateSpan, parseDatetimeSpan, parseIntegerSpan, parseScaledDecimalSpan, pow10, smallIntRange } from '../../common/convert';
import { isWideDecimal, type DataType } from '../../common/types';

/** Parses text[start, end) to a raw value, or NaN when the span is not of the type's fast shape. */
export type SpanParser = (text: string, start: number, end: number) => number;

/** The fast parser of `type`, or null when the type has none (strings, floats, LARGEINT, wide DECIMAL...). */
export function spanParserFor(type: DataType): SpanParser | null {
  const range = smallIntRange(type);
  if (range !== null) {
    const min = range[0];
    const max = range[1];
    return (text, start, end) => {
      const value = parseIntegerSpan(text, start, end);
      return value >= min && value <= max ? value : NaN;
    };
  }
  switch (type.name) {
    case 'BIGINT':
      return parseIntegerSpan;
    case 'DATE':
      return parseDateSpan;
    case 'DATETIME':
      // Whole seconds: every DATETIME scale keeps them as they are.
      return parseDatetimeSpan;
    case 'DECIMAL': {
      if (isWideDecimal(type)) return null; // bigint values
      const scale = type.scale ?? 0;
      const bound = pow10(type.precision ?? 9);
      return (text, start, end) => {
        const scaled = parseScaledDecimalSpan(text, start, end, scale);
        return scaled < bound && scaled > -bound ? scaled : NaN;
      };
    }
    default:
      return null;
  }
}
