/**
 * The HTTP endpoints of the FE (http_port) and BE (webserver_port, brpc_port in this single-process
 * mode): health, Prometheus-style /metrics, and Stream Load as Doris serves it:
 * - BE `PUT /api/{db}/{table}/_stream_load`: the load itself, planned here (load-planner.ts) and run by
 *   src/load (start-stream-load.ts);
 * - FE `PUT /api/{db}/{table}/_stream_load`: checks the credentials, then `307 Temporary Redirect` to the
 *   BE web port with the same path and query, so `curl --location-trusted` works;
 * - FE and BE `PUT /api/{db}/_stream_load_2pc`: commit or abort a two-phase load;
 * - BE `GET /api/_load_error_log?file=...`: the filtered rows of a load (its ErrorURL);
 * - BE `POST /api/update_config`, FE `GET /api/get_wal_size`: administration, admin users only;
 * - FE `/api/health`, `/api/bootstrap`, `/rest/v1/config/fe`, `/api/show_proc` in Doris's REST shape (http-admin.ts).
 * Credentials are HTTP Basic, checked against the MySQL users (SHA1(SHA1(password))). Every endpoint but
 * `/api/health`, `/metrics` and the error log needs them; the error log, as in Doris (whose BE serves it
 * without credentials unless enable_all_http_auth), is reached only through its unguessable file name
 * (128 random bits, load-error-log.ts). A 2PC commit or abort of another user's load needs an admin. A request with
 * `Expect: 100-continue` gets its 100 only after the credentials and the load's headers pass, so a refused
 * load never uploads its body.
 */
import { timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import { PassThrough } from 'node:stream';
import { GaleneError } from '../common/errors';
import { METRICS_CONTENT_TYPE } from '../common/metrics';
import { StreamLoadService } from '../load/stream-load/stream-load-service';
import { walSizeAnswer } from '../load/group-commit';
import { loadTimeoutMessage } from '../load/load-result';
import { updateConfig } from '../common/config';
import { nativePasswordDoubleSha1 } from '../protocol/native-password';
import type { Frontend } from './frontend';
import { adminHttpRoutes } from './http-admin';
import { fileCacheHttpRoute } from './http-file-cache';
import { clearCacheHttpRoutes } from './http-clear-cache';
import { prepareStreamLoad } from './load-planner';
import type { Account } from './users';
import { watchHttpErrors } from './client-error-log';

export type HttpRoute = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** One Stream Load service per server process, shared by its FE and BE HTTP servers. */
const streamLoadServices = new WeakMap<Frontend, StreamLoadService>();

function streamLoadService(fe: Frontend): StreamLoadService {
  let service = streamLoadServices.get(fe);
  if (!service) {
    service = new StreamLoadService({ target: fe.backend, config: fe.config, onProgress: (txnId, rows, bytes) => fe.loadProgress.report(txnId, rows, bytes) });
    streamLoadServices.set(fe, service);
  }
  return service;
}

/** Send a JSON answer and close the connection: the request body (if any) is not going to be read. */
function sendJsonAndClose(res: http.ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body, null, 4);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), Connection: 'close', ...extraHeaders });
  res.end(text);
}

const isWildcard = (host: string): boolean => host === '' || host === '0.0.0.0' || host === '::';

/** `host` of the request's Host header (what the client used to reach us), else the bind address. */
function requestHostName(fe: Frontend, req: http.IncomingMessage): string {
  const bind = fe.config.getString('bind_address');
  if (!isWildcard(bind)) return bind.includes(':') ? `[${bind}]` : bind;
  const hostHeader = req.headers.host ?? '';
  const match = /^(\[[^\]]*\]|[^:]+)/.exec(hostHeader);
  return match ? match[1] : '127.0.0.1';
}

/**
 * The authenticated account of an HTTP Basic request, or an error message for the 401. The account's
 * lock-out and password expiry apply as at a MySQL login (users.ts checkLogin).
 */
