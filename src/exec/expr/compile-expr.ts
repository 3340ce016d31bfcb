/**
 * Compiles a BoundExpr tree into a closure tree that evaluates whole batches.
 *
 * Each node knows whether its value is the same on every row: 'static' (known at compile time: literals
 * and deterministic functions of them, folded once), 'batch' (parameters, now(), database(): read once
 * per batch) or 'rows'. Constant operands reach kernels as full-length constant vectors flagged in
 * CallSite.isConst, so kernels can take column-vs-constant fast paths.
 *
 * Generic machinery around kernels:
 * - NULL propagation: for functions declared nulls 'propagate' the engine ORs the argument null maps
 *   and short-cuts a constant NULL argument to an all-NULL result.
 * - Dictionary columns: a pure function whose only varying argument is a dictionary-encoded string
 *   column runs once per dictionary entry, and the result is gathered by code (a string result stays a
 *   dictionary vector). So `city = 'x'`, `upper(city)` or `city LIKE 'a%'` cost one pass over int codes.
 */
import { compareRawValues } from '../../common/row-order';
import { ArrayVector, Batch, constantVector, FixedVector, getRaw, RawValue, StringVector, takeRows, Vector } from '../../common/column';
import { galeneError } from '../../common/errors';
import { DataType, isSketchType, isStringType, physicalKind, typesEqual, Types } from '../../common/types';
import type { BoundExpr, BoundLambda } from '../bound-expr';
import { isDeterministic } from '../plan/bound-expr-utils';
import { arrayMapKernel, arraySortLambdaKernel } from './lambda-kernels';
import type { TaskContext } from '../context';
import type { CompiledExpr } from '../expr-api';
import { castRaw, castVector } from './cast';
import { CallSite, FunctionDef, lookupFunction } from './function-registry';
import { ensureFunctionsRegistered } from './functions/all-functions';
import { gatherBranches, orNulls, StringOut, toJsStrings, withNulls } from './vector-ops';

type Constness = 'static' | 'batch' | 'rows';

interface Node {
  readonly type: DataType;
  readonly constness: Constness;
  /** The value of a 'static' node. */
  readonly staticValue?: RawValue;
  eval(batch: Batch, ctx: TaskContext): Vector;
}

const EMPTY_BATCH_1: Batch = { length: 1, columns: [] };

/** A node with a compile-time value; serves a cached constant vector per batch length. */
function staticNode(type: DataType, value: RawValue): Node {
  let cached: Vector | null = null;
  return {
    type,
    constness: 'static',
    staticValue: value,
    eval(batch) {
      if (cached === null || cached.length !== batch.length) cached = constantVector(type, value, batch.length);
      return cached;
    },
  };
}

/** A node constant within a batch: computes one row, expands it; reuses it while ctx and length stay. */
function batchConstNode(type: DataType, computeOne: (ctx: TaskContext) => Vector): Node {
  let lastCtx: TaskContext | null = null;
  let lastVec: Vector | null = null;
  return {
    type,
    constness: 'batch',
    eval(batch, ctx) {
      if (lastCtx !== ctx || lastVec === null || lastVec.length !== batch.length) {
        const one = computeOne(ctx);
        // A BITMAP / HLL state or non-UTF-8 bytes repeat as bytes: their raw value would be text.
        lastVec = isSketchType(type) || holdsBinary(one) ? takeRows(one, new Int32Array(batch.length)) : constantVector(type, getRaw(one, 0), batch.length);
        lastCtx = ctx;
      }
      return lastVec;
    },
  };
}

