/**
 * ANN index parameters: the PROPERTIES of `INDEX idx (col) USING ANN PROPERTIES(...)` checked with Doris's
 * messages (doris-facts D.1) and turned into the typed parameters the builder, the file header and the
 * reader share, plus how each maps onto the HNSW library (usearch).
 *
 * Mapping (see docs/vector-search.md "How the index works"):
 * - `max_degree` -> usearch `connectivity` (M: links per node on the upper layers, 2*M on layer 0 — the
 *   same meaning as faiss's HNSW M that Doris passes max_degree to).
 * - `ef_construction` -> usearch `expansion_add`; the per-query `ef` -> `expansion_search`.
 * - `metric_type` l2_distance -> usearch `l2sq` (the reader takes the square root: Doris's l2_distance is
 *   the true Euclidean distance); inner_product -> usearch `ip`, whose distance is `1 - dot` (the reader
 *   returns `dot`, larger is better).
 * - `quantizer` flat -> f32 vectors; sq8 -> f16 vectors (usearch's i8 rescales as if vectors were unit
 *   length, so it is only right for cosine, and its 8-bit float e4m3 loses recall: measured in
 *   bench/ann-libraries.ts). sq8 therefore halves vector bytes instead of Doris's quarter.
 */
import { GaleneError } from '../../common/errors';

export type AnnMetric = 'l2_distance' | 'inner_product';
export type AnnQuantizer = 'flat' | 'sq8';

export interface AnnIndexParams {
  readonly metric: AnnMetric;
  readonly dim: number;
  readonly maxDegree: number;
  readonly efConstruction: number;
  readonly quantizer: AnnQuantizer;
}

/** Doris's defaults for the optional properties (max_degree 32, ef_construction 40, quantizer flat). */
export const ANN_DEFAULTS = { maxDegree: 32, efConstruction: 40, quantizer: 'flat' as AnnQuantizer };

/** Doris's default `hnsw_ef_search`. */
export const DEFAULT_EF_SEARCH = 32;

/**
 * Segments with fewer rows than this get no index file and are searched exactly (Doris's
 * `ann_index_build_min_segment_rows`). The engine's JS kernel scans 10k x 128 in a few milliseconds; an
 * index of that size would save little and cost a build and a file per segment.
 */
export const DEFAULT_MIN_SEGMENT_ROWS = 10_000;

export const METRIC_CODES: Readonly<Record<AnnMetric, number>> = { l2_distance: 1, inner_product: 2 };
export const QUANTIZER_CODES: Readonly<Record<AnnQuantizer, number>> = { flat: 1, sq8: 2 };

/** usearch's names for the metric and the stored scalar of each Galene choice. */
export const USEARCH_METRIC: Readonly<Record<AnnMetric, 'l2sq' | 'ip'>> = { l2_distance: 'l2sq', inner_product: 'ip' };
export const USEARCH_SCALAR: Readonly<Record<AnnQuantizer, 'f32' | 'f16'>> = { flat: 'f32', sq8: 'f16' };

const KNOWN_PROPERTIES = new Set(['index_type', 'metric_type', 'dim', 'max_degree', 'ef_construction', 'quantizer']);

function annError(message: string): GaleneError {
  return new GaleneError('INVALID_TABLE_DEFINITION', [message]);
}

function positiveInt(value: string, name: string): number {
  const trimmed = value.trim();
  const parsed = /^\+?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed <= 0) throw annError(`${name} of ann index must be a positive integer`);
  return parsed;
}

/**
 * The PROPERTIES map of an ANN index as typed parameters, or a GaleneError with Doris's message (keys are
 * matched case-insensitively, as Doris lower-cases property names). Called by the DDL binder and by
 * tests; changes nothing.
 */
export function parseAnnProperties(properties: Readonly<Record<string, string>>): AnnIndexParams {
  const props = new Map<string, string>();
  for (const [key, value] of Object.entries(properties)) {
    const name = key.toLowerCase();
    if (!KNOWN_PROPERTIES.has(name)) throw annError(`unknown ann index property: ${key}`);
    props.set(name, value);
  }
  const indexType = props.get('index_type');
  if (indexType === undefined) throw annError('index_type of ann index be specified.');
  if (indexType.toLowerCase() !== 'hnsw') throw annError(`only support ann index with type hnsw, got ${indexType}`);
  const metricType = props.get('metric_type');
  if (metricType === undefined) throw annError('metric_type of ann index must be specified.');
  const metric = metricType.toLowerCase();
  if (metric !== 'l2_distance' && metric !== 'inner_product') throw annError('only support ann index with metric l2_distance or inner_product');
  const dim = props.get('dim');
  if (dim === undefined) throw annError('dim of ann index must be specified');
  const quantizerName = (props.get('quantizer') ?? ANN_DEFAULTS.quantizer).toLowerCase();
  if (quantizerName !== 'flat' && quantizerName !== 'sq8') throw annError(`only support ann index with quantizer flat or sq8, got ${props.get('quantizer')}`);
  return validateAnnParams({
    metric,
    dim: positiveInt(dim, 'dim'),
    maxDegree: props.has('max_degree') ? positiveInt(props.get('max_degree')!, 'max_degree') : ANN_DEFAULTS.maxDegree,
    efConstruction: props.has('ef_construction') ? positiveInt(props.get('ef_construction')!, 'ef_construction') : ANN_DEFAULTS.efConstruction,
    quantizer: quantizerName,
  });
}

/** Checks typed parameters (the builder and the file reader call it too), returning them unchanged. */
export function validateAnnParams(params: AnnIndexParams): AnnIndexParams {
  if (!Number.isSafeInteger(params.dim) || params.dim <= 0) throw annError('dim of ann index must be a positive integer');
  if (!(params.metric in METRIC_CODES)) throw annError('only support ann index with metric l2_distance or inner_product');
  if (!(params.quantizer in QUANTIZER_CODES)) throw annError(`only support ann index with quantizer flat or sq8, got ${String(params.quantizer)}`);
  if (!Number.isSafeInteger(params.maxDegree) || params.maxDegree <= 0) throw annError('max_degree of ann index must be a positive integer');
  if (!Number.isSafeInteger(params.efConstruction) || params.efConstruction <= 0) throw annError('ef_construction of ann index must be a positive integer');
  return params;
}
