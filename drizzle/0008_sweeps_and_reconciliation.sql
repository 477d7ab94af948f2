CREATE TABLE `operator_costs` (
	`id` text PRIMARY KEY NOT NULL,
	`chain` text NOT NULL,
	`kind` text NOT NULL,
	`symbol` text NOT NULL,
	`decimals` integer NOT NULL,
	`amount_base` text NOT NULL,
	`sweep_id` text NOT NULL,
	`tx_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_costs_tx` ON `operator_costs` (`chain`,`tx_hash`,`kind`);--> statement-breakpoint
CREATE INDEX `operator_costs_chain` ON `operator_costs` (`chain`,`kind`);--> statement-breakpoint
CREATE TABLE `reconciliations` (
	`id` text PRIMARY KEY NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL,
	`chains` text NOT NULL,
	`addresses` integer NOT NULL,
	`unexplained` integer NOT NULL,
	`report` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reconciliations_finished` ON `reconciliations` (`finished_at`);--> statement-breakpoint
CREATE TABLE `sweep_txs` (
	`id` text PRIMARY KEY NOT NULL,
	`sweep_id` text NOT NULL,
	`chain` text NOT NULL,
	`role` text NOT NULL,
	`from_address` text NOT NULL,
	`to_address` text NOT NULL,
	`nonce` integer,
	`tx_hash` text NOT NULL,
	`raw_tx` text NOT NULL,
	`value_base` text NOT NULL,
	`status` text NOT NULL,
	`block_num` integer,
	`valid_until` integer,
	`slot` text,
	`fee_base` text,
	`fee_payer` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sweep_txs_tx` ON `sweep_txs` (`chain`,`tx_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `sweep_txs_nonce` ON `sweep_txs` (`chain`,`from_address`,`nonce`) WHERE nonce IS NOT NULL;--> statement-breakpoint
CREATE INDEX `sweep_txs_sweep` ON `sweep_txs` (`sweep_id`);--> statement-breakpoint
CREATE INDEX `sweep_txs_status` ON `sweep_txs` (`chain`,`status`);--> statement-breakpoint
CREATE TABLE `sweeps` (
	`id` text PRIMARY KEY NOT NULL,
	`chain` text NOT NULL,
	`address` text NOT NULL,
	`deposit_index` integer NOT NULL,
	`destination` text NOT NULL,
	`destination_kind` text NOT NULL,
	`symbol` text NOT NULL,
	`token_contract` text,
	`decimals` integer NOT NULL,
	`fee_mode` text NOT NULL,
	`amount_base` text NOT NULL,
	`fee_estimate_base` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`held` integer DEFAULT false NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`next_try_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`final_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sweeps_open` ON `sweeps` (`chain`,`address`,`symbol`) WHERE status NOT IN ('final', 'failed');--> statement-breakpoint
CREATE INDEX `sweeps_status` ON `sweeps` (`chain`,`status`);--> statement-breakpoint
CREATE INDEX `sweeps_address` ON `sweeps` (`chain`,`address`);--> statement-breakpoint
CREATE INDEX `sweeps_created` ON `sweeps` (`created_at`);--> statement-breakpoint
CREATE TABLE `tx_fees` (
	`chain` text NOT NULL,
	`tx_hash` text NOT NULL,
	`fee_base` text NOT NULL,
	PRIMARY KEY(`chain`, `tx_hash`)
);
--> statement-breakpoint
CREATE TABLE `wallet_floats` (
	`chain` text NOT NULL,
	`address` text NOT NULL,
	`symbol` text NOT NULL,
	`float_base` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`chain`, `address`, `symbol`)
);
--> statement-breakpoint
CREATE TABLE `wallet_leases` (
	`chain` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
