-- The ledger is the single source of truth for money. These triggers keep users.balance_kobo equal to the sum of the
-- user's ledger rows by construction: the balance changes in the same statement that appends the ledger row, so no
-- code path can move money without a ledger row or write a row without moving the balance. The CHECK on users
-- (balance_kobo >= 0) makes an overdrawing debit abort its statement and, with it, the whole D1 batch.
-- Idempotent credits use INSERT ... ON CONFLICT(key) DO NOTHING (an upsert clause, which keeps the ABORT policy inside
-- the trigger; INSERT OR IGNORE would not, and must never be used on this table).
CREATE TRIGGER `ledger_apply_to_balance` AFTER INSERT ON `ledger`
BEGIN
  UPDATE `users`
     SET `balance_kobo` = `balance_kobo` + NEW.`amount_kobo`,
         `total_deposited_kobo` = `total_deposited_kobo` + CASE WHEN NEW.`kind` = 'fund' THEN NEW.`amount_kobo` ELSE 0 END
   WHERE `id` = NEW.`user_id`;
  SELECT RAISE(ABORT, 'ledger row for unknown user') WHERE changes() = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_append_only_update` BEFORE UPDATE ON `ledger`
BEGIN
  SELECT RAISE(ABORT, 'ledger is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_append_only_delete` BEFORE DELETE ON `ledger`
BEGIN
  SELECT RAISE(ABORT, 'ledger is append-only');
END;
