-- Jobs across nodes (src/jobs/pg.ts): the job records (the columns of the LMDB JobRecord), their input
-- chunks and one result per unit. The units themselves are pg-boss messages (its own schema, pgboss).
-- A unit's result and its job's progress are written in one transaction under the job row's lock; the
-- result's primary key (job, chunk) makes that commit idempotent. Inputs and outputs are `json` (kept as
-- text, never queried inside): a contact chunk's results are ~1 MiB, which jsonb would parse on every write.
CREATE TABLE recapito_jobs (
  job text PRIMARY KEY,
  kind text NOT NULL,
  account text NOT NULL,
  language text NOT NULL,
  italian boolean NOT NULL,
  state text NOT NULL,
  rows integer NOT NULL,
  done integer NOT NULL DEFAULT 0,
  chunks integer NOT NULL,
  chunks_done integer NOT NULL DEFAULT 0,
  chunk_size integer NOT NULL,
  created timestamptz NOT NULL,
  updated timestamptz NOT NULL,
  counter text NOT NULL,
  charged integer NOT NULL,
  refunded integer NOT NULL DEFAULT 0,
  outcomes jsonb NOT NULL,
  error text,
  chunk_units integer[] NOT NULL,
  ticket jsonb NOT NULL
);
CREATE INDEX recapito_jobs_active ON recapito_jobs (account) WHERE state IN ('queued', 'running');
CREATE TABLE recapito_job_chunks (
  job text NOT NULL REFERENCES recapito_jobs (job) ON DELETE CASCADE,
  chunk integer NOT NULL,
  input json NOT NULL,
  PRIMARY KEY (job, chunk)
);
CREATE TABLE recapito_job_results (
  job text NOT NULL REFERENCES recapito_jobs (job) ON DELETE CASCADE,
  chunk integer NOT NULL,
  output json NOT NULL,
  PRIMARY KEY (job, chunk)
);
