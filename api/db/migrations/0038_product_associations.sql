-- "Frequently bought together" (docs/recommendations.md; docs/decisions/0065-association-rules-in-the-database.md):
-- the association rules X → Y mined from delivered orders by the `recommend.mine` job, one row per
-- rule that passed the support, confidence and lift thresholds. A page reads the rules of one or a
-- few antecedents through the primary key (one indexed query); the job replaces every row in one
-- transaction, so every instance reads one whole mining.
CREATE TABLE IF NOT EXISTS "product_associations" (
	"antecedent_id" text NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
	"consequent_id" text NOT NULL REFERENCES "products"("id") ON DELETE CASCADE,
	"pair_orders" integer NOT NULL,
	"support" double precision NOT NULL,
	"confidence" double precision NOT NULL,
	"lift" double precision NOT NULL,
	"mined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_associations_pk" PRIMARY KEY ("antecedent_id", "consequent_id"),
	CONSTRAINT "product_associations_measures_check" CHECK ("support" > 0 AND "support" <= 1 AND "confidence" > 0 AND "confidence" <= 1 AND "lift" > 0)
);
