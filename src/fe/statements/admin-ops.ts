/**
 * ADMIN SET FRONTEND CONFIG, CANCEL LOAD and HELP.
 *
 * - `ADMIN SET FRONTEND CONFIG ("k" = "v")` changes one run-time-changeable setting of the one config
 *   system (src/common/config.ts), with Doris's messages: "config parameter size is not equal to 1",
 *   "Config 'k' does not exist", "Config 'k' is not mutable" (ConfigBase.setMutableConfig), and Doris's
 *   "Only support setting Frontend configs now" for BACKEND (BE settings change over POST /api/update_config).
 * - `CANCEL LOAD [FROM db] WHERE LABEL = 'l' | LABEL LIKE 'p' | STATE = 'LOADING'` stops running Stream Loads
 *   at their next body block ("user cancel", Doris's reason); their transactions abort.
 * - `HELP 'topic'` answers as MySQL's server-side help: one topic as (name, description, example), several
 *   as (name, is_it_category), a category as (source_category_name, name, is_it_category); topics come
 *   from the function registry and the statement registry (statement-syntax.ts).
 */
import type { RawValue } from '../../common/column';
import { findSetting } from '../../common/config';
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import { listFunctions, matchLike } from '../../exec/expr';
import type { AdminSetConfigStatement, CancelLoadStatement, HelpStatement } from '../../sql/ast';
import { loadState } from '../load-records';
import { okResult, rowsResult } from './result-rows';
import { whereMatches } from './show-filter';
import type { StatementSession } from './statement-session';
import { STATEMENT_SYNTAX } from './statement-syntax';

const adminError = (message: string): GaleneError => new GaleneError('ADMIN_ERROR', [message]);

export async function adminSetConfig(session: StatementSession, statement: AdminSetConfigStatement): Promise<StatementResult> {
  const entries = Object.entries(statement.configs);
  if (entries.length !== 1) throw adminError('config parameter size is not equal to 1');
  if (statement.node !== 'FRONTEND') throw adminError('Only support setting Frontend configs now');
  const [key, value] = entries[0];
  const setting = findSetting(key);
  if (!setting) throw adminError(`Config '${key}' does not exist`);
  if (!setting.mutable) throw adminError(`Config '${key}' is not mutable`);
  try {
    session.fe.config.set(key, value, 'ADMIN SET FRONTEND CONFIG');
  } catch (err) {
    throw adminError(`Failed to set config '${key}'. err: ${(err instanceof Error ? err.message : String(err)).replace(/^errCode = \d+, detailMessage = /, '')}`);
  }
  session.fe.serverLog.log('INFO', 'config', `set config ${key} to ${value}`);
  return okResult();
}

/** Doris's reason for a load cancelled by CANCEL LOAD. */
const USER_CANCEL = 'user cancel';

export async function cancelLoad(session: StatementSession, statement: CancelLoadStatement): Promise<StatementResult> {
  const fe = session.fe;
  const db = fe.catalog.getDatabase(session.requireDatabase(statement.database));
  const columns = [['Label'], ['State']] as const;
  const matched = fe.catalog.meta.listTransactions({ dbId: db.id }).filter((txn) => whereMatches(statement.where, columns, [txn.label, loadState(txn)]) === true);
  if (matched.length === 0) throw adminError('Load job does not exist');
  const cancelled = matched.filter((txn) => txn.status === 'PREPARE' && fe.loadProgress.cancel(txn.id, USER_CANCEL));
  if (cancelled.length === 0) throw adminError(`There is no uncompleted job which label is ${matched.map((txn) => txn.label).join(', ')}`);
  return okResult();
}

interface HelpTopic {
  readonly name: string;
  readonly category: string;
  readonly description: string;
  readonly example: string;
  readonly aliases: readonly string[];
}

function helpTopics(): HelpTopic[] {
  const functions = listFunctions().map((fn): HelpTopic => ({
    name: fn.name.toUpperCase(),
    category: fn.kind === 'aggregate' ? 'Aggregate Functions' : 'Functions',
    description: `Syntax:\n${fn.signature}\n\n${fn.description}`,
    example: fn.example ?? '',
    aliases: fn.aliases.map((alias) => alias.toUpperCase()),
  }));
  const statements = STATEMENT_SYNTAX.map((stmt): HelpTopic => ({ name: stmt.name, category: stmt.category, description: `Syntax:\n${stmt.syntax.join('\n')}`, example: '', aliases: [] }));
  return [...statements, ...functions];
}

export async function help(_session: StatementSession, statement: HelpStatement): Promise<StatementResult> {
  const topics = helpTopics();
  const wanted = statement.topic.trim().toUpperCase();
  const categories = [...new Set(topics.map((topic) => topic.category))].sort();
  if (wanted === 'CONTENTS') return rowsResult([['source_category_name'], ['name'], ['is_it_category']], categories.map((category) => ['Contents', category, 'Y']));
  const category = categories.find((name) => name.toUpperCase() === wanted);
  if (category) return rowsResult([['source_category_name'], ['name'], ['is_it_category']], topics.filter((topic) => topic.category === category).map((topic) => [category, topic.name, 'N']));
  const exact = topics.find((topic) => topic.name === wanted || topic.aliases.includes(wanted));
  if (exact) return rowsResult([['name'], ['description'], ['example']], [[exact.name, exact.description, exact.example]]);
  // As MySQL: a pattern with % or _ matches by LIKE; a plain word matches the topics it begins.
  const pattern = /[%_]/.test(wanted) ? wanted : `${wanted}%`;
  const matches: RawValue[][] = topics.filter((topic) => matchLike(topic.name, pattern, { caseInsensitive: true })).map((topic) => [topic.name, 'N']);
  if (matches.length === 1) {
    const only = topics.find((topic) => topic.name === matches[0][0])!;
    return rowsResult([['name'], ['description'], ['example']], [[only.name, only.description, only.example]]);
  }
  if (matches.length === 0) return rowsResult([['name'], ['description'], ['example']], []);
  return rowsResult([['name'], ['is_it_category']], matches);
}
