/**
 * An in-process, seeded, deterministic TPC-H data generator: the eight tables at scale factor `sf` as
 * chunks of `|`-separated text in dbgen's column order (dbgen's `.tbl` files without the trailing `|`),
 * for Stream Load and for DuckDB's COPY. Used by bench/tpch.ts.
 *
 * It follows the TPC-H specification (v3, clause 4.2.3) for what the 22 queries look at:
 * - cardinalities: SUPPLIER 10,000 x SF, PART 200,000 x SF, PARTSUPP 4 per part, CUSTOMER 150,000 x SF,
 *   ORDERS 1,500,000 x SF (sparse keys: 8 of every 32), LINEITEM 1 to 7 per order (~6,000,000 x SF),
 *   NATION 25 and REGION 5 (the spec's fixed names and region keys);
 * - the spec's domains: p_name from the 92 colour words, p_mfgr / p_brand / p_type / p_container /
 *   c_mktsegment / o_orderpriority / l_shipinstruct / l_shipmode from their word lists, phone numbers with
 *   country code = nation key + 10, account balances -999.99 to 9,999.99, p_retailprice by the spec's
 *   formula, ps_suppkey / l_suppkey by the spec's supplier-of-part formula, o_custkey never divisible by 3
 *   (a third of the customers have no orders), o_orderdate 1992-01-01 to 1998-08-02, ship / commit /
 *   receipt dates, l_returnflag and l_linestatus against CURRENTDATE 1995-06-17, o_orderstatus from its
 *   lines and o_totalprice = sum(l_extendedprice * (1 + l_tax) * (1 - l_discount)).
 *
 * What differs from dbgen (so results are not dbgen's answer set, only the same shape): the random number
 * streams (mulberry32, one per table, not dbgen's per-column seeds); comments are slices of a text pool made
 * from the spec's word classes by a simpler sentence grammar than dbgen's; 1 supplier in 500 (not 5 x SF
 * rows of 10,000 x SF) gets "Customer ... Complaints" and as many "Customer ... Recommends", so Q16 has
 * something to exclude at small scale factors; addresses are random letters and digits.
 *
 * Memory: one chunk of text at a time per table (orders and lineitem are made together, since an order's
 * status and total price come from its lines); nothing of a whole table is held.
 */
import { mulberry32 } from '../../src/common/prng';

export const TPCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
export type TpchTable = (typeof TPCH_TABLES)[number];

/** Columns of each table in dbgen's `.tbl` order (the order of the generated fields). */
export const TBL_COLUMNS: Readonly<Record<TpchTable, readonly string[]>> = {
  region: ['r_regionkey', 'r_name', 'r_comment'],
  nation: ['n_nationkey', 'n_name', 'n_regionkey', 'n_comment'],
  supplier: ['s_suppkey', 's_name', 's_address', 's_nationkey', 's_phone', 's_acctbal', 's_comment'],
  customer: ['c_custkey', 'c_name', 'c_address', 'c_nationkey', 'c_phone', 'c_acctbal', 'c_mktsegment', 'c_comment'],
  part: ['p_partkey', 'p_name', 'p_mfgr', 'p_brand', 'p_type', 'p_size', 'p_container', 'p_retailprice', 'p_comment'],
  partsupp: ['ps_partkey', 'ps_suppkey', 'ps_availqty', 'ps_supplycost', 'ps_comment'],
  orders: ['o_orderkey', 'o_custkey', 'o_orderstatus', 'o_totalprice', 'o_orderdate', 'o_orderpriority', 'o_clerk', 'o_shippriority', 'o_comment'],
  lineitem: ['l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice', 'l_discount', 'l_tax', 'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate', 'l_shipinstruct', 'l_shipmode', 'l_comment'],
};