function authenticate(fe: Frontend, req: http.IncomingMessage): { user: string; account: Account } | { denied: string } {
  const header = req.headers.authorization ?? '';
  const clientHost = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return { denied: 'no valid Basic authorization' };
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon >= 0 ? decoded.slice(0, colon) : decoded;
  const password = colon >= 0 ? decoded.slice(colon + 1) : '';
  const denied = new GaleneError('ACCESS_DENIED', [user, clientHost, password === '' ? 'NO' : 'YES']).message;
  const info = fe.users.lookup(user, clientHost);
  let passwordOk = false;
  if (info) {
    const stored = info.passwordDoubleSha1;
    const given = nativePasswordDoubleSha1(password);
    passwordOk = stored === null ? password === '' : given !== null && given.length === stored.length && timingSafeEqual(given, stored);
  }
  const outcome = fe.users.checkLogin(user, clientHost, passwordOk);
  if (outcome.refuse) return { denied: outcome.refuse.message };
  if (!passwordOk) return { denied };
  return { user, account: { user, host: fe.users.matchAccount(user, clientHost)?.host ?? '%' } };
}

/**
 * The authenticated admin of a request, or the refusal to send: 401 for missing or wrong credentials
 * (with WWW-Authenticate, so curl -u / browsers retry), 403 with Doris's ADMIN access-denied message for
 * an account without ADMIN_PRIV.
 */
function authenticateAdmin(fe: Frontend, req: http.IncomingMessage): { user: string } | { status: 401 | 403; denied: string } {
  const auth = authenticate(fe, req);
  if ('denied' in auth) return { status: 401, denied: auth.denied };
  if (!fe.users.privilegesOf(auth.account).hasGlobal('ADMIN_PRIV')) return { status: 403, denied: new GaleneError('SPECIFIC_ACCESS_DENIED', ['ADMIN']).message };
  return auth;
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Basic realm="galene"' };

/** Answer an admin endpoint's refusal; `body` shapes it as the endpoint's normal answers are shaped. */
function sendRefusal(res: http.ServerResponse, refusal: { status: 401 | 403; denied: string }, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(refusal.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...(refusal.status === 401 ? WWW_AUTHENTICATE : {}) });
  res.end(text);
}

function decodeSegment(text: string): string {
  return decodeURIComponent(text);
}

/**
 * Stream Load endpoints. Returns false when the path is not one of them. `expectContinue`: the client
 * waits for `100 Continue` before it sends the body.
 */