function compileNode(expr: BoundExpr): Node {
  switch (expr.kind) {
    case 'column': {
      const index = expr.index;
      return {
        type: expr.type,
        constness: 'rows',
        eval(batch) {
          const vec = batch.columns[index];
          if (vec === undefined) throw galeneError('INTERNAL', `column #${index} (${expr.name}) missing from batch`);
          return vec;
        },
      };
    }
    case 'literal':
      return staticNode(expr.type, expr.value);
    case 'param': {
      const { index, type } = expr;
      return batchConstNode(type, (ctx) => {
        const param = ctx.parameters[index];
        if (param === undefined) throw galeneError('INTERNAL', `parameter ${index + 1} is not bound`);
        const value = typesEqual(param.type, type) ? param.value : castRaw(param.value, param.type, type);
        return constantVector(type, value, 1);
      });
    }
    case 'cast': {
      const operand = compileNode(expr.operand);
      const type = expr.type;
      if (operand.constness === 'static') return staticNode(type, castRaw(operand.staticValue ?? null, operand.type, type));
      const evalCast = (batch: Batch, ctx: TaskContext): Vector => castVector(operand.eval(batch, ctx), type, 'sql');
      if (operand.constness === 'batch') return batchConstNode(type, (ctx) => evalCast(EMPTY_BATCH_1, ctx));
      return { type, constness: 'rows', eval: evalCast };
    }
    case 'call': {
      const name = expr.name.toLowerCase();
      const lambda = expr.args[0];
      if (lambda?.kind === 'lambda') return compileLambdaCall(name, lambda, expr.args.slice(1).map(compileNode), expr.type);
      if (name === 'and' || name === 'or' || name === 'not') return compileLogical(name, expr.args.map(compileNode), expr.type);
      return compileCall(expr.name, expr.args.map(compileNode), expr.type);
    }
    case 'and':
    case 'or':
    case 'not':
      return compileLogical(expr.kind, expr.args.map(compileNode), expr.type);
    case 'isnull':
      return compileIsNull(compileNode(expr.operand), expr.negated);
    case 'case':
      return compileCase(
        expr.whens.map((when) => ({ when: compileNode(when.when), then: compileNode(when.then) })),
        expr.elseExpr === null ? null : compileNode(expr.elseExpr),
        expr.type,
      );
    case 'in':
      return compileIn(compileNode(expr.operand), expr.list.map(compileNode), expr.negated, expr.type);
    case 'lambda':
      throw galeneError('INTERNAL', 'a lambda outside array_map / array_sort');
  }
}

/** array_map(lambda, arrays...) / array_sort(lambda, array): the body compiled once, run per batch (lambda-kernels.ts). */
function compileLambdaCall(name: string, lambda: BoundLambda, arrays: readonly Node[], type: DataType): Node {
  const body = compileNode(lambda.body);
  const captures = lambda.captures.map(compileNode);
  const evalBody = (inner: Batch, ctx: TaskContext): Vector => body.eval(inner, ctx);
  const node: Node = {
    type,
    constness: 'rows',
    eval(batch, ctx) {
      const lists = arrays.map((array) => array.eval(batch, ctx) as ArrayVector);
      const captured = captures.map((capture) => capture.eval(batch, ctx));
      if (name === 'array_sort') return arraySortLambdaKernel(evalBody, lists[0], captured, batch.length, type, ctx);
      return arrayMapKernel(evalBody, lists, captured, batch.length, type, ctx);
    },
  };
  return foldIfConstant(node, [...arrays, ...captures], isDeterministic(lambda.body) ? 'pure' : 'row');
}

