/**
 * Entry point of the ANN build worker thread (AnnBuilder): runs buildAnnFileSync off the event loop and
 * posts back the written file's header or the error.
 */
import { parentPort } from 'node:worker_threads';
import { GaleneError } from '../../common/errors';
import type { AnnBuildReply, AnnBuildRequest } from './ann-builder';
import { buildAnnFileSync } from './ann-builder';

parentPort!.on('message', (request: AnnBuildRequest) => {
  let reply: AnnBuildReply;
  try {
    reply = { id: request.id, ok: true, header: buildAnnFileSync(request.target, request.input) };
  } catch (err) {
    reply = { id: request.id, ok: false, code: err instanceof GaleneError ? err.code : null, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
