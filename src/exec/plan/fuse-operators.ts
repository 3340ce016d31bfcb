/**
 * Physical rewrites that merge adjacent operators into one that does both jobs without materializing
 * the intermediate batches. Today: a HashAggregate directly over a Filter takes the predicate as its
 * fused `filter` (rows are selected inside the aggregate, never copied). Run by the planner
 * (src/sql/query.ts) after physical planning; operator ids are kept, so the removed Filter's id is
 * simply absent from EXPLAIN ANALYZE.
 */
import type { PhysicalNode } from './physical-plan';

/** The plan with fusable operator pairs merged (returns the same objects where nothing changed). */
export function fuseOperators(node: PhysicalNode): PhysicalNode {
  const children = node.children.map(fuseOperators);
  const changed = children.some((child, childIdx) => child !== node.children[childIdx]);
  const current = changed ? ({ ...node, children } as PhysicalNode) : node;
  if (current.kind === 'HashAggregate' && current.filter === undefined && current.children[0].kind === 'Filter') {
    const filter = current.children[0];
    return { ...current, filter: filter.predicate, children: filter.children };
  }
  return current;
}
