-- What a compaction records of the facts it leaves below its horizon (issue 26): their sha256,
-- chained from an earlier compaction's, which svctrail verify checks (src/store/facts-checksum.ts).
ALTER TABLE "compactions" ADD COLUMN "facts_checksum" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "compactions" ADD COLUMN "facts_checksum_after" bigint;