/** Fold a node whose inputs are all 'static' (or all constant) into a static / batch node. */
function foldIfConstant(node: Node, inputs: readonly Node[], volatility: 'pure' | 'statement' | 'row'): Node {
  if (volatility === 'row') return node;
  if (volatility === 'pure' && inputs.every((input) => input.constness === 'static') && !isSketchType(node.type)) {
    const vec = node.eval(EMPTY_BATCH_1, FOLDING_CONTEXT);
    // A static value is a JS string: raw bytes that are not UTF-8 (aes_encrypt, unhex) stay a vector.
    if (!holdsBinary(vec)) return staticNode(node.type, getRaw(vec, 0));
    return batchConstNode(node.type, () => vec);
  }
  if (inputs.every((input) => input.constness !== 'rows')) return batchConstNode(node.type, (ctx) => node.eval(EMPTY_BATCH_1, ctx));
  return node;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Whether row 0 of a string vector has bytes that are not UTF-8 (so a JS string would change them). */
function holdsBinary(vec: Vector): boolean {
  if (vec.kind !== 'string' || (vec.nulls !== null && vec.nulls[0] === 1)) return false;
  try {
    STRICT_UTF8.decode(vec.bytes.subarray(vec.offsets[0], vec.offsets[1]));
    return false;
  } catch {
    return true;
  }
}

/** Constant folding runs without a statement: a pure function never reads the context. */
const FOLDING_CONTEXT = new Proxy({} as TaskContext, {
  get(_target, prop) {
    throw galeneError('INTERNAL', `constant folding read TaskContext.${String(prop)}`);
  },
});

function compileCall(name: string, args: readonly Node[], type: DataType): Node {
  ensureFunctionsRegistered();
  const def = lookupFunction(name);
  if (def === undefined) throw galeneError('UNKNOWN_FUNCTION', name);
  const site: CallSite = {
    name: def.name,
    argTypes: args.map((arg) => arg.type),
    returnType: type,
    isConst: args.map((arg) => arg.constness !== 'rows'),
    cache: new Map(),
    reuseOutput: compilingWithReuse,
  };
  const volatility = def.volatility ?? 'pure';
  const propagate = def.nulls === 'propagate';
  const varyingIdx = site.isConst.indexOf(false);
  const singleVarying = varyingIdx >= 0 && site.isConst.lastIndexOf(false) === varyingIdx;
  // Per dictionary entry only for text results: a BITMAP / HLL state would be decoded as text.
  const dictEligible = propagate && volatility === 'pure' && singleVarying && physicalKind(args[varyingIdx].type) === 'string' && !isSketchType(type);
  const dictCache = dictEligible && args.every((arg, argIdx) => argIdx === varyingIdx || arg.constness === 'static') ? new WeakMap<readonly string[], Vector>() : null;

  const node: Node = {
    type,
    constness: 'rows',
    eval(batch, ctx) {
      const rowCount = batch.length;
      const vectors = args.map((arg) => arg.eval(batch, ctx));
      if (propagate) {
        for (let argIdx = 0; argIdx < vectors.length; argIdx++) {
          const vec = vectors[argIdx];
          if (site.isConst[argIdx] && rowCount > 0 && vec.nulls !== null && vec.nulls[0] === 1) return constantVector(type, null, rowCount);
        }
        if (dictEligible) {
          const varying = vectors[varyingIdx];
          if (varying.kind === 'dict' && varying.dict.length < rowCount) return evalOverDict(def, site, vectors, varying, varyingIdx, ctx, dictCache);
        }
        const result = def.kernel(vectors, rowCount, site, ctx);
        const nulls = orNulls([result.nulls, ...vectors.map((vec) => vec.nulls)], rowCount);
        return withNulls(result, nulls);
      }
      return def.kernel(vectors, rowCount, site, ctx);
    },
  };
  return foldIfConstant(node, args, volatility);
}

/** Run a kernel once per dictionary entry and gather the results by code. */
function evalOverDict(
  def: FunctionDef,
  site: CallSite,
  vectors: readonly Vector[],
  varying: Extract<Vector, { kind: 'dict' }>,
  varyingIdx: number,
  ctx: TaskContext,
  cache: WeakMap<readonly string[], Vector> | null,
): Vector {
  let perEntry = cache?.get(varying.dict);
  if (perEntry === undefined) {
    const dictSize = varying.dict.length;
    const entries = new StringOut(varying.type, dictSize);
    for (const entry of varying.dict) entries.push(entry);
    const dictVec: StringVector = entries.finish();
    const entryArgs = vectors.map((vec, argIdx) => (argIdx === varyingIdx ? dictVec : constantVector(vec.type, getRaw(vec, 0), dictSize)));
    // Cached per dictionary: never in a reused output buffer.
    perEntry = def.kernel(entryArgs, dictSize, site.reuseOutput === true ? { ...site, reuseOutput: false, cache: new Map() } : site, ctx);
    if (physicalKind(perEntry.type) === 'string' && perEntry.kind !== 'dict') {
      const texts = toJsStrings(perEntry);
      perEntry = { kind: 'dict', type: perEntry.type, length: dictSize, codes: Int32Array.from({ length: dictSize }, (_v, idx) => idx), dict: texts.map((text) => text ?? ''), nulls: perEntry.nulls };
    }
    cache?.set(varying.dict, perEntry);
  }
  const rowCount = varying.length;
  if (perEntry.kind === 'dict') {
    // Compose codes: row -> entry -> result code.
    const codes = new Int32Array(rowCount);
    const inner = perEntry.codes;
    const outer = varying.codes;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) codes[rowIdx] = inner[outer[rowIdx]];
    let nulls: Uint8Array | null = null;
    if (perEntry.nulls !== null) {
      nulls = new Uint8Array(rowCount);
      const entryNulls = perEntry.nulls;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] = entryNulls[outer[rowIdx]];
    }
    return { kind: 'dict', type: perEntry.type, length: rowCount, codes, dict: perEntry.dict, nulls: orNulls([nulls, varying.nulls], rowCount) };
  }
  const gathered = takeRows(perEntry, varying.codes, rowCount);
  return withNulls(gathered, orNulls([gathered.nulls, varying.nulls], rowCount));
}

