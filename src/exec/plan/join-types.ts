/**
 * What each join type (physical-plan.ts JoinType) outputs and how EXPLAIN names it, shared by the planner,
 * the optimizer rules and both join operators so that one table decides it.
 */
import type { JoinType } from './physical-plan';

export interface JoinShape {
  /** The output starts with the left input's columns. */
  readonly left: boolean;
  /** The output has the right input's columns (after the left's, when both). */
  readonly right: boolean;
  /** One BOOLEAN mark column ends the output (left_mark). */
  readonly mark: boolean;
  /** Left rows without a passing pair are output (NULLs on the right). */
  readonly keepUnmatchedLeft: boolean;
  /** Right rows without a passing pair are output (NULLs on the left). */
  readonly keepUnmatchedRight: boolean;
  /** Doris's EXPLAIN name. */
  readonly label: string;
}

const shape = (left: boolean, right: boolean, mark: boolean, keepUnmatchedLeft: boolean, keepUnmatchedRight: boolean, label: string): JoinShape => ({ left, right, mark, keepUnmatchedLeft, keepUnmatchedRight, label });

export const JOIN_SHAPES: { readonly [K in JoinType]: JoinShape } = {
  inner: shape(true, true, false, false, false, 'INNER JOIN'),
  cross: shape(true, true, false, false, false, 'CROSS JOIN'),
  left: shape(true, true, false, true, false, 'LEFT OUTER JOIN'),
  right: shape(true, true, false, false, true, 'RIGHT OUTER JOIN'),
  full: shape(true, true, false, true, true, 'FULL OUTER JOIN'),
  left_semi: shape(true, false, false, false, false, 'LEFT SEMI JOIN'),
  left_anti: shape(true, false, false, false, false, 'LEFT ANTI JOIN'),
  null_aware_left_anti: shape(true, false, false, false, false, 'NULL AWARE LEFT ANTI JOIN'),
  left_mark: shape(true, false, true, false, false, 'LEFT SEMI JOIN (MARK)'),
  right_semi: shape(false, true, false, false, false, 'RIGHT SEMI JOIN'),
  right_anti: shape(false, true, false, false, false, 'RIGHT ANTI JOIN'),
};

/** Join types whose output rows come from the right input only after the whole probe side was read. */
export function emitsBuildRowsAtEnd(type: JoinType): boolean {
  return type === 'right' || type === 'full' || type === 'right_semi' || type === 'right_anti';
}
