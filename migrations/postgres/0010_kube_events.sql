CREATE TABLE "kube_event_occurrences" (
	"resource_version" bigint PRIMARY KEY NOT NULL,
	"uid" text COLLATE "C" NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"involved_kind" text COLLATE "C" NOT NULL,
	"involved_namespace" text COLLATE "C" NOT NULL,
	"involved_name" text COLLATE "C" NOT NULL,
	"involved_uid" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"reason" text COLLATE "C" NOT NULL,
	"reporting_controller" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kube_events" (
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"uid" text COLLATE "C" NOT NULL,
	"resource_version" bigint NOT NULL,
	"stream_version" bigint NOT NULL,
	"object" text COLLATE "C" NOT NULL,
	"expires_at" text COLLATE "C",
	CONSTRAINT "kube_events_namespace_name_pk" PRIMARY KEY("namespace","name")
);
--> statement-breakpoint
CREATE INDEX "kube_event_occurrences_involved" ON "kube_event_occurrences" USING btree ("involved_namespace","involved_name","resource_version");--> statement-breakpoint
CREATE INDEX "kube_event_occurrences_namespace" ON "kube_event_occurrences" USING btree ("namespace","resource_version");--> statement-breakpoint
CREATE INDEX "kube_events_resource_version" ON "kube_events" USING btree ("resource_version");--> statement-breakpoint
CREATE INDEX "kube_events_namespace_resource_version" ON "kube_events" USING btree ("namespace","resource_version");--> statement-breakpoint
CREATE INDEX "kube_events_expires_at" ON "kube_events" USING btree ("expires_at") WHERE "kube_events"."expires_at" IS NOT NULL;