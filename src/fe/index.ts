/**
 * fe/: the frontend role (DESIGN §1): the server that owns the listeners (galene-server.ts), the
 * Frontend's shared services (catalog, plan cache, backends, Stream Load and Group Commit, users,
 * audit log), one Session per connection (session variables, transactions, prepared statements), the
 * statement handlers (statements/, one per statement kind), the HTTP API and information_schema.
 * DESIGN §6: may import sql/, be/, exec/, load/, storage/, io/, meta/, protocol/, web/ and common/; only
 * cli/ imports it.
 *
 * Entry points (imported by file): galene-server.ts (startGalene), frontend.ts (Frontend, which implements
 * ServerServices: server-services.ts), session.ts (Session, which statements see as StatementSession:
 * statements/statement-session.ts), load-planner.ts (Stream Load headers -> LoadPlan).
 */
export {};
