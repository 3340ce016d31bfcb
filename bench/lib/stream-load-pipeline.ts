/**
 * Loading generated chunks through Stream Load with one request in flight while the next chunk is made
 * (bench/tpch.ts, bench/clickbench.ts). A failed request is reported by the next send() or by finish().
 */
import type * as http from 'node:http';
import { streamLoad } from '../streamload';

export class StreamLoadPipeline {
  private inFlight: Promise<void> = Promise.resolve();
  constructor(
    private readonly port: number,
    private readonly db: string,
  ) {}

  /** Waits for the previous request, then starts this one (CSV body). */
  async send(table: string, body: Buffer, headers: http.OutgoingHttpHeaders): Promise<void> {
    await this.inFlight;
    this.inFlight = streamLoad(this.port, this.db, table, body, 'csv', headers).then((result) => {
      if (result.Status !== 'Success') throw new Error(`Stream Load into ${table}: ${result.Status}: ${result.Message ?? ''}`);
    });
    this.inFlight.catch(() => undefined); // awaited (and so reported) by the next send() or finish()
  }

  finish(): Promise<void> {
    return this.inFlight;
  }
}
