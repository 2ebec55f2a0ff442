-- Compaction (issue 26): as migrations/0010_history_compaction.sql for SQLite.
CREATE TABLE "compactions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"horizon_resource_version" bigint NOT NULL,
	"horizon_time" text COLLATE "C" NOT NULL,
	"actor_user" text COLLATE "C" NOT NULL,
	"started_at" text COLLATE "C" NOT NULL,
	"finished_at" text COLLATE "C",
	"removed_writes" bigint DEFAULT 0 NOT NULL,
	"removed_objects" bigint DEFAULT 0 NOT NULL,
	"removed_bytes" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revision_facts" (
	"uid" text COLLATE "C" NOT NULL,
	"resource_version" bigint NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"recorded_at" text COLLATE "C" NOT NULL,
	"managed_fields" text COLLATE "C",
	"patch" text COLLATE "C" NOT NULL,
	CONSTRAINT "revision_facts_uid_resource_version_pk" PRIMARY KEY("uid","resource_version")
);
--> statement-breakpoint
CREATE INDEX "compactions_horizon" ON "compactions" USING btree ("horizon_resource_version");