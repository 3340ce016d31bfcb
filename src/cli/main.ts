/**
 * The galene command: `galene start [--setting value ...]` runs one FE and one BE in this process;
 * `galene fe` runs an FE that BEs register with (rpc_port), `galene be --fe HOST:PORT --compute_group G`
 * a BE process (cli/cluster-commands.ts).
 * Prints one JSON line `{"event":"ready",...ports, wal_files, wal_replayed, wal_replay_failed,
 * wal_corrupt_records, wal_quarantined}` on stdout when every server listens (the start-up summary), so
 * scripts and tests can start several servers side by side with port 0.
 */
import { loadConfig, settingsHelp } from '../common/config';
import { toGaleneError } from '../common/errors';
import { startGalene } from '../fe/galene-server';
import { configurationMarkdown, functionsMarkdown } from './config-docs';
import { runBackendCommand, runFrontendCommand } from './cluster-commands';

const USAGE = `Usage: galene start [--setting value ...]
       galene fe [--setting value ...]
       galene be [--fe HOST:RPC_PORT] [--compute_group NAME] [--setting value ...]

start: Galene in one process (one FE and one BE) on embedded defaults: data under ./galene-data.
fe:    an FE (MySQL query_port, HTTP http_port, metadata) that BEs register with on rpc_port (9020).
be:    a BE process (heartbeat_service_port 9050, brpc_port 8060, webserver_port 8040) that registers
       with the FE at --fe (its rpc_port), in compute group --compute_group (default_compute_group).
See docs/cluster.md. Connect with: mysql -h127.0.0.1 -P9030 -uroot

Settings (also read from galene.conf as "name = value" lines, or --config FILE, and from GALENE_<NAME>
environment variables; flags win over the environment, which wins over the file):
`;

export async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help' || rest.includes('--help')) {
    process.stdout.write(USAGE + settingsHelp() + '\n');
    return;
  }
  if (command === 'config-docs' || command === 'functions-docs') {
    process.stdout.write(command === 'config-docs' ? configurationMarkdown() : functionsMarkdown());
    return;
  }
  if (command === 'fe') return runFrontendCommand(rest);
  if (command === 'be') return runBackendCommand(rest);
  if (command !== 'start') {
    process.stderr.write(`galene: unknown command '${command}'\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  let server: Awaited<ReturnType<typeof startGalene>>;
  try {
    server = await startGalene(loadConfig(rest));
  } catch (err) {
    process.stderr.write(`galene: cannot start: ${toGaleneError(err).message}\n`);
    process.exit(1);
  }
  const replay = server.startup.walReplay;
  const walReplay = { wal_files: replay.files, wal_replayed: replay.replayed, wal_replay_failed: replay.failed, wal_corrupt_records: replay.corruptRecords, wal_quarantined: replay.quarantined };
  process.stdout.write(JSON.stringify({ event: 'ready', ...server.ports, ...walReplay }) + '\n');
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`galene: ${signal} received, shutting down\n`);
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
