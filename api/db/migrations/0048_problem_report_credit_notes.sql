-- Credit notes for the refunds of problem reports (docs/help-after-delivery.md, "Credit notes";
-- docs/decisions/0075-credit-notes-for-problem-reports.md; CGST Rules 2017, rule 53). A report's
-- refund reduces the value of part of an invoiced line: one credit note per refunded report, written
-- by issue_report_credit_note (api/db/functions/issue_report_credit_note.sql) in the transaction of the
-- refund decision. It names the report (unique: once per report), the line, the units and the value
-- credited in paise (the report's value: what was paid for those units, GST included); its taxable
-- value and tax are computed from them as the invoice's are (api/modules/invoice/credit-notes.ts).
ALTER TABLE "credit_notes" ADD COLUMN IF NOT EXISTS "order_issue_id" text REFERENCES "order_issues"("id") ON DELETE restrict;
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN IF NOT EXISTS "units" integer;
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN IF NOT EXISTS "amount_paise" integer;
--> statement-breakpoint
ALTER TABLE "credit_notes" DROP CONSTRAINT IF EXISTS "credit_notes_reason_check";
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_reason_check" CHECK ("reason" IN ('cancelled', 'line_refund', 'problem_report'));
--> statement-breakpoint
-- A report's note names its report, its line, its units and its value; the others none of the three.
ALTER TABLE "credit_notes" DROP CONSTRAINT IF EXISTS "credit_notes_report_check";
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_report_check" CHECK (
  ("reason" = 'problem_report') = ("order_issue_id" IS NOT NULL)
  AND ("order_issue_id" IS NULL OR ("order_line_id" IS NOT NULL AND "units" >= 1 AND "amount_paise" >= 0))
  AND ("order_issue_id" IS NOT NULL OR ("units" IS NULL AND "amount_paise" IS NULL)));
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "credit_notes_issue_key" ON "credit_notes" ("order_issue_id") WHERE "order_issue_id" IS NOT NULL;
--> statement-breakpoint
-- The two keys of migration 0026 keep their meaning: one whole-line note per line, one cancel note
-- per order. A report's note names a line too, so the line key leaves those out (a line may have a
-- report's note and then a whole-line note for what is left of it).
DROP INDEX IF EXISTS "credit_notes_line_key";
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "credit_notes_line_key" ON "credit_notes" ("order_line_id") WHERE "order_line_id" IS NOT NULL AND "order_issue_id" IS NULL;