const REGIONS = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];
/** The spec's 25 nations with their region keys. */
const NATIONS: readonly (readonly [string, number])[] = [
  ['ALGERIA', 0], ['ARGENTINA', 1], ['BRAZIL', 1], ['CANADA', 1], ['EGYPT', 4], ['ETHIOPIA', 0], ['FRANCE', 3], ['GERMANY', 3],
  ['INDIA', 2], ['INDONESIA', 2], ['IRAN', 4], ['IRAQ', 4], ['JAPAN', 2], ['JORDAN', 4], ['KENYA', 0], ['MOROCCO', 0],
  ['MOZAMBIQUE', 0], ['PERU', 1], ['CHINA', 2], ['ROMANIA', 3], ['SAUDI ARABIA', 4], ['VIETNAM', 2], ['RUSSIA', 3],
  ['UNITED KINGDOM', 3], ['UNITED STATES', 1],
];
const COLOURS = (
  'almond antique aquamarine azure beige bisque black blanched blue blush brown burlywood burnished chartreuse chiffon ' +
  'chocolate coral cornflower cornsilk cream cyan dark deep dim dodger drab firebrick floral forest frosted gainsboro ghost ' +
  'goldenrod green grey honeydew hot indian ivory khaki lace lavender lawn lemon light lime linen magenta maroon medium ' +
  'metallic midnight mint misty moccasin navajo navy olive orange orchid pale papaya peach peru pink plum powder puff purple ' +
  'red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring steel tan thistle tomato turquoise ' +
  'violet wheat white yellow'
).split(' ');
const TYPE_SYLLABLE_1 = ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'];
const TYPE_SYLLABLE_2 = ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'];
const TYPE_SYLLABLE_3 = ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'];
const CONTAINER_SYLLABLE_1 = ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'];
const CONTAINER_SYLLABLE_2 = ['CASE', 'BOX', 'BAG', 'JAR', 'PKG', 'PACK', 'CAN', 'DRUM'];
const SEGMENTS = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'];
const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'];
const INSTRUCTIONS = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'];
const SHIP_MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'];

// The spec's word classes for comments (clause 4.2.2.10), a subset of each.
const NOUNS = ('foxes ideas theodolites pinto beans instructions dependencies excuses platelets asymptotes courts dolphins multipliers ' +
  'sauternes warthogs frets dinos attainments somas patterns forges braids frays warhorses dugouts epitaphs pearls tithes ' +
  'waters orbits gifts sheaves depths sentiments decoys realms pains grouches escapades packages requests accounts deposits ' +
  'packages requests accounts deposits').split(' ');
const VERBS = ('sleep wake are cajole haggle nag use boost affix detect integrate maintain nod was lose sublate solve thrash promise ' +
  'engage hinder print breach eat grow impress mold poach serve run dazzle snooze doze unwind kindle play hang believe doubt').split(' ');
const ADJECTIVES = ('special pending unusual express furious sly careful blithe quick fluffy slow quiet ruthless thin close dogged ' +
  'daring brave stealthy permanent enticing idle busy regular final ironic even bold silent').split(' ');
const ADVERBS = ('sometimes always never furiously slyly carefully blithely quickly fluffily slowly quietly ruthlessly thinly closely ' +
  'doggedly daringly bravely stealthily permanently enticingly idly busily regularly finally ironically evenly boldly silently').split(' ');
const PREPOSITIONS = ('about above according to across after against along among around at atop before behind beneath beside besides ' +
  'between beyond by despite during except for from inside into near of on outside over past since through throughout to toward ' +
  'under until up upon without with within').split(' ');
const TERMINATORS = ['.', ';', ':', '?', '!', '--'];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789,';

const DAY_MS = 86_400_000;
const START_DATE = Date.UTC(1992, 0, 1) / DAY_MS;
const CURRENT_DATE = Date.UTC(1995, 5, 17) / DAY_MS;
const END_DATE = Date.UTC(1998, 11, 31) / DAY_MS;
const TEXT_POOL_CHARS = 1 << 20;
/** Rows per generated chunk of the big tables (about 2-10 MB of text). */
const CHUNK_ROWS = 50_000;

