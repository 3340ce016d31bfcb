/**
 * Doris's regular-expression string functions beyond regexp / regexp_extract / regexp_replace
 * (like-functions.ts): regexp_count, regexp_extract_or_null, regexp_extract_all, regexp_replace_one
 * and split_by_regexp. Patterns are RE2 (linear time), compiled once per call site.
 */
import { getRaw, type Vector } from '../../../common/column';
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { arg, opt } from '../signature';
import { str } from './text-functions';
import { fixedVector, StringOut, toF64, toJsStrings, vectorFromValues } from '../vector-ops';
import { jsReplacement, regexFor } from './like-functions';

/** The constant-or-per-row ARRAY<STRING> argument of the multi_* functions, as JS strings per row. */
export function stringLists(vec: Vector): (readonly (string | null)[] | null)[] {
  return Array.from({ length: vec.length }, (_v, rowIdx) => getRaw(vec, rowIdx) as readonly (string | null)[] | null);
}

export const REGEXP_FUNCTIONS: readonly FunctionDef[] = [
  str({
    name: 'multi_match_any',
    args: [arg('haystack', 'STRING'), arg('patterns')],
    returns: Types.TINYINT,
    resolve: (types) => ({ argTypes: [Types.STRING, Types.array(Types.STRING)], returnType: Types.TINYINT }),
    kernel: (args, rowCount, site) => {
      const texts = toJsStrings(args[0]);
      const lists = stringLists(args[1]);
      const out = new Int8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const text = texts[rowIdx] ?? '';
        out[rowIdx] = (lists[rowIdx] ?? []).some((pattern) => pattern !== null && regexFor(site, pattern).test(text)) ? 1 : 0;
      }
      return fixedVector(Types.TINYINT, out);
    },
    description: 'Whether any of the RE2 patterns matches somewhere in the string, as 1 or 0.',
    example: "SELECT multi_match_any('Hello, World!', ['hello', '!', 'world'])",
  }),
  str({
    name: 'regexp_count',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount, site) => {
      const [texts, patterns] = args.map(toJsStrings);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const regex = regexFor(site, patterns[rowIdx] ?? '', true);
        let count = 0;
        for (const _match of (texts[rowIdx] ?? '').matchAll(regex as unknown as RegExp)) count++;
        out[rowIdx] = count;
      }
      return fixedVector(Types.INT, out);
    },
    description: 'How many times the regular expression matches in str (non-overlapping).',
    example: "SELECT regexp_count('a.b:c;d', '[.:;]')",
  }),
  str({
    name: 'regexp_extract_or_null',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), arg('group', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [texts, patterns] = [toJsStrings(args[0]), toJsStrings(args[1])];
      const groups = toF64(args[2]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = regexFor(site, patterns[rowIdx] ?? '').exec(texts[rowIdx] ?? '')?.[groups[rowIdx]];
        if (value === undefined || value === null) out.pushNull();
        else out.push(value);
      }
      return out.finish();
    },
    description: 'The given capture group of the first match; NULL when nothing matches or the group does not exist.',
    example: "SELECT regexp_extract_or_null('123AbCdExCx', '([[:lower:]]+)C([[:lower:]]+)', 1)",
  }),
  str({
    name: 'regexp_extract_all',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [texts, patterns] = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const regex = regexFor(site, patterns[rowIdx] ?? '', true);
        const found: string[] = [];
        for (const match of (texts[rowIdx] ?? '').matchAll(regex as unknown as RegExp)) if (match[1] !== undefined) found.push(`'${match[1]}'`);
        out.push(`[${found.join(',')}]`);
      }
      return out.finish();
    },
    description: "The first capture group of every match, as text \"['a','b']\".",
    example: "SELECT regexp_extract_all('AbCdEfCg', '([[:lower:]]+)C([[:lower:]]+)')",
  }),
  str({
    name: 'regexp_replace_one',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), arg('repl', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [texts, patterns, repls] = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(regexFor(site, patterns[rowIdx] ?? '').replace(texts[rowIdx] ?? '', jsReplacement(repls[rowIdx] ?? '')));
      return out.finish();
    },
    description: 'Replaces the first match of the regular expression; \\1 in repl refers to a group.',
    example: "SELECT regexp_replace_one('a b c', ' ', '-')",
  }),
  str({
    name: 'split_by_regexp',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), opt('max_parts', 'INT')],
    returns: Types.array(Types.STRING),
    kernel: (args, rowCount, site) => {
      const [texts, patterns] = [toJsStrings(args[0]), toJsStrings(args[1])];
      const limits = args.length > 2 ? toF64(args[2]) : null;
      const values: string[][] = [];
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const text = texts[rowIdx] ?? '';
        const pattern = patterns[rowIdx] ?? '';
        let parts: string[];
        if (text === '') parts = [];
        else if (pattern === '') parts = Array.from(text);
        else {
          parts = [];
          let last = 0;
          for (const match of text.matchAll(regexFor(site, pattern, true) as unknown as RegExp)) {
            if (match[0] === '') continue;
            parts.push(text.slice(last, match.index));
            last = match.index! + match[0].length;
          }
          parts.push(text.slice(last));
        }
        const limit = limits === null ? 0 : Math.trunc(limits[rowIdx]);
        values.push(limit > 0 && parts.length > limit ? parts.slice(0, limit) : parts);
      }
      return vectorFromValues(Types.array(Types.STRING), values);
    },
    description: 'The parts of str between matches of the regular expression as an ARRAY<STRING> (at most max_parts); an empty pattern splits into characters.',
    example: "SELECT split_by_regexp('a12bc23de345f', '\\\\d+')",
  }),
];
