CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`chain` text NOT NULL,
	`symbol` text NOT NULL,
	`decimals` integer NOT NULL,
	`kind` text NOT NULL,
	`available_delta` text NOT NULL,
	`frozen_delta` text NOT NULL,
	`order_ref` text,
	`reason` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_entries_merchant` ON `ledger_entries` (`merchant_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_order_kind` ON `ledger_entries` (`order_ref`,`kind`);--> statement-breakpoint
CREATE TABLE `merchant_balances` (
	`merchant_id` text NOT NULL,
	`chain` text NOT NULL,
	`symbol` text NOT NULL,
	`decimals` integer NOT NULL,
	`available` text NOT NULL,
	`frozen` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`merchant_id`, `chain`, `symbol`)
);
--> statement-breakpoint
CREATE TABLE `payout_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`order_ref` text NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	`note` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_holds_open` ON `payout_holds` (`order_ref`,`kind`) WHERE resolved_at IS NULL;--> statement-breakpoint
CREATE INDEX `payout_holds_kind` ON `payout_holds` (`kind`,`resolved_at`);--> statement-breakpoint
DROP INDEX `payout_attempts_nonce`;--> statement-breakpoint
ALTER TABLE `payout_attempts` ADD `slot` text;--> statement-breakpoint
ALTER TABLE `payout_attempts` ADD `replaces_attempt` text;--> statement-breakpoint
ALTER TABLE `payout_attempts` ADD `max_fee_per_gas` text;--> statement-breakpoint
ALTER TABLE `payout_attempts` ADD `max_priority_fee_per_gas` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payout_attempts_slot_nonce` ON `payout_attempts` (`chain`,`from_address`,`nonce`) WHERE replaces_attempt IS NULL;--> statement-breakpoint
CREATE INDEX `payout_attempts_recent` ON `payout_attempts` (`chain`,`updated_at`);--> statement-breakpoint
CREATE INDEX `orders_merchant_payouts` ON `orders` (`merchant_id`,`created_at`) WHERE type = 'PAYOUT';--> statement-breakpoint
CREATE INDEX `orders_open_payouts` ON `orders` (`chain`,`status`) WHERE type = 'PAYOUT' AND status IN ('INIT', 'PENDING', 'PENDING_CONFIRMATION');