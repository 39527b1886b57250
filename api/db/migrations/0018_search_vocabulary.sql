-- Search vocabulary (docs/search.md, "Synonyms"; docs/decisions/0028-search-held-out-ranking.md).
-- Each synonym row now says what kind of word it is and where its meaning comes from:
--   kind: 'word' (a name for a thing: doodh -> milk) or 'brand' (a brand name -> what it makes:
--         parle -> biscuits), used only when no product of the store has the brand, so the search
--         says the brand is not stocked and shows what it makes instead of correcting the word into
--         an unrelated one;
--   source: the dictionary, list or catalogue name the meaning can be checked in
--         (api/db/seed/data/synonyms.csv lists the keys).
ALTER TABLE "search_synonyms" ADD COLUMN IF NOT EXISTS "kind" text DEFAULT 'word' NOT NULL;
--> statement-breakpoint
ALTER TABLE "search_synonyms" ADD COLUMN IF NOT EXISTS "source" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "search_synonyms" DROP CONSTRAINT IF EXISTS "search_synonyms_kind_check";
--> statement-breakpoint
ALTER TABLE "search_synonyms" ADD CONSTRAINT "search_synonyms_kind_check" CHECK ("kind" in ('word', 'brand'));
