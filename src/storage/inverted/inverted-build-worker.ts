/** Entry point of the inverted-index build worker thread (InvertedBuilder). */
import { serveBuildRequests } from '../index-build-worker';
import type { InvertedBuildRequest } from './inverted-builder';
import { buildInvertedFileSync } from './inverted-builder';

serveBuildRequests((request: InvertedBuildRequest) => buildInvertedFileSync(request.target, request.input));
