/**
 * The body parser a load's format asks for: CSV (csv, csv_with_names, csv_with_names_and_types) or JSON, feeding `converter`.
 * Throws LOAD_INVALID_ARGUMENT when the options do not fit the source columns (jsonpaths count).
 */
import type { LoadOptions } from '../load-plan';
import type { BodyReader } from './body-blocks';
import { CsvReader } from './csv-reader';
import { JsonReader } from './json-reader';
import type { RowConverter } from './row-converter';

export function openBodyReader(options: LoadOptions, converter: RowConverter): BodyReader {
  // A row may be as long as the load's buffer, and at least 1 MB.
  const maxRowBytes = Math.max(options.memLimit, 1 << 20);
  return options.format === 'json'
    ? new JsonReader(converter, {
        lineDelimiter: options.lineDelimiter,
        byLine: options.readJsonByLine,
        stripOuterArray: options.stripOuterArray,
        jsonPaths: options.jsonPaths,
        jsonRoot: options.jsonRoot,
        fuzzyParse: options.fuzzyParse,
        numAsString: options.numAsString,
        maxRowBytes,
      })
    : new CsvReader(converter, {
        columnSeparator: options.columnSeparator,
        lineDelimiter: options.lineDelimiter,
        skipLines: options.skipLines,
        enclose: options.enclose,
        escape: options.escape,
        trimDoubleQuotes: options.trimDoubleQuotes,
        maxRowBytes,
      });
}
