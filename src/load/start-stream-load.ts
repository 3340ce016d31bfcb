/**
 * Where a planned Stream Load starts on the BE: compile the plan into the load's RowConverter, then
 * offer the load to Group Commit (src/load/group-commit, by the group_commit header or the table's
 * group_commit_mode) and otherwise give it a transaction of its own (src/load/stream-load). The one
 * place that knows both paths, so that they do not import each other.
 */
import type { LoadPlan } from './load-plan';
import { messageOf, PrepareOutcome, refusedLoad } from './load-result';
import { LoadErrorLog } from './source/load-error-log';
import { RowConverter } from './source/row-converter';
import { prepareGroupCommitStreamLoad } from './group-commit/group-commit-loads';
import type { StreamLoadService } from './stream-load/stream-load-service';

/**
 * Prepare `plan` for its body. `headers` are the request's (Group Commit reads group_commit and the body
 * size from them), `started` is when the request arrived (performance.now()), `errorUrlBase` is
 * `http://host:port` of this BE's web server, `user` the authenticated loader.
 */
export function startStreamLoad(
  service: StreamLoadService,
  plan: LoadPlan,
  headers: Record<string, string | string[] | undefined>,
  errorUrlBase: string,
  user: string,
  started: number,
): PrepareOutcome {
  const errors = new LoadErrorLog();
  let converter: RowConverter;
  try {
    converter = new RowConverter(plan, errors);
  } catch (err) {
    return refusedLoad(plan.label, plan.options, messageOf(err), started);
  }
  const groupCommitHost = { target: service.host.target, config: service.host.config, errorLogDir: service.errorLogDir };
  const grouped = prepareGroupCommitStreamLoad(groupCommitHost, plan, headers, converter, errors, errorUrlBase, started);
  if (grouped !== null) return grouped;
  return service.prepare(plan, converter, errors, errorUrlBase, user, started);
}
