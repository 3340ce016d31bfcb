/**
 * exec/expr/functions/: the scalar SQL functions, one file per family (arithmetic, comparison,
 * conditional, math, string, datetime, like/regexp, session). Each function is one declaration beside its
 * kernel (name, aliases, signatures, return-type rule, null handling, description, example); the example
 * runs as a test and SHOW FUNCTIONS and docs/functions.md are generated from the declarations. A new
 * function goes into its family's file; all-functions.ts registers the families. May import common/, the
 * engine's helpers in ../ (function-registry, vector-ops, loop-gen, type-rules) and ../../context for
 * session facts; never operators or sql/, and storage/ only for storage/inverted (match-functions.ts:
 * the analyzers and MATCH rules an inverted index shares with the row-by-row predicates).
 *
 * No re-exports: the binder and compiler reach functions through ../function-registry (the families are
 * being rewritten onto shared kernels in issue 9).
 */
export {};
