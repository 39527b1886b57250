-- The file of a catalogue import job in parts (docs/product-csv.md, "Imports as jobs";
-- docs/decisions/0061-imports-as-jobs.md): one row per part of at most 128 KiB of text, written and
-- read one statement per part with a turn of the event loop between them. On the embedded database a
-- statement runs in the server's own thread: storing a 4 MB file in one statement held it 0.1-0.4 s.
-- `import_jobs.content` stays for the jobs stored before this migration (read when a job has no part).
CREATE TABLE IF NOT EXISTS "import_job_parts" (
	"job_id" text NOT NULL REFERENCES "import_jobs"("id") ON DELETE CASCADE,
	"n" integer NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "import_job_parts_pk" PRIMARY KEY ("job_id", "n"),
	CONSTRAINT "import_job_parts_n_check" CHECK ("n" >= 0)
);
--> statement-breakpoint
-- Without compression, as import_jobs.content (migration 0035_import_jobs): pglz over megabytes held
-- the embedded database.
ALTER TABLE "import_job_parts" ALTER COLUMN "content" SET STORAGE EXTERNAL;
