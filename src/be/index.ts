/**
 * be/: the backend role (DESIGN §1): the table sources that scan a tablet's rowsets (in-thread or in the
 * scan worker pool), delete-bitmap calculation for merge-on-write tables, and compaction (in a worker).
 * DESIGN §6: may import exec/, load/, storage/, io/, meta/ and common/; never sql/ or fe/. The FE
 * starts it (in one process today; behind an RPC service when it runs as `galene be`).
 */
export { Backend } from './backend';
/** A BE process serves remote scans with `RpcServer.start({ ..., services: [fragmentRpcService(backend)] })`. */
export { fragmentRpcService, FragmentServiceStats, FRAGMENT_SERVICE_NAME } from './fragment-rpc-service';
