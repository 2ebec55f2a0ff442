CREATE TABLE "mirror_source" (
	"id" bigint PRIMARY KEY NOT NULL,
	"cluster_uid" text COLLATE "C" NOT NULL,
	"server" text COLLATE "C" NOT NULL,
	"resource_version" text COLLATE "C",
	"updated_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "observed_writes" (
	"resource_version" bigint PRIMARY KEY NOT NULL,
	"source_resource_version" text COLLATE "C" NOT NULL,
	"via" text COLLATE "C" NOT NULL,
	"observed_at" text COLLATE "C" NOT NULL
);
