/**
 * Window functions (`fn(args) OVER (PARTITION BY ... ORDER BY ... ROWS|RANGE ...)`): binding, Doris's
 * checks and default frames, and placing the logical Window nodes under the select list's Project.
 *
 * The query binder (binder.ts) binds the select list and ORDER BY with a WindowCollector: each window call
 * becomes a placeholder column (index WINDOW_SLOT_BASE + k) while the rest of the expression binds as
 * usual; `placeWindows` then stacks one Window node per distinct (PARTITION BY, ORDER BY) pair over the
 * pre-projection plan, so calls that share them share one sort, and maps the placeholders to the columns
 * the nodes append. The arguments, PARTITION BY and ORDER BY of a call bind in the same space as the
 * select list (input rows, or the aggregate's output after GROUP BY: `rank() OVER (ORDER BY sum(x))`).
 *
 * Frames follow Doris's Nereids WindowFunctionChecker: a frame needs ORDER BY; RANGE takes only UNBOUNDED
 * and CURRENT ROW bounds; offsets are positive integer literals; ranking functions accept only their own
 * frame, LAG/LEAD none. Without a frame: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (with no ORDER
 * BY every row of the partition is a peer, so that is the whole partition).
 */
import { refuseJsonKey } from './refuse-json-key';
import { GaleneError } from '../common/errors';
import { isIntegerType, Types } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { isAggregateFunctionName, resolveAggregate } from '../exec/expr';
import { collectColumns, exprKey, remapColumns } from '../exec/plan/bound-expr-utils';
import type { FrameBound, SortKey, WindowFrame, WindowFunctionSpec } from '../exec/plan/physical-plan';
import { windowFrameToString } from '../exec/operators/window-frames';
import { windowSortKeys } from '../exec/plan/node-properties';
import type { Expr, FrameBoundAst, FunctionCallExpr, OrderByItem, WindowFrameAst } from './ast';
import { castTo, containsWindow, isWindowCall, type ExprBinder } from './binder-expr';
import { Scope } from './binder-scope';
import type { LogicalPlan, PlanColumn } from './logical-plan';
import { windowError, windowNotAllowed } from './window-errors';

/** Placeholder column indices of window calls while the select list binds (far above any real column). */
export const WINDOW_SLOT_BASE = 1 << 24;

/** One bound window call. */
interface WindowCall {
  readonly partitionBy: readonly BoundExpr[];
  readonly orderBy: readonly SortKey[];
  readonly spec: WindowFunctionSpec;
  /** PARTITION BY + ORDER BY: calls with the same one share a Window node (one sort). */
  readonly groupKey: string;
}

/** ORDER BY item -> sort key; Doris's defaults are NULLS FIRST for ASC and NULLS LAST for DESC. */
export function sortKeyFor(item: OrderByItem, expr: BoundExpr): SortKey {
  refuseJsonKey(expr.type);
  const descending = item.direction === 'DESC';
  return { expr, descending, nullsFirst: item.nulls === null ? !descending : item.nulls === 'FIRST' };
}

const UNBOUNDED_PRECEDING: FrameBound = { kind: 'unbounded_preceding', offset: 0 };
const CURRENT_ROW: FrameBound = { kind: 'current_row', offset: 0 };
const UNBOUNDED_FOLLOWING: FrameBound = { kind: 'unbounded_following', offset: 0 };
/** Doris's default frame (AnalyticWindow.DEFAULT_WINDOW) and the one rank-like functions require. */
const RANGE_TO_CURRENT: WindowFrame = { units: 'range', start: UNBOUNDED_PRECEDING, end: CURRENT_ROW };
const ROWS_TO_CURRENT: WindowFrame = { units: 'rows', start: UNBOUNDED_PRECEDING, end: CURRENT_ROW };

/** `row_number() OVER (...)`, for plans the binder builds itself (INTERSECT ALL / EXCEPT ALL). */
export const ROW_NUMBER_SPEC: WindowFunctionSpec = { name: 'row_number', args: [], argTypes: [], aggregate: false, distinct: false, frame: ROWS_TO_CURRENT, type: Types.BIGINT, param: 0, ignoreNulls: false };

const RANKING_FRAMES: ReadonlyMap<string, WindowFrame> = new Map([
  ['row_number', ROWS_TO_CURRENT],
  ['ntile', ROWS_TO_CURRENT],
  ['rank', RANGE_TO_CURRENT],
  ['dense_rank', RANGE_TO_CURRENT],
  ['percent_rank', RANGE_TO_CURRENT],
  ['cume_dist', RANGE_TO_CURRENT],
]);

function framesEqual(left: WindowFrame, right: WindowFrame): boolean {
  return windowFrameToString(left) === windowFrameToString(right);
}

