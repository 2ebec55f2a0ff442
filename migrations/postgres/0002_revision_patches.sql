-- Each revision's JSON patch, stored at write time as on SQLite (migration 0007 there). NOT NULL
-- with no backfill: the PostgreSQL store has never been released without it, so no table holds rows.
ALTER TABLE "service_revisions" ADD COLUMN "patch" text COLLATE "C" NOT NULL;