/** Truth of a boolean-ish vector as 0/1 (numbers: non-zero is true). */
function truthValues(vec: Vector): Uint8Array {
  if (vec.kind === 'fixed' && vec.values instanceof Uint8Array && vec.type.name === 'BOOLEAN') return vec.values;
  const out = new Uint8Array(vec.length);
  if (vec.kind === 'fixed') {
    if (vec.values instanceof BigInt64Array) for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = vec.values[rowIdx] !== 0n ? 1 : 0;
    else {
      const values = vec.values as Float64Array;
      for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = values[rowIdx] !== 0 ? 1 : 0;
    }
  } else {
    const asBool = castVector(vec, Types.BOOLEAN, 'sql');
    return truthValues(withNulls(asBool, null));
  }
  return out;
}

/** Three-valued AND / OR over two vectors; results are 0/1 with a null map. */
function logical2(isAnd: boolean, a: Vector, b: Vector, rowCount: number, type: DataType): Vector {
  const av = truthValues(a);
  const bv = truthValues(b);
  const an = a.nulls;
  const bn = b.nulls;
  const values = new Uint8Array(rowCount);
  if (an === null && bn === null) {
    if (isAnd) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) values[rowIdx] = av[rowIdx] & bv[rowIdx];
    else for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) values[rowIdx] = av[rowIdx] | bv[rowIdx];
    return { kind: 'fixed', type, length: rowCount, values, nulls: null };
  }
  const nulls = new Uint8Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const aNull = an === null ? 0 : an[rowIdx];
    const bNull = bn === null ? 0 : bn[rowIdx];
    const aTrue = av[rowIdx] & (aNull ^ 1);
    const bTrue = bv[rowIdx] & (bNull ^ 1);
    const aFalse = (av[rowIdx] ^ 1) & (aNull ^ 1);
    const bFalse = (bv[rowIdx] ^ 1) & (bNull ^ 1);
    if (isAnd) {
      const value = aTrue & bTrue;
      values[rowIdx] = value;
      nulls[rowIdx] = (aFalse | bFalse | value) ^ 1;
    } else {
      const value = aTrue | bTrue;
      values[rowIdx] = value;
      nulls[rowIdx] = (value | (aFalse & bFalse)) ^ 1;
    }
  }
  return { kind: 'fixed', type, length: rowCount, values, nulls };
}

function compileLogical(kind: 'and' | 'or' | 'not', args: readonly Node[], declared: DataType): Node {
  const type = declared.name === 'BOOLEAN' ? declared : Types.BOOLEAN;
  let node: Node;
  if (kind === 'not') {
    if (args.length !== 1) throw galeneError('WRONG_ARG_COUNT', 'not');
    const operand = args[0];
    node = {
      type,
      constness: 'rows',
      eval(batch, ctx) {
        const vec = operand.eval(batch, ctx);
        const truth = truthValues(vec);
        const values = new Uint8Array(batch.length);
        for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) values[rowIdx] = truth[rowIdx] ^ 1;
        return { kind: 'fixed', type, length: batch.length, values, nulls: vec.nulls };
      },
    };
  } else {
    if (args.length === 0) throw galeneError('WRONG_ARG_COUNT', kind);
    const isAnd = kind === 'and';
    node = {
      type,
      constness: 'rows',
      eval(batch, ctx) {
        let acc = args[0].eval(batch, ctx);
        if (args.length === 1) return logical2(isAnd, acc, acc, batch.length, type);
        for (let argIdx = 1; argIdx < args.length; argIdx++) acc = logical2(isAnd, acc, args[argIdx].eval(batch, ctx), batch.length, type);
        return acc;
      },
    };
  }
  return foldIfConstant(node, args, 'pure');
}

function compileIsNull(operand: Node, negated: boolean): Node {
  const type = Types.BOOLEAN;
  const node: Node = {
    type,
    constness: 'rows',
    eval(batch, ctx) {
      const vec = operand.eval(batch, ctx);
      const values = new Uint8Array(batch.length);
      const nulls = vec.nulls;
      if (nulls !== null) {
        if (negated) for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) values[rowIdx] = nulls[rowIdx] ^ 1;
        else values.set(nulls.subarray(0, batch.length));
      } else if (negated) values.fill(1);
      return { kind: 'fixed', type, length: batch.length, values, nulls: null };
    },
  };
  return foldIfConstant(node, [operand], 'pure');
}

