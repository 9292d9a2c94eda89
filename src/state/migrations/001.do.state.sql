-- The service's shared state (src/state/store.ts): JSON documents by namespace and key. Updates lock the
-- rows they read (SELECT ... FOR UPDATE) in (ns, key) order, so concurrent nodes are serialised per document.
CREATE TABLE state_docs (
  ns text NOT NULL,
  key text NOT NULL,
  -- NULL: a placeholder row inserted so that an update of a document not written yet has a row to lock
  doc jsonb,
  PRIMARY KEY (ns, key)
);

-- tokens are found by their public id (CLI, console) as well as by hash
CREATE INDEX state_docs_token_id ON state_docs ((doc ->> 'id')) WHERE ns = 'tokens';

-- Rate limits across nodes: one fixed window per token and class. Unlogged: a crash only forgets the
-- current minute's counts, and the table is written on every request.
CREATE UNLOGGED TABLE rate_windows (
  key text PRIMARY KEY,
  started timestamptz NOT NULL,
  hits integer NOT NULL
);
