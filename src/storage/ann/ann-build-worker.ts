/**
 * Entry point of the ANN build worker thread (AnnBuilder): runs buildAnnFileSync off the event loop and
 * posts back the written file's header or the error.
 */
import { serveBuildRequests } from '../index-build-worker';
import type { AnnBuildRequest } from './ann-builder';
import { buildAnnFileSync } from './ann-builder';

serveBuildRequests((request: AnnBuildRequest) => buildAnnFileSync(request.target, request.input));