async function handleLoadRequest(fe: Frontend, role: 'fe' | 'be' | 'brpc', req: http.IncomingMessage, res: http.ServerResponse, expectContinue: boolean): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const loadMatch = /^\/api\/([^/]+)\/([^/]+)\/_stream_load$/.exec(url.pathname);
  const twoPhaseMatch = /^\/api\/([^/]+)\/_stream_load_2pc$/.exec(url.pathname);
  if (role === 'be' && url.pathname === '/api/_load_error_log') {
    const text = streamLoadService(fe).errorLog(url.searchParams.get('file') ?? '');
    if (text === null) sendJsonAndClose(res, 404, { status: 'FAILED', msg: 'no such error log' });
    else {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    }
    return true;
  }
  if (!(loadMatch && role !== 'brpc') && !(twoPhaseMatch && role !== 'brpc')) return false;
  if (req.method !== 'PUT') {
    sendJsonAndClose(res, 405, { status: 'FAILED', msg: `method ${req.method} not allowed, use PUT` }, { Allow: 'PUT' });
    return true;
  }
  const auth = authenticate(fe, req);
  if ('denied' in auth) {
    sendJsonAndClose(res, 401, { Status: 'Fail', Message: auth.denied, status: 'FAILED', msg: auth.denied }, WWW_AUTHENTICATE);
    return true;
  }
  const service = streamLoadService(fe);
  if (twoPhaseMatch) {
    // The operation is in the headers; a body, if any, is ignored.
    const answer = await service.twoPhase(decodeSegment(twoPhaseMatch[1]), req.headers, { user: auth.user, mayActForOthers: fe.users.privilegesOf(auth.account).hasGlobal('ADMIN_PRIV') });
    sendJsonAndClose(res, 200, answer);
    return true;
  }
  const [dbName, tableName] = [decodeSegment(loadMatch![1]), decodeSegment(loadMatch![2])];
  // Doris LoadAction: LOAD_PRIV on the table, checked by the FE before it redirects and again by the BE.
  if (!fe.users.privilegesOf(auth.account).hasTable('LOAD_PRIV', dbName, tableName)) {
    const message = new GaleneError('TABLE_ACCESS_DENIED', ['LOAD', auth.user, (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''), `${dbName}: ${tableName}`]).message;
    sendJsonAndClose(res, 403, { Status: 'Fail', Message: message, status: 'FAILED', msg: message });
    return true;
  }
  if (role === 'fe') {
    // Doris: the FE picks a BE and redirects; --location-trusted resends the credentials there.
    const location = `http://${requestHostName(fe, req)}:${fe.config.getInt('webserver_port')}${url.pathname}${url.search}`;
    res.writeHead(307, { Location: location, 'Content-Length': 0, Connection: 'close' });
    res.end();
    return true;
  }
  const errorUrlBase = `http://${req.headers.host ?? `${requestHostName(fe, req)}:${fe.config.getInt('webserver_port')}`}`;
  const outcome = prepareStreamLoad(service, fe.catalog, dbName, tableName, req.headers, errorUrlBase, auth.user, (warning) => fe.serverLog.log('WARN', 'stream-load', warning));
  if (outcome.kind === 'done') {
    sendJsonAndClose(res, 200, outcome.result);
    return true;
  }
  const signal: { cancelled: string | null } = { cancelled: null };
  // The load reads its own stream of the body: a timeout ends it, and the connection stays up for the answer.
  const body = req.pipe(new PassThrough());
  const cancel = (reason: string): void => {
    if (signal.cancelled === null) signal.cancelled = reason;
    body.destroy(new Error(reason));
  };
  const timer = setTimeout(() => {
    cancel(loadTimeoutMessage(outcome.timeoutMs / 1000));
    req.unpipe(body);
    req.resume();
  }, outcome.timeoutMs);
  const onClose = (): void => {
    if (!req.complete) cancel('the client closed the connection before the body was complete');
  };
  req.once('close', onClose);
  res.on('error', () => undefined);
  if (expectContinue) res.writeContinue();
  const started = Date.now();
  fe.loadCounts.streamLoadStarted();
  let counted = false;
  try {
    const result = await outcome.run(body, signal);
    counted = true;
    fe.loadCounts.streamLoadFinished(result.NumberLoadedRows, result.LoadBytes, result.Status === 'Success' || result.Status === 'Publish Timeout', Date.now() - started);
    if (!res.destroyed) {
      if (req.complete) {
        const text = JSON.stringify(result, null, 4);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      } else {
        sendJsonAndClose(res, 200, result);
      }
    }
  } finally {
    if (!counted) fe.loadCounts.streamLoadFinished(0, 0, false, Date.now() - started);
    clearTimeout(timer);
    req.off('close', onClose);
  }
  return true;
}

/**
 * BE `POST /api/update_config?name=value`: change one run-time-changeable BE setting, answered as Doris does
 * (`{"status":"OK","msg":""}`, or `"BAD"` with the reason). Settings not marked changeable are refused;
 * `persist=true` (Doris writes be_custom.conf) is refused too: put lasting values in galene.conf. Admin
 * users only: these settings switch off WAL fsync or label deduplication.
 */