function coerce(vec: Vector, type: DataType): Vector {
  return typesEqual(vec.type, type) ? vec : castVector(vec, type, 'sql');
}

/** Placeholder for a branch no row takes; an empty dictionary for strings keeps string CASE results dictionary-encoded. */
function unusedBranch(type: DataType, rowCount: number): Vector {
  if (physicalKind(type) !== 'string') return constantVector(type, null, rowCount);
  return { kind: 'dict', type, length: rowCount, codes: new Int32Array(rowCount), dict: [], nulls: new Uint8Array(rowCount).fill(1) };
}

function compileCase(whens: readonly { when: Node; then: Node }[], elseNode: Node | null, type: DataType): Node {
  const node: Node = {
    type,
    constness: 'rows',
    eval(batch, ctx) {
      const rowCount = batch.length;
      const elseIdx = whens.length;
      const choice = new Int32Array(rowCount).fill(-1);
      let undecided = rowCount;
      const used = new Uint8Array(whens.length + 1);
      for (let whenIdx = 0; whenIdx < whens.length && undecided > 0; whenIdx++) {
        const cond = whens[whenIdx].when.eval(batch, ctx);
        const truth = truthValues(cond);
        const nulls = cond.nulls;
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
          if (choice[rowIdx] === -1 && truth[rowIdx] === 1 && (nulls === null || nulls[rowIdx] === 0)) {
            choice[rowIdx] = whenIdx;
            used[whenIdx] = 1;
            undecided--;
          }
        }
      }
      if (elseNode !== null && undecided > 0) {
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (choice[rowIdx] === -1) choice[rowIdx] = elseIdx;
        used[elseIdx] = 1;
      }
      const branches: Vector[] = [];
      for (let branchIdx = 0; branchIdx <= whens.length; branchIdx++) {
        const branchNode = branchIdx < whens.length ? whens[branchIdx].then : elseNode;
        branches.push(used[branchIdx] && branchNode !== null ? coerce(branchNode.eval(batch, ctx), type) : unusedBranch(type, rowCount));
      }
      return gatherBranches(type, branches, choice, rowCount);
    },
  };
  const inputs = [...whens.flatMap((when) => [when.when, when.then]), ...(elseNode ? [elseNode] : [])];
  return foldIfConstant(node, inputs, 'pure');
}

/** Key of a raw value in a Set: numbers and strings as themselves, bigints normalised. */
function setKey(value: RawValue): RawValue {
  return typeof value === 'bigint' ? value : value;
}

/** IN compares strings by value: a list item is never cut to the operand's declared VARCHAR(n) length. */
const bothStrings = (a: DataType, b: DataType): boolean => isStringType(a) && isStringType(b);

