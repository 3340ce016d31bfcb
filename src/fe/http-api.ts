/**
 * The HTTP endpoints of the FE (http_port) and BE (webserver_port, brpc_port in this single-process
 * mode): health, Prometheus-style /metrics. Stream Load arrives here in issue 3.
 */
import * as http from 'node:http';
import type { Frontend } from './frontend';

export type HttpRoute = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** Prometheus text metrics (names as Doris: doris_fe_* / doris_be_*). */
function metricsText(fe: Frontend, role: 'fe' | 'be'): string {
  const lines: string[] = [];
  const gauge = (name: string, value: number, help: string): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
  };
  if (role === 'fe') {
    gauge('doris_fe_connection_total', fe.sessions.size, 'Open MySQL connections');
    gauge('doris_fe_database_num', fe.catalog.listDatabases().length, 'Databases');
  } else {
    const memory = process.memoryUsage();
    gauge('doris_be_process_rss_bytes', memory.rss, 'Resident set size');
    gauge('doris_be_page_cache_bytes', fe.backend.pageCache.stats().usedBytes, 'Decoded page cache bytes in use');
  }
  return lines.join('\n') + '\n';
}

export function createHttpServer(fe: Frontend, role: 'fe' | 'be' | 'brpc'): http.Server {
  const routes: Record<string, HttpRoute> = {
    '/api/health': (_req, res) => sendJson(res, 200, { status: 'OK', role }),
    '/metrics': (_req, res) => {
      const text = metricsText(fe, role === 'fe' ? 'fe' : 'be');
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' });
      res.end(text);
    },
  };
  return http.createServer((req, res) => {
    const route = routes[(req.url ?? '/').split('?')[0]];
    Promise.resolve()
      .then(() => (route ? route(req, res) : sendJson(res, 404, { status: 'FAILED', msg: `no such endpoint: ${req.url}` })))
      .catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { status: 'FAILED', msg: err instanceof Error ? err.message : String(err) });
        else res.destroy();
      });
  });
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
