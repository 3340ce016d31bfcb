/**
 * Doris's `SELECT /*+ SET_VAR(name = value [, ...]) *\/ ...` hint: session variables for one statement
 * (https://doris.apache.org/docs/query-data/query-variables/variables : "the comment must start with
 * /*+ and can only follow SELECT"). The lexer skips the comment like any other; this reads it from the
 * statement's text. Values are numbers, quoted strings, or bare words (true, off_mode...).
 */
import { GaleneError } from '../common/errors';

export interface SetVarAssignment {
  readonly name: string;
  readonly value: string;
}

const HINT = /^\s*\(?\s*SELECT\s*\/\*\+\s*SET_VAR\s*\(([^)]*)\)\s*\*\//i;
const ASSIGNMENT = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,\s]+)\s*$/;

/** The hint's assignments, or [] when the statement has none; a malformed hint is a syntax error. */
export function parseSetVarHint(sql: string): SetVarAssignment[] {
  const match = HINT.exec(sql);
  if (!match) return [];
  const body = match[1].trim();
  if (body === '') return [];
  return splitTopLevel(body).map((part) => {
    const assignment = ASSIGNMENT.exec(part);
    if (!assignment) throw new GaleneError('SYNTAX_ERROR', [`SET_VAR hint: expected name = value, got '${part.trim()}'`]);
    const raw = assignment[2];
    const quoted = raw.startsWith("'") || raw.startsWith('"');
    return { name: assignment[1], value: quoted ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw };
  });
}

/** Split on commas outside quotes. */
function splitTopLevel(body: string): string[] {
  return body.match(/(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,'"])+/g) ?? [];
}
