/**
 * The REST endpoints Doris tooling calls, in Doris's JSON shape (`{"msg":"success","code":0,"data":...,"count":0}`,
 * fe-core httpv2/rest): registered into the HTTP routes of src/fe/http-api.ts with one line.
 * - FE `GET /api/health`: `data: {online_backend_num, total_backend_num}` (open, as in Doris); the BE's
 *   answers `{"status":"OK","msg":"To Be Added"}` as Doris's BE does.
 * - FE `GET /api/bootstrap`: the FE is ready (open, as in Doris): `data: {replayedJournalId, queryPort, rpcPort,
 *   arrowFlightSqlPort, version, startTime}`.
 * - FE `GET /rest/v1/config/fe`: every setting as `data: {column_names: ["Name","Value"], rows: [{Name, Value}]}`.
 * - FE `GET /api/show_proc?path=/...`: the PROC node's rows (proc-tree.ts) as arrays of strings; a bad path
 *   answers code 1 with Doris's message.
 * The last two need an authenticated admin (Doris: ADMIN privilege); the caller's auth check decides.
 */
import type * as http from 'node:http';
import { SETTINGS } from '../common/config';
import { GaleneError } from '../common/errors';
import type { Frontend } from './frontend';
import { showProc } from './proc-tree';
import { DORIS_BUILD_VERSION } from './session-variables';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** How http-api.ts checks an admin request: the user, or a refusal it has already answered. */
export type AdminGate = (req: http.IncomingMessage, res: http.ServerResponse) => { user: string } | null;

/** Doris's REST answer body. */
export const restBody = (data: unknown, msg = 'success', code = 0): Record<string, unknown> => ({ msg, code, data, count: 0 });

function send(res: http.ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const queryParam = (req: http.IncomingMessage, name: string): string | null => new URL(req.url ?? '/', 'http://localhost').searchParams.get(name);

/** The admin REST routes of one HTTP server (`role`); `gate` authenticates an admin or answers the refusal. */
export function adminHttpRoutes(fe: Frontend, role: 'fe' | 'be' | 'brpc', gate: AdminGate): Record<string, Route> {
  if (role === 'be') return { '/api/health': (_req, res) => send(res, { status: 'OK', msg: 'To Be Added' }) };
  if (role !== 'fe') return {};
  return {
    '/api/health': (_req, res) => {
      const backends = fe.cluster.list();
      send(res, restBody({ online_backend_num: backends.filter((backend) => backend.alive).length, total_backend_num: backends.length }));
    },
    '/api/bootstrap': (_req, res) =>
      send(res, restBody({ replayedJournalId: 0, queryPort: fe.config.getInt('query_port'), rpcPort: 0, arrowFlightSqlPort: -1, version: DORIS_BUILD_VERSION, startTime: fe.startTime })),
    '/rest/v1/config/fe': (req, res) => {
      if (!gate(req, res)) return;
      const rows = [...SETTINGS].sort((a, b) => (a.name < b.name ? -1 : 1)).map((setting) => ({ Name: setting.name, Value: String(fe.config.get(setting.name)) }));
      send(res, restBody({ column_names: ['Name', 'Value'], rows }));
    },
    '/api/show_proc': (req, res) => {
      if (!gate(req, res)) return;
      try {
        send(res, restBody(showProc(fe, queryParam(req, 'path') || '/').rows));
      } catch (err) {
        if (!(err instanceof GaleneError)) throw err;
        send(res, restBody(null, err.message.replace(/^errCode = 2, detailMessage = /, ''), 1));
      }
    },
  };
}