const isPreceding = (bound: FrameBound): boolean => bound.kind === 'preceding' || bound.kind === 'unbounded_preceding';
const isFollowing = (bound: FrameBound): boolean => bound.kind === 'following' || bound.kind === 'unbounded_following';

/** A positive integer constant argument (NTILE buckets, LAG offset, NTH_VALUE position); `zero`: 0 allowed. */
function constantInteger(bound: BoundExpr, message: string, zero = false): number {
  if (bound.kind !== 'literal' || bound.value === null || !isIntegerType(bound.type)) throw windowError(message);
  const value = Number(bound.value);
  if (!Number.isSafeInteger(value) || value < (zero ? 0 : 1)) throw windowError(message);
  return value;
}

export class WindowCollector {
  readonly calls: WindowCall[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(private readonly exprs: ExprBinder) {}

  /**
   * The placeholder column for a window call; `bindPart` binds its arguments, PARTITION BY and ORDER BY
   * expressions in the select list's space (without window calls: nesting them is refused).
   */
  ref(ast: FunctionCallExpr & { over: NonNullable<FunctionCallExpr['over']> }, bindPart: (part: Expr) => BoundExpr): BoundExpr {
    const call = this.bindCall(ast, bindPart);
    const key = `${call.groupKey}|${call.spec.name}|${call.spec.distinct}|${call.spec.args.map(exprKey).join(',')}|${windowFrameToString(call.spec.frame)}|${call.spec.param}|${call.spec.ignoreNulls}`;
    let slot = this.byKey.get(key);
    if (slot === undefined) {
      slot = this.calls.length;
      this.byKey.set(key, slot);
      this.calls.push(call);
    }
    return { kind: 'column', index: WINDOW_SLOT_BASE + slot, type: call.spec.type, name: this.exprs.sourceText(ast) ?? `${call.spec.name}(...)` };
  }

  /** A BindEnv override that turns window calls into placeholders (for the select list and ORDER BY). */
  override(bindPart: (part: Expr) => BoundExpr): (ast: Expr) => BoundExpr | undefined {
    return (ast) => (isWindowCall(ast) ? this.ref(ast, bindPart) : undefined);
  }

  private bindCall(ast: FunctionCallExpr & { over: NonNullable<FunctionCallExpr['over']> }, bindPart: (part: Expr) => BoundExpr): WindowCall {
    const over = ast.over;
    for (const part of [...ast.args, ...over.partitionBy, ...over.orderBy.map((item) => item.expr)]) {
      if (containsWindow(part)) throw windowNotAllowed(ast, 'field list', this.exprs.sourceText(ast));
    }
    const partitionBy = over.partitionBy.map(bindPart);
    const orderBy = over.orderBy.map((item) => sortKeyFor(item, bindPart(item.expr)));
    const given = over.frame === null ? null : this.checkFrame(over.frame, orderBy.length > 0);
    const spec = this.bindFunction(ast, given, bindPart);
    const groupKey = `${partitionBy.map(exprKey).join(',')}|${orderBy.map((key) => `${exprKey(key.expr)} ${key.descending} ${key.nullsFirst}`).join(',')}`;
    return { partitionBy, orderBy, spec, groupKey };
  }

  /** Doris's checkWindowFrameBeforeFunc: ORDER BY present, bounds in order, RANGE without offsets. */
  private checkFrame(ast: WindowFrameAst, hasOrder: boolean): WindowFrame {
    if (!hasOrder) throw windowError('WindowFrame clause requires OrderBy clause');
    const units = ast.units === 'ROWS' ? 'rows' : 'range';
    const start = this.frameBound(ast.start, units);
    const end = ast.end === null ? CURRENT_ROW : this.frameBound(ast.end, units);
    if (start.kind === 'unbounded_following') throw windowError('WindowFrame in any window function cannot use UNBOUNDED FOLLOWING as left boundary');
    if (start.kind === 'following' && !isFollowing(end)) throw windowError('WindowFrame with FOLLOWING left boundary requires UNBOUNDED FOLLOWING or FOLLOWING right boundary');
    if (end.kind === 'unbounded_preceding') throw windowError('WindowFrame in any window function cannot use UNBOUNDED PRECEDING as right boundary');
    if (end.kind === 'preceding' && !isPreceding(start)) throw windowError('WindowFrame with PRECEDING right boundary requires UNBOUNDED PRECEDING or PRECEDING left boundary');
    if (units === 'range' && (start.kind === 'preceding' || start.kind === 'following' || end.kind === 'preceding' || end.kind === 'following' || (start.kind === 'current_row' && end.kind === 'current_row'))) {
      throw windowError('WindowFrame with RANGE must use both UNBOUNDED boundary or one UNBOUNDED boundary and one CURRENT ROW');
    }
    if (start.kind === 'preceding' && end.kind === 'preceding' && start.offset < end.offset) throw windowError('WindowFrame with PRECEDING boundary requires that leftBoundOffset >= rightBoundOffset');
    if (start.kind === 'following' && end.kind === 'following' && start.offset > end.offset) throw windowError('WindowFrame with FOLLOWING boundary requires that leftBoundOffset >= rightBoundOffset');
    return { units, start, end };
  }

  private frameBound(ast: FrameBoundAst, units: 'rows' | 'range'): FrameBound {
    switch (ast.kind) {
      case 'UNBOUNDED_PRECEDING':
        return UNBOUNDED_PRECEDING;
      case 'UNBOUNDED_FOLLOWING':
        return UNBOUNDED_FOLLOWING;
      case 'CURRENT_ROW':
        return CURRENT_ROW;
      default: {
        const kind = ast.kind === 'PRECEDING' ? 'preceding' : 'following';
        if (ast.offset!.kind !== 'literal') throw windowError('BoundOffset of WindowFrame must be Literal');
        const offset = this.exprs.bind(ast.offset!, { scope: Scope.EMPTY, clause: 'field list' });
        if (units === 'range') return { kind, offset: 0 };
        if (offset.kind !== 'literal' || offset.value === null) throw windowError('BoundOffset of WindowFrame must be Literal');
        const value = Number(offset.value);
        if (!(value > 0)) throw windowError('BoundOffset of WindowFrame must be positive');
        if (!isIntegerType(offset.type)) throw windowError('BoundOffset of ROWS WindowFrame must be an Integer');
        return { kind, offset: value };
      }
    }
  }

  private bindFunction(ast: FunctionCallExpr, given: WindowFrame | null, bindPart: (part: Expr) => BoundExpr): WindowFunctionSpec {
    const name = ast.name.toLowerCase();
    const argCount = ast.args.length;
    const base = { distinct: false, aggregate: false, param: 0, ignoreNulls: false };
    const arity = (min: number, max: number): void => {
      if (argCount < min || argCount > max) throw new GaleneError('WRONG_ARG_COUNT', [name]);
    };
    if (ast.distinct && !isAggregateFunctionName(name)) throw new GaleneError('SYNTAX_ERROR', [`DISTINCT is not valid in ${ast.name}()`]);
    if (ast.args.some((arg) => arg.kind === 'star') && name !== 'count') throw new GaleneError('SYNTAX_ERROR', [`${ast.name}(*) is not valid`]);
    const required = RANKING_FRAMES.get(name);
    if (required !== undefined) {
      if (given !== null && !framesEqual(given, required)) throw windowError(`WindowFrame for ${name}() must be null or match with ${windowFrameToString(required)}`);
      if (name === 'ntile') {
        arity(1, 1);
        const buckets = constantInteger(bindPart(ast.args[0]), `The bucket of NTILE must be a constant positive integer: ${this.exprs.sourceText(ast.args[0]) ?? ''}`);
        return { ...base, name, args: [], argTypes: [], frame: required, type: Types.BIGINT, param: buckets };
      }
      arity(0, 0);
      const type = name === 'percent_rank' || name === 'cume_dist' ? Types.DOUBLE : Types.BIGINT;
      return { ...base, name, args: [], argTypes: [], frame: required, type };
    }
    if (name === 'lag' || name === 'lead') {
      if (given !== null) throw windowError(`WindowFrame for ${name.toUpperCase()}() must be null`);
      arity(1, 3);
      const value = bindPart(ast.args[0]);
      const offset = argCount >= 2 ? constantInteger(bindPart(ast.args[1]), `The offset parameter of ${name.toUpperCase()} must be a constant positive integer: ${this.exprs.sourceText(ast.args[1]) ?? ''}`, true) : 1;
      const args = [value];
      if (argCount === 3) {
        const fallback = bindPart(ast.args[2]);
        if (!(fallback.kind === 'literal' && fallback.value === null)) args.push(castTo(fallback, value.type));
      }
      return { ...base, name, args, argTypes: args.map((arg) => arg.type), frame: ROWS_TO_CURRENT, type: value.type, param: offset };
    }
    const frame = given ?? RANGE_TO_CURRENT;
    if (name === 'first_value' || name === 'last_value') {
      arity(1, 2);
      const value = bindPart(ast.args[0]);
      let ignoreNulls = false;
      if (argCount === 2) {
        const flag = bindPart(ast.args[1]);
        if (flag.kind !== 'literal' || flag.value === null) throw windowError(`The second parameter of ${name} must be a constant boolean: ${this.exprs.sourceText(ast.args[1]) ?? ''}`);
        ignoreNulls = Number(flag.value) !== 0;
      }
      return { ...base, name, args: [value], argTypes: [value.type], frame, type: value.type, ignoreNulls };
    }
    if (name === 'nth_value') {
      arity(2, 2);
      const value = bindPart(ast.args[0]);
      const position = constantInteger(bindPart(ast.args[1]), `The second parameter of nth_value must be a constant positive integer: ${this.exprs.sourceText(ast.args[1]) ?? ''}`);
      return { ...base, name, args: [value], argTypes: [value.type], frame, type: value.type, param: position };
    }
    if (isAggregateFunctionName(name)) {
      if (ast.orderBy && ast.orderBy.length > 0) throw new GaleneError('UNSUPPORTED', [`ORDER BY inside ${name}() OVER (...)`]);
      const isStar = argCount === 1 && ast.args[0].kind === 'star';
      const args = isStar ? [] : ast.args.map(bindPart);
      if (ast.separator !== undefined) args.push({ kind: 'literal', type: Types.varchar(Math.max(1, ast.separator.length)), value: ast.separator });
      const resolved = resolveAggregate(name, args.map((arg) => arg.type), ast.distinct);
      const cast = args.map((arg, argIdx) => castTo(arg, resolved.argTypes[argIdx] ?? arg.type));
      return { ...base, name: resolved.name, args: cast, argTypes: cast.map((arg) => arg.type), aggregate: true, distinct: ast.distinct, frame, type: resolved.returnType };
    }
    throw windowError(`${ast.name} is not a window function or an aggregate function: ${this.exprs.sourceText(ast) ?? ast.name}`);
  }
}

/**
 * Stacks one Window node per (PARTITION BY, ORDER BY) group of `calls` over `plan` and returns the
 * mapping of placeholder columns to the columns the nodes append (input columns pass through unchanged).
 */
export function placeWindows(plan: LogicalPlan, calls: readonly WindowCall[]): { plan: LogicalPlan; remap: (expr: BoundExpr) => BoundExpr } {
  const groups = new Map<string, number[]>();
  calls.forEach((call, callIdx) => {
    const members = groups.get(call.groupKey);
    if (members) members.push(callIdx);
    else groups.set(call.groupKey, [callIdx]);
  });
  const finalIndex = new Int32Array(calls.length);
  let current = plan;
  for (const members of stackingOrder(calls, [...groups.values()])) {
    const first = calls[members[0]];
    const base = current.schema.length;
    const functions = members.map((callIdx) => calls[callIdx].spec);
    members.forEach((callIdx, fnIdx) => (finalIndex[callIdx] = base + fnIdx));
    const appended: PlanColumn[] = functions.map((spec, fnIdx) => ({ name: `${spec.name}#w${base + fnIdx}`, type: spec.type, nullable: true }));
    current = { kind: 'window', input: current, partitionBy: first.partitionBy, orderBy: first.orderBy, functions, schema: [...current.schema, ...appended] };
  }
  return { plan: current, remap: (expr) => remapColumns(expr, (index) => (index >= WINDOW_SLOT_BASE ? finalIndex[index - WINDOW_SLOT_BASE] : index)) };
}

/** The keys a group's Window sorts by, as text: partition keys (ASC NULLS FIRST), then ORDER BY keys. */
function sortKeyTexts(call: WindowCall): string[] {
  return windowSortKeys(call.partitionBy, call.orderBy).map((key) => `${exprKey(key.expr)} ${key.descending} ${key.nullsFirst}`);
}

/**
 * The order to stack the groups in, bottom first: longer sort keys first, and next on top of each group
 * one whose keys are a prefix of its keys when there is one, so that group needs no sort of its own
 * (`sum(x) OVER (PARTITION BY g)` over `rank() OVER (PARTITION BY g ORDER BY x)`).
 */
function stackingOrder(calls: readonly WindowCall[], groups: number[][]): number[][] {
  const keysOf = (members: number[]): string[] => sortKeyTexts(calls[members[0]]);
  const remaining = [...groups].sort((left, right) => keysOf(right).length - keysOf(left).length);
  const out: number[][] = [];
  while (remaining.length > 0) {
    const top = out.length > 0 ? keysOf(out[out.length - 1]) : null;
    let pick = 0;
    if (top !== null) {
      const prefixIdx = remaining.findIndex((members) => keysOf(members).every((text, keyIdx) => top[keyIdx] === text));
      if (prefixIdx >= 0) pick = prefixIdx;
    }
    out.push(remaining.splice(pick, 1)[0]);
  }
  return out;
}

/** True when a bound expression reads a window placeholder (a select alias of a window call in HAVING). */
export function readsWindow(expr: BoundExpr): boolean {
  for (const index of collectColumns(expr)) if (index >= WINDOW_SLOT_BASE) return true;
  return false;
}
