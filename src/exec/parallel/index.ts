/**
 * exec/parallel/: the fragment runtime: runs a scan fragment (scan, filter, partial aggregation; the
 * FragmentSpec of a SCAN FRAGMENT plan node, ../plan/fragment-spec.ts) from its serialized description in
 * a scan worker, plus the expression checks that keep a fragment plain data. A fragment sees a task context, never
 * the session or the catalog (DESIGN §6), so the same fragment can later run behind an exchange on
 * another BE. May import common/, meta/ schema types, ../bound-expr, ../context, ../expr, ../plan and
 * the operators it runs; never sql/.
 *
 * Entry point (imported by file): run-fragment.ts (runFragment, fragmentSafeExpr, bindFragmentParams).
 */
export {};
