// Child process of ann-kill.test.ts: builds one large ANN index file with AnnBuilder (worker thread,
// every core) at argv[2], printing "building" first; the parent SIGKILLs it mid-build.
import { mixtureDataSet } from '../../bench/lib/vector-data';
import { AnnBuilder, parseAnnProperties } from '../../src/storage/ann';

async function main(): Promise<void> {
  const [target, rowsText] = process.argv.slice(2);
  const dim = 64;
  const { base } = mixtureDataSet(Number(rowsText), 0, dim, 11);
  const builder = new AnnBuilder();
  process.stdout.write('building\n');
  await builder.build(target, { params: parseAnnProperties({ index_type: 'hnsw', metric_type: 'l2_distance', dim: String(dim), ef_construction: '128' }), vectors: base });
  process.stdout.write('done\n');
  await builder.close();
}

void main();
