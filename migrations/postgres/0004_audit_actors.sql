CREATE TABLE "audit_actors" (
	"resource_version" bigint PRIMARY KEY NOT NULL,
	"audit_id" text COLLATE "C" NOT NULL,
	"user" text COLLATE "C" NOT NULL,
	"groups" text COLLATE "C" NOT NULL,
	"user_agent" text COLLATE "C" NOT NULL,
	"source_ips" text COLLATE "C" NOT NULL,
	"verb" text COLLATE "C" NOT NULL,
	"request_received_at" text COLLATE "C" NOT NULL,
	"identified_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_audit_events" (
	"audit_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"source_resource_version" text COLLATE "C" NOT NULL,
	"write" text COLLATE "C" NOT NULL,
	"received_at" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_audit_events_object" ON "pending_audit_events" USING btree ("namespace","name","source_resource_version");--> statement-breakpoint
CREATE INDEX "pending_audit_events_received" ON "pending_audit_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "observed_writes_source" ON "observed_writes" USING btree ("source_resource_version");