function compileIn(operand: Node, list: readonly Node[], negated: boolean, declared: DataType): Node {
  const type = declared.name === 'BOOLEAN' ? declared : Types.BOOLEAN;
  const operandType = operand.type;
  const allStatic = list.every((item) => item.constness === 'static');
  const kind = physicalKind(operandType);
  let lookup: Set<RawValue> | null = null;
  let listHasNull = false;
  // Arrays have no Set key: they take the row-by-row comparison below.
  if (allStatic && kind !== 'list' && kind !== 'struct') {
    lookup = new Set<RawValue>();
    for (const item of list) {
      const value = typesEqual(item.type, operandType) || item.type.name === 'NULL' || bothStrings(item.type, operandType) ? item.staticValue ?? null : castRaw(item.staticValue ?? null, item.type, operandType);
      if (value === null) listHasNull = true;
      else lookup.add(kind === 'i64' || kind === 'bigint' ? BigInt(value as number | bigint) : kind === 'string' ? String(value) : Number(value));
    }
  }
  const finish = (match: Uint8Array, operandNulls: Uint8Array | null, rowCount: number, rowHasNullItem: Uint8Array | null): Vector => {
    let nulls: Uint8Array | null = null;
    if (operandNulls !== null || listHasNull || rowHasNullItem !== null) {
      nulls = new Uint8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const unknown = listHasNull || (rowHasNullItem !== null && rowHasNullItem[rowIdx] === 1) ? match[rowIdx] ^ 1 : 0;
        nulls[rowIdx] = (operandNulls === null ? 0 : operandNulls[rowIdx]) | unknown;
      }
    }
    if (negated) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) match[rowIdx] ^= 1;
    return { kind: 'fixed', type, length: rowCount, values: match, nulls };
  };
  const dictMatches = new WeakMap<readonly string[], Uint8Array>();
  const node: Node = {
    type,
    constness: 'rows',
    eval(batch, ctx) {
      const rowCount = batch.length;
      const vec = operand.eval(batch, ctx);
      const match = new Uint8Array(rowCount);
      if (lookup !== null) {
        const set = lookup;
        if (vec.kind === 'dict') {
          let perCode = dictMatches.get(vec.dict);
          if (perCode === undefined) {
            perCode = Uint8Array.from(vec.dict, (entry) => (set.has(entry) ? 1 : 0));
            dictMatches.set(vec.dict, perCode);
          }
          const codes = vec.codes;
          for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) match[rowIdx] = perCode[codes[rowIdx]];
        } else if (vec.kind === 'string') {
          const texts = toJsStrings(vec);
          for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) match[rowIdx] = texts[rowIdx] !== null && set.has(texts[rowIdx]) ? 1 : 0;
        } else {
          const values = (vec as FixedVector).values as ArrayLike<number | bigint>;
          for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) match[rowIdx] = set.has(values[rowIdx]) ? 1 : 0;
        }
        return finish(match, vec.nulls, rowCount, null);
      }
      // Non-constant list: compare row by row.
      const items = list.map((item) => (bothStrings(item.type, operandType) ? item.eval(batch, ctx) : coerce(item.eval(batch, ctx), operandType)));
      let rowHasNullItem: Uint8Array | null = null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = getRaw(vec, rowIdx);
        if (value === null) continue;
        for (const item of items) {
          const other = getRaw(item, rowIdx);
          if (other === null) {
            rowHasNullItem ??= new Uint8Array(rowCount);
            rowHasNullItem[rowIdx] = 1;
          } else if (setKey(other) === setKey(value) || (Array.isArray(value) && compareRawValues(value, other) === 0)) {
            match[rowIdx] = 1;
            break;
          }
        }
      }
      return finish(match, vec.nulls, rowCount, rowHasNullItem);
    },
  };
  return foldIfConstant(node, [operand, ...list], 'pure');
}

/** Compile a bound expression into a batch evaluator (see module comment). */
/** Set while compileExpr runs with `reuseBuffers` (compilation is synchronous). */
let compilingWithReuse = false;

export interface CompileOptions {
  /**
   * The caller consumes every result before the next evaluation (aggregate arguments, a fused filter
   * predicate): kernels may return vectors over buffers they reuse for the next batch.
   */
  readonly reuseBuffers?: boolean;
}

export function compileExpr(expr: BoundExpr, options: CompileOptions = {}): CompiledExpr {
  compilingWithReuse = options.reuseBuffers === true;
  try {
    const node = compileNode(expr);
    return (batch, ctx) => node.eval(batch, ctx);
  } finally {
    compilingWithReuse = false;
  }
}

/** Evaluate an expression without input rows (SELECT without FROM, LIMIT ?, DEFAULT values). */
export function evaluateConstant(expr: BoundExpr, ctx: TaskContext, exactOnly = false): RawValue {
  const node = compileNode(expr);
  const vec = node.eval(EMPTY_BATCH_1, ctx);
  // Plan-time folding (exactOnly) must not turn raw bytes into a JS string: such a node stays unfolded.
  if (exactOnly && holdsBinary(vec)) throw galeneError('INTERNAL', 'a binary constant is not folded');
  return getRaw(vec, 0);
}

/** A constant expression's value as a one-row vector (kept as bytes: BITMAP / HLL states have no raw value). */
export function evaluateConstantVector(expr: BoundExpr, ctx: TaskContext): Vector {
  return compileNode(expr).eval(EMPTY_BATCH_1, ctx);
}

/**
 * Row ids whose value is TRUE (not NULL, not false): the Filter operator's selection vector. Loops are
 * branch-free: every row id is written, the count advances only for selected rows.
 */
export function selectTrue(vec: Vector, out?: Int32Array): { rowIds: Int32Array; count: number } {
  const rowCount = vec.length;
  const rowIds = out !== undefined && out.length >= rowCount ? out : new Int32Array(rowCount);
  let count = 0;
  const truth = truthValues(vec);
  const nulls = vec.nulls;
  if (nulls === null) {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      rowIds[count] = rowIdx;
      count += truth[rowIdx];
    }
  } else {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      rowIds[count] = rowIdx;
      count += truth[rowIdx] & (nulls[rowIdx] ^ 1);
    }
  }
  return { rowIds, count };
}
