CREATE TABLE "worker_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"acquired_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
