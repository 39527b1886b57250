-- Phone sign-in and verified mobile numbers (docs/decisions/0052-phone-sign-in-and-one-time-codes.md;
-- docs/api-contract.md, "Phone sign-in"). An account made by phone sign-in has no email and no
-- password until the shopper adds them: both columns become nullable (the unique index on email
-- allows any number of NULLs, PostgreSQL docs, "Unique Indexes").
ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;
--> statement-breakpoint
-- The mobile number was proven by an SMS code (sign-in or the profile's verification).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "mobile_verified" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The shopper's switch for order status updates by SMS (off by default; sent only to a verified number).
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "sms_order_updates" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- One account per verified number: two concurrent verifications (or sign-ins) of one number cannot
-- both succeed. Unverified numbers (typed into a profile) may repeat.
CREATE UNIQUE INDEX IF NOT EXISTS "users_verified_mobile_key" ON "users" ("mobile") WHERE "mobile_verified";
--> statement-breakpoint
-- The live SMS code of one purpose and subject: `signin` codes are keyed by the number, `link`
-- codes (a signed-in user verifying a number) by the user's id, so the two never replace each other.
-- The code is stored as an HMAC (api/lib/otp.ts); `sent_at` paces resends, `attempts` counts wrong tries.
CREATE TABLE IF NOT EXISTS "sms_codes" (
  "purpose" text NOT NULL CHECK ("purpose" IN ('signin', 'link')),
  "subject" text NOT NULL,
  "mobile" text NOT NULL,
  "otp_hash" text NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "sent_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("purpose", "subject")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_codes_expires_idx" ON "sms_codes" ("expires_at");
