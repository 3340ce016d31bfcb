/**
 * A Galene server whose BE stores its data in S3 (an S3ObjectStore from the JSON options in
 * GALENE_BENCH_S3), for benchmarks run before storage vaults can say so in SQL. Takes the arguments of
 * `galene start` and prints the same ready line.
 */
import { loadConfig } from '../../src/common/config';
import { startGalene } from '../../src/fe/galene-server';
import { S3ObjectStore, type S3StoreOptions } from '../../src/io/s3-object-store';

async function run(): Promise<void> {
  const args = process.argv.slice(2);
  const options = JSON.parse(process.env.GALENE_BENCH_S3 ?? '') as S3StoreOptions;
  const server = await startGalene(loadConfig(args[0] === 'start' ? args.slice(1) : args), new S3ObjectStore(options));
  process.stdout.write(JSON.stringify({ event: 'ready', ...server.ports }) + '\n');
  process.on('SIGTERM', () => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

run().catch((err: unknown) => {
  process.stderr.write(`galene-over-s3: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
