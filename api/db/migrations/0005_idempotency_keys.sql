-- Idempotency keys of the admin create endpoints (api/lib/idempotency.ts; docs/scale-out.md,
-- "Write safety"). A row is written in the same transaction as the row it created, so a retry of a
-- create that was saved but never acknowledged finds it and answers the same thing instead of making
-- a second row. Keys are per user and per endpoint (`scope`); rows older than a day are removed.
CREATE TABLE IF NOT EXISTS "idempotency_keys" (
	"user_id" text NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id", "scope", "key")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "idempotency_keys_created_idx" ON "idempotency_keys" ("created_at");
