/**
 * exec/parallel/: plan fragments run off the event loop: a scan fragment (scan, filter, partial
 * aggregation over a set of tablets) that a scan worker runs from a serialized description, and the
 * drivers that split a scan over workers and merge their results. A fragment sees a task context, never
 * the session or the catalog (DESIGN §6), so the same fragment can later run behind an exchange on
 * another BE. May import common/, meta/ schema types, ../bound-expr, ../context, ../expr, ../plan and
 * the operators it runs; never sql/.
 *
 * Entry points (imported by file, not through this index, while issue 9 makes the fragment a plan node):
 * scan-fragment.ts (ScanFragment, runFragment), parallel-operators.ts.
 */
export {};
