/**
 * EXPLAIN text of a physical plan: one line per output row, the operator tree indented two spaces per
 * level, each operator as `LABEL #id` followed by its parameters, then the output columns; subqueries that
 * run before the main plan are listed after it. With a profile (EXPLAIN ANALYZE) each operator also shows
 * its rows in/out and time.
 */
import type { QueryProfile } from '../../common/profile';
import { operatorDef } from './operator-registry';
import { operatorCounter, type PhysicalNode, type PhysicalPlan } from './physical-plan';


function explainNode(node: PhysicalNode, depth: number, lines: string[], profile: QueryProfile | null): void {
  const indent = '  '.repeat(depth);
  const def = operatorDef(node);
  lines.push(`${indent}${depth === 0 ? '' : '-> '}${def.label} #${node.id}`);
  for (const param of def.explain(node)) lines.push(`${indent}     ${param}`);
  lines.push(`${indent}     output: [${node.output.map((column) => column.name).join(', ')}]`);
  if (profile) {
    const rowsIn = profile.get(operatorCounter(node, 'RowsIn'));
    const rowsOut = profile.get(operatorCounter(node, 'RowsOut'));
    const timeMs = profile.get(operatorCounter(node, 'TimeMs'));
    lines.push(`${indent}     actual: rows in ${rowsIn}, rows out ${rowsOut}, time ${timeMs.toFixed(3)} ms`);
  }
  for (const child of node.children) explainNode(child, depth + 1, lines, profile);
}

export function explainPhysicalPlan(plan: PhysicalPlan, profile: QueryProfile | null = null): string[] {
  const lines: string[] = [];
  explainNode(plan.root, 0, lines, profile);
  for (const sub of plan.subqueries) {
    lines.push(`SUBQUERY ${sub.mode.toUpperCase()} (slot ?${sub.slot}):`);
    for (const line of explainPhysicalPlan(sub.plan, profile)) lines.push(`  ${line}`);
  }
  return lines;
}