function updateConfigRoute(fe: Frontend, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return sendJson(res, 405, { status: 'BAD', msg: `method ${req.method} not allowed, use POST` });
  }
  // Checked before the parameters are looked at, so a refused caller learns nothing about the settings.
  const admin = authenticateAdmin(fe, req);
  if ('denied' in admin) return sendRefusal(res, admin, { status: 'BAD', msg: admin.denied });
  sendJson(res, 200, updateConfig(fe.config, new URL(req.url ?? '/', 'http://localhost').searchParams));
}

/** True for an admin; otherwise the refusal is sent (shaped as Doris's BE answers) and false. */
function adminOrRefuse(fe: Frontend, req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const admin = authenticateAdmin(fe, req);
  if ('denied' in admin) sendRefusal(res, admin, { status: 'BAD', msg: admin.denied });
  return !('denied' in admin);
}

export function createHttpServer(fe: Frontend, role: 'fe' | 'be' | 'brpc'): http.Server {
  const routes: Record<string, HttpRoute> = {
    // /api/health, /api/bootstrap, /rest/v1/config/fe, /api/show_proc (http-admin.ts).
    ...adminHttpRoutes(fe, role, (req, res) => {
      const admin = authenticateAdmin(fe, req);
      if (!('denied' in admin)) return admin;
      sendRefusal(res, admin, { msg: admin.denied, code: admin.status, data: null, count: 0 });
      return null;
    }),
    // Prometheus text format, names as Doris (fe-metrics.ts, be-metrics.ts).
    '/metrics': async (_req, res) => {
      const text = role === 'fe' ? await fe.metrics.text() : await fe.beMetrics.metrics();
      res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    },
  };
  if (role === 'fe') {
    // Doris: GET /api/get_wal_size[?host_ports=h:p,...] -> WAL file count per BE (authenticated, as FE REST APIs are).
    routes['/api/get_wal_size'] = (req, res) => {
      const admin = authenticateAdmin(fe, req);
      if ('denied' in admin) return sendRefusal(res, admin, { msg: admin.denied, code: admin.status, data: null, count: 0 });
      sendJson(res, 200, walSizeAnswer(fe.backend, fe.config, new URL(req.url ?? '/', 'http://localhost').searchParams.get('host_ports')));
    };
  }
  if (role === 'be') routes['/api/update_config'] = (req, res) => updateConfigRoute(fe, req, res);
  if (role === 'be') routes['/api/file_cache'] = fileCacheHttpRoute(fe.backend.fileCache, (req, res) => adminOrRefuse(fe, req, res), fe.backend.serverLog);
  if (role === 'be') Object.assign(routes, clearCacheHttpRoutes(fe.backend, (req, res) => adminOrRefuse(fe, req, res)));
  const handle = (req: http.IncomingMessage, res: http.ServerResponse, expectContinue: boolean): void => {
    watchHttpErrors(role === 'fe' ? fe.serverLog : fe.backend.serverLog, `http-${role}`, req, res);
    Promise.resolve()
      .then(async () => {
        if (await handleLoadRequest(fe, role, req, res, expectContinue)) return;
        const route = routes[(req.url ?? '/').split('?')[0]];
        if (expectContinue) res.writeContinue();
        return route ? route(req, res) : sendJson(res, 404, { status: 'FAILED', msg: `no such endpoint: ${req.url}` });
      })
      .catch((err: unknown) => {
        if (!res.headersSent) sendJsonAndClose(res, err instanceof URIError ? 400 : 500, { status: 'FAILED', msg: err instanceof Error ? err.message : String(err) });
        else res.destroy();
      });
  };
  const server = http.createServer((req, res) => handle(req, res, false));
  // 'checkContinue' replaces the automatic 100 Continue: the load answers it after its checks.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => handle(req, res, true));
  // A Stream Load body may take long to arrive; its own `timeout` header bounds it.
  server.requestTimeout = 0;
  return server;
}

export function listenHttp(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}
