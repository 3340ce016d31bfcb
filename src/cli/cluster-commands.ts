/**
 * `galene fe` and `galene be`: the FE and a BE as separate processes (docs/cluster.md). Each prints one
 * JSON line `{"event":"ready","role":...,<ports>}` on stdout once it listens (ports bound with 0 are the
 * real ones), so scripts and tests can find them; a BE prints `{"event":"registered","backend_id":N}`
 * each time its FE accepts its registration. SIGINT / SIGTERM stop the process cleanly.
 */
import { startBackendProcess } from '../be/be-process';
import { loadConfig } from '../common/config';
import { GaleneError, toGaleneError } from '../common/errors';
import { startGalene } from '../fe/galene-server';
import { DORIS_BUILD_VERSION } from '../fe/session-variables';
import { checkComputeGroupName, DEFAULT_COMPUTE_GROUP, parseHostPort } from '../meta/cluster-membership';

const emit = (event: Record<string, unknown>): void => void process.stdout.write(JSON.stringify(event) + '\n');

function fail(err: unknown): never {
  process.stderr.write(`galene: cannot start: ${toGaleneError(err).message}\n`);
  process.exit(1);
}

function onStopSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`galene: ${signal} received, shutting down\n`);
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}

export async function runFrontendCommand(argv: readonly string[]): Promise<void> {
  let server: Awaited<ReturnType<typeof startGalene>>;
  try {
    server = await startGalene(loadConfig(argv), undefined, 'fe');
  } catch (err) {
    fail(err);
  }
  emit({ event: 'ready', role: 'fe', ...server.ports });
  onStopSignals(() => server.stop());
}

/** `--fe` and `--compute_group` (or `--compute-group`) are the BE's own flags; the rest are settings. */
function backendFlags(argv: readonly string[]): { fe: string | null; computeGroup: string; settings: string[] } {
  let fe: string | null = null;
  let computeGroup = DEFAULT_COMPUTE_GROUP;
  const settings: string[] = [];
  for (let argIdx = 0; argIdx < argv.length; argIdx++) {
    const arg = argv[argIdx];
    const match = /^--(fe|compute[-_]group)(?:=(.*))?$/.exec(arg);
    if (match === null) {
      settings.push(arg);
      continue;
    }
    const value = match[2] ?? argv[++argIdx];
    if (value === undefined) throw new GaleneError('INVALID_PROPERTY', [match[1], 'missing value']);
    if (match[1] === 'fe') {
      parseHostPort(value);
      fe = value;
    } else {
      checkComputeGroupName(value);
      computeGroup = value;
    }
  }
  return { fe, computeGroup, settings };
}

export async function runBackendCommand(argv: readonly string[]): Promise<void> {
  let backend: Awaited<ReturnType<typeof startBackendProcess>>;
  try {
    const flags = backendFlags(argv);
    const config = loadConfig(flags.settings);
    backend = await startBackendProcess(config, {
      fe: flags.fe,
      computeGroup: flags.computeGroup,
      version: DORIS_BUILD_VERSION,
      log: (message) => process.stderr.write(`galene be: ${message}\n`),
      onRegistered: (backendId) => emit({ event: 'registered', backend_id: backendId }),
    });
  } catch (err) {
    fail(err);
  }
  emit({ event: 'ready', role: 'be', ...backend.ports, unique_id: backend.identity.uniqueId });
  onStopSignals(() => backend.stop());
}
