/**
 * Child-process entry of the test S3 server (startS3Server): s3rver, a real S3-protocol server, on a free
 * loopback port over `<dir>`, with `<bucket>` created. Prints one JSON line `{"port": N}` when ready.
 * Credentials are s3rver's: access key S3RVER, secret S3RVER (requests signed otherwise are refused).
 */
interface S3rverServer {
  run(callback: (err: Error | null, address: { port: number } | undefined) => void): void;
  close(callback: () => void): void;
}
// s3rver ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverServer;

const [dir, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
server.run((err: Error | null, address: { port: number } | undefined) => {
  if (err || !address) {
    process.stderr.write(`s3rver did not start: ${err?.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
});
// close() waits for every open connection to end, and clients' (and the fault proxy's) keep-alive
// connections may never end: every request has been answered by then, so exit after a short grace.
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
});
