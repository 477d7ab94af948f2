CREATE TABLE `chain_cursors` (
	`chain` text PRIMARY KEY NOT NULL,
	`height` integer NOT NULL,
	`final_height` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `chain_transfers` (
	`id` text PRIMARY KEY NOT NULL,
	`chain` text NOT NULL,
	`txid` text NOT NULL,
	`event_key` text NOT NULL,
	`block_num` integer NOT NULL,
	`block_hash` text NOT NULL,
	`block_timestamp` integer NOT NULL,
	`from_address` text NOT NULL,
	`to_address` text NOT NULL,
	`token_contract` text,
	`symbol` text NOT NULL,
	`amount_base` text NOT NULL,
	`status` text NOT NULL,
	`order_ref` text,
	`unattributed_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chain_transfers_key` ON `chain_transfers` (`chain`,`txid`,`event_key`);--> statement-breakpoint
CREATE INDEX `chain_transfers_order` ON `chain_transfers` (`order_ref`);--> statement-breakpoint
CREATE INDEX `chain_transfers_chain_status` ON `chain_transfers` (`chain`,`status`);--> statement-breakpoint
CREATE TABLE `deposit_addresses` (
	`family` text NOT NULL,
	`idx` integer NOT NULL,
	`address` text NOT NULL,
	`order_ref` text,
	`created_at` integer NOT NULL,
	`allocated_at` integer,
	PRIMARY KEY(`family`, `idx`)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposit_addresses_address` ON `deposit_addresses` (`address`);--> statement-breakpoint
CREATE INDEX `deposit_addresses_free` ON `deposit_addresses` (`family`,`idx`) WHERE order_ref IS NULL;--> statement-breakpoint
CREATE TABLE `merchants` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`token_sealed` text NOT NULL,
	`webhook_secret_sealed` text NOT NULL,
	`callback_url` text,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`order_id` text NOT NULL,
	`uid` text,
	`type` text NOT NULL,
	`chain` text NOT NULL,
	`symbol` text NOT NULL,
	`token_contract` text,
	`decimals` integer NOT NULL,
	`amount` text NOT NULL,
	`amount_base` text NOT NULL,
	`fee` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`address` text NOT NULL,
	`receive_address` text,
	`expires_at` integer NOT NULL,
	`received_base` text DEFAULT '0' NOT NULL,
	`actual_amount_base` text,
	`tx_id` text,
	`tx_from` text,
	`tx_to` text,
	`tx_amount_base` text,
	`tx_block_num` integer,
	`tx_confirmed_num` integer,
	`tx_status` text,
	`tx_timestamp` integer,
	`params_key` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_merchant_order` ON `orders` (`merchant_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `orders_status_expires` ON `orders` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `orders_chain_type_status` ON `orders` (`chain`,`type`,`status`);--> statement-breakpoint
CREATE INDEX `orders_address` ON `orders` (`address`);--> statement-breakpoint
CREATE TABLE `payout_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`order_ref` text NOT NULL,
	`chain` text NOT NULL,
	`from_address` text NOT NULL,
	`nonce` integer,
	`tx_hash` text NOT NULL,
	`raw_tx` text NOT NULL,
	`status` text NOT NULL,
	`block_num` integer,
	`valid_until` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_attempts_tx` ON `payout_attempts` (`chain`,`tx_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `payout_attempts_nonce` ON `payout_attempts` (`chain`,`from_address`,`nonce`);--> statement-breakpoint
CREATE INDEX `payout_attempts_order` ON `payout_attempts` (`order_ref`);--> statement-breakpoint
CREATE INDEX `payout_attempts_status` ON `payout_attempts` (`chain`,`status`);--> statement-breakpoint
CREATE TABLE `request_nonces` (
	`merchant_id` text NOT NULL,
	`nonce` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`merchant_id`, `nonce`)
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`network` text NOT NULL,
	`chain` text NOT NULL,
	`symbol` text NOT NULL,
	`contract` text,
	`decimals` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_network_chain_symbol` ON `tokens` (`network`,`chain`,`symbol`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`attempted_at` integer NOT NULL,
	`status_code` integer,
	`latency_ms` integer NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_event` ON `webhook_attempts` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`order_ref` text,
	`order_version` integer NOT NULL,
	`notify_type` text NOT NULL,
	`data` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `webhook_events_due` ON `webhook_events` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_events_order` ON `webhook_events` (`order_ref`,`order_version`);--> statement-breakpoint
CREATE INDEX `webhook_events_merchant` ON `webhook_events` (`merchant_id`,`created_at`);