/** Row counts at a scale factor (lineitem: the expected count, 4 lines per order on average). */
export function tpchRowCounts(sf: number): Record<TpchTable, number> {
  const orders = Math.max(1, Math.floor(1_500_000 * sf));
  return {
    region: 5,
    nation: 25,
    supplier: Math.max(1, Math.floor(10_000 * sf)),
    customer: Math.max(1, Math.floor(150_000 * sf)),
    part: Math.max(1, Math.floor(200_000 * sf)),
    partsupp: 4 * Math.max(1, Math.floor(200_000 * sf)),
    orders,
    lineitem: orders * 4,
  };
}

/** One chunk of generated rows of a table: `|`-separated fields, `\n` after each row. */
export interface TpchChunk {
  readonly table: TpchTable;
  readonly text: string;
  readonly rows: number;
}

type Random = () => number;
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)];
/** A uniform integer in [low, high]. */
const uniform = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
const pad9 = (value: number): string => String(value).padStart(9, '0');

/** Integer hundredths as a decimal with two places, exactly (no float rounding). */
function cents(value: number): string {
  const abs = Math.abs(value);
  return `${value < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const isoDates = new Map<number, string>();
function isoDate(days: number): string {
  let text = isoDates.get(days);
  if (text === undefined) isoDates.set(days, (text = new Date(days * DAY_MS).toISOString().slice(0, 10)));
  return text;
}

/** A pool of sentences over the spec's word classes; comments are slices of it, as in dbgen. */
function makeTextPool(random: Random): string {
  const parts: string[] = [];
  let length = 0;
  while (length < TEXT_POOL_CHARS) {
    const words: string[] = [];
    if (random() < 0.3) words.push(pick(random, ADVERBS));
    if (random() < 0.6) words.push(pick(random, ADJECTIVES));
    words.push(pick(random, NOUNS), pick(random, VERBS));
    if (random() < 0.5) words.push(pick(random, ADVERBS));
    if (random() < 0.5) words.push(pick(random, PREPOSITIONS), 'the', pick(random, ADJECTIVES), pick(random, NOUNS));
    const sentence = words.join(' ') + pick(random, TERMINATORS) + ' ';
    parts.push(sentence);
    length += sentence.length;
  }
  return parts.join('');
}

class TextSource {
  private readonly pool: string;
  constructor(private readonly random: Random) {
    this.pool = makeTextPool(random);
  }
  /** A comment of `minLength` to `maxLength` characters (a slice of the pool). */
  text(minLength: number, maxLength: number): string {
    const length = uniform(this.random, minLength, maxLength);
    const offset = Math.floor(this.random() * (this.pool.length - length));
    return this.pool.substr(offset, length);
  }
  /** Random letters and digits (addresses). */
  vString(minLength: number, maxLength: number): string {
    const length = uniform(this.random, minLength, maxLength);
    let out = '';
    for (let charIdx = 0; charIdx < length; charIdx++) out += ALNUM[Math.floor(this.random() * ALNUM.length)];
    return out;
  }
}

function phone(random: Random, nationKey: number): string {
  return `${nationKey + 10}-${uniform(random, 100, 999)}-${uniform(random, 100, 999)}-${uniform(random, 1000, 9999)}`;
}

/** The spec's p_retailprice in hundredths. */
export function retailPriceCents(partKey: number): number {
  return 90000 + (Math.floor(partKey / 10) % 20001) + 100 * (partKey % 1000);
}

/** The spec's i-th (0..3) supplier of a part, among `suppliers`. */
export function supplierOfPart(partKey: number, supplierIdx: number, suppliers: number): number {
  return ((partKey + supplierIdx * (Math.floor(suppliers / 4) + Math.floor((partKey - 1) / suppliers))) % suppliers) + 1;
}

/** The spec's sparse order keys: 8 used of every 32. */
function orderKey(orderIdx: number): number {
  return Math.floor(orderIdx / 8) * 32 + (orderIdx % 8) + 1;
}

/** Chunks of one table from a row-producing function; at most CHUNK_ROWS rows per chunk. */
function* chunked(table: TpchTable, count: number, row: (rowIdx: number) => string): Generator<TpchChunk> {
  for (let start = 0; start < count; start += CHUNK_ROWS) {
    const end = Math.min(count, start + CHUNK_ROWS);
    const lines: string[] = new Array(end - start);
    for (let rowIdx = start; rowIdx < end; rowIdx++) lines[rowIdx - start] = row(rowIdx);
    yield { table, text: lines.join('\n') + '\n', rows: end - start };
  }
}

/**
 * Every table's rows at scale factor `sf`, as chunks (region, nation, supplier, customer, part, partsupp,
 * then orders and lineitem interleaved). The same `sf` and `seed` always give the same text.
 */
export function* tpchChunks(sf: number, seed = 1): Generator<TpchChunk> {
  const counts = tpchRowCounts(sf);
  const suppliers = counts.supplier;
  const parts = counts.part;
  const customers = counts.customer;
  const tableRandom = (table: TpchTable): Random => mulberry32(seed * 1000 + TPCH_TABLES.indexOf(table));

  let random = tableRandom('region');
  let text = new TextSource(random);
  yield* chunked('region', REGIONS.length, (key) => `${key}|${REGIONS[key]}|${text.text(31, 114)}`);

  random = tableRandom('nation');
  text = new TextSource(random);
  yield* chunked('nation', NATIONS.length, (key) => `${key}|${NATIONS[key][0]}|${NATIONS[key][1]}|${text.text(31, 114)}`);

  const supplierRandom = tableRandom('supplier');
  const supplierText = new TextSource(supplierRandom);
  yield* chunked('supplier', suppliers, (rowIdx) => {
    const key = rowIdx + 1;
    const nation = uniform(supplierRandom, 0, 24);
    let comment = supplierText.text(25, 100);
    const mark = supplierRandom();
    if (mark < 0.004) {
      // "Customer <text> Complaints" / "Customer <text> Recommends" inside the comment (Q16 excludes the former).
      const note = `Customer ${supplierText.text(0, 10).trim()} ${mark < 0.002 ? 'Complaints' : 'Recommends'}`;
      const at = uniform(supplierRandom, 0, Math.max(0, comment.length - note.length));
      comment = (comment.slice(0, at) + note + comment.slice(at + note.length)).slice(0, 100);
    }
    return `${key}|Supplier#${pad9(key)}|${supplierText.vString(10, 40)}|${nation}|${phone(supplierRandom, nation)}|${cents(uniform(supplierRandom, -99999, 999999))}|${comment}`;
  });

  const customerRandom = tableRandom('customer');
  const customerText = new TextSource(customerRandom);
  yield* chunked('customer', customers, (rowIdx) => {
    const key = rowIdx + 1;
    const nation = uniform(customerRandom, 0, 24);
    return `${key}|Customer#${pad9(key)}|${customerText.vString(10, 40)}|${nation}|${phone(customerRandom, nation)}|${cents(uniform(customerRandom, -99999, 999999))}|${pick(customerRandom, SEGMENTS)}|${customerText.text(29, 116)}`;
  });

  const partRandom = tableRandom('part');
  const partText = new TextSource(partRandom);
  yield* chunked('part', parts, (rowIdx) => {
    const key = rowIdx + 1;
    const names: string[] = [];
    while (names.length < 5) {
      const colour = pick(partRandom, COLOURS);
      if (!names.includes(colour)) names.push(colour);
    }
    const mfgr = uniform(partRandom, 1, 5);
    const type = `${pick(partRandom, TYPE_SYLLABLE_1)} ${pick(partRandom, TYPE_SYLLABLE_2)} ${pick(partRandom, TYPE_SYLLABLE_3)}`;
    const container = `${pick(partRandom, CONTAINER_SYLLABLE_1)} ${pick(partRandom, CONTAINER_SYLLABLE_2)}`;
    return `${key}|${names.join(' ')}|Manufacturer#${mfgr}|Brand#${mfgr}${uniform(partRandom, 1, 5)}|${type}|${uniform(partRandom, 1, 50)}|${container}|${cents(retailPriceCents(key))}|${partText.text(5, 22)}`;
  });

  const partsuppRandom = tableRandom('partsupp');
  const partsuppText = new TextSource(partsuppRandom);
  yield* chunked('partsupp', counts.partsupp, (rowIdx) => {
    const partKey = (rowIdx >> 2) + 1;
    return `${partKey}|${supplierOfPart(partKey, rowIdx & 3, suppliers)}|${uniform(partsuppRandom, 1, 9999)}|${cents(uniform(partsuppRandom, 100, 100000))}|${partsuppText.text(49, 198)}`;
  });

  yield* ordersAndLineitems(counts.orders, customers, parts, suppliers, tableRandom('orders'));
}

