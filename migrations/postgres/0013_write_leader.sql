-- The replica that appends for all on PostgreSQL (src/write-leader): one row, rewritten by each
-- replica that takes the write leader's advisory lock, read by the others.
CREATE TABLE "write_leader" (
	"id" bigint PRIMARY KEY NOT NULL,
	"url" text COLLATE "C" NOT NULL,
	"token" text COLLATE "C" NOT NULL,
	"ca_certificate" text COLLATE "C" NOT NULL,
	"certificate_sha256" text COLLATE "C" NOT NULL,
	"since" text COLLATE "C" NOT NULL
);
