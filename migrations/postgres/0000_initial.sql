CREATE TABLE "allocations" (
	"kind" text COLLATE "C" NOT NULL,
	"value" text COLLATE "C" NOT NULL,
	"uid" text COLLATE "C" NOT NULL,
	CONSTRAINT "allocations_kind_value_pk" PRIMARY KEY("kind","value")
);
--> statement-breakpoint
CREATE TABLE "condition_transitions" (
	"id" bigint PRIMARY KEY NOT NULL,
	"resource_version" bigint NOT NULL,
	"uid" text COLLATE "C" NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"condition_type" text COLLATE "C" NOT NULL,
	"from_status" text COLLATE "C",
	"to_status" text COLLATE "C",
	"reason" text COLLATE "C" NOT NULL,
	"message" text COLLATE "C" NOT NULL,
	"observed_generation" bigint,
	"last_transition_time" text COLLATE "C",
	"recorded_at" text COLLATE "C" NOT NULL,
	"actor_user" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"position" bigint PRIMARY KEY NOT NULL,
	"resource_version" bigint NOT NULL,
	"stream_id" text COLLATE "C" NOT NULL,
	"stream_version" bigint NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"data" text COLLATE "C" NOT NULL,
	"recorded_at" text COLLATE "C" NOT NULL,
	"actor_user" text COLLATE "C" NOT NULL,
	"actor_groups" text COLLATE "C" NOT NULL,
	"user_agent" text COLLATE "C" NOT NULL,
	"field_manager" text COLLATE "C" NOT NULL,
	"request_id" text COLLATE "C" NOT NULL,
	"verb" text COLLATE "C" NOT NULL,
	"subresource" text COLLATE "C" DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingress_intervals" (
	"id" bigint PRIMARY KEY NOT NULL,
	"address" text COLLATE "C" NOT NULL,
	"address_type" text COLLATE "C" NOT NULL,
	"uid" text COLLATE "C" NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"from_resource_version" bigint NOT NULL,
	"from_time" text COLLATE "C" NOT NULL,
	"set_by" text COLLATE "C" NOT NULL,
	"to_resource_version" bigint,
	"to_time" text COLLATE "C",
	"cleared_by" text COLLATE "C",
	"span" "int8range" GENERATED ALWAYS AS (int8range(from_resource_version, to_resource_version)) STORED
);
--> statement-breakpoint
CREATE TABLE "service_lifetimes" (
	"uid" text COLLATE "C" PRIMARY KEY NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"created_resource_version" bigint NOT NULL,
	"deleted_resource_version" bigint
);
--> statement-breakpoint
CREATE TABLE "service_revisions" (
	"uid" text COLLATE "C" NOT NULL,
	"resource_version" bigint NOT NULL,
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"recorded_at" text COLLATE "C" NOT NULL,
	"object" text COLLATE "C" NOT NULL,
	CONSTRAINT "service_revisions_uid_resource_version_pk" PRIMARY KEY("uid","resource_version")
);
--> statement-breakpoint
CREATE TABLE "services" (
	"namespace" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"uid" text COLLATE "C" NOT NULL,
	"resource_version" bigint NOT NULL,
	"stream_version" bigint NOT NULL,
	"object" text COLLATE "C" NOT NULL,
	CONSTRAINT "services_namespace_name_pk" PRIMARY KEY("namespace","name")
);
--> statement-breakpoint
CREATE INDEX "allocations_uid" ON "allocations" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "condition_transitions_uid_type_rv" ON "condition_transitions" USING btree ("uid","condition_type","resource_version");--> statement-breakpoint
CREATE INDEX "condition_transitions_name_rv" ON "condition_transitions" USING btree ("namespace","name","resource_version");--> statement-breakpoint
CREATE INDEX "condition_transitions_rv" ON "condition_transitions" USING btree ("resource_version");--> statement-breakpoint
CREATE INDEX "condition_transitions_namespace_rv" ON "condition_transitions" USING btree ("namespace","resource_version");--> statement-breakpoint
CREATE INDEX "condition_transitions_service" ON "condition_transitions" USING btree ("namespace","name","uid");--> statement-breakpoint
CREATE UNIQUE INDEX "events_stream_version_unique" ON "events" USING btree ("stream_id","stream_version");--> statement-breakpoint
CREATE INDEX "events_name_position" ON "events" USING btree ("namespace","name","position");--> statement-breakpoint
CREATE INDEX "events_namespace_position" ON "events" USING btree ("namespace","position");--> statement-breakpoint
CREATE INDEX "events_actor_position" ON "events" USING btree ("actor_user","position");--> statement-breakpoint
CREATE INDEX "events_type_position" ON "events" USING btree ("type","position");--> statement-breakpoint
CREATE INDEX "ingress_intervals_address_uid_from" ON "ingress_intervals" USING btree ("address","uid","from_resource_version");--> statement-breakpoint
CREATE INDEX "ingress_intervals_uid_from" ON "ingress_intervals" USING btree ("uid","from_resource_version");--> statement-breakpoint
CREATE INDEX "ingress_intervals_open" ON "ingress_intervals" USING btree ("uid") WHERE "ingress_intervals"."to_resource_version" IS NULL;--> statement-breakpoint
CREATE INDEX "ingress_intervals_from" ON "ingress_intervals" USING btree ("from_resource_version");--> statement-breakpoint
CREATE INDEX "ingress_intervals_namespace_from" ON "ingress_intervals" USING btree ("namespace","from_resource_version");--> statement-breakpoint
CREATE INDEX "ingress_intervals_name_from" ON "ingress_intervals" USING btree ("namespace","name","from_resource_version");--> statement-breakpoint
CREATE INDEX "ingress_intervals_span" ON "ingress_intervals" USING gist ("span");--> statement-breakpoint
CREATE INDEX "service_lifetimes_name" ON "service_lifetimes" USING btree ("namespace","name","created_resource_version");--> statement-breakpoint
CREATE UNIQUE INDEX "services_uid_unique" ON "services" USING btree ("uid");