/** Orders and their lines, in alternating chunks of CHUNK_ROWS orders and their 1 to 7 lines each. */
function* ordersAndLineitems(orders: number, customers: number, parts: number, suppliers: number, random: Random): Generator<TpchChunk> {
  const text = new TextSource(random);
  const clerks = Math.max(1, Math.floor(orders / 1500));
  const lastOrderDate = END_DATE - 151;
  for (let start = 0; start < orders; start += CHUNK_ROWS) {
    const end = Math.min(orders, start + CHUNK_ROWS);
    const orderLines: string[] = [];
    const lineLines: string[] = [];
    for (let orderIdx = start; orderIdx < end; orderIdx++) {
      const key = orderKey(orderIdx);
      let customer = uniform(random, 1, customers);
      // The spec: no order for a customer key divisible by 3 (unless there are too few customers).
      while (customers >= 3 && customer % 3 === 0) customer = uniform(random, 1, customers);
      const orderDate = uniform(random, START_DATE, lastOrderDate);
      const lineCount = uniform(random, 1, 7);
      let totalCents = 0;
      let shippedLines = 0;
      for (let lineNumber = 1; lineNumber <= lineCount; lineNumber++) {
        const partKey = uniform(random, 1, parts);
        const quantity = uniform(random, 1, 50);
        const extendedCents = quantity * retailPriceCents(partKey);
        const discount = uniform(random, 0, 10);
        const tax = uniform(random, 0, 8);
        const shipDate = orderDate + uniform(random, 1, 121);
        const commitDate = orderDate + uniform(random, 30, 90);
        const receiptDate = shipDate + uniform(random, 1, 30);
        const returnFlag = receiptDate <= CURRENT_DATE ? (random() < 0.5 ? 'R' : 'A') : 'N';
        const shipped = shipDate <= CURRENT_DATE;
        if (shipped) shippedLines++;
        totalCents += Math.round((extendedCents * (100 + tax) * (100 - discount)) / 10000);
        lineLines.push(
          `${key}|${partKey}|${supplierOfPart(partKey, uniform(random, 0, 3), suppliers)}|${lineNumber}|${quantity}.00|${cents(extendedCents)}|0.${String(discount).padStart(2, '0')}|0.0${tax}|${returnFlag}|${shipped ? 'F' : 'O'}|${isoDate(shipDate)}|${isoDate(commitDate)}|${isoDate(receiptDate)}|${pick(random, INSTRUCTIONS)}|${pick(random, SHIP_MODES)}|${text.text(10, 43)}`,
        );
      }
      const status = shippedLines === lineCount ? 'F' : shippedLines === 0 ? 'O' : 'P';
      orderLines.push(`${key}|${customer}|${status}|${cents(totalCents)}|${isoDate(orderDate)}|${pick(random, PRIORITIES)}|Clerk#${pad9(uniform(random, 1, clerks))}|0|${text.text(19, 78)}`);
    }
    yield { table: 'orders', text: orderLines.join('\n') + '\n', rows: orderLines.length };
    yield { table: 'lineitem', text: lineLines.join('\n') + '\n', rows: lineLines.length };
  }
}
