/**
 * sql/: the SQL front end: lexer and recursive-descent parser (immutable AST with positions), the binder
 * (names and types against the planning catalog), the logical plan, the optimizer rules (rules/), the
 * physical planner and the plan cache. DESIGN §6: may import exec/ (bound expressions, the expression
 * engine's function registry, physical plan types), meta/ (schemas) and common/; never storage/, io/,
 * load/ or the FE. The FE (fe/) calls it; Stream Load reaches it only through the FE's load plan.
 */
export { parseExpression, parseStatement, parseStatements } from './parser';
export { planQuery, runQuery, streamQuery } from './query';
export { PlanCache } from './plan-cache';
