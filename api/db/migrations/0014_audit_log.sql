-- The audit trail of admin and staff changes (docs/decisions/0024-staff-role-and-audit-trail.md):
-- one row per change, written in the change's own transaction. `actor_id` keeps no foreign key so
-- an entry outlives its author; `actor_email` is the author's email at the time (null: the operator's
-- command line, `npm run admin`). `before`/`after` hold the changed fields only.
CREATE TABLE IF NOT EXISTS "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_at_idx" ON "audit_log" USING btree ("at","id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_actor_idx" ON "audit_log" USING btree ("actor_email","at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_entity_idx" ON "audit_log" USING btree ("entity","at");
