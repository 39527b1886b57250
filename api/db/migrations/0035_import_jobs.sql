-- Catalogue imports as jobs (docs/product-csv.md, "Imports as jobs"; docs/decisions/0061-imports-as-jobs.md):
-- one row per dry run or apply, holding the uploaded file, the progress (rows done of rows total,
-- the checkpoint a resumed run continues from) and the result. The pg-boss job that runs it carries
-- only this row's id (docs/jobs.md, "Job names and retry policy").
CREATE TABLE IF NOT EXISTS "import_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text DEFAULT 'product' NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"content" text NOT NULL,
	"counts" jsonb DEFAULT '{"rows":0,"created":0,"updated":0,"unchanged":0}'::jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"message" text,
	"checked_job_id" text REFERENCES "import_jobs"("id") ON DELETE SET NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "import_jobs_kind_check" CHECK ("kind" IN ('product')),
	CONSTRAINT "import_jobs_mode_check" CHECK ("mode" IN ('dry-run', 'apply')),
	CONSTRAINT "import_jobs_status_check" CHECK ("status" IN ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "import_jobs_rows_check" CHECK ("rows_done" >= 0 AND "rows_done" <= "rows_total")
);
--> statement-breakpoint
-- The file is stored without compression (PostgreSQL docs, "TOAST": EXTERNAL storage): compressing
-- megabytes with pglz held the embedded database, and with it the server's thread, on every upload.
ALTER TABLE "import_jobs" ALTER COLUMN "content" SET STORAGE EXTERNAL;
--> statement-breakpoint
-- One apply per checked file: a second "Apply" of the same dry run finds the first one.
CREATE UNIQUE INDEX IF NOT EXISTS "import_jobs_checked_job_idx" ON "import_jobs" USING btree ("checked_job_id") WHERE "mode" = 'apply';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "import_jobs_created_idx" ON "import_jobs" USING btree ("created_at");
